//! The generated parts of REPORT.md's Findings 1 and 2: their scope and their cause, each decided
//! by a rule written here before the numbers, from the control cells of the study (a cell and its
//! control run on the same seeds, runs and cap). The Findings' prose carries no number; these
//! blocks carry them, each citing its cells.

use crate::bandit::{AdapLeaderBonus, AlgoName, Rules};
use crate::experiment::CellResult;
use crate::experiment::grid::GridResults;
use crate::experiment::study::analysis::{capped_share_bounds, order_capped_shares};
use crate::numbers::sig;
use std::fmt::Write as _;

/// The bounds of a cell's share of capped runs ([`capped_share_bounds`]); `None` for a cell
/// without runs.
fn capped_bounds(c: &CellResult) -> Option<[f64; 2]> {
    capped_share_bounds(c.summary.unstopped, c.summary.runs).ok()
}

/// Whether `control` removes the capped runs of `cell`: its share of capped runs is
/// significantly below the cell's ([`order_capped_shares`]) at the same cap.
fn removes(cell: &CellResult, control: &CellResult) -> bool {
    match (capped_bounds(control), capped_bounds(cell)) {
        (Some(y), Some(x)) => {
            cell.cell.max_steps == control.cell.max_steps
                && order_capped_shares(y, x) == Some(std::cmp::Ordering::Less)
        }
        _ => false,
    }
}

/// Whether `cell` can show a control removing its capped runs at all: its lower bound is above
/// the upper bound of a control with no capped run (else no outcome of the control could count
/// as removal, and the pair tests nothing). Decided before the control's outcome is read.
fn informative(cell: &CellResult, control: &CellResult) -> bool {
    match (
        capped_bounds(cell),
        capped_share_bounds(0, control.summary.runs),
    ) {
        (Some(x), Ok(best)) => x[0] > best[1],
        _ => false,
    }
}

/// `k/n` capped, as text.
fn capped(c: &CellResult) -> String {
    format!("{}/{}", c.summary.unstopped, c.summary.runs)
}

fn eps_text(c: &CellResult) -> String {
    c.cell
        .setting
        .eps_value()
        .map_or("—".to_string(), |e| e.to_string())
}

fn digest(c: &CellResult) -> String {
    let d = c.digest.to_string();
    format!("`{}`", &d[..d.len().min(8)])
}

/// The (cell, leader-bonus control) pairs among `cells`: the control is the cell with
/// `--adap-leader-bonus eq11-log-n` and otherwise the same instance, algorithm, ε, seed, runs and
/// cap.
fn bonus_pairs(cells: &[CellResult]) -> Vec<(&CellResult, &CellResult)> {
    cells
        .iter()
        .filter(|c| c.cell.setting.adap_leader_bonus == AdapLeaderBonus::Eq11)
        .filter_map(|c| {
            let control = cells.iter().find(|k| {
                k.cell.setting.adap_leader_bonus == AdapLeaderBonus::Eq11LogN
                    && k.cell.instance == c.cell.instance
                    && k.cell.setting.algo == c.cell.setting.algo
                    && k.cell.setting.eps_value() == c.cell.setting.eps_value()
                    && k.cell.seed() == c.cell.seed()
                    && k.cell.runs == c.cell.runs
                    && k.cell.max_steps == c.cell.max_steps
            })?;
            Some((c, control))
        })
        .collect()
}

/// The rule of the cause lines, as printed.
const CAUSE_RULE: &str = "rule, fixed before the numbers: a control removes the effect when its \
     share of capped runs is significantly below its cell's at the same cap (one-sided 97.5% \
     Clopper–Pearson bounds, joint 95%); a cell can test a control only when even a control with \
     no capped run would count as removal there (decided before the control's outcome is read); \
     the cause is isolated by a control only when it removes the effect on every cell that can \
     test it, and on at least one";

/// The cause line of a set of (cell, control) pairs: isolated or not, with the pairs.
fn cause_line(pairs: &[(&CellResult, &CellResult)], control: &str) -> String {
    let with_effect: Vec<_> = pairs
        .iter()
        .filter(|(c, _)| c.summary.unstopped > 0)
        .collect();
    let testing = with_effect
        .iter()
        .filter(|(c, k)| informative(c, k))
        .count();
    let removed = with_effect
        .iter()
        .filter(|(c, k)| informative(c, k) && removes(c, k))
        .count();
    let verdict = if testing > 0 && removed == testing {
        format!("**cause isolated** by {control}")
    } else if testing == 0 {
        format!("**not isolated** by {control}: no cell can test it")
    } else {
        format!("**not isolated** by {control}")
    };
    let list: Vec<String> = with_effect
        .iter()
        .map(|(c, k)| {
            format!(
                "{} {} ε = {}: {} capped, control {} ({} / {}){}",
                c.cell.instance,
                c.cell.setting.algo.as_str(),
                eps_text(c),
                capped(c),
                capped(k),
                digest(c),
                digest(k),
                if !informative(c, k) {
                    ", cannot test it"
                } else if removes(c, k) {
                    ""
                } else {
                    ", not removed"
                }
            )
        })
        .collect();
    format!(
        "{verdict}: it removes the capped runs on {removed} of the {testing} cells that can test it \
         ({} with capped runs: {})",
        with_effect.len(),
        list.join("; ")
    )
}

/// Finding 1's generated scope and cause (`finding1` block): per instance and ε, the grid's and
/// the controls' AdaP-TT and AdaP-TT* cells with capped runs, their capped share and how many of
/// the capped runs have the best arm in the lead at the cap (their recommendation, `argmax μ̃`);
/// then the cause line of the leader-bonus control over `controls` (the starvation groups).
pub fn finding1_block(grid: &GridResults, controls: &[CellResult]) -> String {
    let mut s = String::from(
        "Scope (AdaP-TT and AdaP-TT\\* cells of the grid, paper rules, and of the controls above, \
         with capped runs; \"best arm leads\": capped runs whose recommendation at the cap, \
         `argmax μ̃`, is the best arm):\n\n\
         | instance | algorithm | ε | capped / runs | best arm leads at the cap | cell |\n\
         |---|---|---|---|---|---|\n",
    );
    let adap = |c: &&CellResult| {
        matches!(c.cell.setting.algo, AlgoName::AdapTt | AlgoName::AdapTtStar)
            && c.cell.setting.adap_leader_bonus == AdapLeaderBonus::Eq11
            && c.summary.unstopped > 0
    };
    let from_grid = grid
        .iter()
        .filter(|c| c.cell.setting.rules == Rules::Paper)
        .filter(adap);
    let mut seen = std::collections::BTreeSet::new();
    for c in from_grid.chain(controls.iter().filter(adap)) {
        // A control group may hold a grid cell too (the same digest): one row.
        if !seen.insert(c.digest.to_string()) {
            continue;
        }
        let sm = &c.summary;
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} ({}%) | {} of {} | {} |",
            c.cell.instance,
            c.cell.setting.algo.as_str(),
            eps_text(c),
            capped(c),
            sig(100.0 * sm.unstopped as f64 / sm.runs as f64, 3),
            sm.unstopped - sm.unstopped_wrong,
            sm.unstopped,
            digest(c)
        );
    }
    let _ = write!(
        s,
        "\nCause ({CAUSE_RULE}): {}.",
        cause_line(
            &bonus_pairs(controls),
            "the leader-bonus control (`--adap-leader-bonus eq11-log-n`)"
        )
    );
    s
}

/// Finding 2's generated cause line (`finding2` block): the threshold-only control (the paper's
/// sampling rules with the public code's empirical threshold, `threshold`) against its
/// paper-rule cell of the grid, and the leader-bonus control of Finding 1 (`starvation`), each
/// judged by the same rule.
pub fn finding2_block(
    grid: &GridResults,
    threshold: &[CellResult],
    starvation: &[CellResult],
) -> String {
    let pairs: Vec<(&CellResult, &CellResult)> = threshold
        .iter()
        .filter(|c| c.cell.setting.algo != AlgoName::Ttucb)
        .filter_map(|k| {
            let set = &k.cell.setting;
            grid.get_rules(&k.cell.instance, set.algo, set.eps_value(), Rules::Paper)
                .map(|c| (c, k))
        })
        .collect();
    format!(
        "Cause of the capped runs behind the high-privacy costs ({CAUSE_RULE}): the threshold: {}; the \
         leader bonus: {}.",
        cause_line(
            &pairs,
            "the threshold-only control (`--threshold ref-adap-tt`)"
        ),
        cause_line(
            &bonus_pairs(starvation),
            "the leader-bonus control (`--adap-leader-bonus eq11-log-n`)"
        )
    )
}
