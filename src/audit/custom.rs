//! Custom rules in Rust: audit a stopping threshold written as a closure
//! ([`crate::threshold::custom::ClosureThreshold`]), or a whole algorithm
//! written against [`BaiAlgorithm`], with the same auditors as the built-in ones
//! ([`crate::audit::delta::audit_delta_with`], [`crate::audit::search::search_with`]).
//!
//! Runnable examples: `cargo run --release --example audit_my_threshold` and
//! `cargo run --release --example audit_my_algorithm` (their tests run in `cargo test`).

use crate::audit::delta::{AuditInstance, DeltaAuditConfig};
use crate::bandit::{self, AlgoSpec, BaiAlgorithm};
use crate::error::Result;
use crate::threshold::custom::{ClosureThreshold, CustomThreshold, ThresholdVars};
use std::sync::Arc;

/// An algorithm factory for [`crate::audit::delta::audit_delta_with`] and
/// [`crate::audit::search::search_with`]: `cfg`'s algorithm (with its setting) with the
/// threshold `f` in place of its own.
///
/// # Errors
/// The factory returns the errors of [`bandit::build`].
///
/// # Example
/// ```
/// use dpbai::audit::custom::with_threshold;
/// use dpbai::audit::delta::{audit_delta_with, AuditInstance, DeltaAuditConfig, RunPlan};
/// use dpbai::audit::Verdict;
/// use dpbai::bandit::{AlgoName, Setting};
/// let cfg = DeltaAuditConfig {
///     setting: Setting::paper(AlgoName::Ttucb, 0.1).unwrap(), threshold: None,
///     alpha: 1e-3, seed: 1, max_steps: 1_000_000, plan: RunPlan::Fixed { runs: 300 },
///     sampling: dpbai::bandit::Sampling::Algorithm,
/// };
/// let inst = vec![AuditInstance {
///     name: "near-tie".into(),
///     instance: dpbai::instance::Instance::bernoulli(vec![0.55, 0.45]).unwrap(),
///     delta: 0.1,
///     eps: None,
/// }];
/// let weak = with_threshold(&cfg, |v| (1.0 / v.delta).ln() / 20.0);
/// assert_eq!(audit_delta_with(&cfg, &inst, &weak).unwrap().verdict, Verdict::Violated);
/// ```
pub fn with_threshold<F>(
    cfg: &DeltaAuditConfig,
    f: F,
) -> impl Fn(&AuditInstance) -> Result<Box<dyn BaiAlgorithm>> + Sync + '_
where
    F: Fn(&ThresholdVars) -> f64 + Send + Sync + 'static,
{
    let thr: Arc<dyn CustomThreshold> = Arc::new(ClosureThreshold::new(f));
    move |inst: &AuditInstance| {
        let mut spec = AlgoSpec::new(cfg.setting_for(inst)?);
        spec.custom_threshold = Some(thr.clone());
        bandit::build(&spec, &inst.instance)
    }
}
