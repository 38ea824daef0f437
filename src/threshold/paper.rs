//! The papers' stopping thresholds (READINGS.md §D.1), each written once: Eq. (4) `c^G`, L. 34,
//! Eq. (12) `c^{G,ε}`, Eq. (14) `c̃^{G,ε}` and the public code's two empirical rules, as the
//! engine's `StoppingThreshold` with its constants computed once per algorithm object (`C_G`
//! of the constant argument; `C_G` and `h` memoised per phase index); and \[BAI25\]'s two,
//! DP-TT's poster shape ([`poster_term`]) and EB-TCI's [`gk16`], which DP-TT's engine and its
//! reward-table loop both call.
//!
//! The public functions ([`threshold_glr`], [`threshold_adap`], [`threshold_adap_star`],
//! [`threshold_l34`]) are that same object evaluated at one pair, not a second formula; they
//! carry the READINGS.md §D.1 reference vectors as doctests. The expression text of each
//! threshold (`--threshold paper-*`, [`crate::threshold::expr::PRESETS`], read by the prover) is
//! the language's spelling of the same equation: the operation orders differ (the engine folds
//! `log((K−1)π⁴/(18δ))/2 + log(k_a k_b)` where the text reads `log((K−1)/(18δ/(π⁴k_a²k_b²)))/2`),
//! and both are frozen (the engine's bits by the trajectory fingerprints, the text's bytes by the
//! cell digests of `--threshold` cells), so the presets' unit test ties the two.

use super::custom::{CustomThreshold, ThresholdVars};
use super::sf::{c_g, h, k_fn};
use std::f64::consts::{PI, SQRT_2};
use std::sync::{Arc, OnceLock};

const PI2: f64 = PI * PI;
/// `ζ(2)² = π⁴/36`.
const ZETA2_SQ: f64 = PI2 * PI2 / 36.0;

/// Non-private GLR threshold (Eq. (4)).
///
/// # Definition
/// `c^G_{a,b}(ω, δ) = 2·C_G(log((K−1)/δ)/2) + 2·log(4 + log ω_a) + 2·log(4 + log ω_b)`.
///
/// # Reference
/// Eq. (4), from L. 35 (Kaufmann–Koolen 2021, Thm. 9); READINGS.md §D.1.
///
/// # Domain
/// `ω >= 1`, `δ ∈ (0, 1)`, `K >= 2` (not checked).
///
/// # Accuracy
/// That of `C_G` (~1e-9 absolute).
///
/// # Example
/// ```
/// let c = dpbai::threshold::paper::threshold_glr(8.0, 16.0, 0.01, 5);
/// assert!((c - 16.723265).abs() < 1e-5);
/// ```
pub fn threshold_glr(w_a: f64, w_b: f64, delta: f64, n_arms: usize) -> f64 {
    StoppingThreshold::eq4(delta, n_arms).value(&Pair::counts(w_a, w_b))
}

/// `log(a/b)` for `a, b > 0`: as `log(a/b)` when the quotient is a normal double (bit for bit
/// the historical form), else as `log a − log b`, exact where `a/b` would overflow or underflow
/// (e.g. `(K − 1)/δ` for `δ` near [`crate::params::DELTA_MIN`]).
#[inline]
pub(crate) fn ln_ratio(a: f64, b: f64) -> f64 {
    let r = a / b;
    if r.is_normal() {
        r.ln()
    } else {
        a.ln() - b.ln()
    }
}

/// `2·log(4 + log ω_a) + 2·log(4 + log ω_b)`, the count terms of Eq. (4).
#[inline]
fn glr_log_terms(w_a: f64, w_b: f64) -> f64 {
    glr_log_term(w_a) + glr_log_term(w_b)
}

/// One arm's count term of Eq. (4): `2·log(4 + log ω)`.
#[inline]
fn glr_log_term(w: f64) -> f64 {
    2.0 * (4.0 + w.ln()).ln()
}

/// The time term of the public TTUCB code's threshold: `log(1 + log t)`.
#[inline]
fn ref_ttucb_time_term(t: f64) -> f64 {
    (1.0 + t.ln()).ln()
}

/// The per-arm term `m·log(1/δ) + log(n)·log(1 + εn/log n)` of the \[BAI25\] poster's threshold
/// for DP-TT (`dp-tt-poster` at `m = 1`; approximate, not proven), with `log n` in the
/// denominator read as `max(log n, log 2)`: the second term is then its limit `0` at `n = 1`,
/// and `log n >= log 2` for every other count, which is how the preset text writes it.
///
/// # Example
/// ```
/// let c = dpbai::threshold::paper::poster_term(1.0, 1.0, 100f64.ln(), 1.0);
/// assert_eq!(c, 100f64.ln());
/// let n = 16.0f64;
/// let c = dpbai::threshold::paper::poster_term(n, 0.5, 100f64.ln(), 1.0);
/// assert!((c - (100f64.ln() + n.ln() * (1.0 + 0.5 * n / n.ln()).ln())).abs() < 1e-12);
/// ```
pub fn poster_term(n: f64, eps: f64, ln_inv_delta: f64, m: f64) -> f64 {
    let l = n.ln().max(std::f64::consts::LN_2);
    m * ln_inv_delta + n.ln() * (eps * n / l).ln_1p()
}

/// EB-TCI's threshold `log(2t(K − 1)/δ)` on the Bernoulli GLR statistic (`gk16-bernoulli`:
/// Garivier & Kaufmann 2016, proven with Krichevsky–Trofimov mixtures for any sampling rule).
///
/// # Example
/// ```
/// let c = dpbai::threshold::paper::gk16(100.0, 5, 0.01);
/// assert!((c - 80_000f64.ln()).abs() < 1e-12);
/// ```
#[inline]
pub fn gk16(t: f64, n_arms: usize, delta: f64) -> f64 {
    (2.0 * t * (n_arms as f64 - 1.0) / delta).ln()
}

/// Threshold of AdaP-TT (Eq. (12)).
///
/// # Definition
/// `c^{G,ε}_{a,b}(ω, δ) = 2·c^G_{a,b}(ω, 18δ/(π⁴k(ω_a)²k(ω_b)²))
///   + (1/(ε²σ²))·Σ_{c∈{a,b}} (1/ω_c)·log(π²K·k(ω_c)²/(3δ))²`.
///
/// # Reference
/// Eq. (12), L. 21; READINGS.md §D.1.
///
/// # Domain
/// `ω >= 1`, `δ ∈ (0, 1)`, `ε, σ > 0`.
///
/// # Accuracy
/// That of `C_G`.
///
/// # Example
/// ```
/// let c = dpbai::threshold::paper::threshold_adap(8.0, 16.0, 0.01, 5, 0.5, 0.5);
/// assert!((c - 397.76956).abs() < 1e-4);
/// ```
pub fn threshold_adap(w_a: f64, w_b: f64, delta: f64, n_arms: usize, eps: f64, sigma: f64) -> f64 {
    StoppingThreshold::eq12(delta, n_arms, eps, sigma).value(&Pair::counts(w_a, w_b))
}

/// Which form of Eq. (14)'s second case (READINGS.md R.16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum Eq14Form {
    /// `log(π²K·max_c k(ω_c)²/(2δ))`: the form covered by the proof of L. 23 (default).
    #[default]
    KSquared,
    /// `log(π²K·max_c k(ω_c)/(2δ))`, as printed in the paper.
    Printed,
}

crate::spelled!(Eq14Form => "eq14-form");

/// Threshold of AdaP-TT* (Eq. (14)).
///
/// # Definition
/// With `g = (μ̃_a − μ̃_b)_+`:
/// ```text
/// g <  ε/2: (1/2)·c^{G,ε}_{a,b}(ω, 2δ/3) + (√2/(εσ))·Σ_c sqrt(h(ω_c,δ)/ω_c)·log(π²K·k(ω_c)²/(2δ))
/// g >= ε/2: (1/(2σ²))·log(π²K·max_c k(ω_c)^p/(2δ)) + (ε/(2√2σ))·Σ_c sqrt(ω_c·h(ω_c,δ))
/// ```
/// with `p = 2` ([`Eq14Form::KSquared`], default) or `p = 1` ([`Eq14Form::Printed`]).
///
/// # Reference
/// Eq. (14), L. 23; READINGS.md §D.1, R.16.
///
/// # Domain
/// `ω >= 1`, `δ ∈ (0, 1)`, `ε, σ > 0`.
///
/// # Accuracy
/// That of `C_G` and `W̄_{-1}`.
///
/// # Example
/// ```
/// use dpbai::threshold::paper::{threshold_adap_star, Eq14Form};
/// let c1 = threshold_adap_star(0.1, 8.0, 16.0, 0.01, 5, 0.5, 0.5, Eq14Form::KSquared);
/// assert!((c1 - 369.52433).abs() < 1e-4);
/// let c2 = threshold_adap_star(0.3, 8.0, 16.0, 0.01, 5, 0.5, 0.5, Eq14Form::Printed);
/// assert!((c2 - 29.156878).abs() < 1e-5);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn threshold_adap_star(
    gap: f64,
    w_a: f64,
    w_b: f64,
    delta: f64,
    n_arms: usize,
    eps: f64,
    sigma: f64,
    form: Eq14Form,
) -> f64 {
    let p = Pair {
        mu_a: gap,
        mu_b: 0.0,
        ..Pair::counts(w_a, w_b)
    };
    StoppingThreshold::eq14(delta, n_arms, eps, sigma, form).value(&p)
}

/// DAF/DPA threshold for `ε = ∞` (L. 34), `s = 2`, with phase indices `k_a, k_b`.
///
/// # Definition
/// `c^G_{a,b}(ω, δ/(ζ(2)²·k_a²·k_b²))`.
///
/// # Reference
/// L. 34; READINGS.md §D.1, §D.8 (R.27: `k` = phase index, `ω` = `N_{T_k(a),a}`).
///
/// # Domain
/// `ω >= 1`, `k >= 1`, `δ ∈ (0, 1)`.
///
/// # Accuracy
/// That of `C_G`.
///
/// # Example
/// ```
/// let c = dpbai::threshold::paper::threshold_l34(1.0, 1.0, 1.0, 1.0, 0.01, 5);
/// let want = dpbai::threshold::paper::threshold_glr(1.0, 1.0, 0.01 * 36.0 / std::f64::consts::PI.powi(4), 5);
/// assert!((c - want).abs() < 1e-12);
/// ```
pub fn threshold_l34(w_a: f64, w_b: f64, k_a: f64, k_b: f64, delta: f64, n_arms: usize) -> f64 {
    let p = Pair {
        k_a,
        k_b,
        ..Pair::counts(w_a, w_b)
    };
    StoppingThreshold::l34(delta, n_arms).value(&p)
}

/// Lazily computed `C_G(x0 + log p)` for integer `p` in `1..=MAXP` (thread-safe).
#[derive(Debug)]
pub(crate) struct CgCache {
    x0: f64,
    cells: Vec<OnceLock<f64>>,
}

const MAXP: usize = 66 * 66;

impl CgCache {
    fn new(x0: f64) -> Self {
        CgCache {
            x0,
            cells: (0..=MAXP).map(|_| OnceLock::new()).collect(),
        }
    }
    /// `C_G(x0 + log p)`; cached when `p` is an integer `<= MAXP`.
    fn get(&self, p: f64) -> f64 {
        let i = p as usize;
        if i as f64 == p && (1..=MAXP).contains(&i) {
            *self.cells[i].get_or_init(|| c_g(self.x0 + p.ln()))
        } else {
            c_g(self.x0 + p.ln())
        }
    }
}

/// Lazily computed `h(2^j, δ)` (L. 23) for `j` in `0..64`.
#[derive(Debug)]
pub(crate) struct HCache {
    delta: f64,
    n_arms: usize,
    cells: Vec<OnceLock<f64>>,
}

impl HCache {
    fn get(&self, w: f64) -> f64 {
        let j = w.log2();
        let ji = j as usize;
        if ji as f64 == j && ji < self.cells.len() {
            *self.cells[ji].get_or_init(|| h(w, self.delta, self.n_arms))
        } else {
            h(w, self.delta, self.n_arms)
        }
    }
}

/// A pair `(a, b)` as seen by a stopping threshold.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pair {
    pub mu_a: f64,
    pub mu_b: f64,
    pub w_a: f64,
    pub w_b: f64,
    pub k_a: f64,
    pub k_b: f64,
    pub t: f64,
}

impl Pair {
    /// The variables a user threshold reads at this pair, with the run constants of `base`.
    #[inline]
    fn vars(&self, base: &ThresholdVars) -> ThresholdVars {
        ThresholdVars {
            t: self.t,
            na: self.w_a,
            nb: self.w_b,
            ka: self.k_a,
            kb: self.k_b,
            gap: (self.mu_a - self.mu_b).max(0.0),
            ..*base
        }
    }

    /// The pair at counts `w_a`, `w_b`, equal estimates, phase indices 1 and `t = w_a + w_b`
    /// (the reference functions' point).
    fn counts(w_a: f64, w_b: f64) -> Pair {
        Pair {
            mu_a: 0.0,
            mu_b: 0.0,
            w_a,
            w_b,
            k_a: 1.0,
            k_b: 1.0,
            t: w_a + w_b,
        }
    }
}

/// The stopping threshold `c_{a,b}` of the GLR test (READINGS.md §D.1, §P), with its constants
/// computed once per algorithm object (the value of Eq. (4)'s `C_G`; `C_G` and `h` memoised per
/// phase index for the phase-dependent thresholds). The one definition of each paper threshold:
/// the reference functions (`threshold_glr`, `threshold_adap`, …) evaluate it.
#[derive(Debug)]
pub(crate) enum StoppingThreshold {
    /// Eq. (4): `cg2 = 2 C_G(log((K−1)/δ)/2)`.
    Eq4 { cg2: f64 },
    /// L. 34 with phase indices.
    L34 { cache: CgCache },
    /// Eq. (12).
    Eq12(Eq12),
    /// Eq. (14).
    Eq14 {
        half: Eq12,
        hc: HCache,
        eps: f64,
        sigma: f64,
        lk1: f64,
        form: Eq14Form,
    },
    /// Public code, TTUCB: `log((1 + log t)/δ)`.
    RefTtucb { ln_inv_delta: f64 },
    /// Public code, AdaP-TT: `log(1/δ) + log(1+log n) + log(1+log m) + (1/n+1/m)·log²(1/δ)/ε²`.
    RefAdap { ln_inv_delta: f64, eps: f64 },
    /// A user threshold.
    Custom {
        f: Arc<dyn CustomThreshold>,
        base: ThresholdVars,
    },
}

/// How a threshold's value splits into terms that the engine may cache
/// ([`StoppingThreshold::term`], [`StoppingThreshold::combine`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TermKind {
    /// One term per arm, a function of that arm's count `ω` only, non-decreasing in it.
    Arms,
    /// One term, a function of the time `t` only, non-decreasing in it.
    Time,
    /// No cached term: [`StoppingThreshold::value`] as a whole.
    Whole,
}

/// Eq. (12) with cached `C_G`.
#[derive(Debug)]
pub(crate) struct Eq12 {
    cache: CgCache,
    coef: f64,
    lk: f64,
}

impl Eq12 {
    fn new(delta: f64, n_arms: usize, eps: f64, sigma: f64) -> Self {
        let kk = n_arms as f64;
        // log((K−1)/δ')/2 with δ' = 18δ/(π⁴ka²kb²) = log((K−1)π⁴/(18δ))/2 + log(ka·kb)
        let x0 = ln_ratio((kk - 1.0) * PI2 * PI2, 18.0 * delta) / 2.0;
        Eq12 {
            cache: CgCache::new(x0),
            coef: 1.0 / (eps * eps * sigma * sigma),
            lk: ln_ratio(PI2 * kk, 3.0 * delta),
        }
    }
    #[inline]
    fn value(&self, w_a: f64, w_b: f64) -> f64 {
        let (ka, kb) = (k_fn(w_a), k_fn(w_b));
        let glr = 2.0 * self.cache.get(ka * kb) + glr_log_terms(w_a, w_b);
        let la = self.lk + 2.0 * ka.ln();
        let lb = self.lk + 2.0 * kb.ln();
        2.0 * glr + self.coef * (la * la / w_a + lb * lb / w_b)
    }
}

impl StoppingThreshold {
    pub(crate) fn eq4(delta: f64, n_arms: usize) -> Self {
        StoppingThreshold::Eq4 {
            cg2: 2.0 * c_g(ln_ratio(n_arms as f64 - 1.0, delta) / 2.0),
        }
    }
    pub(crate) fn l34(delta: f64, n_arms: usize) -> Self {
        let x0 = ln_ratio((n_arms as f64 - 1.0) * ZETA2_SQ, delta) / 2.0;
        StoppingThreshold::L34 {
            cache: CgCache::new(x0),
        }
    }
    pub(crate) fn eq12(delta: f64, n_arms: usize, eps: f64, sigma: f64) -> Self {
        StoppingThreshold::Eq12(Eq12::new(delta, n_arms, eps, sigma))
    }
    pub(crate) fn eq14(delta: f64, n_arms: usize, eps: f64, sigma: f64, form: Eq14Form) -> Self {
        StoppingThreshold::Eq14 {
            half: Eq12::new(2.0 * delta / 3.0, n_arms, eps, sigma),
            hc: HCache {
                delta,
                n_arms,
                cells: (0..64).map(|_| OnceLock::new()).collect(),
            },
            eps,
            sigma,
            lk1: ln_ratio(PI2 * n_arms as f64, 2.0 * delta),
            form,
        }
    }

    /// A value `<=` the threshold of every pair (quick rejection), `−∞` if none is cheap.
    pub(crate) fn lower_bound(&self) -> f64 {
        match self {
            StoppingThreshold::Eq4 { cg2 } => cg2 + 4.0 * 4f64.ln(),
            StoppingThreshold::RefTtucb { ln_inv_delta }
            | StoppingThreshold::RefAdap { ln_inv_delta, .. } => *ln_inv_delta,
            StoppingThreshold::Custom { f, base } => f.lower_bound(base),
            _ => f64::NEG_INFINITY,
        }
    }

    /// A value `<=` the pair's threshold after any further growth of its counts, phases and
    /// time (a user threshold's [`CustomThreshold::lower_bound_after`] at `p`); `−∞` for the
    /// built-in thresholds, whose bounds come from their cached terms.
    pub(crate) fn lower_bound_after(&self, p: &Pair) -> f64 {
        match self {
            StoppingThreshold::Custom { f, base } => f.lower_bound_after(&p.vars(base)),
            _ => f64::NEG_INFINITY,
        }
    }

    /// Whether the value can change while estimates and counts are frozen (time-dependent).
    pub(crate) fn depends_on_time(&self) -> bool {
        match self {
            StoppingThreshold::RefTtucb { .. } => true,
            StoppingThreshold::Custom { f, .. } => f.reads_time(),
            _ => false,
        }
    }

    /// Which terms of the value the engine may cache.
    pub(crate) fn term_kind(&self) -> TermKind {
        match self {
            StoppingThreshold::Eq4 { .. } => TermKind::Arms,
            StoppingThreshold::RefTtucb { .. } => TermKind::Time,
            _ => TermKind::Whole,
        }
    }

    /// The cached term at `x`: an arm's count term (Eq. (4): `2·log(4 + log ω)`, `x = ω`)
    /// or the time term (public TTUCB code: `log(1 + log t)`, `x = t`); `0` for
    /// [`TermKind::Whole`].
    #[inline]
    pub(crate) fn term(&self, x: f64) -> f64 {
        match self.term_kind() {
            TermKind::Arms => glr_log_term(x),
            TermKind::Time => ref_ttucb_time_term(x),
            TermKind::Whole => 0.0,
        }
    }

    /// A value `<=` [`StoppingThreshold::term`] at every admissible argument (`ω >= 1`,
    /// `t >= 1`): the term at 1.
    pub(crate) fn term_floor(&self) -> f64 {
        self.term(1.0)
    }

    /// The threshold of the pair `p` from its terms: `ta = term(ω_a)`, `tb = term(ω_b)`
    /// ([`TermKind::Arms`]) or `ta = term(t)` ([`TermKind::Time`], `tb` unused). With the exact
    /// terms it is [`StoppingThreshold::value`] bit for bit (`value` is defined through it); for
    /// [`TermKind::Arms`] and [`TermKind::Time`] it reads nothing else of `p` and is
    /// non-decreasing in `ta` and `tb` (a sum of them and constants). L. 34 is the count terms
    /// of Eq. (4) plus `2·C_G` of its phases (`ta`, `tb` = `2·log(4 + log ω)`); for the other
    /// thresholds ([`TermKind::Whole`]) it is `value(p)`.
    #[inline]
    pub(crate) fn combine(&self, p: &Pair, ta: f64, tb: f64) -> f64 {
        match self {
            StoppingThreshold::Eq4 { cg2 } => cg2 + (ta + tb),
            StoppingThreshold::L34 { cache } => 2.0 * cache.get(p.k_a * p.k_b) + (ta + tb),
            StoppingThreshold::RefTtucb { ln_inv_delta } => ln_inv_delta + ta,
            _ => self.value(p),
        }
    }

    #[inline]
    pub(crate) fn value(&self, p: &Pair) -> f64 {
        match self {
            StoppingThreshold::Eq4 { .. } | StoppingThreshold::L34 { .. } => {
                self.combine(p, glr_log_term(p.w_a), glr_log_term(p.w_b))
            }
            StoppingThreshold::Eq12(e) => e.value(p.w_a, p.w_b),
            StoppingThreshold::Eq14 {
                half,
                hc,
                eps,
                sigma,
                lk1,
                form,
            } => {
                let (ha, hb) = (hc.get(p.w_a), hc.get(p.w_b));
                let (ka, kb) = (k_fn(p.w_a), k_fn(p.w_b));
                if (p.mu_a - p.mu_b).max(0.0) < eps / 2.0 {
                    let lga = lk1 + 2.0 * ka.ln();
                    let lgb = lk1 + 2.0 * kb.ln();
                    0.5 * half.value(p.w_a, p.w_b)
                        + SQRT_2 / (eps * sigma)
                            * ((ha / p.w_a).sqrt() * lga + (hb / p.w_b).sqrt() * lgb)
                } else {
                    let km = ka.max(kb);
                    let lkp = match form {
                        Eq14Form::KSquared => lk1 + 2.0 * km.ln(),
                        Eq14Form::Printed => lk1 + km.ln(),
                    };
                    lkp / (2.0 * sigma * sigma)
                        + eps / (2.0 * SQRT_2 * sigma) * ((p.w_a * ha).sqrt() + (p.w_b * hb).sqrt())
                }
            }
            StoppingThreshold::RefTtucb { .. } => self.combine(p, ref_ttucb_time_term(p.t), 0.0),
            StoppingThreshold::RefAdap { ln_inv_delta, eps } => {
                ln_inv_delta
                    + (1.0 + p.w_a.ln()).ln()
                    + (1.0 + p.w_b.ln()).ln()
                    + (1.0 / p.w_a + 1.0 / p.w_b) * ln_inv_delta * ln_inv_delta / (eps * eps)
            }
            StoppingThreshold::Custom { f, base } => f.eval(&p.vars(base)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's thresholds at the READINGS.md §D.1 reference vectors (computed there
    /// independently, to 7 or 8 significant digits).
    #[test]
    fn engine_thresholds_match_the_d1_vectors() {
        let (d, k) = (0.01, 5);
        let p = Pair {
            mu_a: 0.7,
            mu_b: 0.5,
            w_a: 8.0,
            w_b: 16.0,
            k_a: 4.0,
            k_b: 5.0,
            t: 100.0,
        };
        let e4 = StoppingThreshold::eq4(d, k);
        assert!((e4.value(&p) - 16.723265).abs() < 1e-5);
        assert!((threshold_glr(1.0, 1.0, d, k) - 14.832850).abs() < 1e-5);
        assert!(e4.lower_bound() <= threshold_glr(1.0, 1.0, d, k));
        assert!((StoppingThreshold::eq12(d, k, 0.5, 0.5).value(&p) - 397.76956).abs() < 1e-4);
        let p2 = Pair {
            w_a: 64.0,
            w_b: 128.0,
            ..p
        };
        assert!((StoppingThreshold::eq12(d, k, 1.0, 0.5).value(&p2) - 69.852841).abs() < 1e-5);
        // Eq. (14): the first case at gap 0.1 < ε/2, the second (printed form) at 0.3.
        let at = |gap: f64| Pair {
            mu_a: 0.5 + gap,
            mu_b: 0.5,
            ..p
        };
        let e14k = StoppingThreshold::eq14(d, k, 0.5, 0.5, Eq14Form::KSquared);
        let e14p = StoppingThreshold::eq14(d, k, 0.5, 0.5, Eq14Form::Printed);
        assert!((e14k.value(&at(0.1)) - 369.52433).abs() < 1e-4);
        assert!((e14p.value(&at(0.3)) - 29.156878).abs() < 1e-5);
    }

    /// L. 34 is Eq. (4) at the risk `δ/(ζ(2)² k_a² k_b²)` (its definition): the cached
    /// `C_G(x0 + log(k_a k_b))` against Eq. (4) built at that risk.
    #[test]
    fn l34_is_eq4_at_the_divided_risk() {
        let (d, k) = (0.01, 5);
        for (ka, kb) in [(1.0, 1.0), (4.0, 5.0), (30.0, 2.0)] {
            let p = Pair {
                k_a: ka,
                k_b: kb,
                ..Pair::counts(8.0, 16.0)
            };
            let want = StoppingThreshold::eq4(d / (ZETA2_SQ * ka * ka * kb * kb), k).value(&p);
            let got = StoppingThreshold::l34(d, k).value(&p);
            assert!(
                (got - want).abs() < 1e-12 * want,
                "{ka} {kb}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn eq14_k_squared_exceeds_printed_in_case_two() {
        let a = threshold_adap_star(0.3, 8.0, 16.0, 0.01, 5, 0.5, 0.5, Eq14Form::KSquared);
        let b = threshold_adap_star(0.3, 8.0, 16.0, 0.01, 5, 0.5, 0.5, Eq14Form::Printed);
        // difference = log(max k)/(2σ²) = 2·log 6 at σ = 1/2 (k(16) = 6)
        assert!((a - b - 2.0 * 6f64.ln()).abs() < 1e-9);
    }
}
