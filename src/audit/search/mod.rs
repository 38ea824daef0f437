//! `dpbai audit delta --search`: adversarial search for the instance that maximises the error
//! probability `P_ν(τ < ∞, â ≠ a*)` of an algorithm and stopping threshold, then an exact
//! confirmation on fresh seeds (READINGS.md §E.2).
//!
//! # Protocol
//! 1. **Space.** A declared [`SearchSpace`] (family or both families, range of `K`, of the
//!    means, of the gap, of `δ`, of `ε` for private algorithms) is parametrised by
//!    `x ∈ [0, 1]^d` ([`SearchSpace::decode`]): `K`, the gap (log scale), the position of the
//!    best mean, the configuration of the arms below the runner-up (tied, spread, a low-mean
//!    tail, two clusters, geometric), its spread and cluster fraction, then `δ`, `ε`, family
//!    and `σ` (log scale).
//! 2. **Design.** Points seeded by the threshold's own expression (`seeds`: the counts where it
//!    is smallest relative to the algorithm's provable preset, and a point of a failed dominance
//!    proof, turned into the gap at which a run reaches those counts), the space's corners, then
//!    uniform points (seeded) up to `screen_candidates`, each instance once.
//! 3. **Screening with successive halving** on `screen_runs` runs each, no instance drawing
//!    more than its share (round 0: `1/(2N)` of the screening budget for each of the `N`
//!    points; a halving round: its share of half of what is left); the better half by
//!    [`rank`]'s score (what the confirmation could prove on it within its budget) gets its
//!    runs doubled, until `finalists` remain; the others stay in reserve.
//! 4. **Nelder–Mead** (argmin, derivative free) from the best point, on the same score over
//!    `local_runs` runs.
//! 5. Every evaluation uses **common random numbers**: run `r` of every candidate draws from
//!    `rng_for_run(s_crn, r)`.
//! 6. **Confirmation.** The finalists are re-audited on fresh seeds with the exact, outward
//!    Clopper–Pearson audit under the pre-registered run plan, each at `α/m` (Bonferroni over
//!    the `m` finalists, rounded down) and each look `j` at `α/m·2^{−j}`, each run capped at
//!    the instance's own [`rank::step_cap`] (`32·T*(ν)·log(1/δ)`). A finalist whose first
//!    look its share of the budget cannot pay for (at the run length the search measured) is
//!    reported unaffordable, without a run, and the next candidate takes its slot. The search
//!    data only choose *which* instances are confirmed; the confirmation data are independent
//!    of that choice, so the verdict `violated` is wrong with probability at most `α`.
//!
//! # Verdicts
//! `violated` (a finalist's lower confidence end exceeds its `δ`, with the instance and the
//! confirmation's counts), or `no violation found`, with the space searched, the points
//! screened and the power against the declared space ([`SearchReport::power`]), or
//! `undecided` when the budget paid for no confirmation run at all (every finalist tried was
//! unaffordable, or the budget ran out). A search never
//! says `holds`: that is reserved for a proof (`audit delta --dominates`).
//!
//! # Budget
//! [`Budget`] bounds **every** stage: the screening may use half of it, Nelder–Mead 40% of what
//! is left, the confirmation the rest (split evenly over the finalists). Each batch of runs is
//! sized to its stage's remaining samples (a run's step cap is the remaining samples over the
//! batch's runs; a capped run counts as not stopped, which only weakens the statements), so a
//! budget in samples is never exceeded, and it makes the search deterministic (identical for
//! any thread count and any machine load). A budget in seconds is machine-dependent (its
//! batches are sized from the rate measured so far). A confirmation look cut by the budget is
//! not taken: the last look taken decides (every look's interval is valid at once, so choosing
//! which to report cannot break the guarantee). [`SearchConfig::stop`] ends the search between
//! batches (Ctrl-C in the command line) with the partial result.
//!
//! # Memory
//! The pool holds at most [`MAX_SCREEN_CANDIDATES`] candidates of at most `K_max <= 1000`
//! arms, the trace one row per evaluation (`screen_candidates·(1 + log2 screen_candidates) +
//! local_iters·(d + 2) + finalists` rows of about 300 bytes), and a run `O(K)` state per
//! thread: below `screen_candidates·(48 K_max + 2000)` bytes, 1 GB at the largest settings.
//!
//! # Files
//! [`space`] (the space, its parametrisation and the design), `seeds` (points from the
//! threshold's expression), `meter` (the budget), [`rank`] (the candidates' score and the
//! confirmation's step cap), `halving` (shared state, successive halving, Nelder–Mead),
//! `confirm` (confirmation and power statement), [`report`] (trace rows, the
//! report, REPORT.md rows); this file holds the configuration and the entry points
//! [`search_with`] and [`search`].

mod config;
mod confirm;
mod halving;
mod meter;
pub mod rank;
pub mod report;
mod seeds;
pub mod space;

pub use config::{
    ALPHA_RANGE, Budget, DEFAULT_BUDGET, MAX_BUDGET, MAX_FINALISTS, MAX_LOCAL_ITERS,
    MAX_SCREEN_CANDIDATES, MAX_STAGE_RUNS, SearchConfig,
};
pub use confirm::holds_sized_plan;
pub use report::{SearchReport, SearchVerdict, Stage, TraceRow, report_rows};
pub(crate) use space::halton;
pub use space::{Candidate, SearchSpace, SpaceFamily};

use crate::audit::delta::AlgoFactory;
use crate::error::Result;
use halving::Search;

/// The version of the search's results (cached searches carry it in their key,
/// [`crate::experiment::evidence`]): bump it when a search of the same configuration finds
/// differently. 2: a search that made no confirmation run says `undecided` (it said `no
/// violation found`), and a budget in seconds always pays for the first batch. 3: the
/// ranking by what the confirmation could prove ([`rank`]), per-instance screening shares,
/// the confirmation's step cap from `T*·log(1/δ)` and unaffordable finalists replaced,
/// a `σ` range. 4: a budget in seconds sizes the confirmation in samples (it compared samples
/// with seconds: every finalist unaffordable), and a halving round that is not the last keeps
/// half of what is left for the next.
pub const SEARCH_VERSION: u32 = 4;

/// Runs the search (module docs for the protocol) on the algorithm built by `build`.
///
/// # Errors
/// [`crate::Error::InvalidParameter`] for a setting out of range ([`SearchConfig::validate`]); errors
/// of `build` other than [`crate::Error::InvalidInstance`] (such candidates are skipped). If the
/// algorithm rejects every candidate, an error naming the space.
pub fn search_with(cfg: &SearchConfig, build: &AlgoFactory<'_>) -> Result<SearchReport> {
    cfg.validate()?;
    let seeds = seeds::seeds(cfg);
    let s = Search::new(cfg, build);
    let mut pool = halving::screen(&s, &seeds)?;
    halving::refine(&s, &mut pool)?;
    confirm::confirm(s, pool, seeds.len())
}

/// Runs the search on `cfg.audit`'s algorithm and threshold (see [`search_with`]).
///
/// # Errors
/// As [`search_with`].
///
/// # Example
/// ```no_run
/// use dpbai::audit::delta::{DeltaAuditConfig, RunPlan};
/// use dpbai::audit::search::{search, Budget, SearchConfig, SearchSpace};
/// use dpbai::threshold::expr::parse_threshold;
/// use dpbai::bandit::{AlgoName, Setting};
/// let audit = DeltaAuditConfig {
///     setting: Setting::paper(AlgoName::Ttucb, 0.05).unwrap(),
///     threshold: Some(parse_threshold("unsafe-log-over-20").unwrap()),
///     alpha: 1e-3, seed: 1, max_steps: 1_000_000,
///     plan: RunPlan::UntilDecided { first: 200, budget: 6400 },
///     sampling: dpbai::bandit::Sampling::Algorithm,
/// };
/// let mut cfg = SearchConfig::new(audit, 0.05, SearchSpace::default());
/// cfg.budget = Budget::Seconds(20.0);
/// let r = search(&cfg).unwrap();
/// println!("{} on {:?}", r.verdict, r.worst_means);
/// ```
pub fn search(cfg: &SearchConfig) -> Result<SearchReport> {
    let a = &cfg.audit;
    // The in-run checks of an expression threshold: a non-finite value met during the search
    // makes the search an error naming the expression and the point, never a verdict.
    let checkers = std::sync::Mutex::new(Vec::new());
    let report = search_with(cfg, &|inst| {
        let (alg, checked) = crate::audit::delta::build_for(a, inst, None)?;
        if let Some(c) = checked {
            checkers
                .lock()
                .expect("invariant: no panic while the lock is held")
                .push(c);
        }
        Ok(alg)
    });
    let checkers = checkers
        .into_inner()
        .expect("invariant: no panic while the lock is held");
    if let Some(e) = checkers.iter().find_map(|c| c.failure()) {
        return Err(e);
    }
    report
}
