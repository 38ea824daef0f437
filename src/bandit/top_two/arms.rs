//! The reward model of the arms: one draw per pull, or the sum of a phase's rewards in one
//! draw (the lazy mode of the phased estimators).

use crate::privacy::bernoulli_draw;
use crate::rng::Rng;
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
    pub(super) fn draw(&self, a: usize, rng: &mut Rng) -> f64 {
        match self {
            Arms::Bern { thr, .. } => draw_bernoulli(thr, a, rng),
            Arms::Gauss { mu, sigma } => draw_gaussian(mu, *sigma, a, rng),
        }
    }
    /// The sum of `m` i.i.d. rewards of arm `a`, in one draw.
    pub(super) fn sum_draw(&self, a: usize, m: u64, rng: &mut Rng) -> f64 {
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

/// One reward of Bernoulli arm `a` ([`Arms::Bern`]'s thresholds `thr`).
#[inline(always)]
pub(super) fn draw_bernoulli(thr: &[u64], a: usize, rng: &mut Rng) -> f64 {
    bernoulli_draw(thr[a], rng) as u8 as f64
}

/// One reward of Gaussian arm `a` ([`Arms::Gauss`]: means `mu`, deviation `sigma`).
#[inline(always)]
pub(super) fn draw_gaussian(mu: &[f64], sigma: f64, a: usize, rng: &mut Rng) -> f64 {
    let z: f64 = StandardNormal.sample(rng);
    mu[a] + sigma * z
}
