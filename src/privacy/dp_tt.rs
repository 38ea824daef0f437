//! DP-TT's release (\[BAI25\] poster) on one arm's fixed schedule, for the auditors. With
//! `η = 1` the arm releases at `N = 1, 2, 4, 8, …`: phase `k` holds the rewards
//! [`super::daf_phase_bounds`]`(k)` (the same partition as DAF), and the release adds their
//! **sum** plus `Lap(1/ε)` to the cumulative noisy sum (no forgetting). The released cumulative
//! sums are a bijective post-processing of the noisy increments, so the increments are what
//! is audited: each reward is in exactly one increment (sensitivity 1 for rewards in `[0, 1]`),
//! each increment gets its own `Lap(1/ε)` — the Laplace mechanism (Thm. 3 of the seed paper)
//! under parallel composition: ε-DP. (The bandit algorithm runs the same rule inline:
//! `bandit::dp_tt`.)

use super::daf::complete_phases;
use super::ulp_up;
use crate::error::{Error, Result, check_above};

/// DP-TT's release plan on `rewards` (one arm, `η = 1`): per complete phase, the sum of its
/// rewards and the Laplace scale of its noise, `1/ε` rounded up (the safe direction).
///
/// # Errors
/// [`Error::InvalidParameter`] if `ε` is not finite and `> 0`, or a reward is not finite.
///
/// # Example
/// ```
/// let plan = dpbai::privacy::dp_tt_release_plan(&[1.0, 0.0, 1.0, 1.0, 1.0], 0.5).unwrap();
/// // phases {r1}, {r2}, {r3, r4}; sample 5 starts phase 4 (incomplete)
/// assert_eq!(plan.iter().map(|p| p.0).collect::<Vec<_>>(), [1.0, 0.0, 2.0]);
/// assert!(plan.iter().all(|p| p.1 >= 2.0 && p.1 < 2.0 + 1e-15));
/// ```
pub fn dp_tt_release_plan(rewards: &[f64], eps: f64) -> Result<Vec<(f64, f64)>> {
    check_above("eps", eps, 0.0)?;
    if !eps.is_finite() {
        return Err(Error::param("eps", eps, "a finite number > 0"));
    }
    Ok(complete_phases(rewards)?
        .into_iter()
        .map(|(lo, hi)| {
            let sum = rewards[(lo - 1) as usize..hi as usize].iter().sum::<f64>();
            (sum, ulp_up(1.0 / eps))
        })
        .collect())
}
