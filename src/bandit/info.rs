//! The algorithms, each declared once: its [`AlgoName`] variant and its [`AlgoInfo`] entry of
//! [`ALGORITHMS`] (name, label, privacy model, which options apply, its provable threshold
//! preset, its upper bound, its rules under `--rules reference`), so that the CLI, studies, the
//! Python package, figures and the cost model read one table instead of matching on the
//! algorithm. [`AlgoName::ALL`] is derived from the table.
//!
//! Adding an algorithm takes three files: its variant and entry here, its implementation (its
//! arm of `super::algos` or its own module) and its fingerprint
//! ([`super::semantics::SEMANTICS`]).

use super::options::GaussLdpSigma;
use crate::complexity::upper::UpperKind;
use crate::error::{Error, Result};
use crate::threshold::dominance::{ProofFamily, RunDomain, RunParameters};
use crate::threshold::expr::presets::{self, Preset};
use serde::{Deserialize, Serialize};

/// Algorithms known to `dpbai run` (Table 1, D.3–D.10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum AlgoName {
    /// TTUCB, non-private (Alg. 6).
    Ttucb,
    /// CTB-TT, ε-local DP by randomised response (Alg. 7).
    CtbTt,
    /// TTUCB with the Gaussian mechanism, (ε, γ)-local DP (Alg. 8).
    GaussLdpTt,
    /// AdaP-TT, ε-global DP with the DAF estimator (Alg. 9).
    AdapTt,
    /// AdaP-TT*, ε-global DP, privacy-aware cost and threshold (Alg. 10).
    AdapTtStar,
    /// DP-SE, ε-global DP successive elimination (Sec. 4.4, READINGS.md §D.10, §P).
    DpSe,
    /// TTUCB with Doubling-Per-Arm batching, non-private (Alg. 11).
    DpaTt,
    /// DP-TT, ε-global DP Top Two with geometric per-arm phases, cumulative Laplace noise and the
    /// d_ε transport cost (BAI25 poster).
    DpTt,
    /// EB-TCI, the non-private empirical-best Top Two with the TCI challenger and the Bernoulli
    /// KL cost (BAI25's non-private reference; Jourdan et al. 2022).
    EbTci,
}

crate::spelled!(AlgoName => "algo");

impl AlgoName {
    /// All names, in the order of the paper (the order of [`ALGORITHMS`]).
    pub const ALL: [AlgoName; ALGORITHMS.len()] = {
        let mut all = [AlgoName::Ttucb; ALGORITHMS.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = ALGORITHMS[i].algo;
            i += 1;
        }
        all
    };
}

pub use crate::params::PrivacyModel;

/// What an algorithm's estimates are, which bounds the `gap = (μ̃_a − μ̃_b)_+` its stopping
/// threshold reads at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Estimates {
    /// Averages of values in the rewards' range: of the rewards, or of a mechanism's outputs
    /// in `{0, 1}` (randomised response). An average of values in `[0, 1]` lies in `[0, 1]`, so
    /// `gap <= 1` on rewards in `[0, 1]`; Gaussian rewards are unbounded, and so is `gap`.
    RewardMeans,
    /// Averages plus noise of unbounded support (Laplace for DAF, a Gaussian for the Gaussian
    /// mechanism): the noise has a positive density on all of `ℝ`, so every `gap >= 0` is
    /// reached with positive probability and no finite bound holds, whatever the rewards.
    Noisy,
}

/// The `σ` an algorithm's stopping rule reads (its `W^G` and `c^{G,ε}` scale).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleSigma {
    /// The rewards' `σ` (`1/2` for rewards in `[0, 1]`).
    Rewards,
    /// `sqrt(σ² + σ_{ε,γ}²)`: the rewards' `σ` combined with the Gaussian mechanism's
    /// `σ_{ε,γ} = sqrt(2 log(1.25/γ))/ε` (Rem. 13; the reading `--gauss-sigma combined`, the
    /// default; `printed` reads the rewards' `σ`).
    RewardsAndGaussianMechanism,
}

impl RuleSigma {
    /// The value for rewards of scale `arm_sigma` at `ε` and `γ` (both needed by
    /// [`RuleSigma::RewardsAndGaussianMechanism`] under the combined reading).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a missing `γ`, or `ε`, `γ` out of range.
    pub fn value(
        self,
        arm_sigma: f64,
        eps: f64,
        gamma: Option<f64>,
        reading: GaussLdpSigma,
    ) -> Result<f64> {
        if self == RuleSigma::Rewards {
            return Ok(arm_sigma);
        }
        let Some(gamma) = gamma else {
            return Err(Error::param(
                "gamma",
                "(missing)",
                "given (--gamma) for gauss-ldp-tt, in (0, 1)",
            ));
        };
        let gm = crate::privacy::GaussianMechanism::new(eps, gamma)?;
        Ok(match reading {
            GaussLdpSigma::Combined => (arm_sigma * arm_sigma + gm.sigma() * gm.sigma()).sqrt(),
            GaussLdpSigma::Printed => arm_sigma,
        })
    }
}

/// An option of `dpbai run` that only some algorithms take (the readings by their flag names,
/// and `beta`, `gamma`, `eps`).
pub type OptionName = &'static str;

/// The facts of one algorithm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlgoInfo {
    /// The algorithm.
    pub algo: AlgoName,
    /// Command-line spelling (`ttucb`, …).
    pub name: &'static str,
    /// Display label (`TTUCB`, `AdaP-TT*`, …).
    pub label: &'static str,
    /// Where the paper defines it.
    pub reference: &'static str,
    /// Privacy model (hence whether it needs `ε`, and which lower bound binds it).
    pub privacy: PrivacyModel,
    /// A Top Two algorithm of the seed paper's Alg. 1 (leader, challenger, tracking, GLR
    /// stopping), run by its engine and taking its readings. BAI25's DP-TT and EB-TCI are
    /// Top Two algorithms too, but of their own engine ([`super::dp_tt`]): `false` for them.
    pub top_two: bool,
    /// Its estimates are released in phases (DAF or DPA): `rounds` is defined.
    pub phased: bool,
    /// The non-private algorithm whose estimates it releases in batches without privacy
    /// (DPA-TT is TTUCB with the DPA update, Alg. 11): its allocation is that algorithm's.
    pub batches: Option<AlgoName>,
    /// The parameters it takes besides `δ`, the rules, `--threshold` and the readings (`β`,
    /// `ε`, `γ`); the readings it takes are those whose [`super::Reading::accepts`] holds for
    /// it. A value other than the default of any other option is refused by [`super::build`].
    pub options: &'static [OptionName],
    /// The provable threshold preset (`audit delta --threshold`) whose lemma gives its
    /// δ-correctness; `None` when no preset states its own threshold.
    pub paper_preset: Option<Preset>,
    /// The asymptotic upper bound the paper proves for it with its own thresholds; `None`
    /// without one. CTB-TT with IDS has its own ([`UpperKind::CtbTtIds`]).
    pub upper_bound: Option<UpperKind>,
    /// What it is under `--rules reference` (see [`ReferenceRules`]).
    pub reference_rules: ReferenceRules,
    /// The claims and findings whose statistics use its stopping times under its default
    /// reading, so that a reading that changes those times may move them (each checked by the
    /// claims layer's tests to name a declared claim or a REPORT.md Finding).
    pub claims: &'static [ClaimRef],
    /// A remark printed after [`AlgoInfo::claims`] (in parentheses), if any.
    pub claims_note: Option<&'static str>,
    /// What its estimates are (the range of `gap` its threshold reads at run time).
    pub estimates: Estimates,
    /// The `σ` its stopping rule reads.
    pub rule_sigma: RuleSigma,
    /// The cluster planner's cost model of one run.
    pub cost: CostFacts,
}

/// A claim or finding of a report, named by an algorithm's declaration (typed: the claims
/// layer's tests check that each names a declared claim or a Finding of REPORT.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimRef {
    /// Claim `F.n` of the seed paper (docs/CLAIMS.md).
    F(u16),
    /// Claim `B.n` of \[BAI25\] (docs/CLAIMS-BAI25.md).
    B(u16),
    /// REPORT.md's Finding `n`.
    Finding(u8),
}

impl std::fmt::Display for ClaimRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClaimRef::F(n) => write!(f, "F.{n}"),
            ClaimRef::B(n) => write!(f, "B.{n}"),
            ClaimRef::Finding(n) => write!(f, "Finding {n}"),
        }
    }
}

impl AlgoInfo {
    /// [`AlgoInfo::claims`] in words, e.g. `F.42, Finding 3`, then the note in parentheses.
    ///
    /// # Example
    /// ```
    /// use dpbai::bandit::AlgoName;
    /// assert_eq!(AlgoName::DpaTt.info().claims_text(), "F.42, Finding 3");
    /// assert_eq!(AlgoName::DpSe.info().claims_text(), "F.52, F.54");
    /// ```
    pub fn claims_text(&self) -> String {
        let refs: Vec<String> = self.claims.iter().map(ToString::to_string).collect();
        let refs = refs.join(", ");
        match self.claims_note {
            Some(note) => format!("{refs} ({note})"),
            None => refs,
        }
    }
}

/// Measured facts of the cluster planner's cost model (`dpbai cluster plan`): a run stops
/// after about `tau_over_bound · T* · log(1/(2.4δ))` samples, each costing `ns_per_sample`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostFacts {
    /// Mean stopping time (capped runs at the cap) over the sample-complexity lower bound
    /// `T* · log(1/(2.4δ))`: the median ratio over the algorithm's cells in the paper profile's
    /// table (δ = 0.01).
    pub tau_over_bound: f64,
    /// Cost of one sample on one thread, in ns (`1e9 / samples_per_s` of `dpbai run --runs 6
    /// --threads 1 --json` at δ = 0.01 on the 2-core development machine).
    pub ns_per_sample: f64,
    /// With `--dpa-episodes global` the run stalls and burns the cap between rare releases:
    /// the cost of one sample of the cap then (measured: 0.018 ns per sample, 4 capped runs
    /// of 2e8 samples on μ4); `None` for algorithms without that option.
    pub global_episodes_ns_per_sample: Option<f64>,
}

/// The claims that rest on AdaP-TT's and AdaP-TT*'s stopping times.
const ADAP_CLAIMS: &[ClaimRef] = &[
    ClaimRef::F(52),
    ClaimRef::F(53),
    ClaimRef::F(54),
    ClaimRef::F(55),
    ClaimRef::Finding(1),
];

/// One entry per algorithm, in the order of the paper.
pub const ALGORITHMS: &[AlgoInfo] = &[
    AlgoInfo {
        algo: AlgoName::Ttucb,
        name: "ttucb",
        label: "TTUCB",
        reference: "Alg. 6",
        privacy: PrivacyModel::NonPrivate,
        top_two: true,
        phased: false,
        batches: None,
        options: &["beta"],
        paper_preset: Some(presets::PAPER_CG),
        upper_bound: None,
        reference_rules: ReferenceRules::PublicCode,
        claims: &[ClaimRef::F(50), ClaimRef::F(51), ClaimRef::F(53)],
        claims_note: Some("TTUCB is the non-private reference"),
        estimates: Estimates::RewardMeans,
        rule_sigma: RuleSigma::Rewards,
        cost: CostFacts {
            tau_over_bound: 7.5,
            ns_per_sample: 185.0,
            global_episodes_ns_per_sample: None,
        },
    },
    AlgoInfo {
        algo: AlgoName::CtbTt,
        name: "ctb-tt",
        label: "CTB-TT",
        reference: "Alg. 7",
        privacy: PrivacyModel::Local,
        top_two: true,
        phased: false,
        batches: None,
        options: &["beta", "eps"],
        paper_preset: Some(presets::PAPER_CG),
        upper_bound: Some(UpperKind::CtbTt),
        reference_rules: ReferenceRules::Construction,
        claims: &[
            ClaimRef::F(50),
            ClaimRef::F(51),
            ClaimRef::F(55),
            ClaimRef::F(57),
        ],
        claims_note: None,
        estimates: Estimates::RewardMeans,
        rule_sigma: RuleSigma::Rewards,
        cost: CostFacts {
            tau_over_bound: 28.0,
            ns_per_sample: 125.0,
            global_episodes_ns_per_sample: None,
        },
    },
    AlgoInfo {
        algo: AlgoName::GaussLdpTt,
        name: "gauss-ldp-tt",
        label: "Gauss-LDP-TT",
        reference: "Alg. 8",
        privacy: PrivacyModel::Local,
        top_two: true,
        phased: false,
        batches: None,
        options: &["beta", "eps", "gamma"],
        paper_preset: Some(presets::PAPER_CG),
        upper_bound: None,
        reference_rules: ReferenceRules::Construction,
        claims: &[ClaimRef::F(15)],
        claims_note: Some("σ of the Gaussian-mechanism variant"),
        estimates: Estimates::Noisy,
        rule_sigma: RuleSigma::RewardsAndGaussianMechanism,
        cost: CostFacts {
            tau_over_bound: 28.0,
            ns_per_sample: 125.0,
            global_episodes_ns_per_sample: None,
        },
    },
    AlgoInfo {
        algo: AlgoName::AdapTt,
        name: "adap-tt",
        label: "AdaP-TT",
        reference: "Alg. 9",
        privacy: PrivacyModel::Global,
        top_two: true,
        phased: true,
        batches: None,
        options: &["beta", "eps"],
        paper_preset: Some(presets::PAPER_ADAP_TT),
        upper_bound: Some(UpperKind::AdapTt),
        reference_rules: ReferenceRules::PublicCode,
        claims: ADAP_CLAIMS,
        claims_note: None,
        estimates: Estimates::Noisy,
        rule_sigma: RuleSigma::Rewards,
        cost: CostFacts {
            tau_over_bound: 230.0,
            ns_per_sample: 12.0,
            global_episodes_ns_per_sample: None,
        },
    },
    AlgoInfo {
        algo: AlgoName::AdapTtStar,
        name: "adap-tt-star",
        label: "AdaP-TT*",
        reference: "Alg. 10",
        privacy: PrivacyModel::Global,
        top_two: true,
        phased: true,
        batches: None,
        options: &["beta", "eps"],
        paper_preset: Some(presets::PAPER_ADAP_TT_STAR),
        upper_bound: Some(UpperKind::AdapTtStar),
        reference_rules: ReferenceRules::SameAs(AlgoName::AdapTt),
        claims: ADAP_CLAIMS,
        claims_note: None,
        estimates: Estimates::Noisy,
        rule_sigma: RuleSigma::Rewards,
        cost: CostFacts {
            tau_over_bound: 270.0,
            ns_per_sample: 12.0,
            global_episodes_ns_per_sample: None,
        },
    },
    AlgoInfo {
        algo: AlgoName::DpSe,
        name: "dp-se",
        label: "DP-SE",
        reference: "Sec. 4.4",
        privacy: PrivacyModel::Global,
        top_two: false,
        phased: true,
        batches: None,
        options: &["eps"],
        paper_preset: None,
        upper_bound: None,
        reference_rules: ReferenceRules::PublicCode,
        claims: &[ClaimRef::F(52), ClaimRef::F(54)],
        claims_note: None,
        estimates: Estimates::Noisy,
        rule_sigma: RuleSigma::Rewards,
        cost: CostFacts {
            tau_over_bound: 28.0,
            ns_per_sample: 1.5,
            global_episodes_ns_per_sample: None,
        },
    },
    AlgoInfo {
        algo: AlgoName::DpaTt,
        name: "dpa-tt",
        label: "DPA-TT",
        reference: "Alg. 11",
        privacy: PrivacyModel::NonPrivate,
        top_two: true,
        phased: true,
        batches: Some(AlgoName::Ttucb),
        options: &["beta"],
        paper_preset: Some(presets::PAPER_DAF_INF),
        upper_bound: Some(UpperKind::DpaTt),
        reference_rules: ReferenceRules::Construction,
        claims: &[ClaimRef::F(42), ClaimRef::Finding(3)],
        claims_note: None,
        estimates: Estimates::RewardMeans,
        rule_sigma: RuleSigma::Rewards,
        cost: CostFacts {
            tau_over_bound: 16.0,
            ns_per_sample: 50.0,
            global_episodes_ns_per_sample: Some(0.02),
        },
    },
    AlgoInfo {
        algo: AlgoName::DpTt,
        name: "dp-tt",
        label: "DP-TT",
        reference: "[BAI25] poster",
        privacy: PrivacyModel::Global,
        top_two: false,
        phased: true,
        batches: None,
        options: &["beta", "eps"],
        paper_preset: None,
        // [BAI25]'s asymptotic bound 2(1 + η)·T*_{ε,β} (`complexity::upper::dp_tt`).
        upper_bound: Some(UpperKind::DpTt),
        reference_rules: ReferenceRules::None,
        claims: &[
            ClaimRef::B(6),
            ClaimRef::B(7),
            ClaimRef::B(8),
            ClaimRef::B(9),
            ClaimRef::B(10),
            ClaimRef::B(12),
        ],
        claims_note: Some("docs/CLAIMS-BAI25.md"),
        estimates: Estimates::Noisy,
        rule_sigma: RuleSigma::Rewards,
        // μ1, ε = 1: mean τ 141,017 over 100 runs against T*_ε·log(1/(2.4δ)) = 1480;
        // 2.2e7 samples/s on one thread since the certified challenger (6 runs, median of
        // 3 on the shared machine: 45.4 ns per sample).
        cost: CostFacts {
            tau_over_bound: 95.0,
            ns_per_sample: 45.4,
            global_episodes_ns_per_sample: None,
        },
    },
    AlgoInfo {
        algo: AlgoName::EbTci,
        name: "eb-tci",
        label: "EB-TCI",
        reference: "[BAI25] (Jourdan et al. 2022)",
        privacy: PrivacyModel::NonPrivate,
        top_two: false,
        phased: false,
        batches: None,
        options: &["beta"],
        paper_preset: Some(presets::GK16_BERNOULLI),
        upper_bound: None,
        reference_rules: ReferenceRules::None,
        claims: &[ClaimRef::B(9), ClaimRef::B(12)],
        claims_note: Some("docs/CLAIMS-BAI25.md"),
        estimates: Estimates::RewardMeans,
        rule_sigma: RuleSigma::Rewards,
        // μ1: mean τ 6131 over 100 runs against T*_KL·log(1/(2.4δ)) = 1476; 5.4e6 samples/s.
        cost: CostFacts {
            tau_over_bound: 4.2,
            ns_per_sample: 186.0,
            global_episodes_ns_per_sample: None,
        },
    },
];

impl AlgoName {
    /// The algorithm's entry of [`ALGORITHMS`].
    pub fn info(self) -> &'static AlgoInfo {
        ALGORITHMS
            .iter()
            .find(|i| i.algo == self)
            .expect("invariant: ALGORITHMS lists every AlgoName")
    }
}

/// The Top Two algorithms under pure privacy (ε-DP, or none), in the order of the paper: every
/// Top Two algorithm but the (ε, γ)-DP Gaussian-mechanism variant. They are the algorithms of
/// the trace figures and of the δ-correctness battery.
pub fn pure_top_two() -> impl Iterator<Item = AlgoName> {
    ALGORITHMS
        .iter()
        .filter(|i| i.top_two && i.pure())
        .map(|i| i.algo)
}

impl AlgoInfo {
    /// Whether its privacy, if any, is pure ε-DP: it does not take the `γ` of approximate
    /// (ε, γ)-DP.
    pub fn pure(&self) -> bool {
        !self.options.contains(&"gamma")
    }

    /// The domain its runs evaluate their stopping threshold on (what a proof by dominance
    /// for it must cover, [`crate::threshold::dominance`]): `ε` (`+∞` for a non-private
    /// algorithm; the given `ε`, or every admissible one when none is given), the `σ` its rule
    /// reads ([`AlgoInfo::rule_sigma`] at those `ε`, `γ`; every value they reach when one is
    /// not given), `gap` ([`AlgoInfo::estimates`]: `[0, 1]` for averages of rewards in
    /// `[0, 1]`, else unbounded) and `t <= p.max_steps`, the runs' own cap.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for `ε` given to a non-private algorithm (its runs use
    /// `ε = +∞`), or `ε`, `γ`, `σ` out of range.
    pub fn run_domain(&self, p: &RunParameters) -> Result<RunDomain> {
        match p.family {
            ProofFamily::Bernoulli if p.arm_sigma != 0.5 => {
                return Err(Error::param(
                    "sigma",
                    p.arm_sigma,
                    "1/2 for Bernoulli arms (the paper rules' constant); other values need the Gaussian family",
                ));
            }
            ProofFamily::Gaussian => crate::params::check_gaussian_arms(p.arm_sigma, &[])?,
            ProofFamily::Bernoulli => {}
        }
        let private = self.privacy != PrivacyModel::NonPrivate;
        let eps = match (private, p.eps) {
            (false, Some(e)) => {
                return Err(Error::param(
                    "eps",
                    e,
                    format!(
                        "absent for {}: a non-private algorithm runs at eps = inf (as dpbai run refuses --eps for it)",
                        self.name
                    ),
                ));
            }
            (false, None) => [None, None],
            (true, Some(e)) => {
                crate::params::check_algo_eps(e)?;
                [Some(e), Some(e)]
            }
            (true, None) => {
                let (lo, hi) = crate::params::ALGO_EPS_RANGE;
                [Some(lo), Some(hi)]
            }
        };
        let e0 = eps[0].unwrap_or(f64::INFINITY);
        let reading = GaussLdpSigma::default();
        let sigma = match (self.rule_sigma, p.eps, p.gamma) {
            (RuleSigma::Rewards, _, _) => [p.arm_sigma; 2],
            (_, Some(e), Some(_)) => [self.rule_sigma.value(p.arm_sigma, e, p.gamma, reading)?; 2],
            // σ_{ε,γ} decreases in ε and in γ: the hull over the admissible ones.
            _ => {
                let g_lo = p.gamma.unwrap_or(crate::params::EPS_MIN);
                [
                    p.arm_sigma,
                    self.rule_sigma
                        .value(p.arm_sigma, e0, Some(g_lo), reading)?,
                ]
            }
        };
        let gap_max = match (self.estimates, p.family) {
            (Estimates::RewardMeans, ProofFamily::Bernoulli) => Some(1.0),
            _ => None,
        };
        Ok(RunDomain {
            eps,
            sigma,
            gap_max,
            max_steps: p.max_steps,
        })
    }

    /// The algorithms whose δ-correctness the lemma of the provable preset `preset` gives, in
    /// the order of the paper; empty for other names.
    pub fn of_preset(preset: &str) -> Vec<AlgoName> {
        ALGORITHMS
            .iter()
            .filter(|i| i.paper_preset.is_some_and(|p| p.name == preset))
            .map(|i| i.algo)
            .collect()
    }
}

impl AlgoName {
    /// The command-line spelling ([`AlgoInfo::name`]).
    pub fn as_str(&self) -> &'static str {
        self.info().name
    }
    /// Whether the algorithm needs `ε` (it is private: [`AlgoInfo::privacy`]).
    pub fn needs_eps(&self) -> bool {
        self.info().privacy != PrivacyModel::NonPrivate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_algorithm_once_in_order() {
        assert!(ALGORITHMS.iter().map(|i| i.algo).eq(AlgoName::ALL));
        for a in AlgoName::ALL {
            assert_eq!(a.info().name, a.as_str());
            assert_eq!(a.info().name, crate::spelling::Spelling::spelling(&a));
            assert_eq!(a.info().privacy != PrivacyModel::NonPrivate, a.needs_eps());
        }
    }

    #[test]
    fn pure_top_two_leaves_out_only_the_approximate_dp_variant_and_dp_se() {
        let v: Vec<AlgoName> = pure_top_two().collect();
        assert_eq!(
            v,
            [
                AlgoName::Ttucb,
                AlgoName::CtbTt,
                AlgoName::AdapTt,
                AlgoName::AdapTtStar,
                AlgoName::DpaTt
            ]
        );
    }

    #[test]
    fn a_batched_algorithm_batches_a_non_private_unphased_one_of_its_privacy() {
        for i in ALGORITHMS {
            if let Some(b) = i.batches {
                let inner = b.info();
                assert!(i.phased && !inner.phased, "{}", i.name);
                assert_eq!(inner.privacy, PrivacyModel::NonPrivate, "{}", i.name);
                assert_eq!(i.privacy, PrivacyModel::NonPrivate, "{}", i.name);
            }
        }
    }
}

/// What an algorithm is under `--rules reference` (the public code's empirical rules,
/// READINGS.md §P): REPORT.md discloses it, and a duplicate is never counted as evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReferenceRules {
    /// The public code implements this algorithm; `--rules reference` reproduces its rules.
    PublicCode,
    /// The public code has no such algorithm: this project applies the public code's rules to
    /// it (a construction of this project, not the paper's).
    Construction,
    /// Under the reference rules it is this other algorithm, reseeded (a duplicate).
    SameAs(AlgoName),
    /// It has no reference rules: `--rules reference` is refused (BAI25's algorithms have
    /// no public code).
    None,
}

impl AlgoName {
    /// What the algorithm is under `--rules reference` ([`AlgoInfo::reference_rules`]).
    pub fn reference_rules(self) -> ReferenceRules {
        self.info().reference_rules
    }
}
