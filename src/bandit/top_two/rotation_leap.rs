//! [`rotation_leap`]: a challenger rotation advanced many picks at once, exactly.
//!
//! Between two releases of a phased estimator with lazy rewards the leader `b` and the private
//! means are frozen, and the transport-cost challenger picks the lowest-index argmin of
//! `num_j / (1/N_b + 1/N_j)`. On instances with near-tied arms (μ1's three arms at 0.9) the
//! challenger changes at almost every pick, so [`skip_steps`](super::fast_paths::skip_steps)
//! cannot leap and [`rotate_steps`](super::fast_paths::rotate_steps) pays every step. But what
//! a later step reads is only the counts, not the order of the picks that made them: a leap needs
//! no replay, only a proof of which arms the next picks are.
//!
//! # The proof
//! In real arithmetic the pick is the argmax of `g_j(x) = (x + 1/N_j) a_j` with `x = 1/N_b` and
//! `a_j = 1/num_j`. Arm `j`'s `k`-th next pull happens at the *threshold*
//! `T_jk(x) = (x + 1/(N_j + k)) a_j`, decreasing in `k`. The leader's count at the `q`-th
//! challenger pick of the leap lies in an interval of width about one, from the β-tracking rule
//! ([`LeaderBounds`]), so over a window of picks `x` lies in a known interval `[x_lo, x_hi]`.
//!
//! A *window* of `W` picks takes `p_j` thresholds of each arm (the set `Θ`, `Σ p_j = W`). If
//! for every `x` of the window's interval every threshold in `Θ` exceeds every threshold
//! outside it, the window's picks are exactly `Θ` (in some order): at each pick the available
//! thresholds are each arm's next one, `Θ` is closed downwards per arm, so the largest available
//! is in `Θ` while any of `Θ` is left. With each arm's thresholds decreasing, it suffices that
//! the smallest `T_j,p_j−1` over the arms with `p_j >= 1` exceeds the largest `T_j,p_j`, and each
//! difference is linear in `x`, so the two ends of the interval suffice ([`window`]). `Θ` is
//! the set of thresholds above a level `λ` at the window's largest `x`, in closed form per arm;
//! the window's depth (`λ` below the current largest `g`) grows by half after a proved window
//! and halves after a failed one, down to a pick or two; the leap ends where that fails too.
//!
//! # Floating point
//! The loop's cost `fl(num / fl(fl(1/N_b) + fl(1/N_j)))` is within `3u` of the real cost
//! (`u = 2^-53`), so a real margin of a relative `8u` decides its comparisons, and exact ties
//! (where the loop's lowest-index rule would act) cannot occur. Every inequality here holds
//! with a relative margin [`ETA`] ≫ `u`, which also covers this module's own rounding (a few `u`
//! per quantity, with counts below [`COUNT_MAX`]). Near a tie nothing is proved, the leap stops,
//! and single steps go on.

use super::counters::Counters;
use super::estimators::Estimates;
use super::fast_paths::{first_true, tracked_leader_pulls};
use crate::bandit::rules::Cost;

/// The relative margin every inequality of a leap is proved with (see the module doc).
const ETA: f64 = 1e-11;

/// Counts beyond which no leap is tried: `1/N`, the leader bounds and the margins stay far
/// from `f64`'s resolution.
const COUNT_MAX: u64 = 1 << 40;

/// The picks a leap must prove per window it tries (proved or not) to be worth its cost (a
/// window costs about as much as a few single steps): below it the leap stops, after
/// [`YIELD_GRACE`] tries, and reports failure (the caller then waits longer before the next).
const YIELD_MIN: u64 = 6;

/// The windows a leap tries before its yield is judged.
const YIELD_GRACE: u64 = 16;

/// Bounds on the leader's count `N_b` at the `q`-th challenger pick of a leap (`q >= 1`), under
/// β-tracking with the leader fixed. With `A` the leader's tracked pulls and `L` its rounds
/// (`a0`, `l0` at the start), and `D = l0 + q − a0`:
/// - the pick is a challenger pick, so `A > β (L + 1)` with `L = l0 + (q − 1) + (A − a0)`:
///   `A > β D / (1 − β)`;
/// - at the last leader pick before it, if any in the leap, `A − 1 <= β (L' + 1)` with
///   `L' <= l0 + (q − 1) + (A − 1 − a0)`: `A <= (1 + β (D − 1)) / (1 − β)`; otherwise `A = a0`.
///
/// `N_b = nb0 + A − a0`. The rule's `f64` product `β (L + 1)` is within `2^-12` of the real one
/// for counts below [`COUNT_MAX`]; both bounds are widened by [`LEADER_SLACK`]` / (1 − β)`,
/// which covers it and this function's own rounding (about `2^-11 / (1 − β)`).
#[derive(Debug, Clone, Copy)]
pub(super) struct LeaderBounds {
    /// `nb0 − a0`.
    base: f64,
    a0: f64,
    /// The real bounds on `A` at `q = 0`, widened, and their slope `β / (1 − β)` in `q`.
    lo0: f64,
    hi0: f64,
    slope: f64,
}

/// The widening of [`LeaderBounds`]' real bounds (in pulls).
const LEADER_SLACK: f64 = 0.05;

impl LeaderBounds {
    pub(super) fn new(nb0: u64, a0: u64, l0: u64, beta: f64) -> Self {
        let q1 = 1.0 - beta;
        let d = l0 as f64 - a0 as f64;
        let slack = LEADER_SLACK / q1;
        LeaderBounds {
            base: nb0 as f64 - a0 as f64,
            a0: a0 as f64,
            lo0: beta * d / q1 - slack,
            hi0: (1.0 + beta * (d - 1.0)) / q1 + slack,
            slope: beta / q1,
        }
    }
    /// The real lower bound of `A` at pick `q` (always valid, not rounded to an integer).
    #[inline(always)]
    fn lo_real(&self, q: f64) -> f64 {
        self.lo0 + self.slope * q
    }
    /// The real upper bound of `A` at pick `q`, valid once a leader pick happened in the leap,
    /// which is certain when it exceeds `a0`.
    #[inline(always)]
    fn hi_real(&self, q: f64) -> f64 {
        self.hi0 + self.slope * q
    }
    /// `[N_b]` bounds at pick `q`, as integers (`A` is one; `floor` by truncation, the
    /// bounds being clamped at `a0 >= 0` first where it matters).
    #[inline(always)]
    pub(super) fn count_range(&self, q: f64) -> (f64, f64) {
        let l = self.lo_real(q);
        let lo = if l < 0.0 { 0.0 } else { l as i64 as f64 + 1.0 }.max(self.a0);
        let hi = (self.hi_real(q).max(self.a0) as i64 as f64).max(self.a0);
        (self.base + lo, self.base + hi)
    }
    /// The most challenger picks a leap may do so that, right after the last one, the leader's
    /// count is below `release` and the leap's steps (picks plus leader pulls) are at most
    /// `room`: with `A <= max(a0, hi(q))` and `nb0 = base + a0 < release`, it suffices that
    /// `base + hi(q) <= release − 1` and `q + hi(q) − a0 <= room`.
    pub(super) fn picks_before(&self, release: f64, room: f64) -> u64 {
        let by_release = (release - 1.0 - self.base - self.hi0) / self.slope;
        let by_room = (room + self.a0 - self.hi0) / (1.0 + self.slope);
        by_release.min(by_room).min(room).max(0.0) as u64
    }
}

/// Scratch space of [`rotation_leap`] (kept across calls: no allocation per leap): the arms
/// other than the leader.
#[derive(Debug, Default)]
pub(super) struct LeapScratch {
    arms: Vec<LeapArm>,
}

/// An arm other than the leader during a leap.
#[derive(Debug, Clone, Copy)]
struct LeapArm {
    /// `a_j = 1/num_j`.
    a: f64,
    /// Its count, as `f64` (exact below 2^53).
    c: f64,
    /// Its pulls in the window being proved.
    p: f64,
    /// The count at which it releases (`2 start_j`).
    release: f64,
    /// Its index.
    j: usize,
}

/// Advances the run by as many challenger picks as the module doc's proofs allow (leader picks
/// in between, by β-tracking in closed form), stopping before any release, the leader's included,
/// and before the cap. Same preconditions as [`rotate_steps`](super::fast_paths::rotate_steps):
/// a fixed leader `b`, a phased estimator with lazy rewards and per-arm phases, the
/// transport-cost challenger on global counts, β-tracking.
///
/// Returns an arm pulled in the leap (no arm reached a release, so which one stands for the
/// arm pulled last does not matter), or `None` when it proved fewer than [`YIELD_MIN`] picks per
/// window tried; the picks proved are done either way.
#[allow(clippy::too_many_arguments)]
pub(super) fn rotation_leap(
    k: usize,
    cost: Cost,
    s: &Estimates,
    counters: &mut Counters,
    b: usize,
    beta: f64,
    cap: u64,
    scratch: &mut LeapScratch,
) -> Option<usize> {
    let (nb0, a0, l0, t0) = (
        counters.n[b],
        counters.leader_pulls[b],
        counters.leader_rounds[b],
        counters.t,
    );
    if nb0 >= COUNT_MAX || t0 >= COUNT_MAX || k < 2 || t0 + 1 >= cap {
        return None;
    }
    let mb = s.mu[b];
    let arms = &mut scratch.arms;
    arms.clear();
    for j in (0..k).filter(|&j| j != b) {
        let num = cost.numerator(mb, s.mu[j]);
        if !(num > 0.0 && num.is_finite() && counters.n[j] < COUNT_MAX) {
            // A zero cost is the argmin at every pick (a single challenger: `skip_steps`).
            return None;
        }
        arms.push(LeapArm {
            a: 1.0 / num,
            c: counters.n[j] as f64,
            p: 0.0,
            release: (2 * s.start[j]) as f64,
            j,
        });
    }
    let lb = LeaderBounds::new(nb0, a0, l0, beta);
    let picks_max = lb.picks_before((2 * s.start[b]) as f64, (cap - t0 - 1) as f64);
    let mut q = 0u64; // picks done
    let mut last = usize::MAX;
    let mut depth = 2.0f64; // the window's depth, in drops of the top arm
    let mut tries = 0u64;
    while q < picks_max {
        tries += 1;
        match window(arms, &lb, q, picks_max - q, depth) {
            Some((w, j)) => {
                for arm in arms.iter_mut() {
                    arm.c += arm.p;
                }
                q += w;
                last = j;
                depth *= 1.5;
            }
            None if depth > DEPTH_MIN => depth = (depth / 2.0).max(DEPTH_MIN),
            None => break,
        }
        if tries >= YIELD_GRACE && q < YIELD_MIN * tries {
            break;
        }
    }
    if q == 0 {
        return None;
    }
    let m = pick_time(&lb, a0, l0, beta, q);
    let p = m - q;
    counters.n[b] = nb0 + p;
    counters.inv_n[b] = 1.0 / (counters.n[b] as i64) as f64;
    counters.leader_pulls[b] = a0 + p;
    counters.leader_rounds[b] = l0 + m;
    counters.t = t0 + m;
    for arm in arms.iter() {
        let n = arm.c as u64;
        if n != counters.n[arm.j] {
            counters.n[arm.j] = n;
            counters.inv_n[arm.j] = 1.0 / (n as i64) as f64;
        }
    }
    #[cfg(test)]
    LEAPED_PICKS.with(|n| n.set(n.get() + q));
    (q >= YIELD_MIN * tries).then_some(last)
}

#[cfg(test)]
thread_local! {
    /// The picks leaps did on this thread (tests check that leaps were exercised).
    pub(crate) static LEAPED_PICKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The step number `m` (from the leap's start) of its `q`-th challenger pick: `m = q + A − a0`
/// for the leader's tracked pulls `A` then, which [`LeaderBounds::count_range`] confines to one or
/// two integers; the one for which the step rule ([`tracked_leader_pulls`]) puts the `q`-th pick
/// at step `m` is it.
fn pick_time(lb: &LeaderBounds, a0: u64, l0: u64, beta: f64, q: u64) -> u64 {
    let lead = |m: u64| tracked_leader_pulls(a0, l0, beta, m) - a0;
    let (lo, hi) = lb.count_range(q as f64);
    let (lo, hi) = ((lo - lb.base) as u64, (hi - lb.base) as u64);
    for a in lo.max(a0)..=hi.max(a0) {
        let m = q + (a - a0);
        if lead(m) == a - a0 && lead(m - 1) == a - a0 {
            return m;
        }
    }
    debug_assert!(false, "the leader's count at pick {q} lies in [{lo}, {hi}]");
    first_true(u64::MAX, |m| m - lead(m) >= q).expect("invariant: every pick has a step")
}

/// The smallest window depth tried (in drops of the top arm): at most a pick or two.
const DEPTH_MIN: f64 = 0.25;

/// Proves the next window (module doc) of depth `depth` drops, `q` picks into the leap, at most
/// `room` picks. On success the pulls per arm are in `p`, and it returns the window's size and
/// one of its arms.
fn window(
    arms: &mut [LeapArm],
    lb: &LeaderBounds,
    q: u64,
    room: u64,
    depth: f64,
) -> Option<(u64, usize)> {
    let (nb_lo, _) = lb.count_range(q as f64 + 1.0);
    let x_hi = 1.0 / nb_lo;
    // The top arm at the window's start, and its drop (the fall of its g at one pull).
    let (mut g_top, mut drop) = (0.0f64, 0.0f64);
    for arm in arms.iter() {
        let g = (x_hi + 1.0 / arm.c) * arm.a;
        if g > g_top {
            (g_top, drop) = (g, arm.a / (arm.c * (arm.c + 1.0)));
        }
    }
    let level = g_top - depth * drop;
    // Θ: each arm's thresholds at or above the level at x_hi, k <= 1/(level/a − x) − N (the
    // proof below does not rely on this rounding).
    let (mut w, mut any) = (0i64, usize::MAX);
    let room = room.min(COUNT_MAX) as i64;
    for arm in arms.iter_mut() {
        let v = level / arm.a - x_hi;
        // The level must be above every arm's limit x·a (else Θ is infinite); NaN fails too.
        if v.is_nan() || v <= 0.0 {
            return None;
        }
        let n_last = (1.0 / v).min(COUNT_MAX as f64) as i64;
        let p = (n_last - arm.c as i64 + 1).max(0);
        if p > 0 {
            if arm.c + p as f64 >= arm.release {
                return None;
            }
            any = arm.j;
        }
        arm.p = p as f64;
        w += p;
    }
    if w == 0 || w > room {
        return None;
    }
    let nb_hi = lb.count_range((q + w as u64) as f64).1;
    let x_lo = 1.0 / nb_hi;
    // The smallest threshold in Θ and the largest outside, at both ends of x's interval.
    let (mut in_lo, mut in_hi) = (f64::INFINITY, f64::INFINITY);
    let (mut out_lo, mut out_hi) = (0.0f64, 0.0f64);
    for arm in arms.iter() {
        let n = arm.c + arm.p;
        let next = 1.0 / n;
        out_lo = out_lo.max((x_lo + next) * arm.a);
        out_hi = out_hi.max((x_hi + next) * arm.a);
        if arm.p > 0.0 {
            let inv = 1.0 / (n - 1.0);
            in_lo = in_lo.min((x_lo + inv) * arm.a);
            in_hi = in_hi.min((x_hi + inv) * arm.a);
        }
    }
    (in_lo * (1.0 - ETA) > out_lo && in_hi * (1.0 - ETA) > out_hi).then_some((w as u64, any))
}
