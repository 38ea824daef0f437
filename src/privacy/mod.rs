//! Privacy mechanisms (READINGS.md §A.5, §C.8, §D.4–§D.6, §E.1): randomised response (CTB), the Laplace
//! mechanism, the Gaussian mechanism of Remark 13 and the Doubling-And-Forgetting estimator
//! DAF(ε) (Alg. 5).
//!
//! Every mechanism is a small value type whose noise parameter can be read back, and whose
//! constructor either derives the parameter from `ε` exactly as the paper says (`new`) or takes it
//! verbatim (`with_*`, used by the auditors to build deliberately broken "mutants"):
//!
//! | mechanism | private constructor | raw constructor | parameter | privacy lemma |
//! |---|---|---|---|---|
//! | [`RandomisedResponse`] | `new(eps)` | `with_keep_probability(p)` | [`RandomisedResponse::keep_probability`] `= e^ε/(e^ε+1)` | L. 12 (ε-LDP) |
//! | [`Laplace`] | `new(sensitivity, eps)` | `with_scale(b)` | [`Laplace::scale`] `= s(f)/ε` | Thm. 3 (ε-DP) |
//! | [`GaussianMechanism`] | `new(eps, gamma)` | `with_sigma(s)` | [`GaussianMechanism::sigma`] `= sqrt(2 log(1.25/γ))/ε` | Rem. 13 ((ε,γ)-LDP, ε < 1) |
//! | DAF(ε) | [`daf_release_plan`]`(r, eps, true)`, [`DafArm`]`::new(eps, true)` | `forgetting = false` (no forgetting) | Laplace scale `1/(ε·Ñ_k)` per phase | L. 31, L. 20, Thm. 32 (ε-DP) |
//!
//! ## DAF on a fixed schedule (for the auditors)
//! For one arm whose samples are `r_1, r_2, …` (in pull order), DAF(ε) releases one noisy mean
//! per completed phase (L. 37): phase 1 is sample 1; phase `k >= 2` is samples
//! `2^{k−2}+1 ..= 2^{k−1}` (size `Ñ_k = 2^{k−2}`). Phase `k` is complete once `2^{k−1}`
//! samples exist; an incomplete trailing phase releases nothing. [`daf_release_plan`] returns,
//! per released phase, the noiseless mean and the Laplace scale `1/(ε·Ñ_k)`; the released vector
//! is `mean_k + Lap(scale_k)` independently ([`daf_sample_release`]). With
//! `forgetting = false` (the mutant "each phase mean over all past samples") the mean of phase
//! `k` is over samples `1 ..= 2^{k−1}`, with the same scales: every sample then enters every later
//! release, and the composition is no longer ε-DP.
//!
//! ## Layout
//! One file per mechanism: [`randomised_response`], [`laplace`], [`gaussian`], [`daf`]; this
//! file holds the contract of a local mechanism ([`Mechanism`]), the identity mechanism and the
//! exact Bernoulli draw they share. Every item is re-exported here (`dpbai::privacy::Laplace`,
//! …).
//!
//! ## Rounding
//! Noise parameters derived from `ε` are rounded in the safe (more private) direction by one
//! ulp: Laplace and Gaussian scales up, the randomised-response keep probability down.

use crate::rng::Rng;
use rand::Rng as _;

pub mod daf;
pub mod dp_tt;
pub mod gaussian;
pub mod laplace;
pub mod randomised_response;

pub use daf::{DafArm, DafRelease, daf_phase_bounds, daf_release_plan, daf_sample_release};
pub use dp_tt::dp_tt_release_plan;
pub use gaussian::GaussianMechanism;
pub use laplace::{Laplace, laplace_noise};
pub use randomised_response::RandomisedResponse;

/// `2^53` as `f64`: Bernoulli draws compare 53 uniform bits with `p · 2^53`.
const TWO53: f64 = 9_007_199_254_740_992.0;

/// One ulp up (for positive finite `x`): safe-direction rounding of noise scales.
#[inline]
pub(crate) fn ulp_up(x: f64) -> f64 {
    if x.is_finite() && x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        x
    }
}

/// One ulp down (for positive finite `x`).
#[inline]
pub(crate) fn ulp_down(x: f64) -> f64 {
    if x.is_finite() && x > 0.0 {
        f64::from_bits(x.to_bits() - 1)
    } else {
        x
    }
}

/// The 53-bit threshold of an exact-to-`2^-53` Bernoulli draw with success probability `p`.
///
/// # Definition
/// `thr = floor(p · 2^53)`; a draw succeeds iff `(u64 >> 11) < thr`, so its probability is
/// `thr / 2^53 ∈ (p − 2^-53, p]` (exact when `p` is a multiple of `2^-53`, e.g. 0, 1/2, 1).
///
/// # Domain
/// `p` is clamped to `[0, 1]` (NaN gives 0).
///
/// # Example
/// ```
/// assert_eq!(dpbai::privacy::bernoulli_threshold(0.5), 1u64 << 52);
/// assert_eq!(dpbai::privacy::bernoulli_threshold(1.0), 1u64 << 53);
/// ```
#[inline]
pub fn bernoulli_threshold(p: f64) -> u64 {
    (p.clamp(0.0, 1.0) * TWO53) as u64
}

/// A Bernoulli draw with the threshold of [`bernoulli_threshold`].
#[inline(always)]
pub fn bernoulli_draw(thr: u64, rng: &mut Rng) -> bool {
    (rng.next_u64() >> 11) < thr
}

/// A local randomiser: the map `M` applied to each reward before the learner sees it (Def. 7),
/// as used by the MLE estimators of the Top Two algorithms (Alg. 4, 8).
///
/// # Contract
/// * **Release.** [`Mechanism::apply`]`(r, rng)` returns one draw of `M(r)`, a random variable
///   whose law depends on the reward `r` only, drawing all its randomness from `rng`.
/// * **Domain.** [`Mechanism::accepts`]`(r)` holds exactly for the rewards in the input domain
///   `𝒳` of the privacy statement (`[0, 1]` for randomised response; every finite reward for
///   the additive mechanisms, whose statement then assumes rewards in `[0, 1]`).
/// * **Sensitivity.** The statement is about one reward: neighbouring inputs are any
///   `r, r' ∈ 𝒳`, so the sensitivity of the identity query is `Δ = sup |r − r'| = 1` on `[0, 1]`.
/// * **Privacy.** For all `r, r' ∈ 𝒳` and measurable `Z`,
///   `P(M(r) ∈ Z) <= e^ε · P(M(r') ∈ Z) + γ` (ε-local DP when `γ = 0`, Def. 4), with the `(ε, γ)`
///   and the lemma stated by each implementation:
///
/// | implementation | `M(r)` | `(ε, γ)` | lemma |
/// |---|---|---|---|
/// | [`Identity`] | `r` | `(∞, 0)` (not private) | — |
/// | [`RandomisedResponse`] | `Ber(r·q + (1−r)(1−q))`, `q = e^ε/(e^ε+1)` | `(ε, 0)` | L. 12 |
/// | [`Laplace`] | `r + Lap(Δ/ε)` | `(ε, 0)` | Thm. 3 |
/// | [`GaussianMechanism`] | `r + N(0, σ_{ε,γ}²)`, `σ_{ε,γ} = sqrt(2 log(1.25/γ))/ε` | `(ε, γ)`, `ε < 1` | Rem. 13 |
///
/// By post-processing, any learner that sees only `M(r_1), M(r_2), …` inherits the guarantee
/// per user (Def. 7). DAF(ε) is not a local mechanism: it releases phase means of many rewards
/// (see [`daf`]).
pub trait Mechanism: Send + Sync + std::fmt::Debug {
    /// One draw of `M(r)`.
    fn apply(&self, r: f64, rng: &mut Rng) -> f64;
    /// The privacy statement its lemma gives for the noise parameter its draws use (the table
    /// above), evaluated in floating point (to a few ulps: the exact mode of `audit dp` decides
    /// a claim against the parameter in the safe direction).
    fn privacy_claim(&self) -> PrivacyClaim;
    /// Whether `r` lies in the input domain `𝒳` (default: finite).
    fn accepts(&self, r: f64) -> bool {
        r.is_finite()
    }
}

/// The `(ε, γ)`-local-DP statement a [`Mechanism`] meets by its lemma (`γ = 0`: pure ε-DP;
/// `ε = ∞`: no privacy).
///
/// # Example
/// ```
/// use dpbai::privacy::{Laplace, Mechanism};
/// let c = Laplace::new(1.0, 0.5).unwrap().privacy_claim();
/// assert!((c.eps - 0.5).abs() < 1e-15 && c.gamma == 0.0 && c.lemma == "Thm. 3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrivacyClaim {
    /// `ε`.
    pub eps: f64,
    /// `γ` (0 for pure ε-DP).
    pub gamma: f64,
    /// The paper's statement that gives it.
    pub lemma: &'static str,
}

impl PrivacyClaim {
    /// Whether the statement is approximate (`γ > 0`).
    pub fn is_approximate(&self) -> bool {
        self.gamma > 0.0
    }
}

/// The identity map `M(r) = r`: no privacy (`ε = ∞`), for the non-private algorithms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Identity;

impl Mechanism for Identity {
    #[inline(always)]
    fn apply(&self, r: f64, _rng: &mut Rng) -> f64 {
        r
    }
    fn privacy_claim(&self) -> PrivacyClaim {
        PrivacyClaim {
            eps: f64::INFINITY,
            gamma: 0.0,
            lemma: "none (not private)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_reject_bad_input() {
        assert!(RandomisedResponse::new(f64::NAN).is_err());
        assert!(RandomisedResponse::new(-1.0).is_err());
        assert!(RandomisedResponse::with_keep_probability(1.5).is_err());
        assert!(Laplace::new(0.0, 1.0).is_err());
        assert!(Laplace::new(1.0, f64::INFINITY).is_err());
        assert!(GaussianMechanism::new(1.0, 0.0).is_err());
        assert!(GaussianMechanism::with_sigma(f64::NAN, 1e-5).is_err());
        assert!(GaussianMechanism::with_sigma(1.0, 1.0).is_err());
        assert!(daf_release_plan(&[0.5], 0.0, true).is_err());
        assert!(daf_release_plan(&[f64::NAN], 1.0, true).is_err());
    }

    #[test]
    fn the_claim_of_a_private_constructor_is_its_epsilon() {
        // The noise parameter is one ulp from its exact value, so the statement read back
        // from it is within a few ulps of the requested ε.
        for eps in [0.01, 0.5, 1.0, 3.0] {
            let claims = [
                RandomisedResponse::new(eps).unwrap().privacy_claim(),
                Laplace::new(1.0, eps).unwrap().privacy_claim(),
                GaussianMechanism::new(eps, 1e-5).unwrap().privacy_claim(),
            ];
            for c in claims {
                assert!((c.eps - eps).abs() <= 1e-13 * eps, "{c:?} at {eps}");
            }
            assert_eq!(claims[2].gamma, 1e-5);
            assert!(!claims[0].is_approximate() && claims[2].is_approximate());
        }
        assert_eq!(Identity.privacy_claim().eps, f64::INFINITY);
    }

    #[test]
    fn scales_match_spec() {
        let l = Laplace::new(0.25, 0.1).unwrap();
        assert!(l.scale() >= 2.5 && l.scale() - 2.5 < 1e-15);
        let g = GaussianMechanism::new(1.0, 0.01).unwrap();
        assert!(g.sigma() >= (2.0 * 125f64.ln()).sqrt());
    }
}
