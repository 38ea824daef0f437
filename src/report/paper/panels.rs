//! The panels of the paper's Figures 1–5 from a grid of cells: per instance and privacy model,
//! the algorithms' Monte Carlo summaries under one rule set, the lower bounds
//! `T*·log(1/(2.4δ))` (Thm. 10, 17, L. 5), the asymptotic upper bounds times `log(1/δ)` with the
//! Thm. 24 branch switch, the theoretical regime switch (READINGS.md §B.10) and the paper's
//! empirical one; and the panels of the ratio empirical / lower bound.

use super::data::{BranchSwitch, Curve, Empirical, EpsPanelData, RatioPanelData};
use crate::bandit::{AlgoName, Rules};
use crate::claims::dp_bai::empirical::figures::paper_switch;
use crate::claims::dp_bai::evidence::Profile;
use crate::complexity::upper::{ASYMPTOTIC, UpperBounds, upper_bounds_from};
use crate::complexity::{
    eps_switch_global, eps_switch_local, log_factor, t_global, t_kl, t_kl_gaussian,
    t_kl_gaussian_beta, t_local,
};
use crate::error::Result;
use crate::experiment::grid::GridResults;
use crate::instance::Instance;
use crate::numbers::log_grid;
use crate::params::{Delta, PrivacyModel};
use crate::plot::PointStats;

/// Display name of an instance (`mu1` → `μ1 = (…)`).
pub fn instance_label(name: &str, means: &[f64]) -> String {
    let m: Vec<String> = means.iter().map(|x| x.to_string()).collect();
    format!("{} = ({})", name.replace("mu", "μ"), m.join(", "))
}

/// Display name of an algorithm.
pub fn algo_label(a: AlgoName) -> &'static str {
    a.info().label
}

/// Legend label of the Thm. 24 branch switch of the AdaP-TT* upper bound.
pub const THM24_SWITCH_LABEL: &str = "AdaP-TT* bound (Thm. 24) changes branch at ε = 2Δ_max (jump)";

/// The summary of `algo` on `instance` under `rules` at each ε of `eps` (missing cells: `runs`
/// 0 and NaN statistics).
fn empirical(
    grid: &GridResults,
    instance: &str,
    algo: AlgoName,
    eps: &[f64],
    rules: Rules,
) -> Empirical {
    let mut e = Empirical::named(algo_label(algo));
    for &x in eps {
        let key = (algo != AlgoName::Ttucb).then_some(x);
        let cell = grid.get_rules(instance, algo, key, rules);
        // Mean over all runs, capped runs at the cap (a lower bound when any is capped); the
        // 95% Student-t interval only where no run is capped (no bar, `null` in the sidecar;
        // figures feed no verdict).
        let point = cell.map(|c| {
            let s = &c.summary.censored;
            PointStats {
                runs: s.runs,
                capped: s.capped,
                mean: s.mean,
                mean_is_lower_bound: s.capped > 0,
                ci95: s.mean_ci95_lo.zip(s.mean_ci95_hi).map(|(lo, hi)| [lo, hi]),
                std: c.summary.std_tau,
                median: s.km_median,
                q25: s.km_q25,
                q75: s.km_q75,
                cell: Some(c.digest.to_string()),
            }
        });
        e.push(point, cell.map_or(0, |c| c.cell.max_steps));
    }
    e
}

/// Whether a figure's model is the local one. A figure's model is private: the study parser
/// refuses `non-private` ([`crate::experiment::study::config::StudyFigure::model`]).
pub(super) fn is_local(model: PrivacyModel) -> bool {
    match model {
        PrivacyModel::Local => true,
        PrivacyModel::Global => false,
        PrivacyModel::NonPrivate => {
            unreachable!("invariant: a figure's model is private (checked by the study parser)")
        }
    }
}

/// The algorithms of a model's figures, in legend order.
pub fn algos(model: PrivacyModel) -> Vec<AlgoName> {
    if is_local(model) {
        vec![AlgoName::CtbTt, AlgoName::Ttucb]
    } else {
        vec![
            AlgoName::AdapTtStar,
            AlgoName::AdapTt,
            AlgoName::DpSe,
            AlgoName::Ttucb,
        ]
    }
}

/// Lower bound `T(ε)·log(1/(2.4δ))` of the model on `eps`.
///
/// # Errors
/// The first solver error on `eps` (a figure never silently drops a point of its bound).
pub fn lower_bound_curve(
    nu: &Instance,
    model: PrivacyModel,
    eps: &[f64],
    delta: Delta,
) -> Result<Vec<f64>> {
    let lf = log_factor(delta);
    eps.iter()
        .map(|&e| {
            let t = if is_local(model) {
                t_local(nu, e)
            } else {
                t_global(nu, e)
            };
            Ok(t?.value * lf)
        })
        .collect()
}

/// The ε grid of a panel under `rules`: the profile's grid under the paper's rules; under any
/// other rules the ε values of the instance's cells of the model's private algorithms (the
/// profile's grid when the instance has none, so that the panel still shows the bounds).
fn panel_eps(
    grid: &GridResults,
    profile: &Profile,
    name: &str,
    model: PrivacyModel,
    rules: Rules,
) -> Vec<f64> {
    let profile_eps = if is_local(model) {
        profile.local_eps.clone()
    } else {
        profile.global_eps.clone()
    };
    if rules == Rules::Paper {
        return profile_eps;
    }
    let mut eps: Vec<f64> = algos(model)
        .into_iter()
        .filter(|&a| a != AlgoName::Ttucb)
        .flat_map(|a| grid.eps_of(name, a, rules))
        .collect();
    eps.sort_by(f64::total_cmp);
    eps.dedup();
    if eps.is_empty() { profile_eps } else { eps }
}

/// One stopping-time panel under the paper's rules.
///
/// # Errors
/// Solver failures.
pub fn eps_panel(
    grid: &GridResults,
    profile: &Profile,
    name: &str,
    means: &[f64],
    model: PrivacyModel,
) -> Result<EpsPanelData> {
    eps_panel_rules(grid, profile, name, means, model, Rules::Paper)
}

/// One stopping-time panel from the cells under `rules` (the bounds do not depend on them).
///
/// # Errors
/// Solver failures.
pub fn eps_panel_rules(
    grid: &GridResults,
    profile: &Profile,
    name: &str,
    means: &[f64],
    model: PrivacyModel,
    rules: Rules,
) -> Result<EpsPanelData> {
    let nu = Instance::bernoulli(means.to_vec())?;
    let eps = panel_eps(grid, profile, name, model, rules);
    let fine = log_grid(eps[0], eps[eps.len() - 1], 60);
    let lf = log_factor(Delta::new(profile.delta)?);
    let tkl = t_kl(&nu)?.value * lf;
    let (label, switch) = if is_local(model) {
        (
            "lower bound T_local(μ, ε) × log(1/(2.4δ))",
            eps_switch_local(&nu)?,
        )
    } else {
        (
            "lower bound T_global(μ, ε) × log(1/(2.4δ))",
            eps_switch_global(&nu)?,
        )
    };
    let (upper_bounds, upper_switches) = upper_curves(&nu, model, &fine, profile.delta)?;
    let empirical: Vec<Empirical> = algos(model)
        .into_iter()
        .map(|a| empirical(grid, name, a, &eps, rules))
        .collect();
    let none = empirical.iter().all(|e| e.runs.iter().all(|&r| r == 0));
    Ok(EpsPanelData {
        instance: instance_label(name, means),
        eps: eps.clone(),
        empirical,
        lower_bounds: vec![
            Curve {
                label: label.into(),
                x: fine.clone(),
                y: lower_bound_curve(&nu, model, &fine, Delta::new(profile.delta)?)?,
                algorithm: None,
            },
            Curve {
                label: "non-private lower bound T_KL(μ) × log(1/(2.4δ))".into(),
                x: fine.clone(),
                y: vec![tkl; fine.len()],
                algorithm: None,
            },
        ],
        upper_bounds,
        upper_switches,
        theory_switch: Some(switch),
        paper_switch: paper_switch(name, is_local(model)),
        switches: vec![],
        note: none.then(|| "no cells under these rules in this profile".to_string()),
    })
}

/// Relative positions of the two points that an upper-bound curve gets on either side of a
/// branch switch `s` (at `s·(1 ∓ 10⁻⁹)`, clear of rounding in the branch condition), between
/// which it breaks.
pub const SWITCH_SIDES: [f64; 2] = [1.0 - 1e-9, 1.0 + 1e-9];

/// Legend label of an asymptotic upper-bound curve: `what` and its regime.
fn asymptotic(what: &str) -> String {
    format!("{what} × log(1/δ) ({ASYMPTOTIC})")
}

/// Asymptotic upper bounds (E.4) times `log(1/δ)`, β = 1/2 (δ → 0 statements: indicative only
/// at a fixed δ), and, in the global model, the Thm. 24 branch switch `ε = 2Δ_max` of
/// AdaP-TT*'s bound: its curve breaks there (no line across the jump) and is evaluated on both
/// sides of it.
fn upper_curves(
    nu: &Instance,
    model: PrivacyModel,
    eps: &[f64],
    delta: f64,
) -> Result<(Vec<Curve>, Vec<BranchSwitch>)> {
    let l = (1.0 / delta).ln();
    let tgb = t_kl_gaussian_beta(nu, 0.5, 0.5)?.value;
    let tg = t_kl_gaussian(nu, 0.5)?.value;
    let switch = crate::complexity::upper::adap_tt_star_switches(nu).0;
    let (lo, hi) = (eps[0], eps[eps.len() - 1]);
    let split = !is_local(model) && switch > lo && switch < hi;
    // The grid, with a point just before the switch (g2 branch) and one just past it (g1).
    let mut x: Vec<f64> = eps.to_vec();
    if split {
        x.retain(|&e| e != switch);
        x.extend(SWITCH_SIDES.map(|f| switch * f));
        x.sort_by(f64::total_cmp);
    }
    // An error at any ε fails the figure: a curve never silently loses a point.
    let ub: Vec<UpperBounds> = x
        .iter()
        .map(|&e| upper_bounds_from(nu, e, 0.5, tgb, tg))
        .collect::<Result<_>>()?;
    let curve = |label: String, algo: AlgoName, f: &dyn Fn(&UpperBounds) -> f64| Curve {
        label,
        x: x.clone(),
        y: ub.iter().map(|u| f(u) * l).collect(),
        algorithm: Some(algo_label(algo).into()),
    };
    let ttucb = Curve {
        label: asymptotic("TTUCB upper bound T_Gauss(β = 1/2)"),
        x: x.clone(),
        y: vec![tgb * l; x.len()],
        algorithm: Some(algo_label(AlgoName::Ttucb).into()),
    };
    Ok(if is_local(model) {
        (
            vec![
                curve(
                    asymptotic("CTB-TT upper bound (Sec. 3.2)"),
                    AlgoName::CtbTt,
                    &|u| u.ctb_tt.value,
                ),
                ttucb,
            ],
            vec![],
        )
    } else {
        let mut star = curve(
            asymptotic("AdaP-TT* upper bound (Thm. 24)"),
            AlgoName::AdapTtStar,
            &|u| u.adap_tt_star.thm24_main,
        );
        let mut switches = vec![];
        if split {
            // A break between the two branches: the jump is not part of the curve.
            let k = x.partition_point(|&e| e <= switch);
            star.x.insert(k, switch);
            star.y.insert(k, f64::NAN);
            switches.push(BranchSwitch {
                label: THM24_SWITCH_LABEL.into(),
                x: switch,
                algorithm: algo_label(AlgoName::AdapTtStar).into(),
                note: format!("2Δ_max = {}", super::builders::fmt_eps(switch)),
            });
        }
        let adap = curve(
            asymptotic("AdaP-TT upper bound (Thm. 22)"),
            AlgoName::AdapTt,
            &|u| u.adap_tt.value,
        );
        (vec![star, adap, ttucb], switches)
    })
}

/// One panel of the ratio empirical / lower bound (paper rules), at the ε where the lower bound
/// is positive; TTUCB (non-private) left out.
///
/// # Errors
/// Solver failures.
pub fn ratio_panel(
    grid: &GridResults,
    profile: &Profile,
    name: &str,
    means: &[f64],
    model: PrivacyModel,
) -> Result<RatioPanelData> {
    let p = eps_panel(grid, profile, name, means, model)?;
    let nu = Instance::bernoulli(means.to_vec())?;
    let lb = lower_bound_curve(&nu, model, &p.eps, Delta::new(profile.delta)?)?;
    // Keep only the ε points where the lower bound was computed.
    let keep: Vec<usize> = (0..lb.len())
        .filter(|&i| lb[i].is_finite() && lb[i] > 0.0)
        .collect();
    let pick = |v: &[f64]| keep.iter().map(|&i| v[i]).collect::<Vec<f64>>();
    // TTUCB is non-private: the private lower bound does not apply to it.
    let empirical = p
        .empirical
        .iter()
        .filter(|e| e.algorithm != algo_label(AlgoName::Ttucb))
        .map(|e| e.select(&keep))
        .collect();
    Ok(RatioPanelData {
        instance: p.instance,
        eps: pick(&p.eps),
        empirical,
        lower_bound: pick(&lb),
    })
}
