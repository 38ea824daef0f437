//! Reporting layer: the paper's claims (checked), REPORT.md generated blocks, figures.
//!
//! * [`figure`]: the data model of a figure and its renderer (PNG + SVG + JSON sidecar);
//! * [`figures`]: builders of the paper's figures from plain numbers.

pub mod claims;
mod claims_numeric;
pub mod figure;
pub mod figures;
pub mod markdown;
