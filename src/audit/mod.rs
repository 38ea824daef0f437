//! Auditors: δ-correctness of stopping rules ([`delta`]) and ε-DP of mechanisms and algorithms
//! ([`dp`]), with the threshold expression language of `--threshold` ([`expr`]).
//!
//! Both audits end in a [`Verdict`] backed by exact Clopper–Pearson bounds
//! ([`crate::mc::stats`]) at a stated confidence.

pub mod ci;
pub mod delta;
pub mod dp;
pub mod expr;

use serde::Serialize;

/// Outcome of an audit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The guarantee is certified at the stated confidence.
    Holds,
    /// The guarantee is certified to fail at the stated confidence.
    Violated,
    /// Neither could be certified.
    Inconclusive,
}

impl Verdict {
    /// Lower-case name, as printed and in JSON.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Violated => "violated",
            Verdict::Inconclusive => "inconclusive",
        }
    }
    /// Sort key, worst first (violated < inconclusive < holds).
    pub fn severity_rank(&self) -> u8 {
        match self {
            Verdict::Violated => 0,
            Verdict::Inconclusive => 1,
            Verdict::Holds => 2,
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
