//! The plain numbers the paper-figure builders draw: bound curves, per-algorithm Monte Carlo
//! summaries over an ε grid, the panels, and which statistic a figure plots per point.

use serde::{Deserialize, Serialize};

use crate::plot::PointStats;

/// A named curve (a bound), on its own abscissae (e.g. a finer ε grid than the experiment).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    /// Legend label, e.g. `"lower bound T_g(μ;ε)·log(1/(2.4δ))"`.
    pub label: String,
    /// Abscissae.
    pub x: Vec<f64>,
    /// Values (non-finite values leave a gap).
    pub y: Vec<f64>,
    /// For an upper bound: the algorithm it bounds, so that it is drawn in that colour.
    #[serde(default)]
    pub algorithm: Option<String>,
}

/// Monte Carlo summary of one algorithm over an ε grid.
///
/// A cell with capped runs has a mean that is only a lower bound (capped runs counted at the
/// cap): it is drawn with an open marker under the label "… (≥, capped runs)" and no error bar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Empirical {
    /// Algorithm name (legend label; also keys the colour across panels).
    pub algorithm: String,
    /// Mean stopping time per ε over all runs, capped runs at the cap (NaN = no data).
    pub mean: Vec<f64>,
    /// Half-width of the 95% confidence interval of the mean per ε (NaN: none, e.g. capped).
    pub ci95: Vec<f64>,
    /// Sample standard deviation of `τ` per ε over all runs, capped runs at the cap (NaN:
    /// none; empty = not reported).
    #[serde(default)]
    pub std: Vec<f64>,
    /// Number of runs per ε (`0` = cell not run, drawn as missing); empty = not reported.
    #[serde(default)]
    pub runs: Vec<u64>,
    /// Capped runs per ε (empty = none).
    #[serde(default)]
    pub capped: Vec<u64>,
    /// The cap (`max_steps`) of the cell per ε (`0`: no cell; empty = not reported).
    #[serde(default)]
    pub cap: Vec<u64>,
    /// Kaplan–Meier median per ε (`None`: "> cap" or no data; empty = not reported).
    #[serde(default)]
    pub median: Vec<Option<u64>>,
    /// Kaplan–Meier first quartile per ε (as `median`).
    #[serde(default)]
    pub q25: Vec<Option<u64>>,
    /// Kaplan–Meier third quartile per ε (as `median`).
    #[serde(default)]
    pub q75: Vec<Option<u64>>,
    /// Digest of the cell behind each point (`None`: no cell; empty = not reported).
    #[serde(default)]
    pub cells: Vec<Option<String>>,
}

impl Empirical {
    /// A summary with no point reported yet: push one entry per ε into each field.
    pub fn named(algorithm: impl Into<String>) -> Self {
        Empirical {
            algorithm: algorithm.into(),
            mean: vec![],
            ci95: vec![],
            std: vec![],
            runs: vec![],
            capped: vec![],
            cap: vec![],
            median: vec![],
            q25: vec![],
            q75: vec![],
            cells: vec![],
        }
    }

    /// Appends one point: its statistics (`None`: no cell there) and its cell's cap.
    pub fn push(&mut self, p: Option<PointStats>, cap: u64) {
        self.mean.push(p.as_ref().map_or(f64::NAN, |p| p.mean));
        self.ci95.push(
            p.as_ref()
                .and_then(|p| Some(p.ci95?[1] - p.mean))
                .unwrap_or(f64::NAN),
        );
        self.std
            .push(p.as_ref().and_then(|p| p.std).unwrap_or(f64::NAN));
        self.runs.push(p.as_ref().map_or(0, |p| p.runs));
        self.capped.push(p.as_ref().map_or(0, |p| p.capped));
        self.cap.push(cap);
        self.median.push(p.as_ref().and_then(|p| p.median));
        self.q25.push(p.as_ref().and_then(|p| p.q25));
        self.q75.push(p.as_ref().and_then(|p| p.q75));
        self.cells.push(p.and_then(|p| p.cell));
    }

    /// The sidecar statistics of point `i` (`None` without a cell or runs).
    pub fn point(&self, i: usize) -> Option<PointStats> {
        let runs = self.runs.get(i).copied()?;
        if runs == 0 {
            return None;
        }
        let mean = self.mean[i];
        let capped = self.capped.get(i).copied().unwrap_or(0);
        let half = self.ci95[i];
        Some(PointStats {
            runs,
            capped,
            mean,
            mean_is_lower_bound: capped > 0,
            ci95: half.is_finite().then_some([mean - half, mean + half]),
            std: self.std.get(i).copied().filter(|s| s.is_finite()),
            median: self.median.get(i).copied().flatten(),
            q25: self.q25.get(i).copied().flatten(),
            q75: self.q75.get(i).copied().flatten(),
            cell: self.cells.get(i).cloned().flatten(),
        })
    }

    /// The summary restricted to the points `keep` (indices into its ε grid), every reported
    /// field alike.
    pub fn select(&self, keep: &[usize]) -> Empirical {
        fn pick<T: Clone>(v: &[T], keep: &[usize]) -> Vec<T> {
            if v.is_empty() {
                return vec![];
            }
            keep.iter().filter_map(|&i| v.get(i).cloned()).collect()
        }
        Empirical {
            algorithm: self.algorithm.clone(),
            mean: pick(&self.mean, keep),
            ci95: pick(&self.ci95, keep),
            std: pick(&self.std, keep),
            runs: pick(&self.runs, keep),
            capped: pick(&self.capped, keep),
            cap: pick(&self.cap, keep),
            median: pick(&self.median, keep),
            q25: pick(&self.q25, keep),
            q75: pick(&self.q75, keep),
            cells: pick(&self.cells, keep),
        }
    }
}

pub use crate::experiment::study::config::PointStat;

/// One panel (one instance) of a stopping-time-versus-ε figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EpsPanelData {
    /// Instance name shown as the panel title, e.g. `"μ1 = (0.95, 0.9, 0.9, 0.9, 0.5)"`.
    pub instance: String,
    /// The ε grid of the experiment.
    pub eps: Vec<f64>,
    /// One summary per algorithm, indexed like `eps`.
    pub empirical: Vec<Empirical>,
    /// Lower-bound curves `T·log(1/(2.4δ))` (dashed).
    #[serde(default)]
    pub lower_bounds: Vec<Curve>,
    /// Asymptotic upper-bound curves (dotted).
    #[serde(default)]
    pub upper_bounds: Vec<Curve>,
    /// Where an upper bound changes branch and jumps (e.g. Thm. 24 at `ε = 2Δ_max`): each is
    /// marked with a dotted vertical line in the colour of the algorithm bounded.
    #[serde(default)]
    pub upper_switches: Vec<BranchSwitch>,
    /// Theoretical regime switch (thin vertical line).
    #[serde(default)]
    pub theory_switch: Option<f64>,
    /// The paper's empirical switch read off its figure (shaded vertical line).
    #[serde(default)]
    pub paper_switch: Option<f64>,
    /// Other vertical lines (e.g. a study's regime switches `ε_g*`, `ε_l*`), after those above.
    #[serde(default)]
    pub switches: Vec<Switch>,
    /// A note for the panel's subtitle (e.g. that the panel has no cells).
    #[serde(default)]
    pub note: Option<String>,
}

/// A vertical line of a panel with its subtitle note.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Switch {
    /// Legend label.
    pub label: String,
    /// Position.
    pub x: f64,
    /// `true`: dashed; `false`: dotted.
    pub dashed: bool,
    /// Subtitle note (empty: none).
    pub note: String,
}

/// A point where an upper-bound curve changes branch (and jumps).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BranchSwitch {
    /// Legend label (the same in every panel, so that it appears once).
    pub label: String,
    /// Position, e.g. `2Δ_max`.
    pub x: f64,
    /// The algorithm whose bound switches (its colour).
    pub algorithm: String,
    /// Short subtitle note with the value, e.g. `"Thm. 24 switch 2Δ_max = 0.9"`.
    pub note: String,
}

/// One panel of the ratio figure: empirical stopping time over the lower bound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatioPanelData {
    /// Panel title (instance name).
    pub instance: String,
    /// The ε grid.
    pub eps: Vec<f64>,
    /// One summary per algorithm, indexed like `eps`.
    pub empirical: Vec<Empirical>,
    /// The lower bound `T*·log(1/(2.4δ))` at each ε (`> 0`).
    pub lower_bound: Vec<f64>,
}
