//! Confirmation of the finalists on fresh seeds (Bonferroni) and the power statement.

use super::halving::{Scored, Search};
use super::{SearchConfig, SearchReport};
use crate::audit::delta::{audit_delta_with, AuditInstance, Tally};
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

/// The power statement of a search (module docs).
fn power_statement(cfg: &SearchConfig, n: u64, alpha_look: f64, evals: usize) -> Result<String> {
    let delta = cfg.delta;
    let p1 = (2.0 * delta).min(1.0);
    // Smallest error count that the confirmation's last look declares violated.
    let mut kstar = None;
    for k in 0..=n {
        if crate::audit::ci::lower(k, n, alpha_look / 2.0)? > delta {
            kstar = Some(k);
            break;
        }
    }
    let conf = match kstar {
        Some(k) => format!(
            "had the worst instance's error probability been 2*delta = {p1}, its confirmation ({n} runs) would have declared violated with probability {:.3}",
            binom_sf(k, n, p1)?
        ),
        None => format!("the confirmation ({n} runs) could not have declared violated"),
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
        algo: cfg.audit.algo.as_str().to_string(),
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
            cfg.audit.alpha / m as f64
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
