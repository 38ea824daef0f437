//! `dpbai audit delta --search` (adversarial instance search) and `--dominates PRESET` (proof
//! by dominance): the command-line side of `crate::audit::search` and `crate::threshold::dominance`.

use super::super::errors::usage;
use crate::audit::delta::DeltaAuditConfig;
use crate::audit::search::{
    Budget, SearchConfig, SearchReport, SearchSpace, SpaceFamily, holds_sized_plan, report_rows,
    search,
};
use crate::plot::{self as figure, Figure, HLine, Panel, RefStyle, Series, SeriesStyle};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// Options of `--search` (and `--dominates`).
#[derive(clap::Args, Debug, Default)]
pub struct SearchArgs {
    /// Search the declared space for the instance that maximises the error probability, then
    /// confirm the worst ones on fresh seeds (Bonferroni over --finalists).
    #[arg(long)]
    pub search: bool,
    /// Smallest number of arms searched (and proven with --dominates), >= 2.
    #[arg(long, default_value_t = 2)]
    pub k_min: usize,
    /// Largest number of arms searched (and proven with --dominates), <= 1000.
    #[arg(long, default_value_t = 20)]
    pub k_max: usize,
    /// Smallest mean searched.
    #[arg(long, default_value_t = 0.05)]
    pub mean_lo: f64,
    /// Largest mean searched.
    #[arg(long, default_value_t = 0.95)]
    pub mean_hi: f64,
    /// Smallest gap between the best and second-best means.
    #[arg(long, default_value_t = 0.02)]
    pub min_gap: f64,
    /// Largest gap searched.
    #[arg(long, default_value_t = 0.4)]
    pub max_gap: f64,
    /// Smallest eps searched (private algorithms).
    #[arg(long, default_value_t = 0.1)]
    pub eps_lo: f64,
    /// Largest eps searched (private algorithms).
    #[arg(long, default_value_t = 1.0)]
    pub eps_hi: f64,
    /// Smallest sigma of the Gaussian arms searched (--family gaussian or both; a range
    /// [sigma-min, sigma-max] searched on a log scale, each end defaulting to --sigma).
    #[arg(long)]
    pub sigma_min: Option<f64>,
    /// Largest sigma of the Gaussian arms searched (see --sigma-min).
    #[arg(long)]
    pub sigma_max: Option<f64>,
    /// Search budget of every stage (screening <= 1/2, Nelder-Mead <= 40% of the rest, the
    /// confirmation the rest): samples in [1, 1e12] (default; deterministic: the same report
    /// on any machine and load), or seconds with an `s` suffix (`60s`, up to a week;
    /// machine-dependent).
    #[arg(long, default_value = "2e9")]
    pub search_budget: String,
    /// Candidates of the first screening round, in [finalists, 10000] (memory below
    /// screen-candidates * (48 K_max + 2000) bytes).
    #[arg(long, default_value_t = 64)]
    pub screen_candidates: usize,
    /// Runs per candidate in the first screening round (doubled at each halving), in [1, 1e6].
    #[arg(long, default_value_t = 32)]
    pub screen_runs: u64,
    /// Runs per Nelder-Mead evaluation, in [1, 1e6].
    #[arg(long, default_value_t = 256)]
    pub local_runs: u64,
    /// Nelder-Mead iterations at most, in [0, 10000].
    #[arg(long, default_value_t = 40)]
    pub local_iters: u64,
    /// Candidates confirmed on fresh seeds, in [1, 16].
    #[arg(long, default_value_t = 2)]
    pub finalists: usize,
    /// Write the search trace (one row per evaluation) to this CSV file.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Write the plot of error rate against hardness to `<STEM>.svg` and `<STEM>.png`.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Also print the markdown rows of the REPORT.md block.
    #[arg(long)]
    pub markdown: bool,
    /// Prove (interval branch and bound) that --threshold is finite and >= this provable preset
    /// at every reachable point (delta in [--delta-min, --delta], K = --n-arms or in
    /// [--k-min, --k-max], counts and t up to --max-steps, default 1e8 as `dpbai run`), over the
    /// eps, sigma and gap the runs of the lemma's algorithms (or --algo's) use, as each declares
    /// them (gap unbounded for noisy private estimates; --eps refused for non-private ones;
    /// --gamma for gauss-ldp-tt's sigma): proven (with --json: a certificate for `dpbai audit
    /// check-certificate`), counterexample or undecided.
    #[arg(long)]
    pub dominates: Option<String>,
    /// Number of arms K for --dominates (absent: every K in [--k-min, --k-max]).
    #[arg(long)]
    pub n_arms: Option<u64>,
    /// Smallest delta of --dominates (a range [delta-min, delta]; default: delta alone) and of
    /// --search (the confirmation runs at delta; thresholds are screened at delta-min too).
    #[arg(long)]
    pub delta_min: Option<f64>,
    /// Boxes at most for --dominates, in [1, 2e6] (memory about 250 bytes per box); the
    /// default budget: the answer does not depend on the machine.
    #[arg(long, default_value_t = crate::threshold::dominance::DEFAULT_BOXES)]
    pub dominance_boxes: u64,
    /// Seconds at most for --dominates as well (machine-dependent; default: none).
    #[arg(long)]
    pub dominance_seconds: Option<f64>,
}

fn parse_budget(s: &str) -> anyhow::Result<Budget> {
    let t = s.trim();
    let bad = || {
        usage(format!(
            "invalid search-budget = {s}: give samples as `5e7` (in [1, 1e12]) or seconds as `60s` (in (0, 604800])"
        ))
    };
    if let Some(sec) = t.strip_suffix('s') {
        let v: f64 = sec.trim().parse().map_err(|_| bad())?;
        if !(v > 0.0 && v <= 604_800.0) {
            return Err(bad());
        }
        Ok(Budget::Seconds(v))
    } else {
        let v: f64 = t.parse().map_err(|_| bad())?;
        if !(1.0..=1e12).contains(&v) {
            return Err(bad());
        }
        Ok(Budget::Samples(v as u64))
    }
}

/// Set by the SIGINT handler: the search ends between batches and prints its partial result.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Installs the Ctrl-C handler of the search (a second Ctrl-C after the first ends the process
/// as usual, since the handler is reset to the default after the first). The library's one
/// `unsafe` block (the crate denies `unsafe_code`; the library without the `cli` feature has none).
#[allow(unsafe_code)]
fn catch_ctrl_c() -> &'static AtomicBool {
    #[cfg(unix)]
    // SAFETY: the handler only stores to an atomic (async-signal-safe); `signal` replaces the
    // disposition of SIGINT, which nothing else in the process uses.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
    &INTERRUPTED
}

/// Runs `f` (a search) with a bar of its budget on stderr when stderr is a terminal: the
/// samples `drawn` so far out of a budget in samples, or the seconds spent out of a budget in
/// seconds (with the samples drawn), redrawn four times a second, with indicatif's estimate of
/// the time left. Without a budget that bounds the whole search (`None`: the neighbour search,
/// whose budget bounds its screening only), a spinner with the samples drawn so far. Nothing is
/// drawn elsewhere (a log, a pipe).
fn with_budget_bar<T>(
    budget: Option<Budget>,
    drawn: &std::sync::atomic::AtomicU64,
    f: impl FnOnce() -> T,
) -> T {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return f();
    }
    // A budget in seconds is drawn in milliseconds.
    let (bar, template) = match budget {
        Some(Budget::Samples(n)) => (
            indicatif::ProgressBar::new(n),
            "{elapsed_precise} [{bar:20}] (eta {eta}) {wide_msg}",
        ),
        Some(Budget::Seconds(s)) => (
            indicatif::ProgressBar::new((s * 1000.0).ceil() as u64),
            "{elapsed_precise} [{bar:20}] (eta {eta}) {wide_msg}",
        ),
        None => (
            indicatif::ProgressBar::new_spinner(),
            "{spinner} {elapsed_precise} {wide_msg}",
        ),
    };
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    let done = AtomicBool::new(false);
    let r = std::thread::scope(|scope| {
        let painter = scope.spawn(|| {
            let start = std::time::Instant::now();
            while !done.load(Ordering::Relaxed) {
                let used = drawn.load(Ordering::Relaxed);
                match budget {
                    None => {
                        bar.set_message(format!(
                            "{} samples drawn (screening, then confirmation)",
                            indicatif::HumanCount(used)
                        ));
                        bar.tick();
                    }
                    Some(Budget::Samples(n)) => {
                        bar.set_message(format!(
                            "{}/{} samples of the budget",
                            indicatif::HumanCount(used),
                            indicatif::HumanCount(n)
                        ));
                        bar.set_position(used.min(n));
                    }
                    Some(Budget::Seconds(s)) => {
                        let t = start.elapsed().as_secs_f64();
                        bar.set_message(format!(
                            "{t:.0}/{s} s of the budget, {} samples",
                            indicatif::HumanCount(used)
                        ));
                        let ms = (t * 1000.0) as u64;
                        bar.set_position(ms.min(bar.length().unwrap_or(ms)));
                    }
                }
                // Woken at once when the search ends (no quarter-second wait at the end).
                std::thread::park_timeout(std::time::Duration::from_millis(250));
            }
        });
        let r = f();
        done.store(true, Ordering::Relaxed);
        painter.thread().unpark();
        r
    });
    bar.finish_and_clear();
    r
}

/// The `σ` range of `--sigma-min/--sigma-max` (each end defaulting to `--sigma`), if either
/// is given ([`SearchSpace::validate`] checks it).
fn sigma_range(a: &SearchArgs, sigma: f64) -> Option<(f64, f64)> {
    (a.sigma_min.is_some() || a.sigma_max.is_some())
        .then(|| (a.sigma_min.unwrap_or(sigma), a.sigma_max.unwrap_or(sigma)))
}

/// Runs `--search` with the audit settings already parsed by `audit delta`.
#[allow(clippy::too_many_arguments)]
pub fn run_search(
    a: &SearchArgs,
    audit: DeltaAuditConfig,
    delta: f64,
    family: &str,
    sigma: f64,
    plan_given: bool,
    json: bool,
) -> anyhow::Result<()> {
    let family = match family {
        "gaussian" => SpaceFamily::Gaussian { sigma },
        "both" => SpaceFamily::Both { sigma },
        _ => SpaceFamily::Bernoulli,
    };
    let eps = audit
        .setting
        .algo
        .needs_eps()
        .then_some((a.eps_lo, a.eps_hi));
    let space = SearchSpace {
        family,
        k_min: a.k_min,
        k_max: a.k_max,
        mean_lo: a.mean_lo,
        mean_hi: a.mean_hi,
        min_gap: a.min_gap,
        max_gap: a.max_gap,
        eps,
        delta: a.delta_min.map(|lo| (lo, delta)),
        sigma: sigma_range(a, sigma),
    };
    space.validate().map_err(|e| usage(e.to_string()))?;
    let mut cfg = SearchConfig::new(audit, delta, space);
    cfg.budget = parse_budget(&a.search_budget)?;
    cfg.screen_candidates = a.screen_candidates;
    cfg.screen_runs = a.screen_runs;
    cfg.local_runs = a.local_runs;
    cfg.local_iters = a.local_iters;
    cfg.finalists = a.finalists;
    // Every range (δ's among them) is checked before the confirmation plan is sized from it.
    cfg.validate().map_err(|e| usage(e.to_string()))?;
    if !plan_given {
        // Sized so that a correct rule is confirmed at the first look (holds_sized_plan).
        cfg.audit.plan = holds_sized_plan(delta, cfg.audit.alpha, a.finalists.clamp(1, 16))
            .map_err(|e| usage(e.to_string()))?;
    }
    cfg.stop = Some(catch_ctrl_c());
    let drawn = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    cfg.progress = Some(drawn.clone());
    let r = with_budget_bar(Some(cfg.budget), &drawn, || search(&cfg))?;
    if let Some(p) = &a.trace {
        write_trace(&r, p)?;
    }
    if let Some(p) = &a.plot {
        figure::render(&plot(&r), p)?;
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print_search(&r);
        if a.markdown {
            print!("{}", report_rows(std::slice::from_ref(&r)));
        }
    }
    crate::cli::errors::verdict_exit(match r.verdict {
        crate::audit::search::SearchVerdict::Violated => crate::cli::errors::EXIT_VIOLATED,
        crate::audit::search::SearchVerdict::NoViolationFound => 0,
        crate::audit::search::SearchVerdict::Undecided => crate::cli::errors::EXIT_UNDECIDED,
    })
}

fn write_trace(r: &SearchReport, path: &PathBuf) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| crate::Error::io("create", dir, e))?;
    }
    let mut w = csv::Writer::from_path(path)?;
    for row in &r.trace {
        w.serialize(row)?;
    }
    w.flush()?;
    Ok(())
}

/// Error frequency against hardness, one series per stage, with δ as a reference line.
fn plot(r: &SearchReport) -> Figure {
    let mut panel = Panel::new(
        format!(
            "{}{}: search verdict {}",
            r.algo,
            r.threshold
                .as_deref()
                .map(|t| format!(" / {}", short(t)))
                .unwrap_or_default(),
            r.verdict
        ),
        "hardness T*(nu) log(1/delta)",
        "error frequency",
    );
    panel.x_log = true;
    for (i, (label, pred)) in [
        ("screening", "screen"),
        ("Nelder-Mead", "nelder-mead"),
        ("confirmation (fresh seeds)", "confirm"),
    ]
    .iter()
    .enumerate()
    {
        let rows: Vec<_> = r
            .trace
            .iter()
            .filter(|t| t.stage.starts_with(pred) && t.hardness.is_finite() && t.hardness > 0.0)
            .collect();
        if rows.is_empty() {
            continue;
        }
        panel.series.push(Series::new(
            *label,
            rows.iter().map(|t| t.hardness).collect(),
            rows.iter().map(|t| t.error_rate).collect(),
            SeriesStyle::Points,
            i,
        ));
    }
    panel.hlines.push(HLine {
        stats: None,
        y: r.delta,
        label: "delta".into(),
        style: RefStyle::Dashed,
        color: 3,
    });
    Figure::grid("audit delta --search", vec![panel], 1)
}

fn short(t: &str) -> String {
    if t.chars().count() > 40 {
        format!("{}...", t.chars().take(37).collect::<String>())
    } else {
        t.to_string()
    }
}

fn print_search(r: &SearchReport) {
    println!(
        "audit delta --search: {}{}  delta {}  verdict: {}{}",
        r.algo,
        r.threshold
            .as_ref()
            .map(|t| format!(" with threshold `{t}`"))
            .unwrap_or_default(),
        crate::error::compact_number(r.delta),
        r.verdict,
        if r.interrupted {
            "  (interrupted: partial result)"
        } else {
            ""
        },
    );
    println!(
        "  budget {}: {} samples in total ({} evaluations, {} seeded by the threshold's expression)",
        match r.budget {
            Budget::Samples(n) => format!("{n} samples"),
            Budget::Seconds(s) => format!("{s} s"),
        },
        r.samples,
        r.evaluations,
        r.seeds
    );
    for st in &r.stages {
        println!(
            "  stage {:<13} {:>12} samples {:>9} runs {:>5} evaluations",
            st.name, st.samples, st.runs, st.evaluations
        );
    }
    if !r.worst_means.is_empty() {
        println!(
            "  worst instance: {} K = {} ({} others), delta = {}{}, means = {:?}",
            r.worst_family,
            r.worst_means.len(),
            r.worst_shape,
            crate::error::compact_number(r.worst_delta),
            r.worst_eps
                .map(|e| format!(", eps = {e}"))
                .unwrap_or_default(),
            r.worst_means
        );
        // A finalist the budget paid no confirmation run for has no error rate (never "NaN").
        let or_dash = |x: f64, s: String| if x.is_finite() { s } else { "-".into() };
        println!(
            "  error rate {}  ci [{:.3e}, {:.3e}]  hardness {}",
            or_dash(r.worst_error_rate, format!("{:.5}", r.worst_error_rate)),
            r.worst_ci[0],
            r.worst_ci[1],
            or_dash(r.worst_hardness, format!("{:.4e}", r.worst_hardness))
        );
    }
    for row in &r.confirmation {
        println!(
            "  confirm {:<12} K={:<3} delta {:<8} runs {:>6} errors {:>5} unstopped {:>4} (step cap {}) ci [{:.3e}, {:.3e}] {}",
            row.name,
            row.means.len(),
            crate::error::compact_number(row.delta),
            row.runs,
            row.errors,
            row.unstopped,
            crate::error::compact_number(row.step_cap as f64),
            row.ci[0],
            row.ci[1],
            row.skipped.as_deref().unwrap_or(row.verdict.as_str())
        );
    }
    println!("  {}", r.confirmation_statement);
    println!("  correction: {}", r.correction);
    if r.verdict == crate::audit::search::SearchVerdict::Violated {
        println!("  power: {}", r.power);
    }
}

/// The confirmation options of `audit dp --search`.
#[derive(Debug, Clone, Copy)]
pub struct DpConfirm {
    /// Runs per table (the sequential plan's budget), if given.
    pub runs: Option<u64>,
    /// First look of the sequential plan; `None`: the fixed plan.
    pub first: Option<u64>,
    /// `β` of the futility rule.
    pub futility_beta: f64,
}

/// Runs `audit dp --search`.
#[allow(clippy::too_many_arguments)]
pub fn run_dp_search(
    algo: Option<crate::bandit::AlgoName>,
    mutant: Option<&str>,
    eps: f64,
    alpha: f64,
    seed: u64,
    confirm: DpConfirm,
    budget: &str,
    json: bool,
) -> anyhow::Result<()> {
    use crate::audit::dp_search::{
        DpSearchConfig, DpSearchTarget, dp_search_counted, fixed_tables,
    };
    let target = match (algo, mutant) {
        (Some(a), None) if crate::audit::dp::TABLE_DP_ALGORITHMS.contains(&a) => {
            DpSearchTarget::Algo(a)
        }
        (Some(a), None) => {
            return Err(usage(format!(
                "invalid algo = {} for --search: must be {}",
                a.as_str(),
                crate::audit::dp::table_dp_names()
            )));
        }
        (None, Some("adap-tt-late-leak")) => DpSearchTarget::AdapTtLateLeak { leak_from: 3 },
        (None, Some("rr-daf-late-leak")) => DpSearchTarget::RrDaf { leak_from: Some(3) },
        (None, Some("rr-daf")) => DpSearchTarget::RrDaf { leak_from: None },
        _ => {
            return Err(usage(
                "--search needs --algo ctb-tt|adap-tt|adap-tt-star|dp-tt, or --mutant adap-tt-late-leak|rr-daf-late-leak (or rr-daf, the toy's faithful version)",
            ));
        }
    };
    let mut cfg = DpSearchConfig::new(eps);
    cfg.alpha = alpha;
    cfg.seed = seed;
    cfg.budget = parse_budget(budget)?;
    if let Some(r) = confirm.runs {
        if r < 4 {
            return Err(usage(format!("invalid runs = {r}: must be at least 4")));
        }
        cfg.confirm_runs = r;
    }
    cfg.confirm_first = confirm.first;
    cfg.futility_beta = confirm.futility_beta;
    let drawn = std::sync::atomic::AtomicU64::new(0);
    let r = with_budget_bar(None, &drawn, || dp_search_counted(target, &cfg, &drawn))?;
    let fixed = fixed_tables(target, &cfg)?;
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({ "search": r, "fixed_tables": fixed })
            )?
        );
        return crate::cli::errors::verdict_exit(crate::cli::errors::privacy_exit(r.verdict));
    }
    println!(
        "audit dp --search: {}  claim {eps}-DP  verdict: {}  ({} evaluations, {} screening samples{}, {:.1} s)",
        r.target,
        r.verdict.with_certified(r.eps_lower),
        r.trace.len(),
        r.samples,
        if r.budget_exhausted {
            "; budget exhausted before the halving plan completed"
        } else {
            ""
        },
        r.seconds
    );
    println!(
        "  worst pair: tables of {} users drawn from Ber({:.3}) x Ber({:.3}), differing in user {}",
        cfg.rows,
        r.worst_means[0],
        r.worst_means[1],
        r.worst_user + 1
    );
    println!(
        "  eps_lower {:.4} (certified, {} runs per table, {} held out; event {})",
        r.eps_lower, r.worst.runs, r.worst.certify_runs, r.worst.event
    );
    println!("  correction: {}", r.correction);
    println!(
        "  fixed tables (user 1 flipped), same tester at alpha: {}  eps_lower {:.4}",
        fixed.result.verdict.with_certified(fixed.result.eps_lower),
        fixed.result.eps_lower
    );
    let stage = |c: &crate::audit::dp_search::Confirmation| {
        format!(
            "{} runs per table in {} look(s), stopped by {}, {} samples",
            c.result.runs, c.looks, c.stopped_by, c.samples
        )
    };
    println!("  samples drawn: screening {}", r.samples);
    for (i, c) in r.confirmations.iter().enumerate() {
        println!("    confirmation of finalist {}: {}", i + 1, stage(c));
    }
    println!("    fixed tables: {}", stage(&fixed));
    println!(
        "    total {}",
        r.samples + r.confirm_samples + fixed.samples
    );
    crate::cli::errors::verdict_exit(crate::cli::errors::privacy_exit(r.verdict))
}
