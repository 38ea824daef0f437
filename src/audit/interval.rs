//! Interval arithmetic with outward rounding over compiled threshold expressions, for the proofs
//! by dominance of [`crate::audit::dominance`].
//!
//! An [`Interval`] `[lo, hi]` with a flag `nan` encloses every value an expression can take on a
//! box of variables: every non-NaN value lies in `[lo, hi]`, and `nan` is set whenever some
//! point of the box may give NaN (an argument outside a function's domain).
//!
//! # Rounding
//! Rust offers no control of the rounding mode, so every bound computed in floating point is
//! moved outward by one ulp after the operation (the IEEE result of `+ − × ÷ √` is correctly
//! rounded, so the exact real result lies within one ulp of it), by two ulps after `ln`, `log2`,
//! `exp`, `powf` (their libm error is below one ulp), and by the documented relative accuracy of
//! `cg`, `wbar`, `zeta`, `h` ([`crate::special`]) plus two ulps.
//!
//! # Enclosures of the special functions (from their monotonicity)
//! `cg` (`C_G`, increasing on `x > 0`), `wbar` (`W̄_{-1}`, increasing on `x >= 1`), `k`
//! (`log2 x + 2`, increasing on `x >= 1`), `h(x, δ, K)` (increasing in `x` on `x >= 1`, for point
//! `δ` and `K`), `log`, `log2`, `sqrt`, `exp` (increasing), `zeta` (decreasing on `s > 1`).

use crate::audit::expr::{BinaryFn, Node, UnaryFn};

/// `[lo, hi]` plus "may be NaN somewhere" (module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower bound of the non-NaN values (`+∞` when there are none).
    pub lo: f64,
    /// Upper bound of the non-NaN values (`−∞` when there are none).
    pub hi: f64,
    /// Some point may evaluate to NaN.
    pub nan: bool,
}

pub use crate::float::{next_down, next_up};

fn down(x: f64, ulps: u32) -> f64 {
    (0..ulps).fold(x, |v, _| next_down(v))
}
fn up(x: f64, ulps: u32) -> f64 {
    (0..ulps).fold(x, |v, _| next_up(v))
}
/// Moves `x` down by a relative `rel` and two ulps.
fn down_rel(x: f64, rel: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    down(x - rel * x.abs(), 2)
}
fn up_rel(x: f64, rel: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    up(x + rel * x.abs(), 2)
}

impl Interval {
    /// The point `[x, x]` (NaN gives the empty interval with `nan`).
    pub fn point(x: f64) -> Self {
        if x.is_nan() {
            return Interval::EMPTY_NAN;
        }
        Interval {
            lo: x,
            hi: x,
            nan: false,
        }
    }
    /// `[lo, hi]`.
    pub fn new(lo: f64, hi: f64) -> Self {
        Interval { lo, hi, nan: false }
    }
    /// Only NaN.
    pub const EMPTY_NAN: Interval = Interval {
        lo: f64::INFINITY,
        hi: f64::NEG_INFINITY,
        nan: true,
    };
    /// Everything.
    pub const ALL: Interval = Interval {
        lo: f64::NEG_INFINITY,
        hi: f64::INFINITY,
        nan: true,
    };
    /// No non-NaN value.
    pub fn is_empty(&self) -> bool {
        self.lo > self.hi
    }
    /// Whether the (non-NaN) value `x` is enclosed.
    pub fn contains(&self, x: f64) -> bool {
        if x.is_nan() {
            self.nan
        } else {
            self.lo <= x && x <= self.hi
        }
    }
    /// Smallest interval containing both.
    pub fn hull(a: Interval, b: Interval) -> Interval {
        Interval {
            lo: a.lo.min(b.lo),
            hi: a.hi.max(b.hi),
            nan: a.nan || b.nan,
        }
    }
    fn widen(self, ulps: u32) -> Interval {
        if self.is_empty() {
            return self;
        }
        Interval {
            lo: down(self.lo, ulps),
            hi: up(self.hi, ulps),
            nan: self.nan,
        }
    }
    /// Applies an increasing function defined on `[dom_lo, ∞)` (`open`: `(dom_lo, ∞)`); values
    /// below the domain give NaN; `rel` is the function's relative accuracy (ulps added).
    fn increasing(self, dom_lo: f64, open: bool, f: impl Fn(f64) -> f64, rel: f64) -> Interval {
        if self.is_empty() {
            return self;
        }
        let inside = |x: f64| if open { x > dom_lo } else { x >= dom_lo };
        let mut nan = self.nan;
        if !inside(self.hi) {
            return Interval::EMPTY_NAN;
        }
        let flo = if inside(self.lo) {
            f(self.lo)
        } else {
            // Part of the box is outside the domain (NaN there). The infimum over the rest is
            // f(dom_lo) for a closed domain; for an open one the limit at dom_lo+, which is at
            // most f at the first number inside (f(dom_lo) itself is used when defined,
            // e.g. ln 0 = −∞; `min` ignores a NaN).
            nan = true;
            if open {
                f(next_up(dom_lo)).min(f(dom_lo))
            } else {
                f(dom_lo)
            }
        };
        let fhi = f(self.hi);
        let lo = if flo.is_nan() {
            f64::NEG_INFINITY
        } else {
            down_rel(flo, rel)
        };
        let hi = if fhi.is_nan() {
            f64::INFINITY
        } else {
            up_rel(fhi, rel)
        };
        Interval { lo, hi, nan }
    }

    fn add(self, o: Interval) -> Interval {
        if self.is_empty() || o.is_empty() {
            return Interval::EMPTY_NAN;
        }
        let lo = self.lo + o.lo;
        let hi = self.hi + o.hi;
        // inf + (-inf) = NaN: possible NaN, unbounded.
        let nan = self.nan || o.nan || lo.is_nan() || hi.is_nan();
        Interval {
            lo: if lo.is_nan() { f64::NEG_INFINITY } else { lo },
            hi: if hi.is_nan() { f64::INFINITY } else { hi },
            nan,
        }
        .widen(1)
    }
    fn neg(self) -> Interval {
        Interval {
            lo: -self.hi,
            hi: -self.lo,
            nan: self.nan,
        }
    }
    fn products(self, o: Interval, f: impl Fn(f64, f64) -> f64) -> Interval {
        let c = [
            f(self.lo, o.lo),
            f(self.lo, o.hi),
            f(self.hi, o.lo),
            f(self.hi, o.hi),
        ];
        let mut nan = self.nan || o.nan;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in c {
            if v.is_nan() {
                // 0·∞: the product takes every value near 0 and ±∞ nearby; be conservative.
                nan = true;
                lo = f64::NEG_INFINITY;
                hi = f64::INFINITY;
            } else {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        Interval { lo, hi, nan }.widen(1)
    }
    fn mul(self, o: Interval) -> Interval {
        if self.is_empty() || o.is_empty() {
            return Interval::EMPTY_NAN;
        }
        self.products(o, |a, b| a * b)
    }
    fn div(self, o: Interval) -> Interval {
        if self.is_empty() || o.is_empty() {
            return Interval::EMPTY_NAN;
        }
        if o.lo <= 0.0 && o.hi >= 0.0 {
            return Interval::ALL;
        }
        self.products(o, |a, b| a / b)
    }
    fn min(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.min(o.lo),
            hi: self.hi.min(o.hi),
            nan: self.nan || o.nan,
        }
    }
    fn max(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.max(o.lo),
            hi: self.hi.max(o.hi),
            nan: self.nan || o.nan,
        }
    }
    fn abs(self) -> Interval {
        if self.is_empty() {
            return self;
        }
        if self.lo >= 0.0 {
            self
        } else if self.hi <= 0.0 {
            self.neg()
        } else {
            Interval {
                lo: 0.0,
                hi: (-self.lo).max(self.hi),
                nan: self.nan,
            }
        }
    }
    fn powi(self, n: i32) -> Interval {
        if self.is_empty() {
            return self;
        }
        if n == 0 {
            return Interval {
                lo: 1.0,
                hi: 1.0,
                nan: self.nan,
            };
        }
        if n < 0 {
            return Interval::point(1.0).div(self.powi(-n));
        }
        // Repeated multiplication of intervals is sound (and exact in sign for even powers via
        // abs first).
        let base = if n % 2 == 0 { self.abs() } else { self };
        let mut acc = base;
        for _ in 1..n {
            acc = acc.mul(base);
        }
        if n % 2 == 0 {
            acc.lo = acc.lo.max(0.0);
        }
        acc
    }
    fn apply1(self, f: UnaryFn) -> Interval {
        use crate::special as sp;
        let nanify = |r: crate::Result<f64>| r.unwrap_or(f64::NAN);
        match f {
            UnaryFn::Neg => self.neg(),
            UnaryFn::Abs => self.abs(),
            UnaryFn::Log => self.increasing(0.0, true, f64::ln, 0.0).widen(1),
            UnaryFn::Log2 => self.increasing(0.0, true, f64::log2, 0.0).widen(1),
            UnaryFn::Sqrt => self.increasing(0.0, false, f64::sqrt, 0.0),
            UnaryFn::Exp => self
                .increasing(f64::NEG_INFINITY, false, f64::exp, 0.0)
                .widen(1),
            UnaryFn::K => self
                .increasing(1.0, false, |x| nanify(sp::k(x)), 0.0)
                .widen(1),
            UnaryFn::Cg => self.increasing(0.0, true, |x| nanify(sp::c_g(x)), 1e-11),
            UnaryFn::Wbar => self.increasing(1.0, false, |x| nanify(sp::wbar_m1(x)), 1e-14),
            UnaryFn::Zeta => {
                // Decreasing on s > 1, ζ(1+) = +∞, ζ(+∞) = 1; NaN for s <= 1.
                if self.is_empty() {
                    return self;
                }
                if self.hi <= 1.0 {
                    return Interval::EMPTY_NAN;
                }
                let z = |x: f64| nanify(sp::zeta(x));
                let lo = down_rel(z(self.hi), 1e-12);
                let (hi, nan) = if self.lo > 1.0 {
                    (up_rel(z(self.lo), 1e-12), self.nan)
                } else {
                    (f64::INFINITY, true)
                };
                Interval { lo, hi, nan }
            }
        }
    }
    fn apply2(self, f: BinaryFn, o: Interval) -> Interval {
        match f {
            BinaryFn::Add => self.add(o),
            BinaryFn::Sub => self.add(o.neg()),
            BinaryFn::Mul => self.mul(o),
            BinaryFn::Div => self.div(o),
            BinaryFn::Min => self.min(o),
            BinaryFn::Max => self.max(o),
            BinaryFn::Pow => {
                // x^y = exp(y log x) for x > 0; otherwise give up (unbounded, maybe NaN).
                if !self.is_empty() && self.lo > 0.0 {
                    o.mul(self.apply1(UnaryFn::Log)).apply1(UnaryFn::Exp)
                } else {
                    Interval::ALL
                }
            }
        }
    }
}

/// Encloses the values of `node` on the box `vars` (one interval per variable slot, in the
/// order `delta, K, eps, sigma, t, na, nb, ka, kb, gap`).
///
/// # Definition
/// The natural interval extension: each operation applied to the enclosures of its operands,
/// rounded outward (module docs); `ifge(x, y, a, b)` gives `a` if `x >= y` on the whole box,
/// `b` if `x < y` on the whole box, else the hull of both.
///
/// # Accuracy
/// Sound: for every point of the box the expression's value is enclosed (or NaN with `nan`
/// set). Not tight: dependencies between operands widen the enclosure, which splitting the box
/// reduces.
pub(crate) fn eval(node: &Node, vars: &[Interval; 10]) -> Interval {
    match node {
        Node::Num(v) => Interval::point(*v),
        Node::Var(v) => vars[*v as usize],
        Node::Un(f, a) => eval(a, vars).apply1(*f),
        Node::Bin(f, a, b) => eval(a, vars).apply2(*f, eval(b, vars)),
        Node::PowI(a, n) => eval(a, vars).powi(*n),
        Node::H(x, d, k) => {
            let (x, d, k) = (eval(x, vars), eval(d, vars), eval(k, vars));
            let point = d.lo == d.hi && k.lo == k.hi && !d.nan && !k.nan;
            if !point {
                return Interval::ALL;
            }
            let (delta, kk) = (d.lo, k.lo);
            let valid =
                (2.0..=1e9).contains(&kk) && kk.fract() == 0.0 && delta > 0.0 && delta < 1.0;
            if !valid {
                return Interval::EMPTY_NAN;
            }
            x.increasing(
                1.0,
                false,
                |v| crate::special::h(v, delta, kk as usize).unwrap_or(f64::NAN),
                1e-13,
            )
        }
        Node::IfGe(v) => {
            let [x, y, a, b] = &**v;
            let (x, y) = (eval(x, vars), eval(y, vars));
            let sure = !x.nan && !y.nan && !x.is_empty() && !y.is_empty();
            if sure && x.lo >= y.hi {
                eval(a, vars)
            } else if (sure && x.hi < y.lo) || x.is_empty() || y.is_empty() {
                // All-NaN comparisons take the else branch.
                eval(b, vars)
            } else {
                Interval::hull(eval(a, vars), eval(b, vars))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::expr::ThresholdExpr;
    use crate::bandit::ThresholdVars;
    use crate::rng::rng_for_run;
    use rand::RngExt;

    /// Knuth's TwoSum: `a + b = s + e` exactly.
    fn two_sum(a: f64, b: f64) -> (f64, f64) {
        let s = a + b;
        let bb = s - a;
        let e = (a - (s - bb)) + (b - bb);
        (s, e)
    }

    #[test]
    fn addition_rounds_outward() {
        // The exact real sum must lie inside: fails if the bounds were the rounded sum itself.
        let mut rng = rng_for_run(17, 0);
        let mut strict = 0;
        for _ in 0..10_000 {
            let a: f64 = rng.random::<f64>() * 10.0;
            let b: f64 = rng.random::<f64>() / 3.0;
            let (s, e) = two_sum(a, b);
            let i = Interval::point(a).add(Interval::point(b));
            if e < 0.0 {
                assert!(i.lo < s, "{a} + {b}");
                strict += 1;
            }
            if e > 0.0 {
                assert!(i.hi > s, "{a} + {b}");
                strict += 1;
            }
            assert!(i.lo <= s && s <= i.hi);
        }
        assert!(strict > 1000, "the test exercises inexact sums");
        let i = Interval::point(0.1).add(Interval::point(0.2));
        assert!(i.lo < 0.1 + 0.2 && i.hi >= 0.1 + 0.2);
    }

    #[test]
    fn next_up_down_step_one_ulp() {
        assert_eq!(next_up(1.0), 1.0 + f64::EPSILON);
        assert_eq!(next_down(1.0), 1.0 - f64::EPSILON / 2.0);
        assert_eq!(next_up(0.0), f64::from_bits(1));
        assert_eq!(next_down(0.0), -f64::from_bits(1));
        assert_eq!(next_up(-1.0), -(1.0 - f64::EPSILON / 2.0));
    }

    /// Soundness: at random points of random boxes, the point value lies in the enclosure.
    #[test]
    fn enclosures_contain_point_values() {
        let exprs = [
            "cg(log((K-1)/delta)/2 + log(na))",
            "wbar(1 + na/nb)",
            "zeta(1 + 1/na)",
            "h(na, delta, K)",
            "k(na)*k(nb)",
            "log(na) - exp(-nb/100) + sqrt(t)",
            "2^(gap - 0.5) + na^2 - abs(gap - 0.3)",
            "ifge(gap, 0.2, log(na), log(nb)) / (1 + gap)",
            "min(na, nb) + max(log(t), 2) - 1/(na*nb)",
            "(2*cg(log((K-1)/(delta))/2) + 2*log(4+log(na)) + 2*log(4+log(nb)))",
        ];
        let mut rng = rng_for_run(171, 0);
        for src in exprs {
            let e = ThresholdExpr::parse(src).expect("parses");
            for _ in 0..300 {
                let mut b = [Interval::point(0.0); 10];
                b[0] = Interval::point(0.05);
                b[1] = Interval::point(5.0);
                b[2] = Interval::point(0.5);
                b[3] = Interval::point(0.5);
                let mut pick = |lo: f64, hi: f64| {
                    let u = lo + (hi - lo) * rng.random::<f64>();
                    let v = lo + (hi - lo) * rng.random::<f64>();
                    Interval::new(u.min(v), u.max(v))
                };
                b[4] = pick(2.0, 1e6);
                b[5] = pick(1.0, 1e4);
                b[6] = pick(1.0, 1e4);
                b[7] = pick(1.0, 10.0);
                b[8] = pick(1.0, 10.0);
                b[9] = pick(0.0, 1.0);
                let enc = eval(e.tree(), &b);
                for _ in 0..10 {
                    let at = |i: Interval, u: f64| i.lo + (i.hi - i.lo) * u;
                    let v = ThresholdVars {
                        delta: 0.05,
                        k: 5.0,
                        eps: 0.5,
                        sigma: 0.5,
                        t: at(b[4], rng.random()),
                        na: at(b[5], rng.random()),
                        nb: at(b[6], rng.random()),
                        ka: at(b[7], rng.random()),
                        kb: at(b[8], rng.random()),
                        gap: at(b[9], rng.random()),
                    };
                    let x = e.eval(&v);
                    assert!(enc.contains(x), "{src}: {x} not in {enc:?} at {v:?}");
                }
            }
        }
    }

    #[test]
    fn domain_errors_set_the_nan_flag() {
        let b = [Interval::new(-1.0, 2.0); 10];
        let e = ThresholdExpr::parse("log(na)").expect("parses");
        let i = eval(e.tree(), &b);
        assert!(i.nan && i.lo == f64::NEG_INFINITY);
        let e = ThresholdExpr::parse("cg(na - 5)").expect("parses");
        assert_eq!(eval(e.tree(), &b), Interval::EMPTY_NAN);
    }
}
