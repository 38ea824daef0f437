//! Users' own studies (`dpbai experiment CONFIG.toml`): instances, algorithms, ε and δ grids
//! declared in a TOML file ([`config`], validated by [`validate`]), run as verify's cells
//! ([`crate::experiment::Cell`]: the same cache, seeds and shards; [`runner`]), one [`Row`] per
//! cell with its statistics and bounds, written as `results.csv` ([`results`]). The figures and
//! `SUMMARY.md` are the report's ([`crate::report::study`]).
//!
//! # Reproducing a cell
//! Every row of `results.csv` carries its cell's digest and seed; [`Cell::run_args`] gives the
//! `dpbai run` arguments that reproduce its runs exactly (column `run_command`).

pub mod analysis;
pub mod config;
mod figures;
pub mod results;
pub mod runner;
pub mod validate;

use crate::complexity::{self, upper};
use crate::error::{Error, Result};
use crate::experiment::shell::shell_words;
use crate::experiment::{Cell, CellDigest, CellResult};
use crate::instance::FamilyName;
use crate::spelling::Spelling;
use crate::stats::clopper_pearson;
pub use config::Study;
use config::{LowerTime, UpperKind, lower_kind, upper_kind};
use std::collections::HashMap;

pub use validate::{parse_study, parse_study_with};

/// One row of `results.csv`: a finished cell with its statistics and bounds.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Row {
    /// Instance name.
    pub instance: String,
    /// `bernoulli` or `gaussian`.
    pub family: &'static str,
    /// σ of Gaussian arms.
    pub sigma: Option<f64>,
    /// Algorithm label.
    pub label: String,
    /// Algorithm (`dpbai run --algo`).
    pub algo: &'static str,
    /// `paper` or `reference`.
    pub rules: &'static str,
    /// Risk.
    pub delta: f64,
    /// Privacy budget (`None`: non-private).
    pub eps: Option<f64>,
    /// Runs.
    pub runs: u64,
    /// Runs that hit the cap.
    pub capped: u64,
    /// Mean of τ (capped runs at the cap: a lower bound when `capped > 0`).
    pub mean_tau: f64,
    /// Whether `mean_tau` is a lower bound.
    pub mean_is_lower_bound: bool,
    /// Sample standard deviation of τ over all runs (`None` for one run).
    pub std_tau: Option<f64>,
    /// 95% Student-t interval of the mean (`None` when capped or fewer than 2 runs).
    pub ci95: Option<[f64; 2]>,
    /// Kaplan–Meier median (`None`: beyond the cap).
    pub km_median: Option<u64>,
    /// Kaplan–Meier first quartile.
    pub km_q25: Option<u64>,
    /// Kaplan–Meier third quartile.
    pub km_q75: Option<u64>,
    /// Stopped runs with a wrong recommendation.
    pub errors: u64,
    /// `errors / runs`.
    pub error_rate: f64,
    /// Exact 95% Clopper–Pearson interval of the error probability.
    pub error_ci: [f64; 2],
    /// The lower bound's privacy setting.
    pub lower_bound_kind: LowerTime,
    /// `T*·log(1/(2.4δ))` of that setting (as `dpbai bounds`).
    pub lower_bound: f64,
    /// The algorithm's asymptotic upper bound, if it has one.
    pub upper_bound_kind: Option<UpperKind>,
    /// That bound (`dpbai bounds`' per-unit value) times `log(1/δ)`.
    pub upper_bound: Option<f64>,
    /// `mean_tau / lower_bound` (a lower bound itself when capped).
    pub ratio_to_lower: f64,
    /// `mean_tau / upper_bound`, when there is an upper bound (a lower bound itself when
    /// capped). Above 1 at a finite δ is allowed: the upper bound is asymptotic, δ → 0.
    pub ratio_to_upper: Option<f64>,
    /// Master seed of the cell.
    pub seed: u64,
    /// Cap on the samples of one run.
    pub max_steps: u64,
    /// Label of the cell (its key: instance, algorithm, ε, δ, rules, options; it seeds the cell).
    pub key: String,
    /// Digest of the cell's specification (names its cache file).
    pub cell: CellDigest,
    /// `dpbai run` arguments that reproduce the cell.
    pub run_command: String,
}

/// Bound values memoised per (instance, ε).
#[derive(Default)]
pub struct BoundCache {
    t_kl: HashMap<usize, f64>,
    private: HashMap<(usize, u64), (f64, f64)>,
    t_eps: HashMap<(usize, u64), f64>,
}

impl BoundCache {
    /// `T_KL` of instance `i`.
    ///
    /// # Errors
    /// Solver failures.
    pub fn t_kl(&mut self, study: &Study, i: usize) -> Result<f64> {
        if let Some(v) = self.t_kl.get(&i) {
            return Ok(*v);
        }
        let v = complexity::t_kl(&study.instances[i].instance)?.value;
        self.t_kl.insert(i, v);
        Ok(v)
    }
    /// `(T_local(ε), T_global(ε))` of instance `i`.
    ///
    /// # Errors
    /// Solver failures.
    pub fn private(&mut self, study: &Study, i: usize, eps: f64) -> Result<(f64, f64)> {
        if let Some(v) = self.private.get(&(i, eps.to_bits())) {
            return Ok(*v);
        }
        let nu = &study.instances[i].instance;
        let v = (
            complexity::t_local(nu, eps)?.value,
            complexity::t_global(nu, eps)?.value,
        );
        self.private.insert((i, eps.to_bits()), v);
        Ok(v)
    }
    /// The characteristic time `T*` of `kind` (`ε` ignored for the non-private one).
    ///
    /// # Errors
    /// Solver failures; [`Error::InvalidParameter`] for a private kind without `ε`.
    pub fn time(
        &mut self,
        study: &Study,
        i: usize,
        kind: LowerTime,
        eps: Option<f64>,
    ) -> Result<f64> {
        match (kind, eps) {
            (LowerTime::Kl, _) => self.t_kl(study, i),
            (LowerTime::Local, Some(e)) => Ok(self.private(study, i, e)?.0),
            (LowerTime::Global, Some(e)) => Ok(self.private(study, i, e)?.1),
            (LowerTime::Eps, Some(e)) => {
                if let Some(v) = self.t_eps.get(&(i, e.to_bits())) {
                    return Ok(*v);
                }
                let v = complexity::t_eps(&study.instances[i].instance, e)?.value;
                self.t_eps.insert((i, e.to_bits()), v);
                Ok(v)
            }
            (_, None) => Err(Error::param(
                "eps",
                "none",
                "an ε for a private lower bound",
            )),
        }
    }
}

/// The asymptotic upper bound `kind` per unit of `log(1/δ)` (as `dpbai bounds` prints it).
///
/// # Errors
/// Solver failures; [`Error::InvalidParameter`] when `kind` needs `ε` and none is given.
pub fn upper_per_log(
    nu: &crate::instance::Instance,
    kind: UpperKind,
    eps: Option<f64>,
    beta: f64,
) -> Result<f64> {
    if kind == UpperKind::DpaTt {
        return Ok(upper::dpa(nu, beta)?.value);
    }
    let eps = eps.ok_or_else(|| Error::param("eps", "none", "an ε for a private upper bound"))?;
    match kind {
        UpperKind::DpTt => return Ok(upper::dp_tt(nu, eps, beta, upper::DP_TT_ETA)?.dp_tt.value),
        UpperKind::DpTt8TEps => {
            return Ok(upper::dp_tt(nu, eps, beta, upper::DP_TT_ETA)?
                .dp_tt_8t_eps
                .value);
        }
        _ => {}
    }
    let u = upper::upper_bounds(nu, eps, beta)?;
    Ok(match kind {
        UpperKind::CtbTt => u.ctb_tt.value,
        UpperKind::CtbTtIds => u.ctb_tt_ids.value,
        UpperKind::AdapTt => u.adap_tt.value,
        UpperKind::AdapTtStar => u.adap_tt_star.thm24_main,
        UpperKind::AdapTtStarLemma52 => u.adap_tt_star.lemma52_app,
        UpperKind::DpaTt | UpperKind::DpTt | UpperKind::DpTt8TEps => {
            unreachable!("handled above")
        }
    })
}

/// `gaussian` (a cell with σ) or `bernoulli`.
pub(crate) fn family_name(c: &Cell) -> &'static str {
    let name = if c.sigma.is_some() {
        FamilyName::Gaussian
    } else {
        FamilyName::Bernoulli
    };
    name.spelling()
}

/// The row of cell `index` of `study` with its identity filled from the cell (instance, family,
/// label, algorithm, rules, δ, ε, runs, cap, key, the lower bound's kind) and its statistics
/// and bounds empty (zero; the upper bound's kind is set with the bound), for [`row`] and
/// [`results::read_results`] to fill.
pub(crate) fn cell_row(study: &Study, index: usize) -> Row {
    let sc = &study.cells[index];
    let c: &Cell = &sc.cell;
    Row {
        instance: c.instance.clone(),
        family: family_name(c),
        sigma: c.sigma,
        label: study.algorithms[sc.algorithm].label.clone(),
        algo: c.setting.algo.as_str(),
        rules: crate::experiment::cell::rules_str(c.setting.rules),
        delta: c.setting.delta.get(),
        eps: c.setting.eps_value(),
        runs: c.runs,
        capped: 0,
        mean_tau: 0.0,
        mean_is_lower_bound: false,
        std_tau: None,
        ci95: None,
        km_median: None,
        km_q25: None,
        km_q75: None,
        errors: 0,
        error_rate: 0.0,
        error_ci: [0.0, 1.0],
        lower_bound_kind: lower_kind(c.setting.algo),
        lower_bound: 0.0,
        upper_bound_kind: None,
        upper_bound: None,
        ratio_to_lower: 0.0,
        ratio_to_upper: None,
        seed: 0,
        max_steps: c.max_steps,
        key: c.key(),
        cell: c.digest(),
        run_command: String::new(),
    }
}

/// The row of a finished cell `index` of `study`.
///
/// # Errors
/// Solver failures of the bounds.
pub fn row(study: &Study, index: usize, r: &CellResult, bounds: &mut BoundCache) -> Result<Row> {
    let sc = &study.cells[index];
    let c: &Cell = &sc.cell;
    let s = &r.summary;
    let cs = &s.censored;
    let kind = lower_kind(c.setting.algo);
    let lf = kind.log_factor(c.setting.delta);
    let lower_bound = bounds.time(study, sc.instance, kind, c.setting.eps_value())? * lf;
    let uk = upper_kind(c);
    // Upper bounds are for Bernoulli arms under the paper's thresholds (READINGS.md §E.4); a Gaussian
    // instance, the reference rules or a user threshold (`upper_kind`) leave the column empty.
    let upper_bound = match uk {
        Some(k) if c.sigma.is_none() => Some(
            upper_per_log(
                &study.instances[sc.instance].instance,
                k,
                c.setting.eps_value(),
                c.setting.beta.get(),
            )? * (1.0 / c.setting.delta.get()).ln(),
        ),
        _ => None,
    };
    let error_ci = {
        let (lo, hi) = clopper_pearson(s.errors, s.runs, 0.05)?;
        [lo, hi]
    };
    Ok(Row {
        runs: s.runs,
        capped: cs.capped,
        mean_tau: cs.mean,
        mean_is_lower_bound: cs.mean_is_lower_bound,
        std_tau: s.std_tau,
        ci95: cs.mean_ci95_lo.zip(cs.mean_ci95_hi).map(|(a, b)| [a, b]),
        km_median: cs.km_median,
        km_q25: cs.km_q25,
        km_q75: cs.km_q75,
        errors: s.errors,
        error_rate: s.error_rate,
        error_ci,
        lower_bound,
        upper_bound_kind: upper_bound.and(uk),
        upper_bound,
        ratio_to_lower: cs.mean / lower_bound,
        ratio_to_upper: upper_bound.map(|u| cs.mean / u),
        seed: r.seed,
        cell: r.digest.clone(),
        run_command: format!("dpbai run {}", shell_words(&c.run_args())),
        ..cell_row(study, index)
    })
}

/// The cells of one `group` of `study` alone, with their results (`results[i]` is cell `i`;
/// `results` may be empty): the study restricted to those cells, its δ list to the risks they
/// use. A figure of one group (\[BAI25\]'s, beside its δ-slope cells) is drawn from it.
pub fn group_only(study: &Study, results: &[CellResult], group: &str) -> (Study, Vec<CellResult>) {
    let keep: Vec<bool> = study
        .cells
        .iter()
        .map(|c| study.algorithms[c.algorithm].group == group)
        .collect();
    let kept = results
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(r, _)| r.clone())
        .collect();
    let mut s = study.clone();
    let mut k = keep.iter();
    s.cells.retain(|_| k.next().copied().unwrap_or(false));
    let cells = &s.cells;
    s.deltas
        .retain(|d| cells.iter().any(|c| c.cell.setting.delta.get() == *d));
    (s, kept)
}
