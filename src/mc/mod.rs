//! Seeded, parallel, shardable Monte Carlo engine and its summaries.

pub mod stats;
