//! Claims on the local-DP characteristic time and CTB-TT (Cor. 11, Sec. 3.2, READINGS.md §B.8).

use super::common::{
    eps_grid, fails, geq, instances, log_grid, result, sig, stats, ClaimResult, Context, REL_TOL,
};
use crate::complexity::{t_kl, t_kl_gaussian, t_kl_gaussian_beta, t_local, t_tv2};
use crate::divergence::{c_local_unchecked, pinsker_switch_eps};

pub(super) fn f3(ctx: &mut Context) -> ClaimResult {
    let mut viol = 0u32;
    let mut n = 0;
    let mut min_ratio = f64::INFINITY;
    for (_, nu) in instances() {
        let tkl = ctx.evidence.solved(t_kl(&nu));
        let ttv2 = ctx.evidence.solved(t_tv2(&nu));
        for &e in &eps_grid(ctx) {
            let tl = ctx.evidence.solved(t_local(&nu, e));
            let relax = tkl.max(ttv2 / c_local_unchecked(e));
            viol += fails(geq(tl, relax));
            min_ratio = min_ratio.min(tl / relax);
            n += 1;
        }
    }
    result(
        "F.3",
        "local relaxation",
        "Cor. 11, Eq. (7)",
        "T_ℓ(ν; ε) ≥ max{T_KL^Ber, T_TV2/c(ε)}",
        format!(
            "on μ1–μ6 × {n} ε-points in [1e-4, 1e4]: min T_ℓ/max{{…}} = {}",
            sig(min_ratio, 10)
        ),
        stats([("violations", f64::from(viol))]),
    )
}

pub(super) fn f4(ctx: &mut Context) -> ClaimResult {
    let mut rows = Vec::new();
    let mut viol = 0u32;
    for (name, nu) in instances() {
        let r = ctx.evidence.solved(t_tv2(&nu)) / ctx.evidence.solved(t_kl(&nu));
        viol += fails(geq(r, 2.0));
        rows.push(format!("{name} {}", sig(r, 4)));
    }
    result(
        "F.4",
        "Pinsker (local)",
        "Cor. 11",
        "T_TV2 ≥ 2·T_KL^Ber",
        format!("T_TV2/T_KL^Ber: {}", rows.join(", ")),
        stats([("violations", f64::from(viol))]),
    )
}

pub(super) fn f5(ctx: &mut Context) -> ClaimResult {
    let mut worst: f64 = 0.0;
    for (_, nu) in instances() {
        let a = ctx.evidence.solved(t_tv2(&nu));
        let b = ctx.evidence.solved(t_kl_gaussian(&nu, 1.0)) / 2.0;
        worst = worst.max((a / b - 1.0).abs());
    }
    result(
        "F.5",
        "TV² vs Gaussian",
        "Cor. 11",
        "T_TV2(μ) = T_KL(ν_G)/2 (unit variance)",
        format!(
            "max relative difference over μ1–μ6 (two independent solver runs): {}",
            sig(worst, 2)
        ),
        stats([("max_rel_diff", worst)]),
    )
}

pub(super) fn f10(ctx: &mut Context) -> ClaimResult {
    let mut worst: f64 = 0.0;
    for (_, nu) in instances() {
        for &e in &[0.01, 0.1, 0.5, 1.0, 4.0] {
            let r = nu.randomised_response(e).expect("invariant: eps > 0");
            let coth2 = 1.0 / (0.5f64 * e).tanh().powi(2);
            for &b in &[0.3, 0.5, 0.7] {
                let lhs = ctx.evidence.solved(t_kl_gaussian_beta(&r, 0.5, b));
                let rhs = coth2 * ctx.evidence.solved(t_kl_gaussian_beta(&nu, 0.5, b));
                worst = worst.max((lhs / rhs - 1.0).abs());
            }
        }
    }
    result(
        "F.10",
        "CTB scaling",
        "Sec. 3.2",
        "T^G_{KL,β}(ν_ε; 1/2) = (1 + 2/(e^ε − 1))²·T^G_{KL,β}(ν; 1/2)",
        format!(
            "max relative difference over μ1–μ6 × ε ∈ {{0.01, 0.1, 0.5, 1, 4}} × β ∈ {{0.3, 0.5, 0.7}}: {}",
            sig(worst, 2)
        ),
        stats([("max_rel_diff", worst)]),
    )
}

pub(super) fn f11(ctx: &mut Context) -> ClaimResult {
    let mut rows = Vec::new();
    let mut viol = 0u32;
    for (name, nu) in instances() {
        let a = ctx.evidence.solved(t_kl_gaussian_beta(&nu, 0.5, 0.5));
        let b = ctx.evidence.solved(t_tv2(&nu));
        viol += fails(geq(b, a));
        rows.push(format!("{name} {}/{}", sig(a, 6), sig(b, 6)));
    }
    result(
        "F.11",
        "CTB-TT vs TV² (β = 1/2)",
        "Sec. 3.2",
        "coth²(ε/2)·T^G_{KL,1/2}(μ; 1/2) ≤ coth²(ε/2)·T_TV2, i.e. T^G_{KL,1/2} ≤ T_TV2",
        format!("T^G_{{KL,1/2}}(μ;1/2) / T_TV2: {}", rows.join(", ")),
        stats([("violations", f64::from(viol))]),
    )
}

pub(super) fn f13(ctx: &mut Context) -> ClaimResult {
    let small: Vec<String> = [1e-2, 1e-4, 1e-6]
        .iter()
        .map(|&e| {
            format!(
                "ε = {e}: {}",
                sig(c_local_unchecked(e) / (0.5f64 * e).tanh().powi(2), 8)
            )
        })
        .collect();
    let mut rows = Vec::new();
    let small_dev = (c_local_unchecked(1e-6) / (0.5f64 * 1e-6).tanh().powi(2) - 4.0).abs();
    let mut viol = 0u32;
    for (name, nu) in instances() {
        let r = ctx.evidence.solved(t_kl_gaussian_beta(&nu, 0.5, 0.5))
            / ctx.evidence.solved(t_kl_gaussian(&nu, 0.5));
        viol += fails(r <= 2.0 * (1.0 + REL_TOL));
        rows.push(format!("{name} {}", sig(r, 4)));
    }
    result(
        "F.13",
        "CTB-TT optimality gap",
        "Sec. 3.2, Sec. 1.1.3",
        "upper/lower = (e^ε+1)²·min{4, e^{2ε}} → 4 as ε → 0; factor 2 versus T_KL^G as ε → ∞",
        format!(
            "coth²(ε/2)·c(ε): {}; as ε → ∞ the factor is T^G_{{KL,1/2}}/T^G_{{KL}} ≤ 2: {}",
            small.join("; "),
            rows.join(", ")
        ),
        stats([
            ("small_eps_dev_from_4", small_dev),
            ("violations", f64::from(viol)),
        ]),
    )
}

pub(super) fn f63(ctx: &mut Context) -> ClaimResult {
    let e0 = pinsker_switch_eps();
    let mut worst: f64 = 0.0;
    let mut n = 0;
    for (_, nu) in instances() {
        let ttv2 = ctx.evidence.solved(t_tv2(&nu));
        for &e in &log_grid(1e-4, e0, if ctx.full { 40 } else { 12 }) {
            let tl = ctx.evidence.solved(t_local(&nu, e));
            worst = worst.max((tl / (ttv2 / c_local_unchecked(e)) - 1.0).abs());
            n += 1;
        }
    }
    result(
        "F.63",
        "T_ℓ exact for small ε [derived]",
        "READINGS.md §B.8",
        "T_ℓ = T_TV2/c(ε) for ε ≤ 0.58224",
        format!(
            "max relative difference over μ1–μ6 × {n} ε ∈ [1e-4, ε_0]: {}",
            sig(worst, 2)
        ),
        stats([("max_rel_diff", worst)]),
    )
}
