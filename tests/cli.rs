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

/// ISSUE 12: `merge` refuses a shard file whose records were edited (digest mismatch), and one
/// whose records are impossible even with a matching digest (τ beyond the cap, a
/// recommendation that is not an arm, an unstopped run below the cap).
#[test]
fn merge_refuses_edited_and_impossible_shards() {
    let dir = temp_dir("tamper-shard");
    let files: Vec<PathBuf> = (0..2).map(|i| dir.join(format!("s{i}.json"))).collect();
    for (i, f) in files.iter().enumerate() {
        let (code, _, err) = run_cli(&[
            "run",
            "--algo",
            "ttucb",
            "--means",
            "0.7,0.55,0.5,0.3",
            "--delta",
            "0.1",
            "--runs",
            "6",
            "--seed",
            "3",
            "--max-steps",
            "200",
            "--shard",
            &format!("{i}/2"),
            "--out",
            f.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let paths: Vec<&str> = files.iter().map(|p| p.to_str().expect("utf-8")).collect();
    let (code, _, err) = run_cli(&["merge", paths[0], paths[1]]);
    assert_eq!(code, 0, "clean shards merge: {err}");
    let clean = std::fs::read_to_string(&files[1]).expect("shard");
    let parsed: serde_json::Value = serde_json::from_str(&clean).expect("json");
    let edit = |f: &dyn Fn(&mut serde_json::Value), redigest: bool| {
        let mut v = parsed.clone();
        f(&mut v["records"][0]);
        if redigest {
            let recs: Vec<dpbai::mc::RunRecord> =
                serde_json::from_value(v["records"].clone()).expect("records");
            v["digest"] = serde_json::json!(dpbai::mc::records_digest(&recs));
        }
        std::fs::write(&files[1], v.to_string()).expect("write");
        let (code, _, err) = run_cli(&["merge", paths[0], paths[1]]);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("s1.json"), "names the file: {err}");
        err
    };
    let tau = parsed["records"][0]["tau"].as_u64().expect("tau");
    let e = edit(&|r| r["tau"] = serde_json::json!(tau + 1), false);
    assert!(e.contains("digest"), "{e}");
    let e = edit(&|r| r["recommendation"] = serde_json::json!(98), true);
    assert!(e.contains("impossible") && e.contains("99"), "{e}");
    let e = edit(
        &|r| {
            r["tau"] = serde_json::json!(1000);
            r["stopped"] = serde_json::json!(true);
        },
        true,
    );
    assert!(e.contains("max_steps"), "{e}");
    let e = edit(
        &|r| {
            r["tau"] = serde_json::json!(10);
            r["stopped"] = serde_json::json!(false);
        },
        true,
    );
    assert!(e.contains("unstopped"), "{e}");
    let mut v = parsed.clone();
    v.as_object_mut().expect("object").remove("digest");
    std::fs::write(&files[1], v.to_string()).expect("write");
    let (code, _, err) = run_cli(&["merge", paths[0], paths[1]]);
    assert_eq!(code, 2, "a shard without a digest is refused: {err}");
}

/// `dpbai … | head` closes the pipe early: the process must end quietly (killed by SIGPIPE, as
/// Unix filters are), not panic on the failed write.
#[cfg(unix)]
#[test]
fn closed_stdout_pipe_does_not_panic() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    let mut child = std::process::Command::new(crate::common::dpbai_bin())
        .args([
            "bounds",
            "--means",
            "0.9,0.5",
            "--eps-grid",
            "0.001:10:20000",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn dpbai");
    let mut first = [0u8; 16];
    child
        .stdout
        .take()
        .expect("piped stdout")
        .read_exact(&mut first)
        .expect("some output"); // the reader is dropped here: the pipe is closed
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    assert_ne!(out.status.code(), Some(101), "exit status {:?}", out.status);
    assert!(
        out.status.success() || out.status.signal() == Some(13),
        "status {:?}",
        out.status
    );
}

/// A tiny δ is written in exponent form in the audit table, not as 300 digits.
#[test]
fn audit_table_writes_tiny_delta_compactly() {
    let (code, out, err) = run_cli(&[
        "audit",
        "delta",
        "--algo",
        "ttucb",
        "--means",
        "0.6,0.4",
        "--delta",
        "1e-300",
        "--runs",
        "2",
        "--max-steps",
        "100000",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(" 1e-300 "), "{out}");
    assert!(out.lines().all(|l| l.len() < 200), "{out}");
}
