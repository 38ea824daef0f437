//! The confirmation of `audit dp --search` (module docs of [`super`]): group-sequential looks
//! with the δ search's error control, and the futility rule.

use super::outputs::outputs;
use crate::audit::Verdict;
use crate::audit::delta::RunPlan;
use crate::audit::dp::{BlackBox, Claim, TABLE_FEATURES, sniper_discrete};
use crate::bandit::{BaiAlgorithm, RewardTable};
use crate::error::Result;
use serde::Serialize;

/// One confirmation: the tester's result at its last look and what it drew.
#[derive(Debug, Clone, Serialize)]
pub struct Confirmation {
    /// The tester's result at the last look.
    pub result: BlackBox,
    /// The plan.
    pub plan: RunPlan,
    /// Looks done.
    pub looks: u32,
    /// `α` of the last look.
    pub alpha_look: f64,
    /// Why it stopped: `violated`, `futility` or `budget`.
    pub stopped_by: String,
    /// Samples drawn (the sum of `τ` over both tables' runs).
    pub samples: u64,
}

/// Samples of runs: feature 2 is `2·τ + stopped` ([`crate::audit::dp::tables::table_features`]).
pub(super) fn drawn(x: &[Vec<u64>]) -> u64 {
    x.iter().map(|v| v[2] >> 1).sum()
}

/// The futility rule of the sequential confirmation (module docs): whether an idealised last
/// look could not certify a loss above `eps`.
///
/// # Definition
/// With the event the tester chose, held-out counts `(k, k')` of `m` runs per table, the
/// optimistic probabilities `p = CP_upper(k, m, β)` and `p' = CP_lower(k', m, β)` (one-sided
/// Clopper–Pearson), and `M` held-out runs at the budget: the tester's certified bound at the
/// last look's level `α_J` on the counts `⌈pM⌉`, `⌊p'M⌋`,
/// `log(CP_lower(⌈pM⌉, M, α_J/2) / CP_upper(⌊p'M⌋, M, α_J/2))`, is `<= eps`.
///
/// # Domain
/// `m >= 1`, `M >= 1`, `β, α_J ∈ (0, 1)`. A zero `k'` gives `p' = 0`: never futile.
///
/// # Errors
/// Those of the Clopper–Pearson bounds (none for arguments in the domain).
pub fn futile(
    bb: &BlackBox,
    held_out_at_budget: u64,
    beta: f64,
    alpha_last: f64,
    eps: f64,
) -> Result<bool> {
    let [k, k2] = bb.counts;
    let m = bb.certify_runs;
    let big_m = held_out_at_budget;
    let p = crate::audit::ci::upper(k, m, beta)?;
    let q = crate::audit::ci::lower(k2, m, beta)?;
    let kk = ((p * big_m as f64).ceil() as u64).min(big_m);
    let kk2 = (q * big_m as f64).floor() as u64;
    let lo = crate::audit::ci::lower(kk, big_m, alpha_last / 2.0)?;
    let hi = crate::audit::ci::upper(kk2, big_m, alpha_last / 2.0)?;
    Ok((lo / hi).ln() <= eps)
}

/// The looks of `plan`: runs per table and `α` of each look (the δ audit's schedule:
/// `first·2^{j−1}` capped at the budget, at `α·2^{−j}`; one look at `α` for a fixed plan).
fn looks(plan: RunPlan, alpha: f64) -> Vec<(u64, f64)> {
    match plan {
        RunPlan::Fixed { runs } => vec![(runs, alpha)],
        RunPlan::UntilDecided { first, budget } => {
            let (mut n, mut j, mut out) = (first.min(budget), 1i32, Vec::new());
            loop {
                out.push((n, alpha * 0.5f64.powi(j)));
                if n >= budget || j >= 60 {
                    return out;
                }
                n = n.saturating_mul(2).min(budget);
                j += 1;
            }
        }
    }
}

/// Confirms the pair `(d, d2)` with `plan` at level `alpha` on the stream `seed` (module docs).
#[allow(clippy::too_many_arguments)]
pub(super) fn confirm(
    alg: &dyn BaiAlgorithm,
    d: &RewardTable,
    d2: &RewardTable,
    seed: u64,
    plan: RunPlan,
    alpha: f64,
    eps: f64,
    beta: f64,
) -> Result<Confirmation> {
    let schedule = looks(plan, alpha);
    let (last_runs, alpha_last) = *schedule.last().expect("invariant: at least one look");
    let (mut x, mut y) = (Vec::new(), Vec::new());
    let mut samples = 0;
    for (j, &(n, a)) in schedule.iter().enumerate() {
        let (nx, ny) = outputs(alg, d, d2, seed, x.len() as u64..n);
        samples += drawn(&nx) + drawn(&ny);
        x.extend(nx);
        y.extend(ny);
        let result = sniper_discrete(&x, &y, &TABLE_FEATURES, a, Claim::Pure { eps })?;
        let stopped_by = if result.verdict == Verdict::Violated {
            Some("violated")
        } else if j + 1 == schedule.len() {
            Some("budget")
        } else if futile(&result, last_runs - last_runs / 2, beta, alpha_last, eps)? {
            Some("futility")
        } else {
            None
        };
        if let Some(why) = stopped_by {
            return Ok(Confirmation {
                result,
                plan,
                looks: j as u32 + 1,
                alpha_look: a,
                stopped_by: why.into(),
                samples,
            });
        }
    }
    unreachable!("invariant: the last look stops")
}
