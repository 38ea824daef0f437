//! [BAI25]'s tight global-DP time `T*_ε`, `T*_{ε,β}`, the transport cost `C*_ε`, the exact
//! low-privacy switch and DP-TT's upper bounds: golden values (mpmath,
//! `verify/golden_t_eps.py`), the relations to the first paper's times as property tests, and
//! the `bounds` command line.

use crate::common::{rel_err, run_cli};
use dpbai::complexity::{
    self, CERTIFIED_REL_WIDTH, Certified, eps_switch_low_privacy, t_eps, t_eps_beta, t_global,
    t_kl, t_tv, transport_cost_eps, transport_cost_eps_unchecked, upper,
};
use dpbai::divergence::{d_eps_minus, d_eps_plus};
use dpbai::instance::Instance;
use proptest::prelude::*;

/// Relative error of `T*_ε`, `T*_{ε,β}` against the 40-digit mpmath values (as `GOLDEN_TOL`
/// of `tests/complexity.rs`: the certificate is 1e-9 wide, the value inside it).
const T_EPS_TOL: f64 = 1e-8;
/// Relative error of the transport cost `C*_ε` against mpmath's minimisation: the value at
/// the closed-form minimiser, a few `d_ε` evaluations (1e-13 each, `D_EPS_TOL` of
/// `tests/d_eps.rs`) whose error the minimisation does not amplify.
const C_EPS_TOL: f64 = 1e-12;
/// Slack of a comparison between two certified values (each within 1e-9 of the truth).
const CERT_SLACK: f64 = 3e-9;

fn ber(m: &[f64]) -> Instance {
    Instance::bernoulli(m.to_vec()).expect("valid instance")
}

fn checked(c: Certified) -> Certified {
    assert!(c.contains_value(), "{c:?}");
    assert!(c.rel_width() <= CERTIFIED_REL_WIDTH, "{c:?}");
    let s: f64 = c.allocation.iter().sum();
    assert!((s - 1.0).abs() < 1e-12, "allocation sums to {s}");
    c
}

const MU1: [f64; 5] = [0.95, 0.9, 0.9, 0.9, 0.5];
const MU2: [f64; 5] = [0.75, 0.7, 0.7, 0.7, 0.7];

#[test]
fn golden_values_t_eps_and_c_eps() {
    let g = crate::common::load_toml("t_eps_golden.toml");
    assert_eq!(g["generator"].as_str(), Some("verify/golden_t_eps.py"));
    assert_eq!(g["digits"].as_integer(), Some(40));
    let num = |v: &toml::Value| v.as_float().or(v.as_integer().map(|i| i as f64));
    let cases = g["case"].as_array().expect("cases");
    let (mut times, mut costs, mut worst) = (0, 0, (0.0f64, 0.0f64));
    for c in cases {
        let want: f64 = c["value"].as_str().expect("value").parse().expect("number");
        let kind = c["kind"].as_str().expect("kind");
        if kind == "c_eps" {
            let a: Vec<f64> = c["args"]
                .as_array()
                .expect("args")
                .iter()
                .map(|v| num(v).expect("number"))
                .collect();
            let got = transport_cost_eps(a[0], a[1], a[2], a[3], a[4]).unwrap();
            let e = rel_err(got, want);
            assert!(e <= C_EPS_TOL, "C*_eps{a:?} = {got}, golden {want} ({e:e})");
            assert_eq!(
                got,
                transport_cost_eps_unchecked(a[0], a[1], a[2], a[3], a[4])
            );
            worst.1 = worst.1.max(e);
            costs += 1;
            continue;
        }
        let means: Vec<f64> = c["means"]
            .as_array()
            .expect("means")
            .iter()
            .map(|v| num(v).expect("mean"))
            .collect();
        let nu = ber(&means);
        let eps = num(&c["eps"]).expect("eps");
        let got = checked(match kind {
            "t_eps" => t_eps(&nu, eps).unwrap(),
            "t_eps_beta" => t_eps_beta(&nu, eps, num(&c["beta"]).expect("beta")).unwrap(),
            other => panic!("unknown kind {other}"),
        });
        let e = rel_err(got.value, want);
        let label = format!("{means:?} {kind} eps {eps}: {} vs {want}", got.value);
        assert!(e <= T_EPS_TOL, "{label} ({e:e})");
        // the certificate is a proof: the 25-digit value lies inside it
        assert!(
            got.lower <= want * (1.0 + 1e-15) && want <= got.upper * (1.0 + 1e-15),
            "{label}: outside [{}, {}]",
            got.lower,
            got.upper
        );
        worst.0 = worst.0.max(e);
        times += 1;
    }
    eprintln!(
        "t_eps golden: {times} times (max rel err {:e}), {costs} costs ({:e})",
        worst.0, worst.1
    );
    assert!(times >= 20 && costs >= 10);
}

/// The acceptance command `bounds --means M --eps E --json`: `t_eps` with its value, its
/// certified bracket (relative width <= 1e-9) and its allocation; the lower bound with
/// [BAI25]'s factor, DP-TT's upper bounds, the exact low-privacy switch; Gaussian arms give
/// no `T*_ε` and refuse DP-TT's bound.
#[test]
fn cli_json_t_eps() {
    for (m, e) in [
        ("0.95,0.9,0.9,0.9,0.5", "0.1"),
        ("0.75,0.7,0.7,0.7,0.7", "0.01"),
    ] {
        let (code, out, err) = run_cli(&["bounds", "--means", m, "--eps", e, "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
        // value, certified bracket of relative width <= 1e-9, allocation
        let val = crate::common::certified_json(&v["t_eps"], 5);
        let eps: f64 = e.parse().unwrap();
        let nu = ber(&m.split(',').map(|x| x.parse().unwrap()).collect::<Vec<_>>());
        assert_eq!(val, t_eps(&nu, eps).unwrap().value);
        assert!(val >= v["t_global"]["value"].as_f64().unwrap());
        let lb = &v["sample_lower_bounds"];
        assert_eq!(lb["factors"]["t_eps"], "log(1/(3 delta))");
        assert_eq!(lb["factors"]["global"], "log(1/(2.4 delta))");
        assert!(rel_err(lb["t_eps"].as_f64().unwrap(), val * (100.0f64 / 3.0).ln()) < 1e-15);
        assert!(
            rel_err(
                v["log_factor_bai25"].as_f64().unwrap(),
                (100.0f64 / 3.0).ln()
            ) < 1e-15
        );
        let ub = &v["upper_bounds"];
        assert_eq!(ub["dp_tt"]["lower_time"], "t_eps");
        assert_eq!(ub["dp_tt"]["lower_time_value"].as_f64(), Some(val));
        assert!(rel_err(ub["dp_tt_8t_eps"]["value"].as_f64().unwrap(), 8.0 * val) < 1e-15);
        let tb = v["t_eps_beta"]["value"].as_f64().unwrap();
        assert!(rel_err(ub["dp_tt"]["value"].as_f64().unwrap(), 4.0 * tb) < 1e-15);
        let s = &v["eps_switch_low_privacy"];
        assert!(s["exact"].as_f64().unwrap() <= s["sufficient"].as_f64().unwrap());
        // the table labels each bound with its factor
        let (code, out, _) = run_cli(&["bounds", "--means", m, "--eps", e]);
        assert_eq!(code, 0);
        let line = out
            .lines()
            .find(|l| l.contains("T*_eps log(1/(3 delta))"))
            .expect("T*_eps lower bound line");
        assert!(line.contains("[BAI25]"), "{line}");
        assert!(out.contains("T_global log(1/(2.4 delta))") && out.contains("DP-TT [BAI25]"));
        assert!(out.contains("eps switch low privacy [BAI25]"));
    }
    let (code, out, err) = run_cli(&[
        "bounds", "--family", "gaussian", "--means", "1,0.5", "--sigma", "1", "--eps", "0.5",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert!(v["t_eps"].is_null() && v["eps_switch_low_privacy"].is_null());
    assert!(v["upper_bounds"]["dp_tt"]["value"].is_null());
    assert!(
        v["upper_bounds"]["dp_tt"]["refused"]
            .as_str()
            .unwrap()
            .contains("[0, 1]")
    );
    // --eps-grid columns
    let (code, out, err) = run_cli(&[
        "bounds",
        "--means",
        "0.9,0.6,0.5",
        "--eps-grid",
        "0.01:10:4",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.trim().lines().collect();
    let head: Vec<&str> = lines[0].split(',').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).expect(n);
    let nu = ber(&[0.9, 0.6, 0.5]);
    for l in &lines[1..] {
        let r: Vec<f64> = l.split(',').map(|x| x.parse().unwrap()).collect();
        let te = t_eps(&nu, r[0]).unwrap();
        assert_eq!(r[col("t_eps")], te.value);
        assert!(
            r[col("t_eps_lower")] <= r[col("t_eps")] && r[col("t_eps")] <= r[col("t_eps_upper")]
        );
        assert!(r[col("t_eps_over_t_global")] >= 1.0 - CERT_SLACK);
        assert!(rel_err(r[col("ub_dp_tt_8t_eps")], 8.0 * te.value) < 1e-15);
        assert!(r[col("lb_t_eps")] < r[col("t_eps")] * 3.51);
    }
}

/// [DERIVED] The exact low-privacy switch: `T*_ε = T*_KL` from it on and not below it, and it
/// never exceeds the poster's sufficient condition.
#[test]
fn exact_low_privacy_switch() {
    for m in [
        MU1.to_vec(),
        MU2.to_vec(),
        vec![0.5, 0.4],
        vec![0.9, 0.2, 0.1],
        vec![0.3, 0.25, 0.1, 0.05],
    ] {
        let nu = ber(&m);
        let s = eps_switch_low_privacy(&nu).unwrap();
        let kl = t_kl(&nu).unwrap().value;
        assert!(s.exact > 0.0 && s.exact <= s.sufficient, "{m:?}: {s:?}");
        let above = t_eps(&nu, s.exact * (1.0 + 1e-6)).unwrap().value;
        assert!(rel_err(above, kl) < CERT_SLACK, "{m:?}: {above} vs {kl}");
        let below = t_eps(&nu, s.exact * 0.97).unwrap().value;
        assert!(below > kl * (1.0 + 1e-7), "{m:?}: {below} vs {kl}");
        let suff = t_eps(&nu, s.sufficient).unwrap().value;
        assert!(rel_err(suff, kl) < CERT_SLACK);
    }
    // a mean at 0 or 1: d_eps < kl at every finite eps, no switch
    let s = eps_switch_low_privacy(&ber(&[1.0, 0.5])).unwrap();
    assert!(s.exact.is_infinite() && s.sufficient.is_infinite());
    let g = Instance::gaussian(vec![1.0, 0.0], 1.0).unwrap();
    assert!(eps_switch_low_privacy(&g).is_err() && t_eps(&g, 1.0).is_err());
}

#[test]
fn hard_instances_certify() {
    for m in crate::common::hard_bernoulli_means() {
        let nu = ber(&m);
        for e in [1e-6, 1e-3, 0.05, 0.6, 3.0, 100.0, 1e4] {
            checked(t_eps(&nu, e).unwrap_or_else(|err| panic!("{:?} eps {e}: {err}", &m[..2])));
            checked(t_eps_beta(&nu, e, 0.3).unwrap());
        }
    }
}

#[test]
fn bad_parameters_are_errors() {
    let nu = ber(&MU1);
    for e in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(t_eps(&nu, e).is_err() && t_eps_beta(&nu, e, 0.5).is_err());
        assert!(transport_cost_eps(0.9, 0.5, 1.0, 1.0, e).is_err());
    }
    for b in [0.0, 1.0, f64::NAN] {
        assert!(t_eps_beta(&nu, 0.5, b).is_err());
    }
    assert!(transport_cost_eps(f64::NAN, 0.5, 1.0, 1.0, 1.0).is_err());
    assert!(transport_cost_eps(0.9, 0.5, -1.0, 1.0, 1.0).is_err());
    assert!(upper::dp_tt(&nu, 0.5, 0.5, 0.0).is_err());
}

/// `C*_ε`: clipping of private means, zero when the challenger is not below the leader,
/// positive homogeneity, the sandwich `C*_ε <= min{C*_KL, εΔ min(ω)}` and the definition
/// (no `x` of the interval gives a smaller objective).
#[test]
fn transport_cost_facts() {
    assert_eq!(transport_cost_eps(0.5, 0.5, 1.0, 1.0, 1.0).unwrap(), 0.0);
    assert_eq!(transport_cost_eps(0.4, 0.5, 1.0, 1.0, 1.0).unwrap(), 0.0);
    assert_eq!(transport_cost_eps(0.9, 0.5, 0.0, 1.0, 1.0).unwrap(), 0.0);
    // a noisy mean outside [0, 1] is clipped
    assert_eq!(
        transport_cost_eps(1.3, -0.2, 2.0, 3.0, 0.7).unwrap(),
        transport_cost_eps(1.0, 0.0, 2.0, 3.0, 0.7).unwrap()
    );
}

proptest! {
    #![proptest_config(crate::common::prop_config(1000))]

    /// [DERIVED] ([BAI25] poster vs the first paper's Thm. 17), on 1000 random instances with
    /// K <= 20: T*_ε >= T_g(ε) >= max{T*_KL, T*_TV/ε}; T*_ε non-increasing and ε·T*_ε
    /// non-decreasing in ε; and ε·T*_ε → T*_TV as ε → 0, at the proven rate
    /// T_TV <= ε T*_ε <= T_TV/(1 − T_TV (e^ε − 1)/4) (d⁺_ε(μ, x) >= ε(x − μ) − ε(e^ε − 1)/4).
    #[test]
    fn t_eps_relations(
        means in prop::collection::vec(0.0f64..=1.0, 2..=20),
        le in -2.0f64..1.0,
    ) {
        let Ok(nu) = Instance::bernoulli(means) else { return Ok(()); };
        prop_assume!(nu.delta_min() >= 1e-3);
        let e1 = 10f64.powf(le);
        let e2 = 1.7 * e1;
        let kl = t_kl(&nu).unwrap().value;
        let tv = t_tv(&nu).unwrap().value;
        let g = t_global(&nu, e1).unwrap().value;
        let t1 = checked(t_eps(&nu, e1).unwrap()).value;
        let t2 = checked(t_eps(&nu, e2).unwrap()).value;
        prop_assert!(t1 >= g * (1.0 - CERT_SLACK), "T*_eps {} < T_g {}", t1, g);
        prop_assert!(g >= kl.max(tv / e1) * (1.0 - CERT_SLACK));
        prop_assert!(t2 <= t1 * (1.0 + CERT_SLACK), "not non-increasing: {} {}", t1, t2);
        prop_assert!(e2 * t2 >= e1 * t1 * (1.0 - CERT_SLACK), "eps T*_eps decreased");
        // the limit ε → 0
        let e0 = (4e-3 / tv).min(1e-3);
        let t0 = checked(t_eps(&nu, e0).unwrap()).value;
        let room = 1.0 - tv * e0.exp_m1() / 4.0;
        prop_assert!(e0 * t0 >= tv * (1.0 - CERT_SLACK), "{} < T_TV {}", e0 * t0, tv);
        prop_assert!(e0 * t0 <= tv / room * (1.0 + CERT_SLACK),
            "eps T*_eps = {} vs T_TV = {} (bound {})", e0 * t0, tv, tv / room);
    }
}

proptest! {
    #![proptest_config(crate::common::prop_config(128))]

    /// [DERIVED] T*_ε <= T*_{ε,1/2} <= 2 T*_ε (so DP-TT's 2(1 + η)T*_{ε,1/2} <= 8 T*_ε at
    /// η = 1), and the optimal allocation's costs are equal across challengers (B.2).
    #[test]
    fn beta_time_and_equal_costs(
        means in prop::collection::vec(0.01f64..0.99, 2..=8),
        le in -2.0f64..1.0,
    ) {
        let Ok(nu) = Instance::bernoulli(means) else { return Ok(()); };
        prop_assume!(nu.delta_min() >= 1e-3);
        let e = 10f64.powf(le);
        let c = t_eps(&nu, e).unwrap();
        let tb = t_eps_beta(&nu, e, 0.5).unwrap().value;
        prop_assert!(c.value <= tb * (1.0 + CERT_SLACK) && tb <= 2.0 * c.value * (1.0 + CERT_SLACK));
        let b = upper::dp_tt(&nu, e, 0.5, 1.0).unwrap();
        prop_assert!(b.dp_tt.value <= b.dp_tt_8t_eps.value * (1.0 + CERT_SLACK));
        let (best, top) = (nu.best(), nu.best_mean());
        let w = &c.allocation;
        for a in (0..nu.k()).filter(|&a| a != best) {
            let cost = transport_cost_eps(top, nu.means()[a], w[best], w[a], e).unwrap();
            prop_assert!(rel_err(cost * c.value, 1.0) < 1e-7, "arm {}: {}", a, cost * c.value);
        }
    }

    /// C*_ε is the infimum of its definition (no x of a grid does better), 1-homogeneous and
    /// non-decreasing in the weights, and <= min{C*_KL, ε Δ min(ω)}.
    #[test]
    fn transport_cost_definition(
        top in 0.0f64..=1.0, low in 0.0f64..=1.0, u in 0.01f64..10.0, w in 0.01f64..10.0,
        le in -4.0f64..2.0, s in 0.1f64..10.0,
    ) {
        prop_assume!(top > low);
        let e = 10f64.powf(le);
        let c = transport_cost_eps(top, low, u, w, e).unwrap();
        for i in 0..=64 {
            let x = low + (top - low) * i as f64 / 64.0;
            let obj = u * d_eps_minus(top, x, e).unwrap() + w * d_eps_plus(low, x, e).unwrap();
            prop_assert!(c <= obj * (1.0 + 1e-12), "x = {}: {} > {}", x, c, obj);
        }
        prop_assert!(rel_err(transport_cost_eps(top, low, s * u, s * w, e).unwrap(), s * c) < 1e-12);
        prop_assert!(transport_cost_eps(top, low, 1.5 * u, w, e).unwrap() >= c * (1.0 - 1e-13));
        prop_assert!(c <= e * (top - low) * u.min(w) * (1.0 + 1e-12));
        let z = (u * top + w * low) / (u + w);
        let ckl = u * dpbai::divergence::kl_bernoulli(top, z).unwrap()
            + w * dpbai::divergence::kl_bernoulli(low, z).unwrap();
        prop_assert!(c <= ckl * (1.0 + 1e-12));
    }
}

/// The quantities of the report's question: T*_ε, T_g, T*_KL, T_TV/ε on μ1 and μ2 over the
/// poster's regime grid (printed; the relations asserted).
#[test]
fn mu1_mu2_table() {
    for (name, m) in [("mu1", MU1), ("mu2", MU2)] {
        let nu = ber(&m);
        let kl = t_kl(&nu).unwrap().value;
        let tv = t_tv(&nu).unwrap().value;
        let s = eps_switch_low_privacy(&nu).unwrap();
        for e in [0.001, 0.01, 0.1, 0.45, 1.0, 10.0] {
            let te = t_eps(&nu, e).unwrap().value;
            let g = t_global(&nu, e).unwrap().value;
            println!(
                "{name} eps {e:>6}: T*_eps {te:>14.6} T_g {g:>14.6} T_KL {kl:>10.4} T_TV/eps \
                 {:>14.6} ratio {:.5} (switch {:.6}, sufficient {:.6})",
                tv / e,
                te / g,
                s.exact,
                s.sufficient
            );
            assert!(te >= g * (1.0 - CERT_SLACK));
        }
    }
    let _ = complexity::log_factor_bai25;
}
