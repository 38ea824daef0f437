//! Confirmation of the finalists on fresh seeds (Bonferroni) and the power statement.

use super::halving::{Scored, Search};
use super::{SearchConfig, SearchReport};
use crate::audit::delta::{audit_delta_with, AuditInstance, RunPlan, Tally};
use crate::error::Result;
use crate::rng::mix64;

/// `P(Bin(n, p) >= k)`.
fn binom_sf(k: u64, n: u64, p: f64) -> Result<f64> {
    if k == 0 {
        return Ok(1.0);
    }
    if k > n {
        return Ok(0.0);
    }
    crate::mc::stats::beta_reg(k as f64, (n - k + 1) as f64, p)
}

/// Smallest error count that a look of `n` runs at `alpha_look` declares violated.
fn violating_count(n: u64, alpha_look: f64, delta: f64) -> Result<Option<u64>> {
    // `ci::lower` increases with k: bisection.
    if crate::audit::ci::lower(n, n, alpha_look / 2.0)? <= delta {
        return Ok(None);
    }
    let (mut lo, mut hi) = (0u64, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if crate::audit::ci::lower(mid, n, alpha_look / 2.0)? > delta {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Ok(Some(lo))
}

/// The confirmation plan sized for `holds`: `UntilDecided { first: n₀, budget: 32·n₀ }`, where
/// `n₀` is the smallest number of runs whose first look (at `α/(2m)`, the plan's first-look
/// share of the Bonferroni level `α/m`) declares `holds` on zero errors and zero capped runs:
/// `cp_upper(0, n₀, α/(4m)) < δ`, about `ln(4m/α)/δ`. A correct rule is then confirmed at the
/// first look, and a rule whose error probability exceeds `δ` gets up to five more looks.
///
/// # Example
/// ```
/// use dpbai::audit::delta::RunPlan;
/// let RunPlan::UntilDecided { first, budget } =
///     dpbai::audit::search::holds_sized_plan(0.1, 1e-3, 2).unwrap() else { panic!() };
/// assert!((80..=90).contains(&first) && budget == 32 * first);
/// ```
///
/// # Errors
/// [`crate::Error::InvalidParameter`] for `δ` or `α` outside `(0, 1)`, or `m = 0`.
pub fn holds_sized_plan(delta: f64, alpha: f64, finalists: usize) -> Result<RunPlan> {
    crate::error::check_open("delta", delta, 0.0, 1.0)?;
    crate::error::check_open("alpha", alpha, 0.0, 1.0)?;
    if finalists == 0 {
        return Err(crate::Error::param("finalists", 0, "at least 1"));
    }
    let a = crate::audit::ci::share(alpha, finalists as u64) / 4.0;
    let mut n = ((1.0 / a).ln() / delta).floor().max(1.0) as u64;
    while crate::audit::ci::upper(0, n, a)? >= delta {
        n += 1;
    }
    Ok(RunPlan::UntilDecided {
        first: n,
        budget: 32 * n,
    })
}

/// The power statement of a search (module docs): for the confirmation, the probability that
/// its plan declares `violated` had the worst instance's error probability been `2δ` (for an
/// until-decided plan, bounded below by the last look's rejection probability minus `α/m`, the
/// chance of an earlier wrong `holds`); for the screening, the chance that an instance with
/// error probability `δ` showed an error.
fn power_statement(
    cfg: &SearchConfig,
    m: usize,
    n: u64,
    alpha_look: f64,
    evals: usize,
) -> Result<String> {
    let delta = cfg.delta;
    let p1 = (2.0 * delta).min(1.0);
    let alpha_m = crate::audit::ci::share(cfg.audit.alpha, m as u64);
    let conf = match cfg.audit.plan {
        RunPlan::UntilDecided { first, budget } => {
            // The looks of the plan: first·2^(j−1) capped at budget, at α/m·2^(−j).
            let (mut nj, mut j) = (first.min(budget), 1i32);
            while nj < budget && j < 60 {
                nj = nj.saturating_mul(2).min(budget);
                j += 1;
            }
            let aj = alpha_m * 0.5f64.powi(j);
            match violating_count(nj, aj, delta)? {
                Some(k) => format!(
                    "had the worst instance's error probability been 2*delta = {p1}, its confirmation (looks up to {nj} runs) would have declared violated with probability >= {:.3}",
                    (binom_sf(k, nj, p1)? - alpha_m).max(0.0)
                ),
                None => format!("the confirmation (looks up to {nj} runs) could not have declared violated"),
            }
        }
        RunPlan::Fixed { .. } => match violating_count(n, alpha_look, delta)? {
            Some(k) => format!(
                "had the worst instance's error probability been 2*delta = {p1}, its confirmation ({n} runs) would have declared violated with probability {:.3}",
                binom_sf(k, n, p1)?
            ),
            None => format!("the confirmation ({n} runs) could not have declared violated"),
        },
    };
    let q = delta;
    let screen = 1.0 - (1.0 - q).powf(cfg.screen_runs as f64);
    Ok(format!(
        "{conf}; each of the {evals} screened instances ran >= {} CRN runs, so one with error probability >= delta = {q} showed an error with probability >= {screen:.3}",
        cfg.screen_runs
    ))
}

/// Confirms the finalists on fresh seeds (Bonferroni over them) and assembles the report.
pub(super) fn confirm(s: Search<'_>, pool: Vec<Scored>) -> Result<SearchReport> {
    let cfg = s.cfg;
    let search_seconds = s.start.elapsed().as_secs_f64();
    let search_samples = *s.samples.lock().expect("invariant: no poisoning");
    // Confirmation on fresh seeds, Bonferroni over the finalists (audit_delta_with does α/m).
    let finalists: Vec<AuditInstance> = pool
        .iter()
        .enumerate()
        .map(|(i, p)| AuditInstance {
            name: format!("finalist-{}", i + 1),
            ..s.audit_instance(&p.cand)
        })
        .collect();
    let mut ccfg = cfg.audit.clone();
    ccfg.seed = mix64(cfg.audit.seed ^ 0xC0F1_F1A5_0000_0017);
    let confirmation = audit_delta_with(&ccfg, &finalists, s.build)?;
    let worst = &confirmation.instances[0];
    let wc = pool
        .iter()
        .find(|p| p.cand.means == worst.means)
        .map(|p| p.cand.clone())
        .unwrap_or_else(|| pool[0].cand.clone());
    for row in &confirmation.instances {
        if let Some(c) = pool.iter().find(|q| q.cand.means == row.means) {
            let t = Tally {
                runs: row.runs,
                errors: row.errors,
                unstopped: row.unstopped,
                tau_sum_stopped: 0,
                stopped: 0,
                max_tau: row.max_tau,
            };
            s.record(&c.cand, &t, "confirm");
        }
    }
    let m = finalists.len();
    let power = power_statement(
        cfg,
        m,
        worst.runs,
        worst.alpha_look,
        s.trace
            .lock()
            .expect("invariant: no poisoning")
            .iter()
            .filter(|r| r.stage != "confirm")
            .count(),
    )?;
    let trace = s.trace.into_inner().expect("invariant: no poisoning");
    Ok(SearchReport {
        algo: cfg.audit.setting.algo.as_str().to_string(),
        threshold: cfg.audit.threshold.as_ref().map(|t| t.source().to_string()),
        delta: cfg.delta,
        space: cfg.space.clone(),
        budget: cfg.budget,
        verdict: confirmation.verdict,
        worst_means: worst.means.clone(),
        worst_eps: worst.eps,
        worst_hardness: wc.hardness,
        worst_ci: worst.ci,
        worst_error_rate: worst.error_rate,
        correction: format!(
            "Bonferroni over the {m} confirmed candidate(s): each audited at alpha/{m} = {:.3e} on fresh seeds (independent of the search data), with the run plan's own look correction",
            crate::audit::ci::share(cfg.audit.alpha, m as u64)
        ),
        power,
        evaluations: trace.iter().filter(|r| r.stage != "confirm").count(),
        trace,
        search_samples,
        search_seconds,
        seconds: s.start.elapsed().as_secs_f64(),
        confirmation,
    })
}
