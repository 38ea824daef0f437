//! The Doubling-And-Forgetting estimator DAF(ε) (Alg. 5, READINGS.md §D.6) on a fixed schedule, for
//! the auditors: its release plan and a sample-by-sample arm. ε-DP by L. 31, L. 20 and Thm. 32.
//! (The bandit algorithms run the same rule inline: `bandit::top_two::estimators::Phased`.)

use super::{laplace_noise, ulp_up};
use crate::error::{Error, Result, check_above};
use crate::rng::Rng;

/// First and last (1-based, inclusive) sample numbers of DAF phase `k >= 1` (L. 37).
///
/// # Definition
/// Phase 1 = `(1, 1)`; phase `k >= 2` = `(2^{k−2} + 1, 2^{k−1})`, size `Ñ_k = 2^{k−2}`.
///
/// # Example
/// ```
/// assert_eq!(dpbai::privacy::daf_phase_bounds(1), (1, 1));
/// assert_eq!(dpbai::privacy::daf_phase_bounds(2), (2, 2));
/// assert_eq!(dpbai::privacy::daf_phase_bounds(4), (5, 8));
/// ```
pub fn daf_phase_bounds(k: u32) -> (u64, u64) {
    if k <= 1 {
        (1, 1)
    } else {
        ((1u64 << (k - 2)) + 1, 1u64 << (k - 1))
    }
}

/// The deterministic release plan of DAF(ε) for one arm's reward sequence (Alg. 5, L. 37).
///
/// # Definition
/// For every completed phase `k` (`2^{k−1} <= rewards.len()`, phase 1 when non-empty), one
/// pair `(mean_k, scale_k)`: with `forgetting`, `mean_k` is the average of the phase's own
/// samples ([`daf_phase_bounds`]); without (the mutant), the average of samples `1 ..= 2^{k−1}`.
/// `scale_k = 1/(ε·Ñ_k)` (`Ñ_1 = 1`, `Ñ_k = 2^{k−2}`), rounded up one ulp. The release is
/// `mean_k + Lap(scale_k)`, independent across phases.
///
/// # Reference
/// Privacy (with forgetting): L. 31 — a fixed partition, each reward in `[0, 1]` in exactly one
/// block, block mean sensitivity `1/|block|` (R.14: divide by the block size), Laplace per
/// Thm. 3 ⇒ ε-DP; L. 20 / Thm. 32 lift this to AdaP-TT and AdaP-TT*.
///
/// # Domain
/// Rewards in `[0, 1]` for the privacy statement (not checked here); `ε > 0` finite.
///
/// # Errors
/// [`Error::InvalidParameter`] if `ε` is not finite and `> 0`, or a reward is not finite.
///
/// # Example
/// ```
/// let plan = dpbai::privacy::daf_release_plan(&[1.0, 0.0, 1.0, 0.0, 1.0], 0.5, true).unwrap();
/// // phases 1 = {r1}, 2 = {r2}, 3 = {r3, r4}; sample 5 starts phase 4 (incomplete).
/// assert_eq!(plan.len(), 3);
/// assert_eq!(plan[2].0, 0.5);
/// assert!((plan[2].1 - 1.0).abs() < 1e-15); // 1/(0.5·2)
/// ```
pub fn daf_release_plan(rewards: &[f64], eps: f64, forgetting: bool) -> Result<Vec<(f64, f64)>> {
    check_above("eps", eps, 0.0)?;
    Ok(complete_phases(rewards)?
        .into_iter()
        .map(|(lo, hi)| {
            let first = if forgetting { lo } else { 1 };
            let slice = &rewards[(first - 1) as usize..hi as usize];
            let mean = slice.iter().sum::<f64>() / slice.len() as f64;
            let size = (hi - lo + 1) as f64;
            (mean, ulp_up(1.0 / (eps * size)))
        })
        .collect())
}

/// The bounds ([`daf_phase_bounds`]) of every phase complete within `rewards`, after checking
/// that every reward is finite: the phase walk of the schedule audits (DAF, DP-TT).
///
/// # Errors
/// [`Error::InvalidParameter`] for a reward that is not finite.
pub(crate) fn complete_phases(rewards: &[f64]) -> Result<Vec<(u64, u64)>> {
    if let Some(r) = rewards.iter().find(|r| !r.is_finite()) {
        return Err(Error::param("reward", r, "a finite number"));
    }
    let n = rewards.len() as u64;
    Ok((1u32..)
        .map(daf_phase_bounds)
        .take_while(|&(_, hi)| hi <= n)
        .collect())
}

/// One draw of the DAF release vector: `mean_k + Lap(scale_k)` for every entry of
/// [`daf_release_plan`].
///
/// # Errors
/// As [`daf_release_plan`].
pub fn daf_sample_release(
    rewards: &[f64],
    eps: f64,
    forgetting: bool,
    rng: &mut Rng,
) -> Result<Vec<f64>> {
    Ok(daf_release_plan(rewards, eps, forgetting)?
        .into_iter()
        .map(|(m, b)| m + laplace_noise(b, rng))
        .collect())
}

/// One release of [`DafArm`]: the noiseless phase mean, its Laplace scale and the released
/// (noisy) value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DafRelease {
    /// Phase index `k` (1-based).
    pub phase: u32,
    /// Noiseless mean of the phase's samples (all past samples without forgetting).
    pub mean: f64,
    /// Laplace scale `1/(ε·Ñ_k)`.
    pub scale: f64,
    /// Released value `mean + Lap(scale)`.
    pub released: f64,
}

/// DAF(ε) for one arm, fed sample by sample (Alg. 5; READINGS.md §D.6).
///
/// # Definition
/// Sample 1 closes phase 1 (`Ñ_1 = 1`); afterwards, the sample that brings the arm's count to
/// `2·N_{T_k}` closes phase `k + 1` (L. 37: `N_{T_k} = 2^{k−1}`, `Ñ_k = 2^{k−2}` for `k >= 2`).
/// A closed phase releases `mean + Lap(1/(ε·Ñ))` where `mean` averages the phase's own samples
/// (forgetting) or, for the mutant `forgetting = false`, all samples so far. The releases are
/// exactly those of [`daf_release_plan`] on the same sequence. (The bandit algorithms run the
/// same rule inline, see `bandit::algos`.)
///
/// # Reference
/// Privacy: L. 31 (fixed partition + Laplace per Thm. 3) and L. 20 / Thm. 32.
///
/// # Domain
/// `ε > 0` finite; rewards in `[0, 1]` for the privacy statement.
///
/// # Example
/// ```
/// use dpbai::privacy::DafArm;
/// let mut rng = dpbai::rng::rng_for_run(1, 0);
/// let mut arm = DafArm::new(1.0, true).unwrap();
/// let phases: Vec<u32> = [1.0, 0.0, 1.0, 1.0]
///     .iter()
///     .filter_map(|&r| arm.push(r, &mut rng).map(|x| x.phase))
///     .collect();
/// assert_eq!(phases, vec![1, 2, 3]);
/// ```
#[derive(Debug, Clone)]
pub struct DafArm {
    eps: f64,
    forgetting: bool,
    n: u64,
    start: u64,
    phase: u32,
    phase_sum: f64,
    total_sum: f64,
}

impl DafArm {
    /// A fresh arm (no sample yet).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `ε` is finite and `> 0`.
    pub fn new(eps: f64, forgetting: bool) -> Result<Self> {
        check_above("eps", eps, 0.0)?;
        Ok(DafArm {
            eps,
            forgetting,
            n: 0,
            start: 1,
            phase: 0,
            phase_sum: 0.0,
            total_sum: 0.0,
        })
    }

    /// Number of samples seen.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// Feeds one sample; returns the release if it closes a phase.
    pub fn push(&mut self, r: f64, rng: &mut Rng) -> Option<DafRelease> {
        self.n += 1;
        self.phase_sum += r;
        self.total_sum += r;
        let (size, closes) = if self.n == 1 {
            (1u64, true)
        } else {
            (self.n - self.start, self.n >= 2 * self.start)
        };
        if !closes {
            return None;
        }
        if self.n > 1 {
            self.start = self.n;
        }
        self.phase += 1;
        let mean = if self.forgetting {
            self.phase_sum / size as f64
        } else {
            self.total_sum / self.n as f64
        };
        self.phase_sum = 0.0;
        let scale = ulp_up(1.0 / (self.eps * size as f64));
        Some(DafRelease {
            phase: self.phase,
            mean,
            scale,
            released: mean + laplace_noise(scale, rng),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for_run;

    #[test]
    fn daf_plan_phases_and_mutant() {
        let r: Vec<f64> = (1..=16).map(|i| (i % 3) as f64 / 2.0).collect();
        let p = daf_release_plan(&r, 1.0, true).unwrap();
        assert_eq!(p.len(), 5); // phases 1..5 end at samples 1, 2, 4, 8, 16
        for (k, &(m, b)) in p.iter().enumerate() {
            let (lo, hi) = daf_phase_bounds(k as u32 + 1);
            let want = r[(lo - 1) as usize..hi as usize].iter().sum::<f64>() / (hi - lo + 1) as f64;
            assert_eq!(m, want);
            assert!((b - 1.0 / (hi - lo + 1) as f64).abs() < 1e-15);
        }
        let q = daf_release_plan(&r, 1.0, false).unwrap();
        assert_eq!(q[4].0, r.iter().sum::<f64>() / 16.0);
        assert_eq!(q[4].1, p[4].1);
        assert_eq!(daf_release_plan(&r[..7], 1.0, true).unwrap().len(), 3);
        let mut rng = rng_for_run(1, 0);
        assert_eq!(
            daf_sample_release(&r, 1.0, true, &mut rng).unwrap().len(),
            5
        );
    }

    #[test]
    fn daf_arm_matches_release_plan() {
        let r: Vec<f64> = (0..100).map(|i| ((i * 7) % 5) as f64 / 4.0).collect();
        for forgetting in [true, false] {
            let plan = daf_release_plan(&r, 0.7, forgetting).unwrap();
            let mut arm = DafArm::new(0.7, forgetting).unwrap();
            let mut rng = rng_for_run(3, 0);
            let got: Vec<(f64, f64)> = r
                .iter()
                .filter_map(|&x| arm.push(x, &mut rng).map(|d| (d.mean, d.scale)))
                .collect();
            assert_eq!(got.len(), plan.len());
            for (g, p) in got.iter().zip(&plan) {
                assert!((g.0 - p.0).abs() < 1e-12 && g.1 == p.1);
            }
        }
        assert!(DafArm::new(0.0, true).is_err());
    }
}
