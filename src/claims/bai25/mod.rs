//! The claims of "Optimal Best Arm Identification under Differential Privacy" (\[BAI25\]: M.
//! Jourdan, A. Azize, NeurIPS 2025, arXiv 2510.17348; cited by its poster), the second paper:
//! numbered B.1 … as in docs/CLAIMS-BAI25.md, one declaration each beside its check, its
//! protocol written to `verify/protocol-bai25.toml` and its report to REPORT-BAI25.md.
//!
//! Only the exactly computable claims are declared: the divergence `d_ε` (B.1), the
//! characteristic time `T*_ε` against the first paper's times (B.2, B.4, B.5), its low-privacy
//! switch (B.3) and the poster's regime split (B.11). The claims on the algorithms DP-TT and
//! EB-TCI (their privacy, δ-correctness, asymptotics and the figure) need Monte Carlo evidence
//! and are not declared yet; the paper has no study file (its [`PAPER`] lists none) until they are.
//!
//! # Modules
//! * `divergence`: B.1, the closed form of `d_ε` against its definition and its dual form;
//! * `times`: B.2 to B.5, `T*_ε` against `T_g`, `T*_KL`, `T*_TV` and `T*_{ε,1/2}`;
//! * `regimes`: B.11 and the Findings of REPORT-BAI25.md (the poster's figure against the lower
//!   bound, one regime split for two instances), read from `verify/bai25-poster-figure.csv`.

mod divergence;
mod instances;
pub mod regimes;
mod times;

pub use instances::DELTA;

use crate::claims::context::Context;
use crate::claims::declare::AnyClaim;
use crate::claims::paper::{Gathering, Paper, Step};
use crate::experiment::run::CellResult;
use crate::experiment::study::Study;

/// Every claim of the paper, in id order.
pub fn claims() -> Vec<&'static dyn AnyClaim> {
    vec![
        &divergence::B1,
        &times::B2,
        &times::B3,
        &times::B4,
        &times::B5,
        &regimes::B11,
    ]
}

/// The second paper: its declarations and where their published forms live. It has no study
/// file yet: its claims need no Monte Carlo cells ([`study`]).
pub const PAPER: Paper = Paper {
    name: "bai25",
    title: "Optimal Best Arm Identification under Differential Privacy",
    protocol: "verify/protocol-bai25.toml",
    claims_doc: "docs/CLAIMS-BAI25.md",
    report: "REPORT-BAI25.md",
    expected: &[
        ("quick", "verify/expected-bai25.toml"),
        ("paper", "verify/expected-bai25.toml"),
    ],
    studies: &[],
    claims,
    evidence: no_cells,
    gather: nothing_to_gather,
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
        figures: Vec::new(),
    })
}

fn no_cells(_: &Study, _: &[CellResult], _: &mut Context) {}

fn nothing_to_gather(
    _: &mut Context,
    _: &Gathering,
    _: &mut dyn FnMut(Step<'_>),
) -> crate::error::Result<()> {
    Ok(())
}
