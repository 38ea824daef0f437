//! Running a δ-correctness audit: the algorithm of each instance (with an expression threshold
//! bound to the instance's constants and checked during the runs), the seeded runs of each look,
//! and the battery's rows and overall verdict (protocol in the module docs of [`super`]).

use super::{
    AuditInstance, DeltaAuditConfig, DeltaReport, DeltaRow, RunPlan, decide, runs_to_decide,
};
use crate::audit::Verdict;
use crate::bandit::{self, AlgoSpec, CustomThreshold};
use crate::error::{Error, Result, check_open};
use crate::instance::Family;
use crate::rng::{mix64, rng_for_run};
use rayon::prelude::*;
use std::sync::Arc;

/// Counts of a batch of runs.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Tally {
    pub(crate) runs: u64,
    pub(crate) errors: u64,
    pub(crate) unstopped: u64,
    pub(crate) tau_sum_stopped: u128,
    pub(crate) stopped: u64,
    pub(crate) max_tau: u64,
}

impl Tally {
    pub(crate) fn merge(self, o: Tally) -> Tally {
        Tally {
            runs: self.runs + o.runs,
            errors: self.errors + o.errors,
            unstopped: self.unstopped + o.unstopped,
            tau_sum_stopped: self.tau_sum_stopped + o.tau_sum_stopped,
            stopped: self.stopped + o.stopped,
            max_tau: self.max_tau.max(o.max_tau),
        }
    }
}

pub(crate) fn run_batch(
    alg: &dyn bandit::BaiAlgorithm,
    best: usize,
    seed: u64,
    range: std::ops::Range<u64>,
    max_steps: u64,
) -> Tally {
    range
        .into_par_iter()
        .map(|r| {
            let mut rng = rng_for_run(seed, r);
            let o = alg.run(&mut rng, max_steps);
            Tally {
                runs: 1,
                errors: u64::from(o.stopped && o.recommendation != best),
                unstopped: u64::from(!o.stopped),
                tau_sum_stopped: if o.stopped { u128::from(o.tau) } else { 0 },
                stopped: u64::from(o.stopped),
                max_tau: o.tau,
            }
        })
        .reduce(Tally::default, Tally::merge)
}

fn family_label(f: Family) -> String {
    match f {
        Family::Bernoulli => "bernoulli".into(),
        Family::Gaussian { sigma } => format!("gaussian({sigma})"),
    }
}

/// Builds the algorithm of `cfg` for one battery instance (threshold bound to its constants).
pub(crate) fn build_for(
    cfg: &DeltaAuditConfig,
    inst: &AuditInstance,
    custom: Option<&Arc<dyn CustomThreshold>>,
) -> Result<(Box<dyn bandit::BaiAlgorithm>, Option<CheckedExpr>)> {
    let mut spec = AlgoSpec::new(cfg.setting_for(inst)?);
    spec.sampling = cfg.sampling;
    if let Some(c) = custom {
        spec.custom_threshold = Some(Arc::clone(c));
    } else if let Some(t) = &cfg.threshold {
        let base = bandit::algos::threshold_constants(&spec.setting, &inst.instance)?;
        let checked = crate::threshold::probe::bind_checked(t, &base)?;
        spec.custom_threshold = Some(checked.clone() as Arc<dyn CustomThreshold>);
        return Ok((bandit::build(&spec, &inst.instance)?, Some(checked)));
    }
    Ok((bandit::build(&spec, &inst.instance)?, None))
}

/// A bound user threshold that checks its values during the runs.
pub(crate) type CheckedExpr = crate::threshold::probe::CheckedThreshold;

/// Builds the algorithm to audit on one instance: [`audit_delta_with`] takes one, so that a
/// user's own algorithm or threshold closure can be audited like a built-in one.
///
/// # Contract
/// Returns an algorithm bound to `inst.instance` at `inst.delta` (and `inst.eps`), or
/// [`Error::InvalidInstance`] for an instance it cannot run on (the row is then reported as
/// skipped); any other error aborts the audit. It must be deterministic: the same instance
/// gives an algorithm with the same law.
pub type AlgoFactory<'a> =
    dyn Fn(&AuditInstance) -> Result<Box<dyn bandit::BaiAlgorithm>> + Sync + 'a;

/// The internal factory: an algorithm and, for an expression threshold, its in-run checker.
type CheckedFactory<'a> = dyn Fn(&AuditInstance) -> Result<(Box<dyn bandit::BaiAlgorithm>, Option<CheckedExpr>)>
    + Sync
    + 'a;

/// Audits one instance; `alpha` is this instance's share of the confidence budget.
fn audit_one(
    cfg: &DeltaAuditConfig,
    build: &CheckedFactory<'_>,
    inst: &AuditInstance,
    index: u64,
    alpha: f64,
) -> Result<DeltaRow> {
    let mut row = DeltaRow {
        name: inst.name.clone(),
        family: family_label(inst.instance.family()),
        means: inst.instance.means().to_vec(),
        delta: inst.delta,
        eps: inst.eps,
        runs: 0,
        errors: 0,
        unstopped: 0,
        error_rate: f64::NAN,
        ci: [0.0, 1.0],
        verdict: Verdict::Inconclusive,
        looks: 0,
        alpha_look: alpha,
        runs_to_decide: None,
        more_runs: None,
        mean_tau: f64::NAN,
        max_tau: 0,
        step_cap: cfg.max_steps,
        skipped: None,
    };
    let (alg, checked) = match build(inst) {
        Ok(a) => a,
        Err(e @ Error::InvalidInstance { .. }) => {
            row.skipped = Some(e.to_string());
            return Ok(row);
        }
        Err(e) => return Err(e),
    };
    let seed = mix64(cfg.seed.wrapping_add(index));
    let best = inst.instance.best();
    let mut tally = Tally::default();
    let (mut target, budget, sequential) = match cfg.plan {
        RunPlan::Fixed { runs } => (runs, runs, false),
        RunPlan::UntilDecided { first, budget } => (first.min(budget), budget, true),
    };
    let mut look = 0u32;
    loop {
        look += 1;
        let t = run_batch(alg.as_ref(), best, seed, tally.runs..target, cfg.max_steps);
        if let Some(e) = checked.as_ref().and_then(|c| c.failure()) {
            return Err(e);
        }
        tally = tally.merge(t);
        let a = if sequential {
            alpha * 0.5f64.powi(look as i32)
        } else {
            alpha
        };
        let d = decide(tally.errors, tally.unstopped, tally.runs, inst.delta, a)?;
        row.ci = [d.lower, d.upper];
        row.verdict = d.verdict;
        row.alpha_look = a;
        if !sequential || d.verdict != Verdict::Inconclusive || tally.runs >= budget || look >= 60 {
            break;
        }
        target = target.saturating_mul(2).min(budget);
    }
    row.looks = look;
    row.runs = tally.runs;
    row.errors = tally.errors;
    row.unstopped = tally.unstopped;
    row.error_rate = tally.errors as f64 / tally.runs as f64;
    row.mean_tau = if tally.stopped > 0 {
        tally.tau_sum_stopped as f64 / tally.stopped as f64
    } else {
        f64::NAN
    };
    row.max_tau = tally.max_tau;
    if row.verdict == Verdict::Inconclusive {
        // Projection at the α of the next look (sequential) or the same α (fixed plan).
        let a = if sequential {
            row.alpha_look / 2.0
        } else {
            row.alpha_look
        };
        row.runs_to_decide =
            runs_to_decide(tally.errors, tally.unstopped, tally.runs, inst.delta, a)?;
        row.more_runs = row.runs_to_decide.map(|n| n.saturating_sub(tally.runs));
    }
    Ok(row)
}

fn severity(r: &DeltaRow) -> (u8, f64) {
    let skipped = r.skipped.is_some();
    (
        if skipped {
            3
        } else {
            r.verdict.severity_rank()
        },
        -(r.ci[0] - r.delta),
    )
}

/// Runs the audit on every instance (module docs for the protocol).
///
/// # Errors
/// [`Error::InvalidParameter`] for `α ∉ (0, 1)`, a zero run count or budget, an empty battery,
/// or an algorithm parameter the algorithm rejects; instances the algorithm cannot run on
/// (e.g. Gaussian arms for randomised response) are reported as skipped rows instead.
///
/// # Example
/// ```
/// use dpbai::audit::delta::{audit_delta, AuditInstance, DeltaAuditConfig, RunPlan};
/// use dpbai::audit::Verdict;
/// use dpbai::threshold::expr::parse_threshold;
/// use dpbai::bandit::{AlgoName, Setting};
/// let cfg = DeltaAuditConfig {
///     setting: Setting::paper(AlgoName::Ttucb, 0.1).unwrap(), // δ replaced per instance
///     threshold: Some(parse_threshold("log(1/delta)/20").unwrap()), // deliberately unsafe
///     alpha: 1e-3,
///     seed: 1,
///     max_steps: 1_000_000,
///     plan: RunPlan::Fixed { runs: 300 },
///     sampling: dpbai::bandit::Sampling::Algorithm,
/// };
/// let inst = vec![AuditInstance {
///     name: "near-tie".into(),
///     instance: dpbai::instance::Instance::bernoulli(vec![0.55, 0.45]).unwrap(),
///     delta: 0.1,
///     eps: None,
/// }];
/// let r = audit_delta(&cfg, &inst).unwrap();
/// assert_eq!(r.verdict, Verdict::Violated);
/// ```
pub fn audit_delta(cfg: &DeltaAuditConfig, instances: &[AuditInstance]) -> Result<DeltaReport> {
    audit_delta_impl(cfg, instances, &|inst| build_for(cfg, inst, None))
}

/// [`audit_delta`] with the threshold given as any [`CustomThreshold`] instead of
/// `cfg.threshold` (which is ignored): e.g. a callable of a host language (the Python
/// bindings). The same threshold object serves every instance; it reads `δ`, `K`, `ε`, `σ`
/// from its [`crate::bandit::ThresholdVars`]. `label` names it in the report's `threshold`.
///
/// # Errors
/// As [`audit_delta`].
pub fn audit_delta_with_threshold(
    cfg: &DeltaAuditConfig,
    instances: &[AuditInstance],
    threshold: Arc<dyn CustomThreshold>,
    label: &str,
) -> Result<DeltaReport> {
    let mut r = audit_delta_impl(cfg, instances, &|inst| {
        build_for(cfg, inst, Some(&threshold))
    })?;
    r.threshold = Some(label.to_string());
    Ok(r)
}

/// [`audit_delta`] with the algorithm built by `build` instead of from `cfg.setting` and
/// `cfg.threshold` (which then only label the report): the entry
/// point for a user's own algorithm ([`bandit::BaiAlgorithm`]) or threshold closure
/// ([`crate::audit::custom`]). Same protocol, same seeding, same verdicts.
///
/// # Errors
/// As [`audit_delta`], plus any non-instance error of `build`.
///
/// # Example
/// ```
/// use dpbai::audit::delta::{audit_delta_with, AuditInstance, DeltaAuditConfig, RunPlan};
/// use dpbai::audit::Verdict;
/// use dpbai::bandit::{build, AlgoName, AlgoSpec, Setting};
/// let cfg = DeltaAuditConfig {
///     setting: Setting::paper(AlgoName::Ttucb, 0.1).unwrap(), threshold: None,
///     alpha: 1e-3, seed: 1, max_steps: 1_000_000, plan: RunPlan::Fixed { runs: 200 },
///     sampling: dpbai::bandit::Sampling::Algorithm,
/// };
/// let inst = vec![AuditInstance {
///     name: "easy".into(),
///     instance: dpbai::instance::Instance::bernoulli(vec![0.9, 0.1]).unwrap(),
///     delta: 0.1,
///     eps: None,
/// }];
/// let r = audit_delta_with(&cfg, &inst, &|i| build(&AlgoSpec::new(cfg.setting_for(i)?), &i.instance))
///     .unwrap();
/// assert_eq!(r.verdict, Verdict::Holds);
/// ```
pub fn audit_delta_with(
    cfg: &DeltaAuditConfig,
    instances: &[AuditInstance],
    build: &AlgoFactory<'_>,
) -> Result<DeltaReport> {
    audit_delta_impl(cfg, instances, &|inst| build(inst).map(|a| (a, None)))
}

fn audit_delta_impl(
    cfg: &DeltaAuditConfig,
    instances: &[AuditInstance],
    build: &CheckedFactory<'_>,
) -> Result<DeltaReport> {
    crate::fault::check(crate::fault::Area::Audit)?;
    let _untracked = crate::fault::untracked();
    check_open("alpha", cfg.alpha, 0.0, 1.0)?;
    if cfg.max_steps == 0 {
        return Err(Error::param("max_steps", 0, "at least 1"));
    }
    match cfg.plan {
        RunPlan::Fixed { runs: 0 } => return Err(Error::param("runs", 0, "at least 1")),
        RunPlan::UntilDecided { first, budget } if first == 0 || budget == 0 => {
            return Err(Error::param("budget", budget.min(first), "at least 1"));
        }
        _ => {}
    }
    if instances.is_empty() {
        return Err(Error::param("battery", "empty", "at least one instance"));
    }
    let start = std::time::Instant::now();
    let alpha_i = crate::audit::ci::share(cfg.alpha, instances.len() as u64);
    let mut rows = Vec::with_capacity(instances.len());
    for (i, inst) in instances.iter().enumerate() {
        rows.push(audit_one(cfg, build, inst, i as u64, alpha_i)?);
    }
    rows.sort_by(|a, b| {
        let (sa, ma) = severity(a);
        let (sb, mb) = severity(b);
        sa.cmp(&sb).then(ma.total_cmp(&mb))
    });
    let live: Vec<&DeltaRow> = rows.iter().filter(|r| r.skipped.is_none()).collect();
    if live.is_empty() {
        return Err(Error::param(
            "battery",
            "every instance skipped",
            format!("instances {} accepts", cfg.setting.algo.as_str()),
        ));
    }
    let verdict = if live.iter().any(|r| r.verdict == Verdict::Violated) {
        Verdict::Violated
    } else if live.iter().all(|r| r.verdict == Verdict::Holds) {
        Verdict::Holds
    } else {
        Verdict::Inconclusive
    };
    Ok(DeltaReport {
        algo: cfg.setting.algo.as_str().to_string(),
        threshold: cfg.threshold.as_ref().map(|t| t.source().to_string()),
        sampling: cfg.sampling,
        verdict,
        runs: live.iter().map(|r| r.runs).sum(),
        errors: live.iter().map(|r| r.errors).sum(),
        unstopped: live.iter().map(|r| r.unstopped).sum(),
        ci: live[0].ci,
        confidence: 1.0 - cfg.alpha,
        alpha_per_instance: alpha_i,
        seed: cfg.seed,
        max_steps: cfg.max_steps,
        instances: rows,
        seconds: start.elapsed().as_secs_f64(),
    })
}
