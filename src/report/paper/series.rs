//! The series of one algorithm's Monte Carlo summary in a paper figure: its colour (the same in
//! every panel), the mean with error bars (open markers "≥" for cells with capped runs), or
//! the median with its interquartile band and the mean as `×`.

use super::data::{Empirical, PointStat};
use crate::plot::{
    ErrStyle, FigureError, FigureResult, GREY_INDEX, PointStats, Series, SeriesStyle,
};

/// Legend suffix of the open-marker series of capped cells.
pub const CAPPED_SUFFIX: &str = " (≥: cell with capped runs)";
/// Legend label of medians beyond the cap (more than half the runs capped), drawn at the cap.
pub const MEDIAN_BEYOND_CAP: &str = "median > cap (open marker at the cap)";
/// Legend label of the means drawn beside the medians.
pub const MEAN_CROSS: &str = "mean of τ (×; ≥ when capped)";

/// Palette index of each algorithm, in order of first appearance, so that an algorithm keeps
/// its colour (and marker) in every panel.
pub(super) fn algorithm_colors<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for n in names {
        if !seen.iter().any(|s| s == n) {
            seen.push(n.to_string());
        }
    }
    seen
}

pub(super) fn color_of(algos: &[String], name: &str) -> Option<usize> {
    // Six algorithm colours (0..=5) before black and grey.
    algos.iter().position(|a| a == name).map(|i| i % 6)
}

/// Mean with cells of zero runs turned into NaN (missing).
pub(super) fn masked_mean(e: &Empirical) -> Vec<f64> {
    e.mean
        .iter()
        .enumerate()
        .map(|(i, &m)| match e.runs.get(i) {
            Some(0) => f64::NAN,
            _ => m,
        })
        .collect()
}

/// Whether point `i` of `e` has capped runs.
fn is_capped(e: &Empirical, i: usize) -> bool {
    e.capped.get(i).is_some_and(|&c| c > 0)
}

/// Whether point `i` of `e` comes from a cell with runs.
fn has_runs(e: &Empirical, i: usize) -> bool {
    e.runs.get(i).is_none_or(|&r| r > 0)
}

/// The error half-widths of the mean's statistic `stat` (NaN where not reported).
pub(super) fn mean_err(e: &Empirical, stat: PointStat) -> Vec<f64> {
    match stat {
        PointStat::MeanStd => (0..e.mean.len())
            .map(|i| e.std.get(i).copied().unwrap_or(f64::NAN))
            .collect(),
        _ => e.ci95.clone(),
    }
}

/// The series of one algorithm: its uncapped points (line, markers, error bars) and, if any, its
/// capped points as open markers ("≥"). `y` and `err` are already transformed (e.g. ratios).
pub(super) fn empirical_pair(
    algos: &[String],
    e: &Empirical,
    x: &[f64],
    y: Vec<f64>,
    err: Vec<f64>,
) -> Vec<Series> {
    let n = y.len();
    let color = color_of(algos, &e.algorithm).unwrap_or(GREY_INDEX);
    let keep = |i: usize| !is_capped(e, i);
    let solid: Vec<f64> = (0..n)
        .map(|i| if keep(i) { y[i] } else { f64::NAN })
        .collect();
    let bars: Vec<f64> = (0..n)
        .map(|i| if keep(i) { err[i] } else { f64::NAN })
        .collect();
    let points = |drawn: &dyn Fn(usize) -> bool| -> Vec<Option<PointStats>> {
        (0..n)
            .map(|i| if drawn(i) { e.point(i) } else { None })
            .collect()
    };
    let solid_points = points(&|i| keep(i) && y[i].is_finite());
    let mut out = vec![
        Series::new(
            e.algorithm.clone(),
            x.to_vec(),
            solid,
            SeriesStyle::LineAndPoints,
            color,
        )
        .with_err(bars, ErrStyle::Bars)
        .with_points(solid_points),
    ];
    if (0..n).any(|i| is_capped(e, i) && y[i].is_finite()) {
        let open: Vec<f64> = (0..n)
            .map(|i| if keep(i) { f64::NAN } else { y[i] })
            .collect();
        out.push(
            Series::new(
                format!("{}{CAPPED_SUFFIX}", e.algorithm),
                x.to_vec(),
                open,
                SeriesStyle::OpenPoints,
                color,
            )
            .with_points(points(&|i| !keep(i) && y[i].is_finite())),
        );
    }
    out
}

/// The median series of one algorithm: the Kaplan–Meier median (line and markers) with the
/// interquartile band (a third quartile beyond the cap reaches the cap), the medians beyond the
/// cap as open markers at the cap, and the means as `×` (a lower bound where runs are capped).
pub(super) fn median_series(algos: &[String], e: &Empirical, x: &[f64]) -> Vec<Series> {
    let n = x.len();
    let color = color_of(algos, &e.algorithm).unwrap_or(GREY_INDEX);
    let cap = |i: usize| e.cap.get(i).copied().filter(|&c| c > 0).map(|c| c as f64);
    let median = |i: usize| {
        e.median
            .get(i)
            .copied()
            .flatten()
            .filter(|_| has_runs(e, i))
    };
    let med: Vec<f64> = (0..n)
        .map(|i| median(i).map_or(f64::NAN, |m| m as f64))
        .collect();
    let above: Vec<f64> = (0..n)
        .map(|i| {
            let q75 = e.q75.get(i).copied().flatten().map(|q| q as f64);
            q75.or_else(|| cap(i))
                .map_or(f64::NAN, |q| (q - med[i]).max(0.0))
        })
        .collect();
    let below: Vec<f64> = (0..n)
        .map(|i| {
            let q25 = e.q25.get(i).copied().flatten();
            q25.map_or(f64::NAN, |q| (med[i] - q as f64).max(0.0))
        })
        .collect();
    let points = |drawn: &dyn Fn(usize) -> bool| -> Vec<Option<PointStats>> {
        (0..n)
            .map(|i| if drawn(i) { e.point(i) } else { None })
            .collect()
    };
    let mut out = vec![
        Series::new(
            e.algorithm.clone(),
            x.to_vec(),
            med.clone(),
            SeriesStyle::LineAndPoints,
            color,
        )
        .with_err_range(below, above, ErrStyle::Band)
        .with_points(points(&|i| med[i].is_finite())),
    ];
    let beyond = |i: usize| has_runs(e, i) && e.runs.get(i).is_some() && median(i).is_none();
    if (0..n).any(|i| beyond(i) && cap(i).is_some()) {
        out.push(
            Series::new(
                MEDIAN_BEYOND_CAP,
                x.to_vec(),
                (0..n)
                    .map(|i| if beyond(i) { cap(i) } else { None })
                    .map(|c| c.unwrap_or(f64::NAN))
                    .collect(),
                SeriesStyle::OpenPoints,
                color,
            )
            .with_points(points(&|i| beyond(i) && cap(i).is_some())),
        );
    }
    let mean = masked_mean(e);
    out.push(
        Series::new(
            MEAN_CROSS,
            x.to_vec(),
            mean.clone(),
            SeriesStyle::Crosses,
            color,
        )
        .with_points(points(&|i| mean[i].is_finite())),
    );
    out
}

pub(super) fn check_empirical(panel: &str, eps: &[f64], e: &Empirical) -> FigureResult<()> {
    let n = eps.len();
    let optional = [
        e.std.len(),
        e.runs.len(),
        e.capped.len(),
        e.cap.len(),
        e.median.len(),
        e.q25.len(),
        e.q75.len(),
        e.cells.len(),
    ];
    if e.mean.len() != n || e.ci95.len() != n || optional.iter().any(|&l| l != 0 && l != n) {
        return Err(FigureError::Invalid(format!(
            "panel '{panel}', algorithm '{}': {} eps values but {} means, {} CIs, and {:?} \
             (std, runs, capped, cap, median, q25, q75, cells) values",
            e.algorithm,
            n,
            e.mean.len(),
            e.ci95.len(),
            optional
        )));
    }
    Ok(())
}

pub(super) fn runs_note(empirical: &[Empirical]) -> Option<String> {
    let mut counts: Vec<u64> = empirical
        .iter()
        .flat_map(|e| e.runs.iter().copied())
        .filter(|&r| r > 0)
        .collect();
    counts.sort_unstable();
    counts.dedup();
    match counts.as_slice() {
        [] => None,
        [r] => Some(format!("{r} runs per point")),
        [lo, .., hi] => Some(format!("{lo}–{hi} runs per point")),
    }
}
