use dpbai::bandit::{build, AlgoName, AlgoSpec};
use dpbai::instance::Instance;
fn main() {
    let inst = Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
    let args: Vec<String> = std::env::args().collect();
    let algo = if args[1] == "star" { AlgoName::AdapTtStar } else { AlgoName::AdapTt };
    let eps: f64 = args[2].parse().unwrap();
    let n: u64 = args[3].parse().unwrap();
    let cap: u64 = args[4].parse().unwrap();
    let mut spec = AlgoSpec::new(algo, 0.01);
    spec.eps = Some(eps);
    let a = build(&spec, &inst).unwrap();
    let t0 = std::time::Instant::now();
    let (mut tot, mut uns, mut err) = (0u64, 0, 0);
    for r in 0..n {
        let o = a.run(&mut dpbai::rng::rng_for_run(1, r), cap);
        tot += o.tau;
        uns += (!o.stopped) as u32;
        err += (o.stopped && o.recommendation != 0) as u32;
    }
    let el = t0.elapsed().as_secs_f64();
    println!("{algo:?} eps {eps} runs {n} unstopped {uns} errors {err} mean tau {:.0} {:.2} ns/sample {:.3} s/run", tot as f64 / n as f64, el * 1e9 / tot as f64, el / n as f64);
}
