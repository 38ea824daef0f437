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

use anyhow::Context as _;
use dpbai::bandit::{AlgoName, DpaEpisodes};
use dpbai::complexity::{characteristic_time, log_factor, TimeKind};
use dpbai::instance::{Family, Instance};
use dpbai::mc::Shard;
use dpbai::report::experiments::{shard_present, Cell};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
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
    Slurm(SlurmArgs),
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
    /// Tasks of the job array (default: about one predicted hour of work per task).
    #[arg(long)]
    tasks: Option<u64>,
    /// Slurm partition (default: the cluster's default partition).
    #[arg(long)]
    partition: Option<String>,
    /// Time limit per job, in a Slurm format (e.g. 90, 2:00:00, 1-00:00:00; default: three
    /// times the predicted time of the slowest task, plus 10 minutes).
    #[arg(long)]
    time: Option<String>,
    /// CPUs per task (the threads of each job).
    #[arg(long, default_value_t = 1)]
    cpus_per_task: u32,
    /// Memory per job, in a Slurm format (e.g. 500M, 2G; default: from the measured footprint).
    #[arg(long)]
    mem: Option<String>,
    /// The dpbai binary as the jobs call it (default: `dpbai` from the cluster's PATH).
    #[arg(long)]
    bin: Option<String>,
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
        Sub::Slurm(a) => slurm(a),
        Sub::Status(a) => status(&a.dir),
        Sub::Resubmit(a) => resubmit(&a.dir, a.dry_run),
    }
}

// ---------------------------------------------------------------------------------------------
// Cost model

/// Mean stopping time (capped runs at the cap) over the sample-complexity lower bound
/// `T* · log(1/(2.4δ))`: the median ratio over the cells of each algorithm in the paper
/// profile's table (paper-profile/REPORT.md, δ = 0.01; TTUCB 0.36 to 1.4 times this value, CTB-TT
/// and DP-SE 0.2 to 4.5 times, AdaP-TT(*) 0.1 to 60 times: starvation). The provable thresholds
/// are far from their asymptotic forms at δ = 0.01 (F.30).
pub fn tau_over_bound(algo: AlgoName) -> f64 {
    match algo {
        AlgoName::Ttucb => 7.5,
        AlgoName::DpaTt => 16.0,
        AlgoName::CtbTt | AlgoName::GaussLdpTt | AlgoName::DpSe => 28.0,
        AlgoName::AdapTt => 230.0,
        AlgoName::AdapTtStar => 270.0,
    }
}

/// Measured cost of one sample on one thread, in ns (`1e9 / samples_per_s` of `dpbai run --algo
/// A --delta 0.01 --runs 6 --threads 1 --json` on the 2-core development machine: TTUCB 185 on
/// μ1; CTB-TT 124 to 127 on μ1; DP-SE 0.7 to 2.5 and AdaP-TT(*) 8 to 29 on μ1 and μ6 at ε from
/// 0.001 to 0.5, because they skip the samples between two releases at once; DPA-TT 50 on μ4).
pub fn ns_per_sample(algo: AlgoName) -> f64 {
    match algo {
        AlgoName::Ttucb => 185.0,
        AlgoName::CtbTt | AlgoName::GaussLdpTt => 125.0,
        AlgoName::AdapTt | AlgoName::AdapTtStar => 12.0,
        AlgoName::DpSe => 1.5,
        AlgoName::DpaTt => 50.0,
    }
}

/// Cost of one sample of a DPA-TT run with global episodes, which stalls and burns the cap
/// between rare releases (measured: 0.018 ns per sample, 4 capped runs of 2e8 samples on μ4).
pub const DPA_GLOBAL_NS_PER_SAMPLE: f64 = 0.02;

/// Fixed cost of one cell in one task (algorithm set-up, thread pool, shard file), seconds.
pub const CELL_OVERHEAD_S: f64 = 0.005;

/// Predicted single-thread seconds of one run of `algo` on `nu` (see the module docs).
///
/// # Errors
/// Those of the characteristic time (e.g. an instance outside its domain).
pub fn run_seconds(
    algo: AlgoName,
    nu: &Instance,
    eps: Option<f64>,
    delta: f64,
    max_steps: u64,
    episodes: DpaEpisodes,
) -> dpbai::Result<f64> {
    let cap = max_steps as f64;
    if algo == AlgoName::DpaTt && episodes == DpaEpisodes::Global {
        return Ok(cap * DPA_GLOBAL_NS_PER_SAMPLE * 1e-9);
    }
    let samples = {
        let kind = match (algo, eps) {
            (AlgoName::CtbTt | AlgoName::GaussLdpTt, Some(eps)) => TimeKind::Local { eps },
            (AlgoName::DpSe | AlgoName::AdapTt | AlgoName::AdapTtStar, Some(eps)) => {
                TimeKind::Global { eps }
            }
            _ => TimeKind::Kl,
        };
        let t = characteristic_time(kind, nu)?.value;
        (tau_over_bound(algo) * t * log_factor(delta)?).clamp(1.0, cap)
    };
    Ok(samples * ns_per_sample(algo) * 1e-9)
}

/// One cell of the cost model: predicted seconds per run, and its run count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellCost {
    /// Predicted single-thread seconds of one run.
    pub run_s: f64,
    /// Runs of the cell.
    pub runs: u64,
}

fn cell_cost(cell: &Cell) -> anyhow::Result<CellCost> {
    let nu = cell.instance()?;
    Ok(CellCost {
        run_s: run_seconds(
            cell.algo,
            &nu,
            cell.eps,
            cell.delta,
            cell.max_steps,
            cell.dpa_episodes,
        )?,
        runs: cell.runs,
    })
}

/// Predicted single-thread seconds of every task `0..n` when task `i` runs the runs
/// `r ≡ i (mod n)` of every cell (plus [`CELL_OVERHEAD_S`] per cell).
pub fn predicted_task_seconds(cells: &[CellCost], n: u64) -> Vec<f64> {
    (0..n)
        .map(|i| {
            cells
                .iter()
                .map(|c| {
                    let runs = c.runs / n + u64::from(i < c.runs % n);
                    runs as f64 * c.run_s + CELL_OVERHEAD_S
                })
                .sum()
        })
        .collect()
}

/// Loads of `n` tasks when whole cells are assigned greedily, most expensive first, each to the
/// least loaded task (the alternative the module docs compare with).
pub fn whole_cell_loads(cells: &[CellCost], n: u64) -> Vec<f64> {
    let mut costs: Vec<f64> = cells
        .iter()
        .map(|c| c.runs as f64 * c.run_s + CELL_OVERHEAD_S)
        .collect();
    costs.sort_by(|a, b| b.total_cmp(a));
    let mut loads: Vec<f64> = vec![0.0; n as usize];
    for c in costs {
        if let Some(min) = loads.iter_mut().min_by(|a, b| a.total_cmp(b)) {
            *min += c;
        }
    }
    loads
}

/// `(max − min) / mean` of task times (0 for no task or a zero mean).
pub fn spread(times: &[f64]) -> f64 {
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    let max = times.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = times.iter().copied().fold(f64::INFINITY, f64::min);
    if times.is_empty() || mean <= 0.0 {
        0.0
    } else {
        (max - min) / mean
    }
}

// ---------------------------------------------------------------------------------------------
// Memory

/// Peak RSS of a `verify --shard` job on one thread, KiB (`/usr/bin/time -v dpbai verify
/// --profile quick --runs 16 --shard 0/2 --threads 1`: 5456 KiB).
pub const MEASURED_BASE_KIB: u64 = 5456;
/// Extra peak RSS per thread, KiB (same command with `--threads 2`: 5908 KiB).
pub const MEASURED_PER_THREAD_KIB: u64 = 452;
/// Peak RSS of the assembly without its per-thread part, KiB (`verify` rendering REPORT.md and
/// figures from a complete cache, `--profile quick --runs 16 --threads 2`: 18064 KiB).
pub const MEASURED_ASSEMBLY_KIB: u64 = 18_064 - 2 * MEASURED_PER_THREAD_KIB;
/// Safety factor on the measured footprints (allocator slack, larger cells of bigger profiles).
pub const MEM_SAFETY: u64 = 4;

/// Default `--mem` in MiB for `cpus` threads: the measured footprint of a task or of the
/// assembly, whichever is larger, times [`MEM_SAFETY`], rounded up to a multiple of 64 MiB.
pub fn default_mem_mb(cpus: u32) -> u64 {
    let task = MEASURED_BASE_KIB + MEASURED_PER_THREAD_KIB * u64::from(cpus);
    let kib = task.max(MEASURED_ASSEMBLY_KIB + MEASURED_PER_THREAD_KIB * u64::from(cpus));
    let mib = (kib * MEM_SAFETY).div_ceil(1024);
    mib.div_ceil(64) * 64
}

// ---------------------------------------------------------------------------------------------
// The plan

/// Format tag of `plan.json`.
pub const PLAN_FORMAT: &str = "dpbai-cluster-plan/1";

/// `verify`, `run` or `experiment`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Mode {
    Verify,
    Run,
    Experiment,
}

impl Mode {
    fn as_str(self) -> &'static str {
        match self {
            Mode::Verify => "verify",
            Mode::Run => "run",
            Mode::Experiment => "experiment",
        }
    }
}

/// What `cluster status` and `cluster resubmit` need to know (DIR/plan.json).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Plan {
    format: String,
    version: String,
    mode: Mode,
    /// The user's arguments after `verify`/`run`.
    args: Vec<String>,
    tasks: u64,
    cpus_per_task: u32,
    time: String,
    mem: String,
    partition: Option<String>,
    bin: String,
    /// Predicted wall seconds of every task.
    predicted_task_s: Vec<f64>,
}

/// A shell word: unchanged when it needs no quoting, else single-quoted.
fn sh_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=,+@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn sh_join(words: &[String]) -> String {
    words
        .iter()
        .map(|w| sh_quote(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Slurm time from minutes: `H:MM:00`, or `D-HH:MM:00` from one day on.
pub fn slurm_time(minutes: u64) -> String {
    let (d, h, m) = (minutes / 1440, (minutes % 1440) / 60, minutes % 60);
    if d > 0 {
        format!("{d}-{h:02}:{m:02}:00")
    } else {
        format!("{h}:{m:02}:00")
    }
}

/// `Ok` when `ok`, else the usage error `invalid --FLAG `VALUE`: must be WHAT`.
fn check_flag(flag: &str, value: &str, ok: bool, what: &str) -> anyhow::Result<()> {
    if ok {
        Ok(())
    } else {
        Err(super::usage(format!(
            "invalid --{flag} `{value}`: must be {what}"
        )))
    }
}

fn check_time(t: &str) -> anyhow::Result<()> {
    let ok = t.starts_with(|c: char| c.is_ascii_digit())
        && t.chars()
            .all(|c| c.is_ascii_digit() || c == ':' || c == '-');
    check_flag(
        "time",
        t,
        ok,
        "a Slurm time such as 90, 2:00:00 or 1-00:00:00",
    )
}

fn check_mem(m: &str) -> anyhow::Result<()> {
    let digits = m.trim_end_matches(['K', 'M', 'G', 'T']);
    let ok = !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && m.len() <= digits.len() + 1;
    check_flag("mem", m, ok, "a Slurm size such as 500M or 2G")
}

fn check_partition(p: &str) -> anyhow::Result<()> {
    let ok = !p.is_empty()
        && p.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.,".contains(c));
    check_flag("partition", p, ok, "letters, digits and `_-.,` only")
}

/// The first line of a clap error, as a usage error.
fn clap_usage(what: &str, e: clap::Error) -> anyhow::Error {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("bad arguments").to_string();
    super::usage(format!("in the `{what}` command after `--`: {first}"))
}

#[derive(clap::Parser, Debug)]
#[command(name = "verify", no_binary_name = true)]
struct VerifyCmd {
    #[command(flatten)]
    args: super::verify::Args,
}

#[derive(clap::Parser, Debug)]
#[command(name = "experiment", no_binary_name = true)]
struct ExperimentCmd {
    #[command(flatten)]
    args: super::experiment::Args,
}

/// Validates `experiment` arguments (its study file read relative to `base`); returns the
/// study file's path as given and the cells of its shards.
fn experiment_cells(base: &Path, args: &[String]) -> anyhow::Result<(PathBuf, Vec<Cell>)> {
    use clap::Parser as _;
    let mut e = ExperimentCmd::try_parse_from(args)
        .map_err(|e| clap_usage("experiment", e))?
        .args;
    if e.shard.is_some() || e.out_dir.is_some() || e.threads.is_some() {
        return Err(super::usage(
            "the `experiment` command after `--` must not set --shard, --out-dir or --threads: \
             the plan sets them (--dir, --tasks, --cpus-per-task)",
        ));
    }
    let given = e.config.clone();
    e.config = base.join(&e.config);
    let study = super::experiment::load(&e)?;
    Ok((given, study.cells.into_iter().map(|c| c.cell).collect()))
}

#[derive(clap::Parser, Debug)]
#[command(name = "run", no_binary_name = true)]
struct RunCmd {
    #[command(flatten)]
    args: super::run::Args,
}

/// Validates `verify` arguments; returns the cells of its shards.
fn verify_cells(args: &[String]) -> anyhow::Result<Vec<Cell>> {
    use clap::Parser as _;
    let v = VerifyCmd::try_parse_from(args)
        .map_err(|e| clap_usage("verify", e))?
        .args;
    if v.shard.is_some() || v.out_dir != Path::new(".") || v.threads.is_some() {
        return Err(super::usage(
            "the `verify` command after `--` must not set --shard, --out-dir or --threads: the \
             plan sets them (--dir, --tasks, --cpus-per-task)",
        ));
    }
    if v.no_experiments {
        return Err(super::usage(
            "--no-experiments runs no Monte Carlo cell: run it without a cluster",
        ));
    }
    let profile = super::verify::profile_of(&v)?;
    Ok(super::verify::shard_cells(&profile))
}

/// Validates `run` arguments; returns its cost as one cell and the `--out` file it names.
fn run_cost(args: &[String]) -> anyhow::Result<(CellCost, Option<PathBuf>)> {
    use clap::Parser as _;
    let r = RunCmd::try_parse_from(args)
        .map_err(|e| clap_usage("run", e))?
        .args;
    if r.shard.is_some() || r.threads.is_some() {
        return Err(super::usage(
            "the `run` command after `--` must not set --shard or --threads: the plan sets them \
             (--tasks, --cpus-per-task)",
        ));
    }
    if r.runs == 0 {
        return Err(super::usage("invalid --runs 0: must be at least 1"));
    }
    let means: Vec<f64> = r
        .means
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| super::usage(format!("invalid --means `{}`", r.means)))?;
    let family = match r.sigma {
        Some(sigma) => Family::Gaussian { sigma },
        None if r.family == super::run::FamilyArg::Gaussian => Family::Gaussian { sigma: 1.0 },
        None => Family::Bernoulli,
    };
    let nu = Instance::new(family, means)?;
    let max_steps = r.max_steps.unwrap_or(super::run::DEFAULT_MAX_STEPS);
    let run_s = run_seconds(r.algo, &nu, r.eps, r.delta, max_steps, r.dpa_episodes)?;
    Ok((
        CellCost {
            run_s,
            runs: r.runs,
        },
        r.out,
    ))
}

/// `run` arguments for the tasks: without `--out FILE` (it goes to the merge) and `--json`.
fn task_run_args(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
        } else if a == "--out" {
            skip = true;
        } else if !(a.starts_with("--out=") || a == "--json") {
            out.push(a.clone());
        }
    }
    out
}

/// The array spec of a set of task indices: `0-3,7,9-10`.
pub fn array_spec(tasks: &[u64]) -> String {
    let mut v = tasks.to_vec();
    v.sort_unstable();
    v.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            v[i].to_string()
        } else {
            format!("{}-{}", v[i], v[j])
        });
        i = j + 1;
    }
    parts.join(",")
}

/// The task indices of an array spec (`0-3,7`, optionally with a `%limit` or brackets).
pub fn parse_array_spec(spec: &str) -> Option<Vec<u64>> {
    let spec = spec.trim().trim_start_matches('[').trim_end_matches(']');
    let spec = spec.split('%').next()?;
    let mut out = Vec::new();
    for part in spec.split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u64, u64) = (a.parse().ok()?, b.parse().ok()?);
                if b < a || b - a > 1_000_000 {
                    return None;
                }
                out.extend(a..=b);
            }
            None => out.push(part.parse().ok()?),
        }
    }
    Some(out)
}

/// The text of the three scripts (task.sh, assemble.sh, submit.sh).
fn scripts(plan: &Plan, merge_out: Option<&Path>) -> [String; 3] {
    let n = plan.tasks;
    let c = plan.cpus_per_task;
    let bin = sh_quote(&plan.bin);
    let user = sh_join(&plan.args);
    // For the comment lines: a quoted newline would end the comment.
    let user_line = user.replace(['\n', '\r'], " ");
    let what = plan.mode.as_str();
    let header = |name: &str, output: &str| {
        let mut s = format!(
            "#!/bin/bash\n# Written by `dpbai cluster slurm` (dpbai {}): {}.\n\
             #SBATCH --job-name={name}\n#SBATCH --cpus-per-task={c}\n#SBATCH --mem={}\n\
             #SBATCH --time={}\n#SBATCH --output={output}\n",
            plan.version,
            match name {
                "dpbai-tasks" => format!(
                    "task i of the job array runs shard i/{n} of `dpbai {what} {user_line}`"
                ),
                _ => format!("assembles the {n} shards of `dpbai {what} {user_line}`"),
            },
            plan.mem,
            plan.time,
        );
        if let Some(p) = &plan.partition {
            let _ = writeln!(s, "#SBATCH --partition={p}");
        }
        s
    };
    let mut task = header("dpbai-tasks", "logs/task-%a.out");
    let _ = writeln!(task, "#SBATCH --array=0-{}", n - 1);
    task.push_str(
        "set -eu\ni=\"${SLURM_ARRAY_TASK_ID:?submit with sbatch --array, see submit.sh}\"\n",
    );
    let mut assemble = header("dpbai-assemble", "logs/assemble.out");
    assemble.push_str("set -eu\n");
    match plan.mode {
        Mode::Verify => {
            let _ = writeln!(
                task,
                "exec {bin} verify {user} --shard \"$i/{n}\" --threads {c} --out-dir ."
            );
            let _ = writeln!(
                assemble,
                "exec {bin} verify {user} --threads {c} --out-dir ."
            );
        }
        Mode::Experiment => {
            let _ = writeln!(
                task,
                "exec {bin} experiment {user} --shard \"$i/{n}\" --threads {c} --out-dir ."
            );
            let _ = writeln!(
                assemble,
                "exec {bin} experiment {user} --threads {c} --out-dir ."
            );
        }
        Mode::Run => {
            let targs = sh_join(&task_run_args(&plan.args));
            let _ = writeln!(
                task,
                "exec {bin} run {targs} --shard \"$i/{n}\" --threads {c} --out \"shards/run-$i.json\""
            );
            let files: Vec<String> = (0..n).map(|i| format!("shards/run-{i}.json")).collect();
            let out = merge_out.map_or(String::new(), |p| {
                format!(" --out {}", sh_quote(&p.to_string_lossy()))
            });
            let _ = writeln!(
                assemble,
                "{bin} merge {} --json{out} > summary.json.part\nmv summary.json.part summary.json",
                files.join(" ")
            );
        }
    }
    let submit = format!(
        "#!/bin/bash\n\
         # Written by `dpbai cluster slurm` (dpbai {}): submits the job array (task.sh, {n} tasks)\n\
         # and the assembly (assemble.sh) chained to it with --dependency=afterok; appends the job\n\
         # ids to jobs.txt, which `dpbai cluster status` and `dpbai cluster resubmit` read.\n\
         set -eu\n\
         cd \"$(dirname \"$0\")\"\n\
         mkdir -p logs{}\n\
         tasks=$(sbatch --parsable --array=0-{} task.sh)\n\
         tasks=${{tasks%%;*}}\n\
         echo \"tasks $tasks 0-{}\" >> jobs.txt\n\
         assemble=$(sbatch --parsable --dependency=afterok:$tasks --kill-on-invalid-dep=yes assemble.sh)\n\
         assemble=${{assemble%%;*}}\n\
         echo \"assemble $assemble\" >> jobs.txt\n\
         echo \"submitted job array $tasks ({n} tasks) and assembly job $assemble\"\n\
         echo \"follow with: dpbai cluster status --dir $PWD\"\n",
        plan.version,
        if plan.mode == Mode::Run { " shards" } else { "" },
        n - 1,
        n - 1,
    );
    [task, assemble, submit]
}

fn write_file(path: &Path, text: &str, executable: bool) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    #[cfg(unix)]
    if executable {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .with_context(|| format!("making {} executable", path.display()))?;
    }
    #[cfg(not(unix))]
    let _ = executable;
    Ok(())
}

/// `dpbai cluster slurm`.
fn slurm(a: SlurmArgs) -> anyhow::Result<()> {
    let (mode, args) = match a.command.split_first() {
        Some((m, rest)) if m == "verify" => (Mode::Verify, rest.to_vec()),
        Some((m, rest)) if m == "run" => (Mode::Run, rest.to_vec()),
        Some((m, rest)) if m == "experiment" => (Mode::Experiment, rest.to_vec()),
        Some((m, _)) => {
            return Err(super::usage(format!(
                "invalid command `{m}` after `--`: must be verify, run or experiment"
            )))
        }
        None => {
            return Err(super::usage(
                "missing command after `--`: verify, run or experiment",
            ))
        }
    };
    if a.cpus_per_task == 0 {
        return Err(super::usage(
            "invalid --cpus-per-task 0: must be at least 1",
        ));
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
    if a.bin.as_deref() == Some("") {
        return Err(super::usage("invalid --bin ``: must name the dpbai binary"));
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
        Some(0) => return Err(super::usage("invalid --tasks 0: must be at least 1")),
        Some(n) if n > min_runs => {
            return Err(super::usage(format!(
                "invalid --tasks {n}: must be at most {min_runs}, the runs of the smallest cell \
                 (a task with no run of a cell has nothing to do)"
            )))
        }
        Some(n) => n,
        None => ((total_s / cpus / 3600.0).ceil() as u64).clamp(1, min_runs),
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
    if dir.join("jobs.txt").exists() {
        return Err(super::usage(format!(
            "{} already holds submitted jobs (jobs.txt): use a new --dir, or \
             `dpbai cluster resubmit --dir {}`",
            dir.display(),
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut args = args;
    if let Some(given) = &study_file {
        let name = given
            .file_name()
            .ok_or_else(|| super::usage(format!("{} names no file", given.display())))?;
        let copy = dir.join(name);
        if std::fs::canonicalize(given).ok() != std::fs::canonicalize(&copy).ok() {
            std::fs::copy(given, &copy)
                .with_context(|| format!("copying {} into {}", given.display(), dir.display()))?;
        }
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
        bin,
        predicted_task_s: predicted.clone(),
    };
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
    println!("submit with: bash {}", dir.join("submit.sh").display());
    Ok(())
}

/// The first `name` on PATH, if any.
fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|p| p.join(name))
        .find(|p| p.is_file())
}

// ---------------------------------------------------------------------------------------------
// Status

/// State of one task of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TaskState {
    /// Its output files are complete.
    Done,
    /// Slurm runs it.
    Running,
    /// Slurm has it queued.
    Pending,
    /// It ran (log written, or Slurm accounting says so) and its output is incomplete.
    Failed,
    /// It never ran and is not queued.
    Missing,
}

impl TaskState {
    fn as_str(self) -> &'static str {
        match self {
            TaskState::Done => "done",
            TaskState::Running => "running",
            TaskState::Pending => "pending",
            TaskState::Failed => "failed",
            TaskState::Missing => "missing",
        }
    }
}

/// The state of a task from its evidence: complete outputs, its squeue state code (`R`, `PD`,
/// …), its sacct state (`FAILED`, `CANCELLED by 0`, …) and whether its log exists.
pub fn classify(
    done: bool,
    queued: Option<&str>,
    accounted: Option<&str>,
    log_exists: bool,
) -> TaskState {
    if done {
        return TaskState::Done;
    }
    match queued {
        Some("R" | "CG" | "S" | "ST" | "SI" | "SO" | "RS" | "RH") => return TaskState::Running,
        Some(_) => return TaskState::Pending,
        None => {}
    }
    match accounted.and_then(|s| s.split_whitespace().next()) {
        Some("RUNNING" | "COMPLETING" | "SUSPENDED") => TaskState::Running,
        Some("PENDING" | "REQUEUED") => TaskState::Pending,
        // Any end state without complete outputs (FAILED, CANCELLED, TIMEOUT, OUT_OF_MEMORY,
        // NODE_FAIL, COMPLETED with missing files, …).
        Some(_) => TaskState::Failed,
        None if log_exists => TaskState::Failed,
        None => TaskState::Missing,
    }
}

/// Parses `JOBID_TASK STATE` lines (squeue `-o "%i %t"`, or sacct `-n -P -o JobID,State` with
/// `|`) into `(job, task) → state`; pending ranges `JOBID_[2-5%4]` give one entry per task.
/// Lines of other jobs, steps (`123_4.batch`) and non-array jobs are skipped.
pub fn parse_job_states(text: &str) -> BTreeMap<(u64, u64), String> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim();
        let (id, state) = match line.split_once('|').or_else(|| line.split_once(' ')) {
            Some((a, b)) => (a.trim(), b.trim()),
            None => continue,
        };
        let Some((job, task)) = id.split_once('_') else {
            continue;
        };
        let Ok(job) = job.parse::<u64>() else {
            continue;
        };
        if task.contains('.') {
            continue;
        }
        let Some(tasks) = parse_array_spec(task) else {
            continue;
        };
        for t in tasks {
            out.insert((job, t), state.to_string());
        }
    }
    out
}

/// The job ids in jobs.txt: the latest array job of every task, and the latest assembly job.
fn read_jobs(dir: &Path) -> (BTreeMap<u64, u64>, Option<u64>) {
    let text = std::fs::read_to_string(dir.join("jobs.txt")).unwrap_or_default();
    parse_jobs(&text)
}

/// Parses jobs.txt (`tasks JOBID SPEC` and `assemble JOBID` lines, later lines win).
pub fn parse_jobs(text: &str) -> (BTreeMap<u64, u64>, Option<u64>) {
    let mut tasks = BTreeMap::new();
    let mut assemble = None;
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["tasks", id, spec] => {
                if let (Ok(id), Some(ix)) = (id.parse::<u64>(), parse_array_spec(spec)) {
                    for i in ix {
                        tasks.insert(i, id);
                    }
                }
            }
            ["assemble", id] => assemble = id.parse().ok().or(assemble),
            _ => {}
        }
    }
    (tasks, assemble)
}

fn read_plan(dir: &Path) -> anyhow::Result<Plan> {
    let path = dir.join("plan.json");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        super::usage(format!(
            "no plan in {} ({e}): write one with `dpbai cluster slurm --dir {}`",
            dir.display(),
            dir.display()
        ))
    })?;
    let plan: Plan = serde_json::from_str(&text)
        .map_err(|e| super::usage(format!("{} is not a dpbai plan ({e})", path.display())))?;
    if plan.format != PLAN_FORMAT {
        return Err(super::usage(format!(
            "{} has format `{}`, expected `{PLAN_FORMAT}`",
            path.display(),
            plan.format
        )));
    }
    Ok(plan)
}

/// Whether every output of task `i` is in `dir` (read through the library's own readers).
/// `cache` is the verify cache folder, `cells` the cells of a `verify` plan.
fn task_done(
    dir: &Path,
    plan: &Plan,
    cache: &Path,
    cells: &[Cell],
    i: u64,
) -> anyhow::Result<bool> {
    let shard = Shard::new(i, plan.tasks)?;
    Ok(match plan.mode {
        Mode::Verify | Mode::Experiment => cells.iter().all(|c| shard_present(c, cache, shard)),
        Mode::Run => {
            let path = dir.join("shards").join(format!("run-{i}.json"));
            match super::merge::read_shard_file(&path) {
                Ok(f) => {
                    f.shard == shard && f.records.iter().map(|r| r.run).eq(shard.runs(f.meta.runs))
                }
                Err(_) => false,
            }
        }
    })
}

/// `DIR/verify-cache/PROFILE`.
fn verify_cache(dir: &Path, plan: &Plan) -> anyhow::Result<PathBuf> {
    use clap::Parser as _;
    let v = VerifyCmd::try_parse_from(&plan.args)
        .map_err(|e| clap_usage("verify", e))?
        .args;
    Ok(dir.join("verify-cache").join(&v.profile))
}

fn plan_cells(dir: &Path, plan: &Plan) -> anyhow::Result<Vec<Cell>> {
    match plan.mode {
        Mode::Verify => verify_cells(&plan.args),
        Mode::Experiment => Ok(experiment_cells(dir, &plan.args)?.1),
        Mode::Run => Ok(Vec::new()),
    }
}

/// Output of a Slurm client, if it is installed and succeeds.
fn slurm_query(cmd: &str, args: &[String]) -> Option<String> {
    let out = std::process::Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// States of every task, and a line on the assembly.
/// What `cluster status` finds.
struct Progress {
    /// The state of every task.
    states: Vec<TaskState>,
    /// Whether the assembled output (REPORT.md or summary.json) is there.
    assembled: bool,
    /// Whether the latest assembly job is queued.
    assembly_queued: bool,
    /// One line on the assembly.
    line: String,
}

fn task_states(dir: &Path, plan: &Plan) -> anyhow::Result<Progress> {
    let cells = plan_cells(dir, plan)?;
    let cache = match plan.mode {
        Mode::Verify => verify_cache(dir, plan)?,
        Mode::Experiment => dir.join("cache"),
        Mode::Run => dir.join("shards"),
    };
    let (jobs, assemble) = read_jobs(dir);
    let mut ids: Vec<u64> = jobs.values().copied().collect();
    ids.extend(assemble);
    ids.sort_unstable();
    ids.dedup();
    let id_list = ids
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let (queue, acct, assemble_queued) = if ids.is_empty() {
        (BTreeMap::new(), BTreeMap::new(), None)
    } else {
        let q = slurm_query(
            "squeue",
            &["-h", "-r", "-j", &id_list, "-o", "%i %t"].map(String::from),
        );
        let a = slurm_query(
            "sacct",
            &["-n", "-P", "-X", "-j", &id_list, "-o", "JobID,State"].map(String::from),
        );
        let assemble_queued = q.as_deref().and_then(|q| {
            let id = assemble?.to_string();
            q.lines().find_map(|l| {
                let (j, s) = l.trim().split_once(' ')?;
                (j == id).then(|| s.to_string())
            })
        });
        (
            q.as_deref().map(parse_job_states).unwrap_or_default(),
            a.as_deref().map(parse_job_states).unwrap_or_default(),
            assemble_queued,
        )
    };
    let mut states = Vec::new();
    for i in 0..plan.tasks {
        let job = jobs.get(&i).copied();
        let key = job.map(|j| (j, i));
        let q = key.and_then(|k| queue.get(&k)).map(String::as_str);
        let s = key.and_then(|k| acct.get(&k)).map(String::as_str);
        let log = dir.join("logs").join(format!("task-{i}.out")).exists();
        states.push(classify(
            task_done(dir, plan, &cache, &cells, i)?,
            q,
            s,
            log,
        ));
    }
    let output = match plan.mode {
        Mode::Verify => "REPORT.md",
        Mode::Run => "summary.json",
        Mode::Experiment => "SUMMARY.md",
    };
    let assembled = dir.join(output).exists();
    let assembly_queued = assemble_queued.is_some();
    let line = if assembled {
        format!("{output} written")
    } else {
        match (assemble, assemble_queued) {
            (Some(j), Some(s)) => {
                format!("{output} not yet written; assembly job {j} queued ({s})")
            }
            (Some(j), None) => format!("{output} not written; assembly job {j} not queued"),
            (None, _) => format!("{output} not written; not submitted (bash submit.sh)"),
        }
    };
    Ok(Progress {
        states,
        assembled,
        assembly_queued,
        line,
    })
}

/// `dpbai cluster status`.
fn status(dir: &Path) -> anyhow::Result<()> {
    let plan = read_plan(dir)?;
    let Progress {
        states,
        line: assembled,
        ..
    } = task_states(dir, &plan)?;
    let (jobs, _) = read_jobs(dir);
    println!(
        "plan: dpbai {} {} as {} tasks",
        plan.mode.as_str(),
        sh_join(&plan.args),
        plan.tasks
    );
    println!("task  state    job");
    for (i, s) in states.iter().enumerate() {
        let job = jobs
            .get(&(i as u64))
            .map_or("-".to_string(), |j| format!("{j}_{i}"));
        println!("{i:<5} {:<8} {job}", s.as_str());
    }
    let count = |t: TaskState| states.iter().filter(|&&s| s == t).count();
    println!(
        "done {}, running {}, pending {}, failed {}, missing {} of {}; {assembled}",
        count(TaskState::Done),
        count(TaskState::Running),
        count(TaskState::Pending),
        count(TaskState::Failed),
        count(TaskState::Missing),
        plan.tasks
    );
    Ok(())
}

/// `dpbai cluster resubmit`.
fn resubmit(dir: &Path, dry_run: bool) -> anyhow::Result<()> {
    let plan = read_plan(dir)?;
    let progress = task_states(dir, &plan)?;
    let states = &progress.states;
    let busy: Vec<u64> = (0..plan.tasks)
        .filter(|&i| matches!(states[i as usize], TaskState::Running | TaskState::Pending))
        .collect();
    if !busy.is_empty() {
        return Err(super::usage(format!(
            "tasks {} are still queued or running: wait for them (or scancel them) before \
             resubmitting",
            array_spec(&busy)
        )));
    }
    let redo: Vec<u64> = (0..plan.tasks)
        .filter(|&i| matches!(states[i as usize], TaskState::Failed | TaskState::Missing))
        .collect();
    if redo.is_empty() && (progress.assembled || progress.assembly_queued) {
        println!(
            "nothing to resubmit: all {} tasks done; {}",
            plan.tasks, progress.line
        );
        return Ok(());
    }
    let (_, old_assemble) = read_jobs(dir);
    let mut cmds: Vec<Vec<String>> = Vec::new();
    if let Some(j) = old_assemble {
        // Its dependency can no longer be met; it may still wait (without
        // --kill-on-invalid-dep on older Slurm).
        cmds.push(vec!["scancel".into(), j.to_string()]);
    }
    let spec = array_spec(&redo);
    if !redo.is_empty() {
        cmds.push(
            [
                "sbatch",
                "--parsable",
                &format!("--array={spec}"),
                "task.sh",
            ]
            .map(String::from)
            .to_vec(),
        );
    }
    if dry_run {
        for c in &cmds {
            println!("{}", sh_join(c));
        }
        println!(
            "{}",
            sh_join(
                &[
                    "sbatch",
                    "--parsable",
                    if redo.is_empty() {
                        ""
                    } else {
                        "--dependency=afterok:TASKS"
                    },
                    "--kill-on-invalid-dep=yes",
                    "assemble.sh",
                ]
                .iter()
                .filter(|s| !s.is_empty())
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
            )
        );
        return Ok(());
    }
    std::fs::create_dir_all(dir.join("logs")).context("creating logs/")?;
    if plan.mode == Mode::Run {
        std::fs::create_dir_all(dir.join("shards")).context("creating shards/")?;
    }
    let run = |args: &[String]| -> anyhow::Result<String> {
        let out = std::process::Command::new(&args[0])
            .args(&args[1..])
            .current_dir(dir)
            .output()
            .with_context(|| format!("running {} (is Slurm installed?)", args[0]))?;
        if !out.status.success() && args[0] != "scancel" {
            anyhow::bail!(
                "{} failed: {}",
                sh_join(args),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(String::from_utf8_lossy(&out.stdout)
            .trim()
            .split(';')
            .next()
            .unwrap_or("")
            .to_string())
    };
    let mut log = String::new();
    let mut dep = Vec::new();
    for c in &cmds {
        let id = run(c)?;
        if c[0] == "sbatch" {
            let _ = writeln!(log, "tasks {id} {spec}");
            dep.push(format!("--dependency=afterok:{id}"));
        }
    }
    let mut asm: Vec<String> = vec!["sbatch".into(), "--parsable".into()];
    asm.extend(dep);
    asm.extend(["--kill-on-invalid-dep=yes".into(), "assemble.sh".into()]);
    let id = run(&asm)?;
    let _ = writeln!(log, "assemble {id}");
    let jobs = dir.join("jobs.txt");
    let mut text = std::fs::read_to_string(&jobs).unwrap_or_default();
    text.push_str(&log);
    std::fs::write(&jobs, text).with_context(|| format!("writing {}", jobs.display()))?;
    if redo.is_empty() {
        println!("no task to resubmit; assembly job {id} submitted");
    } else {
        println!(
            "resubmitted tasks {spec} ({} of {}) and the assembly job {id} chained to them",
            redo.len(),
            plan.tasks
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remainder_runs_go_to_the_first_tasks() {
        // Cell A: 10 runs of 1 s on 4 tasks -> 3,3,2,2 runs; cell B: 3 runs of 10 s -> 1,1,1,0.
        let cells = [
            CellCost {
                run_s: 1.0,
                runs: 10,
            },
            CellCost {
                run_s: 10.0,
                runs: 3,
            },
        ];
        let t = predicted_task_seconds(&cells, 4);
        let o = 2.0 * CELL_OVERHEAD_S;
        let want = [13.0 + o, 13.0 + o, 12.0 + o, 2.0 + o];
        for (g, w) in t.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{t:?}");
        }
        // Whole cells: B (30 s) on one task, A (10 s) on another; two tasks idle.
        let w = whole_cell_loads(&cells, 4);
        assert_eq!(w.iter().filter(|&&x| x == 0.0).count(), 2);
        let sum: f64 = w.iter().sum();
        assert!((sum - (40.0 + o)).abs() < 1e-12);
        // Spread of [1, 2, 3]: (3 - 1) / 2.
        assert!((spread(&[1.0, 2.0, 3.0]) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn paper_profile_on_16_tasks_differs_only_by_the_remainder_run() {
        let cells: Vec<CellCost> = verify_cells(&["--profile".into(), "paper".into()])
            .expect("paper cells")
            .iter()
            .map(|c| cell_cost(c).expect("cost"))
            .collect();
        // Every cell a `verify --shard` job runs (grid of both rule sets and the controls).
        let profile = dpbai::report::grid::Profile::named("paper").expect("paper profile");
        assert_eq!(
            cells.len(),
            super::super::verify::shard_cells(&profile).len()
        );
        assert!(cells.iter().all(|c| c.runs == 1000 || c.runs == 10_000));
        let t = predicted_task_seconds(&cells, 16);
        // 1000 = 62 * 16 + 8 runs: tasks 0..8 get 63 runs of every 1000-run cell, tasks 8..16
        // get 62; the 10 000-run TTUCB cells split evenly (625 each).
        let extra: f64 = cells
            .iter()
            .filter(|c| c.runs == 1000)
            .map(|c| c.run_s)
            .sum();
        for i in 0..8 {
            assert!((t[i] - t[0]).abs() < 1e-9 && (t[i + 8] - t[8]).abs() < 1e-9);
        }
        assert!((t[0] - t[8] - extra).abs() < 1e-9 * t[0], "{t:?}");
        // Whole cells per task are far less balanced than slices of every cell.
        assert!(spread(&whole_cell_loads(&cells, 16)) > 10.0 * spread(&t));
    }

    #[test]
    fn a_newline_in_the_arguments_stays_quoted() {
        let plan = Plan {
            format: PLAN_FORMAT.into(),
            version: "0".into(),
            mode: Mode::Verify,
            args: vec!["--expected".into(), "a\ntouch x".into()],
            tasks: 2,
            cpus_per_task: 1,
            time: "10".into(),
            mem: "1G".into(),
            partition: None,
            bin: "my dpbai".into(),
            predicted_task_s: vec![1.0, 1.0],
        };
        for text in scripts(&plan, None).iter().take(2) {
            let lines: Vec<&str> = text.lines().collect();
            assert!(lines[1].starts_with("# Written") && lines[1].contains("'a touch x'"));
            assert!(
                lines[2].starts_with("#SBATCH") || lines[2] == "set -eu",
                "{text}"
            );
        }
        let [task, ..] = scripts(&plan, None);
        assert!(task.contains("exec 'my dpbai' verify --expected 'a\ntouch x' --shard"));
    }

    #[test]
    fn array_specs_round_trip() {
        assert_eq!(array_spec(&[7, 0, 1, 2, 3, 9, 10]), "0-3,7,9-10");
        assert_eq!(array_spec(&[2]), "2");
        assert_eq!(
            parse_array_spec("0-3,7,9-10"),
            Some(vec![0, 1, 2, 3, 7, 9, 10])
        );
        assert_eq!(parse_array_spec("[2-4%2]"), Some(vec![2, 3, 4]));
        assert_eq!(parse_array_spec("4-2"), None);
        assert_eq!(parse_array_spec("x"), None);
    }

    #[test]
    fn squeue_and_sacct_lines_parse() {
        let q = "41_0 R\n41_[2-3] PD\n42 PD\n41_1.batch R\n";
        let m = parse_job_states(q);
        assert_eq!(m.get(&(41, 0)).map(String::as_str), Some("R"));
        assert_eq!(m.get(&(41, 3)).map(String::as_str), Some("PD"));
        assert!(!m.contains_key(&(41, 1)), "job steps are skipped");
        assert_eq!(m.len(), 3, "the non-array job 42 is skipped");
        let a = parse_job_states("41_2|CANCELLED by 0\n41_0|COMPLETED\n");
        assert_eq!(a.get(&(41, 2)).map(String::as_str), Some("CANCELLED by 0"));
        let (tasks, asm) = parse_jobs("tasks 41 0-3\nassemble 42\ntasks 50 2\nassemble 51\n");
        assert_eq!(tasks.get(&2), Some(&50));
        assert_eq!(tasks.get(&3), Some(&41));
        assert_eq!(asm, Some(51));
    }

    #[test]
    fn task_states_from_evidence() {
        use TaskState::*;
        assert_eq!(classify(true, Some("R"), Some("FAILED"), true), Done);
        assert_eq!(classify(false, Some("R"), None, true), Running);
        assert_eq!(classify(false, Some("PD"), None, false), Pending);
        assert_eq!(classify(false, None, Some("CANCELLED by 0"), false), Failed);
        assert_eq!(classify(false, None, Some("COMPLETED"), true), Failed);
        assert_eq!(classify(false, None, None, true), Failed);
        assert_eq!(classify(false, None, None, false), Missing);
    }

    #[test]
    fn slurm_formats() {
        assert_eq!(slurm_time(70), "1:10:00");
        assert_eq!(slurm_time(24 * 60 + 61), "1-01:01:00");
        assert!(check_time("1-00:00:00").is_ok() && check_time("90").is_ok());
        assert!(check_time("1h").is_err() && check_time("").is_err());
        assert!(check_mem("500M").is_ok() && check_mem("2048").is_ok());
        assert!(check_mem("2GB").is_err() && check_mem("G").is_err());
        assert_eq!(sh_quote("a b'c"), r"'a b'\''c'");
        assert_eq!(sh_quote("--runs"), "--runs");
        // 4 x (17160 + 452) KiB = 68.8 MiB -> 128 MiB; 4 x (17160 + 16 x 452) KiB = 95.3 MiB.
        assert_eq!(default_mem_mb(1), 128);
        assert_eq!(default_mem_mb(16), 128);
        assert_eq!(default_mem_mb(64), 192);
    }

    #[test]
    fn run_args_for_tasks_drop_out_and_json() {
        let a: Vec<String> = [
            "--algo", "ttucb", "--out", "x.csv", "--json", "--out=y", "--runs", "8",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(task_run_args(&a), ["--algo", "ttucb", "--runs", "8"]);
    }
}
