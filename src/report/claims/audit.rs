//! Claim checks by the auditors: privacy of the mechanisms and algorithms (F.59) and
//! δ-correctness of the provable thresholds (F.60), with the planted bugs as power checks.

use super::context::{Check, Context};
use super::record::{claim as result, flag, skipped, stats, ClaimResult};
use crate::audit::delta::{audit_delta, default_battery, DeltaAuditConfig, RunPlan};
use crate::audit::dp::{audit_dp, DpOptions, Mode, Target, MECHANISMS, MUTANTS};
use crate::audit::Verdict as AuditVerdict;
use crate::bandit::info::{pure_top_two, PrivacyModel};
use crate::bandit::{AlgoName, Sampling, Setting};
use crate::report::numbers::sig;
use crate::threshold::expr::parse_threshold;

/// `δ` of the default battery these checks audit.
const BATTERY_DELTA: f64 = 0.01;

/// The paper setting of `algo` for the battery (its `δ`, `ε` replaced per instance).
fn battery_setting(algo: AlgoName) -> Setting {
    Setting::paper(algo, BATTERY_DELTA).expect("invariant: δ = 0.01 is in range")
}

/// The checks of this module.
pub fn checks() -> Vec<Check> {
    vec![f59, f60, f60_uniform]
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

fn f59(ctx: &mut Context) -> ClaimResult {
    if !ctx.experiments {
        return skipped(
            "F.59",
            "privacy of the algorithms",
            "L. 12, L. 20, L. 31, Thm. 32",
            "CTB is ε-LDP; DAF-based strategies are ε-global DP",
        );
    }
    let mut rows = Vec::new();
    // Counts of audit verdicts: mechanisms (exact) and algorithms (black box).
    let (mut mech_holds, mut algo_holds, mut violated) = (0u32, 0u32, 0u32);
    // The pure ε-DP mechanisms, then the approximate one.
    let mut mechanisms: Vec<_> = MECHANISMS.iter().collect();
    mechanisms.sort_by_key(|m| m.approximate);
    for m in mechanisms {
        match dp(Target::Mechanism(m), Mode::Exact) {
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
                ctx.evidence.record(format!("audit of {m:?}: {e}"));
                rows.push(format!("{m:?}: error {e}"));
            }
        }
    }
    for a in [AlgoName::CtbTt, AlgoName::AdapTt, AlgoName::AdapTtStar] {
        match dp(Target::Algo(a), Mode::BlackBox) {
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
                ctx.evidence.record(format!("audit of {}: {e}", a.as_str()));
                rows.push(format!("{}: error {e}", a.as_str()));
            }
        }
    }
    let mut caught = 0;
    for m in MUTANTS {
        if dp(Target::Mutant(m), Mode::Auto)
            .map(|r| r.verdict == AuditVerdict::Violated)
            .unwrap_or(false)
        {
            caught += 1;
        }
    }
    result(
        "F.59",
        "privacy of the algorithms",
        "L. 12, L. 20, L. 31, Thm. 32",
        "CTB is ε-LDP; DAF-based strategies (AdaP-TT, AdaP-TT*) are ε-global DP on neighbouring reward tables (Def. 8)",
        format!(
            "claimed ε = {EPS}, confidence 1 − 1e-3: {}; the auditor's power: {caught} of {} planted bugs reported violated",
            rows.join("; "),
            MUTANTS.len()
        ),
        stats([
            ("mechanisms_holds", f64::from(mech_holds)),
            ("algorithms_holds", f64::from(algo_holds)),
            ("violated", f64::from(violated)),
            ("mutants_caught", caught as f64),
            ("mutants", MUTANTS.len() as f64),
        ]),
    )
}

/// The δ audits of F.60 under `sampling`: the default battery of each algorithm, `runs` runs per
/// row, and the deliberately unsafe threshold on TTUCB as the power check.
struct BatteryAudit {
    rows: Vec<String>,
    holds: u32,
    violated: u32,
    total: u32,
    capped: u64,
    unsafe_caught: bool,
}

fn battery_audit(ctx: &Context, runs: u64, sampling: Sampling) -> BatteryAudit {
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
    };
    // Non-private, then local (at ε = 1), then global (at ε = 0.5) algorithms.
    let mut algos: Vec<AlgoName> = pure_top_two().collect();
    algos.sort_by_key(|a| a.info().privacy);
    for algo in algos {
        let eps = match algo.info().privacy {
            PrivacyModel::NonPrivate => None,
            PrivacyModel::Local => Some(1.0),
            PrivacyModel::Global => Some(0.5),
        };
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
                ctx.evidence
                    .record(format!("δ audit of {}: {e}", algo.as_str()));
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

fn battery_stats(a: &BatteryAudit) -> super::record::Stats {
    stats([
        ("rows_holds", f64::from(a.holds)),
        ("rows_violated", f64::from(a.violated)),
        ("rows", f64::from(a.total)),
        ("capped", a.capped as f64),
        ("unsafe_caught", flag(a.unsafe_caught)),
    ])
}

fn f60(ctx: &mut Context) -> ClaimResult {
    if !ctx.experiments {
        return skipped(
            "F.60",
            "δ-correctness of the thresholds",
            "Sec. 2.2.3, L. 21, L. 23, L. 34",
            "the provable thresholds are δ-correct",
        );
    }
    let runs = if ctx.full { 1000 } else { 100 };
    let a = battery_audit(ctx, runs, Sampling::Algorithm);
    result(
        "F.60",
        "δ-correctness of the thresholds",
        "Sec. 2.2.3, L. 21, L. 23, L. 34",
        "Eq. (4), (12), (14) and L. 34's thresholds give P(τ < ∞, â ≠ a*) ≤ δ",
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

fn f60_uniform(ctx: &mut Context) -> ClaimResult {
    let (id, title, source) = (
        "F.60/uniform",
        "δ-correctness of the thresholds under uniform sampling",
        "Sec. 2.2.3, L. 21, L. 23, L. 34",
    );
    let paper = "the thresholds are δ-correct for any sampling rule: here uniform allocation";
    if !ctx.experiments {
        return skipped(id, title, source, paper);
    }
    let runs = if ctx.full { 1000 } else { 100 };
    let a = battery_audit(ctx, runs, Sampling::Uniform);
    result(
        id,
        title,
        source,
        "Eq. (4), (12), (14) and L. 34's thresholds give P(τ < ∞, â ≠ a*) ≤ δ for any sampling rule",
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
