//! Style: the fixed palette, the bundled font, and the scale that sizes text and lines with the
//! panel.

use std::sync::OnceLock;

use plotters::prelude::*;

use super::model::{FigureError, FigureResult};

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

pub(super) fn color(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

/// The font family name every text style uses; the bundled font is registered under it.
pub const FONT_FAMILY: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static FONT: OnceLock<Result<(), String>> = OnceLock::new();

/// Registers the bundled DejaVu Sans under [`FONT_FAMILY`] (once per process; later calls are
/// free). [`render`](super::render()) calls it; call it yourself only when drawing text with plotters directly.
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

/// Font sizes and line widths, scaled with the panel size.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scale {
    pub(super) s: f64,
}

impl Scale {
    pub(super) fn px(&self, v: f64) -> f64 {
        v * self.s
    }
    pub(super) fn font(&self, v: f64) -> TextStyle<'static> {
        (FONT_FAMILY, (v * self.s).round())
            .into_font()
            .color(&BLACK)
    }
    pub(super) fn width(&self, v: f64) -> u32 {
        (v * self.s).round().max(1.0) as u32
    }
}
