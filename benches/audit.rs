//! Benchmarks for `audit` (divan): evaluation cost of compiled threshold expressions
//! (target <= 100 ns per evaluation, issue 5), general vs run-bound programs.

use dpbai::audit::expr::{parse_threshold, ThresholdExpr};
use dpbai::bandit::ThresholdVars;
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
