//! Pixel-space geometry of the figure layer: clipping lines and polygons to the plot rectangle,
//! so that nothing is drawn over the axes, tick labels or neighbouring panels.

/// A point in pixel space (x to the right, y downwards).
pub(crate) type Pt = (f64, f64);

/// An axis-aligned rectangle in pixel space, `x0 <= x1`, `y0 <= y1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    /// Whether `p` lies inside the closed rectangle.
    pub(crate) fn contains(&self, p: Pt) -> bool {
        p.0 >= self.x0 && p.0 <= self.x1 && p.1 >= self.y0 && p.1 <= self.y1
    }
}

/// Liang–Barsky clipping of the segment `a–b` to `r`; `None` when nothing is visible.
pub(crate) fn clip_segment(a: Pt, b: Pt, r: &Rect) -> Option<(Pt, Pt)> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let mut t0 = 0.0f64;
    let mut t1 = 1.0f64;
    for (p, q) in [
        (-dx, a.0 - r.x0),
        (dx, r.x1 - a.0),
        (-dy, a.1 - r.y0),
        (dy, r.y1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    if t0 > t1 {
        return None;
    }
    Some((
        (a.0 + t0 * dx, a.1 + t0 * dy),
        (a.0 + t1 * dx, a.1 + t1 * dy),
    ))
}

/// Clips a polyline whose missing points (`None`) break it into pieces; returns the visible
/// pieces, each with at least two points.
pub(crate) fn clip_polyline(points: &[Option<Pt>], r: &Rect) -> Vec<Vec<Pt>> {
    let mut out: Vec<Vec<Pt>> = Vec::new();
    let mut current: Vec<Pt> = Vec::new();
    let flush = |current: &mut Vec<Pt>, out: &mut Vec<Vec<Pt>>| {
        if current.len() >= 2 {
            out.push(std::mem::take(current));
        } else {
            current.clear();
        }
    };
    for w in points.windows(2) {
        match (w[0], w[1]) {
            (Some(a), Some(b)) => match clip_segment(a, b, r) {
                Some((p, q)) => {
                    let joins = current.last().is_some_and(|l| *l == p);
                    if !joins {
                        flush(&mut current, &mut out);
                        current.push(p);
                    }
                    current.push(q);
                    if q != b {
                        flush(&mut current, &mut out);
                    }
                }
                None => flush(&mut current, &mut out),
            },
            _ => flush(&mut current, &mut out),
        }
    }
    flush(&mut current, &mut out);
    out
}

/// Sutherland–Hodgman clipping of a polygon to `r`; may return fewer than 3 points (empty).
pub(crate) fn clip_polygon(points: &[Pt], r: &Rect) -> Vec<Pt> {
    type Inside = fn(Pt, &Rect) -> bool;
    type Cross = fn(Pt, Pt, &Rect) -> Pt;
    let edges: [(Inside, Cross); 4] = [
        (
            |p, r| p.0 >= r.x0,
            |a, b, r| (r.x0, a.1 + (b.1 - a.1) * (r.x0 - a.0) / (b.0 - a.0)),
        ),
        (
            |p, r| p.0 <= r.x1,
            |a, b, r| (r.x1, a.1 + (b.1 - a.1) * (r.x1 - a.0) / (b.0 - a.0)),
        ),
        (
            |p, r| p.1 >= r.y0,
            |a, b, r| (a.0 + (b.0 - a.0) * (r.y0 - a.1) / (b.1 - a.1), r.y0),
        ),
        (
            |p, r| p.1 <= r.y1,
            |a, b, r| (a.0 + (b.0 - a.0) * (r.y1 - a.1) / (b.1 - a.1), r.y1),
        ),
    ];
    let mut poly: Vec<Pt> = points.to_vec();
    for (inside, cross) in edges {
        if poly.is_empty() {
            break;
        }
        let input = std::mem::take(&mut poly);
        let n = input.len();
        for i in 0..n {
            let cur = input[i];
            let prev = input[(i + n - 1) % n];
            match (inside(prev, r), inside(cur, r)) {
                (true, true) => poly.push(cur),
                (true, false) => poly.push(cross(prev, cur, r)),
                (false, true) => {
                    poly.push(cross(prev, cur, r));
                    poly.push(cur);
                }
                (false, false) => {}
            }
        }
    }
    if poly.len() < 3 {
        poly.clear();
    }
    poly
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: Rect = Rect {
        x0: 0.0,
        y0: 0.0,
        x1: 10.0,
        y1: 10.0,
    };

    #[test]
    fn segment_inside_is_unchanged_and_outside_is_dropped() {
        assert_eq!(
            clip_segment((1.0, 1.0), (9.0, 9.0), &R),
            Some(((1.0, 1.0), (9.0, 9.0)))
        );
        assert_eq!(clip_segment((11.0, 1.0), (12.0, 9.0), &R), None);
    }

    #[test]
    fn crossing_segment_is_cut_at_the_border() {
        let (a, b) = clip_segment((-5.0, 5.0), (15.0, 5.0), &R).expect("visible");
        assert_eq!(a, (0.0, 5.0));
        assert_eq!(b, (10.0, 5.0));
    }

    #[test]
    fn polyline_breaks_at_missing_points_and_at_exits() {
        let pts = [
            Some((1.0, 1.0)),
            Some((2.0, 2.0)),
            None,
            Some((3.0, 3.0)),
            Some((4.0, 4.0)),
            Some((4.0, 20.0)),
            Some((5.0, 20.0)),
            Some((5.0, 5.0)),
            Some((6.0, 6.0)),
        ];
        let pieces = clip_polyline(&pts, &R);
        assert_eq!(pieces.len(), 3, "{pieces:?}");
        assert_eq!(pieces[0], vec![(1.0, 1.0), (2.0, 2.0)]);
        assert_eq!(pieces[1], vec![(3.0, 3.0), (4.0, 4.0), (4.0, 10.0)]);
        assert_eq!(pieces[2], vec![(5.0, 10.0), (5.0, 5.0), (6.0, 6.0)]);
    }

    #[test]
    fn polygon_is_clipped_to_the_rectangle() {
        let band = [(-5.0, 2.0), (15.0, 2.0), (15.0, 4.0), (-5.0, 4.0)];
        let clipped = clip_polygon(&band, &R);
        assert!(clipped.iter().all(|p| R.contains(*p)));
        let xs: Vec<f64> = clipped.iter().map(|p| p.0).collect();
        assert!(xs.contains(&0.0) && xs.contains(&10.0));
        assert!(clip_polygon(&[(20.0, 20.0), (30.0, 20.0), (30.0, 30.0)], &R).is_empty());
    }
}
