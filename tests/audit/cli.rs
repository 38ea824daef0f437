//! `dpbai audit` on the command line: bad input is a one-line error with exit code 2.

use super::assert_usage_error;
use dpbai::threshold::expr::PRESETS;

// ------------------------------------------------------------------------------------------
// Command line: bad input is a one-line error with exit code 2

#[test]
fn cli_bad_input_exits_2_with_one_line() {
    let base = [
        "audit", "delta", "--algo", "ttucb", "--means", "0.5,0.4", "--delta", "0.1",
    ];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut v: Vec<&'static str> = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    assert_usage_error(
        &with(&["--threshold", "log(1/deta)"]),
        "unknown variable 'deta' at column 7",
    );
    assert_usage_error(
        &with(&["--threshold", "log(1/delta"]),
        "or ')' in the call of log, found end of expression at column 12",
    );
    assert_usage_error(
        &with(&["--threshold", "foo(delta)"]),
        "unknown function 'foo'",
    );
    assert_usage_error(&with(&["--runs", "0"]), "runs = 0");
    assert_usage_error(&with(&["--until-decided", "--budget", "0"]), "budget = 0");
    assert_usage_error(&with(&["--alpha", "0"]), "alpha");
    assert_usage_error(
        &[
            "audit", "delta", "--algo", "ttucb", "--means", "0.5,0.4", "--delta", "1.5",
        ],
        "delta = 1.5",
    );
    assert_usage_error(
        &[
            "audit", "delta", "--algo", "ttucb", "--means", "0.5,0.5", "--delta", "0.1",
        ],
        "not unique",
    );
    assert_usage_error(
        &["audit", "delta", "--algo", "ttucb", "--delta", "0.1"],
        "--means",
    );
}

#[test]
fn cli_lists_presets() {
    let (code, out, _) = crate::common::run_cli(&["audit", "delta", "--list-presets"]);
    assert_eq!(code, 0);
    for p in PRESETS {
        assert!(out.contains(p.name));
    }
}
