//! Data-driven figures: a [`Figure`] is plain data (panels, series, reference lines) that
//! [`render`] draws with plotters into `<stem>.png` and `<stem>.svg`.
//!
//! The caller supplies numbers only; this module chooses ranges, ticks, colours, markers and the
//! layout. Design rules:
//! * one legend strip for the whole figure, below the panels (never over the data); entries with
//!   the same label in several panels appear once;
//! * log axes get decade ticks (`0.001 … 1000`, or `10⁻⁴ … 10⁸` when plain numbers would be too
//!   long); linear axes get 1-2-5 steps;
//! * NaN, infinite and (on a log axis) non-positive values are skipped, and lines break there;
//!   error bars that reach below zero on a log axis are cut at the bottom of the plot;
//! * everything drawn from data is clipped to the plot rectangle;
//! * text uses only the bundled DejaVu Sans (`assets/fonts/DejaVuSans.ttf`), registered once
//!   under the family name `"sans-serif"` before anything is drawn, so no system font is needed
//!   and the bitmap backend can never meet an unregistered font;
//! * rendering is deterministic: the same figure gives the same SVG bytes.
//!
//! # Example
//! ```
//! use dpbai::report::plot::{render_svg, Figure, Panel, Series, SeriesStyle};
//! let mut panel = Panel::new("μ1", "privacy budget ε", "stopping time τ (samples)");
//! panel.x_log = true;
//! panel.y_log = true;
//! panel.series.push(Series::new(
//!     "TTUCB",
//!     vec![0.01, 0.1, 1.0],
//!     vec![5e4, 6e3, 900.0],
//!     SeriesStyle::LineAndPoints,
//!     0,
//! ));
//! let fig = Figure::grid("demo", vec![panel], 1);
//! let svg = render_svg(&fig).unwrap();
//! assert!(svg.contains("stopping time τ (samples)"));
//! ```

pub(crate) mod axis;
pub(crate) mod geometry;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::{Deserialize, Serialize};

use self::axis::{to_display, Axis};
use self::geometry::{clip_polygon, clip_polyline, Pt, Rect};

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
    /// Index into the fixed palette [`PALETTE`] (taken modulo its length); it also picks the
    /// marker shape.
    pub color: usize,
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
        }
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

/// A horizontal reference line (e.g. an optimal allocation, or ratio = 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HLine {
    /// Position (data space).
    pub y: f64,
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

/// The fixed palette (Okabe–Ito, distinguishable with colour-vision deficiencies), then black
/// and grey. Series refer to it by index.
pub const PALETTE: [(u8, u8, u8); 8] = [
    (0, 114, 178),   // blue
    (213, 94, 0),    // vermillion
    (0, 158, 115),   // bluish green
    (204, 121, 167), // reddish purple
    (230, 159, 0),   // orange
    (86, 180, 233),  // sky blue
    (0, 0, 0),       // black
    (110, 110, 110), // grey
];
/// Palette index of black (the builders draw lower bounds in it).
pub const BLACK_INDEX: usize = 6;
/// Palette index of grey.
pub const GREY_INDEX: usize = 7;

fn color(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

/// The font family name every text style uses; the bundled font is registered under it.
pub const FONT_FAMILY: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
static FONT: OnceLock<Result<(), String>> = OnceLock::new();

/// Registers the bundled DejaVu Sans under [`FONT_FAMILY`] (once per process; later calls are
/// free). [`render`] calls it; call it yourself only when drawing text with plotters directly.
///
/// # Errors
/// [`FigureError::Font`] if the embedded font file cannot be parsed.
pub fn ensure_font() -> FigureResult<()> {
    FONT.get_or_init(|| {
        plotters::style::register_font(FONT_FAMILY, FontStyle::Normal, FONT_BYTES)
            .map_err(|_| "the embedded TTF could not be parsed".to_string())
    })
    .clone()
    .map_err(FigureError::Font)
}

/// The files written by [`render`] / [`render_with_sidecar`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// `<stem>.png`.
    pub png: PathBuf,
    /// `<stem>.svg`.
    pub svg: PathBuf,
    /// `<stem>.json`, when a sidecar was written.
    pub sidecar: Option<PathBuf>,
}

/// `<stem>.<ext>`, appending (a dot inside the stem is kept).
pub fn with_suffix(stem: &Path, ext: &str) -> PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

fn create_parent(path: &Path) -> FigureResult<()> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => {
            std::fs::create_dir_all(dir).map_err(|source| FigureError::Io {
                path: dir.to_path_buf(),
                source,
            })
        }
        _ => Ok(()),
    }
}

/// Draws `fig` into `<out_stem>.png` and `<out_stem>.svg` (creating the parent directory).
///
/// # Errors
/// [`FigureError::Invalid`] (see [`Figure::validate`]), [`FigureError::Font`],
/// [`FigureError::Draw`], [`FigureError::Io`]. Never panics on data (NaN, empty series, ...).
pub fn render(fig: &Figure, out_stem: &Path) -> FigureResult<Rendered> {
    let svg_path = with_suffix(out_stem, "svg");
    let png_path = with_suffix(out_stem, "png");
    let svg = render_svg(fig)?;
    create_parent(&svg_path)?;
    std::fs::write(&svg_path, svg).map_err(|source| FigureError::Io {
        path: svg_path.clone(),
        source,
    })?;
    render_png(fig, &png_path)?;
    Ok(Rendered {
        png: png_path,
        svg: svg_path,
        sidecar: None,
    })
}

/// [`render`], then the sidecar `<out_stem>.json`: `meta` (e.g. command, seed, runs, version)
/// with the figure's data added under the key `"figure"` (when `meta` is a JSON object; any
/// other `meta` is wrapped as `{"meta": .., "figure": ..}`).
///
/// # Errors
/// As [`render`] and [`write_sidecar`].
pub fn render_with_sidecar(
    fig: &Figure,
    out_stem: &Path,
    meta: serde_json::Value,
) -> FigureResult<Rendered> {
    let mut out = render(fig, out_stem)?;
    let data = serde_json::to_value(fig)
        .map_err(|e| FigureError::Invalid(format!("figure not serialisable: {e}")))?;
    let sidecar = match meta {
        serde_json::Value::Object(mut map) => {
            map.insert("figure".to_string(), data);
            serde_json::Value::Object(map)
        }
        other => serde_json::json!({ "meta": other, "figure": data }),
    };
    out.sidecar = Some(write_sidecar(out_stem, &sidecar)?);
    Ok(out)
}

/// Draws `fig` as an SVG document (deterministic: same figure, same bytes).
///
/// # Errors
/// As [`render`], without I/O.
pub fn render_svg(fig: &Figure) -> FigureResult<String> {
    fig.validate()?;
    ensure_font()?;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (fig.width, fig.height)).into_drawing_area();
        draw_figure(&root, fig)?;
        root.present().map_err(draw_err)?;
    }
    Ok(out)
}

/// Draws `fig` as a PNG file at `path` (creating the parent directory).
///
/// # Errors
/// As [`render`].
pub fn render_png(fig: &Figure, path: &Path) -> FigureResult<()> {
    fig.validate()?;
    ensure_font()?;
    create_parent(path)?;
    let root = BitMapBackend::new(path, (fig.width, fig.height)).into_drawing_area();
    if let Err(e) = draw_figure(&root, fig) {
        // Dropping the backend saves what was drawn; do not leave a half-drawn PNG behind.
        drop(root);
        let _ = std::fs::remove_file(path);
        return Err(e);
    }
    root.present().map_err(|e| FigureError::Io {
        path: path.to_path_buf(),
        source: io::Error::other(e.to_string()),
    })
}

/// Writes `meta` (pretty JSON, trailing newline) to `<stem>.json`: the sidecar of a figure,
/// e.g. `{"command": .., "seed": .., "runs": .., "version": .., "figure": <the Figure>}`.
/// Non-finite numbers in a serialised [`Figure`] become `null`.
///
/// # Errors
/// [`FigureError::Io`].
pub fn write_sidecar(stem: &Path, meta: &serde_json::Value) -> FigureResult<PathBuf> {
    let path = with_suffix(stem, "json");
    let mut text = serde_json::to_string_pretty(meta)
        .map_err(|e| FigureError::Invalid(format!("sidecar not serialisable: {e}")))?;
    text.push('\n');
    create_parent(&path)?;
    std::fs::write(&path, text).map_err(|source| FigureError::Io {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

// ---------------------------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------------------------

fn draw_err<E: std::fmt::Display>(e: E) -> FigureError {
    FigureError::Draw(e.to_string())
}

/// Font sizes and line widths, scaled with the panel size.
#[derive(Debug, Clone, Copy)]
struct Scale {
    s: f64,
}

impl Scale {
    fn px(&self, v: f64) -> f64 {
        v * self.s
    }
    fn font(&self, v: f64) -> TextStyle<'static> {
        (FONT_FAMILY, (v * self.s).round())
            .into_font()
            .color(&BLACK)
    }
    fn width(&self, v: f64) -> u32 {
        (v * self.s).round().max(1.0) as u32
    }
}

/// One legend entry: a label and how to draw its sample.
#[derive(Debug, Clone, PartialEq)]
enum LegendKind {
    Series(SeriesStyle, ErrStyle, bool),
    VLine(RefStyle),
    HLine(RefStyle),
}

#[derive(Debug, Clone, PartialEq)]
struct LegendEntry {
    label: String,
    kind: LegendKind,
    color: usize,
}

fn legend_entries(fig: &Figure) -> Vec<LegendEntry> {
    let mut out: Vec<LegendEntry> = Vec::new();
    let mut push = |e: LegendEntry| {
        if !e.label.is_empty() && !out.iter().any(|o| o.label == e.label) {
            out.push(e);
        }
    };
    // Empirical series (with markers) first, then curves, then reference lines.
    let marked = |s: &Series| s.style.has_markers();
    for want_markers in [true, false] {
        for s in fig.panels.iter().flat_map(|p| &p.series) {
            if marked(s) == want_markers {
                push(LegendEntry {
                    label: s.label.clone(),
                    kind: LegendKind::Series(s.style, s.err_style, s.y_err.is_some()),
                    color: s.color,
                });
            }
        }
    }
    for p in &fig.panels {
        for h in &p.hlines {
            push(LegendEntry {
                label: h.label.clone(),
                kind: LegendKind::HLine(h.style),
                color: h.color,
            });
        }
        for v in &p.vlines {
            push(LegendEntry {
                label: v.label.clone(),
                kind: LegendKind::VLine(v.style),
                color: v.color,
            });
        }
    }
    out
}

/// Legend layout: rows of (entry index, x offset) and the strip height.
struct LegendLayout {
    rows: Vec<Vec<(usize, i32)>>,
    row_widths: Vec<i32>,
    row_h: i32,
    sample_w: i32,
}

fn layout_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    sc: Scale,
    max_w: i32,
) -> FigureResult<LegendLayout> {
    let font = sc.font(15.0);
    let sample_w = sc.px(38.0) as i32;
    let gap = sc.px(7.0) as i32;
    let spacing = sc.px(26.0) as i32;
    let mut rows: Vec<Vec<(usize, i32)>> = Vec::new();
    let mut row_widths = Vec::new();
    let mut cur: Vec<(usize, i32)> = Vec::new();
    let mut x = 0;
    for (i, e) in entries.iter().enumerate() {
        let (tw, _) = area.estimate_text_size(&e.label, &font).map_err(draw_err)?;
        let w = sample_w + gap + tw as i32;
        if !cur.is_empty() && x + w > max_w {
            rows.push(std::mem::take(&mut cur));
            row_widths.push(x - spacing);
            x = 0;
        }
        cur.push((i, x));
        x += w + spacing;
    }
    if !cur.is_empty() {
        rows.push(cur);
        row_widths.push(x - spacing);
    }
    Ok(LegendLayout {
        rows,
        row_widths,
        row_h: sc.px(26.0) as i32,
        sample_w,
    })
}

/// The whole canvas (pixel coordinates) plus the scale: data elements are drawn on it.
struct Canvas<'a, DB: DrawingBackend> {
    root: &'a DrawingArea<DB, Shift>,
    sc: Scale,
}

impl<DB: DrawingBackend> Canvas<'_, DB> {
    fn path(&self, pts: &[Pt], style: ShapeStyle, dash: Option<(f64, f64)>) -> FigureResult<()> {
        let ipts: Vec<(i32, i32)> = pts
            .iter()
            .map(|p| (p.0.round() as i32, p.1.round() as i32))
            .collect();
        match dash {
            None => self.root.draw(&PathElement::new(ipts, style)),
            Some((on, off)) => self.root.draw(&DashedPathElement::new(
                ipts,
                self.sc.px(on),
                self.sc.px(off),
                style,
            )),
        }
        .map_err(draw_err)
    }

    fn polygon_or_outline(&self, pts: &[Pt], style: ShapeStyle) -> FigureResult<()> {
        if style.filled {
            self.polygon(pts, style)
        } else {
            let mut closed = pts.to_vec();
            closed.push(pts[0]);
            self.path(&closed, style, None)
        }
    }

    fn polygon(&self, pts: &[Pt], style: ShapeStyle) -> FigureResult<()> {
        if pts.len() < 3 {
            return Ok(());
        }
        let ipts: Vec<(i32, i32)> = pts
            .iter()
            .map(|p| (p.0.round() as i32, p.1.round() as i32))
            .collect();
        self.root.draw(&Polygon::new(ipts, style)).map_err(draw_err)
    }

    /// Marker of palette index `c` (shape chosen by `c`) centred on `p`; `open` draws its
    /// outline only.
    fn marker(&self, p: Pt, c: usize, open: bool) -> FigureResult<()> {
        let r = self.sc.px(4.5);
        let (x, y) = p;
        let style = if open {
            color(c).stroke_width(self.sc.width(1.8))
        } else {
            color(c).filled()
        };
        let i = |v: f64| v.round() as i32;
        match c % 6 {
            0 => self
                .root
                .draw(&Circle::new((i(x), i(y)), i(r), style))
                .map_err(draw_err),
            1 => self.polygon_or_outline(
                &[
                    (x - 0.85 * r, y - 0.85 * r),
                    (x + 0.85 * r, y - 0.85 * r),
                    (x + 0.85 * r, y + 0.85 * r),
                    (x - 0.85 * r, y + 0.85 * r),
                ],
                style,
            ),
            2 => self.polygon_or_outline(
                &[
                    (x, y - 1.2 * r),
                    (x + 1.1 * r, y + 0.8 * r),
                    (x - 1.1 * r, y + 0.8 * r),
                ],
                style,
            ),
            3 => self.polygon_or_outline(
                &[(x, y - 1.25 * r), (x + r, y), (x, y + 1.25 * r), (x - r, y)],
                style,
            ),
            4 => self.polygon_or_outline(
                &[
                    (x, y + 1.2 * r),
                    (x + 1.1 * r, y - 0.8 * r),
                    (x - 1.1 * r, y - 0.8 * r),
                ],
                style,
            ),
            _ => {
                let st = color(c).stroke_width(self.sc.width(2.5));
                self.path(&[(x - r, y - r), (x + r, y + r)], st, None)?;
                self.path(&[(x - r, y + r), (x + r, y - r)], st, None)
            }
        }
    }

    /// A line of the given style between pixel points (already clipped).
    fn styled_line(&self, pts: &[Pt], c: usize, st: SeriesStyle) -> FigureResult<()> {
        let w = self.sc.width(2.0);
        let style = color(c).stroke_width(w);
        match st {
            SeriesStyle::Line | SeriesStyle::LineAndPoints => self.path(pts, style, None),
            SeriesStyle::Dashed => self.path(pts, style, Some((9.0, 5.0))),
            SeriesStyle::Dotted => self.path(pts, style, Some((2.0, 4.0))),
            SeriesStyle::Points | SeriesStyle::OpenPoints => Ok(()),
        }
    }

    fn ref_line(&self, a: Pt, b: Pt, c: usize, st: RefStyle) -> FigureResult<()> {
        match st {
            RefStyle::Solid => self.path(&[a, b], color(c).stroke_width(self.sc.width(1.0)), None),
            RefStyle::Dashed => self.path(
                &[a, b],
                color(c).stroke_width(self.sc.width(2.0)),
                Some((8.0, 5.0)),
            ),
            RefStyle::Dotted => self.path(
                &[a, b],
                color(c).stroke_width(self.sc.width(2.0)),
                Some((2.0, 4.0)),
            ),
            RefStyle::Shaded => self.path(
                &[a, b],
                color(c).mix(0.25).stroke_width(self.sc.width(10.0)),
                None,
            ),
        }
    }
}

fn draw_figure<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
) -> FigureResult<()> {
    root.fill(&WHITE).map_err(draw_err)?;
    let n = fig.panels.len();
    let ncols = fig.ncols.min(n).max(1);
    let nrows = n.div_ceil(ncols);
    let (w, h) = (fig.width as f64, fig.height as f64);
    let panel_w = w / ncols as f64;
    let panel_h = (h - 110.0) / nrows as f64;
    let sc = Scale {
        s: (panel_w / 600.0).min(panel_h / 420.0).clamp(0.8, 2.0),
    };
    let outer = sc.px(10.0) as i32;
    let body = root.margin(outer, outer, outer, outer);
    let body = if fig.title.is_empty() {
        body
    } else {
        body.titled(&fig.title, sc.font(24.0)).map_err(draw_err)?
    };

    // Legend strip below the panels.
    let entries = legend_entries(fig);
    let (bw, bh) = body.dim_in_pixel();
    let legend = layout_legend(&body, &entries, sc, bw as i32 - 2 * outer)?;
    let legend_h = if entries.is_empty() {
        0
    } else {
        legend.rows.len() as i32 * legend.row_h + sc.px(12.0) as i32
    };
    let grid_h = bh as i32 - legend_h;
    let min_panel_h = 150;
    if grid_h / (nrows as i32) < min_panel_h || (bw as i32) / (ncols as i32) < 180 {
        return Err(FigureError::Invalid(format!(
            "figure '{}' of {}x{} pixels is too small for {} panel(s) in {} column(s) and a \
             legend of {} row(s)",
            fig.title,
            fig.width,
            fig.height,
            n,
            ncols,
            legend.rows.len()
        )));
    }
    let (grid, strip) = body.split_vertically(grid_h);
    let cells = grid.split_evenly((nrows, ncols));
    let canvas = Canvas { root, sc };
    for (panel, cell) in fig.panels.iter().zip(cells.iter()) {
        draw_panel(&canvas, cell, panel)?;
    }
    if !entries.is_empty() {
        draw_legend(&canvas, &strip, &entries, &legend)?;
    }
    Ok(())
}

/// Display-space values that the axes must show.
/// With a fixed x range, only the points inside it count for the y range.
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
                ys.extend(to_display(y - e, panel.y_log));
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

fn draw_panel<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    cell: &DrawingArea<DB, Shift>,
    panel: &Panel,
) -> FigureResult<()> {
    let sc = canvas.sc;
    let pad = sc.px(6.0) as i32;
    let cell = cell.margin(pad, pad, pad, pad);
    let mut area = cell.titled(&panel.title, sc.font(19.0)).map_err(draw_err)?;
    if !panel.subtitle.is_empty() {
        area = area
            .titled(&panel.subtitle, sc.font(14.0).color(&RGBColor(60, 60, 60)))
            .map_err(draw_err)?;
    }
    let (xs, ys) = extent(panel);
    let xa = Axis::new(&xs, panel.x_log, panel.x_range);
    let ya = Axis::new(&ys, panel.y_log, panel.y_range);

    let tick_font = sc.font(14.0);
    let desc_font = sc.font(16.0);
    let mut max_ylabel = 0u32;
    for &t in &ya.major {
        let (tw, _) = area
            .estimate_text_size(&ya.label(t), &tick_font)
            .map_err(draw_err)?;
        max_ylabel = max_ylabel.max(tw);
    }
    let (_, tick_h) = area
        .estimate_text_size("0123456789", &tick_font)
        .map_err(draw_err)?;
    let (_, desc_h) = area
        .estimate_text_size("ετ (samples)", &desc_font)
        .map_err(draw_err)?;
    let y_area = max_ylabel as f64 + desc_h as f64 + sc.px(22.0);
    let x_area = tick_h as f64 + desc_h as f64 + sc.px(20.0);

    let mut chart = ChartBuilder::on(&area)
        .margin_top(sc.px(6.0) as i32)
        .margin_right(sc.px(14.0) as i32)
        .margin_left(sc.px(2.0) as i32)
        .margin_bottom(sc.px(2.0) as i32)
        .x_label_area_size(x_area as i32)
        .y_label_area_size(y_area as i32)
        .build_cartesian_2d(xa.clone(), ya.clone())
        .map_err(draw_err)?;
    let xfmt = |v: &f64| xa.label(*v);
    let yfmt = |v: &f64| ya.label(*v);
    chart
        .configure_mesh()
        .x_desc(panel.x_label.as_str())
        .y_desc(panel.y_label.as_str())
        .label_style(tick_font.clone())
        .axis_desc_style(desc_font.clone())
        .x_label_formatter(&xfmt)
        .y_label_formatter(&yfmt)
        .bold_line_style(RGBColor(150, 150, 150).mix(0.35))
        .light_line_style(RGBColor(150, 150, 150).mix(0.12))
        .axis_style(BLACK.stroke_width(1))
        .set_all_tick_mark_size(sc.px(5.0) as i32)
        .draw()
        .map_err(draw_err)?;

    // Pixel mapping (display space -> canvas pixels), consistent with plotters' own.
    let p0 = chart.backend_coord(&(xa.lo, ya.lo));
    let p1 = chart.backend_coord(&(xa.hi, ya.hi));
    let (px0, py0, px1, py1) = (p0.0 as f64, p0.1 as f64, p1.0 as f64, p1.1 as f64);
    let map = |xd: f64, yd: f64| -> Pt {
        (
            px0 + (xd - xa.lo) / (xa.hi - xa.lo) * (px1 - px0),
            py0 + (yd - ya.lo) / (ya.hi - ya.lo) * (py1 - py0),
        )
    };
    let rect = Rect {
        x0: px0.min(px1),
        x1: px0.max(px1),
        y0: py0.min(py1),
        y1: py0.max(py1),
    };
    let (xl, xh, yl, yh) = (xa.lo, xa.hi, ya.lo, ya.hi);
    let below = yl - (yh - yl);
    drop(chart);

    // 1. shaded vertical bands / wide lines, then thin reference lines.
    for v in &panel.vlines {
        let Some(x) = to_display(v.x, panel.x_log) else {
            continue;
        };
        match (v.style, v.x_hi.and_then(|hi| to_display(hi, panel.x_log))) {
            (RefStyle::Shaded, Some(hi)) => {
                let poly = [map(x, yl), map(hi, yl), map(hi, yh), map(x, yh)];
                canvas.polygon(
                    &clip_polygon(&poly, &rect),
                    color(v.color).mix(0.18).filled(),
                )?;
            }
            (style, _) => {
                if x >= xl && x <= xh {
                    canvas.ref_line(map(x, yl), map(x, yh), v.color, style)?;
                }
            }
        }
    }
    for hl in &panel.hlines {
        if let Some(y) = to_display(hl.y, panel.y_log).filter(|y| *y >= yl && *y <= yh) {
            canvas.ref_line(map(xl, y), map(xh, y), hl.color, hl.style)?;
        }
    }

    // 2. error bands, 3. lines, 4. error bars, 5. markers.
    let pts_of = |s: &Series| -> Vec<Option<(f64, f64, usize)>> {
        s.x.iter()
            .zip(&s.y)
            .enumerate()
            .map(|(i, (&x, &y))| {
                Some((to_display(x, panel.x_log)?, to_display(y, panel.y_log)?, i))
            })
            .collect()
    };
    let err_ends = |s: &Series, i: usize, yd: f64| -> Option<(f64, f64)> {
        let e = *s.y_err.as_ref()?.get(i)?;
        if !e.is_finite() {
            return None;
        }
        let y = s.y[i];
        let hi = to_display(y + e, panel.y_log)?;
        let lo = to_display(y - e, panel.y_log).unwrap_or(below);
        Some((lo.min(yd), hi.max(yd)))
    };
    for s in panel
        .series
        .iter()
        .filter(|s| s.err_style == ErrStyle::Band)
    {
        let pts = pts_of(s);
        let mut run: Vec<(f64, f64, f64)> = Vec::new();
        let flush = |run: &mut Vec<(f64, f64, f64)>| -> FigureResult<()> {
            if run.len() >= 2 {
                let mut poly: Vec<Pt> = run.iter().map(|&(x, _, hi)| map(x, hi)).collect();
                poly.extend(run.iter().rev().map(|&(x, lo, _)| map(x, lo)));
                canvas.polygon(
                    &clip_polygon(&poly, &rect),
                    color(s.color).mix(0.18).filled(),
                )?;
            }
            run.clear();
            Ok(())
        };
        for p in &pts {
            match p.and_then(|(x, yd, i)| Some((x, err_ends(s, i, yd)?))) {
                Some((x, (lo, hi))) => run.push((x, lo, hi)),
                None => flush(&mut run)?,
            }
        }
        flush(&mut run)?;
    }
    for s in &panel.series {
        let pts: Vec<Option<Pt>> = pts_of(s)
            .into_iter()
            .map(|p| p.map(|(x, y, _)| map(x, y)))
            .collect();
        for piece in clip_polyline(&pts, &rect) {
            canvas.styled_line(&piece, s.color, s.style)?;
        }
    }
    let cap = sc.px(4.0);
    for s in panel
        .series
        .iter()
        .filter(|s| s.err_style == ErrStyle::Bars)
    {
        let st = color(s.color).stroke_width(sc.width(1.5));
        for (x, yd, i) in pts_of(s).into_iter().flatten() {
            let Some((lo, hi)) = err_ends(s, i, yd) else {
                continue;
            };
            let (a, b) = (map(x, lo), map(x, hi));
            for piece in clip_polyline(&[Some(a), Some(b)], &rect) {
                canvas.path(&piece, st, None)?;
            }
            for end in [a, b] {
                if rect.contains(end) {
                    canvas.path(&[(end.0 - cap, end.1), (end.0 + cap, end.1)], st, None)?;
                }
            }
        }
    }
    for s in panel.series.iter().filter(|s| s.style.has_markers()) {
        for (x, y, _) in pts_of(s).into_iter().flatten() {
            let p = map(x, y);
            if rect.contains(p) {
                canvas.marker(p, s.color, s.style == SeriesStyle::OpenPoints)?;
            }
        }
    }
    Ok(())
}

fn draw_legend<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    strip: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    layout: &LegendLayout,
) -> FigureResult<()> {
    let sc = canvas.sc;
    let font = sc.font(15.0).pos(Pos::new(HPos::Left, VPos::Center));
    let (xr, yr) = strip.get_pixel_range();
    let top = yr.start + sc.px(8.0) as i32;
    let width = xr.end - xr.start;
    let gap = sc.px(7.0);
    for (r, (row, row_w)) in layout.rows.iter().zip(&layout.row_widths).enumerate() {
        let x0 = xr.start + (width - row_w).max(0) / 2;
        let cy = (top + r as i32 * layout.row_h + layout.row_h / 2) as f64;
        for &(i, dx) in row {
            let e = &entries[i];
            let sx = (x0 + dx) as f64;
            let sw = layout.sample_w as f64;
            let (a, b) = ((sx, cy), (sx + sw, cy));
            match e.kind {
                LegendKind::Series(style, err, has_err) => {
                    if has_err && err == ErrStyle::Band {
                        let hh = sc.px(7.0);
                        canvas.polygon(
                            &[
                                (sx, cy - hh),
                                (sx + sw, cy - hh),
                                (sx + sw, cy + hh),
                                (sx, cy + hh),
                            ],
                            color(e.color).mix(0.18).filled(),
                        )?;
                    }
                    canvas.styled_line(&[a, b], e.color, style)?;
                    let mid = (sx + sw / 2.0, cy);
                    if has_err && err == ErrStyle::Bars {
                        let st = color(e.color).stroke_width(sc.width(1.5));
                        let (hh, cap) = (sc.px(8.0), sc.px(4.0));
                        canvas.path(&[(mid.0, cy - hh), (mid.0, cy + hh)], st, None)?;
                        for yy in [cy - hh, cy + hh] {
                            canvas.path(&[(mid.0 - cap, yy), (mid.0 + cap, yy)], st, None)?;
                        }
                    }
                    if style.has_markers() {
                        canvas.marker(mid, e.color, style == SeriesStyle::OpenPoints)?;
                    }
                }
                LegendKind::HLine(style) => canvas.ref_line(a, b, e.color, style)?,
                LegendKind::VLine(style) => {
                    let hh = sc.px(9.0);
                    let mx = sx + sw / 2.0;
                    canvas.ref_line((mx, cy - hh), (mx, cy + hh), e.color, style)?;
                }
            }
            canvas
                .root
                .draw_text(
                    &e.label,
                    &font,
                    ((sx + sw + gap).round() as i32, cy.round() as i32),
                )
                .map_err(draw_err)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_figure() -> Figure {
        let mut p = Panel::new("panel", "x", "y");
        p.series.push(Series::new(
            "a",
            vec![1.0, 2.0],
            vec![1.0, f64::NAN],
            SeriesStyle::Points,
            0,
        ));
        Figure::grid("t", vec![p], 1)
    }

    #[test]
    fn validate_rejects_mismatched_and_negative_data() {
        let mut f = small_figure();
        assert!(f.validate().is_ok());
        f.panels[0].series[0].y.push(3.0);
        assert!(matches!(f.validate(), Err(FigureError::Invalid(_))));
        let mut f = small_figure();
        f.panels[0].series[0].y_err = Some(vec![1.0, -1.0]);
        let msg = f.validate().expect_err("negative error").to_string();
        assert!(msg.contains("y_err = -1"), "{msg}");
        let mut f = small_figure();
        f.width = 10;
        assert!(f.validate().is_err());
        let mut f = small_figure();
        f.panels.clear();
        assert!(f.validate().is_err());
    }

    #[test]
    fn too_small_figure_is_an_error_not_a_panic() {
        let mut f = small_figure();
        f.panels = vec![f.panels[0].clone(); 6];
        f.ncols = 1;
        f.height = 300;
        assert!(matches!(render_svg(&f), Err(FigureError::Invalid(_))));
    }

    #[test]
    fn legend_deduplicates_labels_and_skips_empty_ones() {
        let mut f = small_figure();
        let p = f.panels[0].clone();
        f.panels.push(p);
        f.panels[1]
            .series
            .push(Series::new("", vec![], vec![], SeriesStyle::Line, 1));
        f.panels[1].vlines.push(VLine {
            x: 1.0,
            x_hi: None,
            label: "switch".into(),
            style: RefStyle::Dashed,
            color: 2,
        });
        let labels: Vec<String> = legend_entries(&f).into_iter().map(|e| e.label).collect();
        assert_eq!(labels, ["a", "switch"]);
    }

    #[test]
    fn suffix_is_appended_not_substituted() {
        assert_eq!(
            with_suffix(Path::new("out/fig1.local"), "png"),
            PathBuf::from("out/fig1.local.png")
        );
    }

    #[test]
    fn font_registration_is_idempotent() {
        assert!(ensure_font().is_ok());
        assert!(ensure_font().is_ok());
    }
}
