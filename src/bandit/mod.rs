//! Best-arm identification algorithms: the Top Two meta-algorithm (Alg. 1) and its instances
//! (TTUCB, CTB-TT, Gaussian-mechanism TTUCB, AdaP-TT, AdaP-TT*, DPA-TT), DP-SE, their estimators,
//! transport costs, bonuses and stopping thresholds (READINGS.md §D).
//!
//! This file fixes the contract shared by the algorithms, the Monte Carlo engine ([`crate::mc`])
//! and the auditors ([`crate::audit`]).
//!
//! # Layout
//! * [`rules`]: UCB bonuses (Eq. (3), (11)), transport costs (Eq. (3), (13)) and stopping
//!   thresholds (Eq. (4), (12), (14), L. 34) as reference functions, plus the cached plug-ins
//!   used in the loop (`C_G` of the constant argument computed once per algorithm object, the
//!   phase-dependent `C_G` and `h` values memoised per phase index).
//! * `top_two` (private; `top_two/{arms, estimators, rules, fast_paths, run_loop}.rs`): Alg. 1
//!   generic over the estimator (MLE of rewards passed through a local
//!   [`crate::privacy::Mechanism`]: identity, randomised response, Gaussian mechanism; phased:
//!   DAF(ε), DPA) and over the leader (UCB, private UCB, empirical best, reference AdaP-TT
//!   index), challenger (transport cost with global or local counts, reference signed rule) and
//!   tracking (β, IDS β_n, coin flip) rules, each a small trait with a `# Contract`; one
//!   monomorphised loop per combination that [`algos`] builds. The per-sample loop is O(K) and
//!   allocation-free.
//! * [`algos`]: Table 1's instances assembled from those parts (see its docs for the table).
//! * [`Setting`] (`setting.rs`): the one parameter record of an algorithm (`δ`, `ε`, `γ`, `β`,
//!   rules, readings), which [`AlgoSpec`] carries with the engine-only extras; [`build`] copies
//!   its numbers once into the algorithm's own fields, so the loop never reads the record.
//! * DP-SE lives in [`dp_se`].
//!
//! # Conventions (READINGS.md §D.0)
//! Arms are 0-based; initialisation pulls arm `a` at time `a + 1`; `τ` is the number of samples
//! drawn (R.9); every argmax/argmin breaks ties by lowest index unless
//! [`Setting::tie_break`] says uniform; stopping and leader use local counts `Ñ`, the
//! challenger global counts `N` ([`Setting::challenger_counts`], R.11); β-tracking is
//! `a_n = B_n iff N^{B_n}_{n,B_n} <= β(L_{n,B_n} + 1)`; the DAF switch test is applied to the arm
//! pulled last (the only one whose count changed, R.8).
//!
//! # Speed
//! TTUCB and CTB-TT draw one (two for CTB) 53-bit uniform(s) per sample and evaluate the
//! stopping rule with a quick rejection against a constant lower bound of the threshold. DAF/DPA
//! algorithms run by default on the phase-skipping path: rewards of a phase are drawn as one
//! Binomial (Bernoulli arms) or Normal (Gaussian arms) sum at the phase switch, and the stopping
//! rule is evaluated only when a new estimate is released (the paper's thresholds do not depend
//! on `t`; with a custom or time-dependent threshold it is evaluated every step). Between
//! switches nothing is random: the leader is frozen, β-tracking is a closed form, and the
//! challenger only changes when its cost overtakes the runner-up's, so whole stretches of steps
//! are skipped at once (O(K + log m) for m steps, exact: `skip_tests.rs` compares run for run
//! with the loop forced step by step). A run whose challenger only changes at releases — a
//! starved best arm — costs O(K log τ). While several arms share the challenger role, single
//! steps run in a tight loop that evaluates only the two cheapest challengers' costs against a
//! lower bound of the others' (about 3 ns per sample instead of 13). [`AlgoSpec::step_by_step`]
//! selects the plain loop (one draw per sample, stopping tested every step), kept for the
//! equivalence tests.

use crate::rng::Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Outcome of one run of a BAI algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunOutcome {
    /// `τ`: number of samples actually drawn, including the `K` initial ones (READINGS.md R.9).
    /// For an unstopped run, the samples drawn before the cap.
    pub tau: u64,
    /// Recommended arm (0-based); for an unstopped run, the arm recommended at the cap.
    pub recommendation: usize,
    /// `false` when the run hit `max_steps` without stopping (reported, never dropped).
    pub stopped: bool,
    /// Rounds of adaptivity `C(τ)` where defined (DAF/DPA: number of released means; DP-SE:
    /// epochs), else `None`.
    pub rounds: Option<u64>,
}

/// A reward table (Definition 8): row `t` holds the potential rewards of user `t` for every arm,
/// so `table[t][a]` is the reward observed if arm `a` is pulled at time `t + 1`.
pub type RewardTable = Vec<Vec<f64>>;

/// The full observable output of a run on a reward table (Definition 8): the action sequence,
/// the recommendation and the stopping time.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TableOutput {
    /// Arms pulled, in order (0-based); its length is `τ`.
    pub actions: Vec<u32>,
    /// Recommended arm (0-based).
    pub recommendation: usize,
    /// `false` if the table ran out of rows (or `max_steps` was hit) before stopping.
    pub stopped: bool,
}

/// A BAI algorithm bound to an instance and its parameters.
///
/// # Contract
/// `run(rng, max_steps)` simulates one independent trajectory drawing all randomness (rewards
/// and privacy noise) from `rng`, stops by its own rule or when `τ` would exceed `max_steps`
/// (then `stopped = false`), and never panics. The same `rng` state gives the same outcome.
/// `run_on_table` does the same with rewards read from a fixed table (only the privacy noise
/// comes from `rng`); algorithms that do not support it return `None`.
pub trait BaiAlgorithm: Send + Sync {
    /// Stable name, as on the command line (`ttucb`, `ctb-tt`, ...).
    fn name(&self) -> &str;
    /// One run on the bound instance.
    fn run(&self, rng: &mut Rng, max_steps: u64) -> RunOutcome;
    /// One run on a reward table (Definition 8), for black-box privacy audits.
    fn run_on_table(&self, _table: &RewardTable, _rng: &mut Rng) -> Option<TableOutput> {
        None
    }
}

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
}

impl AlgoName {
    /// All names, in the order of the paper.
    pub const ALL: [AlgoName; 7] = [
        AlgoName::Ttucb,
        AlgoName::CtbTt,
        AlgoName::GaussLdpTt,
        AlgoName::AdapTt,
        AlgoName::AdapTtStar,
        AlgoName::DpSe,
        AlgoName::DpaTt,
    ];
    /// The command-line spelling ([`info::AlgoInfo::name`]).
    pub fn as_str(&self) -> &'static str {
        self.info().name
    }
    /// Whether the algorithm needs `ε` (it is private: [`info::AlgoInfo::privacy`]).
    pub fn needs_eps(&self) -> bool {
        self.info().privacy != info::PrivacyModel::NonPrivate
    }
}

/// Which family of stopping rules / sampling details to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum Rules {
    /// The paper's provable thresholds and pseudo-code (Eq. (4), (12), (14), L. 34).
    #[default]
    Paper,
    /// The public code's empirical rules (READINGS.md §P), for like-for-like figures.
    Reference,
}

/// Variables a user-typed stopping threshold may read (`dpbai audit delta --threshold EXPR`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ThresholdVars {
    /// Risk `δ`.
    pub delta: f64,
    /// Number of arms `K`.
    pub k: f64,
    /// Privacy budget `ε` (`+∞` for non-private algorithms).
    pub eps: f64,
    /// Sub-Gaussian scale `σ` used by the rule.
    pub sigma: f64,
    /// Samples drawn so far.
    pub t: f64,
    /// Count the rule uses for the candidate arm `a` (local count `Ñ` for DAF).
    pub na: f64,
    /// Count the rule uses for the challenger `b`.
    pub nb: f64,
    /// Phase index of `a` (1 when the estimator has no phases).
    pub ka: f64,
    /// Phase index of `b`.
    pub kb: f64,
    /// `(μ̃_a − μ̃_b)_+` of the estimates.
    pub gap: f64,
}

/// A stopping threshold supplied at run time, replacing the algorithm's `c_{a,b}`.
///
/// # Contract
/// `eval` is pure and cheap (<= 100 ns); a NaN result means "do not stop".
pub trait CustomThreshold: Send + Sync + std::fmt::Debug {
    /// The threshold value for these variables.
    fn eval(&self, v: &ThresholdVars) -> f64;
    /// A value `<=` every non-NaN `eval(v)` for `v` with the run constants of `base` (`δ`, `K`,
    /// `ε`, `σ`) and any counts, time, phases and gap: the engine skips `eval` while the
    /// statistic is below it. Default `−∞` (no skipping).
    fn lower_bound(&self, _base: &ThresholdVars) -> f64 {
        f64::NEG_INFINITY
    }
}

/// Everything needed to build an algorithm for one instance: its [`Setting`] and the
/// engine-only extras (a user threshold, the step-by-step reference loop).
#[derive(Debug, Clone)]
pub struct AlgoSpec {
    /// The algorithm's parameters.
    pub setting: Setting,
    /// A user threshold replacing the GLR threshold, if any.
    pub custom_threshold: Option<Arc<dyn CustomThreshold>>,
    /// DAF/DPA algorithms: draw every reward and test the stopping rule at every step (the plain
    /// reference implementation) instead of the phase-skipping fast path. Same law of
    /// `(τ, recommendation)`; slower.
    pub step_by_step: bool,
    /// The sampling rule: the algorithm's own, or uniform allocation with the algorithm's
    /// estimator, statistic and threshold kept (the δ-correctness of a threshold holds for any
    /// sampling rule, Sec. 2.2.3).
    pub sampling: Sampling,
}

/// The sampling rule a Top Two algorithm runs with.
///
/// A stopping threshold is δ-correct whatever the sampling rule (Sec. 2.2.3, L. 21, L. 23,
/// L. 34: the concentration argument never reads how the arms were chosen), so `audit delta
/// --sampling uniform` tests that part of the statement with a rule other than the
/// algorithm's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum Sampling {
    /// The algorithm's Top Two rules (leader, challenger, tracking; default).
    #[default]
    Algorithm,
    /// Uniform allocation in round robin: after the initialisation `a_t = t mod K`, so every
    /// arm has `⌊t/K⌋` or `⌈t/K⌉` samples. The estimator, the stopping statistic and the
    /// threshold are the algorithm's; the stopping rule tests `argmax μ̃` at every step (the
    /// reference rules of AdaP-TT test their leader only after a release; a round-robin
    /// "leader" is no candidate, so they test `argmax μ̃` at releases).
    Uniform,
}

/// Leader bonus of AdaP-TT and AdaP-TT\* (the control that isolates Finding 1's cause).
///
/// Eq. (11)'s private bonus `b^{G,ε}_a(Ñ) = sqrt(k(Ñ_a)/Ñ_a) + k(Ñ_a)/(εÑ_a)` depends on the arm's
/// own frozen local count only, so an arm whose released mean is low stays below the others for
/// ever. The controls make the bonus grow with `‖Ñ‖₁ = Σ_b Ñ_b`, which increases whenever any
/// arm releases a new estimate: Eq. (3)'s `b^G_a(Ñ) = sqrt(2σ²α(1+s)·log(‖Ñ‖₁)/Ñ_a)` (READINGS.md
/// D.1, `s = α = 1.2`, TTUCB's bonus), or Eq. (11) with `k(Ñ_a)` replaced by `log ‖Ñ‖₁` (keeps
/// the privacy term `·/(εÑ_a)`). `‖Ñ‖₁` changes only at releases, so the leader stays frozen
/// between releases and the phase-skipping fast path stays exact (`skip_tests.rs` covers both).
/// The bonuses read counts only, so privacy (L. 20) is unaffected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum AdapLeaderBonus {
    /// Eq. (11), `b^{G,ε}_a(Ñ)` (Alg. 9, 10; default).
    #[default]
    Eq11,
    /// Eq. (3), `sqrt(2σ²α(1+s)·log(‖Ñ‖₁)/Ñ_a)` (TTUCB's bonus on the local counts). It has no
    /// privacy term, so it is *smaller* than Eq. (11) at small `Ñ_a` and small `ε`, and cannot
    /// lift a mean released with a large negative Laplace draw (scale `1/(εÑ_a)`).
    Eq3,
    /// Eq. (11) with `k(Ñ_a)` replaced by `log ‖Ñ‖₁`: `sqrt(ℓ/Ñ_a) + ℓ/(εÑ_a)`, `ℓ = log ‖Ñ‖₁`
    /// ([`rules::ucb_bonus_private_log_n`]): the privacy-scaled bonus, growing with the total
    /// count (the public code's index shape, READINGS.md §P).
    Eq11LogN,
}

/// Counts of the UCB leader `argmax_a μ̃_a + sqrt(2σ²α(1+s)·log(‖ω‖₁)/ω_a)` of the phased
/// algorithms (the control of Finding 3).
///
/// Alg. 1 computes the leader on the local counts `ω = Ñ`, which DPA freezes between releases;
/// with one global episode counter the leader and challenger then stay fixed and the other
/// arms are never pulled (Finding 3). With live counts `ω = N` (global counts, `‖N‖₁ = t`) the
/// pulled pair's bonus shrinks at every pull, so the leader moves on. The estimates `μ̃` stay the
/// released ones. The leader then changes between releases, so the phase-skipping fast paths
/// (`skip_steps`, `rotate_steps`) are **disabled** for this option (the loop goes step by step
/// with lazily drawn phase rewards, exact by construction).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum LeaderCounts {
    /// Local counts `Ñ`, frozen between releases (Alg. 1; default).
    #[default]
    Local,
    /// Live global counts `N` and `‖N‖₁ = t`.
    Global,
}

/// Episodes of the DPA estimator (READINGS.md §D.8, App. H).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum DpaEpisodes {
    /// Each arm doubles on its own (Alg. 11): `C(τ) = Σ_a k_{τ,a}`.
    #[default]
    PerArm,
    /// One episode counter `k_n`: every estimate is refreshed when *all* arms have doubled
    /// (`N_{n,a} >= 2 N_{T_{k_n},a}` for all `a`): `C(τ) = k_τ`.
    Global,
}

/// Tie-breaking rule of every `argmax` / `argmin` (READINGS.md §D.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum TieBreak {
    /// Lowest index (deterministic; default).
    #[default]
    LowestIndex,
    /// Uniform among the optimisers.
    Uniform,
}

/// Which counts the transport-cost challenger uses (READINGS.md §D.2, R.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum ChallengerCounts {
    /// Global counts `N` (Alg. 1, 9, 10 and L. 49; default).
    #[default]
    Global,
    /// Local counts `Ñ` (L. 45's proof).
    Local,
}

/// `σ` used by `gauss-ldp-tt` (READINGS.md §D.5, R.12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum GaussLdpSigma {
    /// `σ² = σ_arm² + σ_{ε,γ}²` (`1/4 + σ_{ε,γ}²` for Bernoulli arms; Rem. 13; default).
    #[default]
    Combined,
    /// The arms' own `σ` (`1/2` for Bernoulli), as printed in Alg. 8.
    Printed,
}

crate::spelled!(
    AlgoName => "algo",
    Rules => "rules",
    AdapLeaderBonus => "adap-leader-bonus",
    LeaderCounts => "leader-counts",
    DpaEpisodes => "dpa-episodes",
    TieBreak => "tie-break",
    Sampling => "sampling",
    ChallengerCounts => "challenger-counts",
    GaussLdpSigma => "gauss-sigma",
);

impl AlgoSpec {
    /// The spec of `setting` with no custom threshold, on the phase-skipping fast path. Build
    /// specs with this and then set fields, so that new fields never break callers.
    pub fn new(setting: Setting) -> Self {
        AlgoSpec {
            setting,
            custom_threshold: None,
            step_by_step: false,
            sampling: Sampling::Algorithm,
        }
    }
}

impl From<Setting> for AlgoSpec {
    fn from(setting: Setting) -> Self {
        AlgoSpec::new(setting)
    }
}

pub mod algos;
pub mod dp_se;
pub mod info;
pub mod rules;
pub mod semantics;
mod setting;
mod sf;
pub(crate) mod top_two;
pub mod trace;

pub use setting::{Setting, READINGS};

/// Builds the algorithm `spec.setting.algo` for `instance`, validating every parameter once.
///
/// # Errors
/// [`crate::Error::InvalidParameter`] for a missing or out-of-range parameter (e.g. no `ε` for
/// a private algorithm), [`crate::Error::InvalidInstance`] when the instance does not suit the
/// algorithm (e.g. randomised response needs rewards in `[0, 1]`).
pub fn build(
    spec: &AlgoSpec,
    instance: &crate::instance::Instance,
) -> crate::Result<Box<dyn BaiAlgorithm>> {
    let s = &spec.setting;
    info::check_options(s)?;
    if s.dpa_episodes != DpaEpisodes::PerArm && s.algo != AlgoName::DpaTt {
        return Err(crate::error::Error::param(
            "dpa-episodes",
            "global",
            format!(
                "per-arm for {} (global episodes are a dpa-tt variant)",
                s.algo.as_str()
            ),
        ));
    }
    let adap = matches!(s.algo, AlgoName::AdapTt | AlgoName::AdapTtStar);
    if s.adap_leader_bonus != AdapLeaderBonus::Eq11 && !(adap && s.rules == Rules::Paper) {
        return Err(crate::error::Error::param(
            "adap-leader-bonus",
            match s.adap_leader_bonus {
                AdapLeaderBonus::Eq11 => "eq11",
                AdapLeaderBonus::Eq3 => "eq3",
                AdapLeaderBonus::Eq11LogN => "eq11-log-n",
            },
            format!(
                "eq11 for {} with --rules {} (the others are controls of adap-tt and \
                 adap-tt-star under the paper rules)",
                s.algo.as_str(),
                if s.rules == Rules::Paper {
                    "paper"
                } else {
                    "reference"
                }
            ),
        ));
    }
    let ucb_leader =
        s.algo == AlgoName::DpaTt || (adap && s.adap_leader_bonus == AdapLeaderBonus::Eq3);
    if s.leader_counts != LeaderCounts::Local && !(ucb_leader && s.rules == Rules::Paper) {
        return Err(crate::error::Error::param(
            "leader-counts",
            "global",
            format!(
                "local for {} (global is a control of the UCB leader of dpa-tt, and of adap-tt \
                 and adap-tt-star with --adap-leader-bonus eq3, under the paper rules)",
                s.algo.as_str()
            ),
        ));
    }
    if spec.sampling != Sampling::Algorithm && s.algo == AlgoName::DpSe {
        return Err(crate::error::Error::param(
            "sampling",
            "uniform",
            "algorithm for dp-se (its rounds already sample the surviving arms uniformly; \
             uniform sampling replaces a Top Two rule)",
        ));
    }
    match s.algo {
        AlgoName::DpSe => Ok(Box::new(dp_se::DpSe::new(spec, instance)?)),
        _ => algos::build_top_two(spec, instance),
    }
}

#[cfg(test)]
mod incremental_tests;
#[cfg(test)]
mod invariant_tests;
#[cfg(test)]
mod skip_tests;
