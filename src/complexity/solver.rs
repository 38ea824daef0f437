//! The certified solver shared by every characteristic time (READINGS.md §B.1, §B.2).
//!
//! # Problem
//! `T^{-1} = max_{ω∈Σ_K} min_{b≠a*} ψ_b(ω_{a*}, ω_b)` with every `ψ_b` concave, non-decreasing
//! and positively 1-homogeneous (B.1). Write `g_b(x) = ψ_b(1, x)` (concave, increasing,
//! `g_b(0) = 0`) and `x_b(y) = min{x : g_b(x) >= y}` (convex in the level `y`). Then
//! `T^{-1} = max_y y / (1 + X(y))`, `X = Σ_b x_b`, a quasi-concave 1-D problem whose stationarity
//! condition is `Φ(y) := y X'(y) − X(y) − 1 = Σ_b r_b/s_b − 1 = 0`, where `(r_b, s_b)` is the
//! supergradient of `ψ_b` at `(1, x_b(y))` (envelope theorem: the divergences of the two arms to
//! the common mean at the inner minimiser). `Φ` is non-decreasing (X convex), so the optimum is
//! its sign change (or the end of the range when `Φ < 0` up to the saturation level).
//! For `ψ_b = KL` this is Garivier–Kaufmann's `F(y) = 1` (B.4).
//!
//! # Certificate
//! * upper: for the returned allocation `ω`, `T <= Σω / min_b ψ_b^{low}(ω_{a*}, ω_b)` where
//!   `ψ^{low}` is a proven lower bound of the inner infimum (tangent lines of the convex 1-D
//!   problem at two points around its minimiser);
//! * lower: each `ψ_b(u, w) = inf_z [u D(μ_{a*}, z) + w D(μ_b, z)]` is an infimum of linear
//!   functions ("pieces" `(r, s)`); for any non-negative weights `π_{b,j}` on pieces,
//!   `max_ω min_b ψ_b <= max_ω Σ π_{b,j} (r_{bj} ω_{a*} + s_{bj} ω_b) / Σπ
//!    = max(Σ π r, max_b Σ_j π_{bj} s_{bj}) / Σπ`, hence `T >= Σπ / max(...)`. The weights are
//!   the optimum of that small LP over the pieces taken at the solution (greedy on concave
//!   frontiers), which makes the bound tight.
//!
//! Both sides are widened by a relative margin covering floating-point rounding (see
//! [`rounding_margin`]). The lower side (the LP over the pieces) is the sibling module `dual`.

use crate::error::{Error, Result};

/// A linear minorant `(r, s)` of `ψ_b`: `ψ_b(u, w) <= r u + s w`, with equality at the point it
/// was computed for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Piece {
    pub r: f64,
    pub s: f64,
}

/// Saturation level `S = sup_x ψ(1, x)` and the smallest `x` where it is attained (if finite).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Saturation {
    pub level: f64,
    pub at: Option<f64>,
}

/// One challenger `b ≠ a*` of a characteristic time.
pub(crate) trait Challenger {
    /// Supergradient of `ψ(1, ·)` at `x`, active branch, LEFT derivative at kinks;
    /// `ψ(1, x) = r + x s`.
    fn eval(&self, x: f64) -> Piece;
    /// `sup_x ψ(1, x)`.
    fn saturation(&self) -> Saturation;
    /// Proven lower bound of `ψ(u, w)` (before the global rounding margin).
    fn lower(&self, u: f64, w: f64) -> f64;
    /// Candidate pieces at `(u, w)` (every branch's minimiser): all valid minorants.
    fn pieces(&self, u: f64, w: f64, out: &mut Vec<Piece>);
    /// `min{x : ψ(1, x) >= y}` for `0 < y < S` (or `y = S` when attained), starting from `guess`.
    fn invert(&self, y: f64, guess: f64) -> f64 {
        invert_concave(|x| self.eval(x), y, guess).0
    }
    /// [`Challenger::invert`] and the supergradient there (accurate to the inversion's
    /// tolerance; avoids re-evaluating the inner problem).
    fn invert_with_piece(&self, y: f64, guess: f64) -> (f64, Piece) {
        let x = self.invert(y, guess);
        (x, self.eval(x))
    }
}

/// Generic inversion of a concave increasing `g(x) = r + x s` with `g(0) = 0`: safeguarded
/// Newton (from below Newton is monotone for concave functions; from above it lands below).
/// Returns the root and the piece at the last evaluated point (within the tolerance of it).
pub(crate) fn invert_concave(eval: impl Fn(f64) -> Piece, y: f64, guess: f64) -> (f64, Piece) {
    let mut lo = 0.0f64; // g(lo) < y (g(0) = 0 < y)
    let mut hi = f64::INFINITY; // g(hi) >= y
    let mut x = if guess.is_finite() && guess > 0.0 {
        guess
    } else {
        1.0
    };
    let mut last = Piece {
        r: f64::NAN,
        s: f64::NAN,
    };
    for _ in 0..400 {
        let p = eval(x);
        last = p;
        let g = p.r + x * p.s;
        if g >= y {
            hi = x;
            if g == y {
                return (x, p);
            }
        } else {
            lo = x;
        }
        let mut c = x + (y - g) / p.s;
        if !(c.is_finite() && c > lo && c < hi) {
            c = if !hi.is_finite() {
                16.0 * x + 1.0
            } else if lo > 0.0 && hi > 8.0 * lo {
                (lo * hi).sqrt() // geometric bisection: brackets can span hundreds of decades
            } else if lo == 0.0 {
                0.0625 * hi
            } else {
                0.5 * (lo + hi)
            };
        }
        if c > 1e300 {
            // the level is not reached at any representable weight
            return (f64::INFINITY, last);
        }
        let step = (c - x).abs();
        x = c;
        if step <= 2.0 * f64::EPSILON * x || (hi.is_finite() && hi - lo <= 2.0 * f64::EPSILON * hi)
        {
            break;
        }
    }
    (x, last)
}

/// Relative rounding margin applied to both certificate sides for `n` challengers: covers the
/// `O(n)` rounding of the sums and the <= 1e-14 relative error of the divergences.
pub(crate) fn rounding_margin(n: usize) -> f64 {
    1e-13 + 16.0 * (n as f64 + 8.0) * f64::EPSILON
}

/// Result of the level solve, in the `(1, x_b)` normalisation.
pub(crate) struct LevelSolution {
    /// Optimal level `y*`.
    pub y: f64,
    /// `x_b(y*)`.
    pub x: Vec<f64>,
}

/// `Φ(y)` and the `x_b(y)` (warm-started in `xs`).
fn phi<C: Challenger>(chs: &[C], y: f64, xs: &mut [f64]) -> f64 {
    let mut sum = 0.0;
    for (c, x) in chs.iter().zip(xs.iter_mut()) {
        let (xi, p) = c.invert_with_piece(y, *x);
        if !xi.is_finite() {
            return f64::INFINITY; // y at (or numerically beyond) the saturation level
        }
        *x = xi;
        sum += p.r / p.s;
    }
    if sum.is_nan() {
        return f64::INFINITY;
    }
    sum - 1.0
}

/// Brent's root finder ([`crate::roots::zeroin`]) on a sign change `f(a) < 0 < f(b)`; `f` may be `+∞` near `b`
/// (bisection then).
fn brent_root(
    mut f: impl FnMut(f64) -> f64,
    mut a: f64,
    mut b: f64,
    mut fa: f64,
    mut fb: f64,
) -> Result<f64> {
    // make f(b) finite by bisection if needed
    let mut guard = 0;
    while !fb.is_finite() {
        let m = 0.5 * (a + b);
        let fm = f(m);
        if fm <= 0.0 {
            a = m;
            fa = fm;
        } else {
            b = m;
            fb = fm;
        }
        guard += 1;
        if guard > 2000 || b - a <= 4.0 * f64::EPSILON * b {
            return Ok(if fb.is_finite() { b } else { a });
        }
    }
    let f = &mut f;
    if let Some(root) = crate::roots::zeroin(
        |x| Ok::<f64, std::convert::Infallible>(f(x)),
        a,
        b,
        fa,
        fb,
        300,
    )
    .unwrap_or_else(|never| match never {})
    {
        return Ok(root);
    }
    Err(Error::NoConvergence {
        what: "characteristic time: level root".into(),
        iterations: 300,
    })
}

/// Solves `max_y y / (1 + X(y))` (free leader weight).
pub(crate) fn solve_free<C: Challenger>(chs: &[C]) -> Result<LevelSolution> {
    let n = chs.len();
    let mut xs = vec![1.0; n];
    let mut s_min = f64::INFINITY;
    let mut attained = false;
    for c in chs {
        let s = c.saturation();
        if s.level < s_min {
            s_min = s.level;
            attained = s.at.is_some();
        } else if s.level == s_min && s.at.is_some() {
            attained = true;
        }
    }
    if attained {
        // boundary optimum when Φ(S) <= 0 (left derivatives at S)
        let f = phi(chs, s_min, &mut xs);
        if f <= 0.0 {
            return Ok(LevelSolution { y: s_min, x: xs });
        }
    }
    let mut hi = s_min;
    let mut fhi = f64::INFINITY;
    if !s_min.is_finite() {
        hi = 1.0;
        loop {
            fhi = phi(chs, hi, &mut xs);
            if fhi > 0.0 {
                break;
            }
            hi *= 2.0;
            if hi > 1e300 {
                return Err(Error::NoConvergence {
                    what: "characteristic time: level bracket".into(),
                    iterations: 1000,
                });
            }
        }
    } else if attained {
        fhi = phi(chs, hi, &mut xs);
    }
    // geometric descent from the top of the range to a level with Φ <= 0 (the level can span
    // many orders of magnitude below the saturation level; Φ(0+) = −1)
    let (mut lo, mut flo) = (0.0, -1.0);
    let mut y = hi;
    for k in 0..400 {
        // halve near the top (tight finite bracket for Brent), then larger steps
        y *= if k < 4 { 0.5 } else { 0.125 };
        if y < 1e-300 {
            break;
        }
        let f = phi(chs, y, &mut xs);
        if f > 0.0 || f.is_nan() {
            hi = y;
            fhi = f;
        } else {
            lo = y;
            flo = f;
            break;
        }
    }
    let y = brent_root(|y| phi(chs, y, &mut xs), lo, hi, flo, fhi)?;
    let mut x = vec![1.0; n];
    phi(chs, y, &mut x);
    Ok(LevelSolution { y, x })
}

/// Solves the β-problem: `Σ_b x_b(y) = (1 − β)/β`, `T_β = 1/(β y)`.
pub(crate) fn solve_beta<C: Challenger>(chs: &[C], beta: f64) -> Result<LevelSolution> {
    let n = chs.len();
    let target = (1.0 - beta) / beta;
    let mut xs = vec![1.0; n];
    let mut s_min = f64::INFINITY;
    for c in chs {
        s_min = s_min.min(c.saturation().level);
    }
    let excess = |y: f64, xs: &mut [f64]| -> f64 {
        let mut s = 0.0;
        for (c, x) in chs.iter().zip(xs.iter_mut()) {
            let xi = c.invert(y, *x);
            if !xi.is_finite() {
                return f64::INFINITY;
            }
            *x = xi;
            s += xi;
        }
        s - target
    };
    let (hi, fhi) = if s_min.is_finite() {
        (s_min, f64::INFINITY)
    } else {
        let mut hi = 1.0;
        loop {
            let f = excess(hi, &mut xs);
            if f > 0.0 {
                break (hi, f);
            }
            hi *= 2.0;
            if hi > 1e300 {
                return Err(Error::NoConvergence {
                    what: "characteristic time: beta level bracket".into(),
                    iterations: 1000,
                });
            }
        }
    };
    let (mut lo, mut flo, mut hi, mut fhi) = (0.0, -target, hi, fhi);
    let mut y = hi;
    for k in 0..400 {
        // halve near the top (tight finite bracket for Brent), then larger steps
        y *= if k < 4 { 0.5 } else { 0.125 };
        if y < 1e-300 {
            break;
        }
        let f = excess(y, &mut xs);
        if f > 0.0 || f.is_nan() {
            hi = y;
            fhi = f;
        } else {
            lo = y;
            flo = f;
            break;
        }
    }
    let y = brent_root(|y| excess(y, &mut xs), lo, hi, flo, fhi)?;
    let mut x = vec![1.0; n];
    excess(y, &mut x);
    Ok(LevelSolution { y, x })
}

/// Certified upper bound of `T` for the allocation `(1, x_b)` (unnormalised).
pub(crate) fn upper_free<C: Challenger>(chs: &[C], x: &[f64]) -> f64 {
    let total: f64 = 1.0 + x.iter().sum::<f64>();
    let mut f = f64::INFINITY;
    for (c, &xb) in chs.iter().zip(x) {
        f = f.min(c.lower(1.0, xb));
    }
    total / f * (1.0 + rounding_margin(chs.len()))
}

/// Certified upper bound of `T_β` for the allocation `(β, β x_b)`.
pub(crate) fn upper_beta<C: Challenger>(chs: &[C], x: &[f64], beta: f64) -> f64 {
    let mut w: Vec<f64> = x.iter().map(|&xb| beta * xb).collect();
    let s: f64 = w.iter().sum();
    let room = 1.0 - beta;
    if s > room {
        let k = room / s * (1.0 - 4.0 * f64::EPSILON);
        for v in w.iter_mut() {
            *v *= k;
        }
    }
    let mut f = f64::INFINITY;
    for (c, &wb) in chs.iter().zip(&w) {
        f = f.min(c.lower(beta, wb));
    }
    1.0 / f * (1.0 + rounding_margin(chs.len()))
}

/// Certified lower bound of a 1-D convex minimisation `inf_{[lo, hi]} f` from its approximate
/// minimiser `z`: tangent lines at two points around `z` (exact up to `O(f'' h²)`).
pub(crate) fn convex_lower(
    f: impl Fn(f64) -> f64,
    df: impl Fn(f64) -> f64,
    lo: f64,
    hi: f64,
    z: f64,
) -> f64 {
    // `z` is known to a few ulps (closed form or a converged bracket): tangents ~2 ulps away
    // bracket the true minimiser, and stay inside the curvature scale, which can be tiny
    // (minimisers at 1e-23 from an end when c(ε) is large)
    let h = (4.0 * f64::EPSILON * z.abs()).max(1e-300);
    let mut x1 = (z - h).max(lo);
    let mut x2 = (z + h).min(hi);
    let (mut f1, mut d1) = (f(x1), df(x1));
    let (mut f2, mut d2) = (f(x2), df(x2));
    for _ in 0..60 {
        if f1.is_finite() && d1.is_finite() {
            break;
        }
        x1 = z - 0.25 * (z - x1);
        (f1, d1) = (f(x1), df(x1));
    }
    for _ in 0..60 {
        if f2.is_finite() && d2.is_finite() {
            break;
        }
        x2 = z + 0.25 * (x2 - z);
        (f2, d2) = (f(x2), df(x2));
    }
    let ok1 = f1.is_finite() && d1.is_finite();
    let ok2 = f2.is_finite() && d2.is_finite();
    let mut best = f64::INFINITY;
    // left part [lo, x1]
    if x1 > lo {
        if ok1 {
            best = best.min(f1 - d1.max(0.0) * (x1 - lo));
        } else {
            return 0.0; // no information (never happens for the problems of this module)
        }
    }
    // right part [x2, hi]
    if x2 < hi {
        if ok2 {
            best = best.min(f2 + d2.min(0.0) * (hi - x2));
        } else {
            return 0.0;
        }
    }
    // middle [x1, x2]: f >= max(t1, t2)
    let mid = match (ok1, ok2) {
        (true, true) => {
            let t1 = |x: f64| f1 + d1 * (x - x1);
            let t2 = |x: f64| f2 + d2 * (x - x2);
            let mut m = t1(x1).max(t2(x1)).min(t1(x2).max(t2(x2)));
            if d1 != d2 {
                let xi = (f2 - f1 + d1 * x1 - d2 * x2) / (d1 - d2);
                if xi > x1 && xi < x2 {
                    m = m.min(t1(xi).max(t2(xi)));
                }
            }
            m
        }
        (true, false) => f1 + d1.min(0.0) * (x2 - x1),
        (false, true) => f2 - d2.max(0.0) * (x2 - x1),
        (false, false) => 0.0,
    };
    best.min(mid).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn convex_lower_of_parabola_is_tight() {
        let f = |x: f64| (x - 0.3) * (x - 0.3) + 2.0;
        let df = |x: f64| 2.0 * (x - 0.3);
        let lb = convex_lower(f, df, 0.0, 1.0, 0.3);
        assert!(lb <= 2.0 && lb > 2.0 - 1e-13, "{lb}");
        // an inaccurate minimiser still gives a valid (weaker) bound
        let lb = convex_lower(f, df, 0.0, 1.0, 0.3 + 1e-3);
        assert!(lb <= 2.0 && lb > 2.0 - 1e-2, "{lb}");
        // minimum at an end point
        let lb = convex_lower(f, df, 0.5, 1.0, 0.5);
        assert!(lb <= f(0.5) && lb > f(0.5) - 1e-13);
    }
}
