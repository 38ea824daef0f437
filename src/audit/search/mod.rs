//! `dpbai audit delta --search`: adversarial search for the instance that maximises the error
//! probability `P_ν(τ < ∞, â ≠ a*)` of an algorithm and stopping threshold, then an exact
//! confirmation on fresh seeds (MATH.md E.2).
//!
//! # Protocol
//! 1. **Space.** A declared [`SearchSpace`] (family, range of `K`, range of means, minimum gap,
//!    `ε` range for private algorithms) is parametrised by `x ∈ [0, 1]^d` ([`SearchSpace::decode`]):
//!    `x₀ → K`, `x₁ → gap` (log scale), `x₂ →` position of the best mean, `x₃ →` spread of the
//!    arms below the runner-up (`0`: all `K − 1` others tied at `μ₁ − gap`), `x₄ → ε` (log scale).
//! 2. **Screening with successive halving.** The space's corners (largest and smallest `K` at
//!    the smallest gap, all others tied; each at the smallest `ε`) and a Halton design are run
//!    with `screen_runs` runs each; the better half (by error frequency, then hardness) gets its
//!    runs doubled, and so on until [`SearchConfig::finalists`] remain.
//! 3. **Nelder–Mead** (argmin, derivative free) from the best point, on the error frequency over
//!    `local_runs` runs (minus a `10^{-3}`-scaled hardness tie-break so that flat zero-error
//!    regions lead towards harder instances).
//! 4. Every evaluation uses **common random numbers**: run `r` of every candidate draws from
//!    `rng_for_run(s_crn, r)`, so differences between candidates are not seed noise.
//! 5. **Confirmation.** The `finalists` worst candidates are re-audited on fresh seeds (a seed
//!    stream disjoint from the search's) with the exact Clopper–Pearson audit
//!    ([`crate::audit::delta::audit_delta_with`]) under the pre-registered run plan, each at
//!    `α/m` (**Bonferroni over the `m` confirmed candidates**). The search data only chooses
//!    *which* instances are confirmed; the confirmation data are independent of that choice, so
//!    conditionally on it every interval covers with probability `>= 1 − α/m`, and the overall
//!    verdict (`violated` if any confirmed instance is, `holds` if all are) is wrong with
//!    probability at most `α`.
//!
//! A `holds` verdict means "no violation found": it is a statement about the confirmed
//! instances, with a power statement ([`SearchReport::power`]): how likely the confirmation was
//! to declare `violated` had the worst instance's error probability been `2δ`, and how likely a
//! screened instance with error probability `q` was to show at least one error in screening.
//!
//! The budget ([`Budget`]) bounds the search (screening and Nelder–Mead); the confirmation runs
//! its pre-registered plan whatever the budget. A budget in samples makes the whole search
//! deterministic (identical for any thread count); a budget in seconds does not.
//!
//! # Cost
//! The confirmation dominates on correct rules: it runs on the hardest instances found, and
//! `holds` needs `cp_upper(0, n, ·) <= δ`, about `ln(4m/α)/δ` runs. [`holds_sized_plan`] sizes
//! the plan to exactly that first look (then doubling, up to 32 times it, when errors appear), so
//! a correct rule is confirmed in one look; `dpbai audit delta --search` uses it unless a plan is
//! given. Auditing at `δ = 0.1` instead of `0.01` makes that ten times fewer runs, each about
//! half as long (`τ ∝ log(1/δ)`): the provable thresholds are δ-correct at every `δ`, so
//! `δ = 0.1` tests the same lemma; the power statement then speaks of error probability `0.2`.
//!
//! # Files
//! [`space`] (the space, its parametrisation and the screening design), `halving` (shared
//! state, successive halving, Nelder–Mead), `confirm` (confirmation and power statement),
//! [`report`] (trace rows, the report, REPORT.md rows); this file holds the configuration and
//! the entry points [`search_with`] and [`search`].

mod confirm;
mod halving;
pub mod report;
pub mod space;

pub use confirm::holds_sized_plan;
pub use report::{report_rows, SearchReport, TraceRow};
pub(crate) use space::halton;
pub use space::{Candidate, SearchSpace, SpaceFamily};

use crate::audit::delta::{AlgoFactory, DeltaAuditConfig};
use crate::error::{check_open, Error, Result};
use halving::Search;
use serde::Serialize;

/// Search budget (screening and Nelder–Mead; the confirmation is not counted).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "value")]
pub enum Budget {
    /// Total samples drawn (sum of `τ` over all runs, capped runs counted at the cap).
    Samples(u64),
    /// Wall-clock seconds.
    Seconds(f64),
}

/// Everything the search needs.
#[derive(Debug, Clone)]
pub struct SearchConfig {
    /// The audit (algorithm, threshold, `α`, seed, step cap, and the confirmation's run plan).
    pub audit: DeltaAuditConfig,
    /// Risk `δ` audited.
    pub delta: f64,
    /// The declared space.
    pub space: SearchSpace,
    /// The search budget.
    pub budget: Budget,
    /// Candidates of the first screening round (`>= finalists`).
    pub screen_candidates: usize,
    /// Runs per candidate in the first screening round.
    pub screen_runs: u64,
    /// Runs per Nelder–Mead evaluation.
    pub local_runs: u64,
    /// Nelder–Mead iterations at most.
    pub local_iters: u64,
    /// Candidates confirmed on fresh seeds (`m` of the Bonferroni correction).
    pub finalists: usize,
}

impl SearchConfig {
    /// Defaults: 40 screened candidates × 32 runs, halving to 2 finalists, 40 Nelder–Mead
    /// iterations of 256 runs, 60 s.
    pub fn new(audit: DeltaAuditConfig, delta: f64, space: SearchSpace) -> Self {
        SearchConfig {
            audit,
            delta,
            space,
            budget: Budget::Seconds(60.0),
            screen_candidates: 40,
            screen_runs: 32,
            local_runs: 256,
            local_iters: 40,
            finalists: 2,
        }
    }
}

/// Runs the search (module docs for the protocol) on the algorithm built by `build`.
///
/// # Errors
/// [`Error::InvalidParameter`] for an invalid space, `δ`, or zero counts; errors of `build`
/// other than [`Error::InvalidInstance`] (such candidates are skipped); errors of the
/// confirmation audit. If the algorithm rejects every candidate, an error naming the space.
pub fn search_with(cfg: &SearchConfig, build: &AlgoFactory<'_>) -> Result<SearchReport> {
    cfg.space.validate()?;
    check_open("delta", cfg.delta, 0.0, 1.0)?;
    if cfg.screen_runs == 0 || cfg.local_runs == 0 || cfg.finalists == 0 {
        return Err(Error::param(
            "screen-runs, local-runs, finalists",
            format!("{}, {}, {}", cfg.screen_runs, cfg.local_runs, cfg.finalists),
            "all at least 1",
        ));
    }
    if cfg.screen_candidates < cfg.finalists {
        return Err(Error::param(
            "screen-candidates",
            cfg.screen_candidates,
            format!("at least finalists = {}", cfg.finalists),
        ));
    }
    let s = Search::new(cfg, build);
    let mut pool = halving::screen(&s)?;
    halving::refine(&s, &mut pool)?;
    confirm::confirm(s, pool)
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
/// use dpbai::audit::expr::parse_threshold;
/// use dpbai::bandit::{AlgoName, Setting};
/// let audit = DeltaAuditConfig {
///     setting: Setting::paper(AlgoName::Ttucb, 0.05).unwrap(),
///     threshold: Some(parse_threshold("unsafe-log-over-20").unwrap()),
///     alpha: 1e-3, seed: 1, max_steps: 1_000_000,
///     plan: RunPlan::UntilDecided { first: 200, budget: 6400 },
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
