//! Integration tests for `audit`: threshold expressions and presets, the δ-correctness verdict
//! logic at the binomial edges, exact privacy losses, and the `dpbai audit` command line.

use crate::common::load_toml;
use crate::common::{data_path, rel_err};
use dpbai::audit::delta::{decide, runs_to_decide};
use dpbai::audit::dp::{gaussian_eps, gaussian_gamma};
use dpbai::audit::expr::{parse_threshold, preset, ThresholdExpr, PRESETS};
use dpbai::audit::Verdict;
use dpbai::bandit::ThresholdVars;
use proptest::prelude::*;

fn vars(delta: f64, k: f64, eps: f64, sigma: f64, na: f64, nb: f64, gap: f64) -> ThresholdVars {
    ThresholdVars {
        delta,
        k,
        eps,
        sigma,
        t: na + nb,
        na,
        nb,
        ka: 1.0,
        kb: 1.0,
        gap,
    }
}

/// READINGS.md §D.1 reference vectors (K = 5, δ = 0.01, σ = 1/2), quoted to 7-8 digits.
#[test]
fn presets_match_math_md_reference_vectors() {
    let cases: [(&str, f64, f64, f64, f64, f64); 6] = [
        ("paper-cg", 8.0, 16.0, f64::INFINITY, 0.0, 16.723265),
        ("paper-cg", 1.0, 1.0, f64::INFINITY, 0.0, 14.832850),
        ("paper-adap-tt", 8.0, 16.0, 0.5, 0.0, 397.76956),
        ("paper-adap-tt", 64.0, 128.0, 1.0, 0.0, 69.852841),
        ("paper-adap-tt-star", 8.0, 16.0, 0.5, 0.1, 369.52433),
        ("paper-adap-tt-star-printed", 8.0, 16.0, 0.5, 0.3, 29.156878),
    ];
    for (name, na, nb, eps, gap, want) in cases {
        let c = parse_threshold(name).expect("preset parses");
        let got = c.eval(&vars(0.01, 5.0, eps, 0.5, na, nb, gap));
        assert!(
            rel_err(got, want) < 5e-7,
            "{name}({na},{nb}): {got} vs {want}"
        );
        // The run-constant specialisation gives the same value.
        let b = c.bind(0.01, 5.0, eps, 0.5).expect("binds");
        let got_b = b.eval(&vars(0.01, 5.0, eps, 0.5, na, nb, gap));
        assert!(
            rel_err(got_b, got) < 1e-14,
            "{name} bound: {got_b} vs {got}"
        );
    }
}

/// Presets against independent mpmath values (verify/golden_audit_presets.py).
#[test]
fn presets_match_mpmath_golden_file() {
    let g = load_toml("audit_presets.toml");
    let tol = g["tolerance_rel"].as_float().expect("tolerance");
    let cases = g["case"].as_array().expect("cases");
    assert!(cases.len() > 300);
    let num = |v: &toml::Value| -> f64 {
        v.as_float()
            .or_else(|| v.as_integer().map(|i| i as f64))
            .expect("number")
    };
    for c in cases {
        let name = c["preset"].as_str().expect("name");
        let eps = num(&c["eps"]);
        let v = vars(
            num(&c["delta"]),
            num(&c["K"]),
            eps,
            num(&c["sigma"]),
            num(&c["na"]),
            num(&c["nb"]),
            num(&c["gap"]),
        );
        let want = num(&c["value"]);
        let got = parse_threshold(name).expect("preset").eval(&v);
        assert!(rel_err(got, want) < tol, "{name} {v:?}: {got} vs {want}");
    }
}

#[test]
fn every_preset_is_listed_and_parses() {
    for p in PRESETS {
        let text = preset(p.name).expect("listed preset has a text");
        ThresholdExpr::parse(&text).expect("preset parses");
    }
}

/// Gaussian privacy profile against mpmath quadrature (verify/golden_audit_gaussian.py).
#[test]
fn gaussian_profile_matches_mpmath_quadrature() {
    let g = load_toml("audit_gaussian.toml");
    let tol = g["tolerance_rel"].as_float().expect("tolerance");
    let num = |v: &toml::Value| -> f64 {
        v.as_float()
            .or_else(|| v.as_integer().map(|i| i as f64))
            .expect("number")
    };
    for c in g["case"].as_array().expect("cases") {
        let (eps, sigma, sens) = (num(&c["eps"]), num(&c["sigma"]), num(&c["sensitivity"]));
        let want = num(&c["gamma"]);
        let got = gaussian_gamma(eps, sigma, sens).expect("valid");
        // The closed form loses about 1e-16·e^ε·Φ absolute to cancellation.
        let abs_slack = 4e-16 * (1.0 + eps.exp());
        assert!(
            rel_err(got, want) < tol || (got - want).abs() < abs_slack,
            "gamma({eps}, {sigma}, {sens}) = {got} vs {want}"
        );
        if want > 1e-6 && want < 0.5 {
            let e = gaussian_eps(want, sigma, sens).expect("valid");
            assert!(
                (e - eps).abs() < 1e-9 * (1.0 + eps),
                "eps({want}) = {e} vs {eps}"
            );
        }
    }
}

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
// Command line: bad input is a one-line error with exit code 2

fn assert_usage_error(args: &[&str], needle: &str) {
    let (code, out, err) = crate::common::run_cli(args);
    assert_eq!(code, 2, "{args:?}: stdout {out} stderr {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line expected: {err}"
    );
    assert!(
        err.contains(needle),
        "{args:?}: {err} should contain {needle}"
    );
}

#[test]
fn cli_bad_input_exits_2_with_one_line() {
    let base = [
        "audit", "delta", "--algo", "ttucb", "--means", "0.5,0.4", "--delta", "0.1",
    ];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut v: Vec<&'static str> = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    assert_usage_error(
        &with(&["--threshold", "log(1/deta)"]),
        "unknown variable 'deta' at column 7",
    );
    assert_usage_error(
        &with(&["--threshold", "log(1/delta"]),
        "or ')' in the call of log, found end of expression at column 12",
    );
    assert_usage_error(
        &with(&["--threshold", "foo(delta)"]),
        "unknown function 'foo'",
    );
    assert_usage_error(&with(&["--runs", "0"]), "runs = 0");
    assert_usage_error(&with(&["--until-decided", "--budget", "0"]), "budget = 0");
    assert_usage_error(&with(&["--alpha", "0"]), "alpha");
    assert_usage_error(
        &[
            "audit", "delta", "--algo", "ttucb", "--means", "0.5,0.4", "--delta", "1.5",
        ],
        "delta = 1.5",
    );
    assert_usage_error(
        &[
            "audit", "delta", "--algo", "ttucb", "--means", "0.5,0.5", "--delta", "0.1",
        ],
        "not unique",
    );
    assert_usage_error(
        &["audit", "delta", "--algo", "ttucb", "--delta", "0.1"],
        "--means",
    );
}

#[test]
fn cli_lists_presets() {
    let (code, out, _) = crate::common::run_cli(&["audit", "delta", "--list-presets"]);
    assert_eq!(code, 0);
    for p in PRESETS {
        assert!(out.contains(p.name));
    }
}

// ------------------------------------------------------------------------------------------
// Privacy audits: every mutant violated, every faithful target not

use dpbai::audit::dp::{
    audit_dp, mutant, DpOptions, MechanismName, Mode, MutantBase, Target, MUTANTS,
};

fn dp_opts(mode: Mode, runs: Option<u64>) -> DpOptions {
    DpOptions {
        eps: 1.0,
        gamma: dpbai::audit::dp::DEFAULT_GAMMA,
        mode,
        runs,
        alpha: 1e-3,
        seed: 7,
    }
}

#[test]
fn every_mechanism_mutant_is_violated_in_exact_mode() {
    for m in MUTANTS {
        if !matches!(m.base, MutantBase::Mechanism(_)) {
            continue;
        }
        let r = audit_dp(&Target::Mutant(m), &dp_opts(Mode::Auto, None)).expect("runs");
        assert_eq!(r.mode, "exact");
        assert_eq!(r.verdict, Verdict::Violated, "{}: {r:?}", m.name);
        assert!(r.eps_lower > 1.0, "{}", m.name);
    }
}

/// Closed forms of the exact losses (ε = 1): Laplace at half scale 2ε; RR with the keep
/// probability of 2ε: 2ε; DAF without forgetting on 32 samples (6 phases): the first sample
/// shifts phase 1 by 1 (scale 1/ε) and phase k >= 2 by 1/2^{k−1} (scale 1/(ε 2^{k−2})), so
/// ε(1 + 5/2) = 3.5ε; faithful mechanisms: exactly ε (scales rounded up: <= ε).
#[test]
fn exact_losses_match_closed_forms() {
    let loss = |t: Target| {
        audit_dp(&t, &dp_opts(Mode::Exact, None))
            .expect("runs")
            .loss_exact
            .expect("exact")
    };
    let m = |n: &str| Target::Mutant(mutant(n).expect("known"));
    assert!((loss(m("laplace-half-scale")) - 2.0).abs() < 1e-12);
    assert!((loss(m("rr-wrong-keep")) - 2.0).abs() < 1e-12);
    assert!((loss(m("daf-no-forgetting")) - 3.5).abs() < 1e-12);
    for name in [
        MechanismName::Rr,
        MechanismName::Laplace,
        MechanismName::Daf,
    ] {
        let l = loss(Target::Mechanism(name));
        assert!(l <= 1.0 + 1e-12 && l > 1.0 - 1e-12, "{name:?}: {l}");
    }
    let g = audit_dp(
        &Target::Mechanism(MechanismName::Gaussian),
        &dp_opts(Mode::Exact, None),
    )
    .expect("runs");
    assert_eq!(g.verdict, Verdict::Holds);
    assert!(g.gamma_exact.expect("gamma") <= dpbai::audit::dp::DEFAULT_GAMMA);
}

/// Black box: each mutant (mechanisms, and whole algorithms run at 4ε while claiming ε) is
/// caught from samples alone (pre-registered α = 1e-3, fixed seed), and no faithful mechanism
/// is flagged.
#[test]
fn black_box_catches_every_mutant_and_spares_faithful_mechanisms() {
    for m in MUTANTS {
        let r = audit_dp(&Target::Mutant(m), &dp_opts(Mode::BlackBox, None)).expect("runs");
        assert_eq!(r.verdict, Verdict::Violated, "{}: {r:?}", m.name);
    }
    for name in [
        MechanismName::Rr,
        MechanismName::Laplace,
        MechanismName::Gaussian,
        MechanismName::Daf,
    ] {
        let r = audit_dp(&Target::Mechanism(name), &dp_opts(Mode::BlackBox, None)).expect("runs");
        assert_ne!(r.verdict, Verdict::Violated, "{name:?}: {r:?}");
        assert!(r.eps_lower <= 1.0);
    }
}

#[test]
fn whole_algorithms_are_not_flagged() {
    for algo in [AlgoName::CtbTt, AlgoName::AdapTt, AlgoName::AdapTtStar] {
        let r = audit_dp(&Target::Algo(algo), &dp_opts(Mode::Auto, Some(4000))).expect("runs");
        assert_eq!(r.mode, "blackbox");
        assert_ne!(r.verdict, Verdict::Violated, "{algo:?}: {r:?}");
    }
    assert!(audit_dp(&Target::Algo(AlgoName::AdapTt), &dp_opts(Mode::Exact, None)).is_err());
    assert!(audit_dp(
        &Target::Algo(AlgoName::Ttucb),
        &dp_opts(Mode::Auto, Some(10))
    )
    .is_err());
}

#[test]
fn cli_dp_lists_mutants_and_rejects_unknown_ones() {
    let (code, out, _) = crate::common::run_cli(&["audit", "dp", "--list-mutants"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    let search = dpbai::audit::dp::late_leak::SEARCH_MUTANTS;
    assert_eq!(lines.len(), MUTANTS.len() + search.len());
    for (l, m) in lines.iter().zip(MUTANTS) {
        assert!(l.starts_with(m.name));
    }
    for (l, (name, _)) in lines[MUTANTS.len()..].iter().zip(search) {
        assert!(l.starts_with(name), "{l}");
    }
    assert_usage_error(
        &["audit", "dp", "--mutant", "nope"],
        "unknown mutant 'nope'",
    );
    assert_usage_error(
        &["audit", "dp", "--mechanism", "nope"],
        "unknown mechanism 'nope'",
    );
    assert_usage_error(
        &["audit", "dp", "--mutant", "rr-wrong-keep", "--runs", "0"],
        "runs = 0",
    );
    assert_usage_error(&["audit", "dp"], "exactly one of");
    let (code, out, _) =
        crate::common::run_cli(&["audit", "dp", "--mutant", "laplace-half-scale", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["verdict"], "violated");
    for key in ["eps_lower", "eps_claimed", "confidence", "seed", "runs"] {
        assert!(v.get(key).is_some(), "{key}");
    }
}

// ------------------------------------------------------------------------------------------
// δ-correctness audits with the real algorithms

use dpbai::audit::delta::{audit_delta, default_battery, AuditInstance, DeltaAuditConfig, RunPlan};
use dpbai::bandit::{AlgoName, Setting};
use dpbai::instance::Instance;

fn delta_cfg(algo: AlgoName, threshold: Option<&str>, plan: RunPlan) -> DeltaAuditConfig {
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
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
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
// Heavy acceptance checks (run with `cargo test --release -- --ignored audit::heavy`)

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
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let rows = v["instances"].as_array().expect("rows");
    assert_eq!(rows.len(), 3);
    assert!(rows
        .iter()
        .any(|r| r["name"] == "three-arms-easy-delta" && r["delta"] == 0.2));
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

// ------------------------------------------------------------------------------------------
// Search, dominance, custom rules.

fn search_audit(threshold: Option<&str>) -> dpbai::audit::delta::DeltaAuditConfig {
    dpbai::audit::delta::DeltaAuditConfig {
        setting: Setting::paper(AlgoName::Ttucb, 0.1).expect("valid δ"),
        threshold: threshold.map(|t| parse_threshold(t).expect("parses")),
        alpha: 1e-3,
        seed: 17,
        max_steps: 1_000_000,
        plan: dpbai::audit::delta::RunPlan::UntilDecided {
            first: 200,
            budget: 1600,
        },
        sampling: dpbai::bandit::Sampling::Algorithm,
    }
}

/// Pre-registered: seed 17, alpha = 1e-3. A small search catches the unsafe preset, on a
/// violating instance confirmed on fresh seeds; the trace records every evaluation.
#[test]
fn search_catches_the_unsafe_preset_quickly() {
    use dpbai::audit::search::{search, Budget, SearchConfig, SearchSpace};
    let space = SearchSpace {
        k_max: 6,
        min_gap: 0.05,
        ..SearchSpace::default()
    };
    let mut cfg = SearchConfig::new(search_audit(Some("unsafe-log-over-20")), 0.1, space);
    cfg.budget = Budget::Samples(2_000_000);
    cfg.screen_candidates = 8;
    cfg.local_iters = 5;
    cfg.local_runs = 64;
    let r = search(&cfg).expect("runs");
    assert_eq!(r.verdict, dpbai::audit::search::SearchVerdict::Violated);
    assert!(r.worst_ci[0] > 0.1);
    assert!(r.trace.iter().any(|t| t.stage == "confirm"));
    assert!(r.trace.iter().any(|t| t.stage == "nelder-mead"));
    assert!(r.correction.contains("Bonferroni"));
    assert!(dpbai::audit::search::report_rows(&[r]).contains("| violated |"));
}

/// Pre-registered: seed 17, alpha = 1e-3. The paper's threshold is not flagged (the search
/// may find nothing worse than `holds` or `inconclusive`, never `violated`).
#[test]
fn search_does_not_flag_the_paper_threshold() {
    use dpbai::audit::search::{search, Budget, SearchConfig, SearchSpace};
    let space = SearchSpace {
        k_max: 4,
        min_gap: 0.1,
        ..SearchSpace::default()
    };
    let mut cfg = SearchConfig::new(search_audit(None), 0.1, space);
    cfg.budget = Budget::Samples(1_000_000);
    cfg.screen_candidates = 6;
    cfg.local_iters = 3;
    cfg.local_runs = 32;
    let r = search(&cfg).expect("runs");
    assert_ne!(r.verdict, dpbai::audit::search::SearchVerdict::Violated);
    assert!(r.power.contains("would have declared violated"));
}

/// A small, sample-budgeted search (deterministic for any thread count): `screen` candidates,
/// no Nelder-Mead, a confirmation plan of `first = 100` doubling up to 800 runs.
fn small_search(
    algo: AlgoName,
    threshold: &str,
    delta: f64,
    space: dpbai::audit::search::SearchSpace,
    screen: usize,
    samples: u64,
) -> dpbai::audit::search::SearchReport {
    use dpbai::audit::search::{search, Budget, SearchConfig};
    let mut audit = search_audit(Some(threshold));
    audit.setting.algo = algo;
    audit.plan = RunPlan::UntilDecided {
        first: 100,
        budget: 800,
    };
    let mut cfg = SearchConfig::new(audit, delta, space);
    cfg.budget = Budget::Samples(samples);
    cfg.screen_candidates = screen;
    cfg.screen_runs = 16;
    cfg.local_iters = 0;
    search(&cfg).expect("runs")
}

/// Whether the default battery (TTUCB, `δ = 0.01` and `0.1`, 400 runs per instance) flags
/// `threshold` as violated.
fn battery_flags(threshold: &str) -> bool {
    let b = default_battery(AlgoName::Ttucb, 0.01, None).expect("battery");
    let cfg = delta_cfg(
        AlgoName::Ttucb,
        Some(threshold),
        RunPlan::Fixed { runs: 400 },
    );
    audit_delta(&cfg, &b).expect("runs").verdict == Verdict::Violated
}

/// Pre-registered: seed 17, alpha = 1e-3. Each built-in unsafe preset
/// is found violated by a sample-budgeted search: `unsafe-log-over-20` (TTUCB) and
/// `unsafe-adap-tt-no-privacy` (AdaP-TT, over an eps range, as it fails at small eps).
#[test]
fn search_finds_every_unsafe_preset() {
    use dpbai::audit::search::SearchSpace;
    let space = SearchSpace {
        k_max: 8,
        min_gap: 0.1,
        ..SearchSpace::default()
    };
    let r = small_search(
        AlgoName::Ttucb,
        "unsafe-log-over-20",
        0.05,
        space,
        6,
        2_000_000,
    );
    assert_eq!(
        r.verdict,
        dpbai::audit::search::SearchVerdict::Violated,
        "{}",
        r.power
    );
    let space = SearchSpace {
        k_max: 3,
        min_gap: 0.2,
        max_gap: 0.5,
        eps: Some((0.05, 0.5)),
        ..SearchSpace::default()
    };
    let r = small_search(
        AlgoName::AdapTt,
        "unsafe-adap-tt-no-privacy",
        0.05,
        space,
        6,
        5_000_000,
    );
    assert_eq!(
        r.verdict,
        dpbai::audit::search::SearchVerdict::Violated,
        "{:?} {}",
        r.worst_means,
        r.power
    );
}

/// Pre-registered: seed 17, alpha = 1e-3. A threshold that passes the
/// default battery (K <= 8) but is unsafe for K >= 12 is caught by the search, on K >= 12.
#[test]
fn search_catches_a_threshold_unsafe_only_for_many_arms() {
    use dpbai::audit::search::SearchSpace;
    let cg = preset("paper-cg").expect("preset");
    let t = format!("ifge(K, 12, log(1/delta)/20, {cg})");
    assert!(!battery_flags(&t));
    let space = SearchSpace {
        k_max: 16,
        min_gap: 0.1,
        ..SearchSpace::default()
    };
    let r = small_search(AlgoName::Ttucb, &t, 0.01, space, 6, 5_000_000);
    assert_eq!(
        r.verdict,
        dpbai::audit::search::SearchVerdict::Violated,
        "{}",
        r.power
    );
    assert!(r.worst_means.len() >= 12);
}

/// Pre-registered: seed 17, alpha = 1e-3. A threshold that drops to
/// `log(1/δ)/20` once `t >= 20000` (beyond the battery's stopping times) passes the default
/// battery and is caught by the search on an instance whose runs last longer.
#[test]
fn search_catches_a_threshold_unsafe_only_for_long_runs() {
    use dpbai::audit::search::SearchSpace;
    let cg = preset("paper-cg").expect("preset");
    let t = format!("ifge(t, 20000, log(1/delta)/20, {cg})");
    assert!(!battery_flags(&t));
    let space = SearchSpace {
        k_max: 12,
        min_gap: 0.02,
        max_gap: 0.1,
        ..SearchSpace::default()
    };
    let r = small_search(AlgoName::Ttucb, &t, 0.01, space, 4, 20_000_000);
    assert_eq!(
        r.verdict,
        dpbai::audit::search::SearchVerdict::Violated,
        "{}",
        r.power
    );
    assert!(r.confirmation[0].mean_tau >= 20000.0);
}

/// Pre-registered: seed 17, alpha = 1e-3. A threshold that drops to
/// `log(1/δ)/20` when the leader's lead `gap` is below 0.02 passes the default battery (gaps
/// >= 0.08) and is caught by the search on a small-gap instance.
#[test]
fn search_catches_a_threshold_unsafe_only_for_small_gaps() {
    use dpbai::audit::search::SearchSpace;
    let cg = preset("paper-cg").expect("preset");
    let t = format!("ifge(gap, 0.02, {cg}, log(1/delta)/20)");
    assert!(!battery_flags(&t));
    let space = SearchSpace {
        k_max: 4,
        min_gap: 0.01,
        max_gap: 0.2,
        ..SearchSpace::default()
    };
    let r = small_search(AlgoName::Ttucb, &t, 0.01, space, 4, 20_000_000);
    assert_eq!(
        r.verdict,
        dpbai::audit::search::SearchVerdict::Violated,
        "{}",
        r.power
    );
    assert!(r.worst_means[0] - r.worst_means[1] < 0.1);
}

#[test]
fn cli_dominates_proves_and_refutes() {
    let cg = preset("paper-cg").expect("preset");
    let plus = format!("{cg} + 0.1");
    let (code, out, _) = crate::common::run_cli(&[
        "audit",
        "delta",
        "--threshold",
        &plus,
        "--dominates",
        "paper-cg",
        "--delta",
        "0.01",
        "--n-arms",
        "5",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("proven") && out.contains("Lemma 35"), "{out}");
    let less = format!("0.999*{cg}");
    let (code, out, _) = crate::common::run_cli(&[
        "audit",
        "delta",
        "--threshold",
        &less,
        "--dominates",
        "paper-cg",
        "--delta",
        "0.01",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("counterexample"), "{out}");
    let (code, _, err) = crate::common::run_cli(&[
        "audit",
        "delta",
        "--threshold",
        "1",
        "--dominates",
        "ref-ttucb",
        "--delta",
        "0.01",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("provable preset"), "{err}");
}

/// `audit dp --search` takes the same budget syntax; a small budget in samples is reported
/// in the JSON (samples drawn, exhausted) and bad budgets exit 2 naming the option.
#[test]
fn cli_dp_search_budget() {
    for bad in ["0", "-3s", "abc"] {
        let arg = format!("--search-budget={bad}");
        let (code, _, err) = crate::common::run_cli(&[
            "audit", "dp", "--mutant", "rr-daf", "--eps", "1", "--search", &arg,
        ]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("search-budget"), "{err}");
    }
    let (code, out, err) = crate::common::run_cli(&[
        "audit",
        "dp",
        "--mutant",
        "rr-daf",
        "--eps",
        "1",
        "--search",
        "--search-budget",
        "1e5",
        "--runs",
        "400",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let s = &v["search"];
    assert_eq!(s["budget"]["kind"], "samples");
    assert_eq!(s["budget_exhausted"], true);
    assert!(s["samples"].as_u64().expect("samples") >= 100_000);
}

#[test]
fn cli_search_rejects_bad_budgets() {
    let (code, _, err) = crate::common::run_cli(&[
        "audit",
        "delta",
        "--algo",
        "ttucb",
        "--delta",
        "0.1",
        "--search",
        "--search-budget",
        "0s",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("search-budget"), "{err}");
    let (code, _, err) = crate::common::run_cli(&[
        "audit",
        "delta",
        "--algo",
        "ttucb",
        "--delta",
        "0.1",
        "--search",
        "--min-gap",
        "0",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("gap"), "{err}");
}

/// A threshold closure and the same rule as an expression give the same audit, run for run.
#[test]
fn closure_threshold_matches_the_expression() {
    use dpbai::audit::custom::with_threshold;
    use dpbai::audit::delta::{audit_delta, audit_delta_with, AuditInstance, RunPlan};
    let mut cfg = search_audit(Some("log(1/delta)/4"));
    cfg.plan = RunPlan::Fixed { runs: 200 };
    let inst = vec![AuditInstance {
        name: "i".into(),
        instance: dpbai::instance::Instance::bernoulli(vec![0.6, 0.45, 0.4]).expect("valid"),
        delta: 0.1,
        eps: None,
    }];
    let a = audit_delta(&cfg, &inst).expect("runs");
    let b = audit_delta_with(
        &cfg,
        &inst,
        &with_threshold(&cfg, |v| (1.0 / v.delta).ln() / 4.0),
    )
    .expect("runs");
    assert_eq!(
        (a.errors, a.instances[0].mean_tau),
        (b.errors, b.instances[0].mean_tau)
    );
}
