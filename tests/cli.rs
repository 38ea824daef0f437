//! End-to-end tests of the `dpbai` binary: exit codes, one-line errors, `verify`.

use crate::common::{refused, run_cli};
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

/// `merge` refuses a shard file whose records were edited (digest mismatch), one whose records
/// are impossible even with a recomputed digest (τ beyond the cap, a recommendation that is not
/// an arm, an unstopped run below the cap), one without a digest, and, naming the field, one
/// whose metadata was edited (each field in turn) or that disagrees with the other shard.
#[test]
fn merge_refuses_edited_and_impossible_shards() {
    use dpbai::experiment::shard::ShardFile;
    let dir = temp_dir("tamper-shard");
    let files: Vec<PathBuf> = (0..2).map(|i| dir.join(format!("s{i}.json"))).collect();
    let write_shards = |extra: &[&str]| {
        for (i, f) in files.iter().enumerate() {
            let mut a = vec![
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
            ];
            a.extend(extra);
            let shard = format!("{i}/2");
            a.extend(["--shard", &shard, "--out", f.to_str().expect("utf-8")]);
            let (code, _, err) = run_cli(&a);
            assert_eq!(code, 0, "{err}");
        }
    };
    write_shards(&[]);
    let paths: Vec<&str> = files.iter().map(|p| p.to_str().expect("utf-8")).collect();
    let (code, _, err) = run_cli(&["merge", paths[0], paths[1]]);
    assert_eq!(code, 0, "clean shards merge: {err}");
    let clean = std::fs::read_to_string(&files[1]).expect("shard");
    let parsed: serde_json::Value = serde_json::from_str(&clean).expect("json");
    let refused = |v: &serde_json::Value| {
        std::fs::write(&files[1], v.to_string()).expect("write");
        let (code, _, err) = run_cli(&["merge", paths[0], paths[1]]);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("s1.json"), "names the file: {err}");
        err
    };
    // An edit with the content digest recomputed, as a careful forger would.
    let redigest = |v: &mut serde_json::Value| {
        let f: ShardFile = serde_json::from_value(v.clone()).expect("a shard file");
        v["digest"] = serde_json::json!(f.content_digest());
    };
    let edit = |f: &dyn Fn(&mut serde_json::Value), redo: bool| {
        let mut v = parsed.clone();
        f(&mut v["records"][0]);
        if redo {
            redigest(&mut v);
        }
        refused(&v)
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
    refused(&v);
    // Each metadata field, edited (digest recomputed): refused, the field named.
    for (field, value) in [
        ("means", serde_json::json!([0.7, 0.55, 0.5, 0.35])),
        ("best_arm", serde_json::json!(2)),
        ("delta", serde_json::json!(0.2)),
        ("seed", serde_json::json!(4)),
        ("algo", serde_json::json!("dpa-tt")),
        ("sigma", serde_json::json!(0.5)),
        ("runs", serde_json::json!(8)),
        ("max_steps", serde_json::json!(300)),
        ("rules", serde_json::json!("reference")),
    ] {
        let mut v = parsed.clone();
        v["meta"][field] = value;
        redigest(&mut v);
        let e = refused(&v);
        assert!(e.contains(&format!("`{field}`")), "{field}: {e}");
    }
    // The specification edited with the metadata: its digest no longer matches.
    let mut v = parsed.clone();
    v["meta"]["seed"] = serde_json::json!(4);
    v["spec"]["seed"] = serde_json::json!(4);
    redigest(&mut v);
    let e = refused(&v);
    assert!(e.contains("specification has digest"), "{e}");
    // elapsed_s negative.
    let mut v = parsed.clone();
    v["elapsed_s"] = serde_json::json!(-1.0);
    redigest(&mut v);
    let e = refused(&v);
    assert!(e.contains("elapsed_s"), "{e}");
    // Shards of two experiments: the differing field named.
    let s0 = std::fs::read_to_string(&files[0]).expect("shard 0");
    write_shards(&["--beta", "0.4"]);
    std::fs::write(&files[0], s0).expect("restore shard 0 of the first experiment");
    let (code, _, err) = run_cli(&["merge", paths[0], paths[1]]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("`beta`") && err.contains("another experiment"),
        "{err}"
    );
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
    // Two runs cannot certify a rate against δ = 1e-300: `inconclusive`, exit code 3.
    assert_eq!(code, 3, "{err}");
    assert!(out.contains(" 1e-300 "), "{out}");
    assert!(out.lines().all(|l| l.len() < 200), "{out}");
}

/// `dpbai run --json` as a JSON value (exit 0 asserted).
fn run_json(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["run"];
    a.extend(args);
    a.push("--json");
    let (code, out, err) = run_cli(&a);
    assert_eq!(code, 0, "{a:?}: {err}");
    serde_json::from_str(&out).expect("dpbai run --json")
}

/// `--engine per-sample` is `--step-by-step` (the same cell and runs), other runs than the
/// default phase engine's; a bad value or both flags together exit 2 naming the option.
#[test]
fn run_engine_names_the_two_simulations() {
    let base = [
        "--algo",
        "adap-tt",
        "--means",
        "0.9,0.6,0.5",
        "--eps",
        "1",
        "--delta",
        "0.1",
        "--runs",
        "6",
        "--seed",
        "11",
    ];
    let with = |extra: &[&'static str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        run_json(&a)
    };
    let per = with(&["--engine", "per-sample"]);
    let old = with(&["--step-by-step"]);
    let phase = with(&["--engine", "phase"]);
    let default = with(&[]);
    for key in ["cell", "mean_tau", "total_samples"] {
        assert_eq!(per[key], old[key], "{key}");
        assert_eq!(phase[key], default[key], "{key}");
    }
    assert_ne!(per["cell"], phase["cell"]);
    assert_ne!(per["total_samples"], phase["total_samples"]);
    let mut bad = vec!["run"];
    bad.extend_from_slice(&base);
    bad.extend_from_slice(&["--engine", "fast"]);
    refused(run_cli(&bad), &["fast", "--engine", "per-sample"]);
    let mut both = vec!["run"];
    both.extend_from_slice(&base);
    both.extend_from_slice(&["--engine", "per-sample", "--step-by-step"]);
    refused(run_cli(&both), &["--engine", "--step-by-step"]);
}

#[test]
fn run_threshold_equals_audit_delta_with_the_same_threshold() {
    // `audit delta --seed S` draws the runs of its single instance from seed mix64(S); `dpbai
    // run --seed mix64(S)` with the same threshold must then give the same runs.
    let audit_seed = 5u64;
    let run_seed = dpbai::rng::mix64(audit_seed).to_string();
    let cases: [(&[&str], &str); 3] = [
        (
            &["--algo", "ttucb", "--means", "0.9,0.6,0.5"],
            "log((1 + log(t))/delta)",
        ),
        (
            &["--algo", "adap-tt", "--means", "0.9,0.4", "--eps", "1"],
            "paper-adap-tt",
        ),
        (
            &[
                "--algo",
                "ttucb",
                "--means",
                "1,0.2,0",
                "--family",
                "gaussian",
                "--sigma",
                "0.5",
                "--rules",
                "reference",
            ],
            "ref-ttucb",
        ),
    ];
    for (setting, thr) in cases {
        let common = ["--delta", "0.1", "--runs", "150", "--max-steps", "1000000"];
        let mut a: Vec<&str> = setting.to_vec();
        a.extend(common);
        a.extend(["--threshold", thr, "--seed", &run_seed]);
        let run = run_json(&a);
        // Recorded in the run's metadata, shell-quoted when it holds characters the shell reads.
        let shown = if thr.contains('(') {
            format!("--threshold '{thr}'")
        } else {
            format!("--threshold {thr}")
        };
        assert_eq!(run["options"], serde_json::json!([shown]), "{thr}");
        let seed = audit_seed.to_string();
        let mut b = vec!["audit", "delta"];
        b.extend(setting);
        b.extend(common);
        b.extend(["--threshold", thr, "--seed", &seed, "--json"]);
        let (code, out, err) = run_cli(&b);
        assert_eq!(code, 0, "{b:?}: {err}");
        let audit: serde_json::Value = serde_json::from_str(&out).expect("audit json");
        let row = &audit["instances"][0];
        assert_eq!(run["errors"], row["errors"], "{thr}");
        assert_eq!(run["unstopped"], row["unstopped"], "{thr}");
        assert_eq!(run["max_tau"], row["max_tau"], "{thr}");
        assert_eq!(
            run["mean_tau_stopped"].as_f64(),
            row["mean_tau"].as_f64(),
            "{thr}"
        );
    }
}

#[test]
fn run_threshold_paper_cg_is_ttucbs_own_threshold() {
    // paper-cg is Eq. (4), the threshold TTUCB uses: the per-run outcomes must not change.
    let dir = temp_dir("thr-cg");
    let csv = |name: &str, extra: &[&str]| {
        let p = dir.join(name);
        let mut a = vec![
            "run",
            "--algo",
            "ttucb",
            "--means",
            "0.8,0.6,0.5,0.3",
            "--delta",
            "0.05",
            "--runs",
            "300",
            "--seed",
            "11",
            "--out",
        ];
        let ps = p.to_str().expect("utf-8").to_string();
        a.push(&ps);
        a.extend(extra);
        let (code, _, err) = run_cli(&a);
        assert_eq!(code, 0, "{err}");
        std::fs::read_to_string(&p).expect("per-run csv")
    };
    let own = csv("own.csv", &[]);
    assert_eq!(own, csv("cg.csv", &["--threshold", "paper-cg"]));
    // A looser threshold does change them (the comparison can fail).
    assert_ne!(own, csv("loose.csv", &["--threshold", "log(1/delta)/20"]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_refuses_bad_and_non_finite_thresholds() {
    let base = [
        "run",
        "--algo",
        "ttucb",
        "--means",
        "0.9,0.6,0.5",
        "--delta",
        "0.1",
        "--runs",
        "20",
        "--seed",
        "3",
        "--threshold",
    ];
    // (expression, text the message must contain): a syntax error, a non-finite value at the
    // start-up probe, and one the probe misses (t = 5 is not a probe point) met during the runs.
    let cases = [
        ("log(1/deta)", "unknown variable 'deta'"),
        ("log(t - 100)", "is NaN at t = 3"),
        ("0/(t-5) + log(1/delta)", "is NaN at t = 5"),
    ];
    for (expr, needle) in cases {
        let mut a = base.to_vec();
        a.push(expr);
        let (code, out, err) = run_cli(&a);
        assert_eq!(code, 2, "{expr}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
        assert!(err.contains(expr) && err.contains(needle), "{expr}: {err}");
        assert!(out.is_empty(), "no report for a refused threshold: {out}");
    }
}

/// `--max-steps` takes a count as an integer or in exact scientific notation (as the help's
/// defaults are written); anything else is a one-line usage error with exit code 2.
#[test]
fn max_steps_accepts_scientific_notation() {
    let base = [
        "run",
        "--algo",
        "eb-tci",
        "--means",
        "0.9,0.1",
        "--delta",
        "0.1",
        "--runs",
        "2",
        "--seed",
        "0",
        "--json",
        "--max-steps",
    ];
    for (v, want) in [("1e3", 1000), ("2_000", 2000), ("1500", 1500)] {
        let args: Vec<&str> = base.iter().copied().chain([v]).collect();
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 0, "{v}: {err}");
        let j: serde_json::Value = serde_json::from_str(&out).expect("json");
        assert_eq!(j["max_steps"], want, "{v}");
    }
    for v in ["1.5", "-3", "1e30", "abc"] {
        let args: Vec<&str> = base.iter().copied().chain([v]).collect();
        let (code, _, err) = run_cli(&args);
        assert_eq!(code, 2, "{v}");
        assert!(
            err.contains("is not a count") && err.lines().count() == 1,
            "{v}: {err}"
        );
    }
}
