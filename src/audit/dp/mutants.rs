//! Planted bugs (`audit dp --mutant`): four mechanism bugs, caught exactly and by the black
//! box, and whole-algorithm bugs (black box on reward tables only).

use super::mechanisms::MechanismName;
use crate::bandit::AlgoName;

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

/// What a mutant corrupts: a mechanism, or a whole algorithm (black-box only).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MutantBase {
    /// A mechanism (exact and black-box modes).
    Mechanism(MechanismName),
    /// A whole algorithm run with `factor·ε` while claiming `ε` (black-box on reward tables).
    Algo {
        /// The algorithm.
        algo: AlgoName,
        /// Factor applied to the privacy budget actually used.
        factor: f64,
    },
}

/// Every built-in mutant.
pub const MUTANTS: [Mutant; 6] = [
    Mutant {
        name: "laplace-half-scale",
        description: "Laplace mechanism with noise scale 1/(2 eps) instead of 1/eps (true loss 2 eps)",
        base: MutantBase::Mechanism(MechanismName::Laplace),
    },
    Mutant {
        name: "daf-no-forgetting",
        description: "DAF releasing each phase mean over all past samples (no forgetting), scales unchanged",
        base: MutantBase::Mechanism(MechanismName::Daf),
    },
    Mutant {
        name: "rr-wrong-keep",
        description: "randomised response keeping the bit w.p. e^(2 eps)/(e^(2 eps)+1) instead of e^eps/(e^eps+1)",
        base: MutantBase::Mechanism(MechanismName::Rr),
    },
    Mutant {
        name: "gaussian-small-sigma",
        description: "Gaussian mechanism with sigma_{eps,gamma}/2 instead of sqrt(2 log(1.25/gamma))/eps",
        base: MutantBase::Mechanism(MechanismName::Gaussian),
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
