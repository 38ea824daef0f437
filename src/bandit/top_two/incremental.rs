//! The incremental state of a Top Two step: an argmin kept across steps ([`ArgMin`]: a flat
//! scan for small `K`, a tournament tree for large `K`), the transport costs of the challengers
//! kept and re-evaluated only when their inputs changed or when they could decide
//! ([`CostCache`]), a certificate that the UCB leader has not moved ([`UcbLeaderTrack`]), and
//! the stopping test against its last failing pair with the threshold's terms cached per count
//! ([`StopTest`]).
//!
//! Every structure returns exactly what the plain step computes — the same floating-point
//! values, compared the same way, with the lowest index on ties — and only skips evaluations
//! that provably cannot change the answer: `incremental_tests.rs` and `skip_tests.rs` compare
//! run for run with the plain loop, pulled arms and counts included.
//!
//! # Monotonicity in floating point
//! The shortcuts rest on two kinds of facts.
//! * IEEE-754 `+`, `−`, `×`, `÷`, `sqrt`, `max` and `min` are correctly rounded, hence
//!   monotone: a transport cost `num(μ_b, μ_j)/(1/ω_b + 1/ω_j)` as [`Cost::eval`] computes it
//!   is non-decreasing in `μ_b`, non-increasing in `μ_j` and non-decreasing in both counts
//!   (`num` is `g²/(2σ²)` or `g·min(g, ε/2)/(2σ²)` of `g = (μ_b − μ_j)_+`), and the UCB index
//!   `μ_a + f·s_a` is non-decreasing in `f` (`s_a >= 0`).
//! * The platform's `ln` is accurate to [`LN_SLACK`] on `[1, 2^64]` (glibc, musl and the macOS
//!   libm are within one ulp there, below `8e-15`; the slack is `10⁵` times that). So a value
//!   computed through `ln` at a larger argument is at least the value at a smaller argument
//!   minus the slack, for the non-decreasing terms used here; the lower bounds subtract it.

use super::Config;
use super::estimators::Estimates;
use super::rules::{ucb_factor, ucb_index};
use crate::bandit::rules::Cost;
use crate::threshold::paper::{Pair, StoppingThreshold, TermKind};

/// Above this many arms [`ArgMin`] and [`CostCache`] keep a tournament tree; up to it, flat
/// arrays scanned in index order.
pub(crate) const FLAT_MAX: usize = 16;

/// Absolute accuracy assumed of the platform's `ln` on `[1, 2^64]` and of the threshold terms
/// built from it, with a wide margin: see the module docs.
pub(crate) const LN_SLACK: f64 = 1e-9;

/// `(ka, ia) < (kb, ib)` lexicographically (keys are never NaN).
#[inline(always)]
fn less(ka: f64, ia: u32, kb: f64, ib: u32) -> bool {
    ka < kb || (ka == kb && ia < ib)
}

/// The lexicographic minimum of `(key_i, i)` over `i < n`, kept as keys change: the lowest
/// index among the smallest keys, as the plain scans (`argmin_except`, and `argmax` on negated
/// keys) return it. Flat (`TREE = false`, for `n <= FLAT_MAX`: a key change costs O(1), or a
/// scan when the minimum's own key grows) or a tournament tree (`TREE`, for larger `n`:
/// O(log n) per change, with an early exit once a node's winner is unaffected); the layout is a
/// type parameter, so the loops built on it carry no per-step test of it.
///
/// # Contract
/// Keys are never NaN. [`ArgMin::best`] is the lexicographic minimum after every change; the
/// answer depends only on the keys, never on the layout.
#[derive(Debug, Clone)]
pub(crate) struct ArgMin<const TREE: bool> {
    key: Vec<f64>,
    /// Tree: winner key and index of every node (root 1, leaves at `size + i`); empty if flat.
    wk: Vec<f64>,
    wi: Vec<u32>,
    size: usize,
    best: usize,
}

impl<const TREE: bool> ArgMin<TREE> {
    /// `n >= 1` slots, all with key `+∞`.
    pub(crate) fn new(n: usize) -> Self {
        let size = if TREE { n.next_power_of_two() } else { 0 };
        let mut m = ArgMin {
            key: vec![f64::INFINITY; n],
            wk: vec![f64::INFINITY; 2 * size],
            wi: (0..2 * size)
                .map(|p| p.saturating_sub(size) as u32)
                .collect(),
            size,
            best: 0,
        };
        m.rebuild();
        m
    }

    /// Whether the layout is a tree.
    #[inline(always)]
    pub(crate) fn is_tree(&self) -> bool {
        TREE
    }

    /// Every node from the leaves up (tree), or the scan (flat).
    fn rebuild(&mut self) {
        if !self.is_tree() {
            self.rescan();
            return;
        }
        let size = self.size;
        for (i, &k) in self.key.iter().enumerate() {
            self.wk[size + i] = k;
        }
        for p in (1..size).rev() {
            self.pull_up(p);
        }
        self.best = self.wi[1] as usize;
    }

    #[inline(always)]
    fn pull_up(&mut self, p: usize) {
        let (l, r) = (2 * p, 2 * p + 1);
        let w = if less(self.wk[r], self.wi[r], self.wk[l], self.wi[l]) {
            r
        } else {
            l
        };
        self.wk[p] = self.wk[w];
        self.wi[p] = self.wi[w];
    }

    pub(crate) fn rescan(&mut self) {
        let mut b = 0;
        let mut bk = self.key[0];
        for (i, &k) in self.key.iter().enumerate().skip(1) {
            if k < bk {
                b = i;
                bk = k;
            }
        }
        self.best = b;
    }

    /// Sets every key from `f` at once.
    pub(crate) fn fill(&mut self, f: impl Fn(usize) -> f64) {
        for (i, k) in self.key.iter_mut().enumerate() {
            *k = f(i);
        }
        self.rebuild();
    }

    /// The current key of `i`.
    #[inline(always)]
    pub(crate) fn key(&self, i: usize) -> f64 {
        self.key[i]
    }

    /// The lexicographic argmin.
    #[inline(always)]
    pub(crate) fn best(&self) -> usize {
        self.best
    }

    /// The smallest key.
    #[inline(always)]
    pub(crate) fn best_key(&self) -> f64 {
        self.key[self.best]
    }

    /// Sets the key of `i` to `v`.
    #[inline]
    pub(crate) fn set(&mut self, i: usize, v: f64) {
        let old = self.key[i];
        self.key[i] = v;
        if !self.is_tree() {
            if i == self.best {
                if v > old {
                    self.rescan();
                }
            } else if less(v, i as u32, self.key[self.best], self.best as u32) {
                self.best = i;
            }
            return;
        }
        self.set_tree(i, v, old);
    }

    fn set_tree(&mut self, i: usize, v: f64, old: f64) {
        let iu = i as u32;
        let mut p = self.size + i;
        self.wk[p] = v;
        p /= 2;
        if v <= old {
            // A smaller key: `i` climbs while it beats (or is) the winner; above the first
            // node it does not win, nothing changes.
            while p >= 1 {
                if self.wi[p] == iu || less(v, iu, self.wk[p], self.wi[p]) {
                    self.wk[p] = v;
                    self.wi[p] = iu;
                } else {
                    break;
                }
                p /= 2;
            }
        } else {
            // A larger key: only the nodes `i` wins are recomputed.
            while p >= 1 && self.wi[p] == iu {
                self.pull_up(p);
                p /= 2;
            }
        }
        self.best = self.wi[1] as usize;
    }

    /// Calls `visit(i)` on every slot `i` whose key is `<= bound` (tree layout; in increasing
    /// tree order), where `visit` returns the bound for the slots not visited yet (it may only
    /// decrease). Subtrees whose smallest key exceeds the bound are skipped.
    pub(crate) fn visit_below(&self, mut bound: f64, mut visit: impl FnMut(usize) -> f64) {
        debug_assert!(self.is_tree());
        let mut stack = [0usize; 64];
        let mut top = 1;
        stack[0] = 1;
        while top > 0 {
            top -= 1;
            let p = stack[top];
            if self.wk[p] > bound {
                continue;
            }
            if p >= self.size {
                let i = p - self.size;
                if i < self.key.len() {
                    bound = visit(i);
                }
                continue;
            }
            stack[top] = 2 * p + 1;
            stack[top + 1] = 2 * p;
            top += 2;
        }
    }
}

/// The transport costs `J_j = cost(μ̃_b, μ̃_j, 1/ω_b, 1/ω_j)` of the challengers against the
/// leader `b`, kept across steps as **lower bounds** of the current costs, and their exact
/// lowest-index argmin (the plain rule's `argmin_except`), in an [`ArgMin`] (flat or tree by
/// `K`).
///
/// # Invariant
/// For every `j ≠ b` the stored key is `<=` the cost the plain rule would compute now: it was
/// exact when stored, and since then (module docs) the counts only grew, `μ̃_b` is not below
/// every value it was computed with (else [`CostCache::argmin`] rebuilds), and `μ̃_j` did not
/// grow (else [`CostCache::pulled`] made its key `−∞`). The argmin pops the smallest key,
/// evaluates it exactly and stores it; when the popped key was already exact, or stays the
/// minimum once exact, it is the argmin (every other cost is at least its key, which is above
/// the popped one in the lexicographic order). Each pop makes one more key exact, so it ends
/// within `K` pops. So after a challenger pull one cost is re-evaluated, and after a leader
/// pull only those that could be the smallest.
#[derive(Debug, Clone)]
pub(crate) struct CostCache<const TREE: bool> {
    keys: ArgMin<TREE>,
    /// The leader the keys are costs against (`usize::MAX`: none).
    leader: usize,
    /// The largest `μ̃_b` any stored key was computed with.
    mu_ref: f64,
}

impl<const TREE: bool> CostCache<TREE> {
    pub(crate) fn new(k: usize) -> Self {
        CostCache {
            keys: ArgMin::new(k),
            leader: usize::MAX,
            mu_ref: f64::INFINITY,
        }
    }

    /// Drops every stored cost.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.leader = usize::MAX;
    }

    /// Arm `a` was pulled; `mean_grew`: its mean is now larger than before (its count grew, its
    /// mean may have changed). The leader's own mean is checked by [`CostCache::argmin`].
    #[inline(always)]
    pub(crate) fn pulled(&mut self, a: usize, mean_grew: bool) {
        if mean_grew && a != self.leader && self.leader != usize::MAX {
            self.keys.set(a, f64::NEG_INFINITY);
        }
    }

    /// `argmin_{j ≠ b} J_j`, the lowest index among the smallest costs, where
    /// `J_j = cost(μ̃_b, μ̃_j, 1/ω_b, 1/ω_j)` is the exact cost the plain rule computes from the
    /// means `mu` and inverse counts `inv`.
    #[inline(always)]
    pub(crate) fn argmin(&mut self, cost: Cost, mu: &[f64], inv: &[f64], b: usize) -> usize {
        let (mb, ib) = (mu[b], inv[b]);
        let eval = |j: usize| cost.eval(mb, mu[j], ib, inv[j]);
        if self.leader != b || mb < self.mu_ref {
            return self.rebuild(b, mb, eval);
        }
        self.mu_ref = mb;
        loop {
            let j = self.keys.best();
            let v = self.keys.key(j);
            let e = eval(j);
            if e == v {
                return j;
            }
            debug_assert!(e > v, "a stored cost is a lower bound");
            self.keys.set(j, e);
            if self.keys.best() == j {
                return j;
            }
        }
    }

    /// Every key evaluated against the leader `b` (mean `mb`).
    #[inline(never)]
    fn rebuild(&mut self, b: usize, mb: f64, eval: impl Fn(usize) -> f64) -> usize {
        // Costs are `>= 0`: a zero cost at the lowest index but `b` is the argmin, with no need
        // for the others (the keys stay dropped until a rebuild is needed).
        let j0 = usize::from(b == 0);
        if eval(j0) == 0.0 {
            self.leader = usize::MAX;
            return j0;
        }
        self.keys
            .fill(|j| if j == b { f64::INFINITY } else { eval(j) });
        self.leader = b;
        self.mu_ref = mb;
        self.keys.best()
    }
}

/// A certificate that the UCB leader `argmax_a μ̃_a + sqrt(c·log‖Ñ‖₁)·(1/sqrt(Ñ_a))`
/// ([`super::rules::UcbLeader`]) has not moved, valid while `‖Ñ‖₁` stays in a window
/// `[T₀, T₁]`.
///
/// With `f` in `[f_lo, f_hi]` for `‖Ñ‖₁ ∈ [T₀, T₁]` (from `log T₀ − slack` and
/// `log T₁ + slack`, module docs), every index lies in `[μ̃_a + f_lo·s_a, μ̃_a + f_hi·s_a]`.
/// The upper ends of the arms other than the leader are kept in an [`ArgMin`] of their
/// negatives, and the leader's lower end beside them (each re-evaluated when its arm is pulled
/// or the window moves). While the leader's lower end is strictly above all the upper ends it
/// is the unique maximiser. Otherwise the exact indices are needed: with few arms the rule
/// itself is evaluated; with many, only those of the arms whose upper end reaches the best
/// exact index found ([`ArgMin::visit_below`]) — every other arm's index is below it, so it can
/// be neither the maximiser nor tied with it.
#[derive(Debug, Clone)]
pub(crate) struct UcbLeaderTrack<const TREE: bool> {
    c: f64,
    t_hi: f64,
    f_lo: f64,
    f_hi: f64,
    /// `−(upper end)` of every arm but the leader (whose key is `+∞`).
    upper: ArgMin<TREE>,
    /// Flat: a value `>=` every upper end but the leader's (the largest one, or above it
    /// after an upper end fell; made exact when the certificate fails).
    max_upper: f64,
    /// The leader's lower end.
    lower: f64,
    leader: usize,
}

impl<const TREE: bool> UcbLeaderTrack<TREE> {
    pub(crate) fn new(k: usize, c: f64) -> Self {
        UcbLeaderTrack {
            c,
            t_hi: f64::NEG_INFINITY,
            f_lo: f64::NAN,
            f_hi: f64::NAN,
            upper: ArgMin::new(k),
            max_upper: f64::INFINITY,
            lower: f64::NAN,
            leader: usize::MAX,
        }
    }

    /// Opens the window `[T₀, T₁]` at `T₀ = ‖Ñ‖₁`.
    #[cold]
    fn renew(&mut self, s: &Estimates) {
        let t0 = s.local_n_total;
        let t1 = t0 + (t0 / 1024.0).max(64.0);
        self.t_hi = t1;
        self.f_lo = (self.c * (t0.ln() - LN_SLACK)).sqrt();
        self.f_hi = (self.c * (t1.ln() + LN_SLACK)).sqrt();
        let (b, f_hi) = (self.leader, self.f_hi);
        self.upper.fill(|a| {
            if a == b {
                f64::INFINITY
            } else {
                -ucb_index(s, a, f_hi)
            }
        });
        self.lower = if b == usize::MAX {
            f64::NAN
        } else {
            ucb_index(s, b, self.f_lo)
        };
        self.max_upper = -self.upper.best_key();
    }

    /// The leader; `exact` evaluates the rule (called only when the certificate fails and the
    /// arms are few, or at the first step).
    #[inline(always)]
    pub(crate) fn leader(&mut self, s: &Estimates, exact: impl FnOnce() -> usize) -> usize {
        if s.local_n_total > self.t_hi {
            self.renew(s);
        }
        if self.lower > self.max_upper {
            return self.leader;
        }
        self.recheck(s, exact)
    }

    #[inline(never)]
    fn recheck(&mut self, s: &Estimates, exact: impl FnOnce() -> usize) -> usize {
        let b = self.leader;
        if !self.upper.is_tree() {
            // The flat bound may be stale (above the largest upper end): make it exact first.
            self.upper.rescan();
            self.max_upper = -self.upper.best_key();
            if self.lower > self.max_upper {
                return b;
            }
        }
        let nb = if b == usize::MAX || !self.upper.is_tree() {
            exact()
        } else {
            self.exact_from_candidates(s, b)
        };
        if nb != b {
            if b != usize::MAX {
                self.upper.set(b, -ucb_index(s, b, self.f_hi));
            }
            self.upper.set(nb, f64::INFINITY);
            self.leader = nb;
            self.lower = ucb_index(s, nb, self.f_lo);
            self.max_upper = -self.upper.best_key();
        }
        nb
    }

    /// The exact argmax (lowest index on ties) among `b` and the arms whose upper end reaches
    /// the best exact index seen.
    fn exact_from_candidates(&self, s: &Estimates, b: usize) -> usize {
        let f = ucb_factor(self.c, s.local_n_total);
        let (mut best, mut bv) = (b, ucb_index(s, b, f));
        self.upper.visit_below(-bv, |a| {
            let v = ucb_index(s, a, f);
            if v > bv || (v == bv && a < best) {
                (best, bv) = (a, v);
            }
            -bv
        });
        best
    }

    /// Arm `a`'s mean or count changed.
    #[inline(always)]
    pub(crate) fn pulled(&mut self, s: &Estimates, a: usize) {
        if a != self.leader {
            let u = ucb_index(s, a, self.f_hi);
            if self.upper.is_tree() {
                self.upper.set(a, -u);
                self.max_upper = -self.upper.best_key();
            } else {
                // Only the key: the bound stays valid (raised if `a`'s upper end rose), the
                // minimum is found again when the certificate fails.
                self.upper.key[a] = -u;
                if u > self.max_upper {
                    self.max_upper = u;
                }
            }
        } else {
            self.lower = ucb_index(s, a, self.f_lo);
        }
    }
}

/// Per-slot cache of one threshold term (per arm: its count; or the time), with the argument it
/// was computed at, giving the exact term or a rigorous lower bound of it.
#[derive(Debug, Clone)]
struct TermCache {
    val: Vec<f64>,
    at: Vec<f64>,
}

impl TermCache {
    fn new(n: usize) -> Self {
        TermCache {
            val: vec![0.0; n],
            at: vec![0.0; n],
        }
    }

    /// A value `<=` the term at every argument `>= x`, where `x` is at least every argument
    /// this slot was computed at (counts and time only grow); `floor` is `<=` the term at every
    /// admissible argument. `exact_at_x`: the value may be the exact term at `x` itself.
    #[inline(always)]
    fn lower(&self, i: usize, x: f64, floor: f64, exact_at_x: bool) -> f64 {
        let at = self.at[i];
        if exact_at_x && at == x {
            self.val[i]
        } else if at > 0.0 && at <= x {
            self.val[i] - LN_SLACK
        } else {
            floor
        }
    }

    /// The exact term at `x` (from the cache when it was computed at `x`).
    #[inline]
    fn exact(&mut self, i: usize, x: f64, thr: &StoppingThreshold) -> f64 {
        if self.at[i] != x {
            self.val[i] = thr.term(x);
            self.at[i] = x;
        }
        self.val[i]
    }
}

/// Steps (R) + (S) of Alg. 1 — whether `W_{â,b}(μ̃, Ñ) >= c_{â,b}` for every `b ≠ â` — with the
/// last failing pair (the witness) tried first and the threshold's terms cached ([`TermKind`]).
///
/// The result is a conjunction over `b`, so the order of the pairs does not change it, only
/// how many are evaluated. A pair fails without its threshold when its statistic is below the
/// threshold's constant lower bound, or below the lower bound the cached terms give (their
/// values at smaller arguments minus [`LN_SLACK`]; the combination is non-decreasing in the
/// terms); otherwise the threshold is evaluated exactly, from the exact terms, by
/// [`StoppingThreshold::combine`], the expression [`StoppingThreshold::value`] is defined by.
/// While `â` and the witness stay the same, the witness's threshold is not below a bound kept
/// from its last evaluation (terms of counts and time, which only grow), so a step whose
/// witness statistic is below that bound fails after one statistic.
///
/// A user threshold ([`crate::bandit::CustomThreshold`]) records its first non-finite value, a
/// side effect that depends on which pairs are evaluated; the engine evaluates it where the
/// test needs it, as a built-in one. Its value is not known to grow with the counts, so the
/// bound kept for the witness is its own [`CustomThreshold::lower_bound_after`] (an interval
/// enclosure over every later count and time), valid only while the counts of a pair grow:
/// with `counts_grow` false (the phased estimators, whose local counts restart at each phase)
/// a user threshold is tested on every pair in index order (the plain test), as is every
/// threshold when `ordered`. One that does not read `t` is moreover a function of the pair's
/// counts, phases and means only, so a pair on which it failed fails again, with the same
/// values, until one of its two arms is pulled or `â` changes ([`StopTest::witness_fails`]).
/// The runs are the plain test's, run for run (`tests/bandit.rs`).
///
/// [`CustomThreshold::lower_bound_after`]: crate::bandit::CustomThreshold::lower_bound_after
#[derive(Debug, Clone)]
pub(crate) struct StopTest {
    witness: usize,
    /// `â` for which `quick_lo` bounds the witness's threshold (`usize::MAX`: none).
    quick_cand: usize,
    quick_lo: f64,
    /// The last test failed on the quick bound.
    quick_failed: bool,
    kind: TermKind,
    terms: TermCache,
    floor: f64,
    ordered: bool,
    /// A user threshold, tested out of order: its witness's bound is its own
    /// `lower_bound_after` (see the type's doc).
    custom: bool,
    /// A user threshold that does not read `t`, tested out of order: a failing pair fails
    /// again while it is untouched (see the type's doc).
    frozen_witness: bool,
}

impl StopTest {
    /// The test for `thr`; `ordered` forces the plain in-order test; `counts_grow` says that
    /// the counts the statistic reads never decrease during a run (the unphased estimators).
    pub(crate) fn new(k: usize, thr: &StoppingThreshold, ordered: bool, counts_grow: bool) -> Self {
        let kind = thr.term_kind();
        let custom = matches!(thr, StoppingThreshold::Custom { .. });
        let ordered = ordered || (custom && !counts_grow);
        StopTest {
            witness: usize::MAX,
            quick_cand: usize::MAX,
            quick_lo: f64::NEG_INFINITY,
            quick_failed: false,
            kind,
            terms: TermCache::new(if kind == TermKind::Time { 1 } else { k }),
            floor: thr.term_floor() - LN_SLACK,
            ordered,
            custom: custom && !ordered,
            frozen_witness: custom && !ordered && !thr.depends_on_time(),
        }
    }

    /// Whether every pair `(cand, b)` passes (statistic `cfg.stop_cost`, threshold `cfg.thr`,
    /// `lb` a lower bound of every threshold value, `t` the time).
    #[inline(always)]
    pub(crate) fn passes<L, C, T>(
        &mut self,
        cfg: &Config<L, C, T>,
        s: &Estimates,
        cand: usize,
        lb: f64,
        t: f64,
    ) -> bool {
        if self.quick_cand == cand {
            let w = self.witness;
            let stat =
                cfg.stop_cost
                    .eval(s.mu[cand], s.mu[w], s.inv_local_n[cand], s.inv_local_n[w]);
            if stat < self.quick_lo {
                self.quick_failed = true;
                return false;
            }
        }
        self.quick_failed = false;
        self.passes_full(cfg, s, cand, lb, t)
    }

    /// Whether the last test of `cand` failed on its witness's statistic alone (below the kept
    /// bound, which stays a lower bound of its threshold as counts and time grow): it fails
    /// again while the statistic is unchanged (neither arm of the pair pulled).
    #[inline(always)]
    pub(crate) fn witness_fails(&self, cand: usize) -> bool {
        self.quick_cand == cand && self.quick_failed
    }

    /// Whether the witness's statistic reads arm `a`.
    #[inline(always)]
    pub(crate) fn reads(&self, a: usize) -> bool {
        a == self.quick_cand || a == self.witness
    }

    #[inline(never)]
    fn passes_full<L, C, T>(
        &mut self,
        cfg: &Config<L, C, T>,
        s: &Estimates,
        cand: usize,
        lb: f64,
        t: f64,
    ) -> bool {
        if self.ordered {
            return passes_in_order(cfg, s, cand, lb, t);
        }
        let w = self.witness;
        if w < cfg.k && w != cand && !self.pair_passes(cfg, s, cand, w, lb, t) {
            self.fail_on(cfg, s, cand, w, lb, t);
            return false;
        }
        for b in 0..cfg.k {
            if b == cand || b == w {
                continue;
            }
            if !self.pair_passes(cfg, s, cand, b, lb, t) {
                self.fail_on(cfg, s, cand, b, lb, t);
                return false;
            }
        }
        true
    }

    /// Records `b` as the witness of `cand`, with a bound of its threshold that stays valid
    /// while the counts and the time grow.
    fn fail_on<L, C, T>(
        &mut self,
        cfg: &Config<L, C, T>,
        s: &Estimates,
        cand: usize,
        b: usize,
        lb: f64,
        t: f64,
    ) {
        self.witness = b;
        self.quick_cand = cand;
        let p = pair(s, cand, b, t);
        let lo = match self.kind {
            TermKind::Arms => cfg.thr.combine(
                &p,
                self.terms.lower(cand, p.w_a, self.floor, false),
                self.terms.lower(b, p.w_b, self.floor, false),
            ),
            TermKind::Time => cfg
                .thr
                .combine(&p, self.terms.lower(0, t, self.floor, false), 0.0),
            TermKind::Whole if self.custom => cfg.thr.lower_bound_after(&p),
            TermKind::Whole => lb,
        };
        self.quick_lo = if lo > lb { lo } else { lb };
        // The pair failed on its exact threshold: with a user threshold that reads no `t` it
        // fails again, on the same values, until one of its arms is pulled.
        self.quick_failed = self.frozen_witness;
    }

    #[inline(always)]
    fn pair_passes<L, C, T>(
        &mut self,
        cfg: &Config<L, C, T>,
        s: &Estimates,
        a: usize,
        b: usize,
        lb: f64,
        t: f64,
    ) -> bool {
        let w = cfg
            .stop_cost
            .eval(s.mu[a], s.mu[b], s.inv_local_n[a], s.inv_local_n[b]);
        if w < lb {
            return false;
        }
        let p = pair(s, a, b, t);
        let c = match self.kind {
            TermKind::Arms => {
                let lo = cfg.thr.combine(
                    &p,
                    self.terms.lower(a, p.w_a, self.floor, true),
                    self.terms.lower(b, p.w_b, self.floor, true),
                );
                if w < lo {
                    return false;
                }
                let ta = self.terms.exact(a, p.w_a, &cfg.thr);
                let tb = self.terms.exact(b, p.w_b, &cfg.thr);
                cfg.thr.combine(&p, ta, tb)
            }
            TermKind::Time => {
                let lo = cfg
                    .thr
                    .combine(&p, self.terms.lower(0, t, self.floor, true), 0.0);
                if w < lo {
                    return false;
                }
                let tt = self.terms.exact(0, t, &cfg.thr);
                cfg.thr.combine(&p, tt, 0.0)
            }
            TermKind::Whole => cfg.thr.value(&p),
        };
        // NaN threshold: do not stop (w is never NaN).
        !(w < c || c.is_nan())
    }
}

#[inline(always)]
fn pair(s: &Estimates, a: usize, b: usize, t: f64) -> Pair {
    Pair {
        mu_a: s.mu[a],
        mu_b: s.mu[b],
        w_a: s.local_n[a],
        w_b: s.local_n[b],
        k_a: s.phase[a] as f64,
        k_b: s.phase[b] as f64,
        t,
    }
}

/// The plain steps (R) + (S): every `b ≠ â` in index order, a pair whose statistic is below
/// `lb` failing without evaluating its threshold, a NaN threshold never stopping.
#[inline]
pub(crate) fn passes_in_order<L, C, T>(
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
        // NaN threshold: do not stop (w is never NaN).
        let c = cfg.thr.value(&pair(s, cand, b, t));
        if w < c || c.is_nan() {
            return false;
        }
    }
    true
}
