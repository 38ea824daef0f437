//! Data-driven figures: a [`Figure`] is plain data (panels, series, reference lines) that
//! [`render()`] draws with plotters into `<stem>.png` and `<stem>.svg`.
//!
//! The caller supplies numbers only; this module chooses ranges, ticks, colours, markers and the
//! layout. Design rules:
//! * one legend strip for the whole figure, below the panels (never over the data); entries with
//!   the same label in several panels appear once;
//! * log axes get decade ticks (`0.001 … 1000`, or `10⁻⁴ … 10⁸` when plain numbers would be too
//!   long); linear axes get 1-2-5 steps; every axis uses one label style (a linear axis with
//!   large or tiny ticks writes plain multiples of one `×10ⁿ`, which its title carries);
//! * NaN and infinite values are missing (skipped; lines break there); error bars that reach
//!   below zero on a log axis are cut at the bottom of the plot;
//! * everything drawn from data is clipped to the plot rectangle, but no data point is dropped
//!   silently: a marker point beyond the axes (a fixed range, or a non-positive value on a log
//!   axis) is drawn as an arrow at the edge it lies beyond ([`OffScale`]), with a legend entry,
//!   and the sidecar records each panel's axes and each such point (`"off_scale"`);
//! * an optional caption (e.g. the cap on the runs) is wrapped below the legend;
//! * text uses only the bundled DejaVu Sans (`assets/fonts/DejaVuSans.ttf`), registered once
//!   under the family name `"sans-serif"` before anything is drawn, so no system font is needed
//!   and the bitmap backend can never meet an unregistered font;
//! * rendering is deterministic: the same figure gives the same SVG bytes.
//!
//! # Example
//! ```
//! use dpbai::plot::{render_svg, Figure, Panel, Series, SeriesStyle};
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
//!
//! # Layout
//! * model: the data ([`Figure`], [`Panel`], [`Series`], [`VLine`],
//!   [`HLine`], their styles), [`FigureError`] and [`Figure::validate`] (`model.rs`);
//! * style: [`PALETTE`], the bundled font ([`ensure_font`]) and the size scale (`style.rs`);
//! * axes: ranges, ticks and tick labels (`axis.rs`), clipping geometry (`geometry.rs`);
//! * drawing: primitives on the canvas (`canvas.rs`), the figure and its panels (`draw.rs`);
//! * legend: entries, layout and drawing of the strip (`legend.rs`);
//! * points beyond the axes: the axes a panel is drawn with and the side of each point
//!   (`offscale.rs`);
//! * output: SVG, PNG and the JSON sidecar ([`render()`], `render.rs`).

pub(crate) mod axis;
mod canvas;
mod draw;
pub(crate) mod geometry;
mod legend;
mod model;
mod offscale;
mod render;
mod style;

pub use self::legend::OFF_SCALE_LABEL;
pub use self::model::{
    CAPTION_CHARS_PER_PIXEL, CAPTION_LINE_HEIGHT, ErrStyle, Figure, FigureError, FigureResult,
    HLine, PANEL_HEIGHT, PANEL_WIDTH, Panel, PointStats, RefStyle, Series, SeriesStyle, VLine,
};
pub use self::offscale::{OffScale, count_off_scale};
pub use self::render::{
    DEFAULT_DPI, DPI_RANGE, Rendered, render, render_at, render_png, render_svg,
    render_with_sidecar, render_with_sidecar_at, with_suffix, write_sidecar,
};
pub use self::style::{BLACK_INDEX, FONT_FAMILY, GREY_INDEX, PALETTE, ensure_font};

#[cfg(test)]
mod tests {
    use super::legend::legend_entries;
    use super::*;
    use std::path::{Path, PathBuf};

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
    fn an_unwritable_figure_is_an_error_of_the_one_error_type() {
        // The figure's folder is a file: writing fails with the path, and the library's error
        // names the figure.
        let dir = std::env::temp_dir().join(format!("dpbai-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let blocker = dir.join("blocker");
        std::fs::write(&blocker, b"a file").expect("file");
        let e = render_with_sidecar(&small_figure(), &blocker.join("fig"), serde_json::json!({}))
            .expect_err("a file is not a folder");
        assert!(matches!(e, FigureError::Io { .. }), "{e:?}");
        let err = crate::Error::figure("fig", e.clone());
        assert_eq!(err.clone(), crate::Error::figure("fig", e));
        let msg = err.to_string();
        assert!(msg.starts_with("figure fig: cannot write "), "{msg}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn font_registration_is_idempotent() {
        assert!(ensure_font().is_ok());
        assert!(ensure_font().is_ok());
    }
}
