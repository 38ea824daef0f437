//! `audit delta --dominates PRESET` bound to what runs: the proof by dominance of
//! [`crate::threshold::dominance`] over the domain the algorithms of the preset's lemma evaluate
//! their threshold on at run time, as each declares it ([`AlgoInfo::run_domain`]), and the
//! check of a certificate against those declarations.
//!
//! # What is proven
//! For the algorithms `A` of the preset's lemma (or the one named), the domain is the hull of
//! their run domains at the given parameters: `ε = +∞` for a non-private algorithm and the
//! given `ε` (every admissible one when none is given) for a private one, the `σ` each rule
//! reads (the Gaussian mechanism's combined `σ` for gauss-ldp-tt), `gap` up to 1 for averages of
//! rewards in `[0, 1]` and unbounded for noisy estimates or Gaussian rewards, and `t` up to the
//! runs' cap. A proof over the hull holds on each algorithm's domain. `ε` given to algorithms that
//! are all non-private is refused (their runs use `ε = +∞`, as `dpbai run` refuses `--eps`);
//! an expression that reads `ε` (or `σ`, for a rule whose `σ` depends on `ε` and `γ`) needs them
//! given.
//!
//! # What the checker adds
//! [`check_certificate`] re-verifies the arithmetic ([`crate::threshold::dominance::check_certificate`])
//! and then that every algorithm it names is one of the preset's lemma and that its run domain
//! at the recorded parameters lies inside the recorded domain: a certificate whose domain is
//! narrower than an algorithm's (a TTUCB certificate at `ε = 1`, a gap range that stops at 1
//! for AdaP-TT, a cap below the recorded runs' cap) is rejected.

use crate::bandit::AlgoName;
use crate::bandit::info::AlgoInfo;
use crate::error::{Error, Result};
use crate::threshold::dominance::Certificate;
use crate::threshold::dominance::{
    self, CheckReport, DominanceConfig, DominanceReport, RunDomain, RunParameters, lemma_of,
};
use crate::threshold::expr::{ThresholdExpr, preset};

/// The settings of `audit delta --dominates`.
#[derive(Debug, Clone, PartialEq)]
pub struct ProofRequest {
    /// Largest risk `δ_max`.
    pub delta: f64,
    /// Smallest risk `δ_min`.
    pub delta_min: f64,
    /// Smallest number of arms.
    pub k: usize,
    /// Largest number of arms.
    pub k_max: usize,
    /// The algorithm the proof is for (`None`: every algorithm of the preset's lemma).
    pub algo: Option<AlgoName>,
    /// The runs' parameters (family, rewards' `σ`, `ε`, `γ`, step cap).
    pub parameters: RunParameters,
    /// Box budget.
    pub max_boxes: u64,
    /// Time budget in seconds (`+∞`: none).
    pub max_seconds: f64,
}

/// The algorithms whose δ-correctness the lemma of a provable preset gives (with that preset as
/// their stopping threshold); empty for other names.
///
/// # Example
/// ```
/// use dpbai::audit::proof::algorithms_of;
/// use dpbai::bandit::AlgoName;
/// assert!(algorithms_of("paper-cg").contains(&AlgoName::CtbTt));
/// assert!(algorithms_of("unsafe-log-over-20").is_empty());
/// ```
pub fn algorithms_of(name: &str) -> Vec<AlgoName> {
    AlgoInfo::of_preset(name)
}

/// The hull of the run domains of `algos` at `p` (module docs).
///
/// # Errors
/// [`Error::InvalidParameter`] for `ε` given when every algorithm is non-private, or a
/// parameter out of range ([`AlgoInfo::run_domain`]).
pub fn domain_of(algos: &[AlgoName], p: &RunParameters) -> Result<RunDomain> {
    let all_public = algos.iter().all(|a| !a.needs_eps());
    let mut hull: Option<RunDomain> = None;
    for a in algos {
        let mut q = *p;
        if !a.needs_eps() && !all_public {
            // Its runs use ε = +∞ whatever ε the private ones are given.
            q.eps = None;
        }
        let d = a.info().run_domain(&q)?;
        hull = Some(match hull {
            Some(h) => h.hull(&d),
            None => d,
        });
    }
    hull.ok_or_else(|| Error::param("algo", "(none)", "at least one algorithm"))
}

/// Proves or refutes `expr >= preset` over the run domain of the algorithms of the request
/// (module docs).
///
/// # Errors
/// Those of [`crate::threshold::dominance::dominates`]; [`Error::InvalidParameter`] for an
/// algorithm the preset's lemma does not cover, `ε` given to non-private algorithms only, or `ε`
/// (and `γ`) missing where an expression reads `ε` (or the `σ` that depends on them).
///
/// # Example
/// ```
/// use dpbai::audit::proof::{dominates, ProofRequest};
/// use dpbai::bandit::AlgoName;
/// use dpbai::threshold::dominance::{Dominance, ProofFamily, RunParameters};
/// use dpbai::threshold::expr::parse_threshold;
/// let req = ProofRequest {
///     delta: 0.01, delta_min: 0.01, k: 3, k_max: 3, algo: Some(AlgoName::AdapTtStar),
///     parameters: RunParameters {
///         family: ProofFamily::Bernoulli, arm_sigma: 0.5, eps: Some(0.1), gamma: None,
///         max_steps: 100_000_000,
///     },
///     max_boxes: 100_000, max_seconds: f64::INFINITY,
/// };
/// // Equal to the preset for gap <= 1.01 only: AdaP-TT*'s noisy gaps go beyond.
/// let p = dpbai::threshold::expr::preset("paper-adap-tt-star").unwrap();
/// let e = parse_threshold(&format!("ifge(gap, 1.01, 0, {p})")).unwrap();
/// let r = dominates(&e, "paper-adap-tt-star", &req).unwrap();
/// assert!(matches!(r.result, Dominance::Counterexample { .. }));
/// ```
pub fn dominates(
    expr: &ThresholdExpr,
    preset_name: &str,
    req: &ProofRequest,
) -> Result<DominanceReport> {
    let covered = algorithms_of(preset_name);
    let algos = match req.algo {
        Some(a) if !covered.contains(&a) && !covered.is_empty() => {
            return Err(Error::param(
                "algo",
                a.as_str(),
                format!(
                    "one of the algorithms of {preset_name}'s lemma: {}",
                    names(&covered).join(", ")
                ),
            ));
        }
        Some(a) => vec![a],
        None => covered,
    };
    let mut cfg = DominanceConfig::new(req.delta, req.k, req.parameters.max_steps);
    cfg.delta_min = req.delta_min;
    cfg.k_max = req.k_max;
    cfg.max_boxes = req.max_boxes;
    cfg.max_seconds = req.max_seconds;
    cfg.parameters = req.parameters;
    if algos.is_empty() || lemma_of(preset_name).is_none() {
        // Not a provable preset: the prover names the provable ones.
        return dominance::dominates(expr, preset_name, &cfg);
    }
    let pexpr = preset(preset_name)
        .map(|t| ThresholdExpr::parse(&t))
        .transpose()?;
    let reads = |v: &str| expr.uses(v) || pexpr.as_ref().is_some_and(|p| p.uses(v));
    let p = &req.parameters;
    for a in &algos {
        let info = a.info();
        if a.needs_eps() && p.eps.is_none() && reads("eps") {
            return Err(Error::param(
                "eps",
                "absent",
                format!(
                    "a value (--eps): {} runs at a given eps and the threshold or {preset_name} reads eps",
                    info.name
                ),
            ));
        }
        if info.rule_sigma != crate::bandit::info::RuleSigma::Rewards
            && (p.eps.is_none() || p.gamma.is_none())
            && reads("sigma")
        {
            return Err(Error::param(
                "gamma",
                p.gamma
                    .map(|g| g.to_string())
                    .unwrap_or_else(|| "absent".into()),
                format!(
                    "given with --eps: {}'s rule reads sigma = sqrt(sigma_arm^2 + sigma_(eps,gamma)^2), and the threshold reads sigma",
                    info.name
                ),
            ));
        }
    }
    cfg.domain = domain_of(&algos, p)?;
    cfg.algorithms = names(&algos);
    dominance::dominates(expr, preset_name, &cfg)
}

/// Re-verifies a certificate and checks it covers the run domain of every algorithm it names
/// (module docs).
///
/// # Errors
/// As [`crate::threshold::dominance::check_certificate`].
pub fn check_certificate(c: &Certificate) -> Result<CheckReport> {
    let r = dominance::check_certificate(c)?;
    if !r.valid {
        return Ok(r);
    }
    let reject = |message: String| {
        Ok(CheckReport {
            valid: false,
            message,
            leaves: r.leaves,
        })
    };
    let a = &c.assumptions;
    let covered = algorithms_of(&c.preset);
    let mut algos = Vec::new();
    for name in &a.algorithms {
        match covered.iter().find(|x| x.as_str() == name) {
            Some(x) => algos.push(*x),
            None => {
                return reject(format!(
                    "algorithm `{name}` is not among those of the preset's lemma ({})",
                    names(&covered).join(", ")
                ));
            }
        }
    }
    if algos.is_empty() {
        return reject("the certificate names no algorithm".into());
    }
    if a.domain.max_steps != a.parameters.max_steps {
        return reject(format!(
            "t: the domain's cap {} is not the runs' cap {}",
            a.domain.max_steps, a.parameters.max_steps
        ));
    }
    for x in &algos {
        let mut q = a.parameters;
        if !x.needs_eps() && algos.iter().any(|y| y.needs_eps()) {
            q.eps = None;
        }
        let d = match x.info().run_domain(&q) {
            Ok(d) => d,
            Err(e) => return reject(format!("{}: {e}", x.as_str())),
        };
        if let Err(why) = a.domain.covers(&d) {
            return reject(format!(
                "the domain is narrower than {}'s runs ({why})",
                x.as_str()
            ));
        }
    }
    Ok(r)
}

fn names(a: &[AlgoName]) -> Vec<String> {
    a.iter().map(|x| x.as_str().to_string()).collect()
}
