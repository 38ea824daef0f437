//! The paper's Figures 1–5 reproduced from the experiment grid, with the theory drawn on top
//! (the panels: module `panels`): once from the cells under the paper's rules, once from the cells
//! under the public code's empirical rules (`--rules reference`, which the paper's figures used,
//! Rem. 53), Figure 2 as medians with their interquartile band, and the ratio empirical /
//! lower bound. [`FIGURES`] lists them (stem, REPORT.md's description, what is drawn).
//!
//! Points under the paper's rules are the mean of `τ` with its 95% confidence interval; under
//! the public code's rules the mean ± one standard deviation of `τ`, as the paper plots it.
//! Cells with capped runs are open markers ("≥", a lower bound, no bar), listed in the sidecar
//! and in REPORT.md. Every caption states the cap, the rules and the regime of the upper bounds.

use super::builders::{paper_eps_figure_with, ratio_figure, EpsPanelData, PointStat};
use super::captions::{
    asymptotic_sentence, cap_sentence, off_scale_sentence, PAPER_RULES, REFERENCE_GLOBAL,
    REFERENCE_LOCAL, REFERENCE_RULES, THM24_SENTENCE,
};
use super::panels::ratio_panel;
pub use super::panels::{
    algo_label, algos, eps_panel, eps_panel_rules, instance_label, lower_bound_curve, paper_switch,
    Model, SWITCH_SIDES, THM24_SWITCH_LABEL,
};
use crate::bandit::Rules;
use crate::claims::dp_bai::evidence::paper_instances;
use crate::claims::dp_bai::evidence::Profile;
use crate::error::{Error, Result};
use crate::experiment::grid::GridResults;
use crate::report::plot::{count_off_scale, render_with_sidecar, Figure, Rendered};
use std::path::Path;

/// What a figure of [`FIGURES`] draws.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// Stopping time versus ε.
    Eps {
        /// Panels on μ1, μ2 only (Figures 1–2), else μ1–μ6.
        two: bool,
        /// Privacy model.
        model: Model,
        /// Logarithmic τ axis (Figure 5's is linear).
        y_log: bool,
        /// The rule set of the cells.
        rules: Rules,
        /// The statistic per point.
        stat: PointStat,
    },
    /// Empirical τ / lower bound on μ1–μ6 (paper rules, mean with its 95% CI).
    Ratio(Model),
}

/// One figure written by `verify`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FigureSpec {
    /// File stem in `figures/` (`.png`, `.svg`, `.json`).
    pub stem: &'static str,
    /// Title drawn on the figure (δ appended).
    pub title: &'static str,
    /// REPORT.md's description in its list of figures.
    pub description: &'static str,
    /// What it draws.
    pub kind: Kind,
}

const fn eps(two: bool, model: Model, y_log: bool, rules: Rules, stat: PointStat) -> Kind {
    Kind::Eps {
        two,
        model,
        y_log,
        rules,
        stat,
    }
}

const P: Rules = Rules::Paper;
const R: Rules = Rules::Reference;
const CI: PointStat = PointStat::MeanCi95;
const SD: PointStat = PointStat::MeanStd;
const MED: PointStat = PointStat::MedianIqr;
const L: Model = Model::Local;
const G: Model = Model::Global;

/// The figures `verify` writes, in REPORT.md's order.
pub const FIGURES: [FigureSpec; 14] = [
    FigureSpec {
        stem: "fig1_local_mu1_mu2",
        title: "Figure 1: local DP, CTB-TT vs TTUCB",
        description: "Figure 1: local DP, CTB-TT vs TTUCB on μ1, μ2",
        kind: eps(true, L, true, P, CI),
    },
    FigureSpec {
        stem: "fig2_global_mu1_mu2",
        title: "Figure 2: global DP",
        description: "Figure 2: global DP, AdaP-TT, AdaP-TT*, DP-SE, TTUCB on μ1, μ2",
        kind: eps(true, G, true, P, CI),
    },
    FigureSpec {
        stem: "fig3_local_all",
        title: "Figure 3: local DP on μ1–μ6",
        description: "Figure 3: local DP on μ1–μ6",
        kind: eps(false, L, true, P, CI),
    },
    FigureSpec {
        stem: "fig4_global_all_loglog",
        title: "Figure 4: global DP on μ1–μ6, log–log",
        description: "Figure 4: global DP on μ1–μ6, log–log",
        kind: eps(false, G, true, P, CI),
    },
    FigureSpec {
        stem: "fig5_global_all",
        title: "Figure 5: global DP on μ1–μ6, linear τ axis",
        description: "Figure 5: global DP on μ1–μ6, linear τ axis",
        kind: eps(false, G, false, P, CI),
    },
    FigureSpec {
        stem: "fig2_global_mu1_mu2_median",
        title: "Figure 2 as medians: global DP, median and interquartile band, mean as ×",
        description: "Figure 2 as medians: median of τ with its interquartile band, mean as × (a skewed or bimodal τ shows as mean ≫ median)",
        kind: eps(true, G, true, P, MED),
    },
    FigureSpec {
        stem: "fig6_ratio_global",
        title: "Empirical τ / lower bound T_global(μ, ε) × log(1/(2.4δ)), global DP",
        description: "new: empirical τ / lower bound, global DP",
        kind: Kind::Ratio(G),
    },
    FigureSpec {
        stem: "fig7_ratio_local",
        title: "Empirical τ / lower bound T_local(μ, ε) × log(1/(2.4δ)), local DP",
        description: "new: empirical τ / lower bound, local DP",
        kind: Kind::Ratio(L),
    },
    FigureSpec {
        stem: "fig1_local_mu1_mu2_ref",
        title: "Figure 1, public code's rules: local DP, CTB-TT vs TTUCB, mean ± std",
        description: "Figure 1 under the public code's rules (mean ± std, as the paper plots it)",
        kind: eps(true, L, true, R, SD),
    },
    FigureSpec {
        stem: "fig2_global_mu1_mu2_ref",
        title: "Figure 2, public code's rules: global DP, mean ± std",
        description: "Figure 2 under the public code's rules (mean ± std)",
        kind: eps(true, G, true, R, SD),
    },
    FigureSpec {
        stem: "fig3_local_all_ref",
        title: "Figure 3, public code's rules: local DP on μ1–μ6, mean ± std",
        description: "Figure 3 under the public code's rules (mean ± std; cells on μ1, μ2 only)",
        kind: eps(false, L, true, R, SD),
    },
    FigureSpec {
        stem: "fig4_global_all_loglog_ref",
        title: "Figure 4, public code's rules: global DP on μ1–μ6, log–log, mean ± std",
        description: "Figure 4 under the public code's rules (mean ± std; cells on μ1, μ2 only)",
        kind: eps(false, G, true, R, SD),
    },
    FigureSpec {
        stem: "fig5_global_all_ref",
        title: "Figure 5, public code's rules: global DP on μ1–μ6, linear τ axis, mean ± std",
        description: "Figure 5 under the public code's rules (mean ± std; cells on μ1, μ2 only)",
        kind: eps(false, G, false, R, SD),
    },
    FigureSpec {
        stem: "fig2_global_mu1_mu2_median_ref",
        title: "Figure 2 as medians, public code's rules: median and interquartile band, mean as ×",
        description: "Figure 2 as medians under the public code's rules",
        kind: eps(true, G, true, R, MED),
    },
];

/// REPORT.md's list of the figures `verify` writes (PNG, with links to the SVG and the data).
pub fn figures_list() -> String {
    FIGURES
        .iter()
        .map(|f| {
            let (d, s) = (f.description, f.stem);
            format!("- [{d}](figures/{s}.png) ([SVG](figures/{s}.svg), [data](figures/{s}.json))")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn fig_err(e: crate::report::plot::FigureError) -> Error {
    Error::Parse(format!("figure: {e}"))
}

/// The statistic's sentence of a caption.
fn stat_sentence(stat: PointStat) -> &'static str {
    match stat {
        PointStat::MeanCi95 => "Points: mean of τ over the cell's runs, bars its 95% CI.",
        PointStat::MeanStd => {
            "Points: mean of τ ± one standard deviation over the cell's runs, as the paper plots it."
        }
        PointStat::MedianIqr => {
            "Line: Kaplan–Meier median of τ; band: its interquartile range (a third quartile \
             beyond the cap reaches the cap); ×: the mean, so that a mean far above the median \
             shows a skewed or bimodal τ."
        }
    }
}

/// Which panels and algorithms have no cell (at some ε) under `rules`, for the caption.
fn missing_sentence(panels: &[EpsPanelData], rules: Rules) -> Option<String> {
    let mut empty = Vec::new();
    let mut partial = Vec::new();
    for p in panels {
        let name = p.instance.split(" = ").next().unwrap_or(&p.instance);
        if p.empirical.iter().all(|e| e.runs.iter().all(|&r| r == 0)) {
            empty.push(name.to_string());
            continue;
        }
        for e in &p.empirical {
            let gaps: Vec<String> = p
                .eps
                .iter()
                .zip(&e.runs)
                .filter(|(_, &r)| r == 0)
                .map(|(x, _)| super::builders::fmt_eps(*x))
                .collect();
            if gaps.len() == p.eps.len() {
                partial.push(format!("{} on {name}", e.algorithm));
            } else if !gaps.is_empty() {
                partial.push(format!(
                    "{} on {name} at ε = {}",
                    e.algorithm,
                    gaps.join(", ")
                ));
            }
        }
    }
    if empty.is_empty() && partial.is_empty() {
        return None;
    }
    let rules = if rules == Rules::Paper {
        "the paper's rules"
    } else {
        "these rules"
    };
    let mut parts = Vec::new();
    if !empty.is_empty() {
        parts.push(format!(
            "{}: no cell under {rules} in this profile (bounds only)",
            empty.join(", ")
        ));
    }
    if !partial.is_empty() {
        parts.push(format!("no cell for {}", partial.join("; ")));
    }
    Some(format!("{}.", parts.join("; ")))
}

/// The caption of a stopping-time figure made of `panels` (drawn as `fig`).
fn eps_caption(
    fig: &Figure,
    panels: &[EpsPanelData],
    model: Model,
    rules: Rules,
    stat: PointStat,
) -> String {
    let caps: Vec<u64> = panels
        .iter()
        .flat_map(|p| p.empirical.iter().flat_map(|e| e.cap.iter().copied()))
        .collect();
    let mut s: Vec<String> = match (rules, model) {
        (Rules::Paper, _) => vec![PAPER_RULES],
        (_, Model::Global) => vec![REFERENCE_RULES, REFERENCE_GLOBAL],
        (_, Model::Local) => vec![REFERENCE_RULES, REFERENCE_LOCAL],
    }
    .into_iter()
    .map(String::from)
    .collect();
    s.push(stat_sentence(stat).to_string());
    s.extend(cap_sentence(&caps));
    s.extend(missing_sentence(panels, rules));
    s.extend(off_scale_sentence(count_off_scale(fig)));
    s.push("Dashed: lower bounds T × log(1/(2.4δ)).".into());
    s.push(asymptotic_sentence());
    if panels.iter().any(|p| !p.upper_switches.is_empty()) {
        s.push(THM24_SENTENCE.into());
    }
    s.join(" ")
}

/// Renders the figures of [`FIGURES`] into `dir`; returns the files written.
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
    let meta = |what: &str, rules: Rules, stat: PointStat| {
        serde_json::json!({
            "figure": what, "command": command, "profile": profile.name, "runs_per_cell": profile.runs,
            "delta": profile.delta, "version": env!("CARGO_PKG_VERSION"),
            "rules": if rules == Rules::Paper { "paper" } else { "reference" },
            "statistic": stat,
            "empirical": "per point: runs, capped, mean of tau over all runs with capped runs at the cap (a lower bound when capped > 0), ci95 = 95% Student-t CI of the mean (null when capped > 0), std = sample standard deviation of tau over all runs (capped runs at the cap), Kaplan-Meier median, q25, q75 (null: > cap), off_scale = the axis edge a point lies beyond (drawn there as an arrow)",
            "cells": seeds,
        })
    };
    let mut out = Vec::new();
    for spec in &FIGURES {
        let title = format!("{} (δ = {})", spec.title, profile.delta);
        let path = dir.join(spec.stem);
        let (fig, rules, stat) = match spec.kind {
            Kind::Eps {
                two,
                model,
                y_log,
                rules,
                stat,
            } => {
                let set = if two { &inst[..2] } else { &inst[..] };
                let panels: Vec<EpsPanelData> = set
                    .iter()
                    .map(|(n, m)| eps_panel_rules(grid, profile, n, m, model, rules))
                    .collect::<Result<_>>()?;
                let fig = eps_figure(&title, panels, y_log, model, rules, stat)?;
                (fig, rules, stat)
            }
            Kind::Ratio(model) => {
                let p = inst
                    .iter()
                    .map(|(n, m)| ratio_panel(grid, profile, n, m, model))
                    .collect::<Result<Vec<_>>>()?;
                let caps: Vec<u64> = p
                    .iter()
                    .flat_map(|p| p.empirical.iter().flat_map(|e| e.cap.iter().copied()))
                    .collect();
                let fig = ratio_figure(&title, p).map_err(fig_err)?;
                let caption: Vec<String> = [PAPER_RULES.to_string()]
                    .into_iter()
                    .chain([stat_sentence(CI).to_string()])
                    .chain(cap_sentence(&caps))
                    .chain(off_scale_sentence(count_off_scale(&fig)))
                    .chain([
                        "A ratio below 1 on average would contradict the lower bound, up \
                             to Monte Carlo error; TTUCB (non-private) is left out."
                            .to_string(),
                    ])
                    .collect();
                (fig.with_caption(caption.join(" ")), P, CI)
            }
        };
        out.push(render_with_sidecar(&fig, &path, meta(spec.stem, rules, stat)).map_err(fig_err)?);
    }
    Ok(out)
}

/// A stopping-time figure with its caption; a linear τ axis frames the uncapped points with
/// their error bars (points above it are drawn as arrows at the top edge).
fn eps_figure(
    title: &str,
    panels: Vec<EpsPanelData>,
    y_log: bool,
    model: Model,
    rules: Rules,
    stat: PointStat,
) -> Result<Figure> {
    let tops: Vec<f64> = panels
        .iter()
        .map(|panel| {
            panel
                .empirical
                .iter()
                // The lower bounds of capped cells (up to the cap) would flatten every other
                // curve: they are marked at the top edge instead.
                .flat_map(|e| {
                    let err = match stat {
                        PointStat::MeanStd => &e.std,
                        _ => &e.ci95,
                    };
                    (0..e.mean.len())
                        .filter(|&i| e.capped.get(i).copied().unwrap_or(0) == 0)
                        .map(|i| {
                            let c = err.get(i).copied().unwrap_or(f64::NAN);
                            e.mean[i] + if c.is_finite() { c } else { 0.0 }
                        })
                        .collect::<Vec<_>>()
                })
                .filter(|v| v.is_finite())
                .fold(0.0, f64::max)
        })
        .collect();
    let mut fig = paper_eps_figure_with(title, panels.clone(), y_log, stat).map_err(fig_err)?;
    if !y_log {
        // Linear τ axis: frame the data; the (indicative) bound curves are clipped.
        for (panel, top) in fig.panels.iter_mut().zip(tops) {
            if top > 0.0 {
                panel.y_range = Some([0.0, 1.1 * top]);
            }
        }
    }
    let caption = eps_caption(&fig, &panels, model, rules, stat);
    Ok(fig.with_caption(caption))
}
