//! The Top Two instances of Table 1 (READINGS.md §D.3–§D.8, §P), assembled from the plug-ins of
//! [`super::rules`] and run by the loop of `top_two`.
//!
//! | name | estimator | leader | challenger cost | stopping cost | threshold (`--rules paper`) |
//! |---|---|---|---|---|---|
//! | `ttucb` (Alg. 6) | MLE | `b^G` (Eq. (3)) | `W^G(μ̂, N)` | `W^G(μ̂, N)` | Eq. (4) |
//! | `ctb-tt` (Alg. 7) | MLE of randomised responses (L. 12) | `b^G`, σ = 1/2 | `W^G` | `W^G` | Eq. (4) |
//! | `gauss-ldp-tt` (Alg. 8) | MLE of `r + N(0, σ_{ε,γ}²)` | `b^G` | `W^G` | `W^G` | Eq. (4), `σ² = σ_arm² + σ_{ε,γ}²` (R.12) |
//! | `adap-tt` (Alg. 9) | DAF(ε) | `b^{G,ε}(Ñ)` (Eq. (11)) | `W^G(μ̃, N)` | `W^G(μ̃, Ñ)` | Eq. (12) |
//! | `adap-tt-star` (Alg. 10) | DAF(ε) | `b^{G,ε}(Ñ)` | `W^{G,ε}(μ̃, N)` | `W^{G,ε}(μ̃, Ñ)` | Eq. (14), `k²` form (R.16) |
//! | `dpa-tt` (Alg. 11) | DPA (no noise, no forgetting) | `b^G(Ñ)`, `‖Ñ‖_1` | `W^G(μ̂, N)` | `W^G(μ̂, Ñ)` | L. 34, phase indices (R.27) |
//!
//! All use β-tracking (or IDS, D.9) and `σ = 1/2` for Bernoulli arms (the arms' `σ` otherwise).
//!
//! Controls (not the paper's algorithms): [`super::AdapLeaderBonus::Eq3`] gives
//! `adap-tt`/`adap-tt-star` the leader `b^G(Ñ)` with `log ‖Ñ‖₁` of `dpa-tt`,
//! [`super::AdapLeaderBonus::Eq11LogN`] Eq. (11) with `k(Ñ_a)` replaced by `log ‖Ñ‖₁`;
//! [`super::LeaderCounts::Global`] computes that UCB leader on the live counts `N`.
//!
//! **Starvation (AdaP-TT, AdaP-TT\*).** The private bonus of Eq. (11) depends on `Ñ_a` only (the
//! paper calls it heuristic, Sec. 4.3). When an arm's released mean is far below the others
//! (a large negative Laplace draw) it is neither the leader nor — when the remaining arms are
//! tied, as in μ1 (R.31), so that their transport costs stay O(1) — the challenger, and its
//! estimate is never refreshed: the run does not stop. This is the algorithm as printed, not a
//! simulation artefact; `max_steps` caps such runs (reported as unstopped).
//!
//! `--rules reference` (READINGS.md §P): `ttucb` — empirical-best leader, coin-flip w.p. β, signed
//! challenger with `κ(t) = log(1+t)^{-1/4}`, statistic `0.5·d²/(1/N_a+1/N_b)`, threshold
//! `log((1 + log t)/δ)`. `ctb-tt` and `gauss-ldp-tt`: the same rules on the privatised rewards
//! (for `gauss-ldp-tt` the σ = 1 statistic ignores the mechanism's variance `σ_{ε,γ}²`, so these
//! empirical rules are not calibrated there and err often).
//! `dpa-tt`: the same rules on the DPA estimates (local counts in the statistic).
//! `adap-tt`: leader `μ̃_a + log(n)/(εÑ_a) + sqrt(log(n)/(2Ñ_a))`, coin flip, signed challenger
//! with `κ(t) = 1/(1+√t)`, statistic as above on `Ñ`, threshold
//! `log(1/δ) + log(1+log Ñ_a) + log(1+log Ñ_b) + (1/Ñ_a+1/Ñ_b)log²(1/δ)/ε²`, tested only right
//! after a phase switch against the leader. `adap-tt-star`: the `adap-tt` reference rules (the
//! public code has no AdaP-TT*).

use super::info::AlgoName;
use super::options::{
    AdapLeaderBonus, ChallengerCounts, DpaEpisodes, LeaderCounts, Rules, TieBreak,
};
use super::outcome::{BaiAlgorithm, RewardTable, RunOutcome, TableOutput};
use super::rules::{Cost, UCB_ALPHA, UCB_S};
use super::setting::Setting;
use super::spec::{AlgoSpec, Sampling};
use super::top_two::rules::{
    AlwaysLeader, BetaTracking, ChallengerRule, CoinTracking, EmpiricalBestLeader, IdsTracking,
    LeaderRule, LiveUcbLeader, PrivateUcbLeader, PrivateUcbLogNLeader, RefAdapLeader,
    RoundRobinLeader, SignedGapChallenger, TrackingRule, TransportCostChallenger, UcbLeader,
};
use super::top_two::{
    Arms, Config, Estimator, Mle, NoObs, Observer, Phased, RewardSource, RunOptions, StopArm,
    run_loop,
};
use crate::error::{Error, Result};
use crate::instance::{Family, Instance};
use crate::privacy::{GaussianMechanism, Identity, RandomisedResponse};
use crate::rng::Rng;
use crate::threshold::ThresholdVars;
use crate::threshold::paper::StoppingThreshold;

/// A Top Two algorithm bound to an instance: the estimator `E` and the leader, challenger and
/// tracking rules `L`, `C`, `T` as types, so that each combination runs its own monomorphised
/// loop.
#[derive(Debug)]
pub(crate) struct TopTwo<E: Estimator, L, C, T> {
    pub(crate) cfg: Config<L, C, T>,
    pub(crate) est: E,
    pub(crate) arms: Arms,
    pub(crate) step_by_step: bool,
}

impl<E: Estimator, L, C, T> TopTwo<E, L, C, T> {
    /// The options of a run on the bound arms: with `lazy` (phased estimators only) the rewards
    /// of a phase are drawn as one sum and the stopping rule is tested at releases (the
    /// phase-skipping path); otherwise one draw per pull and the stopping rule tested at every
    /// step (the plain reference).
    fn options(&self, max_steps: u64, lazy: bool) -> RunOptions<'_> {
        RunOptions {
            src: if E::PHASED && lazy {
                RewardSource::PhaseSums(&self.arms)
            } else {
                RewardSource::PerPull(&self.arms)
            },
            max_steps,
            actions: None,
            check_always: !lazy,
            final_counts: None,
            tree_layout: None,
        }
    }
}

impl<E: Estimator, L: LeaderRule, C: ChallengerRule, T: TrackingRule> BaiAlgorithm
    for TopTwo<E, L, C, T>
{
    fn name(&self) -> &str {
        self.cfg.name
    }

    fn run(&self, rng: &mut Rng, max_steps: u64) -> RunOutcome {
        let opts = self.options(max_steps, !self.step_by_step);
        run_loop(&self.cfg, &self.est, opts, rng, &mut NoObs)
    }

    /// Step-by-step run on a table; `None` if a row does not have `K` admissible rewards
    /// (finite; in `[0, 1]` for randomised response).
    fn run_on_table(&self, table: &RewardTable, rng: &mut Rng) -> Option<TableOutput> {
        let k = self.cfg.k;
        if table
            .iter()
            .any(|row| row.len() != k || row.iter().any(|&r| !self.est.accepts(r)))
        {
            return None;
        }
        let mut actions = Vec::with_capacity(table.len());
        let opts = RunOptions {
            src: RewardSource::Table(table),
            max_steps: u64::MAX,
            actions: Some(&mut actions),
            check_always: true,
            final_counts: None,
            tree_layout: None,
        };
        let out = run_loop(&self.cfg, &self.est, opts, rng, &mut NoObs);
        Some(TableOutput {
            actions,
            recommendation: out.recommendation,
            stopped: out.stopped,
        })
    }
}

fn need_eps(spec: &AlgoSpec) -> Result<f64> {
    need_setting_eps(&spec.setting)
}

fn need_setting_eps(setting: &Setting) -> Result<f64> {
    match setting.eps {
        Some(e) => crate::params::check_algo_eps(e.get()),
        None => Err(Error::param(
            "eps",
            "(missing)",
            format!(
                "given (--eps) for {}, a finite number > 0",
                setting.algo.as_str()
            ),
        )),
    }
}

/// The constants a run of `setting` on `inst` passes to its stopping threshold, as a custom
/// threshold reads them ([`ThresholdVars`] with `t`, counts, phases and gap left at 0): `δ`,
/// `K`, `ε` (`+∞` for a non-private algorithm) and the `σ` its rule reads (the declaration's
/// [`crate::bandit::info::RuleSigma`]; 1 under the reference rules, whose statistic uses
/// `σ = 1`). The engine passes exactly these ([`crate::bandit::build`]), and a user threshold is bound to and
/// probed at them ([`crate::threshold::probe::bind_checked`]).
///
/// # Errors
/// [`Error::InvalidParameter`] for a missing `ε` of a private algorithm, a missing `γ` of
/// gauss-ldp-tt, or values out of range.
pub fn threshold_constants(setting: &Setting, inst: &Instance) -> Result<ThresholdVars> {
    let eps = if setting.algo.needs_eps() {
        need_setting_eps(setting)?
    } else {
        f64::INFINITY
    };
    let sigma = setting.algo.info().rule_sigma.value(
        inst.sigma(),
        eps,
        setting.gamma_value(),
        setting.gauss_sigma,
    )?;
    Ok(ThresholdVars {
        delta: setting.delta.get(),
        k: inst.k() as f64,
        eps,
        sigma: if setting.rules == Rules::Reference {
            1.0
        } else {
            sigma
        },
        ..ThresholdVars::default()
    })
}

/// Builds every Top Two algorithm of Table 1 (all names except `dp-se`).
///
/// # Errors
/// [`Error::InvalidParameter`] for `δ ∉ (0,1)`, `β ∉ (0,1)`, a missing or non-positive `ε`
/// (private algorithms), a missing or out-of-range `γ` (`gauss-ldp-tt`);
/// [`Error::InvalidInstance`] when `ctb-tt` gets non-Bernoulli arms (randomised response needs
/// rewards in `[0, 1]`).
pub(crate) fn build_top_two(spec: &AlgoSpec, inst: &Instance) -> Result<Box<dyn BaiAlgorithm>> {
    Ok(build_any(spec, inst)?.into_algorithm())
}

/// A built Top Two algorithm whose runs can also be observed (for traces and tests).
pub(crate) trait ObservedRun: BaiAlgorithm + std::fmt::Debug {
    /// A run with an observer (`lazy`: phase-skipping path, phased estimators only).
    fn run_observed(
        &self,
        rng: &mut Rng,
        max_steps: u64,
        lazy: bool,
        obs: &mut dyn Observer,
    ) -> RunOutcome;
    /// [`ObservedRun::run_observed`] with the incremental state in the layout `tree_layout`
    /// (`None`: by `K`), also returning the pulled arms (unphased estimators only: recording
    /// them disables the phase-skipping path) and the final counts.
    #[cfg(test)]
    fn run_recorded(
        &self,
        rng: &mut Rng,
        max_steps: u64,
        lazy: bool,
        tree_layout: Option<bool>,
        obs: &mut dyn Observer,
    ) -> (RunOutcome, Vec<u32>, Vec<u64>);
    /// The same algorithm as a plain [`BaiAlgorithm`].
    fn into_algorithm(self: Box<Self>) -> Box<dyn BaiAlgorithm>;
}

/// A built Top Two algorithm with its concrete estimator and rules behind one pointer.
pub(crate) type AnyTopTwo = Box<dyn ObservedRun>;

impl<E, L, C, T> ObservedRun for TopTwo<E, L, C, T>
where
    E: Estimator + 'static,
    L: LeaderRule,
    C: ChallengerRule,
    T: TrackingRule,
{
    fn run_observed(
        &self,
        rng: &mut Rng,
        max_steps: u64,
        lazy: bool,
        obs: &mut dyn Observer,
    ) -> RunOutcome {
        run_loop(
            &self.cfg,
            &self.est,
            self.options(max_steps, lazy),
            rng,
            obs,
        )
    }
    #[cfg(test)]
    fn run_recorded(
        &self,
        rng: &mut Rng,
        max_steps: u64,
        lazy: bool,
        tree_layout: Option<bool>,
        obs: &mut dyn Observer,
    ) -> (RunOutcome, Vec<u32>, Vec<u64>) {
        let (mut actions, mut counts) = (Vec::new(), Vec::new());
        let mut opts = self.options(max_steps, lazy);
        opts.tree_layout = tree_layout;
        // Recording the actions forbids the fast paths of the phased loop: only unphased
        // estimators (whose incremental loop records them) are recorded.
        if !E::PHASED {
            opts.actions = Some(&mut actions);
        }
        opts.final_counts = Some(&mut counts);
        let out = run_loop(&self.cfg, &self.est, opts, rng, obs);
        (out, actions, counts)
    }
    fn into_algorithm(self: Box<Self>) -> Box<dyn BaiAlgorithm> {
        self
    }
}

/// Everything of a Top Two algorithm but its estimator and rules.
struct Parts {
    name: &'static str,
    k: usize,
    stop_cost: Cost,
    thr: StoppingThreshold,
    stop_arm: StopArm,
    tie_uniform: bool,
    arms: Arms,
    step_by_step: bool,
    /// Uniform allocation instead of the rules passed to [`Parts::with`]
    /// ([`Sampling::Uniform`]).
    uniform: bool,
}

impl Parts {
    /// The algorithm with these rules (one monomorphised loop per call site's types), or with
    /// uniform allocation and the same estimator, statistic and threshold when `self.uniform`
    /// (one loop per estimator type: the challenger it is given is never called).
    fn with<E, L, C, T>(self, est: E, leader: L, challenger: C, tracking: T) -> AnyTopTwo
    where
        E: Estimator + 'static,
        L: LeaderRule,
        C: ChallengerRule,
        T: TrackingRule,
    {
        if self.uniform {
            let parts = Parts {
                stop_arm: StopArm::Argmax,
                uniform: false,
                ..self
            };
            let unused = SignedGapChallenger { adap: false };
            return parts.with(est, RoundRobinLeader, unused, AlwaysLeader);
        }
        Box::new(TopTwo {
            cfg: Config {
                name: self.name,
                k: self.k,
                leader,
                challenger,
                tracking,
                stop_cost: self.stop_cost,
                thr: self.thr,
                stop_arm: self.stop_arm,
                tie_uniform: self.tie_uniform,
            },
            est,
            arms: self.arms,
            step_by_step: self.step_by_step,
        })
    }

    /// The paper's rules with leader `leader`: the transport-cost challenger and β-tracking, or
    /// IDS (`beta = None`).
    fn paper<E, L>(
        self,
        est: E,
        leader: L,
        tc: TransportCostChallenger,
        beta: Option<f64>,
    ) -> AnyTopTwo
    where
        E: Estimator + 'static,
        L: LeaderRule,
    {
        match beta {
            Some(b) => self.with(est, leader, tc, BetaTracking(b)),
            None => self.with(est, leader, tc, IdsTracking),
        }
    }

    /// The public TTUCB code's rules (READINGS.md §P): empirical-best leader, signed challenger,
    /// coin flip w.p. `β` (every algorithm but AdaP-TT(*) under `--rules reference`).
    fn ref_ttucb<E: Estimator + 'static>(self, est: E, beta: f64) -> AnyTopTwo {
        self.with(
            est,
            EmpiricalBestLeader,
            SignedGapChallenger { adap: false },
            CoinTracking(beta),
        )
    }

    /// The paper's rules with the UCB leader of Eq. (3), on the local or the live counts.
    fn paper_ucb<E: Estimator + 'static>(
        self,
        est: E,
        c: f64,
        live: bool,
        tc: TransportCostChallenger,
        beta: Option<f64>,
    ) -> AnyTopTwo {
        if live {
            self.paper(est, LiveUcbLeader { c }, tc, beta)
        } else {
            self.paper(est, UcbLeader { c }, tc, beta)
        }
    }
}

/// Builds the concrete algorithm (see [`build_top_two`]).
pub(crate) fn build_any(spec: &AlgoSpec, inst: &Instance) -> Result<AnyTopTwo> {
    build_any_with(spec, inst, |daf| daf)
}

/// [`build_any`], with the DAF estimator of AdaP-TT and AdaP-TT\* replaced by
/// `adap_estimator(DAF)`: the hook of the audit's whole-algorithm mutants
/// (`audit::dp::late_leak`). `build_any` passes the identity, so its algorithms are unchanged.
pub(crate) fn build_any_with<E: Estimator + 'static>(
    spec: &AlgoSpec,
    inst: &Instance,
    adap_estimator: impl FnOnce(Phased) -> E,
) -> Result<AnyTopTwo> {
    if !spec.setting.algo.info().top_two {
        return Err(Error::param(
            "algo",
            spec.setting.algo.as_str(),
            "a Top Two algorithm of the seed's Alg. 1 (dp-se is built by bandit::dp_se, dp-tt \
             and eb-tci by bandit::dp_tt)",
        ));
    }
    // δ and β are validated newtypes; copied out once into the engine's own numbers.
    let delta = spec.setting.delta.get();
    let beta = spec.setting.beta.get();
    let k = crate::params::limits::check_arms(inst.k())?;
    if inst.family() != crate::instance::Family::Bernoulli {
        crate::params::check_gaussian_arms(inst.sigma(), inst.means())?;
    }
    let arms = Arms::from_instance(inst);
    let reference = spec.setting.rules == Rules::Reference;
    // β-tracking (`Some(β)`) or IDS (`None`) under the paper rules; the coin under the reference.
    let paper_beta = if spec.setting.ids_beta {
        None
    } else {
        Some(beta)
    };
    let tie_uniform = spec.setting.tie_break == TieBreak::Uniform;
    let local = spec.setting.challenger_counts == ChallengerCounts::Local;
    let eps = if spec.setting.algo.needs_eps() {
        need_eps(spec)?
    } else {
        f64::INFINITY
    };
    let sigma_arm = inst.sigma();
    // σ of the rule (only gauss-ldp-tt differs from the arms' σ): its declaration's.
    let sigma = spec.setting.algo.info().rule_sigma.value(
        sigma_arm,
        eps,
        spec.setting.gamma.map(|g| g.get()),
        spec.setting.gauss_sigma,
    )?;
    let inv2s2 = 1.0 / (2.0 * sigma * sigma);
    let gauss = Cost::Gauss { inv2s2 };
    let priv_aware = Cost::PrivAware {
        half_eps: eps / 2.0,
        inv2s2,
    };
    let ucb_c = 2.0 * sigma * sigma * UCB_ALPHA * (1.0 + UCB_S);
    let live = spec.setting.leader_counts == LeaderCounts::Global;
    let custom = match &spec.custom_threshold {
        Some(f) => Some(StoppingThreshold::Custom {
            f: f.clone(),
            base: threshold_constants(&spec.setting, inst)?,
        }),
        None => None,
    };
    use AlgoName as A;
    let adap = matches!(spec.setting.algo, A::AdapTt | A::AdapTtStar);
    let paper_thr = match spec.setting.algo {
        _ if reference => {
            let ln_inv_delta = (1.0 / delta).ln();
            if adap {
                StoppingThreshold::RefAdap { ln_inv_delta, eps }
            } else {
                StoppingThreshold::RefTtucb { ln_inv_delta }
            }
        }
        A::Ttucb | A::CtbTt | A::GaussLdpTt => StoppingThreshold::eq4(delta, k),
        A::AdapTt => StoppingThreshold::eq12(delta, k, eps, sigma),
        A::AdapTtStar => StoppingThreshold::eq14(delta, k, eps, sigma, spec.setting.eq14_form),
        A::DpaTt => StoppingThreshold::l34(delta, k),
        A::DpSe | A::DpTt | A::EbTci => {
            unreachable!("invariant: rejected at the top of build_any")
        }
    };
    // Reference rules of the public code (READINGS.md §P): the statistic `0.5·d²/(1/n_a + 1/n_b)`;
    // AdaP-TT tests the leader right after a switch.
    let (stop_cost, stop_arm) = match spec.setting.algo {
        _ if reference => (
            Cost::Reference,
            if adap {
                StopArm::LeaderOnSwitch
            } else {
                StopArm::Argmax
            },
        ),
        A::AdapTtStar => (priv_aware, StopArm::Argmax),
        _ => (gauss, StopArm::Argmax),
    };
    let tc = TransportCostChallenger {
        cost: if spec.setting.algo == A::AdapTtStar {
            priv_aware
        } else {
            gauss
        },
        local,
    };
    let parts = Parts {
        name: spec.setting.algo.as_str(),
        k,
        stop_cost,
        thr: custom.unwrap_or(paper_thr),
        stop_arm,
        tie_uniform,
        arms,
        step_by_step: spec.step_by_step,
        uniform: spec.sampling == Sampling::Uniform,
    };
    Ok(match spec.setting.algo {
        A::Ttucb => {
            let est = Mle(Identity);
            if reference {
                parts.ref_ttucb(est, beta)
            } else {
                parts.paper_ucb(est, ucb_c, live, tc, paper_beta)
            }
        }
        A::CtbTt => {
            if inst.family() != Family::Bernoulli {
                return Err(Error::InvalidInstance {
                    means: format!("{:?}", inst.means()),
                    reason: "ctb-tt (randomised response) needs rewards in [0, 1]: use \
                             --family bernoulli"
                        .into(),
                });
            }
            let est = Mle(RandomisedResponse::new(eps)?);
            if reference {
                parts.ref_ttucb(est, beta)
            } else {
                parts.paper_ucb(est, ucb_c, live, tc, paper_beta)
            }
        }
        A::GaussLdpTt => {
            let gamma = spec
                .setting
                .gamma_value()
                .expect("invariant: checked above");
            let est = Mle(GaussianMechanism::new(eps, gamma)?);
            if reference {
                parts.ref_ttucb(est, beta)
            } else {
                parts.paper_ucb(est, ucb_c, live, tc, paper_beta)
            }
        }
        A::AdapTt | A::AdapTtStar => {
            let est = adap_estimator(Phased {
                daf_eps: Some(eps),
                bonus_eps: Some(eps),
                global: false,
            });
            if reference {
                parts.with(
                    est,
                    RefAdapLeader { eps },
                    SignedGapChallenger { adap: true },
                    CoinTracking(beta),
                )
            } else {
                // The controls of Finding 1 (validated in `build`).
                match spec.setting.adap_leader_bonus {
                    AdapLeaderBonus::Eq11 => parts.paper(est, PrivateUcbLeader, tc, paper_beta),
                    AdapLeaderBonus::Eq3 => parts.paper_ucb(est, ucb_c, live, tc, paper_beta),
                    AdapLeaderBonus::Eq11LogN => {
                        parts.paper(est, PrivateUcbLogNLeader { eps }, tc, paper_beta)
                    }
                }
            }
        }
        A::DpaTt => {
            let est = Phased {
                daf_eps: None,
                bonus_eps: None,
                global: spec.setting.dpa_episodes == DpaEpisodes::Global,
            };
            if reference {
                parts.ref_ttucb(est, beta)
            } else {
                parts.paper_ucb(est, ucb_c, live, tc, paper_beta)
            }
        }
        A::DpSe | A::DpTt | A::EbTci => {
            unreachable!("invariant: rejected at the top of build_any")
        }
    })
}
