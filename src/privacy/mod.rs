//! Privacy mechanisms (MATH.md A.5, C.8, D.4–D.6, E.1): randomised response (CTB), the Laplace
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
//! ## Rounding
//! Noise parameters derived from `ε` are rounded in the safe (more private) direction by one
//! ulp: Laplace and Gaussian scales up, the randomised-response keep probability down.

use crate::error::{check_above, check_closed, Error, Result};
use crate::rng::Rng;
use rand::Rng as _;
use rand_distr::{Distribution, Exp1, StandardNormal};

/// `2^53` as `f64`: Bernoulli draws compare 53 uniform bits with `p · 2^53`.
const TWO53: f64 = 9_007_199_254_740_992.0;

/// One ulp up (for positive finite `x`): safe-direction rounding of noise scales.
#[inline]
fn ulp_up(x: f64) -> f64 {
    if x.is_finite() && x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        x
    }
}

/// One ulp down (for positive finite `x`).
#[inline]
fn ulp_down(x: f64) -> f64 {
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

/// Randomised response on `[0, 1]` rewards (CTB, Alg. 4; MATH.md A.5).
///
/// # Definition
/// For a reward `r ∈ [0, 1]`, output `r̃ ~ Ber(p(r))` with `p(r) = r·q + (1 − r)·(1 − q)` where
/// `q` is the keep probability; [`RandomisedResponse::new`] sets `q = e^ε/(e^ε + 1)`, so that
/// `p(r) = (r(e^ε − 1) + 1)/(e^ε + 1)` (L. 12). On `{0, 1}` this keeps the bit w.p. `q` and
/// flips it w.p. `1/(e^ε + 1)` (Warner).
///
/// # Reference
/// Privacy: L. 12 — `max_{r,r',z} P(z | r)/P(z | r') = q/(1 − q) = e^ε` (attained at `r = 1,
/// r' = 0`), hence ε-local DP (Def. 4). Utility: the output is `Ber(m_ε(μ))` when `E[r] = μ`.
///
/// # Domain
/// `ε ∈ (0, ∞)` (finite); a raw keep probability in `[0, 1]`. Rewards outside `[0, 1]` are
/// clamped by [`RandomisedResponse::privatise`] (callers validate first).
///
/// # Accuracy
/// `q` is rounded down by one ulp (safe direction); each draw has probability within `2^-53` of
/// `p(r)`, rounded down.
///
/// # Example
/// ```
/// use dpbai::privacy::RandomisedResponse;
/// let rr = RandomisedResponse::new(1.0).unwrap();
/// let e = 1f64.exp();
/// assert!((rr.keep_probability() - e / (e + 1.0)).abs() < 1e-15);
/// assert!((rr.output_probability(1.0) - e / (e + 1.0)).abs() < 1e-15);
/// assert!(RandomisedResponse::new(0.0).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RandomisedResponse {
    keep: f64,
    thr_one: u64,
    thr_zero: u64,
}

impl RandomisedResponse {
    /// The ε-LDP randomised response, `q = e^ε/(e^ε + 1)` (rounded down one ulp).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `ε` is finite and `> 0`.
    pub fn new(eps: f64) -> Result<Self> {
        crate::params::check_eps("eps", eps)?;
        // e^ε/(e^ε+1) = 1/(1+e^{−ε}); stable for large ε.
        // Rounded down (more private), but never below 1/2: for ε below ~2^-53, q rounds to
        // 1/2, a loss of 0 <= ε (one ulp below 1/2 would flip the bit more often than it keeps
        // it: a loss of 2^-52 > ε).
        let keep = ulp_down(1.0 / (1.0 + (-eps).exp())).max(0.5);
        Self::with_keep_probability(keep)
    }

    /// A randomised response with an arbitrary keep probability `q ∈ [0, 1]` (mutants included).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `q ∈ [0, 1]`.
    pub fn with_keep_probability(q: f64) -> Result<Self> {
        check_closed("keep probability", q, 0.0, 1.0)?;
        Ok(RandomisedResponse {
            keep: q,
            thr_one: bernoulli_threshold(q),
            thr_zero: bernoulli_threshold(1.0 - q),
        })
    }

    /// Keep probability `q` (`e^ε/(e^ε+1)` for [`RandomisedResponse::new`]).
    pub fn keep_probability(&self) -> f64 {
        self.keep
    }

    /// Flip probability `1 − q` (`1/(e^ε+1)` for [`RandomisedResponse::new`]).
    pub fn flip_probability(&self) -> f64 {
        1.0 - self.keep
    }

    /// The privacy level this mechanism actually achieves, `|log(q/(1 − q))|` (`+∞` at `q ∈ {0, 1}`).
    pub fn epsilon(&self) -> f64 {
        (self.keep / (1.0 - self.keep)).ln().abs()
    }

    /// `P(r̃ = 1 | r) = r·q + (1 − r)(1 − q)` for `r ∈ [0, 1]`.
    pub fn output_probability(&self, r: f64) -> f64 {
        let r = r.clamp(0.0, 1.0);
        r * self.keep + (1.0 - r) * (1.0 - self.keep)
    }

    /// Privatises a bit: keeps it w.p. `q`.
    #[inline(always)]
    pub fn privatise_bit(&self, bit: bool, rng: &mut Rng) -> bool {
        let thr = if bit { self.thr_one } else { self.thr_zero };
        bernoulli_draw(thr, rng)
    }

    /// Privatises a reward `r ∈ [0, 1]`: returns `1.0` w.p. `p(r)`, else `0.0`.
    #[inline]
    pub fn privatise(&self, r: f64, rng: &mut Rng) -> f64 {
        if r == 1.0 {
            return self.privatise_bit(true, rng) as u8 as f64;
        }
        if r == 0.0 {
            return self.privatise_bit(false, rng) as u8 as f64;
        }
        bernoulli_draw(bernoulli_threshold(self.output_probability(r)), rng) as u8 as f64
    }
}

/// The Laplace mechanism (Thm. 3; MATH.md C.8): `f(D) + Lap(b)` with `b = s(f)/ε`.
///
/// # Definition
/// `Lap(b)` has density `exp(−|x|/b)/(2b)`; it is sampled as `S·E·b` with `S` a uniform sign
/// and `E ~ Exp(1)` (ziggurat of `rand_distr::Exp1`, which never evaluates `log(0)`).
///
/// # Reference
/// Privacy: Thm. 3 — releasing `f(D) + Lap(s(f)/ε)` is ε-DP for Hamming neighbours when `s(f)`
/// is the L1 sensitivity of `f`. Used by DAF (L. 31) with `s = 1/Ñ`.
///
/// # Domain
/// `sensitivity > 0`, `ε > 0` finite; raw scale `b > 0` finite.
///
/// # Accuracy
/// `b` is rounded up by one ulp (safe direction).
///
/// # Example
/// ```
/// use dpbai::privacy::Laplace;
/// let lap = Laplace::new(1.0, 0.5).unwrap();
/// assert!((lap.scale() - 2.0).abs() < 1e-15);
/// assert!((lap.log_density(0.0) + (4f64).ln()).abs() < 1e-15);
/// assert!(Laplace::with_scale(-1.0).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Laplace {
    scale: f64,
}

impl Laplace {
    /// The ε-DP Laplace mechanism for a query of L1 sensitivity `sensitivity`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless both are finite and `> 0`.
    pub fn new(sensitivity: f64, eps: f64) -> Result<Self> {
        check_above("sensitivity", sensitivity, 0.0)?;
        crate::params::check_eps("eps", eps)?;
        let b = sensitivity / eps;
        if !b.is_normal() {
            return Err(Error::param(
                "eps",
                eps,
                format!("in [1e-300, 1e300] with sensitivity/eps a normal double (sensitivity {sensitivity})"),
            ));
        }
        Self::with_scale(ulp_up(b))
    }

    /// Laplace noise of an arbitrary scale `b` (mutants included).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `b` is finite and `> 0`.
    pub fn with_scale(b: f64) -> Result<Self> {
        check_above("scale", b, 0.0)?;
        Ok(Laplace { scale: b })
    }

    /// The scale `b`.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// `log` of the density at `x`: `−|x|/b − log(2b)`.
    pub fn log_density(&self, x: f64) -> f64 {
        -x.abs() / self.scale - (2.0 * self.scale).ln()
    }

    /// One draw of `Lap(b)`.
    #[inline]
    pub fn sample(&self, rng: &mut Rng) -> f64 {
        laplace_noise(self.scale, rng)
    }

    /// Releases `value + Lap(b)`.
    #[inline]
    pub fn release(&self, value: f64, rng: &mut Rng) -> f64 {
        value + self.sample(rng)
    }
}

/// One draw of `Lap(b)` as `sign × Exp(1) × b` (no validation; `b > 0` assumed).
///
/// # Definition
/// `E ~ Exp(1)` from the ziggurat of `rand_distr::Exp1` (never `log(0)`), sign from the top bit
/// of an independent 64-bit draw.
///
/// # Reference
/// Laplace law of Sec. 2.1 / App. B; used by Thm. 3 and DAF (L. 31).
///
/// # Example
/// ```
/// let mut rng = dpbai::rng::rng_for_run(1, 0);
/// let x = dpbai::privacy::laplace_noise(2.0, &mut rng);
/// assert!(x.is_finite() && x != 0.0);
/// ```
#[inline]
pub fn laplace_noise(b: f64, rng: &mut Rng) -> f64 {
    let e: f64 = Exp1.sample(rng);
    if rng.next_u64() >> 63 == 1 {
        e * b
    } else {
        -e * b
    }
}

/// The Gaussian mechanism of Remark 13 / Alg. 8 (MATH.md C.8, D.5): `r + N(0, σ_{ε,γ}²)`.
///
/// # Definition
/// `σ_{ε,γ} = sqrt(2·log(1.25/γ))/ε`.
///
/// # Reference
/// Privacy: Rem. 13 (Dwork–Roth Thm. A.1) — `(ε, γ)`-local DP for rewards in `[0, 1]`
/// (sensitivity 1); the classical proof needs `ε < 1`, which the paper does not require
/// (MATH.md D.5); `new` accepts any `ε > 0` and documents the caveat.
///
/// # Domain
/// `ε > 0` finite, `γ ∈ (0, 1)`; raw `σ > 0` finite.
///
/// # Accuracy
/// `σ` rounded up by one ulp (safe direction).
///
/// # Example
/// ```
/// use dpbai::privacy::GaussianMechanism;
/// let g = GaussianMechanism::new(0.5, 1e-3).unwrap();
/// let want = (2.0 * (1.25f64 / 1e-3).ln()).sqrt() / 0.5;
/// assert!((g.sigma() - want).abs() < 1e-14);
/// assert!(GaussianMechanism::new(0.5, 1.0).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GaussianMechanism {
    sigma: f64,
}

impl GaussianMechanism {
    /// The `(ε, γ)` Gaussian mechanism for sensitivity 1.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `ε > 0` finite and `γ ∈ (0, 1)`.
    pub fn new(eps: f64, gamma: f64) -> Result<Self> {
        crate::params::check_eps("eps", eps)?;
        crate::params::check_gamma("gamma", gamma)?;
        Self::with_sigma(ulp_up((2.0 * (1.25 / gamma).ln()).sqrt() / eps))
    }

    /// Gaussian noise of an arbitrary standard deviation (mutants included).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `σ` is finite and `> 0`.
    pub fn with_sigma(sigma: f64) -> Result<Self> {
        check_above("sigma", sigma, 0.0)?;
        Ok(GaussianMechanism { sigma })
    }

    /// The noise standard deviation `σ_{ε,γ}`.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// Releases `r + N(0, σ²)`.
    #[inline]
    pub fn privatise(&self, r: f64, rng: &mut Rng) -> f64 {
        let z: f64 = StandardNormal.sample(rng);
        r + self.sigma * z
    }
}

/// First and last (1-based, inclusive) sample numbers of DAF phase `k >= 1` (L. 37).
///
/// # Definition
/// Phase 1 = `(1, 1)`; phase `k >= 2` = `(2^{k−2} + 1, 2^{k−1})`, size `Ñ_k = 2^{k−2}`.
///
/// # Example
/// ```
/// assert_eq!(dpbai::privacy::daf_phase_bounds(1), (1, 1));
/// assert_eq!(dpbai::privacy::daf_phase_bounds(2), (2, 2));
/// assert_eq!(dpbai::privacy::daf_phase_bounds(4), (5, 8));
/// ```
pub fn daf_phase_bounds(k: u32) -> (u64, u64) {
    if k <= 1 {
        (1, 1)
    } else {
        ((1u64 << (k - 2)) + 1, 1u64 << (k - 1))
    }
}

/// The deterministic release plan of DAF(ε) for one arm's reward sequence (Alg. 5, L. 37).
///
/// # Definition
/// For every completed phase `k` (`2^{k−1} <= rewards.len()`, phase 1 when non-empty), one
/// pair `(mean_k, scale_k)`: with `forgetting`, `mean_k` is the average of the phase's own
/// samples ([`daf_phase_bounds`]); without (the mutant), the average of samples `1 ..= 2^{k−1}`.
/// `scale_k = 1/(ε·Ñ_k)` (`Ñ_1 = 1`, `Ñ_k = 2^{k−2}`), rounded up one ulp. The release is
/// `mean_k + Lap(scale_k)`, independent across phases.
///
/// # Reference
/// Privacy (with forgetting): L. 31 — a fixed partition, each reward in `[0, 1]` in exactly one
/// block, block mean sensitivity `1/|block|` (ISSUE 14: divide by the block size), Laplace per
/// Thm. 3 ⇒ ε-DP; L. 20 / Thm. 32 lift this to AdaP-TT and AdaP-TT*.
///
/// # Domain
/// Rewards in `[0, 1]` for the privacy statement (not checked here); `ε > 0` finite.
///
/// # Errors
/// [`Error::InvalidParameter`] if `ε` is not finite and `> 0`, or a reward is not finite.
///
/// # Example
/// ```
/// let plan = dpbai::privacy::daf_release_plan(&[1.0, 0.0, 1.0, 0.0, 1.0], 0.5, true).unwrap();
/// // phases 1 = {r1}, 2 = {r2}, 3 = {r3, r4}; sample 5 starts phase 4 (incomplete).
/// assert_eq!(plan.len(), 3);
/// assert_eq!(plan[2].0, 0.5);
/// assert!((plan[2].1 - 1.0).abs() < 1e-15); // 1/(0.5·2)
/// ```
pub fn daf_release_plan(rewards: &[f64], eps: f64, forgetting: bool) -> Result<Vec<(f64, f64)>> {
    check_above("eps", eps, 0.0)?;
    if let Some(r) = rewards.iter().find(|r| !r.is_finite()) {
        return Err(Error::param("reward", r, "a finite number"));
    }
    let n = rewards.len() as u64;
    let mut plan = Vec::new();
    let mut k = 1u32;
    loop {
        let (lo, hi) = daf_phase_bounds(k);
        if hi > n {
            break;
        }
        let first = if forgetting { lo } else { 1 };
        let slice = &rewards[(first - 1) as usize..hi as usize];
        let mean = slice.iter().sum::<f64>() / slice.len() as f64;
        let size = (hi - lo + 1) as f64;
        plan.push((mean, ulp_up(1.0 / (eps * size))));
        k += 1;
    }
    Ok(plan)
}

/// One draw of the DAF release vector: `mean_k + Lap(scale_k)` for every entry of
/// [`daf_release_plan`].
///
/// # Errors
/// As [`daf_release_plan`].
pub fn daf_sample_release(
    rewards: &[f64],
    eps: f64,
    forgetting: bool,
    rng: &mut Rng,
) -> Result<Vec<f64>> {
    Ok(daf_release_plan(rewards, eps, forgetting)?
        .into_iter()
        .map(|(m, b)| m + laplace_noise(b, rng))
        .collect())
}

/// One release of [`DafArm`]: the noiseless phase mean, its Laplace scale and the released
/// (noisy) value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DafRelease {
    /// Phase index `k` (1-based).
    pub phase: u32,
    /// Noiseless mean of the phase's samples (all past samples without forgetting).
    pub mean: f64,
    /// Laplace scale `1/(ε·Ñ_k)`.
    pub scale: f64,
    /// Released value `mean + Lap(scale)`.
    pub released: f64,
}

/// DAF(ε) for one arm, fed sample by sample (Alg. 5; MATH.md D.6).
///
/// # Definition
/// Sample 1 closes phase 1 (`Ñ_1 = 1`); afterwards, the sample that brings the arm's count to
/// `2·N_{T_k}` closes phase `k + 1` (L. 37: `N_{T_k} = 2^{k−1}`, `Ñ_k = 2^{k−2}` for `k >= 2`).
/// A closed phase releases `mean + Lap(1/(ε·Ñ))` where `mean` averages the phase's own samples
/// (forgetting) or, for the mutant `forgetting = false`, all samples so far. The releases are
/// exactly those of [`daf_release_plan`] on the same sequence. (The bandit algorithms run the
/// same rule inline, see `bandit::algos`.)
///
/// # Reference
/// Privacy: L. 31 (fixed partition + Laplace per Thm. 3) and L. 20 / Thm. 32.
///
/// # Domain
/// `ε > 0` finite; rewards in `[0, 1]` for the privacy statement.
///
/// # Example
/// ```
/// use dpbai::privacy::DafArm;
/// let mut rng = dpbai::rng::rng_for_run(1, 0);
/// let mut arm = DafArm::new(1.0, true).unwrap();
/// let phases: Vec<u32> = [1.0, 0.0, 1.0, 1.0]
///     .iter()
///     .filter_map(|&r| arm.push(r, &mut rng).map(|x| x.phase))
///     .collect();
/// assert_eq!(phases, vec![1, 2, 3]);
/// ```
#[derive(Debug, Clone)]
pub struct DafArm {
    eps: f64,
    forgetting: bool,
    n: u64,
    start: u64,
    phase: u32,
    phase_sum: f64,
    total_sum: f64,
}

impl DafArm {
    /// A fresh arm (no sample yet).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `ε` is finite and `> 0`.
    pub fn new(eps: f64, forgetting: bool) -> Result<Self> {
        check_above("eps", eps, 0.0)?;
        Ok(DafArm {
            eps,
            forgetting,
            n: 0,
            start: 1,
            phase: 0,
            phase_sum: 0.0,
            total_sum: 0.0,
        })
    }

    /// Number of samples seen.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// Feeds one sample; returns the release if it closes a phase.
    pub fn push(&mut self, r: f64, rng: &mut Rng) -> Option<DafRelease> {
        self.n += 1;
        self.phase_sum += r;
        self.total_sum += r;
        let (size, closes) = if self.n == 1 {
            (1u64, true)
        } else {
            (self.n - self.start, self.n >= 2 * self.start)
        };
        if !closes {
            return None;
        }
        if self.n > 1 {
            self.start = self.n;
        }
        self.phase += 1;
        let mean = if self.forgetting {
            self.phase_sum / size as f64
        } else {
            self.total_sum / self.n as f64
        };
        self.phase_sum = 0.0;
        let scale = ulp_up(1.0 / (self.eps * size as f64));
        Some(DafRelease {
            phase: self.phase,
            mean,
            scale,
            released: mean + laplace_noise(scale, rng),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for_run;

    #[test]
    fn constructors_reject_bad_input() {
        assert!(RandomisedResponse::new(f64::NAN).is_err());
        assert!(RandomisedResponse::new(-1.0).is_err());
        assert!(RandomisedResponse::with_keep_probability(1.5).is_err());
        assert!(Laplace::new(0.0, 1.0).is_err());
        assert!(Laplace::new(1.0, f64::INFINITY).is_err());
        assert!(GaussianMechanism::new(1.0, 0.0).is_err());
        assert!(GaussianMechanism::with_sigma(f64::NAN).is_err());
        assert!(daf_release_plan(&[0.5], 0.0, true).is_err());
        assert!(daf_release_plan(&[f64::NAN], 1.0, true).is_err());
    }

    #[test]
    fn rr_ratio_is_e_eps_and_safe() {
        // L. 12: the worst-case likelihood ratio is q/(1-q) = e^ε, never above it.
        for &eps in &[0.01, 0.1, 1.0, 5.0, 30.0] {
            let rr = RandomisedResponse::new(eps).unwrap();
            let q = rr.keep_probability();
            assert!(q / (1.0 - q) <= eps.exp() * (1.0 + 1e-12));
            // q is stored in binary64: for large ε, 1 − q carries few significant bits.
            let tol = if eps <= 5.0 { 1e-9 } else { 1e-2 };
            assert!((rr.epsilon() - eps).abs() < tol * eps.max(1.0));
            assert!(
                (rr.output_probability(0.3) - crate::divergence::rr_mean_unchecked(0.3, eps)).abs()
                    < 1e-12
            );
        }
    }

    #[test]
    fn scales_match_spec() {
        let l = Laplace::new(0.25, 0.1).unwrap();
        assert!(l.scale() >= 2.5 && l.scale() - 2.5 < 1e-15);
        let g = GaussianMechanism::new(1.0, 0.01).unwrap();
        assert!(g.sigma() >= (2.0 * 125f64.ln()).sqrt());
    }

    #[test]
    fn daf_plan_phases_and_mutant() {
        let r: Vec<f64> = (1..=16).map(|i| (i % 3) as f64 / 2.0).collect();
        let p = daf_release_plan(&r, 1.0, true).unwrap();
        assert_eq!(p.len(), 5); // phases 1..5 end at samples 1, 2, 4, 8, 16
        for (k, &(m, b)) in p.iter().enumerate() {
            let (lo, hi) = daf_phase_bounds(k as u32 + 1);
            let want = r[(lo - 1) as usize..hi as usize].iter().sum::<f64>() / (hi - lo + 1) as f64;
            assert_eq!(m, want);
            assert!((b - 1.0 / (hi - lo + 1) as f64).abs() < 1e-15);
        }
        let q = daf_release_plan(&r, 1.0, false).unwrap();
        assert_eq!(q[4].0, r.iter().sum::<f64>() / 16.0);
        assert_eq!(q[4].1, p[4].1);
        assert_eq!(daf_release_plan(&r[..7], 1.0, true).unwrap().len(), 3);
        let mut rng = rng_for_run(1, 0);
        assert_eq!(
            daf_sample_release(&r, 1.0, true, &mut rng).unwrap().len(),
            5
        );
    }

    #[test]
    fn daf_arm_matches_release_plan() {
        let r: Vec<f64> = (0..100).map(|i| ((i * 7) % 5) as f64 / 4.0).collect();
        for forgetting in [true, false] {
            let plan = daf_release_plan(&r, 0.7, forgetting).unwrap();
            let mut arm = DafArm::new(0.7, forgetting).unwrap();
            let mut rng = rng_for_run(3, 0);
            let got: Vec<(f64, f64)> = r
                .iter()
                .filter_map(|&x| arm.push(x, &mut rng).map(|d| (d.mean, d.scale)))
                .collect();
            assert_eq!(got.len(), plan.len());
            for (g, p) in got.iter().zip(&plan) {
                assert!((g.0 - p.0).abs() < 1e-12 && g.1 == p.1);
            }
        }
        assert!(DafArm::new(0.0, true).is_err());
    }

    #[test]
    fn laplace_tail_frequency() {
        // P(|Lap(b)| > b) = e^{-1} and P(Lap(b) > 0) = 1/2. Hoeffding: P(|p̂ − p| >= t) <=
        // 2 exp(−2 n t²) = 1e-6 at t = sqrt(ln(2e6)/(2n)) (alpha = 1e-6 per check, analytic).
        let mut rng = rng_for_run(7, 0);
        let n = 200_000usize;
        let b = 2.0;
        let (mut big, mut pos) = (0usize, 0usize);
        for _ in 0..n {
            let y = laplace_noise(b, &mut rng);
            big += (y.abs() > b) as usize;
            pos += (y > 0.0) as usize;
        }
        let t = ((2e6f64).ln() / (2.0 * n as f64)).sqrt();
        assert!((big as f64 / n as f64 - (-1f64).exp()).abs() < t);
        assert!((pos as f64 / n as f64 - 0.5).abs() < t);
    }
}
