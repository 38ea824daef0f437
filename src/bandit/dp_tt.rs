//! DP-TT and EB-TCI, the algorithms of \[BAI25\] ("Optimal Best Arm Identification under
//! Differential Privacy", Jourdan & Azize, NeurIPS 2025; cited from its poster), on Bernoulli
//! arms.
//!
//! # DP-TT (ε-global DP)
//! Per arm `a`: pulls `N_a`, phase index `k_a`, the count `Ñ_a` at the start of the current
//! phase, a released cumulative noisy sum `S̃_a` and the private mean `μ̃_a = S̃_a/Ñ_a`.
//! * **Init.** Pull each arm once; `S̃_a = r_a + Y`, `Y ~ Lap(1/ε)`; `k_a = 1`, `Ñ_a = 1`.
//! * **(E) Phases.** When the pulled arm reaches `N_a >= ⌈(1 + η)^{k_a}⌉` (the rounding this
//!   project adopts for non-integer powers; with the default `η = 1` the powers are integers
//!   and nothing is rounded): `k_a += 1`, `Ñ_a = N_a`, and
//!   `S̃_a += (the rewards of the phase that just ended) + Lap(1/ε)`. The sum is cumulative:
//!   no forgetting (the poster: "do not use forgetting").
//! * **(R)** Leader and recommendation `â = argmax_a clip01(μ̃_a)`.
//! * **(S)** Stop when `C*_ε(â, a, clip01(μ̃), Ñ) > c(Ñ_â) + c(Ñ_a)` for every `a ≠ â`, with the
//!   private transportation cost [`crate::complexity::transport_cost_eps`] on the phase-start
//!   counts.
//! * **(C)** TCI challenger `argmin_{a ≠ â} C*_ε(â, a, clip01(μ̃), N) + log N_a` on the current
//!   counts.
//! * **(T)** β-tracking per leader: pull `â` iff `N^lead_â <= β(L_â + 1)`.
//!
//! **Privacy.** Each reward enters exactly one phase increment, released with its own
//! `Lap(1/ε)` noise (sensitivity 1 for rewards in `[0, 1]`: the Laplace mechanism, Thm. 3 of
//! the seed paper); the increments of an arm use disjoint rewards (parallel composition), and
//! every decision is post-processing of the released sums and the counts: DP-TT is ε-global DP
//! (\[BAI25\] poster: "for observations in `[0, 1]`, DP-TT is ε-global DP"). `audit dp --mechanism
//! dp-tt` audits exactly this release ([`crate::privacy::dp_tt_release_plan`]).
//!
//! # EB-TCI (non-private)
//! The non-private reference of \[BAI25\]'s figure (Jourdan et al. 2022, "Top Two algorithms
//! revisited"): DP-TT at `ε = ∞` with the MLE and no phases, i.e. empirical-best leader, TCI
//! challenger with the Bernoulli KL transport cost `C_KL(â, a, μ̂, N)`, β-tracking, and the GLR
//! stopping rule `C_KL(â, a, μ̂, N) > c` for every `a ≠ â`.
//!
//! # Thresholds
//! * DP-TT, default `dp-tt-poster`: `c(n) = log(1/δ) + log(n)·log(1 + εn/log n)` per arm (the
//!   poster's printed shape, `≈` in the poster: **approximate, not a proven threshold**), and
//!   `c(1) = 0·… = 0` (its limit); the preset's `log(1/δ)` multiplier is
//!   [`DpTtThreshold::Poster`]'s `m`.
//! * EB-TCI, default `gk16-bernoulli`: `log(2t(K − 1)/δ)` on the GLR statistic (Garivier &
//!   Kaufmann 2016, the Bernoulli threshold proven with Krichevsky–Trofimov mixtures: δ-correct
//!   for any sampling rule).
//! * A user threshold (`--threshold EXPR`) replaces the whole right-hand side of (S), read at
//!   `na = Ñ_â`, `nb = Ñ_a`, `ka`, `kb` their phase indices, `t` and `gap = (μ̃_â − μ̃_a)_+`.
//!
//! # Engine
//! Between releases the means do not move and only the counts grow, so the challenger is
//! decided from certified bounds of each transport cost (module `challenger`): an upper bound
//! from the minimiser `x*` of the arm's last exact evaluation (a feasible point: `C(N) <=
//! N_â·d⁻_ε(μ̃_â, x*) + N_a·d⁺_ε(μ̃_a, x*)`, no logarithm), a lower bound from concavity
//! (`C(N) >= C(N₀) + ΔN_â·d⁻_ε(μ̃_â, x') + ΔN_a·d⁺_ε(μ̃_a, x')` at the new minimiser `x'`,
//! located by derivative signs at kept probes), both with the relative slack [`BOUND_SLACK`];
//! only the arms these bounds leave open are evaluated exactly, so the choice is the plain
//! loop's, ties included. [`AlgoSpec::step_by_step`] recomputes every cost at every step
//! instead (the plain reference the tests compare with, run for run). EB-TCI releases at every
//! pull, so its challenger costs are its stopping costs, reused. `log N_a` is recomputed only
//! when read after a pull. Rewards are drawn one per pull; the stopping statistics change only
//! at releases and are cached.

use super::info::AlgoName;
use super::options::{Rules, TieBreak};
use super::outcome::{BaiAlgorithm, RunOutcome};
use super::spec::{AlgoSpec, Sampling};
use crate::complexity::transport_cost_eps_with;
use crate::divergence::DEps;
use crate::divergence::kl_bernoulli_unchecked;
use crate::error::{Error, Result};
use crate::instance::{Family, Instance};
use crate::privacy::{bernoulli_draw, bernoulli_threshold, laplace_noise};
use crate::rng::Rng;
use crate::threshold::paper::gk16;
use crate::threshold::{CustomThreshold, ThresholdVars};
use std::sync::Arc;

mod table;
pub use table::DpTtFault;

use challenger::ArmState;
pub use challenger::BOUND_SLACK;

pub use crate::params::DEFAULT_ETA;

/// The stopping threshold of a DP-TT or EB-TCI run.
#[derive(Debug, Clone)]
pub enum DpTtThreshold {
    /// `Σ_{c ∈ {â, a}} m·log(1/δ) + log(Ñ_c)·log(1 + εÑ_c/log Ñ_c)` (`dp-tt-poster` at `m = 1`).
    Poster {
        /// The multiplier `m` of `log(1/δ)`.
        m: f64,
    },
    /// `log(2t(K − 1)/δ)` (`gk16-bernoulli`).
    Gk16,
    /// A user threshold bound to the run constants `base`.
    Custom {
        /// The threshold.
        f: Arc<dyn CustomThreshold>,
        /// `δ`, `K`, `ε`, `σ` of the run.
        base: ThresholdVars,
    },
}

pub use crate::threshold::paper::poster_term;

/// One arm of a pair (S) compares, as the threshold reads it: its private (or empirical) mean,
/// its phase-start count `Ñ` and its phase index.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Side {
    pub mu: f64,
    pub nt: f64,
    pub k: f64,
}

/// DP-TT or EB-TCI bound to a Bernoulli instance.
#[derive(Debug, Clone)]
pub struct DpTt {
    name: &'static str,
    thr: Vec<u64>,
    /// `ε` (`+∞` for EB-TCI).
    eps: f64,
    /// `Some(η)` for DP-TT (phases), `None` for EB-TCI.
    eta: Option<f64>,
    beta: f64,
    delta: f64,
    ln_inv_delta: f64,
    threshold: DpTtThreshold,
    uniform: bool,
    plain: bool,
}

impl DpTt {
    /// Builds `dp-tt` or `eb-tci` for `instance` from `spec`.
    ///
    /// # Errors
    /// [`Error::InvalidInstance`] for non-Bernoulli arms (both need rewards in `[0, 1]`);
    /// [`Error::InvalidParameter`] for a missing `ε` (DP-TT), `ε` given to EB-TCI, `η` not a
    /// finite number in `[0.01, 100]`, the reference rules (no public code), or uniform
    /// tie-breaking (not implemented for these algorithms).
    pub fn new(spec: &AlgoSpec, instance: &Instance, eta: f64) -> Result<Self> {
        let s = &spec.setting;
        let private = match s.algo {
            AlgoName::DpTt => true,
            AlgoName::EbTci => false,
            other => {
                return Err(Error::param(
                    "algo",
                    other.as_str(),
                    "dp-tt or eb-tci (the algorithms of bandit::dp_tt)",
                ));
            }
        };
        if instance.family() != Family::Bernoulli {
            return Err(Error::InvalidInstance {
                means: format!("{:?}", instance.means()),
                reason: format!(
                    "{} needs rewards in [0, 1]: use --family bernoulli",
                    s.algo.as_str()
                ),
            });
        }
        crate::params::limits::check_arms(instance.k())?;
        if s.rules == Rules::Reference {
            return Err(Error::param(
                "rules",
                "reference",
                format!(
                    "paper for {} (no public code of [BAI25] exists to take reference rules from)",
                    s.algo.as_str()
                ),
            ));
        }
        if s.tie_break != TieBreak::LowestIndex {
            return Err(Error::param(
                "tie-break",
                "uniform",
                format!("lowest-index for {}", s.algo.as_str()),
            ));
        }
        if s.ids_beta {
            return Err(Error::param(
                "ids-beta",
                "true",
                format!("false for {} (β-tracking per leader)", s.algo.as_str()),
            ));
        }
        let eps = if private {
            match s.eps {
                Some(e) => crate::params::check_algo_eps(e.get())?,
                None => {
                    return Err(Error::param(
                        "eps",
                        "(missing)",
                        "given (--eps) for dp-tt, a finite number > 0",
                    ));
                }
            }
        } else {
            f64::INFINITY
        };
        if !(eta.is_finite() && (0.01..=100.0).contains(&eta)) {
            return Err(Error::param("eta", eta, "a finite number in [0.01, 100]"));
        }
        let delta = s.delta.get();
        let threshold = match &spec.custom_threshold {
            Some(f) => DpTtThreshold::Custom {
                f: f.clone(),
                base: ThresholdVars {
                    delta,
                    k: instance.k() as f64,
                    eps,
                    sigma: 0.5,
                    ..ThresholdVars::default()
                },
            },
            None if private => DpTtThreshold::Poster { m: 1.0 },
            None => DpTtThreshold::Gk16,
        };
        Ok(DpTt {
            name: s.algo.as_str(),
            thr: instance
                .means()
                .iter()
                .map(|&m| bernoulli_threshold(m))
                .collect(),
            eps,
            eta: private.then_some(eta),
            beta: s.beta.get(),
            delta,
            ln_inv_delta: (1.0 / delta).ln(),
            threshold,
            uniform: spec.sampling == Sampling::Uniform,
            plain: spec.step_by_step,
        })
    }

    /// The transport cost between leader `l` and arm `a` at weights `wl`, `wa`.
    #[inline]
    fn cost(&self, e: DEps, ml: f64, ma: f64, wl: f64, wa: f64) -> f64 {
        if self.eta.is_some() {
            transport_cost_eps_with(e, ml, ma, wl, wa)
        } else {
            kl_cost(ml, ma, wl, wa)
        }
    }

    /// The right-hand side of (S) between the leader `l` and arm `a` at time `t` on `n_arms`
    /// arms: the one evaluation of the run's threshold, for `run` and the reward-table loop.
    #[inline]
    pub(super) fn rhs(&self, n_arms: usize, t: u64, l: Side, a: Side) -> f64 {
        match &self.threshold {
            DpTtThreshold::Poster { m } => {
                poster_term(l.nt, self.eps, self.ln_inv_delta, *m)
                    + poster_term(a.nt, self.eps, self.ln_inv_delta, *m)
            }
            DpTtThreshold::Gk16 => gk16(t as f64, n_arms, self.delta),
            DpTtThreshold::Custom { f, base } => f.eval(&ThresholdVars {
                t: t as f64,
                na: l.nt,
                nb: a.nt,
                ka: l.k,
                kb: a.k,
                gap: (l.mu - a.mu).max(0.0),
                ..*base
            }),
        }
    }

    /// The right-hand side of (S) for leader `l` and arm `a`.
    fn stop_threshold(&self, st: &[ArmState], l: usize, a: usize, t: u64) -> f64 {
        let side = |s: &ArmState| Side {
            mu: s.mu,
            nt: s.nt,
            k: s.k as f64,
        };
        self.rhs(st.len(), t, side(&st[l]), side(&st[a]))
    }

    /// Whether the threshold reads `t` (then (S) is tested every step, not only at releases).
    fn reads_time(&self) -> bool {
        let threshold = match &self.threshold {
            DpTtThreshold::Poster { .. } => false,
            DpTtThreshold::Gk16 => true,
            DpTtThreshold::Custom { f, .. } => f.reads_time(),
        };
        threshold || self.eta.is_none()
    }

    /// One release of arm `a`: its phase sum (plus `Lap(1/ε)` for DP-TT) joins `S̃_a`.
    #[inline]
    fn release(&self, s: &mut ArmState, rng: &mut Rng) {
        let noise = if self.eta.is_some() {
            laplace_noise(1.0 / self.eps, rng)
        } else {
            0.0
        };
        s.released += s.phase_sum as f64 + noise;
        s.phase_sum = 0;
        s.nt = s.n as f64;
        s.mu = (s.released / s.nt).clamp(0.0, 1.0);
        if let Some(eta) = self.eta {
            s.k += 1;
            s.power *= 1.0 + eta;
            s.next = next_boundary(s.power, s.n);
        }
    }

    /// One run, with the final per-arm state.
    fn run_impl(&self, rng: &mut Rng, max_steps: u64) -> (RunOutcome, Vec<ArmState>) {
        let k = self.thr.len();
        let e = DEps::new_unchecked(if self.eps.is_finite() { self.eps } else { 1.0 });
        let mut st = vec![ArmState::default(); k];
        let mut rounds = 0u64;
        // Initialisation: arm a at time a + 1.
        let init = (k as u64).min(max_steps);
        for (a, s) in st.iter_mut().enumerate().take(init as usize) {
            s.n = 1;
            s.phase_sum = bernoulli_draw(self.thr[a], rng) as u64;
            s.power = 1.0;
            self.release(s, rng);
            rounds += 1;
        }
        let mut t = init;
        if t < k as u64 {
            let out = RunOutcome {
                tau: t,
                recommendation: 0,
                stopped: false,
                rounds: self.eta.map(|_| rounds),
            };
            return (out, st);
        }
        let every_step = self.reads_time();
        let rounds_of = |r: u64| self.eta.map(|_| r);
        let mut leader = argmax_mu(&st);
        self.refresh_stop_costs(e, &mut st, leader);
        let mut check = true;
        loop {
            if check && self.stops(&st, leader, t) {
                let out = RunOutcome {
                    tau: t,
                    recommendation: leader,
                    stopped: true,
                    rounds: rounds_of(rounds),
                };
                return (out, st);
            }
            if t >= max_steps {
                let out = RunOutcome {
                    tau: t,
                    recommendation: leader,
                    stopped: false,
                    rounds: rounds_of(rounds),
                };
                return (out, st);
            }
            let pull = if self.uniform {
                (t % k as u64) as usize
            } else {
                // (T) first: the challenger is only needed when it is pulled.
                let l = &mut st[leader];
                let take_leader = (l.nlead as f64) <= self.beta * (l.lead as f64 + 1.0);
                l.lead += 1;
                if take_leader {
                    l.nlead += 1;
                    leader
                } else {
                    self.challenger(e, &mut st, leader)
                }
            };
            // (U) the pull
            let r = bernoulli_draw(self.thr[pull], rng) as u64;
            t += 1;
            let s = &mut st[pull];
            s.n += 1;
            s.phase_sum += r;
            let released = match self.eta {
                Some(_) => st[pull].n >= st[pull].next,
                None => true,
            };
            if released {
                self.release(&mut st[pull], rng);
                rounds += 1;
                let new_leader = argmax_mu(&st);
                if new_leader != leader || pull == leader {
                    leader = new_leader;
                    for o in st.iter_mut() {
                        o.cache.valid = false;
                    }
                    self.refresh_stop_costs(e, &mut st, leader);
                } else {
                    // only the pair (leader, pull) moved
                    let (ml, nl) = (st[leader].mu, st[leader].nt);
                    let p = &mut st[pull];
                    p.stop_cost = self.cost(e, ml, p.mu, nl, p.nt);
                    p.cache.valid = false;
                }
            }
            check = released || every_step;
        }
    }

    /// Recomputes every stopping cost `C(l, a, μ̃, Ñ)` for leader `l`.
    fn refresh_stop_costs(&self, e: DEps, st: &mut [ArmState], l: usize) {
        let (ml, nl) = (st[l].mu, st[l].nt);
        for (a, s) in st.iter_mut().enumerate() {
            if a == l {
                s.stop_cost = f64::INFINITY;
            } else {
                s.stop_cost = self.cost(e, ml, s.mu, nl, s.nt);
            }
        }
    }

    /// (S): every cached stopping cost above its threshold.
    fn stops(&self, st: &[ArmState], l: usize, t: u64) -> bool {
        if let DpTtThreshold::Custom { f, base } = &self.threshold {
            let lb = f.lower_bound(base);
            if st.iter().any(|s| s.stop_cost <= lb) {
                return false;
            }
        }
        (0..st.len()).all(|a| a == l || st[a].stop_cost > self.stop_threshold(st, l, a, t))
    }

    /// (C): the TCI challenger `argmin_{a ≠ l} C(l, a, μ̃, N) + log N_a`, lowest index on ties.
    fn challenger(&self, e: DEps, st: &mut [ArmState], l: usize) -> usize {
        if !self.plain {
            if self.eta.is_some() {
                return challenger::certified_challenger(e, st, l);
            }
            // EB-TCI releases at every pull (`Ñ = N`): its challenger cost is its stopping cost,
            // the same call on the same numbers
            return argmin_value(st, l, |s| s.stop_cost);
        }
        let (ml, nl) = (st[l].mu, st[l].n as f64);
        argmin_value(st, l, |s| self.cost(e, ml, s.mu, nl, s.n as f64))
    }
}

/// `argmin_{a ≠ l} cost(a) + log N_a`, lowest index on ties.
#[inline]
fn argmin_value(st: &mut [ArmState], l: usize, cost: impl Fn(&ArmState) -> f64) -> usize {
    let mut best = usize::MAX;
    let mut best_v = f64::INFINITY;
    for (a, s) in st.iter_mut().enumerate() {
        if a == l {
            continue;
        }
        let v = cost(s) + s.log_n();
        if best == usize::MAX || v < best_v {
            best = a;
            best_v = v;
        }
    }
    best
}

/// `argmax_a μ̃_a`, lowest index on ties.
#[inline]
fn argmax_mu(st: &[ArmState]) -> usize {
    let mut b = 0;
    for a in 1..st.len() {
        if st[a].mu > st[b].mu {
            b = a;
        }
    }
    b
}

/// The count that ends a phase whose power is `power`: `⌈power⌉`, and at least one more pull.
#[inline]
fn next_boundary(power: f64, n: u64) -> u64 {
    let c = power.ceil();
    if c >= 9.0e18 {
        u64::MAX
    } else {
        (c as u64).max(n + 1)
    }
}

/// The Bernoulli KL transport cost `inf_x u·kl(top, x) + w·kl(low, x)` at the weighted mean
/// (`0` when `low >= top`).
///
/// # Example
/// ```
/// let c = dpbai::bandit::dp_tt::kl_cost(0.9, 0.5, 10.0, 10.0);
/// let x = 0.7f64;
/// let kl = |p: f64, q: f64| p * (p / q).ln() + (1.0 - p) * ((1.0 - p) / (1.0 - q)).ln();
/// assert!((c - 10.0 * (kl(0.9, x) + kl(0.5, x))).abs() < 1e-12);
/// ```
#[inline]
pub fn kl_cost(top: f64, low: f64, u: f64, w: f64) -> f64 {
    if low >= top {
        return 0.0;
    }
    let x = (u * top + w * low) / (u + w);
    u * kl_bernoulli_unchecked(top, x) + w * kl_bernoulli_unchecked(low, x)
}

impl BaiAlgorithm for DpTt {
    fn name(&self) -> &str {
        self.name
    }
    fn run(&self, rng: &mut Rng, max_steps: u64) -> RunOutcome {
        self.run_impl(rng, max_steps).0
    }
    /// The step-by-step loop on the table ([`DpTt::run_on_table_with`], no fault).
    fn run_on_table(
        &self,
        table: &crate::bandit::RewardTable,
        rng: &mut Rng,
    ) -> Option<crate::bandit::TableOutput> {
        self.run_on_table_faithful(table, rng)
    }
}

mod challenger;
#[cfg(test)]
mod tests;
