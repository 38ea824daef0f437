//! The first paper's Monte Carlo evidence, read from its study files: `verify/quick.toml` (the
//! default profile) and `verify/paper.toml` (the paper's size), compiled in. Their `[[algorithm]]`
//! groups say what each cell is evidence for:
//!
//! * the grid of the claims and figures ([`GRID_GROUPS`]: `grid`, `dpa`, `reference`, `slope`,
//!   `slope-reference`), read by the checks as [`crate::claims::Context::grid`];
//! * the control cells of REPORT.md's Findings ([`CONTROL_GROUPS`]: `case2`, `starvation`,
//!   `long-runs`, `small-eps`, `live-counts`, `threshold`, `feasibility`), read as
//!   [`crate::claims::Context::controls`] and by group ([`crate::claims::Context::groups`]);
//! * the cells of single claims ([`CLAIM_GROUPS`]: `alg8-printed` for F.73,
//!   `live-counts-slope` for F.74, `app-i-reference` for F.75/ref), read by group ([`crate::claims::Context::group`]).

use crate::error::{Error, Result};
use crate::experiment::grid::GridResults;
use crate::experiment::run::CellResult;
use crate::experiment::study::{Study, parse_study_with};
use crate::instance::Instance;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The built-in study files, by profile name.
pub const STUDIES: [(&str, &str); 3] = [
    ("smoke", include_str!("../../../verify/smoke.toml")),
    ("quick", include_str!("../../../verify/quick.toml")),
    ("paper", include_str!("../../../verify/paper.toml")),
];

/// The groups whose cells are the grid of the claims and figures, in the order REPORT.md lists
/// them.
pub const GRID_GROUPS: [&str; 5] = ["grid", "dpa", "reference", "slope", "slope-reference"];

/// The groups of the Findings' control cells, in the order the checks read them.
pub const CONTROL_GROUPS: [&str; 7] = [
    "case2",
    "starvation",
    "long-runs",
    "small-eps",
    "live-counts",
    "threshold",
    "feasibility",
];

/// Alg. 8 as printed (F.73): its group of cells.
pub const ALG8_PRINTED: &str = "alg8-printed";
/// The live-count DPA-TT control along δ → 0 (F.74): its group of cells.
pub const LIVE_COUNTS_SLOPE: &str = "live-counts-slope";
/// App. I's figures on μ3–μ6 under the public code's rules (F.75/ref): its group of cells.
pub const APP_I_REFERENCE: &str = "app-i-reference";
/// The groups read by a single claim each.
pub const CLAIM_GROUPS: [&str; 3] = [ALG8_PRINTED, LIVE_COUNTS_SLOPE, APP_I_REFERENCE];

/// The study of profile `name`, with its runs replaced by `runs` when given.
///
/// # Errors
/// An unknown profile; a `runs` out of range.
pub fn study(name: &str, runs: Option<u64>) -> Result<Study> {
    let (_, text) = STUDIES
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| Error::param("profile", name, "smoke, quick or paper"))?;
    if let Some(r) = runs {
        if r == 0 {
            return Err(Error::param("runs", 0, "at least 1"));
        }
        crate::params::limits::check_runs("runs", r)?;
    }
    parse_study_with(text, &format!("verify/{name}.toml"), runs)
}

/// The paper's six Bernoulli instances μ1–μ6 (READINGS.md §G.1), as the study file declares
/// them.
pub fn paper_instances() -> Vec<(&'static str, Vec<f64>)> {
    static I: OnceLock<Vec<(&'static str, Vec<f64>)>> = OnceLock::new();
    I.get_or_init(|| {
        let s = study("quick", None).expect("invariant: the built-in study parses (tested)");
        s.instances
            .iter()
            .filter(|i| i.name.len() == 3 && i.name.starts_with("mu"))
            .map(|i| {
                let name: &'static str = Box::leak(i.name.clone().into_boxed_str());
                (name, i.instance.means().to_vec())
            })
            .collect()
    })
    .clone()
}

/// Instance `i` (0-based) of [`paper_instances`].
pub fn paper_instance(i: usize) -> Instance {
    Instance::bernoulli(paper_instances()[i].1.clone()).expect("invariant: paper instance")
}

/// What a profile's figures and tables state about its sizes, read off its study.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    /// `quick` or `paper`.
    pub name: String,
    /// Runs per cell (the study's).
    pub runs: u64,
    /// ε of the global-DP cells of the grid (AdaP-TT), increasing.
    pub global_eps: Vec<f64>,
    /// ε of the local-DP cells of the grid (CTB-TT), increasing.
    pub local_eps: Vec<f64>,
    /// The main risk (the study's first).
    pub delta: f64,
}

impl Profile {
    /// The sizes of `study` (profile `name`).
    pub fn of(name: &str, study: &Study) -> Profile {
        let eps_of = |algo: crate::bandit::AlgoName| {
            let mut v: Vec<f64> = study
                .cells
                .iter()
                .filter(|c| {
                    study.algorithms[c.algorithm].group == "grid"
                        && c.cell.setting.algo == algo
                        && c.cell.setting.rules == crate::bandit::Rules::Paper
                })
                .filter_map(|c| c.cell.setting.eps_value())
                .collect();
            v.sort_by(f64::total_cmp);
            v.dedup();
            v
        };
        Profile {
            name: name.to_string(),
            runs: study.runs,
            global_eps: eps_of(crate::bandit::AlgoName::AdapTt),
            local_eps: eps_of(crate::bandit::AlgoName::CtbTt),
            delta: study.deltas.first().copied().unwrap_or(0.01),
        }
    }
}

/// The results of a study's cells sorted into the grid and the control groups.
#[derive(Debug, Clone, Default)]
pub struct Sorted {
    /// The grid ([`GRID_GROUPS`], in the study's order).
    pub grid: GridResults,
    /// Every group's cells, in the study's order.
    pub groups: BTreeMap<String, Vec<CellResult>>,
    /// The control cells ([`CONTROL_GROUPS`] in that order, the global-episode DPA cell of the
    /// grid before the live-count control).
    pub controls: GridResults,
}

/// Sorts the results of `study`'s cells (`results[i]` is cell `i`) by group.
pub fn sort(study: &Study, results: &[CellResult]) -> Sorted {
    let mut groups: BTreeMap<String, Vec<CellResult>> = BTreeMap::new();
    for (c, r) in study.cells.iter().zip(results) {
        groups
            .entry(study.algorithms[c.algorithm].group.clone())
            .or_default()
            .push(r.clone());
    }
    let of = |g: &str| groups.get(g).cloned().unwrap_or_default();
    let grid = GridResults {
        cells: GRID_GROUPS.iter().flat_map(|g| of(g)).collect(),
    };
    let mut controls = Vec::new();
    for g in CONTROL_GROUPS {
        if g == "live-counts" {
            controls.extend(grid.dpa_global().cloned());
        }
        controls.extend(of(g));
    }
    Sorted {
        grid,
        controls: GridResults { cells: controls },
        groups,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_studies_parse_with_every_group() {
        for (name, _) in STUDIES {
            let s = study(name, None).expect("parses");
            // The smoke profile is a slice of the grid: its other claims are not checkable.
            let groups: &[&str] = if name == "smoke" { &["grid"] } else { &[] };
            for g in GRID_GROUPS
                .iter()
                .chain(&CONTROL_GROUPS)
                .chain(&CLAIM_GROUPS)
            {
                if name == "smoke" && !groups.contains(g) {
                    continue;
                }
                assert!(
                    s.algorithms.iter().any(|a| a.group == *g),
                    "{name}: no group {g}"
                );
            }
            assert!(
                s.algorithms
                    .iter()
                    .all(|a| GRID_GROUPS.contains(&a.group.as_str())
                        || CONTROL_GROUPS.contains(&a.group.as_str())
                        || CLAIM_GROUPS.contains(&a.group.as_str()))
            );
        }
        assert_eq!(paper_instances().len(), 6);
    }
}
