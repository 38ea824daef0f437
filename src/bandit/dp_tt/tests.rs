use super::*;
use crate::bandit::Setting;
use crate::rng::rng_for_run;

fn spec(algo: AlgoName, eps: Option<f64>, beta: f64) -> AlgoSpec {
    let mut s = Setting::paper(algo, 0.05).expect("valid δ");
    if let Some(e) = eps {
        s = s.with_eps(e).expect("valid ε");
    }
    s.beta = crate::params::Beta::new(beta).expect("valid β");
    AlgoSpec::new(s)
}

fn bern(m: &[f64]) -> Instance {
    Instance::bernoulli(m.to_vec()).expect("instance")
}

/// The certified challenger (DP-TT: bounds of the costs, exact evaluations of the open arms;
/// EB-TCI: its stopping costs reused) gives the plain loop's trajectories run for run: same
/// stopping time, recommendation, rounds and final counts. Cases: K = 2, 4, 5, 20, near ties,
/// ε from 0.01 to 100.
#[test]
fn the_lazy_challenger_is_the_plain_one() {
    let k20: Vec<f64> = (0..20).map(|i| 0.9 - 0.02 * i as f64).collect();
    let cases: [(AlgoName, Option<f64>, f64, &[f64]); 13] = [
        (AlgoName::DpTt, Some(1.0), 0.5, &[0.7, 0.6, 0.6, 0.5]),
        (AlgoName::DpTt, Some(1.0), 0.5, &[0.95, 0.9, 0.9, 0.9, 0.5]),
        (AlgoName::DpTt, Some(1.0), 0.5, &[0.6, 0.5]),
        (AlgoName::DpTt, Some(5.0), 0.5, &k20),
        (
            AlgoName::DpTt,
            Some(100.0),
            0.5,
            &[0.51, 0.5, 0.5, 0.5, 0.5],
        ),
        (AlgoName::DpTt, Some(0.01), 0.5, &[0.9, 0.89, 0.89, 0.1]),
        (AlgoName::DpTt, Some(2.0), 0.8, &[0.501, 0.5, 0.5, 0.499]),
        (AlgoName::DpTt, Some(0.1), 0.5, &[0.9, 0.5, 0.2]),
        (
            AlgoName::DpTt,
            Some(20.0),
            0.3,
            &[0.6, 0.55, 0.55, 0.55, 0.3],
        ),
        (AlgoName::DpTt, Some(1.0), 0.5, &[1.0, 0.0, 0.99]),
        (AlgoName::EbTci, None, 0.5, &[0.7, 0.6, 0.6, 0.5]),
        (AlgoName::EbTci, None, 0.7, &[0.95, 0.9, 0.9, 0.9, 0.5]),
        (AlgoName::EbTci, None, 0.5, &[0.6, 0.5]),
    ];
    for (algo, eps, beta, means) in cases {
        let nu = bern(means);
        let runs = if means.len() > 5 { 3 } else { 8 };
        let lazy = DpTt::new(&spec(algo, eps, beta), &nu, DEFAULT_ETA).expect("builds");
        let mut sp = spec(algo, eps, beta);
        sp.step_by_step = true;
        let plain = DpTt::new(&sp, &nu, DEFAULT_ETA).expect("builds");
        for r in 0..runs {
            let (a, sa) = lazy.run_impl(&mut rng_for_run(7, r), 200_000);
            let (b, sb) = plain.run_impl(&mut rng_for_run(7, r), 200_000);
            assert_eq!(a, b, "{algo:?} {means:?} run {r}");
            let counts = |s: &[ArmState]| s.iter().map(|x| (x.n, x.k)).collect::<Vec<_>>();
            assert_eq!(counts(&sa), counts(&sb), "{algo:?} {means:?} run {r}");
        }
    }
}

/// Geometric phases at η = 1: an arm pulled `N` times has released at `N = 1, 2, 4, …`, so its
/// phase index is `1 + ⌊log2 N⌋`, its phase-start count `2^(k − 1)`, and the rounds are the
/// sum of the phase indices. At η = 1/2 the boundaries are `⌈1.5^k⌉`.
#[test]
fn phases_are_geometric_and_rounds_count_the_releases() {
    let nu = bern(&[0.7, 0.6, 0.5]);
    let alg = DpTt::new(&spec(AlgoName::DpTt, Some(1.0), 0.5), &nu, 1.0).expect("builds");
    for r in 0..5 {
        let (out, st) = alg.run_impl(&mut rng_for_run(3, r), 50_000);
        let mut rounds = 0;
        for s in &st {
            let k = 64 - u64::leading_zeros(s.n) as u64; // 1 + floor(log2 N)
            assert_eq!(s.k, k, "N = {}", s.n);
            assert_eq!(s.nt, (1u64 << (k - 1)) as f64);
            rounds += k;
        }
        assert_eq!(out.rounds, Some(rounds));
        assert_eq!(st.iter().map(|s| s.n).sum::<u64>(), out.tau);
    }
    let alg = DpTt::new(&spec(AlgoName::DpTt, Some(1.0), 0.5), &nu, 0.5).expect("builds");
    let (_, st) = alg.run_impl(&mut rng_for_run(3, 0), 50_000);
    for s in &st {
        // the phase-start count is the last boundary ⌈1.5^j⌉ (made distinct) at or below N
        let mut p = 1.0f64;
        let mut start = 1u64;
        let mut k = 1;
        loop {
            p *= 1.5;
            let b = next_boundary(p, start);
            if b > s.n {
                break;
            }
            start = b;
            k += 1;
        }
        assert_eq!((s.k, s.nt), (k, start as f64), "N = {}", s.n);
    }
}

/// EB-TCI's cost is the Bernoulli KL transport cost, which `C*_ε` reaches at large `ε`
/// (FOLLOWUP: `d_ε = kl` once `ε >= log(x(1 − μ)/(μ(1 − x)))`).
#[test]
fn eb_tci_cost_is_c_eps_at_large_eps() {
    let e = DEps::new(60.0).expect("ε");
    for (top, low, u, w) in [
        (0.9, 0.5, 3.0, 7.0),
        (0.95, 0.9, 100.0, 40.0),
        (0.6, 0.1, 1.0, 1.0),
    ] {
        let a = kl_cost(top, low, u, w);
        let b = transport_cost_eps_with(e, top, low, u, w);
        assert!((a - b).abs() <= 1e-12 * a, "{a} vs {b}");
    }
    assert_eq!(kl_cost(0.5, 0.6, 1.0, 1.0), 0.0);
}

/// Stopping times respect the lower bound `T*_ε·log(1/(3δ))` (\[BAI25\]) on the mean, and
/// EB-TCI's respect `T*_KL·log(1/(3δ))`.
#[test]
fn stopping_times_respect_the_lower_bounds() {
    let delta: f64 = 0.05;
    let nu = bern(&[0.8, 0.6, 0.6, 0.4]);
    let lb = |t: f64| t * (1.0 / (3.0 * delta)).ln();
    for (algo, eps) in [(AlgoName::DpTt, Some(2.0)), (AlgoName::EbTci, None)] {
        let alg = DpTt::new(&spec(algo, eps, 0.5), &nu, DEFAULT_ETA).expect("builds");
        let runs = 30;
        let mut sum = 0.0;
        for r in 0..runs {
            let o = alg.run(&mut rng_for_run(11, r), u64::MAX);
            assert!(
                o.stopped && o.recommendation == 0,
                "{algo:?} run {r}: {o:?}"
            );
            sum += o.tau as f64;
        }
        let t = match eps {
            Some(e) => crate::complexity::t_eps(&nu, e).expect("T*_ε").value,
            None => crate::complexity::t_kl(&nu).expect("T*_KL").value,
        };
        assert!(
            sum / runs as f64 >= lb(t),
            "{algo:?}: {} < {}",
            sum / 30.0,
            lb(t)
        );
    }
}

#[test]
fn refuses_what_it_does_not_support() {
    let nu = bern(&[0.7, 0.5]);
    assert!(DpTt::new(&spec(AlgoName::DpTt, None, 0.5), &nu, 1.0).is_err());
    assert!(DpTt::new(&spec(AlgoName::DpTt, Some(1.0), 0.5), &nu, f64::NAN).is_err());
    assert!(DpTt::new(&spec(AlgoName::DpTt, Some(1.0), 0.5), &nu, 0.0).is_err());
    let g = Instance::gaussian(vec![1.0, 0.0], 1.0).expect("gaussian");
    let e = DpTt::new(&spec(AlgoName::EbTci, None, 0.5), &g, 1.0).expect_err("gaussian");
    assert!(e.to_string().contains("rewards in [0, 1]"), "{e}");
    let mut r = spec(AlgoName::EbTci, None, 0.5);
    r.setting.rules = Rules::Reference;
    assert!(DpTt::new(&r, &nu, 1.0).is_err());
    let mut u = spec(AlgoName::EbTci, None, 0.5);
    u.setting.tie_break = TieBreak::Uniform;
    assert!(DpTt::new(&u, &nu, 1.0).is_err());
    assert!(DpTt::new(&spec(AlgoName::Ttucb, None, 0.5), &nu, 1.0).is_err());
}

/// A capped run is unstopped, counted at the cap.
#[test]
fn a_capped_run_is_unstopped_at_the_cap() {
    let nu = bern(&[0.51, 0.5]);
    let alg = DpTt::new(&spec(AlgoName::DpTt, Some(0.5), 0.5), &nu, 1.0).expect("builds");
    let o = alg.run(&mut rng_for_run(1, 0), 1000);
    assert_eq!((o.tau, o.stopped), (1000, false));
}

/// The certified bounds of a challenger cost hold at every later count, and are the cost itself
/// at the counts of the evaluation (module `challenger`).
#[test]
fn challenger_bounds_enclose_the_cost() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut unif = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 11) as f64 / (1u64 << 53) as f64
    };
    for i in 0..20_000 {
        let eps = [0.01, 0.3, 1.0, 5.0, 200.0][i % 5];
        let e = DEps::new_unchecked(eps);
        let (p, q) = (unif(), unif());
        let (top, low) = if i % 7 == 0 {
            (p, p)
        } else {
            (p.max(q), p.min(q))
        };
        let u0 = (1.0 + 1e4 * unif() * unif()).floor();
        let w0 = (1.0 + 1e4 * unif() * unif()).floor();
        let c = challenger::CostCache::evaluate(e, top, low, u0, w0);
        let exact = transport_cost_eps_with(e, top, low, u0, w0);
        assert_eq!(c.bounds(u0, w0), (exact, exact), "{top} {low} {u0} {w0}");
        for _ in 0..4 {
            let u = u0 + (u0 * 0.05 * unif()).floor();
            let w = w0 + (w0 * 0.05 * unif()).floor();
            let (lo, hi) = c.bounds(u, w);
            let v = transport_cost_eps_with(e, top, low, u, w);
            assert!(
                lo <= v && v <= hi,
                "{eps} {top} {low} {u0} {w0} {u} {w}: {lo} {v} {hi}"
            );
        }
    }
}
