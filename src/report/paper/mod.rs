//! The paper's figures: the builders of Figures 1–5 and the allocation figure from plain numbers
//! ([`builders`]; their data in `data`, their series in `series`), the panels from a finished
//! grid of cells (`panels`; the grid itself is [`crate::experiment::grid`]), the captions'
//! sentences ([`captions`]) and the rendering of every figure `verify` writes ([`figures`]).

pub(crate) mod allocation;
pub mod builders;
pub mod captions;
mod data;
pub mod figures;
mod panels;
mod series;
