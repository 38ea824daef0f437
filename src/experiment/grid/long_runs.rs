//! The long-run cells of Finding 1: AdaP-TT on the near-tie instance
//! [`NEAR_TIE`] (distinct means) at small ε, with a cap above the profile's, beside the same
//! cells with the leader bonus that grows with `log ‖Ñ‖₁` (the control that isolates the frozen
//! bonus of Eq. (11)).
//!
//! They test the starvation mechanism beyond tied instances: a run capped in a cell and not in
//! its control is a run the frozen bonus starved; a cell whose runs all stop under the higher
//! cap, with a longest τ far beyond its control's, shows runs that are long but finite.

use super::{Profile, NEAR_TIE};
use crate::bandit::AlgoName;
use crate::experiment::Cell;

/// ε of the long-run cells: inside the quick global grid, below [`super::STARVATION_EPS`],
/// where the near-tie instance's AdaP-TT runs go past 10⁷ samples.
pub const LONG_RUN_EPS: [f64; 2] = [0.1, 0.2];

/// Cap of the long-run cells (the profile's cap when that is higher): ten times the usual
/// 10⁷-sample cap, so that a run past 10⁷ can still be seen to stop.
pub const LONG_RUN_CAP: u64 = 100_000_000;

/// The long-run cells: for each ε of [`LONG_RUN_EPS`], AdaP-TT on [`NEAR_TIE`] with Eq. (11)'s
/// bonus, then its `eq11-log-n` control; paper rules, the profile's runs, cap
/// `max(LONG_RUN_CAP, profile cap)`.
pub fn long_run_cells(profile: &Profile) -> Vec<Cell> {
    let mut out = Vec::new();
    for eps in LONG_RUN_EPS {
        let cell = Cell {
            max_steps: LONG_RUN_CAP.max(profile.max_steps),
            ..profile.cell("near-tie", &NEAR_TIE, AlgoName::AdapTt, Some(eps))
        };
        super::push_with_log_n_control(&mut out, cell);
    }
    out
}

/// ε of the distinct-means controls of Finding 1 in the `paper` profile: the grid's ε ≤ 0.01,
/// where AdaP-TT is capped on much of μ4–μ6 (distinct means, inside the theorems' assumption).
pub const SMALL_EPS_PAPER: [f64; 3] = [0.001, 0.005, 0.01];
/// The same in the `quick` profile (whose grid starts at 0.05): ε = 0.01 only.
pub const SMALL_EPS_QUICK: [f64; 1] = [0.01];

/// Finding 1's controls on distinct means at small ε: AdaP-TT on μ4, μ5, μ6 at each ε of
/// [`SMALL_EPS_PAPER`] (`paper`; grid cells there, so cache hits) or [`SMALL_EPS_QUICK`]
/// (`quick`), each followed by its `eq11-log-n` control on the same seeds and runs.
pub fn small_eps_cells(profile: &Profile) -> Vec<Cell> {
    let eps: &[f64] = if profile.name == "paper" {
        &SMALL_EPS_PAPER
    } else {
        &SMALL_EPS_QUICK
    };
    let mut out = Vec::new();
    for (name, means) in crate::experiment::grid::paper_instances()
        .into_iter()
        .skip(3)
    {
        for &e in eps {
            super::push_with_log_n_control(
                &mut out,
                profile.cell(name, &means, AlgoName::AdapTt, Some(e)),
            );
        }
    }
    out
}

/// ε of F.57's direct local points below 0.1 (the paper's local grid has them; the figures'
/// grid starts at 0.1 because they are prohibitive there).
pub const FEASIBILITY_EPS: [f64; 2] = [0.05, 0.01];

/// F.57's direct measurement: CTB-TT on μ1 and μ2 at each ε of [`FEASIBILITY_EPS`], with a few
/// runs (4 in `quick`, 20 in `paper`) and a cap of 2·10⁸ samples (a capped run makes the cost a
/// lower bound, which is all "prohibitive" needs).
pub fn feasibility_cells(profile: &Profile) -> Vec<Cell> {
    let runs = if profile.name == "paper" { 20 } else { 4 };
    let mut out = Vec::new();
    for (name, means) in crate::experiment::grid::paper_instances()
        .into_iter()
        .take(2)
    {
        for e in FEASIBILITY_EPS {
            out.push(Cell {
                runs,
                max_steps: 200_000_000,
                ..profile.cell(name, &means, AlgoName::CtbTt, Some(e))
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_pair_each_eps_with_its_control_and_keys_are_new() {
        let p = Profile::named("quick").expect("invariant: known profile");
        let cells = long_run_cells(&p);
        assert_eq!(cells.len(), 2 * LONG_RUN_EPS.len());
        assert!(cells.iter().all(|c| c.max_steps == LONG_RUN_CAP));
        // No key of the grid or of the other controls: the cache files cannot collide.
        let mut others: Vec<String> = p.cells().iter().map(Cell::key).collect();
        others.extend(
            super::super::starvation_control_cells(&p)
                .iter()
                .map(Cell::key),
        );
        for c in &cells {
            assert!(!others.contains(&c.key()), "{}", c.key());
        }
    }
}
