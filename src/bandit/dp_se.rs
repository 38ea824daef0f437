//! DP-SE (Sajed & Sheffet 2019), ε-global DP successive elimination converted to fixed-confidence
//! BAI by stopping when one arm is left (paper Sec. 4.4; READINGS.md §D.10 and the parameterisation of
//! the authors' public code, READINGS.md §P).
//!
//! # The algorithm (READINGS.md §P)
//! ```text
//! S = [K]; for epochs e = 1, 2, …  (while |S| > 1):
//!   Δ_e = 2^{-e},  L1 = ln(8|S|e²/δ),  L2 = ln(4|S|e²/δ)
//!   R_e = max{32·L1/Δ_e², 8·L2/(εΔ_e)} + 1,  m_e = ⌊R_e⌋
//!   for a in S:  pull a m_e times (rewards of earlier epochs are forgotten)
//!                μ̃_a = (epoch reward sum of a)/m_e + Lap(1/(ε m_e))   (scale rounded up)
//!   h_e = sqrt(L1/(2R_e)),  c_e = L2/(R_e ε)
//!   eliminate every a ∈ S with max_{i∈S} μ̃_i − μ̃_a > 2(h_e + c_e)
//! recommend the last arm left (= argmax μ̃ of the last epoch); τ = total pulls; rounds = epochs
//! ```
//! `|S|` is the size of the active set at the start of the epoch.
//!
//! **Simulation.** An epoch's reward sum is drawn in ONE draw per active arm: `Bin(m_e, μ_a)`
//! for Bernoulli arms, `N(m_e μ_a, m_e σ²)` for Gaussian arms, followed by one Laplace draw, in
//! the order of the active arms (the Laplace draw is
//! [`crate::privacy::laplace_noise`], `sign × Exp(1) × b`); the cost of a run is `O(K × epochs)` whatever `τ`.
//!
//! **Variants.** [`Rules::Paper`] (default) is the faithful DP-SE: the epoch
//! mean divides the epoch's reward sum by the epoch's own count `m_e`.
//! [`Rules::Reference`] reproduces the public code's variant (READINGS.md §P
//! caveat): the epoch's reward sum is divided by the arm's *cumulative* count `Σ_{e' ≤ e} m_{e'}`,
//! which shrinks every active mean by the same factor from epoch 2 on and so delays elimination.
//! Both use the noise `Lap(1/(ε m_e))` and the same radii.
//!
//! **Privacy.** With rewards in `[0, 1]`, one user changes an epoch's sum by at most 1, hence the
//! epoch mean by at most `1/m_e` (paper variant) or `1/Σ m ≤ 1/m_e` (reference variant): the
//! Laplace mechanism with scale `1/(ε m_e)` makes each epoch's release ε-DP (Dwork & Roth 2014,
//! Thm. 3.6), and epochs use disjoint users, so the whole run is ε-global DP by parallel
//! composition (Sajed & Sheffet 2019, Thm. 4.1). For Gaussian arms (unbounded rewards) the same
//! noise is applied but no privacy guarantee holds; the option exists for simulation only.
//!
//! **Cap.** If the next epoch would take `τ` beyond `max_steps`, the run ends unstopped with the
//! samples of the completed epochs and recommends the argmax of the last epoch's `μ̃` (arm 0 if
//! no epoch was completed).

use super::spec::AlgoSpec;

use super::outcome::{BaiAlgorithm, RunOutcome};

use super::options::Rules;
use crate::error::{Error, Result};
use crate::instance::{Family, Instance};
use crate::privacy::laplace_noise;
use crate::rng::Rng;
use rand_distr::{Binomial, Distribution, StandardNormal};

/// The Laplace scale `1/(ε m)` rounded up (safe direction: never less noise than the spec).
///
/// # Definition
/// `fl(1/fl(ε·m))` plus two ulps: each of the two roundings loses at most half an ulp, so the
/// result is `≥ 1/(ε m)` exactly.
///
/// # Reference
/// Laplace mechanism with sensitivity `1/m` (Dwork & Roth 2014, Thm. 3.6), READINGS.md §P.
///
/// # Domain
/// `ε > 0`, `m ≥ 1` finite (validated by [`DpSe::new`]).
///
/// # Accuracy
/// Relative excess at most `2^{-51}`.
///
/// # Errors
/// None.
///
/// # Example
/// ```
/// let b = dpbai::bandit::dp_se::laplace_scale(0.5, 3.0);
/// assert!(b >= 2.0 / 3.0 && b - 2.0 / 3.0 < 1e-15);
/// ```
pub fn laplace_scale(eps: f64, m: f64) -> f64 {
    let b = 1.0 / (eps * m);
    if b.is_finite() && b > 0.0 {
        f64::from_bits(b.to_bits() + 2)
    } else {
        b
    }
}

/// One DP-SE epoch as recorded by [`DpSe::run_traced`] (for tests and diagnostics).
#[derive(Debug, Clone, PartialEq)]
pub struct EpochTrace {
    /// Epoch index `e` (1-based).
    pub epoch: u64,
    /// Active arms at the start of the epoch (0-based, increasing).
    pub active: Vec<usize>,
    /// `m_e = ⌊R_e⌋`, pulls of every active arm in this epoch.
    pub pulls: u64,
    /// `R_e` (before the floor).
    pub r_e: f64,
    /// Epoch reward sum of each active arm (same order as `active`).
    pub reward_sums: Vec<f64>,
    /// Laplace noise added to each active arm's mean (same order as `active`).
    pub noise: Vec<f64>,
    /// `μ̃` of each active arm (same order as `active`).
    pub noisy_means: Vec<f64>,
    /// Elimination radius `2(h_e + c_e)`.
    pub radius: f64,
}

/// DP-SE bound to an instance (see the module docs).
#[derive(Debug, Clone)]
pub struct DpSe {
    means: Vec<f64>,
    family: Family,
    delta: f64,
    eps: f64,
    cumulative: bool,
}

impl DpSe {
    /// Builds DP-SE for `instance` with `δ`, `ε` and the rules of `spec.setting` (
    /// `Paper`: divide by the epoch's count; `Reference`: by the cumulative count).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if `δ ∉ (0, 1)`, `ε` is missing or not a finite number `> 0`,
    /// or `γ` or a custom threshold is given (DP-SE uses neither).
    pub fn new(spec: &AlgoSpec, instance: &Instance) -> Result<Self> {
        let delta = spec.setting.delta.get();
        let eps = spec.setting.eps.ok_or_else(|| {
            Error::param(
                "eps",
                "(missing)",
                "given: dp-se is ε-global DP, pass --eps > 0",
            )
        })?;
        let eps = crate::params::check_algo_eps(eps.get())?;
        if let Some(g) = spec.setting.gamma {
            return Err(Error::param(
                "gamma",
                g.get(),
                "absent for dp-se (γ is a parameter of gauss-ldp-tt only)",
            ));
        }
        if spec.custom_threshold.is_some() {
            return Err(Error::param(
                "threshold",
                "(custom)",
                "absent for dp-se (it has no GLR stopping threshold)",
            ));
        }
        crate::params::limits::check_arms(instance.k())?;
        if instance.family() != Family::Bernoulli {
            crate::params::check_gaussian_arms(instance.sigma(), instance.means())?;
        }
        Ok(DpSe {
            means: instance.means().to_vec(),
            family: instance.family(),
            delta,
            eps,
            cumulative: spec.setting.rules == Rules::Reference,
        })
    }

    /// One run recording every epoch (same random stream and outcome as [`BaiAlgorithm::run`]).
    pub fn run_traced(&self, rng: &mut Rng, max_steps: u64) -> (RunOutcome, Vec<EpochTrace>) {
        let mut trace = Vec::new();
        let out = self.run_impl(rng, max_steps, Some(&mut trace));
        (out, trace)
    }

    fn epoch_sum(&self, rng: &mut Rng, a: usize, m: u64) -> f64 {
        let mu = self.means[a];
        match self.family {
            Family::Bernoulli => Binomial::new(m, mu)
                .expect("invariant: Bernoulli means validated in [0, 1] by Instance")
                .sample(rng) as f64,
            Family::Gaussian { sigma } => {
                let z: f64 = StandardNormal.sample(rng);
                let mf = m as f64;
                mf * mu + sigma * mf.sqrt() * z
            }
        }
    }

    fn run_impl(
        &self,
        rng: &mut Rng,
        max_steps: u64,
        mut trace: Option<&mut Vec<EpochTrace>>,
    ) -> RunOutcome {
        let k = self.means.len();
        let mut active: Vec<usize> = (0..k).collect();
        let mut cum = vec![0u64; k];
        let mut mu_tilde = vec![0.0f64; k];
        let mut tau: u64 = 0;
        let mut epochs: u64 = 0;
        let mut recommendation = 0usize;
        while active.len() > 1 {
            let e = epochs + 1;
            let s = active.len() as f64;
            let ef = e as f64;
            let delta_e = 0.5f64.powi(e.min(2000) as i32);
            let l1 = crate::threshold::paper::ln_ratio(8.0 * s * ef * ef, self.delta);
            let l2 = crate::threshold::paper::ln_ratio(4.0 * s * ef * ef, self.delta);
            let r_e = (32.0 * l1 / (delta_e * delta_e)).max(8.0 * l2 / (self.eps * delta_e)) + 1.0;
            let m_f = r_e.floor();
            // Budget: the whole epoch must fit below max_steps.
            let fits = m_f < 9.0e18
                && (m_f as u64)
                    .checked_mul(active.len() as u64)
                    .is_some_and(|need| need <= max_steps.saturating_sub(tau));
            if !fits {
                // The epoch runs into the cap: its pulls go on until `max_steps` samples are
                // drawn, but it never completes, so nothing is released (its rewards are never
                // used and need not be drawn). The capped τ is the cap, as for every algorithm.
                return RunOutcome {
                    tau: max_steps,
                    recommendation,
                    stopped: false,
                    rounds: Some(epochs),
                };
            }
            let m = m_f as u64;
            let scale = laplace_scale(self.eps, m_f);
            let mut sums = Vec::new();
            let mut noises = Vec::new();
            for &a in &active {
                let sum = self.epoch_sum(rng, a, m);
                let noise = laplace_noise(scale, rng);
                cum[a] += m;
                let denom = if self.cumulative { cum[a] as f64 } else { m_f };
                mu_tilde[a] = sum / denom + noise;
                if trace.is_some() {
                    sums.push(sum);
                    noises.push(noise);
                }
            }
            tau += m * active.len() as u64;
            epochs = e;
            let h = (l1 / (2.0 * r_e)).sqrt();
            let c = l2 / (r_e * self.eps);
            let radius = 2.0 * (h + c);
            // argmax over the active set, lowest index on ties
            let mut best = active[0];
            for &a in &active[1..] {
                if mu_tilde[a] > mu_tilde[best] {
                    best = a;
                }
            }
            recommendation = best;
            if let Some(t) = trace.as_deref_mut() {
                t.push(EpochTrace {
                    epoch: e,
                    active: active.clone(),
                    pulls: m,
                    r_e,
                    reward_sums: sums,
                    noise: noises,
                    noisy_means: active.iter().map(|&a| mu_tilde[a]).collect(),
                    radius,
                });
            }
            let top = mu_tilde[best];
            active.retain(|&a| top - mu_tilde[a] <= radius);
        }
        RunOutcome {
            tau,
            recommendation: active[0],
            stopped: true,
            rounds: Some(epochs),
        }
    }
}

impl BaiAlgorithm for DpSe {
    fn name(&self) -> &str {
        "dp-se"
    }
    fn run(&self, rng: &mut Rng, max_steps: u64) -> RunOutcome {
        self.run_impl(rng, max_steps, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bandit::{AlgoName, Setting};

    fn spec(eps: Option<f64>) -> AlgoSpec {
        let mut s = Setting::paper(AlgoName::DpSe, 0.05).expect("valid δ");
        if let Some(e) = eps {
            s = s.with_eps(e).expect("valid ε");
        }
        AlgoSpec::new(s)
    }

    #[test]
    fn rejects_missing_or_bad_eps() {
        let nu = Instance::bernoulli(vec![0.9, 0.1]).expect("instance");
        assert!(DpSe::new(&spec(None), &nu).is_err());
        // Inside `Epsilon`'s domain but outside the algorithms' range.
        let mut tiny = spec(None);
        tiny.setting.eps = Some(crate::params::Epsilon::new(1e-200).expect("valid ε"));
        assert!(DpSe::new(&tiny, &nu).is_err());
        let s = Setting::paper(AlgoName::DpSe, 0.05).expect("valid δ");
        assert!(s.with_eps(0.0).is_err());
        assert!(s.with_eps(f64::NAN).is_err());
        assert!(Setting::paper(AlgoName::DpSe, 1.0).is_err());
        assert!(DpSe::new(&spec(Some(1.0)), &nu).is_ok());
    }

    #[test]
    fn first_epoch_length_matches_formula() {
        // K = 2, δ = 0.05, ε = 1, e = 1: Δ = 1/2, L1 = ln(8·2/0.05) = ln 320, L2 = ln 160,
        // R_1 = max(32·4·ln 320, 8·2·ln 160) + 1 = 128 ln 320 + 1 ≈ 739.32 → m_1 = 739.
        let nu = Instance::bernoulli(vec![0.9, 0.1]).expect("instance");
        let alg = DpSe::new(&spec(Some(1.0)), &nu).expect("dp-se");
        let mut rng = crate::rng::rng_for_run(3, 0);
        let (out, tr) = alg.run_traced(&mut rng, u64::MAX);
        assert_eq!(tr[0].pulls, (128.0 * 320f64.ln() + 1.0).floor() as u64);
        assert_eq!(tr[0].pulls, 739);
        assert!(out.stopped);
        assert_eq!(
            out.tau,
            tr.iter()
                .map(|t| t.pulls * t.active.len() as u64)
                .sum::<u64>()
        );
    }

    #[test]
    fn capped_run_is_unstopped_with_completed_epochs_only() {
        let nu = Instance::bernoulli(vec![0.6, 0.5]).expect("instance");
        let alg = DpSe::new(&spec(Some(0.5)), &nu).expect("dp-se");
        let mut rng = crate::rng::rng_for_run(1, 0);
        let out = alg.run(&mut rng, 1000);
        assert!(!out.stopped);
        assert_eq!(
            out.tau, 1000,
            "the first epoch (2 × 739+) runs into the cap: τ is the cap, never 0"
        );
        assert_eq!(out.rounds, Some(0));
    }
}
