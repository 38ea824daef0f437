//! The signed Bernoulli divergences `d⁺_ε`, `d⁻_ε`, `d_ε` ([BAI25] poster, [REG25]): golden
//! values of their definition (mpmath, `verify/golden_d_eps.py`), the command line, and a
//! property test for each derived fact of the closed form (the list in `src/divergence/d_eps.rs`
//! and its function docs).

use crate::common::{rel_err, run_cli};
use dpbai::divergence::{
    d_eps, d_eps_breakpoint, d_eps_kl_threshold, d_eps_minus, d_eps_plus, kl_bernoulli,
};
use proptest::prelude::*;

/// Relative error allowed against the 50-digit definition (`# Accuracy` of `d_eps_plus`):
/// the evaluation is cancellation-free (module docs of `divergence::d_eps`), so its error is
/// that of a few `kl` evaluations (1e-14 each, `CLOSED_FORM_TOL` of `tests/divergence.rs`)
/// combined with a factor <= 2.
const D_EPS_TOL: f64 = 1e-13;

/// Relative slack of the inequalities checked in floating point (a few roundings of values
/// that are each accurate to `D_EPS_TOL`).
const INEQ_SLACK: f64 = 4e-13;

struct Case {
    name: String,
    args: Vec<f64>,
    arg_text: Vec<String>,
    want: f64,
    note: String,
}

fn cases() -> Vec<Case> {
    let doc = crate::common::load_toml("d_eps_golden.toml");
    assert_eq!(doc["generator"].as_str(), Some("verify/golden_d_eps.py"));
    assert!(doc["working_digits"].as_integer() >= Some(50));
    doc["case"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            let arg_text: Vec<String> = c["args"]
                .as_array()
                .expect("args")
                .iter()
                .map(|a| a.as_str().expect("string").to_string())
                .collect();
            Case {
                name: c["fn"].as_str().expect("fn").to_string(),
                args: arg_text.iter().map(|a| a.parse().expect("f64")).collect(),
                arg_text,
                want: crate::common::golden_number(&c["value"]),
                note: c.get("note").and_then(|n| n.as_str()).unwrap_or("").into(),
            }
        })
        .collect()
}

fn err_of(got: f64, want: f64) -> f64 {
    if want == 0.0 {
        if got == 0.0 { 0.0 } else { f64::INFINITY }
    } else {
        rel_err(got, want)
    }
}

/// The golden file covers what the acceptance names: >= 40 points per function, ε = 1e-9 and
/// 1e3, x = 1, μ = 0 and both sides of each breakpoint; every value within `D_EPS_TOL`, by the
/// library functions and by the catalogue entry `dpbai fn` evaluates.
#[test]
fn golden_values_d_eps() {
    let cases = cases();
    let mut tally = crate::common::GoldenTally::default();
    for c in &cases {
        let a = &c.args;
        let lib = match c.name.as_str() {
            "d_eps_plus" => d_eps_plus(a[0], a[1], a[2]),
            "d_eps_minus" => d_eps_minus(a[0], a[1], a[2]),
            "d_eps" => d_eps(a[0], a[1], a[2]),
            other => panic!("unknown golden function {other}"),
        }
        .expect("golden points are in the domain");
        let cat = dpbai::functions::lookup(&c.name)
            .expect("catalogued")
            .call(a)
            .expect("in the domain");
        assert_eq!(lib.to_bits(), cat.to_bits(), "{} {a:?}", c.name);
        let r = err_of(lib, c.want);
        tally.record(&c.name, a, r, r <= D_EPS_TOL, || {
            format!(
                "{}({a:?}) = {lib:e}, golden {:e}, rel err {r:e} ({})",
                c.name, c.want, c.note
            )
        });
    }
    tally.finish();
    // coverage
    for f in ["d_eps_plus", "d_eps_minus", "d_eps"] {
        let n = cases.iter().filter(|c| c.name == f).count();
        assert!(n >= 40, "{f}: {n} points");
    }
    let has = |p: &dyn Fn(&Case) -> bool| cases.iter().any(p);
    assert!(has(&|c| c.args[2] == 1e-9) && has(&|c| c.args[2] == 1e3));
    assert!(has(&|c| c.args[2] == 1e-12), "stability down to ε = 1e-12");
    assert!(has(&|c| c.name == "d_eps_plus" && c.args[1] == 1.0));
    assert!(has(&|c| c.name == "d_eps_plus"
        && c.args[0] == 0.0
        && c.want > 0.0));
    for side in ["below the breakpoint", "above the breakpoint"] {
        for eps in [1e-9, 1e-3, 1.0, 10.0] {
            assert!(
                has(&|c| c.note.starts_with(side) && c.args[2] == eps),
                "{side} at ε = {eps}"
            );
        }
    }
    for side in ["above the mirrored", "below the mirrored"] {
        assert!(has(&|c| c.note.starts_with(side)), "{side}");
    }
}

/// `dpbai fn d-eps-plus|d-eps-minus|d-eps` print the library's value (round trip) on a sample
/// of the golden points, and refuse out-of-domain input with one line and exit code 2.
#[test]
fn cli_d_eps_matches_golden_and_refuses_bad_input() {
    let cases = cases();
    let mut checked = 0;
    for c in cases.iter().step_by(17) {
        let cmd = c.name.replace('_', "-");
        let mut args = vec!["fn", cmd.as_str()];
        args.extend(c.arg_text.iter().map(String::as_str));
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let v: f64 = out.trim().parse().expect("one number");
        assert!(
            err_of(v, c.want) <= D_EPS_TOL,
            "{args:?}: {v} vs {}",
            c.want
        );
        checked += 1;
    }
    assert!(checked >= 40, "{checked}");
    for (bad, what) in [
        (["d-eps-plus", "0.5", "1.5", "1"], "x = 1.5"),
        (["d-eps-minus", "-0.1", "0.5", "1"], "mu = -0.1"),
        (["d-eps", "0.5", "0.2", "0"], "eps = 0"),
        (["d-eps", "0.5", "0.2", "inf"], "eps = inf"),
        (["d-eps-plus", "nan", "0.2", "1"], "mu = NaN"),
        (["d-eps-minus", "0.5", "0.2", "-2"], "eps = -2"),
    ] {
        let mut args = vec!["fn"];
        args.extend(bad);
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(what), "{args:?}: {err}");
        assert!(out.is_empty());
    }
}

/// `kl(z, x)` by the textbook formula in double precision (test oracle away from cancellation).
fn kl_naive(z: f64, x: f64) -> f64 {
    let t = |p: f64, q: f64| if p == 0.0 { 0.0 } else { p * (p / q).ln() };
    t(z, x) + t(1.0 - z, 1.0 - x)
}

/// `sup_{t∈[0,1]} f(t)` of a concave `f` by golden section (80 steps: bracket below 1e-16).
fn max_concave(f: impl Fn(f64) -> f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.0f64, 1.0f64);
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    let mut best = f(0.0).max(f(1.0));
    for _ in 0..80 {
        best = best.max(fc).max(fd);
        if fc >= fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    best.max(fc).max(fd)
}

/// Donsker–Varadhan objective of the dual form on the binary alphabet, `h = (h(0), h(1))`:
/// `ε E_{Ber(μ)}[h] − log E_{Ber(x)}[e^{εh}]`.
fn dual_objective(mu: f64, x: f64, eps: f64, h0: f64, h1: f64) -> f64 {
    let m = h0.max(h1); // shift for a stable log-sum-exp (the objective is shift-invariant)
    eps * ((1.0 - mu) * (h0 - m) + mu * (h1 - m))
        - ((1.0 - x) * (eps * (h0 - m)).exp() + x * (eps * (h1 - m)).exp()).ln()
}

fn means() -> impl Strategy<Value = (f64, f64)> {
    (0.0f64..=1.0, 0.0f64..=1.0)
}

fn log_eps(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo..hi).prop_map(|l: f64| 10f64.powf(l))
}

proptest! {
    #![proptest_config(crate::common::prop_config(512))]

    /// [DERIVED] For x > μ the minimiser of the definition is z* = x/(x + (1 − x)e^ε), and
    /// z* <= μ ⟺ x <= g⁻_ε(μ); the value is the objective at max(z*, μ) and no z does better.
    #[test]
    fn minimiser_formula((mu, x) in means(), eps in log_eps(-2.0, 1.3), z in 0.0f64..=1.0) {
        let (lo, hi) = if mu < x { (mu, x) } else { (x, mu) };
        prop_assume!(hi - lo > 1e-6 && hi < 1.0);
        let v = d_eps_plus(lo, hi, eps).unwrap();
        let zs = hi / (hi + (1.0 - hi) * eps.exp());
        let g = d_eps_breakpoint(lo, eps).unwrap();
        if (zs - lo).abs() > 1e-9 && (hi - g).abs() > 1e-9 {
            prop_assert_eq!(zs <= lo, hi <= g, "z* = {}, g = {}", zs, g);
        }
        let zz = zs.max(lo);
        let obj = eps * (zz - lo) + kl_naive(zz, hi);
        prop_assert!(rel_err(v, obj) <= 1e-10, "{} vs objective {} at z* = {}", v, obj, zz);
        // the infimum over every z in [0, 1] (A.1): the objective at a random z is no smaller
        let at_z = eps * (z - lo).abs() + kl_bernoulli(z, hi).unwrap();
        prop_assert!(v <= at_z * (1.0 + INEQ_SLACK), "{} > objective {} at z = {}", v, at_z, z);
        // mirrored: d⁻_ε(μ, x) = d⁺_ε(1 − μ, 1 − x)
        let m = d_eps_minus(hi, lo, eps).unwrap();
        prop_assert!(rel_err(m, d_eps_plus(1.0 - hi, 1.0 - lo, eps).unwrap()) <= 1e-12);
    }

    /// [DERIVED] The branches meet with equal value and slope at g⁻_ε(μ) (C¹), the function is
    /// kl below and the poster's third branch above, and d⁺_ε(μ, ·) is convex on [μ, 1].
    #[test]
    fn c1_at_the_breakpoint_and_convex(
        mu in 0.01f64..0.99, eps in log_eps(-2.0, 1.0), u in prop::array::uniform3(0.0f64..1.0),
    ) {
        let g = d_eps_breakpoint(mu, eps).unwrap();
        prop_assume!(g < 1.0 - 1e-6);
        let a = -(-eps).exp_m1();
        let third = |x: f64| -(-x * a).ln_1p() - eps * mu;
        // equal value and slope at g
        prop_assert!(rel_err(third(g), kl_bernoulli(mu, g).unwrap()) <= 1e-9);
        let slope_kl = (g - mu) / (g * (1.0 - g));
        let slope_3 = a / (1.0 - g * a);
        // (g is rounded to a double: relative 1e-16/(1 − g) on 1 − g)
        prop_assert!(rel_err(slope_kl, slope_3) <= 1e-9, "{} vs {}", slope_kl, slope_3);
        // kl just below, third branch just above
        let below = mu + (g - mu) * 0.999;
        let above = g + (1.0 - g) * 0.001;
        prop_assert!(rel_err(d_eps_plus(mu, below, eps).unwrap(), kl_bernoulli(mu, below).unwrap()) <= 1e-13);
        prop_assert!(rel_err(d_eps_plus(mu, above, eps).unwrap(), third(above)) <= 1e-9);
        // one-sided difference quotients at g agree (C¹): both tend to the common slope
        let h = 1e-6 * (1.0 - g).min(g - mu);
        let dv = |x: f64| d_eps_plus(mu, x, eps).unwrap();
        let left = (dv(g) - dv(g - h)) / h;
        let right = (dv(g + h) - dv(g)) / h;
        prop_assert!(rel_err(left, slope_kl) <= 1e-4 && rel_err(right, slope_kl) <= 1e-4,
            "left {} right {} slope {}", left, right, slope_kl);
        // convex on [μ, 1]: the middle of three points lies below their chord
        let mut xs = u.map(|t| mu + (1.0 - mu) * t);
        xs.sort_by(f64::total_cmp);
        prop_assume!(xs[2] - xs[0] > 1e-6);
        let lam = (xs[2] - xs[1]) / (xs[2] - xs[0]);
        let chord = lam * dv(xs[0]) + (1.0 - lam) * dv(xs[2]);
        prop_assert!(dv(xs[1]) <= chord * (1.0 + INEQ_SLACK) + 1e-300);
    }

    /// [DERIVED] Finite everywhere: d⁺_ε(μ, 1) = ε(1 − μ), d⁺_ε(0, x) = −log(1 − x(1 − e^{−ε}))
    /// (and their mirrors d⁻_ε(μ, 0) = εμ, d⁻_ε(1, x) = −log(1 − (1 − x)(1 − e^{−ε}))).
    #[test]
    fn finite_values(mu in 0.0f64..=1.0, x in 0.0f64..=1.0, eps in log_eps(-12.0, 3.0)) {
        let a = -(-eps).exp_m1();
        prop_assert!(rel_err(d_eps_plus(mu, 1.0, eps).unwrap(), eps * (1.0 - mu)) <= 1e-15);
        prop_assert!(rel_err(d_eps_minus(mu, 0.0, eps).unwrap(), eps * mu) <= 1e-15);
        prop_assert!(rel_err(d_eps_plus(0.0, x, eps).unwrap(), -(-x * a).ln_1p()) <= 1e-13);
        prop_assert!(rel_err(d_eps_minus(1.0, x, eps).unwrap(), -(-(1.0 - x) * a).ln_1p()) <= 1e-13);
        let v = d_eps(mu, x, eps).unwrap();
        prop_assert!(v.is_finite() && v >= 0.0);
    }

    /// [DERIVED] Sandwich 0 <= d_ε <= min{kl, ε·TV}, with d_ε = kl iff
    /// ε >= |log(x(1 − μ)/(μ(1 − x)))|; hence d_ε → kl as ε → ∞ (equal from that finite ε on).
    #[test]
    fn sandwich_and_equality((mu, x) in means(), eps in log_eps(-6.0, 2.5)) {
        let v = d_eps(mu, x, eps).unwrap();
        let kl = kl_bernoulli(mu, x).unwrap();
        let tv = (x - mu).abs();
        prop_assert!(v >= 0.0);
        prop_assert!(v <= kl * (1.0 + INEQ_SLACK), "{} > kl {}", v, kl);
        prop_assert!(v <= eps * tv * (1.0 + INEQ_SLACK), "{} > eps tv {}", v, eps * tv);
        let thr = d_eps_kl_threshold(mu, x).unwrap();
        if tv > 1e-9 {
            let above = thr * (1.0 + 1e-9);
            if above.is_finite() && above > 0.0 {
                prop_assert!(rel_err(d_eps(mu, x, above).unwrap(), kl) <= D_EPS_TOL,
                    "at eps = {} (threshold {})", above, thr);
                prop_assert!(rel_err(d_eps(mu, x, 2.0 * above + 1.0).unwrap(), kl) <= D_EPS_TOL);
            }
            let under = thr * 0.9;
            if under > 0.0 && under.is_finite() {
                prop_assert!(d_eps(mu, x, under).unwrap() < kl * (1.0 - 1e-9),
                    "d = kl below the threshold {}", thr);
            } else if thr.is_infinite() && kl.is_finite() {
                // a mean at 0 or 1: never equal at finite ε
                prop_assert!(v < kl);
            }
        }
    }

    /// [DERIVED] d_ε/(ε·TV) → 1 as ε → 0, at the rate 0 <= 1 − d_ε/(ε TV) <= (e^ε − 1)/(4 TV)
    /// (the minimiser is within x(1 − x)(e^ε − 1) of the alternative).
    #[test]
    fn small_eps_limit((mu, x) in means(), eps in log_eps(-12.0, -4.0)) {
        let tv = (x - mu).abs();
        prop_assume!(tv >= 0.01);
        let ratio = d_eps(mu, x, eps).unwrap() / (eps * tv);
        let rate = eps.exp_m1() / (4.0 * tv);
        prop_assert!(1.0 - ratio >= -1e-13 && 1.0 - ratio <= rate * (1.0 + 1e-6) + 1e-13,
            "1 - ratio = {}, bound {}", 1.0 - ratio, rate);
    }

    /// [DERIVED] ε ↦ d_ε is non-decreasing and concave, and ε ↦ d_ε/ε is non-increasing.
    #[test]
    fn monotone_concave_in_eps(
        (mu, x) in means(), e in prop::array::uniform3(-6.0f64..2.0),
    ) {
        let mut es = e.map(|l| 10f64.powf(l));
        es.sort_by(f64::total_cmp);
        prop_assume!(es[2] > es[0] * (1.0 + 1e-6));
        let d: Vec<f64> = es.iter().map(|&ep| d_eps(mu, x, ep).unwrap()).collect();
        prop_assert!(d[0] <= d[1] * (1.0 + INEQ_SLACK) && d[1] <= d[2] * (1.0 + INEQ_SLACK));
        let lam = (es[2] - es[1]) / (es[2] - es[0]);
        let chord = lam * d[0] + (1.0 - lam) * d[2];
        prop_assert!(d[1] >= chord * (1.0 - INEQ_SLACK), "{:?} at {:?}", d, es);
        prop_assert!(d[0] / es[0] >= d[1] / es[1] * (1.0 - INEQ_SLACK));
        prop_assert!(d[1] / es[1] >= d[2] / es[2] * (1.0 - INEQ_SLACK));
    }

    /// [DERIVED] Dual form on the binary alphabet:
    /// d_ε(ν, κ) = sup_{h: {0,1}→[0,1]} ε E_ν[h] − log E_κ[e^{εh}] (Donsker–Varadhan with the
    /// oscillation of h capped at ε): every h gives a lower bound, and the supremum (over
    /// h = (t, 0) and (0, t), enough by shift invariance) attains d_ε.
    #[test]
    fn dual_form(
        mu in 0.0f64..=1.0, x in 0.001f64..0.999, eps in log_eps(-2.0, 1.0),
        h in prop::array::uniform2(0.0f64..=1.0),
    ) {
        let v = d_eps(mu, x, eps).unwrap();
        let weak = dual_objective(mu, x, eps, h[0], h[1]);
        prop_assert!(weak <= v * (1.0 + INEQ_SLACK) + 1e-15, "h = {:?}: {} > {}", h, weak, v);
        let sup = max_concave(|t| dual_objective(mu, x, eps, t, 0.0))
            .max(max_concave(|t| dual_objective(mu, x, eps, 0.0, t)));
        prop_assert!((sup - v).abs() <= 1e-10 * v + 1e-15, "sup {} vs d_eps {}", sup, v);
    }

    /// Out of the domain: an error naming the argument, never NaN; inside it: a finite value.
    #[test]
    fn never_nan(mu in -0.5f64..1.5, x in -0.5f64..1.5, le in -14.0f64..4.0) {
        let eps = 10f64.powf(le);
        for f in [d_eps_plus, d_eps_minus, d_eps] {
            match f(mu, x, eps) {
                Ok(v) => prop_assert!(v.is_finite() && v >= 0.0 && (0.0..=1.0).contains(&mu)
                    && (0.0..=1.0).contains(&x)),
                Err(e) => {
                    let s = e.to_string();
                    prop_assert!(!(0.0..=1.0).contains(&mu) || !(0.0..=1.0).contains(&x), "{}", s);
                    prop_assert!(s.contains("mu") || s.contains("x ="), "{}", s);
                }
            }
        }
    }
}
