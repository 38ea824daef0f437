//! What a dominance proof is asked ([`DominanceConfig`]), what it assumes ([`Assumptions`]), the
//! lemma and algorithms of each provable preset, and the validation of a proof's settings.

use super::domain::Domain;
use crate::audit::expr::{preset, ThresholdExpr, PRESETS};
use crate::bandit::AlgoName;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// Largest box budget of one proof (memory below 1 GB: module docs).
pub const MAX_BOXES: u64 = 2_000_000;
/// Default box budget.
pub const DEFAULT_BOXES: u64 = 500_000;

/// Reward family of a proof: fixes `σ` and the range of `gap`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProofFamily {
    /// Rewards in `[0, 1]`: `σ = 1/2`, `gap ∈ [0, 1]`.
    Bernoulli,
    /// Gaussian rewards of standard deviation `σ`: `gap ∈ [0, ∞)`.
    Gaussian,
}

/// Settings of a dominance proof.
#[derive(Debug, Clone, PartialEq)]
pub struct DominanceConfig {
    /// Largest risk `δ_max`.
    pub delta: f64,
    /// Smallest risk `δ_min` (`= delta` for one `δ`).
    pub delta_min: f64,
    /// Smallest number of arms `K_min`.
    pub k: usize,
    /// Largest number of arms `K_max` (`= k` for one `K`).
    pub k_max: usize,
    /// `ε` (`+∞` for non-private presets without a given `ε`).
    pub eps: f64,
    /// Reward family.
    pub family: ProofFamily,
    /// `σ` of the rule (`1/2` for Bernoulli arms).
    pub sigma: f64,
    /// Step cap `M`: counts and `t` range up to it.
    pub max_steps: u64,
    /// The algorithm the proof is for (`None`: every algorithm of the preset's lemma).
    pub algo: Option<AlgoName>,
    /// Boxes processed at most (both passes together; at most [`MAX_BOXES`]).
    pub max_boxes: u64,
    /// Seconds at most (`+∞`: none; a finite value makes the answer machine-dependent).
    pub max_seconds: f64,
}

impl DominanceConfig {
    /// One `δ`, one `K`, Bernoulli arms (`σ = 1/2`), `ε = +∞`, [`DEFAULT_BOXES`] boxes, no time
    /// limit.
    pub fn new(delta: f64, k: usize, max_steps: u64) -> Self {
        DominanceConfig {
            delta,
            delta_min: delta,
            k,
            k_max: k,
            eps: f64::INFINITY,
            family: ProofFamily::Bernoulli,
            sigma: 0.5,
            max_steps,
            algo: None,
            max_boxes: DEFAULT_BOXES,
            max_seconds: f64::INFINITY,
        }
    }

    pub(super) fn domain(&self) -> Domain {
        Domain {
            delta: [self.delta_min, self.delta],
            k: [self.k, self.k_max],
            eps: self.eps,
            sigma: self.sigma,
            max_steps: self.max_steps,
            gap_max: match self.family {
                ProofFamily::Bernoulli => 1.0,
                ProofFamily::Gaussian => f64::INFINITY,
            },
        }
    }
}

/// What a proof assumes (module docs), as recorded in its certificate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Assumptions {
    /// Algorithms whose δ-correctness the proof transfers (those of the preset's lemma).
    pub algorithms: Vec<String>,
    /// Rule set: always `paper` (the lemma's statistic `W^G`).
    pub rules: String,
    /// Reward family.
    pub family: ProofFamily,
    /// `σ` of the rule.
    pub sigma: f64,
    /// `ε` (`None`: `+∞`, a non-private proof).
    pub eps: Option<f64>,
    /// `[K_min, K_max]`.
    pub k: [usize; 2],
    /// `[δ_min, δ_max]`.
    pub delta: [f64; 2],
    /// Step cap `M`.
    pub max_steps: u64,
    /// Range of the counts `na`, `nb`: `[1, M]`.
    pub counts: [f64; 2],
    /// Range of `t`: `[2, M]`, with `t >= na + nb + K − 2`.
    pub t: [f64; 2],
    /// Range of the phase indices `ka`, `kb`: `[1, ⌊log2 M⌋ + 2]`.
    pub phases: [f64; 2],
    /// Range of `gap`: `[0, 1]`, or `[0, ∞)` (`None` upper end) for Gaussian arms.
    pub gap: [Option<f64>; 2],
}

impl Assumptions {
    pub(super) fn of(cfg: &DominanceConfig, algorithms: Vec<String>) -> Self {
        let d = cfg.domain();
        Assumptions {
            algorithms,
            rules: "paper".into(),
            family: cfg.family,
            sigma: cfg.sigma,
            eps: cfg.eps.is_finite().then_some(cfg.eps),
            k: [cfg.k, cfg.k_max],
            delta: [cfg.delta_min, cfg.delta],
            max_steps: cfg.max_steps,
            counts: [1.0, cfg.max_steps as f64],
            t: [2.0, cfg.max_steps as f64],
            phases: [1.0, d.kmax()],
            gap: [Some(0.0), d.gap_max.is_finite().then_some(d.gap_max)],
        }
    }

    /// The configuration these assumptions describe (the inverse of `of`; the checker's
    /// starting point).
    pub(super) fn config(&self) -> DominanceConfig {
        DominanceConfig {
            delta: self.delta[1],
            delta_min: self.delta[0],
            k: self.k[0],
            k_max: self.k[1],
            eps: self.eps.unwrap_or(f64::INFINITY),
            family: self.family,
            sigma: self.sigma,
            max_steps: self.max_steps,
            algo: None,
            max_boxes: 1,
            max_seconds: f64::INFINITY,
        }
    }
}

/// The lemma a provable preset carries ([`crate::audit::expr::Preset::proof`]; `None` for the
/// empirical and unsafe ones).
pub fn lemma_of(name: &str) -> Option<String> {
    PRESETS
        .iter()
        .find(|p| p.name == name)?
        .proof
        .map(str::to_string)
}

/// The algorithms whose δ-correctness the lemma of a provable preset gives (with that preset as
/// their stopping threshold); empty for other names.
///
/// # Example
/// ```
/// use dpbai::audit::dominance::algorithms_of;
/// use dpbai::bandit::AlgoName;
/// assert!(algorithms_of("paper-cg").contains(&AlgoName::CtbTt));
/// assert!(algorithms_of("unsafe-log-over-20").is_empty());
/// ```
pub fn algorithms_of(name: &str) -> Vec<AlgoName> {
    crate::bandit::info::AlgoInfo::of_preset(name)
}

/// Checks the settings of a proof; returns the preset's expression and lemma.
pub(super) fn validate(
    preset_name: &str,
    cfg: &DominanceConfig,
) -> Result<(ThresholdExpr, String)> {
    let lemma = lemma_of(preset_name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS
            .iter()
            .filter(|p| p.provable())
            .map(|p| p.name)
            .collect();
        Error::param(
            "dominates",
            preset_name,
            format!("a provable preset: {}", names.join(", ")),
        )
    })?;
    crate::params::check_delta("delta", cfg.delta)?;
    crate::params::check_delta("delta-min", cfg.delta_min)?;
    if cfg.delta_min > cfg.delta {
        return Err(Error::param(
            "delta-min",
            cfg.delta_min,
            format!("at most delta = {}", cfg.delta),
        ));
    }
    if cfg.k < 2 || cfg.k > crate::params::limits::MAX_ARMS {
        return Err(Error::param(
            "K",
            cfg.k,
            format!("an integer in [2, {}]", crate::params::limits::MAX_ARMS),
        ));
    }
    if cfg.k_max < cfg.k || cfg.k_max > crate::params::limits::MAX_ARMS {
        return Err(Error::param(
            "K max",
            cfg.k_max,
            format!(
                "an integer in [{}, {}]",
                cfg.k,
                crate::params::limits::MAX_ARMS
            ),
        ));
    }
    if !(2..=crate::params::limits::MAX_STEPS).contains(&cfg.max_steps) {
        return Err(Error::param(
            "max-steps",
            cfg.max_steps,
            format!("in [2, {}]", crate::params::limits::MAX_STEPS),
        ));
    }
    let (slo, shi) = crate::params::SIGMA_RANGE;
    if !(slo..=shi).contains(&cfg.sigma) {
        return Err(Error::param(
            "sigma",
            cfg.sigma,
            format!("in [{slo:e}, {shi:e}]"),
        ));
    }
    if cfg.k_max as u64 > cfg.max_steps {
        return Err(Error::param(
            "K max",
            cfg.k_max,
            format!(
                "at most max-steps = {} (every arm is pulled once)",
                cfg.max_steps
            ),
        ));
    }
    if cfg.family == ProofFamily::Bernoulli && cfg.sigma != 0.5 {
        return Err(Error::param(
            "sigma",
            cfg.sigma,
            "1/2 for Bernoulli arms (the paper rules' constant); other values need the Gaussian family",
        ));
    }
    if cfg.eps != f64::INFINITY {
        crate::params::check_algo_eps(cfg.eps)?;
    }
    if !(1..=MAX_BOXES).contains(&cfg.max_boxes) {
        return Err(Error::param(
            "dominance-boxes",
            cfg.max_boxes,
            format!("in [1, {MAX_BOXES}] (memory: about 250 bytes per box)"),
        ));
    }
    if cfg.max_seconds.is_nan() || cfg.max_seconds <= 0.0 {
        return Err(Error::param(
            "dominance-seconds",
            cfg.max_seconds,
            "a number > 0 (or none)",
        ));
    }
    let pexpr =
        ThresholdExpr::parse(&preset(preset_name).expect("invariant: provable presets exist"))?;
    if pexpr.uses("eps") && !cfg.eps.is_finite() {
        return Err(Error::param(
            "eps",
            "absent",
            format!("a value (--eps): {preset_name} reads eps, and a proof at eps = inf says nothing about a private run"),
        ));
    }
    if let Some(a) = cfg.algo {
        if !algorithms_of(preset_name).contains(&a) {
            return Err(Error::param(
                "algo",
                a.as_str(),
                format!(
                    "one of the algorithms of {preset_name}'s lemma: {}",
                    names(&algorithms_of(preset_name)).join(", ")
                ),
            ));
        }
    }
    Ok((pexpr, lemma))
}

pub(super) fn names(a: &[AlgoName]) -> Vec<String> {
    a.iter().map(|x| x.as_str().to_string()).collect()
}
