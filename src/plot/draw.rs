//! Drawing a figure: the title, the grid of panels (axes from [`super::axis`], data clipped to
//! the plot rectangle) and the legend strip below them.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis::to_display;
use super::canvas::Canvas;
use super::geometry::{Pt, Rect, clip_polygon, clip_polyline};
use super::legend::{draw_legend, layout_legend, legend_entries};
use super::model::{
    ErrStyle, Figure, FigureError, FigureResult, Panel, RefStyle, Series, SeriesStyle, draw_err,
};
use super::offscale::{OffScale, hline_side, panel_axes, series_sides};
use super::style::{Scale, color};
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Draws `fig` on `root`, whose size is the figure's times `k` (1 for the SVG and the default
/// PNG; [`super::render::DEFAULT_DPI`]-relative for a `--dpi` PNG): every length scales by `k`.
pub(super) fn draw_figure<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    k: f64,
) -> FigureResult<()> {
    root.fill(&WHITE).map_err(draw_err)?;
    let n = fig.panels.len();
    let ncols = fig.ncols.min(n).max(1);
    let nrows = n.div_ceil(ncols);
    let (w, h) = (fig.width as f64, fig.height as f64);
    let panel_w = w / ncols as f64;
    let panel_h = (h - 110.0) / nrows as f64;
    let sc = Scale {
        s: (panel_w / 600.0).min(panel_h / 420.0).clamp(0.8, 2.0) * k,
    };
    let outer = sc.px(10.0) as i32;
    let body = root.margin(outer, outer, outer, outer);
    let body = if fig.title.is_empty() {
        body
    } else {
        // A title wider than the figure is drawn smaller (never below 60%, then cut with
        // '…'), never clipped at both edges.
        let avail = f64::from(body.dim_in_pixel().0) - 2.0 * f64::from(outer);
        let wide = |t: &str, size: f64| -> FigureResult<f64> {
            Ok(f64::from(
                body.estimate_text_size(t, &sc.font(size))
                    .map_err(draw_err)?
                    .0,
            ))
        };
        let full = wide(&fig.title, 24.0)?;
        let size = if full > avail {
            (24.0 * avail / full).max(14.4)
        } else {
            24.0
        };
        let mut title = fig.title.clone();
        while title.chars().count() > 1 && wide(&title, size)? > avail {
            title.pop();
            title.pop();
            title.push('…');
        }
        body.titled(&title, sc.font(size)).map_err(draw_err)?
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
    let caption = wrap_caption(&body, &fig.caption, sc, bw as i32 - 2 * outer)?;
    let caption_line = sc.px(f64::from(super::model::CAPTION_LINE_HEIGHT)) as i32;
    let caption_h = if caption.is_empty() {
        0
    } else {
        caption.len() as i32 * caption_line + sc.px(6.0) as i32
    };
    let grid_h = bh as i32 - legend_h - caption_h;
    let min_panel_h = (150.0 * k) as i32;
    if grid_h / (nrows as i32) < min_panel_h || (bw as i32) / (ncols as i32) < (180.0 * k) as i32 {
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
    let (grid, rest) = body.split_vertically(grid_h);
    let (strip, below) = rest.split_vertically(legend_h);
    let cells = grid.split_evenly((nrows, ncols));
    let canvas = Canvas { root, sc };
    for (panel, cell) in fig.panels.iter().zip(cells.iter()) {
        draw_panel(&canvas, cell, panel)?;
    }
    if !entries.is_empty() {
        draw_legend(&canvas, &strip, &entries, &legend)?;
    }
    let font = sc
        .font(14.0)
        .color(&RGBColor(40, 40, 40))
        .pos(Pos::new(HPos::Left, VPos::Top));
    let (xr, yr) = below.get_pixel_range();
    for (k, line) in caption.iter().enumerate() {
        let y = yr.start + sc.px(4.0) as i32 + k as i32 * caption_line;
        root.draw_text(line, &font, (xr.start + outer, y))
            .map_err(draw_err)?;
    }
    Ok(())
}

/// The caption's lines: its paragraphs (`\n`) wrapped at spaces to `max_w` pixels.
fn wrap_caption<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    caption: &str,
    sc: Scale,
    max_w: i32,
) -> FigureResult<Vec<String>> {
    let mut lines = Vec::new();
    for para in caption.split('\n').filter(|p| !p.trim().is_empty()) {
        let words: Vec<&str> = para.split_whitespace().collect();
        lines.extend(fit_lines(area, &words, " ", &sc.font(14.0), max_w)?);
    }
    Ok(lines)
}

/// `parts` joined by `sep` into as few lines as fit in `max_w` pixels (a part wider than that
/// gets a line of its own).
fn fit_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    parts: &[&str],
    sep: &str,
    font: &TextStyle<'_>,
    max_w: i32,
) -> FigureResult<Vec<String>> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for part in parts {
        let cand = if cur.is_empty() {
            part.to_string()
        } else {
            format!("{cur}{sep}{part}")
        };
        let (w, _) = area.estimate_text_size(&cand, font).map_err(draw_err)?;
        if w as i32 > max_w && !cur.is_empty() {
            lines.push(std::mem::replace(&mut cur, part.to_string()));
        } else {
            cur = cand;
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    Ok(lines)
}

/// Separator of the notes of a panel subtitle, where a subtitle too wide for its panel breaks.
pub(super) const SUBTITLE_SEP: &str = "   ·   ";

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
        // A subtitle wider than the panel breaks between its notes.
        let font = sc.font(14.0).color(&RGBColor(60, 60, 60));
        let (w, _) = area.dim_in_pixel();
        let parts: Vec<&str> = panel.subtitle.split(SUBTITLE_SEP).collect();
        for line in fit_lines(&area, &parts, SUBTITLE_SEP, &font, w as i32 - 8)? {
            area = area.titled(&line, font.clone()).map_err(draw_err)?;
        }
    }
    let (xa, ya) = panel_axes(panel);

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
    let (x_title, y_title) = (xa.title(&panel.x_label), ya.title(&panel.y_label));
    let xfmt = |v: &f64| xa.label(*v);
    let yfmt = |v: &f64| ya.label(*v);
    chart
        .configure_mesh()
        .x_desc(x_title.as_str())
        .y_desc(y_title.as_str())
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
        } else if let (Some(side), Some(_)) = (hline_side(hl.y, &ya), &hl.stats) {
            // A measured value beyond the y axis: an arrow at the right end of the edge.
            let edge = if side == OffScale::Above {
                rect.y0
            } else {
                rect.y1
            };
            canvas.arrow((rect.x1 - sc.px(8.0), edge), side, hl.color, false)?;
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
        let down = s.y_err_below.as_ref().and_then(|b| b.get(i)).copied();
        let down = down.filter(|b| b.is_finite()).unwrap_or(e);
        let hi = to_display(y + e, panel.y_log)?;
        let lo = to_display(y - down, panel.y_log).unwrap_or(below);
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
    // Markers inside the plot; a point beyond an axis is an arrow at that edge (arrows at the
    // same place are stacked inwards, so that none hides another).
    let mut placed: Vec<(OffScale, f64)> = Vec::new();
    for s in panel.series.iter().filter(|s| s.style.has_markers()) {
        let sides = series_sides(s, &xa, &ya);
        for (i, side) in sides.iter().enumerate() {
            let (x, y) = (s.x[i], s.y[i]);
            let Some(side) = side else {
                if let (Some(xd), Some(yd)) =
                    (to_display(x, panel.x_log), to_display(y, panel.y_log))
                {
                    canvas.series_marker(map(xd, yd), s.color, s.style)?;
                }
                continue;
            };
            let clamp = |v: f64, lo: f64, hi: f64| v.clamp(lo.min(hi), lo.max(hi));
            let xd = to_display(x, panel.x_log).map_or(xl, |d| clamp(d, xl, xh));
            let yd = to_display(y, panel.y_log).map_or(yl, |d| clamp(d, yl, yh));
            let (px, py) = map(xd, yd);
            let along = match side {
                OffScale::Above | OffScale::Below => px,
                OffScale::Left | OffScale::Right => py,
            };
            let close = |(s, a): &&(OffScale, f64)| s == side && (a - along).abs() < sc.px(9.0);
            let depth = placed.iter().filter(close).count() as f64 * sc.px(13.0);
            placed.push((*side, along));
            let at = match side {
                OffScale::Above => (px, rect.y0 + depth),
                OffScale::Below => (px, rect.y1 - depth),
                OffScale::Left => (rect.x0 + depth, py),
                OffScale::Right => (rect.x1 - depth, py),
            };
            let open = s.style == SeriesStyle::OpenPoints;
            canvas.arrow(at, *side, s.color, open)?;
        }
    }
    Ok(())
}
