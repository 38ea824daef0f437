//! Points beyond the axes: the axes a panel is drawn with, where a data point lies relative to
//! them, and the sidecar record of both.
//!
//! A fixed range (e.g. Figure 5's linear τ axis framed on the uncapped cells) can leave data
//! points outside the plot. Such a point is never dropped silently: the drawing puts an arrow at
//! the axis edge it lies beyond ([`OffScale`]), and the JSON sidecar writes the panel's axes
//! (`"axes"`, data space) and, per point of a marker series, `"off_scale"` (`null` inside,
//! else `"above"`, `"below"`, `"left"` or `"right"`), so that a reader (or a test) can check
//! every point against the axes it was drawn on.

use serde::{Deserialize, Serialize};

use super::axis::{Axis, from_display, to_display};
use super::model::{Figure, Panel, Series};

/// The side of the plot beyond which a point lies (drawn as an arrow at that edge).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OffScale {
    /// Above the top of the y axis (or `+∞` side).
    Above,
    /// Below the bottom of the y axis (also a non-positive value on a log y axis).
    Below,
    /// Left of the x axis.
    Left,
    /// Right of the x axis.
    Right,
}

impl OffScale {
    /// The sidecar's name of the side.
    pub fn as_str(self) -> &'static str {
        match self {
            OffScale::Above => "above",
            OffScale::Below => "below",
            OffScale::Left => "left",
            OffScale::Right => "right",
        }
    }
}

/// Display-space values that the axes must show. With a fixed x range, only the points inside
/// it count for the y range.
fn extent(panel: &Panel) -> (Vec<f64>, Vec<f64>) {
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    let x_window = panel.x_range.and_then(|[a, b]| {
        let (a, b) = (to_display(a, panel.x_log)?, to_display(b, panel.x_log)?);
        (a < b).then_some((a, b))
    });
    for s in &panel.series {
        for (i, (&x, &y)) in s.x.iter().zip(&s.y).enumerate() {
            let (Some(xd), Some(yd)) = (to_display(x, panel.x_log), to_display(y, panel.y_log))
            else {
                continue;
            };
            if x_window.is_some_and(|(a, b)| xd < a || xd > b) {
                continue;
            }
            xs.push(xd);
            ys.push(yd);
            if let Some(e) = s
                .y_err
                .as_ref()
                .and_then(|e| e.get(i))
                .filter(|e| e.is_finite())
            {
                ys.extend(to_display(y + e, panel.y_log));
                let below = s.y_err_below.as_ref().and_then(|b| b.get(i)).copied();
                let below = below.filter(|b| b.is_finite()).unwrap_or(*e);
                ys.extend(to_display(y - below, panel.y_log));
            }
        }
    }
    for v in &panel.vlines {
        xs.extend(to_display(v.x, panel.x_log));
        if let Some(hi) = v.x_hi {
            xs.extend(to_display(hi, panel.x_log));
        }
    }
    for hl in &panel.hlines {
        ys.extend(to_display(hl.y, panel.y_log));
    }
    (xs, ys)
}

/// The x and y axes `panel` is drawn with (its fixed ranges, else the data with a margin).
pub(crate) fn panel_axes(panel: &Panel) -> (Axis, Axis) {
    let (xs, ys) = extent(panel);
    (
        Axis::new(&xs, panel.x_log, panel.x_range),
        Axis::new(&ys, panel.y_log, panel.y_range),
    )
}

/// Where the data point `(x, y)` lies relative to the axes: `None` inside them (edges
/// included) or when it is no point at all (a NaN or infinite coordinate: a missing value);
/// otherwise the side to mark, the y side first. A non-positive `y` on a log axis is below it.
pub(crate) fn locate(x: f64, y: f64, xa: &Axis, ya: &Axis) -> Option<OffScale> {
    if !x.is_finite() || !y.is_finite() {
        return None;
    }
    let xd = to_display(x, xa.log)?;
    // Relative slack: a point on an edge stays inside despite rounding in the transform.
    let tol = |a: &Axis| 1e-9 * (a.hi - a.lo);
    match to_display(y, ya.log) {
        None => return Some(OffScale::Below),
        Some(yd) if yd > ya.hi + tol(ya) => return Some(OffScale::Above),
        Some(yd) if yd < ya.lo - tol(ya) => return Some(OffScale::Below),
        Some(_) => {}
    }
    if xd < xa.lo - tol(xa) {
        Some(OffScale::Left)
    } else if xd > xa.hi + tol(xa) {
        Some(OffScale::Right)
    } else {
        None
    }
}

/// Per point of a marker series, where it lies (all `None` for a curve: a clipped line has no
/// points to mark).
pub(crate) fn series_sides(s: &Series, xa: &Axis, ya: &Axis) -> Vec<Option<OffScale>> {
    s.x.iter()
        .zip(&s.y)
        .map(|(&x, &y)| {
            if s.style.has_markers() {
                locate(x, y, xa, ya)
            } else {
                None
            }
        })
        .collect()
}

/// The number of data points (markers and measured horizontal lines) of `fig` that lie beyond
/// their axes, i.e. that the drawing marks with an arrow at an edge.
///
/// # Example
/// ```
/// use dpbai::plot::{count_off_scale, Figure, Panel, Series, SeriesStyle};
/// let mut p = Panel::new("p", "x", "y");
/// p.y_range = Some([0.0, 1.0]);
/// p.series.push(Series::new("a", vec![1.0, 2.0], vec![0.5, 3.0], SeriesStyle::Points, 0));
/// assert_eq!(count_off_scale(&Figure::grid("t", vec![p], 1)), 1);
/// ```
pub fn count_off_scale(fig: &Figure) -> usize {
    fig.panels
        .iter()
        .map(|p| {
            let (xa, ya) = panel_axes(p);
            let marks: usize = p
                .series
                .iter()
                .map(|s| series_sides(s, &xa, &ya).iter().flatten().count())
                .sum();
            let lines = p
                .hlines
                .iter()
                .filter(|h| h.stats.is_some() && hline_side(h.y, &ya).is_some())
                .count();
            marks + lines
        })
        .sum()
}

/// Whether some data point of `fig` lies beyond its axes.
pub(crate) fn any_off_scale(fig: &Figure) -> bool {
    count_off_scale(fig) > 0
}

/// Where a measured horizontal line at `y` lies relative to the y axis.
pub(crate) fn hline_side(y: f64, ya: &Axis) -> Option<OffScale> {
    match to_display(y, ya.log) {
        _ if !y.is_finite() => None,
        None => Some(OffScale::Below),
        Some(yd) if yd > ya.hi + 1e-9 * (ya.hi - ya.lo) => Some(OffScale::Above),
        Some(yd) if yd < ya.lo - 1e-9 * (ya.hi - ya.lo) => Some(OffScale::Below),
        Some(_) => None,
    }
}

/// Adds to the serialised `data` of `fig` (as [`serde_json::to_value`] writes it) each panel's
/// `"axes"` (`{"x": [lo, hi], "y": [lo, hi], "x_log", "y_log"}`, data space), each marker
/// series' `"off_scale"` (one entry per point) with the same key in the statistics of each
/// point beyond the axes, and `"off_scale"` on each measured horizontal line beyond them.
pub(crate) fn annotate(fig: &Figure, data: &mut serde_json::Value) {
    let Some(panels) = data.get_mut("panels").and_then(|p| p.as_array_mut()) else {
        return;
    };
    for (panel, pj) in fig.panels.iter().zip(panels.iter_mut()) {
        let (xa, ya) = panel_axes(panel);
        let range = |a: &Axis| [from_display(a.lo, a.log), from_display(a.hi, a.log)];
        pj["axes"] = serde_json::json!({
            "x": range(&xa), "y": range(&ya), "x_log": xa.log, "y_log": ya.log,
        });
        if let Some(series) = pj.get_mut("series").and_then(|s| s.as_array_mut()) {
            for (s, sj) in panel.series.iter().zip(series.iter_mut()) {
                if !s.style.has_markers() {
                    continue;
                }
                let sides = series_sides(s, &xa, &ya);
                if let Some(points) = sj.get_mut("points").and_then(|p| p.as_array_mut()) {
                    for (side, pt) in sides.iter().zip(points.iter_mut()) {
                        if let (Some(side), Some(obj)) = (side, pt.as_object_mut()) {
                            obj.insert("off_scale".into(), side.as_str().into());
                        }
                    }
                }
                sj["off_scale"] = sides.iter().map(|s| s.map(OffScale::as_str)).collect();
            }
        }
        if let Some(hlines) = pj.get_mut("hlines").and_then(|h| h.as_array_mut()) {
            for (h, hj) in panel.hlines.iter().zip(hlines.iter_mut()) {
                if h.stats.is_some() {
                    hj["off_scale"] = hline_side(h.y, &ya).map(OffScale::as_str).into();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::{Series, SeriesStyle};

    fn panel(y_range: Option<[f64; 2]>, log: bool) -> Panel {
        let mut p = Panel::new("p", "x", "y");
        p.y_log = log;
        p.y_range = y_range;
        p.series.push(Series::new(
            "pts",
            vec![1.0, 2.0, 3.0, 4.0],
            vec![0.5, 5.0, f64::NAN, -1.0],
            SeriesStyle::Points,
            0,
        ));
        p
    }

    #[test]
    fn points_beyond_a_fixed_range_are_located_and_missing_values_are_not() {
        let p = panel(Some([0.0, 1.0]), false);
        let (xa, ya) = panel_axes(&p);
        let sides = series_sides(&p.series[0], &xa, &ya);
        assert_eq!(
            sides,
            [None, Some(OffScale::Above), None, Some(OffScale::Below)]
        );
        // an automatic range shows every point
        let p = panel(None, false);
        let (xa, ya) = panel_axes(&p);
        assert!(
            series_sides(&p.series[0], &xa, &ya)
                .iter()
                .all(Option::is_none)
        );
        // a non-positive value has no place on a log axis: below it
        let p = panel(None, true);
        let (xa, ya) = panel_axes(&p);
        assert_eq!(
            series_sides(&p.series[0], &xa, &ya)[3],
            Some(OffScale::Below)
        );
    }

    #[test]
    fn curves_have_no_points_to_mark() {
        let mut p = panel(Some([0.0, 1.0]), false);
        p.series[0].style = SeriesStyle::Dotted;
        let (xa, ya) = panel_axes(&p);
        assert!(
            series_sides(&p.series[0], &xa, &ya)
                .iter()
                .all(Option::is_none)
        );
    }

    #[test]
    fn the_sidecar_records_the_axes_and_the_side_of_each_point() {
        let fig = Figure::grid("t", vec![panel(Some([0.0, 1.0]), false)], 1);
        let mut data = serde_json::to_value(&fig).expect("json");
        annotate(&fig, &mut data);
        let p = &data["panels"][0];
        assert_eq!(p["axes"]["y"], serde_json::json!([0.0, 1.0]));
        assert_eq!(
            p["series"][0]["off_scale"],
            serde_json::json!([null, "above", null, "below"])
        );
        assert!(any_off_scale(&fig));
    }
}
