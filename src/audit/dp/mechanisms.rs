//! The single mechanisms `audit dp --mechanism` examines, declared once in [`MECHANISMS`]:
//! randomised response, Laplace and Gaussian (the local mechanisms of [`crate::privacy`],
//! through their [`privacy::Mechanism`] contract) and DAF's release vector ([`DafSchedule`]).
//! Each is [`Audited`]: its claim, its exact loss ([`ExactLoss`]) and its black-box sampling;
//! a mutant is the broken mechanism [`Mutated`] to keep the faithful one's claim.

use super::blackbox::{
    BlackBox, Claim, PairSearch, candidate_pairs, sample_pair, sniper_real, sniper_search,
};
use super::exact::{
    daf_exact_verdict, gaussian_eps, gaussian_verdict, laplace_vector_verdict, rr_loss, rr_verdict,
};
use crate::audit::Verdict;
use crate::error::{Result, check_above};
use crate::privacy::{self, GaussianMechanism, Laplace, PrivacyClaim, RandomisedResponse};
use crate::rng::Rng;

/// Default claimed `γ` of the Gaussian mechanism.
pub const DEFAULT_GAMMA: f64 = 1e-5;
/// Length of the reward sequence of the DAF audits (`2^5`: phases 1..=6 complete).
pub const DAF_SEQUENCE_LEN: usize = 32;

/// One mechanism `audit dp --mechanism` knows: its name, the statement it is audited against
/// and how to build it at a claimed `(ε, γ)`. [`MECHANISMS`] lists them; a mutant of one
/// ([`super::Mutant`]) wraps the broken build in [`Mutated`], keeping this claim.
#[derive(Clone, Copy)]
pub struct MechanismInfo {
    /// Name for `--mechanism` (`rr`, `laplace`, `gaussian`, `daf`).
    pub name: &'static str,
    /// What it releases, and the statement that makes it private.
    pub description: &'static str,
    /// Whether its claim is approximate `(ε, γ)`-DP (else pure ε-DP).
    pub approximate: bool,
    /// Default runs per neighbouring input of the black-box audit.
    pub default_runs: u64,
    /// The faithful mechanism at claimed `(ε, γ)`.
    pub build: fn(f64, f64) -> Result<Box<dyn Audited>>,
}

impl PartialEq for MechanismInfo {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl std::fmt::Debug for MechanismInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl std::fmt::Display for MechanismInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// Every mechanism `audit dp --mechanism` knows.
pub const MECHANISMS: [MechanismInfo; 5] = [
    MechanismInfo {
        name: "rr",
        description: "randomised response on [0, 1] (Alg. 4; eps-LDP by L. 12)",
        approximate: false,
        default_runs: 1_000_000,
        build: |eps, _| Ok(Box::new(RandomisedResponse::new(eps)?)),
    },
    MechanismInfo {
        name: "laplace",
        description: "Laplace mechanism with sensitivity 1 (eps-DP by Thm. 3)",
        approximate: false,
        default_runs: 1_000_000,
        build: |eps, _| Ok(Box::new(Laplace::new(1.0, eps)?)),
    },
    MechanismInfo {
        name: "gaussian",
        description: "Gaussian mechanism ((eps, gamma)-DP by Rem. 13)",
        approximate: true,
        default_runs: 4_000_000,
        build: |eps, gamma| Ok(Box::new(GaussianMechanism::new(eps, gamma)?)),
    },
    MechanismInfo {
        name: "daf",
        description: "DAF's vector of released phase means on a fixed schedule (Alg. 5; eps-DP by L. 31)",
        approximate: false,
        default_runs: 1_000_000,
        build: |eps, _| Ok(Box::new(DafSchedule::new(eps, true)?)),
    },
    MechanismInfo {
        name: "dp-tt",
        description: "DP-TT's noisy phase increments on a fixed schedule ([BAI25] poster; eps-DP by the Laplace mechanism, Thm. 3, under parallel composition)",
        approximate: false,
        default_runs: 1_000_000,
        build: |eps, _| Ok(Box::new(DpTtSchedule::new(eps, 1.0, None)?)),
    },
];

/// The mechanism named `name`, if `audit dp --mechanism` knows it.
///
/// # Example
/// ```
/// assert!(dpbai::audit::dp::mechanism_info("laplace").is_some_and(|m| !m.approximate));
/// assert!(dpbai::audit::dp::mechanism_info("nope").is_none());
/// ```
pub fn mechanism_info(name: &str) -> Option<&'static MechanismInfo> {
    MECHANISMS.iter().find(|m| m.name == name)
}

/// The names of [`MECHANISMS`], for messages.
pub fn mechanism_names() -> Vec<&'static str> {
    MECHANISMS.iter().map(|m| m.name).collect()
}

/// What the exact mode finds for a mechanism as implemented (its parameters are doubles).
#[derive(Debug, Clone, PartialEq)]
pub struct ExactFinding {
    /// Verdict against the claim, decided in the safe direction ([`super::exact`]).
    pub verdict: Verdict,
    /// The exact worst-case privacy loss (for an approximate claim: the smallest `ε` with
    /// `γ(ε) <= γ_claimed`).
    pub loss: f64,
    /// The exact `γ(ε_claimed)` of an approximate claim.
    pub gamma: Option<f64>,
    /// What was computed, in words.
    pub note: String,
}

/// A mechanism whose worst-case privacy loss is computed exactly.
pub trait ExactLoss {
    /// The exact loss of the mechanism as implemented, judged against `claim`.
    ///
    /// # Errors
    /// Invalid claims, and the errors of the loss computations of [`super::exact`].
    fn exact_loss(&self, claim: Claim) -> Result<ExactFinding>;
}

/// A mechanism `audit dp` examines: a local mechanism of [`crate::privacy`] (through its
/// [`privacy::Mechanism`] contract), or DAF's release vector, faithful or [`Mutated`].
pub trait Audited: ExactLoss + Send + Sync + std::fmt::Debug {
    /// The statement it claims.
    fn claim(&self) -> PrivacyClaim;
    /// The DP-Sniper lower bound of `n` runs per neighbouring input.
    ///
    /// # Errors
    /// The errors of [`sniper_real`].
    fn blackbox(&self, n: u64, seed: u64, alpha: f64, claim: Claim) -> Result<BlackBox>;
    /// The mechanism on one reward, if it is a local one (for the neighbour search).
    fn local(&self) -> Option<&dyn privacy::Mechanism>;
}

impl<M: privacy::Mechanism + ExactLoss + 'static> Audited for M {
    fn claim(&self) -> PrivacyClaim {
        self.privacy_claim()
    }
    /// Neighbours: the rewards 1 and 0.
    fn blackbox(&self, n: u64, seed: u64, alpha: f64, claim: Claim) -> Result<BlackBox> {
        let (x, y) = sample_pair(n, seed, |i, rng| {
            self.apply(if i == 0 { 1.0 } else { 0.0 }, rng)
        });
        sniper_real(&x, &y, alpha, claim)
    }
    fn local(&self) -> Option<&dyn privacy::Mechanism> {
        Some(self)
    }
}

impl ExactLoss for RandomisedResponse {
    fn exact_loss(&self, claim: Claim) -> Result<ExactFinding> {
        let q = self.keep_probability();
        Ok(ExactFinding {
            verdict: rr_verdict(q, claim.eps())?,
            loss: rr_loss(q)?,
            gamma: None,
            note: format!("keep probability {q}"),
        })
    }
}

impl ExactLoss for Laplace {
    fn exact_loss(&self, claim: Claim) -> Result<ExactFinding> {
        let b = self.scale();
        let (verdict, loss) = laplace_vector_verdict(&[(1.0, b)], &[(0.0, b)], claim.eps())?;
        Ok(ExactFinding {
            verdict,
            loss,
            gamma: None,
            note: format!("sensitivity 1, scale {b}"),
        })
    }
}

impl ExactLoss for GaussianMechanism {
    fn exact_loss(&self, claim: Claim) -> Result<ExactFinding> {
        let (eps, gamma) = match claim {
            Claim::Approx { eps, gamma } => (eps, gamma),
            Claim::Pure { eps } => {
                return Err(crate::Error::param(
                    "claim",
                    format!("{eps}-DP"),
                    "an (eps, gamma) claim for the Gaussian mechanism",
                ));
            }
        };
        let sigma = self.sigma();
        let (verdict, ge) = gaussian_verdict(eps, sigma, 1.0, gamma)?;
        Ok(ExactFinding {
            verdict,
            loss: gaussian_eps(gamma, sigma, 1.0)?,
            gamma: Some(ge),
            note: format!(
                "sensitivity 1, sigma {sigma}; loss_exact is the smallest eps with gamma(eps) <= {gamma}"
            ),
        })
    }
}

/// DAF(ε) (Alg. 5) on one arm's fixed schedule of [`DAF_SEQUENCE_LEN`] rewards: the vector of
/// its released phase means. With `forgetting` (the algorithm) it is ε-DP by L. 31; without
/// (the mutant `daf-no-forgetting`) every sample enters every later release.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DafSchedule {
    eps: f64,
    forgetting: bool,
}

impl DafSchedule {
    /// DAF(ε) on the fixed schedule, with or without forgetting.
    ///
    /// # Errors
    /// [`crate::Error::InvalidParameter`] unless `ε > 0`.
    pub fn new(eps: f64, forgetting: bool) -> Result<Self> {
        check_above("eps", eps, 0.0)?;
        Ok(DafSchedule { eps, forgetting })
    }

    fn plan(&self, r: &[f64]) -> Result<Vec<(f64, f64)>> {
        privacy::daf_release_plan(r, self.eps, self.forgetting)
    }
}

impl ExactLoss for DafSchedule {
    fn exact_loss(&self, claim: Claim) -> Result<ExactFinding> {
        let (verdict, loss, pos) =
            daf_exact_verdict(|r: &[f64]| self.plan(r), DAF_SEQUENCE_LEN, claim.eps())?;
        Ok(ExactFinding {
            verdict,
            loss,
            gamma: None,
            note: format!(
                "one arm's sequence of {DAF_SEQUENCE_LEN} rewards (6 released phase means); worst neighbour: entry {pos} changed 0 <-> 1"
            ),
        })
    }
}

impl Audited for DafSchedule {
    fn claim(&self) -> PrivacyClaim {
        PrivacyClaim {
            eps: self.eps,
            gamma: 0.0,
            lemma: "L. 31",
        }
    }
    /// Neighbours: the first reward 1 vs 0, the others 1/2; the release projected on
    /// `T = Σ_j y_j / b_j` (every phase noisy; the scales `b_j` are public).
    fn blackbox(&self, n: u64, seed: u64, alpha: f64, claim: Claim) -> Result<BlackBox> {
        let plan = |r: &[f64]| -> Result<Vec<(f64, Option<f64>)>> {
            Ok(self
                .plan(r)?
                .into_iter()
                .map(|(m, b)| (m, Some(b)))
                .collect())
        };
        schedule_blackbox(plan, n, seed, alpha, claim)
    }
    fn local(&self) -> Option<&dyn privacy::Mechanism> {
        None
    }
}

/// The black box of a release plan on one arm's schedule of [`DAF_SEQUENCE_LEN`] rewards
/// (DAF's phase means, DP-TT's increments): neighbours are the first reward 1 vs 0, the others
/// 1/2, and the released vector is projected on `T = Σ_j y_j / b_j` over the noisy entries
/// (the scales `b_j` are public) plus `10³·y_j` over a noiseless one (`None`).
fn schedule_blackbox(
    plan: impl Fn(&[f64]) -> Result<Vec<(f64, Option<f64>)>>,
    n: u64,
    seed: u64,
    alpha: f64,
    claim: Claim,
) -> Result<BlackBox> {
    let mut r1 = vec![0.5; DAF_SEQUENCE_LEN];
    r1[0] = 1.0;
    let mut r0 = r1.clone();
    r0[0] = 0.0;
    let (p1, p0) = (plan(&r1)?, plan(&r0)?);
    let stat = |plan: &[(f64, Option<f64>)], rng: &mut Rng| -> f64 {
        plan.iter()
            .map(|&(m, b)| match b {
                Some(b) => (m + privacy::laplace_noise(b, rng)) / b,
                None => 1e3 * m,
            })
            .sum()
    };
    let (x, y) = sample_pair(n, seed, |i, rng| {
        if i == 0 {
            stat(&p1, rng)
        } else {
            stat(&p0, rng)
        }
    });
    let mut bb = sniper_real(&x, &y, alpha, claim)?;
    bb.event = format!("{} with Y = sum_j y_j/b_j", bb.event);
    Ok(bb)
}

/// DP-TT on one arm's fixed schedule of [`DAF_SEQUENCE_LEN`] rewards: the vector of its noisy
/// phase increments ([`privacy::dp_tt_release_plan`]). Faithful at `scale_factor = 1` and no
/// noiseless phase; the mutants `dp-tt-half-scale` (`scale_factor = 1/2`) and
/// `dp-tt-noiseless-phase` (phase 1 released without noise) keep the faithful claim.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DpTtSchedule {
    eps: f64,
    scale_factor: f64,
    noiseless_phase: Option<usize>,
}

impl DpTtSchedule {
    /// DP-TT's release at `ε` with its noise scales times `scale_factor`, and the phase
    /// `noiseless_phase` (0-based) released without noise.
    ///
    /// # Errors
    /// [`crate::Error::InvalidParameter`] unless `ε > 0` finite and `scale_factor > 0`.
    pub fn new(eps: f64, scale_factor: f64, noiseless_phase: Option<usize>) -> Result<Self> {
        check_above("eps", eps, 0.0)?;
        check_above("scale factor", scale_factor, 0.0)?;
        Ok(DpTtSchedule {
            eps,
            scale_factor,
            noiseless_phase,
        })
    }

    /// The plan: per phase its increment and its noise scale (`None`: no noise).
    fn plan(&self, r: &[f64]) -> Result<Vec<(f64, Option<f64>)>> {
        Ok(privacy::dp_tt_release_plan(r, self.eps)?
            .into_iter()
            .enumerate()
            .map(|(j, (m, b))| {
                (
                    m,
                    (self.noiseless_phase != Some(j)).then_some(b * self.scale_factor),
                )
            })
            .collect())
    }
}

impl ExactLoss for DpTtSchedule {
    /// Every neighbour pair of the schedule (one reward 0 vs 1, the others 1/2): a noiseless
    /// increment that differs is an infinite loss; the noisy ones are a Laplace vector.
    fn exact_loss(&self, claim: Claim) -> Result<ExactFinding> {
        let mut worst = (f64::NEG_INFINITY, 1usize);
        let mut verdict = Verdict::Holds;
        let mut r = vec![0.5; DAF_SEQUENCE_LEN];
        for i in 0..DAF_SEQUENCE_LEN {
            r[i] = 1.0;
            let p1 = self.plan(&r)?;
            r[i] = 0.0;
            let p0 = self.plan(&r)?;
            r[i] = 0.5;
            let leak = p1.iter().zip(&p0).any(|(a, b)| a.1.is_none() && a.0 != b.0);
            let (v, l) = if leak {
                (Verdict::Violated, f64::INFINITY)
            } else {
                let noisy = |p: &[(f64, Option<f64>)]| -> Vec<(f64, f64)> {
                    p.iter().filter_map(|&(m, b)| b.map(|b| (m, b))).collect()
                };
                laplace_vector_verdict(&noisy(&p1), &noisy(&p0), claim.eps())?
            };
            if v.severity_rank() < verdict.severity_rank() {
                verdict = v;
            }
            if l > worst.0 {
                worst = (l, i + 1);
            }
        }
        Ok(ExactFinding {
            verdict,
            loss: worst.0,
            gamma: None,
            note: format!(
                "one arm's sequence of {DAF_SEQUENCE_LEN} rewards (6 noisy phase increments); worst neighbour: entry {} changed 0 <-> 1",
                worst.1
            ),
        })
    }
}

impl Audited for DpTtSchedule {
    fn claim(&self) -> PrivacyClaim {
        PrivacyClaim {
            eps: self.eps,
            gamma: 0.0,
            lemma: "Thm. 3 with parallel composition ([BAI25] poster)",
        }
    }
    /// Neighbours: the first reward 1 vs 0, the others 1/2; the release projected on
    /// `T = Σ_j y_j / b_j` over the noisy increments plus `10³·y_j` over a noiseless one.
    fn blackbox(&self, n: u64, seed: u64, alpha: f64, claim: Claim) -> Result<BlackBox> {
        schedule_blackbox(|r| self.plan(r), n, seed, alpha, claim)
    }
    fn local(&self) -> Option<&dyn privacy::Mechanism> {
        None
    }
}

/// A mechanism with a planted bug: the broken `inner` mechanism, still claiming the statement
/// of the faithful one (`audit dp --mutant`).
#[derive(Debug)]
pub struct Mutated<M> {
    /// The broken mechanism (its draws and its exact loss).
    pub inner: M,
    /// The faithful mechanism's claim.
    pub claim: PrivacyClaim,
}

impl<M: Audited> ExactLoss for Mutated<M> {
    fn exact_loss(&self, claim: Claim) -> Result<ExactFinding> {
        self.inner.exact_loss(claim)
    }
}

impl<M: Audited> Audited for Mutated<M> {
    fn claim(&self) -> PrivacyClaim {
        self.claim
    }
    fn blackbox(&self, n: u64, seed: u64, alpha: f64, claim: Claim) -> Result<BlackBox> {
        self.inner.blackbox(n, seed, alpha, claim)
    }
    fn local(&self) -> Option<&dyn privacy::Mechanism> {
        self.inner.local()
    }
}

/// `inner`, claiming what `faithful` claims.
///
/// # Errors
/// None; a `Result` for the mutation tables.
pub fn mutated<M: Audited + 'static>(inner: M, faithful: &dyn Audited) -> Result<Box<dyn Audited>> {
    Ok(Box::new(Mutated {
        inner,
        claim: faithful.claim(),
    }))
}

/// A pair of neighbouring inputs.
pub type InputPair = (Vec<f64>, Vec<f64>);

/// The neighbour search of [`super::mechanism_neighbour_search`] for the mechanism `mech` at
/// claimed `ε`, `γ`.
pub(super) fn neighbour_search(
    mech: &dyn Audited,
    eps: f64,
    gamma: f64,
    runs: u64,
    alpha: f64,
    seed: u64,
    pairs: usize,
) -> Result<(PairSearch, Vec<InputPair>)> {
    let claim = Claim::of(mech.claim(), eps, gamma);
    let local = mech.local().ok_or_else(|| {
        crate::Error::param(
            "mechanism",
            "daf",
            "rr, laplace or gaussian (audit dp --mutant rr-daf-late-leak --search searches DAF)",
        )
    })?;
    let cands = candidate_pairs(&[0.0], &[1.0], pairs, seed, &[]);
    let r = sniper_search(
        cands.len(),
        (runs / 10).max(8),
        runs,
        alpha,
        claim,
        |i, side, n, stage| {
            let x = if side == 0 {
                cands[i].0[0]
            } else {
                cands[i].1[0]
            };
            let s = crate::rng::mix64(seed ^ ((i as u64) << 8 | (side as u64) << 4 | stage as u64));
            let mut rng = crate::rng::rng_for_run(s, 0);
            (0..n).map(|_| Ok(local.apply(x, &mut rng))).collect()
        },
    )?;
    Ok((r, cands))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DP-TT's release: one reward moves one increment by 1 at scale `1/ε` (loss exactly `ε`,
    /// by the closed form `|Δ|/b`); half the scale doubles it; a noiseless increment leaks.
    #[test]
    fn dp_tt_schedule_exact_losses() {
        let claim = Claim::Pure { eps: 0.7 };
        let f = DpTtSchedule::new(0.7, 1.0, None).expect("valid");
        let r = f.exact_loss(claim).expect("exact");
        assert_eq!(r.verdict, Verdict::Holds);
        assert!((r.loss - 0.7).abs() <= 1e-15, "{}", r.loss);
        let h = DpTtSchedule::new(0.7, 0.5, None).expect("valid");
        let r = h.exact_loss(claim).expect("exact");
        assert_eq!(r.verdict, Verdict::Violated);
        assert!((r.loss - 1.4).abs() <= 1e-14, "{}", r.loss);
        let n = DpTtSchedule::new(0.7, 1.0, Some(2)).expect("valid");
        let r = n.exact_loss(claim).expect("exact");
        assert_eq!((r.verdict, r.loss), (Verdict::Violated, f64::INFINITY));
        assert!(DpTtSchedule::new(0.0, 1.0, None).is_err());
    }
}
