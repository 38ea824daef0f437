//! A judged claim ([`ClaimResult`]: its declaration's fields, what its check computed and its
//! [`ClaimVerdict`]).

use serde::Serialize;
use std::collections::BTreeMap;

/// Outcome of checking one claim of the paper against its protocol rule. (An audit's outcome,
/// `holds`/`violated`/`inconclusive`, is the other meaning: [`crate::audit::Verdict`].)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimVerdict {
    /// The claim holds as printed.
    Confirmed,
    /// The claim does not hold as printed; the evidence gives the counter-example or corrected value.
    Refuted,
    /// The claim holds under the reading adopted in READINGS.md §R.
    ConfirmedAsCorrected,
    /// The evidence cannot decide at the protocol's confidence; the note says what would.
    Inconclusive,
    /// The claim cannot be checked (an error on its path, or by its nature); the note says why.
    NotCheckable,
}

impl ClaimVerdict {
    /// The spelling used in REPORT.md and `verify/expected.toml`.
    pub fn as_str(&self) -> &'static str {
        match self {
            ClaimVerdict::Confirmed => "confirmed",
            ClaimVerdict::Refuted => "refuted",
            ClaimVerdict::ConfirmedAsCorrected => "confirmed as corrected",
            ClaimVerdict::Inconclusive => "inconclusive",
            ClaimVerdict::NotCheckable => "not checkable",
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
    /// The acceptance rule, in words.
    pub rule: String,
    /// The statistics the rule reads.
    pub statistics: BTreeMap<String, f64>,
    /// What we computed (values, with their uncertainty where empirical).
    #[serde(rename = "evidence")]
    pub computed: String,
    /// The verdict, computed by the rule from the statistics.
    pub verdict: ClaimVerdict,
    /// Why the claim is not checkable, or what would decide it when inconclusive.
    pub note: String,
    /// The evidence areas its check called ([`crate::fault::take_touched`]), derived, not
    /// declared.
    pub areas: Vec<crate::fault::Area>,
    /// Statistics as the check returned them (before the rule).
    #[serde(skip)]
    pub raw: Vec<(&'static str, f64)>,
    /// False when the check was skipped (its inputs were not computed, e.g. `--no-experiments`);
    /// `--check` ignores such claims.
    #[serde(skip)]
    pub ran: bool,
}

impl ClaimResult {
    /// The verdict with its note, as REPORT.md prints it.
    pub fn verdict_text(&self) -> String {
        if self.note.is_empty() {
            self.verdict.as_str().to_string()
        } else {
            format!("{} ({})", self.verdict.as_str(), self.note)
        }
    }
}

/// A boolean as a 0/1 statistic.
pub fn flag(b: bool) -> f64 {
    if b { 1.0 } else { 0.0 }
}
