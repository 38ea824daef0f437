//! The outputs of an algorithm on a pair of neighbouring reward tables: the features of each run
//! ([`crate::audit::dp::table_features`]) on both tables, run `r` seeded from `(seed, table, r)`,
//! shared by the screening and the confirmation of the search.

use crate::audit::dp::table_features;
use crate::bandit::{BaiAlgorithm, RewardTable};
use crate::rng::{mix64, rng_for_run};
use rayon::prelude::*;

/// The features of runs `runs` of `alg` on `d` and on `d2`.
pub(super) fn outputs(
    alg: &dyn BaiAlgorithm,
    d: &RewardTable,
    d2: &RewardTable,
    seed: u64,
    runs: std::ops::Range<u64>,
) -> (Vec<Vec<u64>>, Vec<Vec<u64>>) {
    let run = |tab: &RewardTable, input: u64| -> Vec<Vec<u64>> {
        runs.clone()
            .into_par_iter()
            .map(|r| {
                table_features(alg.run_on_table(tab, &mut rng_for_run(mix64(seed ^ input), r)))
            })
            .collect()
    };
    (run(d, 0), run(d2, 1))
}
