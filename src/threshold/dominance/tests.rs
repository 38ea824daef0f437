use super::*;
use crate::threshold::expr::{parse_threshold, preset};

fn run(src: &str) -> DominanceReport {
    let e = parse_threshold(src).expect("parses");
    dominates(&e, "paper-cg", &DominanceConfig::new(0.01, 5, 10_000_000)).expect("runs")
}

fn proven_and_checked(r: &DominanceReport) {
    assert!(matches!(r.result, Dominance::Proven { .. }), "{r:?}");
    let c = r.certificate.as_ref().expect("a proof has a certificate");
    let chk = check_certificate(c).expect("checks");
    assert!(chk.valid, "{}", chk.message);
}

#[test]
fn proves_a_larger_threshold() {
    let cg = preset("paper-cg").expect("preset");
    proven_and_checked(&run(&format!("{cg} + 0.1")));
    proven_and_checked(&run("paper-cg"));
    // Equal to the preset on the domain (the branch is decided there): proven.
    proven_and_checked(&run(&format!("ifge(K, 100, ({cg})/2, {cg})")));
}

#[test]
fn refutes_a_smaller_threshold() {
    let cg = preset("paper-cg").expect("preset");
    let r = run(&format!("0.999*{cg}"));
    let Dominance::Counterexample { expr, preset, .. } = r.result else {
        panic!("{r:?}")
    };
    assert!(expr < preset);
    // Below the preset only at small gaps.
    let r = run(&format!("ifge(gap, 0.03, {cg} + 1, 0.95*{cg})"));
    let Dominance::Counterexample {
        point,
        expr,
        preset,
    } = r.result
    else {
        panic!("{r:?}")
    };
    assert!(point.gap < 0.03 && expr < preset);
}

#[test]
fn rejects_non_provable_presets() {
    let e = parse_threshold("1").expect("parses");
    let c = DominanceConfig::new(0.01, 5, 1000);
    assert!(dominates(&e, "unsafe-log-over-20", &c).is_err());
    assert!(dominates(&e, "nope", &c).is_err());
}

#[test]
fn non_finite_thresholds_are_errors_naming_the_point() {
    for src in [
        "0/0",
        "max(0/0, 0)",
        "ifge(t, 500, 0/0, 1e300)",
        "log(1/delta) + sqrt(150 - t) + 100",
        "100 + sqrt(na - 2)",
        "1e300*1e300",
        "2^2^2^2^2^2",
        "100 + 0*log(nb - 1)",
    ] {
        let e = parse_threshold(src).expect("parses");
        let err = dominates(&e, "paper-cg", &DominanceConfig::new(0.01, 3, 1000))
            .expect_err(src)
            .to_string();
        assert!(
            err.contains("at t = ") && err.contains("must be finite"),
            "{src}: {err}"
        );
    }
}

#[test]
fn private_presets_need_eps() {
    let e = parse_threshold("paper-adap-tt").expect("parses");
    let mut c = DominanceConfig::new(0.01, 3, 1000);
    let err = dominates(&e, "paper-adap-tt", &c)
        .expect_err("no eps")
        .to_string();
    assert!(err.contains("eps"), "{err}");
    c.domain.eps = [Some(1.0), Some(1.0)];
    proven_and_checked(&dominates(&e, "paper-adap-tt", &c).expect("runs"));
}

#[test]
fn ranges_of_k_and_delta_are_proven_and_checked() {
    let cg = preset("paper-cg").expect("preset");
    let e = parse_threshold(&format!("{cg} + 1e-6*log(t)")).expect("parses");
    let mut c = DominanceConfig::new(0.1, 2, 100_000);
    c.delta_min = 1e-6;
    c.k_max = 20;
    let r = dominates(&e, "paper-cg", &c).expect("runs");
    proven_and_checked(&r);
    assert_eq!(r.assumptions.k, [2, 20]);
    assert_eq!(r.assumptions.delta, [1e-6, 0.1]);
}

#[test]
fn the_checker_rejects_tampered_certificates() {
    let cg = preset("paper-cg").expect("preset");
    let e = parse_threshold(&format!("max({cg}, 2*log((K-1)/delta))")).expect("parses");
    let mut c = DominanceConfig::new(0.01, 2, 1000);
    c.k_max = 6;
    let r = dominates(&e, "paper-cg", &c).expect("runs");
    proven_and_checked(&r);
    let good = r.certificate.expect("certificate");
    // One ulp too optimistic on one leaf.
    let mut bad = good.clone();
    let i = bad.margins.len() / 2;
    bad.margins[i] = crate::float::next_up(bad.margins[i]);
    assert!(!check_certificate(&bad).expect("checks").valid);
    // A stronger claim: delta one ulp smaller.
    let mut bad = good.clone();
    bad.assumptions.delta[0] = crate::float::next_down(bad.assumptions.delta[0]);
    bad.assumptions.delta[1] = bad.assumptions.delta[0];
    let chk = check_certificate(&bad).expect("checks");
    assert!(!chk.valid || chk.leaves > 0);
    // A box dropped.
    let mut bad = good.clone();
    bad.subdivision.pop();
    assert!(!check_certificate(&bad).expect("checks").valid);
    // Another threshold.
    let mut bad = good;
    bad.threshold = format!("0.999*{cg}");
    assert!(!check_certificate(&bad).expect("checks").valid);
}
