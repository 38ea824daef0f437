//! The loop of Alg. 1 (READINGS.md §D.2): initialisation, then phase switch (E), leader (L),
//! stopping (R, S), challenger (C), tracking (T), pull and update (P, U), with the fast paths
//! of [`super::fast_paths`] where they are exact.

use super::estimators::{Estimates, Estimator};
use super::fast_paths::{rotate_steps, skip_steps, SKIP_STREAK};
use super::rules::{argmax, ChallengerRule, LeaderRule, StopArm, TrackingRule};
use super::{Config, Counters, Observer, RewardSource};
use crate::bandit::rules::Pair;
use crate::bandit::RunOutcome;
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
}

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
    let RunOptions {
        src,
        max_steps,
        mut actions,
        check_always,
    } = opts;
    let k = cfg.k;
    let mut s = Estimates::new(k);
    let mut counters = Counters {
        n: vec![0; k],
        inv_n: vec![1.0; k],
        leader_rounds: vec![0; k],
        leader_pulls: vec![0; k],
        ids_sum: vec![0.0; k],
        t: 0,
    };
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
    let lb = cfg.thr.lower_bound();
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
    // Consecutive single steps that pulled the same challenger (skips are tried from
    // `SKIP_STREAK` on).
    let (mut streak, mut prev_c) = (0u32, usize::MAX);
    loop {
        // (E) phase switch: only the arm pulled last can trigger (R.8).
        if E::PHASED && last != usize::MAX {
            changed |= est.switch(&mut s, last, &counters.n, lazy, rng);
        }
        obs.after_switch(&counters, &s, changed);
        let tf = counters.t as f64;
        // (L) leader, computed first because the reference AdaP-TT stops on it.
        let b_lead = if !(changed || leader_dynamic) {
            b_cached
        } else {
            cfg.leader.leader(k, &s, &counters, tf, uni, rng)
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
            let stop = passes_stopping_test(cfg, &s, cand, lb, tf);
            if stop {
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
            let c_chal = chal(&counters, rng);
            let (m, a, kept) = skip_steps(
                k,
                tc,
                &s,
                &mut counters,
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
            (last, streak, prev_c) = rotate_steps(
                k,
                tc.cost,
                &s,
                &mut counters,
                b_lead,
                beta,
                cap,
                streak,
                prev_c,
            );
            continue;
        }
        let c_lazy = !uni && obs.passive() && !T::READS_CHALLENGER;
        let mut c_memo = if c_lazy {
            usize::MAX
        } else {
            chal(&counters, rng)
        };
        // (T) tracking.
        let a = if cfg.tracking.pull_leader(b_lead, c_memo, &mut counters, rng) {
            b_lead
        } else {
            if c_memo == usize::MAX {
                c_memo = chal(&counters, rng);
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
        counters.inv_n[a] = 1.0 / counters.n[a] as f64;
        counters.leader_rounds[b_lead] += 1;
        if a == b_lead {
            counters.leader_pulls[b_lead] += 1;
        }
        counters.t += 1;
        last = a;
        if let Some(v) = actions.as_deref_mut() {
            v.push(a as u32);
        }
        obs.step(&counters, &s, b_lead, c_memo, a);
    }
}

/// Steps (R) + (S) of Alg. 1: whether `W_{â,b}(μ̃, Ñ) >= c_{â,b}` for every arm `b ≠ â`, `â = cand`
/// (statistic `cfg.stop_cost`, threshold `cfg.thr`; a pair whose statistic is below `lb`, a lower
/// bound of every threshold, fails without evaluating it; a NaN threshold never stops).
#[inline(always)]
fn passes_stopping_test<L, C, T>(
    cfg: &Config<L, C, T>,
    s: &Estimates,
    cand: usize,
    lb: f64,
    t: f64,
) -> bool {
    for b in 0..cfg.k {
        if b == cand {
            continue;
        }
        let w = cfg
            .stop_cost
            .eval(s.mu[cand], s.mu[b], s.inv_local_n[cand], s.inv_local_n[b]);
        if w < lb {
            return false;
        }
        let p = Pair {
            mu_a: s.mu[cand],
            mu_b: s.mu[b],
            w_a: s.local_n[cand],
            w_b: s.local_n[b],
            k_a: s.phase[cand] as f64,
            k_b: s.phase[b] as f64,
            t,
        };
        // NaN threshold: do not stop (w is never NaN).
        let c = cfg.thr.value(&p);
        if w < c || c.is_nan() {
            return false;
        }
    }
    true
}
