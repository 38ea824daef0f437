//! End-to-end tests of the `dpbai` binary: exit codes and one-line errors.

use crate::common::run_cli;

#[test]
fn unknown_subcommand_is_usage_error() {
    let (code, _out, err) = run_cli(&["no-such-command"]);
    assert_eq!(code, 2);
    assert_eq!(err.trim().lines().count(), 1, "one-line error: {err}");
}

#[test]
fn verify_runs_and_exits_zero() {
    let (code, out, _err) = run_cli(&["verify"]);
    assert_eq!(code, 0);
    assert!(!out.is_empty());
}
