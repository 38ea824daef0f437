//! Claims on the Gaussian characteristic times and β-optimal allocations (Sec. 2.2.3, Eq. (5), READINGS.md §B.3).

use super::common::{fails, geq, instances, sig};
use crate::claims::prelude::*;
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

crate::statistics! {
    /// The statistics of F.26.
    pub struct F26Stats { violations, alloc_dev }
}

/// F.26: Gaussian sandwiches.
pub static F26: Claim<F26Stats> = Claim {
    id: "F.26",
    title: "Gaussian sandwiches",
    source: "Sec. 2.2.3, Eq. (5)",
    statement: "H ≤ T_KL^G ≤ 2H; T^G_{KL,1/2} ≤ 2T_KL^G; the β-optimal allocation is unique",
    row: Some(Row {
        claim: "Gaussian sandwiches",
        formula: "`H ≤ T_KL^G ≤ 2H`; `T^G_{KL,½} ≤ 2T_KL^G`; β-optimal allocation unique",
        source: "Sec. 2.2.3, Eq. (5)",
    }),
    wording: None,
    statistic: "violations: instances where H ≤ T_KL^G ≤ 2H or T^G_{KL,1/2} ≤ 2T_KL^G fails; alloc_dev: max difference between the solver's β-optimal allocation and the unique closed-form solution",
    rule: Rule {
        confirm: Some("violations == 0 and alloc_dev < 1e-7"),
        ..Rule::NONE
    },
    fair: "sandwiches for every instance; uniqueness is shown by agreement with the strictly monotone closed form",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Exact,
    check: f26,
};

pub(super) fn f26(ctx: &mut Context) -> Checked<F26Stats> {
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
    Checked::done(
        format!(
            "H ≤ T^G_KL(μ;1/2) ≤ 2H: {}; T^G_{{KL,1/2}} ≤ 2T^G_KL on all six; the solver's β-optimal \
             allocation equals the unique closed-form solution of B.3 (strictly increasing Σ_b ω_b(t)) to {}",
            rows.join("; "),
            sig(alloc_dev, 2)
        ),
        F26Stats {
            violations: f64::from(viol),
            alloc_dev,
        },
    )
}

crate::statistics! {
    /// The statistics of F.65.
    pub struct F65Stats { violations }
}

/// F.65: T^G_{KL,1/2} ≤ 2H \[derived\].
pub static F65: Claim<F65Stats> = Claim {
    id: "F.65",
    title: "T^G_{KL,1/2} ≤ 2H [derived]",
    source: "READINGS.md §B.3",
    statement: "T^G_{KL,1/2}(μ;1/2) ≤ 2H^G(μ;1/2), with equality for equal gaps",
    row: Some(Row {
        claim: "[derived]",
        formula: "`T^G_{KL,½} ≤ 2H`",
        source: "READINGS.md §B.3",
    }),
    wording: None,
    statistic: "violations: instances with T^G_{KL,1/2}(μ;1/2) > 2H^G beyond 1e-8 relative",
    rule: Rule {
        confirm: Some("violations == 0"),
        ..Rule::NONE
    },
    fair: "an inequality for every instance; the solver's certified relative accuracy 1e-8 (REL_TOL) is the slack of every inequality",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Exact,
    check: f65,
};

pub(super) fn f65(ctx: &mut Context) -> Checked<F65Stats> {
    let mut rows = Vec::new();
    let mut viol = 0u32;
    for (name, nu) in instances() {
        let a = ctx.evidence.solved(t_kl_gaussian_beta(&nu, 0.5, 0.5));
        let h2 = 2.0 * nu.hardness_h(0.5);
        viol += fails(geq(h2, a));
        rows.push(format!("{name} {} ≤ {}", sig(a, 6), sig(h2, 6)));
    }
    Checked::done(
        format!("{} (μ2 has equal gaps: equality)", rows.join(", ")),
        F65Stats {
            violations: f64::from(viol),
        },
    )
}
