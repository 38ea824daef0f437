//! Reporting layer: the paper's claims (checked), REPORT.md generated blocks, figures.
//!
//! Laid out as the report is (no sibling imports a later one); the figures are drawn by
//! [`crate::plot`], which knows nothing about the papers:
//! * [`paper`]: the builders of the paper's figures and their rendering from a grid of cells;
//! * [`markdown`], [`blocks`]: REPORT.md's generated blocks;
//! * [`bai25`]: REPORT-BAI25.md, the second paper's report;
//! * [`study`]: the figures and SUMMARY.md of users' own studies (`dpbai experiment`).
//!
//! The report reads cells; it never defines, caches or seeds them: that is the experiment layer
//! ([`crate::experiment`]).

pub mod bai25;
pub mod blocks;
pub mod findings;
pub mod markdown;
pub mod paper;
pub mod study;
pub mod verify;
