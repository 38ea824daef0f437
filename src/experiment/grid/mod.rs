//! The results of a paper's Monte Carlo grid ([`GridResults`]) and how its claims look cells up:
//! by instance, algorithm, ε, δ and rule set. Which cells a grid holds is data: the study files
//! `verify/quick.toml` and `verify/paper.toml` (read by [`crate::claims`]).

use super::run::CellResult;
use crate::bandit::{AlgoName, DpaEpisodes, Rules};

/// The algorithm of the DPA cells (F.41, F.42, Finding 3): TTUCB batched by the DPA update.
pub const DPA_ALGO: AlgoName = AlgoName::DpaTt;

/// Results of a grid.
#[derive(Debug, Clone, Default)]
pub struct GridResults {
    /// One result per cell, in the order of the study's grid groups ([`crate::claims::dp_bai::evidence::GRID_GROUPS`]).
    pub cells: Vec<CellResult>,
}

impl GridResults {
    /// The results, in order: the entry point of the Monte Carlo evidence, empty while a fault
    /// is injected into `mc` ([`crate::fault`]).
    pub fn iter(&self) -> std::slice::Iter<'_, CellResult> {
        crate::fault::touch(crate::fault::Area::Mc);
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
    /// The risks of the per-arm-episode DPA-TT cells of `instance` under the paper's rules,
    /// decreasing.
    pub fn dpa_deltas(&self, instance: &str) -> Vec<f64> {
        self.deltas_of(instance, DPA_ALGO, Rules::Paper)
    }
    /// The risks of (instance, algorithm) under `rules` (per-arm episodes), decreasing.
    pub fn deltas_of(&self, instance: &str, algo: AlgoName, rules: Rules) -> Vec<f64> {
        let mut v: Vec<f64> = self
            .iter()
            .filter(|c| {
                c.cell.instance == instance
                    && c.cell.setting.algo == algo
                    && c.cell.setting.rules == rules
                    && c.cell.setting.dpa_episodes == DpaEpisodes::PerArm
            })
            .map(|c| c.cell.setting.delta.get())
            .collect();
        v.sort_by(|a, b| b.total_cmp(a));
        v.dedup();
        v
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
