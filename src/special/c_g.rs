//! Kaufmann–Koolen `g_G` and `C_G` (READINGS.md §C.2; paper Eq. (20), L. 35).
//!
//! # Method
//! `C_G(x) = min_{λ∈(1/2,1)} F(λ)`, `F(λ) = (g_G(λ) + x)/λ`. `F'(λ) = (φ(λ) − x)/λ²` with
//! `φ(λ) = λ g_G'(λ) − g_G(λ)` and `φ' = λ g_G''`, and `g_G` is convex on `(1/2, 1)` (its
//! `log ζ(2λ)` part is log-convex, the `−½ log(1 − λ)` part dominates `−2λ log 4λ`), so the
//! minimiser is the unique root of `φ(λ) = x`. It is found by safeguarded Newton in the variable
//! `t = 1/(1 − λ)` (in which `φ` is nearly linear, `φ ≈ t/2`), with a bisection bracket, using
//! `ζ, ζ', ζ''` from the Euler–Maclaurin sum. Because `F'(λ*) = 0`, an error `r` in `λ*`
//! changes `C_G` only by `O(r²)`; the iteration stops at `|Δt| <= 1e-10 t`, and `C_G = F(λ)`
//! is evaluated at the last iterate.

use super::zeta::zeta_derivs;
use crate::error::{Error, Result};

/// `g_G(λ)`, `g_G'(λ)` and `μ²·g_G''(λ)` at `λ = 1 − μ` (`μ` passed for accuracy; the last is
/// scaled by `μ²` so that it stays finite for tiny `μ`).
#[inline]
fn g_g_derivs(mu: f64) -> (f64, f64, f64) {
    let lam = 1.0 - mu;
    let s = 2.0 * lam;
    let (z, z1, z2) = zeta_derivs::<2>(s, 1.0 - 2.0 * mu);
    let lz1 = z1 / z;
    let lz2 = z2 / z - lz1 * lz1;
    let l4 = (4.0 * lam).ln();
    let g = 2.0 * lam - 2.0 * lam * l4 + z.ln() - 0.5 * mu.ln();
    let g1 = -2.0 * l4 + 2.0 * lz1 + 0.5 / mu;
    let g2_mu2 = (4.0 * lz2 - 2.0 / lam) * mu * mu + 0.5;
    (g, g1, g2_mu2)
}

/// `g_G(λ) = 2λ − 2λ log(4λ) + log ζ(2λ) − ½ log(1 − λ)` for `λ ∈ (1/2, 1)`.
///
/// # Definition
/// ```text
/// g_G(λ) = 2λ − 2λ·log(4λ) + log ζ(2λ) − (1/2)·log(1 − λ)
/// ```
/// # Reference
/// READINGS.md §C.2; paper Eq. (20), L. 35 (Kaufmann & Koolen 2021, Thm. 9).
/// # Domain
/// `1/2 < λ < 1`. Minimum `1.27067…` near `λ = 0.8816`.
/// # Accuracy
/// A few ulp of the largest term (inherits [`crate::special::zeta()`]).
/// # Errors
/// [`Error::InvalidParameter`] if `λ` is NaN or outside `(1/2, 1)`.
/// # Example
/// ```
/// let g = dpbai::special::g_g(0.8816).unwrap();
/// assert!((g - 1.27067).abs() < 1e-4);
/// ```
pub fn g_g(lambda: f64) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Special)?;
    if !(lambda > 0.5 && lambda < 1.0) {
        return Err(Error::param("lambda", lambda, "in (1/2, 1)"));
    }
    Ok(g_g_derivs(1.0 - lambda).0)
}

/// `C_G(x)` together with the minimiser `λ*`, without checks.
///
/// # Definition
/// `(C_G(x), λ*)` with `λ* = argmin_{λ∈(1/2,1]} (g_G(λ) + x)/λ`.
/// # Reference
/// READINGS.md §C.2.
/// # Domain
/// The caller guarantees `x > 0` finite. For `x > 1e30`, returns `(x, 1)` (the correction
/// `C_G(x) − x = O(log x)` is below half an ulp of `x`).
/// # Accuracy
/// `C_G` as [`c_g`]; `λ*` to ~1e-10 relative in `1 − λ*`.
/// # Errors
/// None (unchecked).
/// # Example
/// ```
/// let (c, lam) = dpbai::special::c_g_with_argmin(10.0);
/// assert!((c - 11.954646).abs() < 1e-6 && (lam - 0.9686).abs() < 1e-4); // READINGS.md §C.2
/// ```
pub fn c_g_with_argmin(x: f64) -> (f64, f64) {
    crate::fault::touch(crate::fault::Area::Special);
    if x > 1e30 {
        // C_G(x) − x = O(log x) < 100 here, far below ulp(x)/2 > 7e13: fl(C_G(x)) = x, and
        // λ* = 1 − O(1/x) rounds to 1.
        return (x, 1.0);
    }
    // Bracket in t = 1/μ: φ(t = 8) < 0 < x (λ = 0.875 lies left of argmin g_G ≈ 0.8816).
    let mut t_lo = 8.0f64;
    let mut t_hi = f64::INFINITY;
    let mut t = 2.0 * x + 8.5 + 4.5 * x / (1.0 + x);
    let mut best = (f64::INFINITY, 0.0);
    for _ in 0..100 {
        let mu = 1.0 / t;
        let lam = 1.0 - mu;
        let (g, g1, g2_mu2) = g_g_derivs(mu);
        let f = (g + x) / lam;
        if f < best.0 {
            best = (f, lam);
        }
        let phi = lam * g1 - g - x;
        if phi > 0.0 {
            t_hi = t;
        } else {
            t_lo = t;
        }
        // dφ/dt = λ g'' μ²
        let dphi = lam * g2_mu2;
        let mut next = t - phi / dphi;
        if !(next > t_lo && next < t_hi && next.is_finite()) {
            next = if t_hi.is_finite() {
                0.5 * (t_lo + t_hi)
            } else {
                2.0 * t_lo
            };
        }
        if (next - t).abs() <= 1e-10 * t || t_hi - t_lo <= 1e-14 * t_lo {
            break;
        }
        t = next;
    }
    best
}

/// The Kaufmann–Koolen threshold function `C_G(x)`.
///
/// # Definition
/// ```text
/// C_G(x) = min_{λ∈(1/2, 1]} (g_G(λ) + x)/λ
/// ```
/// # Reference
/// READINGS.md §C.2; paper Eq. (20), L. 35 (Kaufmann & Koolen 2021, Thm. 9). Used at
/// `x = log((K − 1)/δ)/2`.
/// # Domain
/// `x > 0`, finite. `C_G` is increasing and `C_G(x) >= x + 1.2706` (CLAIMS.md F.66);
/// `C_G(0+) = min_λ g_G(λ)/λ = 1.41690…`; `C_G(x) = x` in floating point for `x > 1e30`.
/// # Accuracy
/// Relative error <= 1e-12 on `[1e-3, 1e6]` (golden file `tests/data/special_golden.toml`,
/// mpmath golden-section search at 60 digits).
/// # Errors
/// [`Error::InvalidParameter`] if `x` is NaN, infinite or `<= 0`.
/// # Example
/// ```
/// let c = dpbai::special::c_g(1.0).unwrap();
/// assert!((c - 2.507095).abs() < 1e-6); // READINGS.md §C.2
/// ```
pub fn c_g(x: f64) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Special)?;
    c_g_engine(x)
}

/// [`c_g`] without the fault check of [`crate::fault`]: the engine's own calls (its stopping
/// thresholds inside runs), which a fault would turn into runs that never stop.
pub(crate) fn c_g_engine(x: f64) -> Result<f64> {
    crate::fault::touch(crate::fault::Area::Special);
    if !(x > 0.0 && x.is_finite()) {
        return Err(Error::param("x", x, "a finite number > 0 (C_G)"));
    }
    Ok(c_g_unchecked(x))
}

/// `C_G(x)` without checks, for hot loops (thresholds).
///
/// # Definition
/// As [`c_g`].
/// # Reference
/// READINGS.md §C.2, paper Eq. (20), L. 35.
/// # Domain
/// The caller guarantees `x > 0` finite.
/// # Accuracy
/// As [`c_g`].
/// # Errors
/// None (unchecked).
/// # Example
/// ```
/// assert!((dpbai::special::c_g_unchecked(1.0) - 2.507095).abs() < 1e-6);
/// ```
#[inline]
pub fn c_g_unchecked(x: f64) -> f64 {
    c_g_with_argmin(x).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_md_reference_values() {
        for (x, v, lam) in [
            (0.1, 1.526728, 0.9114),
            (1.0, 2.507095, 0.9241),
            (10.0, 11.954646, 0.9686),
            (100.0, 102.907274, 0.9953),
        ] {
            let (c, l) = c_g_with_argmin(x);
            assert!((c - v).abs() < 1e-6, "C_G({x}) = {c} vs {v}");
            assert!((l - lam).abs() < 1e-4, "argmin {l} vs {lam}");
        }
        assert!(c_g(0.0).is_err());
        assert!(c_g(f64::INFINITY).is_err());
    }
}
