//! Interval arithmetic with outward rounding, for the proofs by dominance of
//! [`crate::threshold::dominance`] (the enclosure of a threshold expression is built from these
//! operations by `crate::threshold::expr`'s interval evaluator; this module knows no expression).
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
//! # Exact ends
//! Where the real value is known exactly it is used unwidened, so that a threshold equal to
//! another on part of a box is not pushed below it by rounding: a sum or product whose
//! floating-point result has no rounding error (TwoSum, fused multiply-add), hence integer
//! powers of small integers; `ln 1 = 0`; `log2 2^n = n` and `k(2^n) = n + 2` (read off the
//! exponent); `exp 0 = 1`; `√x` when the rounded root squares exactly to `x`.
//!
//! # Enclosures of the special functions (from their monotonicity)
//! `cg` (`C_G`, increasing on `x > 0`), `wbar` (`W̄_{-1}`, increasing on `x >= 1`), `k`
//! (`log2 x + 2`, increasing on `x >= 1`), `h(x, δ, K)` (increasing in `x` on `x >= 1`, for point
//! `δ` and `K`), `log`, `log2`, `sqrt`, `exp` (increasing), `zeta` (decreasing on `s > 1`).
//! `h` is also increasing in `K` and decreasing in `δ` (its argument
//! `2 log(π² K k(x)²/(2δ)) + 4 log(4 + log x) + 1/2` is, and `W̄_{-1}` increases), so
//! interval `δ` and integer-ended `K` are enclosed by the corners.

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

// The arithmetic is by name (`a.add(b)`), as the operations are not those of a field.
#[allow(clippy::should_implement_trait)]
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
    /// Moves both ends outward by `ulps` ulps.
    pub fn widen(self, ulps: u32) -> Interval {
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
    /// below the domain give NaN; `rel` is the function's relative accuracy; each computed end
    /// is moved outward by `rel` and `2 + ulps` ulps, except where `exact(x)` gives the exact
    /// value of the function at the end `x` (e.g. `ln 1 = 0`), which is used as is.
    fn increasing(
        self,
        dom_lo: f64,
        open: bool,
        f: impl Fn(f64) -> f64,
        rel: f64,
        ulps: u32,
        exact: impl Fn(f64) -> Option<f64>,
    ) -> Interval {
        if self.is_empty() {
            return self;
        }
        let inside = |x: f64| if open { x > dom_lo } else { x >= dom_lo };
        let mut nan = self.nan;
        if !inside(self.hi) {
            return Interval::EMPTY_NAN;
        }
        let (flo, lo_exact) = if inside(self.lo) {
            match exact(self.lo) {
                Some(v) => (v, true),
                None => (f(self.lo), false),
            }
        } else {
            // Part of the box is outside the domain (NaN there). The infimum over the rest is
            // f(dom_lo) for a closed domain; for an open one the limit at dom_lo+, which is at
            // most f at the first number inside (f(dom_lo) itself is used when defined,
            // e.g. ln 0 = −∞; `min` ignores a NaN).
            nan = true;
            if open {
                (f(next_up(dom_lo)).min(f(dom_lo)), false)
            } else {
                (f(dom_lo), false)
            }
        };
        let (fhi, hi_exact) = match exact(self.hi) {
            Some(v) => (v, true),
            None => (f(self.hi), false),
        };
        let lo = if flo.is_nan() {
            f64::NEG_INFINITY
        } else if lo_exact {
            flo
        } else {
            down(down_rel(flo, rel), ulps)
        };
        let hi = if fhi.is_nan() {
            f64::INFINITY
        } else if hi_exact {
            fhi
        } else {
            up(up_rel(fhi, rel), ulps)
        };
        Interval { lo, hi, nan }
    }

    /// `self + o`; a bound whose floating-point sum is exact (no rounding error, by Knuth's
    /// TwoSum) is not widened.
    pub fn add(self, o: Interval) -> Interval {
        if self.is_empty() || o.is_empty() {
            return Interval::EMPTY_NAN;
        }
        let lo = self.lo + o.lo;
        let hi = self.hi + o.hi;
        // inf + (-inf) = NaN: possible NaN, unbounded.
        let nan = self.nan || o.nan || lo.is_nan() || hi.is_nan();
        let lo = if lo.is_nan() {
            f64::NEG_INFINITY
        } else if sum_is_exact(self.lo, o.lo, lo) {
            lo
        } else {
            next_down(lo)
        };
        let hi = if hi.is_nan() {
            f64::INFINITY
        } else if sum_is_exact(self.hi, o.hi, hi) {
            hi
        } else {
            next_up(hi)
        };
        Interval { lo, hi, nan }
    }
    /// `−self`.
    pub fn neg(self) -> Interval {
        Interval {
            lo: -self.hi,
            hi: -self.lo,
            nan: self.nan,
        }
    }
    /// The hull of `f` at the four corners, each bound widened by one ulp unless `exact` says
    /// that corner's value has no rounding error.
    fn products(
        self,
        o: Interval,
        f: impl Fn(f64, f64) -> f64,
        exact: impl Fn(f64, f64, f64) -> bool,
    ) -> Interval {
        let mut nan = self.nan || o.nan;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut lo_exact, mut hi_exact) = (true, true);
        for (a, b) in [
            (self.lo, o.lo),
            (self.lo, o.hi),
            (self.hi, o.lo),
            (self.hi, o.hi),
        ] {
            let v = f(a, b);
            if v.is_nan() {
                // 0·∞: the product takes every value near 0 and ±∞ nearby; be conservative.
                nan = true;
                lo = f64::NEG_INFINITY;
                hi = f64::INFINITY;
                continue;
            }
            let ex = exact(a, b, v);
            if v < lo || (v == lo && !ex) {
                lo = v;
                lo_exact = ex;
            }
            if v > hi || (v == hi && !ex) {
                hi = v;
                hi_exact = ex;
            }
        }
        Interval {
            lo: if lo_exact { lo } else { next_down(lo) },
            hi: if hi_exact { hi } else { next_up(hi) },
            nan,
        }
    }
    /// `self · o`; a bound whose product is exact (checked with a fused multiply-add) is not
    /// widened.
    pub fn mul(self, o: Interval) -> Interval {
        if self.is_empty() || o.is_empty() {
            return Interval::EMPTY_NAN;
        }
        self.products(o, |a, b| a * b, product_is_exact)
    }
    /// `self / o` (everything when `o` contains 0).
    pub fn div(self, o: Interval) -> Interval {
        if self.is_empty() || o.is_empty() {
            return Interval::EMPTY_NAN;
        }
        if o.lo <= 0.0 && o.hi >= 0.0 {
            return Interval::ALL;
        }
        self.products(o, |a, b| a / b, |_, _, _| false)
    }
    /// `min(self, o)` (NaN-propagating, as the point evaluation).
    pub fn min(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.min(o.lo),
            hi: self.hi.min(o.hi),
            nan: self.nan || o.nan,
        }
    }
    /// `max(self, o)` (NaN-propagating).
    pub fn max(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.max(o.lo),
            hi: self.hi.max(o.hi),
            nan: self.nan || o.nan,
        }
    }
    /// `|self|`.
    pub fn abs(self) -> Interval {
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
    /// `self^n` for an integer `n`.
    pub fn powi(self, n: i32) -> Interval {
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
    /// `self − o`.
    pub fn sub(self, o: Interval) -> Interval {
        self.add(o.neg())
    }
    /// Whether the enclosure is non-empty, bounded, and NaN-free: every point value is finite.
    pub fn is_finite(&self) -> bool {
        !self.nan && !self.is_empty() && self.lo.is_finite() && self.hi.is_finite()
    }
    /// `ln x` (NaN for `x <= 0`; exactly `0` at `x = 1`).
    pub fn ln(self) -> Interval {
        self.increasing(0.0, true, f64::ln, 0.0, 1, |x| (x == 1.0).then_some(0.0))
    }
    /// `log2 x` (NaN for `x <= 0`; exactly `n` at `x = 2^n`).
    pub fn log2(self) -> Interval {
        self.increasing(0.0, true, f64::log2, 0.0, 1, exact_log2)
    }
    /// `√x` (NaN for `x < 0`; exact where the square of the rounded root is exactly `x`).
    pub fn sqrt(self) -> Interval {
        self.increasing(0.0, false, f64::sqrt, 0.0, 0, |x| {
            let r = x.sqrt();
            (x.is_finite() && r.mul_add(r, -x) == 0.0 && (r * r).is_normal() || x == 0.0)
                .then_some(r)
        })
    }
    /// `e^x` (exactly `1` at `x = 0`).
    pub fn exp(self) -> Interval {
        self.increasing(f64::NEG_INFINITY, false, f64::exp, 0.0, 1, |x| {
            (x == 0.0).then_some(1.0)
        })
    }
    /// `k(x) = log2 x + 2` (Eq. (11); NaN for `x < 1`; exactly `n + 2` at `x = 2^n`).
    pub fn k(self) -> Interval {
        self.increasing(
            1.0,
            false,
            |x| nanify(crate::special::k(x)),
            0.0,
            1,
            |x| exact_log2(x).map(|n| n + 2.0),
        )
    }
    /// `C_G(x)` (Eq. (20); NaN for `x <= 0`).
    pub fn cg(self) -> Interval {
        self.increasing(
            0.0,
            true,
            |x| nanify(crate::special::c_g(x)),
            1e-11,
            0,
            |_| None,
        )
    }
    /// `W̄_{-1}(x)` (L. 40; NaN for `x < 1`).
    pub fn wbar(self) -> Interval {
        self.increasing(
            1.0,
            false,
            |x| nanify(crate::special::wbar_m1(x)),
            1e-14,
            0,
            |_| None,
        )
    }
    /// `ζ(s)`: decreasing on `s > 1`, `ζ(1+) = +∞`, `ζ(+∞) = 1`; NaN for `s <= 1`.
    pub fn zeta(self) -> Interval {
        if self.is_empty() {
            return self;
        }
        if self.hi <= 1.0 {
            return Interval::EMPTY_NAN;
        }
        let z = |x: f64| nanify(crate::special::zeta(x));
        let lo = down_rel(z(self.hi), 1e-12);
        let (hi, nan) = if self.lo > 1.0 {
            (up_rel(z(self.lo), 1e-12), self.nan)
        } else {
            (f64::INFINITY, true)
        };
        Interval { lo, hi, nan }
    }
    /// `x^y = exp(y ln x)` for `x > 0`; otherwise unbounded and maybe NaN.
    pub fn pow(self, y: Interval) -> Interval {
        if !self.is_empty() && self.lo > 0.0 {
            y.mul(self.ln()).exp()
        } else {
            Interval::ALL
        }
    }
    /// `h(x, δ, K)` of L. 23 (module docs: increasing in `x` and `K`, decreasing in `δ`). `K`
    /// must have integer ends in `[2, 10^9]` and `δ ⊂ (0, 1)`, else NaN; NaN-flagged `δ` or `K`
    /// give everything.
    pub fn h(self, delta: Interval, k: Interval) -> Interval {
        if self.is_empty() || delta.is_empty() || k.is_empty() {
            return Interval::EMPTY_NAN;
        }
        if delta.nan || k.nan {
            return Interval::ALL;
        }
        let int_k = |v: f64| (2.0..=1e9).contains(&v) && v.fract() == 0.0;
        let valid = int_k(k.lo) && int_k(k.hi) && delta.lo > 0.0 && delta.hi < 1.0;
        if !valid {
            return Interval::EMPTY_NAN;
        }
        let (d_lo, d_hi, k_lo, k_hi) = (delta.lo, delta.hi, k.lo as usize, k.hi as usize);
        let at = |v: f64, d: f64, kk: usize| crate::special::h(v, d, kk).unwrap_or(f64::NAN);
        // Lower end at (x_lo, δ_hi, K_lo), upper end at (x_hi, δ_lo, K_hi).
        let lo_part = self.increasing(1.0, false, |v| at(v, d_hi, k_lo), 1e-13, 0, |_| None);
        let hi_part = self.increasing(1.0, false, |v| at(v, d_lo, k_hi), 1e-13, 0, |_| None);
        if lo_part.is_empty() {
            return lo_part;
        }
        Interval {
            lo: lo_part.lo,
            hi: hi_part.hi,
            nan: lo_part.nan || hi_part.nan,
        }
    }
    /// `ifge(x, y, a, b)`: `a` where `x >= y` on the whole box, `b` where `x < y` on the whole
    /// box (or where a comparison is all NaN: NaN compares false), else the hull of both.
    pub fn ifge(
        x: Interval,
        y: Interval,
        a: impl FnOnce() -> Interval,
        b: impl FnOnce() -> Interval,
    ) -> Interval {
        match Interval::compare_ge(x, y) {
            Some(true) => a(),
            Some(false) => b(),
            None => Interval::hull(a(), b()),
        }
    }
    /// Whether `x >= y` at every point of the box (`Some(true)`), at none (`Some(false)`, also
    /// when either side is NaN everywhere), or undecided (`None`).
    pub fn compare_ge(x: Interval, y: Interval) -> Option<bool> {
        let sure = !x.nan && !y.nan && !x.is_empty() && !y.is_empty();
        if sure && x.lo >= y.hi {
            Some(true)
        } else if (sure && x.hi < y.lo) || x.is_empty() || y.is_empty() {
            Some(false)
        } else {
            None
        }
    }
}

/// Whether `s = fl(a + b)` is the exact sum (TwoSum's error term is zero; infinite sums of
/// finite operands are not exact).
fn sum_is_exact(a: f64, b: f64, s: f64) -> bool {
    if !s.is_finite() {
        return !a.is_finite() || !b.is_finite();
    }
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    e == 0.0
}

/// Whether `p = fl(a·b)` is the exact product (the fused multiply-add residual is zero, and no
/// underflow lost bits).
fn product_is_exact(a: f64, b: f64, p: f64) -> bool {
    if a == 0.0 || b == 0.0 {
        return true;
    }
    if !p.is_finite() {
        return !a.is_finite() || !b.is_finite();
    }
    p.is_normal() && a.mul_add(b, -p) == 0.0
}

/// `n` when `x = 2^n` exactly (a positive normal power of two): `log2 x` is then the integer
/// `n`, read off the exponent bits, not computed.
fn exact_log2(x: f64) -> Option<f64> {
    if x.is_normal() && x > 0.0 && x.to_bits() & ((1u64 << 52) - 1) == 0 {
        Some(((x.to_bits() >> 52) as i64 - 1023) as f64)
    } else {
        None
    }
}

fn nanify(r: crate::Result<f64>) -> f64 {
    r.unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;
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
}
