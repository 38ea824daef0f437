//! Planted bugs (`audit dp --mutant`): six mechanism bugs, caught exactly and by the black
//! box, and four whole-algorithm bugs (black box on reward tables only).

use super::mechanisms::{
    Audited, DafSchedule, DpTtSchedule, MechanismInfo, mechanism_info, mutated,
};
use crate::bandit::AlgoName;
use crate::bandit::dp_tt::DpTtFault;
use crate::error::Result;
use crate::privacy::{GaussianMechanism, Laplace, RandomisedResponse};

/// A planted bug.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mutant {
    /// Name for `--mutant`.
    pub name: &'static str,
    /// What is wrong.
    pub description: &'static str,
    /// What it corrupts.
    pub base: MutantBase,
}

/// A mutation of a mechanism: the broken mechanism at claimed `(ε, γ)`, claiming what the
/// faithful one claims ([`super::Mutated`]).
#[derive(Clone, Copy)]
pub struct Mutation {
    /// The mechanism of [`super::MECHANISMS`] it breaks.
    pub base: &'static str,
    /// The broken build at claimed `(ε, γ)`.
    pub build: fn(f64, f64) -> Result<Box<dyn Audited>>,
}

impl Mutation {
    /// The mechanism it breaks.
    pub fn base(&self) -> &'static MechanismInfo {
        mechanism_info(self.base).expect("invariant: a mutation breaks a mechanism of MECHANISMS")
    }
}

impl PartialEq for Mutation {
    fn eq(&self, other: &Self) -> bool {
        self.base == other.base
    }
}

impl std::fmt::Debug for Mutation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mutation({})", self.base)
    }
}

/// `inner`, claiming the statement of the faithful `base` at `(ε, γ)`.
fn broken<M: Audited + 'static>(
    base: &str,
    inner: M,
    eps: f64,
    gamma: f64,
) -> Result<Box<dyn Audited>> {
    let info =
        mechanism_info(base).expect("invariant: a mutation breaks a mechanism of MECHANISMS");
    mutated(inner, (info.build)(eps, gamma)?.as_ref())
}

/// What a mutant corrupts: a mechanism, or a whole algorithm (black-box on reward tables only).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MutantBase {
    /// A mechanism (exact and black-box modes).
    Mechanism(Mutation),
    /// A whole algorithm run with `factor·ε` while claiming `ε` (black-box on reward tables).
    Algo {
        /// The algorithm.
        algo: AlgoName,
        /// Factor applied to the privacy budget actually used.
        factor: f64,
    },
    /// A whole DP-TT run with a bug in its releases, claiming `ε` (black-box on reward tables):
    /// the release mechanism's mutants planted in the algorithm.
    DpTtRun(DpTtFault),
}

/// Every built-in mutant.
pub const MUTANTS: [Mutant; 10] = [
    Mutant {
        name: "laplace-half-scale",
        description: "Laplace mechanism with noise scale 1/(2 eps) instead of 1/eps (true loss 2 eps)",
        base: MutantBase::Mechanism(Mutation {
            base: "laplace",
            build: |eps, gamma| {
                let half = Laplace::with_scale(Laplace::new(1.0, eps)?.scale() / 2.0)?;
                broken("laplace", half, eps, gamma)
            },
        }),
    },
    Mutant {
        name: "daf-no-forgetting",
        description: "DAF releasing each phase mean over all past samples (no forgetting), scales unchanged",
        base: MutantBase::Mechanism(Mutation {
            base: "daf",
            build: |eps, gamma| broken("daf", DafSchedule::new(eps, false)?, eps, gamma),
        }),
    },
    Mutant {
        name: "rr-wrong-keep",
        description: "randomised response keeping the bit w.p. e^(2 eps)/(e^(2 eps)+1) instead of e^eps/(e^eps+1)",
        base: MutantBase::Mechanism(Mutation {
            base: "rr",
            build: |eps, gamma| {
                let keep = RandomisedResponse::new(2.0 * eps)?.keep_probability();
                broken(
                    "rr",
                    RandomisedResponse::with_keep_probability(keep)?,
                    eps,
                    gamma,
                )
            },
        }),
    },
    Mutant {
        name: "gaussian-small-sigma",
        description: "Gaussian mechanism with sigma_{eps,gamma}/2 instead of sqrt(2 log(1.25/gamma))/eps",
        base: MutantBase::Mechanism(Mutation {
            base: "gaussian",
            build: |eps, gamma| {
                let sigma = GaussianMechanism::new(eps, gamma)?.sigma() / 2.0;
                broken(
                    "gaussian",
                    GaussianMechanism::with_sigma(sigma, gamma)?,
                    eps,
                    gamma,
                )
            },
        }),
    },
    Mutant {
        name: "dp-tt-half-scale",
        description: "DP-TT's phase increments with Laplace scale 1/(2 eps) instead of 1/eps (true loss 2 eps)",
        base: MutantBase::Mechanism(Mutation {
            base: "dp-tt",
            build: |eps, gamma| broken("dp-tt", DpTtSchedule::new(eps, 0.5, None)?, eps, gamma),
        }),
    },
    Mutant {
        name: "dp-tt-noiseless-phase",
        description: "DP-TT releasing its first phase increment without noise (infinite loss)",
        base: MutantBase::Mechanism(Mutation {
            base: "dp-tt",
            build: |eps, gamma| broken("dp-tt", DpTtSchedule::new(eps, 1.0, Some(0))?, eps, gamma),
        }),
    },
    Mutant {
        name: "adap-tt-eps-x4",
        description: "AdaP-TT whose DAF noise is calibrated for 4 eps while claiming eps (black-box on reward tables)",
        base: MutantBase::Algo {
            algo: AlgoName::AdapTt,
            factor: 4.0,
        },
    },
    Mutant {
        name: "ctb-tt-eps-x4",
        description: "CTB-TT whose randomised response uses 4 eps while claiming eps (black-box on reward tables)",
        base: MutantBase::Algo {
            algo: AlgoName::CtbTt,
            factor: 4.0,
        },
    },
    Mutant {
        name: "dp-tt-algo-half-scale",
        description: "DP-TT whose releases use Laplace scale 1/(2 eps) instead of 1/eps (dp-tt-half-scale in the whole run; black-box on reward tables)",
        base: MutantBase::DpTtRun(DpTtFault {
            scale_factor: 0.5,
            noiseless_release: None,
        }),
    },
    Mutant {
        name: "dp-tt-algo-noiseless-phase",
        description: "DP-TT releasing each arm's first phase increment (its initial sample) without noise (dp-tt-noiseless-phase in the whole run; black-box on reward tables)",
        base: MutantBase::DpTtRun(DpTtFault {
            scale_factor: 1.0,
            noiseless_release: Some(0),
        }),
    },
];

/// Looks a mutant up by name.
///
/// # Example
/// ```
/// assert!(dpbai::audit::dp::mutant("laplace-half-scale").is_some());
/// assert!(dpbai::audit::dp::mutant("nope").is_none());
/// ```
pub fn mutant(name: &str) -> Option<Mutant> {
    MUTANTS.iter().copied().find(|m| m.name == name)
}
