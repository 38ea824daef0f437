//! The Top Two meta-algorithm (Alg. 1, READINGS.md §D.2) with plug-in estimator, bonus, costs,
//! threshold, leader, challenger and tracking rules, and the phase-skipping fast path of the
//! DAF/DPA estimators.
//!
//! # One loop, three reward sources
//! [`run_loop()`] runs Alg. 1 step by step. Rewards come from the instance (one draw per pull),
//! from a reward table (Definition 8), or — for phased estimators (DAF, DPA) only — lazily:
//! between two phase switches of an arm its released estimate is frozen, and no decision reads
//! the raw rewards, so the rewards of a phase need not be drawn one by one: at the switch their
//! sum is drawn at once (one `Binomial(Ñ, μ_a)` for Bernoulli arms, one Normal for Gaussian
//! arms). The action sequence is the same deterministic function of the released estimates in
//! both modes, so (τ, recommendation) has the same law; `tests/bandit.rs` checks this by a
//! two-sample test. The lazy mode draws random numbers only at phase ends (plus coin flips of
//! the reference rules) and skips whole stretches of deterministic steps ([`skip_steps`](fast_paths::skip_steps)).
//!
//! # Layout
//! * [`arms`]: the reward model (one draw per pull, or a phase's sum in one draw);
//! * [`estimators`]: the estimators and their per-arm state [`Estimates`];
//! * [`rules`]: leader, challenger and tracking rules, as traits with a `# Contract` each;
//! * [`fast_paths`]: the exact shortcuts of the phase-skipping path;
//! * [`rotation_leap`]: proved windows of a challenger rotation's picks at once, exactly;
//! * [`run_loop`](mod@run_loop): the loop itself.

use crate::bandit::outcome::RewardTable;
use crate::bandit::rules::Cost;
use crate::threshold::paper::StoppingThreshold;

pub(crate) mod arms;
mod counters;
pub(crate) mod estimators;
pub(crate) mod fast_paths;
pub(crate) mod incremental;
pub(crate) mod mle_path;
mod rotation_leap;
pub(crate) mod rules;
pub(crate) mod run_loop;

pub(crate) use arms::Arms;
pub(crate) use counters::Counters;
pub(crate) use estimators::{Estimates, Estimator, Mle, Phased};
#[cfg(test)]
pub(crate) use fast_paths::tracked_leader_pulls;
#[cfg(test)]
pub(crate) use rotation_leap::LEAPED_PICKS;
pub(crate) use rules::StopArm;
pub(crate) use run_loop::{RunOptions, run_loop};

/// Everything of a Top Two algorithm but its estimator: the leader, challenger and tracking
/// rules (as types, see [`rules`]), the stopping statistic and threshold.
#[derive(Debug)]
pub(crate) struct Config<L, C, T> {
    /// Command-line name.
    pub name: &'static str,
    /// Number of arms `K`.
    pub k: usize,
    /// Leader rule (L).
    pub leader: L,
    /// Challenger rule (C), with its transport cost.
    pub challenger: C,
    /// Tracking rule (T).
    pub tracking: T,
    /// The cost of the stopping statistic `W_{â,b}(μ̃, Ñ)`.
    pub stop_cost: Cost,
    /// The stopping threshold `c_{â,b}`.
    pub thr: StoppingThreshold,
    /// Which arm is tested.
    pub stop_arm: StopArm,
    /// Uniform tie-breaking (else lowest index).
    pub tie_uniform: bool,
}

/// Hooks for invariant tests (no-ops in production).
pub(crate) trait Observer {
    /// After each pull of the main loop: leader `b`, challenger `c`, pulled `a`.
    fn step(&mut self, _counters: &Counters, _est: &Estimates, _b: usize, _c: usize, _a: usize) {}
    /// After step (E) of an iteration.
    fn after_switch(&mut self, _counters: &Counters, _est: &Estimates, _switched: bool) {}
    /// Whether the observer needs no per-step hook, so that the loop may skip deterministic work
    /// (computing an unused challenger, or a whole run of steps at once).
    fn passive(&self) -> bool {
        false
    }
}

/// The no-op observer (lets the loop take every shortcut).
pub(crate) struct NoObs;
impl Observer for NoObs {
    fn passive(&self) -> bool {
        true
    }
}

/// A no-op observer that forces the loop to do every step one by one (the reference the
/// shortcuts are tested against).
#[cfg(test)]
pub(crate) struct DenseObs;
#[cfg(test)]
impl Observer for DenseObs {}

/// Where the rewards of a run come from.
pub(crate) enum RewardSource<'a> {
    /// One draw from the arm model per pull.
    PerPull(&'a Arms),
    /// Phased estimators only: the rewards of a phase are drawn as one sum at the phase switch
    /// ([`Arms::sum_draw`]); same law of the released estimates, see the module doc.
    PhaseSums(&'a Arms),
    /// Row `t` of a reward table (Definition 8) at time `t + 1`.
    Table(&'a RewardTable),
}
