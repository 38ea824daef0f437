//! Integration tests for `stats`: the Clopper–Pearson bounds and the incomplete beta function
//! against mpmath and by their properties, and Student's t against mpmath.

use crate::common::{num, rel_err};
use dpbai::stats::{clopper_pearson, cp_lower, cp_upper};

/// Relative tolerance of the Clopper–Pearson bounds against the mpmath golden values
/// (tests/data/cp_golden.toml, 50 digits, direct binomial sums).
const CP_REL_TOL: f64 = 1e-10;

#[test]
fn cp_matches_mpmath_golden() {
    let data = crate::common::load_toml("cp_golden.toml");
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

/// Tolerance on `ln` of the smaller of `I_x(a, b)`, `1 − I_x(a, b)` against mpmath.betainc
/// (tests/data/cp_golden.toml, `[[beta]]`, 50 digits), i.e. a relative tolerance on the value
/// (tails down to e^-1400 included); the larger side is checked to 1e-15 absolute.
const BETA_LN_TOL: f64 = 1e-12;

#[test]
fn beta_reg_matches_mpmath_golden() {
    use dpbai::stats::ln_beta_reg_pair;
    let data = crate::common::load_toml("cp_golden.toml");
    let cases = data["beta"].as_array().expect("beta cases");
    assert!(cases.len() >= 40);
    let mut worst = 0.0f64;
    for c in cases {
        let f = |k: &str| c[k].as_float().expect("float");
        let g = |k: &str| c[k].as_str().expect("str").parse::<f64>().expect("f64");
        let (a, b, x) = (f("a"), f("b"), f("x"));
        let (want_i, want_c) = (g("ln_i"), g("ln_ic"));
        let (li, lc) = ln_beta_reg_pair(a, b, x).expect("beta");
        let (small_got, small_want, big_got, big_want) = if want_i < want_c {
            (li, want_i, lc, want_c)
        } else {
            (lc, want_c, li, want_i)
        };
        let e = (small_got - small_want).abs();
        worst = worst.max(e);
        assert!(
            e <= BETA_LN_TOL,
            "ln I({a}, {b}, {x}): {small_got} vs {small_want} ({e:e})"
        );
        assert!(
            (big_got.exp() - big_want.exp()).abs() <= 1e-15,
            "I({a}, {b}, {x}) large side"
        );
    }
    eprintln!(
        "beta golden: {} cases, worst ln error {worst:e}",
        cases.len()
    );
}

// ---------------------------------------------------------------------------------------------
// Clopper–Pearson: properties (edges vs closed forms, duality, monotonicity, defining equation)
// ---------------------------------------------------------------------------------------------

mod cp_props {
    use super::*;
    use dpbai::float::{next_down, next_up};
    use dpbai::stats::ln_beta_reg_pair;
    use proptest::prelude::*;

    /// Tolerance of a bound against its closed form (both computed in f64).
    const CLOSED_FORM_REL_TOL: f64 = 1e-13;

    proptest! {
        #![proptest_config(crate::common::prop_config(200))]

        /// k = 0: upper = 1 − α^{1/n}; k = n: lower = α^{1/n} (definitions of cp_upper/cp_lower).
        #[test]
        fn edges_match_closed_forms(n in 1u64..10_000_000, la in -9.0f64..-0.1) {
            let alpha = 10f64.powf(la);
            let up = cp_upper(0, n, alpha).unwrap();
            let want = -(alpha.ln() / n as f64).exp_m1();
            prop_assert!(rel_err(up, want) <= CLOSED_FORM_REL_TOL);
            let lo = cp_lower(n, n, alpha).unwrap();
            prop_assert!(rel_err(lo, (alpha.ln() / n as f64).exp()) <= CLOSED_FORM_REL_TOL);
            prop_assert_eq!(cp_upper(n, n, alpha).unwrap(), 1.0);
            prop_assert_eq!(cp_lower(0, n, alpha).unwrap(), 0.0);
        }

        /// k = 1: P(Bin(n,p) >= 1) = 1 − (1−p)^n = α ⇒ lower = 1 − (1−α)^{1/n} (root-finder path).
        #[test]
        fn k_one_lower_matches_closed_form(n in 2u64..10_000_000, la in -9.0f64..-0.1) {
            let alpha = 10f64.powf(la);
            let lo = cp_lower(1, n, alpha).unwrap();
            let want = -((-alpha).ln_1p() / n as f64).exp_m1();
            prop_assert!(rel_err(lo, want) <= 1e-11, "n={} alpha={} got {} want {}", n, alpha, lo, want);
            // k = n − 1: P(Bin(n,p) <= n−1) = 1 − p^n = α ⇒ upper = (1 − α)^{1/n}
            let up = cp_upper(n - 1, n, alpha).unwrap();
            let want = ((-alpha).ln_1p() / n as f64).exp();
            prop_assert!(rel_err(up, want) <= 1e-11);
        }

        /// Duality cp_lower(k, n, α) = 1 − cp_upper(n − k, n, α) (symmetry of the binomial),
        /// order lower < k/n < upper, and the defining tail equations hold at the bounds.
        #[test]
        fn duality_order_and_tails(n in 1u64..100_000, frac in 0.0f64..1.0, la in -9.0f64..-0.5) {
            let k = ((n as f64) * frac).floor() as u64;
            let alpha = 10f64.powf(la);
            let lo = cp_lower(k, n, alpha).unwrap();
            let up = cp_upper(k, n, alpha).unwrap();
            let dual = 1.0 - cp_upper(n - k, n, alpha).unwrap();
            prop_assert!((lo - dual).abs() <= 1e-12 * lo.max(1e-300).max(1e-4), "{} vs {}", lo, dual);
            let phat = k as f64 / n as f64;
            prop_assert!(lo <= phat && phat <= up);
            // The bounds are doubles: the tail equations hold to 1e-8 somewhere between the
            // bound's two neighbours (near p = 1 one ulp of p moves ln α by about
            // n·ulp/(1 − p), more than 1e-8 for k = n − 1 and small α).
            let la_ = alpha.ln();
            if k < n {
                // P(Bin(n, p) <= k) = 1 − I_p(k+1, n−k), decreasing in p; = α at p = up.
                let tail = |p: f64| ln_beta_reg_pair((k + 1) as f64, (n - k) as f64, p).unwrap().1;
                let (hi_p, lo_p) = (next_up(up).min(1.0), next_down(up).max(0.0));
                prop_assert!(tail(hi_p) - 1e-8 <= la_ && la_ <= tail(lo_p) + 1e-8,
                    "upper {}: {} .. {} vs {}", up, tail(hi_p), tail(lo_p), la_);
            }
            if k > 0 {
                // P(Bin(n, p) >= k) = I_p(k, n−k+1), increasing in p; = α at p = lo.
                let tail = |p: f64| ln_beta_reg_pair(k as f64, (n - k + 1) as f64, p).unwrap().0;
                let (lo_p, hi_p) = (next_down(lo).max(0.0), next_up(lo).min(1.0));
                prop_assert!(tail(lo_p) - 1e-8 <= la_ && la_ <= tail(hi_p) + 1e-8,
                    "lower {}: {} .. {} vs {}", lo, tail(lo_p), tail(hi_p), la_);
            }
        }
    }

    /// Both bounds increase strictly with k (n fixed): sweeps every k for a few n.
    #[test]
    fn monotone_in_k() {
        for &(n, alpha) in &[(1u64, 0.05), (7, 1e-9), (100, 0.025), (2000, 1e-6)] {
            let mut prev = (-1.0f64, -1.0f64);
            for k in 0..=n {
                let b = (
                    cp_lower(k, n, alpha).unwrap(),
                    cp_upper(k, n, alpha).unwrap(),
                );
                assert!(b.0 > prev.0 || (k == 0 && b.0 == 0.0), "lower n={n} k={k}");
                assert!(b.1 > prev.1, "upper n={n} k={k}");
                prev = b;
            }
        }
    }

    /// Two-sided interval = one-sided bounds at α/2.
    #[test]
    fn two_sided_is_two_one_sided() {
        let (lo, hi) = clopper_pearson(3, 40, 0.05).unwrap();
        assert_eq!(lo, cp_lower(3, 40, 0.025).unwrap());
        assert_eq!(hi, cp_upper(3, 40, 0.025).unwrap());
    }
}

/// Student-t quantiles (statrs) and two-sided tails (our incomplete beta) against mpmath's
/// hypergeometric t CDF (tests/data/censored_golden.toml, 50 digits).
#[test]
fn student_t_matches_mpmath_golden() {
    use dpbai::stats::{student_t_quantile, student_t_two_sided};
    let data = crate::common::load_toml("censored_golden.toml");
    let qs = data["t_quantile"].as_array().expect("t_quantile");
    assert!(qs.len() >= 60);
    let mut worst = 0.0f64;
    for c in qs {
        let (p, df, want) = (num(&c["p"]), num(&c["df"]), num(&c["value"]));
        let got = student_t_quantile(p, df).expect("quantile");
        let e = rel_err(got, want);
        worst = worst.max(e);
        // statrs alone up to ν = 10³ (measured 5e-13), Newton-polished beyond (our beta_reg).
        let tol = if df <= 1e3 { 1e-12 } else { 2e-10 };
        assert!(e <= tol, "t_({p}, {df}) = {got}, want {want} (rel {e:e})");
    }
    eprintln!("t quantile: worst relative error {worst:e}");
    for c in data["t_two_sided"].as_array().expect("t_two_sided") {
        let (t, df, want) = (num(&c["t"]), num(&c["df"]), num(&c["value"]));
        let got = student_t_two_sided(t, df).expect("tail");
        assert!(
            rel_err(got, want) <= 1e-10,
            "P(|T_{df}| >= {t}) = {got}, want {want}"
        );
    }
    assert!(student_t_quantile(1.0, 5.0).is_err());
    assert!(student_t_quantile(0.9, 0.5).is_err());
    assert!(student_t_two_sided(f64::NAN, 5.0).is_err());
}
