use dpbai::bandit::{build, AlgoName, AlgoSpec};
use dpbai::instance::Instance;
fn main() {
    let inst = Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
    let args: Vec<String> = std::env::args().collect();
    let eps: f64 = args.get(1).map(|s| s.parse().unwrap()).unwrap_or(1.0);
    let runs: u64 = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(20);
    for algo in AlgoName::ALL {
        if algo == AlgoName::DpSe {
            continue;
        }
        for rules in [dpbai::bandit::Rules::Paper, dpbai::bandit::Rules::Reference] {
            for sbs in [false, true] {
                if sbs
                    && !matches!(
                        algo,
                        AlgoName::AdapTt | AlgoName::AdapTtStar | AlgoName::DpaTt
                    )
                {
                    continue;
                }
                let mut spec = AlgoSpec::new(algo, 0.01);
                spec.eps = Some(eps);
                spec.gamma = Some(0.01);
                spec.rules = rules;
                spec.step_by_step = sbs;
                let a = build(&spec, &inst).unwrap();
                let t0 = std::time::Instant::now();
                let mut tot = 0u64;
                let mut err = 0;
                let mut uns = 0;
                for r in 0..runs {
                    let mut rng = dpbai::rng::rng_for_run(1, r);
                    let o = a.run(&mut rng, 50_000_000);
                    tot += o.tau;
                    if o.recommendation != 0 {
                        err += 1;
                    }
                    if !o.stopped {
                        uns += 1;
                    }
                }
                let el = t0.elapsed().as_secs_f64();
                println!("{:14} {:?} sbs={} mean_tau={:.0} err={} unstopped={} ns/sample={:.1} s/run={:.4}", algo.as_str(), rules, sbs, tot as f64 / runs as f64, err, uns, el * 1e9 / tot as f64, el / runs as f64);
            }
        }
    }
}
