//! Auditors: δ-correctness of stopping rules ([`delta`]) and ε-DP of mechanisms and algorithms
//! ([`dp`]), and their searches; the thresholds they audit, the expression language of
//! `--threshold` and the proofs by dominance are the threshold layer's ([`crate::threshold`]).
//!
//! Both audits end in a [`Verdict`] backed by exact Clopper–Pearson bounds
//! ([`crate::stats`], wrapped in [`ci`]) at a stated confidence `1 − α` (default
//! `α = 1e-3`). Command lines (`dpbai audit --help`):
//! ```text
//! dpbai audit delta --algo ttucb --battery default --delta 0.01 --threshold "log(1/delta)/20"
//! dpbai audit delta --algo adap-tt --battery default --delta 0.01 --eps 0.5 \
//!     --threshold unsafe-adap-tt-no-privacy --until-decided --first 100 --budget 1000
//! dpbai audit delta --list-presets
//! dpbai audit dp --mutant laplace-half-scale [--mode blackbox]
//! dpbai audit dp --algo adap-tt --eps 1
//! dpbai audit dp --list-mutants
//! ```

pub mod ci;
pub mod custom;
pub mod delta;
pub mod dp;
pub mod dp_search;
pub mod proof;
pub mod search;

use serde::Serialize;

/// Outcome of an audit (δ-correctness or ε-DP). (A claim of the paper checked by `verify` has
/// its own outcome: [`crate::claims::ClaimVerdict`].)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The guarantee is certified at the stated confidence.
    Holds,
    /// The guarantee is certified to fail at the stated confidence.
    Violated,
    /// Neither could be certified.
    Inconclusive,
    /// A black-box privacy audit found no violation: it never certifies privacy, only a lower
    /// bound on the loss (printed with it, e.g. "ε ≥ 0.945 certified"). The same words as a
    /// worst-case search that finds nothing ([`search::SearchVerdict::NoViolationFound`]).
    #[serde(rename = "no violation found")]
    NoViolationFound,
}

impl Verdict {
    /// Lower-case name, as printed and in JSON.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Violated => "violated",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NoViolationFound => "no violation found",
        }
    }
    /// Sort key, worst first (violated < inconclusive < no violation found < holds).
    pub fn severity_rank(&self) -> u8 {
        match self {
            Verdict::Violated => 0,
            Verdict::Inconclusive => 1,
            Verdict::NoViolationFound => 2,
            Verdict::Holds => 3,
        }
    }
    /// The verdict as printed, with what a black-box privacy audit certified: `no violation
    /// found (ε ≥ 0.945 certified)`; any other verdict alone.
    pub fn with_certified(&self, eps_lower: f64) -> String {
        match self {
            Verdict::NoViolationFound => format!("{self} (ε ≥ {eps_lower:.3} certified)"),
            _ => self.to_string(),
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
