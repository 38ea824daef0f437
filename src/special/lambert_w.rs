//! Lambert W on its two real branches, and `W̄_{-1}(x) = −W_{-1}(−e^{−x})` (READINGS.md §C.3).
//!
//! # Method
//! Away from the branch point the `lambert_w` crate (Fukushima's minimax rational approximations,
//! ~4e-16) supplies a starting value that one Newton step polishes. Near the branch point
//! `x = −1/e` the function is ill-conditioned (`dW/dx ~ 1/√(1 + e·x)`), and the crate computes
//! `x + 1/e` with a rounded constant. There we write `u = −W ∈ (0, ∞)`; the equation
//! `W e^W = x` becomes `u − log u = y` with `y = −log(−x)`, i.e. with `s = u − 1`,
//!
//! ```text
//! ψ(s) = s − log1p(s) = y − 1 = −log1p(−d),   d = 1 + e·x  (computed with a split e and an fma)
//! ```
//!
//! which is solved by Halley's method from the series `s ≈ p + p²/3 + p³/36 − p⁴/270`,
//! `p = ±√(2(y − 1))`. `ψ` is evaluated directly: an error analysis shows `s − log1p(s)` loses
//! no more than a factor `|log1p(s)/s| <= 1.3` in the result `u = 1 + s` on the ranges used.
//! `W̄_{-1}(x)` uses the same solver with `y − 1 = x − 1`, which is exact in floating point for
//! `x ∈ [1, 2]` (Sterbenz), so `W̄` has no branch-point problem at all.

use crate::error::{Error, Result};

/// The double nearest to `−1/e`, the branch point of Lambert W.
///
/// # Definition
/// `fl(−1/e) = −0.36787944117144233`, which lies 1.24e-17 *below* the true `−1/e`. It is the
/// smallest accepted argument of [`lambert_w0`] and [`lambert_wm1`], and both return `−1` there.
/// # Reference
/// READINGS.md §C.3; the `lambert_w` crate returns NaN at this double (ECOSYSTEM.md).
/// # Example
/// ```
/// use dpbai::special::{lambert_w0, NEG_INV_E};
/// assert_eq!(NEG_INV_E, -(-1f64).exp());
/// assert_eq!(lambert_w0(NEG_INV_E).unwrap(), -1.0);
/// ```
pub const NEG_INV_E: f64 = -0.367_879_441_171_442_33;
/// `e = E_HI + E_LO` to ~1e-32 (for `1 + e·x` without cancellation error).
const E_HI: f64 = std::f64::consts::E;
const E_LO: f64 = 1.445_646_891_729_250_2e-16;

/// `d = 1 + e·x` to a relative error of a few ulp of `d`, for `x` near `−1/e`.
#[inline]
fn one_plus_ex(x: f64) -> f64 {
    E_HI.mul_add(x, 1.0) + E_LO * x
}

/// Solves `s − log1p(s) = y1` (`y1 >= 0`) for `s >= 0` (`upper = true`, the `W_{-1}` / `W̄`
/// side) or `s ∈ (−1, 0]` (`upper = false`, the `W_0` side), by Halley's method.
///
/// Used for `y1` up to ~1.5 (upper) / all `y1` with `s > −0.85` (lower); the starting series
/// is accurate to ~1e-3 there, and three Halley steps (cubic convergence) reach full precision.
#[inline]
fn solve_psi(y1: f64, upper: bool) -> f64 {
    if y1 <= 0.0 {
        return 0.0;
    }
    let p0 = (2.0 * y1).sqrt();
    let p = if upper { p0 } else { -p0 };
    // Inverse series of ψ(s) = p²/2 (Temme): s = p + p²/3 + p³/36 − p⁴/270 + p⁵/4320 + ...
    let mut s = p * (1.0 + p * (1.0 / 3.0 + p * (1.0 / 36.0 + p * (-1.0 / 270.0 + p / 4320.0))));
    if !upper && s <= -0.999 {
        s = -0.999;
    }
    for _ in 0..6 {
        let f = s - s.ln_1p() - y1;
        let one_s = 1.0 + s;
        let f1 = s / one_s; // ψ'
        if f1 == 0.0 {
            break;
        }
        let f2 = 1.0 / (one_s * one_s); // ψ''
        let newton = f / f1;
        let step = newton / (1.0 - 0.5 * newton * f2 / f1);
        let mut next = s - step;
        if !upper && next <= -1.0 {
            next = 0.5 * (s - 1.0);
        }
        if upper && next < 0.0 {
            next = 0.5 * s;
        }
        // Cubic convergence: once a step is below 1e-6 relative, the error after applying it
        // is far below one ulp.
        let done = (next - s).abs() <= 1e-6 * s.abs();
        s = next;
        if done {
            break;
        }
    }
    s
}

/// `W̄`-style solve of `u − log u = y` for `u >= 1`, given `y1 = y − 1 >= 0` exactly.
#[inline]
fn ubar_from_y1(y1: f64) -> f64 {
    if y1 < 1.5 {
        return 1.0 + solve_psi(y1, true);
    }
    let y = 1.0 + y1;
    // Starting value: asymptotic u ≈ y + log y + log y / y, then Newton on f(u) = u − log u − y,
    // f' = 1 − 1/u; quadratic convergence, f'' small (u >= 2.5 here).
    let ly = y.ln();
    let mut u = y + ly + ly / y;
    for _ in 0..8 {
        let f = u - u.ln() - y;
        let step = f / (1.0 - 1.0 / u);
        let next = u - step;
        // Quadratic convergence with |f''/(2f')| = 1/(2u(u − 1)) < 0.14: a step below 1e-9·u
        // leaves an error below 1e-19·u.
        let done = step.abs() <= 1e-9 * u;
        u = next;
        if done {
            break;
        }
    }
    u
}

/// `W_0(x)` without argument checks, for hot loops.
///
/// # Definition
/// As [`lambert_w0`].
/// # Reference
/// READINGS.md §C.3.
/// # Domain
/// The caller guarantees `NEG_INV_E <= x < ∞`; other inputs give unspecified (non-panicking)
/// results.
/// # Accuracy
/// As [`lambert_w0`].
/// # Errors
/// None (unchecked).
/// # Example
/// ```
/// assert!((dpbai::special::lambert_w0_unchecked(1.0) - 0.5671432904097838).abs() < 1e-16);
/// ```
#[inline]
pub fn lambert_w0_unchecked(x: f64) -> f64 {
    crate::fault::touch(crate::fault::Area::Special);
    if x.abs() < 1e-9 {
        // W0(x) = x − x² + 3x³/2 − ...; remainder 8x⁴/3 is below 1e-27 relative.
        return x * (1.0 - x * (1.0 - 1.5 * x));
    }
    if x < -0.3 {
        let d = one_plus_ex(x);
        if d <= 0.0 {
            return -1.0;
        }
        let y1 = -(-d).ln_1p();
        return -(1.0 + solve_psi(y1, false));
    }
    let w = lambert_w::lambert_w0(x);
    if x > 3.0 {
        // Newton on w + log w − log x (well conditioned for large x).
        let f = w + w.ln() - x.ln();
        w - f / (1.0 + 1.0 / w)
    } else {
        // Newton on w e^w − x.
        let ew = w.exp();
        let f = w * ew - x;
        w - f / (ew * (1.0 + w))
    }
}

/// `W_{-1}(x)` without argument checks, for hot loops.
///
/// # Definition
/// As [`lambert_wm1`].
/// # Reference
/// READINGS.md §C.3, paper L. 23, L. 36, L. 40.
/// # Domain
/// The caller guarantees `NEG_INV_E <= x < 0`.
/// # Accuracy
/// As [`lambert_wm1`].
/// # Errors
/// None (unchecked).
/// # Example
/// ```
/// assert!((dpbai::special::lambert_wm1_unchecked(-0.1) - -3.577152063957297).abs() < 1e-15);
/// ```
#[inline]
pub fn lambert_wm1_unchecked(x: f64) -> f64 {
    crate::fault::touch(crate::fault::Area::Special);
    if x < -0.25 {
        let d = one_plus_ex(x);
        if d <= 0.0 {
            return -1.0;
        }
        let y1 = -(-d).ln_1p();
        return -(1.0 + solve_psi(y1, true));
    }
    let w = lambert_w::lambert_wm1(x);
    if w.is_finite() {
        // One Newton step on w + log(−w) − log(−x) (condition number 1/|1 + w| < 1.6 here).
        let f = w + (-w).ln() - (-x).ln();
        w - f / (1.0 + 1.0 / w)
    } else {
        // Subnormal x: solve u − log u = −log(−x) directly.
        -ubar_from_y1(-(-x).ln() - 1.0)
    }
}

/// `W̄_{-1}(x) = −W_{-1}(−e^{−x})` without argument checks, for hot loops (thresholds).
///
/// # Definition
/// As [`wbar_m1`].
/// # Reference
/// READINGS.md §C.3, paper L. 23, L. 40.
/// # Domain
/// The caller guarantees `1 <= x < ∞`.
/// # Accuracy
/// As [`wbar_m1`].
/// # Errors
/// None (unchecked).
/// # Example
/// ```
/// assert_eq!(dpbai::special::wbar_m1_unchecked(1.0), 1.0);
/// ```
#[inline]
pub fn wbar_m1_unchecked(x: f64) -> f64 {
    crate::fault::touch(crate::fault::Area::Special);
    ubar_from_y1(x - 1.0)
}

/// Principal branch `W_0` of the Lambert W function.
///
/// # Definition
/// ```text
/// W_0(x) = the unique w >= −1 with w·e^w = x
/// ```
/// # Reference
/// READINGS.md §C.3 (the paper uses `W_{-1}`; `W_0` completes the API).
/// # Domain
/// `x >= −1/e`, finite. The double nearest `−1/e`, `−0.36787944117144233`, lies 1.2e-17 below
/// the true branch point; it is accepted and mapped to `W_0 = −1`.
/// # Accuracy
/// Relative error <= 2e-15 + 4 ulp over the whole domain, incl. `x → −1/e` and `x` up to
/// `f64::MAX` (golden file `tests/data/special_golden.toml`, exact double inputs).
/// # Errors
/// [`Error::InvalidParameter`] if `x` is NaN, infinite or `< −1/e`.
/// # Example
/// ```
/// let w = dpbai::special::lambert_w0(1.0).unwrap(); // the omega constant
/// assert!((w - 0.5671432904097838).abs() < 1e-16);
/// ```
pub fn lambert_w0(x: f64) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Special)?;
    if !(x >= NEG_INV_E && x.is_finite()) {
        return Err(Error::param("x", x, "a finite number >= -1/e (W_0)"));
    }
    Ok(lambert_w0_unchecked(x))
}

/// Lower branch `W_{-1}` of the Lambert W function.
///
/// # Definition
/// ```text
/// W_{-1}(x) = the unique w <= −1 with w·e^w = x,   x ∈ [−1/e, 0)
/// ```
/// # Reference
/// READINGS.md §C.3; paper L. 23, L. 36, L. 40.
/// # Domain
/// `−1/e <= x < 0` (the double nearest `−1/e` gives `−1`); `W_{-1}(x) → −∞` as `x → 0−`
/// (`W_{-1}(−5e-324) = −751.06…`).
/// # Accuracy
/// Relative error <= 2e-15 + 4 ulp over the whole domain (golden file
/// `tests/data/special_golden.toml`).
/// # Errors
/// [`Error::InvalidParameter`] if `x` is NaN, `< −1/e` or `>= 0`.
/// # Example
/// ```
/// let w = dpbai::special::lambert_wm1(-0.1).unwrap();
/// assert!((w - -3.577152063957297).abs() < 1e-15);
/// ```
pub fn lambert_wm1(x: f64) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Special)?;
    if !(NEG_INV_E..0.0).contains(&x) {
        return Err(Error::param("x", x, "in [-1/e, 0) (W_{-1})"));
    }
    Ok(lambert_wm1_unchecked(x))
}

/// `W̄_{-1}(x) = −W_{-1}(−e^{−x})`, the inverse of `u ↦ u − log u` on `[1, ∞)`.
///
/// # Definition
/// ```text
/// W̄_{-1}(x) = −W_{-1}(−e^{−x}) = the unique u >= 1 with u − log u = x
/// ```
/// # Reference
/// READINGS.md §C.3; paper L. 23, L. 36, L. 40 (and F.37:
/// `x + log x <= W̄(x) <= x + log x + min{1/2, 1/√x}`).
/// # Domain
/// `x >= 1`, finite; `W̄(1) = 1`. No underflow for large `x` (`e^{−x}` is never formed).
/// # Accuracy
/// Relative error <= 2e-15 + 4 ulp for `x ∈ [1, 1e300]` (golden file
/// `tests/data/special_golden.toml`).
/// # Errors
/// [`Error::InvalidParameter`] if `x` is NaN, infinite or `< 1`.
/// # Example
/// ```
/// let u = dpbai::special::wbar_m1(2.0).unwrap();
/// assert!((u - 3.1461932206205825).abs() < 1e-15);
/// ```
pub fn wbar_m1(x: f64) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Special)?;
    if !(x >= 1.0 && x.is_finite()) {
        return Err(Error::param("x", x, "a finite number >= 1 (W-bar_{-1})"));
    }
    Ok(wbar_m1_unchecked(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branch_point_and_simple_values() {
        assert_eq!(lambert_w0(NEG_INV_E).unwrap(), -1.0);
        assert_eq!(lambert_wm1(NEG_INV_E).unwrap(), -1.0);
        assert_eq!(wbar_m1(1.0).unwrap(), 1.0);
        assert_eq!(lambert_w0(0.0).unwrap(), 0.0);
        assert!((lambert_w0(std::f64::consts::E).unwrap() - 1.0).abs() < 1e-16);
        assert!(lambert_w0(NEG_INV_E.next_down()).is_err());
        assert!(lambert_wm1(0.0).is_err());
        assert!(wbar_m1(0.999).is_err());
        assert!(wbar_m1(f64::NAN).is_err());
    }

    #[test]
    fn wbar_matches_math_md_c3() {
        for (x, v) in [
            (1.5, 2.357676674),
            (10.0, 12.527963202),
            (100.0, 104.650627445),
        ] {
            assert!((wbar_m1(x).unwrap() - v).abs() < 1e-8);
        }
    }
}
