//! The paper's numeric claims (shared/spec/CLAIMS.md, F.1 … F.66), each checked by a function.
//!
//! A check computes values with the library (never pasted numbers), compares them with the
//! paper's statement and returns a [`Verdict`]. `dpbai verify` runs every check, writes the
//! results into REPORT.md's generated blocks and compares the verdicts with
//! `verify/expected.toml` (`--check`).

use serde::Serialize;
use std::collections::BTreeMap;

mod audit;
mod bounds;
mod empirical;
mod numeric;
mod thresholds;
pub mod trace;
mod upper;

pub use crate::report::numbers::{lin_grid, log_grid, sig};
pub use crate::report::paper::grid::paper_instances;

/// Outcome of checking one claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The claim holds as printed.
    Confirmed,
    /// The claim does not hold as printed; the note gives the counter-example or corrected value.
    Refuted,
    /// The claim holds under the reading adopted in MATH.md section H.
    ConfirmedAsCorrected,
    /// The claim cannot be checked numerically; the note says why.
    NotCheckable,
}

impl Verdict {
    /// The spelling used in REPORT.md and `verify/expected.toml`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Confirmed => "confirmed",
            Verdict::Refuted => "refuted",
            Verdict::ConfirmedAsCorrected => "confirmed as corrected",
            Verdict::NotCheckable => "not checkable",
        }
    }
}

/// The result of one claim check.
#[derive(Debug, Clone, Serialize)]
pub struct ClaimResult {
    /// Claim ID, e.g. `F.1`.
    pub id: &'static str,
    /// Short title.
    pub title: &'static str,
    /// Where the paper states it.
    pub source: &'static str,
    /// The paper's statement, briefly.
    pub paper: String,
    /// What we computed (values, with their uncertainty where empirical).
    pub computed: String,
    /// The verdict.
    pub verdict: Verdict,
    /// False when the check was skipped (its inputs were not computed, e.g. `--no-experiments`);
    /// `--check` ignores such claims.
    #[serde(skip)]
    pub ran: bool,
}

/// Shared inputs of the checks (profile, caches of expensive computations).
#[derive(Debug, Default)]
pub struct Context {
    /// `true` for the `paper` profile (full grids), `false` for `quick`.
    pub full: bool,
    /// Named numeric results other parts of the report reuse (e.g. Monte Carlo summaries).
    pub values: BTreeMap<String, f64>,
    /// Monte Carlo results of the experiment grid (None with `--no-experiments`).
    pub grid: Option<crate::report::paper::grid::GridResults>,
    /// Whether Monte Carlo checks (grid, traced runs, audits) may run (`--no-experiments` clears it).
    pub experiments: bool,
    /// Traced runs (computed on first use by the trajectory claims).
    pub traces: Option<trace::Traces>,
}

/// A claim check.
pub type Check = fn(&mut Context) -> ClaimResult;

/// The result of a check that was skipped because its Monte Carlo inputs were not computed
/// (`verify --no-experiments`); `--check` ignores it.
pub fn skipped(
    id: &'static str,
    title: &'static str,
    source: &'static str,
    paper: &str,
) -> ClaimResult {
    ClaimResult {
        ran: false,
        ..claim(
            id,
            title,
            source,
            paper,
            "not run: `verify --no-experiments`",
            Verdict::NotCheckable,
        )
    }
}

/// Builds a [`ClaimResult`] of a check that ran.
pub fn claim(
    id: &'static str,
    title: &'static str,
    source: &'static str,
    paper: impl Into<String>,
    computed: impl Into<String>,
    verdict: Verdict,
) -> ClaimResult {
    ClaimResult {
        id,
        title,
        source,
        paper: paper.into(),
        computed: computed.into(),
        verdict,
        ran: true,
    }
}

/// `Confirmed` if `holds`, else `Refuted`.
pub fn verdict_of(holds: bool) -> Verdict {
    if holds {
        Verdict::Confirmed
    } else {
        Verdict::Refuted
    }
}

/// Golden-section minimisation of a unimodal `f` on `[a, b]`; returns `(argmin, min)`.
pub fn golden_min(f: impl Fn(f64) -> f64, mut a: f64, mut b: f64, iters: usize) -> (f64, f64) {
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..iters {
        let c = b - r * (b - a);
        let d = a + r * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    let x = 0.5 * (a + b);
    (x, f(x))
}

/// Every claim check, in ID order.
pub fn all_checks() -> Vec<Check> {
    let mut v = numeric::checks();
    v.extend(bounds::checks());
    v.extend(thresholds::checks());
    v.extend(empirical::checks());
    v.extend(upper::checks());
    v.extend(audit::checks());
    v.extend(trace::checks());
    v
}

/// Runs every check.
pub fn run_all(ctx: &mut Context) -> Vec<ClaimResult> {
    let mut out: Vec<ClaimResult> = all_checks().into_iter().map(|c| c(ctx)).collect();
    out.sort_by_key(|r| id_key(r.id));
    out
}

/// Sort key of a claim ID (`F.7` before `F.10`).
pub fn id_key(id: &str) -> u32 {
    id.trim_start_matches("F.").parse().unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_order() {
        assert!(id_key("F.7") < id_key("F.10"));
    }
}
