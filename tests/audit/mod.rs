//! Integration tests for `audit`: threshold expressions and presets, the δ-correctness verdict
//! logic at the binomial edges, exact privacy losses, and the `dpbai audit` command line.

mod cli;
mod delta;
mod dp;
mod expr;
mod search;

use dpbai::bandit::ThresholdVars;

pub(crate) fn vars(
    delta: f64,
    k: f64,
    eps: f64,
    sigma: f64,
    na: f64,
    nb: f64,
    gap: f64,
) -> ThresholdVars {
    ThresholdVars {
        delta,
        k,
        eps,
        sigma,
        t: na + nb,
        na,
        nb,
        ka: 1.0,
        kb: 1.0,
        gap,
    }
}

pub(crate) fn assert_usage_error(args: &[&str], needle: &str) {
    let (code, out, err) = crate::common::run_cli(args);
    assert_eq!(code, 2, "{args:?}: stdout {out} stderr {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line expected: {err}"
    );
    assert!(
        err.contains(needle),
        "{args:?}: {err} should contain {needle}"
    );
}
