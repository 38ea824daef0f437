//! The adversarial instance searches of REPORT.md's block `audit-search`: `dpbai audit delta
//! --search` on the paper's provable thresholds (expected `no violation found`, with the power
//! statement) and on the deliberately unsafe presets (expected `violated`), with the worst
//! instance each search found. Run by the claims module's gathering step; rendered by the report.
//!
//! Deterministic: the search budgets are in samples (not seconds), every run is seeded from
//! `(seed, run index)`, and the confirmation plan is fixed in advance
//! ([`crate::audit::search::holds_sized_plan`]), so the block is identical for any thread count.
//! The risk audited is `δ = 0.1`: the provable thresholds are δ-correct at every `δ`, and at
//! `δ = 0.1` a `holds` needs about `ln(8000)/δ ≈ 90` confirmation runs instead of 900 at
//! `δ = 0.01` (the power statement of each row says what the confirmation could detect).

use crate::audit::delta::DeltaAuditConfig;
use crate::audit::search::{
    Budget, SearchConfig, SearchReport, SearchSpace, holds_sized_plan, report_rows, search,
};
use crate::bandit::info::AlgoInfo;
use crate::bandit::{AlgoName, Setting};
use crate::threshold::expr::parse_threshold;

/// One search of the block.
#[derive(Debug, Clone)]
pub struct Row {
    /// The algorithm searched.
    pub algo: AlgoName,
    /// Its threshold (a preset).
    pub threshold: &'static str,
    /// The verdict the row expects.
    pub expected: &'static str,
    space: SearchSpace,
    samples: u64,
}

/// What a search found, as the block shows it (cached as evidence).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Found {
    /// The verdict.
    pub verdict: String,
    /// The power statement.
    pub power: String,
    /// The row of the block's table ([`report_rows`] without its header).
    pub row: String,
}

/// A search of the block and what it found (or its error).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Searched {
    /// The algorithm searched.
    pub algo: String,
    /// Its threshold (a preset).
    pub threshold: String,
    /// The verdict the row expects.
    pub expected: String,
    /// What the search found.
    pub found: std::result::Result<Found, String>,
}

/// The header of the block's table.
pub fn table_header() -> String {
    report_rows(&[])
}

impl Row {
    /// Everything the search's result depends on, for its cache key.
    pub fn inputs(&self) -> serde_json::Value {
        serde_json::json!({
            "algo": self.algo.as_str(),
            "engine": crate::bandit::semantics::semantics(self.algo).version,
            "threshold": self.threshold,
            "threshold_text": crate::threshold::expr::preset(self.threshold),
            "space": self.space, "samples": self.samples,
            "delta": DELTA, "alpha": ALPHA, "seed": SEED, "max_steps": 1_000_000u64,
            "finalists": 2, "screen_candidates": 8, "screen_runs": 16, "local_runs": 32,
            "local_iters": 6,
        })
    }

    /// Runs the search.
    pub fn search(&self) -> Searched {
        Searched {
            algo: self.algo.as_str().to_string(),
            threshold: self.threshold.to_string(),
            expected: self.expected.to_string(),
            found: run(self).map_err(|e| e.to_string()).map(|r| Found {
                verdict: r.verdict.as_str().to_string(),
                power: r.power.clone(),
                row: report_rows(std::slice::from_ref(&r))
                    .lines()
                    .skip(2)
                    .map(|l| format!("{l}\n"))
                    .collect(),
            }),
        }
    }
}

/// Risk audited by every search of the block (module docs).
pub const DELTA: f64 = 0.1;
/// Confidence parameter of every confirmation.
pub const ALPHA: f64 = 1e-3;
/// Master seed.
pub const SEED: u64 = 17;

/// The first algorithm, in the order of the paper, whose δ-correctness the lemma of the provable
/// preset gives: the one a provable row searches.
fn first_of(preset: &str) -> AlgoName {
    AlgoInfo::of_preset(preset)
        .first()
        .copied()
        .expect("invariant: every provable preset of the block covers an algorithm")
}

/// The searches of the block.
pub fn rows() -> Vec<Row> {
    let small = SearchSpace {
        k_max: 8,
        min_gap: 0.05,
        ..SearchSpace::default()
    };
    let private = |lo: f64, hi: f64| SearchSpace {
        k_max: 4,
        min_gap: 0.1,
        max_gap: 0.4,
        eps: Some((lo, hi)),
        ..SearchSpace::default()
    };
    vec![
        Row {
            algo: first_of("paper-cg"),
            threshold: "paper-cg",
            expected: "no violation found",
            space: small.clone(),
            samples: 4_000_000,
        },
        Row {
            algo: first_of("paper-daf-inf"),
            threshold: "paper-daf-inf",
            expected: "no violation found",
            space: small.clone(),
            samples: 4_000_000,
        },
        Row {
            algo: first_of("paper-adap-tt"),
            threshold: "paper-adap-tt",
            expected: "no violation found",
            space: private(0.5, 1.0),
            samples: 4_000_000,
        },
        Row {
            algo: AlgoName::Ttucb,
            threshold: "unsafe-log-over-20",
            expected: "violated",
            space: small,
            samples: 2_000_000,
        },
        Row {
            algo: AlgoName::AdapTt,
            threshold: "unsafe-adap-tt-no-privacy",
            expected: "violated",
            space: private(0.05, 0.5),
            samples: 4_000_000,
        },
    ]
}

fn run(row: &Row) -> crate::error::Result<SearchReport> {
    let finalists = 2;
    let audit = DeltaAuditConfig {
        setting: Setting::paper(row.algo, DELTA)?,
        threshold: Some(parse_threshold(row.threshold)?),
        alpha: ALPHA,
        seed: SEED,
        max_steps: 1_000_000,
        plan: holds_sized_plan(DELTA, ALPHA, finalists)?,
        sampling: crate::bandit::Sampling::Algorithm,
    };
    let mut cfg = SearchConfig::new(audit, DELTA, row.space.clone());
    cfg.budget = Budget::Samples(row.samples);
    cfg.screen_candidates = 8;
    cfg.screen_runs = 16;
    cfg.local_runs = 32;
    cfg.local_iters = 6;
    cfg.finalists = finalists;
    search(&cfg)
}
