//! Claim checks by the auditors: privacy of the mechanisms and algorithms (F.59) and
//! δ-correctness of the provable thresholds (F.60), with the planted bugs as power checks.

use crate::audit::Verdict as AuditVerdict;
use crate::audit::delta::{DeltaAuditConfig, RunPlan, audit_delta, default_battery};
use crate::audit::dp::{DpOptions, DpReport, MECHANISMS, MUTANTS, Mode, Target, audit_dp};
use crate::bandit::info::{PrivacyModel, pure_top_two};
use crate::bandit::{AlgoName, Sampling, Setting};
use crate::claims::prelude::*;
use crate::numbers::sig;
use crate::threshold::expr::parse_threshold;

/// `δ` of the default battery these checks audit.
const BATTERY_DELTA: f64 = 0.01;

/// The paper setting of `algo` for the battery (its `δ`, `ε` replaced per instance).
fn battery_setting(algo: AlgoName) -> Setting {
    Setting::paper(algo, BATTERY_DELTA).expect("invariant: δ = 0.01 is in range")
}

const EPS: f64 = 1.0;
const SEED: u64 = 59;

fn dp(target: Target, mode: Mode) -> Result<crate::audit::dp::DpReport, String> {
    audit_dp(
        &target,
        &DpOptions {
            eps: EPS,
            gamma: 1e-5,
            mode,
            runs: None,
            alpha: 1e-3,
            seed: SEED,
        },
    )
    .map_err(|e| e.to_string())
}

crate::statistics! {
    /// The statistics of F.59.
    pub struct F59Stats { mechanisms_holds, algorithms_holds, violated, mutants_caught, mutants }
}

/// F.59: privacy of the algorithms.
pub static F59: Claim<F59Stats> = Claim {
    id: "F.59",
    title: "privacy of the algorithms",
    source: "L. 12, L. 20, L. 31, Thm. 32",
    statement: "CTB is ε-LDP; DAF-based strategies (AdaP-TT, AdaP-TT*) are ε-global DP on neighbouring reward tables (Def. 8)",
    row: Some(Row {
        claim: "privacy of algorithms",
        formula: "CTB ε-LDP; DAF-based strategies ε-global DP (Def. 8 tables)",
        source: "L. 12, L. 20, L. 31, Thm. 32",
    }),
    wording: None,
    statistic: "mechanisms_holds: exact audits of RR, Laplace, DAF, Gaussian certified to hold at ε = 1 (confidence 1 − 1e-3); algorithms_holds: black-box audits of CTB-TT, AdaP-TT, AdaP-TT* certified to hold; violated: audits certified violated; mutants_caught of mutants: planted bugs the auditor reports violated",
    rule: Rule {
        confirm: Some(
            "mechanisms_holds == 4 and algorithms_holds == 3 and violated == 0 and mutants_caught == mutants",
        ),
        refute: Some("violated > 0"),
        decide: Some(
            "an audit that certifies the algorithms themselves (white-box, or black-box with enough runs), with an auditor that catches every planted bug",
        ),
        ..Rule::NONE
    },
    fair: "the claim is about mechanisms and algorithms: both halves must be certified; a black-box audit that finds no violation certifies nothing, and an auditor that misses a planted bug has no power",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Exact,
    check: f59,
};

/// The privacy audits of F.59 (computed once by the evidence gathering, cached): every
/// mechanism exactly, the algorithms as black boxes, and every planted mutant.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct DpAudits {
    /// Per mechanism (pure ε-DP first): its report or the error.
    pub mechanisms: Vec<(String, Result<DpReport, String>)>,
    /// Per algorithm (CTB-TT, AdaP-TT, AdaP-TT*): its black-box report or the error.
    pub algorithms: Vec<(String, Result<DpReport, String>)>,
    /// Per planted mutant: whether the auditor reported it violated.
    pub mutants: Vec<(String, bool)>,
}

/// The algorithms F.59 audits as black boxes.
pub const AUDITED_ALGORITHMS: [AlgoName; 3] =
    [AlgoName::CtbTt, AlgoName::AdapTt, AlgoName::AdapTtStar];

/// The mechanism of the second paper (\[BAI25\]'s DP-TT release), left out of F.59: it is
/// that paper's evidence, not the seed's.
const SECOND_PAPER_MECHANISM: &str = "dp-tt";

/// The mechanisms F.59 audits: the seed paper's.
fn seed_mechanisms() -> impl Iterator<Item = &'static crate::audit::dp::MechanismInfo> {
    MECHANISMS
        .iter()
        .filter(|m| m.name != SECOND_PAPER_MECHANISM)
}

/// The mutants F.59 must catch: those of the seed paper's mechanisms and algorithms.
fn seed_mutants() -> impl Iterator<Item = &'static crate::audit::dp::Mutant> {
    MUTANTS.iter().filter(|m| match m.base {
        crate::audit::dp::MutantBase::Mechanism(mu) => mu.base != SECOND_PAPER_MECHANISM,
        crate::audit::dp::MutantBase::Algo { .. } => true,
        crate::audit::dp::MutantBase::DpTtRun(_) => false,
    })
}

/// What F.59's audits compute from, for the cache key of [`DpAudits`].
pub fn dp_audit_inputs() -> serde_json::Value {
    serde_json::json!({
        "eps": EPS, "gamma": 1e-5, "alpha": 1e-3, "seed": SEED,
        "mechanisms": seed_mechanisms().map(|m| m.name).collect::<Vec<_>>(),
        "algorithms": AUDITED_ALGORITHMS.iter().map(|a| (a.as_str(), crate::bandit::semantics::semantics(*a).version)).collect::<Vec<_>>(),
        "mutants": seed_mutants().map(|m| m.name).collect::<Vec<_>>(),
    })
}

/// Runs F.59's audits.
pub fn dp_audits() -> DpAudits {
    // The pure ε-DP mechanisms, then the approximate one.
    let mut mechanisms: Vec<_> = seed_mechanisms().collect();
    mechanisms.sort_by_key(|m| m.approximate);
    DpAudits {
        mechanisms: mechanisms
            .into_iter()
            .map(|m| (format!("{m:?}"), dp(Target::Mechanism(m), Mode::Exact)))
            .collect(),
        algorithms: AUDITED_ALGORITHMS
            .iter()
            .map(|&a| (a.as_str().to_string(), dp(Target::Algo(a), Mode::BlackBox)))
            .collect(),
        mutants: seed_mutants()
            .map(|m| {
                let caught = dp(Target::Mutant(*m), Mode::Auto)
                    .map(|r| r.verdict == AuditVerdict::Violated)
                    .unwrap_or(false);
                (m.name.to_string(), caught)
            })
            .collect(),
    }
}

fn f59(ctx: &mut Context) -> Checked<F59Stats> {
    if !ctx.experiments {
        return Checked::Skipped;
    }
    // The audits are evidence of the `audit` area: a fault there reaches them here.
    if let Err(e) = crate::fault::check(Area::Audit) {
        ctx.evidence.record(e.to_string());
        return Checked::Failed(e.to_string());
    }
    let Some(audits) = ctx.audits.as_ref().and_then(|a| a.dp.as_ref()) else {
        ctx.evidence.record("the privacy audits were not gathered");
        return Checked::Failed("the privacy audits were not gathered".into());
    };
    let mut rows = Vec::new();
    // Counts of audit verdicts: mechanisms (exact) and algorithms (black box).
    let (mut mech_holds, mut algo_holds, mut violated) = (0u32, 0u32, 0u32);
    for (m, r) in &audits.mechanisms {
        match r {
            Ok(r) => {
                mech_holds += u32::from(r.verdict == AuditVerdict::Holds);
                violated += u32::from(r.verdict == AuditVerdict::Violated);
                let what = match (r.loss_exact, r.gamma_exact) {
                    (_, Some(g)) => format!("γ(ε) = {}", sig(g, 2)),
                    (Some(l), None) => format!("loss {}", sig(l, 6)),
                    _ => "—".into(),
                };
                rows.push(format!(
                    "{} exact: {what} ({})",
                    r.target,
                    r.verdict.as_str()
                ));
            }
            Err(e) => {
                ctx.evidence.record(format!("audit of {m}: {e}"));
                rows.push(format!("{m}: error {e}"));
            }
        }
    }
    for (a, r) in &audits.algorithms {
        match r {
            Ok(r) => {
                algo_holds += u32::from(r.verdict == AuditVerdict::Holds);
                violated += u32::from(r.verdict == AuditVerdict::Violated);
                rows.push(format!(
                    "{} black-box: ε_lower = {} ({})",
                    r.target,
                    sig(r.eps_lower, 3),
                    r.verdict.as_str()
                ));
            }
            Err(e) => {
                ctx.evidence.record(format!("audit of {a}: {e}"));
                rows.push(format!("{a}: error {e}"));
            }
        }
    }
    let caught = audits.mutants.iter().filter(|(_, c)| *c).count();
    Checked::done(
        format!(
            "claimed ε = {EPS}, confidence 1 − 1e-3: {}; the auditor's power: {caught} of {} planted bugs reported violated",
            rows.join("; "),
            audits.mutants.len()
        ),
        F59Stats {
            mechanisms_holds: f64::from(mech_holds),
            algorithms_holds: f64::from(algo_holds),
            violated: f64::from(violated),
            mutants_caught: caught as f64,
            mutants: audits.mutants.len() as f64,
        },
    )
}

/// The δ audits of F.60 under a sampling rule (computed once by the evidence gathering, cached):
/// the default battery of each algorithm, `runs` runs per row, and the deliberately unsafe
/// threshold on TTUCB as the power check.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct BatteryAudit {
    rows: Vec<String>,
    holds: u32,
    violated: u32,
    total: u32,
    capped: u64,
    unsafe_caught: bool,
    /// Audits that failed outright (recorded as evidence errors when judged).
    errors: Vec<String>,
}

/// The algorithms of F.60's battery, non-private, then local (at ε = 1), then global (at ε =
/// 0.5), with their ε.
fn battery_algorithms() -> Vec<(AlgoName, Option<f64>)> {
    let mut algos: Vec<AlgoName> = pure_top_two().collect();
    algos.sort_by_key(|a| a.info().privacy);
    algos
        .into_iter()
        .map(|algo| {
            let eps = match algo.info().privacy {
                PrivacyModel::NonPrivate => None,
                PrivacyModel::Local => Some(1.0),
                PrivacyModel::Global => Some(0.5),
            };
            (algo, eps)
        })
        .collect()
}

/// What F.60's battery audit computes from, for the cache key of [`BatteryAudit`].
pub fn battery_inputs(runs: u64, sampling: Sampling) -> serde_json::Value {
    serde_json::json!({
        "runs": runs, "sampling": format!("{sampling:?}"), "seed": 60, "alpha": 1e-3,
        "max_steps": 10_000_000u64, "delta": BATTERY_DELTA, "unsafe": "log(1/delta)/20",
        "algorithms": battery_algorithms().iter().map(|(a, e)| (a.as_str(), e, crate::bandit::semantics::semantics(*a).version)).collect::<Vec<_>>(),
    })
}

/// Runs F.60's battery audit with `runs` runs per row under `sampling`.
pub fn battery_audit(runs: u64, sampling: Sampling) -> BatteryAudit {
    let config = |algo: AlgoName, threshold| DeltaAuditConfig {
        setting: battery_setting(algo),
        threshold,
        alpha: 1e-3,
        seed: 60,
        max_steps: 10_000_000,
        plan: RunPlan::Fixed { runs },
        sampling,
    };
    let mut out = BatteryAudit {
        rows: Vec::new(),
        holds: 0,
        violated: 0,
        total: 0,
        capped: 0,
        unsafe_caught: false,
        errors: Vec::new(),
    };
    for (algo, eps) in battery_algorithms() {
        out.total += 1;
        let rep = default_battery(algo, BATTERY_DELTA, eps)
            .and_then(|b| audit_delta(&config(algo, None), &b))
            .map_err(|e| e.to_string());
        match rep {
            Ok(r) => {
                out.holds += u32::from(r.verdict == AuditVerdict::Holds);
                out.violated += u32::from(r.verdict == AuditVerdict::Violated);
                out.capped += r.unstopped;
                out.rows.push(format!(
                    "{}: {} ({} errors, {} capped in {} runs)",
                    algo.as_str(),
                    r.verdict.as_str(),
                    r.errors,
                    r.unstopped,
                    r.runs
                ));
            }
            Err(e) => {
                out.errors
                    .push(format!("δ audit of {}: {e}", algo.as_str()));
                out.rows.push(format!("{}: error {e}", algo.as_str()));
            }
        }
    }
    // Power: a deliberately unsafe threshold must be caught on the same battery.
    out.unsafe_caught = parse_threshold("log(1/delta)/20")
        .ok()
        .and_then(|t| {
            default_battery(AlgoName::Ttucb, BATTERY_DELTA, None)
                .and_then(|b| audit_delta(&config(AlgoName::Ttucb, Some(t)), &b))
                .ok()
        })
        .is_some_and(|r| r.verdict == AuditVerdict::Violated);
    out
}

crate::statistics! {
    /// The statistics of F.60 and F.60/uniform.
    pub struct F60Stats { rows_holds, rows_violated, rows, capped, unsafe_caught }
}

/// Runs per row of F.60's battery (the paper profile: 1000).
pub fn battery_runs(full: bool) -> u64 {
    if full { 1000 } else { 100 }
}

/// The gathered battery audit under `sampling`, its errors recorded; `None` (recorded) when it
/// was not gathered or a fault is injected into the `audit` area.
fn battery(ctx: &Context, sampling: Sampling) -> Option<BatteryAudit> {
    if let Err(e) = crate::fault::check(Area::Audit) {
        ctx.evidence.record(e.to_string());
        return None;
    }
    let a = ctx.audits.as_ref().and_then(|a| match sampling {
        Sampling::Algorithm => a.battery.clone(),
        Sampling::Uniform => a.battery_uniform.clone(),
    });
    match &a {
        Some(a) => a.errors.iter().for_each(|e| ctx.evidence.record(e.clone())),
        None => ctx.evidence.record("the δ audits were not gathered"),
    }
    a
}

/// The audits F.59 and F.60 read, gathered before the claims are judged.
#[derive(Debug, Clone, Default)]
pub struct Audits {
    /// F.59's privacy audits.
    pub dp: Option<DpAudits>,
    /// F.60's battery under the algorithms' own sampling.
    pub battery: Option<BatteryAudit>,
    /// F.60/uniform's battery under uniform sampling.
    pub battery_uniform: Option<BatteryAudit>,
}

fn battery_stats(a: &BatteryAudit) -> F60Stats {
    F60Stats {
        rows_holds: f64::from(a.holds),
        rows_violated: f64::from(a.violated),
        rows: f64::from(a.total),
        capped: a.capped as f64,
        unsafe_caught: flag(a.unsafe_caught),
    }
}

/// F.60: δ-correctness of the thresholds.
pub static F60: Claim<F60Stats> = Claim {
    id: "F.60",
    title: "δ-correctness of the thresholds",
    source: "Sec. 2.2.3, L. 21, L. 23, L. 34",
    statement: "Eq. (4), (12), (14) and L. 34's thresholds give P(τ < ∞, â ≠ a*) ≤ δ",
    row: Some(Row {
        claim: "δ-correct thresholds",
        formula: "Eq. (4), (12), (14), L. 34 ⇒ `P(τ<∞, â≠a*) ≤ δ` for any sampling rule",
        source: "Sec. 2.2.3, L. 21, L. 23, L. 34",
    }),
    wording: None,
    statistic: "rows_holds/rows_violated of rows: `audit delta` rows (TTUCB, DPA-TT, CTB-TT, AdaP-TT, AdaP-TT* on the default battery) certified to hold / violated at confidence 1 − 1e-3 by the rate P(τ < ∞, â ≠ a*); capped: runs that hit the cap (a conservative reading counts them as failures); unsafe_caught: 1 if a deliberately unsafe threshold is reported violated",
    rule: Rule {
        confirm: Some(
            "rows_holds == rows and rows_violated == 0 and capped == 0 and unsafe_caught == 1",
        ),
        refute: Some("rows_violated > 0"),
        decide: Some(
            "about 1000 runs per row at δ = 0.01 (so the Clopper–Pearson bound can fall below δ), and no capped run (or a cap high enough that the conservative rate agrees)",
        ),
        ..Rule::NONE
    },
    fair: "the paper's definition is P(τ < ∞, â ≠ a*) ≤ δ: certified when every row's upper bound is below δ and no capped run could turn the conservative rate against it; refuted only when a row is certified violated",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Finite,
    check: f60,
};

fn f60(ctx: &mut Context) -> Checked<F60Stats> {
    if !ctx.experiments {
        return Checked::Skipped;
    }
    let runs = battery_runs(ctx.full);
    let Some(a) = battery(ctx, Sampling::Algorithm) else {
        return Checked::Failed("the δ audits were not gathered".into());
    };
    Checked::done(
        format!(
            "`audit delta` on the default battery (δ ∈ {{0.01, 0.1}}, near ties, means near 0 and 1, Gaussian arms), \
             {runs} runs per row, confidence 1 − 1e-3: {}; an unsafe threshold log(1/δ)/20 on TTUCB is caught: \
             {}; {} runs capped (counted as failures by the conservative reading). Never violated \
             is what {runs} runs can show; `holds` at δ = 0.01 needs ~1000 runs per row",
            a.rows.join("; "),
            a.unsafe_caught,
            a.capped
        ),
        battery_stats(&a),
    )
}

/// F.60/uniform: δ-correctness of the thresholds under uniform sampling.
pub static F60_UNIFORM: Claim<F60Stats> = Claim {
    id: "F.60/uniform",
    title: "δ-correctness of the thresholds under uniform sampling",
    source: "Sec. 2.2.3, L. 21, L. 23, L. 34",
    statement: "Eq. (4), (12), (14) and L. 34's thresholds give P(τ < ∞, â ≠ a*) ≤ δ for any sampling rule",
    row: None,
    wording: None,
    statistic: "as F.60, with every run sampling the arms uniformly (round robin, `audit delta --sampling uniform`) and each algorithm's estimator, statistic and threshold: rows_holds/rows_violated of rows, capped, unsafe_caught",
    rule: Rule {
        confirm: Some(
            "rows_holds == rows and rows_violated == 0 and capped == 0 and unsafe_caught == 1",
        ),
        refute: Some("rows_violated > 0"),
        decide: Some(
            "about 1000 runs per row at δ = 0.01 (so the Clopper–Pearson bound can fall below δ), and no capped run",
        ),
        ..Rule::NONE
    },
    fair: "the statement is for any sampling rule, so a rule other than the algorithms' own must pass the same audit; the rule is F.60's, fixed before this evidence was computed",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Finite,
    check: f60_uniform,
};

fn f60_uniform(ctx: &mut Context) -> Checked<F60Stats> {
    if !ctx.experiments {
        return Checked::Skipped;
    }
    let runs = battery_runs(ctx.full);
    let Some(a) = battery(ctx, Sampling::Uniform) else {
        return Checked::Failed("the δ audits were not gathered".into());
    };
    Checked::done(
        format!(
            "`audit delta --sampling uniform` (round robin, with each algorithm's estimator, statistic and \
             threshold) on the default battery, {runs} runs per row, confidence 1 − 1e-3: {}; the unsafe \
             threshold log(1/δ)/20 on TTUCB is caught: {}; {} runs capped",
            a.rows.join("; "),
            a.unsafe_caught,
            a.capped
        ),
        battery_stats(&a),
    )
}
