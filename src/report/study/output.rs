//! The outputs of a study: `results.csv`, `figures/` (τ against ε per instance and δ) and
//! `SUMMARY.md`. Every output is a function of the study and its cells' records only (no
//! clock, no path, no thread count), so a resumed or sharded run writes the same bytes.

use super::config::{LowerKind, Study, UpperKind};
use super::{upper_per_log, BoundCache, Row};
use crate::complexity;
use crate::error::{Error, Result};
use crate::report::plot::{
    render_with_sidecar, ErrStyle, Figure, HLine, Panel, RefStyle, Series, SeriesStyle, VLine,
    BLACK_INDEX, GREY_INDEX,
};
use std::fmt::Write as _;
use std::path::Path;

/// Columns of `results.csv` (no comment lines: `pandas.read_csv` reads it as is). Empty
/// fields: `sigma` (Bernoulli), `eps` (non-private), `ci95_*` (capped runs or one run),
/// `km_*` (the Kaplan–Meier curve does not fall that far: beyond the cap), `upper_*` (no
/// asymptotic upper bound for this algorithm, rules or family).
pub const COLUMNS: [&str; 31] = [
    "instance",
    "family",
    "sigma",
    "algorithm",
    "algo",
    "rules",
    "delta",
    "eps",
    "runs",
    "capped",
    "mean_tau",
    "mean_is_lower_bound",
    "std_tau",
    "ci95_lo",
    "ci95_hi",
    "km_median",
    "km_q25",
    "km_q75",
    "errors",
    "error_rate",
    "error_ci_lo",
    "error_ci_hi",
    "lower_bound_kind",
    "lower_bound",
    "upper_bound_kind",
    "upper_bound",
    "ratio_to_lower",
    "seed",
    "max_steps",
    "key",
    "run_command",
];

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// `ε = x, ` for a private cell, nothing for a non-private one (SUMMARY.md's cell labels).
fn eps_part(eps: Option<f64>) -> String {
    eps.map(|e| format!("ε = {}, ", short(e)))
        .unwrap_or_default()
}

/// Writes `results.csv` (header [`COLUMNS`], one row per cell, numbers in Rust's shortest
/// round-trip form).
///
/// # Errors
/// I/O failures, as [`Error::Parse`] naming the file.
pub fn write_results(rows: &[Row], path: &Path) -> Result<()> {
    let io =
        |e: &dyn std::fmt::Display| Error::Parse(format!("cannot write {}: {e}", path.display()));
    let mut w = csv::Writer::from_path(path).map_err(|e| io(&e))?;
    w.write_record(COLUMNS).map_err(|e| io(&e))?;
    for r in rows {
        let rec: Vec<String> = vec![
            r.instance.clone(),
            r.family.into(),
            opt(r.sigma),
            r.label.clone(),
            r.algo.into(),
            r.rules.into(),
            r.delta.to_string(),
            opt(r.eps),
            r.runs.to_string(),
            r.capped.to_string(),
            r.mean_tau.to_string(),
            r.mean_is_lower_bound.to_string(),
            opt(r.std_tau),
            opt(r.ci95.map(|c| c[0])),
            opt(r.ci95.map(|c| c[1])),
            opt(r.km_median),
            opt(r.km_q25),
            opt(r.km_q75),
            r.errors.to_string(),
            r.error_rate.to_string(),
            r.error_ci[0].to_string(),
            r.error_ci[1].to_string(),
            r.lower_bound_kind.as_str().into(),
            r.lower_bound.to_string(),
            opt(r.upper_bound_kind.map(UpperKind::as_str)),
            opt(r.upper_bound),
            r.ratio_to_lower.to_string(),
            r.seed.to_string(),
            r.max_steps.to_string(),
            r.key.clone(),
            r.run_command.clone(),
        ];
        w.write_record(&rec).map_err(|e| io(&e))?;
    }
    w.flush().map_err(|e| io(&e))
}

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
fn num(x: f64) -> String {
    if x == 0.0 || (1e-3..1e5).contains(&x.abs()) {
        x.to_string()
    } else {
        format!("{x:e}")
    }
}

/// `n` log-spaced points over `[lo, hi]`.
fn log_space(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let (a, b) = (lo.ln(), hi.ln());
    (0..n)
        .map(|i| (a + (b - a) * i as f64 / (n - 1) as f64).exp())
        .collect()
}

/// Regime switches of instance `i`: `(ε_g*, ε_l*)` (`T_TV/T_KL`, `c⁻¹(T_TV2/T_KL)`).
///
/// # Errors
/// Solver failures.
pub fn switches(study: &Study, i: usize) -> Result<(f64, f64)> {
    let nu = &study.instances[i].instance;
    let t_kl = complexity::t_kl(nu)?.value;
    let g = complexity::t_tv(nu)?.value / t_kl;
    let l = complexity::c_local_inverse(complexity::t_tv2(nu)?.value / t_kl)?;
    Ok((g, l))
}

fn short(x: f64) -> String {
    if x == 0.0 || (1e-3..1e5).contains(&x.abs()) {
        format!("{}", (x * 1e4).round() / 1e4)
    } else {
        format!("{x:.3e}")
    }
}

/// Draws one figure per instance and δ into `dir` (PNG, SVG, sidecar JSON); `command` goes into
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
            let panel = panel(study, i, delta, &here, bounds)?;
            let fig = Figure::grid(format!("{}: {}", study.title, inst.name), vec![panel], 1);
            let cells: Vec<serde_json::Value> = here
                .iter()
                .map(|(_, r)| serde_json::to_value(r).unwrap_or(serde_json::Value::Null))
                .collect();
            let meta = serde_json::json!({
                "command": command,
                "version": env!("CARGO_PKG_VERSION"),
                "instance": inst.name, "means": inst.instance.means(), "sigma": inst.sigma,
                "delta": delta,
                "empirical": "per point: mean of tau over all runs with capped runs at the cap (open marker, '>=': a lower bound when capped > 0), error bar = 95% Student-t CI of the mean (absent when capped); non-private algorithms as horizontal lines",
                "bounds": "lower: T*·log(1/(2.4δ)) of the privacy setting; upper: dpbai bounds' asymptotic value (beta 1/2) times log(1/δ)",
                "cells": cells,
            });
            render_with_sidecar(&fig, &dir.join(&stem), meta)
                .map_err(|e| Error::Parse(format!("figure {stem}: {e}")))?;
            out.push(stem);
        }
    }
    Ok(out)
}

fn panel(
    study: &Study,
    i: usize,
    delta: f64,
    here: &[(usize, &Row)],
    bounds: &mut BoundCache,
) -> Result<Panel> {
    let nu = &study.instances[i].instance;
    let mut p = Panel::new(
        format!(
            "{} (means {:?}), δ = {delta}",
            study.instances[i].name,
            nu.means()
        ),
        "ε (privacy budget)",
        "τ (samples to stop)",
    );
    p.x_log = true;
    p.y_log = true;
    let eps: Vec<f64> = here.iter().filter_map(|(_, r)| r.eps).collect();
    let (lo, hi) = if eps.is_empty() {
        (0.1, 10.0)
    } else {
        (
            eps.iter().copied().fold(f64::INFINITY, f64::min),
            eps.iter().copied().fold(0.0, f64::max),
        )
    };
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        (lo / 2.0, hi * 2.0)
    };
    p.x_range = Some([lo / 1.3, hi * 1.3]);
    let dense = log_space(lo / 1.3, hi * 1.3, 48);
    let lf = complexity::log_factor(delta)?;
    // Lower bounds (black): dashed curves, the non-private one a horizontal line.
    for &k in &study.lower {
        let name = format!("lower bound, {}", k.as_str());
        if k == LowerKind::NonPrivate {
            p.hlines.push(HLine {
                y: bounds.time(study, i, k, None)? * lf,
                label: name,
                style: RefStyle::Dotted,
                color: BLACK_INDEX,
            });
            continue;
        }
        let y = dense
            .iter()
            .map(|&e| Ok(bounds.time(study, i, k, Some(e))? * lf))
            .collect::<Result<Vec<f64>>>()?;
        let color = if k == LowerKind::Global {
            BLACK_INDEX
        } else {
            GREY_INDEX
        };
        p.series.push(Series::new(
            name,
            dense.clone(),
            y,
            SeriesStyle::Dashed,
            color,
        ));
    }
    // Upper bounds (dotted, the colour of their algorithm), Bernoulli arms only.
    if study.instances[i].sigma.is_none() {
        for &k in &study.upper {
            let color = study
                .cells
                .iter()
                .find(|c| super::config::upper_kind(&c.cell) == Some(k))
                .map_or(GREY_INDEX, |c| algo_color(c.algorithm));
            let name = format!("upper bound, {} (asymptotic)", k.as_str());
            let l1d = (1.0 / delta).ln();
            if k == UpperKind::DpaTt {
                p.hlines.push(HLine {
                    y: upper_per_log(nu, k, None, 0.5)? * l1d,
                    label: name,
                    style: RefStyle::Dotted,
                    color,
                });
                continue;
            }
            let y = dense
                .iter()
                .map(|&e| Ok(upper_per_log(nu, k, Some(e), 0.5)? * l1d))
                .collect::<Result<Vec<f64>>>()?;
            p.series.push(Series::new(
                name,
                dense.clone(),
                y,
                SeriesStyle::Dotted,
                color,
            ));
        }
    }
    // Regime switches.
    if study.switches {
        let (g, l) = switches(study, i)?;
        let has = |k: LowerKind| here.iter().any(|(_, r)| r.lower_bound_kind == k);
        if has(LowerKind::Global) {
            p.vlines.push(VLine {
                x: g,
                x_hi: None,
                label: format!("global switch ε_g* = {}", short(g)),
                style: RefStyle::Dashed,
                color: GREY_INDEX,
            });
        }
        if has(LowerKind::Local) {
            p.vlines.push(VLine {
                x: l,
                x_hi: None,
                label: format!("local switch ε_l* = {}", short(l)),
                style: RefStyle::Dotted,
                color: GREY_INDEX,
            });
        }
    }
    // Empirical points, one colour per algorithm entry.
    for (a, alg) in study.algorithms.iter().enumerate() {
        let mine: Vec<&Row> = here
            .iter()
            .filter(|(c, _)| study.cells[*c].algorithm == a)
            .map(|(_, r)| *r)
            .collect();
        if mine.is_empty() {
            continue;
        }
        if mine[0].eps.is_none() {
            let r = mine[0];
            p.hlines.push(HLine {
                y: r.mean_tau,
                label: format!(
                    "{} (non-private){} τ = {}",
                    alg.label,
                    if r.mean_is_lower_bound { " ≥" } else { "" },
                    short(r.mean_tau)
                ),
                style: RefStyle::Solid,
                color: algo_color(a),
            });
            continue;
        }
        let (open, closed): (Vec<&Row>, Vec<&Row>) =
            mine.iter().partition(|r| r.mean_is_lower_bound);
        if !closed.is_empty() {
            let err: Vec<f64> = closed
                .iter()
                .map(|r| r.ci95.map_or(f64::NAN, |c| (c[1] - r.mean_tau).max(0.0)))
                .collect();
            p.series.push(
                Series::new(
                    alg.label.clone(),
                    closed.iter().filter_map(|r| r.eps).collect(),
                    closed.iter().map(|r| r.mean_tau).collect(),
                    SeriesStyle::LineAndPoints,
                    algo_color(a),
                )
                .with_err(err, ErrStyle::Bars),
            );
        }
        if !open.is_empty() {
            p.series.push(Series::new(
                format!("{} ≥ (capped runs)", alg.label),
                open.iter().filter_map(|r| r.eps).collect(),
                open.iter().map(|r| r.mean_tau).collect(),
                SeriesStyle::OpenPoints,
                algo_color(a),
            ));
        }
    }
    Ok(p)
}

/// Writes `SUMMARY.md`: per instance the regime switches, the cells whose error rate exceeds
/// δ (with the Clopper–Pearson interval), the range of the ratio to the lower bound per
/// algorithm and the capped cells.
///
/// # Errors
/// Solver failures; I/O as [`Error::Parse`].
pub fn write_summary(study: &Study, rows: &[Row], path: &Path, command: &str) -> Result<()> {
    let mut s = String::new();
    let _ = writeln!(s, "# {}\n", study.title);
    let _ = writeln!(
        s,
        "Generated by `{command}` (dpbai {}). {} cells; every number below is in `results.csv`, \
         whose `run_command` column reproduces any cell with `dpbai run`.\n",
        env!("CARGO_PKG_VERSION"),
        rows.len()
    );
    for (i, inst) in study.instances.iter().enumerate() {
        let mine: Vec<&Row> = rows
            .iter()
            .enumerate()
            .filter(|(k, _)| study.cells[*k].instance == i)
            .map(|(_, r)| r)
            .collect();
        let _ = writeln!(s, "## {}\n", inst.name);
        let fam = inst
            .sigma
            .map_or("Bernoulli".to_string(), |x| format!("Gaussian, σ = {x}"));
        let _ = writeln!(s, "Means {:?} ({fam}).\n", inst.instance.means());
        let (g, l) = switches(study, i)?;
        let per_arm: Vec<String> = (0..inst.instance.k())
            .filter(|&a| a != inst.instance.best())
            .map(|a| short(2.0 * (inst.instance.best_mean() - inst.instance.means()[a])))
            .collect();
        let _ = writeln!(
            s,
            "- Regime switches: global ε_g* = T_TV/T_KL = {}; local ε_l* = {}; per arm 2Δ_a = {}.",
            short(g),
            short(l),
            per_arm.join(", ")
        );
        let exceed: Vec<&&Row> = mine.iter().filter(|r| r.error_rate > r.delta).collect();
        if exceed.is_empty() {
            let _ = writeln!(s, "- Error rate above δ: none.");
        } else {
            let _ = writeln!(
                s,
                "- Error rate above δ ({} cells; *significant* when the 95% CI lies above δ):",
                exceed.len()
            );
            for r in exceed {
                let _ = writeln!(
                    s,
                    "  - {} {}δ = {}: {}/{} = {} (CI [{}, {}]){}",
                    r.label,
                    eps_part(r.eps),
                    num(r.delta),
                    r.errors,
                    r.runs,
                    short(r.error_rate),
                    short(r.error_ci[0]),
                    short(r.error_ci[1]),
                    if r.error_ci[0] > r.delta {
                        " *significant*"
                    } else {
                        ""
                    }
                );
            }
        }
        let _ = writeln!(s, "- Ratio mean τ / lower bound, per algorithm (range over its cells; `≥` when a cell has capped runs):");
        for alg in &study.algorithms {
            let of: Vec<&&Row> = mine.iter().filter(|r| r.label == alg.label).collect();
            if of.is_empty() {
                continue;
            }
            let lo = of
                .iter()
                .map(|r| r.ratio_to_lower)
                .fold(f64::INFINITY, f64::min);
            let hi = of.iter().map(|r| r.ratio_to_lower).fold(0.0, f64::max);
            let capped = of.iter().any(|r| r.mean_is_lower_bound);
            let _ = writeln!(
                s,
                "  - {} ({} lower bound): {} to {}{}",
                alg.label,
                of[0].lower_bound_kind.as_str(),
                short(lo),
                short(hi),
                if capped {
                    " (≥: some cells capped)"
                } else {
                    ""
                }
            );
        }
        let capped: Vec<&&Row> = mine.iter().filter(|r| r.capped > 0).collect();
        if capped.is_empty() {
            let _ = writeln!(s, "- Capped cells: none.");
        } else {
            let _ = writeln!(
                s,
                "- Capped cells (runs that hit the cap; their mean is a lower bound):"
            );
            for r in capped {
                let _ = writeln!(
                    s,
                    "  - {} {}δ = {}: {}/{} runs capped at {}, mean τ ≥ {}",
                    r.label,
                    eps_part(r.eps),
                    num(r.delta),
                    r.capped,
                    r.runs,
                    r.max_steps,
                    short(r.mean_tau)
                );
            }
        }
        let _ = writeln!(s);
    }
    summary_readings(study, rows, &mut s)?;
    summary_slopes(study, rows, &mut s)?;
    std::fs::write(path, s)
        .map_err(|e| Error::Parse(format!("cannot write {}: {e}", path.display())))
}

/// `SUMMARY.md`'s table of readings against the default reading.
fn summary_readings(study: &Study, rows: &[Row], s: &mut String) -> Result<()> {
    let cmp = super::analysis::readings(study, rows)?;
    if cmp.is_empty() {
        return Ok(());
    }
    let _ = writeln!(s, "## Readings against the default reading\n");
    let _ = writeln!(
        s,
        "Each cell whose algorithm differs from another cell of the study only by a `dpbai run` \
         option (a MATH.md §H reading; `gauss-ldp-tt` against `ctb-tt`) is compared with it: \
         ratio of mean τ with its 95% interval (delta method, Welch; cells with capped runs \
         left out). **differs**: the interval excludes 1.\n"
    );
    let _ = writeln!(
        s,
        "| instance | reading | default | δ | ε | mean τ | default mean τ | ratio [95% CI] | errors | default errors | |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|");
    let mut differs = 0;
    for c in &cmp {
        let (v, b) = (&rows[c.variant], &rows[c.base]);
        let d = c.ci95[0] > 1.0 || c.ci95[1] < 1.0;
        differs += usize::from(d);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} [{}, {}] | {}/{} | {}/{} | {} |",
            v.instance,
            v.label,
            b.label,
            num(v.delta),
            opt(v.eps.map(short)),
            short(v.mean_tau),
            short(b.mean_tau),
            short(c.ratio),
            short(c.ci95[0]),
            short(c.ci95[1]),
            v.errors,
            v.runs,
            b.errors,
            b.runs,
            if d { "**differs**" } else { "" }
        );
    }
    let _ = writeln!(
        s,
        "\n{differs} of {} comparisons differ at 95%.\n",
        cmp.len()
    );
    Ok(())
}

/// `SUMMARY.md`'s table of slopes in `log(1/δ)`.
fn summary_slopes(study: &Study, rows: &[Row], s: &mut String) -> Result<()> {
    let slopes = super::analysis::delta_slopes(study, rows)?;
    if slopes.is_empty() {
        return Ok(());
    }
    let _ = writeln!(s, "## Slope of E[τ] in log(1/δ)\n");
    let _ = writeln!(
        s,
        "Weighted least squares of the cell means on log(1/δ) (weights n/s²; 95% interval with \
         the t quantile of cells − 2 degrees of freedom, widened by the Birge ratio when the \
         line does not fit), per instance, algorithm and ε with at least three δ and no capped run. \
         The lower bound's slope is T* (of the algorithm's privacy setting); the upper slope is \
         the algorithm's asymptotic upper bound per unit of log(1/δ) (`dpbai bounds`; DPA-TT: \
         F.42's 2T^G_β).\n"
    );
    let _ = writeln!(
        s,
        "| instance | algorithm | ε | δ range | slope [95% CI] | T* | slope / T* | upper slope | slope / upper |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|");
    for sl in &slopes {
        let first = &rows[sl.rows[0]];
        let last = &rows[sl.rows[sl.rows.len() - 1]];
        let _ = writeln!(
            s,
            "| {} | {} | {} | {}–{} | {} [{}, {}] | {} | {} | {} | {} |",
            first.instance,
            first.label,
            opt(first.eps.map(short)),
            num(first.delta),
            num(last.delta),
            short(sl.slope),
            short(sl.ci95[0]),
            short(sl.ci95[1]),
            short(sl.t_star),
            short(sl.slope / sl.t_star),
            opt(sl.upper.map(short)),
            opt(sl.upper.map(|u| short(sl.slope / u))),
        );
    }
    let _ = writeln!(s);
    Ok(())
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
    let slopes = super::analysis::delta_slopes(study, rows)?;
    let mut out = Vec::new();
    for (i, inst) in study.instances.iter().enumerate() {
        let mine: Vec<&super::analysis::Slope> = slopes
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
                .with_err(err, ErrStyle::Bars),
            );
            let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = xs.iter().copied().fold(0.0, f64::max);
            let line = log_space(lo, hi, 24);
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
                    "asymptotic upper bound × log(1/δ)",
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
        render_with_sidecar(&fig, &dir.join(&stem), meta)
            .map_err(|e| Error::Parse(format!("figure {stem}: {e}")))?;
        out.push(stem);
    }
    Ok(out)
}

/// Reads back the `results.csv` that [`write_results`] wrote for `study` (e.g. a committed
/// study's outputs, for REPORT.md). Row `i` must be the study's cell `i` (same key, runs and
/// cap); the names of static columns (family, algo, rules, bound kinds) come from the cell.
///
/// # Errors
/// [`Error::Parse`] naming the file and the row: unreadable file, another column layout, a row
/// of another cell (the study file and its outputs are out of step), a bad number.
pub fn read_results(study: &Study, path: &Path) -> Result<Vec<Row>> {
    let bad = |what: String| Error::Parse(format!("{}: {what}", path.display()));
    let mut r = csv::Reader::from_path(path).map_err(|e| bad(e.to_string()))?;
    let header = r.headers().map_err(|e| bad(e.to_string()))?.clone();
    if header.iter().ne(COLUMNS.iter().copied()) {
        return Err(bad(
            "not a results.csv of this dpbai (its columns differ)".into()
        ));
    }
    let records: Vec<csv::StringRecord> = r
        .records()
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| bad(e.to_string()))?;
    if records.len() != study.cells.len() {
        return Err(bad(format!(
            "{} rows for the study's {} cells",
            records.len(),
            study.cells.len()
        )));
    }
    let col = |name: &str| {
        COLUMNS
            .iter()
            .position(|c| *c == name)
            .expect("invariant: a name of COLUMNS")
    };
    let mut rows = Vec::with_capacity(records.len());
    for (i, (rec, sc)) in records.iter().zip(&study.cells).enumerate() {
        let field = |name: &str| rec.get(col(name)).unwrap_or("");
        let num = |name: &str| -> Result<f64> {
            field(name)
                .parse::<f64>()
                .ok()
                .filter(|x| !x.is_nan())
                .ok_or_else(|| bad(format!("row {}: {name} = {:?}", i + 2, field(name))))
        };
        let opt_num = |name: &str| -> Result<Option<f64>> {
            if field(name).is_empty() {
                Ok(None)
            } else {
                num(name).map(Some)
            }
        };
        let count = |name: &str| -> Result<u64> {
            field(name)
                .parse::<u64>()
                .map_err(|_| bad(format!("row {}: {name} = {:?}", i + 2, field(name))))
        };
        let opt_count = |name: &str| -> Result<Option<u64>> {
            if field(name).is_empty() {
                Ok(None)
            } else {
                count(name).map(Some)
            }
        };
        let c = &sc.cell;
        if field("key") != c.key() || count("runs")? != c.runs || count("max_steps")? != c.max_steps
        {
            return Err(bad(format!(
                "row {} is not the study's cell {} ({} runs, cap {}): rerun the study",
                i + 2,
                c.key(),
                c.runs,
                c.max_steps
            )));
        }
        let upper_bound = opt_num("upper_bound")?;
        rows.push(Row {
            instance: c.instance.clone(),
            family: super::family_name(c),
            sigma: c.options.sigma,
            label: study.algorithms[sc.algorithm].label.clone(),
            algo: c.algo.as_str(),
            rules: crate::report::experiments::rules_str(c.rules),
            delta: c.delta,
            eps: c.eps,
            runs: c.runs,
            capped: count("capped")?,
            mean_tau: num("mean_tau")?,
            mean_is_lower_bound: field("mean_is_lower_bound") == "true",
            std_tau: opt_num("std_tau")?,
            ci95: opt_num("ci95_lo")?
                .zip(opt_num("ci95_hi")?)
                .map(|(a, b)| [a, b]),
            km_median: opt_count("km_median")?,
            km_q25: opt_count("km_q25")?,
            km_q75: opt_count("km_q75")?,
            errors: count("errors")?,
            error_rate: num("error_rate")?,
            error_ci: [num("error_ci_lo")?, num("error_ci_hi")?],
            lower_bound_kind: super::config::lower_kind(c.algo),
            lower_bound: num("lower_bound")?,
            upper_bound_kind: upper_bound.and(super::config::upper_kind(c)),
            upper_bound,
            ratio_to_lower: num("ratio_to_lower")?,
            seed: count("seed")?,
            max_steps: c.max_steps,
            key: c.key(),
            run_command: field("run_command").to_string(),
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::eps_part;

    #[test]
    fn non_private_cells_have_no_empty_epsilon_in_the_summary() {
        assert_eq!(eps_part(None), "");
        assert_eq!(eps_part(Some(0.5)), "ε = 0.5, ");
    }
}
