//! `dpbai audit delta` and `dpbai audit dp`: δ-correctness of stopping rules and ε-DP of
//! mechanisms and algorithms (library: `crate::audit`).
//!
//! Exit codes ([`super::errors::VerdictExit`]): 0 for `holds`, `proven` and `no violation
//! found` (a search, or a black-box privacy audit, which never certifies privacy); 1 for
//! `violated` (or a counterexample, a rejected certificate); 2 for bad input (malformed
//! expression, unknown variable or mutant, zero budget, ...), with a one-line message; 3 for
//! `inconclusive` δ-audits and `undecided` proofs, which decide nothing.

use super::errors::{audit_exit, privacy_exit, usage, verdict_exit};
use crate::error::compact_number;

mod dominance;
mod search;
use crate::audit::delta::{
    AuditInstance, DEFAULT_ALPHA, DEFAULT_MAX_STEPS, DeltaAuditConfig, DeltaReport, RunPlan,
    audit_delta, default_battery, parse_battery,
};
use crate::audit::dp::{self as dpa, DpOptions, DpReport, Target};
use crate::bandit::{AlgoName, Rules, Setting};
use crate::instance::Instance;
use crate::params::limits;
use crate::threshold::expr::{PRESETS, parse_threshold, preset};

/// Arguments of `dpbai audit`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    cmd: Sub,
}

#[derive(clap::Subcommand, Debug)]
enum Sub {
    /// Is P(tau < inf, recommendation != best) <= delta? Exact Clopper-Pearson verdict.
    Delta(DeltaArgs),
    /// Lower confidence bound on the privacy loss of a mechanism, algorithm or planted bug.
    Dp(DpArgs),
    /// Re-verify a certificate written by `audit delta --dominates ... --json` (exit 0: valid,
    /// 1: rejected, 2: not a certificate).
    CheckCertificate(CheckArgs),
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// The certificate (the JSON of `--dominates --json`, or its `certificate` field).
    file: String,
    /// JSON output.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
#[command(allow_negative_numbers = true)]
struct DeltaArgs {
    /// Algorithm to audit (required unless --list-presets).
    #[arg(long, value_enum)]
    algo: Option<AlgoName>,
    /// Print the threshold presets (name, provable?, description, expression) and exit.
    #[arg(long)]
    list_presets: bool,
    /// Arm means, comma-separated (single-instance audit).
    #[arg(long, allow_hyphen_values = true)]
    means: Option<String>,
    /// Reward family of --means, --dominates and --search (`both`: --search only, a search
    /// coordinate picks the family).
    #[arg(long, default_value = "bernoulli", value_parser = ["bernoulli", "gaussian", "both"])]
    family: String,
    /// Standard deviation of Gaussian arms, in [1e-50, 1e50] (default 1; Bernoulli arms have
    /// 1/2).
    #[arg(long)]
    sigma: Option<f64>,
    /// Risk delta in (0, 1) (required unless --list-presets).
    #[arg(long)]
    delta: Option<f64>,
    /// Privacy budget (private algorithms).
    #[arg(long)]
    eps: Option<f64>,
    /// gamma of the Gaussian mechanism (gauss-ldp-tt).
    #[arg(long)]
    gamma: Option<f64>,
    /// Stopping threshold replacing the algorithm's: a preset name (see --list-presets) or an
    /// expression in delta, K, eps, sigma, t, na, nb, ka, kb, gap, pi, e with + - * / ^ and
    /// log, log2, sqrt, exp, abs, min, max, cg, wbar, zeta, k, h(x, delta, K), ifge(x, y, a, b).
    #[arg(long, allow_hyphen_values = true)]
    threshold: Option<String>,
    /// Paper or reference (public code) rules.
    #[arg(long, value_enum, default_value = "paper")]
    rules: Rules,
    /// Sampling rule of the runs: the algorithm's own, or `uniform` (round robin) with the
    /// algorithm's estimator, statistic and threshold: a threshold is δ-correct for any
    /// sampling rule (Top Two algorithms only).
    #[arg(long, value_enum, default_value = "algorithm")]
    sampling: crate::bandit::Sampling,
    /// Runs per instance (single look).
    #[arg(long, conflicts_with = "until_decided")]
    runs: Option<u64>,
    /// Keep adding batches (doubling, alpha_j = alpha 2^-j) until decisive or --budget runs.
    #[arg(long, requires = "budget")]
    until_decided: bool,
    /// Maximum runs per instance with --until-decided.
    #[arg(long)]
    budget: Option<u64>,
    /// Runs of the first look with --until-decided.
    #[arg(long, default_value_t = 1000)]
    first: u64,
    /// `default` or a TOML file of `[[instance]]` tables.
    #[arg(long)]
    battery: Option<String>,
    /// Confidence parameter: verdicts hold with probability >= 1 - alpha.
    #[arg(long, default_value_t = DEFAULT_ALPHA)]
    alpha: f64,
    /// Step cap of one run (unstopped runs are reported and counted conservatively; default
    /// 1e7). With --dominates: the cap of the runs the proof covers (default 1e8, `dpbai
    /// run`'s), since t ranges up to it. An integer, also written as 1e7.
    #[arg(long, value_parser = crate::cli::run::parse_count)]
    max_steps: Option<u64>,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// JSON output.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    search: Box<search::SearchArgs>,
}

#[derive(clap::Args, Debug)]
#[command(allow_negative_numbers = true)]
struct DpArgs {
    /// Mechanism: rr, laplace, gaussian, daf.
    #[arg(long, conflicts_with_all = ["algo", "mutant"])]
    mechanism: Option<String>,
    /// Whole algorithm on neighbouring reward tables: ctb-tt, adap-tt, adap-tt-star, dp-tt.
    #[arg(long, value_enum, conflicts_with = "mutant")]
    algo: Option<AlgoName>,
    /// A planted bug (see --list-mutants).
    #[arg(long)]
    mutant: Option<String>,
    /// Print the mutants, one per line (name first), and exit.
    #[arg(long)]
    list_mutants: bool,
    /// Claimed epsilon.
    #[arg(long, default_value_t = 1.0)]
    eps: f64,
    /// Claimed gamma of the Gaussian mechanism.
    #[arg(long, default_value_t = dpa::DEFAULT_GAMMA)]
    gamma: f64,
    /// exact (computable output law), blackbox (DP-Sniper), or auto (exact when available).
    #[arg(long, default_value = "auto", value_parser = ["auto", "exact", "blackbox"])]
    mode: String,
    /// Runs per neighbouring input in black-box mode (default depends on the target).
    #[arg(long)]
    runs: Option<u64>,
    /// Confidence parameter.
    #[arg(long, default_value_t = DEFAULT_ALPHA)]
    alpha: f64,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// JSON output.
    #[arg(long)]
    json: bool,
    /// Search pairs of neighbouring reward tables (with --algo, or --mutant adap-tt-late-leak)
    /// instead of the fixed pair; Bonferroni-confirmed black-box test of the worst pairs.
    #[arg(long)]
    search: bool,
    /// Budget of the screening of --search: samples (`1e8`, deterministic for a seed) or
    /// seconds with an `s` suffix (`120s`). The default covers the whole halving plan.
    #[arg(long, default_value = "1e8")]
    search_budget: String,
    /// Confirmation plan of --search: `sequential` (looks of --confirm-first, twice that, ...
    /// up to --runs runs per table, look j at alpha/m*2^-j; stops when violated or futile) or
    /// `fixed` (one look of --runs runs per table at alpha/m).
    #[arg(long, default_value = "sequential", value_parser = ["sequential", "fixed"])]
    confirm_plan: String,
    /// Runs per table of the first look of the sequential confirmation of --search (>= 4).
    #[arg(long, default_value_t = 1250)]
    confirm_first: u64,
    /// Beta of the futility rule of the sequential confirmation of --search, in (0, 1): stop
    /// when even the optimistic end of a 1 - beta interval for the chosen event would not be
    /// certified at the budget (changes the power only, never the error control).
    #[arg(long, default_value_t = 0.05)]
    futility_beta: f64,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.cmd {
        Sub::Delta(a) => run_delta(a),
        Sub::Dp(a) => run_dp(a),
        Sub::CheckCertificate(a) => dominance::run_check(&a.file, a.json),
    }
}

/// Largest `--battery` file read (bytes), as a study file.
const MAX_BATTERY_BYTES: u64 = crate::experiment::study::validate::study_limits::MAX_FILE_BYTES;

/// How to do more audit runs than one process may.
const AUDIT_SPLIT: &str = "run several audits with different --seed instead";

fn check_unit(name: &str, x: f64) -> anyhow::Result<()> {
    if x > 0.0 && x < 1.0 {
        Ok(())
    } else {
        Err(usage(format!(
            "invalid {name} = {}: must be in (0, 1)",
            compact_number(x)
        )))
    }
}

fn run_delta(a: DeltaArgs) -> anyhow::Result<()> {
    if a.list_presets {
        for p in PRESETS {
            let text = preset(p.name).unwrap_or_default();
            let kind = if p.provable() {
                "provable"
            } else {
                "empirical"
            };
            println!("{:<28} {kind:<9} {}\n    {text}", p.name, p.description);
        }
        return Ok(());
    }
    if a.family == "both" && !a.search.search {
        return Err(usage(
            "invalid family = both: only --search searches both families (give bernoulli or gaussian)",
        ));
    }
    if !a.search.search && (a.search.sigma_min.is_some() || a.search.sigma_max.is_some()) {
        return Err(usage(
            "--sigma-min and --sigma-max declare the sigma range of --search (give --search, \
             or --sigma alone)",
        ));
    }
    if a.search.dominates.is_some() && a.search.search {
        return Err(usage(
            "--search and --dominates are two audits (a search for a violating instance, a \
             proof over the whole domain): give one of them",
        ));
    }
    if let Some(p) = &a.search.dominates {
        let delta = a.delta.ok_or_else(|| usage("--delta D is required"))?;
        let threshold = match &a.threshold {
            Some(t) => Some(parse_threshold(t).map_err(|e| usage(format!("--threshold: {e}")))?),
            None => None,
        };
        return dominance::run_dominates(
            &a.search,
            p,
            &dominance::DominanceInputs {
                threshold: threshold.as_ref(),
                delta,
                eps: a.eps,
                family: &a.family,
                sigma: a.sigma,
                gamma: a.gamma,
                max_steps: a.max_steps,
                algo: a.algo,
                rules: a.rules,
                json: a.json,
            },
        );
    }
    let algo = a
        .algo
        .ok_or_else(|| usage("--algo NAME is required (see `dpbai audit delta --help`)"))?;
    let delta = a.delta.ok_or_else(|| usage("--delta D is required"))?;
    crate::params::check_delta("delta", delta)?;
    check_unit("alpha", a.alpha)?;
    if let Some(e) = a.eps {
        if !(e > 0.0 && e.is_finite()) {
            return Err(usage(format!(
                "invalid eps = {}: must be a finite number > 0",
                compact_number(e)
            )));
        }
    }
    if algo.needs_eps() && a.eps.is_none() && a.battery.is_none() && !a.search.search {
        return Err(usage(format!("--eps is required by {}", algo.as_str())));
    }
    let plan = if a.until_decided {
        let budget = a.budget.unwrap_or(0);
        if budget == 0 {
            return Err(usage("invalid budget = 0: must be at least 1"));
        }
        if a.first == 0 {
            return Err(usage("invalid first = 0: must be at least 1"));
        }
        limits::check_runs_or("budget", budget, AUDIT_SPLIT)?;
        RunPlan::UntilDecided {
            first: a.first,
            budget,
        }
    } else {
        if a.budget.is_some() {
            return Err(usage("--budget needs --until-decided"));
        }
        let runs = a.runs.unwrap_or(1000);
        if runs == 0 {
            return Err(usage("invalid runs = 0: must be at least 1"));
        }
        limits::check_runs_or("runs", runs, AUDIT_SPLIT)?;
        RunPlan::Fixed { runs }
    };
    let max_steps = a.max_steps.unwrap_or(DEFAULT_MAX_STEPS);
    limits::check_max_steps(max_steps)?;
    let threshold = match &a.threshold {
        Some(t) => Some(parse_threshold(t).map_err(|e| usage(format!("--threshold: {e}")))?),
        None => None,
    };
    let means = a
        .means
        .as_deref()
        .map(|m| super::errors::parse_list("means", m))
        .transpose()?
        .unwrap_or_default();
    limits::check_arms(means.len())?;
    let mut setting = Setting::paper(algo, delta)?.with_gamma(a.gamma)?;
    setting.rules = a.rules;
    let cfg = DeltaAuditConfig {
        setting,
        threshold,
        alpha: a.alpha,
        seed: a.seed,
        max_steps,
        plan,
        sampling: a.sampling,
    };
    if a.search.search {
        if a.battery.is_some() || !means.is_empty() {
            return Err(usage(
                "--search replaces --means and --battery: give neither",
            ));
        }
        let plan_given = a.runs.is_some() || a.until_decided;
        return search::run_search(
            &a.search,
            cfg,
            delta,
            &a.family,
            a.sigma.unwrap_or(1.0),
            plan_given,
            a.json,
        );
    }
    let instances: Vec<AuditInstance> = match (&a.battery, means.is_empty()) {
        (Some(_), false) => return Err(usage("give either --means or --battery, not both")),
        (None, true) => return Err(usage("give --means LIST or --battery default|FILE")),
        (Some(b), true) if b == "default" => default_battery(algo, delta, a.eps)?,
        (Some(path), true) => {
            let text = crate::files::read_user_text(
                std::path::Path::new(path),
                "battery file (TOML)",
                MAX_BATTERY_BYTES,
            )
            .map_err(|e| match e {
                crate::Error::Io { cause, .. } => {
                    usage(format!("cannot read battery file {path}: {cause}"))
                }
                e => usage(e.to_string()),
            })?;
            parse_battery(&text, delta, a.eps)?
        }
        (None, false) => {
            let name = a
                .family
                .parse::<crate::instance::FamilyName>()
                .map_err(|_| {
                    usage(format!(
                        "invalid family = {}: must be bernoulli or gaussian",
                        a.family
                    ))
                })?;
            let inst = Instance::new(crate::instance::Family::of(name, a.sigma)?, means)?;
            vec![AuditInstance {
                name: "instance".into(),
                instance: inst,
                delta,
                eps: a.eps,
            }]
        }
    };
    let report = audit_delta(&cfg, &instances)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_delta(&report);
    }
    verdict_exit(audit_exit(report.verdict))
}

fn fmt_means(m: &[f64]) -> String {
    let v: Vec<String> = m.iter().map(|x| format!("{x}")).collect();
    let s = v.join(",");
    if s.len() > 28 {
        format!("{}..", &s[..26])
    } else {
        s
    }
}

fn print_delta(r: &DeltaReport) {
    println!(
        "audit delta: {}{}{}  verdict: {}  confidence {}  seed {}  ({:.1} s)",
        r.algo,
        r.threshold
            .as_ref()
            .map(|t| format!(" with threshold `{t}`"))
            .unwrap_or_default(),
        match r.sampling {
            crate::bandit::Sampling::Algorithm => "",
            crate::bandit::Sampling::Uniform => " under uniform sampling",
        },
        r.verdict,
        r.confidence,
        r.seed,
        r.seconds
    );
    println!(
        "{:<16} {:<14} {:<30} {:>7} {:>6} {:>9} {:>8} {:>8} {:>23} {:>12} {:>10} {:>10}",
        "instance",
        "family",
        "means",
        "delta",
        "eps",
        "runs",
        "errors",
        "unstop",
        "ci",
        "verdict",
        "more-runs",
        "mean-tau"
    );
    for row in &r.instances {
        if let Some(why) = &row.skipped {
            println!(
                "{:<16} {:<14} {:<30} {:>7} {:>6} skipped: {why}",
                row.name,
                row.family,
                fmt_means(&row.means),
                compact_number(row.delta),
                row.eps.map(compact_number).unwrap_or_else(|| "-".into()),
            );
            continue;
        }
        println!(
            "{:<16} {:<14} {:<30} {:>7} {:>6} {:>9} {:>8} {:>8} {:>23} {:>12} {:>10} {:>10}",
            row.name,
            row.family,
            fmt_means(&row.means),
            compact_number(row.delta),
            row.eps.map(compact_number).unwrap_or_else(|| "-".into()),
            row.runs,
            row.errors,
            row.unstopped,
            format!("[{:.3e}, {:.3e}]", row.ci[0], row.ci[1]),
            row.verdict.as_str(),
            row.more_runs
                .map(|n| format!("~{n}"))
                .unwrap_or_else(|| "-".into()),
            // No stopped run: no mean (never "NaN").
            if row.mean_tau.is_finite() {
                format!("{:.4e}", row.mean_tau)
            } else {
                "-".to_string()
            },
        );
    }
    if r.unstopped > 0 {
        println!(
            "note: {} run(s) hit the step cap {}; they count as correct for the lower bound and as errors for the upper bound.",
            r.unstopped, r.max_steps
        );
    }
}

/// The target of `--mechanism NAME`.
fn mechanism_target(m: &str) -> anyhow::Result<Target> {
    dpa::mechanism_info(m)
        .map(Target::Mechanism)
        .ok_or_else(|| {
            usage(format!(
                "unknown mechanism '{m}' (known: {})",
                dpa::mechanism_names().join(", ")
            ))
        })
}

fn run_dp(a: DpArgs) -> anyhow::Result<()> {
    if a.list_mutants {
        for m in dpa::MUTANTS {
            println!("{:<24} {}", m.name, m.description);
        }
        for (name, what) in crate::audit::dp::late_leak::SEARCH_MUTANTS {
            println!("{name:<24} {what}");
        }
        return Ok(());
    }
    check_unit("alpha", a.alpha)?;
    if !(1e-300..=1e100).contains(&a.eps) {
        return Err(usage(format!(
            "invalid eps = {:e}: must be in [1e-300, 1e100] for audit dp (the exact losses of \
             the calibrated mechanisms must be finite doubles)",
            a.eps
        )));
    }
    crate::params::check_gamma("gamma", a.gamma)?;
    if let Some(r) = a.runs {
        limits::check_runs_or("runs", r, AUDIT_SPLIT)?;
    }
    let mechanism_mutant = a
        .mutant
        .as_deref()
        .and_then(dpa::mutant)
        .is_some_and(|m| matches!(m.base, dpa::MutantBase::Mechanism(_)));
    if a.search && (a.mechanism.is_some() || mechanism_mutant) {
        let target = match (&a.mechanism, &a.mutant) {
            (Some(m), _) => mechanism_target(m)?,
            (None, Some(m)) => Target::Mutant(dpa::mutant(m).expect("invariant: checked above")),
            _ => unreachable!("invariant: a mechanism or a mechanism mutant"),
        };
        let runs = a.runs.unwrap_or(400_000);
        if runs < 80 {
            return Err(usage(format!(
                "invalid runs = {runs}: must be at least 80 for a neighbour search"
            )));
        }
        let (r, pairs) =
            dpa::mechanism_neighbour_search(&target, a.eps, a.gamma, runs, a.alpha, a.seed, 16)?;
        if a.json {
            let mut v = serde_json::to_value(&r)?;
            v["pairs"] = serde_json::json!(pairs);
            println!("{}", serde_json::to_string_pretty(&v)?);
        } else {
            let (x, y) = &pairs[r.pair];
            println!(
                "audit dp --search: neighbour search over inputs in [0, 1] ({} pairs screened with {} runs each)  verdict: {}",
                pairs.len(),
                (runs / 10).max(8),
                r.result.verdict.with_certified(r.result.eps_lower)
            );
            println!(
                "  worst pair: x = {:.6}, x' = {:.6}; eps_lower {:.6} certified on {} fresh runs per input ({} held out); event {}",
                x[0],
                y[0],
                r.result.eps_lower,
                r.result.runs,
                r.result.certify_runs,
                r.result.event
            );
        }
        return verdict_exit(privacy_exit(r.result.verdict));
    }
    if a.search {
        check_unit("futility-beta", a.futility_beta)?;
        if a.confirm_first < 4 {
            return Err(usage(format!(
                "invalid --confirm-first {}: must be at least 4",
                a.confirm_first
            )));
        }
        let confirm = search::DpConfirm {
            runs: a.runs,
            first: (a.confirm_plan == "sequential").then_some(a.confirm_first),
            futility_beta: a.futility_beta,
        };
        return search::run_dp_search(
            a.algo,
            a.mutant.as_deref(),
            a.eps,
            a.alpha,
            a.seed,
            confirm,
            &a.search_budget,
            a.json,
        );
    }
    if let Some(r) = a.runs {
        if r < 8 {
            return Err(usage(format!(
                "invalid --runs {r}: must be at least 8 (black-box mode splits the runs of each \
                 input into two halves of at least 4)"
            )));
        }
    }
    let target = match (&a.mechanism, a.algo, &a.mutant) {
        (Some(m), None, None) => mechanism_target(m)?,
        (None, Some(algo), None) => Target::Algo(algo),
        (None, None, Some(m))
            if crate::audit::dp::late_leak::SEARCH_MUTANTS
                .iter()
                .any(|(name, _)| *name == m.as_str()) =>
        {
            return Err(usage(format!(
                "mutant '{m}' leaks only from its third release on, which the fixed tables of \
                 `audit dp` never reach: audit it with --search (`dpbai audit dp --mutant {m} \
                 --search`)"
            )));
        }
        (None, None, Some(m)) => Target::Mutant(dpa::mutant(m).ok_or_else(|| {
            usage(format!(
                "unknown mutant '{m}' (known: {}; see --list-mutants)",
                dpa::MUTANTS
                    .iter()
                    .map(|m| m.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?),
        _ => {
            return Err(usage(
                "give exactly one of --mechanism NAME, --algo NAME, --mutant NAME (or --list-mutants)",
            ));
        }
    };
    let mode = match a.mode.as_str() {
        "exact" => dpa::Mode::Exact,
        "blackbox" => dpa::Mode::BlackBox,
        _ => dpa::Mode::Auto,
    };
    let opts = DpOptions {
        eps: a.eps,
        gamma: a.gamma,
        mode,
        runs: a.runs,
        alpha: a.alpha,
        seed: a.seed,
    };
    let report = dpa::audit_dp(&target, &opts)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_dp(&report);
    }
    verdict_exit(privacy_exit(report.verdict))
}

fn print_dp(r: &DpReport) {
    println!(
        "audit dp: {}  mode: {}  verdict: {}  confidence {}  seed {}  ({:.2} s)",
        r.target,
        r.mode,
        r.verdict.with_certified(r.eps_lower),
        r.confidence,
        r.seed,
        r.seconds
    );
    println!("  claim:      {}", r.claim);
    if let Some(l) = r.loss_exact {
        println!("  exact loss: {l:.12}");
    }
    if let Some(g) = r.gamma_exact {
        println!("  exact gamma at claimed eps: {g:.6e}");
    }
    if r.mode == "blackbox" {
        println!(
            "  eps_lower:  {:.6}  (eps_claimed {})  runs {} per input, {} held out; event {}",
            r.eps_lower, r.eps_claimed, r.runs, r.certify_runs, r.event
        );
        if let Some(g) = r.gamma_lower {
            println!("  gamma_lower: {g:.6e}");
        }
    }
    if !r.note.is_empty() {
        println!("  note: {}", r.note);
    }
}
