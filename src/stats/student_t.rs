//! Student's t distribution: the quantile and the two-sided tail, on the incomplete beta function
//! of [`super::beta`].

use super::beta::beta_reg;
use crate::error::{Error, Result, check_finite};

/// Degrees of freedom above which [`student_t_quantile`] polishes statrs' value by Newton steps.
const NEWTON_DF: f64 = 1e3;

/// Quantile `t_{p,ν}` of Student's t distribution with `ν` degrees of freedom: the `t` with
/// `P(T_ν ≤ t) = p`.
///
/// # Definition
/// `F_ν(t) = 1 − ½·I_{ν/(ν+t²)}(ν/2, ½)` for `t ≥ 0`, `F_ν(−t) = 1 − F_ν(t)`; the quantile is
/// `F_ν^{-1}(p)`. `ν` need not be an integer (Welch–Satterthwaite degrees of freedom).
///
/// # Reference
/// statrs' `StudentsT::inverse_cdf` (AS 64/AS 109 inversion of the incomplete beta function),
/// accurate to 5e-13 relative for `ν ≤ 10^3` (measured on the golden values) but off by up to
/// 3e-4 relative at `ν = 10^6`; for `ν > 10^3` it is polished by Newton steps on the tail
/// [`student_t_two_sided`] (our incomplete beta) with statrs' density. Checked against `tests/data/censored_golden.toml` (mpmath,
/// 50 digits, hypergeometric form of the t CDF: `verify/golden_censored.py`).
///
/// # Domain
/// `p ∈ (0, 1)`, `ν ∈ [1, 10^7]` (the accurate range of [`beta_reg`]).
///
/// # Accuracy
/// Relative error below `2e-10` on the golden values (`p ∈ [0.9, 0.9995]`, `ν ∈ [1, 10^7]`,
/// integer and fractional; measured worst 1.6e-10 at `ν = 10^7`, ~1e-13 for `ν ≤ 10^4`).
///
/// # Errors
/// [`Error::InvalidParameter`] outside the domain; [`Error::NoConvergence`] if Newton's method
/// has not settled after 50 steps (not observed).
///
/// # Example
/// ```
/// // t_{0.975, 9} = 2.26215716279820554… (mpmath, 50 digits; tables: 2.262)
/// let t = dpbai::stats::student_t_quantile(0.975, 9.0).unwrap();
/// assert!((t - 2.262_157_162_798_205_5).abs() < 1e-12);
/// ```
pub fn student_t_quantile(p: f64, df: f64) -> Result<f64> {
    use statrs::distribution::{Continuous, ContinuousCDF, StudentsT};
    if !(p > 0.0 && p < 1.0) {
        return Err(Error::param("p", p, "in (0, 1)"));
    }
    if !(1.0..=1e7).contains(&df) {
        return Err(Error::param("degrees of freedom", df, "in [1, 1e7]"));
    }
    if p == 0.5 {
        return Ok(0.0);
    }
    let dist = StudentsT::new(0.0, 1.0, df).map_err(|e| {
        Error::param(
            "degrees of freedom",
            df,
            format!("accepted by statrs ({e})"),
        )
    })?;
    // Solve u(t) = tail for t > 0, u(t) = P(T > t) = ½·two_sided(t), u'(t) = −pdf(t).
    let (tail, sign) = if p > 0.5 { (1.0 - p, 1.0) } else { (p, -1.0) };
    let mut t = check_finite("Student t quantile", dist.inverse_cdf(1.0 - tail))?.abs();
    if df <= NEWTON_DF {
        return Ok(sign * t);
    }
    // Newton converges quadratically until the tail's own error (~1e-13 relative) dominates;
    // stop when the step is negligible or no longer shrinks.
    let mut prev_step = f64::INFINITY;
    for _ in 0..50 {
        let u = 0.5 * student_t_two_sided(t, df)?;
        let next =
            check_finite("Student t quantile (Newton)", t + (u - tail) / dist.pdf(t))?.max(0.5 * t);
        let step = (next - t).abs();
        if step <= 1e-14 * t || step >= prev_step {
            return Ok(sign * if step < prev_step { next } else { t });
        }
        prev_step = step;
        t = next;
    }
    Err(Error::NoConvergence {
        what: "Student t quantile (Newton)".into(),
        iterations: 50,
    })
}

/// Two-sided tail probability `P(|T_ν| ≥ |t|)` of Student's t distribution.
///
/// # Definition
/// `P(|T_ν| ≥ |t|) = I_{ν/(ν+t²)}(ν/2, ½)` (regularised incomplete beta function).
///
/// # Reference
/// Abramowitz & Stegun 26.7.1; evaluated with [`beta_reg`] (not statrs, see the module docs).
///
/// # Domain
/// `t` finite, `ν > 0` finite.
///
/// # Accuracy
/// As [`beta_reg`]: relative `< 1e-10`; checked against mpmath in `tests/data/censored_golden.toml`.
///
/// # Errors
/// [`Error::InvalidParameter`] outside the domain.
///
/// # Example
/// ```
/// // t = 2.26215716279820554 is the 0.975 quantile at ν = 9: two-sided tail 0.05
/// let p = dpbai::stats::student_t_two_sided(2.262_157_162_798_205_5, 9.0).unwrap();
/// assert!((p - 0.05).abs() < 1e-10);
/// ```
pub fn student_t_two_sided(t: f64, df: f64) -> Result<f64> {
    check_finite("t statistic", t)?;
    if !(df > 0.0 && df.is_finite()) {
        return Err(Error::param(
            "degrees of freedom",
            df,
            "a finite number > 0",
        ));
    }
    if t == 0.0 {
        return Ok(1.0);
    }
    // x = ν/(ν + t²) computed as 1/(1 + t²/ν) (no overflow for large t).
    let x = 1.0 / (1.0 + t * t / df);
    beta_reg(0.5 * df, 0.5, x)
}
