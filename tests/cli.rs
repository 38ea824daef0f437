//! End-to-end tests of the `dpbai` binary: exit codes, one-line errors, `verify`.

use crate::common::run_cli;
use std::path::PathBuf;

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dpbai-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn unknown_subcommand_is_usage_error() {
    let (code, _out, err) = run_cli(&["no-such-command"]);
    assert_eq!(code, 2);
    assert_eq!(err.trim().lines().count(), 1, "one-line error: {err}");
}

#[test]
fn verify_writes_report_blocks_and_is_reproducible() {
    let dir = temp_dir("verify");
    let d = dir.to_str().expect("utf-8 path");
    let (code, out, err) = run_cli(&["verify", "--no-experiments", "--out-dir", d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("claims checked"));
    let first = std::fs::read_to_string(dir.join("REPORT.md")).expect("REPORT.md written");
    assert!(first.contains("<!-- BEGIN GENERATED claims -->"));
    assert!(first.contains("| F.1 |"));
    let (code2, _, _) = run_cli(&["verify", "--no-experiments", "--out-dir", d]);
    assert_eq!(code2, 0);
    let second = std::fs::read_to_string(dir.join("REPORT.md")).expect("REPORT.md rewritten");
    assert_eq!(
        first, second,
        "verify must regenerate REPORT.md byte for byte"
    );
}

#[test]
fn verify_check_fails_on_a_changed_verdict() {
    let dir = temp_dir("check");
    let d = dir.to_str().expect("utf-8 path");
    let bad = dir.join("expected.toml");
    std::fs::write(&bad, "[independent]\n\"F.1\" = \"refuted\"\n[snapshot]\n")
        .expect("write expected");
    let (code, _out, err) = run_cli(&[
        "verify",
        "--no-experiments",
        "--out-dir",
        d,
        "--check",
        "--expected",
        bad.to_str().expect("utf-8"),
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("F.1: expected refuted, got confirmed"),
        "{err}"
    );
}

#[test]
fn verify_shard_rejects_bad_slices_and_combinations() {
    for args in [
        vec!["verify", "--shard", "2/2"],
        vec!["verify", "--shard", "x"],
        vec!["verify", "--shard", "0/2", "--no-experiments"],
        vec!["verify", "--shard", "0/2", "--check"],
    ] {
        let (code, _out, err) = run_cli(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}
