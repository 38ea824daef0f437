//! Benchmarks for `special` (divan), one evaluation per iteration, per input: targets
//! are lambert_wm1 <= 100 ns, c_g <= 2 us, zeta <= 200 ns per evaluation.
//!
//! Run sparingly (shared machine): `cargo bench --bench special -- --sample-count 20`.

use divan::black_box;

fn main() {
    divan::main();
}

/// Near the branch point (Halley on `s − log1p s`), mid range and the tail (crate + Newton).
#[divan::bench(args = [-0.367_879_4, -0.3, -0.1, -1e-3, -1e-200])]
fn lambert_wm1(x: f64) -> f64 {
    dpbai::special::lambert_wm1(black_box(x)).unwrap_or(0.0)
}

#[divan::bench(args = [-0.36, -0.2, 0.5, 3.0, 1e100])]
fn lambert_w0(x: f64) -> f64 {
    dpbai::special::lambert_w0(black_box(x)).unwrap_or(0.0)
}

#[divan::bench(args = [1.000_000_001, 2.0, 13.8, 1e8])]
fn wbar_m1(x: f64) -> f64 {
    dpbai::special::wbar_m1(black_box(x)).unwrap_or(0.0)
}

#[divan::bench(args = [1.000_000_001, 1.5, 1.76, 2.0, 40.0])]
fn zeta(s: f64) -> f64 {
    dpbai::special::zeta(black_box(s)).unwrap_or(0.0)
}

#[divan::bench(args = [1e-3, 1.0, 3.0, 100.0, 1e6])]
fn c_g(x: f64) -> f64 {
    dpbai::special::c_g(black_box(x)).unwrap_or(0.0)
}

#[divan::bench(args = [0.5, 12.0, 1e4])]
fn g1(y: f64) -> f64 {
    dpbai::special::g1(black_box(y)).unwrap_or(0.0)
}

#[divan::bench(args = [1.0, 8.0, 1e6])]
fn h(x: f64) -> f64 {
    dpbai::special::h(black_box(x), 0.01, 5).unwrap_or(0.0)
}
