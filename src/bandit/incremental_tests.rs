//! The incremental loop of the unphased algorithms (`top_two/mle_path.rs`) against the plain
//! loop (forced by an observer): identical outcomes, pulled arms, final counts and random
//! streams, run for run, for every unphased algorithm, both rule sets and the readings that
//! apply to them, on Bernoulli and Gaussian arms.

use super::algos::build_any;
use super::top_two::{DenseObs, NoObs};
use super::{AlgoName, AlgoSpec, ChallengerCounts, GaussLdpSigma, Rules, Setting};
use crate::instance::Instance;
use crate::rng::rng_for_run;
use rand::Rng as _;

fn same_runs(spec: &AlgoSpec, inst: &Instance, runs: u64, cap: u64) {
    let alg = build_any(spec, inst).expect("a valid spec");
    for r in 0..runs {
        let mut r2 = rng_for_run(11, r);
        let plain = alg.run_recorded(&mut r2, cap, false, None, &mut DenseObs);
        let after = r2.next_u64();
        // Both layouts of the incremental state, whatever K.
        for layout in [Some(false), Some(true)] {
            let mut r1 = rng_for_run(11, r);
            let fast = alg.run_recorded(&mut r1, cap, false, layout, &mut NoObs);
            let ctx = format!("{:?} {:?} run {r} {layout:?}", spec.setting, inst.means());
            if fast.1 != plain.1 {
                let i = fast.1.iter().zip(&plain.1).position(|(x, y)| x != y);
                panic!("actions differ at step {i:?}: {ctx}");
            }
            assert_eq!(fast, plain, "{ctx}");
            assert_eq!(r1.next_u64(), after, "random stream: {ctx}");
        }
    }
}

fn instances() -> Vec<Instance> {
    let mu = |k: usize| {
        let mut m = vec![0.95];
        m.extend(std::iter::repeat_n(0.9, k - 2));
        m.push(0.5);
        m
    };
    vec![
        Instance::bernoulli(mu(5)).expect("mu1"),
        Instance::bernoulli(vec![0.9, 0.1]).expect("k2"),
        Instance::bernoulli(vec![0.75, 0.7, 0.7, 0.7, 0.7]).expect("tied"),
        Instance::bernoulli(mu(24)).expect("k24: tree layout"),
        Instance::gaussian(vec![0.5, 0.0, 0.0, -0.2, -0.5], 1.0).expect("gauss"),
        Instance::gaussian(vec![1.0, 0.8, 0.8, 0.5], 0.5).expect("gauss"),
    ]
}

#[test]
fn incremental_loop_is_exact() {
    for algo in [AlgoName::Ttucb, AlgoName::CtbTt, AlgoName::GaussLdpTt] {
        for rules in [Rules::Paper, Rules::Reference] {
            for inst in instances() {
                if algo == AlgoName::CtbTt && inst.family() != crate::instance::Family::Bernoulli {
                    continue;
                }
                for variant in 0..4 {
                    let mut s = Setting::paper(algo, 0.01)
                        .expect("valid δ")
                        .with_eps(1.0)
                        .expect("valid ε")
                        .with_gamma(Some(0.1))
                        .expect("valid γ");
                    s.rules = rules;
                    match variant {
                        1 => s.ids_beta = true,
                        2 => s.challenger_counts = ChallengerCounts::Local,
                        3 => {
                            s.beta = crate::params::Beta::new(0.3).expect("valid β");
                            s.gauss_sigma = GaussLdpSigma::Printed;
                        }
                        _ => {}
                    }
                    same_runs(&AlgoSpec::new(s), &inst, 6, 60_000);
                }
            }
        }
    }
}
