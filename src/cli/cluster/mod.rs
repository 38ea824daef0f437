//! `dpbai cluster`: `verify`, `run` or `experiment` as a Slurm job array, with its assembly
//! chained to it.
//!
//! `dpbai cluster slurm --dir DIR -- verify|run|experiment ARGS…` writes a plan into DIR
//! (`experiment`: the study file is copied into DIR; its tasks run `dpbai experiment STUDY
//! --shard i/n --out-dir .` into `cache/`, the assembly writes results.csv, figures/ and
//! SUMMARY.md as one unsharded run would):
//! * `task.sh`, the job array: task `i` of `n` runs `dpbai verify ARGS --shard i/n` (shard files
//!   under `verify-cache/PROFILE/`) or `dpbai run ARGS --shard i/n --out shards/run-i.json`;
//! * `assemble.sh`, the assembly job: `dpbai verify ARGS` (it assembles the shard files into the
//!   cells, then writes REPORT.md and figures/, byte-identical to a single-machine run) or
//!   `dpbai merge` of the shard files into `summary.json` (identical to the unsharded run's
//!   JSON except the timing fields `elapsed_s` and `samples_per_s`);
//! * `submit.sh`, which submits both, the assembly with `--dependency=afterok` on the array, and
//!   appends their job ids to `jobs.txt`;
//! * `plan.json`, which `dpbai cluster status` and `dpbai cluster resubmit` read.
//!
//! # Paths
//! The scripts name no path except those the user gave (`--bin`, by default `dpbai` found on
//! the cluster's PATH, and any in ARGS): `submit.sh` changes to its own folder, and every job
//! runs there (sbatch's default working directory is the directory it was called from), so DIR
//! may be written on one machine and copied to the cluster. Relative paths in ARGS (e.g.
//! `verify --check --expected FILE`, `run --out FILE`) are therefore relative to DIR.
//!
//! # Balance by cost
//! A shard `i/n` holds the runs `r ≡ i (mod n)` of *every* cell, so every task gets `1/n` of
//! every cell's cost whatever the cells cost: the split is balanced by cost, not by cell count.
//! What remains is (a) the remainder: when `n` does not divide a cell's runs, tasks
//! `0..runs mod n` get one run more of that cell, and (b) the randomness of the stopping times.
//! The plan predicts every task's time from a cost model of the cells (below), which gives (a)
//! exactly; [`predicted_task_seconds`] is printed with the spread `(max − min) / mean`, next to
//! the makespan that whole cells per task (greedy, most expensive first) would give.
//!
//! # Cost model
//! One run of a cell draws about `k · T* · log(1/(2.4δ))` samples, capped at the cell's
//! `max_steps`, where `T*` is the cell's characteristic time (`T_KL` for TTUCB and DPA-TT, the
//! local time for CTB-TT and Gauss-LDP-TT, the global time for DP-SE, AdaP-TT and AdaP-TT*) and
//! `k` = [`tau_over_bound`]; DPA-TT with global episodes stalls and burns the cap. A sample
//! costs [`ns_per_sample`] on one thread. Both constants vary several-fold between cells
//! (starvation of AdaP-TT(*) runs, REPORT.md Findings; batched algorithms skip samples), so
//! predicted times are rough: they set the default `--tasks` and `--time` (with a wide margin)
//! and do not affect the split.
//!
//! # Memory
//! `--mem` defaults to [`default_mem_mb`]: a measured footprint (peak RSS, `/usr/bin/time -v`)
//! of a base plus a per-thread part, times a safety factor.
//!
//! # Files
//! This file holds the clap arguments, [`run`] and `dpbai cluster slurm` (writing the plan);
//! [`cost`] the cost model and the memory default, [`plan`] `plan.json` and the reading of the
//! command after `--`, [`scripts`](mod@scripts) the text of the three scripts,
//! [`status`](mod@status) `dpbai cluster status` and `dpbai cluster resubmit` (a task is done
//! only when its shard files carry the plan's specification), [`replan`] a plan written into a
//! folder that holds another experiment's files (refused, or moved aside with `--force`).
//!
//! [`predicted_task_seconds`]: cost::predicted_task_seconds
//! [`tau_over_bound`]: cost::tau_over_bound
//! [`ns_per_sample`]: cost::ns_per_sample
//! [`default_mem_mb`]: cost::default_mem_mb

mod cost;
mod plan;
mod replan;
mod scripts;
mod status;

use anyhow::Context as _;
use cost::{cell_cost, default_mem_mb, predicted_task_seconds, spread, whole_cell_loads};
use plan::{
    MAX_CPUS, MAX_TASKS, Mode, PLAN_FILES, PLAN_FORMAT, Plan, check_mem, check_name,
    check_not_plan_file, check_partition, check_run_task, check_sbatch_extra, check_setup,
    check_time, experiment_cells, run_cmd, run_cost, verify_cells,
};
use scripts::{scripts, sh_quote, slurm_time, write_file};
use status::{resubmit, status};
use std::path::{Path, PathBuf};

/// Arguments of `dpbai cluster`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand, Debug)]
enum Sub {
    /// Write a Slurm job array for `verify`, `run` or `experiment` (and its assembly job) into
    /// --dir.
    Slurm(Box<SlurmArgs>),
    /// Show which tasks of the plan in --dir are done, running, pending, failed or missing.
    Status(DirArgs),
    /// Resubmit the failed and missing tasks of the plan in --dir, with the assembly chained
    /// again.
    Resubmit(ResubmitArgs),
}

/// Arguments of `dpbai cluster slurm`.
#[derive(clap::Args, Debug)]
struct SlurmArgs {
    /// Folder of the plan: the scripts, the shard files and the assembled output.
    #[arg(long)]
    dir: PathBuf,
    /// Tasks of the job array, 1 to 100000 (default: about one predicted hour of work per task).
    #[arg(long)]
    tasks: Option<u64>,
    /// Slurm partition (default: the cluster's default partition).
    #[arg(long)]
    partition: Option<String>,
    /// Slurm account to charge (`#SBATCH --account`).
    #[arg(long)]
    account: Option<String>,
    /// Slurm quality of service (`#SBATCH --qos`).
    #[arg(long)]
    qos: Option<String>,
    /// An extra `#SBATCH` line for every job, as one sbatch option `--flag=value` (repeatable;
    /// e.g. `--sbatch-extra=--constraint=avx2`).
    #[arg(long, allow_hyphen_values = true)]
    sbatch_extra: Vec<String>,
    /// A shell command run at the start of every job, before dpbai (repeatable; e.g.
    /// `--setup "module load rust"`).
    #[arg(long)]
    setup: Vec<String>,
    /// Time limit per job, in a Slurm format (e.g. 90, 2:00:00, 1-00:00:00; default: three
    /// times the predicted time of the slowest task, plus 10 minutes).
    #[arg(long)]
    time: Option<String>,
    /// CPUs per task (the threads of each job), 1 to 1024.
    #[arg(long, default_value_t = 1)]
    cpus_per_task: u32,
    /// Memory per job, in a Slurm format (e.g. 500M, 2G; default: from the measured footprint).
    #[arg(long)]
    mem: Option<String>,
    /// The dpbai binary as the jobs call it (default: `dpbai` from the cluster's PATH).
    #[arg(long)]
    bin: Option<String>,
    /// Re-plan a folder that holds another experiment's plan, jobs or outputs: move them into
    /// DIR/previous-N/ first (the cell caches stay; they are named by their cells' digests).
    #[arg(long)]
    force: bool,
    /// `verify ARGS…`, `run ARGS…` or `experiment STUDY.toml [--runs R]`, after `--`.
    #[arg(last = true, required = true, num_args = 1..)]
    command: Vec<String>,
}

/// `--dir` of `cluster status`.
#[derive(clap::Args, Debug)]
struct DirArgs {
    /// Folder of a plan written by `dpbai cluster slurm`.
    #[arg(long)]
    dir: PathBuf,
}

/// Arguments of `dpbai cluster resubmit`.
#[derive(clap::Args, Debug)]
struct ResubmitArgs {
    /// Folder of a plan written by `dpbai cluster slurm`.
    #[arg(long)]
    dir: PathBuf,
    /// Print the sbatch commands instead of running them.
    #[arg(long)]
    dry_run: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Sub::Slurm(a) => slurm(*a),
        Sub::Status(a) => status(&a.dir),
        Sub::Resubmit(a) => resubmit(&a.dir, a.dry_run),
    }
}

/// `dpbai cluster slurm`.
fn slurm(a: SlurmArgs) -> anyhow::Result<()> {
    let (mode, args) = match a.command.split_first() {
        Some((m, rest)) if m == "verify" => (Mode::Verify, rest.to_vec()),
        Some((m, rest)) if m == "run" => (Mode::Run, rest.to_vec()),
        Some((m, rest)) if m == "experiment" => (Mode::Experiment, rest.to_vec()),
        Some((m, _)) => {
            return Err(super::errors::usage(format!(
                "invalid command `{m}` after `--`: must be verify, run or experiment"
            )));
        }
        None => {
            return Err(super::errors::usage(
                "missing command after `--`: verify, run or experiment",
            ));
        }
    };
    if !(1..=MAX_CPUS).contains(&a.cpus_per_task) {
        return Err(super::errors::usage(format!(
            "invalid --cpus-per-task {}: must be in 1..={MAX_CPUS}",
            a.cpus_per_task
        )));
    }
    if let Some(t) = &a.time {
        check_time(t)?;
    }
    if let Some(m) = &a.mem {
        check_mem(m)?;
    }
    if let Some(p) = &a.partition {
        check_partition(p)?;
    }
    for (flag, v) in [("account", &a.account), ("qos", &a.qos)] {
        if let Some(v) = v {
            check_name(flag, v)?;
        }
    }
    for l in &a.sbatch_extra {
        check_sbatch_extra(l)?;
    }
    for l in &a.setup {
        check_setup(l)?;
    }
    if a.bin.as_deref() == Some("") {
        return Err(super::errors::usage(
            "invalid --bin ``: must name the dpbai binary",
        ));
    }
    // The study file of `experiment` is copied into DIR (the jobs run there) under its name.
    let mut study_file = None;
    let (costs, merge_out) = match mode {
        Mode::Experiment => {
            let (given, cells) = experiment_cells(Path::new("."), &args)?;
            study_file = Some(given);
            (
                cells
                    .iter()
                    .map(cell_cost)
                    .collect::<anyhow::Result<Vec<_>>>()?,
                None,
            )
        }
        Mode::Verify => (
            verify_cells(&args)?
                .iter()
                .map(cell_cost)
                .collect::<anyhow::Result<Vec<_>>>()?,
            None,
        ),
        Mode::Run => {
            let (c, out) = run_cost(&args)?;
            (vec![c], out)
        }
    };
    let min_runs = costs.iter().map(|c| c.runs).min().unwrap_or(1);
    let cpus = f64::from(a.cpus_per_task);
    let total_s: f64 = predicted_task_seconds(&costs, 1).iter().sum();
    let tasks = match a.tasks {
        Some(n) if !(1..=MAX_TASKS).contains(&n) => {
            return Err(super::errors::usage(format!(
                "invalid --tasks {n}: must be in 1..={MAX_TASKS}"
            )));
        }
        Some(n) if n > min_runs => {
            return Err(super::errors::usage(format!(
                "invalid --tasks {n}: must be at most {min_runs}, the runs of the smallest cell \
                 (a task with no run of a cell has nothing to do)"
            )));
        }
        Some(n) => n,
        None => {
            // About an hour of predicted work per task, and few enough runs per task for one
            // process (a run command is then checked with that task count below).
            let per_process = crate::params::limits::MAX_RUNS;
            let by_runs = costs
                .iter()
                .map(|c| c.runs.div_ceil(per_process))
                .max()
                .unwrap_or(1);
            ((total_s / cpus / 3600.0).ceil() as u64)
                .max(by_runs)
                .clamp(1, min_runs.min(MAX_TASKS))
        }
    };
    let run_spec = match mode {
        Mode::Run => Some(check_run_task(&args, tasks)?),
        Mode::Verify | Mode::Experiment => None,
    };
    let predicted: Vec<f64> = predicted_task_seconds(&costs, tasks)
        .into_iter()
        .map(|s| s / cpus)
        .collect();
    let slowest = predicted.iter().copied().fold(0.0, f64::max);
    let time = a
        .time
        .clone()
        .unwrap_or_else(|| slurm_time((3.0 * slowest / 60.0).ceil() as u64 + 10));
    let mem = a
        .mem
        .clone()
        .unwrap_or_else(|| format!("{}M", default_mem_mb(a.cpus_per_task)));
    let bin = a.bin.clone().unwrap_or_else(|| "dpbai".to_string());
    let dir = &a.dir;
    // The plan's files never overwrite an input or an output of the command.
    if let Some(given) = &study_file {
        let name = given.file_name().map(|n| n.to_string_lossy().to_string());
        if let Some(n) = name.filter(|n| PLAN_FILES.contains(&n.as_str())) {
            return Err(super::errors::usage(format!(
                "the study file {} is named like the plan's own {n}: rename it",
                given.display()
            )));
        }
        check_not_plan_file(dir, "the study file", given)?;
    }
    match mode {
        Mode::Run => {
            if let Some(out) = run_cmd(&args)?.out {
                check_not_plan_file(dir, "--out", &out)?;
            }
        }
        Mode::Verify => {
            if let Some(e) = verify_expected(&args)? {
                check_not_plan_file(dir, "--expected", &e)?;
            }
        }
        Mode::Experiment => {}
    }
    // The arguments as the jobs see them: the study file under its name in DIR.
    let mut args = args;
    let mut study_copy = None;
    if let Some(given) = &study_file {
        let name = given
            .file_name()
            .ok_or_else(|| super::errors::usage(format!("{} names no file", given.display())))?;
        study_copy = Some(dir.join(name));
        let given = given.to_string_lossy();
        for a in args.iter_mut().filter(|a| **a == given) {
            *a = name.to_string_lossy().to_string();
        }
    }
    let plan = Plan {
        format: PLAN_FORMAT.to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        mode,
        args,
        tasks,
        cpus_per_task: a.cpus_per_task,
        time,
        mem,
        partition: a.partition.clone(),
        account: a.account.clone(),
        qos: a.qos.clone(),
        sbatch_extra: a.sbatch_extra.clone(),
        setup: a.setup.clone(),
        bin,
        predicted_task_s: predicted.clone(),
    };
    plan.validate(&dir.join("plan.json"))?;
    let other = replan::other_experiment(dir, &plan, run_spec.as_ref());
    if !a.force {
        let shell_dir = sh_quote(&dir.to_string_lossy());
        if dir.join("jobs.txt").exists() {
            return Err(super::errors::usage(format!(
                "{} already holds submitted jobs (jobs.txt): use a new --dir, \
                 `dpbai cluster resubmit --dir {shell_dir}`, or --force to move the previous \
                 plan and its outputs into {}/previous-N/",
                dir.display(),
                dir.display()
            )));
        }
        if let Some(why) = &other {
            return Err(super::errors::usage(format!(
                "{} holds another experiment's files ({why}): use a new --dir, or --force to \
                 move the previous plan and its outputs into {}/previous-N/",
                dir.display(),
                dir.display()
            )));
        }
    } else if other.is_some() || dir.join("jobs.txt").exists() {
        let had_jobs = dir.join("jobs.txt").exists();
        if let Some((aside, moved)) = replan::move_aside(dir)? {
            println!(
                "moved the previous plan's {} into {} (the cell caches stay: their files are \
                 named by their cells' digests)",
                moved.join(", "),
                aside.display()
            );
            if had_jobs {
                eprintln!(
                    "note: if the previous plan's jobs still run, cancel them (scancel the ids in \
                     {}/jobs.txt): they write into {}",
                    aside.display(),
                    dir.display()
                );
            }
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| crate::Error::io("create", dir, e))?;
    if let (Some(given), Some(copy)) = (&study_file, &study_copy) {
        if std::fs::canonicalize(given).ok() != std::fs::canonicalize(copy).ok() {
            std::fs::copy(given, copy).map_err(|e| crate::Error::io("copy", given, e))?;
        }
    }
    let [task, assemble, submit] = scripts(&plan, merge_out.as_deref());
    write_file(&dir.join("task.sh"), &task, true)?;
    write_file(&dir.join("assemble.sh"), &assemble, true)?;
    write_file(&dir.join("submit.sh"), &submit, true)?;
    let json = serde_json::to_string_pretty(&plan).context("serialising the plan")?;
    write_file(&dir.join("plan.json"), &(json + "\n"), false)?;

    let mut sorted = predicted.clone();
    sorted.sort_by(f64::total_cmp);
    let whole = whole_cell_loads(&costs, tasks);
    let whole_max = whole.iter().copied().fold(0.0, f64::max) / cpus;
    println!(
        "wrote {}/{{task.sh,assemble.sh,submit.sh,plan.json}}: {tasks} tasks, {} CPU(s), \
         --mem {}, --time {}",
        dir.display(),
        plan.cpus_per_task,
        plan.mem,
        plan.time
    );
    println!(
        "predicted task time (cost model): min {:.0} s, median {:.0} s, max {:.0} s, spread \
         (max-min)/mean {:.2}%; whole cells per task would give max {:.0} s, spread {:.1}%",
        sorted[0],
        sorted[sorted.len() / 2],
        slowest,
        100.0 * spread(&predicted),
        whole_max,
        100.0 * spread(&whole)
    );
    if tasks > 1000 {
        eprintln!(
            "note: {tasks} tasks exceed Slurm's default MaxArraySize (1001): check the cluster's"
        );
    }
    if plan.bin == "dpbai" && which("dpbai").is_none() {
        eprintln!(
            "note: `dpbai` is not on this machine's PATH; the jobs call `dpbai` from the cluster's \
             PATH (or give --bin)"
        );
    }
    println!(
        "submit with: bash {}",
        sh_quote(&dir.join("submit.sh").to_string_lossy())
    );
    println!(
        "the jobs read and write {}: it must be on a filesystem the compute nodes share",
        dir.display()
    );
    Ok(())
}

/// The `--expected` file of `verify` arguments, if any.
fn verify_expected(args: &[String]) -> anyhow::Result<Option<PathBuf>> {
    use clap::Parser as _;
    Ok(plan::VerifyCmd::try_parse_from(args)
        .map_err(|e| plan::clap_usage("verify", e))?
        .args
        .expected)
}

/// The first `name` on PATH, if any.
fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|p| p.join(name))
        .find(|p| p.is_file())
}
