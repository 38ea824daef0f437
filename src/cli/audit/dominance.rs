//! `dpbai audit delta --dominates PRESET` (proof by dominance, with a certificate) and
//! `dpbai audit check-certificate FILE` (its re-verification): the command-line side of
//! `crate::threshold::dominance`.

use super::super::errors::{usage, verdict_exit};
use super::search::SearchArgs;
use crate::audit::proof::{ProofRequest, check_certificate, dominates};
use crate::bandit::{AlgoName, Rules};
use crate::threshold::dominance::{Certificate, Dominance, ProofFamily, RunParameters};
use crate::threshold::expr::ThresholdExpr;

/// The settings of `--dominates` besides the search options.
pub struct DominanceInputs<'a> {
    /// The candidate threshold.
    pub threshold: Option<&'a ThresholdExpr>,
    /// `--delta`.
    pub delta: f64,
    /// `--eps`.
    pub eps: Option<f64>,
    /// `--family`.
    pub family: &'a str,
    /// `--sigma`.
    pub sigma: Option<f64>,
    /// `--gamma`.
    pub gamma: Option<f64>,
    /// `--max-steps`: the cap of the runs the proof is about (default: `dpbai run`'s).
    pub max_steps: Option<u64>,
    /// `--algo`.
    pub algo: Option<AlgoName>,
    /// `--rules`.
    pub rules: Rules,
    /// `--json`.
    pub json: bool,
}

/// Runs `--dominates PRESET`.
pub fn run_dominates(a: &SearchArgs, preset: &str, i: &DominanceInputs<'_>) -> anyhow::Result<()> {
    let expr = i
        .threshold
        .ok_or_else(|| usage("--dominates needs --threshold EXPR"))?;
    if i.rules != Rules::Paper {
        return Err(usage(
            "invalid rules = reference for --dominates: the lemmas bound the paper rules' statistic (use --rules paper)",
        ));
    }
    let family = match i.family {
        "gaussian" => ProofFamily::Gaussian,
        _ => ProofFamily::Bernoulli,
    };
    let sigma = match (family, i.sigma) {
        (ProofFamily::Bernoulli, None) => 0.5,
        (ProofFamily::Bernoulli, Some(s)) => {
            return Err(usage(format!(
                "invalid sigma = {} for --family bernoulli: Bernoulli arms have sigma = 1/2 (give --family gaussian for another sigma)",
                crate::error::compact_number(s)
            )));
        }
        (ProofFamily::Gaussian, s) => s.unwrap_or(1.0),
    };
    let (k_min, k_max) = match a.n_arms {
        Some(k) => {
            let k = usize::try_from(k).unwrap_or(usize::MAX);
            (k, k)
        }
        None => (a.k_min, a.k_max),
    };
    let max_steps = i.max_steps.unwrap_or(crate::mc::DEFAULT_MAX_STEPS);
    let req = ProofRequest {
        delta: i.delta,
        delta_min: a.delta_min.unwrap_or(i.delta),
        k: k_min,
        k_max,
        algo: i.algo,
        parameters: RunParameters {
            family,
            arm_sigma: sigma,
            eps: i.eps,
            gamma: i.gamma,
            max_steps,
        },
        max_boxes: a.dominance_boxes,
        max_seconds: a.dominance_seconds.unwrap_or(f64::INFINITY),
    };
    // Every invalid setting is a one-line error naming it (exit 2).
    let r = dominates(expr, preset, &req)?;
    if i.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
        return verdict_exit(dominance_exit(&r.result));
    }
    let s = &r.assumptions;
    let c = crate::error::compact_number;
    println!(
        "audit delta --dominates {preset}: threshold `{}`  ({} boxes, {:.2} s)",
        r.expr, r.boxes, r.seconds
    );
    println!(
        "  assumptions: algorithms {}; paper rules; the domain their runs evaluate the threshold on: {}",
        s.algorithms.join(", "),
        s.describe(),
    );
    match &r.result {
        Dominance::Proven { lemma, min_margin } => println!(
            "  proven: threshold finite and >= {preset} everywhere reachable (smallest certified margin {min_margin:.3e}), so delta-correct by {lemma} for {} in runs capped at {} steps (a run with a larger --max-steps is not covered); --json writes the certificate",
            s.algorithms.join(", "),
            s.domain.max_steps,
        ),
        Dominance::Counterexample {
            point,
            expr,
            preset: pv,
        } => println!(
            "  counterexample: delta = {}, K = {}, na = {}, nb = {}, t = {}, ka = {}, kb = {}, gap = {}: threshold = {expr:.12} < {preset} = {pv:.12}",
            c(point.delta),
            point.k,
            point.na,
            point.nb,
            point.t,
            point.ka,
            point.kb,
            c(point.gap)
        ),
        Dominance::Undecided { reason, region } => {
            println!("  undecided: {reason}");
            let parts: Vec<String> = region
                .iter()
                .map(|(n, [l, h])| format!("{n} in [{}, {}]", c(*l), c(*h)))
                .collect();
            println!("  at {}", parts.join(", "));
        }
    }
    verdict_exit(dominance_exit(&r.result))
}

/// The exit code of a proof by dominance: 0 proven, 1 counterexample, 3 undecided.
fn dominance_exit(d: &Dominance) -> i32 {
    match d {
        Dominance::Proven { .. } => 0,
        Dominance::Counterexample { .. } => crate::cli::errors::EXIT_VIOLATED,
        Dominance::Undecided { .. } => crate::cli::errors::EXIT_UNDECIDED,
    }
}

/// Runs `dpbai audit check-certificate FILE`: exit 0 when valid, 1 when rejected, 2 when the
/// file cannot be read as a certificate.
pub fn run_check(path: &str, json: bool) -> anyhow::Result<()> {
    let text =
        crate::files::read_user_text(std::path::Path::new(path), "certificate (JSON)", 1 << 28)
            .map_err(|e| match e {
                crate::Error::Io { cause, .. } => {
                    usage(format!("cannot read certificate file {path}: {cause}"))
                }
                e => usage(e.to_string()),
            })?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| usage(format!("certificate file {path} is not JSON: {e}")))?;
    // The report of `--dominates --json` carries it under `certificate`; a bare one is accepted.
    let body = match v.get("certificate") {
        Some(c) if c.is_null() => {
            return Err(usage(format!(
                "{path} holds no certificate (the proof was not completed)"
            )));
        }
        Some(c) => c.clone(),
        None => v,
    };
    let cert: Certificate = serde_json::from_value(body)
        .map_err(|e| usage(format!("{path} is not a dominance certificate: {e}")))?;
    let r = check_certificate(&cert)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else if r.valid {
        println!(
            "certificate valid ({} leaves re-verified): {}",
            r.leaves, r.message
        );
    }
    if r.valid {
        Ok(())
    } else {
        Err(anyhow::anyhow!("certificate rejected: {}", r.message))
    }
}
