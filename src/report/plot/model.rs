//! The figure model: plain data (a [`Figure`] of [`Panel`]s holding [`Series`] and reference
//! lines), the layer's errors, and the validation every renderer runs first.

use std::io;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Errors of the figure layer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FigureError {
    /// The figure description is not drawable (mismatched lengths, bad size, ...).
    #[error("invalid figure: {0}")]
    Invalid(String),
    /// The bundled font could not be registered.
    #[error("cannot register the bundled font DejaVu Sans: {0}")]
    Font(String),
    /// plotters reported an error while drawing.
    #[error("drawing failed: {0}")]
    Draw(String),
    /// Writing an output file failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
}

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
    /// Solid line with markers.
    LineAndPoints,
    /// Open (outlined) markers only: values that are only lower bounds (e.g. means of cells with
    /// capped runs, labelled "≥").
    OpenPoints,
}

impl SeriesStyle {
    /// Whether the style draws markers.
    pub fn has_markers(self) -> bool {
        matches!(
            self,
            SeriesStyle::Points | SeriesStyle::LineAndPoints | SeriesStyle::OpenPoints
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
    /// Optional `±` half-widths (e.g. one standard deviation), same length as `y`, `>= 0` or NaN.
    #[serde(default)]
    pub y_err: Option<Vec<f64>>,
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
}

/// Default width of one panel, pixels.
pub const PANEL_WIDTH: u32 = 600;
/// Default height of one panel (plot, titles and axis labels), pixels.
pub const PANEL_HEIGHT: u32 = 450;

impl Figure {
    /// A figure with `ncols` panels per row and a size of [`PANEL_WIDTH`] × [`PANEL_HEIGHT`]
    /// per panel plus room for the title and the legend (about one legend row per 260 pixels
    /// of width and distinct label).
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
        let per_row = (width / 260).max(1) as usize;
        let legend_rows = labels.len().div_ceil(per_row) as u32;
        Figure {
            title: title.into(),
            panels,
            ncols,
            width,
            height: PANEL_HEIGHT * nrows as u32 + 60 + 28 * legend_rows,
        }
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
                if let Some(e) = &s.y_err {
                    if e.len() != s.y.len() {
                        return bad(format!(
                            "panel '{}', series '{}': y_err has {} values, y has {}",
                            p.title,
                            s.label,
                            e.len(),
                            s.y.len()
                        ));
                    }
                    if let Some(v) = e.iter().find(|v| **v < 0.0) {
                        return bad(format!(
                            "panel '{}', series '{}': y_err = {v}, must be >= 0 (or NaN)",
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
