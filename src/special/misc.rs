//! Helper functions of the thresholds and bounds: `k`, `h`, `c_{L36}`, `g1`, `g2`, `h_1`
//! (READINGS.md §C.4–§C.7).

use super::lambert_w::wbar_m1_unchecked;
use crate::error::{Error, Result};

/// `log(π²/2)`.
const LN_HALF_PI2: f64 = 1.596_312_591_138_855_5;

/// Phase function `k(x) = log2(x) + 2`.
///
/// # Definition
/// ```text
/// k(x) = log2(x) + 2,   x >= 1
/// ```
/// # Reference
/// READINGS.md §C.5; paper Eq. (11), L. 21, L. 23, App. B. At `x = 2^{k−2}` (phase `k >= 2`) it equals `k`.
/// # Domain
/// `x >= 1`, finite.
/// # Accuracy
/// Correctly rounded up to one ulp (one `log2`, one addition).
/// # Errors
/// [`Error::InvalidParameter`] if `x` is NaN, infinite or `< 1`.
/// # Example
/// ```
/// assert_eq!(dpbai::special::k(8.0).unwrap(), 5.0);
/// ```
pub fn k(x: f64) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Special)?;
    if !(x >= 1.0 && x.is_finite()) {
        return Err(Error::param("x", x, "a finite number >= 1 (k)"));
    }
    Ok(x.log2() + 2.0)
}

fn check_delta_k(delta: f64, n_arms: usize) -> Result<()> {
    if !(delta > 0.0 && delta < 1.0) {
        return Err(Error::param("delta", delta, "in (0, 1)"));
    }
    if n_arms < 2 {
        return Err(Error::param("K", n_arms, "an integer >= 2"));
    }
    Ok(())
}

fn check_x_ge1(x: f64) -> Result<()> {
    if !(x >= 1.0 && x.is_finite()) {
        return Err(Error::param("x", x, "a finite number >= 1"));
    }
    Ok(())
}

/// Concentration helper `h(x, δ)` of Lemma 23 (for `K` arms).
///
/// # Definition
/// ```text
/// h(x, δ) = (1/2)·W̄_{-1}( 2·log(π² K k(x)² / (2δ)) + 4·log(4 + log x) + 1/2 )
///         = c_{L36}(x, δ/(3ζ(2) k(x)²))
/// ```
/// # Reference
/// READINGS.md §C.6; paper L. 23 (App. F.3).
/// # Domain
/// `x >= 1`, `δ ∈ (0, 1)`, `K >= 2`. The logarithm is expanded as a sum of logs, so tiny `δ`
/// does not overflow.
/// # Accuracy
/// Relative error <= 1e-14 (golden file `tests/data/special_golden.toml`).
/// # Errors
/// [`Error::InvalidParameter`] if `x < 1`, `δ ∉ (0, 1)`, `K < 2`, or an argument is NaN/inf.
/// # Example
/// ```
/// let v = dpbai::special::h(8.0, 0.01, 5).unwrap();
/// assert!((v - 16.642166).abs() < 1e-6); // READINGS.md §C.6
/// ```
pub fn h(x: f64, delta: f64, n_arms: usize) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Special)?;
    h_engine(x, delta, n_arms)
}

/// [`h`] without the fault check of [`crate::fault`]: the engine's own calls (its stopping
/// thresholds inside runs), which a fault would turn into runs that never stop.
pub(crate) fn h_engine(x: f64, delta: f64, n_arms: usize) -> Result<f64> {
    crate::fault::touch(crate::fault::Area::Special);
    check_x_ge1(x)?;
    check_delta_k(delta, n_arms)?;
    let kx = x.log2() + 2.0;
    let arg = 2.0 * (LN_HALF_PI2 + (n_arms as f64).ln() + 2.0 * kx.ln() - delta.ln())
        + 4.0 * (4.0 + x.ln()).ln()
        + 0.5;
    Ok(0.5 * wbar_m1_unchecked(arg))
}

/// Concentration helper `c(x, δ)` of Lemma 36 (Jourdan et al. 2023), named `c_{L36}` here.
///
/// # Definition
/// ```text
/// c_{L36}(x, δ) = (1/2)·W̄_{-1}( 2·log(K/δ) + 4·log(4 + log x) + 1/2 )
/// ```
/// # Reference
/// READINGS.md §C.6; paper L. 36.
/// # Domain
/// `x >= 1`, `δ ∈ (0, 1)`, `K >= 2`.
/// # Accuracy
/// Relative error <= 1e-14 (golden file `tests/data/special_golden.toml`).
/// # Errors
/// [`Error::InvalidParameter`] if `x < 1`, `δ ∉ (0, 1)`, `K < 2`, or an argument is NaN/inf.
/// # Example
/// ```
/// use dpbai::special::{c_l36, h, zeta};
/// // h(x, δ) = c_{L36}(x, δ / (3 ζ(2) k(x)²)), k(8) = 5
/// let d = 0.01 / (3.0 * zeta(2.0).unwrap() * 25.0);
/// assert!((c_l36(8.0, d, 5).unwrap() - h(8.0, 0.01, 5).unwrap()).abs() < 1e-12);
/// ```
pub fn c_l36(x: f64, delta: f64, n_arms: usize) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Special)?;
    check_x_ge1(x)?;
    check_delta_k(delta, n_arms)?;
    let arg = 2.0 * ((n_arms as f64).ln() - delta.ln()) + 4.0 * (4.0 + x.ln()).ln() + 0.5;
    Ok(0.5 * wbar_m1_unchecked(arg))
}

/// `g1(y) = sup{x : x² < x + y·√(2x) + y²/4}` (Thm. 24, L. 52).
///
/// # Definition
/// ```text
/// g1(y) = sup{ x : x² < x + y·sqrt(2x) + y²/4 },   y >= 0
/// ```
/// computed as `t²`, `t` the largest root of `t⁴ − t² − √2·y·t − y²/4` (Newton from the upper
/// bound `1 + √y`, monotone since the quartic is convex for `t >= 1`).
/// # Reference
/// READINGS.md §C.7; paper Thm. 24, L. 52.
/// # Domain
/// `y >= 0`, finite. `g1(0) = 1`, increasing, `g1(12) = 9.97948… <= 10`.
/// # Accuracy
/// Relative error <= 1e-12 on `[0, 1e4]` (measured a few ulp; golden file
/// `tests/data/special_golden.toml`).
/// # Errors
/// [`Error::InvalidParameter`] if `y` is NaN, infinite or negative.
/// # Example
/// ```
/// let v = dpbai::special::g1(12.0).unwrap();
/// assert!((v - 9.979480).abs() < 1e-6 && v <= 10.0);
/// ```
pub fn g1(y: f64) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Special)?;
    if !(y >= 0.0 && y.is_finite()) {
        return Err(Error::param("y", y, "a finite number >= 0 (g1)"));
    }
    Ok(g1_unchecked(y))
}

/// `g1(y)` without checks, for hot loops.
///
/// # Definition
/// As [`g1`].
/// # Reference
/// READINGS.md §C.7, paper Thm. 24, L. 52.
/// # Domain
/// The caller guarantees `y >= 0` finite.
/// # Accuracy
/// As [`g1`].
/// # Errors
/// None (unchecked).
/// # Example
/// ```
/// assert_eq!(dpbai::special::g1_unchecked(0.0), 1.0);
/// ```
#[inline]
pub fn g1_unchecked(y: f64) -> f64 {
    crate::fault::touch(crate::fault::Area::Special);
    if y == 0.0 {
        return 1.0;
    }
    if y > 1e32 {
        // g1(y) = y/2 + √y + O(1) (substitute x = y/2 + ε); the O(1) rest is below 1e-32
        // relative here, and the quartic below would overflow for y > 1e154.
        return 0.5 * y + y.sqrt();
    }
    let b = std::f64::consts::SQRT_2 * y;
    let c = 0.25 * y * y;
    let mut t = 1.0 + y.sqrt();
    for _ in 0..200 {
        let t2 = t * t;
        let p = t2 * t2 - t2 - b * t - c;
        let dp = 4.0 * t2 * t - 2.0 * t - b;
        let next = t - p / dp;
        if next >= t || next.is_nan() {
            break;
        }
        t = next;
    }
    t * t
}

/// `g2(y) = 1 + 2/(√(1 + 1/y) − 1) = y·(1 + √(1 + 1/y))²` (App. G.5).
///
/// # Definition
/// ```text
/// g2(y) = y·(1 + sqrt(1 + 1/y))² = (sqrt(y) + sqrt(1 + y))²,   y > 0
/// ```
/// # Reference
/// READINGS.md §C.7; paper Thm. 24, App. G.5.
/// # Domain
/// `y > 0`, finite. Increasing; `g2(0+) = 1`; `g2(y) = 4y + 2 + o(1)` as `y → ∞`.
/// # Accuracy
/// Relative error <= 1e-14 (the last form has no cancellation).
/// # Errors
/// [`Error::InvalidParameter`] if `y` is NaN, infinite or `<= 0`; [`Error::Overflow`] when
/// `g2(y) ≈ 4y` exceeds the largest `f64` (`y > 4.5e307`).
/// # Example
/// ```
/// let v = dpbai::special::g2(1.0).unwrap();
/// assert!((v - (3.0 + 2.0 * 2f64.sqrt())).abs() < 1e-14);
/// ```
pub fn g2(y: f64) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Special)?;
    if !(y > 0.0 && y.is_finite()) {
        return Err(Error::param("y", y, "a finite number > 0 (g2)"));
    }
    let r = y.sqrt() + (1.0 + y).sqrt();
    let v = r * r;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Error::Overflow {
            what: format!("g2(y = {})", crate::error::compact_number(y)),
            log10: 2.0 * r.log10(),
        })
    }
}

/// Inversion helper `h_1(z, y) = z·W̄_{-1}(y/z + log z)` of Lemma 41.
///
/// # Definition
/// ```text
/// h_1(z, y) = z·W̄_{-1}(y/z + log z)
/// ```
/// For `A, B > 0` with `B/A + log A >= 1`, `h_1(A, B)` is the largest root of `x = A·log x + B`
/// (the paper's `C(A, B) < h_1(A, B)` is an equality, READINGS.md R.28).
/// # Reference
/// READINGS.md §C.4; paper L. 41.
/// # Domain
/// `z > 0` finite, `y` finite, and `y/z + log z >= 1` (also where `y/z` overflows: the value
/// is then `y`, to the last bit).
/// # Accuracy
/// Relative error <= 1e-14 (golden file `tests/data/special_golden.toml`).
/// # Errors
/// [`Error::InvalidParameter`] if `z <= 0`, an argument is NaN/inf, or `y/z + log z < 1`;
/// [`Error::Overflow`] when the value exceeds the largest `f64` (only for `z` within a factor
/// `W̄_{-1}(y/z + log z)` of it, e.g. `h1(1.7e308, y)`).
/// # Example
/// ```
/// // x = 2 log x + 3: the largest root satisfies the equation.
/// let x = dpbai::special::h1(2.0, 3.0).unwrap();
/// assert!((x - (2.0 * x.ln() + 3.0)).abs() < 1e-12);
/// ```
pub fn h1(z: f64, y: f64) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Special)?;
    if !(z > 0.0 && z.is_finite()) {
        return Err(Error::param("z", z, "a finite number > 0 (h1)"));
    }
    if !y.is_finite() {
        return Err(Error::param("y", y, "a finite number (h1)"));
    }
    let arg = y / z + z.ln();
    if arg == f64::INFINITY && y > 0.0 {
        // y/z overflows (y > 1.8e308·z): the root of x = z·log x + y is y + z·log y·(1 + o(1)),
        // and |z·log y| < y·2^-1000 there, so the value rounds to y.
        return Ok(y);
    }
    if !(arg >= 1.0 && arg.is_finite()) {
        return Err(Error::param(
            "y/z + log z",
            arg,
            "a finite number >= 1 (h1)",
        ));
    }
    let w = wbar_m1_unchecked(arg);
    let v = z * w;
    if v.is_finite() {
        Ok(v)
    } else {
        // z·W̄ beyond the largest f64 (e.g. z = 1.7e308, where W̄ > 1): its exact value is
        // finite; report its size.
        Err(Error::Overflow {
            what: format!(
                "h1(z = {}, y = {})",
                crate::error::compact_number(z),
                crate::error::compact_number(y)
            ),
            log10: z.log10() + w.log10(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Beyond the largest f64 the value is an overflow error with its size, never `inf`:
    /// `h1(1.7e308, 1.7e308) = 1.7e308·W̄(1 + log 1.7e308) ≈ 1.7e308·716.4`.
    #[test]
    fn h1_reports_an_overflow() {
        match h1(1.7e308, 1.7e308) {
            Err(Error::Overflow { log10, .. }) => {
                let want = 1.7e308f64.log10() + wbar_m1_unchecked(1.0 + 1.7e308f64.ln()).log10();
                assert!((log10 - want).abs() < 1e-12 && log10 > 310.0, "{log10}");
            }
            other => panic!("{other:?}"),
        }
        assert!(h1(1e300, 1e300).is_ok_and(f64::is_finite));
        // y/z overflows: the root of x = z log x + y is y to the last bit.
        assert_eq!(h1(5e-324, 1.0), Ok(1.0));
        assert_eq!(h1(1e-300, 1e10), Ok(1e10));
    }

    #[test]
    fn reference_values() {
        assert_eq!(k(1.0).unwrap(), 2.0);
        assert_eq!(k(2.0).unwrap(), 3.0);
        assert!((h(1.0, 0.01, 5).unwrap() - 13.881662).abs() < 1e-6);
        assert_eq!(g1(0.0).unwrap(), 1.0);
        for (y, v) in [
            (0.5, 1.598399),
            (1.0, 2.096082),
            (2.0, 2.975702),
            (8.0, 7.349997),
        ] {
            assert!((g1(y).unwrap() - v).abs() < 1e-6);
        }
        for (y, v) in [(1e-4, 1.020201), (0.01, 1.220998), (10.0, 41.976177)] {
            assert!((g2(y).unwrap() - v).abs() < 1e-6);
        }
        assert!(h(1.0, 0.01, 1).is_err());
        assert!(h(0.5, 0.01, 5).is_err());
        assert!(c_l36(1.0, 1.0, 5).is_err());
        assert!(g2(0.0).is_err());
        assert!(h1(1.0, 0.5).is_err());
    }
}
