//! What is known about each algorithm, declared once: [`AlgoName::info`] gives its
//! [`AlgoInfo`] (name, label, privacy model, which options apply), so that the CLI, studies,
//! the Python package, figures and the cost model read one table instead of matching on the
//! algorithm.

use super::options::AlgoName;

/// The privacy model of an algorithm (and of its lower bound).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PrivacyModel {
    /// No privacy (`ε = ∞`).
    NonPrivate,
    /// ε-local DP: each reward is privatised before the learner sees it.
    Local,
    /// ε-global DP: the sequence of actions and the recommendation are private.
    Global,
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
    /// A Top Two algorithm (Alg. 1): leader, challenger, tracking, GLR stopping.
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
    pub paper_preset: Option<&'static str>,
    /// The asymptotic upper bound the paper proves for it with its own thresholds, by its
    /// `bounds.upper` name in a study (`ctb-tt`, …); `None` without one. CTB-TT with IDS has
    /// its own (`ctb-tt-ids`).
    pub upper_bound: Option<&'static str>,
    /// The claims (docs/CLAIMS.md) and findings whose statistics use its stopping times under
    /// its default reading, so that a reading that changes those times may move them.
    pub claims: &'static str,
    /// The cluster planner's cost model of one run.
    pub cost: CostFacts,
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

/// One entry per algorithm, in the order of the paper.
pub const ALGORITHMS: [AlgoInfo; 7] = [
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
        paper_preset: Some("paper-cg"),
        upper_bound: None,
        claims: "F.50, F.51, F.53 (TTUCB is the non-private reference)",
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
        paper_preset: Some("paper-cg"),
        upper_bound: Some("ctb-tt"),
        claims: "F.50, F.51, F.55, F.57",
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
        paper_preset: Some("paper-cg"),
        upper_bound: None,
        claims: "F.15 (σ of the Gaussian-mechanism variant)",
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
        paper_preset: Some("paper-adap-tt"),
        upper_bound: Some("adap-tt"),
        claims: "F.52, F.53, F.54, F.55, Finding 1",
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
        paper_preset: Some("paper-adap-tt-star"),
        upper_bound: Some("adap-tt-star"),
        claims: "F.52, F.53, F.54, F.55, Finding 1",
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
        claims: "F.52, F.54",
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
        paper_preset: Some("paper-daf-inf"),
        upper_bound: Some("dpa-tt"),
        claims: "F.42, Finding 3",
        cost: CostFacts {
            tau_over_bound: 16.0,
            ns_per_sample: 50.0,
            global_episodes_ns_per_sample: Some(0.02),
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

    /// The algorithms whose δ-correctness the lemma of the provable preset `preset` gives, in
    /// the order of the paper; empty for other names.
    pub fn of_preset(preset: &str) -> Vec<AlgoName> {
        ALGORITHMS
            .iter()
            .filter(|i| i.paper_preset == Some(preset))
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
        assert_eq!(ALGORITHMS.map(|i| i.algo), AlgoName::ALL);
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
        for i in &ALGORITHMS {
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
}

impl AlgoName {
    /// What the algorithm is under `--rules reference` (see [`ReferenceRules`]).
    pub fn reference_rules(self) -> ReferenceRules {
        match self {
            AlgoName::Ttucb | AlgoName::AdapTt | AlgoName::DpSe => ReferenceRules::PublicCode,
            AlgoName::AdapTtStar => ReferenceRules::SameAs(AlgoName::AdapTt),
            AlgoName::CtbTt | AlgoName::GaussLdpTt | AlgoName::DpaTt => {
                ReferenceRules::Construction
            }
        }
    }
}
