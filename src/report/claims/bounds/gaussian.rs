//! Claims on the Gaussian characteristic times and β-optimal allocations (Sec. 2.2.3, Eq. (5), READINGS.md §B.3).

use super::common::{fails, geq, instances, result, sig, stats, ClaimResult, Context};
use crate::complexity::{t_kl_gaussian, t_kl_gaussian_beta};
use crate::instance::Instance;

/// The closed-form β-optimal Gaussian allocation of B.3 (independent of the solver).
pub(super) fn gaussian_beta_allocation(nu: &Instance, beta: f64) -> Vec<f64> {
    let gaps = nu.suboptimal_gaps();
    let s2 = 2.0 * 0.25;
    let omega = |t: f64| -> Vec<f64> {
        gaps.iter()
            .map(|d| 1.0 / (d * d / (s2 * t) - 1.0 / beta))
            .collect()
    };
    let tmax = beta * gaps.iter().cloned().fold(f64::INFINITY, f64::min).powi(2) / s2;
    let (mut lo, mut hi) = (0.0, tmax);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if omega(mid).iter().sum::<f64>() < 1.0 - beta {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    omega(0.5 * (lo + hi))
}

pub(super) fn f26(ctx: &mut Context) -> ClaimResult {
    let mut viol = 0u32;
    let mut alloc_dev: f64 = 0.0;
    let mut rows = Vec::new();
    for (name, nu) in instances() {
        let h = nu.hardness_h(0.5);
        let tg = ctx.evidence.solved(t_kl_gaussian(&nu, 0.5));
        let Some(tb) = ctx.evidence.certified(t_kl_gaussian_beta(&nu, 0.5, 0.5)) else {
            continue;
        };
        viol += fails(geq(tg, h) && geq(2.0 * h, tg) && geq(2.0 * tg, tb.value));
        let closed = gaussian_beta_allocation(&nu, 0.5);
        let solved: Vec<f64> = (0..nu.k())
            .filter(|&a| a != nu.best())
            .map(|a| tb.allocation[a])
            .collect();
        for (x, y) in closed.iter().zip(&solved) {
            alloc_dev = alloc_dev.max((x - y).abs());
        }
        rows.push(format!(
            "{name}: {} ≤ {} ≤ {}",
            sig(h, 6),
            sig(tg, 6),
            sig(2.0 * h, 6)
        ));
    }
    result(
        "F.26",
        "Gaussian sandwiches",
        "Sec. 2.2.3, Eq. (5)",
        "H ≤ T_KL^G ≤ 2H; T^G_{KL,1/2} ≤ 2T_KL^G; the β-optimal allocation is unique",
        format!(
            "H ≤ T^G_KL(μ;1/2) ≤ 2H: {}; T^G_{{KL,1/2}} ≤ 2T^G_KL on all six; the solver's β-optimal \
             allocation equals the unique closed-form solution of B.3 (strictly increasing Σ_b ω_b(t)) to {}",
            rows.join("; "),
            sig(alloc_dev, 2)
        ),
        stats([("violations", f64::from(viol)), ("alloc_dev", alloc_dev)]),
    )
}

pub(super) fn f65(ctx: &mut Context) -> ClaimResult {
    let mut rows = Vec::new();
    let mut viol = 0u32;
    for (name, nu) in instances() {
        let a = ctx.evidence.solved(t_kl_gaussian_beta(&nu, 0.5, 0.5));
        let h2 = 2.0 * nu.hardness_h(0.5);
        viol += fails(geq(h2, a));
        rows.push(format!("{name} {} ≤ {}", sig(a, 6), sig(h2, 6)));
    }
    result(
        "F.65",
        "T^G_{KL,1/2} ≤ 2H [derived]",
        "READINGS.md §B.3",
        "T^G_{KL,1/2}(μ;1/2) ≤ 2H^G(μ;1/2), with equality for equal gaps",
        format!("{} (μ2 has equal gaps: equality)", rows.join(", ")),
        stats([("violations", f64::from(viol))]),
    )
}
