//! The phase-skipping shortcuts of [`super::top_two::run_loop`] against the same loop forced to
//! do every step one by one: identical outcomes and random streams, run for run.

use super::algos::build_any;
use super::top_two::{DenseObs, LEAPED_PICKS, NoObs, tracked_leader_pulls};
use super::{
    AdapLeaderBonus, AlgoName, AlgoSpec, ChallengerCounts, DpaEpisodes, LeaderCounts, Setting,
};
use crate::instance::Instance;
use crate::rng::rng_for_run;
use rand::Rng as _;

#[test]
fn tracked_leader_pulls_matches_the_step_rule() {
    for beta in [
        0.5,
        0.3,
        0.8,
        1.0 / 3.0,
        0.999,
        0.001,
        std::f64::consts::FRAC_1_SQRT_2,
    ] {
        for a0 in 0..25u64 {
            for l0 in 0..40u64 {
                let (mut a, mut l) = (a0, l0);
                for m in 0..300u64 {
                    assert_eq!(
                        tracked_leader_pulls(a0, l0, beta, m),
                        a,
                        "beta {beta} a0 {a0} l0 {l0} m {m}"
                    );
                    if a as f64 <= beta * (l + 1) as f64 {
                        a += 1;
                    }
                    l += 1;
                }
            }
        }
    }
    // Far from the origin, where the f64 products are no longer small integers.
    let (a0, l0, beta) = (1_234_567_891u64, 2_469_135_781u64, 0.5);
    let (mut a, mut l) = (a0, l0);
    for m in 0..10_000u64 {
        assert_eq!(tracked_leader_pulls(a0, l0, beta, m), a);
        if a as f64 <= beta * (l + 1) as f64 {
            a += 1;
        }
        l += 1;
    }
}

/// Runs `runs` seeds with and without the shortcuts and requires identical outcomes and
/// identical random streams afterwards. Returns the number of capped runs seen.
fn same_runs(algo: AlgoName, means: &[f64], eps: f64, beta: f64, local: bool, cap: u64) -> u64 {
    let mut spec = AlgoSpec::new(Setting::paper(algo, 0.01).expect("valid δ"));
    same_runs_spec(&mut spec, means, eps, beta, local, cap)
}

fn same_runs_spec(
    spec: &mut AlgoSpec,
    means: &[f64],
    eps: f64,
    beta: f64,
    local: bool,
    cap: u64,
) -> u64 {
    let algo = spec.setting.algo;
    let inst = Instance::bernoulli(means.to_vec()).unwrap();
    spec.setting.eps = Some(crate::params::Epsilon::new(eps).expect("valid ε"));
    spec.setting.beta = crate::params::Beta::new(beta).expect("valid β");
    if local {
        spec.setting.challenger_counts = ChallengerCounts::Local;
    }
    let alg = build_any(spec, &inst).unwrap();
    let mut capped = 0;
    for r in 0..40 {
        let mut r2 = rng_for_run(5, r);
        let dense = alg.run_recorded(&mut r2, cap, true, None, &mut DenseObs);
        let after = r2.next_u64();
        // Both layouts of the fast paths' state (the pair of `rotate_steps`, or the tree of
        // costs), whatever K.
        for layout in [Some(false), Some(true)] {
            let mut r1 = rng_for_run(5, r);
            let fast = alg.run_recorded(&mut r1, cap, true, layout, &mut NoObs);
            let ctx = format!(
                "{algo:?} {:?} {means:?} eps {eps} beta {beta} local {local} run {r} {layout:?}",
                spec.setting.dpa_episodes
            );
            assert_eq!(fast, dense, "{ctx}");
            assert_eq!(r1.next_u64(), after, "random stream: {ctx}");
        }
        capped += u64::from(!dense.0.stopped);
    }
    capped
}

#[test]
fn phase_skipping_is_exact() {
    let instances: [&[f64]; 4] = [
        &[0.95, 0.9, 0.9, 0.9, 0.5],
        &[0.75, 0.7, 0.7, 0.7, 0.7],
        &[0.9, 0.1],
        &[0.6, 0.55, 0.5, 0.45, 0.4, 0.35, 0.3],
    ];
    let mut capped = 0;
    for algo in [AlgoName::AdapTt, AlgoName::AdapTtStar, AlgoName::DpaTt] {
        for means in instances {
            for (eps, beta, local) in [
                (0.5, 0.5, false),
                (2.0, 0.3, false),
                (0.5, 0.5, true),
                (20.0, 0.8, false),
            ] {
                capped += same_runs(algo, means, eps, beta, local, 200_000);
            }
        }
    }
    for means in instances {
        for (beta, local) in [(0.5, false), (0.3, true), (0.8, false)] {
            let mut spec = AlgoSpec::new(Setting::paper(AlgoName::DpaTt, 0.01).expect("valid δ"));
            spec.setting.dpa_episodes = DpaEpisodes::Global;
            same_runs_spec(&mut spec, means, 1.0, beta, local, 200_000);
        }
    }
    // The comparison must cover capped runs too (starved runs, the case skipping is for).
    assert!(capped > 0, "no capped run exercised");
}

/// The rotation leaps (`rotation_leap`) where they do most of the work: tied arms at small ε,
/// where the challenger rotates among three arms with noisy private means and the arm at 0.5
/// comes due every few rounds; three tied arms out of five, and two of three. Run for run against
/// the step-by-step loop, and the leaps must have been exercised.
#[test]
fn rotation_leaps_are_exact() {
    let instances: [&[f64]; 2] = [&[0.95, 0.9, 0.9, 0.9, 0.5], &[0.9, 0.8, 0.8]];
    for algo in [AlgoName::AdapTt, AlgoName::AdapTtStar] {
        for means in instances {
            for (eps, beta) in [(0.01, 0.5), (0.1, 0.5), (0.05, 0.3)] {
                let before = LEAPED_PICKS.with(|n| n.get());
                same_runs(algo, means, eps, beta, false, 400_000);
                let leaped = LEAPED_PICKS.with(|n| n.get()) - before;
                // Leaps run on the flat layout (few arms), in 40 runs; at least a few thousand
                // picks a run (the early phases, before the cap, are short).
                assert!(
                    leaped > 40 * 2_000,
                    "{algo:?} {means:?} eps {eps} beta {beta}: only {leaped} picks leaped"
                );
            }
        }
    }
}

/// The controls on the fast paths: Eq. (3)'s leader bonus for AdaP-TT(*) keeps the
/// leader frozen between releases (`‖Ñ‖₁` only changes there), so skipping stays on and must be
/// exact; the live-count leader disables it (the comparison then guards that choice).
#[test]
fn phase_skipping_is_exact_with_the_controls() {
    let instances: [&[f64]; 3] = [
        &[0.95, 0.9, 0.9, 0.9, 0.5],
        &[0.75, 0.7, 0.7, 0.7, 0.7],
        &[0.6, 0.55, 0.5, 0.45, 0.4, 0.35, 0.3],
    ];
    let mut capped = 0;
    for algo in [AlgoName::AdapTt, AlgoName::AdapTtStar] {
        for means in instances {
            for (eps, beta, local) in [(0.4, 0.5, false), (2.0, 0.3, true), (20.0, 0.8, false)] {
                for (bonus, counts) in [
                    (AdapLeaderBonus::Eq3, LeaderCounts::Local),
                    (AdapLeaderBonus::Eq3, LeaderCounts::Global),
                    (AdapLeaderBonus::Eq11LogN, LeaderCounts::Local),
                ] {
                    let mut spec = AlgoSpec::new(Setting::paper(algo, 0.01).expect("valid δ"));
                    spec.setting.adap_leader_bonus = bonus;
                    spec.setting.leader_counts = counts;
                    capped += same_runs_spec(&mut spec, means, eps, beta, local, 50_000);
                }
            }
        }
    }
    for means in instances {
        for episodes in [DpaEpisodes::PerArm, DpaEpisodes::Global] {
            let mut spec = AlgoSpec::new(Setting::paper(AlgoName::DpaTt, 0.01).expect("valid δ"));
            spec.setting.dpa_episodes = episodes;
            spec.setting.leader_counts = LeaderCounts::Global;
            same_runs_spec(&mut spec, means, 1.0, 0.5, false, 50_000);
        }
    }
    assert!(capped > 0, "no capped run exercised");
}

/// A wider sweep (random instances with K in 2..=10, random β, ε, local/global counts, both
/// DAF algorithms (with a random leader bonus) and DPA);
/// `cargo test --release -- --ignored phase_skipping_stress`.
#[test]
#[ignore = "a minute or more; run by hand after touching the skip logic"]
fn phase_skipping_stress() {
    let mut rng = rng_for_run(2026, 0);
    let mut capped = 0;
    for case in 0..300 {
        let k = 2 + (rng.next_u64() % 9) as usize;
        let mut means: Vec<f64> = (0..k)
            .map(|_| (rng.next_u64() % 20) as f64 / 20.0)
            .collect();
        // A unique best arm (ties below it are kept: they are the interesting case).
        let top = means.iter().cloned().fold(f64::MIN, f64::max);
        let i = means.iter().position(|&m| m == top).unwrap();
        means[i] = (top + 0.04).min(1.0);
        if means.iter().filter(|&&m| m == means[i]).count() > 1 {
            continue;
        }
        let algo = [AlgoName::AdapTt, AlgoName::AdapTtStar, AlgoName::DpaTt][case % 3];
        let beta = 0.1 + 0.8 * (rng.next_u64() % 1000) as f64 / 1000.0;
        let eps = [0.01, 0.1, 1.0, 10.0][(rng.next_u64() % 4) as usize];
        let local = rng.next_u64() % 4 == 0;
        let mut spec = AlgoSpec::new(Setting::paper(algo, 0.01).expect("valid δ"));
        // The leader-bonus controls on a third of the DAF cases.
        if algo != AlgoName::DpaTt {
            spec.setting.adap_leader_bonus = [
                AdapLeaderBonus::Eq11,
                AdapLeaderBonus::Eq3,
                AdapLeaderBonus::Eq11LogN,
            ][(rng.next_u64() % 3) as usize];
        }
        capped += same_runs_spec(&mut spec, &means, eps, beta, local, 300_000);
    }
    assert!(capped > 0);
}
