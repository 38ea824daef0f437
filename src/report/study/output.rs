//! The figures of a study (τ against ε per instance and δ, and τ against log(1/δ)); the
//! other outputs are [`crate::experiment::study::results`] (`results.csv`) and [`super::summary`] (`SUMMARY.md`),
//! re-exported here. Every output is a function of the study and its cells' records only (no
//! clock, no path, no thread count), so a resumed or sharded run writes the same bytes.

use crate::bandit::AlgoName;
use crate::complexity;
use crate::complexity::upper::{ASYMPTOTIC, adap_tt_star_switches};
use crate::error::{Error, Result};
use crate::experiment::study::config::{
    LowerTime, PanelSplit, Study, UpperKind, lower_kind, upper_kind,
};
use crate::experiment::study::{BoundCache, Row, upper_per_log};
use crate::instance::Instance;
use crate::params::Delta;
use crate::plot::{
    BLACK_INDEX, ErrStyle, Figure, GREY_INDEX, Panel, PointStats, Series, SeriesStyle,
    count_off_scale, render_with_sidecar_at,
};
use crate::report::paper::builders::{
    BranchSwitch, Curve, Empirical, EpsPanelData, PointStat, Switch, paper_eps_figure_with,
};
use crate::report::paper::captions::{
    THM24_SENTENCE, asymptotic_sentence, cap_sentence, off_scale_sentence,
};
use crate::report::paper::figures::{SWITCH_SIDES, THM24_SWITCH_LABEL};
use std::path::Path;

pub use super::summary::write_summary;
pub use crate::experiment::study::results::{
    columns, read_results, read_results_text, write_results,
};

/// Palette index of the `a`-th algorithm: the six colours before black and grey (which the
/// bounds use), cycling.
fn algo_color(a: usize) -> usize {
    a % BLACK_INDEX
}

/// File stem of the figure of instance `name` at risk `delta`.
pub fn figure_stem(name: &str, delta: f64) -> String {
    format!("{name}_delta{}", num(delta))
}

/// A number as written by hand: plain in `[1e-3, 1e5)`, else `1e-16` style.
pub(super) fn num(x: f64) -> String {
    if x == 0.0 || (1e-3..1e5).contains(&x.abs()) {
        x.to_string()
    } else {
        format!("{x:e}")
    }
}

/// Regime switches of instance `i`: `(ε_g*, ε_l*)` (`T_TV/T_KL`, `c⁻¹(T_TV2/T_KL)`).
///
/// # Errors
/// Solver failures.
pub fn switches_of(study: &Study, i: usize) -> Result<(f64, f64)> {
    let nu = &study.instances[i].instance;
    Ok((
        complexity::eps_switch_global(nu)?,
        complexity::eps_switch_local(nu)?,
    ))
}

pub(super) fn short(x: f64) -> String {
    if x == 0.0 || (1e-3..1e5).contains(&x.abs()) {
        format!("{}", (x * 1e4).round() / 1e4)
    } else {
        format!("{x:.3e}")
    }
}

/// Draws one figure per instance and δ into `dir` (PNG, SVG, sidecar JSON) with the builder of
/// the paper's figures ([`paper_eps_figure_with`]: one figure pipeline); `command` goes into
/// the sidecars. Returns the stems written.
///
/// # Errors
/// Solver or rendering failures.
pub fn render_figures(
    study: &Study,
    rows: &[Row],
    dir: &Path,
    command: &str,
    bounds: &mut BoundCache,
) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for (i, inst) in study.instances.iter().enumerate() {
        for &delta in &study.deltas {
            let here: Vec<(usize, &Row)> = rows
                .iter()
                .enumerate()
                .filter(|(k, r)| study.cells[*k].instance == i && r.delta == delta)
                .collect();
            if here.is_empty() {
                continue;
            }
            let stem = figure_stem(&inst.name, delta);
            let title = format!("{}: {}", study.title, inst.name);
            let panels = match study.panels {
                PanelSplit::Instance => {
                    vec![panel(
                        study,
                        i,
                        delta,
                        &here,
                        &study.lower,
                        &study.upper,
                        bounds,
                    )?]
                }
                PanelSplit::Algorithm => {
                    // One panel per `algo`, in the study's order, with its own bounds (and the
                    // non-private lower bound as the common reference).
                    let mut algos: Vec<AlgoName> = Vec::new();
                    for (k, _) in &here {
                        let a = study.cells[*k].cell.setting.algo;
                        if !algos.contains(&a) {
                            algos.push(a);
                        }
                    }
                    let mut panels = Vec::with_capacity(algos.len());
                    for a in algos {
                        let mine: Vec<(usize, &Row)> = here
                            .iter()
                            .filter(|(k, _)| study.cells[*k].cell.setting.algo == a)
                            .copied()
                            .collect();
                        let lower: Vec<LowerTime> = study
                            .lower
                            .iter()
                            .copied()
                            .filter(|&l| {
                                l == LowerTime::Kl
                                    || l == lower_kind(a)
                                    || (l == LowerTime::Eps && lower_kind(a) == LowerTime::Global)
                            })
                            .collect();
                        let upper: Vec<UpperKind> = study
                            .upper
                            .iter()
                            .copied()
                            .filter(|&u| {
                                mine.iter()
                                    .any(|(k, _)| upper_kind(&study.cells[*k].cell) == Some(u))
                            })
                            .collect();
                        let mut p = panel(study, i, delta, &mine, &lower, &upper, bounds)?;
                        p.instance = format!("{}: {}", a.as_str(), p.instance);
                        panels.push(p);
                    }
                    panels
                }
            };
            let fig = paper_eps_figure_with(&title, panels, true, PointStat::MeanCi95)
                .map_err(|e| Error::figure(&stem, e))?;
            let caps: Vec<u64> = here.iter().map(|(_, r)| r.max_steps).collect();
            let fig = {
                let c = caption(&fig, &caps);
                fig.with_caption(c)
            };
            let cells: Vec<serde_json::Value> = here
                .iter()
                .map(|(_, r)| serde_json::to_value(r).unwrap_or(serde_json::Value::Null))
                .collect();
            let meta = serde_json::json!({
                "command": command,
                "version": env!("CARGO_PKG_VERSION"),
                "instance": inst.name, "means": inst.instance.means(), "sigma": inst.sigma,
                "delta": delta,
                "empirical": "per point: mean of tau over all runs with capped runs at the cap (open marker, '>=': a lower bound when capped > 0), error bar = 95% Student-t CI of the mean (absent when capped); a non-private algorithm's one cell is drawn at every ε of the panel",
                "bounds": "lower: T*·log(1/(2.4δ)) of the privacy setting; upper: dpbai bounds' asymptotic value (beta 1/2) times log(1/δ): asymptotic, δ → 0; not a finite-δ bound",
                "cells": cells,
            });
            render_with_sidecar_at(&fig, &dir.join(&stem), meta, study.dpi)
                .map_err(|e| Error::figure(&stem, e))?;
            out.push(stem);
        }
    }
    Ok(out)
}

/// The panel data of the rows `here` (cells of instance `i` at `delta`) with the bound curves
/// `lower` and `upper`: one [`Empirical`] per algorithm entry (a non-private entry's one cell at
/// every ε of the panel), the bounds on a fine grid, the regime switches.
fn panel(
    study: &Study,
    i: usize,
    delta: f64,
    here: &[(usize, &Row)],
    lower: &[LowerTime],
    upper: &[UpperKind],
    bounds: &mut BoundCache,
) -> Result<EpsPanelData> {
    let nu = &study.instances[i].instance;
    let mut eps: Vec<f64> = here.iter().filter_map(|(_, r)| r.eps).collect();
    eps.sort_by(f64::total_cmp);
    eps.dedup();
    let (lo, hi) = match (eps.first(), eps.last()) {
        (Some(&lo), Some(&hi)) if hi > lo => (lo, hi),
        (Some(&x), _) => (x / 2.0, x * 2.0),
        _ => (0.1, 10.0),
    };
    if eps.is_empty() {
        eps = vec![lo, hi];
    }
    let fine = crate::numbers::log_grid(lo / 1.3, hi * 1.3, 48);
    let d = Delta::new(delta)?;
    // Lower bounds: the privacy settings' first (black), the non-private one last.
    let mut kinds: Vec<LowerTime> = lower.to_vec();
    kinds.sort_by_key(|&k| k == LowerTime::Kl);
    let mut lower_bounds = Vec::new();
    for k in kinds {
        let y = fine
            .iter()
            .map(|&e| {
                let at = (k != LowerTime::Kl).then_some(e);
                Ok(bounds.time(study, i, k, at)? * k.log_factor(d))
            })
            .collect::<Result<Vec<f64>>>()?;
        lower_bounds.push(Curve {
            label: k.label(),
            x: fine.clone(),
            y,
            algorithm: None,
        });
    }
    // Upper bounds (the colour of their algorithm), Bernoulli arms only; a bound that changes
    // branch inside the range breaks there and its switch is marked.
    let (mut upper_bounds, mut upper_switches) = (Vec::new(), Vec::new());
    if study.instances[i].sigma.is_none() {
        let l1d = (1.0 / delta).ln();
        for &k in upper {
            let algorithm = study
                .cells
                .iter()
                .find(|c| upper_kind(&c.cell) == Some(k))
                .map(|c| study.algorithms[c.algorithm].label.clone());
            let switch =
                branch_switch(k, nu).filter(|(s, _)| *s > fine[0] && *s < fine[fine.len() - 1]);
            let mut x = fine.clone();
            if let Some((s, _)) = switch {
                x.extend(SWITCH_SIDES.map(|f| s * f));
                x.sort_by(f64::total_cmp);
            }
            let mut y = x
                .iter()
                .map(|&e| {
                    let at = (k != UpperKind::DpaTt).then_some(e);
                    Ok(upper_per_log(nu, k, at, 0.5)? * l1d)
                })
                .collect::<Result<Vec<f64>>>()?;
            if let Some((s, label)) = switch {
                let at = x.partition_point(|&e| e <= s);
                x.insert(at, s);
                y.insert(at, f64::NAN);
                upper_switches.push(BranchSwitch {
                    label: label.to_string(),
                    x: s,
                    algorithm: algorithm.clone().unwrap_or_default(),
                    note: format!("{} switch {}", k.as_str(), short(s)),
                });
            }
            upper_bounds.push(Curve {
                label: format!("upper bound × log(1/δ), {} ({ASYMPTOTIC})", k.as_str()),
                x,
                y,
                algorithm,
            });
        }
    }
    // Regime switches.
    let mut switches = Vec::new();
    if study.switches {
        let (g, l) = switches_of(study, i)?;
        let has = |k: LowerTime| here.iter().any(|(_, r)| r.lower_bound_kind == k);
        if has(LowerTime::Global) {
            switches.push(Switch {
                label: format!("global switch ε_g* = {}", short(g)),
                x: g,
                dashed: true,
                note: String::new(),
            });
        }
        if has(LowerTime::Local) {
            switches.push(Switch {
                label: format!("local switch ε_l* = {}", short(l)),
                x: l,
                dashed: false,
                note: String::new(),
            });
        }
    }
    // One summary per algorithm entry present, in the study's order.
    let mut empirical = Vec::new();
    for (a, alg) in study.algorithms.iter().enumerate() {
        let mine: Vec<&Row> = here
            .iter()
            .filter(|(c, _)| study.cells[*c].algorithm == a)
            .map(|(_, r)| *r)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let mut e = Empirical::named(alg.label.clone());
        for &x in &eps {
            let r = mine.iter().find(|r| r.eps.is_none_or(|re| re == x));
            e.push(r.map(|r| row_stats(r)), r.map_or(0, |r| r.max_steps));
        }
        empirical.push(e);
    }
    Ok(EpsPanelData {
        instance: format!(
            "{} (means {:?}), δ = {delta}",
            study.instances[i].name,
            nu.means()
        ),
        eps,
        empirical,
        lower_bounds,
        upper_bounds,
        upper_switches,
        theory_switch: None,
        paper_switch: None,
        switches,
        note: None,
    })
}

/// Legend label of the L. 52 branch switch of the AdaP-TT* upper bound (`adap-tt-star-lemma52`).
pub const L52_SWITCH_LABEL: &str = "AdaP-TT* bound (L. 52) changes branch at ε = Δ_max/3 (jump)";

/// Where the upper bound `k` changes branch and jumps, with the legend label of the switch:
/// Thm. 24 (main text) at `ε = 2Δ_max`, L. 52 at `ε = Δ_max/3` (`dpbai bounds` prints both).
fn branch_switch(k: UpperKind, nu: &Instance) -> Option<(f64, &'static str)> {
    match k {
        UpperKind::AdapTtStar => Some((adap_tt_star_switches(nu).0, THM24_SWITCH_LABEL)),
        UpperKind::AdapTtStarLemma52 => Some((adap_tt_star_switches(nu).1, L52_SWITCH_LABEL)),
        _ => None,
    }
}

/// The caption of a study figure: the cap of its cells, the points beyond an axis, and, when
/// it draws upper bounds, their regime and any branch switch.
fn caption(fig: &Figure, caps: &[u64]) -> String {
    let mut s: Vec<String> = cap_sentence(caps).into_iter().collect();
    s.extend(off_scale_sentence(count_off_scale(fig)));
    let has = |f: &dyn Fn(&Series) -> bool| fig.panels.iter().any(|p| p.series.iter().any(f));
    let upper = has(&|s| s.label.starts_with("upper bound"))
        || fig
            .panels
            .iter()
            .any(|p| p.hlines.iter().any(|h| h.label.starts_with("upper bound")));
    if upper {
        s.push(asymptotic_sentence());
    }
    let vline = |l: &str| {
        fig.panels
            .iter()
            .any(|p| p.vlines.iter().any(|v| v.label == l))
    };
    if vline(THM24_SWITCH_LABEL) {
        s.push(THM24_SENTENCE.to_string());
    }
    if vline(L52_SWITCH_LABEL) {
        s.push(L52_SENTENCE.to_string());
    }
    s.join(" ")
}

/// The L. 52 branch switch of AdaP-TT*'s bound (as `dpbai bounds` explains it).
const L52_SENTENCE: &str = "Dotted vertical line at ε = Δ_max/3: the L. 52 reading of \
     AdaP-TT*'s bound takes its g1 branch above it (Δ_max < 3ε) and jumps there.";

/// The sidecar statistics of a row's point.
fn row_stats(r: &Row) -> PointStats {
    PointStats {
        runs: r.runs,
        capped: r.capped,
        mean: r.mean_tau,
        mean_is_lower_bound: r.mean_is_lower_bound,
        ci95: r.ci95,
        std: r.std_tau,
        median: r.km_median,
        q25: r.km_q25,
        q75: r.km_q75,
        cell: Some(r.cell.to_string()),
    }
}

/// One figure per instance with slopes: mean τ against log(1/δ), the fitted lines, the lower
/// bounds `T*·log(1/(2.4δ))` and the upper lines. Returns the stems written.
///
/// # Errors
/// Bound or rendering failures.
pub fn render_delta_figures(
    study: &Study,
    rows: &[Row],
    dir: &Path,
    command: &str,
) -> Result<Vec<String>> {
    let slopes = crate::experiment::study::analysis::delta_slopes(study, rows)?;
    let mut out = Vec::new();
    for (i, inst) in study.instances.iter().enumerate() {
        let mine: Vec<&crate::experiment::study::analysis::Slope> = slopes
            .iter()
            .filter(|s| study.cells[s.rows[0]].instance == i)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let mut panels = Vec::new();
        for (g, sl) in mine.iter().enumerate() {
            let color = algo_color(g);
            let r0 = &rows[sl.rows[0]];
            let name = match r0.eps {
                Some(e) => format!("{} ε = {}", r0.label, short(e)),
                None => r0.label.clone(),
            };
            let mut p = Panel::new(name.clone(), "log(1/δ)", "mean τ (samples to stop)");
            p.y_log = true;
            p.subtitle = format!(
                "slope {} [{}, {}], T* = {}",
                short(sl.slope),
                short(sl.ci95[0]),
                short(sl.ci95[1]),
                short(sl.t_star)
            );
            let xs: Vec<f64> = sl
                .rows
                .iter()
                .map(|&k| (1.0 / rows[k].delta).ln())
                .collect();
            let ys: Vec<f64> = sl.rows.iter().map(|&k| rows[k].mean_tau).collect();
            let err: Vec<f64> = sl
                .rows
                .iter()
                .map(|&k| {
                    rows[k]
                        .ci95
                        .map_or(f64::NAN, |c| (c[1] - rows[k].mean_tau).max(0.0))
                })
                .collect();
            p.series.push(
                Series::new(
                    "mean τ (95% CI)",
                    xs.clone(),
                    ys,
                    SeriesStyle::Points,
                    color,
                )
                .with_err(err, ErrStyle::Bars)
                .with_points(sl.rows.iter().map(|&k| Some(row_stats(&rows[k]))).collect()),
            );
            let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = xs.iter().copied().fold(0.0, f64::max);
            let line = crate::numbers::log_grid(lo, hi, 24);
            p.series.push(Series::new(
                "weighted LS fit",
                line.clone(),
                line.iter().map(|x| sl.intercept + sl.slope * x).collect(),
                SeriesStyle::Line,
                color,
            ));
            p.series.push(Series::new(
                "lower bound T*·log(1/(2.4δ))",
                line.clone(),
                line.iter()
                    .map(|&x| sl.t_star * (x + (1.0f64 / 2.4).ln()))
                    .collect(),
                SeriesStyle::Dashed,
                BLACK_INDEX,
            ));
            if let Some(u) = sl.upper {
                p.series.push(Series::new(
                    format!("upper bound × log(1/δ) ({ASYMPTOTIC})"),
                    line.clone(),
                    line.iter().map(|&x| u * x).collect(),
                    SeriesStyle::Dotted,
                    GREY_INDEX,
                ));
            }
            panels.push(p);
        }
        let stem = format!("{}_vs_log_delta", inst.name);
        let fig = Figure::grid(
            format!(
                "{}: {} (means {:?})",
                study.title,
                inst.name,
                inst.instance.means()
            ),
            panels,
            3,
        );
        let caps: Vec<u64> = mine
            .iter()
            .flat_map(|sl| sl.rows.iter().map(|&k| rows[k].max_steps))
            .collect();
        let fig = {
            let c = caption(&fig, &caps);
            fig.with_caption(c)
        };
        let meta = serde_json::json!({
            "command": command,
            "version": env!("CARGO_PKG_VERSION"),
            "instance": inst.name, "means": inst.instance.means(),
            "fit": "weighted least squares of cell means on log(1/δ), weights n/max(s², 1); 95% interval of the slope: t quantile (cells - 2 df) times max(1, Birge ratio)",
            "slopes": mine.iter().map(|sl| serde_json::json!({
                "slope": sl.slope, "intercept": sl.intercept, "ci95": sl.ci95,
                "t_star": sl.t_star, "upper": sl.upper,
                "cells": sl.rows.iter().map(|&k| serde_json::json!({
                    "key": rows[k].key, "seed": rows[k].seed, "delta": rows[k].delta,
                    "runs": rows[k].runs, "mean_tau": rows[k].mean_tau, "std_tau": rows[k].std_tau,
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        });
        render_with_sidecar_at(&fig, &dir.join(&stem), meta, study.dpi)
            .map_err(|e| Error::figure(&stem, e))?;
        out.push(stem);
    }
    Ok(out)
}
