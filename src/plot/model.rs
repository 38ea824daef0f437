//! The figure model: plain data (a [`Figure`] of [`Panel`]s holding [`Series`] and reference
//! lines), the layer's errors, and the validation every renderer runs first.

use serde::{Deserialize, Serialize};

pub use crate::error::FigureError;

/// Result alias of the figure layer.
pub type FigureResult<T> = std::result::Result<T, FigureError>;

/// How a data series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeriesStyle {
    /// Solid line.
    Line,
    /// Dashed line (the paper-figure builders use it for lower bounds).
    Dashed,
    /// Dotted line (used for upper bounds).
    Dotted,
    /// Markers only (used for empirical means).
    Points,
    /// Markers joined by a thin, faded line that only guides the eye (nothing was measured
    /// between the markers).
    LineAndPoints,
    /// Open (outlined) markers only: values that are only lower bounds (e.g. means of cells with
    /// capped runs, labelled "≥").
    OpenPoints,
    /// `×` markers only, in the series colour whatever its marker shape (e.g. means drawn beside
    /// medians).
    Crosses,
}

impl SeriesStyle {
    /// Whether the style draws markers.
    pub fn has_markers(self) -> bool {
        matches!(
            self,
            SeriesStyle::Points
                | SeriesStyle::LineAndPoints
                | SeriesStyle::OpenPoints
                | SeriesStyle::Crosses
        )
    }
}

/// How the `± y_err` of a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrStyle {
    /// Vertical error bars with caps.
    #[default]
    Bars,
    /// A translucent band between `y − err` and `y + err`.
    Band,
}

/// How a reference line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefStyle {
    /// Thin solid line.
    Solid,
    /// Dashed line.
    Dashed,
    /// Dotted line.
    Dotted,
    /// Translucent shading: a band from `x` to `x_hi` for a [`VLine`] with `x_hi`, else a wide
    /// translucent line (the paper's "shaded vertical line").
    Shaded,
}

/// The statistics behind one plotted point, kept in the figure's JSON sidecar so that a reader
/// can judge the point without the data: its runs, how many were capped, the mean (a lower
/// bound when runs were capped), its 95% interval, the median and quartiles (Kaplan–Meier;
/// `None`: beyond the cap), and the digest of the cell it comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointStats {
    /// Runs.
    pub runs: u64,
    /// Runs that hit the cap.
    pub capped: u64,
    /// Mean of `τ` over all runs (capped runs at the cap).
    pub mean: f64,
    /// Whether `mean` is only a lower bound (`capped > 0`).
    pub mean_is_lower_bound: bool,
    /// 95% Student-t interval of the mean (`None` when runs were capped).
    pub ci95: Option<[f64; 2]>,
    /// Sample standard deviation of `τ` over all runs (capped runs at the cap), when reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub std: Option<f64>,
    /// Median of `τ`.
    pub median: Option<u64>,
    /// First quartile of `τ`.
    pub q25: Option<u64>,
    /// Third quartile of `τ`.
    pub q75: Option<u64>,
    /// Digest of the cell's specification.
    pub cell: Option<String>,
}

/// One data series of a panel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Legend label; an empty label keeps the series out of the legend.
    pub label: String,
    /// Abscissae (data space).
    pub x: Vec<f64>,
    /// Ordinates, same length as `x`; non-finite values are skipped.
    pub y: Vec<f64>,
    /// Optional `±` half-widths (e.g. one standard deviation), same length as `y`, `>= 0` or NaN;
    /// the upper half-widths when `y_err_below` is given.
    #[serde(default)]
    pub y_err: Option<Vec<f64>>,
    /// Optional lower half-widths of an asymmetric error (e.g. `median − q25` of an
    /// interquartile band), same length as `y`, `>= 0` or NaN; only with `y_err`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_err_below: Option<Vec<f64>>,
    /// How the error is drawn.
    #[serde(default)]
    pub err_style: ErrStyle,
    /// Line / marker style.
    pub style: SeriesStyle,
    /// Index into the fixed palette [`PALETTE`](super::PALETTE) (taken modulo its length); it also picks the
    /// marker shape.
    pub color: usize,
    /// Per point (same length as `x`), the statistics behind it (`None`: a point this series
    /// does not draw); absent for curves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<Option<PointStats>>>,
}

impl Series {
    /// A series without error bars.
    pub fn new(
        label: impl Into<String>,
        x: Vec<f64>,
        y: Vec<f64>,
        style: SeriesStyle,
        color: usize,
    ) -> Self {
        Series {
            label: label.into(),
            x,
            y,
            y_err: None,
            y_err_below: None,
            err_style: ErrStyle::Bars,
            style,
            color,
            points: None,
        }
    }

    /// Adds the statistics behind each point (one entry per `x`).
    pub fn with_points(mut self, points: Vec<Option<PointStats>>) -> Self {
        self.points = Some(points);
        self
    }

    /// Adds `± err` drawn as `err_style`.
    pub fn with_err(mut self, err: Vec<f64>, err_style: ErrStyle) -> Self {
        self.y_err = Some(err);
        self.err_style = err_style;
        self
    }

    /// Adds the asymmetric error `[y − below, y + above]` drawn as `err_style`.
    pub fn with_err_range(mut self, below: Vec<f64>, above: Vec<f64>, err_style: ErrStyle) -> Self {
        self.y_err = Some(above);
        self.y_err_below = Some(below);
        self.err_style = err_style;
        self
    }
}

/// A vertical reference line (e.g. a regime switch), or a shaded band `[x, x_hi]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VLine {
    /// Position (data space).
    pub x: f64,
    /// Right end of a shaded band (only with [`RefStyle::Shaded`]); must be `>= x`.
    #[serde(default)]
    pub x_hi: Option<f64>,
    /// Legend label (empty: not in the legend).
    pub label: String,
    /// Style.
    pub style: RefStyle,
    /// Palette index.
    pub color: usize,
}

/// A horizontal reference line (e.g. an optimal allocation, or ratio = 1, or the mean of a
/// non-private algorithm across ε).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HLine {
    /// Position (data space).
    pub y: f64,
    /// The statistics behind the line when it is a measured value (sidecar only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<PointStats>,
    /// Legend label (empty: not in the legend).
    pub label: String,
    /// Style ([`RefStyle::Shaded`] draws a wide translucent line).
    pub style: RefStyle,
    /// Palette index.
    pub color: usize,
}

/// One plot of a figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Panel {
    /// Title above the plot.
    pub title: String,
    /// Optional second, smaller title line (e.g. the regime-switch values); empty for none.
    #[serde(default)]
    pub subtitle: String,
    /// Label of the x axis, with its unit.
    pub x_label: String,
    /// Label of the y axis, with its unit.
    pub y_label: String,
    /// Logarithmic x axis.
    pub x_log: bool,
    /// Logarithmic y axis.
    pub y_log: bool,
    /// Fixed x range `[lo, hi]` (data space); `None` = automatic with a margin.
    #[serde(default)]
    pub x_range: Option<[f64; 2]>,
    /// Fixed y range `[lo, hi]` (data space); `None` = automatic with a margin.
    #[serde(default)]
    pub y_range: Option<[f64; 2]>,
    /// Data series, drawn in order (later ones on top).
    pub series: Vec<Series>,
    /// Vertical reference lines.
    #[serde(default)]
    pub vlines: Vec<VLine>,
    /// Horizontal reference lines.
    #[serde(default)]
    pub hlines: Vec<HLine>,
}

impl Panel {
    /// An empty panel with linear axes.
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
    ) -> Self {
        Panel {
            title: title.into(),
            subtitle: String::new(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            x_log: false,
            y_log: false,
            x_range: None,
            y_range: None,
            series: Vec::new(),
            vlines: Vec::new(),
            hlines: Vec::new(),
        }
    }
}

/// A figure: a title, a grid of panels (row-major, `ncols` per row) and a size in pixels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    /// Title at the top of the figure.
    pub title: String,
    /// Panels, row-major.
    pub panels: Vec<Panel>,
    /// Panels per row (`>= 1`).
    pub ncols: usize,
    /// Width in pixels (PNG) / user units (SVG).
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Caption drawn below the legend (wrapped to the width; empty: none), e.g. the cap on the
    /// runs and how to read the curves.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub caption: String,
}

/// Height of one caption line, pixels (at the default panel size).
pub const CAPTION_LINE_HEIGHT: u32 = 21;
/// Caption characters per pixel of width: the estimate [`Figure::with_caption`] sizes by (the
/// drawing wraps by the measured text width).
pub const CAPTION_CHARS_PER_PIXEL: f64 = 1.0 / 7.6;

/// Pixels [`Figure::with_caption`] adds for `caption` at `width` (0 for no caption).
fn caption_height(caption: &str, width: u32) -> u32 {
    if caption.is_empty() {
        return 0;
    }
    let per_line = (f64::from(width.saturating_sub(40)) * CAPTION_CHARS_PER_PIXEL).max(10.0);
    let lines: f64 = caption
        .split('\n')
        .map(|l| (l.chars().count() as f64 / per_line).ceil().max(1.0))
        .sum();
    // Words wrap before the line is full: one line of slack, then a margin.
    (lines as u32 + 1) * CAPTION_LINE_HEIGHT + 8
}

/// Default width of one panel, pixels.
pub const PANEL_WIDTH: u32 = 600;
/// Default height of one panel (plot, titles and axis labels), pixels.
pub const PANEL_HEIGHT: u32 = 450;

impl Figure {
    /// A figure with `ncols` panels per row and a size of [`PANEL_WIDTH`] × [`PANEL_HEIGHT`]
    /// per panel plus room for the title and the legend (its distinct labels packed into rows
    /// by their estimated width).
    pub fn grid(title: impl Into<String>, panels: Vec<Panel>, ncols: usize) -> Self {
        let ncols = ncols.max(1);
        let nrows = panels.len().div_ceil(ncols).max(1);
        let cols = ncols.min(panels.len().max(1));
        let width = PANEL_WIDTH * cols as u32;
        let mut labels: Vec<&str> = Vec::new();
        for p in &panels {
            let names = p.series.iter().map(|s| s.label.as_str());
            let names = names.chain(p.hlines.iter().map(|h| h.label.as_str()));
            for l in names.chain(p.vlines.iter().map(|v| v.label.as_str())) {
                if !l.is_empty() && !labels.contains(&l) {
                    labels.push(l);
                }
            }
        }
        // Rows of the legend strip: entries packed greedily by an estimate of their width
        // (sample and gap 71 pixels, about 8.3 pixels per character; the drawing measures).
        let mut legend_rows = 0u32;
        let mut used = f64::INFINITY;
        let avail = f64::from(width.saturating_sub(40));
        for l in &labels {
            let w = 71.0 + 8.3 * l.chars().count() as f64;
            if used + w > avail {
                legend_rows += 1;
                used = w + 26.0;
            } else {
                used += w + 26.0;
            }
        }
        Figure {
            title: title.into(),
            panels,
            ncols,
            width,
            height: PANEL_HEIGHT * nrows as u32 + 60 + 28 * legend_rows,
            caption: String::new(),
        }
    }

    /// The figure with `caption` below its legend, taller by about one text line of
    /// [`CAPTION_LINE_HEIGHT`] pixels per [`CAPTION_CHARS_PER_PIXEL`]` × width` characters.
    pub fn with_caption(mut self, caption: impl Into<String>) -> Self {
        self.caption = caption.into();
        self.height += caption_height(&self.caption, self.width);
        self
    }

    /// Checks that the figure can be drawn.
    ///
    /// # Errors
    /// [`FigureError::Invalid`] naming the offending item: no panel, `ncols == 0`, a size outside
    /// `[200, 20000]` pixels, series whose `x`, `y`, `y_err` lengths differ, a negative error, a
    /// band with `x_hi < x`.
    pub fn validate(&self) -> FigureResult<()> {
        let bad = |m: String| Err(FigureError::Invalid(m));
        if self.panels.is_empty() {
            return bad(format!("figure '{}' has no panel", self.title));
        }
        if self.ncols == 0 {
            return bad(format!("figure '{}': ncols = 0, must be >= 1", self.title));
        }
        for (name, v) in [("width", self.width), ("height", self.height)] {
            if !(200..=20_000).contains(&v) {
                return bad(format!("{name} = {v}: must be in [200, 20000] pixels"));
            }
        }
        for p in &self.panels {
            for s in &p.series {
                if s.x.len() != s.y.len() {
                    return bad(format!(
                        "panel '{}', series '{}': x has {} values, y has {}",
                        p.title,
                        s.label,
                        s.x.len(),
                        s.y.len()
                    ));
                }
                if let Some(pts) = &s.points {
                    if pts.len() != s.x.len() {
                        return bad(format!(
                            "panel '{}', series '{}': {} point statistics for {} points",
                            p.title,
                            s.label,
                            pts.len(),
                            s.x.len()
                        ));
                    }
                }
                if s.y_err_below.is_some() && s.y_err.is_none() {
                    return bad(format!(
                        "panel '{}', series '{}': y_err_below without y_err",
                        p.title, s.label
                    ));
                }
                let errs = [("y_err", &s.y_err), ("y_err_below", &s.y_err_below)];
                for (name, e) in errs.iter().filter_map(|(n, e)| Some((n, e.as_ref()?))) {
                    if e.len() != s.y.len() {
                        return bad(format!(
                            "panel '{}', series '{}': {name} has {} values, y has {}",
                            p.title,
                            s.label,
                            e.len(),
                            s.y.len()
                        ));
                    }
                    if let Some(v) = e.iter().find(|v| **v < 0.0) {
                        return bad(format!(
                            "panel '{}', series '{}': {name} = {v}, must be >= 0 (or NaN)",
                            p.title, s.label
                        ));
                    }
                }
            }
            for v in &p.vlines {
                if let Some(hi) = v.x_hi {
                    if hi < v.x {
                        return bad(format!(
                            "panel '{}', line '{}': x_hi = {hi} < x = {}",
                            p.title, v.label, v.x
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// A plotters error as [`FigureError::Draw`].
pub(super) fn draw_err<E: std::fmt::Display>(e: E) -> FigureError {
    FigureError::Draw(e.to_string())
}
