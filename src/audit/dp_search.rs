//! `dpbai audit dp --algo A --search`: search over pairs of neighbouring reward tables
//! (Definition 8: tables that differ in one user's rewards) for the pair on which the black-box
//! tester certifies the largest privacy loss (after DP-Auditorium's dataset generators).
//!
//! # Protocol
//! 1. **Space.** A base table of `rows` users and `K = 2` arms is drawn from `Ber(μ₀) × Ber(μ₁)`
//!    with common random numbers (user `t`, arm `a` gets `1{u_{t,a} < μ_a}` with the same
//!    uniforms `u` for every candidate); its neighbour flips both rewards of user `i`. A candidate
//!    is `(i, μ₀, μ₁)`: a Halton design over `μ ∈ [0.05, 0.95]²` and `i` among the users the
//!    algorithm reads on the base table (the largest `τ` of 16 probe runs), plus the fixed pair
//!    of `audit dp --algo` (user 1 of its table).
//! 2. **Screening with successive halving.** Each candidate runs `screen_runs` times per table
//!    (common random numbers for the privacy noise: run `r` draws from the same stream on every
//!    candidate); the score is the plug-in total-variation distance between the two laws of the
//!    output `(actions, recommendation, τ)` (hash). The better half gets its runs doubled until
//!    `finalists` remain. (No Nelder–Mead here: the user index is discrete.) The budget
//!    ([`Budget`]) is checked before each first-round candidate and before each halving round
//!    (one round may pass it); in samples (the default, 10⁸: the whole plan) the search is
//!    deterministic for a seed and any thread count, in seconds it is not.
//! 3. **Confirmation.** Each finalist is tested on fresh seeds with the black-box tester of
//!    `audit dp` ([`crate::audit::dp::sniper_discrete`]) at `α/m` — **Bonferroni over the `m`
//!    finalists**; the search data only choose the finalists, so the certified lower bounds
//!    hold jointly with probability `>= 1 − α`. Verdict `violated` if a certified bound exceeds
//!    the claimed `ε`, else `no violation found` (a black-box test cannot certify privacy).
//!    **Group-sequential** by default, with the error control of the δ search's plan
//!    ([`RunPlan::UntilDecided`]): looks after `first·2^{j−1}` runs per table (capped at the
//!    budget `confirm_runs`), look `j` at `α/m·2^{−j}`, so the looks together spend at most
//!    `α/m` (union bound; each look tests its own runs, a prefix of the same fresh stream). A
//!    look that certifies a loss above `ε` stops with `violated`. A look may also stop for
//!    **futility** ([`futile`]): when even the optimistic end of a `1 − β` interval for the
//!    chosen event's two probabilities, held out at the budget, would not certify a loss above
//!    `ε` at the last look's level. Stopping early never declares `violated`, so futility
//!    changes the power only, never the error control; the same plan confirms the fixed
//!    tables of the comparison (at `α`).
//!
//! # The late-leak mutants
//! The whole-algorithm one is AdaP-TT whose DAF releases noiseless means from its third release
//! on ([`crate::audit::dp::late_leak`], `--mutant adap-tt-late-leak`): the fixed tables differ
//! in user 1, whose reward enters only the noised first release, so they miss it; the search
//! finds a later user. Over seeds 1..=6 the search finds it every time (test
//! `late_leaks_are_found_on_every_seed` at a small budget; at the default budget, the whole
//! plan: 6 of 6, 30–67 s wall each on the shared 2-core machine).
//!
//! A smaller toy shows the same on a simpler algorithm:
//! [`RrDaf`] is a small ε-DP algorithm: round-robin sampling, per-arm DAF phases of doubling
//! length with forgetting (each reward enters exactly one release, L. 31), each release noised
//! with `Lap(1/(ε L_j))`, stopping on the latest releases. Its mutant `rr-daf-late-leak` drops the
//! noise from the third release on. The fixed tables of `audit dp --algo` differ in user 1, whose
//! reward enters only the (noised) first release, so they miss the leak; the search finds users
//! whose rewards enter noiseless releases.
//! ([`RrDaf`] lives with the other fixtures of the privacy audits, [`crate::audit::dp::fixtures`].)

use crate::audit::Verdict;
use crate::audit::delta::RunPlan;
use crate::audit::dp::{BlackBox, adap_tt_late_leak, neighbouring_tables};
use crate::audit::search::{Budget, halton};
use crate::bandit::{self, AlgoName, AlgoSpec, BaiAlgorithm, RewardTable, Setting};
use crate::error::{Error, Result, check_open};
use crate::rng::{mix64, rng_for_run};
use rand::RngExt;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

mod confirm;
mod outputs;
pub use crate::audit::dp::fixtures::RrDaf;
pub use confirm::{Confirmation, futile};
use confirm::{confirm, drawn};
use outputs::outputs;

/// What the neighbour search audits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DpSearchTarget {
    /// A built-in private algorithm (`ctb-tt`, `adap-tt`, `adap-tt-star`).
    Algo(AlgoName),
    /// AdaP-TT whose DAF drops its noise from release `leak_from` on
    /// ([`crate::audit::dp::late_leak`]).
    AdapTtLateLeak {
        /// First noiseless release.
        leak_from: u32,
    },
    /// [`RrDaf`] (`leak_from = None`) or its late-leak mutant.
    RrDaf {
        /// First noiseless release.
        leak_from: Option<u32>,
    },
}

impl DpSearchTarget {
    /// Name as printed.
    pub fn name(&self) -> String {
        match self {
            DpSearchTarget::Algo(a) => format!("algo {}", a.as_str()),
            DpSearchTarget::AdapTtLateLeak { .. } => "mutant adap-tt-late-leak".into(),
            DpSearchTarget::RrDaf { leak_from: None } => "rr-daf".into(),
            DpSearchTarget::RrDaf { leak_from: Some(_) } => "mutant rr-daf-late-leak".into(),
        }
    }
    fn build(&self, means: &[f64], eps: f64) -> Result<Box<dyn BaiAlgorithm>> {
        match *self {
            DpSearchTarget::Algo(a) => {
                if !crate::audit::dp::TABLE_DP_ALGORITHMS.contains(&a) {
                    return Err(Error::param(
                        "algo",
                        a.as_str(),
                        crate::audit::dp::table_dp_names(),
                    ));
                }
                let spec = AlgoSpec::new(Setting::paper(a, 0.1)?.with_eps(eps)?);
                bandit::build(
                    &spec,
                    &crate::instance::Instance::bernoulli(means.to_vec())?,
                )
            }
            DpSearchTarget::AdapTtLateLeak { leak_from } => adap_tt_late_leak(
                &crate::instance::Instance::bernoulli(means.to_vec())?,
                0.1,
                eps,
                leak_from,
            ),
            DpSearchTarget::RrDaf { leak_from } => Ok(Box::new(RrDaf {
                means: means.to_vec(),
                delta: 0.1,
                eps,
                leak_from,
            })),
        }
    }
}

/// Settings of the neighbour search.
#[derive(Debug, Clone, PartialEq)]
pub struct DpSearchConfig {
    /// Claimed `ε`.
    pub eps: f64,
    /// Users per table.
    pub rows: usize,
    /// Candidates of the first screening round.
    pub candidates: usize,
    /// Runs per table per candidate in the first round.
    pub screen_runs: u64,
    /// Finalists confirmed (`m` of the Bonferroni correction).
    pub finalists: usize,
    /// Runs per table of each confirmation: the budget of the sequential plan, or the one look
    /// of the fixed plan.
    pub confirm_runs: u64,
    /// Runs per table of the first look of the group-sequential confirmation (module docs);
    /// `None`: the fixed plan (one look at `confirm_runs`).
    pub confirm_first: Option<u64>,
    /// `β` of the futility rule of the sequential confirmation ([`futile`]; power only).
    pub futility_beta: f64,
    /// Confidence parameter of the whole audit.
    pub alpha: f64,
    /// Master seed.
    pub seed: u64,
    /// Budget of the screening (the confirmation always runs): samples drawn (the sum of `τ`
    /// over both tables' screening runs; deterministic for a seed) or wall-clock seconds.
    pub budget: Budget,
}

impl DpSearchConfig {
    /// Defaults: 400 users, 192 candidates × 100 runs, 2 finalists confirmed sequentially with
    /// looks at 1 250, 2 500, …, 20 000 runs per table (futility `β = 0.05`), and a budget of
    /// 10⁸ samples, above the whole halving plan at these sizes (at most 179 200 screening runs
    /// of at most 400 samples: 7.2·10⁷), so by default the screening always completes.
    pub fn new(eps: f64) -> Self {
        DpSearchConfig {
            eps,
            rows: 400,
            candidates: 192,
            screen_runs: 100,
            finalists: 2,
            confirm_runs: 20_000,
            confirm_first: Some(1_250),
            futility_beta: 0.05,
            alpha: 1e-3,
            seed: 1,
            budget: Budget::Samples(100_000_000),
        }
    }
}

/// One candidate pair.
#[derive(Debug, Clone, Serialize)]
pub struct PairRow {
    /// Stage (`screen-<round>` or `confirm`).
    pub stage: String,
    /// 0-based index of the user whose rewards differ.
    pub user: usize,
    /// Means the base table was drawn from.
    pub means: [f64; 2],
    /// Runs per table.
    pub runs: u64,
    /// Plug-in total-variation distance (screening) or certified `ε` lower bound (confirm).
    pub score: f64,
}

/// Result of the neighbour search.
#[derive(Debug, Clone, Serialize)]
pub struct DpSearchReport {
    /// What was audited.
    pub target: String,
    /// Claimed `ε`.
    pub eps_claimed: f64,
    /// Verdict.
    pub verdict: Verdict,
    /// Worst pair: user index.
    pub worst_user: usize,
    /// Worst pair: means of the base table.
    pub worst_means: [f64; 2],
    /// Certified lower bound on `ε` at the worst pair (confirmation, fresh seeds, `α/m`).
    pub eps_lower: f64,
    /// The tester's result at the worst pair.
    pub worst: BlackBox,
    /// Correction used.
    pub correction: String,
    /// Every evaluation.
    pub trace: Vec<PairRow>,
    /// The confirmation of each finalist (best screening score first).
    pub confirmations: Vec<Confirmation>,
    /// The screening's budget.
    pub budget: Budget,
    /// Samples drawn by the screening (both tables).
    pub samples: u64,
    /// Samples drawn by the confirmation (every finalist, both tables).
    pub confirm_samples: u64,
    /// Whether the budget stopped the screening before its plan completed.
    pub budget_exhausted: bool,
    /// Seconds.
    pub seconds: f64,
}

/// A base table (common random numbers: the same uniforms for every candidate) and its
/// neighbour differing in `user`.
pub fn table_pair(
    rows: usize,
    means: [f64; 2],
    user: usize,
    seed: u64,
) -> (RewardTable, RewardTable) {
    let mut rng = rng_for_run(seed, 0);
    let d: RewardTable = (0..rows)
        .map(|_| {
            means
                .iter()
                .map(|m| f64::from(u8::from(rng.random::<f64>() < *m)))
                .collect()
        })
        .collect();
    let mut d2 = d.clone();
    if let Some(row) = d2.get_mut(user) {
        for r in row.iter_mut() {
            *r = 1.0 - *r;
        }
    }
    (d, d2)
}

/// Plug-in total variation between the laws of the first feature (output hash). Integer
/// counts summed in key order: the same bits on every call (a `HashMap`'s order, hence its
/// floating-point sum, changes from one process to the next).
fn tv(x: &[Vec<u64>], y: &[Vec<u64>]) -> f64 {
    let mut c: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
    for v in x {
        c.entry(v[0]).or_default().0 += 1;
    }
    for v in y {
        c.entry(v[0]).or_default().1 += 1;
    }
    let (nx, ny) = (x.len() as f64, y.len() as f64);
    0.5 * c
        .values()
        .map(|&(p, q)| (p as f64 / nx - q as f64 / ny).abs())
        .sum::<f64>()
}

/// Runs the neighbour search (module docs).
///
/// # Errors
/// [`Error::InvalidParameter`] for `ε <= 0`, `α ∉ (0, 1)`, fewer than 4 runs, zero rows,
/// finalists or candidates, or an algorithm without an ε-DP claim on reward tables.
pub fn dp_search(target: DpSearchTarget, cfg: &DpSearchConfig) -> Result<DpSearchReport> {
    dp_search_counted(target, cfg, &std::sync::atomic::AtomicU64::new(0))
}

/// [`dp_search`], storing in `progress` the samples drawn so far (screening, then each
/// finalist's confirmation) for a progress display; the result does not depend on it.
///
/// # Errors
/// As [`dp_search`].
pub fn dp_search_counted(
    target: DpSearchTarget,
    cfg: &DpSearchConfig,
    progress: &std::sync::atomic::AtomicU64,
) -> Result<DpSearchReport> {
    let shown = |samples: u64| progress.store(samples, std::sync::atomic::Ordering::Relaxed);
    check_open("alpha", cfg.alpha, 0.0, 1.0)?;
    if !(cfg.eps > 0.0 && cfg.eps.is_finite()) {
        return Err(Error::param("eps", cfg.eps, "a finite number > 0"));
    }
    check_open("futility beta", cfg.futility_beta, 0.0, 1.0)?;
    if cfg.rows == 0
        || cfg.finalists == 0
        || cfg.candidates < cfg.finalists
        || cfg.screen_runs < 4
        || cfg.confirm_runs < 4
        || cfg.confirm_first.is_some_and(|f| f < 4)
    {
        return Err(Error::param(
            "rows, candidates, finalists, screen-runs, confirm-runs, confirm-first",
            format!(
                "{}, {}, {}, {}, {}, {:?}",
                cfg.rows,
                cfg.candidates,
                cfg.finalists,
                cfg.screen_runs,
                cfg.confirm_runs,
                cfg.confirm_first
            ),
            "rows >= 1, candidates >= finalists >= 1, runs >= 4",
        ));
    }
    match cfg.budget {
        Budget::Samples(n) if n == 0 => {
            return Err(Error::param("budget samples", n, "at least 1"));
        }
        Budget::Seconds(s) if !(s > 0.0 && s.is_finite()) => {
            return Err(Error::param("budget seconds", s, "a finite number > 0"));
        }
        _ => {}
    }
    let start = Instant::now();
    let table_seed = mix64(cfg.seed ^ 0x7AB1_E5EA_2C40_0017);
    let crn = mix64(cfg.seed ^ 0xC2C2_0000_0017);
    let mut trace = Vec::new();
    let mut samples = 0u64;
    let exhausted = |samples: u64| match cfg.budget {
        Budget::Samples(n) => samples >= n,
        Budget::Seconds(s) => start.elapsed().as_secs_f64() >= s,
    };
    let mut budget_exhausted = false;
    // Candidates: the fixed pair of `audit dp --algo` (user 0, means 0.7/0.3), then Halton
    // points; the user index is drawn among the users the algorithm reads on the base table
    // (the largest τ of 16 probe runs), since a user it never reads cannot leak.
    let mut cands: Vec<(usize, [f64; 2])> = vec![(0, [0.7, 0.3])];
    let mut i = 1u64;
    while cands.len() < cfg.candidates {
        let m = |u: f64| 0.05 + 0.9 * u;
        let means = [m(halton(i, 3)), m(halton(i, 5))];
        let alg = target.build(&means, cfg.eps)?;
        let (d, _) = table_pair(cfg.rows, means, usize::MAX, table_seed);
        let read = (0..16u64)
            .filter_map(|r| alg.run_on_table(&d, &mut rng_for_run(crn ^ 0x9B0B, r)))
            .map(|o| o.actions.len())
            .max()
            .unwrap_or(cfg.rows)
            .clamp(1, cfg.rows);
        let user = ((halton(i, 2) * read as f64) as usize).min(read - 1);
        cands.push((user, means));
        i += 1;
    }
    struct Cand {
        user: usize,
        means: [f64; 2],
        x: Vec<Vec<u64>>,
        y: Vec<Vec<u64>>,
    }
    let mut pool: Vec<(f64, Cand)> = Vec::new();
    let score = |c: &Cand| tv(&c.x, &c.y);
    for (user, means) in cands {
        let alg = target.build(&means, cfg.eps)?;
        let (d, d2) = table_pair(cfg.rows, means, user, table_seed);
        let (x, y) = outputs(alg.as_ref(), &d, &d2, crn, 0..cfg.screen_runs);
        samples += drawn(&x) + drawn(&y);
        shown(samples);
        let c = Cand { user, means, x, y };
        let s = score(&c);
        trace.push(PairRow {
            stage: "screen-0".into(),
            user,
            means,
            runs: cfg.screen_runs,
            score: s,
        });
        pool.push((s, c));
        if exhausted(samples) && pool.len() >= cfg.finalists {
            budget_exhausted = pool.len() < cfg.candidates;
            break;
        }
    }
    let sort = |p: &mut Vec<(f64, Cand)>| {
        p.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.user.cmp(&b.1.user)))
    };
    sort(&mut pool);
    let mut round = 0;
    while pool.len() > cfg.finalists {
        if exhausted(samples) {
            budget_exhausted = true;
            break;
        }
        round += 1;
        pool.truncate((pool.len() / 2).max(cfg.finalists));
        for (s, c) in pool.iter_mut() {
            let n = c.x.len() as u64;
            let alg = target.build(&c.means, cfg.eps)?;
            let (d, d2) = table_pair(cfg.rows, c.means, c.user, table_seed);
            let (x, y) = outputs(alg.as_ref(), &d, &d2, crn, n..2 * n);
            samples += drawn(&x) + drawn(&y);
            shown(samples);
            c.x.extend(x);
            c.y.extend(y);
            *s = score(c);
            trace.push(PairRow {
                stage: format!("screen-{round}"),
                user: c.user,
                means: c.means,
                runs: 2 * n,
                score: *s,
            });
        }
        sort(&mut pool);
    }
    pool.truncate(cfg.finalists);
    let m = pool.len();
    let alpha_m = cfg.alpha / m as f64;
    let mut best: Option<(usize, [f64; 2], BlackBox)> = None;
    let fresh = mix64(cfg.seed ^ 0xF2E5_4000_0017);
    let mut confirmations = Vec::new();
    let mut confirmed = 0u64;
    for (j, (_, c)) in pool.iter().enumerate() {
        let alg = target.build(&c.means, cfg.eps)?;
        let (d, d2) = table_pair(cfg.rows, c.means, c.user, table_seed);
        let conf = confirm(
            alg.as_ref(),
            &d,
            &d2,
            mix64(fresh.wrapping_add(j as u64)),
            cfg.confirm_plan(),
            alpha_m,
            cfg.eps,
            cfg.futility_beta,
        )?;
        let bb = conf.result.clone();
        confirmed = confirmed.saturating_add(conf.samples);
        shown(samples.saturating_add(confirmed));
        trace.push(PairRow {
            stage: "confirm".into(),
            user: c.user,
            means: c.means,
            runs: bb.runs,
            score: bb.eps_lower,
        });
        confirmations.push(conf);
        if best.as_ref().is_none_or(|b| bb.eps_lower > b.2.eps_lower) {
            best = Some((c.user, c.means, bb));
        }
    }
    let (worst_user, worst_means, worst) = best.expect("invariant: at least one finalist");
    Ok(DpSearchReport {
        target: target.name(),
        eps_claimed: cfg.eps,
        verdict: worst.verdict,
        worst_user,
        worst_means,
        eps_lower: worst.eps_lower,
        worst,
        correction: format!(
            "Bonferroni over the {m} finalist(s): each tested at alpha/{m} = {alpha_m:.3e} on fresh seeds{}",
            match cfg.confirm_plan() {
                RunPlan::UntilDecided { first, budget } => format!(
                    ", in looks of {first}, {}, ... up to {budget} runs per table, look j at alpha/{m}*2^-j (futility beta {})",
                    first.saturating_mul(2).min(budget),
                    cfg.futility_beta
                ),
                RunPlan::Fixed { runs } => format!(", {runs} runs per table"),
            }
        ),
        confirm_samples: confirmations.iter().map(|c| c.samples).sum(),
        confirmations,
        trace,
        budget: cfg.budget,
        samples,
        budget_exhausted,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The same tester on the fixed neighbouring tables of `audit dp --algo` (user 1 flipped), for
/// comparison with [`dp_search`], with the confirmation's plan at `α`.
///
/// # Errors
/// As [`dp_search`].
pub fn fixed_tables(target: DpSearchTarget, cfg: &DpSearchConfig) -> Result<Confirmation> {
    let (d, d2) = neighbouring_tables(cfg.rows);
    let alg = target.build(&[0.7, 0.3], cfg.eps)?;
    confirm(
        alg.as_ref(),
        &d,
        &d2,
        mix64(cfg.seed ^ 0xF1ED),
        cfg.confirm_plan(),
        cfg.alpha,
        cfg.eps,
        cfg.futility_beta,
    )
}

impl DpSearchConfig {
    /// The confirmation's run plan.
    pub fn confirm_plan(&self) -> RunPlan {
        match self.confirm_first {
            Some(first) => RunPlan::UntilDecided {
                first,
                budget: self.confirm_runs,
            },
            None => RunPlan::Fixed {
                runs: self.confirm_runs,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> DpSearchConfig {
        DpSearchConfig {
            rows: 200,
            candidates: 64,
            screen_runs: 100,
            confirm_runs: 4000,
            budget: Budget::Samples(2_000_000),
            ..DpSearchConfig::new(1.0)
        }
    }

    /// Pre-registered: seed 1, alpha = 1e-3. The late leak is missed by the fixed tables and
    /// found by the search; the faithful algorithm is not flagged by either.
    #[test]
    fn late_leak_is_found_by_the_search_not_by_the_fixed_tables() {
        let c = cfg();
        let leak = DpSearchTarget::RrDaf { leak_from: Some(3) };
        assert_ne!(
            fixed_tables(leak, &c).expect("runs").result.verdict,
            Verdict::Violated
        );
        let r = dp_search(leak, &c).expect("runs");
        assert_eq!(r.verdict, Verdict::Violated, "{:?}", r.worst);
        assert!(r.worst_user > 0);
        let ok = DpSearchTarget::RrDaf { leak_from: None };
        assert_ne!(
            fixed_tables(ok, &c).expect("runs").result.verdict,
            Verdict::Violated
        );
        assert_ne!(dp_search(ok, &c).expect("runs").verdict, Verdict::Violated);
    }

    /// Pre-registered: seed 1, alpha = 1e-3. AdaP-TT whose DAF drops its noise from the third
    /// release on: the fixed tables (user 1 flipped) miss it, the search finds a user whose
    /// reward enters a noiseless release; faithful AdaP-TT is violated by neither.
    #[test]
    fn adap_tt_late_leak_is_found_by_the_search_not_by_the_fixed_tables() {
        let c = cfg();
        let leak = DpSearchTarget::AdapTtLateLeak { leak_from: 3 };
        let fixed = fixed_tables(leak, &c).expect("runs").result;
        assert_ne!(fixed.verdict, Verdict::Violated, "{fixed:?}");
        let r = dp_search(leak, &c).expect("runs");
        assert_eq!(r.verdict, Verdict::Violated, "{:?}", r.worst);
        assert!(r.worst_user > 0);
        let ok = DpSearchTarget::Algo(AlgoName::AdapTt);
        assert_ne!(
            fixed_tables(ok, &c).expect("runs").result.verdict,
            Verdict::Violated
        );
        assert_ne!(dp_search(ok, &c).expect("runs").verdict, Verdict::Violated);
    }

    /// A budget in samples stops the screening at the same point for any thread count: the
    /// trace (every score) is identical with 1 and 2 threads, the stop is reported, and fewer
    /// samples are drawn than without the budget (it is checked before each candidate of the
    /// first round and before each halving round, so one round may pass it).
    #[test]
    fn a_samples_budget_is_deterministic_and_reported() {
        let c = DpSearchConfig {
            candidates: 16,
            confirm_runs: 400,
            budget: Budget::Samples(20_000),
            ..cfg()
        };
        let target = DpSearchTarget::RrDaf { leak_from: Some(3) };
        let with = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("pool")
                .install(|| dp_search(target, &c).expect("runs"))
        };
        let (a, b) = (with(1), with(2));
        assert!(a.budget_exhausted);
        assert_eq!(a.samples, b.samples);
        let scores = |r: &DpSearchReport| {
            r.trace
                .iter()
                .map(|p| (p.user, p.score))
                .collect::<Vec<_>>()
        };
        assert_eq!(scores(&a), scores(&b));
        assert!(a.samples >= 20_000);
        let free = DpSearchConfig {
            budget: Budget::Samples(u64::MAX),
            ..c.clone()
        };
        let f = dp_search(target, &free).expect("runs");
        assert!(!f.budget_exhausted && f.samples > a.samples);
        let bad = DpSearchConfig {
            budget: Budget::Samples(0),
            ..c.clone()
        };
        assert!(dp_search(target, &bad).is_err());
    }

    /// Pre-registered: seed 1, alpha = 1e-3, the budget of `cfg()` (looks at 1 250, 2 500 and
    /// 4 000 runs per table). The sequential confirmation reaches the fixed plan's verdicts on
    /// the toy and on its late leak from the same screening, and on the faithful toy it draws
    /// less than half the fixed plan's confirmation samples.
    #[test]
    fn sequential_confirmation_keeps_the_verdicts_and_draws_fewer_samples() {
        let seq = cfg();
        let fixed = DpSearchConfig {
            confirm_first: None,
            ..cfg()
        };
        for leak_from in [Some(3), None] {
            let t = DpSearchTarget::RrDaf { leak_from };
            let (a, b) = (
                dp_search(t, &seq).expect("runs"),
                dp_search(t, &fixed).expect("runs"),
            );
            assert_eq!(a.verdict, b.verdict, "{leak_from:?}");
            assert_eq!(a.samples, b.samples);
            assert!(a.confirmations.iter().all(|c| c.result.runs <= 4000));
            if leak_from.is_none() {
                assert!(
                    2 * a.confirm_samples < b.confirm_samples,
                    "{} vs {}",
                    a.confirm_samples,
                    b.confirm_samples
                );
            }
        }
    }

    /// Pre-registered: seeds 1..=6, alpha = 1e-3, the small budget of `cfg()`. The search
    /// finds the AdaP-TT late leak on every seed (reliability, not one lucky seed). (The
    /// `rr-daf` toy is missed on some seeds at this budget: its leak moves only the stopping
    /// time.)
    #[test]
    fn late_leaks_are_found_on_every_seed() {
        for seed in 1..=6 {
            let c = DpSearchConfig { seed, ..cfg() };
            let r = dp_search(DpSearchTarget::AdapTtLateLeak { leak_from: 3 }, &c).expect("runs");
            assert_eq!(r.verdict, Verdict::Violated, "seed {seed}");
        }
    }
}
