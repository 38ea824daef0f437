//! The plan: `plan.json` (its format, mode and fields), the checks of the Slurm flags, and the
//! reading of the `verify`, `run` or `experiment` command after `--` into its cells and costs.

use super::cost::{run_seconds, CellCost};
use dpbai::experiment::Cell;
use dpbai::instance::{Family, Instance};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Format tag of `plan.json`.
pub const PLAN_FORMAT: &str = "dpbai-cluster-plan/1";

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
    pub(super) bin: String,
    /// Predicted wall seconds of every task.
    pub(super) predicted_task_s: Vec<f64>,
}

/// `Ok` when `ok`, else the usage error `invalid --FLAG `VALUE`: must be WHAT`.
pub(super) fn check_flag(flag: &str, value: &str, ok: bool, what: &str) -> anyhow::Result<()> {
    if ok {
        Ok(())
    } else {
        Err(crate::cli::usage(format!(
            "invalid --{flag} `{value}`: must be {what}"
        )))
    }
}

pub(super) fn check_time(t: &str) -> anyhow::Result<()> {
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

pub(super) fn check_mem(m: &str) -> anyhow::Result<()> {
    let digits = m.trim_end_matches(['K', 'M', 'G', 'T']);
    let ok = !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && m.len() <= digits.len() + 1;
    check_flag("mem", m, ok, "a Slurm size such as 500M or 2G")
}

pub(super) fn check_partition(p: &str) -> anyhow::Result<()> {
    let ok = !p.is_empty()
        && p.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.,".contains(c));
    check_flag("partition", p, ok, "letters, digits and `_-.,` only")
}

/// The first line of a clap error, as a usage error.
pub(super) fn clap_usage(what: &str, e: clap::Error) -> anyhow::Error {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("bad arguments").to_string();
    crate::cli::usage(format!("in the `{what}` command after `--`: {first}"))
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
        return Err(crate::cli::usage(
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
    if v.shard.is_some() || v.out_dir != Path::new(".") || v.threads.is_some() {
        return Err(crate::cli::usage(
            "the `verify` command after `--` must not set --shard, --out-dir or --threads: the \
             plan sets them (--dir, --tasks, --cpus-per-task)",
        ));
    }
    if v.no_experiments {
        return Err(crate::cli::usage(
            "--no-experiments runs no Monte Carlo cell: run it without a cluster",
        ));
    }
    let profile = crate::cli::verify::profile_of(&v)?;
    Ok(crate::cli::verify::shard_cells(&profile))
}

/// Validates `run` arguments; returns its cost as one cell and the `--out` file it names.
pub(super) fn run_cost(args: &[String]) -> anyhow::Result<(CellCost, Option<PathBuf>)> {
    use clap::Parser as _;
    let r = RunCmd::try_parse_from(args)
        .map_err(|e| clap_usage("run", e))?
        .args;
    if r.shard.is_some() || r.threads.is_some() {
        return Err(crate::cli::usage(
            "the `run` command after `--` must not set --shard or --threads: the plan sets them \
             (--tasks, --cpus-per-task)",
        ));
    }
    if r.runs == 0 {
        return Err(crate::cli::usage("invalid --runs 0: must be at least 1"));
    }
    let means: Vec<f64> = r
        .means
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| crate::cli::usage(format!("invalid --means `{}`", r.means)))?;
    let family = match r.sigma {
        Some(sigma) => Family::Gaussian { sigma },
        None if r.family == crate::cli::run::FamilyArg::Gaussian => Family::Gaussian { sigma: 1.0 },
        None => Family::Bernoulli,
    };
    let nu = Instance::new(family, means)?;
    let max_steps = r.max_steps.unwrap_or(crate::cli::run::DEFAULT_MAX_STEPS);
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

pub(super) fn read_plan(dir: &Path) -> anyhow::Result<Plan> {
    let path = dir.join("plan.json");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        crate::cli::usage(format!(
            "no plan in {} ({e}): write one with `dpbai cluster slurm --dir {}`",
            dir.display(),
            dir.display()
        ))
    })?;
    let plan: Plan = serde_json::from_str(&text)
        .map_err(|e| crate::cli::usage(format!("{} is not a dpbai plan ({e})", path.display())))?;
    if plan.format != PLAN_FORMAT {
        return Err(crate::cli::usage(format!(
            "{} has format `{}`, expected `{PLAN_FORMAT}`",
            path.display(),
            plan.format
        )));
    }
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
