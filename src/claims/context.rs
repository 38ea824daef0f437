//! What a claim check reads ([`Context`]: the profile, the experiment grid, the traced runs) and
//! the [`Evidence`] log it records its errors in.

use crate::bandit::AlgoName;
use crate::bandit::trace::Trace;
use crate::fault::Area;
use std::cell::RefCell;
use std::collections::BTreeMap;

/// The errors met while gathering one check's evidence (a solver error, a missing cell, an
/// injected fault), held by the [`Context`] the check reads: [`super::judge()`] empties it before each
/// check and judges what the check recorded. Interior mutability lets a check record
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
    pub traces: Option<Traces>,
    /// Area into which `DPBAI_INJECT_FAULT` injects a fault (verify's evidence gathering only).
    pub fault: Option<Area>,
    /// The control cells of the Findings (case 2, starvation, DPA live counts), which some
    /// claims use as evidence (F.41's global-episode half: the live-count DPA control).
    pub controls: crate::experiment::grid::GridResults,
    /// The errors of the check being run (see [`Evidence`]).
    pub evidence: Evidence,
    /// Every group's cells of the study, in the study's order (the report's control tables).
    pub groups: BTreeMap<String, Vec<crate::experiment::run::CellResult>>,
    /// The audits of F.59 and F.60 (gathered before the claims are judged).
    pub audits: Option<super::dp_bai::audit::Audits>,
    /// The adversarial instance searches of REPORT.md's `audit-search` block.
    pub searches: Vec<super::dp_bai::searches::Searched>,
    /// The audits of \[BAI25\]'s B.6 and B.7 (gathered before its claims are judged).
    pub bai25: Option<super::bai25::algorithms::Audits>,
}

impl Context {
    /// The cells of the study group `name` (none when it has none), in the study's order: the
    /// entry point of the groups' Monte Carlo evidence, empty while a fault is injected into
    /// `mc` ([`crate::fault`]).
    pub fn group(&self, name: &str) -> &[crate::experiment::run::CellResult] {
        crate::fault::touch(Area::Mc);
        if crate::fault::injected(Area::Mc) {
            return &[];
        }
        self.groups.get(name).map_or(&[], Vec::as_slice)
    }
}

/// Traced runs per algorithm on μ4 (distinct means), and a starvation probe on μ2.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Traces {
    /// (algorithm, traces) on μ4.
    pub mu4: Vec<(AlgoName, Vec<Trace>)>,
    /// AdaP-TT* on μ2 with ε = 0.4, δ = 0.01, capped at [`super::dp_bai::trace::STARVE_CAP`] samples.
    pub mu2_starve: Vec<Trace>,
}
