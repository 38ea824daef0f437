use dpbai::bandit::{build, AlgoName, AlgoSpec};
use dpbai::instance::Instance;
fn main() {
    let inst = Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
    let mut spec = AlgoSpec::new(AlgoName::AdapTtStar, 0.01);
    spec.eps = Some(0.01);
    let a = build(&spec, &inst).unwrap();
    let n: u64 = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(5);
    let t0 = std::time::Instant::now();
    let mut tot = 0;
    for r in 0..n {
        let o = a.run(&mut dpbai::rng::rng_for_run(1, r), 1_000_000_000);
        tot += o.tau;
    }
    let el = t0.elapsed().as_secs_f64();
    println!(
        "runs {n} mean tau {:.0} {:.2} ns/sample {:.3} s/run",
        tot as f64 / n as f64,
        el * 1e9 / tot as f64,
        el / n as f64
    );
}
