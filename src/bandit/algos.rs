//! The Top Two instances of Table 1 (MATH.md D.3–D.8, S), assembled from the plug-ins of
//! [`super::rules`] and run by the loop of `top_two`.
//!
//! | name | estimator | leader | challenger cost | stopping cost | threshold (`--rules paper`) |
//! |---|---|---|---|---|---|
//! | `ttucb` (Alg. 6) | MLE | `b^G` (Eq. (3)) | `W^G(μ̂, N)` | `W^G(μ̂, N)` | Eq. (4) |
//! | `ctb-tt` (Alg. 7) | MLE of randomised responses (L. 12) | `b^G`, σ = 1/2 | `W^G` | `W^G` | Eq. (4) |
//! | `gauss-ldp-tt` (Alg. 8) | MLE of `r + N(0, σ_{ε,γ}²)` | `b^G` | `W^G` | `W^G` | Eq. (4), `σ² = σ_arm² + σ_{ε,γ}²` (ISSUE 12) |
//! | `adap-tt` (Alg. 9) | DAF(ε) | `b^{G,ε}(Ñ)` (Eq. (11)) | `W^G(μ̃, N)` | `W^G(μ̃, Ñ)` | Eq. (12) |
//! | `adap-tt-star` (Alg. 10) | DAF(ε) | `b^{G,ε}(Ñ)` | `W^{G,ε}(μ̃, N)` | `W^{G,ε}(μ̃, Ñ)` | Eq. (14), `k²` form (ISSUE 16) |
//! | `dpa-tt` (Alg. 11) | DPA (no noise, no forgetting) | `b^G(Ñ)`, `‖Ñ‖_1` | `W^G(μ̂, N)` | `W^G(μ̂, Ñ)` | L. 34, phase indices (ISSUE 27) |
//!
//! All use β-tracking (or IDS, D.9) and `σ = 1/2` for Bernoulli arms (the arms' `σ` otherwise).
//!
//! Controls (issue 11, not the paper's algorithms): [`super::AdapLeaderBonus::Eq3`] gives
//! `adap-tt`/`adap-tt-star` the leader `b^G(Ñ)` with `log ‖Ñ‖₁` of `dpa-tt`,
//! [`super::AdapLeaderBonus::Eq11LogN`] Eq. (11) with `k(Ñ_a)` replaced by `log ‖Ñ‖₁`;
//! [`super::LeaderCounts::Global`] computes that UCB leader on the live counts `N`.
//!
//! **Starvation (AdaP-TT, AdaP-TT\*).** The private bonus of Eq. (11) depends on `Ñ_a` only (the
//! paper calls it heuristic, Sec. 4.3). When an arm's released mean is far below the others
//! (a large negative Laplace draw) it is neither the leader nor — when the remaining arms are
//! tied, as in μ1 (ISSUE 31), so that their transport costs stay O(1) — the challenger, and its
//! estimate is never refreshed: the run does not stop. This is the algorithm as printed, not a
//! simulation artefact; `max_steps` caps such runs (reported as unstopped).
//!
//! `--rules reference` (MATH.md S): `ttucb` — empirical-best leader, coin-flip w.p. β, signed
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

use super::rules::{Cost, StoppingThreshold, UCB_ALPHA, UCB_S};
use super::top_two::Observer;
use super::top_two::{
    run_loop, Arms, Challenger, Config, Estimator, Leader, Mle, NoObs, Phased, RewardSource,
    StopArm, Tracking,
};
use super::{
    AdapLeaderBonus, AlgoName, AlgoSpec, BaiAlgorithm, ChallengerCounts, DpaEpisodes,
    GaussLdpSigma, LeaderCounts, RewardTable, Rules, RunOutcome, TableOutput, ThresholdVars,
    TieBreak,
};
use crate::error::{check_open, Error, Result};
use crate::instance::{Family, Instance};
use crate::privacy::{GaussianMechanism, Identity, RandomisedResponse};
use crate::rng::Rng;

/// A Top Two algorithm bound to an instance.
#[derive(Debug)]
pub(crate) struct TopTwo<E: Estimator> {
    pub(crate) cfg: Config,
    pub(crate) est: E,
    pub(crate) arms: Arms,
    pub(crate) step_by_step: bool,
}

impl<E: Estimator> BaiAlgorithm for TopTwo<E> {
    fn name(&self) -> &str {
        self.cfg.name
    }

    fn run(&self, rng: &mut Rng, max_steps: u64) -> RunOutcome {
        let src = if E::PHASED && !self.step_by_step {
            RewardSource::PhaseSums(&self.arms)
        } else {
            RewardSource::PerPull(&self.arms)
        };
        run_loop(
            &self.cfg,
            &self.est,
            src,
            rng,
            max_steps,
            None,
            self.step_by_step,
            &mut NoObs,
        )
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
        let out = run_loop(
            &self.cfg,
            &self.est,
            RewardSource::Table(table),
            rng,
            u64::MAX,
            Some(&mut actions),
            true,
            &mut NoObs,
        );
        Some(TableOutput {
            actions,
            recommendation: out.recommendation,
            stopped: out.stopped,
        })
    }
}

fn need_eps(spec: &AlgoSpec) -> Result<f64> {
    match spec.eps {
        Some(e) => crate::params::check_algo_eps(e),
        None => Err(Error::param(
            "eps",
            "(missing)",
            format!(
                "given (--eps) for {}, a finite number > 0",
                spec.algo.as_str()
            ),
        )),
    }
}

/// Builds every Top Two algorithm of Table 1 (all names except `dp-se`).
///
/// # Errors
/// [`Error::InvalidParameter`] for `δ ∉ (0,1)`, `β ∉ (0,1)`, a missing or non-positive `ε`
/// (private algorithms), a missing or out-of-range `γ` (`gauss-ldp-tt`);
/// [`Error::InvalidInstance`] when `ctb-tt` gets non-Bernoulli arms (randomised response needs
/// rewards in `[0, 1]`).
pub(crate) fn build_top_two(spec: &AlgoSpec, inst: &Instance) -> Result<Box<dyn BaiAlgorithm>> {
    Ok(match build_any(spec, inst)? {
        AnyTopTwo::Plain(a) => Box::new(a),
        AnyTopTwo::Ctb(a) => Box::new(a),
        AnyTopTwo::Gauss(a) => Box::new(a),
        AnyTopTwo::Phased(a) => Box::new(a),
    })
}

/// A built Top Two algorithm with its concrete estimator (for observed runs in tests).
#[derive(Debug)]
pub(crate) enum AnyTopTwo {
    Plain(TopTwo<Mle<Identity>>),
    Ctb(TopTwo<Mle<RandomisedResponse>>),
    Gauss(TopTwo<Mle<GaussianMechanism>>),
    Phased(TopTwo<Phased>),
}

impl<E: Estimator> TopTwo<E> {
    /// A run with an observer (`lazy`: phase-skipping path, phased estimators only).
    pub(crate) fn run_observed(
        &self,
        rng: &mut Rng,
        max_steps: u64,
        lazy: bool,
        obs: &mut dyn Observer,
    ) -> RunOutcome {
        let src = if E::PHASED && lazy {
            RewardSource::PhaseSums(&self.arms)
        } else {
            RewardSource::PerPull(&self.arms)
        };
        run_loop(&self.cfg, &self.est, src, rng, max_steps, None, !lazy, obs)
    }
}

impl AnyTopTwo {
    /// See [`TopTwo::run_observed`].
    pub(crate) fn run_observed(
        &self,
        rng: &mut Rng,
        max_steps: u64,
        lazy: bool,
        obs: &mut dyn Observer,
    ) -> RunOutcome {
        match self {
            AnyTopTwo::Plain(a) => a.run_observed(rng, max_steps, lazy, obs),
            AnyTopTwo::Ctb(a) => a.run_observed(rng, max_steps, lazy, obs),
            AnyTopTwo::Gauss(a) => a.run_observed(rng, max_steps, lazy, obs),
            AnyTopTwo::Phased(a) => a.run_observed(rng, max_steps, lazy, obs),
        }
    }
}

/// Builds the concrete algorithm (see [`build_top_two`]).
pub(crate) fn build_any(spec: &AlgoSpec, inst: &Instance) -> Result<AnyTopTwo> {
    if spec.algo == AlgoName::DpSe {
        return Err(Error::param(
            "algo",
            "dp-se",
            "a Top Two algorithm (dp-se is built by bandit::dp_se)",
        ));
    }
    let delta = crate::params::check_delta("delta", spec.delta)?;
    let beta = check_open("beta", spec.beta, 0.0, 1.0)?;
    let k = crate::params::limits::check_arms(inst.k())?;
    if inst.family() != crate::instance::Family::Bernoulli {
        crate::params::check_gaussian_arms(inst.sigma(), inst.means())?;
    }
    let arms = Arms::from_instance(inst);
    let reference = spec.rules == Rules::Reference;
    let tracking = if reference {
        Tracking::Coin(beta)
    } else if spec.ids_beta {
        Tracking::Ids
    } else {
        Tracking::Beta(beta)
    };
    let tie_uniform = spec.tie_break == TieBreak::Uniform;
    let local = spec.challenger_counts == ChallengerCounts::Local;
    let eps = if spec.algo.needs_eps() {
        need_eps(spec)?
    } else {
        f64::INFINITY
    };
    let sigma_arm = inst.sigma();
    // σ of the rule (only gauss-ldp-tt differs from the arms' σ).
    let sigma = match spec.algo {
        AlgoName::GaussLdpTt => {
            let gamma = match spec.gamma {
                Some(g) => crate::params::check_gamma("gamma", g)?,
                None => {
                    return Err(Error::param(
                        "gamma",
                        "(missing)",
                        "given (--gamma) for gauss-ldp-tt, in (0, 1)",
                    ))
                }
            };
            let gm = GaussianMechanism::new(eps, gamma)?;
            match spec.gauss_sigma {
                GaussLdpSigma::Combined => (sigma_arm * sigma_arm + gm.sigma() * gm.sigma()).sqrt(),
                GaussLdpSigma::Printed => sigma_arm,
            }
        }
        _ => sigma_arm,
    };
    let inv2s2 = 1.0 / (2.0 * sigma * sigma);
    let gauss = Cost::Gauss { inv2s2 };
    let priv_aware = Cost::PrivAware {
        half_eps: eps / 2.0,
        inv2s2,
    };
    let ucb = Leader::Ucb {
        c: 2.0 * sigma * sigma * UCB_ALPHA * (1.0 + UCB_S),
        live: spec.leader_counts == LeaderCounts::Global,
    };
    // Issue 11's control of Finding 1: Eq. (3)'s bonus for AdaP-TT(*) (validated in `build`).
    let adap_leader = match spec.adap_leader_bonus {
        AdapLeaderBonus::Eq11 => Leader::PrivateUcb,
        AdapLeaderBonus::Eq3 => ucb,
        AdapLeaderBonus::Eq11LogN => Leader::PrivateUcbLogN { eps },
    };
    let tc = Challenger::Tc { local };
    let custom = spec
        .custom_threshold
        .clone()
        .map(|f| StoppingThreshold::Custom {
            f,
            base: ThresholdVars {
                delta,
                k: k as f64,
                eps,
                sigma: if reference { 1.0 } else { sigma },
                ..ThresholdVars::default()
            },
        });
    let name = spec.algo.as_str();
    // Reference rules of the public TTUCB code (MATH.md S).
    let ref_ttucb = |thr_fn: StoppingThreshold| Config {
        name,
        k,
        leader: Leader::Empirical,
        challenger: Challenger::RefSigned { adap: false },
        tracking,
        stop_cost: Cost::Reference,
        chal_cost: Cost::Reference,
        thr: thr_fn,
        stop_arm: StopArm::Argmax,
        tie_uniform,
    };
    let ref_ttucb_thr = || StoppingThreshold::RefTtucb {
        ln_inv_delta: (1.0 / delta).ln(),
    };
    let ref_adap = |thr_fn: StoppingThreshold| Config {
        name,
        k,
        leader: Leader::RefAdap { eps },
        challenger: Challenger::RefSigned { adap: true },
        tracking,
        stop_cost: Cost::Reference,
        chal_cost: Cost::Reference,
        thr: thr_fn,
        stop_arm: StopArm::LeaderOnSwitch,
        tie_uniform,
    };
    let ref_adap_thr = || StoppingThreshold::RefAdap {
        ln_inv_delta: (1.0 / delta).ln(),
        eps,
    };
    let paper = |leader, chal_cost, stop_cost, thr_fn| Config {
        name,
        k,
        leader,
        challenger: tc,
        tracking,
        stop_cost,
        chal_cost,
        thr: thr_fn,
        stop_arm: StopArm::Argmax,
        tie_uniform,
    };
    let step_by_step = spec.step_by_step;
    use AlgoName as A;
    let paper_thr = match spec.algo {
        _ if reference => match spec.algo {
            A::AdapTt | A::AdapTtStar => ref_adap_thr(),
            _ => ref_ttucb_thr(),
        },
        A::Ttucb | A::CtbTt | A::GaussLdpTt => StoppingThreshold::eq4(delta, k),
        A::AdapTt => StoppingThreshold::eq12(delta, k, eps, sigma),
        A::AdapTtStar => StoppingThreshold::eq14(delta, k, eps, sigma, spec.eq14_form),
        A::DpaTt => StoppingThreshold::l34(delta, k),
        A::DpSe => unreachable!("invariant: dp-se rejected at the top of build_any"),
    };
    let thr = custom.unwrap_or(paper_thr);
    let cfg = match spec.algo {
        A::AdapTt | A::AdapTtStar if reference => ref_adap(thr),
        _ if reference => ref_ttucb(thr),
        A::Ttucb | A::CtbTt | A::GaussLdpTt => paper(ucb, gauss, gauss, thr),
        A::AdapTt => paper(adap_leader, gauss, gauss, thr),
        A::AdapTtStar => paper(adap_leader, priv_aware, priv_aware, thr),
        A::DpaTt => paper(ucb, gauss, gauss, thr),
        A::DpSe => unreachable!("invariant: dp-se rejected at the top of build_any"),
    };
    Ok(match spec.algo {
        A::Ttucb => AnyTopTwo::Plain(TopTwo {
            cfg,
            est: Mle(Identity),
            arms,
            step_by_step,
        }),
        A::CtbTt => {
            if inst.family() != Family::Bernoulli {
                return Err(Error::InvalidInstance {
                    means: format!("{:?}", inst.means()),
                    reason: "ctb-tt (randomised response) needs rewards in [0, 1]: use \
                             --family bernoulli"
                        .into(),
                });
            }
            AnyTopTwo::Ctb(TopTwo {
                cfg,
                est: Mle(RandomisedResponse::new(eps)?),
                arms,
                step_by_step,
            })
        }
        A::GaussLdpTt => {
            let gamma = spec.gamma.expect("invariant: checked above");
            AnyTopTwo::Gauss(TopTwo {
                cfg,
                est: Mle(GaussianMechanism::new(eps, gamma)?),
                arms,
                step_by_step,
            })
        }
        A::AdapTt | A::AdapTtStar => AnyTopTwo::Phased(TopTwo {
            cfg,
            est: Phased {
                daf_eps: Some(eps),
                bonus_eps: Some(eps),
                global: false,
            },
            arms,
            step_by_step,
        }),
        A::DpaTt => AnyTopTwo::Phased(TopTwo {
            cfg,
            est: Phased {
                daf_eps: None,
                bonus_eps: None,
                global: spec.dpa_episodes == DpaEpisodes::Global,
            },
            arms,
            step_by_step,
        }),
        A::DpSe => unreachable!("invariant: dp-se rejected at the top of build_any"),
    })
}
