//! The signed Bernoulli divergences `d⁺_ε`, `d⁻_ε` and the two-sided `d_ε` of the global-DP
//! lower bound of \[BAI25\] (introduced in \[REG25\]).
//!
//! * **\[BAI25\]** M. Jourdan, A. Azize, "Optimal Best Arm Identification under Differential
//!   Privacy", NeurIPS 2025, arXiv 2510.17348 (cited by its poster: its theorem numbers are not
//!   used here).
//! * **\[REG25\]** A. Azize, Y. Wu, J. Honda, F. Orabona, S. Ito, D. Basu, "Optimal Regret of
//!   Bernoulli Bandits under Global Differential Privacy", arXiv 2505.05613.
//!
//! `d_ε(ν, κ) = inf_φ ε·TV(ν, φ) + KL(φ, κ)`: move `ν` in total variation at price `ε` per unit,
//! then pay KL to the alternative `κ`. For Bernoulli means it is a 1-D infimum with a closed
//! form, three branches meeting with equal value and slope at the breakpoint `g⁻_ε(μ)`.
//!
//! # Numerics
//! The poster's third branch `−log(1 − x(1 − e^{−ε})) − εμ` cancels near the breakpoint when `ε`
//! is small (both terms are `~εμ`, the difference `~ε²μ(1 − μ)/2`), and so does its other form
//! `ε(1 − μ) − log(1 + (1 − x)(e^ε − 1))`. Both are avoided. With the inner minimiser
//! `z* = x/(x + (1 − x)e^ε)` of the definition, the value is evaluated from offsets that carry
//! no cancellation (`Q = 1 − x(1 − e^{−ε})`, `a = 1 − e^{−ε}`, `b = e^{−ε}`, `d = x − μ`):
//! ```text
//! t = z* − μ = (d·b − μ(1 − x)·a)/Q,   s = x − z* = x(1 − x)·a/Q,   1 − z* = (1 − x)/Q,
//! d⁺_ε(μ, x) = ε·t + kl(z*, x)               when t >= d/2  (two non-negative terms),
//!            = kl(μ, x) − kl(μ, z*)           when t <  d/2  (kl(μ, z*) <= kl(μ, x)/2),
//! ```
//! the second form by the three-point identity of the Bregman divergence `kl` and the
//! stationarity `log(z*(1 − x)/((1 − z*)x)) = −ε`. Each `kl` is evaluated from its arguments,
//! their complements and their difference given separately (`kl_interior`), so that neither
//! `z*` nor `1 − z*` is rounded to a double before its offset is used. `d⁻_ε` mirrors the
//! arguments (`μ ↦ 1 − μ`, `x ↦ 1 − x`) with the complements and the difference taken from the
//! caller's doubles. No `e^ε` is formed: no overflow at any `ε`.

use super::kl_interior;
use crate::error::{Result, check_above, check_closed};

/// The constants of one privacy budget for the signed divergences: `ε`, `a = 1 − e^{−ε}`
/// (by `expm1`) and `b = e^{−ε}`, computed once so that a hot loop evaluates `d_ε` without
/// transcendental calls for them.
///
/// # Example
/// ```
/// let d = dpbai::divergence::DEps::new(0.5).unwrap();
/// // d⁺_ε(μ, 1) = ε(1 − μ): finite, unlike kl(μ, 1)
/// assert!((d.plus(0.2, 1.0) - 0.4).abs() < 1e-15);
/// assert_eq!(d.minus(0.2, 0.7), 0.0); // moving down to a larger mean costs nothing
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DEps {
    eps: f64,
    a: f64,
    b: f64,
}

impl DEps {
    /// The constants of `ε`.
    ///
    /// # Errors
    /// [`crate::Error::InvalidParameter`] unless `ε > 0` finite.
    pub fn new(eps: f64) -> Result<Self> {
        check_above("eps", eps, 0.0)?;
        Ok(Self::new_unchecked(eps))
    }

    /// [`DEps::new`] without the check (the caller guarantees `ε > 0` finite).
    #[inline]
    pub fn new_unchecked(eps: f64) -> Self {
        DEps {
            eps,
            a: -(-eps).exp_m1(),
            b: (-eps).exp(),
        }
    }

    /// The privacy budget `ε`.
    #[inline]
    pub fn eps(&self) -> f64 {
        self.eps
    }

    /// `(a, b) = (1 − e^{−ε}, e^{−ε})`.
    #[inline]
    pub(crate) fn tilt(&self) -> (f64, f64) {
        (self.a, self.b)
    }

    /// `d⁺_ε(μ, x)` for `μ, x ∈ [0, 1]` (unchecked; see [`d_eps_plus`]).
    #[inline]
    pub fn plus(&self, mu: f64, x: f64) -> f64 {
        if x <= mu {
            return 0.0;
        }
        self.up(mu, 1.0 - mu, x, 1.0 - x, x - mu)
    }

    /// `d⁻_ε(μ, x) = d⁺_ε(1 − μ, 1 − x)` for `μ, x ∈ [0, 1]` (unchecked; see [`d_eps_minus`]).
    #[inline]
    pub fn minus(&self, mu: f64, x: f64) -> f64 {
        if x >= mu {
            return 0.0;
        }
        self.up(1.0 - mu, mu, 1.0 - x, x, mu - x)
    }

    /// The two-sided `d_ε(μ, x)`: `d⁺_ε` when `x >= μ`, else `d⁻_ε` (unchecked; see [`d_eps`]).
    #[inline]
    pub fn two_sided(&self, mu: f64, x: f64) -> f64 {
        if x >= mu {
            self.plus(mu, x)
        } else {
            self.minus(mu, x)
        }
    }

    /// The breakpoint `g⁻_ε(μ) = μe^ε/(μ(e^ε − 1) + 1)`, written `μ/(μ + (1 − μ)e^{−ε})`
    /// (unchecked; see [`d_eps_breakpoint`]).
    #[inline]
    pub fn breakpoint(&self, mu: f64) -> f64 {
        if mu <= 0.0 {
            return 0.0;
        }
        mu / (mu + (1.0 - mu) * self.b)
    }

    /// The cost of moving a mean up from `m` to `x > m`, from `m`, `mc = 1 − m`, `x`,
    /// `xc = 1 − x` and `d = x − m > 0` given separately (module docs, "Numerics").
    #[inline]
    fn up(&self, m: f64, mc: f64, x: f64, xc: f64, d: f64) -> f64 {
        if xc <= 0.0 {
            return self.eps * mc; // x = 1: −log(e^{−ε}) − εm
        }
        let q = self.b + xc * self.a; // 1 − x(1 − e^{−ε}) > 0
        let n = d * self.b - m * xc * self.a; // (z* − m)·Q, > 0 iff x > g⁻_ε(m)
        if n <= 0.0 {
            return kl_interior(m, mc, x, xc, d); // z* <= m: the kl branch
        }
        let t = n / q;
        let z = x * self.b / q;
        let zc = xc / q;
        if t >= 0.5 * d {
            self.eps * t + kl_interior(z, zc, x, xc, x * xc * self.a / q)
        } else {
            kl_interior(m, mc, x, xc, d) - kl_interior(m, mc, z, zc, t)
        }
    }

    /// `(∂/∂x, ∂²/∂x²)` of `d⁺_ε(m, x)` for `x > m` (right derivatives at the breakpoint, where
    /// the first is continuous).
    #[inline]
    fn up_derivatives(&self, m: f64, mc: f64, x: f64, xc: f64, d: f64) -> (f64, f64) {
        let q = self.b + xc * self.a;
        if xc > 0.0 && d * self.b - m * xc * self.a <= 0.0 {
            // kl branch: ∂kl(m, x)/∂x = (x − m)/(x(1 − x)), ∂² = m/x² + (1 − m)/(1 − x)²
            return (d / (x * xc), m / (x * x) + mc / (xc * xc));
        }
        // third branch: ∂/∂x −log(Q) = a/Q, ∂² = (a/Q)²
        let g = self.a / q;
        (g, g * g)
    }

    /// `(∂/∂x, ∂²/∂x²)` of `d⁺_ε(μ, x)`: zero for `x < μ`; at `x = μ` the right derivative
    /// (zero, except `a = 1 − e^{−ε}` when `μ = 0`, where the third branch starts at once).
    #[inline]
    pub(crate) fn plus_derivatives(&self, mu: f64, x: f64) -> (f64, f64) {
        if x < mu || (x == mu && mu > 0.0) {
            return (0.0, 0.0);
        }
        if x <= 0.0 {
            return (self.a, self.a * self.a); // μ = x = 0: a/Q with Q = 1
        }
        self.up_derivatives(mu, 1.0 - mu, x, 1.0 - x, x - mu)
    }

    /// `(∂/∂x, ∂²/∂x²)` of `d⁻_ε(μ, x)`: zero for `x > μ`; at `x = μ` the left derivative
    /// (zero, except `−a` when `μ = 1`).
    #[inline]
    pub(crate) fn minus_derivatives(&self, mu: f64, x: f64) -> (f64, f64) {
        if x > mu || (x == mu && mu < 1.0) {
            return (0.0, 0.0);
        }
        if x >= 1.0 {
            return (-self.a, self.a * self.a);
        }
        let (g, h) = self.up_derivatives(1.0 - mu, mu, 1.0 - x, x, mu - x);
        (-g, h)
    }
}

fn check_args(mu: f64, x: f64, eps: f64) -> Result<DEps> {
    check_closed("mu", mu, 0.0, 1.0)?;
    check_closed("x", x, 0.0, 1.0)?;
    DEps::new(eps)
}

/// `d⁺_ε(μ, x)`, without argument checks.
///
/// # Definition, Reference, Domain, Accuracy
/// As [`d_eps_plus`], except that the arguments are not checked: the caller guarantees
/// `μ, x ∈ [0, 1]` and `ε > 0` finite (hot loops); outside that the result is unspecified.
/// A private (noisy) mean must be clipped to `[0, 1]` first.
#[inline]
pub fn d_eps_plus_unchecked(mu: f64, x: f64, eps: f64) -> f64 {
    DEps::new_unchecked(eps).plus(mu, x)
}

/// The cost `d⁺_ε(μ, x)` of moving a Bernoulli mean **up** from `μ` to `x` under `ε`-global DP.
///
/// # Definition
/// ```text
/// d⁺_ε(μ, x) = inf_{z ∈ [μ, x]} ε(z − μ) + kl(z, x)       (x > μ), 0 for x <= μ
///            = kl(μ, x)                           if μ < x <= g⁻_ε(μ)
///            = −log(1 − x(1 − e^{−ε})) − εμ       if x > g⁻_ε(μ),
/// g⁻_ε(μ) = μe^ε / (μ(e^ε − 1) + 1);   minimiser z* = x/(x + (1 − x)e^ε) when z* > μ.
/// ```
/// # Reference
/// \[BAI25\] poster (closed form and `g⁻_ε`); \[REG25\] (the divergence `d_ε`, its Bernoulli
/// infimum over `z` between the two means). Evaluation: module docs, "Numerics".
/// # Domain
/// `μ, x ∈ [0, 1]`, `ε > 0` finite. Finite everywhere (`d⁺_ε(μ, 1) = ε(1 − μ)`,
/// `d⁺_ε(0, x) = −log(1 − x(1 − e^{−ε}))`); C¹ and convex in `x` on `[μ, 1]`; no overflow at
/// any `ε` (no `e^ε` is formed).
/// # Accuracy
/// Relative error <= 1e-13 (`D_EPS_TOL` of `tests/divergence.rs`) against the definition
/// minimised at 50 digits by `verify/golden_d_eps.py` (golden file
/// `tests/data/d_eps_golden.toml`: ε from 1e-12 to 1e3, both sides of every breakpoint).
/// # Errors
/// [`crate::Error::InvalidParameter`] if `μ` or `x` is NaN or outside `[0, 1]`, or `ε` is not a
/// finite number `> 0`.
/// # Example
/// ```
/// use dpbai::divergence::{d_eps_plus, kl_bernoulli};
/// // below the breakpoint it is kl; at x = 1 it is ε(1 − μ)
/// let (mu, eps) = (0.5, 2.0);
/// assert_eq!(d_eps_plus(mu, 0.6, eps).unwrap(), kl_bernoulli(mu, 0.6).unwrap());
/// assert!((d_eps_plus(mu, 1.0, eps).unwrap() - 1.0).abs() < 1e-15);
/// assert!(d_eps_plus(mu, 1.5, eps).is_err());
/// ```
pub fn d_eps_plus(mu: f64, x: f64, eps: f64) -> Result<f64> {
    Ok(check_args(mu, x, eps)?.plus(mu, x))
}

/// `d⁻_ε(μ, x)`, without argument checks.
///
/// # Definition, Reference, Domain, Accuracy
/// As [`d_eps_minus`], except that the arguments are not checked: the caller guarantees
/// `μ, x ∈ [0, 1]` and `ε > 0` finite (hot loops); outside that the result is unspecified.
#[inline]
pub fn d_eps_minus_unchecked(mu: f64, x: f64, eps: f64) -> f64 {
    DEps::new_unchecked(eps).minus(mu, x)
}

/// The cost `d⁻_ε(μ, x)` of moving a Bernoulli mean **down** from `μ` to `x` under `ε`-global
/// DP.
///
/// # Definition
/// ```text
/// d⁻_ε(μ, x) = d⁺_ε(1 − μ, 1 − x) = inf_{z ∈ [x, μ]} ε(μ − z) + kl(z, x)   (x < μ), 0 for x >= μ
/// ```
/// # Reference
/// \[BAI25\] poster; \[REG25\]. Evaluation as [`d_eps_plus`] on the mirrored arguments, with
/// `1 − μ`, `1 − x` and `μ − x` taken from the given doubles.
/// # Domain
/// `μ, x ∈ [0, 1]`, `ε > 0` finite. `d⁻_ε(μ, 0) = εμ`.
/// # Accuracy
/// Relative error <= 1e-13 (`D_EPS_TOL` of `tests/divergence.rs`, golden file
/// `tests/data/d_eps_golden.toml`, `verify/golden_d_eps.py`).
/// # Errors
/// As [`d_eps_plus`].
/// # Example
/// ```
/// let v = dpbai::divergence::d_eps_minus(0.9, 0.0, 0.5).unwrap();
/// assert!((v - 0.45).abs() < 1e-15); // εμ
/// ```
pub fn d_eps_minus(mu: f64, x: f64, eps: f64) -> Result<f64> {
    Ok(check_args(mu, x, eps)?.minus(mu, x))
}

/// `d_ε(μ, x)`, without argument checks.
///
/// # Definition, Reference, Domain, Accuracy
/// As [`d_eps`], except that the arguments are not checked: the caller guarantees
/// `μ, x ∈ [0, 1]` and `ε > 0` finite (hot loops); outside that the result is unspecified.
#[inline]
pub fn d_eps_unchecked(mu: f64, x: f64, eps: f64) -> f64 {
    DEps::new_unchecked(eps).two_sided(mu, x)
}

/// The two-sided divergence `d_ε(Ber(μ), Ber(x))`.
///
/// # Definition
/// ```text
/// d_ε(ν, κ) = inf_φ ε·TV(ν, φ) + KL(φ, κ);   Bernoulli: inf_{z} ε|z − μ| + kl(z, x)
///           = d⁺_ε(μ, x) if x >= μ, d⁻_ε(μ, x) if x < μ
/// ```
/// # Reference
/// \[BAI25\] poster; \[REG25\] (definition and Bernoulli form).
/// # Domain
/// `μ, x ∈ [0, 1]`, `ε > 0` finite. `0 <= d_ε <= min{kl(μ, x), ε|x − μ|}`, with
/// `d_ε = kl` iff `ε >= |log(x(1 − μ)/(μ(1 − x)))|` ([`d_eps_kl_threshold`]).
/// # Accuracy
/// Relative error <= 1e-13 (`D_EPS_TOL` of `tests/divergence.rs`, golden file
/// `tests/data/d_eps_golden.toml`, `verify/golden_d_eps.py`).
/// # Errors
/// As [`d_eps_plus`].
/// # Example
/// ```
/// use dpbai::divergence::d_eps;
/// let (up, down) = (d_eps(0.3, 0.7, 1.0).unwrap(), d_eps(0.7, 0.3, 1.0).unwrap());
/// assert!((up - down).abs() < 1e-15); // the mirror symmetry
/// assert!(up <= 1.0 * 0.4); // <= ε·TV
/// ```
pub fn d_eps(mu: f64, x: f64, eps: f64) -> Result<f64> {
    Ok(check_args(mu, x, eps)?.two_sided(mu, x))
}

/// The breakpoint `g⁻_ε(μ)` of [`d_eps_plus`]: `d⁺_ε(μ, x) = kl(μ, x)` exactly for
/// `x <= g⁻_ε(μ)`.
///
/// # Definition
/// `g⁻_ε(μ) = μe^ε/(μ(e^ε − 1) + 1)`, evaluated as `μ/(μ + (1 − μ)e^{−ε})`; the mirrored
/// breakpoint of [`d_eps_minus`] is `1 − g⁻_ε(1 − μ)`.
/// # Reference
/// \[BAI25\] poster.
/// # Domain
/// `μ ∈ [0, 1]`, `ε > 0` finite; `g⁻_ε(0) = 0`, `g⁻_ε(1) = 1`, `μ < g⁻_ε(μ) < 1` inside.
/// # Accuracy
/// A few ulps (one `exp`, two roundings and a quotient); checked against the minimiser
/// condition `z* = μ` in `tests/divergence.rs` (`D_EPS_TOL`).
/// # Errors
/// As [`d_eps_plus`] for `μ` and `ε`.
/// # Example
/// ```
/// let g = dpbai::divergence::d_eps_breakpoint(0.5, 2f64.ln()).unwrap();
/// assert!((g - 2.0 / 3.0).abs() < 1e-15);
/// ```
pub fn d_eps_breakpoint(mu: f64, eps: f64) -> Result<f64> {
    check_closed("mu", mu, 0.0, 1.0)?;
    Ok(DEps::new(eps)?.breakpoint(mu))
}

/// The smallest `ε` at which `d_ε(μ, x) = kl(μ, x)`: `|logit(x) − logit(μ)|`.
///
/// # Definition
/// ```text
/// ε_kl(μ, x) = |log( x(1 − μ) / (μ(1 − x)) )|,   +∞ if μ ∈ {0, 1} or x ∈ {0, 1} (x != μ)
/// ```
/// `x <= g⁻_ε(μ) ⟺ ε >= log(x(1 − μ)/(μ(1 − x)))` for `x > μ`, and the mirror for `x < μ`.
/// # Reference
/// \[BAI25\] poster (the low-privacy condition is this threshold at `(μ_{a*}, μ_a)`).
/// # Domain
/// `μ, x ∈ [0, 1]`; `0` when `x = μ`.
/// # Accuracy
/// A few ulps away from `x ≈ μ` (two `ln` of quotients); the difference of the two logits is
/// taken as `log1p((x − μ)/(μ(1 − x)))` so that it keeps its relative accuracy as `x → μ`
/// (as the difference of the logits when that quotient overflows: subnormal means).
/// Checked as the equality condition of the sandwich in `tests/divergence.rs`.
/// # Errors
/// [`crate::Error::InvalidParameter`] if `μ` or `x` is NaN or outside `[0, 1]`.
/// # Example
/// ```
/// let e = dpbai::divergence::d_eps_kl_threshold(0.5, 0.75).unwrap();
/// assert!((e - 3f64.ln()).abs() < 1e-15);
/// ```
pub fn d_eps_kl_threshold(mu: f64, x: f64) -> Result<f64> {
    check_closed("mu", mu, 0.0, 1.0)?;
    check_closed("x", x, 0.0, 1.0)?;
    Ok(kl_threshold_unchecked(mu, x))
}

/// [`d_eps_kl_threshold`] without checks.
#[inline]
pub(crate) fn kl_threshold_unchecked(mu: f64, x: f64) -> f64 {
    let (lo, hi) = if x >= mu { (mu, x) } else { (x, mu) };
    if lo == hi {
        return 0.0;
    }
    if lo <= 0.0 || hi >= 1.0 {
        return f64::INFINITY;
    }
    // x(1 − μ)/(μ(1 − x)) = 1 + (x − μ)/(μ(1 − x)); beyond the double range (a subnormal
    // mean) the difference of the two logits, each finite
    let r = (hi - lo) / (lo * (1.0 - hi));
    if r.is_finite() {
        r.ln_1p()
    } else {
        (hi.ln() - (-hi).ln_1p()) - (lo.ln() - (-lo).ln_1p())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branches_and_special_values() {
        let d = DEps::new(1.0).unwrap();
        assert_eq!(d.plus(0.3, 0.3), 0.0);
        assert_eq!(d.plus(0.3, 0.1), 0.0);
        assert_eq!(d.minus(0.3, 0.5), 0.0);
        assert!((d.plus(0.0, 1.0) - 1.0).abs() < 1e-15);
        assert!((d.minus(1.0, 0.0) - 1.0).abs() < 1e-15);
        assert_eq!(d.plus(1.0, 1.0), 0.0);
        // huge ε: no overflow; the kl branch up to g⁻ ≈ 1
        let big = DEps::new(1e300).unwrap();
        assert!(big.plus(0.5, 0.9).is_finite());
        assert!((big.plus(0.0, 0.5) - 2f64.ln()).abs() < 1e-15);
        assert!(DEps::new(0.0).is_err() && DEps::new(f64::INFINITY).is_err());
        assert!(d_eps(0.5, f64::NAN, 1.0).is_err() && d_eps(-0.1, 0.5, 1.0).is_err());
    }

    #[test]
    fn kl_threshold_is_finite_for_subnormal_means() {
        // logit(0.5) − logit(1e-320) = −log(1e-320) + log1p(−1e-320) ≈ 736.8
        let e = kl_threshold_unchecked(1e-320, 0.5);
        assert!((e + (1e-320f64).ln()).abs() < 1e-12, "{e}");
        assert_eq!(kl_threshold_unchecked(0.0, 0.5), f64::INFINITY);
        assert!((kl_threshold_unchecked(0.5, 0.75) - 3f64.ln()).abs() < 1e-15);
    }

    #[test]
    fn derivatives_are_continuous_at_the_breakpoint() {
        for &(mu, eps) in &[(0.3, 0.5), (0.9, 2.0), (0.01, 0.1)] {
            let d = DEps::new(eps).unwrap();
            let g = d.breakpoint(mu);
            let (l, _) = d.plus_derivatives(mu, g * (1.0 - 1e-12));
            let (r, _) = d.plus_derivatives(mu, g * (1.0 + 1e-12));
            assert!((l - r).abs() <= 1e-9 * r, "{mu} {eps}: {l} {r}");
        }
    }
}
