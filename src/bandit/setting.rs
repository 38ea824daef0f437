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

use super::info::AlgoName;
use super::options::{
    AdapLeaderBonus, ChallengerCounts, DpaEpisodes, GaussLdpSigma, LeaderCounts, Rules, TieBreak,
};
use crate::params::{Beta, DEFAULT_ETA, Delta, Epsilon, Eta, Gamma};
use crate::threshold::Eq14Form;

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
    /// DP-TT's phase growth `η` (BAI25; READINGS.md §D.11): default 1 (doubling phases).
    pub eta: Eta,
}

/// The leader proportion of the paper (`β = 1/2`).
pub(crate) const PAPER_BETA: f64 = 0.5;

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
            eta: Eta::new(DEFAULT_ETA).expect("invariant: 1 is in ETA_RANGE"),
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
}
