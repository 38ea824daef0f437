//! The single mechanisms `audit dp --mechanism` examines, faithful or mutated, and their
//! black-box sampling (randomised response, Laplace, Gaussian, DAF's release vector).

use super::blackbox::{
    candidate_pairs, sample_pair, sniper_real, sniper_search, BlackBox, Claim, PairSearch,
};
use crate::error::{check_above, Result};
use crate::privacy::{self, GaussianMechanism, Laplace, RandomisedResponse};
use crate::rng::Rng;
use serde::{Deserialize, Serialize};

/// Default claimed `γ` of the Gaussian mechanism.
pub const DEFAULT_GAMMA: f64 = 1e-5;
/// Length of the reward sequence of the DAF audits (`2^5`: phases 1..=6 complete).
pub const DAF_SEQUENCE_LEN: usize = 32;

/// The mechanisms `audit dp --mechanism` knows.
/// Spelled (`FromStr`, `Display`) by its serde names: `rr`, `laplace`, `gaussian`, `daf`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MechanismName {
    /// Randomised response on `[0, 1]` (Alg. 4, L. 12).
    Rr,
    /// Laplace mechanism with sensitivity 1 (Thm. 3).
    Laplace,
    /// Gaussian mechanism, `(ε, γ)` (Rem. 13).
    Gaussian,
    /// DAF's vector of released phase means on a fixed schedule (Alg. 5, L. 31).
    Daf,
}

crate::spelled!(MechanismName => "mechanism");

/// The mechanism a target stands for (faithful or mutated) at claimed `ε`, `γ`.
#[derive(Debug, Clone, Copy)]
pub(super) enum Mech {
    Rr(RandomisedResponse),
    Laplace(Laplace),
    Gaussian(GaussianMechanism),
    Daf { eps: f64, forgetting: bool },
}

/// The mechanism `base` at claimed `ε`, `γ`, faithful or (`mutated`) with its planted bug: randomised
/// response at `2ε`, Laplace and Gaussian noise at half their scale, DAF without forgetting.
pub(super) fn mechanism(base: MechanismName, mutated: bool, eps: f64, gamma: f64) -> Result<Mech> {
    Ok(match (base, mutated) {
        (MechanismName::Rr, false) => Mech::Rr(RandomisedResponse::new(eps)?),
        (MechanismName::Rr, true) => Mech::Rr(RandomisedResponse::with_keep_probability(
            RandomisedResponse::new(2.0 * eps)?.keep_probability(),
        )?),
        (MechanismName::Laplace, false) => Mech::Laplace(Laplace::new(1.0, eps)?),
        (MechanismName::Laplace, true) => {
            Mech::Laplace(Laplace::with_scale(Laplace::new(1.0, eps)?.scale() / 2.0)?)
        }
        (MechanismName::Gaussian, false) => Mech::Gaussian(GaussianMechanism::new(eps, gamma)?),
        (MechanismName::Gaussian, true) => Mech::Gaussian(GaussianMechanism::with_sigma(
            GaussianMechanism::new(eps, gamma)?.sigma() / 2.0,
        )?),
        (MechanismName::Daf, m) => {
            check_above("eps", eps, 0.0)?;
            Mech::Daf {
                eps,
                forgetting: !m,
            }
        }
    })
}

pub(super) fn blackbox_mechanism(
    m: Mech,
    n: u64,
    seed: u64,
    alpha: f64,
    claim: Claim,
) -> Result<BlackBox> {
    match m {
        Mech::Rr(rr) => {
            let (x, y) = sample_pair(n, seed, |i, rng| {
                rr.privatise(if i == 0 { 1.0 } else { 0.0 }, rng)
            });
            sniper_real(&x, &y, alpha, claim)
        }
        Mech::Laplace(lap) => {
            let (x, y) = sample_pair(n, seed, |i, rng| {
                lap.release(if i == 0 { 1.0 } else { 0.0 }, rng)
            });
            sniper_real(&x, &y, alpha, claim)
        }
        Mech::Gaussian(g) => {
            let (x, y) = sample_pair(n, seed, |i, rng| {
                g.privatise(if i == 0 { 1.0 } else { 0.0 }, rng)
            });
            sniper_real(&x, &y, alpha, claim)
        }
        Mech::Daf { eps, forgetting } => {
            // Neighbours: the first reward 1 vs 0, the others 1/2. The released vector is
            // projected on T = Σ_j y_j / b_j (the scales b_j are public).
            let mut r1 = vec![0.5; DAF_SEQUENCE_LEN];
            r1[0] = 1.0;
            let mut r0 = r1.clone();
            r0[0] = 0.0;
            let p1 = privacy::daf_release_plan(&r1, eps, forgetting)?;
            let p0 = privacy::daf_release_plan(&r0, eps, forgetting)?;
            let stat = |plan: &[(f64, f64)], rng: &mut Rng| -> f64 {
                plan.iter()
                    .map(|&(mean, b)| (mean + privacy::laplace_noise(b, rng)) / b)
                    .sum()
            };
            let (x, y) = sample_pair(n, seed, |i, rng| {
                if i == 0 {
                    stat(&p1, rng)
                } else {
                    stat(&p0, rng)
                }
            });
            let mut bb = sniper_real(&x, &y, alpha, claim)?;
            bb.event = format!("{} with Y = sum_j y_j/b_j", bb.event);
            Ok(bb)
        }
    }
}

/// A pair of neighbouring inputs.
pub type InputPair = (Vec<f64>, Vec<f64>);

/// The neighbour search of [`super::mechanism_neighbour_search`] for the mechanism `mech` at
/// claimed `ε`, `γ`.
pub(super) fn neighbour_search(
    mech: Mech,
    eps: f64,
    gamma: f64,
    runs: u64,
    alpha: f64,
    seed: u64,
    pairs: usize,
) -> Result<(PairSearch, Vec<InputPair>)> {
    let claim = match mech {
        Mech::Gaussian(_) => Claim::Approx { eps, gamma },
        _ => Claim::Pure { eps },
    };
    let cands = candidate_pairs(&[0.0], &[1.0], pairs, seed, &[]);
    let draw = |x: f64, rng: &mut Rng| -> Result<f64> {
        Ok(match mech {
            Mech::Rr(rr) => rr.privatise(x, rng),
            Mech::Laplace(lap) => lap.release(x, rng),
            Mech::Gaussian(g) => g.privatise(x, rng),
            Mech::Daf { .. } => {
                return Err(crate::Error::param(
                    "mechanism",
                    "daf",
                    "rr, laplace or gaussian (audit dp --mutant rr-daf-late-leak --search searches DAF)",
                ))
            }
        })
    };
    let r = sniper_search(
        cands.len(),
        (runs / 10).max(8),
        runs,
        alpha,
        claim,
        |i, side, n, stage| {
            let x = if side == 0 {
                cands[i].0[0]
            } else {
                cands[i].1[0]
            };
            let s = crate::rng::mix64(seed ^ ((i as u64) << 8 | (side as u64) << 4 | stage as u64));
            let mut rng = crate::rng::rng_for_run(s, 0);
            (0..n).map(|_| draw(x, &mut rng)).collect()
        },
    )?;
    Ok((r, cands))
}
