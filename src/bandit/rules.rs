//! Building blocks of the Top Two algorithms (READINGS.md §D.1): UCB bonuses and transport
//! costs, as plain functions (tested against the D.1 vectors) and as the cost plug-ins the
//! simulation loop uses. The stopping thresholds are the threshold layer's
//! ([`crate::threshold::paper`]).

use crate::threshold::sf::k_fn;

/// Concentration parameters `s = α = 1.2` of the UCB bonus (Sec. 2.2.3, READINGS.md §D.3).
pub const UCB_S: f64 = 1.2;
/// See [`UCB_S`].
pub const UCB_ALPHA: f64 = 1.2;

/// Gaussian UCB bonus of TTUCB (Eq. (3)).
///
/// # Definition
/// `b^G_a(ω) = sqrt(2σ²·α(1+s)·log(‖ω‖_1)/ω_a)`, `s = α = 1.2`.
///
/// # Reference
/// Eq. (3); READINGS.md §D.1.
///
/// # Domain
/// `ω_a >= 1`, `‖ω‖_1 >= 1`, `σ > 0` (not checked: hot path).
///
/// # Accuracy
/// A few ulps.
///
/// # Example
/// ```
/// // READINGS.md §D.1: b^G_1(N = (10,20,30,40,50)) = 0.8132674
/// let b = dpbai::bandit::rules::ucb_bonus_gaussian(10.0, 150.0, 0.5);
/// assert!((b - 0.8132674).abs() < 1e-7);
/// ```
pub fn ucb_bonus_gaussian(w_a: f64, w_total: f64, sigma: f64) -> f64 {
    (2.0 * sigma * sigma * UCB_ALPHA * (1.0 + UCB_S) * w_total.ln() / w_a).sqrt()
}

/// Private bonus of AdaP-TT / AdaP-TT* (Eq. (11)).
///
/// # Definition
/// `b^{G,ε}_a(ω) = sqrt(k(ω_a)/ω_a) + k(ω_a)/(ε·ω_a)`, `k(x) = log2 x + 2`.
///
/// # Reference
/// Eq. (11); READINGS.md §D.1 (heuristic, Sec. 4.3).
///
/// # Domain
/// `ω_a >= 1`, `ε > 0` (`ε = ∞` drops the second term).
///
/// # Accuracy
/// A few ulps.
///
/// # Example
/// ```
/// let b = dpbai::bandit::rules::ucb_bonus_private(8.0, 0.5);
/// assert!((b - 2.0405694).abs() < 1e-7);
/// ```
pub fn ucb_bonus_private(w_a: f64, eps: f64) -> f64 {
    let k = k_fn(w_a);
    (k / w_a).sqrt() + k / (eps * w_a)
}

/// Eq. (11)'s private bonus with its own-count term `k(ω_a)` replaced by Eq. (3)'s `log ‖ω‖₁`
/// (the control of Finding 1; not in the paper).
///
/// # Definition
/// `b_a(ω) = sqrt(ℓ/ω_a) + ℓ/(ε·ω_a)`, `ℓ = log ‖ω‖₁ = log Σ_b ω_b`: the shape of a confidence
/// radius for a mean of `ω_a` samples plus `Lap(1/(εω_a))` noise at confidence `~1/‖ω‖₁`, the
/// form of the public code's AdaP-TT index (READINGS.md §P) with `log n` on the local counts.
///
/// # Reference
/// Eq. (11) and Eq. (3); READINGS.md §D.1, §P.
///
/// # Domain
/// `ω_a >= 1`, `‖ω‖₁ >= ω_a`, `ε > 0`.
///
/// # Accuracy
/// A few ulps.
///
/// # Example
/// ```
/// // ℓ = ln 100: sqrt(ℓ/4) + ℓ/(0.5·4)
/// let b = dpbai::bandit::rules::ucb_bonus_private_log_n(4.0, 100.0, 0.5);
/// let l = 100f64.ln();
/// assert!((b - ((l / 4.0).sqrt() + l / 2.0)).abs() < 1e-14);
/// ```
pub fn ucb_bonus_private_log_n(w_a: f64, w_total: f64, eps: f64) -> f64 {
    let l = w_total.ln();
    (l / w_a).sqrt() + l / (eps * w_a)
}

/// Gaussian transport cost (Eq. (3)).
///
/// # Definition
/// `W^G_{a,b}(μ̃, ω) = ((μ̃_a − μ̃_b)_+)² / (2σ²(1/ω_a + 1/ω_b))`.
///
/// # Reference
/// Eq. (3); READINGS.md §D.1.
///
/// # Domain
/// Counts `>= 1`, `σ > 0`.
///
/// # Accuracy
/// A few ulps.
///
/// # Example
/// ```
/// let w = dpbai::bandit::rules::transport_cost_gaussian(0.7, 0.5, 8.0, 16.0, 0.5);
/// assert!((w - 0.4266667).abs() < 1e-7);
/// ```
pub fn transport_cost_gaussian(mu_a: f64, mu_b: f64, w_a: f64, w_b: f64, sigma: f64) -> f64 {
    let g = (mu_a - mu_b).max(0.0);
    g * g / (2.0 * sigma * sigma * (1.0 / w_a + 1.0 / w_b))
}

/// Privacy-aware transport cost (Eq. (13)).
///
/// # Definition
/// `W^{G,ε}_{a,b} = g·min{ε/2, g} / (2σ²(1/ω_a + 1/ω_b))`, `g = (μ̃_a − μ̃_b)_+`.
///
/// # Reference
/// Eq. (13); READINGS.md §D.1.
///
/// # Domain
/// Counts `>= 1`, `σ, ε > 0`.
///
/// # Accuracy
/// A few ulps.
///
/// # Example
/// ```
/// let w = dpbai::bandit::rules::transport_cost_privacy_aware(0.7, 0.5, 8.0, 16.0, 0.2, 0.5);
/// assert!((w - 0.2133333).abs() < 1e-7);
/// ```
pub fn transport_cost_privacy_aware(
    mu_a: f64,
    mu_b: f64,
    w_a: f64,
    w_b: f64,
    eps: f64,
    sigma: f64,
) -> f64 {
    let g = (mu_a - mu_b).max(0.0);
    g * g.min(eps / 2.0) / (2.0 * sigma * sigma * (1.0 / w_a + 1.0 / w_b))
}

/// Transport costs (Eq. (3), (13)) and the public code's statistic (READINGS.md §P).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Cost {
    /// `W^G` with `inv2s2 = 1/(2σ²)`.
    Gauss { inv2s2: f64 },
    /// `W^{G,ε}`.
    PrivAware { half_eps: f64, inv2s2: f64 },
    /// `0.5·(μ̃_a − μ̃_b)²/(1/n_a + 1/n_b)` (σ = 1, no positive part).
    Reference,
}

impl Cost {
    /// The cost for inverse counts `iwa = 1/ω_a`, `iwb = 1/ω_b`:
    /// `numerator(μ_a, μ_b) / (iwa + iwb)`, evaluated exactly so.
    #[inline(always)]
    pub(crate) fn eval(&self, mu_a: f64, mu_b: f64, iwa: f64, iwb: f64) -> f64 {
        self.numerator(mu_a, mu_b) / (iwa + iwb)
    }

    /// The count-free factor of the cost (`>= 0`): the cost is this over `1/ω_a + 1/ω_b`.
    #[inline(always)]
    pub(crate) fn numerator(&self, mu_a: f64, mu_b: f64) -> f64 {
        match *self {
            Cost::Gauss { inv2s2 } => {
                let g = (mu_a - mu_b).max(0.0);
                g * g * inv2s2
            }
            Cost::PrivAware { half_eps, inv2s2 } => {
                let g = (mu_a - mu_b).max(0.0);
                g * g.min(half_eps) * inv2s2
            }
            Cost::Reference => {
                let d = mu_a - mu_b;
                0.5 * d * d
            }
        }
    }
}
