//! The interval and verdict of one binomial audit, and the projected run count that would
//! decide an inconclusive one (module docs of [`super`]).

use crate::audit::{Verdict, ci};
use crate::error::{Error, Result, check_open};
use serde::Serialize;

/// Largest run count the "runs to decide" estimate reports.
const MAX_PROJECTED_RUNS: u64 = 1_000_000_000_000;

/// The interval and verdict of one binomial audit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Decision {
    /// Lower confidence bound on `P(τ < ∞, â ≠ a*)` (unstopped runs counted as correct).
    pub lower: f64,
    /// Upper confidence bound (unstopped runs counted as errors).
    pub upper: f64,
    /// The verdict against `δ`.
    pub verdict: Verdict,
}

/// Decides `P(τ < ∞, â ≠ a*) <= δ` from `errors` wrong stops and `unstopped` capped runs out of
/// `runs`, at confidence `1 − alpha` (module docs).
///
/// # Definition
/// `L = cp_lower(errors, runs, α/2)`, `U = cp_upper(errors + unstopped, runs, α/2)`;
/// `violated` if `L > δ`, `holds` if `U < δ`, else `inconclusive` (a tie is never `holds`);
/// both ends are rounded outward ([`crate::audit::ci`]).
///
/// # Reference
/// READINGS.md §E.2; Clopper & Pearson (1934).
///
/// # Domain
/// `runs >= 1`, `errors + unstopped <= runs`, `δ, α ∈ (0, 1)`.
///
/// # Accuracy
/// Outward: `L` never above and `U` never below the exact Clopper–Pearson ends (within a
/// relative 1e-8 of them); at `errors = 0` and `errors + unstopped = runs` the closed forms
/// `1 − (α/2)^{1/n}` and `(α/2)^{1/n}`, moved outward by a few ulps.
///
/// # Errors
/// [`Error::InvalidParameter`] outside the domain.
///
/// # Example
/// ```
/// use dpbai::audit::{delta::decide, Verdict};
/// // 0 errors in 10 000 runs: U = 1 − 0.0005^{1e-4} ≈ 7.6e-4 <= 0.01.
/// let d = decide(0, 0, 10_000, 0.01, 1e-3).unwrap();
/// assert_eq!(d.verdict, Verdict::Holds);
/// assert!((d.upper - (1.0 - 0.0005f64.powf(1e-4))).abs() < 1e-12);
/// ```
pub fn decide(errors: u64, unstopped: u64, runs: u64, delta: f64, alpha: f64) -> Result<Decision> {
    crate::params::check_delta("delta", delta)?;
    check_open("alpha", alpha, 0.0, 1.0)?;
    if runs == 0 {
        return Err(Error::param("runs", runs, "at least 1"));
    }
    if errors.saturating_add(unstopped) > runs {
        return Err(Error::param(
            "errors + unstopped",
            errors.saturating_add(unstopped),
            format!("at most runs = {runs}"),
        ));
    }
    let lower = ci::lower(errors, runs, alpha / 2.0)?;
    let upper = ci::upper(errors + unstopped, runs, alpha / 2.0)?;
    let verdict = if lower > delta {
        Verdict::Violated
    } else if upper < delta {
        // A tie (upper = δ) is not a pass.
        Verdict::Holds
    } else {
        Verdict::Inconclusive
    };
    Ok(Decision {
        lower,
        upper,
        verdict,
    })
}

/// Projected total number of runs after which the audit would likely be decisive, if the
/// observed frequencies stayed as they are; `None` when they sit on `δ` (or beyond 10^12 runs).
///
/// # Definition
/// With `p̂ = errors/runs` and `q̂ = (errors + unstopped)/runs`: if `q̂ < δ`, the smallest `N` with
/// `cp_upper(⌈q̂N⌉, N, α/2) < δ`; if `p̂ > δ`, the smallest `N` with `cp_lower(⌊p̂N⌋, N, α/2) > δ`
/// (found by doubling then bisection, treating the conditions as monotone in `N`).
///
/// # Errors
/// As [`decide`].
///
/// # Example
/// ```
/// // No error in 100 runs at δ = 0.01: about log(2/α)/δ ≈ 760 runs would certify `holds`.
/// let n = dpbai::audit::delta::runs_to_decide(0, 0, 100, 0.01, 1e-3).unwrap().unwrap();
/// assert!((750..=770).contains(&n));
/// ```
pub fn runs_to_decide(
    errors: u64,
    unstopped: u64,
    runs: u64,
    delta: f64,
    alpha: f64,
) -> Result<Option<u64>> {
    decide(errors, unstopped, runs, delta, alpha)?;
    let p = errors as f64 / runs as f64;
    let q = (errors + unstopped) as f64 / runs as f64;
    let ok = |n: u64| -> Result<bool> {
        if q < delta {
            let k = ((q * n as f64).ceil() as u64).min(n);
            Ok(ci::upper(k, n, alpha / 2.0)? < delta)
        } else if p > delta {
            let k = ((p * n as f64).floor() as u64).min(n);
            Ok(ci::lower(k, n, alpha / 2.0)? > delta)
        } else {
            Ok(false)
        }
    };
    if !(q < delta || p > delta) {
        return Ok(None);
    }
    let mut hi = runs.max(1);
    while !ok(hi)? {
        if hi >= MAX_PROJECTED_RUNS {
            return Ok(None);
        }
        hi = hi.saturating_mul(2).min(MAX_PROJECTED_RUNS);
    }
    let mut lo = hi / 2;
    if lo < runs || hi == runs {
        lo = runs.saturating_sub(1);
    }
    // Invariant: ok(hi), and lo is either below `runs` or fails.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(Some(hi.max(runs)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decide_rejects_bad_input() {
        assert!(decide(0, 0, 0, 0.1, 1e-3).is_err());
        assert!(decide(5, 6, 10, 0.1, 1e-3).is_err());
        assert!(decide(0, 0, 10, 0.0, 1e-3).is_err());
        assert!(decide(0, 0, 10, 0.1, 1.0).is_err());
        assert!(decide(0, 0, 10, f64::NAN, 1e-3).is_err());
    }

    #[test]
    fn unstopped_runs_only_widen_the_upper_bound() {
        let a = decide(0, 0, 1000, 0.01, 1e-3).expect("valid");
        let b = decide(0, 1000, 1000, 0.01, 1e-3).expect("valid");
        assert_eq!(a.lower, b.lower);
        assert_eq!(b.upper, 1.0);
        assert_eq!(b.verdict, Verdict::Inconclusive);
    }
}
