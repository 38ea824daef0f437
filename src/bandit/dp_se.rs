//! DP-SE (Sajed–Sheffet 2019), ε-global DP successive elimination (Sec. 4.4; MATH.md D.10, S).
//! Placeholder until the engine issue fills it.

use super::{AlgoSpec, BaiAlgorithm, RunOutcome};
use crate::instance::Instance;
use crate::rng::Rng;

/// DP-SE bound to an instance.
#[derive(Debug)]
pub struct DpSe;

impl DpSe {
    /// Builds DP-SE (not implemented yet).
    ///
    /// # Errors
    /// Always, until implemented.
    pub fn new(_spec: &AlgoSpec, _instance: &Instance) -> crate::Result<Self> {
        Err(crate::Error::param(
            "algo",
            "dp-se",
            "an implemented algorithm (pending)",
        ))
    }
}

impl BaiAlgorithm for DpSe {
    fn name(&self) -> &str {
        "dp-se"
    }
    fn run(&self, _rng: &mut Rng, _max_steps: u64) -> RunOutcome {
        RunOutcome {
            tau: 0,
            recommendation: 0,
            stopped: false,
            rounds: None,
        }
    }
}
