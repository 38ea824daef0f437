//! `dpbai audit dp`: exact privacy loss where the output law is computable, and a DP-Sniper
//! style black-box lower bound otherwise (MATH.md E.1).
//!
//! # Exact mode
//! * Randomised response with keep probability `q` (L. 12): `P(z = 1 | r) = r q + (1 − r)(1 − q)`
//!   is affine in `r ∈ [0, 1]`, so the largest ratio over `r, r', z` is attained at `r, r' ∈ {0, 1}`:
//!   loss `= |log(q/(1 − q))|` ([`rr_loss`]).
//! * Laplace `f(D) + Lap(b)` with sensitivity `s` (Thm. 3): the log density ratio of
//!   `Lap(m, b)` and `Lap(m', b)` is `(|x − m'| − |x − m|)/b <= |m − m'|/b`, attained for `x`
//!   beyond both means: loss `= s/b` ([`laplace_vector_loss`] with one coordinate).
//! * Independent Laplace outputs with mean shifts `s_j` and common scales `b_j` on the two
//!   inputs: the log ratio is a sum of independent terms each at most `|s_j|/b_j`, all attained
//!   together in the corner `x_j → ±∞`: loss `= Σ_j |s_j|/b_j`; if some `b_j` differ between the
//!   inputs, the ratio is unbounded (loss `+∞`). For DAF ([`daf_exact_loss`]) the release plan of
//!   the implementation is evaluated on neighbouring sequences (one entry `0 ↔ 1`, the others
//!   fixed; the means are linear in the rewards, so the shifts do not depend on the others), and
//!   the loss is maximised over the position of the changed entry.
//! * Gaussian mechanism with noise `σ` and sensitivity `Δ` (Rem. 13): it is not pure-DP; its
//!   exact privacy profile is (Balle & Wang 2018, Thm. 8)
//!   `γ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ)` ([`gaussian_gamma`]); the claim
//!   `(ε, γ)` holds iff `γ(ε) <= γ`.
//!
//! A floating-point slack of [`EXACT_REL_SLACK`] (relative) separates `holds` from `violated` in
//! exact mode, so that a faithful implementation rounded in the safe direction is not flagged
//! for an ulp; no planted bug is within that slack.
//!
//! # Black-box mode (DP-Sniper style)
//! `n` runs on each of two neighbouring inputs `x, x'`. The first half of each sample is used
//! only to choose an event `E` (a threshold set `{Y >= c}` / `{Y <= c}` for real outputs, a set
//! of output values for discrete ones) and a direction; the second half, independent of that
//! choice, certifies it: with `k, k'` the counts of `E` among the `m` held-out runs,
//! `eps_lower = log(cp_lower(k, m, α/2) / cp_upper(k', m, α/2))`. Since
//! `P(cp_lower > P(E|x)) <= α/2` and `P(cp_upper < P(E|x')) <= α/2`, with probability at least
//! `1 − α`, `eps_lower <= log(P(E|x)/P(E|x')) <= ε_true`: an ε-DP mechanism is reported
//! `violated` (`eps_lower > ε`) with probability at most `α`. For `(ε, γ)` claims the certified
//! quantity is `gamma_lower = cp_lower(k, m, α/2) − e^ε cp_upper(k', m, α/2)`, and
//! `violated` means `gamma_lower > γ`. Black-box mode never reports `holds` (it cannot prove
//! privacy): no violation found is `inconclusive`.
//!
//! # Whole algorithms (Definition 8)
//! `ctb-tt`, `adap-tt`, `adap-tt-star` run on two fixed neighbouring reward tables (`K = 2`,
//! 400 rows drawn once from `Ber(0.7) × Ber(0.3)`, the neighbour flips row 1). Each run's output
//! `(a_1..a_τ, â, stopped)` is reduced to four discrete features (hash of the whole output,
//! recommendation, `τ`, hash of the first 16 actions); [`sniper_discrete`] picks a feature and a
//! set of its values on the selection half and certifies it on the held-out half.
//!
//! # Mutants
//! [`MUTANTS`]: four mechanism bugs (caught instantly in exact mode, and by the black box) and
//! two whole-algorithm bugs (AdaP-TT and CTB-TT run at `4ε` while claiming `ε`; black box only).

use crate::audit::{ci, Verdict};
use crate::bandit::{self, AlgoName, AlgoSpec, RewardTable};
use crate::error::{check_above, check_open, Error, Result};
use crate::privacy::{self, GaussianMechanism, Laplace, RandomisedResponse};
use crate::rng::{rng_for_run, Rng};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

/// Relative slack of the exact-mode comparison `loss <= ε·(1 + EXACT_REL_SLACK)`.
pub const EXACT_REL_SLACK: f64 = 1e-9;

/// Exact privacy loss of randomised response with keep probability `q`.
///
/// # Definition
/// `max_{r, r' ∈ [0,1], z ∈ {0,1}} log(P(z|r)/P(z|r')) = |log(q/(1 − q))|` (`+∞` at `q ∈ {0, 1}`).
///
/// # Reference
/// L. 12; MATH.md A.5, E.1.
///
/// # Domain
/// `q ∈ [0, 1]`.
///
/// # Accuracy
/// A few ulps (one `ln` of a ratio of exact quantities).
///
/// # Errors
/// [`Error::InvalidParameter`] for `q ∉ [0, 1]`.
///
/// # Example
/// ```
/// let e = 1f64.exp();
/// assert!((dpbai::audit::dp::rr_loss(e / (1.0 + e)).unwrap() - 1.0).abs() < 1e-15);
/// ```
pub fn rr_loss(q: f64) -> Result<f64> {
    crate::error::check_closed("keep probability", q, 0.0, 1.0)?;
    // log q − log(1 − q) in log space (1 − q is exact for q >= 1/2).
    Ok((q.ln() - (1.0 - q).ln()).abs())
}

/// Exact privacy loss of independent Laplace outputs `Lap(m_j, b_j)` vs `Lap(m'_j, b'_j)`.
///
/// # Definition
/// `Σ_j |m_j − m'_j| / b_j` when `b_j = b'_j` for all `j`; `+∞` if some scale differs (the log
/// density ratio then grows linearly in `|x_j|`).
///
/// # Reference
/// Thm. 3, L. 31 (MATH.md E.1).
///
/// # Domain
/// Equal lengths, finite means, positive scales.
///
/// # Accuracy
/// Sum of `len` correctly rounded quotients.
///
/// # Errors
/// [`Error::InvalidParameter`] for different lengths or non-positive scales.
///
/// # Example
/// ```
/// use dpbai::audit::dp::laplace_vector_loss;
/// let l = laplace_vector_loss(&[(0.0, 2.0), (1.0, 1.0)], &[(1.0, 2.0), (1.5, 1.0)]).unwrap();
/// assert_eq!(l, 1.0);
/// ```
pub fn laplace_vector_loss(x: &[(f64, f64)], y: &[(f64, f64)]) -> Result<f64> {
    if x.len() != y.len() {
        return Err(Error::param(
            "release length",
            format!("{} vs {}", x.len(), y.len()),
            "equal on neighbouring inputs",
        ));
    }
    let mut loss = 0.0;
    for (&(m, b), &(m2, b2)) in x.iter().zip(y) {
        check_above("Laplace scale", b, 0.0)?;
        check_above("Laplace scale", b2, 0.0)?;
        if b != b2 {
            return Ok(f64::INFINITY);
        }
        loss += (m - m2).abs() / b;
    }
    Ok(loss)
}

/// Worst-case exact privacy loss of a release plan over neighbouring reward sequences of
/// length `len` (one entry changed between 0 and 1, the others at `1/2`).
///
/// # Definition
/// `max_{i ∈ [len]} laplace_vector_loss(plan(r^{(i,1)}), plan(r^{(i,0)}))`, where `r^{(i,v)}`
/// has entry `i` equal to `v` and the others `1/2`. Returns the loss and the worst position
/// (1-based). Exact for plans whose means are affine in each reward with data-independent
/// scales (DAF with or without forgetting), where the shifts do not depend on the other entries.
///
/// # Reference
/// L. 31 (ε-DP of the fixed-partition block means), MATH.md D.6, E.1.
///
/// # Domain
/// `len >= 1`.
///
/// # Accuracy
/// As [`laplace_vector_loss`].
///
/// # Errors
/// Propagates the errors of `plan`; [`Error::InvalidParameter`] for `len = 0`.
///
/// # Example
/// ```
/// // Two disjoint blocks of size 2 with scale 1/(ε·2), ε = 0.5: loss ε.
/// let plan = |r: &[f64]| Ok(vec![((r[0] + r[1]) / 2.0, 1.0), ((r[2] + r[3]) / 2.0, 1.0)]);
/// let (loss, _) = dpbai::audit::dp::daf_exact_loss(plan, 4).unwrap();
/// assert_eq!(loss, 0.5);
/// ```
pub fn daf_exact_loss<F>(plan: F, len: usize) -> Result<(f64, usize)>
where
    F: Fn(&[f64]) -> Result<Vec<(f64, f64)>>,
{
    if len == 0 {
        return Err(Error::param("sequence length", 0, "at least 1"));
    }
    let mut worst = (f64::NEG_INFINITY, 1);
    let mut r = vec![0.5; len];
    for i in 0..len {
        r[i] = 1.0;
        let p1 = plan(&r)?;
        r[i] = 0.0;
        let p0 = plan(&r)?;
        r[i] = 0.5;
        let l = laplace_vector_loss(&p1, &p0)?;
        if l > worst.0 {
            worst = (l, i + 1);
        }
    }
    Ok(worst)
}

/// Standard normal CDF `Φ(x) = erfc(−x/√2)/2` (accurate in both tails).
fn phi(x: f64) -> f64 {
    0.5 * crate::special::erfc(-x / std::f64::consts::SQRT_2)
}

/// Exact privacy profile `γ(ε)` of the Gaussian mechanism `x + N(0, σ²)` with L2 sensitivity `Δ`.
///
/// # Definition
/// `γ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ)` (clamped at 0), the smallest `γ` for
/// which the mechanism is `(ε, γ)`-DP.
///
/// # Reference
/// Balle & Wang (2018), "Improving the Gaussian mechanism for differential privacy", Thm. 8;
/// Rem. 13 / Alg. 8 (MATH.md C.8, D.5).
///
/// # Domain
/// `ε >= 0`, `σ > 0`, `Δ > 0`, all finite.
///
/// # Accuracy
/// Absolute error about `1e-16·(1 + e^ε)·Φ(·)` from the cancellation of the two terms
/// (golden-tested against mpmath in `tests/data/audit_gaussian.toml`, 1e-12 relative where
/// `γ > 1e-9`).
///
/// # Errors
/// [`Error::InvalidParameter`] outside the domain.
///
/// # Example
/// ```
/// // ε = 0: γ(0) = TV(N(0,σ²), N(Δ,σ²)) = 2Φ(Δ/(2σ)) − 1.
/// let g = dpbai::audit::dp::gaussian_gamma(0.0, 1.0, 1.0).unwrap();
/// assert!((g - 0.3829249225480262).abs() < 1e-14);
/// ```
pub fn gaussian_gamma(eps: f64, sigma: f64, sensitivity: f64) -> Result<f64> {
    crate::error::check_at_least("eps", eps, 0.0)?;
    check_above("sigma", sigma, 0.0)?;
    check_above("sensitivity", sensitivity, 0.0)?;
    let a = sensitivity / (2.0 * sigma);
    let b = eps * sigma / sensitivity;
    let p2 = phi(-a - b);
    if eps < 700.0 && p2.is_normal() {
        let g = phi(a - b) - eps.exp() * p2;
        return Ok(g.max(0.0));
    }
    // In log space: e^ε overflows beyond 709.78, and Φ(−a−b) underflows while e^ε·Φ(−a−b)
    // need not. γ = Φ(a−b)·(1 − exp(l2 − l1)), l1 = log Φ(a−b), l2 = ε + log Φ(−a−b).
    let l1 = ln_phi(a - b);
    let l2 = eps + ln_phi(-a - b);
    if l2.is_nan() || l1.is_nan() || l2 >= l1 {
        return Ok(0.0);
    }
    Ok((l1.exp() * -(l2 - l1).exp_m1()).max(0.0))
}

/// `log Φ(x)` without underflow.
fn ln_phi(x: f64) -> f64 {
    crate::special::ln_erfc(-x / std::f64::consts::SQRT_2) - std::f64::consts::LN_2
}

/// The smallest `ε` at which the Gaussian mechanism is `(ε, γ)`-DP (its exact loss at level `γ`).
///
/// # Definition
/// The root of `γ(ε) = γ` ([`gaussian_gamma`] is decreasing in `ε`), by bisection to relative
/// `1e-13`; `0` if `γ(0) <= γ`.
///
/// # Reference
/// Balle & Wang (2018), Thm. 8.
///
/// # Domain
/// `γ ∈ (0, 1)`, `σ, Δ > 0`.
///
/// # Accuracy
/// `1e-12` relative (bisection), on top of that of [`gaussian_gamma`].
///
/// # Errors
/// [`Error::InvalidParameter`] outside the domain.
///
/// # Example
/// ```
/// use dpbai::audit::dp::{gaussian_eps, gaussian_gamma};
/// let e = gaussian_eps(1e-5, 5.0, 1.0).unwrap();
/// assert!((gaussian_gamma(e, 5.0, 1.0).unwrap() / 1e-5 - 1.0).abs() < 1e-6);
/// ```
pub fn gaussian_eps(gamma: f64, sigma: f64, sensitivity: f64) -> Result<f64> {
    check_open("gamma", gamma, 0.0, 1.0)?;
    if gaussian_gamma(0.0, sigma, sensitivity)? <= gamma {
        return Ok(0.0);
    }
    let mut lo = 0.0;
    let mut hi = 1.0;
    while gaussian_gamma(hi, sigma, sensitivity)? > gamma {
        hi *= 2.0;
        if hi > 1e300 {
            return Ok(f64::INFINITY);
        }
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if gaussian_gamma(mid, sigma, sensitivity)? > gamma {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-13 * hi {
            break;
        }
    }
    Ok(hi)
}

/// Exact-mode verdict for a pure-ε claim.
///
/// # Example
/// ```
/// use dpbai::audit::{dp::exact_verdict, Verdict};
/// assert_eq!(exact_verdict(1.0, 1.0), Verdict::Holds);
/// assert_eq!(exact_verdict(1.01, 1.0), Verdict::Violated);
/// ```
pub fn exact_verdict(loss: f64, eps_claimed: f64) -> Verdict {
    if loss <= eps_claimed * (1.0 + EXACT_REL_SLACK) {
        Verdict::Holds
    } else {
        Verdict::Violated
    }
}

// ------------------------------------------------------------------------------------------
// Black box

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

/// Certified quantity of an event from counts (lower bound on loss, or on γ).
fn certified(k: u64, k2: u64, m: u64, alpha: f64, claim: Claim) -> Result<f64> {
    let lo = ci::lower(k, m, alpha / 2.0)?;
    let hi = ci::upper(k2, m, alpha / 2.0)?;
    Ok(match claim {
        Claim::Pure { .. } => (lo / hi).ln(),
        Claim::Approx { eps, .. } => lo - eps.exp() * hi,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laplace_vector_loss_edges() {
        assert_eq!(
            laplace_vector_loss(&[(0.0, 1.0)], &[(0.0, 2.0)]).expect("valid"),
            f64::INFINITY
        );
        assert!(laplace_vector_loss(&[(0.0, 1.0)], &[]).is_err());
        assert!(laplace_vector_loss(&[(0.0, 0.0)], &[(0.0, 0.0)]).is_err());
    }

    #[test]
    fn rr_loss_is_symmetric_in_q() {
        let a = rr_loss(0.8).expect("valid");
        let b = rr_loss(0.2).expect("valid");
        assert!((a - b).abs() < 1e-15);
        assert_eq!(rr_loss(1.0).expect("valid"), f64::INFINITY);
        assert!(rr_loss(1.5).is_err());
    }

    #[test]
    fn gaussian_gamma_is_decreasing_and_matches_eps0_closed_form() {
        let mut prev = 1.0;
        for i in 0..50 {
            let g = gaussian_gamma(i as f64 * 0.1, 2.0, 1.0).expect("valid");
            assert!(g <= prev);
            prev = g;
        }
        // γ(0) = 2Φ(Δ/(2σ)) − 1 = erf(Δ/(2√2σ)).
        let g0 = gaussian_gamma(0.0, 2.0, 1.0).expect("valid");
        let want = crate::special::erf(1.0 / (4.0 * std::f64::consts::SQRT_2));
        assert!((g0 - want).abs() < 1e-15);
    }
}

// ------------------------------------------------------------------------------------------
// Targets: mechanisms, whole algorithms and planted bugs

/// Default claimed `γ` of the Gaussian mechanism.
pub const DEFAULT_GAMMA: f64 = 1e-5;
/// Length of the reward sequence of the DAF audits (`2^5`: phases 1..=6 complete).
pub const DAF_SEQUENCE_LEN: usize = 32;

/// The mechanisms `audit dp --mechanism` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MechanismName {
    /// Randomised response on `[0, 1]` (Alg. 4, L. 12).
    Rr,
    /// Laplace mechanism with sensitivity 1 (Thm. 3).
    Laplace,
    /// Gaussian mechanism, `(ε, γ)` (Rem. 13).
    Gaussian,
    /// DAF's vector of released phase means on a fixed schedule (Alg. 5, L. 31).
    Daf,
}

impl MechanismName {
    /// Command-line names.
    pub const ALL_NAMES: [&'static str; 4] = ["rr", "laplace", "gaussian", "daf"];
    /// Parses a command-line name.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "rr" | "randomised-response" => MechanismName::Rr,
            "laplace" => MechanismName::Laplace,
            "gaussian" => MechanismName::Gaussian,
            "daf" => MechanismName::Daf,
            _ => return None,
        })
    }
    fn as_str(&self) -> &'static str {
        match self {
            MechanismName::Rr => "rr",
            MechanismName::Laplace => "laplace",
            MechanismName::Gaussian => "gaussian",
            MechanismName::Daf => "daf",
        }
    }
}

/// A planted bug.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mutant {
    /// Name for `--mutant`.
    pub name: &'static str,
    /// What is wrong.
    pub description: &'static str,
    /// What it corrupts.
    pub base: MutantBase,
}

/// What a mutant corrupts: a mechanism, or a whole algorithm (black-box only).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MutantBase {
    /// A mechanism (exact and black-box modes).
    Mechanism(MechanismName),
    /// A whole algorithm run with `factor·ε` while claiming `ε` (black-box on reward tables).
    Algo {
        /// The algorithm.
        algo: AlgoName,
        /// Factor applied to the privacy budget actually used.
        factor: f64,
    },
}

/// Every built-in mutant.
pub const MUTANTS: [Mutant; 6] = [
    Mutant {
        name: "laplace-half-scale",
        description: "Laplace mechanism with noise scale 1/(2 eps) instead of 1/eps (true loss 2 eps)",
        base: MutantBase::Mechanism(MechanismName::Laplace),
    },
    Mutant {
        name: "daf-no-forgetting",
        description: "DAF releasing each phase mean over all past samples (no forgetting), scales unchanged",
        base: MutantBase::Mechanism(MechanismName::Daf),
    },
    Mutant {
        name: "rr-wrong-keep",
        description: "randomised response keeping the bit w.p. e^(2 eps)/(e^(2 eps)+1) instead of e^eps/(e^eps+1)",
        base: MutantBase::Mechanism(MechanismName::Rr),
    },
    Mutant {
        name: "gaussian-small-sigma",
        description: "Gaussian mechanism with sigma_{eps,gamma}/2 instead of sqrt(2 log(1.25/gamma))/eps",
        base: MutantBase::Mechanism(MechanismName::Gaussian),
    },
    Mutant {
        name: "adap-tt-eps-x4",
        description: "AdaP-TT whose DAF noise is calibrated for 4 eps while claiming eps (black-box on reward tables)",
        base: MutantBase::Algo {
            algo: AlgoName::AdapTt,
            factor: 4.0,
        },
    },
    Mutant {
        name: "ctb-tt-eps-x4",
        description: "CTB-TT whose randomised response uses 4 eps while claiming eps (black-box on reward tables)",
        base: MutantBase::Algo {
            algo: AlgoName::CtbTt,
            factor: 4.0,
        },
    },
];

/// Looks a mutant up by name.
///
/// # Example
/// ```
/// assert!(dpbai::audit::dp::mutant("laplace-half-scale").is_some());
/// assert!(dpbai::audit::dp::mutant("nope").is_none());
/// ```
pub fn mutant(name: &str) -> Option<Mutant> {
    MUTANTS.iter().copied().find(|m| m.name == name)
}

/// What `audit dp` examines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// A faithful mechanism.
    Mechanism(MechanismName),
    /// A whole algorithm on neighbouring reward tables (Definition 8).
    Algo(AlgoName),
    /// A planted bug.
    Mutant(Mutant),
}

/// Exact or black-box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Exact where the output law is computable, else black-box.
    Auto,
    /// Exact only (an error for whole algorithms).
    Exact,
    /// Black-box (DP-Sniper).
    BlackBox,
}

/// Options of `audit dp`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DpOptions {
    /// Claimed `ε`.
    pub eps: f64,
    /// Claimed `γ` (Gaussian mechanism only).
    pub gamma: f64,
    /// Mode.
    pub mode: Mode,
    /// Runs per neighbouring input (black-box); `None` for the target's default.
    pub runs: Option<u64>,
    /// Confidence parameter.
    pub alpha: f64,
    /// Master seed.
    pub seed: u64,
}

/// Report of `audit dp`.
#[derive(Debug, Clone, Serialize)]
pub struct DpReport {
    /// What was audited (`mechanism rr`, `algo adap-tt`, `mutant laplace-half-scale`).
    pub target: String,
    /// `exact` or `blackbox`.
    pub mode: String,
    /// Verdict against the claim.
    pub verdict: Verdict,
    /// The claim in words.
    pub claim: String,
    /// Claimed `ε`.
    pub eps_claimed: f64,
    /// Claimed `γ` (Gaussian only).
    pub gamma_claimed: Option<f64>,
    /// Exact worst-case privacy loss (exact mode, pure-DP targets; for the Gaussian mechanism:
    /// the smallest `ε` with `γ(ε) <= γ_claimed`).
    pub loss_exact: Option<f64>,
    /// Exact `γ(ε_claimed)` (Gaussian mechanism, exact mode).
    pub gamma_exact: Option<f64>,
    /// Lower bound on the privacy loss: the exact loss in exact mode, the certified bound in
    /// black-box mode.
    pub eps_lower: f64,
    /// Certified lower bound on `γ` at the claimed `ε` (black-box, Gaussian).
    pub gamma_lower: Option<f64>,
    /// Runs per input (black-box; 0 in exact mode).
    pub runs: u64,
    /// Held-out runs per input (black-box).
    pub certify_runs: u64,
    /// Held-out event counts on the two inputs (black-box).
    pub counts: Option<[u64; 2]>,
    /// The certified event (black-box).
    pub event: String,
    /// `1 − α`.
    pub confidence: f64,
    /// Master seed.
    pub seed: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Remarks (e.g. the neighbouring inputs used).
    pub note: String,
}

/// The mechanism a target stands for (faithful or mutated) at claimed `ε`, `γ`.
#[derive(Debug, Clone, Copy)]
enum Mech {
    Rr(RandomisedResponse),
    Laplace(Laplace),
    Gaussian(GaussianMechanism),
    Daf { eps: f64, forgetting: bool },
}

fn mechanism_for(target: &Target, eps: f64, gamma: f64) -> Result<Option<Mech>> {
    let (base, mutated) = match target {
        Target::Mechanism(m) => (*m, false),
        Target::Mutant(Mutant {
            base: MutantBase::Mechanism(b),
            ..
        }) => (*b, true),
        Target::Mutant(_) => return Ok(None),
        Target::Algo(_) => return Ok(None),
    };
    Ok(Some(match (base, mutated) {
        (MechanismName::Rr, false) => Mech::Rr(RandomisedResponse::new(eps)?),
        (MechanismName::Rr, true) => Mech::Rr(RandomisedResponse::with_keep_probability(
            RandomisedResponse::new(2.0 * eps)?.keep_probability(),
        )?),
        (MechanismName::Laplace, false) => Mech::Laplace(Laplace::new(1.0, eps)?),
        (MechanismName::Laplace, true) => {
            Mech::Laplace(Laplace::with_scale(Laplace::new(1.0, eps)?.scale() / 2.0)?)
        }
        (MechanismName::Gaussian, false) => Mech::Gaussian(GaussianMechanism::new(eps, gamma)?),
        (MechanismName::Gaussian, true) => Mech::Gaussian(GaussianMechanism::with_sigma(
            GaussianMechanism::new(eps, gamma)?.sigma() / 2.0,
        )?),
        (MechanismName::Daf, m) => {
            check_above("eps", eps, 0.0)?;
            Mech::Daf {
                eps,
                forgetting: !m,
            }
        }
    }))
}

fn target_name(t: &Target) -> String {
    match t {
        Target::Mechanism(m) => format!("mechanism {}", m.as_str()),
        Target::Algo(a) => format!("algo {}", a.as_str()),
        Target::Mutant(m) => format!("mutant {}", m.name),
    }
}

/// Draws `n` values per input in parallel chunks (run `r` of input `i` uses
/// `rng_for_run(seed ^ i, chunk)`), deterministic for any thread count.
fn sample_pair<T, F>(n: u64, seed: u64, f: F) -> (Vec<T>, Vec<T>)
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

fn default_runs(target: &Target) -> u64 {
    match target {
        Target::Algo(_) => 20_000,
        Target::Mutant(Mutant {
            base: MutantBase::Algo { .. },
            ..
        }) => 40_000,
        Target::Mechanism(MechanismName::Gaussian)
        | Target::Mutant(Mutant {
            base: MutantBase::Mechanism(MechanismName::Gaussian),
            ..
        }) => 4_000_000,
        _ => 1_000_000,
    }
}

/// Audits the privacy of `target` (module docs).
///
/// # Definition
/// Exact mode: the worst-case privacy loss of the mechanism as implemented (its parameters are
/// read from the `dpbai::privacy` objects); black-box mode: the DP-Sniper lower bound.
///
/// # Reference
/// L. 12, Thm. 3, L. 31, Rem. 13, Definition 8 (MATH.md E.1).
///
/// # Example
/// ```
/// use dpbai::audit::dp::{audit_dp, mutant, DpOptions, Mode, Target};
/// use dpbai::audit::Verdict;
/// let o = DpOptions { eps: 1.0, gamma: 1e-5, mode: Mode::Auto, runs: None, alpha: 1e-3, seed: 1 };
/// let r = audit_dp(&Target::Mutant(mutant("laplace-half-scale").unwrap()), &o).unwrap();
/// assert_eq!(r.verdict, Verdict::Violated);
/// assert!((r.eps_lower - 2.0).abs() < 1e-12);
/// ```
///
/// # Errors
/// [`Error::InvalidParameter`] for invalid `ε`, `γ`, `α`, run counts, exact mode on a whole
/// algorithm, or an algorithm that cannot run on reward tables.
pub fn audit_dp(target: &Target, o: &DpOptions) -> Result<DpReport> {
    check_above("eps", o.eps, 0.0)?;
    check_open("gamma", o.gamma, 0.0, 1.0)?;
    check_open("alpha", o.alpha, 0.0, 1.0)?;
    if o.runs == Some(0) {
        return Err(Error::param("runs", 0, "at least 1"));
    }
    let start = std::time::Instant::now();
    let mech = mechanism_for(target, o.eps, o.gamma)?;
    let exact =
        match (o.mode, mech) {
            (Mode::Exact, None) => return Err(Error::param(
                "mode",
                "exact",
                "blackbox or auto for whole algorithms (their output law is not computed exactly)",
            )),
            (Mode::BlackBox, _) | (_, None) => false,
            _ => true,
        };
    let is_gauss = matches!(mech, Some(Mech::Gaussian(_)));
    let claim = if is_gauss {
        Claim::Approx {
            eps: o.eps,
            gamma: o.gamma,
        }
    } else {
        Claim::Pure { eps: o.eps }
    };
    let mut rep = DpReport {
        target: target_name(target),
        mode: if exact { "exact" } else { "blackbox" }.into(),
        verdict: Verdict::Inconclusive,
        claim: match claim {
            Claim::Pure { eps } => format!("{eps}-DP"),
            Claim::Approx { eps, gamma } => format!("({eps}, {gamma})-DP"),
        },
        eps_claimed: o.eps,
        gamma_claimed: is_gauss.then_some(o.gamma),
        loss_exact: None,
        gamma_exact: None,
        eps_lower: 0.0,
        gamma_lower: None,
        runs: 0,
        certify_runs: 0,
        counts: None,
        event: String::new(),
        confidence: 1.0 - o.alpha,
        seed: o.seed,
        seconds: 0.0,
        note: String::new(),
    };
    if exact {
        let m = mech.expect("invariant: exact mode has a mechanism");
        match m {
            Mech::Rr(rr) => {
                let l = rr_loss(rr.keep_probability())?;
                rep.loss_exact = Some(l);
                rep.eps_lower = l;
                rep.verdict = exact_verdict(l, o.eps);
                rep.note = format!("keep probability {}", rr.keep_probability());
            }
            Mech::Laplace(lap) => {
                let l = laplace_vector_loss(&[(1.0, lap.scale())], &[(0.0, lap.scale())])?;
                rep.loss_exact = Some(l);
                rep.eps_lower = l;
                rep.verdict = exact_verdict(l, o.eps);
                rep.note = format!("sensitivity 1, scale {}", lap.scale());
            }
            Mech::Gaussian(g) => {
                let ge = gaussian_gamma(o.eps, g.sigma(), 1.0)?;
                let le = gaussian_eps(o.gamma, g.sigma(), 1.0)?;
                rep.gamma_exact = Some(ge);
                rep.loss_exact = Some(le);
                rep.eps_lower = le;
                rep.verdict = if ge <= o.gamma * (1.0 + EXACT_REL_SLACK) {
                    Verdict::Holds
                } else {
                    Verdict::Violated
                };
                rep.note = format!(
                    "sensitivity 1, sigma {}; loss_exact is the smallest eps with gamma(eps) <= {}",
                    g.sigma(),
                    o.gamma
                );
            }
            Mech::Daf { eps, forgetting } => {
                let plan = |r: &[f64]| privacy::daf_release_plan(r, eps, forgetting);
                let (l, pos) = daf_exact_loss(plan, DAF_SEQUENCE_LEN)?;
                rep.loss_exact = Some(l);
                rep.eps_lower = l;
                rep.verdict = exact_verdict(l, o.eps);
                rep.note = format!(
                    "one arm's sequence of {DAF_SEQUENCE_LEN} rewards (6 released phase means); worst neighbour: entry {pos} changed 0 <-> 1"
                );
            }
        }
    } else {
        let n = o.runs.unwrap_or_else(|| default_runs(target));
        let bb = match (mech, target) {
            (Some(m), _) => blackbox_mechanism(m, n, o.seed, o.alpha, claim)?,
            (None, Target::Algo(a)) => {
                let (bb, note) = blackbox_algorithm(*a, o.eps, o.eps, n, o.seed, o.alpha)?;
                rep.note = note;
                bb
            }
            (
                None,
                Target::Mutant(Mutant {
                    base: MutantBase::Algo { algo, factor },
                    ..
                }),
            ) => {
                let (bb, note) =
                    blackbox_algorithm(*algo, factor * o.eps, o.eps, n, o.seed, o.alpha)?;
                rep.note = format!("{note}; runs at eps = {}", factor * o.eps);
                bb
            }
            (None, _) => unreachable!("invariant: only algorithms lack a mechanism"),
        };
        rep.eps_lower = bb.eps_lower;
        rep.gamma_lower = bb.gamma_lower;
        rep.runs = bb.runs;
        rep.certify_runs = bb.certify_runs;
        rep.counts = Some(bb.counts);
        rep.event = bb.event;
        rep.verdict = bb.verdict;
        if rep.note.is_empty() {
            rep.note =
                "black-box mode never certifies privacy: no violation found is 'inconclusive'"
                    .into();
        }
    }
    rep.seconds = start.elapsed().as_secs_f64();
    Ok(rep)
}

fn blackbox_mechanism(m: Mech, n: u64, seed: u64, alpha: f64, claim: Claim) -> Result<BlackBox> {
    match m {
        Mech::Rr(rr) => {
            let (x, y) = sample_pair(n, seed, |i, rng| {
                rr.privatise(if i == 0 { 1.0 } else { 0.0 }, rng)
            });
            sniper_real(&x, &y, alpha, claim)
        }
        Mech::Laplace(lap) => {
            let (x, y) = sample_pair(n, seed, |i, rng| {
                lap.release(if i == 0 { 1.0 } else { 0.0 }, rng)
            });
            sniper_real(&x, &y, alpha, claim)
        }
        Mech::Gaussian(g) => {
            let (x, y) = sample_pair(n, seed, |i, rng| {
                g.privatise(if i == 0 { 1.0 } else { 0.0 }, rng)
            });
            sniper_real(&x, &y, alpha, claim)
        }
        Mech::Daf { eps, forgetting } => {
            // Neighbours: the first reward 1 vs 0, the others 1/2. The released vector is
            // projected on T = Σ_j y_j / b_j (the scales b_j are public).
            let mut r1 = vec![0.5; DAF_SEQUENCE_LEN];
            r1[0] = 1.0;
            let mut r0 = r1.clone();
            r0[0] = 0.0;
            let p1 = privacy::daf_release_plan(&r1, eps, forgetting)?;
            let p0 = privacy::daf_release_plan(&r0, eps, forgetting)?;
            let stat = |plan: &[(f64, f64)], rng: &mut Rng| -> f64 {
                plan.iter()
                    .map(|&(mean, b)| (mean + privacy::laplace_noise(b, rng)) / b)
                    .sum()
            };
            let (x, y) = sample_pair(n, seed, |i, rng| {
                if i == 0 {
                    stat(&p1, rng)
                } else {
                    stat(&p0, rng)
                }
            });
            let mut bb = sniper_real(&x, &y, alpha, claim)?;
            bb.event = format!("{} with Y = sum_j y_j/b_j", bb.event);
            Ok(bb)
        }
    }
}

/// Neighbouring reward tables for the whole-algorithm audit (Definition 8): `K = 2`, rows drawn
/// once from `Ber(0.7) × Ber(0.3)` with a fixed seed; the neighbour flips row 1 (the first
/// user, whose reward of arm 1 every algorithm observes at `t = 1`).
pub(crate) fn neighbouring_tables(rows: usize) -> (RewardTable, RewardTable) {
    use rand::RngExt;
    let mut rng = rng_for_run(0xD1FF_7AB1E, 0);
    let d: RewardTable = (0..rows)
        .map(|_| {
            vec![
                f64::from(u8::from(rng.random::<f64>() < 0.7)),
                f64::from(u8::from(rng.random::<f64>() < 0.3)),
            ]
        })
        .collect();
    let mut d2 = d.clone();
    d2[0] = vec![1.0 - d[0][0], 1.0 - d[0][1]];
    (d, d2)
}

fn hash_of<T: std::hash::Hash>(v: &T) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

/// Names of [`table_features`].
pub(crate) const TABLE_FEATURES: [&str; 4] =
    ["output hash", "recommendation", "tau", "first 16 actions"];

/// The discrete features of a table run the black-box tester looks at.
pub(crate) fn table_features(o: Option<bandit::TableOutput>) -> Vec<u64> {
    match o {
        None => vec![0; 4],
        Some(o) => {
            let prefix: Vec<u32> = o.actions.iter().take(16).copied().collect();
            vec![
                hash_of(&o),
                o.recommendation as u64 * 2 + u64::from(o.stopped),
                o.actions.len() as u64 * 2 + u64::from(o.stopped),
                hash_of(&prefix),
            ]
        }
    }
}

fn blackbox_algorithm(
    algo: AlgoName,
    eps_run: f64,
    eps: f64,
    n: u64,
    seed: u64,
    alpha: f64,
) -> Result<(BlackBox, String)> {
    if !matches!(
        algo,
        AlgoName::CtbTt | AlgoName::AdapTt | AlgoName::AdapTtStar
    ) {
        return Err(Error::param(
            "algo",
            algo.as_str(),
            "ctb-tt, adap-tt or adap-tt-star (the algorithms with an epsilon-DP claim on reward tables)",
        ));
    }
    let rows = 400;
    let delta = 0.1;
    let instance = crate::instance::Instance::bernoulli(vec![0.7, 0.3])?;
    let mut spec = AlgoSpec::new(algo, delta);
    spec.eps = Some(eps_run);
    let alg = bandit::build(&spec, &instance)?;
    let (d, d2) = neighbouring_tables(rows);
    let probe = alg.run_on_table(&d, &mut rng_for_run(seed, u64::MAX));
    if probe.is_none() {
        return Err(Error::param(
            "algo",
            algo.as_str(),
            "an algorithm that supports reward tables",
        ));
    }
    let (x, y) = sample_pair(n, seed, |i, rng| {
        table_features(alg.run_on_table(if i == 0 { &d } else { &d2 }, rng))
    });
    let bb = sniper_discrete(&x, &y, &TABLE_FEATURES, alpha, Claim::Pure { eps })?;
    let note = format!(
        "neighbouring reward tables of {rows} rows (K = 2, row 1 flipped), delta = {delta}; events on (actions, recommendation, tau)"
    );
    Ok((bb, note))
}
