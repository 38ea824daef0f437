//! The plan: `plan.json` (its format, mode and fields), the checks of the Slurm flags, and the
//! reading of the `verify`, `run` or `experiment` command after `--` into its cells and costs.

use super::cost::{CellCost, run_seconds};
use crate::experiment::Cell;
use crate::instance::{Family, Instance};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Format tag of `plan.json`.
pub const PLAN_FORMAT: &str = "dpbai-cluster-plan/2";

/// Most tasks of a plan (Slurm's own ceiling on `MaxArraySize` is 4,000,001; the default is
/// 1001).
pub const MAX_TASKS: u64 = 100_000;
/// Most CPUs per task (the thread limit of one dpbai process).
pub const MAX_CPUS: u32 = 1024;
/// Largest `--mem`, in MiB (16 TiB).
pub const MAX_MEM_MB: u64 = 16 << 20;
/// Longest `--time`, in minutes (365 days).
pub const MAX_TIME_MIN: u64 = 365 * 24 * 60;
/// Longest `--sbatch-extra` line and `--setup` command, in bytes.
pub const MAX_LINE: usize = 4096;
/// The files a plan writes into its folder: no input or output of the command may be one of them.
pub const PLAN_FILES: [&str; 5] = [
    "task.sh",
    "assemble.sh",
    "submit.sh",
    "plan.json",
    "jobs.txt",
];

/// `verify`, `run` or `experiment`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Mode {
    Verify,
    Run,
    Experiment,
}

impl Mode {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Mode::Verify => "verify",
            Mode::Run => "run",
            Mode::Experiment => "experiment",
        }
    }
}

/// What `cluster status` and `cluster resubmit` need to know (DIR/plan.json).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct Plan {
    pub(super) format: String,
    pub(super) version: String,
    pub(super) mode: Mode,
    /// The user's arguments after `verify`/`run`.
    pub(super) args: Vec<String>,
    pub(super) tasks: u64,
    pub(super) cpus_per_task: u32,
    pub(super) time: String,
    pub(super) mem: String,
    pub(super) partition: Option<String>,
    /// `#SBATCH --account`.
    #[serde(default)]
    pub(super) account: Option<String>,
    /// `#SBATCH --qos`.
    #[serde(default)]
    pub(super) qos: Option<String>,
    /// Extra `#SBATCH` lines, each `--flag[=value]`.
    #[serde(default)]
    pub(super) sbatch_extra: Vec<String>,
    /// Shell commands run at the start of every job (e.g. `module load rust`).
    #[serde(default)]
    pub(super) setup: Vec<String>,
    pub(super) bin: String,
    /// Predicted wall seconds of every task.
    pub(super) predicted_task_s: Vec<f64>,
}

impl Plan {
    /// Checks every field against its range, as `dpbai cluster slurm` checked it when it wrote
    /// the plan (so that a plan edited by hand is refused before anything acts on it).
    ///
    /// # Errors
    /// A usage error naming the field and its range.
    pub(super) fn validate(&self, path: &Path) -> anyhow::Result<()> {
        let bad = |what: String| crate::cli::errors::usage(format!("{}: {what}", path.display()));
        if self.format != PLAN_FORMAT {
            return Err(bad(format!(
                "format `{}`, expected `{PLAN_FORMAT}` (written by another dpbai version: \
                 write the plan again)",
                self.format
            )));
        }
        if !(1..=MAX_TASKS).contains(&self.tasks) {
            return Err(bad(format!(
                "tasks = {}: must be in 1..={MAX_TASKS}",
                self.tasks
            )));
        }
        if !(1..=MAX_CPUS).contains(&self.cpus_per_task) {
            return Err(bad(format!(
                "cpus_per_task = {}: must be in 1..={MAX_CPUS}",
                self.cpus_per_task
            )));
        }
        if self.predicted_task_s.len() as u64 != self.tasks
            || self
                .predicted_task_s
                .iter()
                .any(|s| !(s.is_finite() && *s >= 0.0))
        {
            return Err(bad(format!(
                "predicted_task_s must hold {} finite numbers >= 0 (one per task)",
                self.tasks
            )));
        }
        check_time(&self.time).map_err(|e| bad(format!("time: {e}")))?;
        check_mem(&self.mem).map_err(|e| bad(format!("mem: {e}")))?;
        for (name, v) in [
            ("partition", &self.partition),
            ("account", &self.account),
            ("qos", &self.qos),
        ] {
            if let Some(v) = v {
                check_name(name, v).map_err(|e| bad(e.to_string()))?;
            }
        }
        for l in &self.sbatch_extra {
            check_sbatch_extra(l).map_err(|e| bad(e.to_string()))?;
        }
        for l in &self.setup {
            check_setup(l).map_err(|e| bad(e.to_string()))?;
        }
        if self.bin.is_empty() || self.bin.contains(['\n', '\r', '\0']) {
            return Err(bad("bin: must name the dpbai binary on one line".into()));
        }
        Ok(())
    }
}

/// `Ok` when `ok`, else the usage error `invalid --FLAG `VALUE`: must be WHAT`.
pub(super) fn check_flag(flag: &str, value: &str, ok: bool, what: &str) -> anyhow::Result<()> {
    if ok {
        Ok(())
    } else {
        Err(crate::cli::errors::usage(format!(
            "invalid --{flag} `{value}`: must be {what}"
        )))
    }
}

/// Minutes of a Slurm time (`M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`, `D-H:M:S`), if well formed.
pub(super) fn slurm_minutes(t: &str) -> Option<u64> {
    let num = |x: &str| -> Option<u64> {
        (!x.is_empty() && x.len() <= 9 && x.chars().all(|c| c.is_ascii_digit()))
            .then(|| x.parse().ok())
            .flatten()
    };
    let (days, rest) = match t.split_once('-') {
        Some((d, r)) => (Some(num(d)?), r),
        None => (None, t),
    };
    let f: Vec<&str> = rest.split(':').collect();
    let seconds = match (days, f.as_slice()) {
        (None, [m]) => num(m)? * 60,
        (None, [m, s]) => num(m)? * 60 + num(s)?,
        (None, [h, m, s]) | (Some(_), [h, m, s]) => num(h)? * 3600 + num(m)? * 60 + num(s)?,
        (Some(_), [h]) => num(h)? * 3600,
        (Some(_), [h, m]) => num(h)? * 3600 + num(m)? * 60,
        _ => return None,
    };
    Some((days.unwrap_or(0) * 86_400 + seconds).div_ceil(60))
}

pub(super) fn check_time(t: &str) -> anyhow::Result<()> {
    let ok = slurm_minutes(t).is_some_and(|m| (1..=MAX_TIME_MIN).contains(&m));
    check_flag(
        "time",
        t,
        ok,
        "a Slurm time such as 90, 2:00:00 or 1-00:00:00, from 1 minute to 365 days",
    )
}

/// MiB of a Slurm size (`500`, `500M`, `2G`, …), if well formed.
pub(super) fn slurm_mem_mb(m: &str) -> Option<u64> {
    let (digits, unit) = match m.char_indices().last()? {
        (i, c) if c.is_ascii_alphabetic() => (&m[..i], c),
        _ => (m, 'M'),
    };
    if digits.is_empty() || digits.len() > 12 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    match unit {
        'K' => Some(n.div_ceil(1024)),
        'M' => Some(n),
        'G' => n.checked_mul(1024),
        'T' => n.checked_mul(1 << 20),
        _ => None,
    }
}

pub(super) fn check_mem(m: &str) -> anyhow::Result<()> {
    let ok = slurm_mem_mb(m).is_some_and(|mb| (1..=MAX_MEM_MB).contains(&mb));
    check_flag(
        "mem",
        m,
        ok,
        "a Slurm size such as 500M or 2G, from 1M to 16T",
    )
}

/// A Slurm name (partition, account, QOS): letters, digits and `_-.,`.
pub(super) fn check_name(flag: &str, p: &str) -> anyhow::Result<()> {
    let ok = !p.is_empty()
        && p.len() <= 256
        && p.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.,".contains(c));
    check_flag(flag, p, ok, "letters, digits and `_-.,` only (1 to 256)")
}

pub(super) fn check_partition(p: &str) -> anyhow::Result<()> {
    check_name("partition", p)
}

/// One extra `#SBATCH` line: `--flag` or `--flag=value` on one line, no shell metacharacter
/// that could end the directive.
pub(super) fn check_sbatch_extra(l: &str) -> anyhow::Result<()> {
    let ok = l.starts_with("--")
        && l.len() > 2
        && l.len() <= MAX_LINE
        && !l.contains(['\n', '\r', '\0', '#'])
        && !l.chars().any(char::is_whitespace);
    check_flag(
        "sbatch-extra",
        l,
        ok,
        "one sbatch option `--flag` or `--flag=value` without spaces (e.g. --constraint=avx2)",
    )
}

/// One `--setup` command: a single line.
pub(super) fn check_setup(l: &str) -> anyhow::Result<()> {
    let ok = !l.trim().is_empty() && l.len() <= MAX_LINE && !l.contains(['\n', '\r', '\0']);
    check_flag(
        "setup",
        l,
        ok,
        "one shell command on one line (e.g. `module load rust`), at most 4096 bytes",
    )
}

/// Refuses a file of the command (study file, `--expected`, `--out`, …) that is one of the
/// plan's own files in `dir`: the plan never overwrites an input or an output.
pub(super) fn check_not_plan_file(dir: &Path, what: &str, file: &Path) -> anyhow::Result<()> {
    let resolved = if file.is_absolute() {
        file.to_path_buf()
    } else {
        dir.join(file)
    };
    let canon = |p: &Path| {
        let parent = p
            .parent()
            .map(|d| std::fs::canonicalize(d).unwrap_or(d.to_path_buf()));
        parent.zip(p.file_name()).map(|(d, n)| d.join(n))
    };
    for name in PLAN_FILES {
        if canon(&resolved).is_some() && canon(&resolved) == canon(&dir.join(name)) {
            return Err(crate::cli::errors::usage(format!(
                "{what} {} is the plan's own {name} in {}: rename it or choose another --dir",
                file.display(),
                dir.display()
            )));
        }
    }
    Ok(())
}

/// The first line of a clap error, as a usage error.
pub(super) fn clap_usage(what: &str, e: clap::Error) -> anyhow::Error {
    crate::cli::errors::usage(format!(
        "in the `{what}` command after `--`: {}",
        crate::cli::errors::clap_line(&e)
    ))
}

#[derive(clap::Parser, Debug)]
#[command(name = "verify", no_binary_name = true)]
pub(super) struct VerifyCmd {
    #[command(flatten)]
    pub(super) args: crate::cli::verify::Args,
}

#[derive(clap::Parser, Debug)]
#[command(name = "experiment", no_binary_name = true)]
pub(super) struct ExperimentCmd {
    #[command(flatten)]
    pub(super) args: crate::cli::experiment::Args,
}

/// Validates `experiment` arguments (its study file read relative to `base`); returns the
/// study file's path as given and the cells of its shards.
pub(super) fn experiment_cells(
    base: &Path,
    args: &[String],
) -> anyhow::Result<(PathBuf, Vec<Cell>)> {
    use clap::Parser as _;
    let mut e = ExperimentCmd::try_parse_from(args)
        .map_err(|e| clap_usage("experiment", e))?
        .args;
    if e.shard.is_some() || e.out_dir.is_some() || e.threads.is_some() {
        return Err(crate::cli::errors::usage(
            "the `experiment` command after `--` must not set --shard, --out-dir or --threads: \
             the plan sets them (--dir, --tasks, --cpus-per-task)",
        ));
    }
    let given = e.config.clone();
    e.config = base.join(&e.config);
    let study = crate::cli::experiment::load(&e)?;
    Ok((given, study.cells.into_iter().map(|c| c.cell).collect()))
}

#[derive(clap::Parser, Debug)]
#[command(name = "run", no_binary_name = true)]
pub(super) struct RunCmd {
    #[command(flatten)]
    pub(super) args: crate::cli::run::Args,
}

/// Validates `verify` arguments; returns the cells of its shards.
pub(super) fn verify_cells(args: &[String]) -> anyhow::Result<Vec<Cell>> {
    use clap::Parser as _;
    let v = VerifyCmd::try_parse_from(args)
        .map_err(|e| clap_usage("verify", e))?
        .args;
    if v.shard.is_some() || v.out_dir.is_some() || v.threads.is_some() {
        return Err(crate::cli::errors::usage(
            "the `verify` command after `--` must not set --shard, --out-dir or --threads: the \
             plan sets them (--dir, --tasks, --cpus-per-task)",
        ));
    }
    if v.no_experiments {
        return Err(crate::cli::errors::usage(
            "--no-experiments runs no Monte Carlo cell: run it without a cluster",
        ));
    }
    let study = crate::cli::verify::study_of(&v)?;
    Ok(study.distinct_cells())
}

/// The `run` arguments after `--`, parsed.
pub(super) fn run_cmd(args: &[String]) -> anyhow::Result<crate::cli::run::Args> {
    use clap::Parser as _;
    Ok(RunCmd::try_parse_from(args)
        .map_err(|e| clap_usage("run", e))?
        .args)
}

/// Validates a `run` command as one task of `tasks` would run it (`dpbai run`'s own checks,
/// with `--shard 0/tasks`: the runs of the largest task within the per-process limit); returns
/// the specification every task's shard file must carry.
pub(super) fn check_run_task(
    args: &[String],
    tasks: u64,
) -> anyhow::Result<crate::experiment::CellSpec> {
    let mut r = run_cmd(args)?;
    r.shard = Some(format!("0/{tasks}"));
    r.out = Some(PathBuf::from("shards/run-0.json"));
    crate::cli::run::prepare(&r)
        .map(|p| p.spec)
        .map_err(|e| crate::cli::errors::usage(format!("in the `run` command after `--`: {e:#}")))
}

/// Validates `run` arguments; returns its cost as one cell and the `--out` file it names.
pub(super) fn run_cost(args: &[String]) -> anyhow::Result<(CellCost, Option<PathBuf>)> {
    let r = run_cmd(args)?;
    if r.shard.is_some() || r.threads.is_some() {
        return Err(crate::cli::errors::usage(
            "the `run` command after `--` must not set --shard or --threads: the plan sets them \
             (--tasks, --cpus-per-task)",
        ));
    }
    if r.runs == 0 {
        return Err(crate::cli::errors::usage(
            "invalid --runs 0: must be at least 1",
        ));
    }
    let means: Vec<f64> = r
        .means
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| crate::cli::errors::usage(format!("invalid --means `{}`", r.means)))?;
    let family = match r.sigma {
        Some(sigma) => Family::Gaussian { sigma },
        None if r.family == crate::instance::FamilyName::Gaussian => {
            Family::Gaussian { sigma: 1.0 }
        }
        None => Family::Bernoulli,
    };
    let nu = Instance::new(family, means)?;
    let max_steps = r.max_steps.unwrap_or(crate::cli::run::DEFAULT_MAX_STEPS);
    let mut setting = crate::bandit::Setting::paper(r.algo, r.delta)?;
    r.readings.apply(&mut setting)?;
    let run_s = run_seconds(r.algo, &nu, r.eps, r.delta, max_steps, setting.dpa_episodes)?;
    Ok((
        CellCost {
            run_s,
            runs: r.runs,
        },
        r.out,
    ))
}

/// `run` arguments for the tasks: without `--out FILE` (it goes to the merge) and `--json`.
pub(super) fn task_run_args(args: &[String]) -> Vec<String> {
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

/// Largest `plan.json` read (bytes).
const MAX_PLAN_BYTES: u64 = 16 << 20;

/// Reads `DIR/plan.json` and validates it: its schema and every field's range
/// ([`Plan::validate`]), and its command as `dpbai cluster slurm` validated it.
pub(super) fn read_plan(dir: &Path) -> anyhow::Result<Plan> {
    let path = dir.join("plan.json");
    let none = |e: String| {
        crate::cli::errors::usage(format!(
            "no plan in {} ({e}): write one with `dpbai cluster slurm --dir {}`",
            dir.display(),
            crate::experiment::shell::shell_word(&dir.to_string_lossy())
        ))
    };
    let text = match crate::files::read_user_text(&path, "plan (plan.json)", MAX_PLAN_BYTES) {
        Ok(text) => text,
        Err(crate::Error::Io { cause, .. }) => return Err(none(cause.to_string())),
        Err(e) => return Err(crate::cli::errors::usage(e.to_string())),
    };
    let plan: Plan = serde_json::from_str(&text).map_err(|e| {
        crate::cli::errors::usage(format!("{} is not a dpbai plan ({e})", path.display()))
    })?;
    plan.validate(&path)?;
    let checked = match plan.mode {
        Mode::Run => check_run_task(&plan.args, plan.tasks).map(|_| ()),
        Mode::Verify | Mode::Experiment => plan_cells(dir, &plan).map(|_| ()),
    };
    checked.map_err(|e| {
        crate::cli::errors::usage(format!(
            "{}: its command is not valid: {}",
            path.display(),
            e.to_string().trim_start_matches("error: ")
        ))
    })?;
    Ok(plan)
}

/// `DIR/verify-cache/PROFILE`.
pub(super) fn verify_cache(dir: &Path, plan: &Plan) -> anyhow::Result<PathBuf> {
    use clap::Parser as _;
    let v = VerifyCmd::try_parse_from(&plan.args)
        .map_err(|e| clap_usage("verify", e))?
        .args;
    Ok(dir.join("verify-cache").join(&v.profile))
}

pub(super) fn plan_cells(dir: &Path, plan: &Plan) -> anyhow::Result<Vec<Cell>> {
    match plan.mode {
        Mode::Verify => verify_cells(&plan.args),
        Mode::Experiment => Ok(experiment_cells(dir, &plan.args)?.1),
        Mode::Run => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_args_for_tasks_drop_out_and_json() {
        let a: Vec<String> = [
            "--algo", "ttucb", "--out", "x.csv", "--json", "--out=y", "--runs", "8",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(task_run_args(&a), ["--algo", "ttucb", "--runs", "8"]);
    }

    #[test]
    fn slurm_flag_checks() {
        assert!(check_time("1-00:00:00").is_ok() && check_time("90").is_ok());
        assert!(check_time("1h").is_err() && check_time("").is_err());
        assert!(check_mem("500M").is_ok() && check_mem("2048").is_ok());
        assert!(check_mem("2GB").is_err() && check_mem("G").is_err());
    }
}
