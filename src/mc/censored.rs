//! Statistics of right-censored stopping times.
//!
//! A Monte Carlo run that reaches the step cap without stopping is a **right-censored**
//! observation: its stopping time is only known to exceed the `τ` it was cut at. Dropping such
//! runs biases every location statistic downwards; treating the cap as the stopping time does
//! too, but knowingly. This module gives the statistics that stay honest under censoring
//! (a capped run is a censored observation):
//!
//! * the Kaplan–Meier estimate `Ŝ` of the survival function `P(τ > t)` ([`KaplanMeier`]), and
//!   its median and quartiles, which exist whenever `Ŝ` falls far enough (`None` otherwise, which
//!   a report prints as "> cap");
//! * the mean with censored runs counted at their censoring time, flagged as a **lower bound**
//!   when any run is censored;
//! * a 95% Student-t confidence interval of the mean, only when no run is censored.
//!
//! Censoring times may differ between runs (e.g. shards run with different caps): the estimator
//! is the general product-limit one, not a single-cap special case.

use crate::error::{Error, Result};
use crate::stats;
use crate::stats::{KaplanMeier, Observation};
use serde::{Deserialize, Serialize};

/// Confidence level of [`CensoredStats::mean_ci95_lo`]/`_hi`: `1 − MEAN_CI_ALPHA = 95%`.
pub const MEAN_CI_ALPHA: f64 = 0.05;

/// Censoring-aware summary of the stopping times of one cell (one row of a report table).
///
/// # Definition
/// Over `runs` observations of which `capped` are censored:
/// * `km_q25`, `km_median`, `km_q75`: [`KaplanMeier::quantile`] at `p = 0.25, 0.5, 0.75`
///   (`None`: the curve does not fall that far; print "> cap");
/// * `mean = (1/runs)·Σ time_i`, censored runs counted at their censoring time; a lower bound
///   of the mean of the uncapped process when `capped > 0` (`mean_is_lower_bound`; print "≥");
/// * `mean_ci95_lo/hi = mean ∓ t_{0.975, runs−1}·s/√runs` (Student t, `s` the sample standard
///   deviation) only when `capped = 0` and `runs ≥ 2`, else `None`. Its coverage is nominal
///   for normal data and asymptotically so otherwise (CLT); for the run counts of the reports
///   (`≥ 100`) and the moderate skew of stopping times it is close to 95%.
///
/// Field names are flat and CSV-friendly (a figure sidecar can write them as columns).
///
/// # Reference
/// Kaplan & Meier (1958); Student (1908).
///
/// # Domain
/// A non-empty list of observations.
///
/// # Accuracy
/// Quantiles exact (observed times); mean as an `f64` sum; the t quantile to `1e-10` relative
/// ([`stats::student_t_quantile`]).
///
/// # Errors
/// See [`CensoredStats::from_observations`].
///
/// # Example
/// ```
/// use dpbai::mc::censored::CensoredStats;
/// use dpbai::stats::Observation;
/// let o = |time, stopped| Observation { time, stopped };
/// let s = CensoredStats::from_observations(&[o(10, true), o(20, true), o(100, false)]).unwrap();
/// assert_eq!((s.runs, s.capped, s.cap), (3, 1, Some(100)));
/// assert_eq!((s.km_median, s.km_q75), (Some(20), None)); // Ŝ stays at 1/3 after t = 20
/// assert!(s.mean_is_lower_bound && s.mean_ci95_lo.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CensoredStats {
    /// Observations.
    pub runs: u64,
    /// Censored observations (runs that hit the cap).
    pub capped: u64,
    /// Largest censoring time (the cap), `None` when no run is censored.
    pub cap: Option<u64>,
    /// Kaplan–Meier median (`None`: "> cap").
    pub km_median: Option<u64>,
    /// Kaplan–Meier first quartile (`None`: "> cap").
    pub km_q25: Option<u64>,
    /// Kaplan–Meier third quartile (`None`: "> cap").
    pub km_q75: Option<u64>,
    /// Mean with censored runs counted at their censoring time.
    pub mean: f64,
    /// Whether `mean` is only a lower bound (`capped > 0`).
    pub mean_is_lower_bound: bool,
    /// Lower end of the 95% Student-t interval of the mean (`None` if `capped > 0` or `runs < 2`).
    pub mean_ci95_lo: Option<f64>,
    /// Upper end of the 95% Student-t interval of the mean (`None` if `capped > 0` or `runs < 2`).
    pub mean_ci95_hi: Option<f64>,
}

impl CensoredStats {
    /// Computes the statistics (see [`CensoredStats`] for the definitions).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for an empty list.
    pub fn from_observations(obs: &[Observation]) -> Result<Self> {
        let km = KaplanMeier::new(obs)?;
        let runs = obs.len() as u64;
        let capped = obs.iter().filter(|o| !o.stopped).count() as u64;
        let cap = obs.iter().filter(|o| !o.stopped).map(|o| o.time).max();
        let xs: Vec<f64> = obs.iter().map(|o| o.time as f64).collect();
        let total: u128 = obs.iter().map(|o| u128::from(o.time)).sum();
        let mean = total as f64 / runs as f64;
        let ci = if capped == 0 && runs >= 2 {
            let (lo, hi) = mean_ci(mean, stats::sample_std(&xs)?, runs, MEAN_CI_ALPHA)?;
            (Some(lo), Some(hi))
        } else {
            (None, None)
        };
        Ok(CensoredStats {
            runs,
            capped,
            cap,
            km_median: km.quantile(0.5)?,
            km_q25: km.quantile(0.25)?,
            km_q75: km.quantile(0.75)?,
            mean,
            mean_is_lower_bound: capped > 0,
            mean_ci95_lo: ci.0,
            mean_ci95_hi: ci.1,
        })
    }
}

/// Two-sided Student-t confidence interval of a mean from its sample moments.
///
/// # Definition
/// `mean ∓ t_{1−α/2, n−1}·std/√n` (degrees of freedom capped at [`super::compare::MAX_DF`]).
///
/// # Reference
/// Student (1908); any statistics textbook (e.g. Casella & Berger §9.2).
///
/// # Domain
/// `mean`, `std ≥ 0` finite, `n ≥ 2`, `α ∈ (0, 1)`.
///
/// # Accuracy
/// That of [`stats::student_t_quantile`] (`1e-10` relative).
///
/// # Errors
/// [`Error::InvalidParameter`] outside the domain.
///
/// # Example
/// ```
/// // n = 10, std = √10: half-width t_{0.975, 9} = 2.26215716279820554 (mpmath)
/// let (lo, hi) = dpbai::mc::censored::mean_ci(5.0, 10f64.sqrt(), 10, 0.05).unwrap();
/// assert!((hi - 5.0 - 2.262_157_162_798_205_5).abs() < 1e-12);
/// assert!((5.0 - lo - (hi - 5.0)).abs() < 1e-12);
/// ```
pub fn mean_ci(mean: f64, std: f64, n: u64, alpha: f64) -> Result<(f64, f64)> {
    crate::error::check_finite("mean", mean)?;
    if !(std >= 0.0 && std.is_finite()) {
        return Err(Error::param("std", std, "a finite number >= 0"));
    }
    if n < 2 {
        return Err(Error::param("n", n, "at least 2"));
    }
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::param("alpha", alpha, "in (0, 1)"));
    }
    let df = ((n - 1) as f64).min(super::compare::MAX_DF);
    let half = stats::student_t_quantile(1.0 - alpha / 2.0, df)? * std / (n as f64).sqrt();
    Ok((mean - half, mean + half))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    fn o(time: u64, stopped: bool) -> Observation {
        Observation { time, stopped }
    }

    /// Worked by hand (differing censoring times): 1, 2+, 3, 4, 5+, 6.
    /// t=1: n=6, d=1 → 5/6; t=3: n=4 → 5/6·3/4 = 5/8; t=4: n=3 → 5/8·2/3 = 5/12; t=6: n=1 → 0.
    #[test]
    fn km_hand_worked_differing_censoring() {
        let obs = [
            o(4, true),
            o(1, true),
            o(5, false),
            o(3, true),
            o(2, false),
            o(6, true),
        ];
        let km = KaplanMeier::new(&obs).unwrap();
        let want = [(1, 5.0 / 6.0), (3, 5.0 / 8.0), (4, 5.0 / 12.0), (6, 0.0)];
        assert_eq!(km.steps().len(), want.len());
        for (&(t, s), &(wt, ws)) in km.steps().iter().zip(&want) {
            assert_eq!(t, wt);
            assert!((s - ws).abs() < 1e-15, "{t}: {s} vs {ws}");
        }
        assert_eq!(km.survival(0), 1.0);
        assert_eq!(km.survival(2), km.survival(1));
        assert_eq!(km.survival(5), km.survival(4));
        // q25: Ŝ ≤ 3/4 first at 3 (5/8); median: Ŝ ≤ 1/2 first at 4 (5/12); q75: Ŝ ≤ 1/4 at 6.
        assert_eq!(km.quantile(0.25).unwrap(), Some(3));
        assert_eq!(km.quantile(0.5).unwrap(), Some(4));
        assert_eq!(km.quantile(0.75).unwrap(), Some(6));
        // The naive median of the stopped runs (1, 3, 4, 6) would be 3.5, of all runs 3.5 too.
        let s = CensoredStats::from_observations(&obs).unwrap();
        assert_eq!((s.runs, s.capped, s.cap), (6, 2, Some(5)));
        assert_eq!(
            (s.km_q25, s.km_median, s.km_q75),
            (Some(3), Some(4), Some(6))
        );
        assert_eq!(s.mean, 21.0 / 6.0);
        assert!(s.mean_is_lower_bound);
        assert_eq!((s.mean_ci95_lo, s.mean_ci95_hi), (None, None));
    }

    /// Censoring tied with an event: 1, 2, 2+, 3+, 3+. t=1: 4/5; t=2: n=4 (the censored 2+
    /// is at risk) → 4/5·3/4 = 3/5, and the curve stays there (median undefined).
    /// A curve that stops at exactly 1/2: 1, 2, 4+, 4+ → Ŝ(2) = 3/4·2/3 = 1/2: median 2.
    #[test]
    fn km_ties_and_exact_half() {
        let km = KaplanMeier::new(&[
            o(1, true),
            o(2, true),
            o(2, false),
            o(3, false),
            o(3, false),
        ])
        .unwrap();
        assert!((km.survival(2) - 0.6).abs() < 1e-15);
        assert_eq!(km.quantile(0.5).unwrap(), None);
        assert_eq!(km.quantile(0.2).unwrap(), Some(1));
        assert_eq!(km.quantile(0.4).unwrap(), Some(2));
        let s =
            CensoredStats::from_observations(&[o(1, true), o(2, true), o(4, false), o(4, false)])
                .unwrap();
        assert_eq!((s.km_q25, s.km_median, s.km_q75), (Some(1), Some(2), None));
        assert_eq!(s.cap, Some(4));
    }

    #[test]
    fn km_all_censored_gives_none() {
        let obs = [o(100, false), o(50, false), o(100, false)];
        let s = CensoredStats::from_observations(&obs).unwrap();
        assert_eq!((s.km_q25, s.km_median, s.km_q75), (None, None, None));
        assert_eq!((s.runs, s.capped, s.cap), (3, 3, Some(100)));
        assert!(s.mean_is_lower_bound && s.mean_ci95_hi.is_none());
        assert!(KaplanMeier::new(&obs).unwrap().steps().is_empty());
        assert!(KaplanMeier::new(&[]).is_err());
        assert!(CensoredStats::from_observations(&[]).is_err());
    }

    /// Without censoring, the KM quantile is the type-1 sample quantile x_(⌈np⌉), including
    /// ties and every n from 1 to 60.
    #[test]
    fn km_without_censoring_is_type1_sample_quantile() {
        let mut rng = crate::rng::rng_for_run(11, 0);
        for n in 1..=60u64 {
            let times: Vec<u64> = (0..n).map(|_| rng.random_range(1..=25u64)).collect();
            let obs: Vec<Observation> = times.iter().map(|&t| o(t, true)).collect();
            let km = KaplanMeier::new(&obs).unwrap();
            let mut sorted = times.clone();
            sorted.sort_unstable();
            for (num, den) in [(1u64, 4u64), (1, 2), (3, 4), (1, 10), (9, 10)] {
                let p = num as f64 / den as f64;
                let rank = (n * num).div_ceil(den); // ⌈np⌉ in integers
                assert_eq!(
                    km.quantile(p).unwrap(),
                    Some(sorted[rank as usize - 1]),
                    "n = {n}, p = {p}"
                );
            }
        }
        let s =
            CensoredStats::from_observations(&[o(10, true), o(20, true), o(30, true), o(40, true)])
                .unwrap();
        assert_eq!(
            (s.km_q25, s.km_median, s.km_q75),
            (Some(10), Some(20), Some(30))
        );
        assert!(!s.mean_is_lower_bound && s.cap.is_none());
    }

    /// t-interval: x = 1..=10, mean 5.5, s² = 55/6; half-width t_{0.975,9}·s/√10 with
    /// t_{0.975,9} = 2.26215716279820554 (mpmath at 50 digits, tests/data/censored_golden.toml;
    /// textbook table 2.262; the often-quoted 2.2621571627409915 is off in the 11th digit:
    /// its CDF is 0.97499999999766).
    #[test]
    fn mean_ci_matches_t_table() {
        let obs: Vec<Observation> = (1..=10).map(|t| o(t, true)).collect();
        let s = CensoredStats::from_observations(&obs).unwrap();
        let half = 2.262_157_162_798_205_5 * (55.0f64 / 6.0).sqrt() / 10f64.sqrt();
        assert_eq!(s.mean, 5.5);
        assert!((s.mean_ci95_lo.unwrap() - (5.5 - half)).abs() < 1e-12);
        assert!((s.mean_ci95_hi.unwrap() - (5.5 + half)).abs() < 1e-12);
        // Constant data: a zero-width interval; one run: no interval.
        let s = CensoredStats::from_observations(&[o(7, true), o(7, true)]).unwrap();
        assert_eq!((s.mean_ci95_lo, s.mean_ci95_hi), (Some(7.0), Some(7.0)));
        let s = CensoredStats::from_observations(&[o(7, true)]).unwrap();
        assert_eq!((s.mean_ci95_lo, s.km_median), (None, Some(7)));
        assert!(mean_ci(1.0, -1.0, 5, 0.05).is_err());
        assert!(mean_ci(1.0, 1.0, 1, 0.05).is_err());
        assert!(mean_ci(f64::NAN, 1.0, 5, 0.05).is_err());
    }
}
