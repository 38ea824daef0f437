//! The Top Two meta-algorithm (Alg. 1, MATH.md D.2) with plug-in estimator, bonus, costs,
//! threshold, leader, challenger and tracking rules, and the phase-skipping fast path of the
//! DAF/DPA estimators.
//!
//! # One loop, three reward sources
//! [`run_loop`] runs Alg. 1 step by step. Rewards come from the instance (one draw per pull),
//! from a reward table (Definition 8), or — for phased estimators (DAF, DPA) only — lazily:
//! between two phase switches of an arm its released estimate is frozen, and no decision reads
//! the raw rewards, so the rewards of a phase need not be drawn one by one: at the switch their
//! sum is drawn at once (one `Binomial(Ñ, μ_a)` for Bernoulli arms, one Normal for Gaussian
//! arms). The action sequence is the same deterministic function of the released estimates in
//! both modes, so (τ, recommendation) has the same law; `tests/bandit.rs` checks this by a
//! two-sample test. The lazy mode draws random numbers only at phase ends (plus coin flips of
//! the reference rules) and skips whole stretches of deterministic steps ([`skip_steps`]).

use super::rules::{Cost, Pair, Thr};
use super::{RewardTable, RunOutcome};
use crate::privacy::{bernoulli_draw, laplace_noise, GaussianMechanism, RandomisedResponse};
use crate::rng::Rng;
use rand::Rng as _;
use rand_distr::{Binomial, Distribution, StandardNormal};

/// Reward model of the arms.
#[derive(Debug, Clone)]
pub(crate) enum Arms {
    /// Bernoulli arms: 53-bit thresholds and means.
    Bern { thr: Vec<u64>, p: Vec<f64> },
    /// Gaussian arms `N(μ_a, σ²)`.
    Gauss { mu: Vec<f64>, sigma: f64 },
}

impl Arms {
    pub(crate) fn from_instance(inst: &crate::instance::Instance) -> Self {
        match inst.family() {
            crate::instance::Family::Bernoulli => Arms::Bern {
                thr: inst
                    .means()
                    .iter()
                    .map(|&m| crate::privacy::bernoulli_threshold(m))
                    .collect(),
                p: inst.means().to_vec(),
            },
            crate::instance::Family::Gaussian { sigma } => Arms::Gauss {
                mu: inst.means().to_vec(),
                sigma,
            },
        }
    }
    #[inline(always)]
    fn draw(&self, a: usize, rng: &mut Rng) -> f64 {
        match self {
            Arms::Bern { thr, .. } => bernoulli_draw(thr[a], rng) as u8 as f64,
            Arms::Gauss { mu, sigma } => {
                let z: f64 = StandardNormal.sample(rng);
                mu[a] + sigma * z
            }
        }
    }
    /// The sum of `m` i.i.d. rewards of arm `a`, in one draw.
    fn sum_draw(&self, a: usize, m: u64, rng: &mut Rng) -> f64 {
        match self {
            Arms::Bern { p, .. } => Binomial::new(m, p[a])
                .expect("invariant: Bernoulli means are validated in [0, 1]")
                .sample(rng) as f64,
            Arms::Gauss { mu, sigma } => {
                let z: f64 = StandardNormal.sample(rng);
                m as f64 * mu[a] + sigma * (m as f64).sqrt() * z
            }
        }
    }
}

/// Local privatisation of each reward before the policy sees it (Def. 7).
pub(crate) trait Privatiser: Send + Sync + std::fmt::Debug {
    fn apply(&self, r: f64, rng: &mut Rng) -> f64;
    /// Whether a table reward is admissible.
    fn accepts(&self, r: f64) -> bool {
        r.is_finite()
    }
}

/// No privatisation.
#[derive(Debug)]
pub(crate) struct Identity;
impl Privatiser for Identity {
    #[inline(always)]
    fn apply(&self, r: f64, _rng: &mut Rng) -> f64 {
        r
    }
}

impl Privatiser for RandomisedResponse {
    #[inline(always)]
    fn apply(&self, r: f64, rng: &mut Rng) -> f64 {
        self.privatise(r, rng)
    }
    fn accepts(&self, r: f64) -> bool {
        (0.0..=1.0).contains(&r)
    }
}

impl Privatiser for GaussianMechanism {
    #[inline(always)]
    fn apply(&self, r: f64, rng: &mut Rng) -> f64 {
        self.privatise(r, rng)
    }
}

/// Estimator state of every arm (MATH.md D.0: `μ̃`, `Ñ`, phase index).
#[derive(Debug, Clone)]
pub(crate) struct EstState {
    /// Released estimates `μ̃_a`.
    pub mu: Vec<f64>,
    /// Local counts `Ñ_a`.
    pub w: Vec<f64>,
    /// `1/Ñ_a`.
    pub iw: Vec<f64>,
    /// `1/sqrt(Ñ_a)`.
    pub isw: Vec<f64>,
    /// Phase index `k_a` (1 for unphased estimators).
    pub phase: Vec<u32>,
    /// Running sum (MLE: all privatised rewards; DAF: current phase; DPA: all rewards).
    pub sum: Vec<f64>,
    /// Global count at the start of the current phase `N_{T_k(a),a}`.
    pub start: Vec<u64>,
    /// Cached private bonus `b^{G,ε}_a(Ñ)` (phased estimators).
    pub pbonus: Vec<f64>,
    /// `Σ_a Ñ_a`.
    pub sum_w: f64,
}

impl EstState {
    fn new(k: usize) -> Self {
        EstState {
            mu: vec![0.0; k],
            w: vec![1.0; k],
            iw: vec![1.0; k],
            isw: vec![1.0; k],
            phase: vec![1; k],
            sum: vec![0.0; k],
            start: vec![1; k],
            pbonus: vec![0.0; k],
            sum_w: k as f64,
        }
    }
}

/// An estimator (MATH.md D.3–D.8).
pub(crate) trait Estimator: Send + Sync + std::fmt::Debug {
    /// Whether estimates only change at phase switches.
    const PHASED: bool;
    /// Records the initial sample of arm `a`.
    fn init(&self, s: &mut EstState, a: usize, r: f64, rng: &mut Rng);
    /// Records a pull's (raw) reward.
    fn observe(&self, s: &mut EstState, a: usize, r: f64, rng: &mut Rng);
    /// Step (E) after a pull of arm `a`, with global counts `n`; `lazy` draws the phase's
    /// rewards. Returns whether a new estimate was released.
    fn switch(
        &self,
        s: &mut EstState,
        a: usize,
        n: &[u64],
        lazy: Option<&Arms>,
        rng: &mut Rng,
    ) -> bool;
    /// Rounds of adaptivity `C` so far (phased estimators).
    fn rounds(&self, _s: &EstState) -> Option<u64> {
        None
    }
    /// Whether a release waits for every arm to double (one global episode counter).
    fn global_episodes(&self) -> bool {
        false
    }
    /// Whether a table reward is admissible.
    fn accepts(&self, r: f64) -> bool;
}

/// Empirical mean of (locally privatised) rewards, `Ñ = N` (Alg. 2, 4, 8).
#[derive(Debug)]
pub(crate) struct Mle<P: Privatiser>(pub P);

impl<P: Privatiser> Estimator for Mle<P> {
    const PHASED: bool = false;
    fn init(&self, s: &mut EstState, a: usize, r: f64, rng: &mut Rng) {
        let r = self.0.apply(r, rng);
        s.sum[a] = r;
        s.mu[a] = r;
    }
    #[inline(always)]
    fn observe(&self, s: &mut EstState, a: usize, r: f64, rng: &mut Rng) {
        let r = self.0.apply(r, rng);
        s.sum[a] += r;
        let w = s.w[a] + 1.0;
        s.w[a] = w;
        let iw = 1.0 / w;
        s.iw[a] = iw;
        s.isw[a] = iw.sqrt();
        s.mu[a] = s.sum[a] * iw;
        s.sum_w += 1.0;
    }
    #[inline(always)]
    fn switch(&self, _: &mut EstState, _: usize, _: &[u64], _: Option<&Arms>, _: &mut Rng) -> bool {
        false
    }
    fn accepts(&self, r: f64) -> bool {
        self.0.accepts(r)
    }
}

/// Per-arm doubling estimators: DAF(ε) (Alg. 5, forgetting + Laplace) and DPA (Alg. 11).
#[derive(Debug)]
pub(crate) struct Phased {
    /// `Some(ε)`: DAF(ε) (forget past phases, add `Lap(1/(εÑ))`); `None`: DPA (all past
    /// samples, no noise).
    pub daf_eps: Option<f64>,
    /// `Some(ε)`: maintain the private bonus `b^{G,ε}` (Eq. (11)).
    pub bonus_eps: Option<f64>,
    /// DPA's global-episode variant (MATH.md D.8): release every arm's estimate when all arms
    /// have doubled their counts since the last episode.
    pub global: bool,
}

impl Phased {
    /// Closes the phase of arm `a` (global count `n_a`) if it has doubled, releasing a new
    /// estimate: DAF forgets the past phases and adds `Lap(1/(εÑ))` (private by L. 31, Thm. 32),
    /// DPA averages all `N_{T_k(a),a}` samples (ISSUE 27).
    #[inline]
    fn release(
        &self,
        s: &mut EstState,
        a: usize,
        n_a: u64,
        lazy: Option<&Arms>,
        rng: &mut Rng,
    ) -> bool {
        let start = s.start[a];
        if n_a < 2 * start {
            return false;
        }
        let m = n_a - start; // samples of the phase that just ended
        if let Some(arms) = lazy {
            s.sum[a] += arms.sum_draw(a, m, rng);
        }
        s.phase[a] += 1;
        s.start[a] = n_a;
        match self.daf_eps {
            Some(eps) => {
                let w = m as f64;
                s.mu[a] = s.sum[a] / w + laplace_noise(1.0 / (eps * w), rng);
                s.sum[a] = 0.0;
                self.set_w(s, a, w);
            }
            None => {
                let w = n_a as f64;
                s.mu[a] = s.sum[a] / w;
                self.set_w(s, a, w);
            }
        }
        true
    }
    fn set_w(&self, s: &mut EstState, a: usize, w: f64) {
        s.sum_w += w - s.w[a];
        s.w[a] = w;
        s.iw[a] = 1.0 / w;
        s.isw[a] = 1.0 / w.sqrt();
        if let Some(e) = self.bonus_eps {
            s.pbonus[a] = super::rules::ucb_bonus_private(w, e);
        }
    }
}

impl Estimator for Phased {
    const PHASED: bool = true;
    fn init(&self, s: &mut EstState, a: usize, r: f64, rng: &mut Rng) {
        match self.daf_eps {
            Some(eps) => {
                // Alg. 9/10 (ISSUE 7): phase 1 releases r_a + Lap(1/ε).
                s.mu[a] = r + laplace_noise(1.0 / eps, rng);
                s.sum[a] = 0.0;
            }
            None => {
                s.mu[a] = r;
                s.sum[a] = r;
            }
        }
        s.phase[a] = 1;
        s.start[a] = 1;
        self.set_w(s, a, 1.0);
    }
    #[inline(always)]
    fn observe(&self, s: &mut EstState, a: usize, r: f64, _rng: &mut Rng) {
        s.sum[a] += r;
    }
    #[inline]
    fn switch(
        &self,
        s: &mut EstState,
        a: usize,
        n: &[u64],
        lazy: Option<&Arms>,
        rng: &mut Rng,
    ) -> bool {
        if !self.global {
            return self.release(s, a, n[a], lazy, rng);
        }
        // One episode: only the arm pulled last can complete it (the others were already done).
        if n[a] < 2 * s.start[a] || (0..n.len()).any(|b| n[b] < 2 * s.start[b]) {
            return false;
        }
        for (b, &n_b) in n.iter().enumerate() {
            self.release(s, b, n_b, lazy, rng);
        }
        true
    }
    fn rounds(&self, s: &EstState) -> Option<u64> {
        Some(if self.global {
            s.phase[0] as u64
        } else {
            s.phase.iter().map(|&p| p as u64).sum()
        })
    }
    fn global_episodes(&self) -> bool {
        self.global
    }
    fn accepts(&self, r: f64) -> bool {
        r.is_finite()
    }
}

/// Leader rules.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Leader {
    /// `argmax μ̃_a + sqrt(c·log(Σ Ñ)/Ñ_a)`, `c = 2σ²α(1+s)` (Eq. (3)); `live`: on the global
    /// counts instead, `argmax μ̃_a + sqrt(c·log(t)/N_a)` (issue 11's control; the leader then
    /// moves between releases).
    Ucb { c: f64, live: bool },
    /// `argmax μ̃_a + b^{G,ε}_a(Ñ)` (Eq. (11)).
    PrivateUcb,
    /// `argmax μ̃_a + sqrt(ℓ/Ñ_a) + ℓ/(εÑ_a)`, `ℓ = log Σ Ñ` (issue 11's control; frozen between
    /// releases like `Ucb { live: false }`).
    PrivateUcbLogN { eps: f64 },
    /// Empirical best `argmax μ̃` (public code, TTUCB).
    Empirical,
    /// Public code, AdaP-TT: `argmax μ̃_a + log(n)/(ε Ñ_a) + sqrt(log(n)/(2Ñ_a))`.
    RefAdap { eps: f64 },
}

/// Challenger rules.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Challenger {
    /// Transport-cost challenger `argmin_{b≠B} W_{B,b}(μ̃, ω)`, `ω = N` or `Ñ` (ISSUE 11).
    Tc { local: bool },
    /// Public code: `argmin (μ̃_B − μ̃_j + κ(t))/sqrt(1/N_B + 1/N_j)`.
    RefSigned { adap: bool },
}

/// Tracking rules.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Tracking {
    /// β-tracking (D.0).
    Beta(f64),
    /// IDS β_n with cumulative tracking (D.9).
    Ids,
    /// Coin flip w.p. β (public code).
    Coin(f64),
}

/// Which arm the stopping rule tests against all others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopArm {
    /// `â_n = argmax μ̃` (Alg. 1).
    Argmax,
    /// The leader, only right after a phase switch (public code, AdaP-TT).
    LeaderOnSwitch,
}

/// Everything but the estimator.
#[derive(Debug)]
pub(crate) struct Config {
    pub name: &'static str,
    pub k: usize,
    pub leader: Leader,
    pub challenger: Challenger,
    pub tracking: Tracking,
    pub stop_cost: Cost,
    pub chal_cost: Cost,
    pub thr: Thr,
    pub stop_arm: StopArm,
    pub tie_uniform: bool,
}

/// Global counters of Alg. 1 (MATH.md D.0).
#[derive(Debug, Clone)]
pub(crate) struct Core {
    /// Global counts `N_a`.
    pub n: Vec<u64>,
    /// `1/N_a`.
    pub inv_n: Vec<f64>,
    /// `L_a`.
    pub lead: Vec<u64>,
    /// `N^a_a`.
    pub nlead: Vec<u64>,
    /// IDS cumulative `Σ β_t`.
    pub ids: Vec<f64>,
    /// Samples drawn.
    pub t: u64,
}

/// Hooks for invariant tests (no-ops in production).
pub(crate) trait Observer {
    /// After each pull of the main loop: leader `b`, challenger `c`, pulled `a`.
    fn step(&mut self, _core: &Core, _est: &EstState, _b: usize, _c: usize, _a: usize) {}
    /// After step (E) of an iteration.
    fn after_switch(&mut self, _core: &Core, _est: &EstState, _switched: bool) {}
    /// Whether the observer needs no per-step hook, so that the loop may skip deterministic work
    /// (computing an unused challenger, or a whole run of steps at once).
    fn passive(&self) -> bool {
        false
    }
}

/// The no-op observer (lets the loop take every shortcut).
pub(crate) struct NoObs;
impl Observer for NoObs {
    fn passive(&self) -> bool {
        true
    }
}

/// A no-op observer that forces the loop to do every step one by one (the reference the
/// shortcuts are tested against).
#[cfg(test)]
pub(crate) struct DenseObs;
#[cfg(test)]
impl Observer for DenseObs {}

/// Where rewards come from.
pub(crate) enum Src<'a> {
    Arms(&'a Arms),
    Lazy(&'a Arms),
    Table(&'a RewardTable),
}

#[inline(always)]
fn uniform_pick(ties: u64, rng: &mut Rng) -> bool {
    // P = 1/ties (Lemire's multiply-shift; bias <= ties/2^64).
    ((rng.next_u64() as u128 * ties as u128) >> 64) == 0
}

#[inline(always)]
fn argmax(k: usize, f: impl Fn(usize) -> f64, uniform: bool, rng: &mut Rng) -> usize {
    let mut best = 0;
    let mut bv = f(0);
    let mut ties = 1u64;
    for a in 1..k {
        let v = f(a);
        if v > bv {
            best = a;
            bv = v;
            ties = 1;
        } else if uniform && v == bv {
            ties += 1;
            if uniform_pick(ties, rng) {
                best = a;
            }
        }
    }
    best
}

#[inline(always)]
fn argmin_except(
    k: usize,
    skip: usize,
    f: impl Fn(usize) -> f64,
    uniform: bool,
    rng: &mut Rng,
) -> usize {
    let mut best = usize::MAX;
    let mut bv = f64::INFINITY;
    let mut ties = 0u64;
    for b in 0..k {
        if b == skip {
            continue;
        }
        let v = f(b);
        if best == usize::MAX || v < bv {
            best = b;
            bv = v;
            ties = 1;
        } else if uniform && v == bv {
            ties += 1;
            if uniform_pick(ties, rng) {
                best = b;
            }
        }
    }
    best
}

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
    let v = (beta * (l0 + m) as f64).floor() as u64;
    a0.max((a0 + m).min(v + 1))
}

/// Skips are tried after this many pulls of the same challenger in a row.
const SKIP_STREAK: u32 = 3;

/// The smallest `m` in `1..=limit` with `pred(m)` (`pred` monotone: false, then true), if any.
#[inline]
fn first_true(limit: u64, pred: impl Fn(u64) -> bool) -> Option<u64> {
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
/// are exactly the steps [`run_loop`] would take one by one (tested against it run for run).
/// Cost: O(K + log m) for `m` steps, so a run costs O(K log τ) when the challenger changes
/// only at releases (e.g. a starved best arm). Returns `(m, a, kept)`: the steps done, the arm
/// pulled last, and `kept` false when the skip ended because the challenger changed.
#[allow(clippy::too_many_arguments)]
fn skip_steps(
    cfg: &Config,
    s: &EstState,
    core: &mut Core,
    b: usize,
    c: usize,
    beta: f64,
    local: bool,
    global: bool,
    cap: u64,
) -> (u64, usize, bool) {
    let (nb0, nc0, l0, a0) = (core.n[b], core.n[c], core.lead[b], core.nlead[b]);
    let lead_pulls = |m: u64| tracked_leader_pulls(a0, l0, beta, m) - a0;
    let cost = cfg.chal_cost;
    let inv = |j: usize| {
        if local {
            s.iw[j]
        } else {
            core.inv_n[j]
        }
    };
    // The runner-up among the other arms: its current cost and lowest index.
    let (mut w2, mut i2) = (f64::INFINITY, usize::MAX);
    for j in 0..cfg.k {
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
    let mut limit = cap - core.t;
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
        let others_done = (0..cfg.k).all(|j| j == b || j == c || core.n[j] >= 2 * s.start[j]);
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
    core.n[b] = nb0 + p;
    core.n[c] = nc0 + m - p;
    core.inv_n[b] = 1.0 / core.n[b] as f64;
    core.inv_n[c] = 1.0 / core.n[c] as f64;
    core.lead[b] = l0 + m;
    core.nlead[b] = a0 + p;
    core.t += m;
    (m, last, kept)
}

/// Challenger pulls in a row after which [`rotate_steps`] hands over to [`skip_steps`].
const ROTATE_STREAK: u32 = 32;

/// The challenger among the arms other than `b` (lowest index among the smallest costs, as
/// [`argmin_except`] without random ties), the two cheapest arms `s0 < s1` (by index; `s1 = s0`
/// when there is only one), and the smallest cost of every other arm (`∞` if none).
#[inline]
fn cheapest_pair(cfg: &Config, s: &EstState, core: &Core, b: usize) -> (usize, usize, usize, f64) {
    let ib = core.inv_n[b];
    // (cost, index) in lexicographic order: the first is the argmin of the step rule.
    let mut top = [(f64::INFINITY, usize::MAX); 3];
    for j in 0..cfg.k {
        if j == b {
            continue;
        }
        let v = (cfg.chal_cost.eval(s.mu[b], s.mu[j], ib, core.inv_n[j]), j);
        if v.0 < top[0].0 || top[0].1 == usize::MAX {
            top = [v, top[0], top[1]];
        } else if v.0 < top[1].0 || top[1].1 == usize::MAX {
            top = [top[0], v, top[1]];
        } else if v.0 < top[2].0 || top[2].1 == usize::MAX {
            top[2] = v;
        }
    }
    let best = top[0].1;
    let other = if top[1].1 == usize::MAX {
        best
    } else {
        top[1].1
    };
    (best, best.min(other), best.max(other), top[2].0)
}

/// Does single steps exactly as [`run_loop`] would (same floating-point operations, same
/// lowest-index ties) while the leader `b` is fixed and no estimate is released: phased
/// estimator, lazy rewards, β-tracking, the transport-cost challenger on global counts,
/// per-arm phases. This is the path of runs whose challenger rotates among a few arms, which
/// [`skip_steps`] cannot shorten.
///
/// Only the two cheapest challengers `S` are evaluated at each step; every other arm's cost at
/// the last full evaluation is a lower bound of its cost from then on (costs are non-decreasing
/// in `N_B` in floating point, and its own count is frozen while it is not pulled), so the
/// argmin stays in `S` while `S`'s smaller cost is strictly below that bound; when it is not,
/// all costs are evaluated again and `S` is re-chosen. Stops after the step that makes the
/// pulled arm double its phase-start count (a release), at the cap, or after [`ROTATE_STREAK`]
/// pulls of one challenger in a row (then [`skip_steps`] is worth trying). Returns the arm
/// pulled last and the loop's `(streak, previous challenger)` bookkeeping.
#[allow(clippy::too_many_arguments)]
fn rotate_steps(
    cfg: &Config,
    s: &EstState,
    core: &mut Core,
    b: usize,
    beta: f64,
    cap: u64,
    mut streak: u32,
    mut prev_c: usize,
) -> (usize, u32, usize) {
    let (cost, mb) = (cfg.chal_cost, s.mu[b]);
    let (_, mut s0, mut s1, mut bound) = cheapest_pair(cfg, s, core, b);
    let (mut num0, mut num1) = (cost.numerator(mb, s.mu[s0]), cost.numerator(mb, s.mu[s1]));
    let mut ib = core.inv_n[b];
    loop {
        let a = if core.nlead[b] as f64 <= beta * (core.lead[b] + 1) as f64 {
            core.nlead[b] += 1;
            b
        } else {
            let v0 = num0 / (ib + core.inv_n[s0]);
            let v1 = num1 / (ib + core.inv_n[s1]);
            let (mut c, vmin) = if v1 < v0 { (s1, v1) } else { (s0, v0) };
            if vmin >= bound {
                let best;
                (best, s0, s1, bound) = cheapest_pair(cfg, s, core, b);
                (num0, num1) = (cost.numerator(mb, s.mu[s0]), cost.numerator(mb, s.mu[s1]));
                c = best;
            }
            streak = if c == prev_c { streak + 1 } else { 1 };
            prev_c = c;
            c
        };
        core.n[a] += 1;
        core.inv_n[a] = 1.0 / core.n[a] as f64;
        if a == b {
            ib = core.inv_n[b];
        }
        core.lead[b] += 1;
        core.t += 1;
        if core.n[a] >= 2 * s.start[a] || core.t >= cap || streak >= ROTATE_STREAK {
            return (a, streak, prev_c);
        }
    }
}

/// Runs Alg. 1. `check_always`: evaluate the stopping rule at every iteration even when nothing
/// was released (the plain step-by-step reference). Returns the outcome; pushes actions when
/// asked.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_loop<E: Estimator, O: Observer + ?Sized>(
    cfg: &Config,
    est: &E,
    src: Src<'_>,
    rng: &mut Rng,
    max_steps: u64,
    mut actions: Option<&mut Vec<u32>>,
    check_always: bool,
    obs: &mut O,
) -> RunOutcome {
    let k = cfg.k;
    let mut s = EstState::new(k);
    let mut core = Core {
        n: vec![0; k],
        inv_n: vec![1.0; k],
        lead: vec![0; k],
        nlead: vec![0; k],
        ids: vec![0.0; k],
        t: 0,
    };
    let (arms, lazy, table) = match src {
        Src::Arms(a) => (Some(a), None, None),
        Src::Lazy(a) => (Some(a), Some(a), None),
        Src::Table(t) => (None, None, Some(t)),
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
    let rounds = |s: &EstState| est.rounds(s);
    let unstopped = |s: &EstState, t: u64, rng: &mut Rng| RunOutcome {
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
                    let f = (c * s.sum_w.ln()).sqrt();
                    argmax(k, |a| s.mu[a] + f * s.isw[a], uni, rng)
                }
                Leader::Ucb { c, live: true } => {
                    let f = (c * tf.ln()).sqrt();
                    argmax(k, |a| s.mu[a] + f * core.inv_n[a].sqrt(), uni, rng)
                }
                Leader::PrivateUcb => argmax(k, |a| s.mu[a] + s.pbonus[a], uni, rng),
                Leader::PrivateUcbLogN { eps } => {
                    let l = s.sum_w.ln();
                    argmax(
                        k,
                        |a| s.mu[a] + (l * s.iw[a]).sqrt() + l * s.iw[a] / eps,
                        uni,
                        rng,
                    )
                }
                Leader::Empirical => argmax(k, |a| s.mu[a], uni, rng),
                Leader::RefAdap { eps } => {
                    let ln = tf.ln();
                    argmax(
                        k,
                        |a| s.mu[a] + ln * s.iw[a] / eps + (0.5 * ln * s.iw[a]).sqrt(),
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
                let w = cfg.stop_cost.eval(s.mu[cand], s.mu[b], s.iw[cand], s.iw[b]);
                if w < lb {
                    stop = false;
                    break;
                }
                let p = Pair {
                    mu_a: s.mu[cand],
                    mu_b: s.mu[b],
                    w_a: s.w[cand],
                    w_b: s.w[b],
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
        let chal = |core: &Core, rng: &mut Rng| match cfg.challenger {
            Challenger::Tc { local } => {
                let (mb, cost) = (s.mu[b_lead], cfg.chal_cost);
                if local {
                    let ib = s.iw[b_lead];
                    argmin_except(k, b_lead, |b| cost.eval(mb, s.mu[b], ib, s.iw[b]), uni, rng)
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
                if core.nlead[b_lead] as f64 <= beta * (core.lead[b_lead] + 1) as f64 {
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
                core.ids[b_lead] += nc / (nb + nc);
                if core.nlead[b_lead] as f64 <= core.ids[b_lead] {
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
        core.lead[b_lead] += 1;
        if a == b_lead {
            core.nlead[b_lead] += 1;
        }
        core.t += 1;
        last = a;
        if let Some(v) = actions.as_deref_mut() {
            v.push(a as u32);
        }
        obs.step(&core, &s, b_lead, c_memo, a);
    }
}
