//! Divergences between arms: KL, TV and TV² for Bernoulli and Gaussian (known σ) arms, the
//! local-DP contraction constant `c(ε)` (READINGS.md §A), and the signed global-DP divergences
//! `d⁺_ε`, `d⁻_ε`, `d_ε` of \[BAI25\] (submodule `d_eps`, re-exported here).
//!
//! Each function comes in two forms: a checked one returning [`Result`] (for the API and the
//! CLI), and an `_unchecked` one for hot loops whose arguments are already valid.
//!
//! # Accuracy
//! Relative error <= 1e-14 against mpmath (golden file `tests/data/divergence_golden.toml`,
//! made by `verify/golden_divergence.py`). `kl` stays accurate when `p ≈ q`: it is evaluated
//! as `d²/(q(1−q)) + p·φ(−d/q) + (1−p)·φ(d/(1−q))` with `d = q − p` and
//! `φ(x) = log1p(x) − x` summed as a series for small `|x|`, which has no catastrophic
//! cancellation. The signed divergences `d_ε` have relative error <= 1e-13 against their
//! definition minimised at 50 digits (`tests/data/d_eps_golden.toml`, `verify/golden_d_eps.py`).

use crate::error::{Error, Result, check_above, check_closed, check_finite};

mod d_eps;
pub(crate) use d_eps::kl_threshold_unchecked;
pub use d_eps::{
    DEps, d_eps, d_eps_breakpoint, d_eps_kl_threshold, d_eps_minus, d_eps_minus_unchecked,
    d_eps_plus, d_eps_plus_unchecked, d_eps_unchecked,
};

/// `φ(x) = log(1 + x) − x` for `x > −1`, accurate for small `|x|` (series for `|x| < 0.1`).
#[inline]
fn log1p_minus_x(x: f64) -> f64 {
    if x.abs() < 0.1 {
        // -x²/2 + x³/3 - x⁴/4 + ... ; 17 terms give |rest| < 0.1^19/19 relative to x²/2.
        let mut term = x * x; // x^k for k = 2
        let mut sum = 0.0;
        let mut k = 2.0;
        let mut sign = -1.0;
        while k < 20.0 {
            sum += sign * term / k;
            term *= x;
            k += 1.0;
            sign = -sign;
        }
        sum
    } else {
        x.ln_1p() - x
    }
}

/// Binary relative entropy `kl(p, q) = KL(Ber(p) ‖ Ber(q))`, without argument checks.
///
/// Conventions: `0·log(0/·) = 0`; `+∞` if `p > 0 = q` or `p < 1 = q`.
/// Caller guarantees `p, q ∈ [0, 1]`.
///
/// # Definition, Reference, Domain, Accuracy
/// As [`kl_bernoulli`], except that the arguments are not checked: the caller guarantees the domain
/// (hot loops); outside it the result is unspecified (may be NaN).
#[inline]
pub fn kl_bernoulli_unchecked(p: f64, q: f64) -> f64 {
    if p == q {
        return 0.0;
    }
    if q <= 0.0 || q >= 1.0 {
        return f64::INFINITY; // p != q and q at the boundary
    }
    if p <= 0.0 {
        return -(-q).ln_1p();
    }
    if p >= 1.0 {
        return -q.ln();
    }
    kl_interior(p, 1.0 - p, q, 1.0 - q, q - p)
}

/// `kl(p, q)` for `p, q ∈ (0, 1)` from `p`, `q`, their complements `pc = 1 − p`, `qc = 1 − q`
/// and their difference `d = q − p`, each supplied separately: the value is as accurate as
/// these five numbers (relative errors in `p`, `pc`, `q`, `qc` give relative errors of the
/// same size; `d` carries the cancellation-prone information and must be accurate itself).
/// [`kl_bernoulli_unchecked`] passes `1 − p`, `1 − q`, `q − p`; the signed divergences
/// [`d_eps_plus_unchecked`] pass an inner minimiser and its offset, which are not doubles.
#[inline]
pub(crate) fn kl_interior(p: f64, pc: f64, q: f64, qc: f64, d: f64) -> f64 {
    let u = -d / q;
    let v = d / qc;
    if u.abs() < 0.5 && v.abs() < 0.5 {
        // d² underflows below 1e-154: divide first then.
        let quad = if d.abs() > 1e-150 {
            d * d / (q * qc)
        } else {
            (d / q) * (d / qc)
        };
        quad + p * log1p_minus_x(u) + pc * log1p_minus_x(v)
    } else {
        // 1 + u = p/q and 1 + v = (1−p)/(1−q). Near u = −1 (p ≪ q), p·log1p(u) has an
        // absolute error ~2^-52·q, below 2e-15 of kl (>= 0.15·q there), but it is −∞ once u
        // rounds to −1 (e.g. kl(1e-17, 0.6)); beyond the double range (q subnormal) u is +∞.
        // Those two cases take the ratio form x·log(a/b) instead.
        let tp = if u <= -1.0 || !u.is_finite() {
            x_log_ratio(p, p, q)
        } else {
            p * u.ln_1p()
        };
        let tq = if v <= -1.0 || !v.is_finite() {
            x_log_ratio(pc, pc, qc)
        } else {
            pc * v.ln_1p()
        };
        tp + tq
    }
}

/// `x·log(a/b)` for `a, b > 0`, `x >= 0` (`0` when `x = 0`): through the quotient when it is a
/// normal double, else as `x·(log a − log b)` (no underflow or overflow of `a/b`).
#[inline]
fn x_log_ratio(x: f64, a: f64, b: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    let r = a / b;
    if r.is_normal() {
        x * r.ln()
    } else {
        x * (a.ln() - b.ln())
    }
}

/// Binary relative entropy `kl(p, q) = p log(p/q) + (1−p) log((1−p)/(1−q))`.
///
/// # Definition
/// ```text
/// kl(p, q) = p·log(p/q) + (1 − p)·log((1 − p)/(1 − q)),   0·log(0/·) = 0
/// ```
/// # Reference
/// READINGS.md §A.1; paper Thm. 10 sketch, L. 16.
/// # Domain
/// `p, q ∈ [0, 1]`; returns `+∞` when `p > 0 = q` or `p < 1 = q`.
/// # Accuracy
/// Relative error <= 1e-14 (golden file `tests/data/divergence_golden.toml`).
/// # Errors
/// [`crate::Error::InvalidParameter`] if `p` or `q` is NaN or outside `[0, 1]`.
/// # Example
/// ```
/// let v = dpbai::divergence::kl_bernoulli(0.5, 0.25).unwrap();
/// assert!((v - (0.5 * (2.0f64).ln() + 0.5 * (2.0f64 / 3.0).ln())).abs() < 1e-15);
/// ```
pub fn kl_bernoulli(p: f64, q: f64) -> Result<f64> {
    check_closed("p", p, 0.0, 1.0)?;
    check_closed("q", q, 0.0, 1.0)?;
    Ok(kl_bernoulli_unchecked(p, q))
}

/// `KL(N(m, σ²) ‖ N(m', σ²)) = (m − m')² / (2σ²)`, without checks.
///
/// # Definition, Reference, Domain, Accuracy
/// As [`kl_gaussian`], except that the arguments are not checked: the caller guarantees the domain
/// (hot loops); outside it the result is unspecified (may be NaN).
#[inline]
pub fn kl_gaussian_unchecked(m: f64, m2: f64, sigma: f64) -> f64 {
    let d = m - m2;
    d * d / (2.0 * sigma * sigma)
}

/// Gaussian KL with common standard deviation `σ`.
///
/// # Definition
/// ```text
/// KL(N(m, σ²) ‖ N(m', σ²)) = (m − m')² / (2σ²)
/// ```
/// # Reference
/// READINGS.md §A.2; paper Eq. (3), (5), Cor. 11.
/// # Domain
/// `m, m'` finite, `σ > 0` finite.
/// # Accuracy
/// A few ulps (two products and a quotient); relative error <= 1e-14 in the golden file `tests/data/divergence_golden.toml` (`verify/golden_divergence.py`), `CLOSED_FORM_TOL` of `tests/divergence.rs`.
/// # Errors
/// [`crate::Error::InvalidParameter`] on NaN/infinite means or `σ <= 0`; [`crate::Error::Overflow`]
/// when the value is beyond the largest `f64`.
/// # Example
/// ```
/// assert_eq!(dpbai::divergence::kl_gaussian(1.0, 0.0, 1.0).unwrap(), 0.5);
/// ```
pub fn kl_gaussian(m: f64, m2: f64, sigma: f64) -> Result<f64> {
    check_finite("m", m)?;
    check_finite("m'", m2)?;
    check_above("sigma", sigma, 0.0)?;
    let v = kl_gaussian_unchecked(m, m2, sigma);
    if v.is_finite() && (v > 0.0 || m == m2) {
        return Ok(v);
    }
    // (m − m')² or σ² under/overflowed (e.g. σ subnormal): divide first; and when m − m'
    // itself overflows (|m|, |m'| near the largest double), halve it first:
    // (m − m')²/(2σ²) = 2·((m/2 − m'/2)/σ)².
    let d = m - m2;
    let v = if d.is_finite() {
        let z = d / sigma;
        z * z / 2.0
    } else {
        let z = (0.5 * m - 0.5 * m2) / sigma;
        2.0 * z * z
    };
    if v.is_finite() {
        return Ok(v);
    }
    // log10 of (m − m')²/(2σ²), with m − m' halved so that it cannot overflow.
    let half = (0.5 * m - 0.5 * m2).abs();
    Err(Error::Overflow {
        what: format!(
            "kl_gaussian(m = {}, m' = {}, sigma = {})",
            crate::error::compact_number(m),
            crate::error::compact_number(m2),
            crate::error::compact_number(sigma)
        ),
        log10: 2.0 * (half.log10() + 2f64.log10() - sigma.log10()) - 2f64.log10(),
    })
}

/// Total variation between Bernoulli laws, `TV(Ber(p), Ber(q)) = |p − q|`.
///
/// # Definition
/// `TV(Ber(p), Ber(q)) = sup_A Ber(p)(A) − Ber(q)(A) = |p − q|`.
/// # Domain
/// `p, q ∈ [0, 1]`.
/// # Accuracy
/// Exact up to the rounding of `p − q` (half an ulp); checked in the golden file `tests/data/divergence_golden.toml` (`verify/golden_divergence.py`), `CLOSED_FORM_TOL` of `tests/divergence.rs`.
/// # Reference
/// READINGS.md §A.1 (Thm. 10 defines `TV(P‖Q) = sup_A P(A) − Q(A)`).
/// # Errors
/// [`crate::Error::InvalidParameter`] if `p` or `q` is outside `[0, 1]`.
/// # Example
/// ```
/// assert!((dpbai::divergence::tv_bernoulli(0.9, 0.5).unwrap() - 0.4).abs() < 1e-15);
/// ```
pub fn tv_bernoulli(p: f64, q: f64) -> Result<f64> {
    check_closed("p", p, 0.0, 1.0)?;
    check_closed("q", q, 0.0, 1.0)?;
    Ok((p - q).abs())
}

/// Squared total variation between Bernoulli laws, `(p − q)²`.
///
/// # Definition
/// `TV²(Ber(p), Ber(q)) = (p − q)²`.
/// # Reference
/// READINGS.md §A.1, §B.6 (the divergence of `T*_TV²`).
/// # Domain
/// `p, q ∈ [0, 1]`.
/// # Accuracy
/// About one ulp; checked in the golden file `tests/data/divergence_golden.toml` (`verify/golden_divergence.py`), `CLOSED_FORM_TOL` of `tests/divergence.rs`.
/// # Errors
/// As [`tv_bernoulli`].
pub fn tv2_bernoulli(p: f64, q: f64) -> Result<f64> {
    tv_bernoulli(p, q).map(|t| t * t)
}

/// Total variation between `N(m, σ²)` and `N(m', σ²)`: `erf(|m − m'| / (2√2 σ))`.
///
/// # Definition
/// `TV(N(m, σ²), N(m', σ²)) = erf(|m − m'| / (2√2 σ))`.
/// # Reference
/// READINGS.md §A.2 [DERIVED, standard].
/// # Domain
/// `m, m'` finite, `σ > 0` finite.
/// # Accuracy
/// That of [`crate::special::erf`] plus the rounding of its argument; relative error <= 1e-14
/// in the golden file `tests/data/divergence_golden.toml` (`verify/golden_divergence.py`), `CLOSED_FORM_TOL` of `tests/divergence.rs`.
/// # Errors
/// [`crate::Error::InvalidParameter`] on NaN/infinite means or `σ <= 0`.
/// # Example
/// ```
/// // |m − m'| = 2√2 σ·x gives erf(x); erf(1) = 0.8427007929497149.
/// let s = 0.5;
/// let v = dpbai::divergence::tv_gaussian(2.0 * 2f64.sqrt() * s, 0.0, s).unwrap();
/// assert!((v - 0.8427007929497149).abs() < 1e-15);
/// ```
pub fn tv_gaussian(m: f64, m2: f64, sigma: f64) -> Result<f64> {
    check_finite("m", m)?;
    check_finite("m'", m2)?;
    check_above("sigma", sigma, 0.0)?;
    let x = (m - m2).abs() / (2.0 * std::f64::consts::SQRT_2 * sigma);
    if (m - m2).is_finite() && (2.0 * std::f64::consts::SQRT_2 * sigma).is_finite() {
        return Ok(crate::special::erf(x));
    }
    // m − m' or 2√2σ overflows (|m|, |m'| or σ near the largest double): the same argument
    // with m − m' halved and σ divided first, |m/2 − m'/2|/σ/√2.
    Ok(crate::special::erf(
        ((0.5 * m - 0.5 * m2).abs() / sigma) / std::f64::consts::SQRT_2,
    ))
}

/// Local-DP contraction constant `c(ε) = min{4, e^{2ε}}·(e^ε − 1)²`, without checks.
///
/// # Definition, Reference, Domain, Accuracy
/// As [`c_local`], except that the arguments are not checked: the caller guarantees the domain
/// (hot loops); outside it the result is unspecified (may be NaN).
#[inline]
pub fn c_local_unchecked(eps: f64) -> f64 {
    let em1 = eps.exp_m1();
    let f = if eps <= std::f64::consts::LN_2 {
        (2.0 * eps).exp()
    } else {
        4.0
    };
    f * em1 * em1
}

/// The largest `ε` at which [`c_local`] is a finite `f64`: `c(ε) = 4(e^ε − 1)²` reaches the
/// largest `f64` (≈ 1.798e308) at `ε = ln(1 + √(f64::MAX/4)) ≈ 354.198` (the value here is the
/// last double below that point, found by bisection and checked by a test).
pub const C_LOCAL_EPS_MAX: f64 = 354.198_209_266_132_04;

/// Local-DP contraction constant of Thm. 10.
///
/// # Definition
/// ```text
/// c(ε) = min{4, e^{2ε}}·(e^ε − 1)²
/// ```
/// For every ε-LDP channel `M`: `KL(PM‖QM) + KL(QM‖PM) <= c(ε)·TV(P, Q)²` (Duchi et al. 2013).
/// # Reference
/// READINGS.md §A.4; paper Thm. 10, Eq. (7).
/// # Domain
/// `ε > 0` finite. Continuous and strictly increasing; `c(ε) = ε² + 3ε³ + O(ε⁴)`.
/// # Accuracy
/// A few ulp (uses `expm1`); golden file `tests/data/divergence_golden.toml`.
/// # Errors
/// [`crate::Error::InvalidParameter`] if `ε <= 0`, NaN or infinite; [`crate::Error::Overflow`]
/// beyond [`C_LOCAL_EPS_MAX`] (`ε ≈ 354.198`), where `c(ε)` exceeds the largest `f64`.
/// # Example
/// ```
/// let c = dpbai::divergence::c_local(std::f64::consts::LN_2).unwrap();
/// assert!((c - 4.0).abs() < 1e-14); // e^{2 ln 2}·(2 − 1)² = 4
/// ```
pub fn c_local(eps: f64) -> Result<f64> {
    check_above("eps", eps, 0.0)?;
    let c = c_local_unchecked(eps);
    if c.is_finite() {
        return Ok(c);
    }
    // Beyond ε ≈ 354.198: c(ε) = 4(e^ε − 1)², log10 c = log10 4 + 2(ε + ln(1 − e^{−ε}))/ln 10.
    Err(Error::Overflow {
        what: format!("c_local(eps = {})", crate::error::compact_number(eps)),
        log10: 4f64.log10() + 2.0 * (eps + (-(-eps).exp()).ln_1p()) / std::f64::consts::LN_10,
    })
}

/// The Pinsker switch `ε_0`, the root of `c(ε) = 2`: `ln((1 + √(1 + 4√2))/2) = 0.58224…`.
///
/// # Definition
/// `ε_0 = ln((1 + √(1 + 4√2))/2)`, the unique `ε > 0` with `c(ε) = 2`, where
/// `c(ε) = e^{2ε}(e^ε − 1)²` (the branch `ε <= ln 2`).
/// # Reference
/// READINGS.md §A.4 [DERIVED closed form]; paper Sec. 3.1 ("≈ 0.582").
/// # Domain
/// No argument.
/// # Accuracy
/// A few ulps; relative error <= 1e-14 in the golden file `tests/data/divergence_golden.toml` (`verify/golden_divergence.py`), `CLOSED_FORM_TOL` of `tests/divergence.rs`.
/// # Example
/// ```
/// let e0 = dpbai::divergence::pinsker_switch_eps();
/// assert!((dpbai::divergence::c_local(e0).unwrap() - 2.0).abs() < 1e-14);
/// ```
pub fn pinsker_switch_eps() -> f64 {
    ((1.0 + (1.0 + 4.0 * std::f64::consts::SQRT_2).sqrt()) / 2.0).ln()
}

/// Randomised-response mean map `m_ε(μ) = (μ(e^ε − 1) + 1)/(e^ε + 1)`, without checks.
///
/// Written as `1/2 + (μ − 1/2)·tanh(ε/2)` to stay accurate for every ε (no overflow of `e^ε`).
///
/// # Definition, Reference, Domain, Accuracy
/// As [`rr_mean`], except that the arguments are not checked: the caller guarantees the domain
/// (hot loops); outside it the result is unspecified (may be NaN).
#[inline]
pub fn rr_mean_unchecked(mu: f64, eps: f64) -> f64 {
    0.5 + (mu - 0.5) * (0.5 * eps).tanh()
}

/// Randomised-response (CTB) mean of an arm with mean `μ` (Lemma 12).
///
/// # Definition
/// ```text
/// μ_ε = (2μ − 1)(e^ε − 1)/(2(e^ε + 1)) + 1/2 = (μ(e^ε − 1) + 1)/(e^ε + 1)
/// ```
/// # Reference
/// READINGS.md §A.5; paper L. 12, Alg. 4.
/// # Domain
/// `μ ∈ [0, 1]`, `ε > 0` finite.
/// # Accuracy
/// A few ulps (evaluated as `1/2 + (μ − 1/2)·tanh(ε/2)`); relative error <= 1e-14 in the
/// golden file `tests/data/divergence_golden.toml` (`verify/golden_divergence.py`), `CLOSED_FORM_TOL` of `tests/divergence.rs`.
/// # Errors
/// [`crate::Error::InvalidParameter`] if `μ ∉ [0, 1]` or `ε <= 0`.
/// # Example
/// ```
/// let e = 1.0f64;
/// let m = dpbai::divergence::rr_mean(0.9, e).unwrap();
/// assert!((m - (0.9 * (e.exp() - 1.0) + 1.0) / (e.exp() + 1.0)).abs() < 1e-15);
/// ```
pub fn rr_mean(mu: f64, eps: f64) -> Result<f64> {
    check_closed("mu", mu, 0.0, 1.0)?;
    check_above("eps", eps, 0.0)?;
    Ok(rr_mean_unchecked(mu, eps))
}

/// `kl(1 − δ, δ) = (1 − 2δ)·log((1 − δ)/δ)`, the change-of-measure constant of L. 5.
///
/// # Definition
/// `kl(1 − δ, δ) = (1 − 2δ)·log((1 − δ)/δ)`, evaluated as `(1 − 2δ)·log1p((1 − 2δ)/δ)`.
/// # Domain
/// Every [`Delta`](crate::params::Delta) (`δ ∈ [1e-300, 1)`).
/// # Accuracy
/// A few ulps, also as `δ → 1/2`; relative error <= 1e-14 in the golden file `tests/data/divergence_golden.toml` (`verify/golden_divergence.py`), `CLOSED_FORM_TOL` of `tests/divergence.rs`.
/// # Reference
/// READINGS.md §A.8; paper L. 5, end of the proofs of Thm. 10 and 17 (`>= log(1/(2.4δ))`).
pub fn kl_delta(delta: crate::params::Delta) -> f64 {
    let delta = delta.get();
    // log((1 − δ)/δ) = log1p((1 − 2δ)/δ): no cancellation as δ → 1/2 (where `ln` of the
    // rounded ratio lost up to 3e-9 relative at δ = 0.49999999).
    let a = 1.0 - 2.0 * delta;
    a * (a / delta).ln_1p()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Means near the largest double: `m − m'` overflows, the divergences do not.
    #[test]
    fn gaussian_divergences_at_huge_means() {
        // ((2·MAX)/1e300)²/2 = 2·(MAX/1e300)².
        let want = 2.0 * (f64::MAX / 1e300).powi(2);
        let v = kl_gaussian(f64::MAX, -f64::MAX, 1e300).unwrap();
        assert!((v / want - 1.0).abs() < 1e-15, "{v} vs {want}");
        // |m − m'|/(2√2σ) = 2·MAX/(2√2·MAX) = 1/√2 at σ = MAX.
        let v = tv_gaussian(f64::MAX, -f64::MAX, f64::MAX).unwrap();
        assert!((v - crate::special::erf(std::f64::consts::FRAC_1_SQRT_2)).abs() < 1e-15);
    }

    #[test]
    fn kl_zero_and_infinite_conventions() {
        assert_eq!(kl_bernoulli(0.3, 0.3).unwrap(), 0.0);
        assert_eq!(kl_bernoulli(0.0, 0.0).unwrap(), 0.0);
        assert_eq!(kl_bernoulli(1.0, 1.0).unwrap(), 0.0);
        assert_eq!(kl_bernoulli(0.5, 0.0).unwrap(), f64::INFINITY);
        assert_eq!(kl_bernoulli(0.5, 1.0).unwrap(), f64::INFINITY);
        assert!((kl_bernoulli(0.0, 0.5).unwrap() - 2f64.ln()).abs() < 1e-15);
        assert!((kl_bernoulli(1.0, 0.25).unwrap() - 4f64.ln()).abs() < 1e-15);
        assert!(kl_bernoulli(f64::NAN, 0.5).is_err());
        assert!(kl_bernoulli(0.5, 1.5).is_err());
    }

    #[test]
    fn kl_near_diagonal_matches_second_order() {
        // kl(p, p + d) = d²/(2p(1−p)) + O(d³)
        let (p, d) = (0.3, 1e-7);
        let v = kl_bernoulli(p, p + d).unwrap();
        let approx = d * d / (2.0 * p * (1.0 - p));
        assert!((v / approx - 1.0).abs() < 1e-6, "{v} vs {approx}");
    }

    /// `C_LOCAL_EPS_MAX` is the last ε of a finite `c(ε)`: finite there, an overflow at the
    /// next double.
    #[test]
    fn c_local_is_finite_up_to_its_limit_only() {
        assert!(c_local(C_LOCAL_EPS_MAX).is_ok_and(f64::is_finite));
        let next = f64::from_bits(C_LOCAL_EPS_MAX.to_bits() + 1);
        assert!(matches!(c_local(next), Err(Error::Overflow { .. })));
    }

    #[test]
    fn c_local_pieces_meet_at_ln2_and_expand() {
        let l = std::f64::consts::LN_2;
        let below = c_local(l * (1.0 - 1e-12)).unwrap();
        let above = c_local(l * (1.0 + 1e-12)).unwrap();
        assert!((below - above).abs() < 1e-10);
        let e = 1e-4;
        assert!((c_local(e).unwrap() - (e * e + 3.0 * e * e * e)).abs() < 1e-14);
        assert!(c_local(0.0).is_err());
    }

    #[test]
    fn rr_mean_forms_agree() {
        for &(mu, e) in &[(0.0, 0.1), (1.0, 2.0), (0.37, 0.5), (0.9, 10.0)] {
            let a: f64 = rr_mean(mu, e).unwrap();
            let b = (2.0 * mu - 1.0) * (e.exp_m1()) / (2.0 * (e.exp() + 1.0)) + 0.5;
            assert!((a - b).abs() < 1e-15);
        }
    }
}
