//! The experiment grid of Section 5 / App. I as data: six Bernoulli instances, δ = 0.01,
//! local-DP algorithms (CTB-TT, TTUCB) and global-DP algorithms (AdaP-TT, AdaP-TT*, DP-SE,
//! TTUCB) over ε grids, at two sizes: `quick` (the README's main command) and `paper`; the
//! DPA-TT cells along δ; the public code's rules on μ1, μ2; and the control cells of REPORT.md's
//! Findings ([`long_runs`] holds the long-run ones).

use super::run::{CellResult, CellRunner};
use super::Cell;
use crate::bandit::{AdapLeaderBonus, AlgoName, DpaEpisodes, LeaderCounts, Rules, Setting};
use crate::error::Result;
use crate::params::Delta;

pub mod long_runs;
pub mod threshold_control;

/// The six Bernoulli instances of the experiments (READINGS.md §G.1).
pub fn paper_instances() -> Vec<(&'static str, Vec<f64>)> {
    vec![
        ("mu1", vec![0.95, 0.9, 0.9, 0.9, 0.5]),
        ("mu2", vec![0.75, 0.7, 0.7, 0.7, 0.7]),
        ("mu3", vec![0.0, 0.25, 0.5, 0.75, 1.0]),
        ("mu4", vec![0.75, 0.625, 0.5, 0.375, 0.25]),
        ("mu5", vec![0.75, 0.53125, 0.375, 0.28125, 0.25]),
        ("mu6", vec![0.75, 0.71875, 0.625, 0.46875, 0.25]),
    ]
}

/// Sizes of one verification run.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    /// `quick` or `paper`.
    pub name: &'static str,
    /// Runs per cell.
    pub runs: u64,
    /// ε grid of the global-DP figures.
    pub global_eps: Vec<f64>,
    /// ε grid of the local-DP figures.
    pub local_eps: Vec<f64>,
    /// Risk.
    pub delta: f64,
    /// Cap on the samples of one run (a capped run is reported as unstopped).
    pub max_steps: u64,
}

/// The paper's global-DP ε grid (17 values, READINGS.md §G.2).
pub const PAPER_GLOBAL_EPS: [f64; 17] = [
    0.001, 0.005, 0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 10.0, 100.0, 1000.0,
];
/// The paper's local-DP ε grid restricted to ε >= 0.1 (Sec. 5.1: smaller ε is prohibitive),
/// plus ε = 2 and 4 where the paper places its empirical local switches (F.50).
pub const PAPER_LOCAL_EPS: [f64; 14] = [
    0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 2.0, 4.0, 10.0, 100.0,
];

/// ε values at which the public code's stopping times were measured (`data/public_code_runs.csv`).
pub const PUBLIC_CODE_EPS: [f64; 4] = [0.01, 0.1, 1.0, 10.0];

/// Risks of the low-privacy δ-slope cells (F.53's asymptotic comparison in log(1/δ)): the
/// secant slope of `E[τ]` between them estimates `limsup E[τ]/log(1/δ)`.
pub const SLOPE_DELTAS: [f64; 2] = [1e-8, 1e-16];

/// Risks of the DPA-TT cells (F.42's asymptotic trend in log(1/δ)).
pub const DPA_DELTAS: [f64; 4] = [1e-2, 1e-4, 1e-8, 1e-16];
/// The algorithm of the DPA cells (F.41, F.42, Finding 3): TTUCB batched by the DPA update.
pub const DPA_ALGO: AlgoName = AlgoName::DpaTt;

impl Profile {
    /// The named profile.
    pub fn named(name: &str) -> Option<Profile> {
        match name {
            "quick" => Some(Profile {
                name: "quick",
                runs: 100,
                // 0.05 puts every instance's theoretical switch ε_g* (μ2: 0.0702) inside the grid.
                global_eps: vec![0.05, 0.1, 0.2, 0.4, 1.0, 10.0, 1000.0],
                local_eps: vec![0.3, 0.5, 1.0, 2.0, 4.0, 10.0, 100.0],
                delta: 0.01,
                // Starved AdaP-TT(*) runs on μ1, μ2 never stop and burn the whole cap.
                max_steps: 30_000_000,
            }),
            "paper" => Some(Profile {
                name: "paper",
                runs: 1000,
                global_eps: PAPER_GLOBAL_EPS.to_vec(),
                local_eps: PAPER_LOCAL_EPS.to_vec(),
                delta: 0.01,
                max_steps: 200_000_000,
            }),
            _ => None,
        }
    }

    /// A cell of this profile (its runs, cap and δ; the paper's [`Setting::new`] otherwise).
    ///
    /// # Panics
    /// If the profile's `δ` or `eps` is out of range (the profiles' constants are not).
    pub fn cell(&self, instance: &str, means: &[f64], algo: AlgoName, eps: Option<f64>) -> Cell {
        let delta = Delta::new(self.delta).expect("invariant: the profiles' δ is in range");
        let mut setting = Setting::new(algo, delta);
        if let Some(e) = eps {
            setting = setting
                .with_eps(e)
                .expect("invariant: the profiles' ε are in range");
        }
        Cell {
            instance: instance.to_string(),
            means: means.to_vec(),
            sigma: None,
            setting,
            runs: self.runs,
            max_steps: self.max_steps,
            seed_salt: None,
            paired_seed: None,
            threshold: None,
        }
    }

    /// The DPA-TT (batched TTUCB) cell of F.41, F.42 and Finding 3: on μ4 (distinct means),
    /// at the profile's δ, with the paper's readings.
    fn dpa_cell(&self) -> Cell {
        let (name, means) = paper_instances().swap_remove(3);
        self.cell(name, &means, DPA_ALGO, None)
    }

    /// `cell` with its setting changed by `f`.
    fn with(cell: &Cell, f: impl FnOnce(&mut Setting)) -> Cell {
        let mut c = cell.clone();
        f(&mut c.setting);
        c
    }

    /// Every cell of the profile, cheapest first within each instance.
    pub fn cells(&self) -> Vec<Cell> {
        let mut out = Vec::new();
        for (name, means) in paper_instances() {
            let cell = |algo: AlgoName, eps: Option<f64>| self.cell(name, &means, algo, eps);
            // The non-private baseline enters every ratio claim (F.50, F.53) and is cheap:
            // estimate it ten times more precisely.
            out.push(Cell {
                runs: 10 * self.runs,
                ..cell(AlgoName::Ttucb, None)
            });
            for &e in &self.global_eps {
                out.push(cell(AlgoName::DpSe, Some(e)));
            }
            for &e in &self.local_eps {
                out.push(cell(AlgoName::CtbTt, Some(e)));
            }
            for &e in &self.global_eps {
                out.push(cell(AlgoName::AdapTtStar, Some(e)));
                out.push(cell(AlgoName::AdapTt, Some(e)));
            }
        }
        // F.42: DPA-TT (batched TTUCB) on μ4 (distinct means) along δ → 0.
        let dpa = self.dpa_cell();
        for &d in &DPA_DELTAS {
            out.push(Self::with(&dpa, |s| {
                s.delta = Delta::new(d).expect("invariant: DPA_DELTAS are in range");
            }));
        }
        // F.41: DPA-TT's global-episode variant (READINGS.md §D.8) on μ4 at the main δ.
        out.push(Self::with(&dpa, |s| s.dpa_episodes = DpaEpisodes::Global));
        out.extend(self.reference_cells());
        out.extend(self.slope_cells());
        out
    }

    /// F.53's δ-slope cells: on μ1 and μ2 at the largest global ε (low privacy), TTUCB and the
    /// AdaP-TT variants at each of [`SLOPE_DELTAS`], under both rule sets (AdaP-TT* only under
    /// the paper's rules: under the public code's it is AdaP-TT, see `bandit::algos`).
    pub fn slope_cells(&self) -> Vec<Cell> {
        let eps = self.global_eps.iter().copied().fold(f64::NAN, f64::max);
        let mut out = Vec::new();
        for rules in [Rules::Paper, Rules::Reference] {
            for (name, means) in paper_instances().into_iter().take(2) {
                for &d in &SLOPE_DELTAS {
                    let at = |algo: AlgoName, e: Option<f64>| {
                        Self::with(&self.cell(name, &means, algo, e), |s| {
                            s.rules = rules;
                            s.delta = Delta::new(d).expect("invariant: SLOPE_DELTAS are in range");
                        })
                    };
                    out.push(Cell {
                        runs: 10 * self.runs,
                        ..at(AlgoName::Ttucb, None)
                    });
                    out.push(at(AlgoName::AdapTt, Some(eps)));
                    if rules == Rules::Paper {
                        out.push(at(AlgoName::AdapTtStar, Some(eps)));
                    }
                }
            }
        }
        out
    }

    /// The cells under the public code's rules (`--rules reference`, READINGS.md §P) on the instances
    /// of Figures 1–2 (μ1, μ2): the empirical figure claims F.50–F.55 are judged under both rule
    /// sets, and the public-code block compares them with the public code's own runs (whose ε
    /// values [`PUBLIC_CODE_EPS`] are added to the global grid).
    pub fn reference_cells(&self) -> Vec<Cell> {
        let mut global: Vec<f64> = self.global_eps.clone();
        global.extend(PUBLIC_CODE_EPS);
        global.sort_by(f64::total_cmp);
        global.dedup();
        let mut out = Vec::new();
        for (name, means) in paper_instances().into_iter().take(2) {
            let cell = |algo: AlgoName, eps: Option<f64>| {
                Self::with(&self.cell(name, &means, algo, eps), |s| {
                    s.rules = Rules::Reference;
                })
            };
            out.push(Cell {
                runs: 10 * self.runs,
                ..cell(AlgoName::Ttucb, None)
            });
            for &e in &global {
                out.push(cell(AlgoName::DpSe, Some(e)));
            }
            for &e in &self.local_eps {
                out.push(cell(AlgoName::CtbTt, Some(e)));
            }
            for &e in &global {
                out.push(cell(AlgoName::AdapTtStar, Some(e)));
                out.push(cell(AlgoName::AdapTt, Some(e)));
            }
        }
        out
    }
}

/// ε of the AdaP-TT* control experiment: inside μ4's case-2 window `(2Δ_min, 2Δ_max) = (0.25, 1)`
/// and outside the window of μ4 without its easiest arm (`2Δ_max = 0.75`).
pub const CASE2_CONTROL_EPS: f64 = 0.8;

/// The control cells of the AdaP-TT* case-2 finding: AdaP-TT* and AdaP-TT at
/// [`CASE2_CONTROL_EPS`] on μ4 and on μ4 without its easiest arm (`mu4-drop5`, means
/// `(0.75, 0.625, 0.5, 0.375)`). In the `paper` profile the μ4 cells are grid cells (cache hits).
pub fn case2_control_cells(profile: &Profile) -> Vec<Cell> {
    let (name, means) = paper_instances().swap_remove(3);
    let mut out = Vec::new();
    for (inst, m) in [(name, &means[..]), ("mu4-drop5", &means[..means.len() - 1])] {
        for algo in [AlgoName::AdapTtStar, AlgoName::AdapTt] {
            out.push(profile.cell(inst, m, algo, Some(CASE2_CONTROL_EPS)));
        }
    }
    out
}

/// Means of the near-tie control instance of the starvation finding (Finding 1): distinct means,
/// so inside the theorems' assumption, with small gaps behind the best arm.
pub const NEAR_TIE: [f64; 5] = [0.75, 0.70, 0.69, 0.68, 0.67];
/// ε of the starvation control cells.
pub const STARVATION_EPS: f64 = 0.4;

/// The control cells of the starvation finding: AdaP-TT and AdaP-TT* at [`STARVATION_EPS`] on
/// μ2 (four tied arms) and on [`NEAR_TIE`] (distinct means), paper rules, the profile's runs
/// and cap. In the `paper` profile the μ2 cells are grid cells (cache hits).
pub fn starvation_control_cells(profile: &Profile) -> Vec<Cell> {
    let mu2 = paper_instances().swap_remove(1);
    let mut out = Vec::new();
    for (inst, m) in [(mu2.0, mu2.1.as_slice()), ("near-tie", &NEAR_TIE[..])] {
        for algo in [AlgoName::AdapTtStar, AlgoName::AdapTt] {
            push_with_log_n_control(&mut out, profile.cell(inst, m, algo, Some(STARVATION_EPS)));
        }
    }
    out
}

/// Pushes `cell`, then its control of Finding 1: the same cell with a leader bonus that grows
/// with `log ‖Ñ‖₁` (`--adap-leader-bonus eq11-log-n`).
pub fn push_with_log_n_control(out: &mut Vec<Cell>, cell: Cell) {
    let control = Profile::with(&cell, |s| s.adap_leader_bonus = AdapLeaderBonus::Eq11LogN)
        .paired_with(&cell);
    out.push(cell);
    out.push(control);
}

/// Cap of the live-count DPA control (step by step).
pub const LIVE_COUNTS_CAP: u64 = 1_000_000;

/// The control of the DPA global-episode finding (Finding 3): the global-episode DPA-TT cell
/// with its UCB leader on the live counts instead of the frozen local ones.
pub fn dpa_live_counts_cell(profile: &Profile) -> Cell {
    let cell = Profile::with(&profile.dpa_cell(), |s| {
        s.dpa_episodes = DpaEpisodes::Global;
        s.leader_counts = LeaderCounts::Global;
    });
    Cell {
        // Live counts disable the phase-skipping fast path: a lower cap keeps the control cheap
        // (the frozen-count cell's runs all hit the profile's cap).
        max_steps: LIVE_COUNTS_CAP.min(profile.max_steps),
        ..cell
    }
}

/// Results of a grid.
#[derive(Debug, Clone, Default)]
pub struct GridResults {
    /// One result per cell, in the order of [`Profile::cells`].
    pub cells: Vec<CellResult>,
}

impl GridResults {
    /// The results, in order: the entry point of the Monte Carlo evidence, empty while a fault
    /// is injected into `mc` ([`crate::fault`]).
    pub fn iter(&self) -> std::slice::Iter<'_, CellResult> {
        if crate::fault::injected(crate::fault::Area::Mc) {
            [].iter()
        } else {
            self.cells.iter()
        }
    }
    /// The result of (instance, algorithm, ε) under the paper's rules at the profile's main δ
    /// (the first such cell).
    pub fn get(&self, instance: &str, algo: AlgoName, eps: Option<f64>) -> Option<&CellResult> {
        self.get_rules(instance, algo, eps, Rules::Paper)
    }
    /// The result of (instance, algorithm, ε) under `rules` at the profile's main δ.
    pub fn get_rules(
        &self,
        instance: &str,
        algo: AlgoName,
        eps: Option<f64>,
        rules: Rules,
    ) -> Option<&CellResult> {
        self.iter().find(|c| {
            c.cell.instance == instance
                && c.cell.setting.algo == algo
                && c.cell.setting.eps_value() == eps
                && c.cell.setting.rules == rules
                && c.cell.setting.dpa_episodes == DpaEpisodes::PerArm
        })
    }
    /// The ε values of (instance, algorithm) under `rules`, increasing.
    pub fn eps_of(&self, instance: &str, algo: AlgoName, rules: Rules) -> Vec<f64> {
        let mut v: Vec<f64> = self
            .iter()
            .filter(|c| {
                c.cell.instance == instance
                    && c.cell.setting.algo == algo
                    && c.cell.setting.rules == rules
            })
            .filter_map(|c| c.cell.setting.eps_value())
            .collect();
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    }
    /// The cell of DPA-TT's global-episode variant, if the grid has one.
    pub fn dpa_global(&self) -> Option<&CellResult> {
        self.iter()
            .find(|c| c.cell.setting.dpa_episodes == DpaEpisodes::Global)
    }
    /// The per-arm-episode DPA-TT cell of `instance` at `δ` under the paper's rules (the cells of
    /// F.41, F.42 and Finding 3).
    pub fn dpa(&self, instance: &str, delta: f64) -> Option<&CellResult> {
        self.get_delta(instance, DPA_ALGO, None, delta)
    }
    /// The result of (instance, algorithm, ε, δ) under the paper's rules.
    pub fn get_delta(
        &self,
        instance: &str,
        algo: AlgoName,
        eps: Option<f64>,
        delta: f64,
    ) -> Option<&CellResult> {
        self.get_rules_delta(instance, algo, eps, Rules::Paper, delta)
    }
    /// The result of (instance, algorithm, ε, rules, δ).
    pub fn get_rules_delta(
        &self,
        instance: &str,
        algo: AlgoName,
        eps: Option<f64>,
        rules: Rules,
        delta: f64,
    ) -> Option<&CellResult> {
        self.iter().find(|c| {
            c.cell.instance == instance
                && c.cell.setting.algo == algo
                && c.cell.setting.eps_value() == eps
                && c.cell.setting.delta.get() == delta
                && c.cell.setting.rules == rules
                && c.cell.setting.dpa_episodes == DpaEpisodes::PerArm
        })
    }
}

/// Runs (or loads) every cell of `profile` with `runner`; `progress(done, total, &result)` is
/// called after each cell.
///
/// # Errors
/// The first failing cell's error.
pub fn run_grid(
    profile: &Profile,
    runner: &CellRunner,
    progress: &dyn Fn(usize, usize, &CellResult),
) -> Result<GridResults> {
    let cells = profile.cells();
    let total = cells.len();
    let mut out = GridResults::default();
    for (i, cell) in cells.iter().enumerate() {
        let r = runner.run(cell)?;
        progress(i + 1, total, &r);
        out.cells.push(r);
    }
    Ok(out)
}

#[cfg(test)]
mod study_equivalence_tmp {
    use super::*;
    use crate::experiment::grid::long_runs::*;
    use crate::experiment::grid::threshold_control::*;

    fn check(profile: &str) {
        let p = Profile::named(profile).unwrap();
        let text = std::fs::read_to_string(format!(
            "{}/verify/{profile}.toml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let study = crate::experiment::study::parse_study(&text, "x").unwrap();
        let of = |g: &[&str]| -> Vec<String> {
            study
                .cells
                .iter()
                .filter(|c| g.contains(&study.algorithms[c.algorithm].group.as_str()))
                .map(|c| format!("{} {}", c.cell.key(), c.cell.digest()))
                .collect()
        };
        let legacy = |cells: Vec<Cell>| -> Vec<String> {
            cells
                .iter()
                .map(|c| format!("{} {}", c.key(), c.digest()))
                .collect()
        };
        assert_eq!(
            of(&["grid", "dpa", "reference", "slope", "slope-reference"]),
            legacy(p.cells())
        );
        assert_eq!(of(&["case2"]), legacy(case2_control_cells(&p)));
        let mut st = starvation_control_cells(&p);
        assert_eq!(of(&["starvation"]), legacy(st.clone()));
        st.clear();
        assert_eq!(of(&["long-runs"]), legacy(long_run_cells(&p)));
        assert_eq!(of(&["small-eps"]), legacy(small_eps_cells(&p)));
        assert_eq!(of(&["threshold"]), legacy(threshold_control_cells(&p)));
        assert_eq!(of(&["feasibility"]), legacy(feasibility_cells(&p)));
        assert_eq!(of(&["live-counts"]), legacy(vec![dpa_live_counts_cell(&p)]));
    }

    #[test]
    fn quick_and_paper_studies_are_the_legacy_grid() {
        check("quick");
        check("paper");
    }
}
