//! Black-box mode of `audit dp` (DP-Sniper style): choose an event on one half of the runs,
//! certify it with Clopper–Pearson bounds on the other half (parent module docs).

use crate::audit::{ci, Verdict};
use crate::error::{check_open, Error, Result};
use crate::rng::{rng_for_run, Rng};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

/// What the black-box certifies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Claim {
    /// Pure `ε`-DP.
    Pure {
        /// Claimed `ε`.
        eps: f64,
    },
    /// `(ε, γ)`-DP.
    Approx {
        /// Claimed `ε`.
        eps: f64,
        /// Claimed `γ`.
        gamma: f64,
    },
}

impl Claim {
    fn eps(&self) -> f64 {
        match *self {
            Claim::Pure { eps } | Claim::Approx { eps, .. } => eps,
        }
    }
}

/// Result of a black-box test.
#[derive(Debug, Clone, Serialize)]
pub struct BlackBox {
    /// Certified lower bound on the privacy loss `log(P(E|x)/P(E|x'))` (0 if nothing positive
    /// was certified).
    pub eps_lower: f64,
    /// For `(ε, γ)` claims: certified lower bound on `P(E|x) − e^ε P(E|x')` (else `None`).
    pub gamma_lower: Option<f64>,
    /// Runs per input (both halves).
    pub runs: u64,
    /// Held-out runs per input used for certification.
    pub certify_runs: u64,
    /// Held-out counts `(k, k')` of the event on `x` and `x'`.
    pub counts: [u64; 2],
    /// Human description of the chosen event.
    pub event: String,
    /// `violated` or `inconclusive`.
    pub verdict: Verdict,
}

/// Certified quantity of an event from counts (lower bound on loss, or on γ), rounded down:
/// the Clopper–Pearson ends are outward ([`ci`]), and the quotient, logarithm, `e^ε` and
/// product are moved by two ulps each in the safe direction.
fn certified(k: u64, k2: u64, m: u64, alpha: f64, claim: Claim) -> Result<f64> {
    use crate::float::{next_down, next_up};
    let lo = ci::lower(k, m, alpha / 2.0)?;
    let hi = ci::upper(k2, m, alpha / 2.0)?;
    let down2 = |x: f64| next_down(next_down(x));
    let up2 = |x: f64| next_up(next_up(x));
    Ok(match claim {
        Claim::Pure { .. } => {
            if lo == 0.0 {
                f64::NEG_INFINITY
            } else {
                down2(down2(lo / hi).ln())
            }
        }
        Claim::Approx { eps, .. } => down2(lo - up2(up2(eps.exp()) * hi)),
    })
}

fn bb_verdict(score: f64, claim: Claim) -> Verdict {
    let violated = match claim {
        Claim::Pure { eps } => score > eps,
        Claim::Approx { gamma, .. } => score > gamma,
    };
    if violated {
        Verdict::Violated
    } else {
        Verdict::Inconclusive
    }
}

fn finish(
    k: u64,
    k2: u64,
    m: u64,
    runs: u64,
    alpha: f64,
    claim: Claim,
    event: String,
) -> Result<BlackBox> {
    let score = certified(k, k2, m, alpha, claim)?;
    let eps_lower = certified(k, k2, m, alpha, Claim::Pure { eps: claim.eps() })?.max(0.0);
    let gamma_lower = match claim {
        Claim::Approx { .. } => Some(score),
        Claim::Pure { .. } => None,
    };
    Ok(BlackBox {
        eps_lower,
        gamma_lower,
        runs,
        certify_runs: m,
        counts: [k, k2],
        event,
        verdict: bb_verdict(score, claim),
    })
}

/// DP-Sniper style test for real-valued outputs: `xs` are outputs on `x`, `ys` on `x'`
/// (equal lengths, independent runs). Events `{Y >= c}` and `{Y <= c}` with `c` among the
/// quantiles of the selection half, in both directions (`x` over `x'` and `x'` over `x`).
///
/// # Definition
/// See the module docs; the selection score on the first half is the same certified quantity
/// computed on that half (it penalises rare events).
///
/// # Reference
/// Bichsel et al. (2021), DP-Sniper; Clopper & Pearson (1934).
///
/// # Domain
/// At least 4 runs per input; NaN outputs never belong to an event.
///
/// # Accuracy
/// The certified bound is exact-coverage (Clopper–Pearson) at confidence `1 − α`.
///
/// # Errors
/// [`Error::InvalidParameter`] for mismatched or too short samples or `α ∉ (0, 1)`.
///
/// # Example
/// ```
/// use dpbai::audit::dp::{sniper_real, Claim};
/// // Two point masses: the event {Y >= 1} has probabilities 1 and 0: infinite loss.
/// let xs = vec![1.0; 2000];
/// let ys = vec![0.0; 2000];
/// let r = sniper_real(&xs, &ys, 1e-3, Claim::Pure { eps: 1.0 }).unwrap();
/// assert!(r.eps_lower > 4.0);
/// ```
pub fn sniper_real(xs: &[f64], ys: &[f64], alpha: f64, claim: Claim) -> Result<BlackBox> {
    check_open("alpha", alpha, 0.0, 1.0)?;
    if xs.len() != ys.len() || xs.len() < 4 {
        return Err(Error::param(
            "black-box sample sizes",
            format!("{} and {}", xs.len(), ys.len()),
            "equal and at least 4",
        ));
    }
    let n = xs.len();
    let h = n / 2;
    let (xa, xb) = xs.split_at(h);
    let (ya, yb) = ys.split_at(h);
    let m = (n - h) as u64;
    // Sorted selection halves for fast counting.
    let mut sa: Vec<f64> = xa.iter().copied().filter(|v| !v.is_nan()).collect();
    let mut sb: Vec<f64> = ya.iter().copied().filter(|v| !v.is_nan()).collect();
    sa.sort_by(f64::total_cmp);
    sb.sort_by(f64::total_cmp);
    let ge = |s: &[f64], c: f64| (s.len() - s.partition_point(|v| *v < c)) as u64;
    let le = |s: &[f64], c: f64| s.partition_point(|v| *v <= c) as u64;
    let mut pooled: Vec<f64> = sa.iter().chain(sb.iter()).copied().collect();
    pooled.sort_by(f64::total_cmp);
    let mut cands: Vec<f64> = Vec::new();
    let q = 400usize;
    for i in 0..=q {
        if let Some(&v) = pooled.get(((pooled.len().saturating_sub(1)) * i) / q) {
            cands.push(v);
        }
    }
    cands.dedup();
    let ma = h as u64;
    // (score, threshold, upper tail?, x over x'?)
    let mut best: Option<(f64, f64, bool, bool)> = None;
    for &c in &cands {
        for upper_tail in [true, false] {
            let (kx, ky) = if upper_tail {
                (ge(&sa, c), ge(&sb, c))
            } else {
                (le(&sa, c), le(&sb, c))
            };
            for x_over_y in [true, false] {
                let (k, k2) = if x_over_y { (kx, ky) } else { (ky, kx) };
                let s = certified(k, k2, ma, alpha, claim)?;
                if best.is_none_or(|b| s > b.0) {
                    best = Some((s, c, upper_tail, x_over_y));
                }
            }
        }
    }
    let (_, c, upper_tail, x_over_y) = best.expect("invariant: at least one candidate");
    let inside = |v: f64| if upper_tail { v >= c } else { v <= c };
    let kx = xb.iter().filter(|v| inside(**v)).count() as u64;
    let ky = yb.iter().filter(|v| inside(**v)).count() as u64;
    let (k, k2) = if x_over_y { (kx, ky) } else { (ky, kx) };
    let event = format!(
        "Y {} {c:.6} (ratio {})",
        if upper_tail { ">=" } else { "<=" },
        if x_over_y { "x over x'" } else { "x' over x" }
    );
    finish(k, k2, m, n as u64, alpha, claim, event)
}

/// DP-Sniper style test for discrete outputs (e.g. hashes of whole algorithm outputs): each run
/// yields a vector of `features` (different projections of the output: full hash,
/// recommendation, stopping time...). For every feature, candidate events are the sets of the
/// `j` values with the largest smoothed count ratio on the selection half; the best (feature,
/// set, direction) on the selection half is certified on the held-out half.
///
/// # Definition
/// See the module docs.
///
/// # Reference
/// Bichsel et al. (2021); Definition 8 (outputs of whole algorithms on reward tables).
///
/// # Domain
/// Equal numbers of runs (at least 4), every run with the same number of features.
///
/// # Accuracy
/// Exact-coverage Clopper–Pearson at confidence `1 − α`.
///
/// # Errors
/// [`Error::InvalidParameter`] for mismatched inputs or `α ∉ (0, 1)`.
///
/// # Example
/// ```
/// use dpbai::audit::dp::{sniper_discrete, Claim};
/// let xs: Vec<Vec<u64>> = (0..4000).map(|i| vec![(i % 2) as u64]).collect();
/// let ys: Vec<Vec<u64>> = (0..4000).map(|i| vec![(i % 2) as u64]).collect();
/// let r = sniper_discrete(&xs, &ys, &["bit"], 1e-3, Claim::Pure { eps: 0.1 }).unwrap();
/// assert_eq!(r.verdict, dpbai::audit::Verdict::Inconclusive);
/// ```
pub fn sniper_discrete(
    xs: &[Vec<u64>],
    ys: &[Vec<u64>],
    feature_names: &[&str],
    alpha: f64,
    claim: Claim,
) -> Result<BlackBox> {
    check_open("alpha", alpha, 0.0, 1.0)?;
    let nf = feature_names.len();
    if xs.len() != ys.len() || xs.len() < 4 || xs.iter().chain(ys).any(|v| v.len() != nf) {
        return Err(Error::param(
            "black-box samples",
            format!("{} and {} runs", xs.len(), ys.len()),
            "equal run counts (>= 4), one value per feature",
        ));
    }
    let n = xs.len();
    let h = n / 2;
    let ma = h as u64;
    let m = (n - h) as u64;
    // (score, feature, set, x over x'?)
    let mut best: Option<(f64, usize, Vec<u64>, bool)> = None;
    for f in 0..nf {
        let mut cx: HashMap<u64, u64> = HashMap::new();
        let mut cy: HashMap<u64, u64> = HashMap::new();
        for v in &xs[..h] {
            *cx.entry(v[f]).or_default() += 1;
        }
        for v in &ys[..h] {
            *cy.entry(v[f]).or_default() += 1;
        }
        let mut keys: Vec<u64> = cx.keys().chain(cy.keys()).copied().collect();
        keys.sort_unstable();
        keys.dedup();
        for x_over_y in [true, false] {
            let (num, den) = if x_over_y { (&cx, &cy) } else { (&cy, &cx) };
            let mut ranked: Vec<(f64, u64)> = keys
                .iter()
                .map(|k| {
                    let a = *num.get(k).unwrap_or(&0) as f64;
                    let b = *den.get(k).unwrap_or(&0) as f64;
                    ((a + 0.5) / (b + 0.5), *k)
                })
                .collect();
            ranked.sort_by(|p, q| q.0.total_cmp(&p.0).then(p.1.cmp(&q.1)));
            let (mut k, mut k2) = (0u64, 0u64);
            for (j, &(_, key)) in ranked.iter().enumerate().take(2000) {
                k += *num.get(&key).unwrap_or(&0);
                k2 += *den.get(&key).unwrap_or(&0);
                let s = certified(k, k2, ma, alpha, claim)?;
                if best.as_ref().is_none_or(|b| s > b.0) {
                    let set: Vec<u64> = ranked[..=j].iter().map(|p| p.1).collect();
                    best = Some((s, f, set, x_over_y));
                }
            }
        }
    }
    let (_, f, set, x_over_y) = best.expect("invariant: at least one candidate");
    let set_lookup: std::collections::HashSet<u64> = set.iter().copied().collect();
    let kx = xs[h..]
        .iter()
        .filter(|v| set_lookup.contains(&v[f]))
        .count() as u64;
    let ky = ys[h..]
        .iter()
        .filter(|v| set_lookup.contains(&v[f]))
        .count() as u64;
    let (k, k2) = if x_over_y { (kx, ky) } else { (ky, kx) };
    let event = format!(
        "{} in a set of {} value(s) (ratio {})",
        feature_names[f],
        set.len(),
        if x_over_y { "x over x'" } else { "x' over x" }
    );
    finish(k, k2, m, n as u64, alpha, claim, event)
}

/// Draws `n` values per input in parallel chunks (run `r` of input `i` uses
/// `rng_for_run(seed ^ i, chunk)`), deterministic for any thread count.
pub(super) fn sample_pair<T, F>(n: u64, seed: u64, f: F) -> (Vec<T>, Vec<T>)
where
    T: Send,
    F: Fn(usize, &mut Rng) -> T + Sync,
{
    const CHUNK: u64 = 4096;
    let chunks = n.div_ceil(CHUNK);
    let draw = |input: usize| -> Vec<T> {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let mut rng = rng_for_run(crate::rng::mix64(seed ^ input as u64), c);
                let len = CHUNK.min(n - c * CHUNK);
                (0..len).map(|_| f(input, &mut rng)).collect::<Vec<T>>()
            })
            .flatten()
            .collect()
    };
    (draw(0), draw(1))
}
