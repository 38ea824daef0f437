//! `dpbai audit delta --search` (adversarial instance search) and `--dominates PRESET` (proof
//! by dominance): the command-line side of `dpbai::audit::search` and `dpbai::audit::dominance`.

use super::super::usage;
use dpbai::audit::delta::DeltaAuditConfig;
use dpbai::audit::search::{
    holds_sized_plan, report_rows, search, Budget, SearchConfig, SearchReport, SearchSpace,
    SpaceFamily,
};
use dpbai::report::plot::{self as figure, Figure, HLine, Panel, RefStyle, Series, SeriesStyle};
use std::path::PathBuf;

/// Options of `--search` (and `--dominates`).
#[derive(clap::Args, Debug, Default)]
pub struct SearchArgs {
    /// Search the declared space for the instance that maximises the error probability, then
    /// confirm the worst ones on fresh seeds (Bonferroni over --finalists).
    #[arg(long)]
    pub search: bool,
    /// Smallest number of arms searched.
    #[arg(long, default_value_t = 2)]
    pub k_min: usize,
    /// Largest number of arms searched.
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
    /// Search budget: seconds with an `s` suffix (`60s`), else samples (`5e8`).
    #[arg(long, default_value = "60s")]
    pub search_budget: String,
    /// Candidates of the first screening round.
    #[arg(long, default_value_t = 40)]
    pub screen_candidates: usize,
    /// Runs per candidate in the first screening round (doubled at each halving).
    #[arg(long, default_value_t = 32)]
    pub screen_runs: u64,
    /// Runs per Nelder-Mead evaluation.
    #[arg(long, default_value_t = 256)]
    pub local_runs: u64,
    /// Nelder-Mead iterations at most.
    #[arg(long, default_value_t = 40)]
    pub local_iters: u64,
    /// Candidates confirmed on fresh seeds.
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
    /// Prove (interval branch and bound) that --threshold >= this provable preset at every
    /// reachable point (counts and t up to --max-steps, gap in [0, 1]), at --delta, --n-arms,
    /// --eps, --sigma: proven, counterexample or undecided.
    #[arg(long)]
    pub dominates: Option<String>,
    /// Number of arms K for --dominates.
    #[arg(long, default_value_t = 2)]
    pub n_arms: usize,
    /// Seconds at most for --dominates.
    #[arg(long, default_value_t = 60.0)]
    pub dominance_seconds: f64,
}

/// Runs `--dominates PRESET`.
#[allow(clippy::too_many_arguments)]
pub fn run_dominates(
    a: &SearchArgs,
    preset: &str,
    threshold: Option<&dpbai::audit::expr::ThresholdExpr>,
    delta: f64,
    eps: Option<f64>,
    sigma: f64,
    max_steps: u64,
    json: bool,
) -> anyhow::Result<()> {
    use dpbai::audit::dominance::{dominates, lemma_of, Dominance, DominanceConfig};
    let expr = threshold.ok_or_else(|| usage("--dominates needs --threshold EXPR"))?;
    if lemma_of(preset).is_none() {
        return Err(usage(format!(
            "invalid dominates = {preset}: must be a provable preset (paper-cg, paper-daf-inf, paper-adap-tt, paper-adap-tt-star)"
        )));
    }
    if a.n_arms < 2 {
        return Err(usage(format!(
            "invalid n-arms = {}: must be at least 2",
            a.n_arms
        )));
    }
    if !(sigma > 0.0 && sigma.is_finite()) {
        return Err(usage(format!(
            "invalid sigma = {sigma}: must be a finite number > 0"
        )));
    }
    if !(a.dominance_seconds > 0.0 && a.dominance_seconds.is_finite()) {
        return Err(usage(format!(
            "invalid dominance-seconds = {}: must be a finite number > 0",
            a.dominance_seconds
        )));
    }
    if max_steps < 2 {
        return Err(usage(format!(
            "invalid max-steps = {max_steps}: must be at least 2"
        )));
    }
    let mut cfg = DominanceConfig::new(delta, a.n_arms, max_steps);
    cfg.eps = eps.unwrap_or(f64::INFINITY);
    cfg.sigma = sigma;
    cfg.max_seconds = a.dominance_seconds;
    let r = dominates(expr, preset, &cfg)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&r)?);
        return Ok(());
    }
    let head = format!(
        "audit delta --dominates {preset}: threshold `{}`  (delta {delta}, K {}, eps {}, sigma {sigma}, counts and t <= {max_steps}; {} boxes, {:.2} s)",
        r.expr, a.n_arms, cfg.eps, r.boxes, r.seconds
    );
    println!("{head}");
    match &r.result {
        Dominance::Proven { lemma } => println!("  proven: threshold >= {preset} everywhere reachable, so delta-correct by {lemma}"),
        Dominance::Counterexample { point, expr, preset: pv } => println!(
            "  counterexample: na = {}, nb = {}, t = {}, ka = {}, kb = {}, gap = {}: threshold = {expr:.12} < {preset} = {pv:.12}",
            point.na, point.nb, point.t, point.ka, point.kb, point.gap
        ),
        Dominance::Undecided { reason, region } => {
            println!("  undecided: {reason}");
            let parts: Vec<String> = region.iter().map(|(n, [l, h])| format!("{n} in [{l}, {h}]")).collect();
            println!("  at {}", parts.join(", "));
        }
    }
    Ok(())
}

fn parse_budget(s: &str) -> anyhow::Result<Budget> {
    let t = s.trim();
    let bad = || {
        usage(format!(
            "invalid search-budget = {s}: give seconds as `60s` or samples as `5e8` (> 0)"
        ))
    };
    if let Some(sec) = t.strip_suffix('s') {
        let v: f64 = sec.trim().parse().map_err(|_| bad())?;
        if !(v > 0.0 && v.is_finite()) {
            return Err(bad());
        }
        Ok(Budget::Seconds(v))
    } else {
        let v: f64 = t.parse().map_err(|_| bad())?;
        if !(v >= 1.0 && v.is_finite()) {
            return Err(bad());
        }
        Ok(Budget::Samples(v as u64))
    }
}

/// Runs `--search` with the audit settings already parsed by `audit delta`.
pub fn run_search(
    a: &SearchArgs,
    mut audit: DeltaAuditConfig,
    delta: f64,
    family: &str,
    sigma: f64,
    plan_given: bool,
    json: bool,
) -> anyhow::Result<()> {
    let family = match family {
        "gaussian" => SpaceFamily::Gaussian { sigma },
        _ => SpaceFamily::Bernoulli,
    };
    let space = SearchSpace {
        family,
        k_min: a.k_min,
        k_max: a.k_max,
        mean_lo: a.mean_lo,
        mean_hi: a.mean_hi,
        min_gap: a.min_gap,
        max_gap: a.max_gap,
        eps: audit
            .setting
            .algo
            .needs_eps()
            .then_some((a.eps_lo, a.eps_hi)),
    };
    space.validate().map_err(|e| usage(e.to_string()))?;
    if !plan_given {
        // Sized so that a correct rule is confirmed at the first look (holds_sized_plan).
        audit.plan = holds_sized_plan(delta, audit.alpha, a.finalists.max(1))?;
    }
    let mut cfg = SearchConfig::new(audit, delta, space);
    cfg.budget = parse_budget(&a.search_budget)?;
    cfg.screen_candidates = a.screen_candidates;
    cfg.screen_runs = a.screen_runs;
    cfg.local_runs = a.local_runs;
    cfg.local_iters = a.local_iters;
    cfg.finalists = a.finalists;
    if a.screen_runs == 0
        || a.local_runs == 0
        || a.finalists == 0
        || a.screen_candidates < a.finalists
    {
        return Err(usage(format!(
            "invalid screen-runs = {}, local-runs = {}, finalists = {}, screen-candidates = {}: runs and finalists must be at least 1 and screen-candidates at least finalists",
            a.screen_runs, a.local_runs, a.finalists, a.screen_candidates
        )));
    }
    let r = search(&cfg)?;
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
    Ok(())
}

fn write_trace(r: &SearchReport, path: &PathBuf) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| dpbai::Error::io("create", dir, e))?;
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
        "audit delta --search: {}{}  delta {}  verdict: {}  ({} evaluations, {} samples, search {:.1} s, total {:.1} s)",
        r.algo,
        r.threshold.as_ref().map(|t| format!(" with threshold `{t}`")).unwrap_or_default(),
        r.delta,
        r.verdict,
        r.evaluations,
        r.search_samples,
        r.search_seconds,
        r.seconds
    );
    println!(
        "  worst instance: K = {}, means = {:?}{}",
        r.worst_means.len(),
        r.worst_means,
        r.worst_eps
            .map(|e| format!(", eps = {e}"))
            .unwrap_or_default()
    );
    println!(
        "  error rate {:.5}  ci [{:.3e}, {:.3e}]  hardness {:.4e}",
        r.worst_error_rate, r.worst_ci[0], r.worst_ci[1], r.worst_hardness
    );
    for row in &r.confirmation.instances {
        println!(
            "  confirm {:<12} K={:<3} runs {:>6} errors {:>5} unstopped {:>4} ci [{:.3e}, {:.3e}] {}",
            row.name,
            row.means.len(),
            row.runs,
            row.errors,
            row.unstopped,
            row.ci[0],
            row.ci[1],
            row.verdict
        );
    }
    println!("  correction: {}", r.correction);
    println!("  power: {}", r.power);
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
    algo: Option<dpbai::bandit::AlgoName>,
    mutant: Option<&str>,
    eps: f64,
    alpha: f64,
    seed: u64,
    confirm: DpConfirm,
    budget: &str,
    json: bool,
) -> anyhow::Result<()> {
    use dpbai::audit::dp_search::{dp_search, fixed_tables, DpSearchConfig, DpSearchTarget};
    use dpbai::bandit::AlgoName;
    let target = match (algo, mutant) {
        (Some(a @ (AlgoName::CtbTt | AlgoName::AdapTt | AlgoName::AdapTtStar)), None) => {
            DpSearchTarget::Algo(a)
        }
        (Some(a), None) => {
            return Err(usage(format!(
                "invalid algo = {} for --search: must be ctb-tt, adap-tt or adap-tt-star",
                a.as_str()
            )))
        }
        (None, Some("adap-tt-late-leak")) => DpSearchTarget::AdapTtLateLeak { leak_from: 3 },
        (None, Some("rr-daf-late-leak")) => DpSearchTarget::RrDaf { leak_from: Some(3) },
        (None, Some("rr-daf")) => DpSearchTarget::RrDaf { leak_from: None },
        _ => {
            return Err(usage(
                "--search needs --algo ctb-tt|adap-tt|adap-tt-star, or --mutant adap-tt-late-leak|rr-daf-late-leak (or rr-daf, the toy's faithful version)",
            ))
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
    let r = dp_search(target, &cfg)?;
    let fixed = fixed_tables(target, &cfg)?;
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({ "search": r, "fixed_tables": fixed })
            )?
        );
        return Ok(());
    }
    println!(
        "audit dp --search: {}  claim {eps}-DP  verdict: {}  ({} evaluations, {} screening samples{}, {:.1} s)",
        r.target,
        r.verdict,
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
        fixed.result.verdict, fixed.result.eps_lower
    );
    let stage = |c: &dpbai::audit::dp_search::Confirmation| {
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
    Ok(())
}
