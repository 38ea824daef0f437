//! Asymptotic upper-bound formulas `limsup_{δ→0} E[τ]/log(1/δ) <= …` (MATH.md E.4), each per unit
//! of `log(1/δ)`, with a note when the theorem's assumptions fail (MATH.md ISSUE 31).
//!
//! Notation (E.4): `σ = 1/2`, `T^G_β = T^G_{KL,β}(μ; 1/2)`, `T^{G,ε}_β = T_{KL,β}(ν_{G,ε})`.

use super::{t_kl_beta_g_eps, t_kl_gaussian, t_kl_gaussian_beta};
use crate::error::{check_above, check_open, Result};
use crate::instance::{Family, Instance};
use crate::special::{g1, g2};
use serde::Serialize;

/// One upper-bound value with the caveat that applies to the instance (if any).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UpperBound {
    /// Bound on `limsup E[τ]/log(1/δ)`.
    pub value: f64,
    /// Why the theorem does not apply as stated (tied means, boundary means, Gaussian arms).
    pub note: Option<String>,
}

/// The three readings of Thm. 24 (MATH.md ISSUE 19).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AdaPTTStar {
    /// Main text: `Δ_max < ε/2`: `4 T^G_β g1(Δ_max/(σ²ε))`; else `2 T^{G,ε}_β g2(ε² T^{G,ε}_β max{β,1−β}/4)/σ²`.
    pub thm24_main: f64,
    /// App. G, L. 52: `Δ_max < 3ε`: `4 T^G_β g1(Δ_max/(σ²ε))`; else `12 T^{G,ε}_β g2(3ε² T^{G,ε}_β max{β,1−β}/2)/σ²`.
    pub lemma52_app: f64,
    /// Proof's last display: `4 T^{G,ε}_β max{D^(1)_{0,0}, 1{Δ_max >= ε/2} D^(2)_{0,0,0}}` (C.7).
    pub proof_max: f64,
    /// Caveat (as [`UpperBound::note`]).
    pub note: Option<String>,
}

/// All upper-bound formulas of E.4 for one `(ν, ε, β)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UpperBounds {
    /// CTB-TT (Sec. 3.2): `coth²(ε/2) T^G_β`.
    pub ctb_tt: UpperBound,
    /// CTB-TT with IDS (Sec. 3.2): `coth²(ε/2) T^G_KL(μ; 1/2)`.
    pub ctb_tt_ids: UpperBound,
    /// AdaP-TT (Thm. 22): `4 T^G_β (1 + sqrt(1 + Δ_max²/(2σ⁴ε²)))`.
    pub adap_tt: UpperBound,
    /// AdaP-TT* (Thm. 24), three readings.
    pub adap_tt_star: AdaPTTStar,
}

/// DPA / BBAI (App. H): `2 T^G_β` (non-private; no ε).
///
/// # Definition
/// `2·T^G_{KL,β}(μ; 1/2)` per unit of `log(1/δ)`, with the caveat of [`assumption_note`].
/// # Reference
/// App. H; MATH.md E.4.
/// # Domain
/// Any valid [`Instance`]; `β ∈ (0, 1)`.
/// # Accuracy
/// Inherits the 1e-9 certificate of `T^G_{KL,β}` (golden file `tests/data/bounds_golden.toml`,
/// `GOLDEN_TOL` 1e-8 of `tests/complexity.rs`); checked against the closed form `2·2H` for equal
/// gaps in its doc test.
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.75, 0.7, 0.7, 0.7, 0.7]).unwrap();
/// let b = dpbai::complexity::upper::dpa(&nu, 0.5).unwrap();
/// assert!((b.value - 4000.0).abs() < 1e-6); // 2 T^G_{1/2} = 2 * 2000 (μ2)
/// assert!(b.note.is_some()); // tied sub-optimal means
/// ```
/// # Errors
/// Bad `β`; solver errors.
pub fn dpa(nu: &Instance, beta: f64) -> Result<UpperBound> {
    check_open("beta", beta, 0.0, 1.0)?;
    Ok(UpperBound {
        value: 2.0 * t_kl_gaussian_beta(nu, 0.5, beta)?.value,
        note: assumption_note(nu),
    })
}

/// The caveat of E.4 / ISSUE 31 for an instance, `None` when every assumption holds.
pub fn assumption_note(nu: &Instance) -> Option<String> {
    let mut notes = Vec::new();
    if nu.family() != Family::Bernoulli {
        notes.push(
            "Gaussian arms: the theorems are stated for Bernoulli/[0,1] rewards (sigma = 1/2 used)",
        );
    }
    if !nu.has_distinct_means() {
        notes.push("tied means: the theorem assumes distinct means (MATH.md ISSUE 31)");
    }
    if !nu.is_interior() {
        notes.push("boundary means 0 or 1: the theorem assumes mu in (0,1)^K (MATH.md ISSUE 31)");
    }
    if notes.is_empty() {
        None
    } else {
        Some(notes.join("; "))
    }
}

/// Every ε-dependent upper bound of E.4 (per unit of `log(1/δ)`).
///
/// # Definition
/// See the fields of [`UpperBounds`] and [`AdaPTTStar`]; `σ = 1/2` throughout (E.4).
/// # Reference
/// Sec. 3.2 (CTB-TT), Thm. 22, Thm. 24, L. 52 and its proof (MATH.md ISSUE 19, C.7).
/// # Domain
/// `ε > 0`, `β ∈ (0, 1)`.
/// # Accuracy
/// Inherits the 1e-9 certificates of the times and the accuracy of `g1`, `g2`.
/// # Errors
/// Bad `ε`/`β`; solver or special-function errors.
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.75, 0.625, 0.5, 0.375, 0.25]).unwrap();
/// let u = dpbai::complexity::upper::upper_bounds(&nu, 1.0, 0.5).unwrap();
/// assert!((u.adap_tt.value - 1578.9).abs() < 0.1);        // MATH.md E.4 (μ4, ε = 1)
/// assert!((u.adap_tt_star.thm24_main - 85794.0).abs() < 1.0);
/// ```
pub fn upper_bounds(nu: &Instance, eps: f64, beta: f64) -> Result<UpperBounds> {
    check_open("beta", beta, 0.0, 1.0)?;
    let tg_beta = t_kl_gaussian_beta(nu, 0.5, beta)?.value;
    let tg = t_kl_gaussian(nu, 0.5)?.value;
    upper_bounds_from(nu, eps, beta, tg_beta, tg)
}

/// [`upper_bounds`] with the ε-free times precomputed (for ε curves): `tg_beta` =
/// `T^G_{KL,β}(μ; 1/2)`, `tg` = `T^G_KL(μ; 1/2)`.
///
/// # Definition, Reference, Domain
/// As [`upper_bounds`], given the two ε-free times.
/// # Accuracy
/// As [`upper_bounds`] when `tg_beta` and `tg` are the certified times; otherwise the bounds
/// carry the relative error of the given times.
/// # Errors
/// As [`upper_bounds`].
pub fn upper_bounds_from(
    nu: &Instance,
    eps: f64,
    beta: f64,
    tg_beta: f64,
    tg: f64,
) -> Result<UpperBounds> {
    check_above("eps", eps, 0.0)?;
    check_open("beta", beta, 0.0, 1.0)?;
    let sigma2 = 0.25;
    let note = assumption_note(nu);
    let tge_beta = t_kl_beta_g_eps(nu, eps, beta)?.value;
    let coth2 = 1.0 / (0.5 * eps).tanh().powi(2);
    let dmax = nu.delta_max();
    let mb = beta.max(1.0 - beta);

    let adap =
        4.0 * tg_beta * (1.0 + (1.0 + dmax * dmax / (2.0 * sigma2 * sigma2 * eps * eps)).sqrt());

    // Thm. 24, main text
    let first = 4.0 * tg_beta * g1(dmax / (sigma2 * eps))?;
    let y_main = eps * eps * tge_beta * mb / 4.0;
    let main = if dmax < 0.5 * eps {
        first
    } else {
        2.0 * tge_beta * g2(y_main)? / sigma2
    };
    // L. 52 (appendix)
    let lemma = if dmax < 3.0 * eps {
        first
    } else {
        12.0 * tge_beta * g2(3.0 * eps * eps * tge_beta * mb / 2.0)? / sigma2
    };
    // proof's last display
    let small = nu
        .suboptimal_gaps()
        .into_iter()
        .filter(|&d| d <= 0.5 * eps)
        .fold(0.0f64, f64::max);
    let d1 = g1(small / (sigma2 * eps))?;
    let d2 = if dmax >= 0.5 * eps {
        g2(y_main)? / (2.0 * sigma2)
    } else {
        0.0
    };
    let proof = 4.0 * tge_beta * d1.max(d2);

    Ok(UpperBounds {
        ctb_tt: UpperBound {
            value: coth2 * tg_beta,
            note: note.clone(),
        },
        ctb_tt_ids: UpperBound {
            value: coth2 * tg,
            note: note.clone(),
        },
        adap_tt: UpperBound {
            value: adap,
            note: note.clone(),
        },
        adap_tt_star: AdaPTTStar {
            thm24_main: main,
            lemma52_app: lemma,
            proof_max: proof,
            note,
        },
    })
}
