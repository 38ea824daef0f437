//! Exact Clopper–Pearson bounds for the auditors, rounded outward: thin wrappers over
//! [`crate::stats`]'s outward bounds so that the audits have one place that states which
//! tail each bound controls, and every verdict is decided on a bound that errs only on the safe
//! side (a lower end never above the exact one, an upper end never below).
//!
//! No second Clopper–Pearson implementation lives here; the golden tests of the bounds against
//! mpmath are those of [`crate::stats`]. The closed forms at the edges are asserted by the
//! property tests of `tests/audit/delta.rs`.

use crate::error::Result;

/// One-sided lower Clopper–Pearson bound: the `p` with `P(Bin(n, p) >= k) = alpha`
/// (`0` when `k = 0`).
///
/// # Definition
/// `P_p(X >= k)` increases in `p`, so `P(lower(X, n, α) > p) <= α` for every `p` (exact
/// coverage, Clopper & Pearson 1934). Closed form at `k = n`: `α^{1/n}`.
///
/// # Reference
/// Clopper & Pearson (1934); READINGS.md §E.2 ("binomial CI").
///
/// # Domain
/// `0 <= k <= n`, `n >= 1`, `α ∈ (0, 1)`.
///
/// # Accuracy
/// [`crate::stats::cp_lower_outward`]: never above the exact bound, at most a relative `1e-8`
/// below it (golden-tested against mpmath).
///
/// # Errors
/// Propagates the parameter errors of [`crate::stats::cp_lower_outward`].
///
/// # Example
/// ```
/// let lo = dpbai::audit::ci::lower(10, 10, 0.05).unwrap();
/// assert!(lo <= 0.05f64.powf(0.1) && (lo - 0.05f64.powf(0.1)).abs() < 1e-12);
/// ```
pub fn lower(k: u64, n: u64, alpha: f64) -> Result<f64> {
    crate::stats::cp_lower_outward(k, n, alpha)
}

/// One-sided upper Clopper–Pearson bound: the `p` with `P(Bin(n, p) <= k) = alpha`
/// (`1` when `k = n`).
///
/// # Definition
/// `P_p(X <= k)` decreases in `p`, so `P(upper(X, n, α) < p) <= α` for every `p`. Closed form at
/// `k = 0`: `1 − α^{1/n}`.
///
/// # Reference
/// Clopper & Pearson (1934).
///
/// # Domain
/// `0 <= k <= n`, `n >= 1`, `α ∈ (0, 1)`.
///
/// # Accuracy
/// [`crate::stats::cp_upper_outward`]: never below the exact bound, at most a relative `1e-8`
/// above it.
///
/// # Errors
/// Propagates the parameter errors of [`crate::stats::cp_upper_outward`].
///
/// # Example
/// ```
/// let hi = dpbai::audit::ci::upper(0, 100, 0.05).unwrap();
/// assert!(hi >= 1.0 - 0.05f64.powf(0.01) && (hi - (1.0 - 0.05f64.powf(0.01))).abs() < 1e-12);
/// ```
pub fn upper(k: u64, n: u64, alpha: f64) -> Result<f64> {
    crate::stats::cp_upper_outward(k, n, alpha)
}

/// The Bonferroni share `α/m`, rounded down: the largest double `q <= α/m` (the union bound
/// over `m` tests at `q` each stays `<= α` in exact arithmetic).
///
/// # Example
/// ```
/// let q = dpbai::audit::ci::share(1e-3, 3);
/// assert!(q * 3.0 <= 1e-3 && q > 3.33e-4);
/// ```
pub fn share(alpha: f64, m: u64) -> f64 {
    let mf = m.max(1) as f64;
    let q = alpha / mf;
    // q·m − α exactly (m < 2^53): positive means q was rounded up.
    if q.mul_add(mf, -alpha) > 0.0 {
        crate::float::next_down(q)
    } else {
        q
    }
}
