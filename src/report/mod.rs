//! Reporting layer: the paper's claims (checked), REPORT.md generated blocks, figures.
//!
//! * [`figure`]: the data model of a figure and its renderer (PNG + SVG + JSON sidecar);
//! * [`figures`]: builders of the paper's figures from plain numbers.

pub mod blocks;
pub mod claims;
mod claims_audit;
mod claims_bounds;
mod claims_empirical;
mod claims_numeric;
mod claims_thresholds;
pub mod claims_trace;
mod claims_upper;
pub mod experiments;
pub mod figure;
pub mod figures;
pub mod grid;
pub mod markdown;
pub mod paper_figures;
