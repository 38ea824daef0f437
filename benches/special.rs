//! Benchmarks for `special` (divan): targets of issue 2 are lambert_wm1 <= 100 ns,
//! c_g <= 2 us, zeta <= 200 ns per evaluation.
//!
//! Run sparingly: `cargo bench --bench special -- --sample-count 20`.

use divan::black_box;

fn main() {
    divan::main();
}

/// Inputs spread over the domain (incl. near the branch point for W).
const WM1_X: [f64; 8] = [
    -0.367_879_4,
    -0.36,
    -0.3,
    -0.2,
    -0.1,
    -1e-3,
    -1e-10,
    -1e-200,
];

#[divan::bench]
fn lambert_wm1() -> f64 {
    let mut s = 0.0;
    for &x in &WM1_X {
        s += dpbai::special::lambert_wm1(black_box(x)).unwrap_or(0.0);
    }
    s / WM1_X.len() as f64
}

#[divan::bench]
fn lambert_w0() -> f64 {
    let mut s = 0.0;
    for &x in &[-0.36, -0.2, 1e-3, 0.5, 3.0, 1e5, 1e100, 1e300] {
        s += dpbai::special::lambert_w0(black_box(x)).unwrap_or(0.0);
    }
    s / 8.0
}

#[divan::bench]
fn wbar_m1() -> f64 {
    let mut s = 0.0;
    for &x in &[1.0 + 1e-9, 1.1, 2.0, 5.0, 13.8, 30.0, 1e3, 1e8] {
        s += dpbai::special::wbar_m1(black_box(x)).unwrap_or(0.0);
    }
    s / 8.0
}

#[divan::bench]
fn zeta() -> f64 {
    let mut s = 0.0;
    for &x in &[1.0 + 1e-9, 1.2, 1.5, 1.76, 1.9, 2.0, 5.0, 40.0] {
        s += dpbai::special::zeta(black_box(x)).unwrap_or(0.0);
    }
    s / 8.0
}

#[divan::bench]
fn c_g() -> f64 {
    let mut s = 0.0;
    for &x in &[1e-3, 0.1, 1.0, 3.0, 10.0, 100.0, 1e4, 1e6] {
        s += dpbai::special::c_g(black_box(x)).unwrap_or(0.0);
    }
    s / 8.0
}

#[divan::bench]
fn g1() -> f64 {
    let mut s = 0.0;
    for &x in &[0.0, 1e-3, 0.5, 2.0, 12.0, 100.0, 1e3, 1e4] {
        s += dpbai::special::g1(black_box(x)).unwrap_or(0.0);
    }
    s / 8.0
}

#[divan::bench]
fn h() -> f64 {
    let mut s = 0.0;
    for &x in &[1.0, 2.0, 8.0, 100.0, 1e4, 1e6, 1e9, 1e12] {
        s += dpbai::special::h(black_box(x), 0.01, 5).unwrap_or(0.0);
    }
    s / 8.0
}
