//! What a dominance proof is asked ([`DominanceConfig`]), what it assumes ([`Assumptions`]), the
//! lemma and algorithms of each provable preset, and the validation of a proof's settings.

use super::domain::Domain;
use crate::error::{Error, Result};
use crate::threshold::expr::{PRESETS, ThresholdExpr, preset};
use serde::{Deserialize, Serialize};

/// Largest box budget of one proof (memory below 1 GB: module docs).
pub const MAX_BOXES: u64 = 2_000_000;
/// Default box budget.
pub const DEFAULT_BOXES: u64 = 500_000;

/// Reward family of the runs a proof is about (recorded, with the rewards' `σ`, so that the
/// algorithms' run domains can be derived again from a certificate).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProofFamily {
    /// Rewards in `[0, 1]` (sub-Gaussian scale `σ = 1/2`).
    Bernoulli,
    /// Gaussian rewards of standard deviation `σ`.
    Gaussian,
}

/// What the runs of an algorithm evaluate its stopping threshold on, besides `δ`, `K`, the
/// counts and the phase indices: the data a proof by dominance covers. An algorithm declares
/// it (`crate::bandit::info::AlgoInfo::run_domain`); the prover takes it as given.
///
/// # Definition
/// `ε ∈ [eps[0], eps[1]]` (`None` = `+∞`: `[None, None]` is a non-private algorithm, whose
/// runs pass `ε = +∞`), `σ ∈ [sigma[0], sigma[1]]` (the `σ` the rule reads), `gap ∈ [0,
/// gap_max]` (`None`: unbounded), and `t`, the counts `≤ max_steps` (the runs' cap).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunDomain {
    /// Range of `ε` (`None` = `+∞`).
    pub eps: [Option<f64>; 2],
    /// Range of the `σ` the rule reads.
    pub sigma: [f64; 2],
    /// Largest `gap` (`None`: unbounded).
    pub gap_max: Option<f64>,
    /// The runs' step cap: `t` and the counts are at most this.
    pub max_steps: u64,
}

impl RunDomain {
    /// `ε = +∞` only (non-private), `σ = 1/2`, `gap ∈ [0, 1]`, `t <= max_steps`: the domain of
    /// a non-private algorithm on Bernoulli rewards.
    pub fn bernoulli_non_private(max_steps: u64) -> Self {
        RunDomain {
            eps: [None, None],
            sigma: [0.5, 0.5],
            gap_max: Some(1.0),
            max_steps,
        }
    }

    /// The range of `ε` as numbers (`+∞` for `None`).
    pub fn eps_range(&self) -> [f64; 2] {
        self.eps.map(|e| e.unwrap_or(f64::INFINITY))
    }

    /// Largest `gap` as a number (`+∞` when unbounded).
    pub fn gap_upper(&self) -> f64 {
        self.gap_max.unwrap_or(f64::INFINITY)
    }

    /// The smallest domain holding both (each range's hull, the larger cap).
    pub fn hull(&self, o: &RunDomain) -> RunDomain {
        let (a, b) = (self.eps_range(), o.eps_range());
        let fin = |x: f64| x.is_finite().then_some(x);
        RunDomain {
            eps: [fin(a[0].min(b[0])), fin(a[1].max(b[1]))],
            sigma: [self.sigma[0].min(o.sigma[0]), self.sigma[1].max(o.sigma[1])],
            gap_max: fin(self.gap_upper().max(o.gap_upper())),
            max_steps: self.max_steps.max(o.max_steps),
        }
    }

    /// Whether every point of `inner` is a point of `self`; else the first variable whose
    /// range `inner` leaves, with both ranges.
    pub fn covers(&self, inner: &RunDomain) -> std::result::Result<(), String> {
        let show = |r: [f64; 2]| format!("[{}, {}]", r[0], r[1]);
        let (o, i) = (self.eps_range(), inner.eps_range());
        if !(o[0] <= i[0] && i[1] <= o[1]) {
            return Err(format!(
                "eps: the runs use {}, the proof covers {}",
                show(i),
                show(o)
            ));
        }
        if !(self.sigma[0] <= inner.sigma[0] && inner.sigma[1] <= self.sigma[1]) {
            return Err(format!(
                "sigma: the runs use {}, the proof covers {}",
                show(inner.sigma),
                show(self.sigma)
            ));
        }
        if inner.gap_upper() > self.gap_upper() {
            return Err(format!(
                "gap: the runs reach [0, {}], the proof covers [0, {}]",
                inner.gap_upper(),
                self.gap_upper()
            ));
        }
        if inner.max_steps > self.max_steps {
            return Err(format!(
                "t: the runs go up to {}, the proof covers t <= {}",
                inner.max_steps, self.max_steps
            ));
        }
        Ok(())
    }
}

/// The run parameters a domain is derived from, as a certificate records them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunParameters {
    /// Reward family.
    pub family: ProofFamily,
    /// `σ` of the rewards (`1/2` for Bernoulli).
    pub arm_sigma: f64,
    /// `ε` the runs are given (`None`: not given; every admissible `ε` of a private algorithm).
    pub eps: Option<f64>,
    /// `γ` of approximate DP (`None`: not given; every admissible `γ`).
    pub gamma: Option<f64>,
    /// The runs' step cap.
    pub max_steps: u64,
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
    /// The domain of `ε`, `σ`, `gap` and `t` (data: what the algorithms' runs evaluate).
    pub domain: RunDomain,
    /// The parameters `domain` was derived from (recorded in the certificate).
    pub parameters: RunParameters,
    /// The algorithms whose runs `domain` covers (recorded; the caller derives them).
    pub algorithms: Vec<String>,
    /// Boxes processed at most (both passes together; at most [`MAX_BOXES`]).
    pub max_boxes: u64,
    /// Seconds at most (`+∞`: none; a finite value makes the answer machine-dependent).
    pub max_seconds: f64,
}

impl DominanceConfig {
    /// One `δ`, one `K`, the domain [`RunDomain::bernoulli_non_private`], no algorithm named,
    /// [`DEFAULT_BOXES`] boxes, no time limit.
    pub fn new(delta: f64, k: usize, max_steps: u64) -> Self {
        DominanceConfig {
            delta,
            delta_min: delta,
            k,
            k_max: k,
            domain: RunDomain::bernoulli_non_private(max_steps),
            parameters: RunParameters {
                family: ProofFamily::Bernoulli,
                arm_sigma: 0.5,
                eps: None,
                gamma: None,
                max_steps,
            },
            algorithms: Vec::new(),
            max_boxes: DEFAULT_BOXES,
            max_seconds: f64::INFINITY,
        }
    }

    pub(super) fn domain(&self) -> Domain {
        Domain {
            delta: [self.delta_min, self.delta],
            k: [self.k, self.k_max],
            eps: self.domain.eps_range(),
            sigma: self.domain.sigma,
            max_steps: self.domain.max_steps,
            gap_max: self.domain.gap_upper(),
        }
    }
}

/// What a proof assumes (module docs), as recorded in its certificate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Assumptions {
    /// Algorithms whose runs the domain covers (those the caller proved for).
    pub algorithms: Vec<String>,
    /// Rule set: always `paper` (the lemma's statistic `W^G`).
    pub rules: String,
    /// The run parameters the domain was derived from.
    pub parameters: RunParameters,
    /// The domain of `ε`, `σ`, `gap` and `t`.
    pub domain: RunDomain,
    /// `[K_min, K_max]`.
    pub k: [usize; 2],
    /// `[δ_min, δ_max]`.
    pub delta: [f64; 2],
    /// Range of the counts `na`, `nb`: `[1, M]`, `M` the domain's cap.
    pub counts: [f64; 2],
    /// Range of `t`: `[2, M]`, with `t >= na + nb + K − 2`.
    pub t: [f64; 2],
    /// Range of the phase indices `ka`, `kb`: `[1, ⌊log2 M⌋ + 2]`.
    pub phases: [f64; 2],
}

impl Assumptions {
    pub(super) fn of(cfg: &DominanceConfig) -> Self {
        let d = cfg.domain();
        let m = cfg.domain.max_steps as f64;
        Assumptions {
            algorithms: cfg.algorithms.clone(),
            rules: "paper".into(),
            parameters: cfg.parameters,
            domain: cfg.domain,
            k: [cfg.k, cfg.k_max],
            delta: [cfg.delta_min, cfg.delta],
            counts: [1.0, m],
            t: [2.0, m],
            phases: [1.0, d.kmax()],
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
            domain: self.domain,
            parameters: self.parameters,
            algorithms: self.algorithms.clone(),
            max_boxes: 1,
            max_seconds: f64::INFINITY,
        }
    }
}

/// The lemma a provable preset carries ([`crate::threshold::expr::Preset::proof`]; `None` for the
/// empirical and unsafe ones).
pub fn lemma_of(name: &str) -> Option<String> {
    PRESETS
        .iter()
        .find(|p| p.name == name)?
        .proof
        .map(str::to_string)
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
    let dom = &cfg.domain;
    if !(2..=crate::params::limits::MAX_STEPS).contains(&dom.max_steps) {
        return Err(Error::param(
            "max-steps",
            dom.max_steps,
            format!("in [2, {}]", crate::params::limits::MAX_STEPS),
        ));
    }
    let [s0, s1] = dom.sigma;
    if !(s0 > 0.0 && s0 <= s1 && s1.is_finite()) {
        return Err(Error::param(
            "sigma",
            format!("[{s0}, {s1}]"),
            "a range 0 < lo <= hi < inf (the sigma the rule reads)",
        ));
    }
    if cfg.k_max as u64 > dom.max_steps {
        return Err(Error::param(
            "K max",
            cfg.k_max,
            format!(
                "at most max-steps = {} (every arm is pulled once)",
                dom.max_steps
            ),
        ));
    }
    let [e0, e1] = dom.eps_range();
    if e0.is_nan() || e1.is_nan() || e0 > e1 {
        return Err(Error::param(
            "eps",
            format!("[{e0}, {e1}]"),
            "a range lo <= hi",
        ));
    }
    for e in [e0, e1] {
        if e.is_finite() {
            crate::params::check_algo_eps(e)?;
        }
    }
    if dom.gap_max.is_some_and(|g| !(g >= 0.0 && g.is_finite())) {
        return Err(Error::param(
            "gap max",
            dom.gap_upper(),
            "a finite number >= 0, or none (unbounded)",
        ));
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
    if pexpr.uses("eps") && e1 == f64::INFINITY {
        return Err(Error::param(
            "eps",
            if e0 == f64::INFINITY {
                "absent".to_string()
            } else {
                format!("[{e0}, inf]")
            },
            format!(
                "a finite value (--eps): {preset_name} reads eps, and a proof at eps = inf says nothing about a private run"
            ),
        ));
    }
    Ok((pexpr, lemma))
}
