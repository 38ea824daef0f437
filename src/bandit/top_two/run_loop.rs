//! The loop of Alg. 1 (MATH.md D.2): initialisation, then phase switch (E), leader (L),
//! stopping (R, S), challenger (C), tracking (T), pull and update (P, U), with the fast paths
//! of [`super::fast_paths`] where they are exact.

use super::estimators::{Estimates, Estimator};
use super::fast_paths::{rotate_steps, skip_steps, SKIP_STREAK};
use super::rules::{argmax, argmin_except, Challenger, Leader, StopArm, Tracking};
use super::{Config, Counters, Observer, RewardSource};
use crate::bandit::rules::Pair;
use crate::bandit::RunOutcome;
use crate::rng::Rng;
use rand::Rng as _;

/// Runs Alg. 1. `check_always`: evaluate the stopping rule at every iteration even when nothing
/// was released (the plain step-by-step reference). Returns the outcome; pushes actions when
/// asked.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_loop<E: Estimator, O: Observer + ?Sized>(
    cfg: &Config,
    est: &E,
    src: RewardSource<'_>,
    rng: &mut Rng,
    max_steps: u64,
    mut actions: Option<&mut Vec<u32>>,
    check_always: bool,
    obs: &mut O,
) -> RunOutcome {
    let k = cfg.k;
    let mut s = Estimates::new(k);
    let mut core = Counters {
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
        if core.t >= cap {
            return unstopped(&s, core.t, rng);
        }
        let r = reward(a, core.t, rng);
        est.init(&mut s, a, r, rng);
        core.n[a] = 1;
        core.t += 1;
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
    let leader_dynamic = !E::PHASED
        || uni
        || matches!(
            cfg.leader,
            Leader::RefAdap { .. } | Leader::Ucb { live: true, .. }
        );
    let mut b_cached = 0usize;
    // Whole runs of steps may be skipped when nothing between two phase switches is random or
    // watched: lazy rewards, no stopping test, a fixed leader, β-tracking, the deterministic
    // transport-cost challenger.
    let chunkable = E::PHASED
        && lazy.is_some()
        && actions.is_none()
        && obs.passive()
        && !check_every
        && !leader_dynamic
        && !uni
        && matches!(cfg.tracking, Tracking::Beta(_))
        && matches!(cfg.challenger, Challenger::Tc { .. });
    // Single steps may run in `rotate_steps` when the challenger uses global counts and phases
    // are per arm.
    let rotatable = chunkable
        && !est.global_episodes()
        && matches!(cfg.challenger, Challenger::Tc { local: false });
    // Consecutive single steps that pulled the same challenger (skips are tried from
    // `SKIP_STREAK` on).
    let (mut streak, mut prev_c) = (0u32, usize::MAX);
    loop {
        // (E) phase switch: only the arm pulled last can trigger (ISSUE 8).
        if E::PHASED && last != usize::MAX {
            changed |= est.switch(&mut s, last, &core.n, lazy, rng);
        }
        obs.after_switch(&core, &s, changed);
        let tf = core.t as f64;
        // (L) leader, computed first because the reference AdaP-TT stops on it.
        let b_lead = if !(changed || leader_dynamic) {
            b_cached
        } else {
            match cfg.leader {
                Leader::Ucb { c, live: false } => {
                    let f = (c * s.local_n_total.ln()).sqrt();
                    argmax(k, |a| s.mu[a] + f * s.inv_sqrt_local_n[a], uni, rng)
                }
                Leader::Ucb { c, live: true } => {
                    let f = (c * tf.ln()).sqrt();
                    argmax(k, |a| s.mu[a] + f * core.inv_n[a].sqrt(), uni, rng)
                }
                Leader::PrivateUcb => argmax(k, |a| s.mu[a] + s.private_bonus[a], uni, rng),
                Leader::PrivateUcbLogN { eps } => {
                    let l = s.local_n_total.ln();
                    argmax(
                        k,
                        |a| s.mu[a] + (l * s.inv_local_n[a]).sqrt() + l * s.inv_local_n[a] / eps,
                        uni,
                        rng,
                    )
                }
                Leader::Empirical => argmax(k, |a| s.mu[a], uni, rng),
                Leader::RefAdap { eps } => {
                    let ln = tf.ln();
                    argmax(
                        k,
                        |a| {
                            s.mu[a]
                                + ln * s.inv_local_n[a] / eps
                                + (0.5 * ln * s.inv_local_n[a]).sqrt()
                        },
                        uni,
                        rng,
                    )
                }
            }
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
            let mut stop = true;
            for b in 0..k {
                if b == cand {
                    continue;
                }
                let w =
                    cfg.stop_cost
                        .eval(s.mu[cand], s.mu[b], s.inv_local_n[cand], s.inv_local_n[b]);
                if w < lb {
                    stop = false;
                    break;
                }
                let p = Pair {
                    mu_a: s.mu[cand],
                    mu_b: s.mu[b],
                    w_a: s.local_n[cand],
                    w_b: s.local_n[b],
                    k_a: s.phase[cand] as f64,
                    k_b: s.phase[b] as f64,
                    t: tf,
                };
                // NaN threshold: do not stop (w is never NaN).
                let c = cfg.thr.value(&p);
                if w < c || c.is_nan() {
                    stop = false;
                    break;
                }
            }
            if stop {
                let rec = argmax(k, |a| s.mu[a], uni, rng);
                return RunOutcome {
                    tau: core.t,
                    recommendation: rec,
                    stopped: true,
                    rounds: rounds(&s),
                };
            }
        }
        changed = false;
        if core.t >= cap {
            return unstopped(&s, core.t, rng);
        }
        // (C) challenger. Without random tie-breaking it is a pure function of the state, so it
        // is computed only when the tracking picks it (or an observer or IDS reads it).
        let chal = |core: &Counters, rng: &mut Rng| match cfg.challenger {
            Challenger::Tc { local } => {
                let (mb, cost) = (s.mu[b_lead], cfg.chal_cost);
                if local {
                    let ib = s.inv_local_n[b_lead];
                    argmin_except(
                        k,
                        b_lead,
                        |b| cost.eval(mb, s.mu[b], ib, s.inv_local_n[b]),
                        uni,
                        rng,
                    )
                } else {
                    let ib = core.inv_n[b_lead];
                    argmin_except(
                        k,
                        b_lead,
                        |b| cost.eval(mb, s.mu[b], ib, core.inv_n[b]),
                        uni,
                        rng,
                    )
                }
            }
            Challenger::RefSigned { adap } => {
                let kappa = if adap {
                    1.0 / (1.0 + tf.sqrt())
                } else {
                    1.0 / (1.0 + tf).ln().sqrt().sqrt()
                };
                let (mb, ib) = (s.mu[b_lead], core.inv_n[b_lead]);
                argmin_except(
                    k,
                    b_lead,
                    |j| (mb - s.mu[j] + kappa) / (ib + core.inv_n[j]).sqrt(),
                    uni,
                    rng,
                )
            }
        };
        if let (true, Tracking::Beta(beta), Challenger::Tc { local }) =
            (streak >= SKIP_STREAK, cfg.tracking, cfg.challenger)
        {
            // Phase skipping: jump over every step up to the next phase switch (or challenger
            // change, or the cap) at once; see [`skip_steps`]. Tried only once the challenger
            // has repeated, as skips of one or two steps cost more than they save.
            let c_chal = chal(&core, rng);
            let (m, a, kept) = skip_steps(
                cfg,
                &s,
                &mut core,
                b_lead,
                c_chal,
                beta,
                local,
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
        if let (true, Tracking::Beta(beta)) = (rotatable, cfg.tracking) {
            // Single steps in a tight loop up to the next release (or a long streak of one
            // challenger, for `skip_steps`); see [`rotate_steps`].
            (last, streak, prev_c) =
                rotate_steps(cfg, &s, &mut core, b_lead, beta, cap, streak, prev_c);
            continue;
        }
        let c_lazy = !uni && obs.passive() && !matches!(cfg.tracking, Tracking::Ids);
        let mut c_memo = if c_lazy { usize::MAX } else { chal(&core, rng) };
        // (T) tracking.
        let a = match cfg.tracking {
            Tracking::Beta(beta) => {
                if core.leader_pulls[b_lead] as f64
                    <= beta * (core.leader_rounds[b_lead] + 1) as f64
                {
                    b_lead
                } else {
                    if c_memo == usize::MAX {
                        c_memo = chal(&core, rng);
                    }
                    if chunkable {
                        streak = if c_memo == prev_c { streak + 1 } else { 1 };
                        prev_c = c_memo;
                    }
                    c_memo
                }
            }
            Tracking::Ids => {
                let c_chal = c_memo;
                let (nb, nc) = (core.n[b_lead] as f64, core.n[c_chal] as f64);
                core.ids_sum[b_lead] += nc / (nb + nc);
                if core.leader_pulls[b_lead] as f64 <= core.ids_sum[b_lead] {
                    b_lead
                } else {
                    c_chal
                }
            }
            Tracking::Coin(beta) => {
                if ((rng.next_u64() >> 11) as f64) * (1.0 / 9_007_199_254_740_992.0) < beta {
                    b_lead
                } else {
                    if c_memo == usize::MAX {
                        c_memo = chal(&core, rng);
                    }
                    c_memo
                }
            }
        };
        // (P) pull, (U) update.
        if lazy.is_none() {
            let r = reward(a, core.t, rng);
            est.observe(&mut s, a, r, rng);
            if !E::PHASED {
                changed = true;
            }
        }
        core.n[a] += 1;
        core.inv_n[a] = 1.0 / core.n[a] as f64;
        core.leader_rounds[b_lead] += 1;
        if a == b_lead {
            core.leader_pulls[b_lead] += 1;
        }
        core.t += 1;
        last = a;
        if let Some(v) = actions.as_deref_mut() {
            v.push(a as u32);
        }
        obs.step(&core, &s, b_lead, c_memo, a);
    }
}
