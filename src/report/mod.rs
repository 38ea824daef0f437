//! Reporting layer: the paper's claims (checked), REPORT.md generated blocks, figures.
//!
//! Laid out as the report is (no sibling imports a later one):
//! * [`plot`]: the data model of a figure, its style, axes, drawing and legend (PNG + SVG +
//!   JSON sidecar); knows nothing about the paper;
//! * [`paper`]: the experiment grid, its cells, and the builders of the paper's figures;
//! * [`claims`]: the claim protocol (verify/protocol.toml) and one module per claim group;
//! * [`markdown`], [`blocks`]: REPORT.md's generated blocks;
//! * [`study`]: users' own studies (`dpbai experiment`), on the cells of [`paper`].
//!
//! `grid` and `experiments` are re-exported at this level for callers written before the
//! reshape.

pub mod audit_search;
pub mod blocks;
pub mod claims;
pub mod markdown;
pub mod numbers;
pub mod paper;
pub mod plot;
pub mod study;

pub use paper::{experiments, grid};
