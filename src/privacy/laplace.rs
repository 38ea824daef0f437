//! The Laplace mechanism (Thm. 3, READINGS.md §C.8) and the raw Laplace draw used by DAF and DP-SE.

use super::{Mechanism, PrivacyClaim, ulp_up};
use crate::error::{Error, Result, check_above};
use crate::rng::Rng;
use rand::Rng as _;
use rand_distr::{Distribution, Exp1};

/// The Laplace mechanism (Thm. 3; READINGS.md §C.8): `f(D) + Lap(b)` with `b = s(f)/ε`.
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
                format!(
                    "in [1e-300, 1e300] with sensitivity/eps a normal double (sensitivity {sensitivity})"
                ),
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

impl Mechanism for Laplace {
    #[inline]
    fn apply(&self, r: f64, rng: &mut Rng) -> f64 {
        self.release(r, rng)
    }
    /// `ε = Δ/b` with the rewards' sensitivity `Δ = 1` (Thm. 3).
    fn privacy_claim(&self) -> PrivacyClaim {
        PrivacyClaim {
            eps: 1.0 / self.scale,
            gamma: 0.0,
            lemma: "Thm. 3",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for_run;

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
