//! Randomised response (Warner; CTB, Alg. 4, READINGS.md §A.5): ε-local DP by L. 12.

use super::{Mechanism, PrivacyClaim, bernoulli_draw, bernoulli_threshold, ulp_down};
use crate::error::{Result, check_closed};
use crate::rng::Rng;

/// Randomised response on `[0, 1]` rewards (CTB, Alg. 4; READINGS.md §A.5).
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
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) unless `ε` is finite and `> 0`.
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
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) unless `q ∈ [0, 1]`.
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

impl Mechanism for RandomisedResponse {
    #[inline(always)]
    fn apply(&self, r: f64, rng: &mut Rng) -> f64 {
        self.privatise(r, rng)
    }
    fn accepts(&self, r: f64) -> bool {
        (0.0..=1.0).contains(&r)
    }
    /// `ε = |log(q/(1 − q))|` ([`RandomisedResponse::epsilon`], L. 12).
    fn privacy_claim(&self) -> PrivacyClaim {
        PrivacyClaim {
            eps: self.epsilon(),
            gamma: 0.0,
            lemma: "L. 12",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
