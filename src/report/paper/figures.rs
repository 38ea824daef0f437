//! The paper's Figures 1–5 reproduced from the experiment grid, with the theory drawn on top
//! (the panels: module `panels`): once from the cells under the paper's rules, once from the cells
//! under the public code's empirical rules (`--rules reference`, which the paper's figures used,
//! Rem. 53), Figure 2 as medians with their interquartile band, and the ratio empirical /
//! lower bound. They are the `[[figure]]` tables of the study files `verify/quick.toml` and
//! `verify/paper.toml` (stem, REPORT.md's description, what is drawn).
//!
//! Points under the paper's rules are the mean of `τ` with its 95% confidence interval; under
//! the public code's rules the mean ± one standard deviation of `τ`, as the paper plots it.
//! Cells with capped runs are open markers ("≥", a lower bound, no bar), listed in the sidecar
//! and in REPORT.md. Every caption states the cap, the rules and the regime of the upper bounds.

use super::builders::{EpsPanelData, PointStat, paper_eps_figure_with, ratio_figure};
use super::captions::{
    PAPER_RULES, REFERENCE_GLOBAL, REFERENCE_LOCAL, REFERENCE_RULES, THM24_SENTENCE,
    asymptotic_sentence, cap_sentence, off_scale_sentence,
};
pub use super::panels::{
    SWITCH_SIDES, THM24_SWITCH_LABEL, algo_label, algos, eps_panel, eps_panel_rules,
    instance_label, lower_bound_curve,
};
use super::panels::{is_local, ratio_panel};
use crate::bandit::Rules;
pub use crate::claims::dp_bai::empirical::figures::paper_switch;
use crate::claims::dp_bai::evidence::Profile;
use crate::error::{Error, Result};
use crate::experiment::grid::GridResults;
use crate::experiment::study::config::{FigureKind, Study};
use crate::params::PrivacyModel;
use crate::plot::{Figure, Rendered, count_off_scale, render_with_sidecar_at};
use std::path::Path;

/// REPORT.md's list of the figures of `study` (PNG, with links to the SVG and the data).
/// With `allocation`, the allocation figure (drawn from the traced runs) closes the list.
pub fn figures_list(study: &Study, allocation: bool) -> String {
    let entry = |d: &str, s: &str| {
        format!("- [{d}](figures/{s}.png) ([SVG](figures/{s}.svg), [data](figures/{s}.json))")
    };
    let alloc = super::allocation::ALLOCATION_STEM;
    study
        .figures
        .iter()
        .map(|f| entry(&f.description, &f.stem))
        .chain(allocation.then(|| entry(super::allocation::ALLOCATION_DESCRIPTION, alloc)))
        .collect::<Vec<_>>()
        .join("\n")
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
                .filter(|&(_, &r)| r == 0)
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
    model: PrivacyModel,
    rules: Rules,
    stat: PointStat,
) -> String {
    let caps: Vec<u64> = panels
        .iter()
        .flat_map(|p| p.empirical.iter().flat_map(|e| e.cap.iter().copied()))
        .collect();
    let mut s: Vec<String> = match (rules, model) {
        (Rules::Paper, _) => vec![PAPER_RULES],
        _ if is_local(model) => vec![REFERENCE_RULES, REFERENCE_LOCAL],
        _ => vec![REFERENCE_RULES, REFERENCE_GLOBAL],
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

/// Renders the `[[figure]]` tables of `study` from the cells of `grid` into `dir`; returns the
/// files written.
///
/// # Errors
/// Solver or rendering failures; a figure whose model has no ε in the study.
pub fn render_all(
    grid: &GridResults,
    study: &Study,
    profile: &Profile,
    dir: &Path,
    command: &str,
) -> Result<Vec<Rendered>> {
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
    for spec in &study.figures {
        let title = format!("{} (δ = {})", spec.title, profile.delta);
        let path = dir.join(&spec.stem);
        let eps = if is_local(spec.model) {
            &profile.local_eps
        } else {
            &profile.global_eps
        };
        if eps.is_empty() {
            return Err(Error::Parse(format!(
                "figure {}: the study has no ε of its {:?} model's algorithms",
                spec.stem, spec.model
            )));
        }
        let set: Vec<(&str, &[f64])> = spec
            .instances
            .iter()
            .map(|&i| {
                (
                    study.instances[i].name.as_str(),
                    study.instances[i].instance.means(),
                )
            })
            .collect();
        let (model, rules, stat) = (spec.model, spec.rules, spec.statistic);
        let (fig, rules, stat) = match spec.kind {
            FigureKind::Eps => {
                let panels: Vec<EpsPanelData> = set
                    .iter()
                    .map(|(n, m)| eps_panel_rules(grid, profile, n, m, model, rules))
                    .collect::<Result<_>>()?;
                let fig = eps_figure(&title, panels, spec.y_log, model, rules, stat)?;
                (fig, rules, stat)
            }
            FigureKind::Ratio => {
                let p = set
                    .iter()
                    .map(|(n, m)| ratio_panel(grid, profile, n, m, model))
                    .collect::<Result<Vec<_>>>()?;
                let caps: Vec<u64> = p
                    .iter()
                    .flat_map(|p| p.empirical.iter().flat_map(|e| e.cap.iter().copied()))
                    .collect();
                let fig = ratio_figure(&title, p).map_err(|e| Error::figure(&title, e))?;
                let caption: Vec<String> = [PAPER_RULES.to_string()]
                    .into_iter()
                    .chain([stat_sentence(PointStat::MeanCi95).to_string()])
                    .chain(cap_sentence(&caps))
                    .chain(off_scale_sentence(count_off_scale(&fig)))
                    .chain([
                        "A ratio below 1 on average would contradict the lower bound, up \
                             to Monte Carlo error; TTUCB (non-private) is left out."
                            .to_string(),
                    ])
                    .collect();
                (
                    fig.with_caption(caption.join(" ")),
                    Rules::Paper,
                    PointStat::MeanCi95,
                )
            }
        };
        out.push(
            render_with_sidecar_at(&fig, &path, meta(&spec.stem, rules, stat), study.dpi)
                .map_err(|e| Error::figure(&spec.stem, e))?,
        );
    }
    Ok(out)
}

/// A stopping-time figure with its caption; a linear τ axis frames the uncapped points with
/// their error bars (points above it are drawn as arrows at the top edge).
fn eps_figure(
    title: &str,
    panels: Vec<EpsPanelData>,
    y_log: bool,
    model: PrivacyModel,
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
    let mut fig = paper_eps_figure_with(title, panels.clone(), y_log, stat)
        .map_err(|e| Error::figure(title, e))?;
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
