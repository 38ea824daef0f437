//! ε curves: every ε-dependent quantity of `dpbai bounds` on a grid of ε (the columns of
//! `dpbai bounds --eps-grid` and of the Python `dpbai.eps_curves`).

use super::{log_factor, t_global, t_kl, t_kl_g_eps, t_kl_gaussian, t_kl_gaussian_beta, t_local};
use super::{log_factor_bai25, t_eps, t_eps_beta};
use super::{t_kl_beta_g_eps, t_tv, t_tv2, two_h_g_eps, upper};
use crate::divergence::c_local;
use crate::error::Result;
use crate::instance::{Family, Instance};
use crate::params::Delta;

/// Number of columns of an ε curve row.
pub const EPS_CURVE_WIDTH: usize = 37;

/// Column names of [`eps_curves`], in order: `eps`, `c(ε)`, the local and global times with
/// their certificates, `T_KL` and the relaxed times `max(T_KL, T_TV2/c(ε))`,
/// `max(T_KL, T_TV/ε)`, the privacy-aware Gaussian times, `2H_{G,ε}`, the two readings of
/// `H_ε`, the sample-complexity lower bounds (`lb_*`, times `log(1/(2.4δ))`), the
/// upper-bound formulas (`ub_*`, per unit of `log(1/δ)`; asymptotic, `δ → 0`, not finite-δ
/// bounds), the active branch of each reading of Thm. 24 (`*_branch`: 1 = the `g1` term,
/// 2 = the `g2` term; the curve jumps where it changes) and `high_privacy_arms`, the number of
/// arms `a ≠ a*` with `ε < 2Δ_a` (Sec. 4.1's per-arm regime; `T_{KL,β}(ν_{G,ε})` has a kink at
/// each `ε = 2Δ_a`). Then \[BAI25\]'s tight global time (Bernoulli arms; NaN for Gaussian):
/// `t_eps` with its certificate, `t_eps_beta` (`T*_{ε,β}`), `t_eps_over_t_global`, `lb_t_eps`
/// (times `log(1/(3δ))`, \[BAI25\]'s factor, NOT `log(1/(2.4δ))`), and DP-TT's upper bounds
/// `ub_dp_tt` = `2(1 + η)T*_{ε,β}` (`η = 1`) and `ub_dp_tt_8t_eps` = `8T*_ε`.
pub const EPS_CURVE_COLUMNS: [&str; EPS_CURVE_WIDTH] = [
    "eps",
    "c_eps",
    "t_local",
    "t_local_lower",
    "t_local_upper",
    "t_global",
    "t_global_lower",
    "t_global_upper",
    "t_kl",
    "relaxed_local",
    "relaxed_global",
    "t_kl_g_eps",
    "t_kl_beta_g_eps",
    "two_h_g_eps",
    "h_eps_sec43",
    "h_eps_app_b",
    "lb_non_private",
    "lb_local",
    "lb_global",
    "ub_ctb_tt",
    "ub_ctb_tt_ids",
    "ub_adap_tt",
    "ub_adap_tt_star_thm24_main",
    "ub_adap_tt_star_lemma52_app",
    "ub_adap_tt_star_proof_max",
    "ub_adap_tt_star_thm24_main_branch",
    "ub_adap_tt_star_lemma52_app_branch",
    "ub_adap_tt_star_proof_max_branch",
    "high_privacy_arms",
    "t_eps",
    "t_eps_lower",
    "t_eps_upper",
    "t_eps_beta",
    "t_eps_over_t_global",
    "lb_t_eps",
    "ub_dp_tt",
    "ub_dp_tt_8t_eps",
];

/// One row per `ε` of `grid`, the columns of [`EPS_CURVE_COLUMNS`]; NaN where a quantity is
/// undefined (Gaussian arms: `relaxed_local`, because the house `T_TV2` is the quadratic B.6
/// cost, not the time of the Gaussian TV², so Cor. 11's relaxation is not tabulated there; and
/// `ub_ctb_tt`, `ub_ctb_tt_ids`, refused by [`super::upper::upper_bounds_from`]; and the
/// \[BAI25\] columns, defined for Bernoulli arms only).
///
/// # Definition
/// For each `ε` of `grid`: the characteristic times, the sample-complexity lower bounds
/// `T·log(1/(2.4δ))` (and \[BAI25\]'s `T*_ε·log(1/(3δ))`), the upper bounds of
/// [`super::upper::upper_bounds_from`] and DP-TT's ([`super::upper::dp_tt`]), in the order of
/// [`EPS_CURVE_COLUMNS`].
/// # Reference
/// READINGS.md §B.7–§B.10 (times), E.3 (lower bounds), E.4 (upper bounds); \[BAI25\] poster
/// (`T*_ε`, its lower bound, DP-TT's upper bound).
/// # Domain
/// Any valid [`Instance`]; every `ε` of `grid` in `(0, C_LOCAL_EPS_MAX]`; `δ ∈ (0, 1)`;
/// `β ∈ (0, 1)`. Every value is finite (NaN marks an undefined one, as stated above).
/// # Accuracy
/// Each column has the accuracy of the item that computes it (times: 1e-9 certificates, golden
/// file `tests/data/bounds_golden.toml`, `GOLDEN_TOL` 1e-8 of `tests/complexity.rs`; `T*_ε`:
/// `tests/data/t_eps_golden.toml`).
///
/// # Errors
/// [`crate::Error::InvalidParameter`] for `ε <= 0`, `δ ∉ (0, 1)` or `β ∉ (0, 1)`;
/// [`crate::Error::Overflow`] for `ε` beyond [`crate::divergence::C_LOCAL_EPS_MAX`], where
/// `c(ε)` exceeds the largest `f64`; the errors of the solvers.
///
/// # Example
/// ```
/// use dpbai::complexity::curves::{eps_curves, EPS_CURVE_COLUMNS};
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let delta = dpbai::params::Delta::new(0.01).unwrap();
/// let rows = eps_curves(&nu, &[0.1, 1.0], delta, 0.5).unwrap();
/// let g = EPS_CURVE_COLUMNS.iter().position(|c| *c == "t_global").unwrap();
/// assert!(rows[0][g] > rows[1][g]);
/// ```
pub fn eps_curves(
    nu: &Instance,
    grid: &[f64],
    delta: Delta,
    beta: f64,
) -> Result<Vec<[f64; EPS_CURVE_WIDTH]>> {
    let bern = nu.family() == Family::Bernoulli;
    let t_kl = t_kl(nu)?.value;
    let t_tv = t_tv(nu)?.value;
    let t_tv2 = t_tv2(nu)?.value;
    let lf = log_factor(delta);
    let lf_bai25 = log_factor_bai25(delta);
    let tg_beta = t_kl_gaussian_beta(nu, nu.sigma(), beta)?.value;
    let tg = t_kl_gaussian(nu, nu.sigma())?.value;
    let gaps = nu.suboptimal_gaps();
    let mut rows = Vec::with_capacity(grid.len());
    for &eps in grid {
        // Beyond C_LOCAL_EPS_MAX (ε ≈ 354.198) c(ε) exceeds the largest f64: an error naming
        // ε, never a row with `c_eps = inf`.
        let c = c_local(eps)?;
        let local = t_local(nu, eps)?;
        let l = |f: fn(&super::Certified) -> f64| f(&local);
        let global = t_global(nu, eps)?;
        let ub = upper::upper_bounds_from(nu, eps, beta, tg_beta, tg)?;
        let nan = f64::NAN;
        let (te, te_beta) = if bern {
            (Some(t_eps(nu, eps)?), t_eps_beta(nu, eps, beta)?.value)
        } else {
            (None, nan)
        };
        let te_at = |f: fn(&super::Certified) -> f64| te.as_ref().map_or(nan, f);
        let te_value = te_at(|c| c.value);
        rows.push([
            eps,
            c,
            l(|c| c.value),
            l(|c| c.lower),
            l(|c| c.upper),
            global.value,
            global.lower,
            global.upper,
            t_kl,
            if bern { t_kl.max(t_tv2 / c) } else { f64::NAN },
            t_kl.max(t_tv / eps),
            t_kl_g_eps(nu, eps)?.value,
            t_kl_beta_g_eps(nu, eps, beta)?.value,
            two_h_g_eps(nu, eps)?,
            nu.hardness_h_eps_sec43(eps),
            nu.hardness_h_eps_app_b(eps),
            t_kl * lf,
            l(|c| c.value) * lf,
            global.value * lf,
            ub.ctb_tt.finite().unwrap_or(f64::NAN),
            ub.ctb_tt_ids.finite().unwrap_or(f64::NAN),
            ub.adap_tt.value,
            ub.adap_tt_star.thm24_main,
            ub.adap_tt_star.lemma52_app,
            ub.adap_tt_star.proof_max,
            ub.adap_tt_star.thm24_main_branch.code(),
            ub.adap_tt_star.lemma52_app_branch.code(),
            ub.adap_tt_star.proof_max_branch.code(),
            gaps.iter().filter(|&&d| eps < 2.0 * d).count() as f64,
            te_value,
            te_at(|c| c.lower),
            te_at(|c| c.upper),
            te_beta,
            te_value / global.value,
            te_value * lf_bai25,
            2.0 * (1.0 + upper::DP_TT_ETA) * te_beta,
            8.0 * te_value,
        ]);
    }
    Ok(rows)
}
