//! Audit a stopping threshold written in Rust, end to end.
//!
//! `cargo run --release --example audit_my_threshold`
//!
//! Two rules for TTUCB, written as closures of the variables the engine passes
//! (`dpbai::bandit::ThresholdVars`): the paper's Eq. (4) threshold computed by hand, and a
//! deliberately weak `log(1/δ)/20`. Each is audited with the exact Clopper–Pearson auditor on a
//! near-tied two-armed instance; the weak one is caught (`violated`), the paper's `holds`.

use dpbai::audit::Verdict;
use dpbai::audit::custom::with_threshold;
use dpbai::audit::delta::{AuditInstance, DeltaAuditConfig, RunPlan, audit_delta_with};
use dpbai::bandit::{AlgoName, Setting, ThresholdVars};
use dpbai::instance::Instance;

/// Eq. (4): `2 C_G(log((K−1)/δ)/2) + 2 log(4 + log na) + 2 log(4 + log nb)`.
fn paper_eq4(v: &ThresholdVars) -> f64 {
    let cg = dpbai::special::c_g(((v.k - 1.0) / v.delta).ln() / 2.0).unwrap_or(f64::NAN);
    2.0 * cg + 2.0 * (4.0 + v.na.ln()).ln() + 2.0 * (4.0 + v.nb.ln()).ln()
}

/// Audits both rules; returns one line per rule (`name: verdict [lo, hi]`).
pub fn run() -> dpbai::Result<Vec<(String, Verdict, [f64; 2])>> {
    let cfg = DeltaAuditConfig {
        // δ and ε are each instance's.
        setting: Setting::paper(AlgoName::Ttucb, 0.1)?,
        threshold: None,
        alpha: 1e-3,
        seed: 17,
        max_steps: 1_000_000,
        plan: RunPlan::UntilDecided {
            first: 100,
            budget: 1600,
        },
        sampling: dpbai::bandit::Sampling::Algorithm,
    };
    let battery = vec![AuditInstance {
        name: "near-tie".into(),
        instance: Instance::bernoulli(vec![0.6, 0.4])?,
        delta: 0.1,
        eps: None,
    }];
    let mut out = Vec::new();
    let weak = with_threshold(&cfg, |v: &ThresholdVars| (1.0 / v.delta).ln() / 20.0);
    let r = audit_delta_with(&cfg, &battery, &weak)?;
    out.push(("log(1/delta)/20".to_string(), r.verdict, r.ci));
    let paper = with_threshold(&cfg, paper_eq4);
    let r = audit_delta_with(&cfg, &battery, &paper)?;
    out.push(("paper Eq. (4) in Rust".to_string(), r.verdict, r.ci));
    Ok(out)
}

fn main() -> dpbai::Result<()> {
    for (name, verdict, ci) in run()? {
        println!(
            "{name:<24} {verdict:<12} error-rate CI [{:.3e}, {:.3e}]",
            ci[0], ci[1]
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_weak_rule_is_caught_and_the_paper_rule_holds() {
        let r = super::run().expect("audits run");
        assert_eq!(r[0].1, dpbai::audit::Verdict::Violated, "{r:?}");
        assert_eq!(r[1].1, dpbai::audit::Verdict::Holds, "{r:?}");
    }
}
