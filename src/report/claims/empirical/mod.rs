//! Claim checks against the Monte Carlo experiment grid (MATH.md F.40–F.42, F.50–F.57).
//!
//! # Capped runs
//! A run that hits the step cap is a right-censored observation. A cell's mean is taken over all
//! runs with capped runs counted at the cap: a lower bound of the true mean when some run is
//! capped. Its 95% interval ([`Est`]) is `mean ± 1.96·s/√n` when no run is capped; with capped
//! runs only its lower end is valid (the upper end is `+∞`). A ratio of two cells inherits this:
//! its interval is unbounded above when the numerator has capped runs and reaches 0 when the
//! denominator has. No claim uses the mean of the stopped runs alone.
//!
//! # Rule sets
//! The figure claims F.50–F.55 are judged twice: under the paper's provable thresholds (`F.5x`)
//! and under the public code's empirical rules (`F.5x/ref`, `--rules reference`, MATH.md S),
//! which the paper's figures used (Rem. 53).
//!
//! # Modules
//! * `complexity`: DP-SE's sample complexity, rounds of adaptivity, DPA (F.40–F.42);
//! * `figures`: the figure claims of Sections 5.1–5.2 under both rule sets (F.50–F.55);
//! * `correctness`: empirical δ-correctness and the feasibility of local DP (F.56, F.57);
//! * this file: the cell estimates every group shares (censored means, ratios).

mod complexity;
mod correctness;
mod figures;

use super::{
    claim as result, fault, paper_instances, record, sig, skipped, Area, Check, ClaimResult,
    Context,
};
use crate::bandit::{AlgoName, Rules};
use crate::report::paper::experiments::CellResult;
use crate::report::paper::grid::GridResults;

/// The checks of this module.
pub fn checks() -> Vec<Check> {
    use complexity::{f40, f41, f42};
    use correctness::{f56, f57};
    use figures::{f50, f50r, f51, f51r, f52, f52r, f53, f53r, f54, f54r, f55, f55r};
    vec![
        f40, f41, f42, f50, f50r, f51, f51r, f52, f52r, f53, f53r, f54, f54r, f55, f55r, f56, f57,
    ]
}

/// z of a two-sided 95% normal interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The check's result when the grid is absent: skipped under `--no-experiments`, otherwise an
/// error (the grid should be there).
fn no_grid(
    ctx: &Context,
    id: &'static str,
    title: &'static str,
    source: &'static str,
    paper: &str,
) -> ClaimResult {
    if !ctx.experiments {
        return skipped(id, title, source, paper);
    }
    record("the experiment grid is missing");
    result(
        id,
        title,
        source,
        paper,
        "the experiment grid is missing",
        Vec::new(),
    )
}

/// The grid, unless a Monte Carlo fault is injected.
fn grid(ctx: &Context) -> Option<&GridResults> {
    fault(Area::Mc).ok()?;
    ctx.grid.as_ref()
}

/// The cell, or `None` with the missing cell recorded as an error.
fn get<'a>(
    g: &'a GridResults,
    inst: &str,
    algo: AlgoName,
    eps: Option<f64>,
    rules: Rules,
) -> Option<&'a CellResult> {
    let c = g.get_rules(inst, algo, eps, rules);
    if c.is_none() {
        record(format!(
            "missing cell {inst} {} ε = {eps:?} ({rules:?} rules)",
            algo.as_str()
        ));
    }
    c
}

/// A cell's mean stopping time with capped runs counted at the cap (then only a lower bound)
/// and its relative standard error.
#[derive(Debug, Clone, Copy)]
pub struct Est {
    /// Mean over all runs, capped runs at the cap.
    pub mean: f64,
    /// Relative standard error of the mean.
    pub rse: f64,
    /// Capped runs.
    pub capped: u64,
}

/// The estimate of a cell (see [`Est`]).
pub fn est(c: &CellResult) -> Est {
    let sm = &c.summary;
    let se = sm.std_tau.unwrap_or(f64::NAN) / (sm.runs as f64).sqrt();
    let mean = sm.mean_tau;
    Est {
        mean,
        rse: se / mean,
        capped: sm.unstopped,
    }
}

/// Ratio of two cells' means with its 95% interval (delta method on the log scale), widened to
/// `+∞` / `0` on the side a capped numerator / denominator leaves open.
#[derive(Debug, Clone, Copy)]
pub struct RatioEst {
    /// Ratio of the means (of lower bounds when capped).
    pub r: f64,
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
    /// Whether either cell has capped runs.
    pub censored: bool,
}

/// The ratio of `a` to `b` (see [`RatioEst`]).
pub fn ratio(a: &CellResult, b: &CellResult) -> RatioEst {
    let (x, y) = (est(a), est(b));
    let r = x.mean / y.mean;
    let w = Z95 * (x.rse * x.rse + y.rse * y.rse).sqrt();
    RatioEst {
        r,
        lo: if y.capped > 0 { 0.0 } else { r * (-w).exp() },
        hi: if x.capped > 0 {
            f64::INFINITY
        } else {
            r * w.exp()
        },
        censored: x.capped + y.capped > 0,
    }
}

fn fmt_ratio(r: RatioEst) -> String {
    let hi = if r.hi.is_finite() {
        sig(r.hi, 3)
    } else {
        "∞".into()
    };
    format!(
        "{}{} [{}, {hi}]",
        if r.censored { "≥ " } else { "" },
        sig(r.r, 3),
        sig(r.lo, 3)
    )
}

/// The mean of a cell as text: `≥ m` when runs are capped.
fn fmt_mean(c: &CellResult) -> String {
    let e = est(c);
    if e.capped > 0 {
        format!("≥ {} ({} capped)", sig(e.mean, 4), e.capped)
    } else {
        sig(e.mean, 4)
    }
}

fn rules_tag(rules: Rules) -> &'static str {
    match rules {
        Rules::Paper => "provable thresholds (paper rules)",
        Rules::Reference => "the public code's empirical rules (--rules reference)",
    }
}

/// Instances a figure claim is judged on: all six under the paper's rules, μ1 and μ2 (the
/// reference cells) under the public code's.
fn instances_for(rules: Rules) -> Vec<(&'static str, Vec<f64>)> {
    let all = paper_instances();
    match rules {
        Rules::Paper => all,
        Rules::Reference => all.into_iter().take(2).collect(),
    }
}
