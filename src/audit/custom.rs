//! Custom rules in Rust: audit a stopping threshold written as a closure, or a whole algorithm
//! written against [`BaiAlgorithm`], with the same auditors as the built-in ones
//! ([`crate::audit::delta::audit_delta_with`], [`crate::audit::search::search_with`]).
//!
//! Runnable examples: `cargo run --release --example audit_my_threshold` and
//! `cargo run --release --example audit_my_algorithm` (their tests run in `cargo test`).

use crate::audit::delta::{AuditInstance, DeltaAuditConfig};
use crate::bandit::{self, AlgoSpec, BaiAlgorithm, CustomThreshold, ThresholdVars};
use crate::error::Result;
use std::sync::Arc;

/// A stopping threshold given as a closure of [`ThresholdVars`].
///
/// # Contract
/// As [`CustomThreshold`]: the closure is pure and cheap; NaN means "do not stop".
///
/// # Example
/// ```
/// use dpbai::audit::custom::ClosureThreshold;
/// use dpbai::bandit::{CustomThreshold, ThresholdVars};
/// let c = ClosureThreshold::new(|v: &ThresholdVars| (1.0 / v.delta).ln());
/// assert!((c.eval(&ThresholdVars { delta: 0.01, ..Default::default() }) - 100f64.ln()).abs() < 1e-15);
/// ```
pub struct ClosureThreshold<F> {
    f: F,
}

impl<F: Fn(&ThresholdVars) -> f64 + Send + Sync> ClosureThreshold<F> {
    /// Wraps `f`.
    pub fn new(f: F) -> Self {
        ClosureThreshold { f }
    }
}

impl<F> std::fmt::Debug for ClosureThreshold<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClosureThreshold")
    }
}

impl<F: Fn(&ThresholdVars) -> f64 + Send + Sync> CustomThreshold for ClosureThreshold<F> {
    fn eval(&self, v: &ThresholdVars) -> f64 {
        (self.f)(v)
    }
}

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
