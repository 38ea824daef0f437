//! The loop of Alg. 1 (READINGS.md §D.2): initialisation, then phase switch (E), leader (L),
//! stopping (R, S), challenger (C), tracking (T), pull and update (P, U), with the fast paths
//! of [`super::fast_paths`] where they are exact.

use super::arms::{Arms, draw_bernoulli, draw_gaussian};
use super::counters::Counters;
use super::estimators::{Estimates, Estimator};
use super::fast_paths::{CheapestPick, SKIP_STREAK, rotate_steps, skip_steps};
use super::incremental::{CostCache, FLAT_MAX, StopTest};
use super::mle_path::run_mle;
use super::rotation_leap::{LeapScratch, rotation_leap};
use super::rules::{ChallengerRule, LeaderRule, StopArm, TrackingRule, argmax};
use super::{Config, Observer, RewardSource};
use crate::bandit::outcome::RunOutcome;
use crate::rng::Rng;

/// How a run is driven, beside its algorithm and randomness.
pub(crate) struct RunOptions<'a> {
    /// Where the rewards come from.
    pub src: RewardSource<'a>,
    /// The step cap (a table also caps at its number of rows).
    pub max_steps: u64,
    /// Where to push the pulled arms, if anywhere.
    pub actions: Option<&'a mut Vec<u32>>,
    /// Evaluate the stopping rule at every iteration even when nothing was released (the plain
    /// step-by-step reference).
    pub check_always: bool,
    /// Where to write the final counts `N_{τ,a}`, if anywhere.
    pub final_counts: Option<&'a mut Vec<u64>>,
    /// The layout of the incremental state: `Some(true)` a tournament tree, `Some(false)` flat
    /// arrays, `None` by `K` (tree above [`FLAT_MAX`] arms). Every layout gives the same run.
    pub tree_layout: Option<bool>,
}

/// Single steps after a release or a rotation leap before a leap is tried (see
/// [`rotation_leap`]).
const LEAP_WAIT_MIN: u64 = 2;
/// The most single steps between two leap attempts (the wait doubles after each failed one).
/// Large, so that where leaps keep failing (distinct means, where the arms' thresholds drift
/// apart with the leader's count) the attempts cost next to nothing: a failed attempt can try 16
/// windows before its yield is judged, and a wait of at most 1024 steps left that at several
/// percent of the steps' cost (μ4 at ε = 0.001: +7% instructions over the plain steps). A
/// release or a leap resets the wait.
const LEAP_WAIT_MAX: u64 = 1 << 16;

/// Runs Alg. 1 with the estimator `E` and the rules `L`, `C`, `T` (one monomorphised copy per
/// combination). Returns the outcome; pushes the actions when asked.
pub(crate) fn run_loop<E, L, C, T, O>(
    cfg: &Config<L, C, T>,
    est: &E,
    opts: RunOptions<'_>,
    rng: &mut Rng,
    obs: &mut O,
) -> RunOutcome
where
    E: Estimator,
    L: LeaderRule,
    C: ChallengerRule,
    T: TrackingRule,
    O: Observer + ?Sized,
{
    let k = cfg.k;
    let mut counters = Counters {
        n: vec![0; k],
        inv_n: vec![1.0; k],
        leader_rounds: vec![0; k],
        leader_pulls: vec![0; k],
        ids_sum: vec![0.0; k],
        t: 0,
    };
    let RunOptions {
        src,
        max_steps,
        actions,
        check_always,
        final_counts,
        tree_layout,
    } = opts;
    let tree = tree_layout.unwrap_or(k > FLAT_MAX);
    let out = run_steps(
        cfg,
        est,
        src,
        max_steps,
        actions,
        check_always,
        tree,
        rng,
        obs,
        &mut counters,
    );
    if let Some(c) = final_counts {
        c.clear();
        c.extend_from_slice(&counters.n);
    }
    out
}

/// The body of [`run_loop()`] on fresh `counters`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn run_steps<E, L, C, T, O>(
    cfg: &Config<L, C, T>,
    est: &E,
    src: RewardSource<'_>,
    max_steps: u64,
    mut actions: Option<&mut Vec<u32>>,
    check_always: bool,
    tree: bool,
    rng: &mut Rng,
    obs: &mut O,
    counters: &mut Counters,
) -> RunOutcome
where
    E: Estimator,
    L: LeaderRule,
    C: ChallengerRule,
    T: TrackingRule,
    O: Observer + ?Sized,
{
    let k = cfg.k;
    let mut s = Estimates::new(k);
    let (arms, lazy, table) = match src {
        RewardSource::PerPull(a) => (Some(a), None, None),
        RewardSource::PhaseSums(a) => (Some(a), Some(a), None),
        RewardSource::Table(t) => (None, None, Some(t)),
    };
    let cap = match table {
        Some(t) => max_steps.min(t.len() as u64),
        None => max_steps,
    };
    let reward = |a: usize, t: u64, rng: &mut Rng| -> f64 {
        match table {
            Some(tab) => tab[t as usize][a],
            None => arms
                .expect("invariant: an arm model or a table")
                .draw(a, rng),
        }
    };
    let uni = cfg.tie_uniform;
    let rounds = |s: &Estimates| est.rounds(s);
    let unstopped = |s: &Estimates, t: u64, rng: &mut Rng| RunOutcome {
        tau: t,
        recommendation: argmax(k, |a| s.mu[a], uni, rng),
        stopped: false,
        rounds: rounds(s),
    };
    // Initialisation: a_t = t for t = 1..K.
    for a in 0..k {
        if counters.t >= cap {
            return unstopped(&s, counters.t, rng);
        }
        let r = reward(a, counters.t, rng);
        est.init(&mut s, a, r, rng);
        counters.n[a] = 1;
        counters.t += 1;
        if let Some(v) = actions.as_deref_mut() {
            v.push(a as u32);
        }
    }
    // Unphased estimators without observer or random ties: the incremental loop.
    if !E::PHASED && !uni && obs.passive() && cfg.stop_arm == StopArm::Argmax {
        let s = &mut s;
        // One loop per reward family (no per-draw match of the arm model) and per layout of
        // the incremental state (flat or tree, by K).
        macro_rules! by_layout {
            ($reward:expr) => {
                if tree {
                    run_mle::<_, _, _, _, _, true>(
                        cfg, est, s, counters, $reward, cap, actions, rng,
                    )
                } else {
                    run_mle::<_, _, _, _, _, false>(
                        cfg, est, s, counters, $reward, cap, actions, rng,
                    )
                }
            };
        }
        return match (arms, table) {
            (Some(Arms::Bern { thr, .. }), _) => {
                by_layout!(&|a: usize, _: u64, rng: &mut Rng| draw_bernoulli(thr, a, rng))
            }
            (Some(Arms::Gauss { mu, sigma }), _) => {
                by_layout!(&|a: usize, _: u64, rng: &mut Rng| draw_gaussian(mu, *sigma, a, rng))
            }
            (None, Some(tab)) => by_layout!(&|a: usize, t: u64, _: &mut Rng| tab[t as usize][a]),
            (None, None) => unreachable!("invariant: an arm model or a table"),
        };
    }
    let lb = cfg.thr.lower_bound();
    // The plain in-order stopping test whenever an observer watches (the reference the
    // shortcuts are tested against).
    let mut stop = StopTest::new(k, &cfg.thr, !obs.passive(), !E::PHASED);
    let check_every = check_always || !E::PHASED || cfg.thr.depends_on_time();
    let only_on_switch = cfg.stop_arm == StopArm::LeaderOnSwitch;
    let mut changed = true;
    let mut last = usize::MAX;
    // The leader only moves when an estimate is released, unless it reads the time or the live
    // counts, or breaks ties at random (then no fast path: see `chunkable`).
    let leader_dynamic = !E::PHASED || uni || !L::FROZEN;
    let mut b_cached = 0usize;
    // Whole runs of steps may be skipped when nothing between two phase switches is random or
    // watched: lazy rewards, no stopping test, a fixed leader, β-tracking, the deterministic
    // transport-cost challenger.
    let beta_tracking = cfg.tracking.beta();
    let transport_cost = cfg.challenger.as_transport_cost();
    let chunkable = E::PHASED
        && lazy.is_some()
        && actions.is_none()
        && obs.passive()
        && !check_every
        && !leader_dynamic
        && !uni
        && beta_tracking.is_some()
        && transport_cost.is_some();
    // Single steps may run in `rotate_steps` when the challenger uses global counts and phases
    // are per arm.
    let rotatable =
        chunkable && !est.global_episodes() && transport_cost.is_some_and(|tc| !tc.local);
    // The transport costs of `rotate_steps` for many arms, kept between its calls: valid while
    // no estimate is released (cleared at every release).
    let mut tree_costs = CostCache::<true>::new(if tree { k } else { 1 });
    // Consecutive single steps that pulled the same challenger (skips are tried from
    // `SKIP_STREAK` on).
    let (mut streak, mut prev_c) = (0u32, usize::MAX);
    // Rotation leaps (few arms): the single steps to do before the next attempt, which doubles
    // after each failed attempt (up to `LEAP_WAIT_MAX`) and is reset by a leap.
    let mut leap = LeapScratch::default();
    let (mut leap_wait, mut leap_backoff) = (LEAP_WAIT_MIN, LEAP_WAIT_MIN);
    loop {
        // (E) phase switch: only the arm pulled last can trigger (R.8).
        if E::PHASED && last != usize::MAX {
            changed |= est.switch(&mut s, last, &counters.n, lazy, rng);
        }
        obs.after_switch(counters, &s, changed);
        if changed {
            tree_costs.clear();
            // A new rotation may start with the release.
            (leap_wait, leap_backoff) = (LEAP_WAIT_MIN, LEAP_WAIT_MIN);
        }
        let tf = counters.t as f64;
        // (L) leader, computed first because the reference AdaP-TT stops on it.
        let b_lead = if !(changed || leader_dynamic) {
            b_cached
        } else {
            cfg.leader.leader(k, &s, counters, tf, uni, rng)
        };
        b_cached = b_lead;
        // (R) + (S) stopping.
        let do_check = if only_on_switch {
            changed
        } else {
            changed || check_every
        };
        if do_check {
            let cand = match cfg.stop_arm {
                StopArm::Argmax => argmax(k, |a| s.mu[a], uni, rng),
                StopArm::LeaderOnSwitch => b_lead,
            };
            if stop.passes(cfg, &s, cand, lb, tf) {
                let rec = argmax(k, |a| s.mu[a], uni, rng);
                return RunOutcome {
                    tau: counters.t,
                    recommendation: rec,
                    stopped: true,
                    rounds: rounds(&s),
                };
            }
        }
        changed = false;
        if counters.t >= cap {
            return unstopped(&s, counters.t, rng);
        }
        // (C) challenger. Without random tie-breaking it is a pure function of the state, so it
        // is computed only when the tracking picks it (or an observer or IDS reads it).
        let chal = |counters: &Counters, rng: &mut Rng| {
            cfg.challenger
                .challenger(k, b_lead, &s, counters, tf, uni, rng)
        };
        if let (true, Some(beta), Some(tc)) = (streak >= SKIP_STREAK, beta_tracking, transport_cost)
        {
            // Phase skipping: jump over every step up to the next phase switch (or challenger
            // change, or the cap) at once; see [`skip_steps`]. Tried only once the challenger
            // has repeated, as skips of one or two steps cost more than they save.
            let c_chal = chal(counters, rng);
            let (m, a, kept) = skip_steps(
                k,
                tc,
                &s,
                counters,
                b_lead,
                c_chal,
                beta,
                est.global_episodes(),
                cap,
            );
            debug_assert!(m >= 1);
            if !kept {
                streak = 0;
            }
            last = a;
            continue;
        }
        if let (true, Some(beta), Some(tc)) = (rotatable, beta_tracking, transport_cost) {
            // Single steps in a tight loop up to the next release (or a long streak of one
            // challenger, for `skip_steps`); see [`rotate_steps`].
            (last, streak, prev_c) = if tree {
                rotate_steps(
                    k,
                    tc.cost,
                    &s,
                    counters,
                    b_lead,
                    beta,
                    cap,
                    streak,
                    prev_c,
                    &mut tree_costs,
                    u64::MAX,
                )
            } else {
                if leap_wait == 0 {
                    // Proved windows of the rotation's picks at once; see [`rotation_leap`].
                    if let Some(a) =
                        rotation_leap(k, tc.cost, &s, counters, b_lead, beta, cap, &mut leap)
                    {
                        (last, streak, prev_c) = (a, 0, usize::MAX);
                        leap_backoff = LEAP_WAIT_MIN;
                        leap_wait = LEAP_WAIT_MIN;
                        continue;
                    }
                    leap_backoff = (2 * leap_backoff).min(LEAP_WAIT_MAX);
                    leap_wait = leap_backoff;
                }
                let t0 = counters.t;
                let out = rotate_steps(
                    k,
                    tc.cost,
                    &s,
                    counters,
                    b_lead,
                    beta,
                    cap,
                    streak,
                    prev_c,
                    &mut CheapestPick::default(),
                    leap_wait,
                );
                leap_wait = leap_wait.saturating_sub(counters.t - t0);
                out
            };
            continue;
        }
        let c_lazy = !uni && obs.passive() && !T::READS_CHALLENGER;
        let mut c_memo = if c_lazy {
            usize::MAX
        } else {
            chal(counters, rng)
        };
        // (T) tracking.
        let a = if cfg.tracking.pull_leader(b_lead, c_memo, counters, rng) {
            b_lead
        } else {
            if c_memo == usize::MAX {
                c_memo = chal(counters, rng);
            }
            if chunkable {
                streak = if c_memo == prev_c { streak + 1 } else { 1 };
                prev_c = c_memo;
            }
            c_memo
        };
        // (P) pull, (U) update.
        if lazy.is_none() {
            let r = reward(a, counters.t, rng);
            est.observe(&mut s, a, r, rng);
            if !E::PHASED {
                changed = true;
            }
        }
        counters.n[a] += 1;
        counters.inv_n[a] = 1.0 / (counters.n[a] as i64) as f64;
        counters.leader_rounds[b_lead] += 1;
        if a == b_lead {
            counters.leader_pulls[b_lead] += 1;
        }
        counters.t += 1;
        last = a;
        if let Some(v) = actions.as_deref_mut() {
            v.push(a as u32);
        }
        obs.step(counters, &s, b_lead, c_memo, a);
    }
}
