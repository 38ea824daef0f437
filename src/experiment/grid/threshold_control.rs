//! The threshold-only control of Finding 2: the paper's algorithms with their paper sampling
//! rules and only the stopping threshold replaced by the public code's empirical one
//! (`--threshold ref-adap-tt` for AdaP-TT and AdaP-TT*, `ref-ttucb` for TTUCB), on the seeds
//! and runs of the paper-rule cells they control. Beside the paper-rule cell and the
//! reference-rule cell, it separates what the threshold changes from what the sampling rules
//! change.

use super::{paper_instances, Profile};
use crate::bandit::AlgoName;
use crate::experiment::Cell;

/// ε of the threshold-only control: high and low privacy.
pub const THRESHOLD_CONTROL_EPS: [f64; 2] = [0.1, 1000.0];

/// The empirical threshold preset that replaces `algo`'s own in the control.
pub fn empirical_preset(algo: AlgoName) -> &'static str {
    if algo.info().privacy == crate::bandit::info::PrivacyModel::NonPrivate {
        "ref-ttucb"
    } else {
        "ref-adap-tt"
    }
}

/// The control cells, each paired with the paper-rule cell it controls (same seed and runs):
/// on μ1 and μ2, TTUCB, and AdaP-TT and AdaP-TT* at each ε of [`THRESHOLD_CONTROL_EPS`].
pub fn threshold_control_cells(profile: &Profile) -> Vec<Cell> {
    let mut out = Vec::new();
    for (name, means) in paper_instances().into_iter().take(2) {
        let mut bases = vec![Cell {
            runs: 10 * profile.runs,
            ..profile.cell(name, &means, AlgoName::Ttucb, None)
        }];
        for e in THRESHOLD_CONTROL_EPS {
            for algo in [AlgoName::AdapTt, AlgoName::AdapTtStar] {
                bases.push(profile.cell(name, &means, algo, Some(e)));
            }
        }
        for base in bases {
            let control = Cell {
                threshold: Some(empirical_preset(base.setting.algo).to_string()),
                ..base.clone()
            };
            out.push(control.paired_with(&base));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each control differs from its cell by the threshold only, and shares its seed and runs.
    #[test]
    fn controls_change_the_threshold_alone_on_paired_seeds() {
        let p = Profile::named("quick").expect("invariant: known profile");
        let grid = p.cells();
        for c in threshold_control_cells(&p) {
            let base = grid
                .iter()
                .find(|g| {
                    g.instance == c.instance
                        && g.setting == c.setting
                        && g.setting.delta == c.setting.delta
                        && g.threshold.is_none()
                })
                .expect("the controlled cell is a grid cell");
            assert_eq!(c.seed(), base.seed());
            assert_eq!(c.runs, base.runs);
            assert_ne!(c.key(), base.key());
            assert!(c.threshold.is_some());
        }
    }
}
