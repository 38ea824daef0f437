//! Analyses of a finished study beyond the per-cell rows: each reading of an algorithm against
//! its default reading ([`readings`]; with capped runs, [`capped_readings`]), and the slope of the mean stopping time in `log(1/δ)`
//! ([`delta_slopes`]).

use crate::bandit::{AlgoName, Setting};
use crate::error::Result;
use crate::experiment::Cell;
use crate::experiment::study::Row;
use crate::experiment::study::config::{Study, lower_kind};
use crate::mc::compare::{FactorRange, Moments, compare_means};

/// One reading of an algorithm against the default reading of the same cell.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ReadingComparison {
    /// Index of the variant's row.
    pub variant: usize,
    /// Index of the default reading's row.
    pub base: usize,
    /// `mean τ (variant) / mean τ (default)`.
    pub ratio: f64,
    /// 95% interval of the ratio of the true means (delta method, Welch; [`compare_means`]).
    pub ci95: [f64; 2],
}

/// The default reading of `c`: the same algorithm, instance, rules, δ, ε, γ, family and seed
/// salt with every other option at its default. `gauss-ldp-tt`'s default is `ctb-tt` (the
/// other local-DP algorithm).
fn is_base_of(b: &Cell, c: &Cell) -> bool {
    let s = &c.setting;
    let mut base = Setting::new(s.algo, s.delta);
    base.eps = s.eps;
    base.gamma = s.gamma;
    base.rules = s.rules;
    if s.algo == AlgoName::GaussLdpTt {
        base.algo = AlgoName::CtbTt;
        base.gamma = None;
    }
    b.setting == base
        && b.instance == c.instance
        && b.sigma == c.sigma
        && b.seed_salt == c.seed_salt
        && b.threshold.is_none()
        && b.key() != c.key()
}

/// Every cell that has a default reading in the study, compared with it (cells with capped
/// runs on either side, or fewer than two runs, are left out: their means are bounds).
///
/// # Errors
/// Statistics failures (not expected for valid rows).
pub fn readings(study: &Study, rows: &[Row]) -> Result<Vec<ReadingComparison>> {
    let mut out = Vec::new();
    for (v, b) in reading_pairs(study) {
        let (rv, rb) = (&rows[v], &rows[b]);
        if rv.capped > 0 || rb.capped > 0 {
            continue;
        }
        let (Some(sv), Some(sb)) = (rv.std_tau, rb.std_tau) else {
            continue;
        };
        let c = compare_means(
            &Moments::new(rv.mean_tau, sv, rv.runs)?,
            &Moments::new(rb.mean_tau, sb, rb.runs)?,
            FactorRange { lo: 1.0, hi: 1.0 },
        )?;
        out.push(ReadingComparison {
            variant: v,
            base: b,
            ratio: c.ratio,
            ci95: [c.ci95_lo, c.ci95_hi],
        });
    }
    Ok(out)
}

/// Every (variant, default reading) pair of row indices of `study`.
fn reading_pairs(study: &Study) -> impl Iterator<Item = (usize, usize)> + '_ {
    study.cells.iter().enumerate().filter_map(|(v, sc)| {
        study
            .cells
            .iter()
            .position(|b| is_base_of(&b.cell, &sc.cell))
            .map(|b| (v, b))
    })
}

/// One-sided level of each Clopper–Pearson bound of [`capped_readings`] (two bounds: a joint
/// 95%).
pub const CAPPED_SHARE_ALPHA: f64 = 0.025;

/// One-sided Clopper–Pearson bounds `[lower, upper]`, each at [`CAPPED_SHARE_ALPHA`], of a
/// share of `capped` runs out of `runs` (the Kaplan–Meier survival at the cap).
///
/// # Errors
/// `runs = 0` or `capped > runs`.
pub fn capped_share_bounds(capped: u64, runs: u64) -> Result<[f64; 2]> {
    use crate::audit::ci::{lower, upper};
    Ok([
        lower(capped, runs, CAPPED_SHARE_ALPHA)?,
        upper(capped, runs, CAPPED_SHARE_ALPHA)?,
    ])
}

/// Two capped shares' [`capped_share_bounds`] compared: `Some(Less)` when `x`'s upper bound is
/// below `y`'s lower one, `Some(Greater)` the reverse, `None` when they overlap (joint 95%).
pub fn order_capped_shares(x: [f64; 2], y: [f64; 2]) -> Option<std::cmp::Ordering> {
    if x[1] < y[0] {
        Some(std::cmp::Ordering::Less)
    } else if x[0] > y[1] {
        Some(std::cmp::Ordering::Greater)
    } else {
        None
    }
}

/// A reading against its default reading when either has capped runs (their means are then
/// only lower bounds): compared by their shares of capped runs at the common cap, the
/// Kaplan–Meier survival `P(τ ≥ cap)` (no run is censored before the cap).
#[derive(Debug, Clone)]
pub struct CappedComparison {
    /// Index of the variant's row.
    pub variant: usize,
    /// Index of the default reading's row.
    pub base: usize,
    /// `Some(Less)`: the variant's capped share is significantly below the default's (the
    /// variant's upper one-sided Clopper–Pearson bound at [`CAPPED_SHARE_ALPHA`] below the
    /// default's lower one), `Some(Greater)` the reverse, `None`: the bounds overlap, or the
    /// caps differ.
    pub order: Option<std::cmp::Ordering>,
    /// The two shares' bounds `[lower, upper]`: the variant's, then the default's.
    pub bounds: [[f64; 2]; 2],
}

/// The reading comparisons [`readings`] leaves out because a cell has capped runs, each decided
/// by censored data (see [`CappedComparison`]).
///
/// # Errors
/// A Clopper–Pearson bound out of its domain (a row with no run).
pub fn capped_readings(study: &Study, rows: &[Row]) -> Result<Vec<CappedComparison>> {
    let mut out = Vec::new();
    for (v, b) in reading_pairs(study) {
        let (rv, rb) = (&rows[v], &rows[b]);
        if rv.capped == 0 && rb.capped == 0 {
            continue;
        }
        let x = capped_share_bounds(rv.capped, rv.runs)?;
        let y = capped_share_bounds(rb.capped, rb.runs)?;
        let order = if rv.max_steps == rb.max_steps {
            order_capped_shares(x, y)
        } else {
            None
        };
        out.push(CappedComparison {
            variant: v,
            base: b,
            order,
            bounds: [x, y],
        });
    }
    Ok(out)
}

/// The fitted slope of the mean stopping time in `log(1/δ)` of one (instance, algorithm, ε).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Slope {
    /// Rows of the group, by increasing `log(1/δ)`.
    pub rows: Vec<usize>,
    /// Slope `b` of `E[τ] ≈ a + b·log(1/δ)`.
    pub slope: f64,
    /// Intercept `a`.
    pub intercept: f64,
    /// 95% interval of the slope.
    pub ci95: [f64; 2],
    /// `T*` of the algorithm's privacy setting (the lower bound's slope).
    pub t_star: f64,
    /// The algorithm's asymptotic upper bound per unit of `log(1/δ)`, if it has one.
    pub upper: Option<f64>,
}

/// Weighted least squares of cell means on `log(1/δ)` for every (instance, algorithm, ε)
/// with at least three δ and no capped run: weights `n_j/max(s_j², 1)` (the inverse variances
/// of the means), slope interval `b ± t_{0.975, m−2}·max(1, sqrt(χ²/(m−2)))/sqrt(Σ w_j (x_j −
/// x̄_w)²)` over the `m` cells (the Birge ratio widens it when the line does not fit).
///
/// # Errors
/// Bound failures.
pub fn delta_slopes(study: &Study, rows: &[Row]) -> Result<Vec<Slope>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (k, sc) in study.cells.iter().enumerate() {
        let same = |g: &Vec<usize>| {
            let h = &study.cells[g[0]];
            h.instance == sc.instance
                && h.algorithm == sc.algorithm
                && h.cell.setting.eps_value() == sc.cell.setting.eps_value()
        };
        match groups.iter_mut().find(|g| same(g)) {
            Some(g) => g.push(k),
            None => groups.push(vec![k]),
        }
    }
    let mut out = Vec::new();
    for mut g in groups {
        g.sort_by(|&a, &b| rows[b].delta.total_cmp(&rows[a].delta));
        let usable = g.len() >= 3
            && g.iter()
                .all(|&k| rows[k].capped == 0 && rows[k].std_tau.is_some());
        if !usable {
            continue;
        }
        let pts: Vec<(f64, f64, f64)> = g
            .iter()
            .map(|&k| {
                let r = &rows[k];
                // τ is an integer: a variance below 1 is discreteness, floored at 1.
                let s = r.std_tau.unwrap_or(f64::NAN).max(1.0);
                ((1.0 / r.delta).ln(), r.mean_tau, r.runs as f64 / (s * s))
            })
            .collect();
        let sw: f64 = pts.iter().map(|p| p.2).sum();
        let xm = pts.iter().map(|p| p.2 * p.0).sum::<f64>() / sw;
        let ym = pts.iter().map(|p| p.2 * p.1).sum::<f64>() / sw;
        let sxx: f64 = pts.iter().map(|p| p.2 * (p.0 - xm).powi(2)).sum();
        let sxy: f64 = pts.iter().map(|p| p.2 * (p.0 - xm) * (p.1 - ym)).sum();
        let slope = sxy / sxx;
        let intercept = ym - slope * xm;
        // Lack of fit (a curved E[τ] in log(1/δ), or τ near-deterministic at some δ): the
        // interval is widened by the Birge ratio sqrt(χ²/(m − 2)) when it exceeds 1, with the
        // t quantile of m − 2 degrees of freedom.
        let m = pts.len() as f64;
        let chi2: f64 = pts
            .iter()
            .map(|p| p.2 * (p.1 - intercept - slope * p.0).powi(2))
            .sum();
        let birge = (chi2 / (m - 2.0)).max(1.0).sqrt();
        let half = crate::stats::student_t_quantile(0.975, m - 2.0)? * birge / sxx.sqrt();
        let sc = &study.cells[g[0]];
        let mut bounds = crate::experiment::study::BoundCache::default();
        let t_star = bounds.time(
            study,
            sc.instance,
            lower_kind(sc.cell.setting.algo),
            sc.cell.setting.eps_value(),
        )?;
        let upper = match crate::experiment::study::config::upper_kind(&sc.cell) {
            Some(k) if sc.cell.sigma.is_none() => Some(crate::experiment::study::upper_per_log(
                &study.instances[sc.instance].instance,
                k,
                sc.cell.setting.eps_value(),
                sc.cell.setting.beta.get(),
            )?),
            _ => None,
        };
        out.push(Slope {
            rows: g,
            slope,
            intercept,
            ci95: [slope - half, slope + half],
            t_star,
            upper,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wls_slope_of_exact_lines_is_exact() {
        // Means exactly 100 + 50·log(1/δ): the fit returns 50 and 100 whatever the weights.
        let text = r#"
runs = 3
delta = [0.1, 0.01, 0.001]
[[instance]]
name = "a"
means = [0.9, 0.1]
[[algorithm]]
algo = "ttucb"
"#;
        let study = crate::experiment::study::parse_study(text, "t").expect("valid");
        let rows: Vec<Row> = study
            .cells
            .iter()
            .enumerate()
            .map(|(k, sc)| {
                let x = (1.0 / sc.cell.setting.delta.get()).ln();
                Row {
                    runs: 10 + k as u64,
                    mean_tau: 100.0 + 50.0 * x,
                    std_tau: Some(3.0 + k as f64),
                    lower_bound: 1.0,
                    ratio_to_lower: 1.0,
                    ..crate::experiment::study::cell_row(&study, k)
                }
            })
            .collect();
        let s = delta_slopes(&study, &rows).expect("fit");
        assert_eq!(s.len(), 1);
        assert!((s[0].slope - 50.0).abs() < 1e-9 && (s[0].intercept - 100.0).abs() < 1e-9);
        assert!(s[0].ci95[0] < 50.0 && s[0].ci95[1] > 50.0);
    }
}
