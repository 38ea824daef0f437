//! The tight global-DP characteristic time `T*_ε` of \[BAI25\] (M. Jourdan, A. Azize, "Optimal
//! Best Arm Identification under Differential Privacy", NeurIPS 2025, arXiv 2510.17348; cited
//! by its poster), its transportation cost `C*_ε`, its low-privacy switch and its lower bound.
//!
//! `T*_ε` replaces KL in the transport cost by the signed divergences of
//! [`crate::divergence::d_eps_plus`]/[`crate::divergence::d_eps_minus`], which trade KL against
//! `ε·TV` per arm. Since `d_ε <= min{kl, ε·TV}` per arm,
//! `T*_ε >= T_g(μ; ε) >= max{T*_KL, T*_TV/ε}` (the first paper's Thm. 17 time, B.9), with
//! equality in both limits (`ε → ∞`; `ε·T*_ε → T*_TV` as `ε → 0`).
//!
//! # Algorithm
//! `C*_ε(a*, a, μ, ω) = inf_{x ∈ [μ_a, μ_{a*}]} ω_{a*}·d⁻_ε(μ_{a*}, x) + ω_a·d⁺_ε(μ_a, x)` is a
//! convex 1-D minimisation with no single closed-form minimiser: the root of its increasing
//! derivative is bracketed on `[μ_a, μ_{a*}]`. The certified times find it by safeguarded
//! Newton (the solver's `Branch::argmin`, shared with the other times); the hot-loop cost
//! [`transport_cost_eps_unchecked`] brackets it between the two breakpoints of the divergences
//! and solves the piece holding it in closed form (a weighted mean, a linear or a quadratic
//! equation), about ten times faster. The characteristic time is the shared
//! level solver and its certificate (module docs of [`crate::complexity`]): a primal
//! allocation gives the upper end (tangent lower bounds of each convex inner problem), the LP
//! over the linear minorants at the solution gives the lower end.

use super::{Certified, TimeKind, characteristic_time, t_kl};
use crate::divergence::{DEps, kl_threshold_unchecked};
use crate::error::{Error, Result, check_at_least, check_finite};
use crate::instance::{Family, Instance};
use crate::params::Delta;
use serde::Serialize;

/// `T*_ε(μ)` of \[BAI25\] with its certificate and optimal allocation.
///
/// # Definition
/// ```text
/// C*_ε(a*, a, μ, ω) = inf_{x ∈ [μ_a, μ_{a*}]} ω_{a*} d⁻_ε(μ_{a*}, x) + ω_a d⁺_ε(μ_a, x)
/// T*_ε(μ)^{-1}      = max_{ω ∈ Σ_K} min_{a ≠ a*} C*_ε(a*, a, μ, ω)
/// ```
/// # Reference
/// \[BAI25\] poster (private transportation cost and characteristic time; it writes `w_i` in
/// the cost, `w_a` is meant).
/// # Domain
/// Bernoulli instances (boundary means allowed; every `C*_ε` is finite), `ε > 0` finite.
/// # Accuracy
/// Proven enclosure of relative width <= 1e-9 ([`Certified`]); relative error <= 1e-8
/// against the independent mpmath computation `verify/golden_t_eps.py` (golden file
/// `tests/data/t_eps_golden.toml`, `T_EPS_TOL` of `tests/complexity.rs`).
/// # Errors
/// [`Error::InvalidParameter`] unless `ε > 0` finite; [`Error::InvalidInstance`] for Gaussian
/// arms; [`Error::NoConvergence`] if the certificate is wider than 1e-9.
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let t = dpbai::complexity::t_eps(&nu, 0.1).unwrap();
/// let g = dpbai::complexity::t_global(&nu, 0.1).unwrap();
/// assert!(t.lower >= g.upper); // strictly above the first paper's T_g here
/// ```
pub fn t_eps(nu: &Instance, eps: f64) -> Result<Certified> {
    crate::fault::check(crate::fault::Area::Solver)?;
    characteristic_time(TimeKind::Eps { eps }, nu)
}

/// `T*_{ε,β}(μ)`: [`t_eps`] with the leader weight fixed to `β`.
///
/// # Definition
/// `T*_{ε,β}(μ)^{-1} = max_{ω ∈ Σ_K, ω_{a*} = β} min_{a ≠ a*} C*_ε(a*, a, μ, ω)` (the Top Two
/// convention; `T*_{ε,1/2} <= 2 T*_ε`).
/// # Reference
/// \[BAI25\] poster (DP-TT's upper bound `2(1 + η) T*_{ε,β}`); the constraint `ω_{a*} = β` is the
/// usual Top Two reading, as for `T_{KL,β}` (READINGS.md §B.3).
/// # Domain
/// As [`t_eps`]; `β ∈ (0, 1)`.
/// # Accuracy
/// As [`t_eps`] (golden file `tests/data/t_eps_golden.toml`, kind `t_eps_beta`).
/// # Errors
/// As [`t_eps`]; [`Error::InvalidParameter`] unless `β ∈ (0, 1)`.
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.75, 0.7, 0.7, 0.7, 0.7]).unwrap();
/// let t = dpbai::complexity::t_eps(&nu, 1.0).unwrap().value;
/// let tb = dpbai::complexity::t_eps_beta(&nu, 1.0, 0.5).unwrap().value;
/// assert!(t <= tb && tb <= 2.0 * t);
/// ```
pub fn t_eps_beta(nu: &Instance, eps: f64, beta: f64) -> Result<Certified> {
    crate::fault::check(crate::fault::Area::Solver)?;
    characteristic_time(TimeKind::EpsBeta { eps, beta }, nu)
}

/// `C*_ε` with the constants of `ε` precomputed, without checks: for hot loops that evaluate
/// many costs at one `ε` (allocation-free).
///
/// # Definition, Reference, Domain, Accuracy
/// As [`transport_cost_eps`], with `e = DEps::new(ε)`; means are clipped to `[0, 1]`; weights
/// must be `>= 0` and finite (unchecked; otherwise the result is unspecified).
#[inline]
pub fn transport_cost_eps_with(e: DEps, mu_best: f64, mu_a: f64, w_best: f64, w_a: f64) -> f64 {
    let top = mu_best.clamp(0.0, 1.0);
    let low = mu_a.clamp(0.0, 1.0);
    if low >= top || (w_best <= 0.0 && w_a <= 0.0) {
        return 0.0;
    }
    let x = argmin_closed_form(e, top, low, w_best, w_a);
    w_best * e.minus(top, x) + w_a * e.plus(low, x)
}

/// The point `x*` at which [`transport_cost_eps_with`] evaluates its cost, `None` where that cost
/// is `0` without one (`μ_a >= μ_best` after clipping, or both weights `0`): with
/// `top = clip01(mu_best)`, `low = clip01(mu_a)`, the cost is exactly
/// `w_best * e.minus(top, x*) + w_a * e.plus(low, x*)`, the same operations in the same order, so
/// a caller that keeps the two divergences gets the cost bit for bit (DP-TT's challenger bounds).
#[inline]
pub(crate) fn transport_argmin_eps(
    e: DEps,
    mu_best: f64,
    mu_a: f64,
    w_best: f64,
    w_a: f64,
) -> Option<f64> {
    let top = mu_best.clamp(0.0, 1.0);
    let low = mu_a.clamp(0.0, 1.0);
    if low >= top || (w_best <= 0.0 && w_a <= 0.0) {
        return None;
    }
    Some(argmin_closed_form(e, top, low, w_best, w_a))
}

/// The minimiser of `u·d⁻_ε(top, x) + w·d⁺_ε(low, x)` on `[low, top]` (`low < top`, `u, w > 0`)
/// in closed form, piece by piece. The derivative `F(x) = w·D⁺(x) − u·D⁻(x)` is increasing,
/// with `D⁺ = ∂d⁺_ε(low, ·) = (x − low)/(x(1 − x))` up to `B⁺ = g⁻_ε(low)` and `a/(b + a(1 − x))`
/// beyond, and `D⁻ = −∂d⁻_ε(top, ·) = (top − x)/(x(1 − x))` above `B⁻ = 1 − g⁻_ε(1 − top)` and
/// `a/(b + a x)` below (`a = 1 − e^{−ε}`, `b = e^{−ε}`). The signs of `F` at the ends and at
/// the breakpoints inside locate the piece holding the root; on it `F = 0` is linear or
/// quadratic in `x`:
/// ```text
/// kl/kl:       x = (u·top + w·low)/(u + w)                     (the KL weighted mean)
/// third/third: x = (u − w·b)/(a(u + w))
/// kl⁺/third⁻:  a(u + w)x² + (w·b − w·low·a − u·a)x − w·low·b = 0
/// third⁺/kl⁻:  the same on the mirrored problem (x ↦ 1 − x, top ↔ 1 − low, u ↔ w)
/// ```
/// clamped to the piece. An error `Δx` in the root changes the cost by `O(F'·Δx²)` only.
#[inline]
fn argmin_closed_form(e: DEps, top: f64, low: f64, u: f64, w: f64) -> f64 {
    let f = |x: f64| w * e.plus_derivatives(low, x).0 + u * e.minus_derivatives(top, x).0;
    if f(low) >= 0.0 {
        return low;
    }
    if f(top) <= 0.0 {
        return top;
    }
    let b_plus = e.breakpoint(low);
    let b_minus = 1.0 - e.breakpoint(1.0 - top);
    // the piece [l, r] holding the sign change of F
    let (mut l, mut r) = (low, top);
    let (p1, p2) = if b_plus <= b_minus {
        (b_plus, b_minus)
    } else {
        (b_minus, b_plus)
    };
    for p in [p1, p2] {
        if p > l && p < r {
            if f(p) >= 0.0 {
                r = p;
            } else {
                l = p;
            }
        }
    }
    let mid = 0.5 * (l + r);
    let (a, b) = e.tilt();
    let x = match (mid <= b_plus, mid >= b_minus) {
        (true, true) => (u * top + w * low) / (u + w),
        (false, false) => (u - w * b) / (a * (u + w)),
        (true, false) => kl_up_third_down(a, b, low, u, w),
        (false, true) => 1.0 - kl_up_third_down(a, b, 1.0 - top, w, u),
    };
    if x.is_finite() { x.clamp(l, r) } else { mid }
}

/// The positive root of `a(u + w)x² + (w·b − w·low·a − u·a)x − w·low·b = 0` (the piece where
/// `d⁺_ε(low, ·)` is `kl` and `d⁻_ε(top, ·)` is its third branch), in the cancellation-free form.
#[inline]
fn kl_up_third_down(a: f64, b: f64, low: f64, u: f64, w: f64) -> f64 {
    let qa = a * (u + w);
    let qb = w * b - w * low * a - u * a;
    let qc = -w * low * b; // <= 0: one root >= 0
    let disc = (qb * qb - 4.0 * qa * qc).max(0.0).sqrt();
    if qb > 0.0 {
        -2.0 * qc / (qb + disc)
    } else {
        (disc - qb) / (2.0 * qa)
    }
}

/// [`transport_cost_eps`] without checks: the form the DP-TT engine calls per step.
///
/// # Definition, Reference, Domain, Accuracy
/// As [`transport_cost_eps`]; the caller guarantees `ε > 0` finite and weights `>= 0` finite
/// (otherwise the result is unspecified). Means are clipped to `[0, 1]`.
#[inline]
pub fn transport_cost_eps_unchecked(
    mu_best: f64,
    mu_a: f64,
    w_best: f64,
    w_a: f64,
    eps: f64,
) -> f64 {
    transport_cost_eps_with(DEps::new_unchecked(eps), mu_best, mu_a, w_best, w_a)
}

/// The private transportation cost `C*_ε(a*, a, μ, ω)` between a leader of mean `μ_best` and a
/// challenger of mean `μ_a`, at weights (or counts) `ω_best`, `ω_a`.
///
/// # Definition
/// ```text
/// C*_ε = inf_{x ∈ [μ_a, μ_best]} ω_best·d⁻_ε(μ_best, x) + ω_a·d⁺_ε(μ_a, x)   (0 if μ_a >= μ_best)
/// ```
/// after clipping both means to `[0, 1]` (a Laplace-noised mean leaves `[0, 1]`). The minimiser
/// is the root of the increasing derivative, bracketed on `[μ_a, μ_best]` between the
/// breakpoints of `d⁺_ε` and `d⁻_ε` and solved in closed form on its piece (module docs; no
/// allocation, no iteration).
/// # Reference
/// \[BAI25\] poster (lower-bound box; DP-TT's stopping and TCI challenger rules).
/// # Domain
/// Means any finite numbers (clipped), weights `>= 0` finite, `ε > 0` finite. Positively
/// homogeneous in the weights, non-decreasing in each, `<= min{C*_KL, ε·(μ_best − μ_a)·min(ω)}`.
/// # Accuracy
/// The value at the bracketed minimiser (known to a few ulps; the value error is second order
/// in it): relative error <= 1e-12 against mpmath's minimisation (golden file
/// `tests/data/t_eps_golden.toml`, kind `c_eps`, `C_EPS_TOL` of `tests/complexity.rs`).
/// # Errors
/// [`Error::InvalidParameter`] for NaN or infinite means, negative or non-finite weights, or
/// `ε` not a finite number `> 0`.
/// # Example
/// ```
/// use dpbai::complexity::transport_cost_eps;
/// let c = transport_cost_eps(0.9, 0.5, 1.0, 1.0, 0.5).unwrap();
/// assert!(c > 0.0 && c <= 0.5 * 0.4); // <= ε·Δ·min(ω)
/// assert_eq!(transport_cost_eps(0.5, 0.9, 1.0, 1.0, 0.5).unwrap(), 0.0);
/// ```
pub fn transport_cost_eps(mu_best: f64, mu_a: f64, w_best: f64, w_a: f64, eps: f64) -> Result<f64> {
    check_finite("mu_best", mu_best)?;
    check_finite("mu_a", mu_a)?;
    check_at_least("w_best", w_best, 0.0)?;
    check_at_least("w_a", w_a, 0.0)?;
    Ok(transport_cost_eps_with(
        DEps::new(eps)?,
        mu_best,
        mu_a,
        w_best,
        w_a,
    ))
}

/// Where `T*_ε` meets `T*_KL` (the low-privacy regime of \[BAI25\]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LowPrivacySwitch {
    /// The smallest `ε` with `C*_ε = C*_KL` at the KL-optimal allocation for every challenger:
    /// `T*_ε = T*_KL` exactly for `ε >= exact`, `T*_ε > T*_KL` below (`+∞` when a mean is 0 or 1).
    pub exact: f64,
    /// The poster's sufficient condition `max_{a≠a*} log(μ_{a*}(1 − μ_a)/(μ_a(1 − μ_{a*})))`.
    pub sufficient: f64,
}

/// The exact low-privacy switch of `T*_ε` and the poster's sufficient condition.
///
/// # Definition
/// With `ω*` the KL-optimal allocation and `z_a = (ω*_{a*} μ_{a*} + ω*_a μ_a)/(ω*_{a*} + ω*_a)`
/// the KL inner minimiser of challenger `a`:
/// ```text
/// exact      = max_{a≠a*} max{ logit z_a − logit μ_a, logit μ_{a*} − logit z_a }
/// sufficient = max_{a≠a*} logit μ_{a*} − logit μ_a            (>= exact)
/// ```
/// At `ε >= exact` both divergences equal `kl` at every `z_a` (`x <= g⁻_ε(μ)` ⟺
/// `ε >= logit x − logit μ`), so each `C*_ε(ω*)` equals `C*_KL(ω*)` (the convex cost has zero
/// derivative there) and `T*_ε = T*_KL`; below it one challenger's cost at `ω*` is strictly
/// smaller, and `ω*` is the unique maximiser of the KL problem, so `T*_ε > T*_KL`.
/// # Reference
/// \[BAI25\] poster (the sufficient condition "if ε >= max log(...) then T*_ε = T*_KL"); the
/// exact switch is derived as above.
/// # Domain
/// Bernoulli instances; `+∞` when a mean is 0 or 1 (`d_ε < kl` there at every finite `ε`).
/// # Accuracy
/// Closed form in the certified KL allocation; checked in `tests/complexity.rs` as the point
/// where the certified `T*_ε` leaves `T*_KL` (equal within 1e-9 at `1.001·exact`, larger at
/// `0.99·exact`).
/// # Errors
/// [`Error::InvalidInstance`] for Gaussian arms; the errors of [`t_kl`].
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let s = dpbai::complexity::eps_switch_low_privacy(&nu).unwrap();
/// assert!(s.exact < s.sufficient);
/// let at = |e: f64| dpbai::complexity::t_eps(&nu, e).unwrap().value;
/// let kl = dpbai::complexity::t_kl(&nu).unwrap().value;
/// assert!((at(1.001 * s.exact) / kl - 1.0).abs() < 1e-9 && at(0.99 * s.exact) > kl);
/// ```
pub fn eps_switch_low_privacy(nu: &Instance) -> Result<LowPrivacySwitch> {
    crate::fault::check(crate::fault::Area::Solver)?;
    if nu.family() != Family::Bernoulli {
        return Err(Error::InvalidInstance {
            means: format!("{:?}", nu.means()),
            reason: "the low-privacy switch of T*_eps ([BAI25]) is defined for Bernoulli arms"
                .into(),
        });
    }
    let w = t_kl(nu)?.allocation;
    let (best, top) = (nu.best(), nu.best_mean());
    let (mut exact, mut sufficient) = (0.0f64, 0.0f64);
    for (a, &m) in nu.means().iter().enumerate() {
        if a == best {
            continue;
        }
        let z = (w[best] * top + w[a] * m) / (w[best] + w[a]);
        exact = exact
            .max(kl_threshold_unchecked(m, z))
            .max(kl_threshold_unchecked(top, z));
        sufficient = sufficient.max(kl_threshold_unchecked(m, top));
    }
    Ok(LowPrivacySwitch { exact, sufficient })
}

/// `log(1/(3δ))`, the factor of \[BAI25\]'s lower bound (the first paper's is `log(1/(2.4δ))`,
/// [`super::log_factor`]).
///
/// # Definition
/// `log(1/(3δ))`; `log(1/(3δ))/log(1/(2.4δ)) = 0.94` at `δ = 0.01`: where two times are equal,
/// \[BAI25\]'s bound is numerically the smaller one ("tighter" is a statement about the times).
/// # Reference
/// \[BAI25\] poster (lower-bound box: `E[τ] >= T*_ε(μ) log(1/(3δ))` for every δ-correct ε-global
/// DP strategy).
/// # Domain
/// Every [`Delta`] (negative, a vacuous bound, for `δ > 1/3`).
/// # Accuracy
/// A few ulps (one `ln`); no golden file (closed form), checked by its doc test.
/// # Example
/// ```
/// let d = dpbai::params::Delta::new(0.01).unwrap();
/// assert!((dpbai::complexity::log_factor_bai25(d) - (100.0f64 / 3.0).ln()).abs() < 1e-15);
/// ```
pub fn log_factor_bai25(delta: Delta) -> f64 {
    (1.0 / (3.0 * delta.get())).ln()
}

/// \[BAI25\]'s sample-complexity lower bound `T*_ε(μ)·log(1/(3δ))`.
///
/// # Definition
/// `t·log(1/(3δ))` for `t = T*_ε(μ)` ([`log_factor_bai25`]).
/// # Reference
/// \[BAI25\] poster (lower-bound box).
/// # Domain
/// `t` any float (a characteristic time), every [`Delta`].
/// # Accuracy
/// One rounding on top of [`log_factor_bai25`] and of `t`.
pub fn sample_lower_bound_bai25(t: f64, delta: Delta) -> f64 {
    t * log_factor_bai25(delta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::complexity::challengers::{Branch, Div};

    /// The closed-form minimiser of the hot loop and the solver's safeguarded Newton give the
    /// same cost (the value is second order in the minimiser's error), on every piece.
    #[test]
    fn closed_form_minimiser_matches_newton() {
        let mut worst = 0.0f64;
        for &eps in &[1e-6, 1e-3, 0.05, 0.3, 1.0, 4.0, 30.0, 800.0] {
            let e = DEps::new(eps).unwrap();
            for &(top, low) in &[
                (0.9, 0.5),
                (0.75, 0.7),
                (1.0, 0.0),
                (1.0, 0.6),
                (0.4, 0.0),
                (0.5, 0.4999999),
                (0.999, 0.99),
                (0.02, 0.01),
            ] {
                for &(u, w) in &[
                    (1.0, 1.0),
                    (1.0, 1e-3),
                    (1e-3, 1.0),
                    (0.39, 0.2),
                    (7.0, 3.0),
                ] {
                    let br = Branch {
                        x1: Div::EpsDown(top, e),
                        x2: Div::EpsUp(low, e),
                    };
                    let z = br.argmin(u, w, low, top);
                    let newton = u * e.minus(top, z) + w * e.plus(low, z);
                    let fast = transport_cost_eps_with(e, top, low, u, w);
                    let r = ((fast - newton) / newton).abs();
                    worst = worst.max(r);
                    assert!(r <= 1e-13, "{eps} {top} {low} {u} {w}: {fast} vs {newton}");
                }
            }
        }
        eprintln!("closed form vs Newton: max rel diff {worst:e}");
    }
}
