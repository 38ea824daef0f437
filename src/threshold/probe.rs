//! Non-finite thresholds are errors, never runs to the cap (R.12).
//!
//! A user threshold ([`crate::threshold::expr::ThresholdExpr`]) that evaluates to NaN or ±∞ would
//! make every run grind on to the step cap (NaN compares false) or stop at once. [`probe`]
//! evaluates it at start-up on a fixed set of points `(t, na, nb, ka, kb, gap)`; [`Checked`]
//! keeps checking during the runs: the first non-finite value is recorded and ends the run
//! (the threshold then reads `−∞`, so the run stops at its next test), and
//! [`Checked::failure`] turns it into an error naming the expression and the point.

use crate::error::{Error, Result};
use crate::threshold::expr::ThresholdExpr;
use crate::threshold::{CustomThreshold, ThresholdVars};
use std::sync::{Arc, OnceLock};

pub(crate) fn describe(src: &str, v: &ThresholdVars, value: f64) -> Error {
    Error::Threshold {
        expr: src.to_string(),
        value,
        point: format!(
            "t = {}, na = {}, nb = {}, ka = {}, kb = {}, gap = {} (delta = {}, K = {}, eps = {}, \
             sigma = {})",
            v.t, v.na, v.nb, v.ka, v.kb, v.gap, v.delta, v.k, v.eps, v.sigma
        ),
    }
}

/// The start-up probe points `(t, na, nb, gap)` (`ka`, `kb` = `k(na)`, `k(nb)` and 1).
pub const PROBE_COUNTS: [f64; 5] = [1.0, 2.0, 37.0, 1e4, 1e9];
/// The gaps of the probe.
pub const PROBE_GAPS: [f64; 4] = [0.0, 1e-3, 0.25, 1.0];

/// Evaluates `f` on the probe set with the constants of `base` (`δ, K, ε, σ`).
///
/// # Errors
/// [`Error::Threshold`] naming the expression `src` and the first point with a non-finite value.
pub fn probe(src: &str, f: &dyn CustomThreshold, base: &ThresholdVars) -> Result<()> {
    for &na in &PROBE_COUNTS {
        for &nb in &PROBE_COUNTS {
            let t = (na + nb).max(base.k);
            for &gap in &PROBE_GAPS {
                for (ka, kb) in [(1.0, 1.0), (na.log2() + 2.0, nb.log2() + 2.0)] {
                    let v = ThresholdVars {
                        t,
                        na,
                        nb,
                        ka,
                        kb,
                        gap,
                        ..*base
                    };
                    let value = f.eval(&v);
                    if !value.is_finite() {
                        return Err(describe(src, &v, value));
                    }
                }
            }
        }
    }
    Ok(())
}

/// A threshold that records its first non-finite value (see the module docs).
#[derive(Debug)]
pub struct Checked<F> {
    inner: F,
    src: String,
    bad: OnceLock<(ThresholdVars, f64)>,
}

impl<F: CustomThreshold> Checked<F> {
    /// Wraps `inner`, whose text is `src`.
    pub fn new(inner: F, src: impl Into<String>) -> Self {
        Checked {
            inner,
            src: src.into(),
            bad: OnceLock::new(),
        }
    }

    /// The wrapped threshold.
    pub fn inner(&self) -> &F {
        &self.inner
    }

    /// The error for the first non-finite value met so far, if any.
    pub fn failure(&self) -> Option<Error> {
        self.bad.get().map(|(v, x)| describe(&self.src, v, *x))
    }
}

impl<F: CustomThreshold> CustomThreshold for Checked<F> {
    #[inline]
    fn eval(&self, v: &ThresholdVars) -> f64 {
        let x = self.inner.eval(v);
        if x.is_finite() {
            x
        } else {
            let _ = self.bad.set((*v, x));
            f64::NEG_INFINITY
        }
    }

    /// The wrapped threshold's bound (so the engine's quick rejection survives the check); a
    /// non-finite bound is replaced by `−∞` (no skipping).
    #[inline]
    fn lower_bound(&self, base: &ThresholdVars) -> f64 {
        let b = self.inner.lower_bound(base);
        if b.is_finite() { b } else { f64::NEG_INFINITY }
    }

    /// The wrapped threshold's bound after `v`; a non-finite bound is replaced by `−∞`.
    #[inline]
    fn lower_bound_after(&self, v: &ThresholdVars) -> f64 {
        let b = self.inner.lower_bound_after(v);
        if b.is_finite() { b } else { f64::NEG_INFINITY }
    }

    fn reads_time(&self) -> bool {
        self.inner.reads_time()
    }
}

/// A user threshold bound to one run's constants, checking its values during the runs
/// ([`Checked::failure`] must be read after the runs: a non-finite value ends them).
pub type CheckedThreshold = Arc<Checked<ThresholdExpr>>;

/// Binds `expr` to the constants a run passes to its threshold (`base`: `δ`, `K`, `ε` or `+∞`,
/// and the `σ` the rule reads, as `crate::bandit::algos::threshold_constants` gives them),
/// probes it there for non-finite values ([`probe`]) and wraps it in the in-run check
/// ([`Checked`]). The one binding of user thresholds, shared by `dpbai run --threshold`,
/// `dpbai experiment` and `dpbai audit delta --threshold`.
///
/// # Errors
/// Those of [`ThresholdExpr::bind`], and [`Error::Threshold`] naming the expression and the first
/// probe point with a non-finite value (with the constants the runs use).
pub fn bind_checked(expr: &ThresholdExpr, base: &ThresholdVars) -> Result<CheckedThreshold> {
    let bound = expr.bind(base.delta, base.k, base.eps, base.sigma)?;
    let base = ThresholdVars {
        delta: base.delta,
        k: base.k,
        eps: base.eps,
        sigma: base.sigma,
        ..Default::default()
    };
    probe(expr.source(), &bound, &base)?;
    Ok(Arc::new(Checked::new(bound, expr.source())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::threshold::expr::parse_threshold;

    fn base() -> ThresholdVars {
        ThresholdVars {
            delta: 0.1,
            k: 4.0,
            eps: f64::INFINITY,
            sigma: 0.5,
            ..Default::default()
        }
    }

    #[test]
    fn probe_rejects_non_finite_and_names_the_point() {
        for src in ["1/0", "sqrt(-1)", "zeta(1)", "k(0)", "log(t - 5)", "1/gap"] {
            let e = parse_threshold(src).expect("parses");
            let err = probe(src, &e, &base()).expect_err(src);
            // Its own variant (not a parse error): the expression, the value and the point.
            match &err {
                Error::Threshold { expr, value, point } => {
                    assert_eq!(expr, src);
                    assert!(!value.is_finite(), "{value}");
                    assert!(point.starts_with("t = ") && point.contains("delta = 0.1"));
                }
                other => panic!("{src}: {other:?}"),
            }
            let err = err.to_string();
            assert!(err.contains(src) && err.contains("at t = "), "{err}");
        }
        let ok = parse_threshold("log(1/delta) + 2*log(4 + log(na))").expect("parses");
        assert!(probe("ok", &ok, &base()).is_ok());
    }

    #[test]
    fn checked_records_the_first_failure() {
        let e = parse_threshold("log(t - 100)").expect("parses");
        let c = Checked::new(e, "log(t - 100)");
        let mut v = base();
        v.t = 1000.0;
        assert!(c.eval(&v).is_finite() && c.failure().is_none());
        v.t = 50.0;
        assert_eq!(c.eval(&v), f64::NEG_INFINITY);
        assert!(
            c.failure()
                .expect("recorded")
                .to_string()
                .contains("t = 50")
        );
    }
}
