//! Integration tests for `complexity`: golden values (mpmath), the paper's relations as
//! property tests, READINGS.md §B.12's reference tables, closed-form oracles and the `bounds` CLI.

use crate::common::{rel_err, run_cli};
use approx::{assert_relative_eq, relative_eq};
use dpbai::complexity::{self, CERTIFIED_REL_WIDTH, Certified, TimeKind, characteristic_time};
use dpbai::divergence::{c_local, kl_bernoulli, pinsker_switch_eps};
use dpbai::instance::Instance;
use proptest::prelude::*;

/// Golden tolerance (relative error vs the mpmath reference).
const GOLDEN_TOL: f64 = 1e-8;
/// Slack for comparisons between two certified values (each is within 1e-9 of the truth).
const CERT_SLACK: f64 = 3e-9;
/// READINGS.md §B.12 prints 5-7 significant digits.
const B12_TOL: f64 = 5e-5;

fn checked(c: &Certified) -> &Certified {
    assert!(c.contains_value(), "{c:?}");
    assert!(c.rel_width() <= CERTIFIED_REL_WIDTH, "{c:?}");
    let s: f64 = c.allocation.iter().sum();
    assert!((s - 1.0).abs() < 1e-12, "allocation sums to {s}");
    assert!(c.allocation.iter().all(|&w| w >= 0.0));
    c
}

fn t(kind: TimeKind, nu: &Instance) -> f64 {
    checked(&characteristic_time(kind, nu).expect("solver converges")).value
}

fn ber(m: &[f64]) -> Instance {
    Instance::bernoulli(m.to_vec()).expect("valid instance")
}

fn paper() -> Vec<(&'static str, Vec<f64>)> {
    vec![
        ("mu1", vec![0.95, 0.9, 0.9, 0.9, 0.5]),
        ("mu2", vec![0.75, 0.7, 0.7, 0.7, 0.7]),
        ("mu3", vec![0.0, 0.25, 0.5, 0.75, 1.0]),
        ("mu4", vec![0.75, 0.625, 0.5, 0.375, 0.25]),
        ("mu5", vec![0.75, 0.53125, 0.375, 0.28125, 0.25]),
        ("mu6", vec![0.75, 0.71875, 0.625, 0.46875, 0.25]),
    ]
}

// ------------------------------------------------------------------------------------------
// golden values: verify/golden_bounds.py (mpmath, 40 digits, a different algorithm)

#[test]
fn golden_values_from_mpmath() {
    let g = crate::common::load_toml("bounds_golden.toml");
    let cases = g["case"].as_array().expect("[[case]] array");
    let num = |v: &toml::Value| v.as_float().or(v.as_integer().map(|i| i as f64));
    assert!(cases.len() >= 100, "only {} golden cases", cases.len());
    assert_eq!(g["digits"].as_integer(), Some(40));
    let mut instances = std::collections::BTreeSet::new();
    let (mut worst, mut worst_case) = (0.0f64, String::new());
    let mut max_width = 0.0f64;
    let mut upper_cases = 0usize;
    for c in cases {
        let name = c["instance"].as_str().expect("instance");
        let fam = c["family"].as_str().expect("family");
        let sigma = num(&c["sigma"]).expect("sigma");
        let means: Vec<f64> = c["means"]
            .as_array()
            .expect("means")
            .iter()
            .map(|v| num(v).expect("mean"))
            .collect();
        let nu = match fam {
            "bernoulli" => Instance::bernoulli(means).expect("instance"),
            _ => Instance::gaussian(means, sigma).expect("instance"),
        };
        instances.insert(name.to_string());
        let eps = c.get("eps").map(|v| num(v).expect("eps"));
        let beta = c.get("beta").map(|v| num(v).expect("beta"));
        let want: f64 = c["value"].as_str().expect("value").parse().expect("number");
        let kind_name = c["kind"].as_str().expect("kind");
        if kind_name.starts_with("ub_") {
            // upper bounds per log(1/δ) (Sec. 3.2, Thm. 22, 24, L. 52, App. H), σ the instance's
            let got = golden_upper(kind_name, &nu, eps, beta.expect("beta"));
            let e = rel_err(got, want);
            let label = format!("{name} {kind_name} eps {eps:?}: got {got} want {want}");
            assert!(
                relative_eq!(got, want, epsilon = 0.0, max_relative = GOLDEN_TOL),
                "{label} (rel err {e:e})"
            );
            upper_cases += 1;
            if e > worst {
                worst = e;
                worst_case = label;
            }
            continue;
        }
        let kind = match kind_name {
            "t_kl" => TimeKind::Kl,
            "t_kl_gaussian" => TimeKind::KlGaussian { sigma },
            "t_kl_beta" => TimeKind::KlBeta {
                beta: beta.expect("beta"),
            },
            "t_tv" => TimeKind::Tv,
            "t_tv2" => TimeKind::Tv2,
            "t_local" => TimeKind::Local {
                eps: eps.expect("eps"),
            },
            "t_global" => TimeKind::Global {
                eps: eps.expect("eps"),
            },
            "t_kl_g_eps" => TimeKind::KlGEps {
                eps: eps.expect("eps"),
            },
            "t_kl_beta_g_eps" => TimeKind::KlBetaGEps {
                eps: eps.expect("eps"),
                beta: beta.expect("beta"),
            },
            other => panic!("unknown kind {other}"),
        };
        let got = characteristic_time(kind, &nu).expect("solver converges");
        checked(&got);
        let e = rel_err(got.value, want);
        let label = format!("{name} {kind:?}: got {} want {want}", got.value);
        assert!(
            relative_eq!(got.value, want, epsilon = 0.0, max_relative = GOLDEN_TOL),
            "{label} (rel err {e:e})"
        );
        // the certificate is a proof: the exact value must lie inside (golden has 25 digits)
        assert!(
            got.lower <= want * (1.0 + 1e-15) && want <= got.upper * (1.0 + 1e-15),
            "{label}: outside [{}, {}]",
            got.lower,
            got.upper
        );
        if e > worst {
            worst = e;
            worst_case = label;
        }
        max_width = max_width.max(got.rel_width());
    }
    eprintln!(
        "golden: {} cases, {} instances, max rel err {worst:e} ({worst_case}), max rel width {max_width:e}",
        cases.len(),
        instances.len()
    );
    assert!(instances.len() >= 30, "only {} instances", instances.len());
    assert!(upper_cases >= 100, "only {upper_cases} upper-bound cases");
}

/// The upper bound of golden kind `kind` (`ub_*`) from `complexity::upper`.
fn golden_upper(kind: &str, nu: &Instance, eps: Option<f64>, beta: f64) -> f64 {
    use complexity::upper;
    if kind == "ub_dpa" {
        return upper::dpa(nu, beta).expect("dpa").value;
    }
    let u = upper::upper_bounds(nu, eps.expect("eps"), beta).expect("upper bounds");
    let v = match kind {
        "ub_ctb_tt" => u.ctb_tt.finite(),
        "ub_ctb_tt_ids" => u.ctb_tt_ids.finite(),
        "ub_adap_tt" => Some(u.adap_tt.value),
        "ub_thm24_main" => Some(u.adap_tt_star.thm24_main),
        "ub_lemma52_app" => Some(u.adap_tt_star.lemma52_app),
        "ub_proof_max" => Some(u.adap_tt_star.proof_max),
        other => panic!("unknown kind {other}"),
    };
    v.unwrap_or_else(|| panic!("{kind} refused on {:?}", nu.means()))
}

// ------------------------------------------------------------------------------------------
// READINGS.md §B.12 reference values (prototype, 5-7 digits)

#[test]
fn b12_reference_table() {
    // (T_KL^Ber, ω*_{a*}, T_{KL,1/2}^Ber, T_KL^G(½), β*, T^G_{KL,½}, H^G, T_TV, T_TV2, ε_ℓ*, ε_g*)
    let rows: [[f64; 11]; 6] = [
        [
            395.5415, 0.390444, 414.442, 1495.301, 0.36542, 1603.72, 802.469, 82.2222, 2990.601,
            0.8649, 0.2079,
        ],
        [
            1424.747, 0.337643, 1574.89, 1800.000, 0.33333, 2000.00, 1000.00, 100.000, 3600.000,
            0.6186, 0.0702,
        ],
        [
            11.43016, 0.554470, 11.5545, 35.7418, 0.45050, 36.1200, 19.3889, 12.3333, 71.4836,
            0.8111, 1.0790,
        ],
        [
            122.8431, 0.456894, 123.827, 142.967, 0.45046, 144.480, 77.5556, 24.6667, 285.934,
            0.6057, 0.2008,
        ],
        [
            46.37677, 0.427435, 47.4459, 50.8337, 0.41820, 52.3349, 28.7291, 15.9429, 101.667,
            0.5964, 0.3438,
        ],
        [
            1631.870, 0.492613, 1632.23, 2089.40, 0.49020, 2090.21, 1064.32, 77.5556, 4178.79,
            0.6207, 0.0475,
        ],
    ];
    for ((name, m), r) in paper().iter().zip(rows.iter()) {
        let nu = ber(m);
        let kl = complexity::t_kl(&nu).unwrap();
        let klg = complexity::t_kl_gaussian(&nu, 0.5).unwrap();
        let best = nu.best();
        let got = [
            kl.value,
            kl.allocation[best],
            complexity::t_kl_beta(&nu, 0.5).unwrap().value,
            klg.value,
            klg.allocation[best],
            complexity::t_kl_gaussian_beta(&nu, 0.5, 0.5).unwrap().value,
            nu.hardness_h(0.5),
            complexity::t_tv(&nu).unwrap().value,
            complexity::t_tv2(&nu).unwrap().value,
            complexity::eps_switch_local(&nu).unwrap(),
            complexity::eps_switch_global(&nu).unwrap(),
        ];
        for (j, (&g, &w)) in got.iter().zip(r.iter()).enumerate() {
            // the table rounds to its printed digits: allow half a unit of the last digit
            let tol = B12_TOL.max(0.6 * 10f64.powi(-(decimals(w) as i32)) / w.abs());
            assert!(
                relative_eq!(g, w, epsilon = 0.0, max_relative = tol),
                "{name} column {j}: got {g}, table {w}"
            );
        }
    }
    // GK16 Bernoulli allocations, sub-optimal arms in instance order
    let allocs: [&[f64]; 6] = [
        &[0.20215, 0.20215, 0.20215, 0.003106],
        &[0.165589; 4],
        &[0.020205, 0.034907, 0.071494, 0.318924],
        &[0.433771, 0.065992, 0.027921, 0.015422],
        &[0.392504, 0.085052, 0.050944, 0.044065],
        &[0.486159, 0.01668, 0.00343, 0.001119],
    ];
    for ((name, m), want) in paper().iter().zip(allocs.iter()) {
        let nu = ber(m);
        let a = complexity::t_kl(&nu).unwrap().allocation;
        let sub: Vec<f64> = (0..nu.k())
            .filter(|&i| i != nu.best())
            .map(|i| a[i])
            .collect();
        for (g, w) in sub.iter().zip(want.iter()) {
            assert!(
                (g - w).abs() <= 1e-6 + 2e-5 * w,
                "{name}: {sub:?} vs {want:?}"
            );
        }
    }
    // Gaussian allocation of μ1 and GK's Σ (ω_b/ω_{a*})² = 1
    let a = complexity::t_kl_gaussian(&ber(&paper()[0].1), 0.5)
        .unwrap()
        .allocation;
    let s: f64 = a[1..].iter().map(|w| (w / a[0]).powi(2)).sum();
    assert!((s - 1.0).abs() < 1e-9, "{s}");
    assert!((a[4] - 0.001659).abs() < 1e-6 && (a[1] - 0.210974).abs() < 1e-6);
}

fn decimals(x: f64) -> usize {
    // number of printed decimals of a table entry (e.g. 395.5415 -> 4)
    let s = format!("{x}");
    s.split('.').nth(1).map_or(0, |d| d.len())
}

#[test]
fn b12_local_and_global_tables() {
    let nu = ber(&paper()[0].1);
    // ε, T_ℓ, T_g, T_KL(ν_{G,ε}), 2H(ν_{G,ε})   (μ1)
    let rows = [
        (0.01, 2.90219e7, 8222.22, 15159.8, 16444.4),
        (0.1, 221365.0, 822.222, 1515.98, 1644.44),
        (0.3, 13409.0, 401.72, 1500.33, 1614.81),
        (0.5, 2614.25, 398.757, 1497.30, 1608.89),
        (0.6, 1332.71, 398.017, 1496.55, 1607.41),
        (0.8, 498.199, 397.091, 1495.61, 1605.56),
        (1.0, 395.542, 396.535, 1495.30, 1604.94),
        (2.0, 395.542, 395.542, 1495.30, 1604.94),
    ];
    for (e, tl, tg, tge, h2) in rows {
        assert!(
            rel_err(t(TimeKind::Local { eps: e }, &nu), tl) < 2e-5,
            "T_l({e})"
        );
        assert!(
            rel_err(t(TimeKind::Global { eps: e }, &nu), tg) < 2e-5,
            "T_g({e})"
        );
        assert!(
            rel_err(t(TimeKind::KlGEps { eps: e }, &nu), tge) < 2e-5,
            "T_KL(G,{e})"
        );
        assert!(rel_err(complexity::two_h_g_eps(&nu, e).unwrap(), h2) < 2e-5);
    }
    let nu = ber(&paper()[1].1);
    let rows = [
        (0.01, 3.49357e7, 10000.0),
        (0.1, 266472.0, 1424.75),
        (0.3, 16141.4, 1424.75),
        (0.5, 3146.96, 1424.75),
        (0.5822, 1800.47, 1424.75),
        (0.6, 1604.28, 1424.75),
        (0.8, 1424.75, 1424.75),
        (1.0, 1424.75, 1424.75),
        (3.0, 1424.75, 1424.75),
    ];
    for (e, tl, tg) in rows {
        assert!(
            rel_err(t(TimeKind::Local { eps: e }, &nu), tl) < 2e-5,
            "μ2 T_l({e})"
        );
        assert!(
            rel_err(t(TimeKind::Global { eps: e }, &nu), tg) < 2e-5,
            "μ2 T_g({e})"
        );
    }
    // F.64 prototype thresholds (μ1: 0.1834 and 1.8087; μ2: 0.06276, 0.08477; μ4: 0.1462, 1.0557)
    for (i, lo, hi) in [
        (0, 0.1834, 1.8087),
        (1, 0.06276, 0.08477),
        (3, 0.1462, 1.0557),
    ] {
        let nu = ber(&paper()[i].1);
        let (a, b) = f64_thresholds(&nu);
        assert!(
            rel_err(a, lo) < 5e-4 && rel_err(b, hi) < 5e-4,
            "{i}: {a} {b}"
        );
    }
}

/// `ψ^KL_b(u, w)` for Bernoulli arms with the closed-form minimiser (B.4), test-side.
fn psi_kl(top: f64, m: f64, u: f64, w: f64) -> f64 {
    let z = (u * top + w * m) / (u + w);
    u * kl_bernoulli(top, z).unwrap() + w * kl_bernoulli(m, z).unwrap()
}

/// F.64 thresholds: `T_g = T_TV/ε` for `ε <= F_KL(ω^TV)·T_TV`, `T_g = T_KL` for
/// `ε >= 1/(T_KL min_b min(ω^KL_{a*}, ω^KL_b) Δ_b)`.
fn f64_thresholds(nu: &Instance) -> (f64, f64) {
    let tv = complexity::t_tv(nu).unwrap();
    let kl = complexity::t_kl(nu).unwrap();
    let (b0, top) = (nu.best(), nu.best_mean());
    let mut f_kl = f64::INFINITY;
    let mut f_tv = f64::INFINITY;
    for b in (0..nu.k()).filter(|&b| b != b0) {
        let m = nu.means()[b];
        f_kl = f_kl.min(psi_kl(top, m, tv.allocation[b0], tv.allocation[b]));
        f_tv = f_tv.min(kl.allocation[b0].min(kl.allocation[b]) * (top - m));
    }
    (f_kl * tv.value, 1.0 / (kl.value * f_tv))
}

// ------------------------------------------------------------------------------------------
// exact oracles (closed forms are tests, not shortcuts)

#[test]
fn closed_form_oracles() {
    for (name, m) in paper() {
        let nu = ber(&m);
        // B.5: T_TV = Σ_{a∈[K]} 1/Δ_a (Δ_{a*} = Δ_min)
        let tv: f64 = nu.gaps().iter().map(|d| 1.0 / d).sum();
        assert!(rel_err(t(TimeKind::Tv, &nu), tv) < 1e-12, "{name}");
        // B.6: T_TV2 = 2 T_KL^G(μ; 1/2) = T_KL(ν_G)/2
        let g = t(TimeKind::KlGaussian { sigma: 0.5 }, &nu);
        let g1 = t(TimeKind::KlGaussian { sigma: 1.0 }, &nu);
        let tv2 = t(TimeKind::Tv2, &nu);
        assert_relative_eq!(tv2, 2.0 * g, epsilon = 0.0, max_relative = CERT_SLACK);
        assert_relative_eq!(tv2, g1 / 2.0, epsilon = 0.0, max_relative = CERT_SLACK);
        // F.63: T_ℓ = T_TV2/c(ε) exactly for ε <= ε_0
        for e in [1e-4, 0.01, 0.3, pinsker_switch_eps()] {
            let tl = t(TimeKind::Local { eps: e }, &nu);
            assert!(
                relative_eq!(
                    tl,
                    tv2 / c_local(e).unwrap(),
                    epsilon = 0.0,
                    max_relative = CERT_SLACK
                ),
                "{name} {e}"
            );
        }
        // F.64: exact regimes of T_g
        let (lo, hi) = f64_thresholds(&nu);
        let tkl = t(TimeKind::Kl, &nu);
        for e in [lo * 0.5, lo] {
            assert_relative_eq!(
                t(TimeKind::Global { eps: e }, &nu),
                tv / e,
                epsilon = 0.0,
                max_relative = CERT_SLACK
            );
        }
        for e in [hi, 2.0 * hi] {
            assert_relative_eq!(
                t(TimeKind::Global { eps: e }, &nu),
                tkl,
                epsilon = 0.0,
                max_relative = CERT_SLACK
            );
        }
        // B.7: T_{KL,β}(ν_{G,ε}) = T^G_{KL,β}(μ; 1/2) when Δ_max <= ε/2
        let e = 2.0 * nu.delta_max();
        let a = t(TimeKind::KlBetaGEps { eps: e, beta: 0.5 }, &nu);
        let b = t(
            TimeKind::KlGaussianBeta {
                sigma: 0.5,
                beta: 0.5,
            },
            &nu,
        );
        assert!(
            relative_eq!(a, b, epsilon = 0.0, max_relative = CERT_SLACK),
            "{name}"
        );
    }
    // Gaussian TV (B.5): Σ 1/erf(Δ_a/(2√2σ))
    let nu = Instance::gaussian(vec![0.0, -1.0, -3.0], 2.0).unwrap();
    let want: f64 = nu
        .gaps()
        .iter()
        .map(|d| 1.0 / dpbai::special::erf(d / (2.0 * std::f64::consts::SQRT_2 * 2.0)))
        .sum();
    assert!(rel_err(t(TimeKind::Tv, &nu), want) < 1e-12);
    // two arms, Gaussian KL: T = 8σ²/Δ² at ω = (1/2, 1/2)
    let nu = Instance::gaussian(vec![1.0, 0.0], 1.0).unwrap();
    assert!(rel_err(t(TimeKind::Kl, &nu), 8.0) < 1e-12);
    // two arms μ = (1, 0), Bernoulli KL: ψ(½,½) = ln 2, T = 1/ln 2
    assert!(rel_err(t(TimeKind::Kl, &ber(&[1.0, 0.0])), 1.0 / 2f64.ln()) < 1e-12);
}

#[test]
fn regime_switches_are_crossings() {
    for (name, m) in paper() {
        let nu = ber(&m);
        let el = complexity::eps_switch_local(&nu).unwrap();
        let r = t(TimeKind::Tv2, &nu) / t(TimeKind::Kl, &nu);
        assert!(rel_err(c_local(el).unwrap(), r) < 1e-12, "{name}");
        assert!(el >= pinsker_switch_eps() * (1.0 - 1e-12));
        let eg = complexity::eps_switch_global(&nu).unwrap();
        assert!(rel_err(t(TimeKind::Tv, &nu) / eg, t(TimeKind::Kl, &nu)) < 1e-12);
    }
    for v in [1e-6, 0.5, 2.0, 4.0, 4.5, 1e6] {
        let e = complexity::c_local_inverse(v).unwrap();
        assert!(rel_err(c_local(e).unwrap(), v) < 1e-12, "{v}");
    }
}

#[test]
fn bad_parameters_are_errors() {
    let nu = ber(&paper()[0].1);
    for e in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(complexity::t_local(&nu, e).is_err());
        assert!(complexity::t_global(&nu, e).is_err());
        assert!(complexity::t_kl_g_eps(&nu, e).is_err());
    }
    for b in [0.0, 1.0, f64::NAN, 1.5] {
        assert!(complexity::t_kl_beta(&nu, b).is_err());
        assert!(complexity::t_kl_beta_g_eps(&nu, 0.3, b).is_err());
    }
    // log_factor takes a validated Delta: δ = 0 and δ = 1 cannot reach it.
    assert!(dpbai::params::Delta::new(0.0).is_err() && dpbai::params::Delta::new(1.0).is_err());
    let g = Instance::gaussian(vec![0.0, 1.0], 1.0).unwrap();
    for e in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(complexity::t_local(&g, e).is_err());
    }
}

/// `T_ℓ` of Gaussian instances against the mpmath reference of
/// `verify/golden_local_gaussian.py` (two-arm reduction and a dual-form nested optimisation,
/// both with a global grid search of the non-convex inner problem).
#[test]
fn gaussian_local_golden() {
    let g = crate::common::load_toml("local_gaussian_golden.toml");
    let tol = g["tolerance_rel"].as_float().expect("tolerance");
    assert!(tol <= GOLDEN_TOL);
    let cases = g["case"].as_array().expect("cases");
    assert!(cases.len() >= 15);
    let num = |v: &toml::Value| -> f64 {
        v.as_float()
            .or_else(|| v.as_integer().map(|i| i as f64))
            .expect("number")
    };
    let mut worst = 0.0f64;
    for c in cases {
        let sigma = num(&c["sigma"]);
        let means: Vec<f64> = c["means"]
            .as_array()
            .expect("means")
            .iter()
            .map(num)
            .collect();
        let eps = num(&c["eps"]);
        let want: f64 = c["value"].as_str().expect("value").parse().expect("float");
        let nu = Instance::gaussian(means.clone(), sigma).unwrap();
        let got = checked(&complexity::t_local(&nu, eps).expect("certified")).clone();
        let e = rel_err(got.value, want);
        worst = worst.max(e);
        assert!(
            e < tol,
            "{means:?} sigma {sigma} eps {eps}: {} vs {want}",
            got.value
        );
        // the certified interval contains the reference (up to the reference's own accuracy)
        assert!(
            got.lower <= want * (1.0 + 1e-11) && want <= got.upper * (1.0 + 1e-11),
            "{means:?} sigma {sigma} eps {eps}: [{}, {}] vs {want}",
            got.lower,
            got.upper
        );
    }
    eprintln!("gaussian_local_golden: max relative error {worst:e}");
}

/// The relations of Thm. 10 / Cor. 11 for Gaussian arms: `T_ℓ >= T_KL^G`; `T_ℓ` non-increasing
/// in ε and equal to `T_KL^G` once `c(ε) TV² >= KL` on every gap; for `c(ε) <= π` the bound
/// `c TV_G² <= KL` holds everywhere (`erf(z) <= 2z/√π`), so `c(ε)·T_ℓ(ε)` is the same for every
/// such ε (the time of the Gaussian TV²), and Cor. 11's `T_ℓ >= T_{TV_G²}/c(ε)` holds for all ε.
#[test]
fn gaussian_local_relations() {
    let insts = [
        (vec![0.9, 0.5], 0.5),
        (vec![1.0, 0.8, 0.5, -1.0], 0.25),
        (vec![0.9, 0.85, 0.6, 0.3, -2.0], 0.05),
        (vec![1.0, -0.5], 0.02),
        (vec![0.0, -1e-3, -2e-3], 1.0),
    ];
    let eps_pi = complexity::c_local_inverse(std::f64::consts::PI).unwrap();
    for (m, s) in insts {
        let nu = Instance::gaussian(m.clone(), s).unwrap();
        let tkl = t(TimeKind::Kl, &nu);
        let tl = |e: f64| t(TimeKind::Local { eps: e }, &nu);
        // the Gaussian-TV² time, from ε where d_ε = c TV_G² exactly
        let t_tv2g = tl(0.3) * c_local(0.3).unwrap();
        for e in [1e-3, 0.05, 0.5, eps_pi] {
            let v = tl(e) * c_local(e).unwrap();
            assert!(rel_err(v, t_tv2g) < CERT_SLACK, "{m:?} {e}: {v} {t_tv2g}");
        }
        let mut prev = f64::INFINITY;
        for k in 0..60 {
            let e = 1e-3 * 1.25f64.powi(k);
            let v = tl(e);
            assert!(
                v <= prev * (1.0 + CERT_SLACK),
                "{m:?} eps {e}: {v} > {prev}"
            );
            assert!(v >= tkl * (1.0 - CERT_SLACK), "{m:?} eps {e}");
            // Beyond ε ≈ 354.9, c(ε) overflows (an error); the bound T_TV2/c is then 0.
            let cor11 = t_tv2g / c_local(e).unwrap_or(f64::INFINITY);
            assert!(
                v >= cor11 * (1.0 - CERT_SLACK),
                "{m:?} eps {e}: {v} < {cor11}"
            );
            prev = v;
        }
        assert!(rel_err(tl(1e3), tkl) < CERT_SLACK, "{m:?}");
    }
}

proptest! {
    #![proptest_config(crate::common::prop_config(48))]
    /// Random Gaussian instances: `T_ℓ` is certified and sits between its bounds of Cor. 11
    /// and the `ε → 0` scale of the TV² time.
    #[test]
    fn gaussian_local_certified(
        gaps in proptest::collection::vec(1e-3f64..3.0, 1..5),
        sigma in 0.01f64..3.0,
        eps in 0.01f64..12.0,
    ) {
        let mut m = vec![0.0];
        m.extend(gaps.iter().map(|g| -g));
        let nu = Instance::gaussian(m, sigma).unwrap();
        let v = t(TimeKind::Local { eps }, &nu);
        let tkl = t(TimeKind::Kl, &nu);
        let t_tv2g = t(TimeKind::Local { eps: 0.2 }, &nu) * c_local(0.2).unwrap();
        prop_assert!(v >= tkl * (1.0 - CERT_SLACK));
        prop_assert!(v >= t_tv2g / c_local(eps).unwrap() * (1.0 - CERT_SLACK));
    }
}

#[test]
fn upper_bound_formulas() {
    use complexity::upper;
    // READINGS.md §E.4 behaviour note: μ4, β = 1/2, ε = 1: Thm. 22 1578.9, Thm. 24 85794; ε = 0.1: 8771.4 vs 14399
    let nu = ber(&paper()[3].1);
    let u = upper::upper_bounds(&nu, 1.0, 0.5).unwrap();
    assert!(
        rel_err(u.adap_tt.value, 1578.9) < 1e-4,
        "{}",
        u.adap_tt.value
    );
    assert!(rel_err(u.adap_tt_star.thm24_main, 85794.0) < 1e-4);
    let u = upper::upper_bounds(&nu, 0.1, 0.5).unwrap();
    assert!(
        rel_err(u.adap_tt.value, 8771.4) < 1e-4,
        "{}",
        u.adap_tt.value
    );
    assert!(rel_err(u.adap_tt_star.thm24_main, 14399.0) < 1e-4);
    assert!(u.adap_tt.note.is_none());
    // ε → ∞: Thm. 24 → 4 T^G_β (F.62), Thm. 22 → 8 T^G_β, CTB-TT → T^G_β
    let tgb = complexity::t_kl_gaussian_beta(&nu, 0.5, 0.5).unwrap().value;
    let u = upper::upper_bounds(&nu, 1e7, 0.5).unwrap();
    assert!(rel_err(u.adap_tt_star.thm24_main, 4.0 * tgb) < 1e-6);
    assert!(rel_err(u.adap_tt_star.proof_max, 4.0 * tgb) < 1e-6);
    assert!(rel_err(u.adap_tt.value, 8.0 * tgb) < 1e-6);
    assert!(rel_err(u.ctb_tt.value, tgb) < 1e-6);
    // proof_max >= main text wherever both use the g2 branch; equal when Δ_max < ε/2
    for e in [0.01, 0.1, 0.3, 0.6, 1.0, 2.0] {
        let u = upper::upper_bounds(&nu, e, 0.5).unwrap();
        assert!(u.adap_tt_star.proof_max >= u.adap_tt_star.thm24_main * (1.0 - 1e-12));
        // CTB-TT ratio to T_TV2/c(ε) is (e^ε+1)² min{4, e^{2ε}} · T^G_{1/2}/T_TV2 (E.4)
        let ratio = u.ctb_tt.value / (t(TimeKind::Tv2, &nu) / c_local(e).unwrap());
        let f = (e.exp() + 1.0).powi(2) * 4f64.min((2.0 * e).exp()) * tgb / t(TimeKind::Tv2, &nu);
        assert!(rel_err(ratio, f) < 1e-8);
    }
    // labels: privacy model, regime, the time of the model's lower bound
    let u = upper::upper_bounds(&nu, 0.1, 0.5).unwrap();
    assert_eq!(u.ctb_tt.model, upper::PrivacyModel::Local);
    assert_eq!(u.ctb_tt.lower_time, upper::LowerTime::Local);
    assert_eq!(u.adap_tt.lower_time, upper::LowerTime::Global);
    assert_eq!(u.adap_tt_star.regime, upper::ASYMPTOTIC);
    let d = upper::dpa(&nu, 0.5).unwrap();
    assert_eq!(d.model, upper::PrivacyModel::NonPrivate);
    assert_eq!(d.lower_time, upper::LowerTime::Kl);
    // Thm. 24 branches: μ4 has Δ_max = 1/2, so the main text switches to g1 above ε = 1 and
    // L. 52 above ε = 1/6
    let s = &u.adap_tt_star;
    assert_eq!(s.switch_eps_main, 1.0);
    assert_eq!(s.thm24_main_branch, upper::Thm24Branch::G2);
    assert_eq!(s.lemma52_app_branch, upper::Thm24Branch::G2);
    let s = upper::upper_bounds(&nu, 0.2, 0.5).unwrap().adap_tt_star;
    assert_eq!(s.lemma52_app_branch, upper::Thm24Branch::G1);
    let s = upper::upper_bounds(&nu, 1.5, 0.5).unwrap().adap_tt_star;
    assert_eq!(s.thm24_main_branch, upper::Thm24Branch::G1);
    // CTB-TT needs rewards in [0, 1]: refused for Gaussian arms at every σ, 1/2 included
    for sigma in [0.5, 2.0] {
        let g = Instance::gaussian(paper()[3].1.clone(), sigma).unwrap();
        let u = upper::upper_bounds(&g, 0.3, 0.5).unwrap();
        assert!(u.ctb_tt.finite().is_none() && u.ctb_tt.value == f64::INFINITY);
        assert!(u.ctb_tt_ids.refused.as_deref().unwrap().contains("[0, 1]"));
        assert_eq!(u.adap_tt.lower_time, upper::LowerTime::Kl);
        assert!(u.adap_tt.note.as_deref().unwrap().contains("not eps-DP"));
    }
    // σ-scaling (App. G keeps σ symbolic): T^G_β, T^{G,ε}_β ∝ σ² at fixed ε; the AdaP-TT bound
    // 4T^G_β(1 + √(1 + Δ_max²/(2σ⁴ε²))) then changes by σ² and inside the root
    let (g1, g2) = (
        Instance::gaussian(paper()[3].1.clone(), 1.0).unwrap(),
        Instance::gaussian(paper()[3].1.clone(), 0.5).unwrap(),
    );
    let (a, b) = (
        upper::upper_bounds(&g1, 0.3, 0.5).unwrap(),
        upper::upper_bounds(&g2, 0.3, 0.5).unwrap(),
    );
    let tgb = complexity::t_kl_gaussian_beta(&g2, 0.5, 0.5).unwrap().value;
    let root = |s: f64| 1.0 + (1.0 + 0.25 / (2.0 * s.powi(4) * 0.09)).sqrt();
    assert!(rel_err(b.adap_tt.value, 4.0 * tgb * root(0.5)) < 1e-12);
    assert!(rel_err(a.adap_tt.value, 4.0 * 4.0 * tgb * root(1.0)) < 1e-9);
    let tge = |nu: &Instance| complexity::t_kl_beta_g_eps(nu, 0.3, 0.5).unwrap().value;
    assert!(rel_err(tge(&g1), 4.0 * tge(&g2)) < CERT_SLACK);
    // notes flag tied means (μ1) and boundary means (μ3)
    let n1 = upper::dpa(&ber(&paper()[0].1), 0.5).unwrap().note.unwrap();
    assert!(n1.contains("tied"));
    let n3 = upper::dpa(&ber(&paper()[2].1), 0.5).unwrap().note.unwrap();
    assert!(n3.contains("boundary"));
}

// ------------------------------------------------------------------------------------------
// property tests

fn bernoulli_instance() -> impl Strategy<Value = Instance> {
    prop::collection::vec(0.02f64..0.98, 2..7)
        .prop_filter_map("unique best arm", |m| Instance::bernoulli(m).ok())
}

fn gaussian_instance() -> impl Strategy<Value = Instance> {
    (prop::collection::vec(-3.0f64..3.0, 2..8), 0.2f64..3.0)
        .prop_filter_map("unique best arm", |(m, s)| Instance::gaussian(m, s).ok())
}

proptest! {
    #![proptest_config(crate::common::prop_config(48))]

    /// Sec. 2.2.3 / Eq. (5): H <= T_KL^G <= 2H, T_KL^G <= T^G_{KL,1/2} <= 2 T_KL^G, and
    /// [DERIVED] T^G_{KL,1/2} <= 2H (B.3).
    #[test]
    fn gaussian_sandwiches(nu in gaussian_instance()) {
        let s = nu.sigma();
        let h = nu.hardness_h(s);
        let tg = t(TimeKind::Kl, &nu);
        let tb = t(TimeKind::KlBeta { beta: 0.5 }, &nu);
        prop_assert!(h <= tg * (1.0 + CERT_SLACK) && tg <= 2.0 * h * (1.0 + CERT_SLACK));
        prop_assert!(tg <= tb * (1.0 + CERT_SLACK) && tb <= 2.0 * tg * (1.0 + CERT_SLACK));
        prop_assert!(tb <= 2.0 * h * (1.0 + CERT_SLACK));
    }

    /// B.4–B.6 (Pinsker, Cor. 11, Sec. 4.1): T_TV >= sqrt(2 T_KL^Ber), T_TV2 >= 2 T_KL^Ber,
    /// T_KL^Ber <= T_KL^G(μ; 1/2), T_{KL,1/2}^Ber <= 2 T_KL^Ber.
    #[test]
    fn bernoulli_relations(nu in bernoulli_instance()) {
        let kl = t(TimeKind::Kl, &nu);
        prop_assert!(t(TimeKind::Tv, &nu) >= (2.0 * kl).sqrt() * (1.0 - CERT_SLACK));
        prop_assert!(t(TimeKind::Tv2, &nu) >= 2.0 * kl * (1.0 - CERT_SLACK));
        let g = t(TimeKind::KlGaussian { sigma: 0.5 }, &nu);
        prop_assert!(kl <= g * (1.0 + CERT_SLACK));
        let kb = t(TimeKind::KlBeta { beta: 0.5 }, &nu);
        prop_assert!(kl <= kb * (1.0 + CERT_SLACK) && kb <= 2.0 * kl * (1.0 + CERT_SLACK));
    }

    /// Cor. 11 (Eq. (7)) and Pinsker: max{T_KL, T_TV2/c(ε)} <= T_ℓ <= T_TV2/min{2, c(ε)};
    /// Cor. 18 (Eq. (9), (10)): max{T_KL, T_TV/ε} <= T_g <= T_KL(ν_{G,ε}) <= 2H(ν_{G,ε}),
    /// and H(ν_{G,ε}) <= T_KL(ν_{G,ε}).
    #[test]
    fn corollary_11_and_18_sandwiches(nu in bernoulli_instance(), le in -4.0f64..4.0) {
        let e = 10f64.powf(le);
        // Beyond ε ≈ 354.9, c(ε) overflows (an error); the bounds below then read c = ∞.
        let c = c_local(e).unwrap_or(f64::INFINITY);
        let kl = t(TimeKind::Kl, &nu);
        let tv = t(TimeKind::Tv, &nu);
        let tv2 = t(TimeKind::Tv2, &nu);
        let tl = t(TimeKind::Local { eps: e }, &nu);
        prop_assert!(tl >= kl.max(tv2 / c) * (1.0 - CERT_SLACK));
        prop_assert!(tl <= tv2 / c.min(2.0) * (1.0 + CERT_SLACK));
        let tg = t(TimeKind::Global { eps: e }, &nu);
        let tge = t(TimeKind::KlGEps { eps: e }, &nu);
        let h2 = complexity::two_h_g_eps(&nu, e).unwrap();
        prop_assert!(tg >= kl.max(tv / e) * (1.0 - CERT_SLACK));
        prop_assert!(tg <= tge * (1.0 + CERT_SLACK));
        prop_assert!(tge <= h2 * (1.0 + CERT_SLACK) && h2 / 2.0 <= tge * (1.0 + CERT_SLACK));
    }

    /// B.8, B.9 [DERIVED]: T_ℓ and T_g are non-increasing in ε and equal T_KL^Ber for ε large
    /// enough (means in (0,1)).
    #[test]
    fn monotone_in_eps_and_limit(nu in bernoulli_instance(), le in -3.0f64..1.0) {
        let e1 = 10f64.powf(le);
        let e2 = e1 * 1.7;
        for kind in [|e| TimeKind::Local { eps: e }, |e| TimeKind::Global { eps: e }] {
            let a = t(kind(e1), &nu);
            let b = t(kind(e2), &nu);
            prop_assert!(b <= a * (1.0 + CERT_SLACK), "{a} {b}");
        }
        let kl = t(TimeKind::Kl, &nu);
        let tl = t(TimeKind::Local { eps: 60.0 }, &nu);
        prop_assert!(rel_err(tl, kl) < CERT_SLACK, "{tl} {kl}");
        let (_, hi) = f64_thresholds(&nu);
        let tg = t(TimeKind::Global { eps: hi * 1.001 }, &nu);
        prop_assert!(rel_err(tg, kl) < CERT_SLACK, "{tg} {kl}");
    }

    /// Every interval contains its value with relative width <= 1e-9; the allocation's
    /// objective reproduces the value (B.2 step 4, equal transportation costs for KL).
    #[test]
    fn certificates_and_equal_costs(nu in bernoulli_instance()) {
        let c = complexity::t_kl(&nu).unwrap();
        checked(&c);
        let (b0, top) = (nu.best(), nu.best_mean());
        for b in (0..nu.k()).filter(|&b| b != b0) {
            let psi = psi_kl(top, nu.means()[b], c.allocation[b0], c.allocation[b]);
            prop_assert!(rel_err(psi * c.value, 1.0) < 1e-8, "{psi}");
        }
    }
}

#[test]
fn scaling_of_gaussian_times() {
    // B.3: T^G(cμ + d; σ) = T^G(μ; σ)/c², ∝ σ², allocation invariant
    let m = vec![0.3, 0.1, -0.2, 0.25];
    let a = complexity::t_kl(&Instance::gaussian(m.clone(), 1.0).unwrap()).unwrap();
    let m2: Vec<f64> = m.iter().map(|x| 3.0 * x + 1.0).collect();
    let b = complexity::t_kl(&Instance::gaussian(m2, 2.0).unwrap()).unwrap();
    assert_relative_eq!(
        b.value,
        a.value * 4.0 / 9.0,
        epsilon = 0.0,
        max_relative = CERT_SLACK
    );
    for (x, y) in a.allocation.iter().zip(&b.allocation) {
        assert!((x - y).abs() < 1e-9);
    }
}

#[test]
fn hard_instances_certify() {
    // near ties, means at 0 and 1, many arms: every time certifies at 1e-9
    for m in crate::common::hard_bernoulli_means() {
        let nu = ber(&m);
        for e in [1e-4, 0.05, 0.6, 3.0, 100.0, 1e4] {
            for kind in [
                TimeKind::Local { eps: e },
                TimeKind::Global { eps: e },
                TimeKind::KlGEps { eps: e },
            ] {
                let c = characteristic_time(kind, &nu)
                    .unwrap_or_else(|err| panic!("{:?} {kind:?}: {err}", &m[..2]));
                checked(&c);
            }
        }
        for kind in [
            TimeKind::Kl,
            TimeKind::Tv,
            TimeKind::Tv2,
            TimeKind::KlBeta { beta: 0.3 },
        ] {
            checked(&characteristic_time(kind, &nu).unwrap());
        }
    }
}

// ------------------------------------------------------------------------------------------
// CLI

#[test]
fn cli_json_has_every_key() {
    let (code, out, err) = run_cli(&[
        "bounds",
        "--means",
        "0.95,0.9,0.9,0.9,0.5",
        "--eps",
        "0.3",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    for k in [
        "t_kl",
        "t_kl_gaussian",
        "t_kl_beta",
        "t_tv",
        "t_tv2",
        "t_local",
        "t_global",
        "t_kl_g_eps",
        "t_kl_beta_g_eps",
    ] {
        for f in ["value", "lower", "upper", "allocation"] {
            assert!(!v[k][f].is_null(), "{k}.{f}");
        }
    }
    for k in ["hardness_h", "eps_switch_local", "eps_switch_global"] {
        assert!(v[k].is_number(), "{k}");
    }
    for k in ["non_private", "local", "global"] {
        assert!(v["sample_lower_bounds"][k].is_number(), "{k}");
    }
    for k in ["ctb_tt", "adap_tt", "dpa"] {
        assert!(v["upper_bounds"][k]["value"].is_number(), "{k}");
        assert!(
            v["upper_bounds"][k]["note"]
                .as_str()
                .unwrap()
                .contains("tied")
        );
    }
    for k in ["thm24_main", "lemma52_app", "proof_max"] {
        assert!(v["upper_bounds"]["adap_tt_star"][k].is_number(), "{k}");
    }
    assert!(rel_err(v["t_global"]["value"].as_f64().unwrap(), 401.72) < 1e-5);
    let lb = v["sample_lower_bounds"]["non_private"].as_f64().unwrap();
    assert!(rel_err(lb, 395.5415490290948 * (1.0f64 / 0.024).ln()) < 1e-9);
}

/// `bounds --family gaussian --eps` returns a certified local time, equal to
/// the library's and bracketing it, with the local sample-complexity lower bound.
#[test]
fn cli_json_gaussian_local() {
    let (code, out, err) = run_cli(&[
        "bounds",
        "--family",
        "gaussian",
        "--sigma",
        "0.25",
        "--means",
        "1,0.8,0.5,-1",
        "--eps",
        "0.5",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    let val = crate::common::certified_json(&v["t_local"], 4);
    let nu = Instance::gaussian(vec![1.0, 0.8, 0.5, -1.0], 0.25).unwrap();
    assert_eq!(val, complexity::t_local(&nu, 0.5).unwrap().value);
    assert!(v["sample_lower_bounds"]["local"].is_number());
}

/// The acceptance command `bounds --family gaussian --means 1,0.5 --sigma 1 --eps 0.5`: the
/// private proxies and every upper bound take σ = 1, none lies below the time of its own model,
/// CTB-TT is refused with its reason, and each bound names its model and regime.
#[test]
fn cli_gaussian_sigma_bounds_and_labels() {
    let args = [
        "bounds", "--family", "gaussian", "--means", "1,0.5", "--sigma", "1", "--eps", "0.5",
    ];
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let (code, out, err) = run_cli(&json_args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    // closed forms with σ = 1: T_KL(ν_{G,ε}) = 2σ²·4/(Δ·ε/2) = 64, DPA = 2·T^G_{1/2} = 64
    assert!(rel_err(v["t_kl_g_eps"]["value"].as_f64().unwrap(), 64.0) < 1e-9);
    assert!(rel_err(v["t_kl_beta_g_eps"]["value"].as_f64().unwrap(), 64.0) < 1e-9);
    // 2H(ν_{G,ε}) = 4σ² Σ_{a∈[K]} (Δ_a min{Δ_a, ε/2})^{-1} = 4·2·8 = 64
    assert!(rel_err(v["two_h_g_eps"].as_f64().unwrap(), 64.0) < 1e-12);
    let ub = &v["upper_bounds"];
    assert!(rel_err(ub["dpa"]["value"].as_f64().unwrap(), 64.0) < 1e-9);
    assert_eq!(ub["dpa"]["model"], "non-private");
    assert_eq!(ub["adap_tt"]["model"], "eps-global DP");
    for k in ["ctb_tt", "ctb_tt_ids"] {
        assert!(ub[k]["value"].is_null(), "{k}");
        assert!(ub[k]["refused"].as_str().unwrap().contains("[0, 1]"), "{k}");
    }
    let regime = "asymptotic, δ → 0; not a finite-δ bound";
    for k in ["dpa", "adap_tt", "adap_tt_star"] {
        assert_eq!(ub[k]["regime"], regime, "{k}");
        // on Gaussian rewards only δ-correctness holds: the lower bound of L. 5
        assert_eq!(ub[k]["lower_time"], "t_kl", "{k}");
        let t = ub[k]["lower_time_value"].as_f64().unwrap();
        assert!(rel_err(t, 32.0) < 1e-9);
    }
    for k in ["dpa", "adap_tt"] {
        assert!(ub[k]["value"].as_f64().unwrap() >= 32.0, "{k}");
    }
    let star = &ub["adap_tt_star"];
    for k in ["thm24_main", "lemma52_app", "proof_max"] {
        assert!(star[k].as_f64().unwrap() >= 32.0, "{k}");
    }
    assert_eq!(star["thm24_main_branch"], "g2"); // Δ_max = 0.5 >= ε/2
    assert_eq!(star["lemma52_app_branch"], "g1"); // Δ_max < 3ε
    assert_eq!(star["switch_eps_main"].as_f64(), Some(1.0));
    // the table: labels and the branch points
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(regime), "{out}");
    let dpa = out
        .lines()
        .find(|l| l.trim_start().starts_with("DPA-TT (App. H)"))
        .expect("DPA line");
    assert!(
        dpa.contains("non-private") && dpa.contains("T_KL = 32"),
        "{dpa}"
    );
    assert!(out.contains("is not an eps-private bound"));
    assert!(out.contains("AdaP-TT* (Thm. 24) [g2]") && out.contains("AdaP-TT* (L. 52) [g1]"));
    assert!(out.contains("2 Delta_max = 1.000000"), "{out}");
    assert!(out.contains("refused: CTB-TT is defined for rewards in [0, 1]"));
}

/// `--eps-grid` names the active Thm. 24 branch (1 = g1, 2 = g2) and the number of arms in the
/// high-privacy regime; the main-text curve switches branch (and jumps down) at ε = 2Δ_max.
#[test]
fn cli_grid_thm24_branches() {
    let (code, out, err) = run_cli(&[
        "bounds",
        "--means",
        "0.8,0.6,0.55,0.3",
        "--eps-grid",
        "0.5:2:7",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut rows = csv::Reader::from_reader(out.as_bytes());
    let h = rows.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|c| c == n).unwrap();
    let (e, m, b, hp) = (
        col("eps"),
        col("ub_adap_tt_star_thm24_main"),
        col("ub_adap_tt_star_thm24_main_branch"),
        col("high_privacy_arms"),
    );
    let recs: Vec<Vec<f64>> = rows
        .records()
        .map(|r| r.unwrap().iter().map(|x| x.parse().unwrap()).collect())
        .collect();
    for r in &recs {
        let want = if r[e] > 1.0 { 1.0 } else { 2.0 };
        assert_eq!(r[b], want, "eps {}", r[e]);
        // gaps 0.2, 0.25, 0.5: arm a is in the high-privacy regime iff ε < 2Δ_a
        let n = [0.4, 0.5, 1.0]
            .iter()
            .filter(|&&s| r[e] < s - 1e-12)
            .count() as f64;
        assert_eq!(r[hp], n, "eps {}", r[e]);
    }
    // the last ε below the switch and the first above it: a drop of more than 10×
    let below = recs.iter().rfind(|r| r[e] < 1.0).unwrap();
    let above = recs.iter().find(|r| r[e] > 1.0).unwrap();
    assert!(below[m] > 10.0 * above[m], "{} vs {}", below[m], above[m]);
}

#[test]
fn cli_table_and_grid() {
    let (code, out, _) = run_cli(&[
        "bounds",
        "--means",
        "0.75,0.625,0.5,0.375,0.25",
        "--eps",
        "1",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("T_global") && out.contains("AdaP-TT"));
    let (code, out, err) = run_cli(&[
        "bounds",
        "--means",
        "0.95,0.9,0.9,0.9,0.5",
        "--eps-grid",
        "1e-4:300:100",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.trim().lines().collect();
    assert_eq!(lines.len(), 101);
    let header: Vec<&str> = lines[0].split(',').collect();
    assert_eq!(header[0], "eps");
    assert!(header.contains(&"t_local") && header.contains(&"t_global"));
    let first: Vec<f64> = lines[1].split(',').map(|x| x.parse().unwrap()).collect();
    let last: Vec<f64> = lines[100].split(',').map(|x| x.parse().unwrap()).collect();
    assert_eq!(first.len(), header.len());
    assert!((first[0] - 1e-4).abs() < 1e-18 && (last[0] - 300.0).abs() < 1e-10);
    // Gaussian: every column present (relaxed_local empty)
    let (code, out, err) = run_cli(&[
        "bounds",
        "--family",
        "gaussian",
        "--sigma",
        "1",
        "--means",
        "1,0,-1",
        "--eps-grid",
        "0.1:10:3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim().lines().count(), 4);
}

#[test]
fn cli_bad_input_exit_2() {
    let bad: Vec<Vec<&str>> = vec![
        vec!["--means", "0.5,1.2"],
        vec!["--means", "0.5"],
        vec!["--means", "0.9,0.9,0.1"],
        vec!["--means", "0.5,nan"],
        vec!["--means", "0.5,abc"],
        vec!["--means", "0.9,0.5", "--eps", "0"],
        vec!["--means", "0.9,0.5", "--eps", "-1"],
        vec!["--means", "0.9,0.5", "--eps", "nan"],
        vec!["--means", "0.9,0.5", "--delta", "1"],
        vec!["--means", "0.9,0.5", "--delta", "0"],
        vec!["--means", "0.9,0.5", "--beta", "1.5"],
        vec!["--means", "0.9,0.5", "--beta", "nan"],
        vec!["--means", "0.9,0.5", "--family", "poisson"],
        vec!["--means", "1,0", "--family", "gaussian", "--sigma", "0"],
        vec!["--means", "0.9,0.5", "--eps-grid", "1:0.1:5"],
        vec!["--means", "0.9,0.5", "--eps-grid", "0:1:5"],
    ];
    for args in bad {
        let mut a = vec!["bounds"];
        a.extend(args.iter());
        let (code, _out, err) = run_cli(&a);
        assert_eq!(code, 2, "{a:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{a:?}: {err}");
    }
}

/// A σ given with Bernoulli arms is refused wherever a family enters (one rule,
/// `Family::of`): `bounds`, `run` and `audit delta` exit 2 naming sigma, never ignore it.
#[test]
fn sigma_with_bernoulli_arms_is_refused_everywhere() {
    for args in [
        &["bounds", "--means", "0.6,0.4", "--sigma", "2"][..],
        &[
            "run", "--algo", "ttucb", "--means", "0.6,0.4", "--delta", "0.1", "--runs", "2",
            "--seed", "1", "--sigma", "2",
        ][..],
        &[
            "audit", "delta", "--algo", "ttucb", "--means", "0.6,0.4", "--delta", "0.1", "--runs",
            "2", "--sigma", "2",
        ][..],
    ] {
        let (code, _, err) = run_cli(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("invalid sigma = 2") && err.contains("family gaussian"),
            "{err}"
        );
    }
}
