//! Integration tests for `bandit` and `privacy` (the law of the phase engine against the
//! per-sample one is `engine_law`): randomised-response flip rate, reward tables, caps, custom
//! thresholds, bad input, and value stability.
//!
//! Statistical tests use a fixed seed and a pre-registered `alpha = 1e-6` with analytic
//! (non-asymptotic) critical values: DKW–Massart for empirical CDFs and Hoeffding for
//! frequencies; the control tests at the end use an exact conditional binomial test
//! at their own pre-registered level `CONTROL_ALPHA = 0.01`.

use dpbai::bandit::{
    AdapLeaderBonus, AlgoName, AlgoSpec, CustomThreshold, DpaEpisodes, LeaderCounts, Rules,
    Setting, ThresholdVars, build,
};
use dpbai::instance::Instance;
use dpbai::params::{Beta, Epsilon};
use dpbai::privacy::RandomisedResponse;
use dpbai::rng::rng_for_run;
use std::sync::Arc;

/// Pre-registered level of the statistical tests in this file (except the control tests).
const ALPHA: f64 = 1e-6;

/// Half-width `t` with `P(sup|F_n − F| > t) <= a` (DKW–Massart) or `P(|p̂ − p| > t) <= a`
/// (Hoeffding): `t = sqrt(ln(2/a)/(2n))`.
fn dkw(n: usize, a: f64) -> f64 {
    ((2.0 / a).ln() / (2.0 * n as f64)).sqrt()
}

/// The paper's setting of `algo`, with `eps` and `γ = 0.1` set where the algorithm takes them.
fn spec(algo: AlgoName, delta: f64, eps: f64) -> AlgoSpec {
    let info = algo.info();
    let mut s = Setting::paper(algo, delta).unwrap();
    if info.takes("eps") {
        s = s.with_eps(eps).unwrap();
    }
    if info.takes("gamma") {
        s = s.with_gamma(Some(0.1)).unwrap();
    }
    AlgoSpec::new(s)
}

fn mu1() -> Instance {
    Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap()
}

/// CTB (Alg. 4, F.58): the observed flip rate of randomised response is `1/(e^ε + 1)`, for
/// both input bits. Hoeffding at level α/2 per bit.
#[test]
fn ctb_flip_rate_matches() {
    let n = 400_000usize;
    for (i, &eps) in [0.1, 1.0, 3.0].iter().enumerate() {
        let rr = RandomisedResponse::new(eps).unwrap();
        let want = 1.0 / (eps.exp() + 1.0);
        let mut rng = rng_for_run(5, i as u64);
        for bit in [false, true] {
            let flips = (0..n)
                .filter(|_| rr.privatise_bit(bit, &mut rng) != bit)
                .count();
            let f = flips as f64 / n as f64;
            assert!(
                (f - want).abs() <= dkw(n, ALPHA / 6.0),
                "eps {eps}, bit {bit}: {f} vs {want}"
            );
        }
    }
}

fn stopping_algos() -> [AlgoName; 6] {
    [
        AlgoName::Ttucb,
        AlgoName::CtbTt,
        AlgoName::GaussLdpTt,
        AlgoName::AdapTt,
        AlgoName::AdapTtStar,
        AlgoName::DpaTt,
    ]
}

/// `max_steps` caps a run: `τ = max_steps`, `stopped = false` (also below K).
#[test]
fn cap_gives_unstopped_runs() {
    for algo in stopping_algos() {
        let alg = build(&spec(algo, 0.01, 0.1), &mu1()).unwrap();
        for cap in [3u64, 5, 1000] {
            let o = alg.run(&mut rng_for_run(1, 0), cap);
            assert_eq!((o.tau, o.stopped), (cap, false), "{algo:?}");
            assert!(o.recommendation < 5);
        }
    }
}

#[derive(Debug)]
struct Const(f64);
impl CustomThreshold for Const {
    fn eval(&self, v: &ThresholdVars) -> f64 {
        assert!(v.na >= 1.0 && v.nb >= 1.0 && v.ka >= 1.0 && v.t >= 5.0 && v.k == 5.0);
        self.0
    }
}

/// A custom threshold replaces `c_{a,b}`: `−1` stops at the first test (τ = K); NaN never stops.
#[test]
fn custom_threshold_replaces_glr() {
    for algo in stopping_algos() {
        let mut s = spec(algo, 0.01, 1.0);
        s.custom_threshold = Some(Arc::new(Const(-1.0)));
        let o = build(&s, &mu1())
            .unwrap()
            .run(&mut rng_for_run(2, 0), 1_000_000);
        assert_eq!((o.tau, o.stopped), (5, true), "{algo:?}");
        s.custom_threshold = Some(Arc::new(Const(f64::NAN)));
        let o = build(&s, &mu1()).unwrap().run(&mut rng_for_run(2, 0), 2000);
        assert_eq!((o.tau, o.stopped), (2000, false), "{algo:?}");
    }
}

/// Definition 8: the reward of arm `a` at time `t` is `table[t−1][a]`; the action sequence has
/// length τ; a table that runs out gives `stopped = false`; malformed tables give `None`.
#[test]
fn reward_tables() {
    let inst = Instance::bernoulli(vec![0.9, 0.5, 0.2]).unwrap();
    let mut rng = rng_for_run(3, 0);
    // Arm 0 always pays 1, others 0: TTUCB/DPA (no noise) must stop and recommend arm 0,
    // deterministically whatever the generator.
    let good: Vec<Vec<f64>> = (0..20_000).map(|_| vec![1.0, 0.0, 0.0]).collect();
    for algo in [AlgoName::Ttucb, AlgoName::DpaTt] {
        let alg = build(&spec(algo, 0.1, 1.0), &inst).unwrap();
        let a = alg.run_on_table(&good, &mut rng_for_run(1, 0)).unwrap();
        let b = alg.run_on_table(&good, &mut rng_for_run(9, 9)).unwrap();
        assert_eq!(a, b, "{algo:?}: no randomness besides the table");
        assert!(a.stopped && a.recommendation == 0);
        assert_eq!(&a.actions[..3], &[0, 1, 2]);
    }
    for algo in [
        AlgoName::Ttucb,
        AlgoName::CtbTt,
        AlgoName::AdapTt,
        AlgoName::AdapTtStar,
    ] {
        let alg = build(&spec(algo, 0.01, 0.5), &inst).unwrap();
        // All-equal rewards: nothing can be identified; the table runs out.
        let flat: Vec<Vec<f64>> = (0..300).map(|_| vec![0.5, 0.5, 0.5]).collect();
        let out = alg.run_on_table(&flat, &mut rng).unwrap();
        assert!(!out.stopped, "{algo:?}");
        assert_eq!(out.actions.len(), 300);
        assert!(alg.run_on_table(&vec![vec![0.5, 0.5]], &mut rng).is_none());
        let t = alg.run_on_table(&good, &mut rng).unwrap();
        assert!(t.actions.iter().all(|&a| a < 3));
    }
    let ctb = build(&spec(AlgoName::CtbTt, 0.01, 0.5), &inst).unwrap();
    assert!(
        ctb.run_on_table(&vec![vec![0.5, 1.5, 0.0]], &mut rng)
            .is_none()
    );
}

/// Bad input is an error naming the value (never a panic).
#[test]
fn bad_input_is_rejected() {
    let inst = mu1();
    for algo in [
        AlgoName::CtbTt,
        AlgoName::GaussLdpTt,
        AlgoName::AdapTt,
        AlgoName::AdapTtStar,
    ] {
        let mut s = spec(algo, 0.01, 1.0);
        s.setting.eps = None;
        let e = build(&s, &inst).err().expect("missing eps").to_string();
        assert!(e.contains("eps"), "{e}");
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e-200, 1e200] {
            let e = s.setting.with_eps(bad).expect_err("bad eps").to_string();
            assert!(e.contains("for a private algorithm"), "{e}");
        }
        // Inside `Epsilon`'s domain, outside the algorithms': `build` refuses it too.
        s.setting.eps = Some(Epsilon::new(1e-200).unwrap());
        assert!(build(&s, &inst).is_err());
    }
    for algo in stopping_algos() {
        for d in [0.0, 1.0, -0.1, f64::NAN] {
            assert!(Setting::paper(algo, d).is_err());
        }
    }
    assert!(Beta::new(1.0).is_err());
    let mut s = spec(AlgoName::GaussLdpTt, 0.01, 1.0);
    s.setting.gamma = None;
    assert!(
        build(&s, &inst)
            .err()
            .expect("missing gamma")
            .to_string()
            .contains("gamma")
    );
    let g = Instance::gaussian(vec![1.0, 0.0], 1.0).unwrap();
    assert!(build(&spec(AlgoName::CtbTt, 0.01, 1.0), &g).is_err());
    // Gaussian arms are fine for the others.
    for algo in [AlgoName::Ttucb, AlgoName::AdapTt, AlgoName::DpaTt] {
        let o = build(&spec(algo, 0.01, 1.0), &g)
            .unwrap()
            .run(&mut rng_for_run(1, 1), 10_000_000);
        assert!(o.stopped && o.recommendation == 0, "{algo:?}");
    }
}

/// Same generator state, same outcome (BaiAlgorithm contract); options build and run.
#[test]
fn reproducible_and_options_run() {
    use dpbai::bandit::{ChallengerCounts, GaussLdpSigma, TieBreak};
    use dpbai::threshold::Eq14Form;
    let inst = Instance::bernoulli(vec![0.9, 0.6, 0.5, 0.3]).unwrap();
    for algo in stopping_algos() {
        for rules in [Rules::Paper, Rules::Reference] {
            let mut s = spec(algo, 0.05, 1.0);
            s.setting.rules = rules;
            let alg = build(&s, &inst).unwrap();
            let a = alg.run(&mut rng_for_run(4, 2), 5_000_000);
            let b = alg.run(&mut rng_for_run(4, 2), 5_000_000);
            assert_eq!(a, b);
            assert_eq!(alg.name(), algo.as_str());
            // Every non-default option the algorithm takes (the others are refused).
            let info = algo.info();
            if info.takes("tie-break") {
                s.setting.tie_break = TieBreak::Uniform;
            }
            if info.takes("challenger-counts") {
                s.setting.challenger_counts = ChallengerCounts::Local;
            }
            if info.takes("ids-beta") {
                s.setting.ids_beta = true;
            }
            if info.takes("gauss-sigma") {
                s.setting.gauss_sigma = GaussLdpSigma::Printed;
            }
            if info.takes("eq14-form") {
                s.setting.eq14_form = Eq14Form::Printed;
            }
            let o = build(&s, &inst)
                .unwrap()
                .run(&mut rng_for_run(4, 3), 5_000_000);
            assert!(o.stopped, "{algo:?} {rules:?}");
        }
    }
}

/// Deterministic arms (means 1 and 0) and negligible privacy noise (ε = 1e6): the phase sums
/// are deterministic, so the phase-skipping path and the step-by-step loop must give exactly
/// the same τ and recommendation (catches e.g. an off-by-one in the number of samples drawn
/// at a switch, which the two-sample test above has little power against).
#[test]
fn fast_path_exact_on_deterministic_arms() {
    let inst = Instance::bernoulli(vec![0.0, 1.0]).unwrap();
    for algo in [AlgoName::AdapTt, AlgoName::AdapTtStar, AlgoName::DpaTt] {
        // Paper rules only: the reference rules flip coins, so their trajectories depend on
        // the generator stream.
        for rules in [Rules::Paper] {
            let mut s = spec(algo, 0.01, 1e6);
            s.setting.rules = rules;
            let fast = build(&s, &inst).unwrap();
            s.step_by_step = true;
            let slow = build(&s, &inst).unwrap();
            for r in 0..3 {
                let a = fast.run(&mut rng_for_run(8, r), 1_000_000);
                let b = slow.run(&mut rng_for_run(9, r), 1_000_000);
                assert!(a.stopped && a.recommendation == 1, "{algo:?} {rules:?}");
                assert_eq!(
                    (a.tau, a.recommendation, a.rounds),
                    (b.tau, b.recommendation, b.rounds),
                    "{algo:?} {rules:?}"
                );
            }
        }
    }
}

/// Value stability (regression guard ONLY, not a correctness check): exact outcomes of fixed
/// seeds on a tiny instance, recorded from this implementation. A change here means the
/// trajectories changed (generator use, tie-breaking, thresholds): review it, then update.
#[test]
fn value_stability() {
    let inst = Instance::bernoulli(vec![0.9, 0.5, 0.2]).unwrap();
    let got: Vec<(String, u64, usize, bool)> = stopping_algos()
        .iter()
        .flat_map(|&algo| {
            [Rules::Paper, Rules::Reference].map(|rules| {
                let mut s = spec(algo, 0.1, 1.0);
                s.setting.rules = rules;
                let o = build(&s, &inst)
                    .unwrap()
                    .run(&mut rng_for_run(42, 0), 10_000_000);
                (
                    format!("{}/{rules:?}", algo.as_str()),
                    o.tau,
                    o.recommendation,
                    o.stopped,
                )
            })
        })
        .collect();
    #[rustfmt::skip]
    let want: &[(&str, u64, usize, bool)] = &[
        ("ttucb/Paper", 238, 0, true),
        ("ttucb/Reference", 373, 0, true),
        ("ctb-tt/Paper", 1017, 0, true),
        ("ctb-tt/Reference", 1289, 0, true),
        ("gauss-ldp-tt/Paper", 2878, 0, true),
        ("gauss-ldp-tt/Reference", 85, 0, true),
        ("adap-tt/Paper", 2717, 0, true),
        ("adap-tt/Reference", 1311, 0, true),
        ("adap-tt-star/Paper", 8068, 0, true),
        ("adap-tt-star/Reference", 1311, 0, true),
        ("dpa-tt/Paper", 515, 0, true),
        ("dpa-tt/Reference", 473, 0, true),
    ];
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert_eq!((g.0.as_str(), g.1, g.2, g.3), *w);
    }
}

/// Smallest `k` with `P(Bin(n, p) >= k) <= a` (exact tail, log-space sum).
fn binomial_critical(n: u64, p: f64, a: f64) -> u64 {
    let ln_pmf = |k: u64| {
        let lg = |x: u64| (1..=x).map(|i| (i as f64).ln()).sum::<f64>();
        lg(n) - lg(k) - lg(n - k) + k as f64 * p.ln() + (n - k) as f64 * (1.0 - p).ln()
    };
    let mut tail = 0.0;
    for k in (0..=n).rev() {
        tail += ln_pmf(k).exp();
        if tail > a {
            return k + 1;
        }
    }
    0
}

/// δ-correctness spot check (HEAVY, `#[ignore]`; about a minute on 2 cores):
/// 1000 runs of every algorithm on μ1 with δ = 0.01 (private ones at ε = 1, γ = 0.1) and the
/// paper's thresholds, runs capped at 10^8 samples. Checks (i) errors among stopped runs (the
/// event `τ < ∞, â ≠ a*`) < the α = 1e-6 critical value of Bin(1000, δ), and
/// (ii) mean τ >= T·log(1/(2.4δ)) with closed-form lower bounds of the characteristic time:
/// `T_KL^Ber >= min_{m∈[μ_min, μ*]} m(1−m)·Σ_{a∈[K]} Δ_a^{-2}` (χ² bound on kl, then
/// `T_KL^G >= H^G`, F.26), `T_ℓ >= Σ_a Δ_a^{-2}/c(ε)` (Cor. 11, `T_TV2 >= H^G(μ;1)/2`), and
/// `T_g >= T_TV/ε = Σ_a Δ_a^{-1}/ε` (Cor. 18, F.19). Run with
/// `cargo test --release --test lib bandit::delta_correctness -- --ignored --nocapture`.
///
/// Unstopped runs are reported, not failed: on μ1 (tied sub-optimal arms, R.31) AdaP-TT and
/// AdaP-TT* can starve an arm forever — its private bonus `b^{G,ε}(Ñ)` (Eq. (11)) does not grow
/// with `n`, so an arm released with a large negative Laplace draw is neither leader nor (the
/// tied arms' transport costs staying O(1)) challenger again. Capped runs enter the mean with
/// `τ = cap`, which only lowers it (the lower-bound check stays valid).
#[test]
#[ignore]
fn delta_correctness_mu1() {
    use rayon::prelude::*;
    let inst = mu1();
    let delta: f64 = 0.01;
    let eps: f64 = 1.0;
    let gaps = inst.gaps();
    let sum_inv2: f64 = gaps.iter().map(|g| g.powi(-2)).sum();
    let sum_inv: f64 = gaps.iter().map(|g| 1.0 / g).sum();
    let t_kl = 0.95 * 0.05 * sum_inv2;
    let c_eps = dpbai::divergence::c_local(eps).unwrap();
    let factor = (1.0 / (2.4 * delta)).ln();
    let crit = binomial_critical(1000, delta, ALPHA);
    for algo in stopping_algos() {
        let t_star = match algo {
            AlgoName::CtbTt => t_kl.max(sum_inv2 / c_eps),
            AlgoName::AdapTt | AlgoName::AdapTtStar => t_kl.max(sum_inv / eps),
            _ => t_kl,
        };
        let alg = build(&spec(algo, delta, eps), &inst).unwrap();
        let t0 = std::time::Instant::now();
        let outs: Vec<_> = (0..1000u64)
            .into_par_iter()
            .map(|r| alg.run(&mut rng_for_run(2024, r), 100_000_000))
            .collect();
        let errors = outs
            .iter()
            .filter(|o| o.stopped && o.recommendation != 0)
            .count() as u64;
        let unstopped = outs.iter().filter(|o| !o.stopped).count();
        let mean_tau = outs.iter().map(|o| o.tau as f64).sum::<f64>() / 1000.0;
        println!(
            "{:14} errors {errors}/1000 (crit {crit}) unstopped {unstopped} mean_tau {mean_tau:.0} \
             lower bound {:.0} ({:.1} s)",
            algo.as_str(),
            t_star * factor,
            t0.elapsed().as_secs_f64()
        );
        assert!(errors < crit, "{algo:?}: {errors} errors");
        assert!(mean_tau >= t_star * factor, "{algo:?}");
    }
}

/// Capped runs among `runs` seeded runs of `spec` on `inst` (seed `seed`, cap `cap`).
fn capped_runs(spec: &AlgoSpec, inst: &Instance, seed: u64, runs: u64, cap: u64) -> u64 {
    let alg = build(spec, inst).expect("spec");
    let mut cfg = dpbai::mc::EngineConfig::new(seed, runs);
    cfg.max_steps = cap;
    cfg.threads = 2;
    let recs = dpbai::mc::simulate(alg.as_ref(), &cfg, &|| ()).expect("simulate");
    recs.iter().filter(|r| !r.outcome.stopped).count() as u64
}

/// One-sided exact conditional test that the count `y` is smaller than `x`: given `x + y`
/// capped runs in two equal-sized groups, the p-value `P(Bin(x + y, 1/2) ≤ y)` under equal rates.
fn fewer_capped_p(x: u64, y: u64) -> f64 {
    let n = x + y;
    let mut p = 0.0;
    let mut c = 1.0f64; // C(n, 0)
    for j in 0..=y {
        p += c;
        c = c * (n - j) as f64 / (j + 1) as f64;
    }
    p * 0.5f64.powi(n as i32)
}

/// Pre-registered significance level of the control tests below (one-sided).
const CONTROL_ALPHA: f64 = 0.01;

/// Finding 1's controls on μ2 at ε = 0.4 (AdaP-TT, 200 runs each, cap 2·10⁶).
/// Pre-registered rules, one-sided exact conditional binomial tests at `CONTROL_ALPHA`:
/// * Eq. (11) with `k(Ñ_a)` replaced by `log ‖Ñ‖₁` (privacy term kept, growing with the total
///   count) has fewer capped runs than Eq. (11) (seed 2613): the frozen own-count bonus is the
///   cause of the starvation.
/// * Eq. (3)'s bonus (a `log ‖Ñ‖₁` term but no privacy term) has *more* capped runs than Eq. (11)
///   (seed 2614): a `log n` term alone does not cure it, since the bonus must outgrow Laplace
///   draws of scale `1/(εÑ_a)`. (A first run at seed 2611 gave 21 (Eq. 11), 46 (Eq. 3) and
///   0 (Eq. 11, log n) of 200 capped; these rules were fixed after it, on fresh seeds.)
#[test]
fn log_n_leader_bonus_controls_adap_tt_starvation() {
    let mu2 = Instance::bernoulli(vec![0.75, 0.7, 0.7, 0.7, 0.7]).unwrap();
    let capped = |seed: u64, bonus: AdapLeaderBonus| {
        let mut s = spec(AlgoName::AdapTt, 0.01, 0.4);
        s.setting.adap_leader_bonus = bonus;
        capped_runs(&s, &mu2, seed, 200, 2_000_000)
    };
    // (seed, control, whether the control is expected to cap fewer runs than Eq. (11))
    for (seed, control, fewer) in [
        (2613, AdapLeaderBonus::Eq11LogN, true),
        (2614, AdapLeaderBonus::Eq3, false),
    ] {
        let (paper, ctl) = (capped(seed, AdapLeaderBonus::Eq11), capped(seed, control));
        let p = if fewer {
            fewer_capped_p(paper, ctl)
        } else {
            fewer_capped_p(ctl, paper)
        };
        eprintln!("seed {seed}: capped {paper}/200 (Eq. 11), {ctl}/200 ({control:?}), p = {p:e}");
        assert!(
            p <= CONTROL_ALPHA,
            "{control:?}: {paper} vs {ctl} capped, p = {p}"
        );
    }
}

/// Finding 3's control: DPA-TT with global episodes stalls on μ4 when its leader
/// reads the frozen counts, not when it reads the live ones. Pre-registered rule: 50 runs each
/// (seed 2612, cap 10⁶); the control has fewer capped runs at one-sided level 0.01.
#[test]
fn live_count_leader_unblocks_global_episode_dpa() {
    let mu4 = Instance::bernoulli(vec![0.75, 0.625, 0.5, 0.375, 0.25]).unwrap();
    let mut s = AlgoSpec::new(Setting::paper(AlgoName::DpaTt, 0.01).unwrap());
    s.setting.dpa_episodes = DpaEpisodes::Global;
    let frozen = capped_runs(&s, &mu4, 2612, 50, 1_000_000);
    s.setting.leader_counts = LeaderCounts::Global;
    let live = capped_runs(&s, &mu4, 2612, 50, 1_000_000);
    let p = fewer_capped_p(frozen, live);
    eprintln!(
        "DPA-TT global episodes mu4: capped {frozen}/50 (frozen), {live}/50 (live), p = {p:e}"
    );
    assert!(p <= CONTROL_ALPHA, "{frozen} vs {live} capped, p = {p}");
}

/// The controls are rejected where they do not apply (one-line errors, no panic).
#[test]
fn controls_are_validated() {
    let inst = mu1();
    let mut s = spec(AlgoName::Ttucb, 0.01, 1.0);
    s.setting.adap_leader_bonus = AdapLeaderBonus::Eq3;
    assert!(build(&s, &inst).is_err());
    let mut s = spec(AlgoName::AdapTt, 0.01, 1.0);
    s.setting.rules = Rules::Reference;
    s.setting.adap_leader_bonus = AdapLeaderBonus::Eq3;
    assert!(build(&s, &inst).is_err());
    let mut s = spec(AlgoName::AdapTt, 0.01, 1.0);
    s.setting.leader_counts = LeaderCounts::Global;
    assert!(
        build(&s, &inst).is_err(),
        "live counts need the UCB leader (eq3)"
    );
    s.setting.adap_leader_bonus = AdapLeaderBonus::Eq3;
    assert!(build(&s, &inst).is_ok());
    let mut s = spec(AlgoName::Ttucb, 0.01, 1.0);
    s.setting.leader_counts = LeaderCounts::Global;
    assert!(build(&s, &inst).is_err());
    assert_eq!(fewer_capped_p(10, 0), 0.5f64.powi(10));
    assert!((fewer_capped_p(1, 1) - 0.75).abs() < 1e-15);
}

/// `Sampling::Uniform` pulls in round robin whatever the algorithm: at the stop (or the cap)
/// the counts differ by at most one, on the plain path and with the algorithm's estimator,
/// under both rule sets; DP-SE refuses it.
#[test]
fn uniform_sampling_is_round_robin() {
    use dpbai::bandit::{Sampling, trace::run_traced};
    let inst = mu1();
    for rules in [Rules::Paper, Rules::Reference] {
        for algo in [
            AlgoName::Ttucb,
            AlgoName::CtbTt,
            AlgoName::AdapTt,
            AlgoName::AdapTtStar,
            AlgoName::DpaTt,
        ] {
            let mut sp = spec(algo, 0.1, 1.0);
            sp.setting.rules = rules;
            sp.sampling = Sampling::Uniform;
            for run in 0..3 {
                let mut rng = rng_for_run(7, run);
                let tr = run_traced(&sp, &inst, &mut rng, 200_000).unwrap();
                let (lo, hi) = (
                    *tr.counts.iter().min().unwrap(),
                    *tr.counts.iter().max().unwrap(),
                );
                assert!(
                    hi - lo <= 1,
                    "{} {rules:?}: counts {:?}",
                    algo.as_str(),
                    tr.counts
                );
                assert_eq!(
                    tr.counts.iter().sum::<u64>(),
                    tr.outcome.tau,
                    "{} {rules:?}: {:?}",
                    algo.as_str(),
                    tr.outcome
                );
            }
            // The default rules do not pull in round robin (the control of the test).
            sp.sampling = Sampling::Algorithm;
            let tr = run_traced(&sp, &inst, &mut rng_for_run(7, 0), 200_000).unwrap();
            let (lo, hi) = (
                *tr.counts.iter().min().unwrap(),
                *tr.counts.iter().max().unwrap(),
            );
            assert!(hi - lo > 1, "{}: {:?}", algo.as_str(), tr.counts);
        }
    }
    // The engine's fast paths (the incremental MLE loop, the lazy phased loop) on a reward
    // table, whose action sequence is observable: round robin too.
    let table: Vec<Vec<f64>> = (0..20_000u64)
        .map(|t| {
            (0..5u64)
                .map(|a| f64::from(u8::from((t * 7 + a * 3) % 5 < 3)))
                .collect()
        })
        .collect();
    for algo in [AlgoName::Ttucb, AlgoName::AdapTt, AlgoName::DpaTt] {
        let mut sp = spec(algo, 0.1, 1.0);
        sp.sampling = Sampling::Uniform;
        let alg = build(&sp, &inst).unwrap();
        let out = alg
            .run_on_table(&table, &mut rng_for_run(7, 0))
            .expect("a Top Two algorithm runs on tables");
        let n = out.actions.len();
        assert!(n > 10, "{}: {n} actions", algo.as_str());
        for (t, &a) in out.actions.iter().enumerate() {
            assert_eq!(a as usize, t % 5, "{} at t = {t}", algo.as_str());
        }
    }
    let mut se = spec(AlgoName::DpSe, 0.1, 1.0);
    se.sampling = Sampling::Uniform;
    let e = build(&se, &inst)
        .err()
        .expect("dp-se refuses uniform sampling");
    assert!(e.to_string().contains("sampling"), "{e}");
}

/// The same threshold seen two ways: its own `reads_time` (here `false`: the expression does
/// not read `t`), or hidden behind a wrapper that keeps the trait's default `true`.
#[derive(Debug)]
struct ReadsTimeAnyway(dpbai::threshold::expr::ThresholdExpr);

impl CustomThreshold for ReadsTimeAnyway {
    fn eval(&self, v: &ThresholdVars) -> f64 {
        self.0.eval(v)
    }
}

/// An expression threshold that does not read `t` is tested only where its inputs change (at
/// phase ends for the phased algorithms, after a pull of the failing pair's arms or a change of
/// `â` for TTUCB and CTB-TT), and the runs are the same, run for run, as when it is tested at
/// every step: each paper preset on its algorithm, Bernoulli and Gaussian arms, small and
/// large ε.
#[test]
fn a_threshold_without_t_is_tested_where_its_inputs_change_with_the_same_runs() {
    use dpbai::threshold::expr::parse_threshold;
    let bern = Instance::bernoulli(vec![0.75, 0.625, 0.5, 0.375, 0.25]).unwrap();
    let gauss = Instance::gaussian(vec![0.9, 0.6, 0.5, 0.3], 0.5).unwrap();
    let cases = [
        (AlgoName::AdapTt, "paper-adap-tt", &bern, 1.0),
        (AlgoName::AdapTt, "paper-adap-tt", &bern, 0.1),
        (AlgoName::AdapTtStar, "paper-adap-tt-star", &bern, 1.0),
        (AlgoName::AdapTtStar, "paper-adap-tt-star", &gauss, 2.0),
        (AlgoName::DpaTt, "paper-daf-inf", &bern, 1.0),
        (AlgoName::DpTt, "dp-tt-poster", &bern, 1.0),
        (AlgoName::Ttucb, "paper-cg", &bern, 1.0),
        (AlgoName::Ttucb, "paper-cg", &gauss, 1.0),
        (AlgoName::CtbTt, "paper-cg", &bern, 1.0),
        (AlgoName::CtbTt, "paper-cg", &bern, 0.2),
    ];
    for (algo, preset, inst, eps) in cases {
        let expr = parse_threshold(preset).unwrap();
        assert!(!expr.uses("t"), "{preset} reads t");
        let mut at_phase_ends = spec(algo, 0.01, eps);
        at_phase_ends.custom_threshold = Some(Arc::new(expr.clone()));
        let mut every_step = at_phase_ends.clone();
        every_step.custom_threshold = Some(Arc::new(ReadsTimeAnyway(expr)));
        let fast = build(&at_phase_ends, inst).unwrap();
        let slow = build(&every_step, inst).unwrap();
        for r in 0..40 {
            let a = fast.run(&mut rng_for_run(9, r), 20_000_000);
            let b = slow.run(&mut rng_for_run(9, r), 20_000_000);
            assert_eq!(
                (a.tau, a.recommendation, a.stopped),
                (b.tau, b.recommendation, b.stopped),
                "{algo:?} {preset} eps {eps}, run {r}"
            );
        }
    }
}
