//! The paper's Figures 1–5 reproduced from the experiment grid, with the theory drawn on top:
//! the lower bounds `T*·log(1/(2.4δ))` (Thm. 10, 17, L. 5), the theoretical regime switches
//! (READINGS.md §B.10) next to the paper's empirical ones, and the ratio empirical / lower bound.
//!
//! Empirical points are the mean ± standard deviation of `τ` over the **stopped** runs; cells
//! with capped (unstopped) runs are listed in the sidecar and in REPORT.md.

use super::builders::{
    paper_eps_figure, ratio_figure, Curve, Empirical, EpsPanelData, RatioPanelData,
};
use crate::bandit::AlgoName;
use crate::complexity::upper::{upper_bounds_from, UpperBounds};
use crate::complexity::{
    eps_switch_global, eps_switch_local, log_factor, t_global, t_kl, t_kl_gaussian,
    t_kl_gaussian_beta, t_local,
};
use crate::error::{Error, Result};
use crate::experiment::grid::paper_instances;
use crate::experiment::grid::{GridResults, Profile};
use crate::instance::Instance;
use crate::report::numbers::log_grid;
use crate::report::plot::{render_with_sidecar, Rendered};
use std::path::Path;

/// Display name of an instance (`mu1` → `μ1 = (…)`).
pub fn instance_label(name: &str, means: &[f64]) -> String {
    let m: Vec<String> = means.iter().map(|x| x.to_string()).collect();
    format!("{} = ({})", name.replace("mu", "μ"), m.join(", "))
}

/// Display name of an algorithm.
pub fn algo_label(a: AlgoName) -> &'static str {
    a.info().label
}

/// The paper's empirical regime switches read off Figures 1–2 (Sec. 5.1, 5.2; F.50, F.52).
pub fn paper_switch(instance: &str, local: bool) -> Option<f64> {
    match (instance, local) {
        ("mu1", true) => Some(4.0),
        ("mu2", true) => Some(2.0),
        ("mu1", false) => Some(0.1),
        ("mu2", false) => Some(0.4),
        _ => None,
    }
}

fn empirical(grid: &GridResults, instance: &str, algo: AlgoName, eps: &[f64]) -> Empirical {
    let mut e = Empirical {
        algorithm: algo_label(algo).into(),
        mean: vec![],
        ci95: vec![],
        runs: vec![],
        capped: vec![],
        median: vec![],
        q25: vec![],
        q75: vec![],
        cells: vec![],
    };
    for &x in eps {
        let key = if algo == AlgoName::Ttucb {
            None
        } else {
            Some(x)
        };
        match grid.get(instance, algo, key) {
            Some(c) => {
                let cs = &c.summary.censored;
                // Mean over all runs, capped runs at the cap (a lower bound when any is capped);
                // the 95% Student-t interval only where no run is capped (NaN otherwise: no
                // bar, `null` in the sidecar; figures feed no verdict).
                e.mean.push(cs.mean);
                e.ci95
                    .push(cs.mean_ci95_hi.map_or(f64::NAN, |h| h - cs.mean));
                e.runs.push(cs.runs);
                e.capped.push(cs.capped);
                e.median.push(cs.km_median);
                e.q25.push(cs.km_q25);
                e.q75.push(cs.km_q75);
                e.cells.push(Some(c.digest.to_string()));
            }
            None => {
                e.mean.push(f64::NAN);
                e.ci95.push(f64::NAN);
                e.runs.push(0);
                e.capped.push(0);
                e.median.push(None);
                e.q25.push(None);
                e.q75.push(None);
                e.cells.push(None);
            }
        }
    }
    e
}

/// Which privacy model a figure shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// Local DP (CTB-TT vs TTUCB).
    Local,
    /// Global DP (AdaP-TT, AdaP-TT*, DP-SE vs TTUCB).
    Global,
}

fn algos(model: Model) -> Vec<AlgoName> {
    match model {
        Model::Local => vec![AlgoName::CtbTt, AlgoName::Ttucb],
        Model::Global => vec![
            AlgoName::AdapTtStar,
            AlgoName::AdapTt,
            AlgoName::DpSe,
            AlgoName::Ttucb,
        ],
    }
}

/// Lower bound `T(ε)·log(1/(2.4δ))` of the model on `eps`.
///
/// # Errors
/// The first solver error on `eps` (a figure never silently drops a point of its bound).
pub fn lower_bound_curve(nu: &Instance, model: Model, eps: &[f64], delta: f64) -> Result<Vec<f64>> {
    let lf = log_factor(delta)?;
    eps.iter()
        .map(|&e| {
            let t = match model {
                Model::Local => t_local(nu, e),
                Model::Global => t_global(nu, e),
            };
            Ok(t?.value * lf)
        })
        .collect()
}

/// One stopping-time panel.
pub fn eps_panel(
    grid: &GridResults,
    profile: &Profile,
    name: &str,
    means: &[f64],
    model: Model,
) -> Result<EpsPanelData> {
    let nu = Instance::bernoulli(means.to_vec())?;
    let eps = match model {
        Model::Local => profile.local_eps.clone(),
        Model::Global => profile.global_eps.clone(),
    };
    let fine = log_grid(eps[0], eps[eps.len() - 1], 60);
    let lf = log_factor(profile.delta)?;
    let tkl = t_kl(&nu)?.value * lf;
    let (label, switch) = match model {
        Model::Local => (
            "lower bound T_local(μ, ε) × log(1/(2.4δ))",
            eps_switch_local(&nu)?,
        ),
        Model::Global => (
            "lower bound T_global(μ, ε) × log(1/(2.4δ))",
            eps_switch_global(&nu)?,
        ),
    };
    Ok(EpsPanelData {
        instance: instance_label(name, means),
        eps: eps.clone(),
        empirical: algos(model)
            .into_iter()
            .map(|a| empirical(grid, name, a, &eps))
            .collect(),
        lower_bounds: vec![
            Curve {
                label: label.into(),
                x: fine.clone(),
                y: lower_bound_curve(&nu, model, &fine, profile.delta)?,
                algorithm: None,
            },
            Curve {
                label: "non-private lower bound T_KL(μ) × log(1/(2.4δ))".into(),
                x: fine.clone(),
                y: vec![tkl; fine.len()],
                algorithm: None,
            },
        ],
        upper_bounds: upper_curves(&nu, model, &fine, profile.delta)?,
        theory_switch: Some(switch),
        paper_switch: paper_switch(name, model == Model::Local),
    })
}

/// Asymptotic upper bounds (E.4) times `log(1/δ)`, β = 1/2: indicative only at a fixed δ.
fn upper_curves(nu: &Instance, model: Model, eps: &[f64], delta: f64) -> Result<Vec<Curve>> {
    let l = (1.0 / delta).ln();
    let tgb = t_kl_gaussian_beta(nu, 0.5, 0.5)?.value;
    let tg = t_kl_gaussian(nu, 0.5)?.value;
    // An error at any ε fails the figure: a curve never silently loses a point.
    let ub: Vec<UpperBounds> = eps
        .iter()
        .map(|&e| upper_bounds_from(nu, e, 0.5, tgb, tg))
        .collect::<Result<_>>()?;
    let curve = |label: &str, algo: AlgoName, f: &dyn Fn(&UpperBounds) -> f64| Curve {
        label: label.into(),
        x: eps.to_vec(),
        y: ub.iter().map(|u| f(u) * l).collect(),
        algorithm: Some(algo_label(algo).into()),
    };
    let ttucb = Curve {
        label: "TTUCB upper bound T_Gauss(β = 1/2) × log(1/δ)".into(),
        x: eps.to_vec(),
        y: vec![tgb * l; eps.len()],
        algorithm: Some(algo_label(AlgoName::Ttucb).into()),
    };
    Ok(match model {
        Model::Local => vec![
            curve(
                "CTB-TT upper bound (Sec. 3.2) × log(1/δ)",
                AlgoName::CtbTt,
                &|u| u.ctb_tt.value,
            ),
            ttucb,
        ],
        Model::Global => vec![
            curve(
                "AdaP-TT* upper bound (Thm. 24) × log(1/δ)",
                AlgoName::AdapTtStar,
                &|u| u.adap_tt_star.thm24_main,
            ),
            curve(
                "AdaP-TT upper bound (Thm. 22) × log(1/δ)",
                AlgoName::AdapTt,
                &|u| u.adap_tt.value,
            ),
            ttucb,
        ],
    })
}

fn ratio_panel(
    grid: &GridResults,
    profile: &Profile,
    name: &str,
    means: &[f64],
    model: Model,
) -> Result<RatioPanelData> {
    let p = eps_panel(grid, profile, name, means, model)?;
    let nu = Instance::bernoulli(means.to_vec())?;
    let lb = lower_bound_curve(&nu, model, &p.eps, profile.delta)?;
    // Keep only the ε points where the lower bound was computed.
    let keep: Vec<usize> = (0..lb.len())
        .filter(|&i| lb[i].is_finite() && lb[i] > 0.0)
        .collect();
    let pick = |v: &[f64]| keep.iter().map(|&i| v[i]).collect::<Vec<f64>>();
    // TTUCB is non-private: the private lower bound does not apply to it.
    let empirical = p
        .empirical
        .into_iter()
        .filter(|e| e.algorithm != algo_label(AlgoName::Ttucb))
        .map(|e| Empirical {
            algorithm: e.algorithm,
            mean: pick(&e.mean),
            ci95: pick(&e.ci95),
            runs: keep
                .iter()
                .map(|&i| e.runs.get(i).copied().unwrap_or(0))
                .collect(),
            capped: keep
                .iter()
                .map(|&i| e.capped.get(i).copied().unwrap_or(0))
                .collect(),
            median: keep
                .iter()
                .map(|&i| e.median.get(i).copied().flatten())
                .collect(),
            q25: keep
                .iter()
                .map(|&i| e.q25.get(i).copied().flatten())
                .collect(),
            q75: keep
                .iter()
                .map(|&i| e.q75.get(i).copied().flatten())
                .collect(),
            cells: keep
                .iter()
                .map(|&i| e.cells.get(i).cloned().flatten())
                .collect(),
        })
        .collect();
    Ok(RatioPanelData {
        instance: p.instance,
        eps: pick(&p.eps),
        empirical,
        lower_bound: pick(&lb),
    })
}

fn fig_err(e: crate::report::plot::FigureError) -> Error {
    Error::Parse(format!("figure: {e}"))
}

/// Renders Figures 1–5 and the two ratio figures into `dir`; returns the files written.
///
/// # Errors
/// Solver or rendering failures.
pub fn render_all(
    grid: &GridResults,
    profile: &Profile,
    dir: &Path,
    command: &str,
) -> Result<Vec<Rendered>> {
    let inst = paper_instances();
    let two: Vec<(&str, Vec<f64>)> = inst.iter().take(2).cloned().collect();
    let seeds: Vec<serde_json::Value> = grid
        .cells
        .iter()
        .map(|c| {
            serde_json::json!({
                "cell": c.cell.key(), "digest": c.digest.to_string(), "seed": c.seed, "runs": c.summary.runs,
                "unstopped": c.summary.unstopped, "errors": c.summary.errors, "max_steps": c.cell.max_steps
            })
        })
        .collect();
    let meta = |what: &str| {
        serde_json::json!({
            "figure": what, "command": command, "profile": profile.name, "runs_per_cell": profile.runs,
            "delta": profile.delta, "version": env!("CARGO_PKG_VERSION"),
            "empirical": "per point: runs, capped, mean of tau over all runs with capped runs at the cap (a lower bound when capped > 0), ci95 = half-width of the 95% Student-t CI of the mean (null when capped > 0), Kaplan-Meier median, q25, q75 (null: > cap)",
            "cells": seeds,
        })
    };
    let panels = |set: &[(&str, Vec<f64>)], model: Model| -> Result<Vec<EpsPanelData>> {
        set.iter()
            .map(|(n, m)| eps_panel(grid, profile, n, m, model))
            .collect()
    };
    let mut out = Vec::new();
    let specs: Vec<(&str, &str, Vec<EpsPanelData>, bool)> = vec![
        (
            "fig1_local_mu1_mu2",
            "Figure 1: local DP, CTB-TT vs TTUCB (δ = 0.01)",
            panels(&two, Model::Local)?,
            true,
        ),
        (
            "fig2_global_mu1_mu2",
            "Figure 2: global DP (δ = 0.01)",
            panels(&two, Model::Global)?,
            true,
        ),
        (
            "fig3_local_all",
            "Figure 3: local DP on μ1–μ6 (δ = 0.01)",
            panels(&inst, Model::Local)?,
            true,
        ),
        (
            "fig4_global_all_loglog",
            "Figure 4: global DP on μ1–μ6, log–log (δ = 0.01)",
            panels(&inst, Model::Global)?,
            true,
        ),
        (
            "fig5_global_all",
            "Figure 5: global DP on μ1–μ6, linear τ axis (δ = 0.01)",
            panels(&inst, Model::Global)?,
            false,
        ),
    ];
    for (stem, title, p, ylog) in specs {
        let empirical_top: Vec<f64> = p
            .iter()
            .map(|panel| {
                panel
                    .empirical
                    .iter()
                    // Frame the uncapped points with their intervals; the lower bounds of
                    // capped cells (up to the cap) would flatten every other curve.
                    .flat_map(|e| {
                        e.mean
                            .iter()
                            .zip(&e.ci95)
                            .enumerate()
                            .filter(|(i, _)| e.capped.get(*i).copied().unwrap_or(0) == 0)
                            .map(|(_, (m, c))| m + if c.is_finite() { *c } else { 0.0 })
                    })
                    .filter(|v| v.is_finite())
                    .fold(0.0, f64::max)
            })
            .collect();
        let mut fig = paper_eps_figure(title, p, ylog).map_err(fig_err)?;
        if !ylog {
            // Linear τ axis: frame the data; the (indicative) bound curves are clipped.
            for (panel, top) in fig.panels.iter_mut().zip(empirical_top) {
                if top > 0.0 {
                    panel.y_range = Some([0.0, 1.1 * top]);
                }
            }
        }
        out.push(render_with_sidecar(&fig, &dir.join(stem), meta(stem)).map_err(fig_err)?);
    }
    for (stem, title, model) in [
        (
            "fig6_ratio_global",
            "Empirical τ / lower bound T_global(μ, ε) × log(1/(2.4δ)), global DP",
            Model::Global,
        ),
        (
            "fig7_ratio_local",
            "Empirical τ / lower bound T_local(μ, ε) × log(1/(2.4δ)), local DP",
            Model::Local,
        ),
    ] {
        let p: Vec<RatioPanelData> = inst
            .iter()
            .map(|(n, m)| ratio_panel(grid, profile, n, m, model))
            .collect::<Result<_>>()?;
        let fig = ratio_figure(title, p).map_err(fig_err)?;
        out.push(render_with_sidecar(&fig, &dir.join(stem), meta(stem)).map_err(fig_err)?);
    }
    Ok(out)
}
