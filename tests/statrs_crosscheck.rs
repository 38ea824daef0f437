//! Independent cross-checks against statrs (a dependency with a job), where statrs is
//! accurate enough to catch a real error of ours: `erf`/`erfc` (statrs: a rational
//! approximation; measured 1.0e-10 relative from ours at x = 0.5, while ours is within 1e-14 of
//! mpmath) and the regularised
//! incomplete beta `I_x(a, b)` for moderate `a + b` (statrs's continued fraction; it loses
//! accuracy through `ln Γ` cancellation only for `a + b` near 10^7, see `src/stats/beta.rs`).
//! statrs's `Beta::inverse_cdf` is NOT used: it is off by up to 1.3e-4 in the far tails
//! (ECOSYSTEM.md). The golden files (mpmath) stay the accuracy reference; these checks guard
//! against an error that both our code and our reading of mpmath share.

use approx::relative_eq;

/// statrs `erf`/`erfc` accuracy (relative): ten times its error measured on this grid.
const STATRS_ERF_TOL: f64 = 1e-9;
/// statrs `beta_reg` accuracy (relative) for `a + b <= 200`, on the smaller tail above 1e-300
/// (measured: 7e-13 on this grid).
const STATRS_BETA_REG_TOL: f64 = 1e-10;

#[test]
fn erf_and_erfc_agree_with_statrs() {
    let mut worst = 0.0f64;
    for i in -600..=600 {
        let x = i as f64 / 100.0; // [-6, 6]
        for (ours, theirs) in [
            (dpbai::special::erf(x), statrs::function::erf::erf(x)),
            (dpbai::special::erfc(x), statrs::function::erf::erfc(x)),
        ] {
            if theirs == 0.0 {
                assert_eq!(ours, 0.0, "x = {x}");
                continue;
            }
            worst = worst.max(((ours - theirs) / theirs).abs());
            assert!(
                relative_eq!(ours, theirs, epsilon = 0.0, max_relative = STATRS_ERF_TOL),
                "x = {x}: ours {ours:e}, statrs {theirs:e}"
            );
        }
    }
    println!("erf/erfc vs statrs: max rel diff {worst:e}");
}

#[test]
fn beta_reg_agrees_with_statrs() {
    let mut worst = 0.0f64;
    let mut n = 0;
    for &a in &[0.5, 1.0, 2.0, 3.5, 10.0, 37.0, 100.0] {
        for &b in &[0.5, 1.0, 2.5, 7.0, 20.0, 99.0] {
            for j in 1..40 {
                let x = j as f64 / 40.0;
                let ours = dpbai::stats::beta_reg(a, b, x).expect("valid");
                let theirs = statrs::function::beta::beta_reg(a, b, x);
                // compare the smaller tail, where a relative error is meaningful
                let (o, t) = if theirs <= 0.5 {
                    (ours, theirs)
                } else {
                    (1.0 - ours, 1.0 - theirs)
                };
                if t < 1e-300 {
                    continue;
                }
                n += 1;
                worst = worst.max(((o - t) / t).abs());
                assert!(
                    relative_eq!(o, t, epsilon = 0.0, max_relative = STATRS_BETA_REG_TOL),
                    "I_{x}({a}, {b}): ours {ours:e}, statrs {theirs:e}"
                );
            }
        }
    }
    assert!(n >= 1000, "only {n} points compared");
    println!("beta_reg vs statrs: {n} points, max rel diff {worst:e}");
}
