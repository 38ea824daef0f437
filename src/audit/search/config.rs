//! The configuration of a worst-case search ([`SearchConfig`]), its budget and the limits it is
//! validated against.

use super::space::{self, SearchSpace};
use crate::audit::delta::DeltaAuditConfig;
use crate::error::{Error, Result};
use serde::Serialize;

/// Search budget (every stage: module docs).
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
    /// Set (by a signal handler) to end the search between batches with the partial result.
    pub stop: Option<&'static std::sync::atomic::AtomicBool>,
    /// Where the search stores the samples drawn so far, after every batch (read by a
    /// progress display; the search's results do not depend on it).
    pub progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
}

/// Largest `screen_candidates`.
pub const MAX_SCREEN_CANDIDATES: usize = 10_000;
/// Largest `screen_runs` and `local_runs`.
pub const MAX_STAGE_RUNS: u64 = 1_000_000;
/// Largest `local_iters`.
pub const MAX_LOCAL_ITERS: u64 = 10_000;
/// Largest `finalists`.
pub const MAX_FINALISTS: usize = 16;
/// Range of `α` of a search.
pub const ALPHA_RANGE: (f64, f64) = (1e-12, 0.5);
/// Largest budget in samples (`10^12`) and in seconds (a week).
pub const MAX_BUDGET: (u64, f64) = (1_000_000_000_000, 604_800.0);
/// Default budget: samples, so that one command gives one answer on any machine.
pub const DEFAULT_BUDGET: Budget = Budget::Samples(2_000_000_000);

impl SearchConfig {
    /// Defaults: 64 screened candidates × 32 runs, halving to 2 finalists, 40 Nelder–Mead
    /// iterations of 256 runs, [`DEFAULT_BUDGET`].
    pub fn new(audit: DeltaAuditConfig, delta: f64, space: SearchSpace) -> Self {
        SearchConfig {
            audit,
            delta,
            space,
            budget: DEFAULT_BUDGET,
            screen_candidates: 64,
            screen_runs: 32,
            local_runs: 256,
            local_iters: 40,
            finalists: 2,
            stop: None,
            progress: None,
        }
    }

    /// Checks every setting against its range (the constants above).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the first setting out of range.
    pub fn validate(&self) -> Result<()> {
        self.space.validate()?;
        let (dlo, dhi) = space::DELTA_RANGE;
        if !(dlo..=dhi).contains(&self.delta) {
            return Err(Error::param(
                "delta",
                self.delta,
                format!(
                    "in [{dlo:e}, {dhi}] for a search (its confirmation needs about ln(4m/alpha)/delta runs)"
                ),
            ));
        }
        if let Some((lo, hi)) = self.space.delta {
            if hi != self.delta || lo > hi {
                return Err(Error::param(
                    "delta-min",
                    lo,
                    format!(
                        "in [{dlo:e}, delta = {}]",
                        crate::error::compact_number(self.delta)
                    ),
                ));
            }
        }
        let (alo, ahi) = ALPHA_RANGE;
        if !(alo..=ahi).contains(&self.audit.alpha) {
            return Err(Error::param(
                "alpha",
                self.audit.alpha,
                format!("in [{alo:e}, {ahi}] for a search"),
            ));
        }
        if !(1..=MAX_FINALISTS).contains(&self.finalists) {
            return Err(Error::param(
                "finalists",
                self.finalists,
                format!("in [1, {MAX_FINALISTS}]"),
            ));
        }
        if !(self.finalists..=MAX_SCREEN_CANDIDATES).contains(&self.screen_candidates) {
            return Err(Error::param(
                "screen-candidates",
                self.screen_candidates,
                format!(
                    "in [finalists = {}, {MAX_SCREEN_CANDIDATES}]",
                    self.finalists
                ),
            ));
        }
        for (name, v) in [
            ("screen-runs", self.screen_runs),
            ("local-runs", self.local_runs),
        ] {
            if !(1..=MAX_STAGE_RUNS).contains(&v) {
                return Err(Error::param(name, v, format!("in [1, {MAX_STAGE_RUNS}]")));
            }
        }
        if self.local_iters > MAX_LOCAL_ITERS {
            return Err(Error::param(
                "local-iters",
                self.local_iters,
                format!("in [0, {MAX_LOCAL_ITERS}]"),
            ));
        }
        match self.budget {
            Budget::Samples(n) if !(1..=MAX_BUDGET.0).contains(&n) => {
                return Err(Error::param(
                    "search-budget",
                    n,
                    format!("in [1, {:e}] samples", MAX_BUDGET.0 as f64),
                ));
            }
            Budget::Seconds(x) if !(x > 0.0 && x <= MAX_BUDGET.1) => {
                return Err(Error::param(
                    "search-budget",
                    format!("{x}s"),
                    format!("in (0, {}] seconds", MAX_BUDGET.1),
                ));
            }
            _ => {}
        }
        if let crate::audit::delta::RunPlan::UntilDecided { first, budget } = self.audit.plan {
            if first == 0 || budget < first {
                return Err(Error::param(
                    "confirmation plan",
                    format!("{first}..{budget}"),
                    "1 <= first <= budget",
                ));
            }
        }
        Ok(())
    }
}
