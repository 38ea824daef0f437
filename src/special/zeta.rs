//! Riemann zeta function for real `s > 1` by Euler–Maclaurin summation (READINGS.md §C.1), with its
//! first two derivatives (used by [`crate::special::c_g()`]).
//!
//! # Method
//! ```text
//! ζ(s) = Σ_{n=1}^{N−1} n^{−s} + N^{1−s}/(s−1) + N^{−s}/2
//!        + Σ_{k=1}^{M} B_{2k}/(2k)! · s(s+1)…(s+2k−2) · N^{−s−2k+1}
//! ```
//! with `N = 10`, `M = 7`: the first omitted term is below `7·10^{−17−(s−2)}` relative for
//! `s >= 1`. The powers `n^{−s}` are built from `2^{−s}, 3^{−s}, 5^{−s}, 7^{−s}` (four `exp`),
//! and `s − 1` is passed explicitly so that the pole term `N^{1−s}/(s−1)` keeps full relative
//! accuracy as `s → 1+`. Derivatives in `s` are taken term by term.

use crate::error::{Error, Result};

const LN2: f64 = std::f64::consts::LN_2;
const LN3: f64 = 1.098_612_288_668_109_7;
const LN5: f64 = 1.609_437_912_434_100_3;
const LN7: f64 = 1.945_910_149_055_313_3;
const LN10: f64 = std::f64::consts::LN_10;

/// `B_{2k}/(2k)!` for `k = 1..=7`.
const BERN: [f64; 7] = [
    1.0 / 12.0,
    -1.0 / 720.0,
    1.0 / 30_240.0,
    -1.0 / 1_209_600.0,
    1.0 / 47_900_160.0,
    -691.0 / 1_307_674_368_000.0,
    1.0 / 74_724_249_600.0,
];

/// `(ζ(s), ζ'(s), ζ''(s))` for `s > 1`, given `s` and `sm1 = s − 1` (both exact).
/// With `ORDER = 0` only `ζ` is computed (the other two are 0).
#[inline]
pub(crate) fn zeta_derivs<const ORDER: u8>(s: f64, sm1: f64) -> (f64, f64, f64) {
    let a2 = (-s * LN2).exp();
    let a3 = (-s * LN3).exp();
    let a5 = (-s * LN5).exp();
    let a7 = (-s * LN7).exp();
    let a4 = a2 * a2;
    let a6 = a2 * a3;
    let a8 = a4 * a2;
    let a9 = a3 * a3;
    let a10 = a2 * a5; // N^{-s}
    // Direct sum, smallest terms first.
    let mut z = a9 + a8 + a7 + a6 + a5 + a4 + a3 + a2;
    let l = LN10;
    let tail = (-sm1 * l).exp(); // N^{1-s}
    let inv = 1.0 / sm1;
    let mut corr = 0.0;
    // Correction terms, with the rising factorial P_m = s(s+1)…(s+m−1), m = 2k−1.
    let (mut p, mut p1, mut p2) = (1.0, 0.0, 0.0);
    let mut pow = a10 / 10.0; // N^{-s-2k+1} for k = 1 is N^{-s-1}
    let (mut c1, mut c2) = (0.0, 0.0);
    let mut m = 0u32;
    for (k, b) in BERN.iter().enumerate() {
        let want = 2 * k as u32 + 1;
        while m < want {
            let q = s + m as f64;
            p2 = p2 * q + 2.0 * p1;
            p1 = p1 * q + p;
            p *= q;
            m += 1;
        }
        corr += b * p * pow;
        if ORDER > 0 {
            // d/ds [P N^{-s-2k+1}] = (P' − L P) N^{…}; second: (P'' − 2L P' + L² P) N^{…}
            c1 += b * (p1 - l * p) * pow;
            c2 += b * (p2 - 2.0 * l * p1 + l * l * p) * pow;
        }
        pow *= 0.01;
    }
    z += corr + 0.5 * a10 + tail * inv + 1.0;
    if ORDER == 0 {
        return (z, 0.0, 0.0);
    }
    // ζ' = −Σ ln n n^{-s} + tail' + (−L/2) N^{-s} + c1
    let d1 = -(LN3 * 2.0 * a9
        + 3.0 * LN2 * a8
        + LN7 * a7
        + (LN2 + LN3) * a6
        + LN5 * a5
        + 2.0 * LN2 * a4
        + LN3 * a3
        + LN2 * a2);
    let (l4, l6, l8, l9) = (2.0 * LN2, LN2 + LN3, 3.0 * LN2, 2.0 * LN3);
    let d2 = l9 * l9 * a9
        + l8 * l8 * a8
        + LN7 * LN7 * a7
        + l6 * l6 * a6
        + LN5 * LN5 * a5
        + l4 * l4 * a4
        + LN3 * LN3 * a3
        + LN2 * LN2 * a2;
    let t1 = tail * (-l * inv - inv * inv);
    let t2 = tail * (l * l * inv + 2.0 * l * inv * inv + 2.0 * inv * inv * inv);
    let z1 = d1 + t1 - 0.5 * l * a10 + c1;
    let z2 = d2 + t2 + 0.5 * l * l * a10 + c2;
    (z, z1, z2)
}

/// `ζ(s)` without checks, given `s` and `sm1 = s − 1` separately (for accuracy near the pole).
///
/// # Definition
/// As [`zeta`].
/// # Reference
/// READINGS.md §C.1.
/// # Domain
/// The caller guarantees `s > 1` finite and `sm1` equal to `s − 1` (pass the exact difference
/// when `s` itself was formed as `1 + sm1`, e.g. `2λ` with `λ = 1/2 + …`).
/// # Accuracy
/// As [`zeta`].
/// # Errors
/// None (unchecked).
/// # Example
/// ```
/// let h = 1e-20; // s = 1 + 1e-20 is not representable, but ζ(1 + h) ≈ 1/h + γ is
/// assert!((dpbai::special::zeta_unchecked(1.0, h) * h - 1.0).abs() < 1e-15);
/// ```
#[inline]
pub fn zeta_unchecked(s: f64, sm1: f64) -> f64 {
    crate::fault::touch(crate::fault::Area::Special);
    if s > 60.0 {
        // ζ(s) − 1 − 2^{-s} < 3^{-s}·1.5 < 1e-28: two terms suffice.
        return 1.0 + (-s * LN2).exp() + (-s * LN3).exp();
    }
    zeta_derivs::<0>(s, sm1).0
}

/// The Riemann zeta function for real `s > 1`.
///
/// # Definition
/// ```text
/// ζ(s) = Σ_{n>=1} n^{−s},   s > 1
/// ```
/// # Reference
/// READINGS.md §C.1 (used in `g_G` of Eq. (20) at `s = 2λ ∈ (1, 2)`, and `ζ(2) = π²/6` in App. F).
/// # Domain
/// Real `s > 1`, finite or `+∞` (`ζ(+∞) = 1`). Near the pole `ζ(s) ≈ 1/(s − 1) + γ`; `s − 1`
/// is exact in floating point for `s ∈ (1, 2]`, so the pole term is accurate.
/// # Accuracy
/// Relative error <= 1e-13 on `(1, 50]` (measured ~1e-15; golden file
/// `tests/data/special_golden.toml`).
/// # Errors
/// [`Error::InvalidParameter`] if `s` is NaN or `s <= 1`.
/// # Example
/// ```
/// let z = dpbai::special::zeta(2.0).unwrap();
/// assert!((z - std::f64::consts::PI.powi(2) / 6.0).abs() < 1e-15);
/// ```
pub fn zeta(s: f64) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Special)?;
    if s.is_nan() || s <= 1.0 {
        return Err(Error::param("s", s, "a real number > 1 (zeta)"));
    }
    if s == f64::INFINITY {
        return Ok(1.0);
    }
    Ok(zeta_unchecked(s, s - 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        let pi2 = std::f64::consts::PI.powi(2);
        let r2 = zeta(2.0).unwrap() / (pi2 / 6.0) - 1.0;
        assert!(r2.abs() < 1e-15, "zeta(2) rel err {r2:e}");
        assert!((zeta(4.0).unwrap() / (pi2 * pi2 / 90.0) - 1.0).abs() < 1e-15);
        // ζ(1 + h) = 1/h + γ + O(h)
        let s = 1.0 + 1e-12;
        let h = s - 1.0;
        assert!((zeta(s).unwrap() - (1.0 / h + 0.577_215_664_901_532_9)).abs() < 1e-3);
        assert!(zeta(1.0).is_err());
        assert!(zeta(f64::NAN).is_err());
        assert_eq!(zeta(f64::INFINITY).unwrap(), 1.0);
    }

    #[test]
    fn derivatives_match_differences() {
        for s in [1.3, 1.8, 2.0, 3.5] {
            let (_, d1, d2) = zeta_derivs::<2>(s, s - 1.0);
            let h = 1e-5;
            let zp = zeta_derivs::<0>(s + h, s + h - 1.0).0;
            let zm = zeta_derivs::<0>(s - h, s - h - 1.0).0;
            let (_, d1p, _) = zeta_derivs::<2>(s + h, s + h - 1.0);
            let (_, d1m, _) = zeta_derivs::<2>(s - h, s - h - 1.0);
            assert!(
                ((zp - zm) / (2.0 * h) / d1 - 1.0).abs() < 1e-8,
                "zeta' at {s}"
            );
            assert!(
                ((d1p - d1m) / (2.0 * h) / d2 - 1.0).abs() < 1e-8,
                "zeta'' at {s}"
            );
        }
    }
}
