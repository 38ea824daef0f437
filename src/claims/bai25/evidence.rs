//! \[BAI25\]'s Monte Carlo evidence, read from its study files: `verify/bai25-quick.toml` (the
//! default profile) and `verify/bai25-paper.toml` (the paper's size), compiled in. Their
//! `[[algorithm]]` groups say what each cell is evidence for: `grid` (the figure's cells: B.9,
//! B.10, B.12 and the Findings of REPORT-BAI25.md), `slope` (the δ-slope of B.8) and `tail` (the
//! Finding on DP-TT's heavy tail), read by the
//! checks by group ([`crate::claims::Context::groups`]).

use crate::bandit::AlgoName;
use crate::claims::Context;
use crate::experiment::run::CellResult;
use crate::experiment::study::Study;

/// The built-in study files, by profile name.
pub const STUDIES: [(&str, &str); 3] = [
    ("smoke", include_str!("../../../verify/bai25-smoke.toml")),
    ("quick", include_str!("../../../verify/bai25-quick.toml")),
    ("paper", include_str!("../../../verify/bai25-paper.toml")),
];

/// The group of the figure's cells.
pub const GRID: &str = "grid";

/// The group of the δ-slope cells.
pub const SLOPE: &str = "slope";

/// The group of DP-TT's tail cells (REPORT-BAI25.md, Findings).
pub const TAIL: &str = "tail";

/// The algorithms of the figure, in its legend's order.
pub const FIGURE_ALGORITHMS: [AlgoName; 5] = [
    AlgoName::EbTci,
    AlgoName::DpSe,
    AlgoName::AdapTt,
    AlgoName::AdapTtStar,
    AlgoName::DpTt,
];

/// Sorts the results of the study's cells (`results[i]` is cell `i`) by group into
/// [`Context::groups`].
pub fn sort_evidence(study: &Study, results: &[CellResult], ctx: &mut Context) {
    for (sc, r) in study.cells.iter().zip(results) {
        let group = &study.algorithms[sc.algorithm].group;
        ctx.groups.entry(group.clone()).or_default().push(r.clone());
    }
}

/// The cell of `group` on `instance` for `algo` at `eps` (ignored for a non-private algorithm)
/// and `delta`.
pub fn cell<'a>(
    cells: &'a [CellResult],
    instance: &str,
    algo: AlgoName,
    eps: Option<f64>,
    delta: f64,
) -> Option<&'a CellResult> {
    cells.iter().find(|c| {
        let s = &c.cell.setting;
        c.cell.instance == instance
            && s.algo == algo
            && s.delta.get() == delta
            && (!algo.needs_eps() || s.eps_value() == eps)
    })
}

/// The ε of the private cells of `cells`, increasing, without repeats.
pub fn eps_grid(cells: &[CellResult]) -> Vec<f64> {
    let mut e: Vec<f64> = cells
        .iter()
        .filter_map(|c| c.cell.setting.eps_value())
        .collect();
    e.sort_by(f64::total_cmp);
    e.dedup();
    e
}
