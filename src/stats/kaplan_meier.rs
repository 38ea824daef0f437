//! The Kaplan–Meier product-limit estimate of a survival function from right-censored
//! observations (censoring times may differ between observations), and its quantiles.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// One stopping-time observation: the time and whether the stop was observed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The stopping time `τ` if `stopped`, else the censoring time (samples drawn before the cap).
    pub time: u64,
    /// `true`: the run stopped at `time` (an event); `false`: it was censored at `time`.
    pub stopped: bool,
}

/// Relative tolerance of the comparison `Ŝ(t) ≤ 1 − p` in [`KaplanMeier::quantile`].
///
/// The product `Ŝ(t)` of at most `n` factors carries a relative rounding error below
/// `n·2^{-52}` (`< 2.3e-10` for `n ≤ 10^6`), smaller than this tolerance, and every drop of the
/// curve is at least `1/n` relative (`≥ 1e-6`), larger than it; so for up to `10^6`
/// observations the comparison is that of exact arithmetic (e.g. `Ŝ = 3/4 · 2/3` reaches `1/2`).
pub const KM_REL_TOL: f64 = 1e-9;

/// The Kaplan–Meier (product-limit) estimate of the survival function `S(t) = P(τ > t)`.
///
/// # Definition
/// With distinct event times `t_1 < t_2 < …`, `d_j` runs stopping at `t_j` and `n_j` runs
/// at risk at `t_j` (time `≥ t_j`; a run censored at `t_j` counts as at risk at `t_j`, the
/// usual convention that censoring happens just after the events of the same time),
/// ```text
/// Ŝ(t) = ∏_{j : t_j ≤ t} (1 − d_j / n_j)
/// ```
/// a right-continuous step function, `Ŝ(t) = 1` before the first event. Without censoring
/// `Ŝ(t)` is the fraction of runs with `τ > t` (one minus the empirical CDF).
///
/// # Reference
/// Kaplan & Meier (1958), JASA 53(282); Klein & Moeschberger, *Survival Analysis* (2003), §4.2.
///
/// # Domain
/// Any non-empty list of observations.
///
/// # Accuracy
/// `Ŝ` at the event times to `n·2^{-52}` relative (a product of `≤ n` rounded factors).
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty list.
///
/// # Example
/// ```
/// use dpbai::stats::{KaplanMeier, Observation};
/// let o = |time, stopped| Observation { time, stopped };
/// // 1, 2+, 3, 4 (2+ censored): Ŝ(1) = 3/4, Ŝ(3) = 3/4·1/2, Ŝ(4) = 0
/// let km = KaplanMeier::new(&[o(1, true), o(2, false), o(3, true), o(4, true)]).unwrap();
/// assert_eq!(km.survival(2), 0.75);
/// assert_eq!(km.survival(3), 0.375);
/// assert_eq!(km.quantile(0.5).unwrap(), Some(3));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct KaplanMeier {
    /// `(t_j, Ŝ(t_j))` at the distinct event times, increasing.
    steps: Vec<(u64, f64)>,
    /// Number of observations.
    n: u64,
}

impl KaplanMeier {
    /// Builds the estimate from observations in any order.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for an empty list.
    pub fn new(obs: &[Observation]) -> Result<Self> {
        if obs.is_empty() {
            return Err(Error::param("observations", 0, "at least 1"));
        }
        let mut sorted = obs.to_vec();
        sorted.sort_by_key(|o| o.time);
        let n = sorted.len() as u64;
        let mut at_risk = n;
        let mut s = 1.0;
        let mut steps = Vec::new();
        let mut i = 0;
        while i < sorted.len() {
            let t = sorted[i].time;
            let mut j = i;
            let mut events = 0u64;
            while j < sorted.len() && sorted[j].time == t {
                events += u64::from(sorted[j].stopped);
                j += 1;
            }
            if events > 0 {
                s *= 1.0 - events as f64 / at_risk as f64;
                steps.push((t, s));
            }
            at_risk -= (j - i) as u64;
            i = j;
        }
        Ok(KaplanMeier { steps, n })
    }

    /// `(t_j, Ŝ(t_j))` at the distinct event times, increasing in `t_j`.
    pub fn steps(&self) -> &[(u64, f64)] {
        &self.steps
    }

    /// Number of observations.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// Always `false` (an estimate has at least one observation); for clippy's `len` rule.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// `Ŝ(t)`: the estimate at `t` (right-continuous, `1` before the first event).
    pub fn survival(&self, t: u64) -> f64 {
        match self.steps.partition_point(|&(tj, _)| tj <= t) {
            0 => 1.0,
            k => self.steps[k - 1].1,
        }
    }

    /// The `p`-quantile of the stopping time: the smallest event time `t` with
    /// `Ŝ(t) ≤ 1 − p`, or `None` when `Ŝ` never falls to `1 − p` (too many runs censored
    /// before; a report prints "> cap").
    ///
    /// # Definition
    /// `q_p = min{t : Ŝ(t) ≤ 1 − p}` (comparison with relative tolerance [`KM_REL_TOL`]).
    /// Without censoring this is the inverse of the empirical CDF, `q_p = x_(⌈np⌉)` (the
    /// `⌈np⌉`-th smallest value; Hyndman & Fan's type 1): the median of an even count is the
    /// **lower** middle value, not the midpoint that [`super::median`] returns.
    ///
    /// # Reference
    /// Klein & Moeschberger (2003), §4.5 (the estimated median as the smallest time with
    /// `Ŝ(t) ≤ 1/2`); Hyndman & Fan (1996), The American Statistician 50(4), definition 1.
    ///
    /// # Domain
    /// `p ∈ (0, 1)`.
    ///
    /// # Accuracy
    /// Exact (an observed time) for up to `10^6` observations, see [`KM_REL_TOL`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for `p ∉ (0, 1)`.
    ///
    /// # Example
    /// ```
    /// use dpbai::stats::{KaplanMeier, Observation};
    /// let o = |time| Observation { time, stopped: true };
    /// let km = KaplanMeier::new(&[o(10), o(20), o(30), o(40)]).unwrap();
    /// assert_eq!(km.quantile(0.5).unwrap(), Some(20)); // x_(2), the lower middle value
    /// assert_eq!(km.quantile(0.75).unwrap(), Some(30));
    /// ```
    pub fn quantile(&self, p: f64) -> Result<Option<u64>> {
        if !(p > 0.0 && p < 1.0) {
            return Err(Error::param("p", p, "in (0, 1)"));
        }
        let level = (1.0 - p) * (1.0 + KM_REL_TOL);
        Ok(self
            .steps
            .iter()
            .find(|&&(_, s)| s <= level)
            .map(|&(t, _)| t))
    }
}
