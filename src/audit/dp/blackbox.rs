//! Black-box mode of `audit dp` (DP-Sniper style): choose an event on one half of the runs,
//! certify it with Clopper–Pearson bounds on the other half (parent module docs).

use crate::audit::{Verdict, ci};
use crate::error::{Error, Result, check_open};
use crate::rng::{Rng, rng_for_run};
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
    /// The claimed `ε`.
    pub fn eps(&self) -> f64 {
        match *self {
            Claim::Pure { eps } | Claim::Approx { eps, .. } => eps,
        }
    }

    /// The claim audited at `(ε, γ)` for a mechanism of statement `shape`: approximate iff
    /// its statement is (`γ` is ignored for a pure one).
    pub fn of(shape: crate::privacy::PrivacyClaim, eps: f64, gamma: f64) -> Claim {
        if shape.is_approximate() {
            Claim::Approx { eps, gamma }
        } else {
            Claim::Pure { eps }
        }
    }
}

impl std::fmt::Display for Claim {
    /// `1-DP`, `(1, 0.00001)-DP`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Claim::Pure { eps } => write!(f, "{eps}-DP"),
            Claim::Approx { eps, gamma } => write!(f, "({eps}, {gamma})-DP"),
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
    /// `violated` or `no violation found`.
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
        Verdict::NoViolationFound
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

/// A candidate event of [`sniper_real`].
#[derive(Debug, Clone)]
enum RealEvent {
    /// `{Y >= c}`.
    Ge(f64),
    /// `{Y <= c}`.
    Le(f64),
    /// `{a <= Y <= b}`.
    Between(f64, f64),
    /// The union of the histogram bins `(edges[i], edges[i+1]]` (first bin `(−∞, edges[1]]`,
    /// last `(edges[n−1], ∞)`) whose index is in the set: a likelihood-ratio classifier.
    Bins(Vec<f64>, Vec<bool>),
}

impl RealEvent {
    fn contains(&self, v: f64) -> bool {
        if v.is_nan() {
            return false;
        }
        match self {
            RealEvent::Ge(c) => v >= *c,
            RealEvent::Le(c) => v <= *c,
            RealEvent::Between(a, b) => *a <= v && v <= *b,
            RealEvent::Bins(edges, set) => set[bin_of(edges, v)],
        }
    }
    fn describe(&self) -> String {
        match self {
            RealEvent::Ge(c) => format!("Y >= {c:.6}"),
            RealEvent::Le(c) => format!("Y <= {c:.6}"),
            RealEvent::Between(a, b) => format!("{a:.6} <= Y <= {b:.6}"),
            RealEvent::Bins(_, set) => format!(
                "Y in {} of {} histogram bins (likelihood-ratio classifier)",
                set.iter().filter(|x| **x).count(),
                set.len()
            ),
        }
    }
}

/// The bin of `v` among `edges` (module docs of [`RealEvent::Bins`]).
fn bin_of(edges: &[f64], v: f64) -> usize {
    // edges[0] is −∞ in effect: bin i covers (edges[i], edges[i+1]].
    let i = edges.partition_point(|e| *e < v);
    i.saturating_sub(1).min(edges.len().saturating_sub(2))
}

/// DP-Sniper style test for real-valued outputs: `xs` are outputs on `x`, `ys` on `x'`
/// (equal lengths, independent runs). Candidate events, chosen on the selection half in both
/// directions (`x` over `x'` and `x'` over `x`): the thresholds `{Y >= c}`, `{Y <= c}` at 401
/// quantiles of the pooled selection half, the intervals `{a <= Y <= b}` between 41 of them,
/// and a classifier event as in DP-Sniper: the union of the histogram bins (64 quantile bins)
/// whose smoothed count ratio is largest, for every number of bins.
///
/// # Definition
/// See the module docs; the selection score on the first half is the same certified quantity
/// computed on that half (it penalises rare events).
///
/// # Reference
/// Bichsel et al. (2021), DP-Sniper; Clopper & Pearson (1934).
///
/// # Domain
/// At least 4 runs per input, all finite.
///
/// # Accuracy
/// The certified bound is exact-coverage (Clopper–Pearson, ends rounded outward) at confidence
/// `1 − α`.
///
/// # Errors
/// [`Error::InvalidParameter`] for mismatched or too short samples, a NaN or infinite output
/// (naming the first), or `α ∉ (0, 1)`.
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
    for (which, v) in [("x", xs), ("x'", ys)] {
        if let Some((i, y)) = v.iter().enumerate().find(|(_, y)| !y.is_finite()) {
            return Err(Error::param(
                format!("output {} on input {which}", i + 1),
                y,
                "a finite number (the mechanism returned NaN or infinity)",
            ));
        }
    }
    let n = xs.len();
    let h = n / 2;
    let (xa, xb) = xs.split_at(h);
    let (ya, yb) = ys.split_at(h);
    let m = (n - h) as u64;
    // Sorted selection halves for fast counting.
    let mut sa: Vec<f64> = xa.to_vec();
    let mut sb: Vec<f64> = ya.to_vec();
    sa.sort_by(f64::total_cmp);
    sb.sort_by(f64::total_cmp);
    let ge = |s: &[f64], c: f64| (s.len() - s.partition_point(|v| *v < c)) as u64;
    let le = |s: &[f64], c: f64| s.partition_point(|v| *v <= c) as u64;
    let mut pooled: Vec<f64> = sa.iter().chain(sb.iter()).copied().collect();
    pooled.sort_by(f64::total_cmp);
    let quantiles = |q: usize| {
        let mut c: Vec<f64> = (0..=q)
            .filter_map(|i| pooled.get(((pooled.len() - 1) * i) / q).copied())
            .collect();
        c.dedup();
        c
    };
    let cands = quantiles(400);
    let ma = h as u64;
    // (score, event, x over x'?)
    let mut best: Option<(f64, RealEvent, bool)> = None;
    let mut consider = |kx: u64, ky: u64, ev: &dyn Fn() -> RealEvent| -> Result<()> {
        for x_over_y in [true, false] {
            let (k, k2) = if x_over_y { (kx, ky) } else { (ky, kx) };
            let sc = certified(k, k2, ma, alpha, claim)?;
            if best.as_ref().is_none_or(|b| sc > b.0) {
                best = Some((sc, ev(), x_over_y));
            }
        }
        Ok(())
    };
    for &c in &cands {
        consider(ge(&sa, c), ge(&sb, c), &|| RealEvent::Ge(c))?;
        consider(le(&sa, c), le(&sb, c), &|| RealEvent::Le(c))?;
    }
    // Intervals between coarser quantiles.
    let coarse = quantiles(40);
    for (i, &a) in coarse.iter().enumerate() {
        for &b in &coarse[i + 1..] {
            let kx = le(&sa, b) - (sa.partition_point(|v| *v < a) as u64);
            let ky = le(&sb, b) - (sb.partition_point(|v| *v < a) as u64);
            consider(kx, ky, &|| RealEvent::Between(a, b))?;
        }
    }
    // The histogram likelihood-ratio classifier.
    let edges = quantiles(64);
    if edges.len() >= 3 {
        let nb = edges.len() - 1;
        let (mut cx, mut cy) = (vec![0u64; nb], vec![0u64; nb]);
        for &v in &sa {
            cx[bin_of(&edges, v)] += 1;
        }
        for &v in &sb {
            cy[bin_of(&edges, v)] += 1;
        }
        for x_over_y in [true, false] {
            let (num, den) = if x_over_y { (&cx, &cy) } else { (&cy, &cx) };
            let mut order: Vec<usize> = (0..nb).collect();
            let ratio = |i: usize| (num[i] as f64 + 0.5) / (den[i] as f64 + 0.5);
            order.sort_by(|&i, &j| ratio(j).total_cmp(&ratio(i)).then(i.cmp(&j)));
            let (mut k, mut k2) = (0u64, 0u64);
            let mut set = vec![false; nb];
            for &i in &order {
                k += num[i];
                k2 += den[i];
                set[i] = true;
                let sc = certified(k, k2, ma, alpha, claim)?;
                if best.as_ref().is_none_or(|b| sc > b.0) {
                    best = Some((sc, RealEvent::Bins(edges.clone(), set.clone()), x_over_y));
                }
            }
        }
    }
    let Some((_, ev, x_over_y)) = best else {
        return Err(Error::param(
            "black-box samples",
            "no candidate event",
            "outputs with at least one value",
        ));
    };
    let kx = xb.iter().filter(|v| ev.contains(**v)).count() as u64;
    let ky = yb.iter().filter(|v| ev.contains(**v)).count() as u64;
    let (k, k2) = if x_over_y { (kx, ky) } else { (ky, kx) };
    let event = format!(
        "{} (ratio {})",
        ev.describe(),
        if x_over_y { "x over x'" } else { "x' over x" }
    );
    finish(k, k2, m, n as u64, alpha, claim, event)
}

/// The result of [`sniper_search`]: the certified test of the chosen pair, which pair, and
/// the screening score of every pair.
#[derive(Debug, Clone, Serialize)]
pub struct PairSearch {
    /// The certified test on fresh runs of the chosen pair.
    pub result: BlackBox,
    /// Index of the chosen pair.
    pub pair: usize,
    /// Screening scores (certified on the screening runs' own held-out halves), one per pair.
    pub screen_scores: Vec<f64>,
}

/// Neighbour search for a black-box mechanism: screens every candidate pair of neighbouring
/// inputs with `screen_runs` runs each ([`sniper_real`] on them), picks the pair with the
/// largest screening score, and certifies it with [`sniper_real`] on `runs` **fresh** runs per
/// input at confidence `1 − α`. `sample(i, side, n, stage)` draws `n` outputs of the mechanism
/// on side `side` (0: `x`, 1: `x'`) of pair `i`, independently for each call.
///
/// # Definition
/// The screening data only choose the pair; the certification data are independent of that
/// choice, so the certified bound keeps its `1 − α` guarantee without a multiple-testing
/// correction over the pairs.
///
/// # Errors
/// [`Error::InvalidParameter`] for no pair, runs below 8, `α ∉ (0, 1)`, and the errors of
/// `sample` and [`sniper_real`].
pub fn sniper_search(
    pairs: usize,
    screen_runs: u64,
    runs: u64,
    alpha: f64,
    claim: Claim,
    mut sample: impl FnMut(usize, usize, u64, usize) -> Result<Vec<f64>>,
) -> Result<PairSearch> {
    check_open("alpha", alpha, 0.0, 1.0)?;
    if pairs == 0 {
        return Err(Error::param("neighbour pairs", 0, "at least 1"));
    }
    if screen_runs < 8 || runs < 8 {
        return Err(Error::param(
            "runs",
            format!("screen {screen_runs}, certify {runs}"),
            "at least 8 each",
        ));
    }
    let mut scores = Vec::with_capacity(pairs);
    for i in 0..pairs {
        let xs = sample(i, 0, screen_runs, 0)?;
        let ys = sample(i, 1, screen_runs, 0)?;
        let bb = sniper_real(&xs, &ys, alpha, claim)?;
        scores.push(match claim {
            Claim::Pure { .. } => bb.eps_lower,
            Claim::Approx { .. } => bb.gamma_lower.unwrap_or(f64::NEG_INFINITY),
        });
    }
    let pair = (0..pairs)
        .max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a)))
        .expect("invariant: at least one pair");
    let xs = sample(pair, 0, runs, 1)?;
    let ys = sample(pair, 1, runs, 1)?;
    let mut result = sniper_real(&xs, &ys, alpha, claim)?;
    result.event = format!("{} on pair {}", result.event, pair + 1);
    Ok(PairSearch {
        result,
        pair,
        screen_scores: scores,
    })
}

/// Candidate neighbouring pairs of a box input space `[lo_j, hi_j]` (one coordinate per
/// entry) where neighbours differ in one coordinate: the extremes (each coordinate at `lo` vs
/// `hi` with the others at `lo`, the midpoint or `hi`), `random` seeded pairs (a uniform point,
/// one uniform coordinate replaced by a uniform value), and the user's own pairs first.
///
/// # Example
/// ```
/// let p = dpbai::audit::dp::candidate_pairs(&[0.0], &[1.0], 4, 1, &[]);
/// assert_eq!(p[0], (vec![0.0], vec![1.0]));
/// assert_eq!(p.len(), 1 + 4); // one extreme pair in one dimension, four random
/// ```
pub fn candidate_pairs(
    lo: &[f64],
    hi: &[f64],
    random: usize,
    seed: u64,
    user: &[(Vec<f64>, Vec<f64>)],
) -> Vec<(Vec<f64>, Vec<f64>)> {
    use rand::RngExt;
    let d = lo.len().min(hi.len());
    let mut out: Vec<(Vec<f64>, Vec<f64>)> = user.to_vec();
    for j in 0..d {
        for base in 0..3 {
            let b: Vec<f64> = (0..d)
                .map(|i| match base {
                    0 => lo[i],
                    1 => 0.5 * (lo[i] + hi[i]),
                    _ => hi[i],
                })
                .collect();
            let (mut x, mut y) = (b.clone(), b);
            x[j] = lo[j];
            y[j] = hi[j];
            if !out.contains(&(x.clone(), y.clone())) {
                out.push((x, y));
            }
        }
    }
    let mut rng = rng_for_run(seed, 0x9A1E);
    for _ in 0..random {
        let x: Vec<f64> = (0..d)
            .map(|i| lo[i] + (hi[i] - lo[i]) * rng.random::<f64>())
            .collect();
        let mut y = x.clone();
        if d > 0 {
            let j = ((rng.random::<f64>() * d as f64) as usize).min(d - 1);
            y[j] = lo[j] + (hi[j] - lo[j]) * rng.random::<f64>();
        }
        out.push((x, y));
    }
    out
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
/// assert_eq!(r.verdict, dpbai::audit::Verdict::NoViolationFound);
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
