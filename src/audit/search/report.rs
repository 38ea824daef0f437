//! What a search returns: the trace rows, the report, and the REPORT.md rows.

use super::{Budget, SearchSpace};
use crate::audit::delta::DeltaReport;
use crate::audit::Verdict;
use serde::Serialize;

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
    /// Overall verdict (of the confirmation).
    pub verdict: Verdict,
    /// Worst instance found (first row of the confirmation).
    pub worst_means: Vec<f64>,
    /// Its `ε`.
    pub worst_eps: Option<f64>,
    /// Its hardness.
    pub worst_hardness: f64,
    /// Its error-rate interval from the confirmation.
    pub worst_ci: [f64; 2],
    /// Its error frequency in the confirmation.
    pub worst_error_rate: f64,
    /// Multiple-testing correction used.
    pub correction: String,
    /// Power statement.
    pub power: String,
    /// The confirmation audit (fresh seeds).
    pub confirmation: DeltaReport,
    /// Every evaluation.
    pub trace: Vec<TraceRow>,
    /// Instances evaluated by the search.
    pub evaluations: usize,
    /// Samples drawn by the search (confirmation excluded).
    pub search_samples: u64,
    /// Seconds of the search.
    pub search_seconds: f64,
    /// Seconds in total.
    pub seconds: f64,
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
            r.delta,
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
