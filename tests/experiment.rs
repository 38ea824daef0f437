//! `dpbai experiment`: a study file run as verify's cells — reproduction of a cell
//! by `dpbai run`, the lower-bound column against `dpbai bounds`, resume and shards giving the
//! same bytes, verify's grid as a study, refused configs.

use crate::common::run_cli;
use std::path::{Path, PathBuf};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dpbai-experiment-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A small study: every privacy setting, a Gaussian instance, two δ.
const SMALL: &str = r#"
title = "small"
runs = 6
max-steps = 2_000_000
delta = [0.1, 0.01]
eps = [0.5, 2.0]
[[instance]]
name = "four"
means = [0.8, 0.6, 0.5, 0.3]
[[instance]]
name = "g"
family = "gaussian"
sigma = 0.5
means = [1.0, 0.4, 0.0]
[[algorithm]]
algo = "ttucb"
[[algorithm]]
algo = "dp-se"
[[algorithm]]
algo = "ctb-tt"
instances = ["four"]
[[algorithm]]
algo = "adap-tt-star"
beta = 0.4
"#;

fn write_config(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("study.toml");
    std::fs::write(&p, text).expect("write config");
    p
}

fn experiment(config: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "experiment",
        config.to_str().expect("utf-8"),
        "--out-dir",
        out.to_str().expect("utf-8"),
    ];
    if !extra.contains(&"--threads") {
        args.extend(["--threads", "2"]);
    }
    args.extend(extra);
    let (code, stdout, stderr) = run_cli(&args);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

fn rows(out: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_path(out.join("results.csv")).expect("results.csv");
    let head: Vec<String> = r
        .headers()
        .expect("header")
        .iter()
        .map(String::from)
        .collect();
    r.records()
        .map(|rec| {
            let rec = rec.expect("row");
            head.iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Every output file (results.csv, SUMMARY.md, figures/*), path → bytes.
fn outputs(out: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = vec![
        (
            "results.csv".to_string(),
            std::fs::read(out.join("results.csv")).expect("csv"),
        ),
        (
            "SUMMARY.md".to_string(),
            std::fs::read(out.join("SUMMARY.md")).expect("md"),
        ),
    ];
    let mut figs: Vec<PathBuf> = std::fs::read_dir(out.join("figures"))
        .expect("figures")
        .map(|e| e.expect("entry").path())
        .collect();
    figs.sort();
    for f in figs {
        let name = f.file_name().expect("name").to_string_lossy().to_string();
        files.push((name, std::fs::read(&f).expect("figure")));
    }
    files
}

#[test]
fn a_cell_is_reproduced_by_dpbai_run_and_its_lower_bound_is_dpbai_bounds() {
    let dir = temp_dir("repro");
    let cfg = write_config(&dir, SMALL);
    experiment(&cfg, &dir.join("out"), &[]);
    let rows = rows(&dir.join("out"));
    // 4 ε-cells × 2 δ × 3 private algorithms on `four` + ttucb, and the Gaussian instance.
    assert_eq!(rows.len(), 2 * (1 + 2 + 2 + 2) + 2 * (1 + 2 + 2));
    let figs = outputs(&dir.join("out"));
    for stem in [
        "four_delta0.1",
        "four_delta0.01",
        "g_delta0.1",
        "g_delta0.01",
    ] {
        for ext in ["png", "svg", "json"] {
            let f = format!("{stem}.{ext}");
            assert!(figs.iter().any(|(n, _)| *n == f), "{f} missing");
        }
    }
    // One row per privacy setting (and the Gaussian instance, and a non-default β) rerun
    // through the CLI with its recorded seed.
    let picks = [
        ("four", "ctb-tt", "0.01"),
        ("four", "adap-tt-star", "0.1"),
        ("four", "ttucb", "0.01"),
        ("g", "dp-se", "0.1"),
    ];
    for (inst, algo, delta) in picks {
        let row = rows
            .iter()
            .find(|r| r["instance"] == inst && r["algo"] == algo && r["delta"] == delta)
            .expect("row present");
        let cmd = &row["run_command"];
        let mut args: Vec<&str> = cmd
            .strip_prefix("dpbai ")
            .expect("dpbai command")
            .split(' ')
            .collect();
        assert!(args.contains(&"--seed") && args.contains(&row["seed"].as_str()));
        args.push("--json");
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 0, "{cmd}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("json");
        let mean = v["summary"]["mean_tau"]
            .as_f64()
            .or_else(|| v["mean_tau"].as_f64())
            .expect("mean_tau in dpbai run --json");
        let errors = v["summary"]["errors"]
            .as_u64()
            .or_else(|| v["errors"].as_u64())
            .expect("errors");
        assert_eq!(mean, row["mean_tau"].parse::<f64>().expect("mean"), "{cmd}");
        assert_eq!(errors.to_string(), row["errors"], "{cmd}");

        // The lower bound equals `dpbai bounds` × log(1/(2.4δ)) (its sample_lower_bounds).
        let means = cmd
            .split("--means ")
            .nth(1)
            .expect("means")
            .split(' ')
            .next()
            .expect("m");
        let mut b = vec!["bounds", "--means", means, "--delta", delta, "--json"];
        if inst == "g" {
            b.extend(["--family", "gaussian", "--sigma", "0.5"]);
        }
        if !row["eps"].is_empty() {
            b.extend(["--eps", row["eps"].as_str()]);
        }
        let (code, out, err) = run_cli(&b);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("bounds json");
        let key = match row["lower_bound_kind"].as_str() {
            "non-private" => "non_private",
            k => k,
        };
        let want = v["sample_lower_bounds"][key].as_f64().expect("bound");
        let got: f64 = row["lower_bound"].parse().expect("lower bound");
        assert!(
            ((got - want) / want).abs() <= 1e-12,
            "{inst} {algo}: {got} vs dpbai bounds {want}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A study with user thresholds: an expression (with spaces, so `run_command` must quote it)
/// and a preset, beside the algorithm's own threshold.
const THRESHOLDS: &str = r#"
runs = 8
max-steps = 2_000_000
delta = 0.1
eps = [1.0]
[[instance]]
name = "three"
means = [0.9, 0.6, 0.5]
[[algorithm]]
algo = "ttucb"
[[algorithm]]
algo = "ttucb"
label = "ttucb, log-over-4"
threshold = "log((1 + log(t))/delta) / 4"
[[algorithm]]
algo = "adap-tt"
label = "adap-tt, reference threshold"
threshold = "ref-adap-tt"
"#;

#[test]
fn a_threshold_cell_is_reproduced_by_its_run_command() {
    let dir = temp_dir("thr");
    let cfg = write_config(&dir, THRESHOLDS);
    experiment(&cfg, &dir.join("out"), &[]);
    let rows = rows(&dir.join("out"));
    assert_eq!(rows.len(), 3);
    let own = rows
        .iter()
        .find(|r| !r["run_command"].contains("--threshold"))
        .expect("the default cell");
    assert!(
        !own["key"].contains("-thr"),
        "no suffix without a threshold"
    );
    let mut means = Vec::new();
    for row in rows
        .iter()
        .filter(|r| r["run_command"].contains("--threshold"))
    {
        assert!(row["key"].contains("-thr"), "{}", row["key"]);
        // The theorems bound the paper's thresholds, not a user's: no upper bound.
        assert_eq!(row["upper_bound"], "", "{}", row["key"]);
        assert_eq!(row["upper_bound_kind"], "", "{}", row["key"]);
        // The command is run by a POSIX shell exactly as written (quoting included).
        let cmd = &row["run_command"];
        let rest = cmd.strip_prefix("dpbai ").expect("dpbai command");
        let bin = crate::common::dpbai_bin();
        let line = format!("'{}' {rest} --json", bin.display());
        let out = std::process::Command::new("sh")
            .args(["-c", &line])
            .output()
            .expect("sh runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{cmd}: {err}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(
            v["mean_tau"].as_f64(),
            Some(row["mean_tau"].parse::<f64>().expect("mean")),
            "{cmd}"
        );
        assert_eq!(v["errors"].to_string(), row["errors"], "{cmd}");
        assert!(
            v["options"][0]
                .as_str()
                .expect("options")
                .starts_with("--threshold ")
        );
        means.push(row["mean_tau"].clone());
    }
    assert_eq!(means.len(), 2);
    // log(...)/4 stops TTUCB sooner than its own threshold on these seeds' runs.
    let own_mean: f64 = own["mean_tau"].parse().expect("mean");
    let quarter = rows
        .iter()
        .find(|r| r["run_command"].contains("/ 4"))
        .expect("the /4 cell");
    assert!(quarter["mean_tau"].parse::<f64>().expect("mean") < own_mean);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resumed_and_sharded_runs_write_the_same_bytes() {
    let dir = temp_dir("resume");
    let cfg = write_config(&dir, SMALL);
    let whole = dir.join("whole");
    let said = experiment(&cfg, &whole, &[]);
    assert!(said.contains("0 from the cache"), "{said}");
    // An interrupted run: half of the finished cells' cache files are there.
    let resumed = dir.join("resumed");
    std::fs::create_dir_all(resumed.join("cache")).expect("cache dir");
    let mut cells: Vec<PathBuf> = std::fs::read_dir(whole.join("cache"))
        .expect("cache")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    cells.sort();
    let half = cells.len() / 2;
    for p in &cells[..half] {
        std::fs::copy(p, resumed.join("cache").join(p.file_name().expect("name"))).expect("copy");
    }
    let said = experiment(&cfg, &resumed, &[]);
    assert!(
        said.contains(&format!(
            "({} computed, {half} from the cache)",
            cells.len() - half
        )),
        "{said}"
    );
    assert_eq!(outputs(&whole), outputs(&resumed), "resumed run differs");
    // Shards 0/2 and 1/2, then the assembly.
    let sharded = dir.join("sharded");
    for s in ["0/2", "1/2"] {
        experiment(&cfg, &sharded, &["--shard", s]);
    }
    assert!(
        !sharded.join("results.csv").exists(),
        "a shard writes no report"
    );
    let said = experiment(&cfg, &sharded, &["--threads", "1"]);
    assert!(said.contains("(0 computed"), "{said}");
    assert_eq!(outputs(&whole), outputs(&sharded), "sharded run differs");
    for p in &cells {
        let name = p.file_name().expect("name");
        assert_eq!(
            std::fs::read(p).expect("whole"),
            std::fs::read(sharded.join("cache").join(name)).expect("assembled"),
            "cache file {name:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn paper_global_preset_is_verifys_grid() {
    use dpbai::bandit::{AlgoName, Rules};
    use dpbai::claims::dp_bai::evidence;
    use dpbai::experiment::{Cell, run_cell};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/paper-global.toml");
    let text = std::fs::read_to_string(&path).expect("preset");
    let study = dpbai::experiment::study::parse_study(&text, "paper-global.toml").expect("valid");
    let quick = evidence::study("quick", None).expect("built-in study");
    let global = [
        AlgoName::Ttucb,
        AlgoName::DpSe,
        AlgoName::AdapTtStar,
        AlgoName::AdapTt,
    ];
    let mut want: Vec<_> = quick
        .cells
        .iter()
        .filter(|c| quick.algorithms[c.algorithm].group == "grid")
        .map(|c| c.cell.clone())
        .filter(|c| {
            c.setting.rules == Rules::Paper
                && global.contains(&c.setting.algo)
                && c.setting.delta.get() == 0.01
        })
        .collect();
    let mut got: Vec<_> = study.cells.iter().map(|c| c.cell.clone()).collect();
    let by_key = |a: &dpbai::experiment::Cell, b: &dpbai::experiment::Cell| a.key().cmp(&b.key());
    want.sort_by(by_key);
    got.sort_by(by_key);
    assert_eq!(got.len(), 6 * (1 + 3 * 7));
    assert_eq!(
        got, want,
        "the preset's cells are verify's (keys, seeds, runs, cap, settings)"
    );
    // Same results: the experiment at --runs 2 against verify's cells run directly.
    let dir = temp_dir("preset");
    experiment(&path, &dir.join("out"), &["--runs", "2"]);
    let rows = rows(&dir.join("out"));
    for (name, means) in evidence::paper_instances().into_iter().skip(3).take(1) {
        for (algo, eps) in [
            (AlgoName::Ttucb, None),
            (AlgoName::AdapTtStar, Some(0.2)),
            (AlgoName::DpSe, Some(1.0)),
        ] {
            let runs = if algo == AlgoName::Ttucb { 20 } else { 2 };
            let cell = Cell::paper(name, &means, algo, eps, 0.01, runs, 30_000_000).expect("valid");
            let r = run_cell(&cell, None, 1).expect("runs");
            let row = rows.iter().find(|r| r["key"] == cell.key()).expect("row");
            assert_eq!(row["seed"], r.seed.to_string());
            assert_eq!(row["runs"], r.summary.runs.to_string());
            assert_eq!(row["mean_tau"], r.summary.censored.mean.to_string());
            assert_eq!(row["errors"], r.summary.errors.to_string());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_configs_are_refused_naming_the_key() {
    let dir = temp_dir("bad");
    let cases: [(&str, String, &[&str]); 8] = [
        ("missing key", SMALL.replace("runs = 6\n", ""), &["runs"]),
        (
            "tied best arm",
            SMALL.replace("[0.8, 0.6, 0.5, 0.3]", "[0.8, 0.8, 0.5, 0.3]"),
            &["instance[0].means", "unique"],
        ),
        (
            "eps of 0",
            SMALL.replace("[0.5, 2.0]", "[0.0, 2.0]"),
            &["eps[0]", "(0, 1e300]"],
        ),
        (
            "misspelled algorithm",
            SMALL.replace("\"dp-se\"", "\"dp-sse\""),
            &["algorithm[1].algo", "dp-se"],
        ),
        (
            "unknown key",
            SMALL.replace("beta = 0.4", "betta = 0.4"),
            &["algorithm[3].betta", "beta"],
        ),
        (
            "bad option",
            SMALL.replace("beta = 0.4", "tie-break = \"random\""),
            &["algorithm[3].tie-break", "uniform"],
        ),
        (
            "bad threshold",
            SMALL.replace("beta = 0.4", "threshold = \"log(1/deta)\""),
            &["algorithm[3].threshold", "deta"],
        ),
        (
            "non-finite threshold",
            SMALL.replace("beta = 0.4", "threshold = \"1/(na - 1)\""),
            &["algorithm[3].threshold", "1/(na - 1)", "inf at"],
        ),
    ];
    for (what, text, needles) in cases {
        let cfg = write_config(&dir, &text);
        let (code, _, err) = run_cli(&[
            "experiment",
            cfg.to_str().expect("utf-8"),
            "--out-dir",
            dir.join("out").to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 2, "{what}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{what}: one line: {err}");
        for n in needles {
            assert!(err.contains(n), "{what}: {n:?} not in {err}");
        }
    }
    assert!(!dir.join("out").join("results.csv").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A study with one named instance, whose means, σ, a reading or the threshold text are then
/// edited in place (the name kept) and rerun in the same output folder: the edited cells are
/// recomputed and equal a fresh run of the edited study. There is no manifest to lose: with
/// none in the cache (as after a deleted `instances.txt`), the same holds.
#[test]
fn an_edited_instance_under_its_old_name_is_recomputed() {
    let dir = temp_dir("edit");
    let base = r#"
runs = 5
delta = 0.1
eps = [1.0]
[[instance]]
name = "x"
MEANS
[[algorithm]]
algo = "ttucb"
OPTION
[[algorithm]]
algo = "dp-se"
"#;
    let study = |means: &str, option: &str| base.replace("MEANS", means).replace("OPTION", option);
    let first = study("means = [0.8, 0.6, 0.5]", "");
    let edits = [
        ("means", study("means = [0.8, 0.65, 0.5]", "")),
        (
            "sigma",
            study(
                "family = \"gaussian\"\nsigma = 0.5\nmeans = [0.8, 0.6, 0.5]",
                "",
            ),
        ),
        (
            "sigma again",
            study(
                "family = \"gaussian\"\nsigma = 0.7\nmeans = [0.8, 0.6, 0.5]",
                "",
            ),
        ),
        (
            "reading",
            study("means = [0.8, 0.6, 0.5]", "tie-break = \"uniform\""),
        ),
        (
            "threshold",
            study("means = [0.8, 0.6, 0.5]", "threshold = \"log(1/delta)\""),
        ),
        (
            "threshold text",
            study("means = [0.8, 0.6, 0.5]", "threshold = \"log(2/delta)\""),
        ),
    ];
    let shared = dir.join("shared");
    let cfg = write_config(&dir, &first);
    experiment(&cfg, &shared, &[]);
    for (what, text) in edits {
        let cfg = write_config(&dir, &text);
        let _ = std::fs::remove_file(shared.join("cache").join("instances.txt"));
        let said = experiment(&cfg, &shared, &[]);
        assert!(
            !said.contains("(0 computed"),
            "{what}: the edited cells must be recomputed: {said}"
        );
        let fresh = dir.join(format!("fresh-{}", what.replace(' ', "-")));
        experiment(&cfg, &fresh, &[]);
        assert_eq!(
            outputs(&shared),
            outputs(&fresh),
            "{what}: the rerun in the shared folder equals a fresh run"
        );
        assert!(!shared.join("cache").join("instances.txt").exists());
    }
    // Back to the first study: every cell is still in the cache, none recomputed.
    let cfg = write_config(&dir, &first);
    let said = experiment(&cfg, &shared, &[]);
    assert!(said.contains("(0 computed"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Eight `dpbai experiment` processes at once, eight studies with eight different instances,
/// one output folder: no cell is lost (each study reruns from the cache alone), every cache file
/// is whole, and each study's results equal a solo run's.
#[test]
fn concurrent_runs_on_one_out_dir_lose_nothing() {
    let dir = temp_dir("concurrent");
    let shared = dir.join("shared");
    let configs: Vec<PathBuf> = (0..8)
        .map(|i| {
            let d = dir.join(format!("s{i}"));
            std::fs::create_dir_all(&d).expect("dir");
            let text = format!(
                "runs = 4\ndelta = 0.1\n[[instance]]\nname = \"inst\"\nmeans = [0.8, {}, 0.3]\n\
                 [[algorithm]]\nalgo = \"ttucb\"\n",
                0.5 + 0.02 * i as f64
            );
            write_config(&d, &text)
        })
        .collect();
    let children: Vec<std::process::Child> = configs
        .iter()
        .map(|c| {
            std::process::Command::new(crate::common::dpbai_bin())
                .args(["experiment", c.to_str().expect("utf-8"), "--out-dir"])
                .arg(&shared)
                .args(["--threads", "1"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawns")
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().expect("waits");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let cache = shared.join("cache");
    let files: Vec<PathBuf> = std::fs::read_dir(&cache)
        .expect("cache")
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(
        files.len(),
        8,
        "one file per cell, no temporary left: {files:?}"
    );
    for f in &files {
        let read = dpbai::experiment::cache::read_cell_file(f).expect("a whole, valid cell file");
        assert!(read.is_some());
    }
    for (i, c) in configs.iter().enumerate() {
        let said = experiment(c, &shared, &[]);
        assert!(
            said.contains("(0 computed"),
            "study {i} lost a cell: {said}"
        );
        let solo = dir.join(format!("solo{i}"));
        experiment(c, &solo, &[]);
        assert_eq!(outputs(&shared), outputs(&solo), "study {i}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `verify --check` on a cache that holds a cell of the quick profile at an older engine
/// semantics of its algorithm fails before running anything, and says how to proceed.
#[test]
fn verify_check_fails_on_a_stale_cell() {
    use dpbai::experiment::cache::{cache_path, write_cell_file};
    let dir = temp_dir("stale");
    let study = dpbai::claims::dp_bai::evidence::study("quick", None).expect("built-in study");
    let cell = study
        .cells
        .iter()
        .map(|c| c.cell.clone())
        .min_by_key(|c| c.runs)
        .expect("cells");
    let mut old = cell.spec();
    old.engine.version = 0;
    old.runs = 1;
    let (records, _) = dpbai::experiment::run::simulate_spec(&old, 1, None).expect("runs");
    old.runs = cell.runs;
    // Records of one run stand in for the stale cell: `--check` refuses it from its header.
    let cache = dir.join("verify-cache").join("quick");
    write_cell_file(
        &cache_path(&cache, &old.digest()),
        &cell.key(),
        &old,
        &records,
    )
    .expect("writes");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/REPORT.md"),
        dir.join("REPORT.md"),
    )
    .expect("copy");
    let out = dir.to_str().expect("utf-8");
    let (code, _, err) = run_cli(&["verify", "--check", "--out-dir", out]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("1 cells") && err.contains("stale") && err.contains("--allow-stale"),
        "{err}"
    );
    assert!(err.contains(&cell.key()), "names the cell: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dpbai experiment verify/quick.toml` is `dpbai verify`'s grid and controls: the study file
/// that `experiment` reads from disk and the one `verify` compiles in give the same cells (keys,
/// digests, seeds, runs, caps, order), also with `--runs`. (`.ci/run` also runs `experiment` on
/// the quick study against a full verify cache and requires that it computes nothing.)
#[test]
fn experiment_on_the_quick_study_is_verifys_cells() {
    use dpbai::claims::dp_bai::evidence;
    use dpbai::experiment::study::runner::load_study;
    for runs in [None, Some(3)] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("verify/quick.toml");
        let from_disk = load_study(&path, runs).expect("the quick study");
        let built_in = evidence::study("quick", runs).expect("the built-in study");
        let cells = |s: &dpbai::experiment::study::Study| -> Vec<(String, String, u64, u64, u64)> {
            s.cells
                .iter()
                .map(|c| {
                    (
                        c.cell.key(),
                        c.cell.digest().to_string(),
                        c.cell.seed(),
                        c.cell.runs,
                        c.cell.max_steps,
                    )
                })
                .collect()
        };
        assert_eq!(cells(&from_disk), cells(&built_in));
        assert!(from_disk.cells.len() > 250);
    }
    // The same records: a cheap cell of the study, run by `experiment` and read back.
    let dir = temp_dir("quick-study");
    let study = evidence::study("quick", Some(2)).expect("built-in");
    let cheap = study
        .cells
        .iter()
        .find(|c| c.cell.instance == "mu3" && c.cell.setting.algo == dpbai::bandit::AlgoName::Ttucb)
        .expect("TTUCB on mu3");
    let a = dpbai::experiment::run_cell(&cheap.cell, Some(&dir), 1).expect("runs");
    let b = dpbai::experiment::run_cell(&cheap.cell, Some(&dir), 2).expect("cached");
    assert!(b.cached && a.summary == b.summary && a.digest == b.digest);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `examples/followup.toml` is the figure of [BAI25] as `verify --profile paper` computes it:
/// the same instances, algorithms and settings (ε, δ, thresholds) as the paper study's `grid`
/// group, at its own size (runs, cap).
#[test]
fn followup_example_is_the_papers_figure_grid() {
    use dpbai::claims::bai25;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/followup.toml");
    let text = std::fs::read_to_string(&path).expect("example");
    let study = dpbai::experiment::study::parse_study(&text, "followup.toml").expect("valid");
    let paper = bai25::study("paper").expect("built-in study");
    let key = |c: &dpbai::experiment::Cell| format!("{} {:?} {:?}", c.instance, c.means, c.setting);
    let mut want: Vec<String> = paper
        .cells
        .iter()
        .filter(|c| paper.algorithms[c.algorithm].group == bai25::evidence::GRID)
        .map(|c| key(&c.cell))
        .collect();
    let mut got: Vec<String> = study.cells.iter().map(|c| key(&c.cell)).collect();
    want.sort();
    got.sort();
    assert_eq!(
        got.len(),
        2 * (1 + 4 * 9),
        "two instances: EB-TCI once, four private × nine ε"
    );
    assert_eq!(got, want);
}

/// A figure's `model` is the one privacy-model enum read as `local` or `global`; `non-private`
/// is refused with a message naming the field (a figure draws τ against ε).
#[test]
fn a_figure_model_is_local_or_global() {
    use dpbai::experiment::study::parse_study;
    use dpbai::params::PrivacyModel;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/paper-global.toml");
    let text = std::fs::read_to_string(&path).expect("preset");
    let with = |model: &str| {
        format!("{text}\n[[figure]]\nstem = \"f\"\ntitle = \"t\"\nmodel = \"{model}\"\n")
    };
    for (model, want) in [
        ("local", PrivacyModel::Local),
        ("global", PrivacyModel::Global),
    ] {
        let s = parse_study(&with(model), "f.toml").expect("a private model");
        assert_eq!(s.figures[0].model, want);
    }
    let e = parse_study(&with("non-private"), "f.toml").expect_err("non-private");
    assert!(e.to_string().contains("figure[0].model"), "{e}");
    assert!(parse_study(&with("central"), "f.toml").is_err());
}
