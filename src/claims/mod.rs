//! The papers' claims, each declared once ([`Claim`]) beside the check that gathers its
//! evidence, and how they are judged.
//!
//! A paper is a study file (`verify/*.toml`: its Monte Carlo grid and controls as data) plus a
//! claims module ([`dp_bai`], [`bai25`]: one [`Claim`] per claim id, listed by its `claims()`). A check
//! gathers evidence with the library (never pasted numbers) and returns typed statistics
//! ([`Statistics`]); the claim's [`Rule`] turns them into its [`ClaimVerdict`] ([`judge()`]).
//! `verify/protocol.toml`, the published pre-registration, and the claims table of
//! docs/CLAIMS.md are written from the declarations ([`protocol`]; a test fails when either
//! file is stale).
//!
//! # Failure is never success
//! Evidence gathering records every error it meets (a solver error, a missing cell, an injected
//! fault) in the [`Evidence`] log its [`Context`] holds, instead of hiding it behind a NaN; a
//! check with a recorded error, or a statistic that is missing or not finite, is
//! `not checkable (error: …)`.
//!
//! # Fault injection
//! `DPBAI_INJECT_FAULT=<area>` (`solver`, `special`, `mc`, `audit`), read by `dpbai verify` only
//! and passed in [`Context::fault`], is injected by [`run_all`] into the area's own entry points
//! ([`crate::fault`]) for the whole evidence gathering: every call into that area fails, so no
//! claim on such a path can be `confirmed`, and no check has to remember to ask. A claim's areas
//! are not declared but derived from what its check calls ([`ClaimResult::areas`], recorded by
//! [`crate::fault::touch`]); a check that reached the injected area through a path that cannot
//! fail (the engine's special functions) is judged `not checkable` too.
//! `scripts/fault-areas.py` checks that the claims a fault moves are exactly those whose
//! derived areas contain it.

pub mod bai25;
mod context;
mod declare;
pub mod dp_bai;
mod judge;
pub mod paper;
pub mod prelude;
pub mod protocol;
mod record;
pub mod rule;
pub mod verify;

pub use crate::fault::Area;
pub use context::{Context, Evidence, Traces};
pub use declare::{AnyClaim, Checked, Claim, Meta, Row, RuleSet, Statistics, base_id, id_key};
pub use judge::{judge, run_claims};
pub use paper::{Paper, Step};
pub use record::{ClaimResult, ClaimVerdict, flag};
pub use rule::{Borderline, Equivalence, Regime, Rule};

/// Every paper whose claims `dpbai verify` checks: the first paper ([`dp_bai`]) and
/// \[BAI25\] ([`bai25`]).
pub const PAPERS: &[protocol::Paper] = &[dp_bai::PAPER, bai25::PAPER];

/// Runs and judges every claim of the first paper ([`dp_bai::claims`]).
pub fn run_all(ctx: &mut Context) -> Vec<ClaimResult> {
    run_paper(&dp_bai::PAPER, ctx)
}

/// Runs and judges every claim of `paper`.
pub fn run_paper(paper: &Paper, ctx: &mut Context) -> Vec<ClaimResult> {
    run_claims(&(paper.claims)(), ctx)
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
        assert!(id_key("F.68") < id_key("S.1"));
    }

    /// Every declared claim of every paper has a unique id and a consistent rule that names only
    /// statistics its check returns (its typed statistics' fields): a rule that names an absent
    /// statistic fails here.
    #[test]
    fn every_rule_names_its_checks_statistics() {
        let mut ids = std::collections::BTreeSet::new();
        for c in PAPERS.iter().flat_map(|p| (p.claims)()) {
            let m = c.meta();
            assert!(ids.insert(m.id), "{} is declared twice", m.id);
            m.rule
                .validate()
                .unwrap_or_else(|e| panic!("{}: {e}", m.id));
            for n in m.rule.names().expect("parses") {
                assert!(
                    c.names().contains(&n),
                    "{}: the rule names `{n}`, which its check does not return ({:?})",
                    m.id,
                    c.names()
                );
            }
            assert!(!m.title.is_empty() && !m.statement.is_empty() && !m.fair.is_empty());
        }
    }

    /// Every claim an algorithm's declaration names ([`crate::bandit::info::AlgoInfo::claims`])
    /// is a declared claim (its id or one of its variants), and every Finding it names is a
    /// numbered Finding of REPORT.md.
    #[test]
    fn every_algorithms_claim_reference_is_declared() {
        use crate::bandit::info::{ALGORITHMS, ClaimRef};
        let ids: Vec<&str> = PAPERS
            .iter()
            .flat_map(|p| (p.claims)())
            .map(|c| c.meta().id)
            .collect();
        let report = include_str!("../../REPORT.md");
        let findings = &report[report.find("\n## Findings\n").expect("a Findings section")..];
        for info in ALGORITHMS {
            for r in info.claims {
                let named = r.to_string();
                let found = match r {
                    ClaimRef::F(_) | ClaimRef::B(_) => ids
                        .iter()
                        .any(|id| *id == named || id.starts_with(&format!("{named}/"))),
                    ClaimRef::Finding(n) => findings.contains(&format!("\n{n}. **")),
                };
                assert!(found, "{}: {named} is not declared", info.name);
            }
        }
    }
}
