//! Best-arm identification algorithms: the Top Two meta-algorithm (Alg. 1) and its instances
//! (TTUCB, CTB-TT, Gaussian-mechanism TTUCB, AdaP-TT, AdaP-TT*, DPA-TT), DP-SE, their estimators,
//! transport costs, bonuses and stopping thresholds (READINGS.md §D).
//!
//! This module fixes the contract shared by the algorithms, the Monte Carlo engine ([`crate::mc`])
//! and the auditors ([`crate::audit`]): [`BaiAlgorithm`] and its outputs (`outcome.rs`).
//!
//! # Layout
//! * [`rules`]: UCB bonuses (Eq. (3), (11)) and transport costs (Eq. (3), (13)), as reference
//!   functions and as the cost plug-ins of the loop. The stopping thresholds (Eq. (4), (12),
//!   (14), L. 34) are the threshold layer's ([`crate::threshold::paper`]), and so is
//!   [`CustomThreshold`] (re-exported here: [`AlgoSpec`] carries one).
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
//! * [`AlgoName`] and the option enums (`options.rs`) and [`AlgoSpec`] (`spec.rs`) are leaves
//!   every part reads; this file only
//!   declares the parts and [`build`]s an algorithm.
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

pub mod algos;
pub mod dp_se;
pub mod dp_tt;
pub mod info;
mod options;
mod outcome;
pub mod readings;
pub mod rules;
pub mod semantics;
mod setting;
mod spec;
pub(crate) mod top_two;
pub mod trace;

pub use crate::threshold::{CustomThreshold, ThresholdVars};
pub use info::AlgoName;
pub use options::{
    AdapLeaderBonus, ChallengerCounts, DpaEpisodes, GaussLdpSigma, LeaderCounts, Rules, TieBreak,
};
pub use outcome::{BaiAlgorithm, RewardTable, RunOutcome, TableOutput};
pub use readings::{READING_TABLE, READINGS, Reading};
pub(crate) use setting::PAPER_BETA;
pub use setting::Setting;
pub use spec::{AlgoSpec, Sampling};

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
    readings::check_options(s)?;
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
        AlgoName::DpTt | AlgoName::EbTci => {
            Ok(Box::new(dp_tt::DpTt::new(spec, instance, s.eta.get())?))
        }
        _ => algos::build_top_two(spec, instance),
    }
}

#[cfg(test)]
mod incremental_tests;
#[cfg(test)]
mod invariant_tests;
#[cfg(test)]
mod skip_tests;
