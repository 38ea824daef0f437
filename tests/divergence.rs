//! Integration tests for `divergence` and `instance`: golden values (mpmath,
//! `verify/golden_divergence.py`) and properties (READINGS.md §A.1–§A.8).

use crate::common::rel_err;
use dpbai::divergence::*;
use dpbai::instance::Instance;
use dpbai::params::Delta;
use proptest::prelude::*;

/// Closed forms (KL, TV, `c(ε)`, `m_ε`, `kl(1 − δ, δ)`, instance sums): relative error bound.
const CLOSED_FORM_TOL: f64 = 1e-14;

fn mu1() -> Instance {
    Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).expect("mu1 is a valid instance")
}

fn eval(name: &str, a: &[f64]) -> f64 {
    match name {
        "kl_bernoulli" => kl_bernoulli(a[0], a[1]).unwrap(),
        "kl_gaussian" => kl_gaussian(a[0], a[1], a[2]).unwrap(),
        "tv_gaussian" => tv_gaussian(a[0], a[1], a[2]).unwrap(),
        "tv_bernoulli" => tv_bernoulli(a[0], a[1]).unwrap(),
        "tv2_bernoulli" => tv2_bernoulli(a[0], a[1]).unwrap(),
        "c_local" => c_local(a[0]).unwrap(),
        "pinsker_switch_eps" => pinsker_switch_eps(),
        "rr_mean" => rr_mean(a[0], a[1]).unwrap(),
        "kl_delta" => kl_delta(Delta::new(a[0]).unwrap()),
        "hardness_h_bernoulli_mu1" => mu1().hardness_h(0.5),
        "hardness_h_eps_sec43_mu1" => mu1().hardness_h_eps_sec43(a[0]),
        "privacy_aware_sq_gap_sum_mu1" => mu1().privacy_aware_squared_gaps(a[0]).iter().sum(),
        "gaussian_sigma" => dpbai::privacy::GaussianMechanism::new(a[0], a[1])
            .unwrap()
            .sigma(),
        "gaussian_eps" => dpbai::audit::dp::gaussian_eps(a[0], a[1], 1.0).unwrap(),
        other => panic!("unknown golden function {other}"),
    }
}

#[test]
fn golden_values_divergence() {
    let doc = crate::common::load_toml("divergence_golden.toml");
    assert_eq!(doc["mpmath_version"].as_str(), Some("1.3.0"));
    let cases = doc["case"].as_array().expect("cases");
    assert!(cases.len() >= 100);
    let mut tally = crate::common::GoldenTally::default();
    for c in cases {
        let name = c["fn"].as_str().expect("fn");
        let args: Vec<f64> = c["args"]
            .as_array()
            .expect("args")
            .iter()
            .map(crate::common::golden_number)
            .collect();
        let want = crate::common::golden_number(&c["value"]);
        let got = eval(name, &args);
        let r = if want.is_infinite() {
            if got == want { 0.0 } else { f64::INFINITY }
        } else {
            rel_err(got, want)
        };
        // The exact Gaussian loss is a bisection root (stopped at 1e-13 relative).
        let tol = if name == "gaussian_eps" {
            1e-12
        } else {
            CLOSED_FORM_TOL
        };
        tally.record(name, &args, r, r <= tol, || {
            format!("{name}({args:?}) = {got:e}, golden {want:e}, rel err {r:e}")
        });
    }
    tally.finish();
}

#[test]
fn bad_input_is_err() {
    assert!(kl_bernoulli(f64::NAN, 0.5).is_err());
    assert!(kl_bernoulli(-0.1, 0.5).is_err());
    assert!(kl_bernoulli(0.5, 1.0 + 1e-12).is_err());
    assert!(kl_gaussian(0.0, 1.0, 0.0).is_err());
    assert!(kl_gaussian(f64::INFINITY, 1.0, 1.0).is_err());
    assert!(tv_bernoulli(2.0, 0.5).is_err());
    assert!(c_local(0.0).is_err());
    assert!(c_local(f64::NAN).is_err());
    assert!(rr_mean(0.5, -1.0).is_err());
    assert!(
        dpbai::functions::lookup("kl_delta")
            .unwrap()
            .call(&[1.0])
            .is_err()
    );
    let e = kl_bernoulli(1.5, 0.5).unwrap_err().to_string();
    assert!(e.contains("1.5") && e.contains("[0, 1]"), "{e}");
}

#[test]
fn instance_validation() {
    assert!(
        Instance::bernoulli(vec![0.5, 0.5]).is_err(),
        "non-unique best arm"
    );
    assert!(Instance::bernoulli(vec![0.5]).is_err(), "K < 2");
    assert!(
        Instance::bernoulli(vec![0.5, 1.2]).is_err(),
        "mean outside [0, 1]"
    );
    assert!(Instance::bernoulli(vec![0.5, f64::NAN]).is_err());
    assert!(Instance::gaussian(vec![0.5, 0.1], 0.0).is_err());
    // boundary means allowed (μ3 of App. I), tied sub-optimal means allowed (μ1)
    let mu3 = Instance::bernoulli(vec![0.0, 0.25, 0.5, 0.75, 1.0]).unwrap();
    assert_eq!(mu3.best(), 4);
    assert!(!mu3.is_interior());
    assert!(!mu1().has_distinct_means());
    // Δ_{a*} = Δ_min convention
    let g = mu1().gaps();
    assert!((g[0] - 0.05).abs() < 1e-15 && (g[4] - 0.45).abs() < 1e-15);
}

proptest! {
    #![proptest_config(crate::common::prop_config(256))]

    /// Pinsker (READINGS.md §A.3; Cor. 11, Cor. 18): kl(p, q) >= 2 TV(p, q)² in nats.
    #[test]
    fn pinsker_kl_ge_2tv2(p in 0.0f64..=1.0, q in 0.0f64..=1.0) {
        let kl = kl_bernoulli(p, q).unwrap();
        let tv = tv_bernoulli(p, q).unwrap();
        prop_assert!(kl >= 2.0 * tv * tv * (1.0 - 1e-12), "kl({p},{q}) = {kl}, tv = {tv}");
        // TV² of Bernoulli equals 2·KL of N(·, 1/2²)... i.e. KL(N(p,1)‖N(q,1)) = TV²/2 (A.3)
        let kg = kl_gaussian(p, q, 1.0).unwrap();
        prop_assert!((kg - tv * tv / 2.0).abs() <= 1e-16);
    }

    /// Symmetry and zero identities: TV, TV², Gaussian KL symmetric; kl(p, p) = 0; kl >= 0.
    #[test]
    fn symmetry_and_zero(p in 0.0f64..=1.0, q in 0.0f64..=1.0, s in 0.01f64..10.0) {
        prop_assert_eq!(tv_bernoulli(p, q).unwrap(), tv_bernoulli(q, p).unwrap());
        prop_assert_eq!(tv2_bernoulli(p, q).unwrap(), tv2_bernoulli(q, p).unwrap());
        prop_assert_eq!(kl_gaussian(p, q, s).unwrap(), kl_gaussian(q, p, s).unwrap());
        prop_assert_eq!(tv_gaussian(p, q, s).unwrap(), tv_gaussian(q, p, s).unwrap());
        prop_assert_eq!(kl_bernoulli(p, p).unwrap(), 0.0);
        prop_assert_eq!(kl_gaussian(p, p, s).unwrap(), 0.0);
        prop_assert_eq!(tv_bernoulli(p, p).unwrap(), 0.0);
        prop_assert!(kl_bernoulli(p, q).unwrap() >= 0.0);
    }

    /// kl(p, ·) is decreasing on (0, p] and increasing on [p, 1) (READINGS.md §A.1).
    #[test]
    fn kl_monotone_in_q(p in 0.01f64..0.99, a in 0.0f64..1.0, b in 0.0f64..1.0) {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        let (q1, q2) = (p + (1.0 - p) * lo * 0.999, p + (1.0 - p) * hi * 0.999);
        prop_assert!(kl_bernoulli(p, q2).unwrap() >= kl_bernoulli(p, q1).unwrap());
        let (r1, r2) = (p * (1.0 - hi * 0.999), p * (1.0 - lo * 0.999));
        prop_assert!(kl_bernoulli(p, r1).unwrap() >= kl_bernoulli(p, r2).unwrap());
    }

    /// READINGS.md §A.4: c(ε) increasing and ~ ε², and the LDP contraction holds for randomised
    /// response: kl(m(p), m(q)) + kl(m(q), m(p)) <= c(ε)(p − q)².
    #[test]
    fn c_local_contraction(p in 0.0f64..=1.0, q in 0.0f64..=1.0, le in -2.0f64..0.7) {
        let eps = 10f64.powf(le);
        let c = c_local(eps).unwrap();
        prop_assert!(c_local(eps * 1.01).unwrap() > c);
        let (mp, mq) = (rr_mean(p, eps).unwrap(), rr_mean(q, eps).unwrap());
        let sym = kl_bernoulli(mp, mq).unwrap() + kl_bernoulli(mq, mp).unwrap();
        prop_assert!(sym <= c * (p - q) * (p - q) * (1.0 + 1e-12) + 1e-300, "eps={eps}");
    }

    /// READINGS.md §A.8: kl(1 − δ, δ) >= log(1/(2.4 δ)) for every δ ∈ (0, 1).
    #[test]
    fn kl_delta_ge_log_1_over_2_4_delta(le in -12.0f64..-0.0001) {
        let d = 10f64.powf(le);
        let delta = Delta::new(d).unwrap();
        prop_assert!(kl_delta(delta) >= (1.0 / (2.4 * d)).ln());
        prop_assert!(rel_err(kl_delta(delta), kl_bernoulli(1.0 - d, d).unwrap()) <= 1e-12);
    }

    /// READINGS.md §A.5, §A.7: the randomised-response gap map Δ_a ↦ Δ_a·tanh(ε/2) and
    /// H(ν_ε) = coth²(ε/2)·H(ν); A.6: squared gaps of ν_{G,ε} are Δ_a·min{Δ_a, ε/2}.
    #[test]
    fn instance_transforms(
        means in prop::collection::vec(0.0f64..1.0, 2..8),
        le in -2.0f64..1.0,
    ) {
        let Ok(inst) = Instance::bernoulli(means.clone()) else { return Ok(()); };
        let eps = 10f64.powf(le);
        let rr = inst.randomised_response(eps).unwrap();
        prop_assert_eq!(rr.best(), inst.best());
        let th = (0.5 * eps).tanh();
        for (g, gr) in inst.gaps().iter().zip(rr.gaps()) {
            prop_assert!((gr - g * th).abs() <= 1e-14 * (1.0 + g));
        }
        prop_assert!(rel_err(rr.hardness_h(0.5), inst.hardness_h(0.5) / (th * th)) <= 1e-9);
        let pg = inst.privacy_aware_gaussian(eps).unwrap();
        prop_assert_eq!(pg.best(), inst.best());
        for (g2, want) in pg.gaps().iter().zip(inst.privacy_aware_squared_gaps(eps)) {
            prop_assert!(rel_err(g2 * g2, want) <= 1e-12, "{g2}² vs {want}");
        }
        // Δ_{ε,a} is the positive root of u²/(2ε) + u = Δ_a (A.7)
        for (u, g) in inst.delta_eps(eps).iter().zip(inst.gaps()) {
            prop_assert!(rel_err(u * u / (2.0 * eps) + u, g) <= 1e-13);
        }
    }
}
