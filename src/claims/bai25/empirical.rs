//! B.8, B.9, B.10 and B.12: \[BAI25\]'s claims on its experiment, judged on the cells of its
//! study (`verify/bai25-quick.toml`, `verify/bai25-paper.toml`: [`super::evidence`]), and the
//! Finding of REPORT-BAI25.md that compares DP-TT under the printed threshold with the poster's
//! plotted times ([`threshold_gap_block`]).

use super::evidence::{FIGURE_ALGORITHMS, GRID, SLOPE, cell, eps_grid};
use super::regimes::{DIGITISED_REL, poster_figure};
use crate::bandit::AlgoName;
use crate::claims::dp_bai::empirical::estimates::{Z95, fmt_mean, fmt_ratio, ratio, secant};
use crate::claims::prelude::*;
use crate::complexity::{log_factor_bai25, t_eps, t_kl, upper};
use crate::experiment::CellResult;
use crate::instance::Instance;
use crate::numbers::sig;
use crate::params::Delta;

/// The instances of the figure.
const FIGURE_INSTANCES: [&str; 2] = ["mu1", "mu2"];

/// The distinct-means instance of B.8 (its bound is stated for distinct means).
const SLOPE_INSTANCE: &str = "mu4";

/// The multiplicative gap B.12 allows between DP-TT and EB-TCI: `2(1 + η)` at `η = 1`, the
/// factor by which DP-TT's asymptotic bound `2(1 + η)·T*_{ε,β}` exceeds EB-TCI's `T*_{KL,β}`
/// in the low-privacy regime (where `T*_ε = T*_KL`).
const ALLOWED_GAP: f64 = 2.0 * (1.0 + upper::DP_TT_ETA);

/// The check's result when the study's cells are absent.
fn no_cells<S>(ctx: &Context, what: &str) -> Checked<S> {
    if !ctx.experiments {
        return Checked::Skipped;
    }
    if let Err(e) = crate::fault::check(crate::fault::Area::Mc) {
        ctx.evidence.record(e.to_string());
        return Checked::Failed(e.to_string());
    }
    let m = format!("the study's {what} cells are missing");
    ctx.evidence.record(m.clone());
    Checked::Failed(m)
}

/// The cells of `name`, or `None` when there are none (recorded by the caller).
fn cells_of<'a>(ctx: &'a Context, name: &str) -> Option<&'a [CellResult]> {
    let c = ctx.group(name);
    (!c.is_empty()).then_some(c)
}

/// The instance of a cell (its means are in its setting's study; here from the cell itself).
fn instance_of(c: &CellResult) -> crate::Result<Instance> {
    Instance::bernoulli(c.cell.means.clone())
}

crate::statistics! {
    /// The statistics of B.8.
    pub struct B8Stats { hi_over_bound, lo_over_bound, points }
}

/// B.8: DP-TT's asymptotic sample complexity is within `8·T*_ε`.
pub static B8: Claim<B8Stats> = Claim {
    id: "B.8",
    title: "DP-TT within 8·T*_ε",
    source: "[BAI25] poster",
    statement: "for distinct means in (0, 1) and every ε: limsup_{δ→0} E[τ]/log(1/δ) ≤ 2(1 + η)·T*_{ε,β}(μ) ≤ 8·T*_ε(μ) at (η, β) = (1, 1/2)",
    row: Some(Row {
        claim: "DP-TT within 8·T*_ε",
        formula: "`limsup E[τ]/log(1/δ) ≤ 2(1+η)T*_{ε,β} ≤ 8T*_ε`",
        source: "[BAI25] poster",
    }),
    wording: None,
    statistic: "per ε of the slope group on μ4 = (0.75, 0.625, 0.5, 0.375, 0.25) (distinct means; ε ∈ {0.1, 1, 10}): the 95% interval [lo, hi] of the δ-slope of DP-TT's mean τ (the secant in log(1/δ) between δ = 1e-8 and 1e-16, poster threshold dp-tt-poster); hi_over_bound = max over ε of hi / 8T*_ε(μ4), lo_over_bound = max over ε of lo / 8T*_ε(μ4); points: the ε judged",
    rule: Rule {
        confirm: Some("hi_over_bound <= 1 and points >= 2"),
        refute: Some("lo_over_bound > 1"),
        decide: Some(
            "more runs at δ = 1e-8 and 1e-16 (or smaller δ), until every slope's interval lies below or one lies above 8T*_ε",
        ),
        ..Rule::NONE
    },
    fair: "a limit superior of E[τ]/log(1/δ) is the slope of E[τ] ≈ a + b·log(1/δ) as δ → 0 (as the first paper's asymptotic claims are judged): the secant at the two smallest δ is its evidence, confirmed when every interval lies below the bound, refuted when one lies above; the bound needs distinct means, so μ1 (tied arms) is reported beside it and not judged",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Asymptotic,
    check: b8,
};

/// The secants of the slope cells on `inst`, per ε: `(ε, slope, lo, hi, 8T*_ε, 2(1+η)T*_{ε,1/2})`.
fn secants(ctx: &Context, cells: &[CellResult], inst: &str) -> Vec<(f64, f64, f64, f64, f64, f64)> {
    let mine: Vec<CellResult> = cells
        .iter()
        .filter(|c| c.cell.instance == inst)
        .cloned()
        .collect();
    let mut out = Vec::new();
    for e in eps_grid(&mine) {
        let mut at: Vec<&CellResult> = mine
            .iter()
            .filter(|c| c.cell.setting.eps_value() == Some(e))
            .collect();
        // Decreasing δ: the secant between the two smallest.
        at.sort_by(|a, b| {
            b.cell
                .setting
                .delta
                .get()
                .total_cmp(&a.cell.setting.delta.get())
        });
        if at.len() < 2 {
            ctx.evidence.record(format!(
                "fewer than two δ cells of DP-TT on {inst} at ε = {e}"
            ));
            continue;
        }
        let n = at.len();
        let (b, lo, hi) = match secant(Some(at[n - 2]), Some(at[n - 1])) {
            Some(Ok((b, se))) => (b, b - Z95 * se, b + Z95 * se),
            // Capped runs: the slope is undetermined.
            _ => (f64::NAN, 0.0, f64::INFINITY),
        };
        let (b8, b4) = match instance_of(at[0]) {
            Ok(nu) => match upper::dp_tt(&nu, e, 0.5, upper::DP_TT_ETA) {
                Ok(u) => (u.dp_tt_8t_eps.value, u.dp_tt.value),
                Err(err) => {
                    ctx.evidence.record(err.to_string());
                    (f64::NAN, f64::NAN)
                }
            },
            Err(err) => {
                ctx.evidence.record(err.to_string());
                (f64::NAN, f64::NAN)
            }
        };
        out.push((e, b, lo, hi, b8, b4));
    }
    out
}

fn b8(ctx: &mut Context) -> Checked<B8Stats> {
    let Some(cells) = cells_of(ctx, SLOPE) else {
        return no_cells(ctx, "slope");
    };
    let judged = secants(ctx, cells, SLOPE_INSTANCE);
    let tied = secants(ctx, cells, "mu1");
    let line = |inst: &str, v: &[(f64, f64, f64, f64, f64, f64)]| -> Vec<String> {
        v.iter()
            .map(|&(e, b, lo, hi, b8, b4)| {
                let slope = if b.is_nan() {
                    "undetermined (capped runs) [0, ∞]".to_string()
                } else {
                    format!("{} [{}, {}]", sig(b, 4), sig(lo, 4), sig(hi, 4))
                };
                format!(
                    "{inst} ε = {e}: slope {slope} against 8T*_ε = {} (2(1+η)T*_{{ε,1/2}} = {})",
                    sig(b8, 5),
                    sig(b4, 5)
                )
            })
            .collect()
    };
    let hi_over = judged
        .iter()
        .map(|&(_, _, _, hi, b8, _)| hi / b8)
        .fold(f64::NEG_INFINITY, f64::max);
    let lo_over = judged
        .iter()
        .map(|&(_, _, lo, _, b8, _)| lo / b8)
        .fold(f64::NEG_INFINITY, f64::max);
    Checked::done(
        format!(
            "DP-TT (poster threshold), δ-slope between δ = 1e-8 and 1e-16: {}; tied means, reported and not judged: {}",
            line(SLOPE_INSTANCE, &judged).join("; "),
            line("mu1", &tied).join("; ")
        ),
        B8Stats {
            hi_over_bound: hi_over,
            lo_over_bound: lo_over,
            points: judged.len() as f64,
        },
    )
}

crate::statistics! {
    /// The statistics of B.9.
    pub struct B9Stats { cells, cells_below, min_ratio }
}

/// B.9: every algorithm of the figure respects the lower bound.
pub static B9: Claim<B9Stats> = Claim {
    id: "B.9",
    title: "the figure above T*_ε·log(1/(3δ))",
    source: "[BAI25] poster",
    statement: "every δ-correct ε-global-DP strategy has E[τ] ≥ T*_ε(μ)·log(1/(3δ)) (the figure's algorithms included)",
    row: Some(Row {
        claim: "lower bound T*_ε·log(1/(3δ))",
        formula: "`E[τ] ≥ T*_ε·log(1/(3δ))` for every algorithm of the figure",
        source: "[BAI25] poster",
    }),
    wording: None,
    statistic: "cells: the figure's cells (μ1, μ2 × the study's ε × EB-TCI, DP-SE, AdaP-TT, AdaP-TT*, DP-TT, δ = 0.01); cells_below: cells without capped runs whose 95% interval of the mean τ lies entirely below the bound (T*_ε(ε)·log(1/(3δ)) for the private algorithms, T*_KL·log(1/(3δ)) for the non-private EB-TCI, its ε → ∞ limit); min_ratio: the smallest mean τ / bound",
    rule: Rule {
        confirm: Some("cells_below == 0 and cells >= 10"),
        refute: Some("cells_below > 0"),
        decide: Some("at least 10 cells of the figure computed"),
        ..Rule::NONE
    },
    fair: "a lower bound on E[τ] of δ-correct algorithms: a cell is evidence against it only when its whole 95% interval lies below (a capped cell's mean is a lower bound itself, so it never is); the non-private reference is held to its own bound, T*_KL·log(1/(3δ)) (T*_ε at ε = ∞), since no ε-DP bound applies to it",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Finite,
    check: b9,
};

/// The bound of B.9 for a cell.
fn lower_bound(c: &CellResult) -> crate::Result<f64> {
    let nu = instance_of(c)?;
    let lf = log_factor_bai25(Delta::new(c.cell.setting.delta.get())?);
    Ok(match c.cell.setting.eps_value() {
        Some(e) if c.cell.setting.algo.needs_eps() => t_eps(&nu, e)?.value * lf,
        _ => t_kl(&nu)?.value * lf,
    })
}

fn b9(ctx: &mut Context) -> Checked<B9Stats> {
    let Some(cells) = cells_of(ctx, GRID) else {
        return no_cells(ctx, "grid");
    };
    let (mut below, mut min_ratio) = (0u32, f64::INFINITY);
    let mut worst = String::new();
    let mut n = 0u32;
    for c in cells {
        if !FIGURE_ALGORITHMS.contains(&c.cell.setting.algo) {
            continue;
        }
        n += 1;
        let b = match lower_bound(c) {
            Ok(b) => b,
            Err(e) => {
                ctx.evidence.record(e.to_string());
                f64::NAN
            }
        };
        let s = &c.summary;
        let r = s.mean_tau / b;
        if r < min_ratio || min_ratio.is_nan() {
            min_ratio = r;
            worst = format!(
                "{} (mean {} against {})",
                c.cell.key(),
                fmt_mean(c),
                sig(b, 4)
            );
        }
        if let (0, Some(hi)) = (s.unstopped, s.censored.mean_ci95_hi) {
            below += u32::from(hi < b);
        }
    }
    Checked::done(
        format!(
            "{n} cells of the figure; {below} with their 95% interval below the bound; the closest is {worst}, at {} times the bound",
            sig(min_ratio, 4)
        ),
        B9Stats {
            cells: f64::from(n),
            cells_below: f64::from(below),
            min_ratio,
        },
    )
}

crate::statistics! {
    /// The statistics of B.10.
    pub struct B10Stats { comparisons, wins, losses }
}

/// B.10: DP-TT outperforms DP-SE, AdaP-TT and AdaP-TT* on μ1 and μ2 over the ε grid.
pub static B10: Claim<B10Stats> = Claim {
    id: "B.10",
    title: "DP-TT outperforms the first paper's algorithms",
    source: "[BAI25] poster (figure)",
    statement: "DP-TT outperforms DP-SE, AdaP-TT and AdaP-TT* on μ1 and μ2 for every ε of the figure",
    row: Some(Row {
        claim: "DP-TT outperforms DP-SE, AdaP-TT, AdaP-TT*",
        formula: "mean τ of DP-TT below each competitor's, per instance and ε",
        source: "[BAI25] poster (figure)",
    }),
    wording: None,
    statistic: "per instance (μ1, μ2), ε of the grid and competitor (DP-SE, AdaP-TT, AdaP-TT*), the ratio of mean τ DP-TT / competitor with its simultaneous interval (delta method on the log scale, Bonferroni over the comparisons at family level 95%; capped cells open the interval on their side); wins: intervals entirely below 1; losses: entirely above 1; comparisons: their number",
    rule: Rule {
        confirm: Some("wins == comparisons and comparisons > 0"),
        refute: Some("losses > 0"),
        decide: Some("more runs per cell, until every ratio's interval excludes 1"),
        ..Rule::NONE
    },
    fair: "\"outperforms\" per ε is a comparison of mean stopping times under the poster's own thresholds (DP-TT: the printed shape dp-tt-poster, the only one published); the claim holds only if it holds at every ε and instance, refuted if DP-TT is certainly slower anywhere; every comparison where it does not hold is named",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Finite,
    check: b10,
};

/// The ratio of two cells' means with an interval at z (delta method on the log scale),
/// widened as [`ratio`] widens it for capped cells.
fn ratio_at(ev: &Evidence, a: &CellResult, b: &CellResult, z: f64) -> (f64, f64, f64) {
    let r = ratio(ev, a, b);
    // ratio() uses Z95: rescale its log half-width to z.
    let (lo, hi) = if r.lo > 0.0 && r.lo.is_finite() && r.hi.is_finite() {
        let w = (r.hi / r.r).ln() * z / Z95;
        (r.r * (-w).exp(), r.r * w.exp())
    } else if r.hi.is_finite() {
        let w = (r.hi / r.r).ln() * z / Z95;
        (r.lo, r.r * w.exp())
    } else if r.lo > 0.0 {
        let w = (r.r / r.lo).ln() * z / Z95;
        (r.r * (-w).exp(), r.hi)
    } else {
        (r.lo, r.hi)
    };
    (r.r, lo, hi)
}

fn b10(ctx: &mut Context) -> Checked<B10Stats> {
    let Some(cells) = cells_of(ctx, GRID) else {
        return no_cells(ctx, "grid");
    };
    let competitors = [AlgoName::DpSe, AlgoName::AdapTt, AlgoName::AdapTtStar];
    let eps = eps_grid(cells);
    let delta = super::DELTA;
    let m = (FIGURE_INSTANCES.len() * eps.len() * competitors.len()).max(1);
    let z = crate::stats::student_t_quantile(1.0 - 0.025 / m as f64, 1e6).unwrap_or(f64::NAN);
    let (mut wins, mut losses, mut n) = (0u32, 0u32, 0u32);
    let mut not_held = Vec::new();
    for inst in FIGURE_INSTANCES {
        for &e in &eps {
            let Some(dp) = cell(cells, inst, AlgoName::DpTt, Some(e), delta) else {
                ctx.evidence
                    .record(format!("missing DP-TT cell {inst} ε = {e}"));
                continue;
            };
            for other in competitors {
                let Some(o) = cell(cells, inst, other, Some(e), delta) else {
                    ctx.evidence
                        .record(format!("missing {} cell {inst} ε = {e}", other.as_str()));
                    continue;
                };
                n += 1;
                let (r, lo, hi) = ratio_at(&ctx.evidence, dp, o, z);
                if hi < 1.0 {
                    wins += 1;
                } else {
                    losses += u32::from(lo > 1.0);
                    not_held.push(format!(
                        "{inst} ε = {e} vs {}: DP-TT/{} = {} [{}, {}] ({} against {})",
                        other.as_str(),
                        other.as_str(),
                        sig(r, 3),
                        sig(lo, 3),
                        if hi.is_finite() {
                            sig(hi, 3)
                        } else {
                            "∞".into()
                        },
                        fmt_mean(dp),
                        fmt_mean(o)
                    ));
                }
            }
        }
    }
    Checked::done(
        format!(
            "{n} comparisons (simultaneous z = {}): DP-TT certainly faster in {wins}, certainly slower in {losses}; where it does not hold: {}",
            sig(z, 4),
            if not_held.is_empty() {
                "nowhere".to_string()
            } else {
                not_held.join("; ")
            }
        ),
        B10Stats {
            comparisons: f64::from(n),
            wins: f64::from(wins),
            losses: f64::from(losses),
        },
    )
}

crate::statistics! {
    /// The statistics of B.12.
    pub struct B12Stats { gap_hi_max, gap_lo_max, allowed_gap }
}

/// B.12: DP-TT performs on par with EB-TCI in low privacy, up to a multiplicative gap.
pub static B12: Claim<B12Stats> = Claim {
    id: "B.12",
    title: "DP-TT on par with EB-TCI (low privacy)",
    source: "[BAI25] poster",
    statement: "in the low-privacy regime DP-TT performs on par with EB-TCI, up to a multiplicative gap",
    row: Some(Row {
        claim: "DP-TT on par with EB-TCI (low privacy)",
        formula: "mean τ DP-TT / EB-TCI bounded at the largest ε",
        source: "[BAI25] poster",
    }),
    wording: None,
    statistic: "the ratio of mean τ DP-TT / EB-TCI at the largest ε of the grid on μ1 and μ2, with its 95% interval (delta method on the log scale); gap_hi_max, gap_lo_max: the largest upper and lower ends over the two instances; allowed_gap = 2(1 + η) = 4, the factor by which DP-TT's asymptotic bound 2(1 + η)T*_{ε,β} exceeds EB-TCI's T*_{KL,β} where T*_ε = T*_KL (the poster's own figure shows about 1.7)",
    rule: Rule {
        confirm: Some("gap_hi_max <= allowed_gap"),
        refute: Some("gap_lo_max > allowed_gap"),
        decide: Some(
            "more runs at the largest ε, until both intervals lie below or one above 2(1 + η)",
        ),
        ..Rule::NONE
    },
    fair: "\"on par up to a multiplicative gap\" would hold for any finite gap, so the rule fixes the gap the theory allows before the numbers are seen: 2(1 + η), DP-TT's own asymptotic factor over the non-private time in low privacy; the poster's figure (about 1.7 on both panels) lies well inside it",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Finite,
    check: b12,
};

fn b12(ctx: &mut Context) -> Checked<B12Stats> {
    let Some(cells) = cells_of(ctx, GRID) else {
        return no_cells(ctx, "grid");
    };
    let Some(&emax) = eps_grid(cells).last() else {
        return no_cells(ctx, "grid");
    };
    let (mut hi_max, mut lo_max) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut rows = Vec::new();
    for inst in FIGURE_INSTANCES {
        let dp = cell(cells, inst, AlgoName::DpTt, Some(emax), super::DELTA);
        let eb = cell(cells, inst, AlgoName::EbTci, None, super::DELTA);
        let (Some(dp), Some(eb)) = (dp, eb) else {
            ctx.evidence
                .record(format!("missing DP-TT or EB-TCI cell on {inst}"));
            continue;
        };
        let r = ratio(&ctx.evidence, dp, eb);
        hi_max = hi_max.max(r.hi);
        lo_max = lo_max.max(r.lo);
        rows.push(format!(
            "{inst}: DP-TT {} / EB-TCI {} = {}",
            fmt_mean(dp),
            fmt_mean(eb),
            fmt_ratio(r)
        ));
    }
    Checked::done(
        format!(
            "at ε = {emax} (DP-TT under the printed threshold shape dp-tt-poster, EB-TCI under gk16-bernoulli): {}; allowed gap 2(1 + η) = {ALLOWED_GAP}",
            rows.join("; ")
        ),
        B12Stats {
            gap_hi_max: hi_max,
            gap_lo_max: lo_max,
            allowed_gap: ALLOWED_GAP,
        },
    )
}

/// The Finding block `threshold-gap` of REPORT-BAI25.md: DP-TT's mean τ under the printed
/// threshold shape against the poster's plotted DP-TT at the same ε (the ε of the study's grid
/// the poster also plots), with the ratio and the digitisation's ±10%.
///
/// # Errors
/// The poster's file does not parse.
pub fn threshold_gap_block(cells: &[CellResult]) -> crate::Result<String> {
    let points = poster_figure()?;
    let mut s = String::from(
        "| instance | ε | DP-TT here (mean τ, dp-tt-poster) | poster's DP-TT | here / poster (poster ±10%) |\n|---|---|---|---|---|\n",
    );
    let mut any = false;
    for inst in FIGURE_INSTANCES {
        for p in points
            .iter()
            .filter(|p| p.instance == inst && p.algorithm == "DP-TT")
        {
            let Some(v) = p.mean_tau else { continue };
            let Some(c) = cell(cells, inst, AlgoName::DpTt, Some(p.eps), super::DELTA) else {
                continue;
            };
            any = true;
            let m = c.summary.mean_tau;
            s.push_str(&format!(
                "| {inst} | {} | {} | {} | {} [{}, {}] |\n",
                p.eps,
                fmt_mean(c),
                sig(v, 3),
                sig(m / v, 3),
                sig(m / (v * (1.0 + DIGITISED_REL)), 3),
                sig(m / (v * (1.0 - DIGITISED_REL)), 3)
            ));
        }
    }
    if !any {
        s.push_str("| – | – | no ε of the study's grid is one of the poster's | – | – |\n");
    }
    Ok(s)
}

/// The Findings block on DP-TT's tail: per cell of the `tail` group (DP-TT at small ε on tied
/// rivals and on distinct means), its median, mean (a lower bound when runs are capped), largest
/// τ, capped runs (and how many of them recommended a wrong arm at the cap) and wrong stops.
pub fn tail_block(cells: &[CellResult]) -> String {
    let mut s = String::from(
        "| instance (means) | ε | runs (seed) | cap | median τ | mean τ | max τ | capped (wrong at the cap) | wrong stops |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for c in cells {
        let m = &c.summary;
        let means: Vec<String> = c.cell.means.iter().map(|x| x.to_string()).collect();
        s.push_str(&format!(
            "| {} ({}) | {} | {} ({}) | {} | {} | {} | {} | {} ({}) | {} |\n",
            c.cell.instance,
            means.join(", "),
            c.cell
                .setting
                .eps_value()
                .map_or_else(|| "–".into(), |e| e.to_string()),
            m.runs,
            c.seed,
            sig(c.cell.max_steps as f64, 3),
            sig(m.median_tau, 6),
            fmt_mean(c),
            m.max_tau,
            m.unstopped,
            m.unstopped_wrong,
            m.errors
        ));
    }
    if cells.is_empty() {
        s.push_str("| – | – | – | – | the study has no tail cells | – | – | – | – |\n");
    }
    s
}
