//! Whole algorithms on neighbouring reward tables (Definition 8): the fixed tables, the
//! discrete features of a run, and the black-box test of an algorithm.

use super::blackbox::{BlackBox, Claim, sample_pair, sniper_discrete};
use crate::bandit::dp_tt::{DpTt, DpTtFault};
use crate::bandit::{self, AlgoName, AlgoSpec, BaiAlgorithm, RewardTable, Setting, TableOutput};
use crate::error::{Error, Result};
use crate::rng::{Rng, rng_for_run};

/// The algorithms with an ε-DP claim on reward tables, which `audit dp --algo` and
/// `audit dp --algo … --search` take: the seed paper's CTB-TT, AdaP-TT and AdaP-TT*, and
/// \[BAI25\]'s DP-TT (ε-global DP for rewards in `[0, 1]`, `bandit::dp_tt`'s module docs).
pub const TABLE_DP_ALGORITHMS: [AlgoName; 4] = [
    AlgoName::CtbTt,
    AlgoName::AdapTt,
    AlgoName::AdapTtStar,
    AlgoName::DpTt,
];

/// The names of [`TABLE_DP_ALGORITHMS`] for messages (`ctb-tt, adap-tt, adap-tt-star or dp-tt`).
pub fn table_dp_names() -> String {
    let n: Vec<&str> = TABLE_DP_ALGORITHMS.iter().map(|a| a.as_str()).collect();
    format!("{} or {}", n[..n.len() - 1].join(", "), n[n.len() - 1])
}

/// DP-TT with a planted release bug ([`DpTtFault`]), for the whole-algorithm mutants.
struct FaultyDpTt {
    inner: DpTt,
    fault: DpTtFault,
}

impl BaiAlgorithm for FaultyDpTt {
    fn name(&self) -> &str {
        "dp-tt-faulty"
    }
    fn run(&self, rng: &mut Rng, max_steps: u64) -> bandit::RunOutcome {
        self.inner.run(rng, max_steps)
    }
    fn run_on_table(&self, table: &RewardTable, rng: &mut Rng) -> Option<TableOutput> {
        self.inner.run_on_table_with(table, rng, self.fault)
    }
}

/// Neighbouring reward tables for the whole-algorithm audit (Definition 8): `K = 2`, rows drawn
/// once from `Ber(0.7) × Ber(0.3)` with a fixed seed; the neighbour flips row 1 (the first
/// user, whose reward of arm 1 every algorithm observes at `t = 1`).
pub(crate) fn neighbouring_tables(rows: usize) -> (RewardTable, RewardTable) {
    use rand::RngExt;
    let mut rng = rng_for_run(0xD1FF_7AB1E, 0);
    let d: RewardTable = (0..rows)
        .map(|_| {
            vec![
                f64::from(u8::from(rng.random::<f64>() < 0.7)),
                f64::from(u8::from(rng.random::<f64>() < 0.3)),
            ]
        })
        .collect();
    let mut d2 = d.clone();
    d2[0] = vec![1.0 - d[0][0], 1.0 - d[0][1]];
    (d, d2)
}

fn hash_of<T: std::hash::Hash>(v: &T) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

/// Names of [`table_features`].
pub(crate) const TABLE_FEATURES: [&str; 4] =
    ["output hash", "recommendation", "tau", "first 16 actions"];

/// The discrete features of a table run the black-box tester looks at.
pub(crate) fn table_features(o: Option<bandit::TableOutput>) -> Vec<u64> {
    match o {
        None => vec![0; 4],
        Some(o) => {
            let prefix: Vec<u32> = o.actions.iter().take(16).copied().collect();
            vec![
                hash_of(&o),
                o.recommendation as u64 * 2 + u64::from(o.stopped),
                o.actions.len() as u64 * 2 + u64::from(o.stopped),
                hash_of(&prefix),
            ]
        }
    }
}

/// The black-box test of `algo` run at `eps_run` (with the DP-TT release bug `fault`, if any)
/// against the claim `ε = eps` on [`neighbouring_tables`].
pub(super) fn blackbox_algorithm(
    algo: AlgoName,
    eps_run: f64,
    eps: f64,
    fault: Option<DpTtFault>,
    n: u64,
    seed: u64,
    alpha: f64,
) -> Result<(BlackBox, String)> {
    if !TABLE_DP_ALGORITHMS.contains(&algo) {
        return Err(Error::param(
            "algo",
            algo.as_str(),
            format!(
                "{} (the algorithms with an epsilon-DP claim on reward tables)",
                table_dp_names()
            ),
        ));
    }
    let rows = 400;
    let delta = 0.1;
    let instance = crate::instance::Instance::bernoulli(vec![0.7, 0.3])?;
    let spec = AlgoSpec::new(Setting::paper(algo, delta)?.with_eps(eps_run)?);
    let alg: Box<dyn BaiAlgorithm> = match fault {
        Some(fault) if algo == AlgoName::DpTt => Box::new(FaultyDpTt {
            inner: DpTt::new(&spec, &instance, spec.setting.eta.get())?,
            fault,
        }),
        Some(_) => {
            return Err(Error::param(
                "algo",
                algo.as_str(),
                "dp-tt for a release fault",
            ));
        }
        None => bandit::build(&spec, &instance)?,
    };
    let (d, d2) = neighbouring_tables(rows);
    let probe = alg.run_on_table(&d, &mut rng_for_run(seed, u64::MAX));
    if probe.is_none() {
        return Err(Error::param(
            "algo",
            algo.as_str(),
            "an algorithm that supports reward tables",
        ));
    }
    let (x, y) = sample_pair(n, seed, |i, rng| {
        table_features(alg.run_on_table(if i == 0 { &d } else { &d2 }, rng))
    });
    let bb = sniper_discrete(&x, &y, &TABLE_FEATURES, alpha, Claim::Pure { eps })?;
    let note = format!(
        "neighbouring reward tables of {rows} rows (K = 2, row 1 flipped), delta = {delta}; events on (actions, recommendation, tau)"
    );
    Ok((bb, note))
}
