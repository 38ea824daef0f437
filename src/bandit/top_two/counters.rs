//! [`Counters`]: the global counts of Alg. 1 that every rule reads.

/// The global counters of Alg. 1 (READINGS.md §D.0), which every rule but the estimates reads.
#[derive(Debug, Clone)]
pub(crate) struct Counters {
    /// Global counts `N_a` (samples of arm `a`).
    pub n: Vec<u64>,
    /// `1/N_a`.
    pub inv_n: Vec<f64>,
    /// `L_a`: the number of steps at which `a` was the leader.
    pub leader_rounds: Vec<u64>,
    /// `N^a_a`: the number of those steps at which the leader `a` was pulled (β-tracking
    /// pulls the leader iff `N^a_a <= β (L_a + 1)`).
    pub leader_pulls: Vec<u64>,
    /// IDS cumulative proportion `Σ_t β_t` of each arm as leader (D.9).
    pub ids_sum: Vec<f64>,
    /// Samples drawn.
    pub t: u64,
}
