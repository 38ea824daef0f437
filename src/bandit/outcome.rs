//! What a run of a BAI algorithm returns ([`RunOutcome`], [`TableOutput`]) and the contract every
//! algorithm meets ([`BaiAlgorithm`]).

use crate::rng::Rng;
use serde::{Deserialize, Serialize};

/// Outcome of one run of a BAI algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunOutcome {
    /// `τ`: number of samples actually drawn, including the `K` initial ones (READINGS.md R.9).
    /// For an unstopped run, the samples drawn before the cap.
    pub tau: u64,
    /// Recommended arm (0-based); for an unstopped run, the arm recommended at the cap.
    pub recommendation: usize,
    /// `false` when the run hit `max_steps` without stopping (reported, never dropped).
    pub stopped: bool,
    /// Rounds of adaptivity `C(τ)` where defined (DAF/DPA: number of released means; DP-SE:
    /// epochs), else `None`.
    pub rounds: Option<u64>,
}

/// A reward table (Definition 8): row `t` holds the potential rewards of user `t` for every arm,
/// so `table[t][a]` is the reward observed if arm `a` is pulled at time `t + 1`.
pub type RewardTable = Vec<Vec<f64>>;

/// The full observable output of a run on a reward table (Definition 8): the action sequence,
/// the recommendation and the stopping time.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TableOutput {
    /// Arms pulled, in order (0-based); its length is `τ`.
    pub actions: Vec<u32>,
    /// Recommended arm (0-based).
    pub recommendation: usize,
    /// `false` if the table ran out of rows (or `max_steps` was hit) before stopping.
    pub stopped: bool,
}

/// A BAI algorithm bound to an instance and its parameters.
///
/// # Contract
/// `run(rng, max_steps)` simulates one independent trajectory drawing all randomness (rewards
/// and privacy noise) from `rng`, stops by its own rule or when `τ` would exceed `max_steps`
/// (then `stopped = false`), and never panics. The same `rng` state gives the same outcome.
/// `run_on_table` does the same with rewards read from a fixed table (only the privacy noise
/// comes from `rng`); algorithms that do not support it return `None`.
pub trait BaiAlgorithm: Send + Sync {
    /// Stable name, as on the command line (`ttucb`, `ctb-tt`, ...).
    fn name(&self) -> &str;
    /// One run on the bound instance.
    fn run(&self, rng: &mut Rng, max_steps: u64) -> RunOutcome;
    /// One run on a reward table (Definition 8), for black-box privacy audits.
    fn run_on_table(&self, _table: &RewardTable, _rng: &mut Rng) -> Option<TableOutput> {
        None
    }
}
