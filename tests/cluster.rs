//! `dpbai cluster` without a Slurm: the plan's scripts, their jobs run by hand, status and
//! resubmit (dry run), and the assembled output against the single-machine run.
//! `scripts/slurm-e2e.sh` runs the same plans under a real Slurm.

use crate::common::{dpbai_bin, run_cli};
use std::path::{Path, PathBuf};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dpbai-cluster-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `dpbai cluster slurm --dir DIR FLAGS… -- COMMAND…`.
fn plan_cli(dir: &Path, flags: &[&str], command: &[&str]) -> (i32, String, String) {
    let mut args = vec!["cluster", "slurm", "--dir", dir.to_str().expect("utf-8")];
    args.extend(flags);
    args.push("--");
    args.extend(command);
    run_cli(&args)
}

/// Runs one job script of a plan as Slurm would (in DIR, with the array task id).
fn run_job(dir: &Path, script: &str, task: Option<u64>) {
    let mut cmd = std::process::Command::new("bash");
    cmd.arg(script).current_dir(dir);
    if let Some(i) = task {
        cmd.env("SLURM_ARRAY_TASK_ID", i.to_string());
    }
    let out = cmd.output().expect("bash runs");
    assert!(
        out.status.success(),
        "{script} {task:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn slurm_plan_scripts_name_no_path_and_chain_the_assembly() {
    let dir = temp_dir("plan");
    let plan = dir.join("p");
    let (code, out, err) = plan_cli(
        &plan,
        &[
            "--tasks",
            "4",
            "--partition",
            "short",
            "--time",
            "2:00:00",
            "--cpus-per-task",
            "3",
            "--mem",
            "1G",
        ],
        &["verify", "--profile", "quick", "--runs", "8"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("4 tasks"), "{out}");
    let task = read(&plan.join("task.sh"));
    for want in [
        "#SBATCH --array=0-3\n",
        "#SBATCH --partition=short\n",
        "#SBATCH --time=2:00:00\n",
        "#SBATCH --cpus-per-task=3\n",
        "#SBATCH --mem=1G\n",
        "#SBATCH --output=logs/task-%a.out\n",
        "exec dpbai verify --profile quick --runs 8 --shard \"$i/4\" --threads 3 --out-dir .\n",
    ] {
        assert!(task.contains(want), "task.sh lacks {want:?}:\n{task}");
    }
    let assemble = read(&plan.join("assemble.sh"));
    assert!(
        assemble.contains("exec dpbai verify --profile quick --runs 8 --threads 3 --out-dir .\n"),
        "{assemble}"
    );
    assert!(!assemble.contains("--array"), "{assemble}");
    let submit = read(&plan.join("submit.sh"));
    for want in [
        "cd \"$(dirname \"$0\")\"",
        "sbatch --parsable --array=0-3 task.sh",
        "--dependency=afterok:$tasks",
        "assemble.sh",
        ">> jobs.txt",
    ] {
        assert!(submit.contains(want), "submit.sh lacks {want:?}:\n{submit}");
    }
    // No path of this machine: neither the plan's folder, nor the repository, nor /tmp.
    let here = std::env::current_dir().expect("cwd");
    for (name, text) in [
        ("task", &task),
        ("assemble", &assemble),
        ("submit", &submit),
    ] {
        for p in [
            plan.to_string_lossy().to_string(),
            env!("CARGO_MANIFEST_DIR").to_string(),
            here.to_string_lossy().to_string(),
            std::env::temp_dir().to_string_lossy().to_string(),
        ] {
            assert!(!text.contains(&p), "{name}.sh names {p}");
        }
    }
    let plan_json: serde_json::Value =
        serde_json::from_str(&read(&plan.join("plan.json"))).expect("plan.json");
    assert_eq!(
        plan_json["predicted_task_s"].as_array().map(Vec::len),
        Some(4)
    );
    // A second plan in the same folder once jobs were submitted is refused.
    std::fs::write(plan.join("jobs.txt"), "tasks 7 0-3\n").expect("write");
    let (code, _, err) = plan_cli(&plan, &[], &["verify"]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn slurm_plan_rejects_bad_input_with_exit_2() {
    let dir = temp_dir("bad");
    let d = dir.join("p");
    let d = d.to_str().expect("utf-8");
    for args in [
        vec!["--tasks", "0", "--", "verify"],
        vec!["--tasks", "9", "--", "verify", "--runs", "8"],
        vec!["--time", "1h", "--", "verify"],
        vec!["--mem", "2GB", "--", "verify"],
        vec!["--cpus-per-task", "0", "--", "verify"],
        vec!["--", "verify", "--shard", "0/2"],
        vec!["--", "verify", "--out-dir", "x"],
        vec!["--", "verify", "--threads", "2"],
        vec!["--", "verify", "--no-experiments"],
        vec!["--", "verify", "--profile", "huge"],
        vec!["--", "audit", "dp"],
        vec![
            "--", "run", "--algo", "ttucb", "--means", "0.9,0.5", "--delta", "0.1", "--runs", "10",
            "--seed", "1", "--shard", "0/2",
        ],
        vec![
            "--", "run", "--algo", "ttucb", "--means", "0.9,x", "--delta", "0.1", "--runs", "10",
            "--seed", "1",
        ],
    ] {
        let split = args.iter().position(|&a| a == "--").expect("--");
        let (code, _out, err) = plan_cli(&dir.join("p"), &args[..split], &args[split + 1..]);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    let (code, _, err) = run_cli(&["cluster", "status", "--dir", d]);
    assert_eq!(code, 2, "no plan: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn status_and_resubmit_follow_the_shard_files() {
    let dir = temp_dir("status");
    let plan = dir.join("p");
    let bin = dpbai_bin();
    let (code, _, err) = plan_cli(
        &plan,
        &["--tasks", "4", "--bin", bin.to_str().expect("utf-8")],
        &["verify", "--runs", "4"],
    );
    assert_eq!(code, 0, "{err}");
    std::fs::create_dir_all(plan.join("logs")).expect("logs");
    run_job(&plan, "task.sh", Some(1));
    // Task 3 started (its log exists) and left no shard file: failed.
    std::fs::write(plan.join("logs/task-3.out"), "killed\n").expect("write");
    let p = plan.to_str().expect("utf-8");
    let (code, out, err) = run_cli(&["cluster", "status", "--dir", p]);
    assert_eq!(code, 0, "{err}");
    let states: Vec<&str> = out
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3 && f[0].parse::<u64>().is_ok()).then_some(f[1])
        })
        .collect();
    assert_eq!(states, ["missing", "done", "missing", "failed"], "{out}");
    assert!(
        out.contains("done 1, running 0, pending 0, failed 1, missing 2 of 4"),
        "{out}"
    );
    let (code, out, err) = run_cli(&["cluster", "resubmit", "--dir", p, "--dry-run"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("sbatch --parsable --array=0,2-3 task.sh"),
        "{out}"
    );
    assert!(out.contains("--dependency=afterok:TASKS"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_plan_assembles_the_unsharded_summary_and_csv() {
    let dir = temp_dir("run");
    let plan = dir.join("p");
    let bin = dpbai_bin();
    let run = [
        "--algo",
        "ttucb",
        "--means",
        "0.9,0.6,0.5",
        "--delta",
        "0.05",
        "--runs",
        "11",
        "--seed",
        "5",
    ];
    let mut command = vec!["run"];
    command.extend(run);
    command.extend(["--out", "runs.csv", "--json"]);
    let (code, _, err) = plan_cli(
        &plan,
        &["--tasks", "3", "--bin", bin.to_str().expect("utf-8")],
        &command,
    );
    assert_eq!(code, 0, "{err}");
    std::fs::create_dir_all(plan.join("logs")).expect("logs");
    std::fs::create_dir_all(plan.join("shards")).expect("shards");
    for i in 0..3 {
        run_job(&plan, "task.sh", Some(i));
    }
    let (_, out, _) = run_cli(&["cluster", "status", "--dir", plan.to_str().expect("utf-8")]);
    assert!(out.contains("done 3, running 0"), "{out}");
    run_job(&plan, "assemble.sh", None);
    let (code, out, err) = run_cli(&[
        "cluster",
        "resubmit",
        "--dir",
        plan.to_str().expect("utf-8"),
        "--dry-run",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("nothing to resubmit: all 3 tasks done; summary.json written"),
        "{out}"
    );
    let whole = dir.join("whole.csv");
    let mut single = run.to_vec();
    single.extend(["--json", "--out", whole.to_str().expect("utf-8")]);
    let mut full = vec!["run"];
    full.extend(single);
    let (code, out, err) = run_cli(&full);
    assert_eq!(code, 0, "{err}");
    let strip = |text: &str| {
        let mut v: serde_json::Value = serde_json::from_str(text).expect("json");
        let m = v.as_object_mut().expect("object");
        assert!(m.remove("elapsed_s").is_some() && m.remove("samples_per_s").is_some());
        v
    };
    assert_eq!(strip(&read(&plan.join("summary.json"))), strip(&out));
    assert_eq!(
        std::fs::read(plan.join("runs.csv")).expect("merged csv"),
        std::fs::read(&whole).expect("csv"),
        "per-run CSV byte-identical"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dpbai cluster slurm -- experiment STUDY.toml`: the study file is copied into the
/// plan, the tasks write shard files, the assembly writes the single-machine outputs.
#[test]
fn experiment_plan_assembles_the_unsharded_outputs() {
    let dir = temp_dir("experiment");
    let study = dir.join("my-study.toml");
    std::fs::write(
        &study,
        "runs = 5\nmax-steps = 1_000_000\ndelta = 0.1\neps = [0.5, 4.0]\n\
         [[instance]]\nname = \"three\"\nmeans = [0.8, 0.5, 0.3]\n\
         [[algorithm]]\nalgo = \"ttucb\"\n[[algorithm]]\nalgo = \"dp-se\"\n",
    )
    .expect("write study");
    let plan = dir.join("p");
    let bin = dpbai_bin();
    let s = study.to_str().expect("utf-8");
    let (code, _, err) = plan_cli(
        &plan,
        &["--tasks", "2", "--bin", bin.to_str().expect("utf-8")],
        &["experiment", s, "--runs", "4"],
    );
    assert_eq!(code, 0, "{err}");
    let task = read(&plan.join("task.sh"));
    assert!(
        task.contains(
            "experiment my-study.toml --runs 4 --shard \"$i/2\" --threads 1 --out-dir .\n"
        ),
        "{task}"
    );
    assert!(!task.contains(&dir.to_string_lossy().to_string()), "{task}");
    assert!(
        plan.join("my-study.toml").exists(),
        "study file copied into the plan"
    );
    std::fs::create_dir_all(plan.join("logs")).expect("logs");
    for i in 0..2 {
        run_job(&plan, "task.sh", Some(i));
    }
    let (_, out, _) = run_cli(&["cluster", "status", "--dir", plan.to_str().expect("utf-8")]);
    assert!(out.contains("done 2, running 0"), "{out}");
    run_job(&plan, "assemble.sh", None);
    let whole = dir.join("whole");
    let (code, _, err) = run_cli(&[
        "experiment",
        s,
        "--runs",
        "4",
        "--out-dir",
        whole.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    for f in [
        "results.csv",
        "SUMMARY.md",
        "figures/three_delta0.1.json",
        "figures/three_delta0.1.png",
    ] {
        assert_eq!(
            std::fs::read(plan.join(f)).expect("assembled"),
            std::fs::read(whole.join(f)).expect("single"),
            "{f} differs"
        );
    }
    for bad in [
        &["experiment", s, "--shard", "0/2"][..],
        &["experiment", s, "--threads", "2"],
    ] {
        let (code, _, err) = plan_cli(&dir.join("q"), &[], bad);
        assert_eq!(code, 2, "{bad:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// \[BAI25\]'s algorithms pass through a plan with their options (`--eta` for dp-tt); an
/// option the algorithm does not take is refused before any file is written (exit 2).
#[test]
fn slurm_plans_take_dp_tt_and_eb_tci() {
    let dir = temp_dir("bai25");
    let run = |algo: &'static str, extra: &[&'static str]| {
        let mut c = vec![
            "run", "--algo", algo, "--means", "0.9,0.5", "--delta", "0.1", "--runs", "10",
            "--seed", "1",
        ];
        c.extend(extra);
        c.extend(["--out", "runs.csv"]);
        c
    };
    for (algo, extra) in [
        ("dp-tt", &["--eps", "1", "--eta", "0.5"][..]),
        ("eb-tci", &[][..]),
    ] {
        let plan = dir.join(algo);
        let (code, _, err) = plan_cli(&plan, &["--tasks", "2"], &run(algo, extra));
        assert_eq!(code, 0, "{algo}: {err}");
        let task = read(&plan.join("task.sh"));
        let want = format!("run --algo {algo} --means 0.9,0.5 ");
        assert!(task.contains(&want), "{task}");
        assert!(task.contains(&extra.join(" ")), "{task}");
    }
    let plan = dir.join("refused");
    let (code, _, err) = plan_cli(&plan, &["--tasks", "2"], &run("eb-tci", &["--eta", "2"]));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("invalid eta = 2") && err.contains("dp-tt"),
        "{err}"
    );
    assert!(!plan.join("task.sh").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
