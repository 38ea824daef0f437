//! `dpbai audit delta`: is `P_ν(τ < ∞, â ≠ a*) <= δ` for a stopping rule? (READINGS.md §E.2)
//!
//! # Protocol
//! For each instance, independent seeded runs (run `r` of instance `i` draws from
//! [`rng_for_run`](crate::rng::rng_for_run)`(seed_i, r)`, `seed_i = mix64(seed + i)`) are counted as
//! * `errors`: stopped with a wrong recommendation;
//! * `unstopped`: hit the step cap (`max_steps`) without stopping. Such a run has not returned a
//!   wrong answer *yet*, but it might later. So it counts as **not an error** for the lower bound
//!   (the event `{τ <= cap, â ≠ a*}` is contained in `{τ < ∞, â ≠ a*}`) and **as an error** for
//!   the upper bound (`{τ < ∞, â ≠ a*} ⊆ {τ <= cap, â ≠ a*} ∪ {τ > cap}`). Both bounds are
//!   therefore valid whatever the cap; unstopped runs are always reported.
//!
//! With `n` runs, `k` errors and `u` unstopped runs, the two-sided interval at confidence `1 − α`
//! is `[L, U] = [cp_lower(k, n, α/2), cp_upper(k + u, n, α/2)]` (exact Clopper–Pearson, closed
//! forms at `k = 0` and `k = n`), both rounded outward. Verdict: `violated` if `L > δ`, `holds`
//! if `U < δ`, else `inconclusive` (a tie is not a pass). Since `P(p ∉ [L, U]) <= α`, a
//! `holds` or `violated` verdict is wrong with probability at most `α`.
//!
//! # Sequential looks (`--until-decided`)
//! Looks `j = 1, 2, …` happen after a **fixed** cumulative schedule `n_j = n_1·2^{j−1}` (capped at
//! the budget), and look `j` uses `α_j = α·2^{−j}`. Claim: with probability at least `1 − α`,
//! every interval computed at every look contains `p`, so whichever look stops, its verdict is
//! wrong with probability at most `α`.
//! *Proof.* Let `E_j = {p ∉ [L_j, U_j]}`. Because `n_j` is fixed in advance, `[L_j, U_j]` is an
//! ordinary Clopper–Pearson interval for `Bin(n_j, p)` (plus the conservative treatment of
//! unstopped runs), so `P(E_j) <= α_j`. By the union bound,
//! `P(∪_j E_j) <= Σ_{j>=1} α·2^{−j} = α`. Stopping at the first decisive look only selects
//! one of the intervals, all of which are simultaneously correct outside `∪_j E_j`. ∎
//!
//! # Batteries
//! With `m` instances, each instance is audited at `α/m` (Bonferroni), so that the battery's
//! overall verdict (`violated` if any row is, `holds` if all rows are, else `inconclusive`) is
//! wrong with probability at most `α`. Rows are sorted worst first: violated, then inconclusive,
//! then holds; within a class by decreasing lower bound minus δ.
//!
//! # Layout
//! `decide` (the interval and verdict of one binomial audit), `runner` (building the algorithm
//! of each instance, the seeded runs, the looks and the battery verdict), `battery` (the default
//! stress battery and battery files); this file holds the configuration and report types.

mod battery;
mod decide;
mod runner;

pub use battery::{default_battery, parse_battery};
pub use decide::{Decision, decide, runs_to_decide};
pub use runner::{AlgoFactory, audit_delta, audit_delta_with, audit_delta_with_threshold};
pub(crate) use runner::{Tally, build_for, run_batch};

use crate::audit::Verdict;
use crate::bandit::Setting;
use crate::instance::Instance;
use crate::threshold::expr::ThresholdExpr;
use serde::Serialize;

/// The version of the δ-auditor's results (cached audits carry it in their key,
/// [`crate::experiment::evidence`]): bump it when an audit of the same configuration reports
/// differently.
pub const AUDIT_VERSION: u32 = 1;

/// Default confidence parameter `α` (confidence `1 − α`).
pub const DEFAULT_ALPHA: f64 = 1e-3;
/// Default step cap of one run.
pub const DEFAULT_MAX_STEPS: u64 = 10_000_000;
/// How many runs to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum RunPlan {
    /// One look after `runs` runs per instance, at `α`.
    Fixed {
        /// Runs per instance.
        runs: u64,
    },
    /// Looks after `first·2^{j−1}` runs (capped at `budget`) at `α·2^{−j}`, until decisive.
    UntilDecided {
        /// Runs of the first look.
        first: u64,
        /// Maximum runs per instance.
        budget: u64,
    },
}

/// One instance of an audit battery.
#[derive(Debug, Clone)]
pub struct AuditInstance {
    /// Short label, printed in the table.
    pub name: String,
    /// The bandit instance.
    pub instance: Instance,
    /// Risk `δ` to audit.
    pub delta: f64,
    /// Privacy budget (private algorithms only).
    pub eps: Option<f64>,
}

/// What to audit (everything except the instances).
#[derive(Debug, Clone)]
pub struct DeltaAuditConfig {
    /// The algorithm and its parameters: a template whose `δ` and `ε` each [`AuditInstance`]
    /// replaces with its own ([`DeltaAuditConfig::setting_for`]); its algorithm, `γ`, `β`,
    /// rules and readings serve every instance.
    pub setting: Setting,
    /// The threshold replacing the algorithm's `c_{a,b}`, if any.
    pub threshold: Option<ThresholdExpr>,
    /// Confidence parameter `α` of the whole audit.
    pub alpha: f64,
    /// Master seed.
    pub seed: u64,
    /// Step cap of one run.
    pub max_steps: u64,
    /// Runs per instance.
    pub plan: RunPlan,
    /// The sampling rule of the runs: the algorithm's, or uniform allocation with its
    /// statistic and threshold ([`crate::bandit::Sampling`]; applied by [`audit_delta`], not by the factory of
    /// [`audit_delta_with`]).
    pub sampling: crate::bandit::Sampling,
}

impl DeltaAuditConfig {
    /// The setting of one instance: [`DeltaAuditConfig::setting`] with the instance's `δ` and
    /// `ε`.
    ///
    /// # Errors
    /// [`crate::Error::InvalidParameter`] for the instance's `δ` or `ε` out of range
    /// ([`Setting::paper`], [`Setting::with_eps`]).
    pub fn setting_for(&self, inst: &AuditInstance) -> crate::Result<Setting> {
        let s = Setting {
            delta: crate::params::Delta::new(inst.delta)?,
            eps: None,
            ..self.setting
        };
        match inst.eps {
            Some(e) => s.with_eps(e),
            None => Ok(s),
        }
    }
}

/// Result for one instance.
#[derive(Debug, Clone, Serialize)]
pub struct DeltaRow {
    /// Label.
    pub name: String,
    /// `bernoulli` or `gaussian(σ)`.
    pub family: String,
    /// Means.
    pub means: Vec<f64>,
    /// Audited `δ`.
    pub delta: f64,
    /// `ε`, if private.
    pub eps: Option<f64>,
    /// Runs done.
    pub runs: u64,
    /// Stopped with a wrong answer.
    pub errors: u64,
    /// Hit the step cap.
    pub unstopped: u64,
    /// Empirical error frequency `errors / runs`.
    pub error_rate: f64,
    /// `[lower, upper]` confidence interval on `P(τ < ∞, â ≠ a*)`.
    pub ci: [f64; 2],
    /// Verdict of this row.
    pub verdict: Verdict,
    /// Looks taken (1 for a fixed plan).
    pub looks: u32,
    /// `α` used by the deciding (last) look of this row.
    pub alpha_look: f64,
    /// For an inconclusive row: projected total runs that would likely decide it (if the
    /// observed frequencies persist).
    pub runs_to_decide: Option<u64>,
    /// `runs_to_decide − runs`: how many more runs would likely decide it.
    pub more_runs: Option<u64>,
    /// Mean `τ` over stopped runs (NaN when none stopped).
    pub mean_tau: f64,
    /// Largest `τ` over all runs.
    pub max_tau: u64,
    /// The step cap of its runs (a run reaching it is unstopped): the audit's `max_steps`, or
    /// for a search's confirmation the instance's own cap from `T*(ν)·log(1/δ)`
    /// ([`crate::audit::search::rank::step_cap`]).
    pub step_cap: u64,
    /// Why the instance was skipped (the algorithm rejected it), if it was.
    pub skipped: Option<String>,
}

/// The whole audit.
#[derive(Debug, Clone, Serialize)]
pub struct DeltaReport {
    /// Algorithm name.
    pub algo: String,
    /// The threshold expression, if any.
    pub threshold: Option<String>,
    /// The sampling rule of the runs.
    pub sampling: crate::bandit::Sampling,
    /// Overall verdict.
    pub verdict: Verdict,
    /// Total runs.
    pub runs: u64,
    /// Total errors.
    pub errors: u64,
    /// Total unstopped runs.
    pub unstopped: u64,
    /// Interval of the worst row (the only row for a single instance).
    pub ci: [f64; 2],
    /// `1 − α` of the whole audit.
    pub confidence: f64,
    /// `α` per instance (`α/m`).
    pub alpha_per_instance: f64,
    /// Master seed.
    pub seed: u64,
    /// Step cap.
    pub max_steps: u64,
    /// Rows, worst first.
    pub instances: Vec<DeltaRow>,
    /// Wall-clock seconds.
    pub seconds: f64,
}
