//! The incremental loop of the unphased Top Two algorithms (MLE estimators: TTUCB, CTB-TT,
//! Gaussian-mechanism TTUCB), for runs that nothing watches and whose ties go to the lowest
//! index: the same steps as [`super::run_loop()`], with the state each step reads kept across
//! steps ([`super::incremental`]).
//!
//! A step pulls one arm `a` and changes its mean and count only, so:
//! * `â = argmax μ̂` is kept up to date from the pulled arm alone ([`BestMean`]);
//! * the UCB leader is certified unchanged from the arms' index bounds
//!   ([`UcbLeaderTrack`]; the rule is evaluated when the certificate fails), the empirical-best
//!   leader is `â`;
//! * the transport costs of the challengers are kept as lower bounds and the argmin evaluates
//!   only those that could win ([`CostCache`]);
//! * the stopping test tries the last failing pair first, with the threshold's count terms
//!   cached per count ([`StopTest`]); while neither arm of that pair is pulled its statistic
//!   does not change, so it is not evaluated again.
//!
//! Everything else — the tracking rule, a challenger rule that is not the transport cost, the
//! draws and the estimator's update — is the rules' own code, called as in the plain loop, so
//! the random stream is drawn in the same order.

use super::Config;
use super::counters::Counters;
use super::estimators::{Estimates, Estimator};
use super::incremental::{ArgMin, CostCache, StopTest, UcbLeaderTrack};
use super::rules::{ChallengerRule, LeaderRule, TrackingRule};
use crate::bandit::outcome::RunOutcome;
use crate::rng::Rng;

/// `argmax_a μ̂_a` (lowest index), kept as one arm's mean changes per step: read from the means
/// themselves in the flat layout (a scan only when the maximiser's own mean falls), an
/// [`ArgMin`] tree of `−μ̂` in the tree layout.
struct BestMean<const TREE: bool> {
    best: usize,
    tree: ArgMin<TREE>,
}

impl<const TREE: bool> BestMean<TREE> {
    fn new(mu: &[f64]) -> Self {
        let mut tree = ArgMin::new(if TREE { mu.len() } else { 1 });
        if TREE {
            tree.fill(|a| -mu[a]);
        }
        let mut m = BestMean { best: 0, tree };
        m.rescan(mu);
        m
    }

    fn rescan(&mut self, mu: &[f64]) {
        self.best = if TREE {
            self.tree.best()
        } else {
            let mut b = 0;
            for a in 1..mu.len() {
                if mu[a] > mu[b] {
                    b = a;
                }
            }
            b
        };
    }

    /// Arm `a`'s mean changed from `old` to `new = mu[a]`.
    #[inline(always)]
    fn changed(&mut self, mu: &[f64], a: usize, old: f64, new: f64) {
        if TREE {
            self.tree.set(a, -new);
            self.best = self.tree.best();
        } else if a == self.best {
            if new < old {
                self.rescan(mu);
            }
        } else {
            let m = mu[self.best];
            if new > m || (new == m && a < self.best) {
                self.best = a;
            }
        }
    }
}

/// Runs Alg. 1 from the state after the initial pulls to the end, for an unphased estimator,
/// lowest-index ties, the stopping arm `argmax μ̂` and no observer; `reward(a, t, rng)` is the
/// reward of a pull of `a` at `t` samples. Same outcome, counters and random stream as the plain
/// loop.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_mle<E, L, C, T, R, const TREE: bool>(
    cfg: &Config<L, C, T>,
    est: &E,
    s: &mut Estimates,
    counters: &mut Counters,
    reward: &R,
    cap: u64,
    mut actions: Option<&mut Vec<u32>>,
    rng: &mut Rng,
) -> RunOutcome
where
    E: Estimator,
    L: LeaderRule,
    C: ChallengerRule,
    T: TrackingRule,
    R: Fn(usize, u64, &mut Rng) -> f64,
{
    debug_assert!(!E::PHASED);
    let k = cfg.k;
    // Every per-arm vector has `K` entries (the loop never resizes them): stated once, so
    // that an index checked against `K` needs no other check.
    assert_eq!(s.mu.len(), k);
    assert_eq!(s.local_n.len(), k);
    assert_eq!(s.inv_local_n.len(), k);
    assert_eq!(s.inv_sqrt_local_n.len(), k);
    assert_eq!(s.sum.len(), k);
    assert_eq!(s.phase.len(), k);
    assert_eq!(counters.n.len(), k);
    assert_eq!(counters.inv_n.len(), k);
    assert_eq!(counters.leader_rounds.len(), k);
    assert_eq!(counters.leader_pulls.len(), k);
    let lb = cfg.thr.lower_bound();
    let mut stop = StopTest::new(k, &cfg.thr, false, true);
    let mut best = BestMean::<TREE>::new(&s.mu);
    // Used only when `L::UCB` (a constant: no per-step test of an option).
    let mut ucb = UcbLeaderTrack::<TREE>::new(k, cfg.leader.ucb_scale().unwrap_or(f64::NAN));
    let tc = cfg.challenger.as_transport_cost();
    let mut costs = CostCache::<TREE>::new(k);
    // The statistic of the stopping test's witness is known to fail while this is true.
    let mut stop_known = false;
    loop {
        // `‖Ñ‖₁ = t` exactly for the MLE (counts below 2^53).
        let tf = s.local_n_total;
        debug_assert_eq!(tf, counters.t as f64);
        // (L) leader.
        let cand = best.best;
        let b = if L::EMPIRICAL_BEST {
            cand
        } else if L::UCB {
            ucb.leader(s, || cfg.leader.leader(k, s, counters, tf, false, rng))
        } else {
            cfg.leader.leader(k, s, counters, tf, false, rng)
        };
        // (R) + (S) stopping, on â = argmax μ̂.
        let stopped = !stop_known && stop.passes(cfg, s, cand, lb, tf);
        if stopped || counters.t >= cap {
            return RunOutcome {
                tau: counters.t,
                recommendation: cand,
                stopped,
                rounds: est.rounds(s),
            };
        }
        stop_known = stop.witness_fails(cand);
        // (C) challenger, computed only when the tracking needs it; (T) tracking.
        let a = if T::READS_CHALLENGER {
            let c = challenger(cfg, tc, &mut costs, s, counters, b, tf, rng);
            if cfg.tracking.pull_leader(b, c, counters, rng) {
                b
            } else {
                c
            }
        } else if cfg.tracking.pull_leader(b, usize::MAX, counters, rng) {
            b
        } else {
            challenger(cfg, tc, &mut costs, s, counters, b, tf, rng)
        };
        // (P) pull, (U) update.
        assert!(a < k && b < k, "invariant: arms are below K");
        let old_mu = s.mu[a];
        let r = reward(a, counters.t, rng);
        est.observe(s, a, r, rng);
        counters.n[a] += 1;
        // `1/N_a` is `1/Ñ_a` of the MLE, bit for bit (the same division of the same integer),
        // so the transport cost reads `1/Ñ` for both (`challenger_inv`); `1/N` is kept for the
        // other challenger rules.
        if tc.is_none() {
            counters.inv_n[a] = s.inv_local_n[a];
        }
        counters.leader_rounds[b] += 1;
        if a == b {
            counters.leader_pulls[b] += 1;
        }
        counters.t += 1;
        if let Some(v) = actions.as_deref_mut() {
            v.push(a as u32);
        }
        let new_mu = s.mu[a];
        best.changed(&s.mu, a, old_mu, new_mu);
        stop_known &= best.best == cand && !stop.reads(a);
        if L::UCB {
            ucb.pulled(s, a);
        }
        costs.pulled(a, new_mu > old_mu);
    }
}

/// Step (C): the challenger against `b`, from the cache for the transport cost, else by the
/// rule.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn challenger<L, C: ChallengerRule, T, const TREE: bool>(
    cfg: &Config<L, C, T>,
    tc: Option<super::rules::TransportCostChallenger>,
    costs: &mut CostCache<TREE>,
    s: &Estimates,
    n: &Counters,
    b: usize,
    tf: f64,
    rng: &mut Rng,
) -> usize {
    match tc {
        // The MLE's `1/N` is `1/Ñ` (see the pull).
        Some(tc) => costs.argmin(tc.cost, &s.mu, &s.inv_local_n, b),
        None => cfg.challenger.challenger(cfg.k, b, s, n, tf, false, rng),
    }
}
