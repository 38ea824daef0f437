//! Everything needed to build an algorithm ([`AlgoSpec`]): its [`Setting`] and the engine-only
//! extras (a custom threshold, the step-by-step path, the [`Sampling`] rule).

use super::setting::Setting;
use crate::threshold::CustomThreshold;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

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

crate::spelled!(
    Sampling => "sampling",
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
