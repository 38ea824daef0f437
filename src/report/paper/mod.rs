//! The paper's experiments: the grid of Section 5 / App. I ([`grid`]), its Monte Carlo cells
//! ([`experiments`]), the builders of the paper's figures from plain numbers ([`builders`]) and
//! their rendering from a finished grid ([`figures`]).

mod allocation;
pub mod builders;
pub mod experiments;
pub mod figures;
pub mod grid;
pub mod long_runs;
