//! Asymptotic upper-bound formulas `limsup_{δ→0} E[τ]/log(1/δ) <= …` (READINGS.md §E.4), each per unit
//! of `log(1/δ)`, labelled with the privacy model of its algorithm, its regime (asymptotic,
//! `δ → 0`), the characteristic time whose lower bound binds the algorithm, and a note when the
//! theorem's assumptions fail (READINGS.md R.31). Beside AdaP-TT and AdaP-TT*'s, DP-TT's bound
//! `2(1 + η)·T*_{ε,β} <= 8·T*_ε` of \[BAI25\] (poster; module `global_eps` of
//! [`crate::complexity`]), whose lower bound is `T*_ε·log(1/(3δ))`.
//!
//! Notation: `σ` the instance's sub-Gaussian scale (`1/2` for Bernoulli arms),
//! `T^G_β = T^G_{KL,β}(μ; σ)`, `T^{G,ε}_β = T_{KL,β}(ν_{G,ε})` with the same `σ` (Eq. (15)).
//!
//! # Which σ
//! Thm. 22, Thm. 24 and App. H are stated for Bernoulli arms with `σ = 1/2`. Their proofs
//! (App. G: L. 52 and its proof, the equal-cost identities (23); App. H: "the same analysis") are
//! written for `σ`-sub-Gaussian arms and keep `σ` symbolic, with the algorithm's transport
//! costs and thresholds at that `σ` (as `dpbai run` builds them): for Gaussian arms every
//! formula here takes the instance's `σ` (`T^G_β ∝ σ²`, `T^{G,ε}_β ∝ σ²`, and the explicit
//! `σ`'s of Thm. 22, 24). The ε-global DP of AdaP-TT and AdaP-TT* (L. 20, L. 31, Thm. 32) needs
//! rewards in `[0, 1]` (DAF's Laplace noise is calibrated to that range), so on Gaussian
//! rewards they are δ-correct (L. 21, L. 23 hold for `σ`-sub-Gaussian arms) but not ε-DP: the
//! lower bound that binds them there is L. 5's `T_KL`. CTB-TT needs rewards in `[0, 1]`
//! (randomised response, Alg. 4, L. 12): no bound is given for Gaussian arms (refused).

use super::{t_eps, t_eps_beta, t_kl_beta_g_eps, t_kl_gaussian, t_kl_gaussian_beta};
use crate::error::{Result, check_above, check_open};
use crate::instance::{Family, Instance};
use crate::special::{g1, g2};
use crate::spelling::Spelling;
use serde::Serialize;

/// The regime of every bound of this module.
pub const ASYMPTOTIC: &str = "asymptotic, δ → 0; not a finite-δ bound";

pub use crate::params::PrivacyModel;

/// An asymptotic upper bound (`dpbai bounds`, READINGS.md §E.4), times `log(1/δ)`: a δ → 0
/// statement, not a finite-δ bound (a study's figures and SUMMARY.md say so).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UpperKind {
    /// CTB-TT (Thm. 19).
    CtbTt,
    /// CTB-TT with IDS.
    CtbTtIds,
    /// AdaP-TT (Thm. 22).
    AdapTt,
    /// AdaP-TT* (Thm. 24, main-text form).
    AdapTtStar,
    /// AdaP-TT* (Lemma 52, appendix form).
    AdapTtStarLemma52,
    /// DPA-TT (App. H).
    DpaTt,
    /// DP-TT, `2(1 + η)·T*_{ε,β}` at the cell's β and `η = 1` (\[BAI25\] poster).
    DpTt,
    /// DP-TT's looser form `8·T*_ε` (\[BAI25\] poster, the curve of its figure's comparison;
    /// never a cell's own kind, drawn when `[bounds] upper` names it).
    #[serde(rename = "dp-tt-8t-eps")]
    DpTt8TEps,
}

crate::spelled!(UpperKind => "bounds.upper");

impl UpperKind {
    /// Name in results.csv and legends (its serde spelling).
    pub fn as_str(self) -> &'static str {
        self.spelling()
    }
}

/// The characteristic time `T` whose sample-complexity lower bound `T·log(1/(2.4δ))` binds an
/// algorithm on the instance (L. 5, Thm. 10, Thm. 17): its privacy model's time when the
/// privacy guarantee holds, else the non-private `T_KL`; or \[BAI25\]'s `T*_ε` with its own
/// factor `log(1/(3δ))`. The one declaration of the lower-bound kinds: `dpbai bounds` names
/// them by [`LowerTime::name`] (`t_kl`, …), studies and results.csv by [`LowerTime::as_str`]
/// (`non-private`, `local`, `global`, `global-tight`, the spelling a study file's
/// `[bounds] lower` reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LowerTime {
    /// `T_KL` (L. 5): every δ-correct algorithm.
    Kl,
    /// `T_ℓ(ν; ε)` (Thm. 10): every δ-correct ε-local DP algorithm.
    Local,
    /// `T_g(ν; ε)` (Thm. 17): every δ-correct ε-global DP algorithm.
    Global,
    /// `T*_ε(ν)` (\[BAI25\] poster, with the factor `log(1/(3δ))`): every δ-correct ε-global
    /// DP algorithm, tighter than `T_g` (`T*_ε >= T_g`).
    Eps,
}

impl LowerTime {
    /// The JSON/CSV name of the time (`t_kl`, `t_local`, `t_global`, `t_eps`).
    pub fn name(self) -> &'static str {
        match self {
            LowerTime::Kl => "t_kl",
            LowerTime::Local => "t_local",
            LowerTime::Global => "t_global",
            LowerTime::Eps => "t_eps",
        }
    }

    /// The name in study files (`[bounds] lower`), results.csv and legends.
    pub const fn as_str(self) -> &'static str {
        match self {
            LowerTime::Kl => "non-private",
            LowerTime::Local => "local",
            LowerTime::Global => "global",
            LowerTime::Eps => "global-tight",
        }
    }

    /// The factor of `T*` in the bound at risk `delta`: `log(1/(2.4δ))` (the first paper's
    /// Thm. 17, READINGS.md §B) or, for [`LowerTime::Eps`], `log(1/(3δ))` (\[BAI25\]).
    pub fn log_factor(self, delta: crate::params::Delta) -> f64 {
        match self {
            LowerTime::Eps => super::log_factor_bai25(delta),
            _ => super::log_factor(delta),
        }
    }

    /// The legend label of the curve, naming its factor.
    pub fn label(self) -> String {
        match self {
            LowerTime::Eps => "lower bound, global-tight T*_eps [BAI25] × log(1/(3δ))".to_string(),
            k => format!("lower bound, {}", k.as_str()),
        }
    }
}

/// Every kind, in order.
const LOWER_TIMES: [LowerTime; 4] = [
    LowerTime::Kl,
    LowerTime::Local,
    LowerTime::Global,
    LowerTime::Eps,
];

/// The kinds by their study spelling ([`LowerTime::as_str`]), in order.
const LOWER_STUDY_NAMES: [&str; 4] = [
    LOWER_TIMES[0].as_str(),
    LOWER_TIMES[1].as_str(),
    LOWER_TIMES[2].as_str(),
    LOWER_TIMES[3].as_str(),
];

impl Serialize for LowerTime {
    /// Writes the study spelling ([`LowerTime::as_str`]).
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl LowerTime {
    /// Writes [`LowerTime::name`] (`t_kl`, …): the spelling of `dpbai bounds --json`.
    fn serialize_name<S: serde::Serializer>(
        t: &LowerTime,
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(t.name())
    }
}

impl<'de> serde::Deserialize<'de> for LowerTime {
    /// Reads the study spelling ([`LowerTime::as_str`]).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        LOWER_TIMES
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| serde::de::Error::unknown_variant(&s, &LOWER_STUDY_NAMES))
    }
}

/// One upper-bound value with its labels and the caveat that applies to the instance (if any).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UpperBound {
    /// Bound on `limsup_{δ→0} E[τ]/log(1/δ)`; `+∞` (no finite bound) when [`Self::refused`]
    /// says why the paper gives none for this instance (use [`Self::finite`]).
    pub value: f64,
    /// Why the theorem does not apply as stated (tied means, boundary means, Gaussian arms).
    pub note: Option<String>,
    /// The privacy model of the algorithm.
    pub model: PrivacyModel,
    /// The characteristic time of the lower bound that binds the algorithm on this instance.
    #[serde(serialize_with = "LowerTime::serialize_name")]
    pub lower_time: LowerTime,
    /// Always [`ASYMPTOTIC`].
    pub regime: &'static str,
    /// Why no bound is given for this instance (CTB-TT on Gaussian arms), else `None`.
    pub refused: Option<String>,
}

impl UpperBound {
    /// The value, or `None` when the bound is refused for this instance.
    pub fn finite(&self) -> Option<f64> {
        self.refused.is_none().then_some(self.value)
    }
}

/// The term of Thm. 24 that is active: `G1` (`4T^G_β g1(·)`, or `D^(1)` of the proof) or `G2`
/// (`T^{G,ε}_β g2(·)/σ²`, or `D^(2)` of the proof).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Thm24Branch {
    /// The `g1` term (low privacy: every gap below the switch).
    #[serde(rename = "g1")]
    G1,
    /// The `g2` term (high privacy).
    #[serde(rename = "g2")]
    G2,
}

impl Thm24Branch {
    /// `1` for `G1`, `2` for `G2` (the code of the ε-curve columns).
    pub fn code(self) -> f64 {
        match self {
            Thm24Branch::G1 => 1.0,
            Thm24Branch::G2 => 2.0,
        }
    }
    /// `g1` or `g2`.
    pub fn name(self) -> &'static str {
        match self {
            Thm24Branch::G1 => "g1",
            Thm24Branch::G2 => "g2",
        }
    }
}

/// The three readings of Thm. 24 (READINGS.md R.19), with the active branch of each.
///
/// The bound is discontinuous where a reading changes branch: at `ε = 2Δ_max` for the main
/// text and the proof's last display (`Δ_max < ε/2`), at `ε = Δ_max/3` for L. 52
/// (`Δ_max < 3ε`); the proof's `D^(1)` also jumps at each `ε = 2Δ_a`, where arm `a` joins its
/// max. Below the switch the `g2` branch grows like `8T^{G,ε}_β(4y + 2)` (`σ = 1/2`) with
/// `y = ε²T^{G,ε}_β max{β, 1−β}/4` once `T^{G,ε}_β` stops falling (`ε >= 2Δ_a` for the arms
/// that drive it), so the curve in ε rises up to `2Δ_max` and then drops to the `g1` branch.
/// This is the theorem as printed (and its proof's bound, whose `1{Δ_max >= ε/2}` jumps the
/// same way), not a property of the algorithm.
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
    /// [`PrivacyModel::Global`].
    pub model: PrivacyModel,
    /// As [`UpperBound::lower_time`].
    #[serde(serialize_with = "LowerTime::serialize_name")]
    pub lower_time: LowerTime,
    /// Always [`ASYMPTOTIC`].
    pub regime: &'static str,
    /// Active branch of [`Self::thm24_main`].
    pub thm24_main_branch: Thm24Branch,
    /// Active branch of [`Self::lemma52_app`].
    pub lemma52_app_branch: Thm24Branch,
    /// The term attaining the max of [`Self::proof_max`] (`G1` = `D^(1)`, `G2` = `D^(2)`).
    pub proof_max_branch: Thm24Branch,
    /// `ε = 2Δ_max`: where the main text and the proof switch to the `g1` branch (jump).
    pub switch_eps_main: f64,
    /// `ε = Δ_max/3`: where L. 52 switches to the `g1` branch (jump).
    pub switch_eps_lemma52: f64,
}

/// All upper-bound formulas of E.4 for one `(ν, ε, β)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UpperBounds {
    /// CTB-TT (Sec. 3.2): `coth²(ε/2) T^G_β` (Bernoulli arms; refused for Gaussian arms).
    pub ctb_tt: UpperBound,
    /// CTB-TT with IDS (Sec. 3.2): `coth²(ε/2) T^G_KL(μ; 1/2)` (as [`Self::ctb_tt`]).
    pub ctb_tt_ids: UpperBound,
    /// AdaP-TT (Thm. 22, L. 52): `4 T^G_β (1 + sqrt(1 + Δ_max²/(2σ⁴ε²)))`.
    pub adap_tt: UpperBound,
    /// AdaP-TT* (Thm. 24), three readings.
    pub adap_tt_star: AdaPTTStar,
}

/// The reason CTB-TT's bound is refused for Gaussian arms.
const CTB_GAUSSIAN: &str = "CTB-TT is defined for rewards in [0, 1] (randomised response, \
                            Alg. 4, L. 12): the paper gives no bound for Gaussian arms";

/// DPA / BBAI (App. H): `2 T^G_β` (non-private; no ε).
///
/// # Definition
/// `2·T^G_{KL,β}(μ; σ)` per unit of `log(1/δ)` with the instance's `σ` (`1/2` for Bernoulli
/// arms), with the caveat of [`assumption_note`]. Non-private: its lower bound is L. 5's `T_KL`.
/// # Reference
/// App. H (via App. G for `σ`-sub-Gaussian arms); READINGS.md §E.4.
/// # Domain
/// Any valid [`Instance`]; `β ∈ (0, 1)`.
/// # Accuracy
/// Inherits the 1e-9 certificate of `T^G_{KL,β}` (golden file `tests/data/bounds_golden.toml`,
/// kind `ub_dpa`, `GOLDEN_TOL` 1e-8 of `tests/complexity.rs`); checked against the closed form
/// `2·2H` for equal gaps in its doc test.
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.75, 0.7, 0.7, 0.7, 0.7]).unwrap();
/// let b = dpbai::complexity::upper::dpa(&nu, 0.5).unwrap();
/// assert!((b.value - 4000.0).abs() < 1e-6); // 2 T^G_{1/2} = 2 * 2000 (μ2)
/// assert!(b.note.is_some()); // tied sub-optimal means
/// // Gaussian arms, σ = 1: 2·2σ²(1/β + 1/ω)/Δ² = 2·8/(1/4) = 64
/// let g = dpbai::instance::Instance::gaussian(vec![1.0, 0.5], 1.0).unwrap();
/// assert!((dpbai::complexity::upper::dpa(&g, 0.5).unwrap().value - 64.0).abs() < 1e-6);
/// ```
/// # Errors
/// Bad `β`; solver errors.
pub fn dpa(nu: &Instance, beta: f64) -> Result<UpperBound> {
    check_open("beta", beta, 0.0, 1.0)?;
    Ok(UpperBound {
        value: 2.0 * t_kl_gaussian_beta(nu, nu.sigma(), beta)?.value,
        note: join_notes(
            assumption_note(nu),
            gaussian(nu).then(|| {
                format!(
                    "Gaussian arms: App. H's bound through App. G (sigma-sub-Gaussian arms) with \
                     the arms' sigma = {}",
                    nu.sigma()
                )
            }),
        ),
        model: PrivacyModel::NonPrivate,
        lower_time: LowerTime::Kl,
        regime: ASYMPTOTIC,
        refused: None,
    })
}

fn gaussian(nu: &Instance) -> bool {
    nu.family() != Family::Bernoulli
}

fn join_notes(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    }
}

/// The caveat of E.4 / R.31 for an instance, `None` when the theorems' assumptions on the
/// means hold (distinct means; Bernoulli means in `(0, 1)`).
pub fn assumption_note(nu: &Instance) -> Option<String> {
    let mut notes = Vec::new();
    if !nu.has_distinct_means() {
        notes.push("tied means: Sec. 3.2, Thm. 22 and Thm. 24 assume distinct means");
    }
    if !nu.is_interior() {
        notes.push("boundary means 0 or 1: the theorems assume mu in (0,1)^K (Sec. 2.2.1)");
    }
    if notes.is_empty() {
        None
    } else {
        Some(notes.join("; "))
    }
}

/// The caveat of AdaP-TT and AdaP-TT* on Gaussian arms.
fn adap_gaussian_note(nu: &Instance) -> Option<String> {
    gaussian(nu).then(|| {
        format!(
            "Gaussian arms: App. G's L. 52 (sigma-sub-Gaussian arms) with the arms' sigma = {}; \
             the eps-global DP of Thm. 22/24 needs rewards in [0, 1] (DAF's Laplace noise is \
             calibrated to that range), so here the algorithm is delta-correct but not eps-DP \
             and its lower bound is L. 5's T_KL",
            nu.sigma()
        )
    })
}

/// Every ε-dependent upper bound of E.4 (per unit of `log(1/δ)`).
///
/// # Definition
/// See the fields of [`UpperBounds`] and [`AdaPTTStar`], with the instance's `σ` (module docs).
/// # Reference
/// Sec. 3.2 (CTB-TT), Thm. 22, Thm. 24, L. 52 and its proof (App. G.5; READINGS.md R.19, §C.7).
/// # Domain
/// `ε > 0`, `β ∈ (0, 1)`. CTB-TT's two bounds are refused (`+∞` with
/// [`UpperBound::refused`]) for Gaussian arms.
/// # Accuracy
/// Inherits the 1e-9 certificates of the times and the accuracy of `g1`, `g2` (golden file
/// `tests/data/bounds_golden.toml`, kinds `ub_*`, `GOLDEN_TOL` 1e-8 of `tests/complexity.rs`).
/// # Errors
/// Bad `ε`/`β`; solver or special-function errors.
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.75, 0.625, 0.5, 0.375, 0.25]).unwrap();
/// let u = dpbai::complexity::upper::upper_bounds(&nu, 1.0, 0.5).unwrap();
/// assert!((u.adap_tt.value - 1578.9).abs() < 0.1);        // READINGS.md §E.4 (μ4, ε = 1)
/// assert!((u.adap_tt_star.thm24_main - 85794.0).abs() < 1.0);
/// ```
pub fn upper_bounds(nu: &Instance, eps: f64, beta: f64) -> Result<UpperBounds> {
    check_open("beta", beta, 0.0, 1.0)?;
    let tg_beta = t_kl_gaussian_beta(nu, nu.sigma(), beta)?.value;
    let tg = t_kl_gaussian(nu, nu.sigma())?.value;
    upper_bounds_from(nu, eps, beta, tg_beta, tg)
}

/// [`upper_bounds`] with the ε-free times precomputed (for ε curves): `tg_beta` =
/// `T^G_{KL,β}(μ; σ)`, `tg` = `T^G_KL(μ; σ)`, `σ` the instance's (`1/2` for Bernoulli arms).
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
    let sigma = nu.sigma();
    let sigma2 = sigma * sigma;
    let note = assumption_note(nu);
    let adap_note = join_notes(note.clone(), adap_gaussian_note(nu));
    // the private guarantee holds for rewards in [0, 1] only (module docs)
    let (local_time, global_time) = if gaussian(nu) {
        (LowerTime::Kl, LowerTime::Kl)
    } else {
        (LowerTime::Local, LowerTime::Global)
    };
    let tge_beta = t_kl_beta_g_eps(nu, eps, beta)?.value;
    let coth2 = 1.0 / (0.5 * eps).tanh().powi(2);
    let dmax = nu.delta_max();
    let (switch_eps_main, switch_eps_lemma52) = adap_tt_star_switches(nu);
    let mb = beta.max(1.0 - beta);

    let adap =
        4.0 * tg_beta * (1.0 + (1.0 + dmax * dmax / (2.0 * sigma2 * sigma2 * eps * eps)).sqrt());

    // Thm. 24, main text
    let first = 4.0 * tg_beta * g1(dmax / (sigma2 * eps))?;
    let y_main = eps * eps * tge_beta * mb / 4.0;
    let main_branch = if dmax < 0.5 * eps {
        Thm24Branch::G1
    } else {
        Thm24Branch::G2
    };
    let main = match main_branch {
        Thm24Branch::G1 => first,
        Thm24Branch::G2 => 2.0 * tge_beta * g2(y_main)? / sigma2,
    };
    // L. 52 (appendix)
    let (lemma, lemma_branch) = if dmax < 3.0 * eps {
        (first, Thm24Branch::G1)
    } else {
        (
            12.0 * tge_beta * g2(3.0 * eps * eps * tge_beta * mb / 2.0)? / sigma2,
            Thm24Branch::G2,
        )
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
    let proof_branch = if d2 > d1 {
        Thm24Branch::G2
    } else {
        Thm24Branch::G1
    };

    let ctb = |value: f64| -> UpperBound {
        let refused = gaussian(nu).then(|| CTB_GAUSSIAN.to_string());
        UpperBound {
            value: if refused.is_some() {
                f64::INFINITY
            } else {
                value
            },
            note: note.clone(),
            model: PrivacyModel::Local,
            lower_time: local_time,
            regime: ASYMPTOTIC,
            refused,
        }
    };
    Ok(UpperBounds {
        ctb_tt: ctb(coth2 * tg_beta),
        ctb_tt_ids: ctb(coth2 * tg),
        adap_tt: UpperBound {
            value: adap,
            note: adap_note.clone(),
            model: PrivacyModel::Global,
            lower_time: global_time,
            regime: ASYMPTOTIC,
            refused: None,
        },
        adap_tt_star: AdaPTTStar {
            thm24_main: main,
            lemma52_app: lemma,
            proof_max: proof,
            note: adap_note,
            model: PrivacyModel::Global,
            lower_time: global_time,
            regime: ASYMPTOTIC,
            thm24_main_branch: main_branch,
            lemma52_app_branch: lemma_branch,
            proof_max_branch: proof_branch,
            switch_eps_main,
            switch_eps_lemma52,
        },
    })
}

/// Where AdaP-TT*'s upper bound changes branch and jumps (the figures mark them).
///
/// # Definition
/// `(2Δ_max, Δ_max/3)`: the main text and the proof of Thm. 24 take the `g1` branch iff
/// `Δ_max < ε/2`, L. 52 iff `Δ_max < 3ε` ([`AdaPTTStar::switch_eps_main`],
/// [`AdaPTTStar::switch_eps_lemma52`]).
/// # Reference
/// Thm. 24, App. G L. 52; READINGS.md §E.4.
/// # Domain
/// Any valid [`Instance`].
/// # Accuracy
/// Exact up to one rounding of `Δ_max/3` (closed form); checked by its doc test.
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let (main, l52) = dpbai::complexity::upper::adap_tt_star_switches(&nu);
/// assert!((main - 0.9).abs() < 1e-12 && (l52 - 0.15).abs() < 1e-12);
/// ```
pub fn adap_tt_star_switches(nu: &Instance) -> (f64, f64) {
    let dmax = nu.delta_max();
    (2.0 * dmax, dmax / 3.0)
}

/// DP-TT's readings in its upper bound: `η` (geometric phases, `η = 1` doubles) and the leader
/// weight `β` (\[BAI25\] poster, defaults `(1, 1/2)`).
pub const DP_TT_ETA: f64 = 1.0;

/// The reason DP-TT's bound is refused for Gaussian arms.
const DP_TT_GAUSSIAN: &str = "DP-TT is defined for rewards in [0, 1] (its Laplace noise and \
                              T*_eps assume Bernoulli arms, [BAI25]): no bound for Gaussian arms";

/// The caveat of DP-TT's bound: \[BAI25\] states it for distinct means in `(0, 1)`.
fn dp_tt_note(nu: &Instance) -> Option<String> {
    let mut notes = Vec::new();
    if !nu.has_distinct_means() {
        notes.push("tied means: [BAI25]'s DP-TT bound assumes distinct means");
    }
    if !nu.is_interior() {
        notes.push("boundary means 0 or 1: [BAI25]'s DP-TT bound assumes means in (0, 1)");
    }
    (!notes.is_empty()).then(|| notes.join("; "))
}

/// DP-TT's two asymptotic upper bounds (\[BAI25\] poster), per unit of `log(1/δ)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DpTtBounds {
    /// `2(1 + η)·T*_{ε,β}(μ)` at the given `(η, β)`.
    pub dp_tt: UpperBound,
    /// `8·T*_ε(μ)`, the bound `2(1 + η)·T*_{ε,1/2} <= 8·T*_ε` at `(η, β) = (1, 1/2)` (it uses
    /// `T*_{ε,1/2} <= 2·T*_ε`).
    pub dp_tt_8t_eps: UpperBound,
}

/// DP-TT's asymptotic upper bounds `2(1 + η)·T*_{ε,β}` and `8·T*_ε`.
///
/// # Definition
/// ```text
/// limsup_{δ→0} E[τ]/log(1/δ) <= 2(1 + η)·T*_{ε,β}(μ) <= 8·T*_ε(μ)   at (η, β) = (1, 1/2)
/// ```
/// for distinct means in `(0, 1)` and every `ε` (a `note` says when the means are tied or at
/// the boundary). Its lower bound is \[BAI25\]'s `T*_ε·log(1/(3δ))` (`lower_time` = `t_eps`).
/// # Reference
/// \[BAI25\] poster (DP-TT's upper bound); `T*_{ε,1/2} <= 2 T*_ε` is the usual Top Two argument.
/// # Domain
/// Bernoulli instances; `ε > 0` finite, `β ∈ (0, 1)`, `η > 0` finite. Refused (`+∞` with
/// [`UpperBound::refused`]) for Gaussian arms.
/// # Accuracy
/// Inherits the 1e-9 certificates of `T*_ε` and `T*_{ε,β}` (golden file
/// `tests/data/t_eps_golden.toml`, `T_EPS_TOL` of `tests/complexity.rs`).
/// # Errors
/// Bad `ε`, `β` or `η`; solver errors.
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.9, 0.6, 0.4]).unwrap();
/// let b = dpbai::complexity::upper::dp_tt(&nu, 0.5, 0.5, 1.0).unwrap();
/// let t = dpbai::complexity::t_eps(&nu, 0.5).unwrap().value;
/// assert!(b.dp_tt.value <= b.dp_tt_8t_eps.value && (b.dp_tt_8t_eps.value / t - 8.0).abs() < 1e-12);
/// assert!(b.dp_tt.note.is_none()); // distinct means in (0, 1)
/// ```
pub fn dp_tt(nu: &Instance, eps: f64, beta: f64, eta: f64) -> Result<DpTtBounds> {
    check_above("eps", eps, 0.0)?;
    check_open("beta", beta, 0.0, 1.0)?;
    check_above("eta", eta, 0.0)?;
    let bound = |value: f64| -> UpperBound {
        let refused = gaussian(nu).then(|| DP_TT_GAUSSIAN.to_string());
        UpperBound {
            value: if refused.is_some() {
                f64::INFINITY
            } else {
                value
            },
            note: dp_tt_note(nu),
            model: PrivacyModel::Global,
            lower_time: LowerTime::Eps,
            regime: ASYMPTOTIC,
            refused,
        }
    };
    if gaussian(nu) {
        return Ok(DpTtBounds {
            dp_tt: bound(f64::INFINITY),
            dp_tt_8t_eps: bound(f64::INFINITY),
        });
    }
    Ok(DpTtBounds {
        dp_tt: bound(2.0 * (1.0 + eta) * t_eps_beta(nu, eps, beta)?.value),
        dp_tt_8t_eps: bound(8.0 * t_eps(nu, eps)?.value),
    })
}
