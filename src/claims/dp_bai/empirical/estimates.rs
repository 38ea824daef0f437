//! The cell estimates every group of empirical checks shares: censored means and their intervals, ratios of cells, secant slopes, the rule sets' algorithms and instances.

pub(super) use crate::bandit::{AlgoName, Rules};
pub(super) use crate::claims::dp_bai::evidence::paper_instances;
pub(super) use crate::claims::prelude::*;
pub(super) use crate::experiment::CellResult;
pub(super) use crate::experiment::grid::GridResults;
use crate::experiment::study::analysis::{capped_share_bounds, order_capped_shares};
pub(super) use crate::numbers::sig;

/// z of a two-sided 95% normal interval.
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// The check's result when the grid is absent: skipped under `--no-experiments`, otherwise an
/// error (the grid should be there).
pub(super) fn no_grid<S>(ctx: &Context) -> Checked<S> {
    if !ctx.experiments {
        return Checked::Skipped;
    }
    ctx.evidence.record("the experiment grid is missing");
    Checked::Failed("the experiment grid is missing".into())
}

/// The cells of the study group `name`; when it has none, the check's result as for an absent
/// grid ([`no_grid`]: skipped under `--no-experiments`, otherwise an error naming the group).
pub(super) fn group<'a, S>(ctx: &'a Context, name: &str) -> Result<&'a [CellResult], Checked<S>> {
    let cells = ctx.group(name);
    if !cells.is_empty() {
        return Ok(cells);
    }
    if !ctx.experiments {
        return Err(Checked::Skipped);
    }
    let msg = format!("the study group `{name}` is missing");
    ctx.evidence.record(msg.clone());
    Err(Checked::Failed(msg))
}

/// The grid; `None` when it is absent or has no result (a Monte Carlo fault empties it at its
/// accessors, [`crate::fault`]), which the check's [`no_grid`] records as an error: a check
/// never counts zero cells as evidence.
pub(super) fn grid(ctx: &Context) -> Option<&GridResults> {
    ctx.grid.as_ref().filter(|g| g.iter().next().is_some())
}

/// The cell, or `None` with the missing cell recorded as an error.
pub(super) fn get<'a>(
    ev: &Evidence,
    g: &'a GridResults,
    inst: &str,
    algo: AlgoName,
    eps: Option<f64>,
    rules: Rules,
) -> Option<&'a CellResult> {
    let c = g.get_rules(inst, algo, eps, rules);
    if c.is_none() {
        ev.record(format!(
            "missing cell {inst} {} ε = {eps:?} ({rules:?} rules)",
            algo.as_str()
        ));
    }
    c
}

/// A cell's mean stopping time with capped runs counted at the cap (then only a lower bound)
/// and its relative standard error.
#[derive(Debug, Clone, Copy)]
pub struct Est {
    /// Mean over all runs, capped runs at the cap.
    pub mean: f64,
    /// Relative standard error of the mean; `None` when the cell has fewer than two runs (no
    /// standard deviation), which makes any interval built on it an error (see [`ratio`]).
    pub rse: Option<f64>,
    /// Capped runs.
    pub capped: u64,
}

/// The estimate of a cell (see [`Est`]).
pub fn est(c: &CellResult) -> Est {
    let sm = &c.summary;
    let mean = sm.mean_tau;
    Est {
        mean,
        rse: sm.std_tau.map(|s| s / (sm.runs as f64).sqrt() / mean),
        capped: sm.unstopped,
    }
}

/// Ratio of two cells' means with its 95% interval (delta method on the log scale), widened to
/// `+∞` / `0` on the side a capped numerator / denominator leaves open.
///
/// A capped numerator makes the ratio of means a **lower** bound (its mean is one), a capped
/// denominator an **upper** bound, and both sides capped leave it **undetermined**: then the
/// ratio of the Kaplan–Meier medians ([`RatioEst::median_ratio`]) is the one comparison left.
#[derive(Debug, Clone, Copy)]
pub struct RatioEst {
    /// Ratio of the means (of lower bounds when capped).
    pub r: f64,
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
    /// Whether the numerator cell has capped runs.
    pub num_capped: bool,
    /// Whether the denominator cell has capped runs.
    pub den_capped: bool,
    /// Ratio of the two cells' Kaplan–Meier (lower) medians; `None` when either median is not
    /// determined (half of a cell's runs or more capped).
    pub median_ratio: Option<f64>,
}

/// The ratio of `a` to `b` (see [`RatioEst`]). A cell without a standard error (fewer than two
/// runs) leaves the interval undefined: the error is recorded, so the claim that asked for the
/// ratio is `not checkable (error: …)`, and the interval's ends are NaN.
pub fn ratio(ev: &Evidence, a: &CellResult, b: &CellResult) -> RatioEst {
    let (x, y) = (est(a), est(b));
    let r = x.mean / y.mean;
    let median_ratio = match (a.summary.censored.km_median, b.summary.censored.km_median) {
        (Some(m), Some(n)) if n > 0 => Some(m as f64 / n as f64),
        _ => None,
    };
    let (num_capped, den_capped) = (x.capped > 0, y.capped > 0);
    let (Some(rx), Some(ry)) = (x.rse, y.rse) else {
        ev.record(format!(
            "no 95% interval for the ratio {} / {}: a cell has fewer than two runs",
            a.cell.key(),
            b.cell.key()
        ));
        return RatioEst {
            r,
            lo: f64::NAN,
            hi: f64::NAN,
            num_capped,
            den_capped,
            median_ratio,
        };
    };
    let w = Z95 * (rx * rx + ry * ry).sqrt();
    RatioEst {
        r,
        lo: if den_capped { 0.0 } else { r * (-w).exp() },
        hi: if num_capped {
            f64::INFINITY
        } else {
            r * w.exp()
        },
        num_capped,
        den_capped,
        median_ratio,
    }
}

/// A ratio as REPORT prints it: `r [lo, hi]`; `≥ r [lo, ∞]` when only the numerator is capped
/// (a lower bound), `≤ r [0, hi]` when only the denominator is (an upper bound), and
/// `undetermined (KM-median ratio m)` when both are.
pub(crate) fn fmt_ratio(r: RatioEst) -> String {
    let end = |x: f64| {
        if x.is_finite() {
            sig(x, 3)
        } else {
            "∞".into()
        }
    };
    match (r.num_capped, r.den_capped) {
        (true, true) => format!(
            "undetermined (both cells capped; KM-median ratio {})",
            r.median_ratio
                .map_or_else(|| "undetermined".to_string(), |m| sig(m, 3))
        ),
        (true, false) => format!("≥ {} [{}, ∞]", sig(r.r, 3), end(r.lo)),
        (false, true) => format!("≤ {} [0, {}]", sig(r.r, 3), end(r.hi)),
        (false, false) => format!("{} [{}, {}]", sig(r.r, 3), end(r.lo), end(r.hi)),
    }
}

/// Two cells whose runs are both capped, compared by censored data rather than left undecided:
/// their shares of capped runs at a common cap `C` are the Kaplan–Meier survival `P(τ ≥ C)`
/// (no run is censored before the cap). `Some(Less)` when `a`'s share is significantly below
/// `b`'s (the upper Clopper–Pearson bound of `a`'s below the lower bound of `b`'s, each
/// one-sided at [`crate::experiment::study::analysis::CAPPED_SHARE_ALPHA`]), `Some(Greater)` the reverse, `None` when the bounds
/// overlap or the caps differ. With the text `k/n vs k/n at cap C`.
pub(crate) fn capped_shares(
    ev: &Evidence,
    a: &CellResult,
    b: &CellResult,
) -> (Option<std::cmp::Ordering>, String) {
    let (x, y) = (&a.summary.censored, &b.summary.censored);
    let text = format!(
        "capped shares {}/{} vs {}/{}",
        x.capped, x.runs, y.capped, y.runs
    );
    if x.cap.is_none() || x.cap != y.cap {
        return (None, format!("{text} at different caps"));
    }
    let bounds = |c: &crate::mc::censored::CensoredStats| {
        // An out-of-domain count is recorded (the claim is then not checkable).
        capped_share_bounds(c.capped, c.runs).unwrap_or_else(|e| {
            let nan = ev.value(Area::Mc, Err(e));
            [nan, nan]
        })
    };
    let (xb, yb) = (bounds(x), bounds(y));
    (
        order_capped_shares(xb, yb),
        format!(
            "{text} at cap {} ([{}, {}] vs [{}, {}])",
            sig(x.cap.unwrap_or(0) as f64, 3),
            sig(xb[0], 3),
            sig(xb[1], 3),
            sig(yb[0], 3),
            sig(yb[1], 3)
        ),
    )
}

/// The mean of a cell as text: `≥ m` when runs are capped.
pub(crate) fn fmt_mean(c: &CellResult) -> String {
    let e = est(c);
    if e.capped > 0 {
        format!("≥ {} ({} capped)", sig(e.mean, 4), e.capped)
    } else {
        sig(e.mean, 4)
    }
}

pub(super) fn rules_tag(rules: Rules) -> &'static str {
    match rules {
        Rules::Paper => "provable thresholds (paper rules)",
        Rules::Reference => "the public code's empirical rules (--rules reference)",
    }
}

/// The secant slope of mean τ in `log(1/δ)` between two cells of one (instance, algorithm, ε)
/// and its standard error; `None` when a cell is missing, `Some(Err(()))` when a cell has
/// capped runs or fewer than two runs (the slope is then undetermined).
pub(crate) fn secant(
    a: Option<&crate::experiment::CellResult>,
    b: Option<&crate::experiment::CellResult>,
) -> Option<Result<(f64, f64), ()>> {
    let (a, b) = (a?, b?);
    let se = |c: &crate::experiment::CellResult| {
        let sm = &c.summary;
        match sm.std_tau {
            Some(s) if sm.unstopped == 0 => Ok((sm.mean_tau, s / (sm.runs as f64).sqrt())),
            _ => Err(()),
        }
    };
    let x = |c: &crate::experiment::CellResult| (1.0 / c.cell.setting.delta.get()).ln();
    Some((|| {
        let ((ma, sa), (mb, sb)) = (se(a)?, se(b)?);
        let dx = x(b) - x(a);
        Ok(((mb - ma) / dx, (sa * sa + sb * sb).sqrt() / dx.abs()))
    })())
}

/// `algos` without those that under `rules` are a duplicate of another (under the public code's
/// rules AdaP-TT* is AdaP-TT, reseeded: [`crate::bandit::info::ReferenceRules::SameAs`]), so a
/// duplicate is never counted as separate evidence.
pub(super) fn distinct_algos(rules: Rules, algos: &[AlgoName]) -> Vec<AlgoName> {
    algos
        .iter()
        .copied()
        .filter(|a| {
            rules == Rules::Paper
                || !matches!(
                    a.reference_rules(),
                    crate::bandit::info::ReferenceRules::SameAs(_)
                )
        })
        .collect()
}

/// Instances a figure claim is judged on: all six under the paper's rules, μ1 and μ2 (the
/// reference cells) under the public code's.
pub(super) fn instances_for(rules: Rules) -> Vec<(&'static str, Vec<f64>)> {
    let all = paper_instances();
    match rules {
        Rules::Paper => all,
        Rules::Reference => all.into_iter().take(2).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{figures, switches};
    use super::*;
    use crate::claims::{AnyClaim, ClaimResult, ClaimVerdict, judge};
    use crate::experiment::{Cell, run_cell};

    /// Judges one claim as `run_all` does: its recorded errors, then its rule.
    fn judged(claim: &dyn AnyClaim, ctx: &mut Context) -> ClaimResult {
        judge(claim, ctx)
    }

    /// A grid of cheap cells named as F.50 looks them up: TTUCB and CTB-TT at ε = 10 for μ1 and
    /// μ2 (both on an easy two-arm instance), `runs` runs each.
    fn f50_grid(runs: u64) -> GridResults {
        let means = [0.9, 0.1];
        let cell = |name, algo, eps| {
            Cell::paper(name, &means, algo, eps, 0.01, runs, 30_000_000).expect("valid")
        };
        let cells = ["mu1", "mu2"].map(|name| {
            [
                cell(name, AlgoName::Ttucb, None),
                cell(name, AlgoName::CtbTt, Some(10.0)),
            ]
        });
        GridResults {
            cells: cells
                .iter()
                .flatten()
                .map(|c| run_cell(c, None, 1).expect("cheap cell"))
                .collect(),
        }
    }

    fn ctx_with(grid: GridResults) -> Context {
        Context {
            experiments: true,
            grid: Some(grid),
            ..Default::default()
        }
    }

    /// Failure is never success: a cell with one run has no standard error, so the ratio's
    /// interval is undefined and F.50 is `not checkable (error: …)`; with 20 runs it decides.
    #[test]
    fn a_ratio_without_a_standard_error_is_an_error() {
        let r = judged(&figures::F50, &mut ctx_with(f50_grid(1)));
        assert_eq!(r.verdict, ClaimVerdict::NotCheckable, "{}", r.note);
        assert!(
            r.note.starts_with("error:") && r.note.contains("fewer than two runs"),
            "{}",
            r.note
        );
        let r = judged(&figures::F50, &mut ctx_with(f50_grid(20)));
        assert!(!r.note.starts_with("error:"), "{}", r.note);
        assert_ne!(r.verdict, ClaimVerdict::NotCheckable, "{}", r.note);
    }

    fn ratio_of(num_capped: bool, den_capped: bool, median_ratio: Option<f64>) -> RatioEst {
        RatioEst {
            r: 0.0208,
            lo: if den_capped { 0.0 } else { 0.0195 },
            hi: if num_capped { f64::INFINITY } else { 0.0219 },
            num_capped,
            den_capped,
            median_ratio,
        }
    }

    /// A capped numerator gives a lower bound, a capped denominator an upper bound, both an
    /// undetermined ratio with the KM-median ratio beside it.
    #[test]
    fn censored_ratios_name_their_direction() {
        assert_eq!(
            fmt_ratio(ratio_of(false, false, None)),
            "0.0208 [0.0195, 0.0219]"
        );
        assert_eq!(
            fmt_ratio(ratio_of(true, false, None)),
            "≥ 0.0208 [0.0195, ∞]"
        );
        assert_eq!(
            fmt_ratio(ratio_of(false, true, None)),
            "≤ 0.0208 [0, 0.0219]"
        );
        assert_eq!(
            fmt_ratio(ratio_of(true, true, Some(0.255))),
            "undetermined (both cells capped; KM-median ratio 0.255)"
        );
        assert_eq!(
            fmt_ratio(ratio_of(true, true, None)),
            "undetermined (both cells capped; KM-median ratio undetermined)"
        );
    }

    /// An empty grid has no empirical switch: F.52 and F.55 (both rule sets) are errors, never
    /// a verdict on a NaN.
    #[test]
    fn a_missing_switch_is_an_error() {
        for check in [
            &switches::F52 as &dyn AnyClaim,
            &switches::F52_REF,
            &switches::F55,
            &switches::F55_REF,
        ] {
            let r = judged(check, &mut ctx_with(GridResults::default()));
            assert_eq!(
                r.verdict,
                ClaimVerdict::NotCheckable,
                "{}: {}",
                r.id,
                r.note
            );
            assert!(r.note.starts_with("error:"), "{}: {}", r.id, r.note);
        }
    }
}
