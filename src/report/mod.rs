//! Reporting layer: the paper's claims (checked), REPORT.md generated blocks, figures.

pub mod claims;
mod claims_numeric;
pub mod markdown;
