//! Benchmarks for `audit` (divan): evaluation cost of compiled threshold expressions
//! (target <= 100 ns per evaluation), general vs run-bound programs.

use dpbai::bandit::ThresholdVars;
use dpbai::threshold::expr::{ThresholdExpr, parse_threshold};
use std::hint::black_box;

fn main() {
    divan::main();
}

fn vars() -> ThresholdVars {
    ThresholdVars {
        delta: 0.01,
        k: 5.0,
        eps: 0.5,
        sigma: 0.5,
        t: 1000.0,
        na: 64.0,
        nb: 128.0,
        ka: 8.0,
        kb: 9.0,
        gap: 0.1,
    }
}

fn bound(src: &str) -> ThresholdExpr {
    let v = vars();
    parse_threshold(src)
        .expect("parses")
        .bind(v.delta, v.k, v.eps, v.sigma)
        .expect("binds")
}

const EXPRS: [&str; 6] = [
    "log(1/delta)/20",
    "log((1+log(t))/delta)/sigma^2",
    "paper-cg",
    "paper-adap-tt",
    "paper-adap-tt-star",
    "ref-adap-tt",
];

/// Bound to the run constants (how `audit delta` uses them).
#[divan::bench(args = EXPRS)]
fn eval_bound(b: divan::Bencher, src: &str) {
    let e = bound(src);
    let v = vars();
    b.bench(|| e.eval(black_box(&v)));
}

/// Unbound: every run constant re-evaluated (worst case, e.g. cg() each time).
#[divan::bench(args = EXPRS)]
fn eval_general(b: divan::Bencher, src: &str) {
    let e = parse_threshold(src).expect("parses");
    let v = vars();
    b.bench(|| e.eval(black_box(&v)));
}

/// Parsing + compilation (done once per audit).
#[divan::bench(args = EXPRS)]
fn parse(src: &str) -> ThresholdExpr {
    parse_threshold(black_box(src)).expect("parses")
}

/// Bound, with `na` cycling over 4096 distinct values: memo misses for the expensive presets
/// (the TTUCB situation, where counts change at every step).
#[divan::bench(args = EXPRS)]
fn eval_bound_varying(b: divan::Bencher, src: &str) {
    let e = bound(src);
    let vs: Vec<ThresholdVars> = (0..4096)
        .map(|i| ThresholdVars {
            na: 64.0 + i as f64,
            ..vars()
        })
        .collect();
    let mut i = 0usize;
    b.bench_local(|| {
        i = (i + 1) & 4095;
        e.eval(black_box(&vs[i]))
    });
}

/// Same audit, built-in threshold against the compiled expression of the same rule (target
/// <= 2x): TTUCB on (0.6, 0.5 x4) at delta = 0.01, 20 fixed seeds per iteration. The
/// counter is the number of samples those runs draw, so divan's throughput is samples per
/// second (ns per sample = 1e9 / throughput).
#[divan::bench(args = ["built-in", "paper-cg", "log(1/delta)+2*log(4+log(na))+2*log(4+log(nb))+3"])]
fn audit_per_sample(b: divan::Bencher, thr: &str) {
    use dpbai::bandit::{AlgoName, AlgoSpec, CustomThreshold, build};
    use std::sync::Arc;
    let inst = dpbai::instance::Instance::bernoulli(vec![0.6, 0.5, 0.5, 0.5, 0.5]).expect("valid");
    let mut spec =
        AlgoSpec::new(dpbai::bandit::Setting::paper(AlgoName::Ttucb, 0.01).expect("valid δ"));
    if thr != "built-in" {
        let e = parse_threshold(thr)
            .expect("parses")
            .bind(0.01, 5.0, f64::INFINITY, 0.5)
            .expect("binds");
        spec.custom_threshold = Some(Arc::new(e) as Arc<dyn CustomThreshold>);
    }
    let alg = build(&spec, &inst).expect("builds");
    let runs = |alg: &dyn dpbai::bandit::BaiAlgorithm| -> u64 {
        (0..20u64)
            .map(|r| alg.run(&mut dpbai::rng::rng_for_run(7, r), 10_000_000).tau)
            .sum()
    };
    let samples = runs(alg.as_ref());
    b.counter(divan::counter::ItemsCount::new(samples))
        .bench(|| runs(black_box(alg.as_ref())));
}

/// A phased algorithm with its built-in threshold against the same paper threshold typed as an
/// expression (`--threshold paper-*`; none reads `t`, so both are tested at phase ends only;
/// target <= 1.3x): μ4 = (0.75, 0.625, 0.5, 0.375, 0.25) at δ = 0.01 and ε = 1, 20 fixed seeds
/// per iteration. The counter is the samples drawn, so divan's throughput is samples per second.
#[divan::bench(args = [
    "adap-tt built-in", "adap-tt paper-adap-tt",
    "adap-tt-star built-in", "adap-tt-star paper-adap-tt-star",
    "dpa-tt built-in", "dpa-tt paper-daf-inf",
    "dp-tt built-in", "dp-tt dp-tt-poster",
])]
fn phased_per_sample(b: divan::Bencher, case: &str) {
    per_sample(b, case);
}

/// The Top Two algorithms without phases, same measurement as [`phased_per_sample`] (target
/// <= 1.3x): TTUCB and CTB-TT with their built-in Eq. (4) threshold against `paper-cg`, the
/// same threshold typed as an expression, tested at every step as the built-in one is; and
/// TTUCB under the public code's rules against `ref-ttucb`, which reads `t`.
#[divan::bench(args = [
    "ttucb built-in", "ttucb paper-cg",
    "ctb-tt built-in", "ctb-tt paper-cg",
    "ttucb/reference built-in", "ttucb/reference ref-ttucb",
])]
fn top_two_per_sample(b: divan::Bencher, case: &str) {
    per_sample(b, case);
}

/// `case` is `"algo[/rules] threshold"`: the algorithm on μ4 at δ = 0.01 (ε = 1 where it takes
/// one), 20 fixed seeds per iteration, with its built-in threshold or the named preset or
/// expression.
fn per_sample(b: divan::Bencher, case: &str) {
    use dpbai::bandit::{AlgoName, AlgoSpec, CustomThreshold, Setting, build};
    use std::sync::Arc;
    let (algo, thr) = case.split_once(' ').expect("algo and threshold");
    let (algo, rules) = algo.split_once('/').unwrap_or((algo, "paper"));
    let algo: AlgoName = algo.parse().expect("an algorithm");
    let inst =
        dpbai::instance::Instance::bernoulli(vec![0.75, 0.625, 0.5, 0.375, 0.25]).expect("valid");
    let mut setting = Setting::paper(algo, 0.01).expect("valid δ");
    setting.rules = rules.parse().expect("paper or reference");
    if algo.info().takes("eps") {
        setting = setting.with_eps(1.0).expect("valid ε");
    }
    let mut spec = AlgoSpec::new(setting);
    if thr != "built-in" {
        // Bound to the run's constants and probed, as `dpbai run --threshold` and the audits
        // pass it (experiment::spec, audit::delta).
        let e = parse_threshold(thr).expect("parses");
        let base = dpbai::bandit::algos::threshold_constants(&spec.setting, &inst).expect("valid");
        let checked = dpbai::threshold::probe::bind_checked(&e, &base).expect("binds");
        spec.custom_threshold = Some(checked as Arc<dyn CustomThreshold>);
    }
    let alg = build(&spec, &inst).expect("builds");
    let runs = |alg: &dyn dpbai::bandit::BaiAlgorithm| -> u64 {
        (0..20u64)
            .map(|r| alg.run(&mut dpbai::rng::rng_for_run(7, r), 100_000_000).tau)
            .sum()
    };
    let samples = runs(alg.as_ref());
    b.counter(divan::counter::ItemsCount::new(samples))
        .bench(|| runs(black_box(alg.as_ref())));
}
