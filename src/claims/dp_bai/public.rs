//! The public code side by side (READINGS.md §P): `--rules reference` cells against the stopping
//! times measured by running the paper's public Python code
//! (`data/public_code_runs.csv`, provenance in `data/README.md`: mean, std and run count per
//! (algorithm, instance, ε)).
//!
//! Per cell: the ratio of our mean to the public code's with its 95% interval (delta method on
//! the log ratio, Welch–Satterthwaite degrees of freedom) and the Welch p-value, from
//! [`crate::mc::compare`]. The public code's AdaP-TT reports a counter that holds between half
//! of its pulls and all of them (READINGS.md §P.6): its rows are compared with the factor range
//! [`crate::mc::ADAPTT_COUNTER`], which widens the interval to `[lo/2, hi]`.

use crate::bandit::{AlgoName, Rules};
use crate::claims::prelude::*;
use crate::experiment::grid::GridResults;
use crate::mc::compare::{FactorRange, Moments, RatioComparison, compare_means};
use crate::numbers::sig;

/// The public code's measured stopping times (`data/public_code_runs.csv`), compiled in so that
/// an installed binary needs no source tree.
pub const PUBLIC_CODE_RUNS: &str = include_str!("../../../data/public_code_runs.csv");
/// Where [`PUBLIC_CODE_RUNS`] comes from, for messages.
const SOURCE: &str = "data/public_code_runs.csv";

/// One row of the public code's measurements.
#[derive(Debug, Clone, PartialEq)]
pub struct PublicRow {
    /// Our algorithm.
    pub algo: AlgoName,
    /// Instance name.
    pub instance: String,
    /// ε (`None` for the non-private TTUCB).
    pub eps: Option<f64>,
    /// Mean stopping time over the public code's runs.
    pub mean: f64,
    /// Sample standard deviation.
    pub std: f64,
    /// Runs.
    pub runs: u64,
}

/// Parses the text of `public_code_runs.csv` (comment lines start with `#`).
///
/// # Errors
/// A missing column or an unparsable value, with the line.
pub fn read_public_rows(text: &str) -> crate::Result<Vec<PublicRow>> {
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let header = lines.next().unwrap_or_default();
    if header != "algo,instance,eps,delta,runs,mean_tau,std_tau,errors" {
        return Err(crate::Error::Parse(format!(
            "{SOURCE}: unexpected header `{header}`"
        )));
    }
    lines
        .map(|l| {
            let bad = || crate::Error::Parse(format!("{SOURCE}: bad line `{l}`"));
            let f: Vec<&str> = l.split(',').collect();
            if f.len() != 8 {
                return Err(bad());
            }
            let algo = match f[0] {
                "TTUCB" => AlgoName::Ttucb,
                "AdaPTT" => AlgoName::AdapTt,
                "DPSE" => AlgoName::DpSe,
                _ => return Err(bad()),
            };
            let eps = match f[2] {
                "inf" => None,
                x => Some(x.parse::<f64>().map_err(|_| bad())?),
            };
            Ok(PublicRow {
                algo,
                instance: f[1].to_string(),
                eps,
                mean: f[5].parse().map_err(|_| bad())?,
                std: f[6].parse().map_err(|_| bad())?,
                runs: f[4].parse().map_err(|_| bad())?,
            })
        })
        .collect()
}

/// One compared cell.
#[derive(Debug, Clone)]
pub struct Compared {
    /// The public code's row.
    pub row: PublicRow,
    /// Our mean (capped runs at the cap), its std, runs and capped runs.
    pub ours: (f64, f64, u64, u64),
    /// The comparison (`None` when our cell has capped runs: its mean is only a lower bound).
    pub cmp: Option<RatioComparison>,
    /// The digest of our cell.
    pub cell: crate::experiment::CellDigest,
}

/// The public code's rows compared with the grid's reference cells.
///
/// # Errors
/// A missing reference cell, or invalid moments.
pub fn compare(rows: &[PublicRow], g: &GridResults) -> crate::Result<Vec<Compared>> {
    rows.iter()
        .map(|row| {
            let c = g
                .get_rules(&row.instance, row.algo, row.eps, Rules::Reference)
                .ok_or_else(|| {
                    crate::Error::Parse(format!(
                        "no reference cell for {} {} ε = {:?}",
                        row.instance,
                        row.algo.as_str(),
                        row.eps
                    ))
                })?;
            let sm = &c.summary;
            let std = sm.std_tau.unwrap_or(0.0);
            let factor = if row.algo == AlgoName::AdapTt {
                crate::mc::ADAPTT_COUNTER
            } else {
                FactorRange::EXACT
            };
            // A public row with zero spread (DP-SE's deterministic epochs) still has a mean.
            let theirs = Moments::new(row.mean, row.std, row.runs)?;
            let cmp = if sm.unstopped == 0 {
                Some(compare_means(
                    &Moments::new(sm.mean_tau, std, sm.runs)?,
                    &theirs,
                    factor,
                )?)
            } else {
                None
            };
            Ok(Compared {
                row: row.clone(),
                ours: (sm.mean_tau, std, sm.runs, sm.unstopped),
                cmp,
                cell: c.digest.clone(),
            })
        })
        .collect()
}

/// The band within which two stopping-time means count as the same (±10%).
pub const AGREE_BAND: f64 = 1.1;

crate::statistics! {
    /// The statistics of S.1.
    pub struct S1Stats { cells, inside, outside, ratio_lo_min, ratio_hi_max }
}

/// S.1: the public code side by side.
pub static S1: Claim<S1Stats> = Claim {
    id: "S.1",
    title: "the public code side by side",
    source: "READINGS.md §P; Rem. 53",
    statement: "`--rules reference` reproduces the stopping times of the paper's public code",
    row: Some(Row {
        claim: "the public code side by side",
        formula: "`--rules reference` (READINGS.md §P) reproduces the stopping times of the paper's public code ([data/public_code_runs.csv](../data/public_code_runs.csv))",
        source: "Rem. 53",
    }),
    wording: Some(
        "READINGS.md §P (not a claim of the paper): the public code's empirical rules, reproduced by `dpbai --rules reference`, give the public code's stopping times (Rem. 53)",
    ),
    statistic: "cells: public-code rows of data/public_code_runs.csv (TTUCB, AdaP-TT, DP-SE on μ1, μ2); inside / outside: rows whose 95% interval of the ratio dpbai (--rules reference) / public code lies inside ±10% / entirely outside it; ratio_lo_min / ratio_hi_max: the lowest lower and highest upper end over the rows (a row with capped runs of ours: [0, ∞]); AdaP-TT rows widened by the factor [1, 2] between the public code's counter and its pulls, derived from its doubling rule (READINGS.md §P.6)",
    rule: Rule {
        confirm: Some("cells > 0"),
        refute: Some("outside > 0"),
        decide: Some(
            "more runs of the public code (it has 9–50 per row), so that each ratio's interval falls inside or outside ±10%; for AdaP-TT, the public code's pulls recorded beside its counter (its rows cannot fall inside ±10% while the counter's factor spans [1, 2])",
        ),
        equivalence: Some(Equivalence::RATIO_WITHIN_10_PERCENT),
        ..Rule::NONE
    },
    fair: "our reference rules are a reading of the public code (READINGS.md §P); agreement is an equivalence: every row's 95% interval inside ±10% (a log-figure's resolution), so that the paper's figures can be regenerated with them; an interval that contains 1 but crosses the margin is no evidence of agreement",
    rule_sets: &[RuleSet::Reference],
    regime: Regime::Finite,
    check: s1,
};

fn s1(ctx: &mut Context) -> Checked<S1Stats> {
    if !ctx.experiments {
        return Checked::Skipped;
    }
    let Some(g) = ctx.grid.as_ref() else {
        ctx.evidence.record("the experiment grid is missing");
        return Checked::Failed("the experiment grid is missing".to_string());
    };
    let cmp = match read_public_rows(PUBLIC_CODE_RUNS).and_then(|rows| compare(&rows, g)) {
        Ok(c) => c,
        Err(e) => {
            ctx.evidence.record(e.to_string());
            return Checked::Failed(e.to_string());
        }
    };
    // Equivalence, not absence of a difference: a row agrees only when its whole 95% interval
    // lies inside ±10%; a row with capped runs of ours has only a lower bound (open above).
    let (mut inside, mut outside) = (0u32, 0u32);
    let (mut lo_min, mut hi_max) = (f64::INFINITY, f64::NEG_INFINITY);
    for c in &cmp {
        let (lo, hi) = c
            .cmp
            .as_ref()
            .map_or((0.0, f64::INFINITY), |r| (r.ci95_lo, r.ci95_hi));
        lo_min = lo_min.min(lo);
        hi_max = hi_max.max(hi);
        inside += u32::from(lo >= 1.0 / AGREE_BAND && hi <= AGREE_BAND);
        outside += u32::from(lo > AGREE_BAND || hi < 1.0 / AGREE_BAND);
    }
    if cmp.is_empty() {
        ctx.evidence.record("no public-code row to compare");
    }
    let straddle = cmp.len() as u32 - inside - outside;
    Checked::done(
        format!(
            "{} cells of {} (see the public-code block): the 95% interval of the ratio of means lies inside \
             ±10% in {inside}, entirely outside in {outside}, across an edge of the margin (or our cell has capped runs) in {straddle}; all intervals within [{}, {}]; AdaP-TT rows allow the public code's counter, which holds 1/2 to 1 of its pulls (factor [1, 2], READINGS.md §P.6)",
            cmp.len(),
            "public_code_runs.csv",
            sig(lo_min, 3),
            sig(hi_max, 3),
        ),
        S1Stats {
            cells: cmp.len() as f64,
            inside: f64::from(inside),
            outside: f64::from(outside),
            ratio_lo_min: lo_min,
            ratio_hi_max: hi_max,
        },
    )
}
