//! The Gaussian mechanism of Remark 13 / Alg. 8 (READINGS.md §C.8, §D.5): (ε, γ)-local DP.

use super::{Mechanism, PrivacyClaim, ulp_up};
use crate::error::{Result, check_above};
use crate::rng::Rng;
use rand_distr::{Distribution, StandardNormal};

/// The Gaussian mechanism of Remark 13 / Alg. 8 (READINGS.md §C.8, §D.5): `r + N(0, σ_{ε,γ}²)`.
///
/// # Definition
/// `σ_{ε,γ} = sqrt(2·log(1.25/γ))/ε`.
///
/// # Reference
/// Privacy: Rem. 13 (Dwork–Roth Thm. A.1) — `(ε, γ)`-local DP for rewards in `[0, 1]`
/// (sensitivity 1); the classical proof needs `ε < 1`, which the paper does not require
/// (READINGS.md §D.5); `new` accepts any `ε > 0` and documents the caveat.
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
    gamma: f64,
}

impl GaussianMechanism {
    /// The `(ε, γ)` Gaussian mechanism for sensitivity 1.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) unless `ε > 0` finite and `γ ∈ (0, 1)`.
    pub fn new(eps: f64, gamma: f64) -> Result<Self> {
        crate::params::check_eps("eps", eps)?;
        crate::params::check_gamma("gamma", gamma)?;
        Self::with_sigma(ulp_up((2.0 * (1.25 / gamma).ln()).sqrt() / eps), gamma)
    }

    /// Gaussian noise of an arbitrary standard deviation (mutants included), whose privacy
    /// statement is read at `γ`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) unless `σ` is finite and
    /// `> 0` and `γ ∈ (0, 1)`.
    pub fn with_sigma(sigma: f64, gamma: f64) -> Result<Self> {
        check_above("sigma", sigma, 0.0)?;
        crate::params::check_gamma("gamma", gamma)?;
        Ok(GaussianMechanism { sigma, gamma })
    }

    /// The `γ` of its privacy statement.
    pub fn gamma(&self) -> f64 {
        self.gamma
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

impl Mechanism for GaussianMechanism {
    #[inline(always)]
    fn apply(&self, r: f64, rng: &mut Rng) -> f64 {
        self.privatise(r, rng)
    }
    /// `(sqrt(2 log(1.25/γ))/σ, γ)` (Rem. 13 solved for `ε`).
    fn privacy_claim(&self) -> PrivacyClaim {
        PrivacyClaim {
            eps: (2.0 * (1.25 / self.gamma).ln()).sqrt() / self.sigma,
            gamma: self.gamma,
            lemma: "Rem. 13",
        }
    }
}
