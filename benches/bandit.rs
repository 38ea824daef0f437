//! Benchmarks for `bandit` (divan): one run of each algorithm on μ1 = (0.95, 0.9, 0.9, 0.9, 0.5),
//! δ = 0.01, paper thresholds, fixed seed; throughput is reported in samples (items) per second.
//!
//! The `by_k` group runs every algorithm on `mu(K) = (0.95, 0.9 x (K - 2), 0.5)` for
//! K ∈ {2, 5, 20, 100} (the instances of `scripts/callgrind-per-sample.py`; `mu(5)` is μ1).
//!
//! `cargo bench --bench bandit -- --sample-count 10`

use dpbai::bandit::{AlgoName, AlgoSpec, BaiAlgorithm, Rules, build};
use dpbai::instance::Instance;
use dpbai::rng::rng_for_run;

fn main() {
    divan::main();
}

const CAP: u64 = 100_000_000;

fn algo(
    name: AlgoName,
    eps: f64,
    rules: Rules,
    step_by_step: bool,
    run: u64,
) -> (Box<dyn BaiAlgorithm>, u64) {
    let inst = Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).expect("mu1");
    let mut spec = AlgoSpec::new(dpbai::bandit::Setting::paper(name, 0.01).expect("valid δ"));
    // ε and γ only where the algorithm takes them (`build` refuses an option it does not take).
    if name.needs_eps() {
        spec.setting.eps = Some(dpbai::params::Epsilon::new(eps).expect("valid ε"));
    }
    if name == AlgoName::GaussLdpTt {
        spec.setting.gamma = Some(dpbai::params::Gamma::new(0.1).expect("valid γ"));
    }
    spec.setting.rules = rules;
    spec.step_by_step = step_by_step;
    let alg = build(&spec, &inst).expect("valid spec");
    // τ of the benchmarked run (a fixed seed gives a fixed trajectory); also warms caches.
    let tau = alg.run(&mut rng_for_run(1, run), CAP).tau;
    (alg, tau)
}

fn bench_run(b: divan::Bencher, name: AlgoName, eps: f64, rules: Rules, sbs: bool, run: u64) {
    let (alg, tau) = algo(name, eps, rules, sbs, run);
    b.counter(divan::counter::ItemsCount::new(tau))
        .bench(|| alg.run(&mut rng_for_run(1, run), CAP));
}

fn bench_one(b: divan::Bencher, name: AlgoName, eps: f64, rules: Rules, sbs: bool) {
    bench_run(b, name, eps, rules, sbs, 0);
}

#[divan::bench]
fn ttucb(b: divan::Bencher) {
    bench_one(b, AlgoName::Ttucb, 1.0, Rules::Paper, false);
}

#[divan::bench]
fn ttucb_reference(b: divan::Bencher) {
    bench_one(b, AlgoName::Ttucb, 1.0, Rules::Reference, false);
}

#[divan::bench]
fn ctb_tt_eps1(b: divan::Bencher) {
    bench_one(b, AlgoName::CtbTt, 1.0, Rules::Paper, false);
}

#[divan::bench]
fn gauss_ldp_tt_eps1(b: divan::Bencher) {
    bench_one(b, AlgoName::GaussLdpTt, 1.0, Rules::Paper, false);
}

#[divan::bench]
fn adap_tt_eps1(b: divan::Bencher) {
    bench_one(b, AlgoName::AdapTt, 1.0, Rules::Paper, false);
}

#[divan::bench]
fn adap_tt_eps1_step_by_step(b: divan::Bencher) {
    bench_one(b, AlgoName::AdapTt, 1.0, Rules::Paper, true);
}

#[divan::bench]
fn adap_tt_star_eps1(b: divan::Bencher) {
    bench_one(b, AlgoName::AdapTtStar, 1.0, Rules::Paper, false);
}

#[divan::bench]
fn adap_tt_star_eps001(b: divan::Bencher) {
    bench_one(b, AlgoName::AdapTtStar, 0.01, Rules::Paper, false);
}

#[divan::bench]
fn dpa_tt(b: divan::Bencher) {
    bench_one(b, AlgoName::DpaTt, 1.0, Rules::Paper, false);
}

/// \[BAI25\]'s DP-TT (η = 1, its poster threshold).
#[divan::bench]
fn dp_tt_eps1(b: divan::Bencher) {
    bench_one(b, AlgoName::DpTt, 1.0, Rules::Paper, false);
}

#[divan::bench]
fn dp_tt_eps1_step_by_step(b: divan::Bencher) {
    bench_one(b, AlgoName::DpTt, 1.0, Rules::Paper, true);
}

/// DP-TT's non-private reference (the GLR stopping rule with `gk16-bernoulli`).
#[divan::bench]
fn eb_tci(b: divan::Bencher) {
    bench_one(b, AlgoName::EbTci, 1.0, Rules::Paper, false);
}

/// Run 36 of seed 1 starves the best arm (READINGS.md / REPORT.md finding) and hits the 1e8 cap:
/// with phase skipping it costs O(K log τ), not 1e8 steps.
#[divan::bench]
fn adap_tt_star_eps001_starved(b: divan::Bencher) {
    bench_run(b, AlgoName::AdapTtStar, 0.01, Rules::Paper, false, 36);
}

/// A capped AdaP-TT run whose challenger rotates between two arms for 1e8 samples (run 2 of the
/// paper profile's μ5, ε = 0.001 cell: two arms starved by their first Laplace release), the
/// path of `rotate_steps`; and the same run step by step.
fn bench_rotating(b: divan::Bencher, step_by_step: bool) {
    let inst = Instance::bernoulli(vec![0.75, 0.53125, 0.375, 0.28125, 0.25]).expect("mu5");
    let mut spec =
        AlgoSpec::new(dpbai::bandit::Setting::paper(AlgoName::AdapTt, 0.01).expect("valid δ"));
    spec.setting.eps = Some(dpbai::params::Epsilon::new(0.001).expect("valid ε"));
    spec.step_by_step = step_by_step;
    let alg = build(&spec, &inst).expect("valid spec");
    let seed = 4_122_782_465_929_505_637;
    let tau = alg.run(&mut rng_for_run(seed, 2), CAP).tau;
    b.counter(divan::counter::ItemsCount::new(tau))
        .bench(|| alg.run(&mut rng_for_run(seed, 2), CAP));
}

#[divan::bench]
fn adap_tt_eps0001_rotating(b: divan::Bencher) {
    bench_rotating(b, false);
}

#[divan::bench]
fn adap_tt_eps0001_rotating_step_by_step(b: divan::Bencher) {
    bench_rotating(b, true);
}

/// One run of every algorithm on `mu(K) = (0.95, 0.9 x (K - 2), 0.5)`, the instances of
/// `scripts/callgrind-per-sample.py` (ε = 1 for the private algorithms, γ = 0.1, δ = 0.01, paper
/// rules, run 1 of seed 1). With the caps of the callgrind table in `benches/README.md`, so that a
/// sample stays short: TTUCB, CTB-TT and Gauss-LDP-TT runs are capped at 1e6 samples for K = 20
/// and 5e5 for K = 100, DP-TT and EB-TCI (\[BAI25\]) at 2e5 for K >= 20 (the cap of their
/// callgrind rows: a challenger cost or more at every step); the phased algorithms of the seed
/// paper (AdaP-TT, AdaP-TT\*, DPA-TT, DP-SE) run uncapped.
#[divan::bench_group]
mod by_k {
    use super::*;

    const ARMS: [usize; 4] = [2, 5, 20, 100];

    fn cap(name: AlgoName, k: usize) -> u64 {
        let phased = matches!(
            name,
            AlgoName::AdapTt | AlgoName::AdapTtStar | AlgoName::DpaTt | AlgoName::DpSe
        );
        let bai25 = matches!(name, AlgoName::DpTt | AlgoName::EbTci);
        match k {
            _ if phased => CAP,
            6.. if bai25 => 200_000,
            0..=5 => CAP,
            6..=20 => 1_000_000,
            _ => 500_000,
        }
    }

    fn bench_k(b: divan::Bencher, name: AlgoName, k: usize) {
        let mut means = vec![0.95];
        means.extend(std::iter::repeat_n(0.9, k - 2));
        means.push(0.5);
        let inst = Instance::bernoulli(means).expect("mu(K)");
        let mut setting = dpbai::bandit::Setting::paper(name, 0.01).expect("valid δ");
        if name.needs_eps() {
            setting.eps = Some(dpbai::params::Epsilon::new(1.0).expect("valid ε"));
        }
        if name == AlgoName::GaussLdpTt {
            setting.gamma = Some(dpbai::params::Gamma::new(0.1).expect("valid γ"));
        }
        let alg = build(&AlgoSpec::new(setting), &inst).expect("valid spec");
        let cap = cap(name, k);
        let tau = alg.run(&mut rng_for_run(1, 1), cap).tau;
        b.counter(divan::counter::ItemsCount::new(tau))
            .bench(|| alg.run(&mut rng_for_run(1, 1), cap));
    }

    #[divan::bench(args = ARMS)]
    fn ttucb(b: divan::Bencher, k: usize) {
        bench_k(b, AlgoName::Ttucb, k);
    }

    #[divan::bench(args = ARMS)]
    fn ctb_tt(b: divan::Bencher, k: usize) {
        bench_k(b, AlgoName::CtbTt, k);
    }

    #[divan::bench(args = ARMS)]
    fn gauss_ldp_tt(b: divan::Bencher, k: usize) {
        bench_k(b, AlgoName::GaussLdpTt, k);
    }

    #[divan::bench(args = ARMS)]
    fn adap_tt(b: divan::Bencher, k: usize) {
        bench_k(b, AlgoName::AdapTt, k);
    }

    #[divan::bench(args = ARMS)]
    fn adap_tt_star(b: divan::Bencher, k: usize) {
        bench_k(b, AlgoName::AdapTtStar, k);
    }

    #[divan::bench(args = ARMS)]
    fn dp_se(b: divan::Bencher, k: usize) {
        bench_k(b, AlgoName::DpSe, k);
    }

    #[divan::bench(args = ARMS)]
    fn dpa_tt(b: divan::Bencher, k: usize) {
        bench_k(b, AlgoName::DpaTt, k);
    }

    #[divan::bench(args = ARMS)]
    fn dp_tt(b: divan::Bencher, k: usize) {
        bench_k(b, AlgoName::DpTt, k);
    }

    #[divan::bench(args = ARMS)]
    fn eb_tci(b: divan::Bencher, k: usize) {
        bench_k(b, AlgoName::EbTci, k);
    }
}
