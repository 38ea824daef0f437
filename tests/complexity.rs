//! Integration tests for `complexity`.
use dpbai::complexity::*;
use dpbai::instance::Instance;

#[test]
fn scratch() {
    let insts = vec![
        vec![0.95, 0.9, 0.9, 0.9, 0.5],
        vec![0.75, 0.7, 0.7, 0.7, 0.7],
        vec![0.0, 0.25, 0.5, 0.75, 1.0],
        vec![0.75, 0.625, 0.5, 0.375, 0.25],
    ];
    for m in insts {
        let nu = Instance::bernoulli(m.clone()).unwrap();
        println!("{:?}", m);
        for (n, k) in [
            ("kl", TimeKind::Kl),
            ("klg", TimeKind::KlGaussian { sigma: 0.5 }),
            ("klb", TimeKind::KlBeta { beta: 0.5 }),
            ("tv", TimeKind::Tv),
            ("tv2", TimeKind::Tv2),
            ("loc0.3", TimeKind::Local { eps: 0.3 }),
            ("loc0.8", TimeKind::Local { eps: 0.8 }),
            ("glob0.3", TimeKind::Global { eps: 0.3 }),
            ("glob1e-4", TimeKind::Global { eps: 1e-4 }),
            ("glob0.05", TimeKind::Global { eps: 0.05 }),
            ("geps0.3", TimeKind::KlGEps { eps: 0.3 }),
        ] {
            match characteristic_time(k, &nu) {
                Ok(c) => println!(
                    "  {n}: {:.12} [{:.3e}] {:?}",
                    c.value,
                    c.rel_width(),
                    c.allocation
                ),
                Err(e) => println!("  {n}: ERR {e}"),
            }
        }
    }
}
