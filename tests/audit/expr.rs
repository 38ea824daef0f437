//! Threshold expressions and presets against MATH.md and mpmath (`src/audit/expr`).

use super::vars;
use crate::common::load_toml;
use crate::common::rel_err;
use dpbai::audit::dp::{gaussian_eps, gaussian_gamma};
use dpbai::threshold::expr::{PRESETS, ThresholdExpr, parse_threshold, preset};

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
