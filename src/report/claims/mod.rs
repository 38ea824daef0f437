//! The paper's numeric claims (docs/CLAIMS.md, F.1 … F.66).
//!
//! A check gathers evidence with the library (never pasted numbers) and returns named
//! statistics; the claim protocol (`verify/protocol.toml`, [`protocol`]) turns them into the
//! [`ClaimVerdict`] by the claim's rule. `dpbai verify` runs every check, writes the results into
//! REPORT.md's generated blocks and compares the verdicts with `verify/expected.toml`
//! (`--check`).
//!
//! # Failure is never success
//! Evidence gathering records every error it meets (a solver error, a missing cell, an injected
//! fault) in the [`Evidence`] log its [`Context`] holds, instead of hiding it behind a NaN; a check with a recorded
//! error, or a statistic that is missing or not finite, is `not checkable (error: …)`.
//!
//! # Fault injection
//! `DPBAI_INJECT_FAULT=<area>` (`solver`, `special`, `mc`, `audit`), read by `dpbai verify` only
//! and passed in [`Context::fault`], is injected by [`run_all`] into the area's own entry points
//! ([`crate::fault`]) for the whole evidence gathering: every call into that area fails, so no
//! claim on such a path can be `confirmed`, and no check has to remember to ask. Each claim
//! declares in `verify/protocol.toml` the areas it uses; `scripts/fault-areas.py` checks that
//! the claims a fault moves are exactly those that declare its area.

mod audit;
mod bounds;
mod context;
mod empirical;
mod numeric;
pub mod protocol;
pub mod public;
mod record;
mod thresholds;
pub mod trace;
mod upper;

pub use crate::fault::Area;
pub use context::{Check, Context, Evidence, Traces};
pub use record::{ClaimResult, ClaimVerdict, Stats};

/// Applies the protocol's rule of `r.id` to its statistics and the errors its evidence
/// gathering recorded.
pub fn judge(mut r: ClaimResult, errors: &[String]) -> ClaimResult {
    let Some(entry) = protocol::protocol().get(r.id) else {
        r.verdict = ClaimVerdict::NotCheckable;
        r.note = format!("error: {} has no entry in verify/protocol.toml", r.id);
        return r;
    };
    r.rule = protocol::rule_text(entry);
    r.statistics = r.raw.iter().cloned().collect();
    if !r.ran {
        r.verdict = ClaimVerdict::NotCheckable;
        r.note = "not run: `verify --no-experiments`".into();
        return r;
    }
    if let Some(e) = errors.first() {
        r.verdict = ClaimVerdict::NotCheckable;
        r.note = format!(
            "error: {e}{}",
            if errors.len() > 1 {
                format!(" (+{} more)", errors.len() - 1)
            } else {
                String::new()
            }
        );
        return r;
    }
    (r.verdict, r.note) = protocol::decide(entry, &r.raw);
    r
}

/// Every claim check, in ID order.
pub fn all_checks() -> Vec<Check> {
    let mut v = numeric::checks();
    v.extend(bounds::checks());
    v.extend(thresholds::checks());
    v.extend(empirical::checks());
    v.extend(upper::checks());
    v.extend(audit::checks());
    v.extend(trace::checks());
    v.extend(public::checks());
    v
}

/// Runs every check.
pub fn run_all(ctx: &mut Context) -> Vec<ClaimResult> {
    let _fault = crate::fault::inject(ctx.fault);
    let mut out: Vec<ClaimResult> = all_checks()
        .into_iter()
        .map(|c| {
            ctx.evidence.take();
            let r = c(ctx);
            let errors = ctx.evidence.take();
            judge(r, &errors)
        })
        .collect();
    out.sort_by_key(|r| id_key(r.id));
    out
}

/// Sort key of a claim ID (`F.7` before `F.10`).
pub fn id_key(id: &str) -> u32 {
    let (num, suffix) = id.split_once('/').unwrap_or((id, ""));
    num.trim_start_matches("F.")
        .parse::<u32>()
        .map_or(u32::MAX, |n| 2 * n + u32::from(!suffix.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_logs_until_taken() {
        let ev = Evidence::default();
        let injected = Err(crate::Error::Injected { area: "solver" });
        assert!(ev.value(Area::Solver, injected).is_nan());
        assert!(ev.value(Area::Special, Ok(f64::NAN)).is_nan());
        assert_eq!(ev.value(Area::Special, Ok(2.0)), 2.0);
        let errors = ev.take();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[1].contains("special returned NaN"), "{errors:?}");
        assert!(ev.take().is_empty(), "taking empties the log");
    }

    #[test]
    fn id_order() {
        assert!(id_key("F.7") < id_key("F.10"));
        assert!(id_key("F.50") < id_key("F.50/ref") && id_key("F.50/ref") < id_key("F.51"));
    }
}
