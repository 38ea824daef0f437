//! `dpbai audit delta`: is `P_ν(τ < ∞, â ≠ a*) <= δ` for a stopping rule? (MATH.md E.2)
//!
//! # Protocol
//! For each instance, independent seeded runs (run `r` of instance `i` draws from
//! [`rng_for_run`]`(seed_i, r)`, `seed_i = mix64(seed + i)`) are counted as
//! * `errors`: stopped with a wrong recommendation;
//! * `unstopped`: hit the step cap (`max_steps`) without stopping. Such a run has not returned a
//!   wrong answer *yet*, but it might later. So it counts as **not an error** for the lower bound
//!   (the event `{τ <= cap, â ≠ a*}` is contained in `{τ < ∞, â ≠ a*}`) and **as an error** for
//!   the upper bound (`{τ < ∞, â ≠ a*} ⊆ {τ <= cap, â ≠ a*} ∪ {τ > cap}`). Both bounds are
//!   therefore valid whatever the cap; unstopped runs are always reported.
//!
//! With `n` runs, `k` errors and `u` unstopped runs, the two-sided interval at confidence `1 − α`
//! is `[L, U] = [cp_lower(k, n, α/2), cp_upper(k + u, n, α/2)]` (exact Clopper–Pearson, closed
//! forms at `k = 0` and `k = n`). Verdict: `violated` if `L > δ`, `holds` if `U <= δ`, else
//! `inconclusive`. Since `P(p ∉ [L, U]) <= α`, a `holds` or `violated` verdict is wrong with
//! probability at most `α`.
//!
//! # Sequential looks (`--until-decided`)
//! Looks `j = 1, 2, …` happen after a **fixed** cumulative schedule `n_j = n_1·2^{j−1}` (capped at
//! the budget), and look `j` uses `α_j = α·2^{−j}`. Claim: with probability at least `1 − α`,
//! every interval computed at every look contains `p`, so whichever look stops, its verdict is
//! wrong with probability at most `α`.
//! *Proof.* Let `E_j = {p ∉ [L_j, U_j]}`. Because `n_j` is fixed in advance, `[L_j, U_j]` is an
//! ordinary Clopper–Pearson interval for `Bin(n_j, p)` (plus the conservative treatment of
//! unstopped runs), so `P(E_j) <= α_j`. By the union bound,
//! `P(∪_j E_j) <= Σ_{j>=1} α·2^{−j} = α`. Stopping at the first decisive look only selects
//! one of the intervals, all of which are simultaneously correct outside `∪_j E_j`. ∎
//!
//! # Batteries
//! With `m` instances, each instance is audited at `α/m` (Bonferroni), so that the battery's
//! overall verdict (`violated` if any row is, `holds` if all rows are, else `inconclusive`) is
//! wrong with probability at most `α`. Rows are sorted worst first: violated, then inconclusive,
//! then holds; within a class by decreasing lower bound minus δ.

use crate::audit::{ci, expr::ThresholdExpr, Verdict};
use crate::bandit::{self, AlgoName, AlgoSpec, CustomThreshold, Rules};
use crate::error::{check_open, Error, Result};
use crate::instance::{Family, Instance};
use crate::rng::{mix64, rng_for_run};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Default confidence parameter `α` (confidence `1 − α`).
pub const DEFAULT_ALPHA: f64 = 1e-3;
/// Default step cap of one run.
pub const DEFAULT_MAX_STEPS: u64 = 10_000_000;
/// Largest run count the "runs to decide" estimate reports.
const MAX_PROJECTED_RUNS: u64 = 1_000_000_000_000;

/// The interval and verdict of one binomial audit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Decision {
    /// Lower confidence bound on `P(τ < ∞, â ≠ a*)` (unstopped runs counted as correct).
    pub lower: f64,
    /// Upper confidence bound (unstopped runs counted as errors).
    pub upper: f64,
    /// The verdict against `δ`.
    pub verdict: Verdict,
}

/// Decides `P(τ < ∞, â ≠ a*) <= δ` from `errors` wrong stops and `unstopped` capped runs out of
/// `runs`, at confidence `1 − alpha` (module docs).
///
/// # Definition
/// `L = cp_lower(errors, runs, α/2)`, `U = cp_upper(errors + unstopped, runs, α/2)`;
/// `violated` if `L > δ`, `holds` if `U <= δ`, else `inconclusive`.
///
/// # Reference
/// MATH.md E.2; Clopper & Pearson (1934).
///
/// # Domain
/// `runs >= 1`, `errors + unstopped <= runs`, `δ, α ∈ (0, 1)`.
///
/// # Accuracy
/// Exact up to the accuracy of [`crate::mc::stats`] (1e-10); at `errors = 0` and
/// `errors + unstopped = runs` the closed forms `1 − (α/2)^{1/n}` and `(α/2)^{1/n}` apply.
///
/// # Errors
/// [`Error::InvalidParameter`] outside the domain.
///
/// # Example
/// ```
/// use dpbai::audit::{delta::decide, Verdict};
/// // 0 errors in 10 000 runs: U = 1 − 0.0005^{1e-4} ≈ 7.6e-4 <= 0.01.
/// let d = decide(0, 0, 10_000, 0.01, 1e-3).unwrap();
/// assert_eq!(d.verdict, Verdict::Holds);
/// assert!((d.upper - (1.0 - 0.0005f64.powf(1e-4))).abs() < 1e-12);
/// ```
pub fn decide(errors: u64, unstopped: u64, runs: u64, delta: f64, alpha: f64) -> Result<Decision> {
    crate::params::check_delta("delta", delta)?;
    check_open("alpha", alpha, 0.0, 1.0)?;
    if runs == 0 {
        return Err(Error::param("runs", runs, "at least 1"));
    }
    if errors.saturating_add(unstopped) > runs {
        return Err(Error::param(
            "errors + unstopped",
            errors.saturating_add(unstopped),
            format!("at most runs = {runs}"),
        ));
    }
    let lower = ci::lower(errors, runs, alpha / 2.0)?;
    let upper = ci::upper(errors + unstopped, runs, alpha / 2.0)?;
    let verdict = if lower > delta {
        Verdict::Violated
    } else if upper <= delta {
        Verdict::Holds
    } else {
        Verdict::Inconclusive
    };
    Ok(Decision {
        lower,
        upper,
        verdict,
    })
}

/// Projected total number of runs after which the audit would likely be decisive, if the
/// observed frequencies stayed as they are; `None` when they sit on `δ` (or beyond 10^12 runs).
///
/// # Definition
/// With `p̂ = errors/runs` and `q̂ = (errors + unstopped)/runs`: if `q̂ < δ`, the smallest `N` with
/// `cp_upper(⌈q̂N⌉, N, α/2) <= δ`; if `p̂ > δ`, the smallest `N` with `cp_lower(⌊p̂N⌋, N, α/2) > δ`
/// (found by doubling then bisection, treating the conditions as monotone in `N`).
///
/// # Errors
/// As [`decide`].
///
/// # Example
/// ```
/// // No error in 100 runs at δ = 0.01: about log(2/α)/δ ≈ 760 runs would certify `holds`.
/// let n = dpbai::audit::delta::runs_to_decide(0, 0, 100, 0.01, 1e-3).unwrap().unwrap();
/// assert!((750..=770).contains(&n));
/// ```
pub fn runs_to_decide(
    errors: u64,
    unstopped: u64,
    runs: u64,
    delta: f64,
    alpha: f64,
) -> Result<Option<u64>> {
    decide(errors, unstopped, runs, delta, alpha)?;
    let p = errors as f64 / runs as f64;
    let q = (errors + unstopped) as f64 / runs as f64;
    let ok = |n: u64| -> Result<bool> {
        if q < delta {
            let k = ((q * n as f64).ceil() as u64).min(n);
            Ok(ci::upper(k, n, alpha / 2.0)? <= delta)
        } else if p > delta {
            let k = ((p * n as f64).floor() as u64).min(n);
            Ok(ci::lower(k, n, alpha / 2.0)? > delta)
        } else {
            Ok(false)
        }
    };
    if !(q < delta || p > delta) {
        return Ok(None);
    }
    let mut hi = runs.max(1);
    while !ok(hi)? {
        if hi >= MAX_PROJECTED_RUNS {
            return Ok(None);
        }
        hi = hi.saturating_mul(2).min(MAX_PROJECTED_RUNS);
    }
    let mut lo = hi / 2;
    if lo < runs || hi == runs {
        lo = runs.saturating_sub(1);
    }
    // Invariant: ok(hi), and lo is either below `runs` or fails.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(Some(hi.max(runs)))
}

/// How many runs to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum RunPlan {
    /// One look after `runs` runs per instance, at `α`.
    Fixed {
        /// Runs per instance.
        runs: u64,
    },
    /// Looks after `first·2^{j−1}` runs (capped at `budget`) at `α·2^{−j}`, until decisive.
    UntilDecided {
        /// Runs of the first look.
        first: u64,
        /// Maximum runs per instance.
        budget: u64,
    },
}

/// One instance of an audit battery.
#[derive(Debug, Clone)]
pub struct AuditInstance {
    /// Short label, printed in the table.
    pub name: String,
    /// The bandit instance.
    pub instance: Instance,
    /// Risk `δ` to audit.
    pub delta: f64,
    /// Privacy budget (private algorithms only).
    pub eps: Option<f64>,
}

/// What to audit (everything except the instances).
#[derive(Debug, Clone)]
pub struct DeltaAuditConfig {
    /// The algorithm.
    pub algo: AlgoName,
    /// `γ` of the Gaussian mechanism, if any.
    pub gamma: Option<f64>,
    /// Paper or reference rules.
    pub rules: Rules,
    /// The threshold replacing the algorithm's `c_{a,b}`, if any.
    pub threshold: Option<ThresholdExpr>,
    /// Confidence parameter `α` of the whole audit.
    pub alpha: f64,
    /// Master seed.
    pub seed: u64,
    /// Step cap of one run.
    pub max_steps: u64,
    /// Runs per instance.
    pub plan: RunPlan,
}

/// Result for one instance.
#[derive(Debug, Clone, Serialize)]
pub struct DeltaRow {
    /// Label.
    pub name: String,
    /// `bernoulli` or `gaussian(σ)`.
    pub family: String,
    /// Means.
    pub means: Vec<f64>,
    /// Audited `δ`.
    pub delta: f64,
    /// `ε`, if private.
    pub eps: Option<f64>,
    /// Runs done.
    pub runs: u64,
    /// Stopped with a wrong answer.
    pub errors: u64,
    /// Hit the step cap.
    pub unstopped: u64,
    /// Empirical error frequency `errors / runs`.
    pub error_rate: f64,
    /// `[lower, upper]` confidence interval on `P(τ < ∞, â ≠ a*)`.
    pub ci: [f64; 2],
    /// Verdict of this row.
    pub verdict: Verdict,
    /// Looks taken (1 for a fixed plan).
    pub looks: u32,
    /// `α` used by the deciding (last) look of this row.
    pub alpha_look: f64,
    /// For an inconclusive row: projected total runs that would likely decide it (if the
    /// observed frequencies persist).
    pub runs_to_decide: Option<u64>,
    /// `runs_to_decide − runs`: how many more runs would likely decide it.
    pub more_runs: Option<u64>,
    /// Mean `τ` over stopped runs (NaN when none stopped).
    pub mean_tau: f64,
    /// Largest `τ` over all runs.
    pub max_tau: u64,
    /// Why the instance was skipped (the algorithm rejected it), if it was.
    pub skipped: Option<String>,
}

/// The whole audit.
#[derive(Debug, Clone, Serialize)]
pub struct DeltaReport {
    /// Algorithm name.
    pub algo: String,
    /// The threshold expression, if any.
    pub threshold: Option<String>,
    /// Overall verdict.
    pub verdict: Verdict,
    /// Total runs.
    pub runs: u64,
    /// Total errors.
    pub errors: u64,
    /// Total unstopped runs.
    pub unstopped: u64,
    /// Interval of the worst row (the only row for a single instance).
    pub ci: [f64; 2],
    /// `1 − α` of the whole audit.
    pub confidence: f64,
    /// `α` per instance (`α/m`).
    pub alpha_per_instance: f64,
    /// Master seed.
    pub seed: u64,
    /// Step cap.
    pub max_steps: u64,
    /// Rows, worst first.
    pub instances: Vec<DeltaRow>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

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
    let mut spec = AlgoSpec::new(cfg.algo, inst.delta);
    spec.eps = inst.eps;
    spec.gamma = cfg.gamma;
    spec.rules = cfg.rules;
    if let Some(c) = custom {
        spec.custom_threshold = Some(Arc::clone(c));
    } else if let Some(t) = &cfg.threshold {
        let eps = inst.eps.unwrap_or(f64::INFINITY);
        // The σ the engine passes to the threshold: 1 under the reference rules (their
        // statistic uses σ = 1), else the instance's. A mismatch only costs speed: `eval` falls
        // back to the general program.
        let sigma = if cfg.rules == Rules::Reference {
            1.0
        } else {
            inst.instance.sigma()
        };
        let bound = t.bind(inst.delta, inst.instance.k() as f64, eps, sigma)?;
        let base = crate::bandit::ThresholdVars {
            delta: inst.delta,
            k: inst.instance.k() as f64,
            eps,
            sigma,
            ..Default::default()
        };
        super::finite::probe(t.source(), &bound, &base)?;
        let checked = Arc::new(super::finite::Checked::new(bound, t.source()));
        spec.custom_threshold = Some(checked.clone() as Arc<dyn CustomThreshold>);
        return Ok((bandit::build(&spec, &inst.instance)?, Some(checked)));
    }
    Ok((bandit::build(&spec, &inst.instance)?, None))
}

/// A bound user threshold that checks its values during the runs.
pub(crate) type CheckedExpr = Arc<super::finite::Checked<super::expr::ThresholdExpr>>;

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
/// use dpbai::audit::{expr::parse_threshold, Verdict};
/// use dpbai::bandit::{AlgoName, Rules};
/// let cfg = DeltaAuditConfig {
///     algo: AlgoName::Ttucb,
///     gamma: None,
///     rules: Rules::Paper,
///     threshold: Some(parse_threshold("log(1/delta)/20").unwrap()), // deliberately unsafe
///     alpha: 1e-3,
///     seed: 1,
///     max_steps: 1_000_000,
///     plan: RunPlan::Fixed { runs: 300 },
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

/// [`audit_delta`] with the algorithm built by `build` instead of from `cfg.algo`,
/// `cfg.gamma`, `cfg.rules` and `cfg.threshold` (which then only label the report): the entry
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
/// use dpbai::bandit::{build, AlgoName, AlgoSpec, Rules};
/// let cfg = DeltaAuditConfig {
///     algo: AlgoName::Ttucb, gamma: None, rules: Rules::Paper, threshold: None,
///     alpha: 1e-3, seed: 1, max_steps: 1_000_000, plan: RunPlan::Fixed { runs: 200 },
/// };
/// let inst = vec![AuditInstance {
///     name: "easy".into(),
///     instance: dpbai::instance::Instance::bernoulli(vec![0.9, 0.1]).unwrap(),
///     delta: 0.1,
///     eps: None,
/// }];
/// let r = audit_delta_with(&cfg, &inst, &|i| build(&AlgoSpec::new(AlgoName::Ttucb, i.delta), &i.instance))
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
    check_open("alpha", cfg.alpha, 0.0, 1.0)?;
    if cfg.max_steps == 0 {
        return Err(Error::param("max_steps", 0, "at least 1"));
    }
    match cfg.plan {
        RunPlan::Fixed { runs: 0 } => return Err(Error::param("runs", 0, "at least 1")),
        RunPlan::UntilDecided { first, budget } if first == 0 || budget == 0 => {
            return Err(Error::param("budget", budget.min(first), "at least 1"))
        }
        _ => {}
    }
    if instances.is_empty() {
        return Err(Error::param("battery", "empty", "at least one instance"));
    }
    let start = std::time::Instant::now();
    let alpha_i = cfg.alpha / instances.len() as f64;
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
            format!("instances {} accepts", cfg.algo.as_str()),
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
        algo: cfg.algo.as_str().to_string(),
        threshold: cfg.threshold.as_ref().map(|t| t.source().to_string()),
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

// ------------------------------------------------------------------------------------------
// Batteries

/// The default stress battery for `algo` at the user's `δ` (and `ε`).
///
/// # Definition
/// Instances where weak thresholds fail first: two near-tied arms `(0.55, 0.45)`, many arms near
/// the best `(0.6, 0.5 ×7)`, means near 0 `(0.1, 0.02, 0.01)` and near 1 `(0.99, 0.9, 0.9)`,
/// Gaussian arms `N((0.5, 0.3, 0.3, 0), 0.5²)` (skipped by algorithms that need rewards in
/// `[0, 1]`); each at `δ` and, when `δ < 0.1`, also at `δ = 0.1` (more errors are allowed, so an
/// unsafe rule shows up with fewer runs). Private algorithms run at `ε` (default 1) on every
/// instance, plus `ε/5` on the near-tie instance (small `ε` is where privacy terms matter most).
///
/// # Errors
/// [`Error::InvalidParameter`] for `δ ∉ (0, 1)`.
///
/// # Example
/// ```
/// use dpbai::bandit::AlgoName;
/// let b = dpbai::audit::delta::default_battery(AlgoName::Ttucb, 0.01, None).unwrap();
/// assert_eq!(b.len(), 10);
/// ```
pub fn default_battery(algo: AlgoName, delta: f64, eps: Option<f64>) -> Result<Vec<AuditInstance>> {
    crate::params::check_delta("delta", delta)?;
    let mut deltas = vec![delta];
    if delta < 0.1 {
        deltas.push(0.1);
    }
    let epss: Vec<Option<f64>> = if algo.needs_eps() {
        let e = eps.unwrap_or(1.0);
        vec![Some(e), Some(e / 5.0)]
    } else {
        vec![None]
    };
    let base: Vec<(&str, Instance)> = vec![
        ("two-near-tied", Instance::bernoulli(vec![0.55, 0.45])?),
        (
            "many-near-best",
            Instance::bernoulli(vec![0.6, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5])?,
        ),
        ("near-zero", Instance::bernoulli(vec![0.1, 0.02, 0.01])?),
        ("near-one", Instance::bernoulli(vec![0.99, 0.9, 0.9])?),
        (
            "gaussian",
            Instance::gaussian(vec![0.5, 0.3, 0.3, 0.0], 0.5)?,
        ),
    ];
    let mut out = Vec::new();
    for (name, inst) in &base {
        for &d in &deltas {
            for (j, &e) in epss.iter().enumerate() {
                // The small-eps rows only on the near-tie instance (they are the slow ones).
                if j > 0 && *name != "two-near-tied" {
                    continue;
                }
                out.push(AuditInstance {
                    name: (*name).to_string(),
                    instance: inst.clone(),
                    delta: d,
                    eps: e,
                });
            }
        }
    }
    Ok(out)
}

/// One instance of a battery file (`[[instance]]` tables).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileInstance {
    name: Option<String>,
    #[serde(default = "default_family")]
    family: String,
    sigma: Option<f64>,
    means: Vec<f64>,
    delta: Option<f64>,
    eps: Option<f64>,
}

fn default_family() -> String {
    "bernoulli".into()
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct BatteryFile {
    instance: Vec<FileInstance>,
}

/// Parses a battery TOML file: a list of `[[instance]]` tables with `means` (required), `name`,
/// `family` (`bernoulli` default, or `gaussian` with `sigma`), `delta` and `eps` (default: the
/// command-line values).
///
/// # Errors
/// [`Error::Parse`] for malformed TOML or unknown keys; instance and parameter errors naming the
/// instance.
///
/// # Example
/// ```
/// let text = "[[instance]]\nmeans = [0.6, 0.4]\n";
/// let b = dpbai::audit::delta::parse_battery(text, 0.05, None).unwrap();
/// assert_eq!(b.len(), 1);
/// assert_eq!(b[0].delta, 0.05);
/// ```
pub fn parse_battery(text: &str, delta: f64, eps: Option<f64>) -> Result<Vec<AuditInstance>> {
    let file: BatteryFile =
        toml::from_str(text).map_err(|e| Error::Parse(format!("battery file: {}", e.message())))?;
    if file.instance.is_empty() {
        return Err(Error::param(
            "battery",
            "empty",
            "at least one [[instance]]",
        ));
    }
    let mut out = Vec::new();
    for (i, fi) in file.instance.into_iter().enumerate() {
        let name = fi.name.unwrap_or_else(|| format!("instance-{}", i + 1));
        let instance = match fi.family.as_str() {
            "bernoulli" => Instance::bernoulli(fi.means)?,
            "gaussian" => Instance::gaussian(fi.means, fi.sigma.unwrap_or(1.0))?,
            other => {
                return Err(Error::param(
                    format!("family of {name}"),
                    other,
                    "bernoulli or gaussian",
                ))
            }
        };
        let d = fi.delta.unwrap_or(delta);
        crate::params::check_delta(&format!("delta of {name}"), d)?;
        out.push(AuditInstance {
            name,
            instance,
            delta: d,
            eps: fi.eps.or(eps),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decide_rejects_bad_input() {
        assert!(decide(0, 0, 0, 0.1, 1e-3).is_err());
        assert!(decide(5, 6, 10, 0.1, 1e-3).is_err());
        assert!(decide(0, 0, 10, 0.0, 1e-3).is_err());
        assert!(decide(0, 0, 10, 0.1, 1.0).is_err());
        assert!(decide(0, 0, 10, f64::NAN, 1e-3).is_err());
    }

    #[test]
    fn unstopped_runs_only_widen_the_upper_bound() {
        let a = decide(0, 0, 1000, 0.01, 1e-3).expect("valid");
        let b = decide(0, 1000, 1000, 0.01, 1e-3).expect("valid");
        assert_eq!(a.lower, b.lower);
        assert_eq!(b.upper, 1.0);
        assert_eq!(b.verdict, Verdict::Inconclusive);
    }

    #[test]
    fn battery_file_parses_and_rejects() {
        let t = "[[instance]]\nname = \"g\"\nfamily = \"gaussian\"\nsigma = 2.0\nmeans = [1.0, 0.0]\ndelta = 0.2\neps = 0.5\n";
        let b = parse_battery(t, 0.05, None).expect("parses");
        assert_eq!(b[0].name, "g");
        assert_eq!(b[0].instance.sigma(), 2.0);
        assert_eq!((b[0].delta, b[0].eps), (0.2, Some(0.5)));
        assert!(parse_battery("[[instance]]\nmeans = [0.5, 0.5]\n", 0.1, None).is_err());
        assert!(parse_battery("[[instance]]\nmean = [0.5, 0.4]\n", 0.1, None).is_err());
        assert!(parse_battery(
            "[[instance]]\nmeans = [0.6, 0.4]\nfamily = \"poisson\"\n",
            0.1,
            None
        )
        .is_err());
        assert!(parse_battery("instance = []\n", 0.1, None).is_err());
    }

    #[test]
    fn default_battery_covers_the_stress_cases() {
        let b = default_battery(AlgoName::Ttucb, 0.01, None).expect("builds");
        assert!(b.iter().any(|i| i.delta == 0.1));
        assert!(b
            .iter()
            .any(|i| matches!(i.instance.family(), Family::Gaussian { .. })));
        let p = default_battery(AlgoName::AdapTt, 0.01, Some(1.0)).expect("builds");
        assert!(p.iter().any(|i| i.eps == Some(0.2)));
    }
}
