//! Internal invariants of the Top Two loop checked at every step (READINGS.md §E.5, CLAIMS.md F.27–F.29).

use super::algos::build_any;
use super::top_two::{Counters, Estimates, NoObs, Observer};
use super::{AlgoName, AlgoSpec, Setting};
use crate::instance::Instance;
use crate::rng::rng_for_run;

/// Checks L. 38 / F.27 (tracking), L. 37 / F.29 (doubling), Sec. 4.3 / F.28 (N < 4Ñ) and
/// `Σ_a N_a = t` (τ counts draws).
struct Checker {
    beta: f64,
    phased: bool,
    dpa: bool,
    ids: bool,
    steps: u64,
    switches: u64,
    k: usize,
}

impl Observer for Checker {
    fn step(&mut self, counters: &Counters, est: &Estimates, b: usize, c: usize, a: usize) {
        self.steps += 1;
        assert_ne!(b, c, "challenger differs from leader");
        assert!(a == b || a == c);
        assert_eq!(
            counters.n.iter().sum::<u64>(),
            counters.t,
            "Σ N_a = samples drawn"
        );
        if !self.ids {
            for x in 0..self.k {
                let d =
                    counters.leader_pulls[x] as f64 - self.beta * counters.leader_rounds[x] as f64;
                // L. 38: −1/2 <= N^a_{n,a} − β L_{n,a} <= 1 (hence |·| <= 1, F.27)
                assert!((-0.5 - 1e-12..=1.0 + 1e-12).contains(&d), "tracking: {d}");
            }
        }
        if !self.phased {
            for x in 0..self.k {
                assert_eq!(est.local_n[x], counters.n[x] as f64, "MLE: Ñ = N");
            }
        }
    }
    fn after_switch(&mut self, counters: &Counters, est: &Estimates, switched: bool) {
        if !self.phased {
            return;
        }
        self.switches += switched as u64;
        for x in 0..self.k {
            let k = est.phase[x];
            if k >= 2 {
                // L. 37 (F.29): N_{T_k(a),a} = 2^{k−1}, Ñ_{k,a} = 2^{k−2}.
                assert_eq!(est.start[x], 1u64 << (k - 1));
                if self.dpa {
                    // DPA (R.27): the estimate uses all N_{T_k(a),a} samples.
                    assert_eq!(est.local_n[x], (1u64 << (k - 1)) as f64);
                } else {
                    assert_eq!(est.local_n[x], (1u64 << (k - 2)) as f64);
                }
            } else {
                assert_eq!(est.start[x], 1);
                assert_eq!(est.local_n[x], 1.0);
            }
            // Sec. 4.3 (F.28): N_{n,a} < 4 Ñ_{n,a} after step (E) (phase >= 2; phase 1 has N = 1).
            assert!(
                (counters.n[x] as f64) < 4.0 * est.local_n[x] || (k == 1 && counters.n[x] == 1)
            );
        }
    }
}

fn check(algo: AlgoName, beta: f64, ids: bool, lazy: bool) {
    let inst = Instance::bernoulli(vec![0.9, 0.6, 0.5, 0.2]).unwrap();
    let mut spec = AlgoSpec::new(Setting::paper(algo, 0.05).expect("valid δ"));
    spec.setting.eps = Some(crate::params::Epsilon::new(1.0).expect("valid ε"));
    spec.setting.gamma = Some(crate::params::Gamma::new(0.1).expect("valid γ"));
    spec.setting.beta = crate::params::Beta::new(beta).expect("valid β");
    spec.setting.ids_beta = ids;
    let alg = build_any(&spec, &inst).unwrap();
    let phased = matches!(
        algo,
        AlgoName::AdapTt | AlgoName::AdapTtStar | AlgoName::DpaTt
    );
    for r in 0..5 {
        let mut obs = Checker {
            beta,
            phased,
            dpa: algo == AlgoName::DpaTt,
            ids,
            steps: 0,
            switches: 0,
            k: 4,
        };
        let mut rng = rng_for_run(11, r);
        let out = alg.run_observed(&mut rng, 200_000, lazy, &mut obs);
        // τ = K initial draws + one per main-loop step (R.9).
        assert_eq!(out.tau, 4 + obs.steps, "{algo:?}");
        if phased {
            assert!(obs.switches > 0);
            assert!(out.rounds.expect("phased") >= 4);
        }
    }
}

#[test]
fn invariants_hold_for_every_algorithm() {
    for algo in [
        AlgoName::Ttucb,
        AlgoName::CtbTt,
        AlgoName::GaussLdpTt,
        AlgoName::AdapTt,
        AlgoName::AdapTtStar,
        AlgoName::DpaTt,
    ] {
        for beta in [0.5, 0.3, 0.8] {
            check(algo, beta, false, false);
        }
        check(algo, 0.5, true, false);
        if matches!(
            algo,
            AlgoName::AdapTt | AlgoName::AdapTtStar | AlgoName::DpaTt
        ) {
            check(algo, 0.5, false, true);
            check(algo, 0.3, false, true);
        }
    }
}

/// DPA's global-episode variant (READINGS.md §D.8): one episode counter shared by all arms; an
/// episode closes exactly when every arm has doubled its count since the last one, and then
/// every estimate is refreshed from all `N_{T_k, a}` samples.
struct EpisodeChecker {
    prev_start: Vec<u64>,
    episodes: u64,
}

impl Observer for EpisodeChecker {
    fn after_switch(&mut self, counters: &Counters, est: &Estimates, switched: bool) {
        let k = est.phase[0];
        assert!(
            est.phase.iter().all(|&p| p == k),
            "one shared episode counter"
        );
        // The first call (right after the K initial pulls) reports `switched` for the initial
        // estimates.
        if switched && counters.t > 4 {
            self.episodes += 1;
            for a in 0..counters.n.len() {
                assert!(counters.n[a] >= 2 * self.prev_start[a], "every arm doubled");
                assert_eq!(est.start[a], counters.n[a]);
                assert_eq!(est.local_n[a], counters.n[a] as f64, "DPA: all samples");
            }
            self.prev_start.clone_from(&est.start);
        } else {
            // No episode may be left unclosed: some arm has not yet doubled.
            assert!(
                (0..counters.n.len()).any(|a| counters.n[a] < 2 * est.start[a]) || counters.t <= 4
            );
        }
    }
}

#[test]
fn global_episodes_refresh_every_arm_at_once() {
    // Gaussian arms: no ties among the initial estimates, so some episodes do close (with
    // Bernoulli arms most runs stall in the first one, REPORT.md finding 3).
    let inst = Instance::gaussian(vec![0.9, 0.6, 0.5, 0.2], 0.5).unwrap();
    let mut spec = AlgoSpec::new(Setting::paper(AlgoName::DpaTt, 0.05).expect("valid δ"));
    spec.setting.dpa_episodes = super::DpaEpisodes::Global;
    let alg = build_any(&spec, &inst).unwrap();
    let (mut episodes, mut stopped) = (0, 0);
    for lazy in [false, true] {
        for r in 0..20 {
            let mut obs = EpisodeChecker {
                prev_start: vec![1; 4],
                episodes: 0,
            };
            let out = alg.run_observed(&mut rng_for_run(12, r), 200_000, lazy, &mut obs);
            // C(τ) = k_τ = 1 + the number of closed episodes.
            assert_eq!(out.rounds, Some(1 + obs.episodes));
            episodes += obs.episodes;
            stopped += u64::from(out.stopped);
        }
    }
    assert!(
        episodes >= 40 && stopped > 0,
        "{episodes} episodes, {stopped} stopped"
    );
}

/// The deadlock of REPORT.md finding 3: on μ4 most runs never close their first episode, while
/// per-arm DPA stops every time.
#[test]
fn global_episodes_stall_on_bernoulli_ties() {
    let inst = Instance::bernoulli(vec![0.75, 0.625, 0.5, 0.375, 0.25]).unwrap();
    for (episodes, want_stalled) in [
        (super::DpaEpisodes::Global, true),
        (super::DpaEpisodes::PerArm, false),
    ] {
        let mut spec = AlgoSpec::new(Setting::paper(AlgoName::DpaTt, 0.01).expect("valid δ"));
        spec.setting.dpa_episodes = episodes;
        let alg = build_any(&spec, &inst).unwrap();
        let stalled = (0..50)
            .filter(|&r| {
                let out = alg.run_observed(&mut rng_for_run(13, r), 1_000_000, true, &mut NoObs);
                !out.stopped
            })
            .count();
        if want_stalled {
            assert!(stalled >= 40, "{stalled} of 50 stalled");
        } else {
            assert_eq!(stalled, 0);
        }
    }
}
