//! Traced runs: one trajectory of a Top Two algorithm on the plain step-by-step path, with its
//! internal invariants and allocation recorded (for `dpbai verify` and the tests).
//!
//! What is recorded, against READINGS.md §E.5:
//! * F.27 (L. 38): the range of `N^a_{n,a} − β·L_{n,a}` over all `n > K` and arms;
//! * F.28 (Sec. 4.3): the largest `N_{n,a}/Ñ_{n,a}` after the phase-switch step, phase >= 2;
//! * F.29 (L. 37): violations of `N_{T_k(a),a} = 2^{k−1}`, `Ñ_{k,a} = 2^{k−2}` (DPA: `2^{k−1}`);
//! * F.44 (L. 51): the time of every phase switch of every arm;
//! * F.45 (L. 46): the last time `min_a N_{n,a} < sqrt(n/K)`;
//! * F.17 (L. 16): the counts `N_{τ,a}`; and the allocation `N_{n,a}/n` at geometric times.

use super::algos::build_any;
use super::info::AlgoName;
use super::outcome::RunOutcome;
use super::spec::AlgoSpec;
use super::top_two::{Counters, Estimates, Observer};
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::rng::Rng;
use serde::Serialize;

/// The version of what a traced run records (cached traced runs carry it in their key,
/// [`crate::experiment::evidence`]): bump it when a [`Trace`] of the same run changes.
pub const TRACE_VERSION: u32 = 1;

/// What one traced run recorded.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Trace {
    /// The run's outcome.
    pub outcome: RunOutcome,
    /// Final counts `N_{τ,a}`.
    pub counts: Vec<u64>,
    /// Smallest `N^a_{n,a} − β·L_{n,a}` seen (F.27; `NaN` with IDS).
    pub tracking_min: f64,
    /// Largest `N^a_{n,a} − β·L_{n,a}` seen.
    pub tracking_max: f64,
    /// Largest `N_{n,a}/Ñ_{n,a}` after the switch step over arms in phase >= 2 (F.28).
    pub max_count_ratio: f64,
    /// Violations of the doubling invariant (F.29).
    pub doubling_violations: u64,
    /// Per arm, the iteration `n` of each phase switch (`T_k(a)`, k >= 2).
    pub switch_times: Vec<Vec<u64>>,
    /// Last sample count `n` at which `min_a N_{n,a} < sqrt(n/K)` (F.45).
    pub last_exploration_violation: u64,
    /// `(n, N_{n,a}/n)` at geometric times.
    pub snapshots: Vec<(u64, Vec<f64>)>,
}

struct Recorder {
    beta: f64,
    ids: bool,
    phased: bool,
    dpa: bool,
    k: usize,
    next_snapshot: u64,
    trace: Trace,
}

impl Observer for Recorder {
    fn step(&mut self, counters: &Counters, _est: &Estimates, _b: usize, _c: usize, _a: usize) {
        let t = &mut self.trace;
        if !self.ids {
            for x in 0..self.k {
                let d =
                    counters.leader_pulls[x] as f64 - self.beta * counters.leader_rounds[x] as f64;
                t.tracking_min = t.tracking_min.min(d);
                t.tracking_max = t.tracking_max.max(d);
            }
        }
        t.counts.copy_from_slice(&counters.n);
        let n = counters.t;
        let min_n = counters.n.iter().copied().min().unwrap_or(0) as f64;
        if min_n < (n as f64 / self.k as f64).sqrt() {
            t.last_exploration_violation = n;
        }
        if n >= self.next_snapshot {
            t.snapshots
                .push((n, counters.n.iter().map(|&c| c as f64 / n as f64).collect()));
            self.next_snapshot = (self.next_snapshot as f64 * 1.25).ceil() as u64;
        }
    }

    fn after_switch(&mut self, counters: &Counters, est: &Estimates, switched: bool) {
        if !self.phased {
            return;
        }
        let t = &mut self.trace;
        for x in 0..self.k {
            let k = est.phase[x];
            if k < 2 {
                continue;
            }
            if switched && t.switch_times[x].len() < (k - 1) as usize {
                t.switch_times[x].push(counters.t + 1);
            }
            let want_w = if self.dpa {
                1u64 << (k - 1)
            } else {
                1u64 << (k - 2)
            };
            if est.start[x] != 1u64 << (k - 1) || est.local_n[x] != want_w as f64 {
                t.doubling_violations += 1;
            }
            t.max_count_ratio = t.max_count_ratio.max(counters.n[x] as f64 / est.local_n[x]);
        }
    }
}

/// Runs `spec` on `instance` once on the plain step-by-step path, recording a [`Trace`].
///
/// # Errors
/// As [`super::build`]; DP-SE is not a Top Two algorithm and is rejected.
pub fn run_traced(
    spec: &AlgoSpec,
    instance: &Instance,
    rng: &mut Rng,
    max_steps: u64,
) -> Result<Trace> {
    crate::fault::check(crate::fault::Area::Mc)?;
    let _untracked = crate::fault::untracked();
    if spec.setting.algo == AlgoName::DpSe {
        return Err(Error::param(
            "algo",
            "dp-se",
            "a Top Two algorithm (DP-SE has no trace)",
        ));
    }
    let any = build_any(spec, instance)?;
    let k = instance.k();
    let mut rec = Recorder {
        beta: spec.setting.beta.get(),
        ids: spec.setting.ids_beta,
        phased: matches!(
            spec.setting.algo,
            AlgoName::AdapTt | AlgoName::AdapTtStar | AlgoName::DpaTt
        ),
        dpa: spec.setting.algo == AlgoName::DpaTt,
        k,
        next_snapshot: (4 * k) as u64,
        trace: Trace {
            outcome: RunOutcome {
                tau: 0,
                recommendation: 0,
                stopped: false,
                rounds: None,
            },
            counts: vec![0; k],
            tracking_min: if spec.setting.ids_beta {
                f64::NAN
            } else {
                f64::INFINITY
            },
            tracking_max: if spec.setting.ids_beta {
                f64::NAN
            } else {
                f64::NEG_INFINITY
            },
            max_count_ratio: 0.0,
            doubling_violations: 0,
            switch_times: vec![Vec::new(); k],
            last_exploration_violation: 0,
            snapshots: Vec::new(),
        },
    };
    // plain step-by-step path (`lazy = false`): every sample is observed
    let outcome = any.run_observed(rng, max_steps, false, &mut rec);
    let mut trace = rec.trace;
    trace.outcome = outcome;
    Ok(trace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bandit::Setting;
    use crate::rng::rng_for_run;

    #[test]
    fn trace_records_invariants_and_counts() {
        let nu = Instance::bernoulli(vec![0.9, 0.6, 0.5, 0.2]).expect("valid");
        for algo in [AlgoName::Ttucb, AlgoName::AdapTtStar, AlgoName::DpaTt] {
            let mut spec = AlgoSpec::new(Setting::paper(algo, 0.05).expect("valid δ"));
            spec.setting.eps = Some(crate::params::Epsilon::new(1.0).expect("valid ε"));
            let tr = run_traced(&spec, &nu, &mut rng_for_run(3, 0), 10_000_000).expect("runs");
            assert!(tr.outcome.stopped);
            assert_eq!(tr.counts.iter().sum::<u64>(), tr.outcome.tau, "Σ N_a = τ");
            assert!(tr.tracking_min >= -0.5 - 1e-12 && tr.tracking_max <= 1.0 + 1e-12);
            assert_eq!(tr.doubling_violations, 0);
            if algo != AlgoName::Ttucb {
                assert!(tr.max_count_ratio < 4.0 + 1e-12 || algo == AlgoName::DpaTt);
                assert!(tr.switch_times.iter().all(|s| !s.is_empty()));
            }
            assert!(!tr.snapshots.is_empty());
        }
        let mut spec = AlgoSpec::new(Setting::paper(AlgoName::DpSe, 0.05).expect("valid δ"));
        spec.setting.eps = Some(crate::params::Epsilon::new(1.0).expect("valid ε"));
        assert!(run_traced(&spec, &nu, &mut rng_for_run(3, 0), 100).is_err());
    }
}
