//! The sampling rules of Alg. 1 (READINGS.md §D.0, §D.2, §D.9, §P) as small traits: the leader
//! ([`LeaderRule`]), the challenger ([`ChallengerRule`]) and the tracking ([`TrackingRule`]),
//! each implemented by one small value type per rule. The loop is generic over the three
//! (monomorphised: one copy of the hot loop per rule combination that `algos` builds, no
//! dynamic dispatch or rule match per step). Also the stopping arm and the tie-breaking
//! argmax/argmin the rules share.

use super::counters::Counters;
use super::estimators::Estimates;
use crate::bandit::rules::Cost;
use crate::rng::Rng;
use rand::Rng as _;

/// A leader rule, step (L) of Alg. 1.
///
/// # Contract
/// `leader(k, s, n, t, uniform, rng)` returns `B_n ∈ argmax_{a < K} I_a(μ̃, Ñ, N, t)` for the
/// index `I` the implementation states, evaluated in exactly that floating-point form (the
/// phase-skipping path and the step-by-step equivalence tests rely on it). Ties go to the
/// lowest index; with `uniform`, to a uniformly drawn optimiser (one `rng` draw per tie, none
/// otherwise).
///
/// [`LeaderRule::FROZEN`] is `true` iff `I` reads only `(μ̃, Ñ)`, so that `B_n` can only change
/// when an estimate is released: the phase-skipping fast paths require it.
pub(crate) trait LeaderRule: Copy + Send + Sync + std::fmt::Debug + 'static {
    /// Whether the index reads only the released estimates and local counts.
    const FROZEN: bool;
    /// Whether `I_a = μ̃_a` (the empirical best: `B_n` is the stopping rule's `argmax μ̃`).
    const EMPIRICAL_BEST: bool = false;
    /// Whether [`LeaderRule::ucb_scale`] is `Some`.
    const UCB: bool = false;
    /// `Some(c)` exactly when `I_a = μ̃_a + sqrt(c·log‖Ñ‖₁)·(1/sqrt(Ñ_a))` in that
    /// floating-point form ([`UcbLeader`]), which the incremental loop certifies without
    /// evaluating it ([`super::incremental::UcbLeaderTrack`]).
    #[inline(always)]
    fn ucb_scale(&self) -> Option<f64> {
        None
    }
    /// The leader `B_n` at `t` samples.
    fn leader(
        &self,
        k: usize,
        s: &Estimates,
        n: &Counters,
        t: f64,
        uniform: bool,
        rng: &mut Rng,
    ) -> usize;
}

/// UCB leader of Eq. (3) on the local counts:
/// `I_a = μ̃_a + sqrt(c·log‖Ñ‖₁)·(1/sqrt(Ñ_a))`, `c = 2σ²α(1+s)` (READINGS.md §D.1).
#[derive(Debug, Clone, Copy)]
pub(crate) struct UcbLeader {
    /// `c = 2σ²α(1+s)`.
    pub c: f64,
}

impl LeaderRule for UcbLeader {
    const FROZEN: bool = true;
    const UCB: bool = true;
    #[inline(always)]
    fn ucb_scale(&self) -> Option<f64> {
        Some(self.c)
    }
    #[inline(always)]
    fn leader(
        &self,
        k: usize,
        s: &Estimates,
        _: &Counters,
        _: f64,
        uni: bool,
        rng: &mut Rng,
    ) -> usize {
        let f = ucb_factor(self.c, s.local_n_total);
        argmax(k, |a| ucb_index(s, a, f), uni, rng)
    }
}

/// `f = sqrt(c·log T)` of [`UcbLeader`] at `‖Ñ‖₁ = T` (the one definition, shared with the
/// incremental loop's [`super::incremental::UcbLeaderTrack`]).
#[inline(always)]
pub(crate) fn ucb_factor(c: f64, total: f64) -> f64 {
    (c * total.ln()).sqrt()
}

/// [`UcbLeader`]'s index `μ̃_a + f·(1/sqrt(Ñ_a))` (the one definition, see [`ucb_factor`]).
#[inline(always)]
pub(crate) fn ucb_index(s: &Estimates, a: usize, f: f64) -> f64 {
    s.mu[a] + f * s.inv_sqrt_local_n[a]
}

/// UCB leader on the live global counts (a control, [`crate::bandit::LeaderCounts`]):
/// `I_a = μ̃_a + sqrt(c·log t)·sqrt(1/N_a)`. Moves between releases.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LiveUcbLeader {
    /// `c = 2σ²α(1+s)`.
    pub c: f64,
}

impl LeaderRule for LiveUcbLeader {
    const FROZEN: bool = false;
    #[inline(always)]
    fn leader(
        &self,
        k: usize,
        s: &Estimates,
        n: &Counters,
        t: f64,
        uni: bool,
        rng: &mut Rng,
    ) -> usize {
        let f = (self.c * t.ln()).sqrt();
        argmax(k, |a| s.mu[a] + f * n.inv_n[a].sqrt(), uni, rng)
    }
}

/// Private UCB leader of Eq. (11): `I_a = μ̃_a + b^{G,ε}_a(Ñ)`, the bonus cached by the phased
/// estimator at each release ([`Estimates::private_bonus`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PrivateUcbLeader;

impl LeaderRule for PrivateUcbLeader {
    const FROZEN: bool = true;
    #[inline(always)]
    fn leader(
        &self,
        k: usize,
        s: &Estimates,
        _: &Counters,
        _: f64,
        uni: bool,
        rng: &mut Rng,
    ) -> usize {
        argmax(k, |a| s.mu[a] + s.private_bonus[a], uni, rng)
    }
}

/// Eq. (11) with `k(Ñ_a)` replaced by `ℓ = log‖Ñ‖₁` (a control):
/// `I_a = μ̃_a + sqrt(ℓ·(1/Ñ_a)) + ℓ·(1/Ñ_a)/ε`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PrivateUcbLogNLeader {
    /// `ε`.
    pub eps: f64,
}

impl LeaderRule for PrivateUcbLogNLeader {
    const FROZEN: bool = true;
    #[inline(always)]
    fn leader(
        &self,
        k: usize,
        s: &Estimates,
        _: &Counters,
        _: f64,
        uni: bool,
        rng: &mut Rng,
    ) -> usize {
        let (l, eps) = (s.local_n_total.ln(), self.eps);
        argmax(
            k,
            |a| s.mu[a] + (l * s.inv_local_n[a]).sqrt() + l * s.inv_local_n[a] / eps,
            uni,
            rng,
        )
    }
}

/// Empirical best (public TTUCB code, READINGS.md §P): `I_a = μ̃_a`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EmpiricalBestLeader;

impl LeaderRule for EmpiricalBestLeader {
    const FROZEN: bool = true;
    const EMPIRICAL_BEST: bool = true;
    #[inline(always)]
    fn leader(
        &self,
        k: usize,
        s: &Estimates,
        _: &Counters,
        _: f64,
        uni: bool,
        rng: &mut Rng,
    ) -> usize {
        argmax(k, |a| s.mu[a], uni, rng)
    }
}

/// Uniform allocation ([`crate::bandit::Sampling::Uniform`]): the "leader" is `t mod K`, which
/// [`AlwaysLeader`] then pulls, so after the initialisation the arms are pulled in round robin.
/// Reads the time, so it is not frozen (the phase-skipping fast paths stay off).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RoundRobinLeader;

impl LeaderRule for RoundRobinLeader {
    const FROZEN: bool = false;
    #[inline(always)]
    fn leader(&self, k: usize, _: &Estimates, n: &Counters, _: f64, _: bool, _: &mut Rng) -> usize {
        (n.t % k as u64) as usize
    }
}

/// The public AdaP-TT code's index (READINGS.md §P):
/// `I_a = μ̃_a + log(t)·(1/Ñ_a)/ε + sqrt(0.5·log(t)·(1/Ñ_a))`. Moves between releases.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RefAdapLeader {
    /// `ε`.
    pub eps: f64,
}

impl LeaderRule for RefAdapLeader {
    const FROZEN: bool = false;
    #[inline(always)]
    fn leader(
        &self,
        k: usize,
        s: &Estimates,
        _: &Counters,
        t: f64,
        uni: bool,
        rng: &mut Rng,
    ) -> usize {
        let (ln, eps) = (t.ln(), self.eps);
        argmax(
            k,
            |a| s.mu[a] + ln * s.inv_local_n[a] / eps + (0.5 * ln * s.inv_local_n[a]).sqrt(),
            uni,
            rng,
        )
    }
}

/// A challenger rule, step (C) of Alg. 1.
///
/// # Contract
/// `challenger(k, b, s, n, t, uniform, rng)` returns `C_n ∈ argmin_{j ≠ b} J_j(μ̃, Ñ, N, t)` for
/// the cost `J` the implementation states, in exactly that floating-point form, with the ties
/// of [`LeaderRule`]. It is computed only when the tracking needs it (so it must not change
/// any state but `rng`, and draws from `rng` only to break ties at random).
///
/// [`ChallengerRule::as_transport_cost`] is `Some` exactly for the transport-cost rule
/// `J_j = W(μ̃_b, μ̃_j) / (1/ω_b + 1/ω_j)` with a numerator `W >= 0` free of counts: its cost is
/// non-decreasing in the counts in floating point, which the fast paths require.
pub(crate) trait ChallengerRule: Copy + Send + Sync + std::fmt::Debug + 'static {
    /// The challenger `C_n` against the leader `b`.
    #[allow(clippy::too_many_arguments)]
    fn challenger(
        &self,
        k: usize,
        b: usize,
        s: &Estimates,
        n: &Counters,
        t: f64,
        uniform: bool,
        rng: &mut Rng,
    ) -> usize;
    /// This rule as the transport-cost challenger, if it is one.
    #[inline(always)]
    fn as_transport_cost(&self) -> Option<TransportCostChallenger> {
        None
    }
}

/// The transport-cost challenger of Alg. 1 (Eq. (3), (13); READINGS.md §D.2, R.11):
/// `J_j = cost.eval(μ̃_b, μ̃_j, 1/ω_b, 1/ω_j)` with `ω = Ñ` (`local`) or `ω = N`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TransportCostChallenger {
    /// The transport cost `W^G` or `W^{G,ε}`.
    pub cost: Cost,
    /// Local counts `Ñ` (L. 45's proof) instead of the global `N` (Alg. 1, 9, 10).
    pub local: bool,
}

impl ChallengerRule for TransportCostChallenger {
    #[inline(always)]
    fn challenger(
        &self,
        k: usize,
        b: usize,
        s: &Estimates,
        n: &Counters,
        _: f64,
        uni: bool,
        rng: &mut Rng,
    ) -> usize {
        let (mb, cost) = (s.mu[b], self.cost);
        if self.local {
            let ib = s.inv_local_n[b];
            argmin_except(
                k,
                b,
                |j| cost.eval(mb, s.mu[j], ib, s.inv_local_n[j]),
                uni,
                rng,
            )
        } else {
            let ib = n.inv_n[b];
            argmin_except(k, b, |j| cost.eval(mb, s.mu[j], ib, n.inv_n[j]), uni, rng)
        }
    }
    #[inline(always)]
    fn as_transport_cost(&self) -> Option<TransportCostChallenger> {
        Some(*self)
    }
}

/// The public code's signed challenger (READINGS.md §P):
/// `J_j = (μ̃_b − μ̃_j + κ(t)) / sqrt(1/N_b + 1/N_j)`, `κ(t) = 1/(1 + sqrt t)` (AdaP-TT, `adap`)
/// or `log(1 + t)^{−1/4}` (TTUCB).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SignedGapChallenger {
    /// AdaP-TT's `κ` instead of TTUCB's.
    pub adap: bool,
}

impl ChallengerRule for SignedGapChallenger {
    #[inline(always)]
    fn challenger(
        &self,
        k: usize,
        b: usize,
        s: &Estimates,
        n: &Counters,
        t: f64,
        uni: bool,
        rng: &mut Rng,
    ) -> usize {
        let kappa = if self.adap {
            1.0 / (1.0 + t.sqrt())
        } else {
            1.0 / (1.0 + t).ln().sqrt().sqrt()
        };
        let (mb, ib) = (s.mu[b], n.inv_n[b]);
        argmin_except(
            k,
            b,
            |j| (mb - s.mu[j] + kappa) / (ib + n.inv_n[j]).sqrt(),
            uni,
            rng,
        )
    }
}

/// A tracking rule, step (T) of Alg. 1: pull the leader `B_n` or the challenger `C_n`.
///
/// # Contract
/// `pull_leader(b, c, n, rng)` decides `a_n = B_n` (`true`) or `a_n = C_n` from the counters
/// before the pull, updating only its own state in `n` (the IDS sums) and drawing from `rng`
/// only for its own coin. `c` is the challenger when [`TrackingRule::READS_CHALLENGER`] (it is
/// then computed first), else possibly `usize::MAX` (not computed yet).
///
/// [`TrackingRule::beta`] is `Some(β)` exactly for β-tracking,
/// `a_n = B_n ⟺ N^{B_n}_{n,B_n} <= β (L_{n,B_n} + 1)` (READINGS.md §D.0), whose closed form
/// ([`super::fast_paths::tracked_leader_pulls`]) the fast paths use.
pub(crate) trait TrackingRule: Copy + Send + Sync + std::fmt::Debug + 'static {
    /// Whether the decision reads the challenger.
    const READS_CHALLENGER: bool;
    /// Whether to pull the leader `b` rather than the challenger `c`.
    fn pull_leader(&self, b: usize, c: usize, n: &mut Counters, rng: &mut Rng) -> bool;
    /// `β` of β-tracking, if this is β-tracking.
    #[inline(always)]
    fn beta(&self) -> Option<f64> {
        None
    }
}

/// β-tracking (READINGS.md §D.0): `a_n = B_n ⟺ N^{B_n}_{B_n} <= β (L_{B_n} + 1)`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BetaTracking(pub f64);

impl TrackingRule for BetaTracking {
    const READS_CHALLENGER: bool = false;
    #[inline(always)]
    fn pull_leader(&self, b: usize, _: usize, n: &mut Counters, _: &mut Rng) -> bool {
        // Counts are below 2^63, so through `i64` (one instruction) they convert as `u64` does.
        (n.leader_pulls[b] as i64) as f64 <= self.0 * ((n.leader_rounds[b] + 1) as i64) as f64
    }
    #[inline(always)]
    fn beta(&self) -> Option<f64> {
        Some(self.0)
    }
}

/// IDS proportions with cumulative tracking (READINGS.md §D.9): `β_n = N_c/(N_b + N_c)` is added to
/// the leader's sum `Σ β`, and `a_n = B_n ⟺ N^{B_n}_{B_n} <= Σ β`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IdsTracking;

impl TrackingRule for IdsTracking {
    const READS_CHALLENGER: bool = true;
    #[inline(always)]
    fn pull_leader(&self, b: usize, c: usize, n: &mut Counters, _: &mut Rng) -> bool {
        let (nb, nc) = (n.n[b] as f64, n.n[c] as f64);
        n.ids_sum[b] += nc / (nb + nc);
        n.leader_pulls[b] as f64 <= n.ids_sum[b]
    }
}

/// The public code's coin (READINGS.md §P): `a_n = B_n` with probability `β` (one 53-bit uniform).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CoinTracking(pub f64);

impl TrackingRule for CoinTracking {
    const READS_CHALLENGER: bool = false;
    #[inline(always)]
    fn pull_leader(&self, _: usize, _: usize, _: &mut Counters, rng: &mut Rng) -> bool {
        ((rng.next_u64() >> 11) as f64) * (1.0 / 9_007_199_254_740_992.0) < self.0
    }
}

/// Pulls the leader at every step (with [`RoundRobinLeader`]: uniform allocation).
#[derive(Debug, Clone, Copy)]
pub(crate) struct AlwaysLeader;

impl TrackingRule for AlwaysLeader {
    const READS_CHALLENGER: bool = false;
    #[inline(always)]
    fn pull_leader(&self, _: usize, _: usize, _: &mut Counters, _: &mut Rng) -> bool {
        true
    }
}

/// Which arm the stopping rule tests against all others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopArm {
    /// `â_n = argmax μ̃` (Alg. 1).
    Argmax,
    /// The leader, only right after a phase switch (public code, AdaP-TT).
    LeaderOnSwitch,
}

#[inline(always)]
fn uniform_pick(ties: u64, rng: &mut Rng) -> bool {
    // P = 1/ties (Lemire's multiply-shift; bias <= ties/2^64).
    ((rng.next_u64() as u128 * ties as u128) >> 64) == 0
}

#[inline(always)]
pub(super) fn argmax(k: usize, f: impl Fn(usize) -> f64, uniform: bool, rng: &mut Rng) -> usize {
    let mut best = 0;
    let mut bv = f(0);
    let mut ties = 1u64;
    for a in 1..k {
        let v = f(a);
        // The semantics canary (`--features fingerprint-canary`): ties go to the highest index,
        // a deliberate one-line change of trajectories that the fingerprint test must catch.
        if v > bv || (cfg!(feature = "fingerprint-canary") && !uniform && v == bv) {
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
pub(super) fn argmin_except(
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
