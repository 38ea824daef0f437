//! The claims of "Optimal Best Arm Identification under Differential Privacy" (\[BAI25\]: M.
//! Jourdan, A. Azize, NeurIPS 2025, arXiv 2510.17348; cited by its poster), the second paper:
//! numbered B.1 … as in docs/CLAIMS-BAI25.md, one declaration each beside its check, its
//! protocol written to `verify/protocol-bai25.toml` and its report to REPORT-BAI25.md.
//!
//! Every claim of FOLLOWUP's list is declared: the exactly computable ones (the divergence
//! `d_ε`, `T*_ε` against the first paper's times, its low-privacy switch, the poster's regime
//! split), the audits of DP-TT (its privacy, the δ-correctness of the printed threshold shape)
//! and the claims on the experiment, judged on the cells of the paper's study files
//! (`verify/bai25-quick.toml`, `verify/bai25-paper.toml`).
//!
//! # Modules
//! * `divergence`: B.1, the closed form of `d_ε` against its definition and its dual form;
//! * `times`: B.2 to B.5, `T*_ε` against `T_g`, `T*_KL`, `T*_TV` and `T*_{ε,1/2}`;
//! * [`algorithms`]: B.6 and B.7, the audits of DP-TT (gathered and cached);
//! * `empirical`: B.8, B.9, B.10, B.12, on the study's cells, and the Finding that compares
//!   DP-TT under the printed threshold with the poster's plotted times;
//! * [`evidence`]: the study files and how their cells are sorted by group;
//! * `regimes`: B.11 and the Findings of REPORT-BAI25.md (the poster's figure against the lower
//!   bound, one regime split for two instances), read from `verify/bai25-poster-figure.csv`.

pub mod algorithms;
mod divergence;
pub mod empirical;
pub mod evidence;
mod instances;
pub mod regimes;
mod times;

pub use instances::DELTA;

use crate::claims::context::Context;
use crate::claims::declare::AnyClaim;
use crate::claims::paper::{Gathering, Paper, Step};
use crate::experiment::study::Study;

/// Every claim of the paper, in id order.
pub fn claims() -> Vec<&'static dyn AnyClaim> {
    vec![
        &divergence::B1,
        &times::B2,
        &times::B3,
        &times::B4,
        &times::B5,
        &algorithms::B6,
        &algorithms::B7,
        &empirical::B8,
        &empirical::B9,
        &empirical::B10,
        &regimes::B11,
        &empirical::B12,
    ]
}

/// The second paper: its declarations, its study files and where their published forms live.
pub const PAPER: Paper = Paper {
    name: "bai25",
    title: "Optimal Best Arm Identification under Differential Privacy",
    protocol: "verify/protocol-bai25.toml",
    claims_doc: "docs/CLAIMS-BAI25.md",
    report: "REPORT-BAI25.md",
    expected: &[
        ("quick", "verify/expected-bai25.toml"),
        ("paper", "verify/expected-bai25-paper.toml"),
    ],
    studies: &evidence::STUDIES,
    claims,
    evidence: evidence::sort_evidence,
    gather,
};

/// The study of profile `name`: the paper's built-in study file when it has one, else a study
/// with no cells (every claim is computed by its check).
///
/// # Errors
/// A built-in study file that does not parse.
pub fn study(name: &str) -> crate::error::Result<Study> {
    if let Some((_, text)) = PAPER.studies.iter().find(|(n, _)| *n == name) {
        return crate::experiment::study::parse_study_with(
            text,
            &format!("the {name} study of {}", PAPER.name),
            None,
        );
    }
    Ok(Study {
        title: format!("{} (no Monte Carlo cells)", PAPER.title),
        runs: 0,
        instances: Vec::new(),
        algorithms: Vec::new(),
        deltas: vec![DELTA],
        cells: Vec::new(),
        lower: Vec::new(),
        upper: Vec::new(),
        switches: false,
        panels: Default::default(),
        dpi: crate::params::limits::DEFAULT_DPI,
        figures: Vec::new(),
    })
}

/// Gathers the evidence beyond the study's cells, each piece cached in the folder of `how`:
/// B.6's privacy audit and B.7's δ audit. A `verify --shard i/n` job computes the pieces
/// `k ≡ i (mod n)`.
fn gather(
    ctx: &mut Context,
    how: &Gathering,
    progress: &mut dyn FnMut(Step<'_>),
) -> crate::error::Result<()> {
    use crate::experiment::evidence::{EvidenceSpec, cached};
    let cache = how.cache.as_deref();
    let full = ctx.full;
    let mut audits = algorithms::Audits::default();
    if how.mine(0) {
        progress(Step::Phase {
            name: "privacy audit of DP-TT (B.6)",
            done: 0,
            total: 2,
        });
        let spec = EvidenceSpec::new(
            "bai25-dp-audit",
            "privacy audit of DP-TT (B.6)",
            crate::audit::dp::AUDIT_VERSION,
            algorithms::dp_audit_inputs(),
        );
        audits.dp = Some(cached(cache, &spec, || Ok(algorithms::dp_audit()))?.0);
    }
    if how.mine(1) {
        progress(Step::Phase {
            name: "δ audit of DP-TT's printed threshold (B.7)",
            done: 1,
            total: 2,
        });
        let spec = EvidenceSpec::new(
            "bai25-delta-audit",
            &format!(
                "δ audit of dp-tt-poster (B.7, {})",
                if full { "paper" } else { "quick" }
            ),
            crate::audit::delta::AUDIT_VERSION,
            algorithms::delta_audit_inputs(full),
        );
        audits.delta = Some(cached(cache, &spec, || Ok(algorithms::delta_audit(full)))?.0);
    }
    if how.shard.is_none() {
        ctx.bai25 = Some(audits);
    }
    Ok(())
}
