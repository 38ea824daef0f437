//! Error function `erf` and complementary `erfc` to near machine precision.
//!
//! statrs' `erf` is only about 5e-11 accurate (e.g. at x = 0.5), too coarse for golden tests.

use std::f64::consts::PI;

/// `e^{−x²}` without the rounding error of forming `x²` (which would cost up to `x²·2^{-53}`
/// relative, 7e-14 at x = 26): `x² = hi + lo` exactly (fma), `e^{−x²} = e^{−hi}·(1 − lo)`.
#[inline]
fn exp_neg_sq(x: f64) -> f64 {
    let hi = x * x;
    let lo = x.mul_add(x, -hi);
    (-hi).exp() * (1.0 - lo)
}

/// `erfc(x)` for `x >= 1.25` from the Legendre continued fraction of `Γ(1/2, x²)`
/// (modified Lentz; converges fast for `x² > 3/2`): `erfc(x) = Γ(1/2, x²)/√π`.
fn erfc_cf(x: f64) -> f64 {
    // Γ(1/2, z) = e^{−z} √z · h
    exp_neg_sq(x) * x * erfc_cf_h(x) / PI.sqrt()
}

/// The continued-fraction factor `h` of [`erfc_cf`], `erfc(x) = e^{−x²}·x·h/√π` (`x >= 1.25`).
fn erfc_cf_h(x: f64) -> f64 {
    let tiny = 1e-300;
    let a = 0.5;
    let z = x * x;
    let mut b = z + 1.0 - a;
    let mut c = 1.0 / tiny;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..500 {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < tiny {
            d = tiny;
        }
        c = b + an / c;
        if c.abs() < tiny {
            c = tiny;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h
}

/// `erf(x)` for `0 <= x < 2.5` by the positive series
/// `erf(x) = (2/√π) e^{−x²} Σ_n 2^n x^{2n+1} / (1·3·…·(2n+1))` (no cancellation).
fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    while term > sum * 1e-17 {
        n += 1.0;
        term *= 2.0 * x2 / (2.0 * n + 1.0);
        sum += term;
    }
    2.0 / PI.sqrt() * (-x2).exp() * sum
}

/// The error function `erf(x) = (2/√π) ∫_0^x e^{−t²} dt`.
///
/// # Definition
/// ```text
/// erf(x) = (2/√π) ∫_0^x e^{−t²} dt
/// ```
/// # Reference
/// Standard; used by `divergence::tv_gaussian` (READINGS.md §A.2).
/// # Domain
/// Every real `x`; odd; `erf(±∞) = ±1`; NaN in, NaN out.
/// # Accuracy
/// Relative error <= 1e-14 against mpmath (`tests/data/special_golden.toml`): positive
/// series below 2.5, `1 − erfc` above.
/// # Errors
/// None (total function).
/// # Example
/// ```
/// assert!((dpbai::special::erf(0.5) - 0.5204998778130465).abs() < 1e-15);
/// ```
pub fn erf(x: f64) -> f64 {
    crate::fault::touch(crate::fault::Area::Special);
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    let v = if a < 2.5 {
        erf_series(a)
    } else if a < 6.0 {
        1.0 - erfc_cf(a)
    } else {
        1.0
    };
    v.copysign(x)
}

/// From here on `erfc(x)` rounds to `+0`: `erfc(28) < e^{−784}/(28√π) ≈ 2e-342`, below half
/// the smallest subnormal `2^{−1074} ≈ 4.9e-324`.
const ERFC_ZERO_FROM: f64 = 28.0;

/// The complementary error function `erfc(x) = 1 − erf(x)`, accurate in the upper tail.
///
/// # Definition
/// ```text
/// erfc(x) = (2/√π) ∫_x^∞ e^{−t²} dt
/// ```
/// # Reference
/// Standard (Abramowitz & Stegun 7.1.2; the continued fraction is A&S 6.5.31 for `Γ(1/2, x²)`).
/// # Domain
/// Every real `x`; `erfc(−∞) = 2`, `erfc(+∞) = 0`; NaN in, NaN out. For `x >= 28` the value,
/// below `e^{−784} < 2^{−1075}`, rounds to `+0` and is returned as `+0` (never `−0` or NaN,
/// which the continued fraction would give once `x²` overflows, beyond `x ≈ 1.34e154`).
/// # Accuracy
/// Relative error <= 1e-14 for `x <= 26` (underflows to 0 beyond about 26.5): `1 − erf(x)`
/// below 1.25, the continued fraction of `Γ(1/2, x²)` above (golden file
/// `tests/data/special_golden.toml`).
/// # Errors
/// None (total function).
/// # Example
/// ```
/// assert!((dpbai::special::erfc(3.0) / 2.209049699858544e-05 - 1.0).abs() < 1e-14);
/// ```
pub fn erfc(x: f64) -> f64 {
    crate::fault::touch(crate::fault::Area::Special);
    if x.is_nan() {
        return f64::NAN;
    }
    if x >= ERFC_ZERO_FROM {
        // erfc(x) < e^{−x²}/(x√π) < 2^{−1075} there: the correctly rounded value is +0 (the
        // continued fraction would give −0, then ∞/∞ = NaN once x² overflows).
        return 0.0;
    }
    if x < 1.25 { 1.0 - erf(x) } else { erfc_cf(x) }
}

/// Natural logarithm of the complementary error function, `log erfc(x)`, without underflow.
///
/// # Definition
/// `log erfc(x)`; for `x >= 1.25` it is `−x² + log(x·h(x)/√π)` with `h` the continued fraction
/// of [`erfc`] and `x² = hi + lo` split exactly (fma), so it stays finite where `erfc(x)`
/// underflows (`x > 26.5`).
/// # Reference
/// A&S 6.5.31 (as [`erfc`]).
/// # Domain
/// Every real `x`: `−∞` when `x²` overflows (`x > 1.3e154`); NaN in, NaN out.
/// # Accuracy
/// Absolute error <= 1e-15·(1 + |log erfc(x)|) (the relative accuracy of [`erfc`], carried into
/// the logarithm).
/// # Errors
/// None (total function).
/// # Example
/// ```
/// let x = 3.0;
/// assert!((dpbai::special::ln_erfc(x) - dpbai::special::erfc(x).ln()).abs() < 1e-14);
/// assert!(dpbai::special::ln_erfc(100.0).is_finite()); // erfc(100) underflows
/// ```
pub fn ln_erfc(x: f64) -> f64 {
    crate::fault::touch(crate::fault::Area::Special);
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 1.25 {
        return erfc(x).ln();
    }
    let hi = x * x;
    if !hi.is_finite() {
        return f64::NEG_INFINITY;
    }
    let lo = x.mul_add(x, -hi);
    -hi - lo + (x * erfc_cf_h(x) / PI.sqrt()).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Far in the upper tail the value is `+0` (its sign bit clear), never NaN: the continued
    /// fraction gave `−0` at `1e100` and NaN from `1.35e154` (`x²` overflows).
    #[test]
    fn erfc_far_in_the_tail_is_plus_zero() {
        for x in [27.9, 28.0, 1e3, 1e100, 1.35e154, 1e300, f64::MAX] {
            let v = erfc(x);
            assert!(v == 0.0 && v.is_sign_positive(), "erfc({x}) = {v}");
        }
        // Just below the cut the continued fraction is in its subnormal range, above zero.
        assert!(erfc(27.0) > 0.0 && erfc(27.0) < 1e-300);
    }

    #[test]
    fn erfc_at_the_infinities_is_the_closed_form() {
        assert_eq!(erfc(f64::INFINITY), 0.0);
        assert_eq!(erfc(f64::NEG_INFINITY), 2.0);
        assert!(erfc(f64::NAN).is_nan());
    }
    // mpmath, 30 digits (quoted to 20 digits; more than f64 holds)
    #[allow(clippy::excessive_precision)]
    const REF: [(f64, f64); 6] = [
        (1e-8, 1.1283791670955125599e-8),
        (0.1, 0.1124629160182848984),
        (0.5, 0.52049987781304653768),
        (1.0, 0.84270079294971486934),
        (2.0, 0.99532226501895273416),
        (3.0, 0.99997790950300141456),
    ];

    #[test]
    fn matches_mpmath() {
        for (x, v) in REF {
            assert!(
                ((erf(x) - v) / v).abs() < 1e-15,
                "erf({x}) = {} vs {v}",
                erf(x)
            );
            assert_eq!(erf(-x), -erf(x));
        }
        assert_eq!(erf(f64::INFINITY), 1.0);
        assert!(erf(f64::NAN).is_nan());
    }
}
