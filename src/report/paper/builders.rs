//! Builders of the paper's figures from plain numbers: stopping time versus ε with the theory
//! drawn on top (Figures 1–5) and the ratio empirical / lower bound; the allocation figure
//! (re-exported here) is in the sibling module `allocation`.
//!
//! The caller computes the numbers (Monte Carlo summaries, `T*·log(1/(2.4δ))`, upper bounds,
//! switches); the builders only choose styles: empirical means are markers joined by a thin line
//! with 95% confidence intervals of the mean as error bars (open markers, no bar, for cells
//! with capped runs), lower bounds dashed (black, then grey), upper bounds dotted in the
//! colour of their algorithm, the theoretical regime switch a thin black vertical line and the
//! paper's empirical switch a shaded grey one.

pub use super::allocation::{AllocationPanelData, allocation_figure};
pub use super::data::{
    BranchSwitch, Curve, Empirical, EpsPanelData, PointStat, RatioPanelData, Switch,
};
pub use super::series::{CAPPED_SUFFIX, MEAN_CROSS, MEDIAN_BEYOND_CAP};
use super::series::{
    algorithm_colors, check_empirical, color_of, empirical_pair, masked_mean, mean_err,
    median_series, runs_note,
};
use crate::plot::{
    BLACK_INDEX, Figure, FigureError, FigureResult, GREY_INDEX, HLine, Panel, RefStyle, Series,
    SeriesStyle, VLine,
};

/// Axis label of the privacy budget.
pub const EPS_LABEL: &str = "privacy budget ε";
/// Axis label of the stopping time.
pub const TAU_LABEL: &str = "stopping time τ (samples)";
/// Legend label of the theoretical regime switch.
pub const THEORY_SWITCH_LABEL: &str = "theoretical regime switch ε*";
/// Legend label of the paper's empirical regime switch.
pub const PAPER_SWITCH_LABEL: &str = "paper's empirical switch (shaded)";

/// Panel note on the error bars of the mean's 95% CI (the default statistic).
pub const BARS_NOTE: &str = "bars: 95% CI of the mean";

pub(super) fn invalid<T>(msg: String) -> FigureResult<T> {
    Err(FigureError::Invalid(msg))
}

/// Number of columns of a figure with `n` panels: 2 for up to 2 panels and for 4, else 3.
pub(super) fn columns(n: usize) -> usize {
    match n {
        0..=2 => n.max(1),
        4 => 2,
        _ => 3,
    }
}

/// The x range of an ε panel: the ε values where some algorithm has data, widened by 5% of
/// the log span on each side (bound curves given on a wider grid are clipped to it, and the
/// y range follows the visible part). `None` (automatic) without any data.
fn data_window(eps: &[f64], empirical: &[Empirical]) -> Option<[f64; 2]> {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for e in empirical {
        for (&x, m) in eps.iter().zip(masked_mean(e)) {
            if x > 0.0 && x.is_finite() && m.is_finite() {
                lo = lo.min(x);
                hi = hi.max(x);
            }
        }
    }
    if lo > hi {
        return None;
    }
    let (a, b) = (lo.log10(), hi.log10());
    let m = if b > a { 0.05 * (b - a) } else { 0.5 };
    Some([10f64.powf(a - m), 10f64.powf(b + m)])
}

pub(super) fn fmt_eps(v: f64) -> String {
    let s = format!("{:.3}", v);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" || s == "0" && v != 0.0 {
        format!("{v:.2e}")
    } else {
        s.to_string()
    }
}

/// Stopping time versus ε, one panel per instance (the paper's Figures 1–5): empirical
/// mean with its 95% CI per algorithm, lower bounds (dashed), upper bounds (dotted), the
/// theoretical switch (thin line) and the paper's empirical switch (shaded); as
/// [`paper_eps_figure_with`] with [`PointStat::MeanCi95`]. The x axis is logarithmic; the y
/// axis too when `y_log` (Figures 1–4), linear otherwise (Figure 5). Two panels are laid side
/// by side, six as 2 rows × 3 columns. The x range covers the ε values with data (cells with
/// `runs == 0` or a NaN mean do not count); bound curves are clipped to it. The returned
/// [`Figure`] is plain data: set a panel's `y_range` to zoom (e.g. Figure 5's linear axis).
///
/// # Errors
/// [`FigureError::Invalid`] if a panel's arrays do not match its ε grid, or if there is no panel.
///
/// # Example
/// ```
/// use dpbai::report::paper::builders::{paper_eps_figure, Curve, Empirical, EpsPanelData};
/// let eps = vec![0.1, 1.0, 10.0];
/// let panel = EpsPanelData {
///     instance: "μ1".into(),
///     eps: eps.clone(),
///     empirical: vec![Empirical {
///         mean: vec![9e4, 2e4, 1.5e4],
///         ci95: vec![2e3, 5e2, 4e2],
///         runs: vec![1000; 3],
///         ..Empirical::named("AdaP-TT")
///     }],
///     lower_bounds: vec![Curve {
///         label: "lower bound".into(),
///         x: eps.clone(),
///         y: vec![3e4, 6e3, 4e3],
///         algorithm: None,
///     }],
///     upper_bounds: vec![],
///     upper_switches: vec![],
///     theory_switch: Some(0.03),
///     paper_switch: Some(0.1),
///     switches: vec![],
///     note: None,
/// };
/// let fig = paper_eps_figure("Figure 2", vec![panel.clone(), panel], true).unwrap();
/// assert_eq!(fig.ncols, 2);
/// assert_eq!(fig.panels[0].vlines.len(), 2);
/// // render with dpbai::plot::render(&fig, stem)
/// ```
pub fn paper_eps_figure(
    title: &str,
    panels: Vec<EpsPanelData>,
    y_log: bool,
) -> FigureResult<Figure> {
    paper_eps_figure_with(title, panels, y_log, PointStat::MeanCi95)
}

/// [`paper_eps_figure`] plotting `stat` per point: the mean with its 95% CI, the mean ± one
/// standard deviation of `τ` (the paper's figures), or the Kaplan–Meier median with its
/// interquartile band and the mean as `×` (see [`PointStat`]). Each upper-bound branch switch
/// ([`EpsPanelData::upper_switches`]) is a dotted vertical line in its algorithm's colour.
///
/// # Errors
/// As [`paper_eps_figure`].
///
/// # Example
/// ```
/// use dpbai::report::paper::builders::{paper_eps_figure_with, Empirical, EpsPanelData, PointStat};
/// let panel = EpsPanelData {
///     instance: "μ2".into(),
///     eps: vec![0.1, 1.0],
///     empirical: vec![Empirical {
///         mean: vec![5e6, 3e5],
///         ci95: vec![f64::NAN, 1e4],
///         runs: vec![100, 100],
///         capped: vec![10, 0],
///         cap: vec![30_000_000; 2],
///         median: vec![Some(260_000), Some(250_000)],
///         q25: vec![Some(240_000), Some(230_000)],
///         q75: vec![None, Some(280_000)],
///         ..Empirical::named("AdaP-TT*")
///     }],
///     lower_bounds: vec![],
///     upper_bounds: vec![],
///     upper_switches: vec![],
///     theory_switch: None,
///     paper_switch: None,
///     switches: vec![],
///     note: None,
/// };
/// let fig = paper_eps_figure_with("median", vec![panel], true, PointStat::MedianIqr).unwrap();
/// let median = &fig.panels[0].series[0];
/// assert_eq!(median.y, vec![260_000.0, 250_000.0]);
/// // the band reaches the cap where the third quartile lies beyond it
/// assert_eq!(median.y_err.as_ref().unwrap()[0], 30_000_000.0 - 260_000.0);
/// ```
pub fn paper_eps_figure_with(
    title: &str,
    panels: Vec<EpsPanelData>,
    y_log: bool,
    stat: PointStat,
) -> FigureResult<Figure> {
    if panels.is_empty() {
        return invalid(format!("figure '{title}' has no panel"));
    }
    let algos = algorithm_colors(
        panels
            .iter()
            .flat_map(|p| p.empirical.iter().map(|e| e.algorithm.as_str())),
    );
    let mut out = Vec::with_capacity(panels.len());
    for p in &panels {
        let mut panel = Panel::new(p.instance.clone(), EPS_LABEL, TAU_LABEL);
        panel.x_log = true;
        panel.y_log = y_log;
        for (k, lb) in p.lower_bounds.iter().enumerate() {
            let color = if k == 0 { BLACK_INDEX } else { GREY_INDEX };
            panel.series.push(Series::new(
                lb.label.clone(),
                lb.x.clone(),
                lb.y.clone(),
                SeriesStyle::Dashed,
                color,
            ));
        }
        let bound_color =
            |a: Option<&str>| a.and_then(|a| color_of(&algos, a)).unwrap_or(GREY_INDEX);
        for ub in &p.upper_bounds {
            panel.series.push(Series::new(
                ub.label.clone(),
                ub.x.clone(),
                ub.y.clone(),
                SeriesStyle::Dotted,
                bound_color(ub.algorithm.as_deref()),
            ));
        }
        for e in &p.empirical {
            check_empirical(&p.instance, &p.eps, e)?;
            panel.series.extend(match stat {
                PointStat::MedianIqr => median_series(&algos, e, &p.eps),
                _ => empirical_pair(&algos, e, &p.eps, masked_mean(e), mean_err(e, stat)),
            });
        }
        panel.x_range = data_window(&p.eps, &p.empirical);
        let mut notes: Vec<String> = p.note.iter().cloned().collect();
        if let Some(x) = p.theory_switch {
            panel.vlines.push(VLine {
                x,
                x_hi: None,
                label: THEORY_SWITCH_LABEL.to_string(),
                style: RefStyle::Solid,
                color: BLACK_INDEX,
            });
            notes.push(format!("ε* theory = {}", fmt_eps(x)));
        }
        if let Some(x) = p.paper_switch {
            panel.vlines.push(VLine {
                x,
                x_hi: None,
                label: PAPER_SWITCH_LABEL.to_string(),
                style: RefStyle::Shaded,
                color: GREY_INDEX,
            });
            notes.push(format!("paper ≈ {}", fmt_eps(x)));
        }
        for sw in &p.switches {
            panel.vlines.push(VLine {
                x: sw.x,
                x_hi: None,
                label: sw.label.clone(),
                style: if sw.dashed {
                    RefStyle::Dashed
                } else {
                    RefStyle::Dotted
                },
                color: GREY_INDEX,
            });
            if !sw.note.is_empty() {
                notes.push(sw.note.clone());
            }
        }
        for sw in &p.upper_switches {
            panel.vlines.push(VLine {
                x: sw.x,
                x_hi: None,
                label: sw.label.clone(),
                style: RefStyle::Dotted,
                color: bound_color(Some(&sw.algorithm)),
            });
            notes.push(sw.note.clone());
        }
        notes.extend(runs_note(&p.empirical));
        notes.push(stat.note().to_string());
        panel.subtitle = notes.join("   ·   ");
        out.push(panel);
    }
    let ncols = columns(out.len());
    Ok(Figure::grid(title, out, ncols))
}

/// Ratio of the empirical stopping time to the lower bound versus ε (log–log), with the 95% CI
/// of the mean scaled likewise (open markers "≥" for cells with capped runs) and a dashed line at
/// ratio 1 (an algorithm below it on average would refute
/// the lower bound, up to Monte Carlo error).
///
/// # Errors
/// [`FigureError::Invalid`] on mismatched lengths or a non-positive lower bound.
///
/// # Example
/// ```
/// use dpbai::report::paper::builders::{ratio_figure, Empirical, RatioPanelData};
/// let panel = RatioPanelData {
///     instance: "μ1".into(),
///     eps: vec![0.1, 1.0],
///     empirical: vec![Empirical {
///         mean: vec![400.0, 300.0],
///         ci95: vec![40.0, 30.0],
///         ..Empirical::named("AdaP-TT")
///     }],
///     lower_bound: vec![100.0, 100.0],
/// };
/// let fig = ratio_figure("ratio", vec![panel]).unwrap();
/// assert_eq!(fig.panels[0].series[0].y, vec![4.0, 3.0]);
/// ```
pub fn ratio_figure(title: &str, panels: Vec<RatioPanelData>) -> FigureResult<Figure> {
    if panels.is_empty() {
        return invalid(format!("figure '{title}' has no panel"));
    }
    let algos = algorithm_colors(
        panels
            .iter()
            .flat_map(|p| p.empirical.iter().map(|e| e.algorithm.as_str())),
    );
    let mut out = Vec::with_capacity(panels.len());
    for p in &panels {
        if p.lower_bound.len() != p.eps.len() {
            return invalid(format!(
                "panel '{}': {} eps values but {} lower-bound values",
                p.instance,
                p.eps.len(),
                p.lower_bound.len()
            ));
        }
        if let Some(v) = p.lower_bound.iter().find(|v| v.is_nan() || **v <= 0.0) {
            return invalid(format!(
                "panel '{}': lower bound = {v}, must be > 0",
                p.instance
            ));
        }
        let mut panel = Panel::new(
            p.instance.clone(),
            EPS_LABEL,
            "empirical τ / lower bound T* × log(1/(2.4δ))",
        );
        panel.x_log = true;
        panel.y_log = true;
        panel.hlines.push(HLine {
            stats: None,
            y: 1.0,
            label: "ratio 1 (lower bound)".to_string(),
            style: RefStyle::Dashed,
            color: BLACK_INDEX,
        });
        for e in &p.empirical {
            check_empirical(&p.instance, &p.eps, e)?;
            let mean = masked_mean(e);
            let ratio = mean
                .iter()
                .zip(&p.lower_bound)
                .map(|(m, l)| m / l)
                .collect();
            let err = e
                .ci95
                .iter()
                .zip(&p.lower_bound)
                .map(|(s, l)| s / l)
                .collect();
            panel
                .series
                .extend(empirical_pair(&algos, e, &p.eps, ratio, err));
        }
        panel.subtitle = runs_note(&p.empirical)
            .into_iter()
            .chain([BARS_NOTE.to_string()])
            .collect::<Vec<_>>()
            .join("   ·   ");
        out.push(panel);
    }
    let ncols = columns(out.len());
    Ok(Figure::grid(title, out, ncols))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn emp(name: &str, n: usize) -> Empirical {
        Empirical {
            mean: vec![100.0; n],
            ci95: vec![10.0; n],
            runs: vec![1000; n],
            ..Empirical::named(name)
        }
    }

    fn eps_panel(name: &str) -> EpsPanelData {
        EpsPanelData {
            instance: name.into(),
            eps: vec![0.1, 1.0, 10.0],
            empirical: vec![emp("TTUCB", 3), emp("AdaP-TT", 3)],
            lower_bounds: vec![],
            upper_bounds: vec![Curve {
                label: "UB AdaP-TT".into(),
                x: vec![0.1, 10.0],
                y: vec![1e3, 1e2],
                algorithm: Some("AdaP-TT".into()),
            }],
            upper_switches: vec![],
            theory_switch: Some(0.58224),
            paper_switch: Some(4.0),
            switches: vec![],
            note: None,
        }
    }

    #[test]
    fn algorithms_keep_their_colour_across_panels() {
        let mut p2 = eps_panel("μ2");
        p2.empirical.reverse();
        let fig = paper_eps_figure("t", vec![eps_panel("μ1"), p2], true).expect("valid");
        let color = |p: usize, label: &str| {
            fig.panels[p]
                .series
                .iter()
                .find(|s| s.label == label)
                .map(|s| s.color)
        };
        assert_eq!(color(0, "AdaP-TT"), color(1, "AdaP-TT"));
        assert_ne!(color(0, "AdaP-TT"), color(0, "TTUCB"));
        // the upper bound takes the colour of its algorithm
        assert_eq!(color(0, "UB AdaP-TT"), color(0, "AdaP-TT"));
        assert_eq!(fig.ncols, 2);
        assert!(fig.panels[0].subtitle.contains("ε* theory = 0.582"));
        assert!(fig.panels[0].subtitle.contains("1000 runs per point"));
    }

    #[test]
    fn six_panels_make_two_rows_of_three() {
        let panels = (1..=6).map(|i| eps_panel(&format!("μ{i}"))).collect();
        let fig = paper_eps_figure("t", panels, false).expect("valid");
        assert_eq!(fig.ncols, 3);
        assert!(fig.height > fig.width / 2);
    }

    #[test]
    fn mismatched_lengths_are_rejected() {
        let mut p = eps_panel("μ1");
        p.empirical[0].ci95.pop();
        assert!(paper_eps_figure("t", vec![p], true).is_err());
        let r = RatioPanelData {
            instance: "μ1".into(),
            eps: vec![1.0, 2.0],
            empirical: vec![emp("A", 2)],
            lower_bound: vec![1.0, 0.0],
        };
        assert!(ratio_figure("t", vec![r]).is_err());
    }

    #[test]
    fn zero_run_cells_are_missing() {
        let mut e = emp("A", 3);
        e.runs[1] = 0;
        let m = masked_mean(&e);
        assert!(m[0].is_finite() && m[1].is_nan() && m[2].is_finite());
    }

    #[test]
    fn ratio_divides_by_the_lower_bound() {
        let r = RatioPanelData {
            instance: "μ1".into(),
            eps: vec![1.0, 2.0],
            empirical: vec![emp("A", 2)],
            lower_bound: vec![50.0, 25.0],
        };
        let fig = ratio_figure("t", vec![r]).expect("valid");
        let s = &fig.panels[0].series[0];
        assert_eq!(s.y, vec![2.0, 4.0]);
        assert_eq!(s.y_err.as_deref(), Some(&[0.2, 0.4][..]));
    }

    #[test]
    fn allocation_shapes_are_checked() {
        let ok = AllocationPanelData {
            title: "μ4".into(),
            n: vec![10.0, 100.0],
            fractions: vec![vec![0.5, 0.4], vec![0.5, 0.6]],
            fraction_std: None,
            optimal: vec![0.45, 0.55],
        };
        let fig = allocation_figure("t", vec![ok.clone()]).expect("valid");
        assert_eq!(fig.panels[0].series.len(), 2);
        let mut bad = ok;
        bad.optimal.pop();
        assert!(allocation_figure("t", vec![bad]).is_err());
    }

    #[test]
    fn eps_values_are_written_compactly() {
        assert_eq!(fmt_eps(0.58224), "0.582");
        assert_eq!(fmt_eps(4.0), "4");
        assert_eq!(fmt_eps(0.0001), "1.00e-4");
    }
}
