//! The per-challenger costs `ψ_b` of every characteristic time (READINGS.md §B.3–§B.9).

use super::solver::{Challenger, Piece, Saturation, convex_lower, invert_concave};
use crate::divergence::{DEps, kl_bernoulli_unchecked};
use crate::float::{next_down, next_up};

/// One-arm divergence `z ↦ X(z)` centred at `p` (`X(p) = 0`): Bernoulli `kl(p, z)`, a
/// quadratic `k (z − p)²`, or the signed global-DP divergences of \[BAI25\]: `d⁻_ε(p, z)` (the
/// best arm's mean moved down to `z`) and `d⁺_ε(p, z)` (a challenger's mean moved up).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Div {
    Kl(f64),
    Quad(f64, f64),
    EpsDown(f64, DEps),
    EpsUp(f64, DEps),
}

impl Div {
    #[inline]
    fn v(self, z: f64) -> f64 {
        match self {
            Div::Kl(p) => kl_bernoulli_unchecked(p, z),
            Div::Quad(p, k) => k * (z - p) * (z - p),
            Div::EpsDown(p, e) => e.minus(p, z),
            Div::EpsUp(p, e) => e.plus(p, z),
        }
    }
    /// `dX/dz`.
    #[inline]
    fn d1(self, z: f64) -> f64 {
        match self {
            Div::Kl(p) => {
                if p <= 0.0 {
                    1.0 / (1.0 - z)
                } else if p >= 1.0 {
                    -1.0 / z
                } else {
                    (z - p) / (z * (1.0 - z))
                }
            }
            Div::Quad(p, k) => 2.0 * k * (z - p),
            Div::EpsDown(p, e) => e.minus_derivatives(p, z).0,
            Div::EpsUp(p, e) => e.plus_derivatives(p, z).0,
        }
    }
    /// `d²X/dz²`.
    #[inline]
    fn d2(self, z: f64) -> f64 {
        match self {
            Div::Kl(p) => {
                let a = if p > 0.0 { p / (z * z) } else { 0.0 };
                let b = if p < 1.0 {
                    (1.0 - p) / ((1.0 - z) * (1.0 - z))
                } else {
                    0.0
                };
                a + b
            }
            Div::Quad(_, k) => 2.0 * k,
            Div::EpsDown(p, e) => e.minus_derivatives(p, z).1,
            Div::EpsUp(p, e) => e.plus_derivatives(p, z).1,
        }
    }
    fn same_kind(self, o: Div) -> bool {
        matches!(
            (self, o),
            (Div::Kl(_), Div::Kl(_)) | (Div::Quad(..), Div::Quad(..))
        ) && match (self, o) {
            (Div::Quad(_, k1), Div::Quad(_, k2)) => k1 == k2,
            _ => true,
        }
    }
}

/// A branch `inf_{z∈[low, top]} u X1(z) + w X2(z)` (X1 centred at the best mean, X2 at μ_b).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Branch {
    pub x1: Div,
    pub x2: Div,
}

impl Branch {
    /// Minimiser `z*` of `u X1 + w X2` on `[low, top]`.
    pub(crate) fn argmin(&self, u: f64, w: f64, low: f64, top: f64) -> f64 {
        if self.x1.same_kind(self.x2) {
            // closed form: weighted mean (B.4 for kl; B.3 for quadratics)
            let z = (u * top + w * low) / (u + w);
            return z.clamp(low, top);
        }
        let h = |z: f64| u * self.x1.d1(z) + w * self.x2.d1(z);
        let (x1, x2) = (self.x1, self.x2);
        // end points
        let htop = h(top);
        if htop <= 0.0 {
            return top;
        }
        let hlow = h(low);
        if hlow >= 0.0 {
            return low;
        }
        let (mut a, mut b) = (low, top);
        let mut z = (u * top + w * low) / (u + w);
        if !(z > a && z < b) {
            z = 0.5 * (a + b);
        }
        let mut bisect = false;
        for _ in 0..200 {
            let hz = h(z);
            if hz == 0.0 {
                return z;
            }
            if hz < 0.0 {
                a = z;
            } else {
                b = z;
            }
            if b - a <= 4.0 * f64::EPSILON * b.abs() {
                break;
            }
            let dh = u * x1.d2(z) + w * x2.d2(z);
            let mut c = z - hz / dh;
            if bisect || !(c > a && c < b) {
                // bisection, geometric when the bracket spans orders of magnitude (minimisers
                // can sit at 1e-80 when c(ε) is huge)
                c = if a > 0.0 && b > 8.0 * a {
                    (a * b).sqrt()
                } else if a == 0.0 && b > 0.0 {
                    0.125 * b
                } else {
                    0.5 * (a + b)
                };
                bisect = false;
            }
            let tiny = 4.0 * f64::EPSILON * z.abs();
            if (c - z).abs() <= tiny {
                // a tiny Newton step is not proof of convergence (the curvature can vary by
                // many orders of magnitude near a boundary): probe just past it
                let probe = if hz < 0.0 {
                    (z + tiny).min(b)
                } else {
                    (z - tiny).max(a)
                };
                let hp = h(probe);
                if (hp < 0.0) != (hz < 0.0) || hp == 0.0 {
                    return if hp.abs() < hz.abs() { probe } else { z };
                }
                if hp < 0.0 {
                    a = probe;
                } else {
                    b = probe;
                }
                bisect = true;
                c = probe;
            }
            z = c;
        }
        z
    }

    fn piece_at(&self, z: f64) -> Piece {
        Piece {
            r: self.x1.v(z),
            s: self.x2.v(z),
        }
    }

    fn lower(&self, u: f64, w: f64, low: f64, top: f64) -> f64 {
        let z = self.argmin(u, w, low, top);
        let (x1, x2) = (self.x1, self.x2);
        if let (Div::Quad(_, k1), Div::Quad(_, k2)) = (x1, x2) {
            if k1 == k2 {
                let d = top - low;
                return k1 * d * d * u * w / (u + w);
            }
        }
        let f = |z: f64| u * x1.v(z) + w * x2.v(z);
        let df = |z: f64| u * x1.d1(z) + w * x2.d1(z);
        if x2.v(top).is_finite() {
            return convex_lower(f, df, low, top, z);
        }
        // X2(top) = +∞ (top = 1 > μ_b with a kl term): the minimiser may lie closer to 1 than
        // a double can resolve. Split off the sliver [top', top]: there X1 >= 0 and X2 is
        // increasing, so f >= w X2(top'); on [low, top'] the usual tangent bound.
        let top2 = top - (1e-14f64).min(1e-3 * (top - low));
        let sliver = w * x2.v(top2);
        convex_lower(f, df, low, top2, z.min(top2)).min(sliver)
    }
}

/// `ψ_b = min_j inf_z [u X1_j(z) + w X2_j(z)]`: Bernoulli KL (one branch) or the local-DP
/// divergence `min{kl, c(ε) TV²}` (four branches, B.8).
#[derive(Debug, Clone)]
pub(crate) struct BranchCh {
    pub top: f64,
    pub low: f64,
    pub branches: Vec<Branch>,
}

impl BranchCh {
    pub fn kl_bernoulli(top: f64, low: f64) -> Self {
        BranchCh {
            top,
            low,
            branches: vec![Branch {
                x1: Div::Kl(top),
                x2: Div::Kl(low),
            }],
        }
    }

    /// The private transportation cost of \[BAI25\] (poster):
    /// `C*_ε = inf_{z ∈ [low, top]} u·d⁻_ε(top, z) + w·d⁺_ε(low, z)`, one branch, convex in `z`.
    pub fn eps(top: f64, low: f64, e: DEps) -> Self {
        BranchCh {
            top,
            low,
            branches: vec![Branch {
                x1: Div::EpsDown(top, e),
                x2: Div::EpsUp(low, e),
            }],
        }
    }

    /// Local-DP cost with `d_ε = min{kl, c TV²}` (B.8). Exact simplifications on `[low, top]`:
    /// * `c <= 2`: Pinsker `kl >= 2 TV² >= c TV²`, so `d_ε = c TV²` (one quadratic branch);
    /// * `c >= ½ max{1/(m(1−m)) : m ∈ {low, top}}`: `kl(p, z) = (z−p)² ∫_0^1 θ/(s(1−s)) dθ`
    ///   with `s` between `p` and `z`, and `1/(s(1−s))` is convex, so `kl <= c TV²` on
    ///   `[low, top]` for both arms and `d_ε = kl` (one KL branch);
    /// * otherwise the four branches `J_KK, J_KT, J_TK, J_TT`.
    pub fn local(top: f64, low: f64, c: f64) -> Self {
        if !c.is_finite() {
            return Self::kl_bernoulli(top, low);
        }
        if c <= 2.0 {
            return BranchCh {
                top,
                low,
                branches: vec![Branch {
                    x1: Div::Quad(top, c),
                    x2: Div::Quad(low, c),
                }],
            };
        }
        let curv = |m: f64| 1.0 / (m * (1.0 - m));
        let c_kl = 0.5 * curv(low).max(curv(top));
        if low > 0.0 && top < 1.0 && c >= c_kl * (1.0 + 1e-12) {
            return Self::kl_bernoulli(top, low);
        }
        let a = [Div::Kl(top), Div::Quad(top, c)];
        let b = [Div::Kl(low), Div::Quad(low, c)];
        let mut branches = Vec::with_capacity(4);
        for &x1 in &a {
            for &x2 in &b {
                branches.push(Branch { x1, x2 });
            }
        }
        BranchCh { top, low, branches }
    }
}

impl Challenger for BranchCh {
    fn eval(&self, x: f64) -> Piece {
        let mut best = Piece {
            r: f64::INFINITY,
            s: 0.0,
        };
        let mut bestv = f64::INFINITY;
        for br in &self.branches {
            let z = br.argmin(1.0, x, self.low, self.top);
            let p = br.piece_at(z);
            let v = p.r + x * p.s;
            if v < bestv || (v == bestv && p.s > best.s) {
                best = p;
                bestv = v;
            }
        }
        best
    }

    fn saturation(&self) -> Saturation {
        let level = self
            .branches
            .iter()
            .map(|b| b.x1.v(self.low))
            .fold(f64::INFINITY, f64::min);
        Saturation { level, at: None }
    }

    fn lower(&self, u: f64, w: f64) -> f64 {
        self.branches
            .iter()
            .map(|b| b.lower(u, w, self.low, self.top))
            .fold(f64::INFINITY, f64::min)
    }

    fn invert(&self, y: f64, guess: f64) -> f64 {
        // ψ = min_j ψ_j >= y  <=>  every branch >= y: invert each smooth branch
        let mut x = 0.0f64;
        for br in &self.branches {
            let (xj, _) = invert_concave(
                |x| br.piece_at(br.argmin(1.0, x, self.low, self.top)),
                y,
                guess,
            );
            x = x.max(xj);
        }
        x
    }

    fn invert_with_piece(&self, y: f64, guess: f64) -> (f64, Piece) {
        if let [br] = self.branches.as_slice() {
            return invert_concave(
                |x| br.piece_at(br.argmin(1.0, x, self.low, self.top)),
                y,
                guess,
            );
        }
        let x = self.invert(y, guess);
        (x, self.eval(x))
    }

    fn pieces(&self, u: f64, w: f64, out: &mut Vec<Piece>) {
        for br in &self.branches {
            let z = br.argmin(u, w, self.low, self.top);
            out.push(br.piece_at(z));
            // The minimiser is only known to the resolution of a double, which is coarse
            // relative to the gap for near-tied arms (ulp(0.5)/1e-7 ~ 1e-9). Neighbouring
            // doubles bracket it, and the LP mixes their pieces (any z gives a valid piece).
            let mut lo = z;
            let mut hi = z;
            for _ in 0..2 {
                lo = next_down(lo).max(self.low);
                hi = next_up(hi).min(self.top);
                for zz in [lo, hi] {
                    let p = br.piece_at(zz);
                    if p.r.is_finite() && p.s.is_finite() {
                        out.push(p);
                    }
                }
            }
            if matches!(br.x1, Div::EpsDown(..)) {
                // d_ε is nearly ε·TV for small ε: ψ(u, ·) bends sharply near w = u and the
                // minimiser moves across the interval for a tiny change of the weights, so the
                // one at the solution's weights need not be the one the LP needs. Minimisers at
                // nearby weights (supergradients nearby, all valid minorants) and the two ends
                // bracket it.
                for t in [1e-12, 1e-9, 1e-6, 1e-3] {
                    for ww in [w * (1.0 - t), w * (1.0 + t)] {
                        out.push(br.piece_at(br.argmin(u, ww, self.low, self.top)));
                    }
                }
                out.push(br.piece_at(self.low));
                out.push(br.piece_at(self.top));
            }
        }
    }
}

/// `ψ_b(u, w) = q / (1/u + 1/w)`: Gaussian KL (`q = Δ²/(2σ²)`), TV² (`q = Δ²`), privacy-aware
/// Gaussian (`q = 2Δ min{Δ, ε/2}`), B.3, B.6, B.7.
#[derive(Debug, Clone, Copy)]
pub(crate) struct QuadCh {
    pub q: f64,
}

impl Challenger for QuadCh {
    fn eval(&self, x: f64) -> Piece {
        let a = 1.0 / (1.0 + x);
        let b = x / (1.0 + x);
        Piece {
            r: self.q * b * b,
            s: self.q * a * a,
        }
    }
    fn saturation(&self) -> Saturation {
        Saturation {
            level: self.q,
            at: None,
        }
    }
    fn lower(&self, u: f64, w: f64) -> f64 {
        self.q * u * w / (u + w)
    }
    fn pieces(&self, u: f64, w: f64, out: &mut Vec<Piece>) {
        let a = u / (u + w);
        let b = w / (u + w);
        out.push(Piece {
            r: self.q * b * b,
            s: self.q * a * a,
        });
    }
    fn invert(&self, y: f64, _guess: f64) -> f64 {
        // q x/(1+x) = y  <=>  x = y/(q − y)
        y / (self.q - y)
    }
}

/// `ψ_b(u, w) = level · min(u, w)`: TV time (B.5; `level = Δ_b` Bernoulli, `erf(Δ_b/(2√2σ))`
/// Gaussian), and the TV part of the global time (`level = ε·TV`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct TvCh {
    pub level: f64,
}

impl Challenger for TvCh {
    fn eval(&self, x: f64) -> Piece {
        if x <= 1.0 {
            Piece {
                r: 0.0,
                s: self.level,
            }
        } else {
            Piece {
                r: self.level,
                s: 0.0,
            }
        }
    }
    fn saturation(&self) -> Saturation {
        Saturation {
            level: self.level,
            at: Some(1.0),
        }
    }
    fn lower(&self, u: f64, w: f64) -> f64 {
        self.level * u.min(w)
    }
    fn pieces(&self, _u: f64, _w: f64, out: &mut Vec<Piece>) {
        out.push(Piece {
            r: 0.0,
            s: self.level,
        });
        out.push(Piece {
            r: self.level,
            s: 0.0,
        });
    }
    fn invert(&self, y: f64, _guess: f64) -> f64 {
        (y / self.level).min(1.0)
    }
}

/// Global-DP cost `φ_b = min{ψ^KL_b, ε TV_b min(u, w)}` (B.9).
#[derive(Debug, Clone)]
pub(crate) struct GlobalCh<C> {
    pub kl: C,
    pub tv: TvCh,
    /// `x` where the saturation level `ε TV_b` is first reached (when `ε TV_b < sup ψ^KL`).
    at: Option<f64>,
}

impl<C: Challenger> GlobalCh<C> {
    pub fn new(kl: C, level: f64) -> Self {
        let tv = TvCh { level };
        let s_kl = kl.saturation().level;
        let at = if level < s_kl {
            Some(kl.invert(level, 1.0).max(1.0))
        } else {
            None
        };
        GlobalCh { kl, tv, at }
    }
}

impl<C: Challenger> Challenger for GlobalCh<C> {
    fn eval(&self, x: f64) -> Piece {
        let a = self.kl.eval(x);
        let b = self.tv.eval(x);
        let (va, vb) = (a.r + x * a.s, b.r + x * b.s);
        if va < vb || (va == vb && a.s >= b.s) {
            a
        } else {
            b
        }
    }
    fn saturation(&self) -> Saturation {
        let s_kl = self.kl.saturation().level;
        if self.tv.level < s_kl {
            Saturation {
                level: self.tv.level,
                at: self.at,
            }
        } else {
            Saturation {
                level: s_kl,
                at: None,
            }
        }
    }
    fn lower(&self, u: f64, w: f64) -> f64 {
        self.kl.lower(u, w).min(self.tv.lower(u, w))
    }
    fn pieces(&self, u: f64, w: f64, out: &mut Vec<Piece>) {
        self.kl.pieces(u, w, out);
        self.tv.pieces(u, w, out);
    }
    fn invert(&self, y: f64, guess: f64) -> f64 {
        // φ(1, x) >= y  <=>  ψ^KL(1, x) >= y and level·min(1, x) >= y
        self.kl.invert(y, guess).max(self.tv.invert(y, guess))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn four(top: f64, low: f64, c: f64) -> BranchCh {
        let a = [Div::Kl(top), Div::Quad(top, c)];
        let b = [Div::Kl(low), Div::Quad(low, c)];
        let branches = a
            .iter()
            .flat_map(|&x1| b.iter().map(move |&x2| Branch { x1, x2 }))
            .collect();
        BranchCh { top, low, branches }
    }

    /// The exact simplifications of `BranchCh::local` (Pinsker for c <= 2, the curvature bound
    /// for large c) agree with the four-branch minimum.
    #[test]
    fn local_pruning_is_exact() {
        for &(top, low) in &[(0.7, 0.4), (0.95, 0.5), (0.3, 0.01), (0.999, 0.99)] {
            let curv = |m: f64| 1.0 / (m * (1.0 - m));
            let c_kl = 0.5 * curv(low).max(curv(top));
            for &c in &[0.1, 1.0, 2.0, c_kl * 1.001, c_kl * 10.0] {
                let (p, f) = (BranchCh::local(top, low, c), four(top, low, c));
                assert_eq!(p.branches.len(), 1);
                for &x in &[1e-3, 0.1, 1.0, 10.0, 1e3] {
                    let (a, b) = (p.eval(x), f.eval(x));
                    let (va, vb) = (a.r + x * a.s, b.r + x * b.s);
                    assert!(
                        (va - vb).abs() <= 1e-13 * vb,
                        "{top} {low} {c} {x}: {va} {vb}"
                    );
                }
            }
            // in between: four branches
            assert_eq!(
                BranchCh::local(top, low, 2.5f64.min(c_kl * 0.9))
                    .branches
                    .len(),
                4
            );
        }
    }

    #[test]
    fn global_saturation_point() {
        // level below the KL saturation: reached at x = max(1, x_KL(level))
        let g = GlobalCh::new(BranchCh::kl_bernoulli(0.9, 0.5), 0.05);
        let s = g.saturation();
        assert_eq!(s.level, 0.05);
        let x = s.at.expect("attained");
        let p = g.eval(x);
        assert!((p.r + x * p.s - 0.05).abs() < 1e-15 && x >= 1.0);
    }
}
