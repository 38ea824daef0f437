//! The paper's numeric claims (docs/CLAIMS.md, F.1 … F.66).
//!
//! A check gathers evidence with the library (never pasted numbers) and returns named
//! statistics; the claim protocol (`verify/protocol.toml`, [`protocol`]) turns them into the
//! [`ClaimVerdict`] by the claim's rule. `dpbai verify` runs every check, writes the results into
//! REPORT.md's generated blocks and compares the verdicts with `verify/expected.toml`
//! (`--check`).
//!
//! # Failure is never success
//! Evidence gathering records every error it meets (a solver error, a missing cell, an injected
//! fault) in the [`Evidence`] log its [`Context`] holds, instead of hiding it behind a NaN; a check with a recorded
//! error, or a statistic that is missing or not finite, is `not checkable (error: …)`.
//!
//! # Fault injection
//! `DPBAI_INJECT_FAULT=<area>` (`solver`, `special`, `mc`, `audit`), read by `dpbai verify` only
//! and passed in [`Context::fault`], is injected by [`run_all`] into the area's own entry points
//! ([`crate::fault`]) for the whole evidence gathering: every call into that area fails, so no
//! claim on such a path can be `confirmed`, and no check has to remember to ask. Each claim
//! declares in `verify/protocol.toml` the areas it uses; `scripts/fault-areas.py` checks that
//! the claims a fault moves are exactly those that declare its area.

use serde::Serialize;
use std::cell::RefCell;
use std::collections::BTreeMap;

mod audit;
mod bounds;
mod empirical;
mod numeric;
pub mod protocol;
pub mod public;
mod thresholds;
pub mod trace;
mod upper;

pub use crate::experiment::grid::paper_instances;
pub use crate::report::numbers::{lin_grid, log_grid, sig};

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

/// Named statistics of a check, in the order the check computed them.
pub type Stats = Vec<(String, f64)>;

/// Builds [`Stats`] from `(name, value)` pairs.
pub fn stats<const N: usize>(v: [(&str, f64); N]) -> Stats {
    v.into_iter().map(|(n, x)| (n.to_string(), x)).collect()
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
    /// The acceptance rule, from the protocol.
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
    /// Statistics as the check returned them (before the rule).
    #[serde(skip)]
    pub raw: Stats,
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

pub use crate::fault::Area;

/// The errors met while gathering one check's evidence (a solver error, a missing cell, an
/// injected fault), held by the [`Context`] the check reads: [`run_all`] empties it before each
/// check and hands what the check recorded to [`judge`]. Interior mutability lets a check record
/// while it holds shared borrows of the context's other inputs (its grid, its traces).
#[derive(Debug, Default)]
pub struct Evidence {
    errors: RefCell<Vec<String>>,
}

impl Evidence {
    /// Records an error met while gathering the current check's evidence.
    pub fn record(&self, msg: impl Into<String>) {
        self.errors.borrow_mut().push(msg.into());
    }

    /// The value of a solver result; an error (or an injected solver fault) is recorded and
    /// gives NaN, which the rule then refuses.
    pub fn solved(&self, r: crate::Result<crate::complexity::Certified>) -> f64 {
        self.value(Area::Solver, r.map(|c| c.value))
    }

    /// A solver result, or `None` with the error (or an injected solver fault) recorded.
    pub fn certified(
        &self,
        r: crate::Result<crate::complexity::Certified>,
    ) -> Option<crate::complexity::Certified> {
        r.map_err(|e| self.record(e.to_string())).ok()
    }

    /// The value of a fallible computation in `area`; an error (or an injected fault) is
    /// recorded and gives NaN.
    pub fn value(&self, area: Area, r: crate::Result<f64>) -> f64 {
        match r {
            Ok(x) if x.is_nan() => {
                self.record(format!("{} returned NaN", area.as_str()));
                x
            }
            Ok(x) => x,
            Err(e) => {
                self.record(e.to_string());
                f64::NAN
            }
        }
    }

    /// The errors recorded since the last call, leaving the log empty.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.errors.borrow_mut())
    }
}

/// Shared inputs of the checks (profile, caches of expensive computations).
#[derive(Debug, Default)]
pub struct Context {
    /// `true` for the `paper` profile (full grids), `false` for `quick`.
    pub full: bool,
    /// Named numeric results other parts of the report reuse (e.g. Monte Carlo summaries).
    pub values: BTreeMap<String, f64>,
    /// Monte Carlo results of the experiment grid (None with `--no-experiments`).
    pub grid: Option<crate::experiment::grid::GridResults>,
    /// Whether Monte Carlo checks (grid, traced runs, audits) may run (`--no-experiments` clears it).
    pub experiments: bool,
    /// Traced runs (computed on first use by the trajectory claims).
    pub traces: Option<trace::Traces>,
    /// Area into which `DPBAI_INJECT_FAULT` injects a fault (verify's evidence gathering only).
    pub fault: Option<Area>,
    /// The control cells of the Findings (case 2, starvation, DPA live counts), which some
    /// claims use as evidence (F.41's global-episode half: the live-count DPA control).
    pub controls: crate::experiment::grid::GridResults,
    /// The errors of the check being run (see [`Evidence`]).
    pub evidence: Evidence,
    /// The public code's measured stopping times (`data/public_code_runs.csv`, in the repository;
    /// the repository), for claim S.1.
    pub public_code_csv: Option<std::path::PathBuf>,
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
            Vec::new(),
        )
    }
}

/// Builds a [`ClaimResult`] of a check that ran, with its statistics; [`run_all`] applies the
/// protocol's rule to them.
pub fn claim(
    id: &'static str,
    title: &'static str,
    source: &'static str,
    paper: impl Into<String>,
    computed: impl Into<String>,
    stats: Stats,
) -> ClaimResult {
    ClaimResult {
        id,
        title,
        source,
        paper: paper.into(),
        rule: String::new(),
        statistics: BTreeMap::new(),
        computed: computed.into(),
        verdict: ClaimVerdict::NotCheckable,
        note: String::new(),
        raw: stats,
        ran: true,
    }
}

/// Applies the protocol's rule of `r.id` to its statistics and the errors its evidence
/// gathering recorded.
pub fn judge(mut r: ClaimResult, errors: &[String]) -> ClaimResult {
    let Some(entry) = protocol::protocol().get(r.id) else {
        r.verdict = ClaimVerdict::NotCheckable;
        r.note = format!("error: {} has no entry in verify/protocol.toml", r.id);
        return r;
    };
    r.rule = protocol::rule_text(entry);
    r.statistics = r.raw.iter().cloned().collect();
    if !r.ran {
        r.verdict = ClaimVerdict::NotCheckable;
        r.note = "not run: `verify --no-experiments`".into();
        return r;
    }
    if let Some(e) = errors.first() {
        r.verdict = ClaimVerdict::NotCheckable;
        r.note = format!(
            "error: {e}{}",
            if errors.len() > 1 {
                format!(" (+{} more)", errors.len() - 1)
            } else {
                String::new()
            }
        );
        return r;
    }
    (r.verdict, r.note) = protocol::decide(entry, &r.raw);
    r
}

/// A boolean as a 0/1 statistic.
pub fn flag(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
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
    v.extend(public::checks());
    v
}

/// Runs every check.
pub fn run_all(ctx: &mut Context) -> Vec<ClaimResult> {
    let _fault = crate::fault::inject(ctx.fault);
    let mut out: Vec<ClaimResult> = all_checks()
        .into_iter()
        .map(|c| {
            ctx.evidence.take();
            let r = c(ctx);
            let errors = ctx.evidence.take();
            judge(r, &errors)
        })
        .collect();
    out.sort_by_key(|r| id_key(r.id));
    out
}

/// Sort key of a claim ID (`F.7` before `F.10`).
pub fn id_key(id: &str) -> u32 {
    let (num, suffix) = id.split_once('/').unwrap_or((id, ""));
    num.trim_start_matches("F.")
        .parse::<u32>()
        .map_or(u32::MAX, |n| 2 * n + u32::from(!suffix.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_logs_until_taken() {
        let ev = Evidence::default();
        let injected = Err(crate::Error::Injected { area: "solver" });
        assert!(ev.value(Area::Solver, injected).is_nan());
        assert!(ev.value(Area::Special, Ok(f64::NAN)).is_nan());
        assert_eq!(ev.value(Area::Special, Ok(2.0)), 2.0);
        let errors = ev.take();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[1].contains("special returned NaN"), "{errors:?}");
        assert!(ev.take().is_empty(), "taking empties the log");
    }

    #[test]
    fn id_order() {
        assert!(id_key("F.7") < id_key("F.10"));
        assert!(id_key("F.50") < id_key("F.50/ref") && id_key("F.50/ref") < id_key("F.51"));
    }
}
