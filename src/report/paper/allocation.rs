//! The allocation figure (Figure 8 of REPORT.md): convergence of the empirical allocation
//! `N_a(n)/n` of each arm to the optimal allocation `w*_a`.

use serde::{Deserialize, Serialize};
use std::path::Path;

use super::builders::{columns, invalid};
use crate::bandit::AlgoName;
use crate::claims::Traces;
use crate::claims::dp_bai::evidence::paper_instance;
use crate::claims::dp_bai::trace::{TRACE_DELTA, TRACE_EPS};
use crate::complexity::{t_kl_beta_g_eps, t_kl_gaussian_beta};
use crate::error::{Error, Result};
use crate::plot::{
    BLACK_INDEX, ErrStyle, Figure, FigureResult, HLine, Panel, RefStyle, Series, SeriesStyle,
};
use crate::plot::{Rendered, render_with_sidecar};

/// One panel of the allocation figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AllocationPanelData {
    /// Panel title, e.g. `"μ4, AdaP-TT, ε = 0.1"`.
    pub title: String,
    /// Sample counts `n` at which the allocation was recorded.
    pub n: Vec<f64>,
    /// `fractions[a][j]` = mean of `N_a(n_j)/n_j` for arm `a`.
    pub fractions: Vec<Vec<f64>>,
    /// Optional standard deviations, same shape as `fractions` (drawn as bands).
    #[serde(default)]
    pub fraction_std: Option<Vec<Vec<f64>>>,
    /// Optimal allocation `w*_a` per arm (dashed horizontal lines).
    pub optimal: Vec<f64>,
}

/// Convergence of the empirical allocation: `N_a(n)/n` per arm versus `n` (log x), with
/// `± std` bands and the optimal allocation `w*_a` as dashed horizontal lines in the arm's colour.
///
/// # Errors
/// [`FigureError::Invalid`](crate::plot::FigureError::Invalid) on mismatched shapes.
///
/// # Example
/// ```
/// use dpbai::report::paper::builders::{allocation_figure, AllocationPanelData};
/// let panel = AllocationPanelData {
///     title: "μ4, TTUCB".into(),
///     n: vec![10.0, 100.0, 1000.0],
///     fractions: vec![vec![0.5, 0.55, 0.58], vec![0.5, 0.45, 0.42]],
///     fraction_std: None,
///     optimal: vec![0.6, 0.4],
/// };
/// let fig = allocation_figure("allocation", vec![panel]).unwrap();
/// assert_eq!(fig.panels[0].series.len(), 2); // one line per arm
/// ```
pub fn allocation_figure(title: &str, panels: Vec<AllocationPanelData>) -> FigureResult<Figure> {
    if panels.is_empty() {
        return invalid(format!("figure '{title}' has no panel"));
    }
    let mut out = Vec::with_capacity(panels.len());
    for p in &panels {
        let k = p.fractions.len();
        if p.optimal.len() != k {
            return invalid(format!(
                "panel '{}': {} arms of fractions but {} optimal weights",
                p.title,
                k,
                p.optimal.len()
            ));
        }
        if let Some(f) = p.fractions.iter().find(|f| f.len() != p.n.len()) {
            return invalid(format!(
                "panel '{}': {} sample counts n but an arm has {} fractions",
                p.title,
                p.n.len(),
                f.len()
            ));
        }
        if let Some(sd) = &p.fraction_std {
            if sd.len() != k || sd.iter().any(|s| s.len() != p.n.len()) {
                return invalid(format!(
                    "panel '{}': fraction_std does not have the shape of fractions",
                    p.title
                ));
            }
        }
        let mut panel = Panel::new(
            p.title.clone(),
            "samples n",
            "empirical allocation N_a(n)/n",
        );
        panel.x_log = true;
        for (a, f) in p.fractions.iter().enumerate() {
            let mut s = Series::new(
                format!("arm {}", a + 1),
                p.n.clone(),
                f.clone(),
                SeriesStyle::Line,
                a % 6,
            );
            if let Some(sd) = &p.fraction_std {
                s = s.with_err(sd[a].clone(), ErrStyle::Band);
            }
            panel.series.push(s);
            panel.hlines.push(HLine {
                stats: None,
                y: p.optimal[a],
                label: String::new(),
                style: RefStyle::Dashed,
                color: a % 6,
            });
        }
        // Legend-only entry explaining the dashed lines (a NaN line is never drawn).
        panel.hlines.push(HLine {
            stats: None,
            y: f64::NAN,
            label: "optimal allocation w*_a (dashed, colour of the arm)".to_string(),
            style: RefStyle::Dashed,
            color: BLACK_INDEX,
        });
        out.push(panel);
    }
    let ncols = columns(out.len());
    Ok(Figure::grid(title, out, ncols))
}

/// File stem of the allocation figure in `figures/`.
pub const ALLOCATION_STEM: &str = "fig8_allocation";
/// REPORT.md's description of the allocation figure in its list of figures.
pub const ALLOCATION_DESCRIPTION: &str =
    "Figure 8 (new): the empirical allocation N_n/n on μ4 converging to the β-optimal allocation";

/// The allocation-convergence figure: mean `N_{n,a}/n` versus `n` on μ4, with the β-optimal
/// allocations (Gaussian `ω*_{KL,1/2}(μ)` for TTUCB, CTB-TT, AdaP-TT; `ω*_{KL,1/2}(ν_{G,ε})` for
/// AdaP-TT*, L. 47–50).
///
/// # Errors
/// Solver or rendering failures.
pub fn render_allocation(t: &Traces, full: bool, dir: &Path, command: &str) -> Result<Rendered> {
    let nu = paper_instance(3);
    let mut panels = Vec::new();
    for (algo, tr) in &t.mu4 {
        if algo.info().batches.is_some() {
            continue;
        }
        let optimal = if *algo == AlgoName::AdapTtStar {
            t_kl_beta_g_eps(&nu, TRACE_EPS, 0.5)?.allocation
        } else {
            t_kl_gaussian_beta(&nu, 0.5, 0.5)?.allocation
        };
        // snapshot times are deterministic; keep those reached by at least half of the runs
        let longest = tr
            .iter()
            .max_by_key(|x| x.snapshots.len())
            .map(|x| x.snapshots.clone())
            .unwrap_or_default();
        let mut n = Vec::new();
        let mut fr: Vec<Vec<f64>> = vec![Vec::new(); nu.k()];
        for (j, (time, _)) in longest.iter().enumerate() {
            let here: Vec<&Vec<f64>> = tr
                .iter()
                .filter_map(|x| x.snapshots.get(j).map(|s| &s.1))
                .collect();
            if here.len() * 2 < tr.len() {
                break;
            }
            n.push(*time as f64);
            for (a, f) in fr.iter_mut().enumerate() {
                f.push(here.iter().map(|s| s[a]).sum::<f64>() / here.len() as f64);
            }
        }
        let eps = if *algo == AlgoName::CtbTt {
            ", ε = 1".to_string()
        } else if *algo == AlgoName::Ttucb {
            String::new()
        } else {
            format!(", ε = {TRACE_EPS}")
        };
        panels.push(AllocationPanelData {
            title: format!("{} on μ4{eps}", super::figures::algo_label(*algo)),
            n,
            fractions: fr,
            fraction_std: None,
            optimal,
        });
    }
    let fig = allocation_figure(
        &format!("Empirical allocation N_n/n versus the β-optimal allocation (β = 1/2, δ = {TRACE_DELTA:e})"),
        panels,
    )
    .map_err(|e| Error::figure(ALLOCATION_STEM, e))?;
    let meta = serde_json::json!({
        "figure": ALLOCATION_STEM, "command": command, "version": env!("CARGO_PKG_VERSION"),
        "runs_per_algorithm": if full { 100 } else { 20 }, "delta": TRACE_DELTA, "eps": TRACE_EPS,
        "seeds": "fnv1a(\"trace_mu4_<algo>\"), run r from rng_for_run(seed, r)",
        "mean": "mean over the runs that reached n (at least half of them)",
    });
    render_with_sidecar(&fig, &dir.join(ALLOCATION_STEM), meta)
        .map_err(|e| Error::figure(ALLOCATION_STEM, e))
}
