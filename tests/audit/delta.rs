//! The δ-correctness verdict at the binomial edges (closed forms of Clopper-Pearson) and the
//! δ-correctness audits with the real algorithms (`src/audit/delta`); heavy checks run with
//! `cargo test --release -- --ignored heavy_`.

use super::{assert_usage_error, vars};
use crate::common::data_path;
use dpbai::audit::Verdict;
use dpbai::audit::delta::{AuditInstance, DeltaAuditConfig, RunPlan, audit_delta, default_battery};
use dpbai::audit::delta::{decide, runs_to_decide};
use dpbai::bandit::{AlgoName, Setting};
use dpbai::instance::Instance;
use dpbai::threshold::expr::{ThresholdExpr, parse_threshold};
use proptest::prelude::*;

// ------------------------------------------------------------------------------------------
// Verdict logic at the edges (closed forms of Clopper-Pearson)

proptest! {
    #![proptest_config(crate::common::prop_config(256))]

    /// k = 0: the upper bound is the closed form 1 − (α/2)^{1/n}, the lower bound 0; the verdict
    /// is `holds` iff that bound is <= δ, and never `violated`.
    #[test]
    fn zero_errors_use_the_closed_form(n in 1u64..2_000_000, delta in 1e-6f64..0.999, la in -9.0f64..-1.0) {
        let alpha = 10f64.powf(la);
        let d = decide(0, 0, n, delta, alpha).unwrap();
        let want = 1.0 - (alpha / 2.0).powf(1.0 / n as f64);
        prop_assert!((d.upper - want).abs() <= 1e-12 * want.max(1e-300) + 1e-15);
        prop_assert_eq!(d.lower, 0.0);
        prop_assert_ne!(d.verdict, Verdict::Violated);
        prop_assert_eq!(d.verdict == Verdict::Holds, d.upper <= delta);
    }

    /// k = n: the lower bound is (α/2)^{1/n}, the upper bound 1; `violated` iff that bound > δ,
    /// never `holds`.
    #[test]
    fn all_errors_use_the_closed_form(n in 1u64..2_000_000, delta in 1e-6f64..0.999, la in -9.0f64..-1.0) {
        let alpha = 10f64.powf(la);
        let d = decide(n, 0, n, delta, alpha).unwrap();
        let want = (alpha / 2.0).powf(1.0 / n as f64);
        prop_assert!((d.lower - want).abs() <= 1e-12 * want);
        prop_assert_eq!(d.upper, 1.0);
        prop_assert_ne!(d.verdict, Verdict::Holds);
        prop_assert_eq!(d.verdict == Verdict::Violated, d.lower > delta);
    }

    /// All runs unstopped: nothing can be certified either way (lower 0, upper 1).
    #[test]
    fn all_unstopped_is_inconclusive(n in 1u64..1_000_000, delta in 1e-6f64..0.999) {
        let d = decide(0, n, n, delta, 1e-3).unwrap();
        prop_assert_eq!(d.verdict, Verdict::Inconclusive);
        prop_assert_eq!((d.lower, d.upper), (0.0, 1.0));
    }

    /// The projected run count at k = 0 matches the closed form ⌈log(α/2)/log(1 − δ)⌉.
    #[test]
    fn runs_to_decide_at_zero_errors(delta in 1e-4f64..0.5, la in -6.0f64..-1.0) {
        let alpha = 10f64.powf(la);
        let n = runs_to_decide(0, 0, 1, delta, alpha).unwrap().unwrap();
        let exact = (alpha / 2.0).ln() / (1.0 - delta).ln();
        prop_assert!((n as f64 - exact.ceil()).abs() <= 1.0, "{} vs {}", n, exact);
    }

    /// The parser never panics, whatever the input (syntax errors are `Err`).
    #[test]
    fn parser_never_panics(s in "\\PC{0,80}") {
        let _ = ThresholdExpr::parse(&s);
    }

    /// Nor on inputs made of the language's own tokens (a denser search of near-valid text).
    #[test]
    fn parser_never_panics_on_token_soup(
        toks in prop::collection::vec(
            prop::sample::select(vec!["(", ")", ",", "+", "-", "*", "/", "^", "1", "2.5e-3", "delta",
                "K", "na", "log", "min", "h", "ifge", "cg", "k", "pi", " "]),
            0..60)
    ) {
        let s: String = toks.concat();
        if let Ok(c) = ThresholdExpr::parse(&s) {
            let _ = c.eval(&vars(0.01, 5.0, 1.0, 0.5, 3.0, 4.0, 0.1));
        }
    }
}

// ------------------------------------------------------------------------------------------
// δ-correctness audits with the real algorithms

pub(super) fn delta_cfg(
    algo: AlgoName,
    threshold: Option<&str>,
    plan: RunPlan,
) -> DeltaAuditConfig {
    DeltaAuditConfig {
        setting: Setting::paper(algo, 0.1).expect("valid δ"),
        threshold: threshold.map(|t| parse_threshold(t).expect("parses")),
        alpha: 1e-3,
        seed: 11,
        max_steps: 10_000_000,
        plan,
        sampling: dpbai::bandit::Sampling::Algorithm,
    }
}

/// Each instance's δ and ε replace the template's; the rest of the setting is kept, and an
/// instance's out-of-range δ or ε is refused before anything runs.
#[test]
fn audit_setting_takes_each_instance_delta_and_eps() {
    let mut cfg = delta_cfg(AlgoName::AdapTt, None, RunPlan::Fixed { runs: 1 });
    cfg.setting.tie_break = dpbai::bandit::TieBreak::Uniform;
    let mut inst = AuditInstance {
        name: "x".into(),
        instance: Instance::bernoulli(vec![0.6, 0.4]).expect("valid"),
        delta: 0.02,
        eps: Some(0.5),
    };
    let s = cfg.setting_for(&inst).expect("valid");
    assert_eq!((s.delta.get(), s.eps_value()), (0.02, Some(0.5)));
    assert_eq!(s.tie_break, dpbai::bandit::TieBreak::Uniform);
    assert_eq!(s.algo, AlgoName::AdapTt);
    inst.eps = Some(0.0);
    assert!(cfg.setting_for(&inst).is_err());
    inst.eps = None;
    assert_eq!(cfg.setting_for(&inst).expect("valid").eps, None);
    inst.delta = 1.0;
    assert!(cfg.setting_for(&inst).is_err());
}

/// An unsafe threshold (log(1/δ)/20 on TTUCB) is `violated` on the default battery.
#[test]
fn unsafe_threshold_is_violated_on_the_default_battery() {
    let b = default_battery(AlgoName::Ttucb, 0.01, None).expect("battery");
    let cfg = delta_cfg(
        AlgoName::Ttucb,
        Some("unsafe-log-over-20"),
        RunPlan::UntilDecided {
            first: 100,
            budget: 2000,
        },
    );
    let r = audit_delta(&cfg, &b).expect("runs");
    assert_eq!(r.verdict, Verdict::Violated);
    assert_eq!(r.instances[0].verdict, Verdict::Violated);
    // Worst first: among violated rows, the excess of the lower bound over δ decreases.
    let lows: Vec<f64> = r
        .instances
        .iter()
        .filter(|x| x.verdict == Verdict::Violated)
        .map(|x| x.ci[0] - x.delta)
        .collect();
    assert!(lows.windows(2).all(|w| w[0] >= w[1]));
}

/// The paper's threshold (Eq. (4), TTUCB) is not `violated` (small run count; the full battery
/// is in the ignored test below).
#[test]
fn provable_threshold_is_not_violated_small() {
    let inst = vec![AuditInstance {
        name: "near-tie".into(),
        instance: Instance::bernoulli(vec![0.55, 0.45]).expect("valid"),
        delta: 0.1,
        eps: None,
    }];
    for t in [None, Some("paper-cg")] {
        let r = audit_delta(
            &delta_cfg(AlgoName::Ttucb, t, RunPlan::Fixed { runs: 300 }),
            &inst,
        )
        .expect("runs");
        assert_ne!(r.verdict, Verdict::Violated, "{t:?}");
        assert_eq!(r.runs, 300);
    }
}

/// Sequential looks: α_j = α 2^{-j}, cumulative runs doubling from `first`, stop when decisive.
#[test]
fn until_decided_spends_alpha_geometrically() {
    let inst = vec![AuditInstance {
        name: "easy".into(),
        instance: Instance::bernoulli(vec![0.9, 0.1]).expect("valid"),
        delta: 0.2,
        eps: None,
    }];
    let r = audit_delta(
        &delta_cfg(
            AlgoName::Ttucb,
            None,
            RunPlan::UntilDecided {
                first: 10,
                budget: 10_000,
            },
        ),
        &inst,
    )
    .expect("runs");
    let row = &r.instances[0];
    assert_eq!(row.verdict, Verdict::Holds);
    // 0 errors: holds once 1 − (α_j/2)^{1/n_j} <= 0.2, i.e. n_j = 10·2^{j−1} >= log(α_j/2)/log(0.8).
    let j = row.looks as i32;
    assert_eq!(row.runs, 10 << (j - 1));
    assert!((row.alpha_look - 1e-3 * 0.5f64.powi(j)).abs() < 1e-18);
    let need = |jj: i32| ((1e-3 * 0.5f64.powi(jj) / 2.0).ln() / 0.8f64.ln()).ceil() as u64;
    assert!(row.runs >= need(j));
    assert!((10u64 << (j - 2)) < need(j - 1));
}

/// Same seed, same report (runs are seeded per index and reduced with integer sums).
#[test]
fn delta_audit_is_reproducible() {
    let inst = vec![AuditInstance {
        name: "x".into(),
        instance: Instance::bernoulli(vec![0.6, 0.5]).expect("valid"),
        delta: 0.1,
        eps: None,
    }];
    let cfg = delta_cfg(
        AlgoName::Ttucb,
        Some("log(1/delta)/4"),
        RunPlan::Fixed { runs: 200 },
    );
    let a = audit_delta(&cfg, &inst).expect("runs");
    let b = audit_delta(&cfg, &inst).expect("runs");
    assert_eq!(a.instances[0].errors, b.instances[0].errors);
    assert_eq!(
        a.instances[0].mean_tau.to_bits(),
        b.instances[0].mean_tau.to_bits()
    );
}

#[test]
fn cli_delta_json_has_the_documented_fields() {
    let (code, out, err) = crate::common::run_cli(&[
        "audit",
        "delta",
        "--algo",
        "ttucb",
        "--battery",
        "default",
        "--delta",
        "0.1",
        "--threshold",
        "log(1/delta)/20",
        "--runs",
        "200",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let verdict = v["verdict"].as_str().expect("verdict");
    assert_eq!(code, crate::common::verdict_code(verdict), "{err}");
    assert_eq!(v["verdict"], "violated");
    for key in [
        "verdict",
        "runs",
        "errors",
        "ci",
        "confidence",
        "seed",
        "instances",
    ] {
        assert!(v.get(key).is_some(), "{key}");
    }
    let rows = v["instances"].as_array().expect("rows");
    assert!(rows.len() >= 5);
    for key in [
        "verdict",
        "runs",
        "errors",
        "unstopped",
        "ci",
        "delta",
        "means",
    ] {
        assert!(rows[0].get(key).is_some(), "{key}");
    }
}

// ------------------------------------------------------------------------------------------
// Heavy acceptance checks (run with `cargo test --release -- --ignored audit::delta::heavy`)

/// The AdaP-TT rule without its privacy term, at small ε, is violated on the default battery.
#[test]
#[ignore = "heavy: minutes"]
fn heavy_adap_tt_without_privacy_term_is_violated() {
    let t = "unsafe-adap-tt-no-privacy";
    let b = default_battery(AlgoName::AdapTt, 0.01, Some(0.5)).expect("battery");
    let mut cfg = delta_cfg(
        AlgoName::AdapTt,
        Some(t),
        RunPlan::UntilDecided {
            first: 100,
            budget: 1000,
        },
    );
    cfg.max_steps = 1_000_000;
    let start = std::time::Instant::now();
    let r = audit_delta(&cfg, &b).expect("runs");
    eprintln!(
        "adap-tt without privacy term: {} in {:.1} s",
        r.verdict,
        start.elapsed().as_secs_f64()
    );
    assert_eq!(r.verdict, Verdict::Violated);
}

/// The paper's provable thresholds are never violated on the default battery.
#[test]
#[ignore = "heavy: minutes"]
fn heavy_provable_thresholds_are_never_violated() {
    for (algo, eps) in [
        (AlgoName::Ttucb, None),
        (AlgoName::CtbTt, Some(1.0)),
        (AlgoName::AdapTt, Some(1.0)),
        (AlgoName::AdapTtStar, Some(1.0)),
    ] {
        let b = default_battery(algo, 0.01, eps).expect("battery");
        let mut cfg = delta_cfg(algo, None, RunPlan::Fixed { runs: 500 });
        cfg.max_steps = 1_000_000;
        let start = std::time::Instant::now();
        let r = audit_delta(&cfg, &b).expect("runs");
        eprintln!(
            "{}: {} ({} runs, {} errors, {} unstopped) in {:.1} s",
            algo.as_str(),
            r.verdict,
            r.runs,
            r.errors,
            r.unstopped,
            start.elapsed().as_secs_f64()
        );
        assert_ne!(r.verdict, Verdict::Violated, "{}", algo.as_str());
    }
}

#[test]
fn cli_reads_a_battery_file() {
    let path = data_path("audit_battery_example.toml");
    let (code, out, err) = crate::common::run_cli(&[
        "audit",
        "delta",
        "--algo",
        "ttucb",
        "--battery",
        path.to_str().expect("utf-8 path"),
        "--delta",
        "0.1",
        "--threshold",
        "log(1/delta)/20",
        "--runs",
        "100",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let verdict = v["verdict"].as_str().expect("verdict");
    assert_eq!(code, crate::common::verdict_code(verdict), "{err}");
    let rows = v["instances"].as_array().expect("rows");
    assert_eq!(rows.len(), 3);
    assert!(
        rows.iter()
            .any(|r| r["name"] == "three-arms-easy-delta" && r["delta"] == 0.2)
    );
    assert_usage_error(
        &[
            "audit",
            "delta",
            "--algo",
            "ttucb",
            "--battery",
            "/nonexistent.toml",
            "--delta",
            "0.1",
        ],
        "cannot read battery file",
    );
}

/// Exact error probabilities of the verdict at the boundary p = δ (no simulation): summing the
/// Binomial(n, δ) law over the counts k that give each verdict, P(violated) <= α/2 and
/// P(holds) <= α/2 (the worst case of both errors, since P(violated) increases and P(holds)
/// decreases in p), as the Clopper–Pearson construction promises.
#[test]
fn verdict_error_probabilities_are_at_most_alpha_over_2_at_the_boundary() {
    use statrs::distribution::{Binomial, Discrete};
    for &n in &[1u64, 7, 50, 333, 1000] {
        for &delta in &[0.01, 0.1, 0.37] {
            for &alpha in &[1e-3, 0.05, 0.3] {
                let law = Binomial::new(delta, n).expect("valid");
                let (mut p_viol, mut p_holds) = (0.0, 0.0);
                for k in 0..=n {
                    let d = decide(k, 0, n, delta, alpha).expect("valid");
                    match d.verdict {
                        Verdict::Violated => p_viol += law.pmf(k),
                        Verdict::Holds => p_holds += law.pmf(k),
                        Verdict::Inconclusive => {}
                        Verdict::NoViolationFound => panic!("a δ-audit never says that"),
                    }
                }
                assert!(
                    p_viol <= alpha / 2.0 * (1.0 + 1e-9),
                    "n {n} δ {delta} α {alpha}: {p_viol}"
                );
                assert!(
                    p_holds <= alpha / 2.0 * (1.0 + 1e-9),
                    "n {n} δ {delta} α {alpha}: {p_holds}"
                );
            }
        }
    }
}
