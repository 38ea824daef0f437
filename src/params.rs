//! Validated parameter newtypes: a value that exists is in its domain.
//!
//! Constructors reject NaN, infinities and out-of-range values with an [`Error`](crate::Error) that names the
//! value and the allowed range; hot loops then take these types without re-checking.

use crate::error::{Result, check_closed, check_open};

macro_rules! newtype {
    ($(#[$m:meta])* $name:ident, $label:literal, $check:expr) => {
        $(#[$m])*
        ///
        /// Serialised as its `f64`; deserialised through `new`, so a study or JSON value
        /// outside the domain is refused with the same message.
        #[derive(Debug, Clone, Copy, PartialEq, PartialOrd, serde::Serialize, serde::Deserialize)]
        #[serde(into = "f64", try_from = "f64")]
        pub struct $name(f64);

        impl TryFrom<f64> for $name {
            type Error = crate::Error;
            fn try_from(x: f64) -> Result<Self> {
                Self::new(x)
            }
        }

        impl From<$name> for f64 {
            fn from(x: $name) -> f64 {
                x.0
            }
        }

        impl $name {
            /// Validates `x`.
            ///
            /// # Errors
            /// [`crate::Error::InvalidParameter`] if `x` is outside the domain.
            pub fn new(x: f64) -> Result<Self> {
                let check: fn(&str, f64) -> Result<f64> = $check;
                check($label, x).map(Self)
            }
            /// The wrapped value.
            #[inline]
            pub fn get(self) -> f64 {
                self.0
            }
        }
    };
}

newtype!(
    /// Risk `δ ∈ [1e-300, 1)` ([`DELTA_MIN`]).
    Delta, "delta", check_delta
);

/// Smallest accepted risk `δ`. The thresholds use `log(c/δ)` computed as `log c − log δ` (no
/// overflow of `c/δ`), and intermediate risks `c·δ` with constants `c >= 1e-7` (e.g. `2δ/3`,
/// `18δ/π⁴`) must stay normal doubles to be exact; below `1e-300` they would be subnormal and
/// lose digits, so such `δ` are refused rather than computed approximately.
pub const DELTA_MIN: f64 = 1e-300;

/// Checks `δ ∈ [`[`DELTA_MIN`]`, 1)`.
///
/// # Errors
/// [`crate::Error::InvalidParameter`] naming the value and the range.
pub fn check_delta(name: &str, x: f64) -> Result<f64> {
    if (DELTA_MIN..1.0).contains(&x) {
        Ok(x)
    } else {
        Err(crate::Error::param(name, x, "in [1e-300, 1)"))
    }
}
newtype!(
    /// Privacy budget `ε ∈ [1e-300, 1e300]` ([`EPS_MIN`], [`EPS_MAX`]).
    Epsilon, "eps", check_eps
);

/// Smallest accepted `ε` (and `γ`): noise scales `s/ε` and `log(1.25/γ)` stay finite and exact;
/// a subnormal `ε` would carry only a few significant bits.
pub const EPS_MIN: f64 = 1e-300;
/// Largest accepted `ε`.
pub const EPS_MAX: f64 = 1e300;

/// Checks `ε ∈ [`[`EPS_MIN`]`, `[`EPS_MAX`]`]`.
///
/// # Errors
/// [`crate::Error::InvalidParameter`] naming the value and the range.
pub fn check_eps(name: &str, x: f64) -> Result<f64> {
    if (EPS_MIN..=EPS_MAX).contains(&x) {
        Ok(x)
    } else {
        Err(crate::Error::param(name, x, "in [1e-300, 1e300]"))
    }
}

/// Checks `γ ∈ [1e-300, 1)` (the Gaussian mechanism's `log(1.25/γ)` is exact there).
///
/// # Errors
/// [`crate::Error::InvalidParameter`] naming the value and the range.
pub fn check_gamma(name: &str, x: f64) -> Result<f64> {
    if (EPS_MIN..1.0).contains(&x) {
        Ok(x)
    } else {
        Err(crate::Error::param(name, x, "in [1e-300, 1)"))
    }
}

newtype!(
    /// `γ ∈ [1e-300, 1)` of the Gaussian mechanism ([`check_gamma`]).
    Gamma, "gamma", check_gamma
);

/// The privacy model of an algorithm and of its lower bound: the one declaration, read by the
/// algorithm table ([`crate::bandit::info`]), the upper bounds ([`crate::complexity::upper`]),
/// the studies and their figures. The privacy theorems assume rewards in `[0, 1]`.
/// A study's `[[figure]]` reads it as `local` or `global` (its serialised names are accepted
/// too).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum PrivacyModel {
    /// No privacy (`ε = ∞`).
    #[serde(rename = "non-private")]
    NonPrivate,
    /// ε-local DP (Def. 4): each reward is privatised before the learner sees it.
    #[serde(rename = "eps-local DP", alias = "local")]
    Local,
    /// ε-global DP (Def. 8): the sequence of actions and the recommendation are private.
    #[serde(rename = "eps-global DP", alias = "global")]
    Global,
}

impl PrivacyModel {
    /// Display name, as serialised (`non-private`, `eps-local DP`, `eps-global DP`).
    pub fn label(self) -> &'static str {
        match self {
            PrivacyModel::NonPrivate => "non-private",
            PrivacyModel::Local => "eps-local DP",
            PrivacyModel::Global => "eps-global DP",
        }
    }
}

/// The range of `ε` accepted by the private BAI algorithms: their thresholds divide by `ε²σ²`
/// and their estimates carry Laplace noise of scale `1/ε`, which must stay normal and finite.
pub const ALGO_EPS_RANGE: (f64, f64) = (1e-100, 1e100);
/// The range of `σ` (Gaussian arms) and of `|μ|` bound [`GAUSS_MEAN_MAX`]: `(Δ/σ)²` and its
/// inverse then stay normal and finite.
pub const SIGMA_RANGE: (f64, f64) = (1e-50, 1e50);
/// Largest `|μ|` of a Gaussian arm.
pub const GAUSS_MEAN_MAX: f64 = 1e50;

/// Checks `ε` for a private BAI algorithm ([`ALGO_EPS_RANGE`]).
///
/// # Errors
/// [`crate::Error::InvalidParameter`] naming the value and the range.
pub fn check_algo_eps(x: f64) -> Result<f64> {
    check_in("eps", x, ALGO_EPS_RANGE, "for a private algorithm")
}

/// Checks `σ` of Gaussian arms and their means ([`SIGMA_RANGE`], [`GAUSS_MEAN_MAX`]).
///
/// # Errors
/// [`crate::Error::InvalidParameter`] naming the value and the range.
pub fn check_gaussian_arms(sigma: f64, means: &[f64]) -> Result<()> {
    check_in("sigma", sigma, SIGMA_RANGE, "of Gaussian arms")?;
    for (a, &m) in means.iter().enumerate() {
        if m.is_nan() || m.abs() > GAUSS_MEAN_MAX {
            return Err(crate::Error::param(
                format!("mean of arm {}", a + 1),
                m,
                "in [-1e50, 1e50] (Gaussian arms)",
            ));
        }
    }
    Ok(())
}

fn check_in(name: &str, x: f64, (lo, hi): (f64, f64), what: &str) -> Result<f64> {
    if (lo..=hi).contains(&x) {
        Ok(x)
    } else {
        Err(crate::Error::param(
            name,
            x,
            format!("in [{lo:e}, {hi:e}] {what}"),
        ))
    }
}
newtype!(
    /// Leader proportion `β ∈ (0, 1)`.
    Beta, "beta", |n, x| check_open(n, x, 0.0, 1.0)
);
/// DP-TT's phase growth `η` by default (`(1 + η)^k = 2^k`: doubling).
pub const DEFAULT_ETA: f64 = 1.0;

/// The range of DP-TT's phase growth `η` (BAI25: phases end at `⌈(1 + η)^k⌉` pulls).
pub const ETA_RANGE: (f64, f64) = (0.01, 100.0);

/// Checks DP-TT's phase growth `η` ([`ETA_RANGE`]).
///
/// # Errors
/// [`crate::Error::InvalidParameter`] naming the value and the range.
pub fn check_eta(name: &str, x: f64) -> Result<f64> {
    let (lo, hi) = ETA_RANGE;
    if (lo..=hi).contains(&x) {
        Ok(x)
    } else {
        Err(crate::Error::param(
            name,
            x,
            format!("a number in [{lo}, {hi}] (DP-TT's phase growth)"),
        ))
    }
}

newtype!(
    /// DP-TT's phase growth `η ∈ [0.01, 100]` ([`ETA_RANGE`]; default 1, doubling phases).
    Eta, "eta", check_eta
);
newtype!(
    /// A probability `p ∈ [0, 1]`.
    Probability, "p", |n, x| check_closed(n, x, 0.0, 1.0)
);
newtype!(
    /// A standard deviation (sub-Gaussian scale) `σ ∈ [1e-50, 1e50]` ([`SIGMA_RANGE`]).
    Sigma, "sigma", |n, x| check_in(n, x, SIGMA_RANGE, "")
);

/// Resource limits, checked before any allocation or loop. Each message states the limit and
/// how to split the work instead.
pub mod limits {
    use crate::error::{Error, Result};

    /// The resolution of a figure's PNG by default: a figure `width` pixels wide is
    /// `width/100` inches wide (`[figures] dpi`, `experiment --dpi`).
    pub const DEFAULT_DPI: u32 = 100;
    /// The accepted PNG resolutions (dots per inch).
    pub const DPI_RANGE: std::ops::RangeInclusive<u32> = 50..=600;

    /// `dpi` if it lies in [`DPI_RANGE`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `name` and the range.
    pub fn check_dpi(name: &str, dpi: u32) -> Result<u32> {
        if DPI_RANGE.contains(&dpi) {
            Ok(dpi)
        } else {
            Err(Error::param(
                name,
                dpi,
                format!("in [{}, {}]", DPI_RANGE.start(), DPI_RANGE.end()),
            ))
        }
    }

    /// Most runs one process simulates (its records take ~40 bytes each); more runs go into
    /// shards (`--shard i/n`, merged by `dpbai merge`).
    pub const MAX_RUNS: u64 = 10_000_000;
    /// Most worker threads.
    pub const MAX_THREADS: usize = 1024;
    /// Most points of one ε grid.
    pub const MAX_GRID_POINTS: u64 = 100_000;
    /// Most arms of an instance.
    pub const MAX_ARMS: usize = 100_000;
    /// Largest step cap of one run.
    pub const MAX_STEPS: u64 = 1_000_000_000_000;

    /// Checks the number of runs simulated by one process.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] above [`MAX_RUNS`] (or 0).
    pub fn check_runs(name: &str, runs: u64) -> Result<u64> {
        check_runs_or(
            name,
            runs,
            &format!(
                "split the runs into shards with --shard i/n of at most {MAX_RUNS} runs each and \
                 combine them with `dpbai merge`"
            ),
        )
    }

    /// As [`check_runs`], with `how` saying how to split the work instead.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] above [`MAX_RUNS`] (or 0).
    pub fn check_runs_or(name: &str, runs: u64, how: &str) -> Result<u64> {
        if runs == 0 {
            return Err(Error::param(name, runs, "at least 1"));
        }
        if runs > MAX_RUNS {
            return Err(Error::param(
                name,
                runs,
                format!("at most {MAX_RUNS} runs per process ({how})"),
            ));
        }
        Ok(runs)
    }

    /// Checks a thread count.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] outside `1..=`[`MAX_THREADS`].
    pub fn check_threads(threads: usize) -> Result<usize> {
        if (1..=MAX_THREADS).contains(&threads) {
            Ok(threads)
        } else {
            Err(Error::param(
                "threads",
                threads,
                format!(
                    "in 1..={MAX_THREADS} (for more parallelism run shards --shard i/n as separate processes)"
                ),
            ))
        }
    }

    /// Checks the number of points of a grid.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] outside `1..=`[`MAX_GRID_POINTS`].
    pub fn check_grid_points(name: &str, n: u64) -> Result<u64> {
        if (1..=MAX_GRID_POINTS).contains(&n) {
            Ok(n)
        } else {
            Err(Error::param(
                name,
                n,
                format!("in 1..={MAX_GRID_POINTS} points (split the range into several calls)"),
            ))
        }
    }

    /// Checks the number of arms.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] above [`MAX_ARMS`].
    pub fn check_arms(k: usize) -> Result<usize> {
        if k <= MAX_ARMS {
            Ok(k)
        } else {
            Err(Error::param("K", k, format!("at most {MAX_ARMS} arms")))
        }
    }

    /// Checks a step cap.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] outside `1..=`[`MAX_STEPS`].
    pub fn check_max_steps(n: u64) -> Result<u64> {
        if (1..=MAX_STEPS).contains(&n) {
            Ok(n)
        } else {
            Err(Error::param(
                "max-steps",
                n,
                format!("in 1..={MAX_STEPS} (a run longer than that does not finish in a day)"),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newtypes_deserialise_through_their_check() {
        let d: Delta = serde_json::from_str("0.01").unwrap();
        assert_eq!(d.get(), 0.01);
        assert_eq!(serde_json::to_string(&d).unwrap(), "0.01");
        let e = serde_json::from_str::<Delta>("2.0")
            .unwrap_err()
            .to_string();
        assert!(e.contains("delta") && e.contains("[1e-300, 1)"), "{e}");
        assert!(serde_json::from_str::<Epsilon>("0").is_err());
        assert!(serde_json::from_str::<Sigma>("-1").is_err());
        let g: Vec<Gamma> = serde_json::from_str("[1e-5, 0.5]").unwrap();
        assert_eq!(g[1].get(), 0.5);
    }

    #[test]
    fn rejects_out_of_range_and_nan() {
        assert!(Delta::new(0.0).is_err());
        assert!(Delta::new(1.0).is_err());
        assert!(Delta::new(1e-320).is_err());
        assert_eq!(Delta::new(1e-300).unwrap().get(), 1e-300);
        assert!(Delta::new(f64::NAN).is_err());
        assert!(Epsilon::new(0.0).is_err());
        assert!(Epsilon::new(f64::INFINITY).is_err());
        assert!(Beta::new(1.0).is_err());
        assert!(Gamma::new(1.0).is_err());
        assert_eq!(Gamma::new(1e-6).unwrap().get(), 1e-6);
        assert!(Probability::new(-1e-300).is_err());
        assert!(Sigma::new(-1.0).is_err());
        assert_eq!(Delta::new(0.01).unwrap().get(), 0.01);
        assert_eq!(Probability::new(1.0).unwrap().get(), 1.0);
    }

    #[test]
    fn message_names_value_and_range() {
        let e = Delta::new(1.5).unwrap_err().to_string();
        assert_eq!(e, "invalid delta = 1.5: must be in [1e-300, 1)");
    }
}
