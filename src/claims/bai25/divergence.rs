//! B.1: the divergence `d_ε` of \[BAI25\] (docs/CLAIMS-BAI25.md, "The divergence"): the library's closed form against its
//! definition and its dual form, each computed here independently of the library (the textbook
//! `kl`, a golden-section search over a bracket, the branch formulas written out).

use crate::claims::prelude::*;
use crate::divergence::{d_eps, d_eps_breakpoint};
use crate::numbers::{golden_min, lin_grid, log_grid, sig};

crate::statistics! {
    /// The statistics of B.1.
    pub struct B1Stats { max_err_definition, max_err_dual, c1_gap, violations, small_eps_dev }
}

/// B.1: `d_ε` closed form = definition = dual form; C¹ at the breakpoint; sandwich; limits.
pub static B1: Claim<B1Stats> = Claim {
    id: "B.1",
    title: "the divergence d_ε",
    source: "[BAI25] poster; [REG25]",
    statement: "d_ε(ν, κ) = inf_φ ε·TV(ν, φ) + KL(φ, κ), for Bernoulli the closed form d⁺_ε/d⁻_ε with breakpoint g⁻_ε(μ) = μe^ε/(μ(e^ε − 1) + 1), also sup_h ε·E_ν[h] − log E_κ[e^{εh}] over h with values in [0, 1]; C¹ at g⁻_ε; 0 ≤ d_ε ≤ min{kl, ε·TV} with d_ε = kl iff ε ≥ |logit x − logit μ|; d_ε → kl as ε → ∞, d_ε/(ε·TV) → 1 as ε → 0; non-decreasing and concave in ε, d_ε/ε non-increasing",
    row: Some(Row {
        claim: "the divergence d_ε",
        formula: "closed form `d⁺_ε`, `d⁻_ε` = `inf_z ε\\|z − μ\\| + kl(z, x)` = `sup_h ε·E_ν[h] − log E_κ[e^{εh}]`; C¹ at `g⁻_ε`; `0 ≤ d_ε ≤ min{kl, ε·TV}`; limits in ε",
        source: "[BAI25] poster; [REG25]",
    }),
    wording: None,
    statistic: "on the grid μ, x ∈ {0, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1} (paper profile: also every multiple of 0.05) × ε ∈ logspace(1e-4, 1e3, 15) (paper: 36): max_err_definition, max_err_dual: max over x ≠ μ of |closed form − X|/max(|X|, |closed form|) with X the infimum over z between μ and x of ε|z − μ| + kl(z, x) (kl term by term with log1p and the exact difference p − q; golden section, 200 steps, and both ends), resp. the supremum over t = h(1) − h(0) ∈ [−1, 1] of εμt − log(x·e^{εt} + 1 − x) (as a log-sum-exp; golden section and both ends); c1_gap: max over interior μ and ε ≤ 10 of the relative differences between the kl branch and the third branch (value and slope) at g⁻_ε(μ), and between g⁻_ε computed here and the library's; violations: points breaking d_ε = 0 with |X| ≤ 1e-15 for both X at x = μ, 0 ≤ d_ε ≤ min{kl, ε|x − μ|}·(1 + 1e-12), d_ε = kl (1e-12 relative) at ε ≥ (1 + 1e-9)·|logit x − logit μ|, d_ε < kl at ε ≤ |logit x − logit μ|/2 where that threshold is finite (for μ ∈ {0, 1} the gap kl − d_ε is of order e^{−ε}, below double precision from ε ≈ 37), d_ε non-decreasing, d_ε/ε non-increasing or the slopes between grid points non-increasing (concavity) in ε (1e-12 relative slack, 1e-15 absolute on slopes); small_eps_dev: max over x ≠ μ of |d_ε/(ε|x − μ|) − 1| at ε = 1e-9",
    rule: Rule::confirm(
        "max_err_definition < 1e-9 and max_err_dual < 1e-9 and c1_gap < 1e-9 and violations == 0 and small_eps_dev < 1e-6",
    ),
    fair: "identities and inequalities of mathematics, checked to a tolerance far above the rounding of a golden-section minimum of a convex function (the value error is second order in the minimiser's) and far below any real discrepancy; the limit ε → ∞ is exact at the finite threshold (the iff), the limit ε → 0 is judged at ε = 1e-9 where the deviation is first order in ε",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Exact,
    check: b1,
};

/// The textbook Bernoulli `kl(p, q) = p·log(p/q) + (1 − p)·log((1 − p)/(1 − q))` with
/// `0·log 0 = 0` (`+∞` where it is infinite), each term as `a·log1p(diff/b)` with the exact
/// difference `p − q` (never `(1 − p) − (1 − q)`, which rounds): near the diagonal the two terms
/// cancel, and neither may carry an absolute error larger than its own rounding.
pub(super) fn kl(p: f64, q: f64) -> f64 {
    if p == q {
        return 0.0;
    }
    let first = if p == 0.0 {
        0.0
    } else if q == 0.0 {
        f64::INFINITY
    } else {
        p * ((p - q) / q).ln_1p()
    };
    let second = if p == 1.0 {
        0.0
    } else if q == 1.0 {
        f64::INFINITY
    } else {
        (1.0 - p) * ((q - p) / (1.0 - q)).ln_1p()
    };
    first + second
}

/// `logit x − logit μ` in absolute value (`+∞` when exactly one of them is 0 or 1).
fn logit_gap(mu: f64, x: f64) -> f64 {
    if mu == x {
        return 0.0;
    }
    let logit = |p: f64| (p / (1.0 - p)).ln();
    (logit(x) - logit(mu)).abs()
}

/// The minimum of `f` on `[a, b]`: a golden-section search, and both ends (where a boundary
/// minimum or an infinite interior value may sit).
fn min_on(f: impl Fn(f64) -> f64, a: f64, b: f64) -> f64 {
    let (_, inner) = golden_min(&f, a, b, 200);
    inner.min(f(a)).min(f(b))
}

/// A.1's definition: `inf_{z between μ and x} ε|z − μ| + kl(z, x)`.
fn by_definition(mu: f64, x: f64, eps: f64) -> f64 {
    let (lo, hi) = if mu <= x { (mu, x) } else { (x, mu) };
    min_on(|z| eps * (z - mu).abs() + kl(z, x), lo, hi)
}

/// `log(x·e^{s} + (1 − x))` as a log-sum-exp of `log x + s` and `log(1 − x)` (no `e^{s}`
/// overflows, no `1 − e^{−s}` cancels).
fn log_mgf(x: f64, s: f64) -> f64 {
    let (a, b) = (x.ln() + s, (1.0 - x).ln());
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        hi
    } else {
        hi + (lo - hi).exp().ln_1p()
    }
}

/// The dual form on {0, 1}: `sup_{t ∈ [−1, 1]} εμt − log(x·e^{εt} + 1 − x)` (a test function
/// `h` matters only through `t = h(1) − h(0)`).
fn by_dual(mu: f64, x: f64, eps: f64) -> f64 {
    -min_on(|t| -(eps * mu * t - log_mgf(x, eps * t)), -1.0, 1.0)
}

/// `|a − b|` relative to the larger of the two.
fn rel(a: f64, b: f64) -> f64 {
    if a == b {
        0.0
    } else {
        (a - b).abs() / b.abs().max(a.abs()).max(1e-300)
    }
}

/// The relative differences of value and slope between A.2's two branches at `g⁻_ε(μ)`, and of
/// the breakpoint computed here from the library's.
fn c1_gap_at(ctx: &Context, mu: f64, eps: f64) -> f64 {
    let lib = ctx.evidence.value(Area::Special, d_eps_breakpoint(mu, eps));
    // g = μ/(μ + (1 − μ)e^{−ε}), and 1 − g without cancellation
    let den = mu + (1.0 - mu) * (-eps).exp();
    let (g, one_minus_g) = (mu / den, (1.0 - mu) * (-eps).exp() / den);
    let a = -(-eps).exp_m1();
    let (v_kl, s_kl) = (kl(mu, g), (g - mu) / (g * one_minus_g));
    let (v_3, s_3) = (-(-g * a).ln_1p() - eps * mu, a / (1.0 - a * g));
    rel(v_kl, v_3).max(rel(s_kl, s_3)).max(rel(lib, g))
}

pub(super) fn b1(ctx: &mut Context) -> Checked<B1Stats> {
    let mut points = vec![0.0, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1.0];
    if ctx.full {
        points.extend(lin_grid(0.05, 0.95, 19));
        points.sort_by(f64::total_cmp);
        points.dedup_by(|a, b| (*a - *b).abs() < 1e-12);
    }
    let eps = log_grid(1e-4, 1e3, if ctx.full { 36 } else { 15 });
    let (mut err_def, mut err_dual, mut c1, mut small): (f64, f64, f64, f64) = (0.0, 0.0, 0.0, 0.0);
    let mut viol = 0u32;
    let mut n = 0usize;
    let mut worst_def = (0.0, 0.0, 0.0);
    for &mu in &points {
        for &x in &points {
            let mut prev: Option<(f64, f64, f64)> = None; // (ε, d, slope)
            for &e in &eps {
                let d = ctx.evidence.value(Area::Special, d_eps(mu, x, e));
                let (def, dual) = (by_definition(mu, x, e), by_dual(mu, x, e));
                n += 1;
                // x = μ: every form is 0 (the searches' optima to rounding noise, 1e-15)
                let zero = d == 0.0 && def.abs() <= 1e-15 && dual.abs() <= 1e-15;
                if x != mu {
                    if rel(d, def) > err_def {
                        err_def = rel(d, def);
                        worst_def = (mu, x, e);
                    }
                    err_dual = err_dual.max(rel(d, dual));
                }
                let k = kl(mu, x);
                let tv = e * (x - mu).abs();
                let mut ok = (x != mu || zero) && d >= 0.0 && d <= k.min(tv) * (1.0 + 1e-12);
                let thr = logit_gap(mu, x);
                if k.is_finite() && e >= thr * (1.0 + 1e-9) {
                    ok &= rel(d, k) <= 1e-12;
                }
                if thr.is_finite() && e <= thr / 2.0 {
                    ok &= d < k;
                }
                if let Some((pe, pd, ps)) = prev {
                    let slope = (d - pd) / (e - pe);
                    ok &= d >= pd * (1.0 - 1e-12);
                    ok &= d / e <= (pd / pe) * (1.0 + 1e-12);
                    if ps.is_finite() {
                        ok &= slope <= ps + 1e-12 * ps.abs() + 1e-15;
                    }
                    prev = Some((e, d, slope));
                } else {
                    prev = Some((e, d, f64::NAN));
                }
                viol += u32::from(!ok);
            }
            if x != mu {
                let e = 1e-9;
                let d = ctx.evidence.value(Area::Special, d_eps(mu, x, e));
                small = small.max((d / (e * (x - mu).abs()) - 1.0).abs());
            }
        }
        if mu > 0.0 && mu < 1.0 {
            for &e in eps.iter().filter(|&&e| e <= 10.0) {
                c1 = c1.max(c1_gap_at(ctx, mu, e));
            }
        }
    }
    Checked::done(
        format!(
            "{n} points (μ, x, ε): closed form vs definition max relative error {} (at μ = {}, x = {}, ε = {}), \
             vs dual form {}; branches at g⁻_ε: max relative gap {}; {viol} violations of the sandwich, \
             the kl threshold or the shape in ε; |d_ε/(ε·TV) − 1| ≤ {} at ε = 1e-9",
            sig(err_def, 2),
            worst_def.0,
            worst_def.1,
            sig(worst_def.2, 3),
            sig(err_dual, 2),
            sig(c1, 2),
            sig(small, 2)
        ),
        B1Stats {
            max_err_definition: err_def,
            max_err_dual: err_dual,
            c1_gap: c1,
            violations: f64::from(viol),
            small_eps_dev: small,
        },
    )
}
