//! The report layer: figures (plotters) and, later, the REPORT.md blocks. With the CLI, the only
//! layer that does I/O.
//!
//! * [`figure`]: the data model of a figure and its renderer (PNG + SVG + JSON sidecar);
//! * [`figures`]: builders of the paper's figures from plain numbers.

pub mod figure;
pub mod figures;
