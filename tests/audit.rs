//! Integration tests for `audit`: threshold expressions and presets, the δ-correctness verdict
//! logic at the binomial edges, exact privacy losses, and the `dpbai audit` command line.

use crate::common::{data_path, rel_err};
use dpbai::audit::delta::{decide, runs_to_decide};
use dpbai::audit::dp::{gaussian_eps, gaussian_gamma};
use dpbai::audit::expr::{parse_threshold, preset, ThresholdExpr, PRESETS};
use dpbai::audit::Verdict;
use dpbai::bandit::ThresholdVars;
use proptest::prelude::*;

/// Loads a TOML document under tests/data (`common::load_toml` parses a single TOML *value*
/// with toml 1.x, which rejects whole documents).
fn load_toml(name: &str) -> toml::Table {
    let text = std::fs::read_to_string(data_path(name)).expect("golden file readable");
    toml::from_str(&text).expect("golden file is a TOML document")
}

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

/// MATH.md D.1 reference vectors (K = 5, δ = 0.01, σ = 1/2), quoted to 7-8 digits.
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
