//! DP-TT's TCI challenger from certified bounds of its transport costs.
//!
//! # Why the bounds hold
//! Between two releases the means do not move; for the leader `l` and an arm `a` only the
//! counts `u = N_l` and `w = N_a` grow. With `f = d⁻_ε(μ̃_l, ·)` (nonincreasing on `[low, top]`),
//! `h = d⁺_ε(μ̃_a, ·)` (nondecreasing there), `φ_{u,w} = u·f + w·h` (convex) and
//! `C(u, w) = min_x φ_{u,w}(x)`, an exact evaluation at `(u₀, w₀)` with minimiser `x*` gives:
//! * **Upper bound** `C(u, w) <= u·f(x*) + w·h(x*)`: `x*` is a feasible point. No logarithm:
//!   `f(x*)` and `h(x*)` are kept, and `C(u₀, w₀)` is exactly `u₀·f(x*) + w₀·h(x*)` as
//!   `complexity::transport_cost_eps_with` computes it (the same operations).
//! * **Lower bound** `C(u, w) >= C(u₀, w₀) + Δu·f(x') + Δw·h(x')` for a minimiser `x'` at
//!   `(u, w)`: `C(u₀, w₀) <= φ_{u₀,w₀}(x') = C(u, w) − Δu·f(x') − Δw·h(x')`. Where `x'` lies is
//!   read off the sign of `φ'_{u,w}` at kept probes `p` (`x*`, one point above it, one below;
//!   `φ'` is linear in `(u, w)`, so the derivatives at `p` are kept): by convexity,
//!   `φ'(p) > 0` puts `x'` below `p`, so `f(x') >= f(p)`; `φ'(p) < 0` puts it above, so
//!   `h(x') >= h(p)`; otherwise `0` (both divergences are `>= 0`).
//!
//! Both bounds carry the relative slack [`BOUND_SLACK`] and the derivative signs the same
//! margin: far above the rounding of the closed form, whose computed cost and divergences are
//! accurate to a few ulps (relative), and whose computed minimiser errs by a rounding, which
//! moves the cost at second order only. So the plain loop's computed value `C + log N_a` lies in
//! `[lo, hi] = [fl(lower + log N_a), fl(upper + log N_a)]` (rounding is monotone), and
//! `lo == hi` means the value is known bit for bit.
//!
//! # Why the choice is the plain one
//! With `m = min_a hi_a`, every arm with `lo_a > m` is strictly above the minimum. If one arm is
//! left, it is the challenger; if every arm left is known exactly, the challenger is the
//! lowest-index one of least value, as the plain loop resolves ties; otherwise one arm left is
//! evaluated exactly (the one of least `lo`) and the test is repeated.

use crate::complexity::transport_argmin_eps;
use crate::divergence::DEps;

/// Relative slack of the certified bounds of a DP-TT challenger cost, and margin of the
/// derivative signs that locate its minimiser: far above the few-ulp relative rounding of the
/// closed form and its divergences.
pub const BOUND_SLACK: f64 = 1e-9;

/// Per-arm state of a run.
#[derive(Debug, Clone, Default)]
pub(crate) struct ArmState {
    /// Pulls `N_a`.
    pub(super) n: u64,
    /// Phase index `k_a`.
    pub(super) k: u64,
    /// `(1 + η)^{k_a}` (unrounded, multiplied up once per phase).
    pub(super) power: f64,
    /// The count that ends the current phase.
    pub(super) next: u64,
    /// Successes since the last release.
    pub(super) phase_sum: u64,
    /// Released sum `S̃_a` (noisy for DP-TT).
    pub(super) released: f64,
    /// `Ñ_a`.
    pub(super) nt: f64,
    /// `clip01(S̃_a/Ñ_a)`.
    pub(super) mu: f64,
    /// `L_a`: steps with `a` as leader.
    pub(super) lead: u64,
    /// `N^lead_a`: pulls of `a` while leader.
    pub(super) nlead: u64,
    /// `log N_a`, computed at `N_a = log_at` (read through `ArmState::log_n`).
    pub(super) log_n: f64,
    pub(super) log_at: u64,
    /// DP-TT's kept challenger cost `C(â, a, μ̃, ·)` (module `challenger`).
    pub(super) cache: CostCache,
    /// The interval `[lo, hi]` of the challenger value `C + log N_a` (module `challenger`).
    pub(super) lo: f64,
    pub(super) hi: f64,
    /// Cached stopping cost `C(â, a, μ̃, Ñ)` (valid for the cached leader).
    pub(super) stop_cost: f64,
}

/// The probes sit at `x* ± PROBE_STEP/√min(u₀, w₀)` of the way to the ends `top`, `low`: the
/// minimiser moves by `O(1/N)` per pull, so they bracket it for many pulls while keeping the
/// lower bound within a small fraction of one pull's increment.
const PROBE_STEP: f64 = 0.25;

/// What an exact evaluation of `C(l, a, μ̃, ·)` keeps (module docs).
#[derive(Debug, Clone, Default)]
pub(crate) struct CostCache {
    /// Whether the cache belongs to the current leader and means.
    pub(super) valid: bool,
    /// The counts `(u₀, w₀)` of the evaluation.
    u0: f64,
    w0: f64,
    /// The computed cost at `(u₀, w₀)`, bit for bit the plain loop's.
    c0: f64,
    /// `f(x*)`, `h(x*)` and their derivatives at `x*`.
    fx: f64,
    hx: f64,
    fdx: f64,
    hdx: f64,
    /// `f` and both derivatives at the probe above `x*`.
    f_hi: f64,
    fd_hi: f64,
    hd_hi: f64,
    /// `h` and both derivatives at the probe below `x*`.
    h_lo: f64,
    fd_lo: f64,
    hd_lo: f64,
}

/// `φ'(p) > 0` with a margin (`fd <= 0 <= hd` the derivatives of `f`, `h` at `p`): the
/// minimiser is below `p`.
#[inline]
fn rises(u: f64, w: f64, fd: f64, hd: f64) -> bool {
    w * hd > -(u * fd) * (1.0 + BOUND_SLACK)
}

/// `φ'(p) < 0` with a margin: the minimiser is above `p`.
#[inline]
fn falls(u: f64, w: f64, fd: f64, hd: f64) -> bool {
    -(u * fd) > w * hd * (1.0 + BOUND_SLACK)
}

impl CostCache {
    /// The exact evaluation at `(u, w)` for leader mean `top` and arm mean `low` (both in
    /// `[0, 1]`), with its probes.
    pub(super) fn evaluate(e: DEps, top: f64, low: f64, u: f64, w: f64) -> Self {
        let mut c = CostCache {
            valid: true,
            u0: u,
            w0: w,
            ..CostCache::default()
        };
        // no minimiser: the cost is 0 at every count (all kept values stay 0)
        let Some(x) = transport_argmin_eps(e, top, low, u, w) else {
            return c;
        };
        c.fx = e.minus(top, x);
        c.hx = e.plus(low, x);
        c.c0 = u * c.fx + w * c.hx;
        c.fdx = e.minus_derivatives(top, x).0;
        c.hdx = e.plus_derivatives(low, x).0;
        let step = PROBE_STEP / u.min(w).sqrt();
        let xh = x + step * (top - x);
        c.f_hi = e.minus(top, xh);
        c.fd_hi = e.minus_derivatives(top, xh).0;
        c.hd_hi = e.plus_derivatives(low, xh).0;
        let xl = x - step * (x - low);
        c.h_lo = e.plus(low, xl);
        c.fd_lo = e.minus_derivatives(top, xl).0;
        c.hd_lo = e.plus_derivatives(low, xl).0;
        c
    }

    /// Certified `(lower, upper)` bounds of the computed cost at counts `u >= u₀`, `w >= w₀`
    /// (`(0, ∞)` for an invalid cache; the cost itself, twice, at `(u₀, w₀)`).
    #[inline]
    pub(super) fn bounds(&self, u: f64, w: f64) -> (f64, f64) {
        if !self.valid {
            return (0.0, f64::INFINITY);
        }
        if u == self.u0 && w == self.w0 {
            return (self.c0, self.c0);
        }
        let (du, dw) = (u - self.u0, w - self.w0);
        let f_low = if du <= 0.0 {
            0.0
        } else if rises(u, w, self.fdx, self.hdx) {
            self.fx
        } else if rises(u, w, self.fd_hi, self.hd_hi) {
            self.f_hi
        } else {
            0.0
        };
        let h_low = if dw <= 0.0 {
            0.0
        } else if falls(u, w, self.fdx, self.hdx) {
            self.hx
        } else if falls(u, w, self.fd_lo, self.hd_lo) {
            self.h_lo
        } else {
            0.0
        };
        let lower = (self.c0 + du * f_low + dw * h_low) * (1.0 - BOUND_SLACK);
        let upper = (u * self.fx + w * self.hx) * (1.0 + BOUND_SLACK);
        (lower, upper)
    }
}

impl ArmState {
    /// `log N_a`, recomputed only when `N_a` moved since it was last read.
    #[inline]
    pub(super) fn log_n(&mut self) -> f64 {
        if self.log_at != self.n {
            self.log_n = (self.n as f64).ln();
            self.log_at = self.n;
        }
        self.log_n
    }

    /// Sets `[lo, hi]`, the interval of `C + log N_a` at leader count `nl`.
    #[inline]
    fn bound_value(&mut self, nl: f64) {
        let log_n = self.log_n();
        let (lower, upper) = self.cache.bounds(nl, self.n as f64);
        self.lo = lower + log_n;
        self.hi = upper + log_n;
    }
}

/// (C) for DP-TT: the plain loop's `argmin_{a ≠ l} C(l, a, μ̃, N) + log N_a` (lowest index on
/// ties), decided from certified bounds and exact evaluations of the arms left open
/// (module docs).
pub(super) fn certified_challenger(e: DEps, st: &mut [ArmState], l: usize) -> usize {
    let (ml, nl) = (st[l].mu, st[l].n as f64);
    let mut least_hi = f64::INFINITY;
    for (a, s) in st.iter_mut().enumerate() {
        if a != l {
            s.bound_value(nl);
            least_hi = least_hi.min(s.hi);
        }
    }
    loop {
        // the arms that may be the minimum: `open` inexact (least lo), `exact` known exactly
        // (least value, lowest index)
        let (mut left, mut open, mut exact) = (0usize, usize::MAX, usize::MAX);
        for (a, s) in st.iter().enumerate() {
            if a == l || s.lo > least_hi {
                continue;
            }
            left += 1;
            if s.lo < s.hi {
                if open == usize::MAX || s.lo < st[open].lo {
                    open = a;
                }
            } else if exact == usize::MAX || s.lo < st[exact].lo {
                exact = a;
            }
        }
        if open == usize::MAX {
            return exact;
        }
        if left == 1 {
            return open;
        }
        let s = &mut st[open];
        s.cache = CostCache::evaluate(e, ml, s.mu, nl, s.n as f64);
        s.bound_value(nl);
        least_hi = least_hi.min(s.hi);
    }
}
