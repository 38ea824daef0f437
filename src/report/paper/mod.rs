//! The paper's figures: the builders of Figures 1–5 and the allocation figure from plain numbers
//! ([`builders`]) and their rendering from a finished grid of cells ([`figures`]; the grid
//! itself is [`crate::experiment::grid`]).

mod allocation;
pub mod builders;
pub mod figures;
