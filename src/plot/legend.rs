//! The legend: one strip below the panels, one entry per distinct label (series with markers
//! first, then curves, then reference lines), laid out in centred rows.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::Canvas;
use super::model::{ErrStyle, Figure, FigureResult, RefStyle, Series, SeriesStyle, draw_err};
use super::offscale::OffScale;
use super::style::{Scale, color};

/// One legend entry: a label and how to draw its sample.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum LegendKind {
    Series(SeriesStyle, ErrStyle, bool),
    /// The arrow of a point beyond the axes.
    OffScale,
    VLine(RefStyle),
    HLine(RefStyle),
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct LegendEntry {
    pub(super) label: String,
    pub(super) kind: LegendKind,
    pub(super) color: usize,
}

/// Legend label of the arrows of points beyond the axes (an entry only when a figure has some).
pub const OFF_SCALE_LABEL: &str = "point beyond the axis (arrow at its edge)";

pub(super) fn legend_entries(fig: &Figure) -> Vec<LegendEntry> {
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
    if super::offscale::any_off_scale(fig) {
        push(LegendEntry {
            label: OFF_SCALE_LABEL.to_string(),
            kind: LegendKind::OffScale,
            color: super::style::BLACK_INDEX,
        });
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
pub(super) struct LegendLayout {
    pub(super) rows: Vec<Vec<(usize, i32)>>,
    pub(super) row_widths: Vec<i32>,
    pub(super) row_h: i32,
    pub(super) sample_w: i32,
}

pub(super) fn layout_legend<DB: DrawingBackend>(
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

pub(super) fn draw_legend<DB: DrawingBackend>(
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
                        canvas.series_marker(mid, e.color, style)?;
                    }
                }
                LegendKind::OffScale => {
                    let tip = (sx + sw / 2.0, cy - sc.px(6.0));
                    canvas.arrow(tip, OffScale::Above, e.color, false)?;
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
