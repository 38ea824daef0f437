//! Integration tests for the Monte Carlo engine, shards, DP-SE and the Clopper–Pearson bounds.

use crate::common::{data_path, rel_err};
use dpbai::mc::stats::{clopper_pearson, cp_lower, cp_upper};

/// Relative tolerance of the Clopper–Pearson bounds against the mpmath golden values
/// (tests/data/cp_golden.toml, 50 digits, direct binomial sums).
const CP_REL_TOL: f64 = 1e-10;

/// Parses a TOML document under tests/data (`common::load_toml` parses a single TOML *value* with
/// toml 1.x, which rejects documents).
fn load_table(name: &str) -> toml::Table {
    let text = std::fs::read_to_string(data_path(name)).expect("golden file readable");
    toml::from_str(&text).expect("golden file is a valid TOML document")
}

#[test]
fn cp_matches_mpmath_golden() {
    let data = load_table("cp_golden.toml");
    let cases = data["case"].as_array().expect("cases");
    assert!(cases.len() >= 200, "golden file has {} cases", cases.len());
    let mut worst = 0.0f64;
    for c in cases {
        let k = c["k"].as_integer().expect("k") as u64;
        let n = c["n"].as_integer().expect("n") as u64;
        let alpha = c["alpha"].as_float().expect("alpha");
        let up: f64 = c["upper"].as_str().expect("upper").parse().expect("f64");
        let lo: f64 = c["lower"].as_str().expect("lower").parse().expect("f64");
        let gu = cp_upper(k, n, alpha).expect("cp_upper");
        let gl = cp_lower(k, n, alpha).expect("cp_lower");
        let (eu, el) = (rel_err(gu, up), rel_err(gl, lo));
        worst = worst.max(eu).max(el);
        assert!(
            eu <= CP_REL_TOL,
            "cp_upper({k}, {n}, {alpha}) = {gu}, want {up} (rel {eu:e})"
        );
        assert!(
            el <= CP_REL_TOL,
            "cp_lower({k}, {n}, {alpha}) = {gl}, want {lo} (rel {el:e})"
        );
    }
    eprintln!(
        "cp golden: {} cases, worst relative error {worst:e}",
        cases.len()
    );
}
