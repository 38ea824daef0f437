//! Confirmation of the finalists on fresh seeds (Bonferroni) and the power statement.

use super::config::SearchConfig;
use super::halving::{Scored, Search};
use super::rank::step_cap;
use super::report::SearchReport;
use super::report::{SearchVerdict, Stage};
use crate::audit::Verdict;
use crate::audit::delta::{AuditInstance, DeltaRow, RunPlan, Tally, decide};
use crate::error::Result;
use crate::rng::mix64;

/// `P(Bin(n, p) >= k)`.
fn binom_sf(k: u64, n: u64, p: f64) -> Result<f64> {
    if k == 0 {
        return Ok(1.0);
    }
    if k > n {
        return Ok(0.0);
    }
    crate::stats::beta_reg(k as f64, (n - k + 1) as f64, p)
}

/// Smallest error count that a look of `n` runs at `alpha_look` declares violated.
fn violating_count(n: u64, alpha_look: f64, delta: f64) -> Result<Option<u64>> {
    // `ci::lower` increases with k: bisection.
    if crate::audit::ci::lower(n, n, alpha_look / 2.0)? <= delta {
        return Ok(None);
    }
    let (mut lo, mut hi) = (0u64, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if crate::audit::ci::lower(mid, n, alpha_look / 2.0)? > delta {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Ok(Some(lo))
}

/// The confirmation plan sized for `holds`: `UntilDecided { first: n₀, budget: 32·n₀ }`, where
/// `n₀` is the smallest number of runs whose first look (at `α/(2m)`, the plan's first-look
/// share of the Bonferroni level `α/m`) declares `holds` on zero errors and zero capped runs:
/// `cp_upper(0, n₀, α/(4m)) < δ`, about `ln(4m/α)/δ`. A correct rule is then confirmed at the
/// first look, and a rule whose error probability exceeds `δ` gets up to five more looks.
///
/// # Example
/// ```
/// use dpbai::audit::delta::RunPlan;
/// let RunPlan::UntilDecided { first, budget } =
///     dpbai::audit::search::holds_sized_plan(0.1, 1e-3, 2).unwrap() else { panic!() };
/// assert!((80..=90).contains(&first) && budget == 32 * first);
/// ```
///
/// # Errors
/// [`crate::Error::InvalidParameter`] for `δ` or `α` outside `(0, 1)`, or `m = 0`.
pub fn holds_sized_plan(delta: f64, alpha: f64, finalists: usize) -> Result<RunPlan> {
    crate::error::check_open("delta", delta, 0.0, 1.0)?;
    crate::error::check_open("alpha", alpha, 0.0, 1.0)?;
    if finalists == 0 {
        return Err(crate::Error::param("finalists", 0, "at least 1"));
    }
    let a = crate::audit::ci::share(alpha, finalists as u64) / 4.0;
    let mut n = ((1.0 / a).ln() / delta).floor().max(1.0) as u64;
    while crate::audit::ci::upper(0, n, a)? >= delta {
        n += 1;
    }
    Ok(RunPlan::UntilDecided {
        first: n,
        budget: 32 * n,
    })
}

/// The power statement of a search (module docs): for the confirmation, the probability that
/// its plan declares `violated` had the worst instance's error probability been `2δ` (for an
/// until-decided plan, bounded below by the last look's rejection probability minus `α/m`, the
/// chance of an earlier wrong `holds`), at the looks the budget paid for; for the space, the
/// fraction of it a violating region must cover to contain one of the `u` uniform screened
/// points with probability 0.9; for the screening, the chance that an instance with error
/// probability `2δ` showed an error.
fn power_statement(
    cfg: &SearchConfig,
    m: usize,
    runs: u64,
    uniform: usize,
    evals: usize,
) -> Result<String> {
    let delta = cfg.delta;
    let p1 = (2.0 * delta).min(1.0);
    let alpha_m = crate::audit::ci::share(cfg.audit.alpha, m as u64);
    let conf = if runs == 0 {
        "the budget paid for no confirmation run".to_string()
    } else {
        // The last look the confirmation reached: n_j = runs, at α/m·2^(−j) (j = looks).
        let (first, sequential) = match cfg.audit.plan {
            RunPlan::UntilDecided { first, .. } => (first, true),
            RunPlan::Fixed { runs } => (runs, false),
        };
        let mut j = 1i32;
        let mut nj = first.min(runs);
        while nj < runs && j < 60 {
            nj = nj.saturating_mul(2).min(runs);
            j += 1;
        }
        let aj = if sequential {
            alpha_m * 0.5f64.powi(j)
        } else {
            alpha_m
        };
        match violating_count(runs, aj, delta)? {
            Some(k) => format!(
                "had the worst instance's error probability been 2*delta = {}, its confirmation (looks up to {runs} runs) would have declared violated with probability >= {:.3}",
                crate::error::compact_number(p1),
                (binom_sf(k, runs, p1)? - if sequential { alpha_m } else { 0.0 }).max(0.0)
            ),
            None => format!(
                "the confirmation (looks up to {runs} runs) could not have declared violated"
            ),
        }
    };
    let screen = 1.0 - (1.0 - p1).powf(cfg.screen_runs as f64);
    let space = if uniform > 0 {
        let rho = 1.0 - 0.1f64.powf(1.0 / uniform as f64);
        format!(
            "of the {evals} screened instances, {uniform} were uniform in the declared space's coordinates, so a violating region covering >= {:.3} of the space contained one with probability >= 0.9",
            rho
        )
    } else {
        format!(
            "the {evals} screened instances were the design's corners and seeds only (no uniform point: no power against the space)"
        )
    };
    Ok(format!(
        "{conf}; {space}; each screened instance ran >= {} CRN runs, so one with error probability >= 2*delta showed an error with probability >= {screen:.3}",
        cfg.screen_runs
    ))
}

/// How many candidates the confirmation considers per finalist slot at most (the finalist
/// and the reserve that replaces it when its confirmation is unaffordable).
const ATTEMPTS_PER_SLOT: usize = 4;

/// Confirms the finalists on fresh seeds (Bonferroni over them, each with the run plan's looks
/// at `α/m·2^{−j}`), each within its share of what is left of the budget, and assembles the
/// report. A finalist whose first look the share cannot pay for (its runs' expected length
/// from the search, times the look's runs) is reported unaffordable, without a run, and the
/// next candidate of `pool` (the finalists, then the reserve) takes its place.
pub(super) fn confirm(s: Search<'_>, pool: Vec<Scored>, seeds_used: usize) -> Result<SearchReport> {
    let cfg = s.cfg;
    let search_seconds = s.meter.seconds();
    let search_samples = s.meter.used();
    let mut stages = std::mem::take(&mut *s.stages.lock().expect("invariant: no poisoning"));
    let m = cfg.finalists.min(pool.len()).max(1);
    let alpha_m = crate::audit::ci::share(cfg.audit.alpha, m as u64);
    let cseed = mix64(cfg.audit.seed ^ 0xC0F1_F1A5_0000_0017);
    let start_samples = s.meter.used();
    let mut rows = Vec::new();
    let mut queue = pool.iter().take(ATTEMPTS_PER_SLOT * m);
    let mut attempt = 0u64;
    for slot in 0..m {
        let allowance = s.meter.begin_stage(1.0 / (m - slot) as f64);
        for p in queue.by_ref() {
            let inst = AuditInstance {
                name: format!("finalist-{}", slot + 1),
                ..s.audit_instance(&p.cand)
            };
            let cap = step_cap(p.cand.hardness, p.cand.means.len(), cfg.audit.max_steps);
            let tau = s.outlook.run_length(&p.evidence());
            // Fresh seeds per attempt: a replacement never reuses a skipped finalist's.
            let seed = mix64(cseed.wrapping_add(attempt));
            attempt += 1;
            let row = confirm_one(&s, &inst, seed, alpha_m, cap, tau, allowance)?;
            let paid = row.runs > 0;
            rows.push(row);
            if paid {
                break;
            }
        }
    }
    stages.push(Stage {
        name: "confirmation".into(),
        samples: s.meter.used() - start_samples,
        evaluations: rows.len(),
        runs: rows.iter().map(|r| r.runs).sum(),
    });
    // Confirmed rows first (by severity, then by how far the lower end exceeds δ), then those
    // without a run.
    rows.sort_by(|a, b| {
        (a.runs == 0)
            .cmp(&(b.runs == 0))
            .then(a.verdict.severity_rank().cmp(&b.verdict.severity_rank()))
            .then((b.ci[0] - b.delta).total_cmp(&(a.ci[0] - a.delta)))
    });
    // A search confirms violations only: a finalist whose upper end fell below its δ stopped
    // early (as the plan intends) but reads `inconclusive`, never `holds`, which only a proof
    // (`--dominates`) or the audit of a declared instance says (after the sort, which keeps
    // ranking such a finalist after the undecided ones).
    for r in &mut rows {
        if r.verdict == Verdict::Holds {
            r.verdict = Verdict::Inconclusive;
        }
    }
    let violated = rows.iter().any(|r| r.verdict == Verdict::Violated);
    let confirmed_runs: u64 = rows.iter().map(|r| r.runs).sum();
    let verdict = if violated {
        SearchVerdict::Violated
    } else if confirmed_runs == 0 {
        SearchVerdict::Undecided
    } else {
        SearchVerdict::NoViolationFound
    };
    for row in rows.iter().filter(|r| r.runs > 0) {
        if let Some(c) = pool
            .iter()
            .find(|q| q.cand.means == row.means && q.cand.delta == row.delta)
        {
            let t = Tally {
                runs: row.runs,
                errors: row.errors,
                unstopped: row.unstopped,
                tau_sum_stopped: 0,
                stopped: 0,
                max_tau: row.max_tau,
            };
            s.record(&c.cand, &t, "confirm");
        }
    }
    let empty = DeltaRow {
        name: "none".into(),
        family: String::new(),
        means: vec![],
        delta: cfg.delta,
        eps: None,
        runs: 0,
        errors: 0,
        unstopped: 0,
        error_rate: f64::NAN,
        ci: [0.0, 1.0],
        verdict: Verdict::Inconclusive,
        looks: 0,
        alpha_look: alpha_m,
        runs_to_decide: None,
        more_runs: None,
        mean_tau: f64::NAN,
        max_tau: 0,
        step_cap: 0,
        skipped: Some("no finalist (budget exhausted or interrupted)".into()),
    };
    let worst = rows.first().cloned().unwrap_or(empty);
    let wc = pool
        .iter()
        .find(|p| p.cand.means == worst.means)
        .map(|p| p.cand.clone());
    let evals = s
        .trace
        .lock()
        .expect("invariant: no poisoning")
        .iter()
        .filter(|r| r.stage != "confirm")
        .count();
    let uniform = *s.uniform_points.lock().expect("invariant: no poisoning");
    let power = power_statement(cfg, m, worst.runs, uniform, evals)?;
    let unaffordable = rows
        .iter()
        .filter(|r| {
            r.skipped
                .as_deref()
                .is_some_and(|s| s.starts_with(UNAFFORDABLE))
        })
        .count();
    let confirmation_statement = if verdict == SearchVerdict::Undecided && unaffordable > 0 {
        format!(
            "undecided: no confirmation run was made: the first look of each of the {unaffordable} candidate(s) tried needs more samples than the budget leaves it (rows above), so the search says nothing; give a larger --search-budget"
        )
    } else if verdict == SearchVerdict::Undecided {
        "undecided: not one confirmation run was made (the budget ran out or the search was \
         interrupted before any), so the search says nothing; give a larger --search-budget"
            .to_string()
    } else if violated {
        format!(
            "confirmed on fresh seeds (independent of the search data): {}/{} errors, Clopper-Pearson lower end {:.4e} > delta = {} at alpha/{m}/2^looks = {:.3e}; wrong with probability <= alpha = {}",
            worst.errors,
            worst.runs,
            worst.ci[0],
            crate::error::compact_number(worst.delta),
            worst.alpha_look,
            cfg.audit.alpha
        )
    } else {
        format!(
            "no finalist's lower confidence end exceeded its delta on fresh seeds; this is not a proof (`audit delta --dominates` proves): {power}"
        )
    };
    let trace = s.trace.into_inner().expect("invariant: no poisoning");
    let interrupted = s.meter.interrupted();
    Ok(SearchReport {
        algo: cfg.audit.setting.algo.as_str().to_string(),
        threshold: cfg.audit.threshold.as_ref().map(|t| t.source().to_string()),
        delta: cfg.delta,
        space: cfg.space.clone(),
        budget: cfg.budget,
        verdict,
        worst_means: worst.means.clone(),
        worst_eps: worst.eps,
        worst_delta: worst.delta,
        worst_family: worst.family.clone(),
        worst_shape: wc.as_ref().map(|c| c.shape.to_string()).unwrap_or_default(),
        worst_hardness: wc.as_ref().map(|c| c.hardness).unwrap_or(f64::NAN),
        worst_ci: worst.ci,
        worst_error_rate: worst.error_rate,
        correction: if verdict == SearchVerdict::Undecided {
            "none: nothing was confirmed".to_string()
        } else {
            format!(
                "Bonferroni over the {m} confirmation slot(s): each audited at alpha/{m} = {alpha_m:.3e} (rounded down) on fresh seeds (independent of the search data), with the run plan's own look correction alpha/{m}*2^-j"
            )
        },
        confirmation_statement,
        power,
        seeds: seeds_used,
        evaluations: evals,
        trace,
        stages,
        search_samples,
        search_seconds,
        samples: s.meter.used(),
        seconds: s.meter.seconds(),
        interrupted,
        confirmation: rows,
    })
}

/// One finalist's confirmation: the looks of the plan at `alpha·2^{−j}`, each run capped at
/// `cap` (and by the meter), a look taken only if its runs at `tau` samples each fit in what
/// is left of `allowance`, and run in chunks (each chunk's cap from what is left: the budget
/// is never exceeded); a look the budget cuts is not taken, and the last look taken decides
/// (its `holds` reads `inconclusive` in the report). A first look that does not fit makes the
/// row unaffordable (no run).
fn confirm_one(
    s: &Search<'_>,
    inst: &AuditInstance,
    seed: u64,
    alpha: f64,
    cap: u64,
    tau: f64,
    allowance: f64,
) -> Result<DeltaRow> {
    let cfg = s.cfg;
    let mut row = DeltaRow {
        name: inst.name.clone(),
        family: match inst.instance.family() {
            crate::instance::Family::Bernoulli => "bernoulli".into(),
            crate::instance::Family::Gaussian { sigma } => format!("gaussian({sigma})"),
        },
        means: inst.instance.means().to_vec(),
        delta: inst.delta,
        eps: inst.eps,
        runs: 0,
        errors: 0,
        unstopped: 0,
        error_rate: f64::NAN,
        ci: [0.0, 1.0],
        verdict: Verdict::Inconclusive,
        looks: 0,
        alpha_look: alpha,
        runs_to_decide: None,
        more_runs: None,
        mean_tau: f64::NAN,
        max_tau: 0,
        step_cap: cap,
        skipped: None,
    };
    let alg = match (s.build)(inst) {
        Ok(a) => a,
        Err(e @ crate::Error::InvalidInstance { .. }) => {
            row.skipped = Some(e.to_string());
            return Ok(row);
        }
        Err(e) => return Err(e),
    };
    let best = inst.instance.best();
    let (mut target, budget, sequential) = match cfg.audit.plan {
        RunPlan::Fixed { runs } => (runs, runs, false),
        RunPlan::UntilDecided { first, budget } => (first.min(budget), budget, true),
    };
    let mut tally = Tally::default();
    let mut look = 0i32;
    let start = s.meter.used();
    while look < 60 {
        let need = (target - tally.runs) as f64 * tau;
        if need > allowance - (s.meter.used() - start) as f64 {
            if look == 0 {
                row.skipped = Some(format!(
                    "{UNAFFORDABLE}: its first look, {target} runs of about {} samples each (the search's mean), needs {} samples, more than the {} its share of the budget leaves; replaced by the next candidate",
                    crate::error::compact_number(tau.round()),
                    crate::error::compact_number(need.round()),
                    crate::error::compact_number(allowance.floor())
                ));
            }
            break;
        }
        let Some(t) = run_look(s, alg.as_ref(), best, seed, tally.runs..target, cap) else {
            break;
        };
        tally = tally.merge(t);
        look += 1;
        let a = if sequential {
            alpha * 0.5f64.powi(look)
        } else {
            alpha
        };
        let d = decide(tally.errors, tally.unstopped, tally.runs, inst.delta, a)?;
        row.ci = [d.lower, d.upper];
        row.verdict = d.verdict;
        row.alpha_look = a;
        if !sequential || d.verdict != Verdict::Inconclusive || tally.runs >= budget {
            break;
        }
        target = target.saturating_mul(2).min(budget);
    }
    row.looks = look as u32;
    row.runs = tally.runs;
    row.errors = tally.errors;
    row.unstopped = tally.unstopped;
    row.error_rate = if tally.runs > 0 {
        tally.errors as f64 / tally.runs as f64
    } else {
        f64::NAN
    };
    row.mean_tau = if tally.stopped > 0 {
        tally.tau_sum_stopped as f64 / tally.stopped as f64
    } else {
        f64::NAN
    };
    row.max_tau = tally.max_tau;
    if tally.runs == 0 && row.skipped.is_none() {
        row.skipped = Some("the budget paid for no confirmation run".into());
    }
    Ok(row)
}

/// The runs `range` of one look, in chunks of at least [`CHUNK_RUNS`] runs (an eighth of the
/// look), each chunk's runs capped at `cap` and by the meter; `None` (the look is not taken)
/// when the meter cannot pay for a chunk.
fn run_look(
    s: &Search<'_>,
    alg: &dyn crate::bandit::BaiAlgorithm,
    best: usize,
    seed: u64,
    range: std::ops::Range<u64>,
    cap: u64,
) -> Option<Tally> {
    let n = range.end - range.start;
    let chunk = n.div_ceil(8).max(CHUNK_RUNS);
    let mut tally = Tally::default();
    let mut from = range.start;
    while from < range.end {
        let to = (from + chunk).min(range.end);
        let c = s.meter.cap(to - from, cap)?;
        let (t, _) = s.meter.run_batch(alg, best, seed, from..to, c);
        tally = tally.merge(t);
        from = to;
    }
    Some(tally)
}

/// The first word of the row of a finalist whose first look the budget cannot pay for.
const UNAFFORDABLE: &str = "unaffordable";

/// The smallest chunk of a confirmation look ([`run_look`]).
const CHUNK_RUNS: u64 = 64;
