//! DP-TT and EB-TCI on a reward table (Definition 8 of the seed paper), for the black-box audit
//! of the whole algorithm (`dpbai audit dp --algo dp-tt`), and the two planted release bugs of
//! its whole-algorithm mutants ([`DpTtFault`]).
//!
//! The loop is the plain step-by-step reference of the parent module's docs (every challenger
//! cost recomputed at every step, (S) tested at every step) with the rewards read from a source
//! instead of drawn: the table's row `t` for the pull at time `t + 1`. Only the privacy noise
//! comes from the random stream, drawn in the order of `run` (one `Lap` draw per release, after
//! the reward that closes the phase). With the rewards drawn from the instance instead, the loop
//! gives `run`'s trajectories run for run (the tests check it), so the audited algorithm is the
//! one `dpbai run` runs.

use super::{DpTt, Side, next_boundary};
use crate::bandit::{RewardTable, TableOutput};
use crate::divergence::DEps;
use crate::privacy::laplace_noise;
use crate::rng::Rng;

/// A planted bug in DP-TT's releases, for `audit dp`'s whole-algorithm mutants (the faithful
/// algorithm is [`DpTtFault::NONE`]). The bugs are those of the release mechanism's mutants
/// (`dp-tt-half-scale`, `dp-tt-noiseless-phase`), planted in the whole run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DpTtFault {
    /// Factor on every Laplace scale (`1` faithful; `1/2` releases with `Lap(1/(2ε))`).
    pub scale_factor: f64,
    /// The release index (0-based per arm: `0` is the initial sample) released without noise
    /// in every arm (the noise is still drawn, so the random stream stays the faithful one's).
    pub noiseless_release: Option<u64>,
}

impl DpTtFault {
    /// No bug: the faithful DP-TT.
    pub const NONE: DpTtFault = DpTtFault {
        scale_factor: 1.0,
        noiseless_release: None,
    };
}

/// Per-arm state of the step-by-step loop.
#[derive(Debug, Clone, Default)]
struct Arm {
    /// Pulls `N_a`.
    n: u64,
    /// Releases so far (the phase index `k_a` for DP-TT; stays `0` for EB-TCI, as in `run`).
    k: u64,
    /// `(1 + η)^{k_a}`.
    power: f64,
    /// The count that ends the current phase.
    next: u64,
    /// Rewards since the last release.
    phase_sum: f64,
    /// `S̃_a`.
    released: f64,
    /// `Ñ_a`.
    nt: f64,
    /// `clip01(S̃_a/Ñ_a)`.
    mu: f64,
    /// `L_a`.
    lead: u64,
    /// `N^lead_a`.
    nlead: u64,
}

impl DpTt {
    /// [`DpTt::run_on_table_with`] without a fault: the faithful run on `table`.
    pub(super) fn run_on_table_faithful(
        &self,
        table: &RewardTable,
        rng: &mut Rng,
    ) -> Option<TableOutput> {
        self.run_on_table_with(table, rng, DpTtFault::NONE)
    }

    /// One run on `table` with the release bug `fault` ([`DpTtFault::NONE`]: the faithful
    /// algorithm, as [`crate::bandit::BaiAlgorithm::run_on_table`]); `None` if a row does not
    /// hold `K` rewards in `[0, 1]` (the domain of the privacy claim). The run stops by its rule
    /// or, unstopped, when the table runs out.
    pub fn run_on_table_with(
        &self,
        table: &RewardTable,
        rng: &mut Rng,
        fault: DpTtFault,
    ) -> Option<TableOutput> {
        let k = self.thr.len();
        if table
            .iter()
            .any(|row| row.len() != k || row.iter().any(|r| !(0.0..=1.0).contains(r)))
        {
            return None;
        }
        let mut reward = |t: usize, a: usize, _: &mut Rng| table.get(t).map(|row| row[a]);
        Some(self.simulate(&mut reward, rng, u64::MAX, fault))
    }

    /// The step-by-step loop on a reward source (`reward(t, a, rng)`: the reward of arm `a` at
    /// time `t + 1`, `None` when the source runs out).
    pub(super) fn simulate(
        &self,
        reward: &mut dyn FnMut(usize, usize, &mut Rng) -> Option<f64>,
        rng: &mut Rng,
        max_steps: u64,
        fault: DpTtFault,
    ) -> TableOutput {
        let k = self.thr.len();
        let e = DEps::new_unchecked(if self.eps.is_finite() { self.eps } else { 1.0 });
        let mut st = vec![Arm::default(); k];
        let mut actions: Vec<u32> = Vec::new();
        let end = |actions: Vec<u32>, recommendation: usize, stopped: bool| TableOutput {
            actions,
            recommendation,
            stopped,
        };
        for (a, s) in st.iter_mut().enumerate() {
            if actions.len() as u64 >= max_steps {
                return end(actions, 0, false);
            }
            let Some(r) = reward(actions.len(), a, rng) else {
                return end(actions, 0, false);
            };
            actions.push(a as u32);
            s.n = 1;
            s.phase_sum = r;
            s.power = 1.0;
            self.release_with(s, rng, fault);
        }
        let mut t = k as u64;
        loop {
            let l = leader(&st);
            if self.stops_plain(e, &st, l, t) {
                return end(actions, l, true);
            }
            if t >= max_steps {
                return end(actions, l, false);
            }
            let pull = if self.uniform {
                (t % k as u64) as usize
            } else {
                let s = &mut st[l];
                let take_leader = (s.nlead as f64) <= self.beta * (s.lead as f64 + 1.0);
                s.lead += 1;
                if take_leader {
                    s.nlead += 1;
                    l
                } else {
                    self.challenger_plain(e, &st, l)
                }
            };
            let Some(r) = reward(t as usize, pull, rng) else {
                return end(actions, l, false);
            };
            t += 1;
            actions.push(pull as u32);
            let s = &mut st[pull];
            s.n += 1;
            s.phase_sum += r;
            let released = match self.eta {
                Some(_) => s.n >= s.next,
                None => true,
            };
            if released {
                self.release_with(s, rng, fault);
            }
        }
    }

    /// One release of an arm (parent module's (E)), with the bug `fault`.
    fn release_with(&self, s: &mut Arm, rng: &mut Rng, fault: DpTtFault) {
        let noise = if self.eta.is_some() {
            let x = laplace_noise(fault.scale_factor / self.eps, rng);
            if fault.noiseless_release == Some(s.k) {
                0.0
            } else {
                x
            }
        } else {
            0.0
        };
        s.released += s.phase_sum + noise;
        s.phase_sum = 0.0;
        s.nt = s.n as f64;
        s.mu = (s.released / s.nt).clamp(0.0, 1.0);
        if let Some(eta) = self.eta {
            s.k += 1;
            s.power *= 1.0 + eta;
            s.next = next_boundary(s.power, s.n);
        }
    }

    /// (S) with every cost computed afresh.
    fn stops_plain(&self, e: DEps, st: &[Arm], l: usize, t: u64) -> bool {
        let lead = &st[l];
        (0..st.len()).all(|a| {
            a == l || {
                let o = &st[a];
                self.cost(e, lead.mu, o.mu, lead.nt, o.nt)
                    > self.threshold_plain(lead, o, st.len(), t)
            }
        })
    }

    /// The right-hand side of (S) for leader `l` and arm `a` (parent module's thresholds).
    fn threshold_plain(&self, l: &Arm, a: &Arm, k: usize, t: u64) -> f64 {
        let side = |x: &Arm| Side {
            mu: x.mu,
            nt: x.nt,
            k: x.k as f64,
        };
        self.rhs(k, t, side(l), side(a))
    }

    /// (C) with every cost computed afresh: `argmin_{a ≠ l} C(l, a, μ̃, N) + log N_a`, lowest
    /// index on ties.
    fn challenger_plain(&self, e: DEps, st: &[Arm], l: usize) -> usize {
        let (ml, nl) = (st[l].mu, st[l].n as f64);
        let mut best = usize::MAX;
        let mut best_v = f64::INFINITY;
        for (a, s) in st.iter().enumerate() {
            if a == l {
                continue;
            }
            let v = self.cost(e, ml, s.mu, nl, s.n as f64) + (s.n as f64).ln();
            if best == usize::MAX || v < best_v {
                best = a;
                best_v = v;
            }
        }
        best
    }
}

/// `argmax_a μ̃_a`, lowest index on ties.
fn leader(st: &[Arm]) -> usize {
    let mut b = 0;
    for a in 1..st.len() {
        if st[a].mu > st[b].mu {
            b = a;
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bandit::{AlgoName, AlgoSpec, BaiAlgorithm, Setting};
    use crate::instance::Instance;
    use crate::privacy::bernoulli_draw;
    use crate::rng::rng_for_run;

    fn build(algo: AlgoName, eps: Option<f64>, means: &[f64], eta: f64) -> DpTt {
        let mut s = Setting::paper(algo, 0.1).expect("valid δ");
        if let Some(e) = eps {
            s = s.with_eps(e).expect("valid ε");
        }
        let inst = Instance::bernoulli(means.to_vec()).expect("instance");
        DpTt::new(&AlgoSpec::new(s), &inst, eta).expect("builds")
    }

    /// With the rewards drawn from the instance, the table loop is `run`, run for run: the
    /// audited algorithm is the one that runs.
    #[test]
    fn the_table_loop_drawing_rewards_is_run() {
        type Case = (AlgoName, Option<f64>, &'static [f64], f64, u64);
        let cases: [Case; 5] = [
            (AlgoName::DpTt, Some(1.0), &[0.7, 0.3], 1.0, 1 << 20),
            (AlgoName::DpTt, Some(0.5), &[0.8, 0.6, 0.5], 0.5, 1 << 20),
            (AlgoName::DpTt, Some(4.0), &[0.6, 0.5], 1.0, 300),
            (AlgoName::EbTci, None, &[0.7, 0.5, 0.4], 1.0, 1 << 20),
            (AlgoName::EbTci, None, &[0.6, 0.55], 1.0, 200),
        ];
        for (algo, eps, means, eta, cap) in cases {
            let alg = build(algo, eps, means, eta);
            let mut stopped = 0;
            for r in 0..40 {
                let want = alg.run(&mut rng_for_run(11, r), cap);
                let mut draw = |_: usize, a: usize, rng: &mut Rng| {
                    Some(f64::from(u8::from(bernoulli_draw(alg.thr[a], rng))))
                };
                let got = alg.simulate(&mut draw, &mut rng_for_run(11, r), cap, DpTtFault::NONE);
                assert_eq!(got.actions.len() as u64, want.tau, "{algo:?} run {r}");
                assert_eq!(got.recommendation, want.recommendation, "{algo:?} run {r}");
                assert_eq!(got.stopped, want.stopped, "{algo:?} run {r}");
                stopped += u32::from(got.stopped);
            }
            if cap > 1000 {
                assert!(stopped > 0, "{algo:?}: some run stops");
            }
        }
    }

    /// A table run reads the table: the initial pulls are arms `0..K` and a table that runs out
    /// leaves the run unstopped with `τ` the table's length; rows outside `[0, 1]` or of the
    /// wrong length are refused.
    #[test]
    fn a_table_run_reads_the_table() {
        let alg = build(AlgoName::DpTt, Some(1.0), &[0.7, 0.3], 1.0);
        let table: RewardTable = (0..50).map(|t| vec![f64::from(t % 2), 0.0]).collect();
        let o = alg
            .run_on_table(&table, &mut rng_for_run(3, 0))
            .expect("a valid table");
        assert_eq!(&o.actions[..2], &[0, 1]);
        assert!(!o.stopped && o.actions.len() == 50, "{o:?}");
        assert!(
            alg.run_on_table(&vec![vec![0.5, 1.5]], &mut rng_for_run(3, 0))
                .is_none()
        );
        assert!(
            alg.run_on_table(&vec![vec![0.5]], &mut rng_for_run(3, 0))
                .is_none()
        );
    }

    /// The faults change the releases (and only them): a noiseless initial release makes the
    /// first leader the arm of the larger first reward, which the faithful run does not always do;
    /// the faithful fault is the faithful run.
    #[test]
    fn the_faults_change_the_releases() {
        let alg = build(AlgoName::DpTt, Some(1.0), &[0.7, 0.3], 1.0);
        let table: RewardTable = (0..40).map(|_| vec![0.0, 1.0]).collect();
        let noiseless = DpTtFault {
            scale_factor: 1.0,
            noiseless_release: Some(0),
        };
        let mut faithful_leads_0 = 0;
        for r in 0..200 {
            let f = alg
                .run_on_table(&table, &mut rng_for_run(5, r))
                .expect("valid");
            let g = alg
                .run_on_table_with(&table, &mut rng_for_run(5, r), DpTtFault::NONE)
                .expect("valid");
            assert_eq!(f, g);
            let m = alg
                .run_on_table_with(&table, &mut rng_for_run(5, r), noiseless)
                .expect("valid");
            // μ̃ = (0, 1) exactly: arm 1 leads and is pulled at t = 3.
            assert_eq!(m.actions[2], 1, "run {r}");
            faithful_leads_0 += u32::from(f.actions[2] == 0);
        }
        assert!(faithful_leads_0 > 0);
    }
}
