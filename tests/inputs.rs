//! Every input is validated where it enters: one test per defect found by the adversarial
//! rounds on plans, studies, merges and messages (docs/GUIDE.md, "Commands"; docs/PROVENANCE.md,
//! "Domains, limits and integrity"). Each case runs the binary as a user would and checks the
//! exit code, that the message is one line, and that it names the offending value, key or path.

use crate::common::{TempDir, dpbai_bin, refused, run_cli, run_in};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const RUN: [&str; 11] = [
    "run", "--algo", "ttucb", "--means", "0.9,0.5", "--delta", "0.1", "--runs", "100", "--seed",
    "1",
];

fn slurm(dir: &str, opts: &[&str], cmd: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = ["cluster", "slurm", "--dir", dir]
        .iter()
        .map(|s| s.to_string())
        .collect();
    v.extend(opts.iter().map(|s| s.to_string()));
    v.push("--".into());
    v.extend(cmd.iter().map(|s| s.to_string()));
    v
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// A plan whose wrapped command fails its own validation is refused before anything is
/// written: `--beta 5`, `--gamma 2` (for the one algorithm taking γ, and for TTUCB, which does
/// not), `--eps -1` and a malformed `--threshold`.
#[test]
fn cluster_slurm_validates_the_wrapped_command_before_writing() {
    let tmp = TempDir::new("inputs");
    let dir = tmp.path().join("plan");
    let d = dir.to_str().unwrap();
    for (extra, name) in [
        (&["--beta", "5"][..], "beta = 5"),
        (&["--gamma", "2"], "gamma = 2"),
        (&["--eps", "-1"], "eps = -1"),
        (&["--threshold", "log(("], "--threshold"),
    ] {
        let mut cmd = RUN.to_vec();
        cmd.extend(extra);
        refused(run_cli(&strs(&slurm(d, &[], &cmd))), &[name]);
        assert!(!dir.exists(), "{extra:?}: the plan folder was written");
    }
    let mut cmd = RUN.to_vec();
    cmd[2] = "gauss-ldp-tt";
    cmd.extend(["--eps", "1", "--gamma", "2"]);
    refused(run_cli(&strs(&slurm(d, &[], &cmd))), &["gamma = 2"]);
}

/// Array size, memory, CPUs and time are checked against their stated limits; `--runs 1e11`
/// is split into tasks of at most the per-process limit of runs.
#[test]
fn cluster_slurm_resources_have_limits() {
    let tmp = TempDir::new("inputs");
    let d = tmp.path().join("p");
    let d = d.to_str().unwrap();
    for (opts, name) in [
        (&["--tasks", "10000000"][..], "--tasks 10000000"),
        (&["--tasks", "0"], "--tasks 0"),
        (&["--mem", "0"], "--mem `0`"),
        (&["--mem", "99T"], "--mem `99T`"),
        (
            &["--cpus-per-task", "4294967295"],
            "--cpus-per-task 4294967295",
        ),
        (&["--cpus-per-task", "0"], "--cpus-per-task 0"),
        (&["--time", "0"], "--time"),
    ] {
        refused(run_cli(&strs(&slurm(d, opts, &RUN))), &[name]);
    }
    let mut cmd = RUN.to_vec();
    cmd[8] = "100000000000";
    let (code, _, err) = run_cli(&strs(&slurm(d, &[], &cmd)));
    assert_eq!(code, 0, "{err}");
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(Path::new(d).join("plan.json")).unwrap())
            .unwrap();
    let tasks = plan["tasks"].as_u64().unwrap();
    assert!(tasks <= 100_000, "{tasks}");
    assert!(
        100_000_000_000u64.div_ceil(tasks) <= 10_000_000,
        "{tasks} tasks give more than 1e7 runs per task"
    );
    let size = std::fs::metadata(Path::new(d).join("assemble.sh"))
        .unwrap()
        .len();
    assert!(size < 1 << 20, "assemble.sh is {size} bytes");
}

/// `cluster status` and `resubmit` validate plan.json (schema and ranges) before acting: a
/// task count of 10¹¹, 10¹⁵ or 0 is refused at once (it used to loop or report "0 of 0"), as
/// is a plan whose command was edited into an invalid one, or that is not JSON.
#[test]
fn cluster_status_validates_plan_json() {
    let tmp = TempDir::new("inputs");
    let d = tmp.path().join("p");
    let ds = d.to_str().unwrap();
    let (code, _, err) = run_cli(&strs(&slurm(ds, &[], &RUN)));
    assert_eq!(code, 0, "{err}");
    let plan_path = d.join("plan.json");
    let good: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&plan_path).unwrap()).unwrap();
    let edits: Vec<(serde_json::Value, &str)> = vec![
        (
            serde_json::json!(100_000_000_000u64),
            "tasks = 100000000000",
        ),
        (
            serde_json::json!(1_000_000_000_000_000u64),
            "tasks = 1000000000000000",
        ),
        (serde_json::json!(0), "tasks = 0"),
    ];
    for sub in ["status", "resubmit"] {
        for (tasks, name) in &edits {
            let mut p = good.clone();
            p["tasks"] = tasks.clone();
            std::fs::write(&plan_path, p.to_string()).unwrap();
            let r = run_in(
                tmp.path(),
                &["cluster", sub, "--dir", ds],
                Duration::from_secs(20),
            );
            refused(r, &["plan.json", name]);
        }
        let mut p = good.clone();
        p["args"] = serde_json::json!(["--algo", "ttucb", "--beta", "5"]);
        std::fs::write(&plan_path, p.to_string()).unwrap();
        refused(
            run_in(
                tmp.path(),
                &["cluster", sub, "--dir", ds],
                Duration::from_secs(20),
            ),
            &["plan.json"],
        );
        std::fs::write(&plan_path, "{ not json").unwrap();
        refused(
            run_in(
                tmp.path(),
                &["cluster", sub, "--dir", ds],
                Duration::from_secs(20),
            ),
            &["plan.json"],
        );
    }
}

/// A plan never overwrites an input: a study file named like one of the plan's own files
/// (`--dir e -- experiment e/task.sh`) is refused, and the file is left as it was.
#[test]
fn cluster_plan_files_never_overwrite_an_input() {
    let tmp = TempDir::new("inputs");
    let e = tmp.path().join("e");
    std::fs::create_dir_all(&e).unwrap();
    let study = e.join("task.sh");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sensitivity.toml"),
    )
    .unwrap();
    std::fs::write(&study, &text).unwrap();
    let cmd = ["experiment", study.to_str().unwrap()];
    refused(
        run_cli(&strs(&slurm(e.to_str().unwrap(), &[], &cmd))),
        &["task.sh"],
    );
    assert_eq!(std::fs::read_to_string(&study).unwrap(), text);
}

/// The hint printed after writing a plan quotes the folder for the shell: pasting it runs
/// nothing the path contains.
#[test]
fn cluster_hint_quotes_the_folder() {
    let tmp = TempDir::new("inputs");
    let name = "a b;touch pwned";
    let (code, out, err) = run_in(
        tmp.path(),
        &strs(&slurm(name, &[], &RUN)),
        Duration::from_secs(30),
    );
    assert_eq!(code, 0, "{err}");
    let line = out
        .lines()
        .find(|l| l.starts_with("submit with:"))
        .unwrap_or_else(|| panic!("no hint in {out}"));
    let cmd = line.trim_start_matches("submit with:").trim();
    assert!(cmd.contains("'a b;touch pwned/submit.sh'"), "{cmd}");
    // The hint, given to a shell with `bash` replaced by `true`, creates nothing.
    let status = Command::new("sh")
        .arg("-c")
        .arg(cmd.replacen("bash", "true", 1))
        .current_dir(tmp.path())
        .status()
        .unwrap();
    assert!(status.success());
    assert!(!tmp.path().join("pwned").exists());
}

/// Writes a study file `name` in `dir` and runs `experiment` on it within a time limit.
fn study(dir: &Path, name: &str, text: &str) -> (i32, String, String) {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    let out = dir.join(format!("out-{name}"));
    run_in(
        dir,
        &[
            "experiment",
            p.to_str().unwrap(),
            "--out-dir",
            out.to_str().unwrap(),
        ],
        Duration::from_secs(60),
    )
}

const BASE: &str =
    "runs = 10\nmax-steps = 100000\ndelta = 0.1\n[[instance]]\nname = \"a\"\nmeans = [0.9, 0.5]\n";

/// Grid sizes are capped with a stated limit and validation is linear: an ε grid of 8,000
/// values is refused at once, one of 200,000 values (a 1.8 MB file) too, by the size limit.
#[test]
fn study_grids_are_capped_and_refused_fast() {
    let tmp = TempDir::new("inputs");
    for (n, name) in [(8_000usize, "8000 values"), (200_000, "bytes")] {
        let eps: Vec<String> = (1..=n).map(|i| format!("{}", i as f64 * 1e-3)).collect();
        let text = format!(
            "runs = 10\nmax-steps = 100000\ndelta = 0.1\neps = [{}]\n[[instance]]\nname = \"a\"\nmeans = [0.9, 0.5]\n[[algorithm]]\nalgo = \"adap-tt\"\n",
            eps.join(",")
        );
        let t = Instant::now();
        refused(study(tmp.path(), &format!("eps{n}.toml"), &text), &[name]);
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "{n}: {:?}",
            t.elapsed()
        );
    }
}

/// Only regular files are read, with a size limit: `/dev/zero` is refused at once.
#[test]
fn study_reads_only_regular_files() {
    let tmp = TempDir::new("inputs");
    let out = tmp.path().join("o");
    refused(
        run_in(
            tmp.path(),
            &[
                "experiment",
                "/dev/zero",
                "--out-dir",
                out.to_str().unwrap(),
            ],
            Duration::from_secs(10),
        ),
        &["/dev/zero", "not a regular file"],
    );
    refused(
        run_in(
            tmp.path(),
            &["experiment", ".", "--out-dir", out.to_str().unwrap()],
            Duration::from_secs(10),
        ),
        &["not a regular file"],
    );
}

/// Empty lists, and options an algorithm does not take (`gamma` for TTUCB, `beta` for DP-SE),
/// are refused with the key and line; a study with no algorithm names the missing table.
#[test]
fn study_refuses_empty_lists_and_options_that_do_not_apply() {
    let tmp = TempDir::new("inputs");
    let cases = [
        (
            "empty.toml",
            format!("{BASE}[[algorithm]]\nalgo = \"ttucb\"\ninstances = []\n"),
            vec!["empty.toml", "instances", "line 9", "empty"],
        ),
        (
            "gamma.toml",
            format!("{BASE}[[algorithm]]\nalgo = \"ttucb\"\ngamma = 0.1\n"),
            vec!["gamma = 0.1", "ttucb", "line 7"],
        ),
        (
            "beta.toml",
            format!("{BASE}[[algorithm]]\nalgo = \"dp-se\"\neps = [1.0]\nbeta = 0.3\n"),
            vec!["beta = 0.3", "dp-se", "line 7"],
        ),
        (
            "noalgo.toml",
            BASE.to_string(),
            vec!["noalgo.toml", "algorithm"],
        ),
        (
            "noeps.toml",
            format!("eps = []\n{BASE}[[algorithm]]\nalgo = \"adap-tt\"\n"),
            vec!["eps", "empty"],
        ),
    ];
    for (name, text, names) in cases {
        refused(study(tmp.path(), name, &text), &names);
    }
}

/// Line numbers are those of the user's own file (blank lines and comments included), and a
/// runs multiplier too large is refused at load time, naming the file and the key, before any
/// cell runs.
#[test]
fn study_errors_name_the_users_line_and_key() {
    let tmp = TempDir::new("inputs");
    let text =
        format!("# a comment\n{BASE}\n\n# another\n\n[[algorithm]]\nalgo = \"ttucb\"\nbeta = 7\n");
    let line = text.lines().position(|l| l == "beta = 7").unwrap() + 1;
    refused(
        study(tmp.path(), "line.toml", &text),
        &["line.toml", "beta", &format!("(line {line})"), "beta = 7"],
    );
    let text = format!("{BASE}[[algorithm]]\nalgo = \"ttucb\"\nruns-multiplier = 100000000\n");
    let err = refused(
        study(tmp.path(), "mult.toml", &text),
        &["mult.toml", "runs-multiplier", "10 × 100000000"],
    );
    assert!(!tmp.path().join("out-mult.toml/cache").exists(), "{err}");
}

/// δ = 1e-250 is a valid study cell: cache files are named by the cell digest, never by a
/// decimal spelling of δ ("File name too long").
#[test]
fn study_tiny_delta_runs() {
    let tmp = TempDir::new("inputs");
    let text = "runs = 5\nmax-steps = 100000\ndelta = [1e-250]\n[[instance]]\nname = \"a\"\nmeans = [0.9, 0.1]\n[[algorithm]]\nalgo = \"ttucb\"\n";
    let (code, _, err) = study(tmp.path(), "tiny.toml", text);
    assert_eq!(code, 0, "{err}");
    let rows = std::fs::read_to_string(tmp.path().join("out-tiny.toml/results.csv")).unwrap();
    assert!(rows.contains("1e-250"), "{rows}");
    for f in std::fs::read_dir(tmp.path().join("out-tiny.toml/cache")).unwrap() {
        let n = f.unwrap().file_name().into_string().unwrap();
        assert!(n.len() <= 40, "{n}");
    }
}

/// A title or label with a newline, `#`, `|` or `*` is escaped in SUMMARY.md: it cannot start
/// a heading or break a table.
#[test]
fn study_text_is_escaped_in_summary() {
    let tmp = TempDir::new("inputs");
    let text = format!(
        "title = \"x\\n# injected heading\"\n{BASE}[[algorithm]]\nalgo = \"ttucb\"\nlabel = \"a|b\\n## h *c*\"\n"
    );
    let (code, _, err) = study(tmp.path(), "esc.toml", &text);
    assert_eq!(code, 0, "{err}");
    let s = std::fs::read_to_string(tmp.path().join("out-esc.toml/SUMMARY.md")).unwrap();
    for l in s.lines() {
        assert!(!l.starts_with("# injected"), "{l}");
        assert!(!l.starts_with("## h"), "{l}");
    }
    assert!(s.contains(r"a\|b"), "{s}");
    assert!(s.contains(r"\*c\*"), "{s}");
}

/// A missing required option is named in clap's one-line message (`run` without `--seed`,
/// `bounds` without `--means`; every subcommand is covered by the binary's unit test
/// `cli::tests::every_missing_required_option_is_named`).
#[test]
fn missing_required_options_are_named() {
    let mut a = RUN.to_vec();
    a.truncate(9);
    refused(run_cli(&a), &["--seed"]);
    refused(run_cli(&["bounds", "--eps", "1"]), &["--means"]);
}

/// File and stream failures name the path (or standard output) and exit 2: a directory given
/// as an output file, an output in a folder that is a file, a missing input, a full device.
#[test]
fn io_failures_name_the_path_and_exit_2() {
    let tmp = TempDir::new("inputs");
    let t = tmp.path().to_str().unwrap();
    let mut a = RUN.to_vec();
    a.extend(["--out", t]);
    refused(run_cli(&a), &[t]);
    let file = tmp.path().join("f");
    std::fs::write(&file, "x").unwrap();
    let inside = file.join("out.csv");
    let mut a = RUN.to_vec();
    a.extend(["--out", inside.to_str().unwrap()]);
    refused(run_cli(&a), &[file.to_str().unwrap()]);
    let missing = tmp.path().join("missing.toml");
    refused(
        run_cli(&["experiment", missing.to_str().unwrap()]),
        &[missing.to_str().unwrap()],
    );
    refused(
        run_cli(&["merge", missing.to_str().unwrap()]),
        &[missing.to_str().unwrap()],
    );
    if Path::new("/dev/full").exists() {
        let full = std::fs::File::create("/dev/full").unwrap();
        let out = Command::new(dpbai_bin())
            .args(["bounds", "--means", "0.9,0.5", "--json"])
            .stdout(full)
            .output()
            .unwrap();
        refused(
            (
                out.status.code().unwrap_or(-1),
                String::new(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            ),
            &["standard output"],
        );
    }
}

/// A value beyond the largest f64 is an error giving its order of magnitude, never `inf`
/// (closed forms: `c(400) = ((e⁴⁰⁰ + 1)/(e⁴⁰⁰ − 1))²·… ≈ 4e^{800}`, i.e. log10 ≈ 348.0;
/// `KL = (0 − 1)²/(2·10⁻⁴⁰⁰) = 10^{399.7}`).
#[test]
fn overflow_is_an_error_not_inf() {
    for (args, names) in [
        (&["fn", "c-local", "400"][..], &["c_local", "10^348.0"][..]),
        (&["fn", "g2", "1e308"], &["g2", "overflows"]),
        (
            &["fn", "kl-gaussian", "0", "1", "1e-200"],
            &["kl_gaussian", "10^399.7"],
        ),
    ] {
        refused(run_cli(args), names);
    }
}

/// Very small and very large numbers print in scientific notation: `W0(5e-324) = 5e-324`
/// (W0(x) = x − x² + … for tiny x), not a 327-character decimal.
#[test]
fn tiny_values_print_in_scientific_notation() {
    let (code, out, err) = run_cli(&["fn", "lambert-w0", "5e-324"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.trim().len() < 30, "{out}");
    assert_eq!(out.trim().parse::<f64>().unwrap(), 5e-324);
    let (code, out, _) = run_cli(&["fn", "lambert-w0", "1e300"]);
    assert_eq!(code, 0);
    assert!(out.trim().len() < 30, "{out}");
}
