//! The claims of "Differentially Private Best-Arm Identification" (the first paper), one
//! declaration each beside its check: numbered F.1 … (with the variants `F.n/ref` under the public
//! code's rules and `F.60/uniform` under uniform sampling) as in docs/CLAIMS.md, and S.1, the
//! comparison with the paper's public code (READINGS.md §P).
//!
//! # Modules
//! * `numeric`: closed forms, divergences and instance transforms;
//! * `mechanisms`: the privacy mechanisms' closed forms (LDP contraction, randomised response,
//!   Gaussian and Laplace mechanisms, the DP batch KL bound);
//! * `bounds`: characteristic times and special functions;
//! * `thresholds`: the stopping thresholds' asymptotics;
//! * `upper`: the asymptotic upper bounds;
//! * `trace`: invariants of traced runs;
//! * `audit`: the privacy and δ-correctness audits;
//! * `empirical`: the Monte Carlo grid (figures, δ-correctness, complexity);
//! * `public`: the public code side by side.

pub mod audit;
mod bounds;
pub(crate) mod empirical;
pub mod evidence;
mod mechanisms;
mod numeric;
pub mod public;
pub mod searches;
pub mod tables;
pub(crate) mod thresholds;
pub mod trace;
mod upper;

use crate::claims::context::Context;
use crate::claims::declare::AnyClaim;
use crate::claims::paper::{Gathering, Paper, Step};

/// Every claim of the paper, in id order.
pub fn claims() -> Vec<&'static dyn AnyClaim> {
    vec![
        &numeric::F1,
        &mechanisms::F2,
        &bounds::local::F3,
        &bounds::local::F4,
        &bounds::local::F5,
        &numeric::F6,
        &numeric::F7,
        &numeric::F8,
        &mechanisms::F9,
        &bounds::local::F10,
        &bounds::local::F11,
        &numeric::F12,
        &bounds::local::F13,
        &numeric::F14,
        &mechanisms::F15,
        &mechanisms::F16,
        &trace::F17,
        &bounds::global::F18,
        &bounds::global::F19,
        &numeric::F20,
        &bounds::global::F21,
        &numeric::F22,
        &bounds::global::F23,
        &bounds::global::F24,
        &numeric::F25,
        &bounds::gaussian::F26,
        &trace::F27,
        &trace::F28,
        &trace::F29,
        &thresholds::F30,
        &upper::F31,
        &bounds::special::F32,
        &upper::F33,
        &bounds::global::F34,
        &upper::F35,
        &thresholds::F36,
        &bounds::special::F37,
        &bounds::special::F38,
        &numeric::F39,
        &empirical::complexity::F40,
        &empirical::complexity::F41,
        &empirical::complexity::F42,
        &upper::F43,
        &trace::F44,
        &trace::F45,
        &numeric::F46,
        &numeric::F47,
        &bounds::special::F48,
        &mechanisms::F49,
        &empirical::figures::F50,
        &empirical::figures::F50_REF,
        &empirical::figures::F51,
        &empirical::figures::F51_REF,
        &empirical::switches::F52,
        &empirical::switches::F52_REF,
        &empirical::figures::F53,
        &empirical::figures::F53_REF,
        &empirical::figures::F54,
        &empirical::figures::F54_REF,
        &empirical::switches::F55,
        &empirical::switches::F55_REF,
        &empirical::correctness::F56,
        &empirical::correctness::F56_REF,
        &empirical::correctness::F57,
        &mechanisms::F58,
        &audit::F59,
        &audit::F60,
        &audit::F60_UNIFORM,
        &upper::F61,
        &upper::F62,
        &bounds::local::F63,
        &bounds::global::F64,
        &bounds::gaussian::F65,
        &bounds::special::F66,
        &empirical::high_privacy::F67,
        &empirical::high_privacy::F68,
        &empirical::lower_bounds::F69,
        &empirical::slopes::F70,
        &empirical::slopes::F71,
        &empirical::slopes::F72,
        &empirical::correctness::F73,
        &empirical::slopes::F74,
        &empirical::conclusions::F75,
        &empirical::conclusions::F75_REF,
        &empirical::conclusions::F76,
        &public::S1,
    ]
}

/// The first paper: its declarations and where their published forms live.
pub const PAPER: Paper = Paper {
    name: "dp-bai",
    title: "Differentially Private Best-Arm Identification",
    protocol: "verify/protocol.toml",
    claims_doc: "docs/CLAIMS.md",
    report: "REPORT.md",
    expected: &[
        ("quick", "verify/expected.toml"),
        ("paper", "verify/expected-paper.toml"),
    ],
    studies: &evidence::STUDIES,
    claims,
    evidence: sort_evidence,
    gather,
};

/// Sorts the study's cells into the grid, the controls and the groups of the context.
fn sort_evidence(
    study: &crate::experiment::study::Study,
    results: &[crate::experiment::run::CellResult],
    ctx: &mut Context,
) {
    let s = evidence::sort(study, results);
    ctx.grid = Some(s.grid);
    ctx.controls = s.controls;
    ctx.groups = s.groups;
}

/// The evidence beyond the study's cells, each piece cached as an evidence cell
/// ([`crate::experiment::evidence`]): the traced runs (the trajectory claims and the
/// allocation figure), the audits of F.59 and F.60, and the adversarial searches of REPORT.md's
/// `audit-search` block. A `verify --shard i/n` job computes the pieces `k ≡ i (mod n)`.
fn gather(
    ctx: &mut Context,
    how: &Gathering,
    progress: &mut dyn FnMut(Step<'_>),
) -> crate::error::Result<()> {
    use crate::experiment::evidence::{EvidenceSpec, cached};
    let cache = how.cache.as_deref();
    let full = ctx.full;
    let profile = if full { "paper" } else { "quick" };
    let rows = searches::rows();
    // The pieces: the traced runs, F.59's audits, F.60's two batteries, one per search.
    let total = 4 + rows.len();
    let mut k = 0;
    let mut mine = |name: &'static str, progress: &mut dyn FnMut(Step<'_>)| {
        let m = how.mine(k);
        if m {
            progress(Step::Phase {
                name,
                done: k,
                total,
            });
        }
        k += 1;
        m
    };
    let mut audits = audit::Audits::default();
    if mine("traced runs", progress) {
        let spec = EvidenceSpec::new(
            "traces",
            &format!("traced runs ({profile})"),
            crate::bandit::trace::TRACE_VERSION,
            trace::inputs(full),
        );
        ctx.traces = Some(cached(cache, &spec, || trace::compute(full))?.0);
    }
    if mine("privacy audits (F.59)", progress) {
        let spec = EvidenceSpec::new(
            "dp-audits",
            "privacy audits of F.59",
            crate::audit::dp::AUDIT_VERSION,
            audit::dp_audit_inputs(),
        );
        audits.dp = Some(cached(cache, &spec, || Ok(audit::dp_audits()))?.0);
    }
    for sampling in [
        crate::bandit::Sampling::Algorithm,
        crate::bandit::Sampling::Uniform,
    ] {
        if mine("δ audits (F.60)", progress) {
            let runs = audit::battery_runs(full);
            let spec = EvidenceSpec::new(
                "delta-battery",
                &format!("δ audits of F.60 ({sampling:?} sampling, {runs} runs)"),
                crate::audit::delta::AUDIT_VERSION,
                audit::battery_inputs(runs, sampling),
            );
            let a = cached(cache, &spec, || Ok(audit::battery_audit(runs, sampling)))?.0;
            match sampling {
                crate::bandit::Sampling::Algorithm => audits.battery = Some(a),
                crate::bandit::Sampling::Uniform => audits.battery_uniform = Some(a),
            }
        }
    }
    ctx.audits = Some(audits);
    let mut searched = Vec::new();
    for row in rows {
        if mine("adversarial searches", progress) {
            let spec = EvidenceSpec::new(
                "search",
                &format!("search {} on {}", row.threshold, row.algo.as_str()),
                crate::audit::search::SEARCH_VERSION,
                row.inputs(),
            );
            searched.push(cached(cache, &spec, || Ok(row.search()))?.0);
        }
    }
    debug_assert_eq!(k, total, "the count of evidence pieces");
    ctx.searches = searched;
    Ok(())
}

/// READINGS.md §R issues with numeric consequences, and the verdicts of their claims.
pub const ISSUES: [(u32, &str, &[&str]); 14] = [
    (
        4,
        "ν_{G,ε} has standard deviation 1/2 (not variance)",
        &["F.21", "F.22"],
    ),
    (
        12,
        "Gaussian-mechanism TTUCB must use σ² = 1/4 + σ_{ε,γ}²",
        &["F.15"],
    ),
    (16, "Eq. (14) second case needs k(ω)², not k(ω)", &["F.36"]),
    (
        19,
        "Thm. 24 and L. 52 state different conditions and constants",
        &["F.61", "F.32"],
    ),
    (
        20,
        "8·g1(4Δ_max/ε) ∈ [8, 80] is [8, 23.81) under Δ_max < ε/2",
        &["F.32"],
    ),
    (
        21,
        "AdaP-TT* high-privacy factor: 16 (Sec. 4.4) vs 48 (Sec. 1.1.3)",
        &["F.35"],
    ),
    (
        22,
        "'optimal up to 4' holds for AdaP-TT* only (AdaP-TT: 8)",
        &["F.43", "F.53"],
    ),
    (23, "Δ_{ε,a}²/ε → 2Δ_a, not Δ_a", &["F.39"]),
    (25, "DP-SE per-arm rate is Δ_a^{-2}", &["F.40"]),
    (
        31,
        "μ1, μ2 have tied sub-optimal arms, μ3 boundary means (theorems assume otherwise)",
        &["F.56"],
    ),
    (
        32,
        "the figures used unpublished empirical thresholds",
        &["F.52", "F.53", "F.54", "F.56"],
    ),
    (
        33,
        "empirical regime switches differ from the theoretical ones",
        &["F.50", "F.52", "F.55"],
    ),
    (35, "C_G(x) ≈ x + log x is rough", &["F.38"]),
    (30, "T_TV ≥ 1/Δ_min is loose (2/Δ_min holds)", &["F.20"]),
];
