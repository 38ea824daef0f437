//! The exact shortcuts of the phase-skipping path: between two releases of a phased estimator
//! with lazy rewards nothing is random and the leader is frozen, so runs of steps are done at
//! once ([`skip_steps`]) or in a tight loop over the two cheapest challengers
//! ([`rotate_steps`]). Both do exactly what [`super::run_loop()`] would do step by step
//! (`skip_tests.rs` compares run for run).

use super::counters::Counters;
use super::estimators::Estimates;
use super::incremental::CostCache;
use super::rules::TransportCostChallenger;
use crate::bandit::rules::Cost;

/// `N^B_B` after `m` more steps of β-tracking with a fixed leader, starting from `N^B_B = a0`,
/// `L_B = l0`, exactly as the step rule `N^B_B <= β (L_B + 1)` evaluates it in `f64`.
///
/// With `v(j) = ⌊β (l0 + j + 1)⌋` (non-decreasing, steps of at most 1 since β < 1) the count
/// climbs by one per step while below `v`, then follows `v(j) + 1`, and waits while above it:
/// `A(m) = max(a0, min(a0 + m, v(m − 1) + 1))`.
#[inline]
pub(crate) fn tracked_leader_pulls(a0: u64, l0: u64, beta: f64, m: u64) -> u64 {
    if m == 0 {
        return a0;
    }
    // `as u64` truncates, which is `floor` for the non-negative product.
    let v = (beta * (l0 + m) as f64) as u64;
    a0.max((a0 + m).min(v + 1))
}

/// Skips are tried after this many pulls of the same challenger in a row.
pub(super) const SKIP_STREAK: u32 = 3;

/// The smallest `m` in `1..=limit` with `pred(m)` (`pred` monotone: false, then true), if any.
#[inline]
pub(super) fn first_true(limit: u64, pred: impl Fn(u64) -> bool) -> Option<u64> {
    if limit == 0 {
        return None;
    }
    // Gallop, then bisect: O(log m) evaluations for an answer m.
    let (mut lo, mut hi) = (0u64, 1u64);
    while !pred(hi) {
        if hi == limit {
            return None;
        }
        lo = hi;
        hi = hi.saturating_mul(2).min(limit);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// Does, at once, every step from now on in which the leader `b` and challenger `c` stay the
/// same and no estimate is released, for a phased estimator with lazy rewards, β-tracking and
/// the transport-cost challenger.
///
/// Between two releases nothing random happens and the leader is frozen, so only the
/// challenger can change. Every cost is `const / (1/ω_B + 1/ω_b)` with `const >= 0`, and IEEE
/// arithmetic is monotone, so as counts grow every cost is non-decreasing *in floating point*.
/// Hence `c` stays the argmin (the step rule's lowest-index argmin) for as long as its own cost
/// stays below the others' current costs, which is a monotone test on the step index; the next
/// release is the first time `b` or `c` reaches twice its phase-start count. The skipped steps
/// are exactly the steps [`super::run_loop()`] would take one by one (tested against it run for run).
/// Cost: O(K + log m) for `m` steps, so a run costs O(K log τ) when the challenger changes
/// only at releases (e.g. a starved best arm). Returns `(m, a, kept)`: the steps done, the arm
/// pulled last, and `kept` false when the skip ended because the challenger changed.
#[allow(clippy::too_many_arguments)]
pub(super) fn skip_steps(
    k: usize,
    tc: TransportCostChallenger,
    s: &Estimates,
    counters: &mut Counters,
    b: usize,
    c: usize,
    beta: f64,
    global: bool,
    cap: u64,
) -> (u64, usize, bool) {
    let (nb0, nc0, l0, a0) = (
        counters.n[b],
        counters.n[c],
        counters.leader_rounds[b],
        counters.leader_pulls[b],
    );
    let lead_pulls = |m: u64| tracked_leader_pulls(a0, l0, beta, m) - a0;
    let (cost, local) = (tc.cost, tc.local);
    let inv = |j: usize| {
        if local {
            s.inv_local_n[j]
        } else {
            counters.inv_n[j]
        }
    };
    // The runner-up among the other arms: its current cost and lowest index.
    let (mut w2, mut i2) = (f64::INFINITY, usize::MAX);
    for j in 0..k {
        if j == b || j == c {
            continue;
        }
        let w = cost.eval(s.mu[b], s.mu[j], inv(b), inv(j));
        if w < w2 {
            (w2, i2) = (w, j);
        }
    }
    // Challenger change first (usually soon when several arms share the challenger role, so
    // that the release searches below stay short): at step j (j steps done) c is still the
    // argmin while `keeps(j)`.
    let mut limit = cap - counters.t;
    let mut kept = true;
    if !local {
        // With local counts every cost is frozen until the next release.
        let keeps = |j: u64| {
            let p = lead_pulls(j);
            let ib = 1.0 / (nb0 + p) as f64;
            let ic = 1.0 / (nc0 + j - p) as f64;
            let w = cost.eval(s.mu[b], s.mu[c], ib, ic);
            w < w2 || (w == w2 && c < i2)
        };
        if let Some(j) = first_true(limit - 1, |j| !keeps(j)) {
            limit = j;
            kept = false;
        }
    }
    // Releases: b or c reaches twice its phase-start count; with global episodes, the later of
    // the two, and only if every other arm has already doubled.
    let (tb, tc) = (2 * s.start[b], 2 * s.start[c]);
    let first_b = |limit| first_true(limit, |m| nb0 + lead_pulls(m) >= tb);
    let first_c = |limit| first_true(limit, |m| nc0 + m - lead_pulls(m) >= tc);
    if global {
        let others_done = (0..k).all(|j| j == b || j == c || counters.n[j] >= 2 * s.start[j]);
        if others_done {
            if let (Some(mb), Some(mc)) = (first_b(limit), first_c(limit)) {
                limit = mb.max(mc);
                kept = true;
            }
        }
    } else {
        if let Some(m) = first_b(limit) {
            limit = m;
            kept = true;
        }
        if let Some(m) = first_c(limit) {
            limit = m;
            kept = true;
        }
    }
    let m = limit;
    let p = lead_pulls(m);
    let last = if p > lead_pulls(m - 1) { b } else { c };
    counters.n[b] = nb0 + p;
    counters.n[c] = nc0 + m - p;
    counters.inv_n[b] = 1.0 / counters.n[b] as f64;
    counters.inv_n[c] = 1.0 / counters.n[c] as f64;
    counters.leader_rounds[b] = l0 + m;
    counters.leader_pulls[b] = a0 + p;
    counters.t += m;
    (m, last, kept)
}

/// Challenger pulls in a row after which [`rotate_steps`] hands over to [`skip_steps`].
const ROTATE_STREAK: u32 = 32;

/// How many of the cheapest challengers [`CheapestPick`] evaluates at each step.
const PICK: usize = 3;

/// The challenger among the arms other than `b` (lowest index among the smallest costs, as
/// [`argmin_except`](super::rules::argmin_except) without random ties), the [`PICK`] cheapest
/// arms in index order (the list padded with its last arm when there are fewer), and the
/// smallest cost of every other arm (`∞` if none).
#[inline]
fn cheapest(
    k: usize,
    cost: Cost,
    s: &Estimates,
    counters: &Counters,
    b: usize,
) -> (usize, [usize; PICK], f64) {
    let ib = counters.inv_n[b];
    // (cost, index) in lexicographic order: the first is the argmin of the step rule.
    let mut top = [(f64::INFINITY, usize::MAX); PICK + 1];
    for j in 0..k {
        if j == b {
            continue;
        }
        let v = (cost.eval(s.mu[b], s.mu[j], ib, counters.inv_n[j]), j);
        if let Some(p) = top.iter().position(|t| v.0 < t.0 || t.1 == usize::MAX) {
            top.copy_within(p..PICK, p + 1);
            top[p] = v;
        }
    }
    let best = top[0].1;
    let mut set = [best; PICK];
    for (slot, t) in set.iter_mut().zip(&top[..PICK]) {
        if t.1 != usize::MAX {
            *slot = t.1;
        }
    }
    set.sort_unstable();
    (best, set, top[PICK].0)
}

/// How [`rotate_steps`] finds the challenger of each step among the arms other than the fixed
/// leader `b`: exactly the plain rule's lowest-index argmin of the transport costs on global
/// counts, given that between releases the means are frozen and the counts only grow.
pub(super) trait RotatePick {
    /// Called once before the steps of a call.
    fn start(&mut self, k: usize, cost: Cost, s: &Estimates, counters: &Counters, b: usize);
    /// The challenger at the current counts.
    fn pick(&mut self, k: usize, cost: Cost, s: &Estimates, counters: &Counters, b: usize)
    -> usize;
}

/// Few arms: only the [`PICK`] cheapest challengers `S` are evaluated at each step; every other
/// arm's cost at the last full evaluation is a lower bound of its cost from then on (costs are
/// non-decreasing in `N_B` in floating point, and its own count is frozen while it is not
/// pulled), so the argmin stays in `S` while `S`'s smallest cost is strictly below that bound;
/// when it is not, all costs are evaluated again and `S` is re-chosen.
#[derive(Debug, Default)]
pub(super) struct CheapestPick {
    set: [usize; PICK],
    num: [f64; PICK],
    bound: f64,
}

impl CheapestPick {
    #[inline]
    fn refill(
        &mut self,
        k: usize,
        cost: Cost,
        s: &Estimates,
        counters: &Counters,
        b: usize,
    ) -> usize {
        let best;
        (best, self.set, self.bound) = cheapest(k, cost, s, counters, b);
        let mb = s.mu[b];
        for (num, &j) in self.num.iter_mut().zip(&self.set) {
            *num = cost.numerator(mb, s.mu[j]);
        }
        best
    }
}

impl RotatePick for CheapestPick {
    #[inline]
    fn start(&mut self, k: usize, cost: Cost, s: &Estimates, counters: &Counters, b: usize) {
        self.refill(k, cost, s, counters, b);
    }
    #[inline(always)]
    fn pick(
        &mut self,
        k: usize,
        cost: Cost,
        s: &Estimates,
        counters: &Counters,
        b: usize,
    ) -> usize {
        let ib = counters.inv_n[b];
        // The lowest index among the smallest (the set is in index order), exactly as
        // `Cost::eval` divides.
        let (mut c, mut vmin) = (
            self.set[0],
            self.num[0] / (ib + counters.inv_n[self.set[0]]),
        );
        for i in 1..PICK {
            let v = self.num[i] / (ib + counters.inv_n[self.set[i]]);
            if v < vmin {
                (c, vmin) = (self.set[i], v);
            }
        }
        if vmin >= self.bound {
            return self.refill(k, cost, s, counters, b);
        }
        c
    }
}

/// Many arms: the costs kept as lower bounds in a tournament tree ([`CostCache`]), across calls
/// (the caller clears it at every release).
impl RotatePick for CostCache<true> {
    #[inline]
    fn start(&mut self, _: usize, _: Cost, _: &Estimates, _: &Counters, _: usize) {}
    #[inline(always)]
    fn pick(
        &mut self,
        _: usize,
        cost: Cost,
        s: &Estimates,
        counters: &Counters,
        b: usize,
    ) -> usize {
        self.argmin(cost, &s.mu, &counters.inv_n, b)
    }
}

/// Does single steps exactly as [`super::run_loop()`] would (same floating-point operations, same
/// lowest-index ties) while the leader `b` is fixed and no estimate is released: phased
/// estimator, lazy rewards, β-tracking, the transport-cost challenger on global counts,
/// per-arm phases. This is the path of runs whose challenger rotates among a few arms, which
/// [`skip_steps`] cannot shorten. The challenger of each step comes from `pick`
/// ([`CheapestPick`] for few arms, [`CostCache`] for many).
///
/// Stops after the step that makes the pulled arm double its phase-start count (a release), at
/// the cap, after [`ROTATE_STREAK`] pulls of one challenger in a row (then [`skip_steps`] is
/// worth trying), or after `budget` steps (then a
/// [`rotation_leap`](super::rotation_leap::rotation_leap) is worth trying). Returns the arm
/// pulled last and the loop's `(streak, previous challenger)` bookkeeping.
#[allow(clippy::too_many_arguments)]
pub(super) fn rotate_steps<P: RotatePick>(
    k: usize,
    cost: Cost,
    s: &Estimates,
    counters: &mut Counters,
    b: usize,
    beta: f64,
    cap: u64,
    mut streak: u32,
    mut prev_c: usize,
    pick: &mut P,
    budget: u64,
) -> (usize, u32, usize) {
    pick.start(k, cost, s, counters, b);
    // The leader's tracking counts and the time live in registers during the loop (written
    // back on return; `pick` reads neither).
    let (mut lead_pulls, mut lead_rounds, mut t) = (
        counters.leader_pulls[b],
        counters.leader_rounds[b],
        counters.t,
    );
    let end = t.saturating_add(budget).min(cap);
    loop {
        // β-tracking as `BetaTracking` evaluates it (counts below 2^63 convert through `i64`
        // as through `u64`).
        let a = if (lead_pulls as i64) as f64 <= beta * ((lead_rounds + 1) as i64) as f64 {
            lead_pulls += 1;
            b
        } else {
            let c = pick.pick(k, cost, s, counters, b);
            streak = if c == prev_c { streak + 1 } else { 1 };
            prev_c = c;
            c
        };
        counters.n[a] += 1;
        counters.inv_n[a] = 1.0 / (counters.n[a] as i64) as f64;
        lead_rounds += 1;
        t += 1;
        if counters.n[a] >= 2 * s.start[a] || t >= end || streak >= ROTATE_STREAK {
            counters.leader_pulls[b] = lead_pulls;
            counters.leader_rounds[b] = lead_rounds;
            counters.t = t;
            return (a, streak, prev_c);
        }
    }
}
