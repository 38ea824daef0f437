//! The estimators of Alg. 1 (READINGS.md §D.3–§D.8): the empirical mean of locally privatised
//! rewards ([`Mle`]) and the per-arm doubling estimators DAF(ε) and DPA ([`Phased`]), with the
//! per-arm state they update ([`Estimates`]).

use super::arms::Arms;
use crate::privacy::{Mechanism, laplace_noise};
use crate::rng::Rng;

/// The estimator's state for every arm (READINGS.md §D.0): the released estimates `μ̃_a`, the local
/// counts `Ñ_a` they are computed from (`Ñ = N` for the MLE; the size of the last completed
/// phase for DAF, all samples up to it for DPA), the phase indices and the running sums.
/// The reciprocals of `Ñ_a` are kept beside it because the leader, the stopping statistic and
/// the local-count challenger read them at every step.
#[derive(Debug, Clone)]
pub(crate) struct Estimates {
    /// Released estimates `μ̃_a`.
    pub mu: Vec<f64>,
    /// Local counts `Ñ_a` (as `f64`: the weights `ω` of the costs and thresholds).
    pub local_n: Vec<f64>,
    /// `1/Ñ_a`.
    pub inv_local_n: Vec<f64>,
    /// `1/sqrt(Ñ_a)`.
    pub inv_sqrt_local_n: Vec<f64>,
    /// Phase index `k_a` (1 for unphased estimators).
    pub phase: Vec<u32>,
    /// Running sum (MLE: all privatised rewards; DAF: current phase; DPA: all rewards).
    pub sum: Vec<f64>,
    /// Global count at the start of the current phase `N_{T_k(a),a}`.
    pub start: Vec<u64>,
    /// Cached private bonus `b^{G,ε}_a(Ñ)` of Eq. (11) (phased estimators).
    pub private_bonus: Vec<f64>,
    /// `‖Ñ‖₁ = Σ_a Ñ_a`.
    pub local_n_total: f64,
}

impl Estimates {
    /// The state before the initial pulls: `Ñ_a = 1`, phase 1.
    pub(crate) fn new(k: usize) -> Self {
        Estimates {
            mu: vec![0.0; k],
            local_n: vec![1.0; k],
            inv_local_n: vec![1.0; k],
            inv_sqrt_local_n: vec![1.0; k],
            phase: vec![1; k],
            sum: vec![0.0; k],
            start: vec![1; k],
            private_bonus: vec![0.0; k],
            local_n_total: k as f64,
        }
    }
}

/// An estimator (READINGS.md §D.3–§D.8).
pub(crate) trait Estimator: Send + Sync + std::fmt::Debug {
    /// Whether estimates only change at phase switches.
    const PHASED: bool;
    /// Records the initial sample of arm `a`.
    fn init(&self, s: &mut Estimates, a: usize, r: f64, rng: &mut Rng);
    /// Records a pull's (raw) reward.
    fn observe(&self, s: &mut Estimates, a: usize, r: f64, rng: &mut Rng);
    /// Step (E) after a pull of arm `a`, with global counts `n`; `lazy` draws the phase's
    /// rewards. Returns whether a new estimate was released.
    fn switch(
        &self,
        s: &mut Estimates,
        a: usize,
        n: &[u64],
        lazy: Option<&Arms>,
        rng: &mut Rng,
    ) -> bool;
    /// Rounds of adaptivity `C` so far (phased estimators).
    fn rounds(&self, _s: &Estimates) -> Option<u64> {
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
pub(crate) struct Mle<P: Mechanism>(pub P);

impl<P: Mechanism> Estimator for Mle<P> {
    const PHASED: bool = false;
    fn init(&self, s: &mut Estimates, a: usize, r: f64, rng: &mut Rng) {
        let r = self.0.apply(r, rng);
        s.sum[a] = r;
        s.mu[a] = r;
    }
    #[inline(always)]
    fn observe(&self, s: &mut Estimates, a: usize, r: f64, rng: &mut Rng) {
        let r = self.0.apply(r, rng);
        let sum = s.sum[a] + r;
        s.sum[a] = sum;
        let w = s.local_n[a] + 1.0;
        s.local_n[a] = w;
        let iw = 1.0 / w;
        s.inv_local_n[a] = iw;
        s.inv_sqrt_local_n[a] = iw.sqrt();
        s.mu[a] = sum * iw;
        s.local_n_total += 1.0;
    }
    #[inline(always)]
    fn switch(
        &self,
        _: &mut Estimates,
        _: usize,
        _: &[u64],
        _: Option<&Arms>,
        _: &mut Rng,
    ) -> bool {
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
    /// DPA's global-episode variant (READINGS.md §D.8): release every arm's estimate when all arms
    /// have doubled their counts since the last episode.
    pub global: bool,
}

impl Phased {
    /// Closes the phase of arm `a` (global count `n_a`) if it has doubled, releasing a new
    /// estimate: DAF forgets the past phases and adds `Lap(1/(εÑ))` (private by L. 31, Thm. 32),
    /// DPA averages all `N_{T_k(a),a}` samples (R.27).
    #[inline]
    fn release(
        &self,
        s: &mut Estimates,
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
    fn set_w(&self, s: &mut Estimates, a: usize, w: f64) {
        s.local_n_total += w - s.local_n[a];
        s.local_n[a] = w;
        s.inv_local_n[a] = 1.0 / w;
        s.inv_sqrt_local_n[a] = 1.0 / w.sqrt();
        if let Some(e) = self.bonus_eps {
            s.private_bonus[a] = crate::bandit::rules::ucb_bonus_private(w, e);
        }
    }
}

impl Estimator for Phased {
    const PHASED: bool = true;
    fn init(&self, s: &mut Estimates, a: usize, r: f64, rng: &mut Rng) {
        match self.daf_eps {
            Some(eps) => {
                // Alg. 9/10 (R.7): phase 1 releases r_a + Lap(1/ε).
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
    fn observe(&self, s: &mut Estimates, a: usize, r: f64, _rng: &mut Rng) {
        s.sum[a] += r;
    }
    #[inline]
    fn switch(
        &self,
        s: &mut Estimates,
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
    fn rounds(&self, s: &Estimates) -> Option<u64> {
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
