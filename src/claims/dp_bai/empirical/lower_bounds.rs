//! The lower bounds of Thm. 10 and Thm. 17 (and the non-private one of L. 5) as empirical
//! statements about the grid's cells (F.69).

use super::estimates::{est, grid, no_grid};
use crate::bandit::{AlgoName, Rules, Setting};
use crate::claims::prelude::*;
use crate::complexity::{Certified, t_global, t_kl, t_local};
use crate::instance::Instance;
use crate::numbers::sig;
use crate::params::PrivacyModel;
use crate::stats::student_t_quantile;

crate::statistics! {
    /// The statistics of F.69.
    pub struct F69Stats { cells, below, uncertified, min_ratio, capped_cells }
}

/// F.69: Thm. 10 and Thm. 17 as empirical lower bounds.
pub static F69: Claim<F69Stats> = Claim {
    id: "F.69",
    title: "lower bounds hold on every cell",
    source: "Thm. 10, Thm. 17, L. 5",
    statement: "every δ-correct algorithm has E[τ] ≥ T*·log(1/(2.4δ)), with T* = T_ℓ(ν; ε) for ε-local DP (Thm. 10), T_g(ν; ε) for ε-global DP (Thm. 17) and T_KL(ν) without privacy",
    row: Some(Row {
        claim: "lower bounds on the grid",
        formula: "`E[τ] ≥ T*·log(1/(2.4δ))` on every cell, `T* ∈ {T_KL, T_ℓ, T_g}` by privacy model",
        source: "Thm. 10, 17",
    }),
    wording: None,
    statistic: "cells: the grid's cells of the paper's pure-DP and non-private algorithms (TTUCB, CTB-TT, AdaP-TT, AdaP-TT*, DP-SE, DPA-TT) under their provable thresholds and default readings, Bernoulli arms, every δ; each is compared with its model's bound B = T*·log(1/(2.4δ)) (the solver's certified interval of T*, its upper end to certify a cell above B, its lower end to see one below) through the one-sided Student-t bounds of its mean τ at level 0.05/cells (Bonferroni), capped runs counted at the cap (the mean is then a lower bound: its upper end is +∞); below: cells whose upper end lies below B; uncertified: cells whose lower end does not lie above B; min_ratio: the smallest mean τ / B; capped_cells: cells with capped runs",
    rule: Rule {
        confirm: Some("cells > 0 and uncertified == 0"),
        refute: Some("below > 0"),
        decide: Some(
            "more runs in the cells whose interval contains the bound (a cell whose mean lies near its lower bound needs a tight interval to be certified above it)",
        ),
        ..Rule::NONE
    },
    fair: "Thm. 10 and Thm. 17 bound every δ-correct algorithm of their privacy model at every δ, and the paper's algorithms under their provable thresholds are δ-correct by its theorems (F.56 checks that empirically); the approximate-DP Gaussian variant (Alg. 8) is left out, since Thm. 10 is a statement about pure ε-LDP; each cell is certified above its bound or seen below it, one-sided at a joint level of 95% over the cells; the public code's rules are left out (its thresholds are not proven δ-correct)",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Finite,
    check: f69,
};

/// The characteristic time of the lower bound for an algorithm of `model` at `eps`.
fn lower_time(nu: &Instance, model: PrivacyModel, eps: Option<f64>) -> crate::Result<Certified> {
    match (model, eps) {
        (PrivacyModel::NonPrivate, _) => t_kl(nu),
        (PrivacyModel::Local, Some(e)) => t_local(nu, e),
        (PrivacyModel::Global, Some(e)) => t_global(nu, e),
        (_, None) => Err(crate::Error::param(
            "ε",
            f64::NAN,
            "given for a private algorithm's cell",
        )),
    }
}

pub(super) fn f69(ctx: &mut Context) -> Checked<F69Stats> {
    let Some(g) = grid(ctx) else {
        return no_grid(ctx);
    };
    let algos = [
        AlgoName::Ttucb,
        AlgoName::CtbTt,
        AlgoName::AdapTt,
        AlgoName::AdapTtStar,
        AlgoName::DpSe,
        AlgoName::DpaTt,
    ];
    // The paper's algorithms as published: provable thresholds, default readings, Bernoulli arms.
    let cells: Vec<_> = g
        .iter()
        .filter(|c| {
            let s = &c.cell.setting;
            let mut default = Setting::new(s.algo, s.delta);
            default.eps = s.eps;
            default.gamma = s.gamma;
            algos.contains(&s.algo)
                && s.rules == Rules::Paper
                && *s == default
                && c.cell.threshold.is_none()
                && c.cell.sigma.is_none()
        })
        .collect();
    let level = 0.05 / cells.len().max(1) as f64;
    let (mut below, mut uncertified, mut capped_cells) = (Vec::new(), Vec::new(), 0u32);
    let mut min_ratio = f64::INFINITY;
    let mut min_at = String::new();
    for c in &cells {
        let s = &c.cell.setting;
        let eps = s.eps.map(|e| e.get());
        // The solver's certified interval, rounded in the safe direction: certified above the
        // bound's upper end, seen below its lower end.
        let time = Instance::bernoulli(c.cell.means.clone())
            .and_then(|nu| lower_time(&nu, s.algo.info().privacy, eps));
        let log = (1.0 / (2.4 * s.delta.get())).ln();
        let (bound_lo, bound, bound_hi) = match time {
            Ok(t) => (t.lower * log, t.value * log, t.upper * log),
            Err(e) => {
                let v = ctx.evidence.value(Area::Solver, Err(e));
                (v, v, v)
            }
        };
        let m = est(c);
        let sm = &c.summary;
        let half = sm
            .std_tau
            .ok_or_else(|| crate::Error::param("runs", sm.runs as f64, "at least 2"))
            .and_then(|sd| {
                Ok(student_t_quantile(1.0 - level, (sm.runs - 1) as f64)? * sd
                    / (sm.runs as f64).sqrt())
            });
        let half = ctx.evidence.value(Area::Mc, half);
        let lo = m.mean - half;
        let hi = if m.capped > 0 {
            f64::INFINITY
        } else {
            m.mean + half
        };
        capped_cells += u32::from(m.capped > 0);
        // A NaN bound or interval certifies nothing (the error is recorded).
        if hi < bound_lo {
            below.push(format!(
                "{} (mean {} < {})",
                c.cell.key(),
                sig(m.mean, 3),
                sig(bound_lo, 3)
            ));
        }
        if lo.is_nan() || bound_hi.is_nan() || lo <= bound_hi {
            uncertified.push(c.cell.key());
        }
        let r = m.mean / bound;
        if r < min_ratio {
            min_ratio = r;
            min_at = c.cell.key();
        }
    }
    let list = |v: &[String]| match v.len() {
        0 => "none".to_string(),
        n if n > 6 => format!("{} and {} more", v[..6].join(", "), n - 6),
        _ => v.join(", "),
    };
    Checked::done(
        format!(
            "{} cells (every δ; {capped_cells} with capped runs) against T*·log(1/(2.4δ)) of their privacy model \
             (one-sided t bounds, level 0.05/{}): smallest mean τ / bound {} ({min_at}); cells seen below their bound: {}; \
             cells not certified above it: {}",
            cells.len(),
            cells.len(),
            sig(min_ratio, 3),
            list(&below),
            list(&uncertified)
        ),
        F69Stats {
            cells: cells.len() as f64,
            below: below.len() as f64,
            uncertified: uncertified.len() as f64,
            min_ratio,
            capped_cells: f64::from(capped_cells),
        },
    )
}
