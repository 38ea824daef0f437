//! What a search returns: the trace rows, the report, and the REPORT.md rows.

use super::config::Budget;
use super::space::SearchSpace;
use crate::audit::delta::DeltaRow;
use serde::Serialize;

/// The answer of a search: a violation confirmed on fresh seeds, or none found. A search never
/// answers `holds`: that is reserved for a proof (`audit delta --dominates`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SearchVerdict {
    /// A confirmed instance's error probability exceeds its `δ` (at confidence `1 − α`).
    #[serde(rename = "violated")]
    Violated,
    /// No confirmed violation; see the report's power statement for what was searched.
    #[serde(rename = "no violation found")]
    NoViolationFound,
    /// Not one confirmation run was made (the budget ran out or the search was interrupted
    /// first): the search says nothing, and is not a pass.
    #[serde(rename = "undecided")]
    Undecided,
}

impl SearchVerdict {
    /// As printed and in JSON.
    pub fn as_str(&self) -> &'static str {
        match self {
            SearchVerdict::Violated => "violated",
            SearchVerdict::NoViolationFound => "no violation found",
            SearchVerdict::Undecided => "undecided",
        }
    }
}

impl std::fmt::Display for SearchVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What one stage of a search drew.
#[derive(Debug, Clone, Serialize)]
pub struct Stage {
    /// `screening`, `nelder-mead` or `confirmation`.
    pub name: String,
    /// Samples drawn (sum of run lengths, capped runs at their cap).
    pub samples: u64,
    /// Candidates evaluated.
    pub evaluations: usize,
    /// Runs done.
    pub runs: u64,
}

/// One evaluated candidate (a row of the search trace).
#[derive(Debug, Clone, Serialize)]
pub struct TraceRow {
    /// Evaluation number.
    pub eval: usize,
    /// `screen-<round>`, `nelder-mead`, or `confirm`.
    pub stage: String,
    /// Number of arms.
    pub k: usize,
    /// Means, `;`-separated.
    pub means: String,
    /// `μ₁ − μ₂`.
    pub gap: f64,
    /// `ε` (NaN when not private).
    pub eps: f64,
    /// `T*(ν)·log(1/δ)`.
    pub hardness: f64,
    /// Runs of this evaluation (cumulative for a candidate in successive halving).
    pub runs: u64,
    /// Wrong stops.
    pub errors: u64,
    /// Capped runs.
    pub unstopped: u64,
    /// `errors / runs`.
    pub error_rate: f64,
    /// Mean `τ` over stopped runs (NaN when none).
    pub mean_tau: f64,
    /// Samples drawn by the search so far.
    pub samples: u64,
    /// Seconds since the start.
    pub seconds: f64,
    /// `δ` of the candidate.
    pub delta: f64,
    /// Its family.
    pub family: String,
    /// Configuration of its other arms.
    pub shape: String,
}

/// Result of a search.
#[derive(Debug, Clone, Serialize)]
pub struct SearchReport {
    /// Algorithm name.
    pub algo: String,
    /// Threshold (expression text or `None` for the algorithm's own).
    pub threshold: Option<String>,
    /// `δ`.
    pub delta: f64,
    /// The declared space.
    pub space: SearchSpace,
    /// The budget.
    pub budget: Budget,
    /// `violated` (confirmed) or `no violation found`.
    pub verdict: SearchVerdict,
    /// Worst instance found (first row of the confirmation).
    pub worst_means: Vec<f64>,
    /// Its `ε`.
    pub worst_eps: Option<f64>,
    /// Its `δ`.
    pub worst_delta: f64,
    /// Its family.
    pub worst_family: String,
    /// The configuration of its other arms.
    pub worst_shape: String,
    /// Its hardness.
    pub worst_hardness: f64,
    /// Its error-rate interval from the confirmation.
    pub worst_ci: [f64; 2],
    /// Its error frequency in the confirmation.
    pub worst_error_rate: f64,
    /// Multiple-testing correction used.
    pub correction: String,
    /// What the verdict rests on: the confirmation's counts and interval (violated), or what
    /// was searched and the power against it (no violation found).
    pub confirmation_statement: String,
    /// Power statement.
    pub power: String,
    /// The confirmation rows (fresh seeds), worst first.
    pub confirmation: Vec<DeltaRow>,
    /// Every evaluation.
    pub trace: Vec<TraceRow>,
    /// Samples per stage.
    pub stages: Vec<Stage>,
    /// Screening points seeded from the threshold's own expression.
    pub seeds: usize,
    /// Instances evaluated by the search.
    pub evaluations: usize,
    /// Samples drawn by the search (confirmation excluded).
    pub search_samples: u64,
    /// Seconds of the search.
    pub search_seconds: f64,
    /// Samples drawn in total (at most the budget when it is in samples).
    pub samples: u64,
    /// Seconds in total.
    pub seconds: f64,
    /// Whether the search was interrupted (the result is partial).
    pub interrupted: bool,
}

/// Markdown rows for a REPORT.md block: one row per search (threshold, algorithm, verdict,
/// worst instance, its CI, evaluations, samples drawn by the search: deterministic for a
/// sample budget, whatever the thread count).
///
/// # Example
/// ```
/// let s = dpbai::audit::search::report_rows(&[]);
/// assert!(s.starts_with("| threshold |"));
/// ```
pub fn report_rows(reports: &[SearchReport]) -> String {
    let mut out = String::from(
        "| threshold | algo | delta | verdict | worst instance (K; means) | eps | error rate [CI] | hardness T*log(1/delta) | evaluations | search samples |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in reports {
        let means = r
            .worst_means
            .iter()
            .map(|m| format!("{m:.3}"))
            .collect::<Vec<_>>();
        let shown = if means.len() > 4 {
            format!("{}, … ({} arms)", means[..4].join(", "), means.len())
        } else {
            means.join(", ")
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | K={}; {} | {} | {:.4} [{:.2e}, {:.2e}] | {:.3e} | {} | {:.2e} |\n",
            r.threshold.as_deref().unwrap_or("(algorithm's own)"),
            r.algo,
            crate::error::compact_number(r.delta),
            r.verdict,
            r.worst_means.len(),
            shown,
            r.worst_eps.map(|e| format!("{e:.3}")).unwrap_or_else(|| "-".into()),
            r.worst_error_rate,
            r.worst_ci[0],
            r.worst_ci[1],
            r.worst_hardness,
            r.evaluations,
            r.search_samples as f64,
        ));
    }
    out
}
