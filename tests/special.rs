//! Integration tests for `special`: golden values (mpmath, `verify/golden_special.py`),
//! property tests (READINGS.md §C.2, §C.3, §C.7, CLAIMS.md F.37, CLAIMS.md F.66) and the `dpbai fn` command.

use crate::common::{rel_err, run_cli};
use approx::{abs_diff_eq, assert_relative_eq, relative_eq};
use dpbai::special::*;
use proptest::prelude::*;

/// Closed forms (`g2`, `k`, `h`, `c_L36`, `h_1`, `erf`, `erfc`): relative error bound.
const CLOSED_FORM_TOL: f64 = 1e-14;
/// Lambert W and `W̄`: relative part of the bound `2e-15·|w| + 4 ulp(w)`.
const LAMBERT_REL_TOL: f64 = 2e-15;
/// Lambert W and `W̄`: ulp part of the bound.
const LAMBERT_ULPS: f64 = 4.0;
/// `ζ` on `(1, 50]` (and beyond).
const ZETA_TOL: f64 = 1e-13;
/// `C_G` on `[1e-3, 1e6]`.
const C_G_TOL: f64 = 1e-12;
/// `g1` on `[0, 1e4]`.
const G1_TOL: f64 = 1e-12;

/// Spacing of doubles at `v` (one ulp).
fn ulp(v: f64) -> f64 {
    let a = v.abs();
    if a == 0.0 {
        return f64::from_bits(1);
    }
    f64::from_bits(a.to_bits() + 1) - a
}

struct Golden {
    name: String,
    args: Vec<f64>,
    value: f64,
}

fn golden_cases() -> Vec<Golden> {
    let doc = crate::common::load_toml("special_golden.toml");
    assert_eq!(
        doc.get("mpmath_version").and_then(|v| v.as_str()),
        Some("1.3.0"),
        "golden file records its mpmath version"
    );
    doc["case"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| Golden {
            name: c["fn"].as_str().expect("fn").to_string(),
            args: c["args"]
                .as_array()
                .expect("args")
                .iter()
                .map(crate::common::golden_number)
                .collect(),
            value: crate::common::golden_number(&c["value"]),
        })
        .collect()
}

fn eval(name: &str, a: &[f64]) -> dpbai::Result<f64> {
    dpbai::functions::lookup(name)
        .unwrap_or_else(|| panic!("unknown golden function {name}"))
        .call(a)
}

/// Whether `got` is within the named tolerance of the golden `want`, per function (the
/// Lambert bound is absolute, `2e-15·|w| + 4 ulp(w)`; the others are relative; NaN never is).
fn within_tolerance(name: &str, got: f64, want: f64) -> bool {
    let rel = |tol: f64| relative_eq!(got, want, epsilon = 0.0, max_relative = tol);
    match name {
        "lambert_w0" | "lambert_wm1" | "wbar_m1" => abs_diff_eq!(
            got,
            want,
            epsilon = LAMBERT_REL_TOL * want.abs() + LAMBERT_ULPS * ulp(want)
        ),
        "zeta" => rel(ZETA_TOL),
        "c_g" => rel(C_G_TOL),
        "g1" => rel(G1_TOL),
        _ => rel(CLOSED_FORM_TOL),
    }
}

#[test]
fn golden_values_special() {
    let cases = golden_cases();
    assert!(cases.len() >= 200, "at least 200 golden points");
    let mut tally = crate::common::GoldenTally::default();
    for c in &cases {
        let got = eval(&c.name, &c.args)
            .unwrap_or_else(|e| panic!("{}({:?}) errored: {e}", c.name, c.args));
        let r = rel_err(got, c.value);
        let ok = within_tolerance(&c.name, got, c.value);
        tally.record(&c.name, &c.args, r, ok, || {
            format!(
                "{}({:?}) = {got:e}, golden {:e}, rel err {r:e}",
                c.name, c.args, c.value
            )
        });
    }
    tally.finish();
}

#[test]
fn golden_covers_domains_and_branch_points() {
    let cases = golden_cases();
    let count = |n: &str| cases.iter().filter(|c| c.name == n).count();
    for (n, min) in [
        ("lambert_w0", 40),
        ("lambert_wm1", 40),
        ("wbar_m1", 40),
        ("zeta", 30),
        ("c_g", 30),
        ("g1", 30),
    ] {
        assert!(count(n) >= min, "{n}: {} golden points", count(n));
    }
    let has = |n: &str, p: &dyn Fn(f64) -> bool| cases.iter().any(|c| c.name == n && p(c.args[0]));
    assert!(has("lambert_w0", &|x| x == NEG_INV_E));
    assert!(has("lambert_wm1", &|x| x == NEG_INV_E));
    assert!(has("lambert_w0", &|x| x >= 1e300));
    assert!(has("lambert_wm1", &|x| x > -1e-300 && x < 0.0));
    assert!(has("wbar_m1", &|x| x == 1.0));
    assert!(has("wbar_m1", &|x| x >= 1e300));
    assert!(has("zeta", &|s| s - 1.0 < 1e-14));
    assert!(has("zeta", &|s| s >= 50.0));
    assert!(has("c_g", &|x| x <= 1e-3) && has("c_g", &|x| x >= 1e6));
    assert!(has("g1", &|y| y == 0.0) && has("g1", &|y| y >= 1e4));
}

#[test]
fn bad_input_is_err_naming_value_and_domain() {
    let nan = f64::NAN;
    let inf = f64::INFINITY;
    let bad: Vec<(&str, dpbai::Result<f64>)> = vec![
        ("lambert_w0 nan", lambert_w0(nan)),
        ("lambert_w0 -0.5", lambert_w0(-0.5)),
        ("lambert_w0 inf", lambert_w0(inf)),
        ("lambert_wm1 0", lambert_wm1(0.0)),
        ("lambert_wm1 -1", lambert_wm1(-1.0)),
        ("wbar 0.5", wbar_m1(0.5)),
        ("wbar inf", wbar_m1(inf)),
        ("zeta 1", zeta(1.0)),
        ("zeta nan", zeta(nan)),
        ("c_g 0", c_g(0.0)),
        ("c_g -1", c_g(-1.0)),
        ("k 0.5", k(0.5)),
        ("h K=1", h(2.0, 0.1, 1)),
        ("h delta=1", h(2.0, 1.0, 3)),
        ("c_l36 x=0", c_l36(0.0, 0.1, 3)),
        ("g1 -1", g1(-1.0)),
        ("g2 0", g2(0.0)),
        ("h1 z=0", h1(0.0, 1.0)),
        ("h1 arg<1", h1(1.0, 0.5)),
    ];
    for (what, r) in bad {
        let e = r.expect_err(what);
        let msg = e.to_string();
        assert!(msg.contains("must be"), "{what}: {msg}");
        assert!(matches!(e, dpbai::Error::InvalidParameter { .. }), "{what}");
    }
}

#[test]
fn known_constants() {
    // READINGS.md §C.2 / F.66: min g_G = 1.27067... near λ = 0.8816.
    assert!((g_g(0.8816).unwrap() - 1.27067).abs() < 1e-4);
    // g1(12) <= 10 (Thm. 24, L. 52; CLAIMS.md F.32).
    assert!(g1(12.0).unwrap() <= 10.0);
    assert_eq!(g1(0.0).unwrap(), 1.0);
    // g2(0+) = 1 (READINGS.md §C.7, CLAIMS.md F.32): g2(y) = 1 + 2√y + O(y)
    for y in [1e-300, 1e-30, 1e-12] {
        let v = g2(y).unwrap();
        assert!(v > 1.0 || y < 1e-32, "g2({y}) = {v}");
        assert!((v - 1.0 - 2.0 * y.sqrt()).abs() <= 4.0 * y + 2.0 * f64::EPSILON);
    }
    // g2(y) = 4y + 2 + o(1) as y → ∞ (READINGS.md §C.7)
    assert!((g2(1e6).unwrap() - 4e6 - 2.0).abs() < 1e-5);
    // h(x, δ) = c_L36(x, δ/(3ζ(2)k(x)²)) (READINGS.md §C.6, App. F.3)
    for (x, d, kk) in [(1.0, 0.01, 5usize), (8.0, 1e-6, 2), (1e5, 0.3, 40)] {
        let kx = k(x).unwrap();
        let alt = c_l36(x, d / (3.0 * zeta(2.0).unwrap() * kx * kx), kk).unwrap();
        assert_relative_eq!(
            h(x, d, kk).unwrap(),
            alt,
            epsilon = 0.0,
            max_relative = CLOSED_FORM_TOL
        );
    }
    // h_1(A, B) is the largest root of x = A log x + B (READINGS.md §C.4, L. 41)
    for (a, b) in [(2.0, 3.0), (0.5, 10.0), (100.0, 1000.0)] {
        let x = h1(a, b).unwrap();
        assert_relative_eq!(
            x,
            a * x.ln() + b,
            epsilon = 0.0,
            max_relative = CLOSED_FORM_TOL
        );
        assert!(
            x >= a,
            "largest root lies where the derivative 1 - A/x >= 0"
        );
    }
}

proptest! {
    #![proptest_config(crate::common::prop_config(256))]

    /// Definition of W: W(x)·e^{W(x)} = x on both branches (READINGS.md §C.3).
    #[test]
    fn lambert_w_inverts_w_exp_w(u in 0.0f64..1.0, v in -300.0f64..300.0) {
        // W_{-1} on [-1/e, 0): x = -u/e.
        let x = -u * (-1.0f64).exp();
        if x < 0.0 {
            let w = lambert_wm1(x).unwrap();
            prop_assert!(w <= -1.0);
            // residual relative to the conditioning |x·(1 + w)/w| is a few ulp
            let back = w * w.exp();
            prop_assert!((back - x).abs() <= 1e-14 * x.abs() / (1.0 + 1.0 / w).abs().max(1e-8));
        }
        let w0 = lambert_w0(x).unwrap();
        prop_assert!((-1.0..=0.0).contains(&w0));
        prop_assert!((w0 * w0.exp() - x).abs() <= 1e-14 * x.abs().max(1e-300) / (1.0 + w0).max(1e-8));
        let y = 10f64.powf(v);
        let w = lambert_w0(y).unwrap();
        // log form: w + log w = log y
        prop_assert!(rel_err(w + w.ln(), y.ln()) <= 1e-14 || (w * w.exp() / y - 1.0).abs() <= 1e-14);
    }

    /// CLAIMS.md F.37 (L. 40): x + log x <= W̄(x) <= x + log x + min{1/2, 1/√x} for x > 1, and
    /// W̄(x) − log W̄(x) = x.
    #[test]
    fn wbar_bounds_f37(e in -12.0f64..300.0) {
        let x = 1.0 + 10f64.powf(e);
        let u = wbar_m1(x).unwrap();
        let lo = x + x.ln();
        let hi = lo + (0.5f64).min(1.0 / x.sqrt());
        prop_assert!(u >= lo * (1.0 - 4e-16) && u <= hi * (1.0 + 4e-16), "x={x} u={u} [{lo}, {hi}]");
        prop_assert!((u - u.ln() - x).abs() <= 4e-16 * u);
        // W̄(x) = −W_{-1}(−e^{−x}) where e^{−x} is representable
        if x < 700.0 && x > 1.5 {
            let w = lambert_wm1(-(-x).exp()).unwrap();
            prop_assert!(rel_err(-w, u) <= 1e-14);
        }
    }

    /// CLAIMS.md F.66 / C.2: C_G increasing and C_G(x) >= x + 1.2706.
    #[test]
    fn c_g_increasing_and_lower_bound(e in -6.0f64..12.0, f in 0.0f64..0.2) {
        let x = 10f64.powf(e);
        let x2 = x * (1.0 + f) + 1e-9;
        let (a, b) = (c_g(x).unwrap(), c_g(x2).unwrap());
        prop_assert!(a >= x + 1.2706, "C_G({x}) = {a}");
        prop_assert!(b > a, "C_G not increasing: C_G({x}) = {a}, C_G({x2}) = {b}");
        // C_G is the minimum: no λ on a grid does better.
        for i in 1..40 {
            let lam = 0.5 + 0.5 * i as f64 / 40.0;
            prop_assert!((g_g(lam).unwrap() + x) / lam >= a * (1.0 - 1e-15));
        }
    }

    /// READINGS.md §C.7: g1 increasing, g1(y) is a root of x² = x + y√(2x) + y²/4, g1 >= 1;
    /// g2 increasing with g2(0+) = 1 and g2 = y(1 + √(1 + 1/y))².
    #[test]
    fn g1_g2_properties(e in -8.0f64..4.0, f in 1e-6f64..0.5) {
        let y = 10f64.powf(e);
        let (a, b) = (g1(y).unwrap(), g1(y * (1.0 + f)).unwrap());
        prop_assert!(a >= 1.0 && b > a);
        let q = a * a - a - y * (2.0 * a).sqrt() - y * y / 4.0;
        prop_assert!(q.abs() <= 1e-13 * (a * a + y * y));
        let (c, d) = (g2(y).unwrap(), g2(y * (1.0 + f)).unwrap());
        prop_assert!(c > 1.0 && d > c);
        prop_assert!(rel_err(c, y * (1.0 + (1.0 + 1.0 / y).sqrt()).powi(2)) <= 1e-13);
    }

    /// ζ is decreasing on (1, ∞) and ζ(s) > 1/(s − 1) (integral comparison).
    #[test]
    fn zeta_decreasing(e in -12.0f64..1.7, f in 1e-6f64..0.5) {
        let s = 1.0 + 10f64.powf(e);
        let t = s + f;
        let (a, b) = (zeta(s).unwrap(), zeta(t).unwrap());
        // strictly decreasing while ζ − 1 is resolvable in double precision
        prop_assert!(b <= a && (s > 10.0 || b < a), "zeta({s}) = {a}, zeta({t}) = {b}");
        // 1/(s − 1) + γ <= ζ(s) <= 1/(s − 1) + 1
        let inv = 1.0 / (s - 1.0);
        // (absolute slack: a few ulp of 1/(s − 1))
        let slack = 4.0 * f64::EPSILON * inv;
        prop_assert!(a >= inv + 0.5772 - slack && a <= inv + 1.0 + slack, "zeta({s}) = {a}");
    }
}

// ---------------------------------------------------------------------------------------------
// `dpbai fn`
// ---------------------------------------------------------------------------------------------

#[test]
fn cli_fn_prints_round_trip_number() {
    let (code, out, err) = run_cli(&["fn", "lambert-w0", "-0.2"]);
    assert_eq!(code, 0, "{err}");
    let v: f64 = out.trim().parse().expect("one number");
    assert_eq!(v, lambert_w0(-0.2).unwrap());
    let (code, out, _) = run_cli(&["fn", "cg", "1"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim().parse::<f64>().unwrap(), c_g(1.0).unwrap());
    let (code, out, _) = run_cli(&["fn", "h", "8", "0.01", "5"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim().parse::<f64>().unwrap(), h(8.0, 0.01, 5).unwrap());
    let (code, out, _) = run_cli(&["fn", "kl-bernoulli", "0.5", "0.25"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim().parse::<f64>().unwrap(),
        dpbai::divergence::kl_bernoulli(0.5, 0.25).unwrap()
    );
}

#[test]
fn cli_fn_every_name_evaluates() {
    let calls: &[&[&str]] = &[
        &["lambert-w0", "1"],
        &["lambert-wm1", "-0.1"],
        &["wbar", "2"],
        &["zeta", "2"],
        &["cg", "10"],
        &["k", "8"],
        &["h", "8", "0.01", "5"],
        &["g1", "12"],
        &["g2", "1"],
        &["kl-bernoulli", "0.5", "0.25"],
        &["kl-gaussian", "1", "0", "1"],
        &["tv-bernoulli", "0.9", "0.5"],
        &["c-local", "0.6931471805599453"],
        &["kl", "0.5", "0.25"],
    ];
    for c in calls {
        let mut args = vec!["fn"];
        args.extend_from_slice(c);
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 0, "{c:?}: {err}");
        assert!(out.trim().parse::<f64>().is_ok(), "{c:?}: {out}");
        assert_eq!(out.lines().count(), 1);
    }
    let (code, out, _) = run_cli(&["fn", "k", "8"]);
    assert_eq!((code, out.trim()), (0, "5"));
}

#[test]
fn cli_fn_json_and_list() {
    let (code, out, _) = run_cli(&["fn", "--json", "zeta", "2"]);
    assert_eq!(code, 0);
    let j: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(j["name"], "zeta");
    assert_eq!(j["args"][0].as_f64(), Some(2.0));
    assert_eq!(j["value"].as_f64(), Some(zeta(2.0).unwrap()));
    let (code, out, _) = run_cli(&["fn", "--list"]);
    assert_eq!(code, 0);
    for n in crate::common::FN_NAMES {
        assert!(
            out.lines().any(|l| l.split_whitespace().next() == Some(n)),
            "--list lacks {n}:\n{out}"
        );
    }
}

#[test]
fn cli_fn_bad_input_exit_2_one_line() {
    let bad: &[&[&str]] = &[
        &["fn", "nope", "1"],
        &["fn", "zeta"],
        &["fn", "zeta", "1", "2"],
        &["fn", "zeta", "abc"],
        &["fn", "zeta", "1"],
        &["fn", "lambert-w0", "-1"],
        &["fn", "lambert-wm1", "nan"],
        &["fn", "h", "8", "0.01", "1"],
        &["fn", "h", "8", "0.01", "2.5"],
        &["fn", "kl-bernoulli", "1.5", "0.5"],
        &["fn", "cg", "inf"],
        &["fn"],
    ];
    for b in bad {
        let (code, out, err) = run_cli(b);
        assert_eq!(code, 2, "{b:?}: out={out} err={err}");
        assert_eq!(err.trim().lines().count(), 1, "{b:?}: {err}");
        assert!(out.is_empty(), "{b:?}: {out}");
    }
    let (_, _, err) = run_cli(&["fn", "zeta", "0.5"]);
    assert!(err.contains("0.5") && err.contains("> 1"), "{err}");
}

proptest! {
    #![proptest_config(crate::common::prop_config(64))]

    /// No input crashes the CLI: exit code 0 or 2, no panic, at most one line on stderr.
    #[test]
    fn cli_fn_never_panics(
        name in prop::sample::select(vec![
            "lambert-w0", "lambert-wm1", "wbar", "zeta", "cg", "k", "h", "g1", "g2",
            "kl-bernoulli", "kl-gaussian", "tv-bernoulli", "c-local", "kl", "bogus", "--json",
        ]),
        args in prop::collection::vec(
            prop_oneof![
                "\\PC{0,12}",
                "-?[0-9]{0,4}(\\.[0-9]{0,6})?(e-?[0-9]{1,3})?",
                prop::sample::select(vec!["nan", "inf", "-inf", "-0", "1e309", "--", "-"])
                    .prop_map(String::from),
            ],
            0..4,
        ),
    ) {
        let mut argv = vec!["fn".to_string(), name.to_string()];
        argv.extend(args);
        let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
        let (code, out, err) = run_cli(&refs);
        prop_assert!(code == 0 || code == 2, "{argv:?}: code {code}, err {err}");
        prop_assert!(!err.contains("panicked"), "{argv:?}: {err}");
        prop_assert!(err.trim().lines().count() <= 1, "{argv:?}: {err}");
        if code == 0 {
            prop_assert!(err.is_empty());
            // one number, or the help text when an argument is `-h` / `--help`
            prop_assert!(out.lines().count() == 1 || out.contains("Usage: dpbai fn"), "{argv:?}: {out}");
        } else {
            prop_assert_eq!(err.trim().lines().count(), 1);
        }
    }
}
