//! Benchmarks for `complexity` (divan): the certified characteristic times at K = 5 (μ1 of the
//! paper) and K = 200. Targets: K = 5: T_KL <= 20 µs, T_ℓ and T_g <= 2 ms;
//! K = 200: each <= 200 ms.

use divan::black_box;
use dpbai::complexity::{TimeKind, characteristic_time};
use dpbai::instance::Instance;

fn main() {
    divan::main();
}

fn mu1() -> Instance {
    Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).expect("valid")
}

fn k200() -> Instance {
    // distinct means spread over (0.01, 0.99), best arm unique
    let m: Vec<f64> = (0..200)
        .map(|i| 0.99 - 0.98 * (i as f64 / 199.0).powf(1.5))
        .collect();
    Instance::bernoulli(m).expect("valid")
}

const KINDS: [(&str, TimeKind); 5] = [
    ("t_kl", TimeKind::Kl),
    ("t_kl_beta", TimeKind::KlBeta { beta: 0.5 }),
    ("t_tv", TimeKind::Tv),
    ("t_local_0.8", TimeKind::Local { eps: 0.8 }),
    ("t_global_0.3", TimeKind::Global { eps: 0.3 }),
];

#[divan::bench(args = [0, 1, 2, 3, 4])]
fn k5(bencher: divan::Bencher, i: usize) {
    let nu = mu1();
    let kind = KINDS[i].1;
    bencher.bench(|| characteristic_time(black_box(kind), black_box(&nu)).expect("converges"));
}

#[divan::bench(args = [0, 3, 4], sample_count = 10, sample_size = 1)]
fn k200_times(bencher: divan::Bencher, i: usize) {
    let nu = k200();
    let kind = KINDS[i].1;
    bencher.bench(|| characteristic_time(black_box(kind), black_box(&nu)).expect("converges"));
}

/// The eps-curve workload of `dpbai bounds --eps-grid 1e-4:1e4:100` (local + global times).
#[divan::bench(sample_count = 5, sample_size = 1)]
fn k5_eps_curve_100(bencher: divan::Bencher) {
    let nu = mu1();
    bencher.bench(|| {
        for i in 0..100 {
            let e = 10f64.powf(-4.0 + 8.0 * i as f64 / 99.0);
            characteristic_time(TimeKind::Local { eps: e }, &nu).expect("converges");
            characteristic_time(TimeKind::Global { eps: e }, &nu).expect("converges");
        }
    });
}
