//! Exact binomial confidence bounds (Clopper–Pearson): they invert the binomial tail
//! `P(Bin(n, p) ≤ k) = 1 − I_p(k + 1, n − k)` exactly ([`super::beta`]), by Brent's method on
//! `ln(tail) − ln(α)` to a relative width of `4·2^{-52}`, and in the outward forms rounded in the
//! safe direction.

use super::beta::ln_beta_reg_pair;
use crate::error::{Error, Result};

fn check_cp_args(k: u64, n: u64, alpha: f64) -> Result<()> {
    if n == 0 {
        return Err(Error::param("n", n, "at least 1 trial"));
    }
    if k > n {
        return Err(Error::param("k", k, format!("in [0, n] with n = {n}")));
    }
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::param("alpha", alpha, "in (0, 1)"));
    }
    Ok(())
}

/// Brent's root finder ([`crate::roots::zeroin`]) on `[lo, hi]` for `f` with `f(lo)·f(hi) < 0`; infinite values
/// are clamped to `±1e300` (so that the bracket may touch a pole of the logarithm).
fn brent(mut f: impl FnMut(f64) -> Result<f64>, lo: f64, hi: f64) -> Result<f64> {
    let clamp = |v: f64| v.clamp(-1e300, 1e300);
    let (a, b) = (lo, hi);
    let fa = clamp(f(a)?);
    let fb = clamp(f(b)?);
    if fa != 0.0 && fb != 0.0 && fa.signum() == fb.signum() {
        return Err(Error::NoConvergence {
            what: "Clopper-Pearson bracket (no sign change)".into(),
            iterations: 0,
        });
    }
    if let Some(root) = crate::roots::zeroin(|x| f(x).map(clamp), a, b, fa, fb, 1000)? {
        return Ok(root);
    }
    Err(Error::NoConvergence {
        what: "Clopper-Pearson root (Brent)".into(),
        iterations: 1000,
    })
}

/// Exact one-sided Clopper–Pearson upper bound: the `p` with `P(Bin(n, p) ≤ k) = α`.
///
/// # Definition
/// ```text
/// cp_upper(k, n, α) = sup{p : P(Bin(n, p) ≤ k) ≥ α},   = 1 if k = n,
///                   = 1 − α^{1/n} = −expm1(ln(α)/n) if k = 0
/// ```
/// `P(p ≤ cp_upper) ≥ 1 − α` for every true `p` (exact coverage guarantee, conservative).
///
/// # Reference
/// Clopper & Pearson (1934), Biometrika 26(4); used for the `error_ci` of `dpbai run` and by the
/// δ-correctness auditor (READINGS.md §E.2: "error frequency ≤ δ (binomial CI)").
///
/// # Domain
/// `n ≥ 1`, `0 ≤ k ≤ n`, `α ∈ (0, 1)`.
///
/// # Accuracy
/// Relative error ≤ 1e-10 against `tests/data/cp_golden.toml` (mpmath at 50 digits, direct
/// binomial sums), `n ≤ 10^7`, `α ≥ 1e-9`; closed forms at `k = 0` are exact to rounding.
///
/// # Errors
/// [`Error::InvalidParameter`] if `n = 0`, `k > n` or `α ∉ (0, 1)`.
///
/// # Example
/// ```
/// // k = 0: 1 − α^{1/n}
/// let u = dpbai::stats::cp_upper(0, 10, 0.05).unwrap();
/// assert!((u - (1.0 - 0.05f64.powf(0.1))).abs() < 1e-15);
/// // P(Bin(1, p) <= 0) = 1 − p = α
/// assert!((dpbai::stats::cp_upper(0, 1, 0.3).unwrap() - 0.7).abs() < 1e-15);
/// ```
pub fn cp_upper(k: u64, n: u64, alpha: f64) -> Result<f64> {
    check_cp_args(k, n, alpha)?;
    if k == n {
        return Ok(1.0);
    }
    let la = alpha.ln();
    if k == 0 {
        return Ok(-(la / n as f64).exp_m1());
    }
    // P(Bin(n,p) <= k) = 1 − I_p(k+1, n−k): decreasing in p.
    let (a, b) = ((k + 1) as f64, (n - k) as f64);
    brent(|p| Ok(ln_beta_reg_pair(a, b, p)?.1 - la), 0.0, 1.0)
}

/// Exact one-sided Clopper–Pearson lower bound: the `p` with `P(Bin(n, p) ≥ k) = α`.
///
/// # Definition
/// ```text
/// cp_lower(k, n, α) = inf{p : P(Bin(n, p) ≥ k) ≥ α},   = 0 if k = 0,
///                   = α^{1/n} = exp(ln(α)/n) if k = n
/// ```
///
/// # Reference
/// Clopper & Pearson (1934).
///
/// # Domain
/// `n ≥ 1`, `0 ≤ k ≤ n`, `α ∈ (0, 1)`.
///
/// # Accuracy
/// As [`cp_upper`].
///
/// # Errors
/// [`Error::InvalidParameter`] if `n = 0`, `k > n` or `α ∉ (0, 1)`.
///
/// # Example
/// ```
/// // k = n: α^{1/n}
/// let l = dpbai::stats::cp_lower(10, 10, 0.05).unwrap();
/// assert!((l - 0.05f64.powf(0.1)).abs() < 1e-15);
/// // P(Bin(1, p) >= 1) = p = α
/// assert!((dpbai::stats::cp_lower(1, 1, 0.3).unwrap() - 0.3).abs() < 1e-15);
/// ```
pub fn cp_lower(k: u64, n: u64, alpha: f64) -> Result<f64> {
    check_cp_args(k, n, alpha)?;
    if k == 0 {
        return Ok(0.0);
    }
    let la = alpha.ln();
    if k == n {
        return Ok((la / n as f64).exp());
    }
    // P(Bin(n,p) >= k) = I_p(k, n−k+1): increasing in p.
    let (a, b) = (k as f64, (n - k + 1) as f64);
    brent(|p| Ok(ln_beta_reg_pair(a, b, p)?.0 - la), 0.0, 1.0)
}

/// The relative accuracy of the binomial tails ([`ln_beta_reg_pair`], 1e-10 documented) with a
/// tenfold safety factor, as a bound on the error of their logarithm: the outward bounds below
/// require the computed log-tail to clear `ln α` by this much.
const LN_TAIL_TOL: f64 = 1e-9;

/// Moves `p` in the direction `dir` (`+1` up, `−1` down) until `ok(p)` holds, by steps that
/// double from one ulp; `None` when the end of `[0, 1]` is reached first.
fn step_until(mut p: f64, dir: f64, ok: impl Fn(f64) -> Result<bool>) -> Result<Option<f64>> {
    let mut step = f64::EPSILON * p.abs().max(f64::MIN_POSITIVE);
    for _ in 0..2100 {
        if ok(p)? {
            return Ok(Some(p));
        }
        p = if dir > 0.0 {
            crate::float::next_up(p + step)
        } else {
            crate::float::next_down(p - step)
        };
        if !(0.0..=1.0).contains(&p) {
            return Ok(None);
        }
        step *= 2.0;
    }
    Ok(None)
}

/// [`cp_upper`] rounded outward: a `u` with `u >= cp_upper(k, n, α)` guaranteed, not only to the
/// solver's accuracy.
///
/// # Definition
/// `k = n`: 1. `k = 0`: `1 − α^{1/n}` moved up by four ulps (the closed form's `ln`, division
/// and `expm1` each err by at most one). Otherwise the root `u₀` of [`cp_upper`], moved up until
/// the computed `ln P(Bin(n, u) <= k)` is at most `ln α − 1e-9`: the tail's relative error is
/// below `1e-10`, so the exact tail at `u` is below `α`, and since it decreases in `p`, the exact
/// bound lies below `u`.
///
/// # Reference
/// Clopper & Pearson (1934); the rule that a bound deciding a verdict is rounded in the safe
/// direction.
///
/// # Domain
/// As [`cp_upper`].
///
/// # Accuracy
/// At most a relative `1e-8` above the exact bound (typically a few ulps; checked against the
/// mpmath values of `tests/data/cp_outward_golden.toml`, 50 digits, `verify/golden_cp_outward.py`).
///
/// # Errors
/// As [`cp_upper`].
///
/// # Example
/// ```
/// use dpbai::stats::{cp_upper, cp_upper_outward};
/// let (u, v) = (cp_upper(3, 100, 1e-3).unwrap(), cp_upper_outward(3, 100, 1e-3).unwrap());
/// assert!(v > u && v < u * (1.0 + 1e-8));
/// ```
pub fn cp_upper_outward(k: u64, n: u64, alpha: f64) -> Result<f64> {
    let u = cp_upper(k, n, alpha)?;
    if k == n {
        return Ok(1.0);
    }
    if k == 0 {
        let mut v = u;
        for _ in 0..4 {
            v = crate::float::next_up(v);
        }
        return Ok(v.min(1.0));
    }
    let (a, b) = ((k + 1) as f64, (n - k) as f64);
    let target = alpha.ln() - LN_TAIL_TOL;
    let ok = |p: f64| -> Result<bool> {
        if p >= 1.0 {
            return Ok(true);
        }
        Ok(ln_beta_reg_pair(a, b, p)?.1 <= target)
    };
    Ok(step_until(u, 1.0, ok)?.unwrap_or(1.0))
}

/// [`cp_lower`] rounded outward: an `l` with `l <= cp_lower(k, n, α)` guaranteed.
///
/// # Definition
/// `k = 0`: 0. `k = n`: `α^{1/n}` moved down by four ulps. Otherwise the root `l₀` of
/// [`cp_lower`], moved down until the computed `ln P(Bin(n, l) >= k)` is at most
/// `ln α − 1e-9` (the mirror of [`cp_upper_outward`]: the exact tail at `l` is below `α` and
/// increases in `p`, so the exact bound lies above `l`).
///
/// # Reference
/// As [`cp_upper_outward`].
///
/// # Domain
/// As [`cp_lower`].
///
/// # Accuracy
/// At most a relative `1e-8` below the exact bound (`tests/data/cp_outward_golden.toml`).
///
/// # Errors
/// As [`cp_lower`].
///
/// # Example
/// ```
/// use dpbai::stats::{cp_lower, cp_lower_outward};
/// let (l, m) = (cp_lower(3, 100, 1e-3).unwrap(), cp_lower_outward(3, 100, 1e-3).unwrap());
/// assert!(m < l && m > l * (1.0 - 1e-8));
/// ```
pub fn cp_lower_outward(k: u64, n: u64, alpha: f64) -> Result<f64> {
    let l = cp_lower(k, n, alpha)?;
    if k == 0 {
        return Ok(0.0);
    }
    if k == n {
        let mut v = l;
        for _ in 0..4 {
            v = crate::float::next_down(v);
        }
        return Ok(v.max(0.0));
    }
    let (a, b) = (k as f64, (n - k + 1) as f64);
    let target = alpha.ln() - LN_TAIL_TOL;
    let ok = |p: f64| -> Result<bool> {
        if p <= 0.0 {
            return Ok(true);
        }
        Ok(ln_beta_reg_pair(a, b, p)?.0 <= target)
    };
    Ok(step_until(l, -1.0, ok)?.unwrap_or(0.0))
}

/// Exact two-sided Clopper–Pearson interval at confidence `1 − α`:
/// `(cp_lower(k, n, α/2), cp_upper(k, n, α/2))`.
///
/// # Definition
/// Equal-tailed inversion of the two one-sided binomial tests.
///
/// # Reference
/// Clopper & Pearson (1934).
///
/// # Domain
/// `n ≥ 1`, `0 ≤ k ≤ n`, `α ∈ (0, 1)`.
///
/// # Accuracy
/// As [`cp_upper`].
///
/// # Errors
/// As [`cp_upper`].
///
/// # Example
/// ```
/// let (lo, hi) = dpbai::stats::clopper_pearson(0, 1000, 0.05).unwrap();
/// assert_eq!(lo, 0.0);
/// assert!((hi - (1.0 - 0.025f64.powf(1e-3))).abs() < 1e-15); // ≈ 0.00368
/// ```
pub fn clopper_pearson(k: u64, n: u64, alpha: f64) -> Result<(f64, f64)> {
    check_cp_args(k, n, alpha)?;
    Ok((cp_lower(k, n, alpha / 2.0)?, cp_upper(k, n, alpha / 2.0)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cp_rejects_bad_input() {
        assert!(cp_upper(0, 0, 0.05).is_err());
        assert!(cp_upper(3, 2, 0.05).is_err());
        assert!(cp_lower(1, 2, 0.0).is_err());
        assert!(cp_lower(1, 2, 1.0).is_err());
        assert!(cp_lower(1, 2, f64::NAN).is_err());
        assert!(clopper_pearson(1, 2, -0.1).is_err());
    }
}
