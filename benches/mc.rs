//! Benchmarks for `mc`: engine overhead per run (a toy algorithm that draws one number), DP-SE
//! runs, and the Clopper–Pearson bounds.
//!
//! `cargo bench --bench mc -- --sample-count 20`

use dpbai::bandit::{AlgoName, AlgoSpec, BaiAlgorithm, RunOutcome};
use dpbai::instance::Instance;
use dpbai::mc::{EngineConfig, simulate, summarize};
use dpbai::rng::Rng;
use dpbai::stats;
use rand::RngExt;

fn main() {
    divan::main();
}

/// A run that draws a single number: what remains is the engine's own cost per run (seeding the
/// generator, the rayon task, collecting the record).
struct Trivial;

impl BaiAlgorithm for Trivial {
    fn name(&self) -> &str {
        "trivial"
    }
    fn run(&self, rng: &mut Rng, _max_steps: u64) -> RunOutcome {
        RunOutcome {
            tau: 1 + (rng.random::<u64>() & 7),
            recommendation: 0,
            stopped: true,
            rounds: None,
        }
    }
}

/// 10 000 trivial runs on 1 thread, including the summary (divide by 1e4 for the per-run cost).
#[divan::bench]
fn engine_10k_trivial_runs_1_thread() -> f64 {
    let cfg = EngineConfig::new(1, 10_000);
    let recs = simulate(&Trivial, &cfg, &|| {}).expect("simulate");
    summarize(&recs, 0).expect("summary").mean_tau
}

/// Same on 2 threads.
#[divan::bench]
fn engine_10k_trivial_runs_2_threads() -> f64 {
    let mut cfg = EngineConfig::new(1, 10_000);
    cfg.threads = 2;
    let recs = simulate(&Trivial, &cfg, &|| {}).expect("simulate");
    summarize(&recs, 0).expect("summary").mean_tau
}

/// 100 DP-SE runs on μ1 at ε = 0.01, δ = 0.01, one thread (samples/s = total τ / time).
#[divan::bench]
fn dp_se_mu1_eps_0_01_100_runs(bencher: divan::Bencher) {
    let mut spec =
        AlgoSpec::new(dpbai::bandit::Setting::paper(AlgoName::DpSe, 0.01).expect("valid δ"));
    spec.setting.eps = Some(dpbai::params::Epsilon::new(0.01).expect("valid ε"));
    let nu = Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).expect("instance");
    let alg = dpbai::bandit::build(&spec, &nu).expect("dp-se");
    let cfg = EngineConfig::new(1, 100);
    let total = simulate(alg.as_ref(), &cfg, &|| {})
        .expect("simulate")
        .iter()
        .map(|r| r.outcome.tau)
        .sum::<u64>();
    eprintln!("dp-se mu1 eps=0.01: {total} samples per 100 runs");
    bencher.bench(|| {
        simulate(alg.as_ref(), &cfg, &|| {})
            .expect("simulate")
            .len()
    });
}

/// One two-sided Clopper–Pearson interval at n = 1000 and at n = 10^7.
#[divan::bench(args = [1_000u64, 10_000_000])]
fn clopper_pearson_95(n: u64) -> (f64, f64) {
    stats::clopper_pearson(divan::black_box(n / 3), n, 0.05).expect("cp")
}
