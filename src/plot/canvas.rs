//! Drawing primitives on the whole canvas (pixel coordinates): paths, polygons, markers, series
//! lines and reference lines, in the palette's colours and the panel's scale.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::geometry::Pt;
use super::model::{FigureResult, RefStyle, SeriesStyle, draw_err};
use super::offscale::OffScale;
use super::style::{Scale, color};

/// The whole canvas (pixel coordinates) plus the scale: data elements are drawn on it.
pub(super) struct Canvas<'a, DB: DrawingBackend> {
    pub(super) root: &'a DrawingArea<DB, Shift>,
    pub(super) sc: Scale,
}

impl<DB: DrawingBackend> Canvas<'_, DB> {
    pub(super) fn path(
        &self,
        pts: &[Pt],
        style: ShapeStyle,
        dash: Option<(f64, f64)>,
    ) -> FigureResult<()> {
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

    pub(super) fn polygon(&self, pts: &[Pt], style: ShapeStyle) -> FigureResult<()> {
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
    pub(super) fn marker(&self, p: Pt, c: usize, open: bool) -> FigureResult<()> {
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

    /// The marker of a point of a series of style `st`: `×` for [`SeriesStyle::Crosses`], the
    /// outline for [`SeriesStyle::OpenPoints`], else the filled shape of palette index `c`.
    pub(super) fn series_marker(&self, p: Pt, c: usize, st: SeriesStyle) -> FigureResult<()> {
        if st == SeriesStyle::Crosses {
            let r = self.sc.px(5.0);
            let (x, y) = p;
            let w = color(c).stroke_width(self.sc.width(2.0));
            self.path(&[(x - r, y - r), (x + r, y + r)], w, None)?;
            return self.path(&[(x - r, y + r), (x + r, y - r)], w, None);
        }
        self.marker(p, c, st == SeriesStyle::OpenPoints)
    }

    /// An arrow (a triangle) whose tip touches the edge point `tip` and points beyond it, to
    /// `side`: a data point outside the axes. `open` draws its outline only.
    pub(super) fn arrow(&self, tip: Pt, side: OffScale, c: usize, open: bool) -> FigureResult<()> {
        let (len, half) = (self.sc.px(11.0), self.sc.px(6.0));
        let (x, y) = tip;
        let pts = match side {
            OffScale::Above => [(x, y), (x - half, y + len), (x + half, y + len)],
            OffScale::Below => [(x, y), (x - half, y - len), (x + half, y - len)],
            OffScale::Left => [(x, y), (x + len, y - half), (x + len, y + half)],
            OffScale::Right => [(x, y), (x - len, y - half), (x - len, y + half)],
        };
        let style = if open {
            color(c).stroke_width(self.sc.width(1.8))
        } else {
            color(c).filled()
        };
        self.polygon_or_outline(&pts, style)
    }

    /// A line of the given style between pixel points (already clipped).
    pub(super) fn styled_line(&self, pts: &[Pt], c: usize, st: SeriesStyle) -> FigureResult<()> {
        let w = self.sc.width(2.0);
        let style = color(c).stroke_width(w);
        match st {
            SeriesStyle::Line => self.path(pts, style, None),
            // Measured points joined to guide the eye: a thin, faded line, so that it does not
            // read as a measurement between the markers.
            SeriesStyle::LineAndPoints => self.path(
                pts,
                color(c).mix(0.45).stroke_width(self.sc.width(1.0)),
                None,
            ),
            SeriesStyle::Dashed => self.path(pts, style, Some((9.0, 5.0))),
            SeriesStyle::Dotted => self.path(pts, style, Some((2.0, 4.0))),
            SeriesStyle::Points | SeriesStyle::OpenPoints | SeriesStyle::Crosses => Ok(()),
        }
    }

    pub(super) fn ref_line(&self, a: Pt, b: Pt, c: usize, st: RefStyle) -> FigureResult<()> {
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
