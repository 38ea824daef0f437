//! Known-answer targets of the privacy audits: [`RrDaf`], a small ε-DP algorithm, and its
//! late-leak mutant, on which `audit dp --search` must find the leak the fixed tables miss
//! ([`crate::audit::dp_search`]).

use crate::bandit::{BaiAlgorithm, RewardTable, RunOutcome, TableOutput};
use crate::rng::Rng;
use rand::RngExt;

/// Round-robin DAF algorithm (module docs); `leak_from = Some(j)` drops the noise of releases
/// `j, j+1, …` (the mutant).
///
/// # Contract
/// As [`BaiAlgorithm`]; with `leak_from = None` it is `ε`-DP on reward tables (each reward enters
/// one release of sensitivity `1/L_j`, noised with `Lap(1/(ε L_j))`; actions are round robin;
/// stopping and recommendation read only releases).
#[derive(Debug, Clone)]
pub struct RrDaf {
    /// Arm means (for `run`).
    pub means: Vec<f64>,
    /// Risk of the stopping rule.
    pub delta: f64,
    /// Privacy budget.
    pub eps: f64,
    /// First release without noise (mutant), if any.
    pub leak_from: Option<u32>,
}

impl RrDaf {
    fn simulate(
        &self,
        reward: &mut dyn FnMut(usize, usize, &mut Rng) -> Option<f64>,
        rng: &mut Rng,
        max_steps: u64,
    ) -> TableOutput {
        let k = self.means.len();
        let mut actions = Vec::new();
        let mut sums = vec![0.0; k];
        let mut released = vec![0.0; k];
        let mut phase = 1u32;
        let mut in_phase = 0u64;
        let mut t = 0usize;
        loop {
            let len = 1u64 << (phase - 1);
            // One round: every arm once.
            for (a, s) in sums.iter_mut().enumerate() {
                if t as u64 >= max_steps {
                    return TableOutput {
                        actions,
                        recommendation: argmax(&released),
                        stopped: false,
                    };
                }
                let Some(r) = reward(t, a, rng) else {
                    return TableOutput {
                        actions,
                        recommendation: argmax(&released),
                        stopped: false,
                    };
                };
                *s += r;
                actions.push(a as u32);
                t += 1;
            }
            in_phase += 1;
            if in_phase == len {
                let lf = len as f64;
                for a in 0..k {
                    let noise = if self.leak_from.is_some_and(|j| phase >= j) {
                        0.0
                    } else {
                        crate::privacy::laplace_noise(1.0 / (self.eps * lf), rng)
                    };
                    released[a] = sums[a] / lf + noise;
                    sums[a] = 0.0;
                }
                let j = f64::from(phase);
                let l = (4.0 * j * j / self.delta).ln();
                let c = (l / (2.0 * lf)).sqrt() + l / (self.eps * lf);
                let best = argmax(&released);
                if (0..k).all(|b| b == best || released[best] - released[b] > c) {
                    return TableOutput {
                        actions,
                        recommendation: best,
                        stopped: true,
                    };
                }
                phase += 1;
                in_phase = 0;
            }
        }
    }
}

fn argmax(x: &[f64]) -> usize {
    let mut b = 0;
    for (i, v) in x.iter().enumerate() {
        if *v > x[b] {
            b = i;
        }
    }
    b
}

impl BaiAlgorithm for RrDaf {
    fn name(&self) -> &str {
        if self.leak_from.is_some() {
            "rr-daf-late-leak"
        } else {
            "rr-daf"
        }
    }
    fn run(&self, rng: &mut Rng, max_steps: u64) -> RunOutcome {
        let means = self.means.clone();
        let mut reward = |_t: usize, a: usize, rng: &mut Rng| {
            Some(f64::from(u8::from(rng.random::<f64>() < means[a])))
        };
        let o = self.simulate(&mut reward, rng, max_steps);
        RunOutcome {
            tau: o.actions.len() as u64,
            recommendation: o.recommendation,
            stopped: o.stopped,
            rounds: None,
        }
    }
    fn run_on_table(&self, table: &RewardTable, rng: &mut Rng) -> Option<TableOutput> {
        let mut reward =
            |t: usize, a: usize, _: &mut Rng| table.get(t).and_then(|row| row.get(a)).copied();
        Some(self.simulate(&mut reward, rng, u64::MAX))
    }
}
