//! `dpbai run`: many seeded Monte Carlo runs of one algorithm on one instance.
//!
//! Output: a human table (default) or one JSON object (`--json`, see
//! [`crate::experiment::meta::Report`]);
//! `--out FILE` writes one CSV row per run, `run,tau,recommendation,correct,stopped,rounds`, with
//! `run` 0-based (its generator is `rng_for_run(seed, run)`), `recommendation` **1-based** (as
//! arms are numbered on the command line), `correct` = recommendation is the best arm (also for
//! unstopped runs: the arm recommended at the cap), `stopped` false for capped runs, `rounds`
//! empty where the algorithm does not define it. Booleans are `true`/`false` (pandas reads them
//! as bool).
//!
//! With `--shard i/n` only the runs `r ≡ i (mod n)` are simulated and `--out FILE` is required:
//! it receives the shard file (JSON, [`crate::experiment::shard::ShardFile`]) for `dpbai merge`;
//! stdout gets the summary of the shard's runs alone.
//!
//! The experiment is one [`CellSpec`] (its digest is the output's `cell`); the algorithm is built
//! from it, so what runs is exactly what the specification says.

use crate::bandit::{AlgoName, Rules, Setting};
use crate::experiment::CellSpec;
use crate::experiment::meta::{Report, RunMeta};
use crate::experiment::shard::ShardFile;
use crate::instance::{Family, FamilyName, Instance};
use crate::mc::{self, EngineConfig, RunRecord, Shard};
use anyhow::Context;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `dpbai run`.
#[derive(clap::Args, Debug)]
#[command(
    allow_negative_numbers = true,
    after_help = "\
Statistics: tau = samples drawn (capped tau for unstopped runs); mean/std (n-1)/median/min/max of
tau are over ALL runs, mean_tau_stopped over stopped runs; unstopped = runs capped by --max-steps.
errors = stopped runs with a wrong recommendation (event tau < inf, rec != best); error_ci = exact
95% Clopper-Pearson interval of errors/runs; error_ci_worst_case counts unstopped runs as errors.
censored: capped runs as right-censored observations: Kaplan-Meier km_median/km_q25/km_q75 (null:
the curve does not fall that far: > cap), mean with capped runs at the cap (mean_is_lower_bound
when any is capped), 95% Student-t mean_ci95_lo/hi only when none is capped.
CSV (--out): run (0-based), tau, recommendation (1-based), correct, stopped, rounds (empty if
undefined). Run r uses rng_for_run(seed, r): output is identical for any --threads, and
`dpbai merge` of the --shard files equals the unsharded run."
)]
pub struct Args {
    /// Algorithm: ttucb, ctb-tt, gauss-ldp-tt, adap-tt, adap-tt-star, dp-se, dpa-tt, dp-tt, eb-tci.
    #[arg(long, value_parser = parse_algo_value)]
    pub algo: AlgoName,
    /// Arm means, comma-separated (e.g. 0.95,0.9,0.9,0.9,0.5).
    #[arg(long, allow_hyphen_values = true)]
    pub means: String,
    /// Reward family: bernoulli (default) or gaussian.
    #[arg(long, default_value = "bernoulli", value_parser = parse_family)]
    pub family: FamilyName,
    /// Standard deviation of Gaussian arms (default 1; gaussian only).
    #[arg(long)]
    pub sigma: Option<f64>,
    /// Risk δ in (0, 1).
    #[arg(long)]
    pub delta: f64,
    /// Privacy budget ε > 0 (required by the private algorithms).
    #[arg(long)]
    pub eps: Option<f64>,
    /// γ of the Gaussian mechanism (gauss-ldp-tt).
    #[arg(long)]
    pub gamma: Option<f64>,
    /// Leader proportion β in (0, 1) (default 1/2).
    #[arg(long, default_value_t = 0.5)]
    pub beta: f64,
    /// Stopping rules: paper (provable thresholds) or reference (the public code's rules).
    #[arg(long, default_value = "paper", value_parser = parse_rules)]
    pub rules: Rules,
    /// The readings (READINGS.md §R), one flag each.
    #[command(flatten)]
    pub readings: super::readings::ReadingFlags,
    /// Stopping threshold replacing the algorithm's: a preset name (`dpbai audit delta
    /// --list-presets`) or an expression in delta, K, eps, sigma, t, na, nb, ka, kb, gap (the
    /// language of `dpbai audit delta --threshold`). A value that is not finite (NaN, ±inf),
    /// at start-up or during the runs, is an error naming the expression and the point.
    #[arg(long, allow_hyphen_values = true)]
    pub threshold: Option<String>,
    /// DAF/DPA algorithms (AdaP-TT, AdaP-TT*, DPA-TT): the phase engine (default) draws a
    /// phase's rewards as one sum at its end and tests the stopping rule at phase ends;
    /// per-sample draws every reward and tests at every step (the plain reference loop: other
    /// runs from the same seed, the same law of (tau, recommendation), slower). DP-TT:
    /// per-sample recomputes every challenger cost at every step (the same runs).
    #[arg(
        long,
        value_enum,
        default_value = "phase",
        conflicts_with = "step_by_step"
    )]
    pub engine: Engine,
    /// The same as --engine per-sample.
    #[arg(long)]
    pub step_by_step: bool,
    /// Number of runs (>= 1).
    #[arg(long)]
    pub runs: u64,
    /// Master seed: run r draws from rng_for_run(seed, r).
    #[arg(long)]
    pub seed: u64,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Cap on the samples of one run; a capped run is reported as unstopped, never dropped
    /// (default 1e8: AdaP-TT and AdaP-TT* can starve an arm and never stop on instances with
    /// tied sub-optimal arms, see REPORT.md "Findings"; raise it for very small ε). An integer,
    /// also written as 1e8 or 3_000_000.
    #[arg(long, value_parser = parse_count)]
    pub max_steps: Option<u64>,
    /// Run only the slice i/n of the run indices (runs r with r mod n = i; 0 <= i < n).
    #[arg(long)]
    pub shard: Option<String>,
    /// Per-run CSV (or, with --shard, the shard file for `dpbai merge`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Parses an algorithm name, listing the valid ones on failure (clap prints the message on the
/// first line of its error, exit code 2).
fn parse_algo_value(name: &str) -> Result<AlgoName, String> {
    AlgoName::ALL
        .iter()
        .copied()
        .find(|a| a.as_str() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = AlgoName::ALL.iter().map(|a| a.as_str()).collect();
            format!("unknown algorithm, must be one of {}", names.join(", "))
        })
}

/// A count written as an integer (`100000000`, `100_000_000`) or in exact scientific notation
/// (`1e8`, `2.5e6`): the one-line error names the value and the allowed form.
pub(crate) fn parse_count(s: &str) -> Result<u64, String> {
    let t = s.trim().replace('_', "");
    if let Ok(n) = t.parse::<u64>() {
        return Ok(n);
    }
    match t.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x <= 9.007_199_254_740_992e15 => {
            Ok(x as u64)
        }
        _ => Err(format!(
            "{s:?} is not a count: give a non-negative integer up to 2^53 (e.g. 100000000 or 1e8)"
        )),
    }
}

fn parse_family(s: &str) -> Result<FamilyName, String> {
    s.parse()
        .map_err(|_| "must be bernoulli or gaussian".to_string())
}

/// `dpbai run --engine`: how a phased algorithm's runs are simulated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// A phase's rewards drawn as one sum at its end; stopping tested at phase ends.
    Phase,
    /// Every reward drawn, stopping tested at every step (`--step-by-step`).
    PerSample,
}

fn parse_rules(s: &str) -> Result<Rules, String> {
    s.parse()
        .map_err(|_| "must be paper or reference".to_string())
}

pub use crate::mc::DEFAULT_MAX_STEPS;

/// A `dpbai run` command, validated: everything a run needs, checked before anything runs or is
/// written (also by `dpbai cluster slurm -- run …`, which plans it without running it).
pub(crate) struct Prepared {
    /// The experiment.
    pub(crate) spec: CellSpec,
    /// Its metadata.
    pub(crate) meta: RunMeta,
    /// Worker threads.
    pub(crate) threads: usize,
    /// The slice of the runs, if any.
    pub(crate) shard: Option<Shard>,
    /// Runs this process simulates (all, or the shard's).
    pub(crate) n_sim: u64,
}

/// Validates `args` as `dpbai run` does: resource limits, the instance, every parameter, the
/// options the algorithm takes, the threshold (probed), and builds the specification.
///
/// # Errors
/// A usage error naming the option and its allowed range.
pub(crate) fn prepare(args: &Args) -> anyhow::Result<Prepared> {
    use crate::params::limits;
    let algo = args.algo;
    // Resource limits first: nothing is allocated or started before they pass.
    if let Some(t) = args.threads {
        limits::check_threads(t)?;
    }
    if let Some(m) = args.max_steps {
        limits::check_max_steps(m)?;
    }
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    if args.runs == 0 {
        return Err(super::errors::usage("invalid --runs 0: must be at least 1"));
    }
    let n_sim = EngineConfig {
        seed: args.seed,
        runs: args.runs,
        threads: 1,
        max_steps: 1,
        shard,
    }
    .count();
    if n_sim == 0 {
        return Err(super::errors::usage(format!(
            "shard {} of {} runs is empty: use fewer shards than runs",
            args.shard.as_deref().unwrap_or(""),
            args.runs
        )));
    }
    limits::check_runs(
        if shard.is_some() {
            "runs of the shard"
        } else {
            "runs"
        },
        n_sim,
    )?;
    let means = super::errors::parse_list("means", &args.means)?;
    limits::check_arms(means.len())?;
    let family = Family::of(args.family, args.sigma)?;
    let instance = Instance::new(family, means)?;
    let delta = crate::params::Delta::new(args.delta)?;
    let beta = crate::params::Beta::new(args.beta)?;
    let eps = args.eps.map(crate::params::Epsilon::new).transpose()?;
    if args.eps.is_none() && algo.needs_eps() {
        return Err(super::errors::usage(format!(
            "--eps is required by {} (a private algorithm): pass --eps E with E > 0",
            algo.as_str()
        )));
    }
    let threads = match args.threads {
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if shard.is_some() && args.out.is_none() {
        return Err(super::errors::usage(
            "--shard needs --out FILE (the shard file that `dpbai merge` reads)",
        ));
    }
    let mut setting = Setting {
        eps,
        beta,
        rules: args.rules,
        ..Setting::new(algo, delta).with_gamma(args.gamma)?
    };
    args.readings.apply(&mut setting)?;
    let spec = CellSpec::new(
        &setting,
        &instance,
        args.threshold.as_deref(),
        args.step_by_step || args.engine == Engine::PerSample,
        args.runs,
        args.seed,
        args.max_steps.unwrap_or(DEFAULT_MAX_STEPS),
    );
    // Built once here so that every check of the algorithm and the threshold runs now.
    build(&spec, args)?;
    let meta = RunMeta::new(&spec)?;
    Ok(Prepared {
        spec,
        meta,
        threads,
        shard,
        n_sim,
    })
}

/// The algorithm of `spec` and its threshold check, with a threshold error named as such.
fn build(
    spec: &CellSpec,
    args: &Args,
) -> anyhow::Result<(
    Box<dyn crate::bandit::BaiAlgorithm>,
    Option<crate::threshold::probe::CheckedThreshold>,
)> {
    spec.build().map_err(|e| match &args.threshold {
        Some(_) if matches!(e, crate::Error::Parse(_) | crate::Error::Threshold { .. }) => {
            super::errors::usage(format!("invalid --threshold: {e}"))
        }
        _ => e.into(),
    })
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let p = prepare(&args)?;
    let (alg, checked) = build(&p.spec, &args)?;
    let cfg = EngineConfig {
        seed: p.spec.seed,
        runs: p.spec.runs,
        threads: p.threads,
        max_steps: p.spec.max_steps,
        shard: p.shard,
    };
    let bar = progress_bar(p.n_sim);
    let start = Instant::now();
    let records = mc::simulate(alg.as_ref(), &cfg, &|| bar.inc(1))?;
    let elapsed = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    if let Some(e) = checked.and_then(|c| c.failure()) {
        return Err(super::errors::usage(format!("invalid --threshold: {e}")));
    }
    let report = Report::new(&p.meta, p.shard, &records, elapsed)?;
    if let (Some(s), Some(path)) = (p.shard, args.out.as_deref()) {
        ShardFile::new(p.spec, p.meta, s, elapsed, records).write(path)?;
    } else if let Some(path) = args.out.as_deref() {
        write_csv(path, &records, p.meta.best_arm - 1)?;
    }
    print_report(&report, args.json)
}

/// A progress bar on stderr when stderr is a terminal, else a hidden one.
pub(crate) fn progress_bar(n: u64) -> indicatif::ProgressBar {
    if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(n);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} runs (eta {eta})",
        ) {
            bar.set_style(style);
        }
        // Redrawn every second, so that a long run shows its elapsed time moving.
        bar.enable_steady_tick(std::time::Duration::from_secs(1));
        bar
    } else {
        indicatif::ProgressBar::hidden()
    }
}

/// Writes the per-run CSV (see the module docs for the columns).
pub(crate) fn write_csv(path: &Path, records: &[RunRecord], best: usize) -> anyhow::Result<()> {
    let ctx = |e: csv::Error| -> anyhow::Error {
        match e.into_kind() {
            csv::ErrorKind::Io(e) => crate::Error::io("write", path, e).into(),
            other => anyhow::anyhow!("writing {}: {other:?}", path.display()),
        }
    };
    let mut w = csv::Writer::from_path(path).map_err(ctx)?;
    w.write_record([
        "run",
        "tau",
        "recommendation",
        "correct",
        "stopped",
        "rounds",
    ])
    .map_err(ctx)?;
    for r in records {
        let o = &r.outcome;
        w.write_record([
            r.run.to_string(),
            o.tau.to_string(),
            (o.recommendation + 1).to_string(),
            (o.recommendation == best).to_string(),
            o.stopped.to_string(),
            o.rounds.map(|x| x.to_string()).unwrap_or_default(),
        ])
        .map_err(ctx)?;
    }
    w.flush().map_err(|e| crate::Error::io("write", path, e))?;
    Ok(())
}

fn opt(x: Option<f64>) -> String {
    x.map_or("-".to_string(), crate::error::compact_number)
}

/// The censoring-aware line of the table: Kaplan–Meier quartiles ("> cap" where the curve does
/// not fall that far) and the mean, "≥" when runs were capped, else with its 95% interval.
fn censored_row(c: &crate::mc::CensoredStats) -> String {
    let q = |x: Option<u64>| match (x, c.cap) {
        (Some(v), _) => v.to_string(),
        (None, Some(cap)) => format!("> {cap}"),
        (None, None) => "-".to_string(),
    };
    let mean = match (c.mean_is_lower_bound, c.mean_ci95_lo, c.mean_ci95_hi) {
        (true, _, _) => format!("mean >= {:.2} ({} of {} capped)", c.mean, c.capped, c.runs),
        (false, Some(lo), Some(hi)) => format!("mean {:.2}, 95% CI [{lo:.2}, {hi:.2}]", c.mean),
        _ => format!("mean {:.2}", c.mean),
    };
    format!(
        "KM median {}  q25 {}  q75 {}  {mean}",
        q(c.km_median),
        q(c.km_q25),
        q(c.km_q75)
    )
}

/// Prints the report as JSON or as a table.
pub(crate) fn print_report(r: &Report, json: bool) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if json {
        let text = serde_json::to_string(r).context("serialising the report")?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    let m = &r.meta;
    let s = &r.summary;
    let c = crate::error::compact_number;
    let means: Vec<String> = m.means.iter().map(|&x| c(x)).collect();
    let mut rows: Vec<(&str, String)> = vec![
        ("algorithm", format!("{} (rules = {})", m.algo, m.rules)),
        (
            "instance",
            format!(
                "{} [{}], best arm {}{}",
                m.family,
                means.join(", "),
                m.best_arm,
                m.sigma
                    .map_or(String::new(), |v| format!(", sigma = {}", c(v)))
            ),
        ),
        (
            "parameters",
            format!(
                "delta = {}, eps = {}, gamma = {}, beta = {}",
                c(m.delta),
                opt(m.eps),
                opt(m.gamma),
                c(m.beta)
            ),
        ),
        (
            "runs",
            format!(
                "{} (seed {}, max_steps {}){}",
                s.runs,
                m.seed,
                m.max_steps.map_or("none".to_string(), |v| v.to_string()),
                r.shard.as_ref().map_or(String::new(), |sh| format!(
                    ", shard {sh} of {} runs",
                    m.runs
                ))
            ),
        ),
        (
            "tau",
            format!(
                "mean {:.2}  std {}  median {}  min {}  max {}",
                s.mean_tau,
                s.std_tau.map_or("-".to_string(), |v| format!("{v:.2}")),
                s.median_tau,
                s.min_tau,
                s.max_tau
            ),
        ),
        ("censored tau", censored_row(&s.censored)),
        (
            "stopped runs",
            format!(
                "{} (mean tau {}), unstopped {} ({} wrong at the cap)",
                s.runs - s.unstopped,
                s.mean_tau_stopped
                    .map_or("-".to_string(), |v| format!("{v:.2}")),
                s.unstopped,
                s.unstopped_wrong
            ),
        ),
        (
            "errors",
            format!(
                "{} / {} = {:.6}, 95% CP interval [{:.6}, {:.6}]",
                s.errors, s.runs, s.error_rate, s.error_ci[0], s.error_ci[1]
            ),
        ),
        (
            "rounds",
            s.mean_rounds
                .map_or("-".to_string(), |v| format!("mean {v:.3}")),
        ),
        (
            "time",
            format!(
                "{} s, {:.4e} samples/s",
                crate::error::fixed(r.elapsed_s, 3),
                r.samples_per_s
            ),
        ),
    ];
    if s.unstopped > 0 {
        rows.insert(
            8,
            (
                "errors (worst)",
                format!(
                    "counting unstopped as errors: 95% CP interval [{:.6}, {:.6}]",
                    s.error_ci_worst_case[0], s.error_ci_worst_case[1]
                ),
            ),
        );
    }
    writeln!(out, "dpbai {} run", m.version)?;
    for (k, v) in rows {
        writeln!(out, "  {k:<15} {v}")?;
    }
    Ok(())
}
