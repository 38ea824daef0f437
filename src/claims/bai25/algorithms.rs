//! B.6 and B.7: DP-TT's privacy (the exact audit of its release mechanism, with its planted
//! mutants as the auditor's power) and the δ-correctness of the poster's printed threshold
//! shape (`dp-tt-poster`, a δ audit over a declared space, with the audit's power). Both are
//! gathered once by [`super::PAPER`]'s evidence gathering and cached ([`Audits`]).

use crate::audit::Verdict as AuditVerdict;
use crate::audit::delta::{AuditInstance, DeltaAuditConfig, RunPlan, audit_delta};
use crate::audit::dp::{
    DpOptions, DpReport, MECHANISMS, MUTANTS, Mode, MutantBase, Target, audit_dp,
};
use crate::bandit::{AlgoName, Sampling, Setting};
use crate::claims::prelude::*;
use crate::instance::Instance;
use crate::numbers::sig;

/// The name of DP-TT's release mechanism in `audit dp` ([`MECHANISMS`]).
const MECHANISM: &str = "dp-tt";

/// The claimed ε of B.6's audits.
const EPS: f64 = 1.0;

/// The master seed of B.6's audits.
const DP_SEED: u64 = 6;

/// The master seed of B.7's δ audit.
const DELTA_SEED: u64 = 7;

/// The confidence parameter of both audits (confidence `1 − α` for the whole audit).
const ALPHA: f64 = 1e-3;

/// The step cap of one δ-audit run.
const MAX_STEPS: u64 = 10_000_000;

/// The planted mutants of DP-TT: those whose base is its release mechanism, the algorithm, or a
/// whole run with a bug in its releases.
fn dp_tt_mutants() -> impl Iterator<Item = &'static crate::audit::dp::Mutant> {
    MUTANTS.iter().filter(|m| match m.base {
        MutantBase::Mechanism(mu) => mu.base == MECHANISM,
        MutantBase::Algo { algo, .. } => algo == AlgoName::DpTt,
        MutantBase::DpTtRun(_) => true,
    })
}

/// B.6's audits: DP-TT's release mechanism exactly, and every planted mutant of DP-TT.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct DpAudit {
    /// The exact audit of the faithful mechanism, or its error.
    pub faithful: Result<DpReport, String>,
    /// Per mutant: its name and whether the auditor reported it violated (with the loss or the
    /// bound it found).
    pub mutants: Vec<(String, bool, String)>,
}

/// What B.6's audits compute from, for the cache key of [`DpAudit`].
pub fn dp_audit_inputs() -> serde_json::Value {
    serde_json::json!({
        "eps": EPS, "alpha": ALPHA, "seed": DP_SEED, "mechanism": MECHANISM,
        "mutants": dp_tt_mutants().map(|m| m.name).collect::<Vec<_>>(),
        "engine": crate::bandit::semantics::semantics(AlgoName::DpTt).version,
    })
}

fn dp(target: Target, mode: Mode) -> Result<DpReport, String> {
    audit_dp(
        &target,
        &DpOptions {
            eps: EPS,
            gamma: 1e-5,
            mode,
            runs: None,
            alpha: ALPHA,
            seed: DP_SEED,
        },
    )
    .map_err(|e| e.to_string())
}

/// Runs B.6's audits.
pub fn dp_audit() -> DpAudit {
    let faithful = MECHANISMS
        .iter()
        .find(|m| m.name == MECHANISM)
        .ok_or_else(|| format!("no mechanism {MECHANISM} in the auditor"))
        .and_then(|m| dp(Target::Mechanism(m), Mode::Exact));
    let mutants = dp_tt_mutants()
        .map(|m| match dp(Target::Mutant(*m), Mode::Auto) {
            Ok(r) => (
                m.name.to_string(),
                r.verdict == AuditVerdict::Violated,
                format!(
                    "{} {}: {}",
                    r.mode,
                    r.loss_exact.map_or_else(
                        || format!("ε_lower = {}", sig(r.eps_lower, 3)),
                        |l| format!("loss {}", sig(l, 6))
                    ),
                    r.verdict.as_str()
                ),
            ),
            Err(e) => (m.name.to_string(), false, format!("error {e}")),
        })
        .collect();
    DpAudit { faithful, mutants }
}

crate::statistics! {
    /// The statistics of B.6.
    pub struct B6Stats { loss, eps_claimed, mutants_caught, mutants }
}

/// B.6: DP-TT is ε-global DP.
pub static B6: Claim<B6Stats> = Claim {
    id: "B.6",
    title: "DP-TT is ε-global DP",
    source: "[BAI25] poster",
    statement: "for observations in [0, 1], DP-TT is ε-global DP: each reward enters one phase increment with its own Lap(1/ε), the increments use disjoint data and every decision is post-processing",
    row: Some(Row {
        claim: "DP-TT is ε-global DP",
        formula: "phase increments + Lap(1/ε), parallel composition, post-processing",
        source: "[BAI25] poster",
    }),
    wording: None,
    statistic: "loss: the exact worst-case privacy loss of DP-TT's release mechanism (the per-phase Laplace releases of `audit dp --mechanism dp-tt`, neighbouring reward sequences in [0, 1]) at claimed eps_claimed = 1; mutants_caught of mutants: DP-TT's planted bugs (half-scale noise, a noiseless phase) the auditor reports violated",
    rule: Rule {
        confirm: Some("loss <= eps_claimed and mutants_caught == mutants and mutants >= 2"),
        refute: Some("loss > eps_claimed"),
        decide: Some(
            "an exact audit of the release mechanism with an auditor that catches every planted bug",
        ),
        ..Rule::NONE
    },
    fair: "the privacy of DP-TT rests on its release mechanism (every decision is post-processing of the released sums and counts): its output law is computed exactly, so the loss is a number, not an estimate; an auditor that misses a planted bug of the same mechanism has no power, and the claim is then not confirmed",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Exact,
    check: b6,
};

fn b6(ctx: &mut Context) -> Checked<B6Stats> {
    if !ctx.experiments {
        return Checked::Skipped;
    }
    if let Err(e) = crate::fault::check(Area::Audit) {
        ctx.evidence.record(e.to_string());
        return Checked::Failed(e.to_string());
    }
    let Some(a) = ctx.bai25.as_ref().and_then(|a| a.dp.as_ref()) else {
        ctx.evidence
            .record("the privacy audit of DP-TT was not gathered");
        return Checked::Failed("the privacy audit of DP-TT was not gathered".into());
    };
    let loss = match &a.faithful {
        Ok(r) => r.loss_exact.unwrap_or(f64::NAN),
        Err(e) => {
            ctx.evidence.record(format!("audit of {MECHANISM}: {e}"));
            f64::NAN
        }
    };
    let caught = a.mutants.iter().filter(|(_, c, _)| *c).count();
    let rows: Vec<String> = a
        .mutants
        .iter()
        .map(|(n, _, what)| format!("{n}: {what}"))
        .collect();
    Checked::done(
        format!(
            "`dpbai audit dp --mechanism dp-tt --eps 1 --mode exact`: exact loss {} at claimed ε = {EPS} ({}); planted bugs: {}; {caught} of {} reported violated",
            sig(loss, 6),
            a.faithful.as_ref().map_or("error", |r| r.verdict.as_str()),
            rows.join("; "),
            a.mutants.len()
        ),
        B6Stats {
            loss,
            eps_claimed: EPS,
            mutants_caught: caught as f64,
            mutants: a.mutants.len() as f64,
        },
    )
}

/// The declared space of B.7's δ audit: `(name, means)` at every ε of [`delta_audit_eps`].
pub fn delta_audit_instances() -> Vec<(&'static str, Vec<f64>)> {
    vec![
        ("k2-gap0.1", vec![0.6, 0.5]),
        ("k2-gap0.3", vec![0.8, 0.5]),
        ("k5-gap0.1", vec![0.6, 0.5, 0.5, 0.5, 0.5]),
        ("k5-gap0.3", vec![0.9, 0.6, 0.6, 0.6, 0.6]),
    ]
}

/// The ε of B.7's declared space.
pub fn delta_audit_eps() -> [f64; 3] {
    [0.1, 1.0, 10.0]
}

/// The risks of B.7's declared space: δ = 0.1 (where a violation is cheapest to see), and in
/// the paper profile also the figure's δ = 0.01.
pub fn delta_audit_deltas(full: bool) -> Vec<f64> {
    if full { vec![0.1, 0.01] } else { vec![0.1] }
}

/// Runs per instance of B.7's δ audit.
pub fn delta_audit_runs(full: bool) -> u64 {
    if full { 3000 } else { 300 }
}

/// B.7's δ audit, summarised.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct DeltaAudit {
    /// The overall verdict (`holds`, `violated`, `inconclusive`), or the error.
    pub verdict: Result<String, String>,
    /// Rows audited.
    pub rows: u32,
    /// Rows certified to hold.
    pub holds: u32,
    /// Rows certified violated.
    pub violated: u32,
    /// Wrong stops over all runs.
    pub errors: u64,
    /// Runs capped over all runs.
    pub capped: u64,
    /// Runs per row.
    pub runs: u64,
    /// `α` per row (the audit's `α` over the rows).
    pub alpha_row: f64,
    /// The largest upper confidence bound of a row's error rate, over the rows.
    pub worst_upper: f64,
    /// The smallest true error rate, as a multiple of the row's δ, that the audit reports
    /// violated with probability at least 0.9 on a row of `runs` runs at the largest δ.
    pub power90: f64,
    /// The row lines of the report.
    pub lines: Vec<String>,
}

/// What B.7's audit computes from, for the cache key of [`DeltaAudit`].
pub fn delta_audit_inputs(full: bool) -> serde_json::Value {
    serde_json::json!({
        "threshold": "dp-tt-poster", "runs": delta_audit_runs(full), "alpha": ALPHA,
        "seed": DELTA_SEED, "max_steps": MAX_STEPS, "instances": delta_audit_instances(),
        "eps": delta_audit_eps(), "deltas": delta_audit_deltas(full),
        "engine": crate::bandit::semantics::semantics(AlgoName::DpTt).version,
    })
}

/// The smallest number of wrong stops in `n` runs that a row at risk `delta` and level `alpha`
/// reports violated (its lower Clopper–Pearson bound at `α/2` above `δ`).
fn min_errors_violated(n: u64, delta: f64, alpha: f64) -> Option<u64> {
    (0..=n).find(|&k| crate::stats::cp_lower(k, n, alpha / 2.0).is_ok_and(|l| l > delta))
}

/// The error rate `p` at which `P(Bin(n, p) >= k) = 0.9` (bisection; the tail
/// `P(Bin(n, p) >= k) = I_p(k, n − k + 1)` increases in `p`).
fn rate_with_power(n: u64, k: u64) -> f64 {
    let tail = |p: f64| {
        if k == 0 {
            1.0
        } else {
            crate::stats::beta_reg(k as f64, (n - k + 1) as f64, p).unwrap_or(f64::NAN)
        }
    };
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if tail(mid) >= 0.9 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// Runs B.7's δ audit.
pub fn delta_audit(full: bool) -> DeltaAudit {
    let runs = delta_audit_runs(full);
    let mut instances = Vec::new();
    let mut error = None;
    for (name, means) in delta_audit_instances() {
        for &d in &delta_audit_deltas(full) {
            for e in delta_audit_eps() {
                match Instance::bernoulli(means.clone()) {
                    Ok(instance) => instances.push(AuditInstance {
                        name: format!("{name} ε={e} δ={d}"),
                        instance,
                        delta: d,
                        eps: Some(e),
                    }),
                    Err(err) => error = Some(err.to_string()),
                }
            }
        }
    }
    let report = Setting::paper(AlgoName::DpTt, 0.1)
        .map_err(|e| e.to_string())
        .and_then(|setting| {
            if let Some(e) = error {
                return Err(e);
            }
            let threshold = crate::threshold::expr::parse_threshold("dp-tt-poster")
                .map_err(|e| e.to_string())?;
            audit_delta(
                &DeltaAuditConfig {
                    setting,
                    threshold: Some(threshold),
                    alpha: ALPHA,
                    seed: DELTA_SEED,
                    max_steps: MAX_STEPS,
                    plan: RunPlan::Fixed { runs },
                    sampling: Sampling::Algorithm,
                },
                &instances,
            )
            .map_err(|e| e.to_string())
        });
    let alpha_row = ALPHA / instances.len().max(1) as f64;
    let dmax = delta_audit_deltas(full)[0];
    let power90 = min_errors_violated(runs, dmax, alpha_row)
        .map_or(f64::INFINITY, |k| rate_with_power(runs, k) / dmax);
    match report {
        Ok(r) => DeltaAudit {
            verdict: Ok(r.verdict.as_str().to_string()),
            rows: r.instances.len() as u32,
            holds: r
                .instances
                .iter()
                .filter(|x| x.verdict == AuditVerdict::Holds)
                .count() as u32,
            violated: r
                .instances
                .iter()
                .filter(|x| x.verdict == AuditVerdict::Violated)
                .count() as u32,
            errors: r.errors,
            capped: r.unstopped,
            runs,
            alpha_row: r.alpha_per_instance,
            worst_upper: r.instances.iter().map(|x| x.ci[1]).fold(0.0, f64::max),
            power90,
            lines: r
                .instances
                .iter()
                .map(|x| {
                    format!(
                        "{}: {} errors, {} capped, upper {} ({}), mean τ {}",
                        x.name,
                        x.errors,
                        x.unstopped,
                        sig(x.ci[1], 3),
                        x.verdict.as_str(),
                        sig(x.mean_tau, 3)
                    )
                })
                .collect(),
        },
        Err(e) => DeltaAudit {
            verdict: Err(e),
            rows: 0,
            holds: 0,
            violated: 0,
            errors: 0,
            capped: 0,
            runs,
            alpha_row,
            worst_upper: f64::NAN,
            power90,
            lines: Vec::new(),
        },
    }
}

crate::statistics! {
    /// The statistics of B.7.
    pub struct B7Stats { rows, rows_holds, rows_violated, capped, power90_over_delta }
}

/// B.7: DP-TT with the poster's threshold shape is δ-correct.
pub static B7: Claim<B7Stats> = Claim {
    id: "B.7",
    title: "DP-TT with the poster's threshold is δ-correct",
    source: "[BAI25] poster",
    statement: "DP-TT is δ-correct for thresholds that satisfy c(n, ε, δ) ≈ log(1/δ) + log(n)·log(1 + ε·n/log n) (the printed shape, shipped as the preset dp-tt-poster: approximate, not proven)",
    row: Some(Row {
        claim: "DP-TT δ-correct (printed threshold)",
        formula: "`c ≈ log(1/δ) + log n·log(1 + εn/log n)` ⇒ `P(τ<∞, â≠a*) ≤ δ`",
        source: "[BAI25] poster",
    }),
    wording: None,
    statistic: "rows_holds/rows_violated of rows: `audit delta --algo dp-tt --threshold dp-tt-poster` rows certified to hold / violated at confidence 1 − 1e-3 over the declared space (K ∈ {2, 5}, gap ∈ {0.1, 0.3}, ε ∈ {0.1, 1, 10}, δ = 0.1; the paper profile adds δ = 0.01 and has ten times the runs); capped: runs that hit the cap; power90_over_delta: the smallest true error rate, in units of δ, that a row reports violated with probability ≥ 0.9 (the audit's power)",
    rule: Rule {
        confirm: Some("rows_holds == rows and rows_violated == 0 and capped == 0 and rows > 0"),
        refute: Some("rows_violated > 0"),
        decide: Some(
            "more runs per row (so every row's Clopper–Pearson bound falls below its δ), and no capped run",
        ),
        ..Rule::NONE
    },
    fair: "a finite audit can certify δ-correctness only on the space it covers and only up to its power: confirmed when every row of the declared space is certified to hold (upper bound below δ, no capped run); refuted when a row is certified violated; the power says how large an error rate could have been missed",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Finite,
    check: b7,
};

fn b7(ctx: &mut Context) -> Checked<B7Stats> {
    if !ctx.experiments {
        return Checked::Skipped;
    }
    if let Err(e) = crate::fault::check(Area::Audit) {
        ctx.evidence.record(e.to_string());
        return Checked::Failed(e.to_string());
    }
    let Some(a) = ctx.bai25.as_ref().and_then(|a| a.delta.as_ref()) else {
        ctx.evidence.record("the δ audit of DP-TT was not gathered");
        return Checked::Failed("the δ audit of DP-TT was not gathered".into());
    };
    let verdict = match &a.verdict {
        Ok(v) => v.clone(),
        Err(e) => {
            ctx.evidence.record(format!("δ audit of dp-tt: {e}"));
            return Checked::Failed(e.clone());
        }
    };
    Checked::done(
        format!(
            "`audit delta --algo dp-tt --threshold dp-tt-poster`, {} runs per row, confidence 1 − 1e-3 (α = {} per row): {verdict}; {} of {} rows hold, {} violated, {} wrong stops and {} capped runs in all; the largest upper bound of a row's error rate is {}; a row reports a violation with probability ≥ 0.9 once the true error rate is {}·δ (the audit's power). Rows: {}",
            a.runs,
            sig(a.alpha_row, 3),
            a.holds,
            a.rows,
            a.violated,
            a.errors,
            a.capped,
            sig(a.worst_upper, 3),
            sig(a.power90, 3),
            a.lines.join("; ")
        ),
        B7Stats {
            rows: f64::from(a.rows),
            rows_holds: f64::from(a.holds),
            rows_violated: f64::from(a.violated),
            capped: a.capped as f64,
            power90_over_delta: a.power90,
        },
    )
}

/// The audits of B.6 and B.7, gathered before the claims are judged.
#[derive(Debug, Clone, Default)]
pub struct Audits {
    /// B.6's privacy audit.
    pub dp: Option<DpAudit>,
    /// B.7's δ audit.
    pub delta: Option<DeltaAudit>,
}
