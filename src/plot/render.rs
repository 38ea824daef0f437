//! Output: a [`Figure`] as SVG text, a PNG file, and the JSON sidecar beside them.

use std::io;
use std::path::{Path, PathBuf};

use plotters::prelude::*;

use super::draw::draw_figure;
use super::model::{Figure, FigureError, FigureResult, draw_err};
use super::style::ensure_font;

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
            std::fs::create_dir_all(dir).map_err(|e| FigureError::Io {
                path: dir.to_path_buf(),
                cause: e.into(),
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
    render_at(fig, out_stem, DEFAULT_DPI)
}

pub use crate::params::limits::{DEFAULT_DPI, DPI_RANGE};

/// [`render`] with the PNG at `dpi` ([`DEFAULT_DPI`]-relative: every length, text included,
/// scales by `dpi/100`, so the layout is the same at any resolution); the SVG is unchanged.
///
/// # Errors
/// As [`render`]; [`FigureError::Invalid`] for a `dpi` outside [`DPI_RANGE`].
pub fn render_at(fig: &Figure, out_stem: &Path, dpi: u32) -> FigureResult<Rendered> {
    crate::params::limits::check_dpi("dpi", dpi)
        .map_err(|e| FigureError::Invalid(e.to_string()))?;
    let svg_path = with_suffix(out_stem, "svg");
    let png_path = with_suffix(out_stem, "png");
    let svg = render_svg(fig)?;
    write_file(&svg_path, svg.as_bytes())?;
    render_png_at(fig, &png_path, dpi)?;
    Ok(Rendered {
        png: png_path,
        svg: svg_path,
        sidecar: None,
    })
}

/// [`render`], then the sidecar `<out_stem>.json`: `meta` (e.g. command, seed, runs, version)
/// with the figure's data added under the key `"figure"` (when `meta` is a JSON object; any
/// other `meta` is wrapped as `{"meta": .., "figure": ..}`). The figure's data carry each
/// panel's axes as drawn (`"axes"`, data space) and, per point of a marker series, whether it
/// lies beyond them (`"off_scale"`: `null`, `"above"`, `"below"`, `"left"`, `"right"`).
///
/// # Errors
/// As [`render`] and [`write_sidecar`].
pub fn render_with_sidecar(
    fig: &Figure,
    out_stem: &Path,
    meta: serde_json::Value,
) -> FigureResult<Rendered> {
    render_with_sidecar_at(fig, out_stem, meta, DEFAULT_DPI)
}

/// [`render_with_sidecar`] with the PNG at `dpi` ([`render_at`]).
///
/// # Errors
/// As [`render_at`] and [`write_sidecar`].
pub fn render_with_sidecar_at(
    fig: &Figure,
    out_stem: &Path,
    meta: serde_json::Value,
    dpi: u32,
) -> FigureResult<Rendered> {
    let mut out = render_at(fig, out_stem, dpi)?;
    let mut data = serde_json::to_value(fig)
        .map_err(|e| FigureError::Invalid(format!("figure not serialisable: {e}")))?;
    super::offscale::annotate(fig, &mut data);
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
        draw_figure(&root, fig, 1.0)?;
        root.present().map_err(draw_err)?;
    }
    Ok(out)
}

/// Draws `fig` as a PNG file at `path` (creating the parent directory).
///
/// # Errors
/// As [`render`].
pub fn render_png(fig: &Figure, path: &Path) -> FigureResult<()> {
    render_png_at(fig, path, DEFAULT_DPI)
}

/// [`render_png`] at `dpi` ([`render_at`]): `width·dpi/100 × height·dpi/100` pixels.
fn render_png_at(fig: &Figure, path: &Path, dpi: u32) -> FigureResult<()> {
    fig.validate()?;
    let k = f64::from(dpi) / f64::from(DEFAULT_DPI);
    let px = |v: u32| (f64::from(v) * k).round() as u32;
    ensure_font()?;
    create_parent(path)?;
    // Drawn into a temporary file beside `path`, then renamed: never a half-written PNG.
    let tmp = crate::files::temp_beside(path);
    let root = BitMapBackend::new(&tmp, (px(fig.width), px(fig.height))).into_drawing_area();
    if let Err(e) = draw_figure(&root, fig, k) {
        drop(root);
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    root.present().map_err(|e| FigureError::Io {
        path: path.to_path_buf(),
        cause: io::Error::other(e.to_string()).into(),
    })?;
    drop(root);
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        FigureError::Io {
            path: path.to_path_buf(),
            cause: e.into(),
        }
    })
}

/// Writes a file atomically ([`crate::files::write_atomic`]).
fn write_file(path: &Path, bytes: &[u8]) -> FigureResult<()> {
    crate::files::write_atomic(path, bytes).map_err(|e| FigureError::Io {
        path: path.to_path_buf(),
        cause: match e {
            crate::Error::Io { cause, .. } => cause,
            other => io::Error::other(other.to_string()).into(),
        },
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
    write_file(&path, text.as_bytes())?;
    Ok(path)
}
