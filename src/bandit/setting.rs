//! [`Setting`]: the one record of an algorithm's parameters (which algorithm, `δ`, `ε`, `γ`,
//! `β`, the rules, and the readings of READINGS.md §R), shared by the engine's
//! [`AlgoSpec`](super::AlgoSpec), verify's and `dpbai experiment`'s cells
//! ([`crate::experiment::Cell`]), the δ-audit ([`crate::audit::delta::DeltaAuditConfig`])
//! and the metadata of every summary ([`crate::experiment::meta::RunMeta`]).
//!
//! The numbers are the validated newtypes of [`crate::params`], so a `Setting` that exists holds
//! values in their domains; [`super::build`] adds the checks that depend on the algorithm (e.g.
//! `ε` of a private algorithm in [`crate::params::ALGO_EPS_RANGE`], `γ` required by
//! `gauss-ldp-tt`).

use super::options::{
    AdapLeaderBonus, AlgoName, ChallengerCounts, DpaEpisodes, GaussLdpSigma, LeaderCounts, Rules,
    TieBreak,
};
use super::readings::{reading, READINGS, READING_TABLE};
use super::rules::Eq14Form;
use crate::params::{Beta, Delta, Epsilon, Gamma};

/// The parameters of one algorithm: what a run, a cell, an audit and a summary all record.
///
/// Build it with [`Setting::new`] (or [`Setting::paper`]) and then set fields, so that new
/// fields never break callers.
///
/// # Example
/// ```
/// use dpbai::bandit::{AlgoName, Setting, TieBreak};
/// let mut s = Setting::paper(AlgoName::AdapTt, 0.01).unwrap().with_eps(0.5).unwrap();
/// s.tie_break = TieBreak::Uniform;
/// assert_eq!(s.delta.get(), 0.01);
/// assert_eq!(s.beta.get(), 0.5);
/// assert_eq!(s.non_default_flags(), vec!["--tie-break uniform".to_string()]);
/// assert!(Setting::paper(AlgoName::Ttucb, 1.5).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Setting {
    /// Which algorithm.
    pub algo: AlgoName,
    /// Risk `δ`.
    pub delta: Delta,
    /// Privacy budget (required when `algo.needs_eps()`).
    pub eps: Option<Epsilon>,
    /// `γ` of the Gaussian mechanism (Alg. 8; required by `gauss-ldp-tt`).
    pub gamma: Option<Gamma>,
    /// Leader proportion `β` (default 1/2).
    pub beta: Beta,
    /// Paper or reference rules.
    pub rules: Rules,
    /// Tie-breaking in every argmax/argmin (READINGS.md §D.0); default lowest index.
    pub tie_break: TieBreak,
    /// Counts of the transport-cost challenger (READINGS.md R.11); default global `N`.
    pub challenger_counts: ChallengerCounts,
    /// Use the IDS proportion `β_n` with cumulative tracking (READINGS.md §D.9) instead of `β`.
    pub ids_beta: bool,
    /// `σ` of `gauss-ldp-tt`'s costs and bonus (READINGS.md R.12).
    pub gauss_sigma: GaussLdpSigma,
    /// Form of Eq. (14)'s second case for `adap-tt-star` (READINGS.md R.16).
    pub eq14_form: Eq14Form,
    /// Episodes of `dpa-tt` (READINGS.md §D.8): per-arm doubling (Alg. 11; default) or one global
    /// episode counter.
    pub dpa_episodes: DpaEpisodes,
    /// Leader bonus of `adap-tt` / `adap-tt-star` (paper rules): Eq. (11) (default) or the
    /// Eq. (3) UCB bonus with its `log ‖Ñ‖₁` term (a control, not the paper's algorithm).
    pub adap_leader_bonus: AdapLeaderBonus,
    /// Counts of the UCB leader of the phased algorithms (paper rules): the frozen local counts
    /// `Ñ` of Alg. 1 (default) or the live global counts `N` (a control).
    pub leader_counts: LeaderCounts,
}

/// The leader proportion of the paper (`β = 1/2`).
const PAPER_BETA: f64 = 0.5;

impl Setting {
    /// The paper's defaults for `algo` at risk `delta`: `β = 1/2`, paper rules, no `ε`/`γ`, and
    /// the default of every reading.
    pub fn new(algo: AlgoName, delta: Delta) -> Self {
        Setting {
            algo,
            delta,
            eps: None,
            gamma: None,
            beta: Beta::new(PAPER_BETA).expect("invariant: 1/2 is in (0, 1)"),
            rules: Rules::Paper,
            tie_break: TieBreak::default(),
            challenger_counts: ChallengerCounts::default(),
            ids_beta: false,
            gauss_sigma: GaussLdpSigma::default(),
            eq14_form: Eq14Form::default(),
            dpa_episodes: DpaEpisodes::default(),
            adap_leader_bonus: AdapLeaderBonus::default(),
            leader_counts: LeaderCounts::default(),
        }
    }

    /// As [`Setting::new`], validating `delta`.
    ///
    /// # Errors
    /// [`crate::Error::InvalidParameter`] for `δ` outside [`Delta`]'s domain.
    pub fn paper(algo: AlgoName, delta: f64) -> crate::Result<Self> {
        Ok(Setting::new(algo, Delta::new(delta)?))
    }

    /// This setting with `ε = eps`.
    ///
    /// # Errors
    /// [`crate::Error::InvalidParameter`] for `ε` outside [`Epsilon`]'s domain, or, for a
    /// private algorithm, outside [`crate::params::ALGO_EPS_RANGE`] (the check
    /// [`super::build`] makes).
    pub fn with_eps(self, eps: f64) -> crate::Result<Self> {
        if self.algo.needs_eps() {
            crate::params::check_algo_eps(eps)?;
        }
        Ok(Setting {
            eps: Some(Epsilon::new(eps)?),
            ..self
        })
    }

    /// This setting with `γ = gamma` (or none).
    ///
    /// # Errors
    /// [`crate::Error::InvalidParameter`] for `γ` outside [`Gamma`]'s domain.
    pub fn with_gamma(self, gamma: Option<f64>) -> crate::Result<Self> {
        Ok(Setting {
            gamma: gamma.map(Gamma::new).transpose()?,
            ..self
        })
    }

    /// `ε` as a number, if given.
    pub fn eps_value(&self) -> Option<f64> {
        self.eps.map(Epsilon::get)
    }

    /// `γ` as a number, if given.
    pub fn gamma_value(&self) -> Option<f64> {
        self.gamma.map(Gamma::get)
    }

    /// The readings that differ from the paper's defaults, as `dpbai run` flags in the order of
    /// [`READING_TABLE`] (`--tie-break uniform`, `--ids-beta`, ...); empty for the paper's
    /// algorithm. `δ`, `ε`, `γ`, `β` and the rules are not included (they have their own fields
    /// wherever this list is recorded, e.g. [`crate::experiment::meta::RunMeta::options`]).
    pub fn non_default_flags(&self) -> Vec<String> {
        self.changed_readings()
            .into_iter()
            .map(|(r, v)| {
                if r.switch {
                    format!("--{}", r.name)
                } else {
                    format!("--{} {v}", r.name)
                }
            })
            .collect()
    }

    /// Every reading with its value, by its `dpbai run` flag name (without `--`) in the order of
    /// [`READING_TABLE`], defaults included: the values are the flags' spellings (`"true"` or
    /// `"false"` for `ids-beta`), which [`Setting::set_reading`] reads back.
    ///
    /// # Example
    /// ```
    /// use dpbai::bandit::{AlgoName, Setting};
    /// let s = Setting::paper(AlgoName::Ttucb, 0.01).unwrap();
    /// assert_eq!(s.readings()[0], ("tie-break", "lowest-index".to_string()));
    /// ```
    pub fn readings(&self) -> [(&'static str, String); READING_TABLE.len()] {
        std::array::from_fn(|k| (READING_TABLE[k].name, (READING_TABLE[k].get)(self)))
    }

    /// Sets the reading named `key` from its flag value, as `dpbai run --KEY VALUE` would: `key`
    /// is one of [`READINGS`] (`_` may stand for `-`), `value` a value that flag accepts
    /// (`"true"` or `"false"` for `ids-beta`). For callers that take readings by name (the
    /// Python package's `run(..., options={...})`).
    ///
    /// # Example
    /// ```
    /// use dpbai::bandit::{AlgoName, Setting, TieBreak};
    /// let mut s = Setting::paper(AlgoName::Ttucb, 0.01).unwrap();
    /// s.set_reading("tie_break", "uniform").unwrap();
    /// assert_eq!(s.tie_break, TieBreak::Uniform);
    /// let e = s.set_reading("tie-break", "random").unwrap_err().to_string();
    /// assert!(e.contains("lowest-index, uniform"), "{e}");
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::InvalidParameter`] naming the key and the allowed keys, or the value and
    /// the allowed values.
    pub fn set_reading(&mut self, key: &str, value: &str) -> crate::Result<()> {
        let r = reading(key).ok_or_else(|| {
            crate::Error::param("reading", key, format!("one of {}", READINGS.join(", ")))
        })?;
        (r.set)(self, value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eps_is_checked_against_the_algorithms_range_when_private() {
        let private = Setting::paper(AlgoName::AdapTt, 0.1).expect("valid");
        let e = private
            .with_eps(1e-200)
            .expect_err("outside the algorithms' range");
        assert!(e.to_string().contains("for a private algorithm"), "{e}");
        let plain = Setting::paper(AlgoName::Ttucb, 0.1).expect("valid");
        assert_eq!(
            plain
                .with_eps(1e-200)
                .expect("Epsilon's domain")
                .eps_value(),
            Some(1e-200)
        );
        assert!(plain.with_eps(0.0).is_err());
        assert!(plain.with_gamma(Some(1.0)).is_err());
        assert_eq!(plain.with_gamma(None).expect("none").gamma, None);
    }

    #[test]
    fn set_reading_inverts_non_default_flags() {
        let mut s = Setting::paper(AlgoName::AdapTtStar, 0.1).expect("valid");
        for (k, v) in [
            ("tie-break", "uniform"),
            ("challenger_counts", "local"),
            ("ids-beta", "true"),
            ("gauss-sigma", "printed"),
            ("eq14-form", "printed"),
            ("dpa-episodes", "global"),
            ("adap-leader-bonus", "eq11-log-n"),
            ("leader-counts", "global"),
        ] {
            s.set_reading(k, v).expect("a valid reading");
        }
        // every reading differs from its default, each as its own flag
        assert_eq!(s.non_default_flags().len(), READINGS.len());
        let e = s
            .set_reading("tie-brake", "uniform")
            .expect_err("unknown key");
        assert!(
            e.to_string()
                .contains("one of tie-break, challenger-counts"),
            "{e}"
        );
        let e = s.set_reading("ids-beta", "yes").expect_err("not a bool");
        assert!(e.to_string().contains("true or false"), "{e}");
        let e = s
            .set_reading("adap-leader-bonus", "eq4")
            .expect_err("bad value");
        assert!(e.to_string().contains("eq11, eq3, eq11-log-n"), "{e}");
    }

    /// `readings` lists every reading of [`READINGS`], and `set_reading` reads each value back.
    #[test]
    fn readings_round_trip_through_set_reading() {
        let mut s = Setting::paper(AlgoName::AdapTtStar, 0.1).expect("valid");
        s.tie_break = TieBreak::Uniform;
        s.ids_beta = true;
        s.adap_leader_bonus = AdapLeaderBonus::Eq11LogN;
        let r = s.readings();
        assert_eq!(r.clone().map(|(k, _)| k), READINGS);
        let mut t = Setting::paper(AlgoName::AdapTtStar, 0.1).expect("valid");
        for (k, v) in &r {
            t.set_reading(k, v).expect("its own spelling");
        }
        assert_eq!(t, s);
    }

    #[test]
    fn every_non_default_reading_is_one_flag_in_a_fixed_order() {
        let mut s = Setting::paper(AlgoName::AdapTtStar, 0.1).expect("valid");
        assert!(s.non_default_flags().is_empty());
        s.tie_break = TieBreak::Uniform;
        s.challenger_counts = ChallengerCounts::Local;
        s.ids_beta = true;
        s.gauss_sigma = GaussLdpSigma::Printed;
        s.eq14_form = Eq14Form::Printed;
        s.dpa_episodes = DpaEpisodes::Global;
        s.adap_leader_bonus = AdapLeaderBonus::Eq11LogN;
        s.leader_counts = LeaderCounts::Global;
        assert_eq!(
            s.non_default_flags(),
            [
                "--tie-break uniform",
                "--challenger-counts local",
                "--ids-beta",
                "--gauss-sigma printed",
                "--eq14-form printed",
                "--dpa-episodes global",
                "--adap-leader-bonus eq11-log-n",
                "--leader-counts global",
            ]
        );
    }
}
