//! The worst-case search, dominance proofs and custom rules (`src/audit/search`,
//! `src/audit/dominance`, `src/audit/custom.rs`).

use super::delta::delta_cfg;
use dpbai::audit::Verdict;
use dpbai::audit::delta::{RunPlan, audit_delta, default_battery};
use dpbai::bandit::{AlgoName, Setting};
use dpbai::threshold::expr::{parse_threshold, preset};

// ------------------------------------------------------------------------------------------
// Search, dominance, custom rules.

fn search_audit(threshold: Option<&str>) -> dpbai::audit::delta::DeltaAuditConfig {
    dpbai::audit::delta::DeltaAuditConfig {
        setting: Setting::paper(AlgoName::Ttucb, 0.1).expect("valid δ"),
        threshold: threshold.map(|t| parse_threshold(t).expect("parses")),
        alpha: 1e-3,
        seed: 17,
        max_steps: 1_000_000,
        plan: dpbai::audit::delta::RunPlan::UntilDecided {
            first: 200,
            budget: 1600,
        },
        sampling: dpbai::bandit::Sampling::Algorithm,
    }
}

/// Pre-registered: seed 17, alpha = 1e-3. A small search catches the unsafe preset, on a
/// violating instance confirmed on fresh seeds; the trace records every evaluation.
#[test]
fn search_catches_the_unsafe_preset_quickly() {
    use dpbai::audit::search::{Budget, SearchConfig, SearchSpace, search};
    let space = SearchSpace {
        k_max: 6,
        min_gap: 0.05,
        ..SearchSpace::default()
    };
    let mut cfg = SearchConfig::new(search_audit(Some("unsafe-log-over-20")), 0.1, space);
    cfg.budget = Budget::Samples(2_000_000);
    cfg.screen_candidates = 8;
    cfg.local_iters = 5;
    cfg.local_runs = 64;
    let r = search(&cfg).expect("runs");
    assert_eq!(r.verdict, dpbai::audit::search::SearchVerdict::Violated);
    assert!(r.worst_ci[0] > 0.1);
    assert!(r.trace.iter().any(|t| t.stage == "confirm"));
    assert!(r.trace.iter().any(|t| t.stage == "nelder-mead"));
    assert!(r.correction.contains("Bonferroni"));
    assert!(dpbai::audit::search::report_rows(&[r]).contains("| violated |"));
}

/// Pre-registered: seed 17, alpha = 1e-3. A budget in seconds confirms too: the confirmation
/// compares its first look's samples with its allowance in samples (at the measured rate), not
/// with seconds (which made every finalist unaffordable and the search `undecided`). Alone the
/// search takes about 0.01 s; the budget is 60 s because the rate is measured in wall time, and
/// under a loaded test run (2 cores, the other tests' thread pools) a 3 s budget measured a rate
/// too low to afford any first look. 60 s of "samples" (the old bug's unit) still buys no look.
#[test]
fn a_budget_in_seconds_confirms_the_unsafe_preset() {
    use dpbai::audit::search::{Budget, SearchConfig, SearchSpace, SearchVerdict, search};
    let space = SearchSpace {
        k_max: 4,
        ..SearchSpace::default()
    };
    let mut cfg = SearchConfig::new(search_audit(Some("unsafe-log-over-20")), 0.1, space);
    cfg.budget = Budget::Seconds(60.0);
    let r = search(&cfg).expect("runs");
    assert_eq!(
        r.verdict,
        SearchVerdict::Violated,
        "{}",
        r.confirmation_statement
    );
    assert!(
        r.confirmation
            .iter()
            .all(|c| c.runs > 0 && c.skipped.is_none())
    );
}

/// Pre-registered: seed 17, alpha = 1e-3. The paper's threshold is not flagged (the search
/// may find nothing worse than `holds` or `inconclusive`, never `violated`), with a budget
/// whose confirmations run.
#[test]
fn search_does_not_flag_the_paper_threshold() {
    use dpbai::audit::search::{Budget, SearchConfig, SearchSpace, SearchVerdict, search};
    let space = SearchSpace {
        k_max: 4,
        min_gap: 0.1,
        ..SearchSpace::default()
    };
    let mut cfg = SearchConfig::new(search_audit(None), 0.1, space);
    cfg.budget = Budget::Samples(4_000_000);
    cfg.screen_candidates = 6;
    cfg.local_iters = 3;
    cfg.local_runs = 32;
    let r = search(&cfg).expect("runs");
    assert_eq!(r.verdict, SearchVerdict::NoViolationFound);
    assert!(
        r.confirmation
            .iter()
            .all(|c| c.runs > 0 && c.unstopped == 0)
    );
    assert!(r.power.contains("would have declared violated"));
}

/// A budget too small for any confirmation's first look spends nothing on it: every
/// candidate tried is reported unaffordable (with its step cap), none runs, and the search is
/// `undecided`, never a pass.
#[test]
fn an_unaffordable_confirmation_is_not_run() {
    use dpbai::audit::search::{Budget, SearchConfig, SearchSpace, SearchVerdict, search};
    let space = SearchSpace {
        k_max: 4,
        min_gap: 0.1,
        ..SearchSpace::default()
    };
    let mut cfg = SearchConfig::new(search_audit(None), 0.1, space);
    cfg.budget = Budget::Samples(1_000_000);
    cfg.screen_candidates = 6;
    cfg.local_iters = 3;
    cfg.local_runs = 32;
    let r = search(&cfg).expect("runs");
    assert_eq!(r.verdict, SearchVerdict::Undecided);
    let last = r.stages.last().expect("stages");
    assert_eq!(
        (last.name.as_str(), last.samples, last.runs),
        ("confirmation", 0, 0)
    );
    assert!(r.confirmation.len() > cfg.finalists);
    for c in &r.confirmation {
        assert!(
            c.skipped
                .as_deref()
                .is_some_and(|s| s.starts_with("unaffordable"))
        );
        assert!(c.step_cap >= 100 * c.means.len() as u64);
    }
    assert!(
        r.confirmation_statement
            .contains("needs more samples than the budget")
    );
}

/// A small, sample-budgeted search (deterministic for any thread count): `screen` candidates,
/// no Nelder-Mead, a confirmation plan of `first = 100` doubling up to 800 runs.
fn small_search(
    algo: AlgoName,
    threshold: &str,
    delta: f64,
    space: dpbai::audit::search::SearchSpace,
    screen: usize,
    samples: u64,
) -> dpbai::audit::search::SearchReport {
    use dpbai::audit::search::{Budget, SearchConfig, search};
    let mut audit = search_audit(Some(threshold));
    audit.setting.algo = algo;
    audit.plan = RunPlan::UntilDecided {
        first: 100,
        budget: 800,
    };
    let mut cfg = SearchConfig::new(audit, delta, space);
    cfg.budget = Budget::Samples(samples);
    cfg.screen_candidates = screen;
    cfg.screen_runs = 16;
    cfg.local_iters = 0;
    search(&cfg).expect("runs")
}

/// Whether the default battery (TTUCB, `δ = 0.01` and `0.1`, 400 runs per instance) flags
/// `threshold` as violated.
fn battery_flags(threshold: &str) -> bool {
    let b = default_battery(AlgoName::Ttucb, 0.01, None).expect("battery");
    let cfg = delta_cfg(
        AlgoName::Ttucb,
        Some(threshold),
        RunPlan::Fixed { runs: 400 },
    );
    audit_delta(&cfg, &b).expect("runs").verdict == Verdict::Violated
}

/// Pre-registered: seed 17, alpha = 1e-3. Each built-in unsafe preset
/// is found violated by a sample-budgeted search: `unsafe-log-over-20` (TTUCB) and
/// `unsafe-adap-tt-no-privacy` (AdaP-TT, over an eps range, as it fails at small eps).
#[test]
fn search_finds_every_unsafe_preset() {
    use dpbai::audit::search::SearchSpace;
    let space = SearchSpace {
        k_max: 8,
        min_gap: 0.1,
        ..SearchSpace::default()
    };
    let r = small_search(
        AlgoName::Ttucb,
        "unsafe-log-over-20",
        0.05,
        space,
        6,
        2_000_000,
    );
    assert_eq!(
        r.verdict,
        dpbai::audit::search::SearchVerdict::Violated,
        "{}",
        r.power
    );
    let space = SearchSpace {
        k_max: 3,
        min_gap: 0.2,
        max_gap: 0.5,
        eps: Some((0.05, 0.5)),
        ..SearchSpace::default()
    };
    let r = small_search(
        AlgoName::AdapTt,
        "unsafe-adap-tt-no-privacy",
        0.05,
        space,
        6,
        5_000_000,
    );
    assert_eq!(
        r.verdict,
        dpbai::audit::search::SearchVerdict::Violated,
        "{:?} {}",
        r.worst_means,
        r.power
    );
}

/// Pre-registered: seed 17, alpha = 1e-3. A threshold that passes the
/// default battery (K <= 8) but is unsafe for K >= 12 is caught by the search, on K >= 12.
#[test]
fn search_catches_a_threshold_unsafe_only_for_many_arms() {
    use dpbai::audit::search::SearchSpace;
    let cg = preset("paper-cg").expect("preset");
    let t = format!("ifge(K, 12, log(1/delta)/20, {cg})");
    assert!(!battery_flags(&t));
    let space = SearchSpace {
        k_max: 16,
        min_gap: 0.1,
        ..SearchSpace::default()
    };
    let r = small_search(AlgoName::Ttucb, &t, 0.01, space, 6, 5_000_000);
    assert_eq!(
        r.verdict,
        dpbai::audit::search::SearchVerdict::Violated,
        "{}",
        r.power
    );
    assert!(r.worst_means.len() >= 12);
}

/// Pre-registered: seed 17, alpha = 1e-3. A threshold that drops to
/// `log(1/δ)/20` once `t >= 20000` (beyond the battery's stopping times) passes the default
/// battery and is caught by the search on an instance whose runs last longer.
#[test]
fn search_catches_a_threshold_unsafe_only_for_long_runs() {
    use dpbai::audit::search::SearchSpace;
    let cg = preset("paper-cg").expect("preset");
    let t = format!("ifge(t, 20000, log(1/delta)/20, {cg})");
    assert!(!battery_flags(&t));
    let space = SearchSpace {
        k_max: 12,
        min_gap: 0.02,
        max_gap: 0.1,
        ..SearchSpace::default()
    };
    let r = small_search(AlgoName::Ttucb, &t, 0.01, space, 4, 20_000_000);
    assert_eq!(
        r.verdict,
        dpbai::audit::search::SearchVerdict::Violated,
        "{}",
        r.power
    );
    assert!(r.confirmation[0].mean_tau >= 20000.0);
}

/// Pre-registered: seed 17, alpha = 1e-3. A threshold that drops to
/// `log(1/δ)/20` when the leader's lead `gap` is below 0.02 passes the default battery (gaps
/// >= 0.08) and is caught by the search on a small-gap instance.
#[test]
fn search_catches_a_threshold_unsafe_only_for_small_gaps() {
    use dpbai::audit::search::SearchSpace;
    let cg = preset("paper-cg").expect("preset");
    let t = format!("ifge(gap, 0.02, {cg}, log(1/delta)/20)");
    assert!(!battery_flags(&t));
    let space = SearchSpace {
        k_max: 4,
        min_gap: 0.01,
        max_gap: 0.2,
        ..SearchSpace::default()
    };
    let r = small_search(AlgoName::Ttucb, &t, 0.01, space, 4, 20_000_000);
    assert_eq!(
        r.verdict,
        dpbai::audit::search::SearchVerdict::Violated,
        "{}",
        r.power
    );
    assert!(r.worst_means[0] - r.worst_means[1] < 0.1);
}

/// The two thresholds the worst-case search used to miss, with default options (seed 1, the
/// default budget): `P*min(1,(8/K)^2)` at δ = 0.01 over K in [10, 20], and `min(P, 6)` at
/// δ = 0.001, are both `violated`, with fewer than 10% of their confirmation runs unstopped.
/// Independent evidence for the second: direct Monte Carlo on `[0.51, 0.49]` at δ = 0.001 gives
/// 54 errors in 20,000 runs (seed 5), `violated`. About two minutes on 2 cores, so not part of
/// `make test`: `cargo test --release --test lib -- --ignored default_options`.
#[test]
#[ignore = "two minutes on 2 cores; run with --ignored"]
fn default_options_find_the_two_missed_violations() {
    use dpbai::audit::search::{SearchConfig, SearchSpace, SearchVerdict, search};
    let p = preset("paper-cg").expect("preset");
    for (t, delta, k_min) in [
        (format!("({p})*min(1,(8/K)^2)"), 0.01, 10),
        (format!("min({p}, 6)"), 0.001, 2),
    ] {
        let audit = dpbai::audit::delta::DeltaAuditConfig {
            setting: Setting::paper(AlgoName::Ttucb, delta).expect("valid δ"),
            threshold: Some(parse_threshold(&t).expect("parses")),
            alpha: 1e-3,
            seed: 1,
            max_steps: 10_000_000,
            plan: dpbai::audit::search::holds_sized_plan(delta, 1e-3, 2).expect("plan"),
            sampling: dpbai::bandit::Sampling::Algorithm,
        };
        let space = SearchSpace {
            k_min,
            ..SearchSpace::default()
        };
        let r = search(&SearchConfig::new(audit, delta, space)).expect("runs");
        assert_eq!(r.verdict, SearchVerdict::Violated, "{t}: {}", r.power);
        let runs: u64 = r.confirmation.iter().map(|c| c.runs).sum();
        let unstopped: u64 = r.confirmation.iter().map(|c| c.unstopped).sum();
        assert!(10 * unstopped < runs, "{t}: {unstopped}/{runs}");
    }
}

#[test]
fn cli_dominates_proves_and_refutes() {
    let cg = preset("paper-cg").expect("preset");
    let plus = format!("{cg} + 0.1");
    let (code, out, _) = crate::common::run_cli(&[
        "audit",
        "delta",
        "--threshold",
        &plus,
        "--dominates",
        "paper-cg",
        "--delta",
        "0.01",
        "--n-arms",
        "5",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("proven") && out.contains("Lemma 35"), "{out}");
    let less = format!("0.999*{cg}");
    let (code, out, _) = crate::common::run_cli(&[
        "audit",
        "delta",
        "--threshold",
        &less,
        "--dominates",
        "paper-cg",
        "--delta",
        "0.01",
    ]);
    assert_eq!(code, 1, "a counterexample exits 1");
    assert!(out.contains("counterexample"), "{out}");
    let (code, _, err) = crate::common::run_cli(&[
        "audit",
        "delta",
        "--threshold",
        "1",
        "--dominates",
        "ref-ttucb",
        "--delta",
        "0.01",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("provable preset"), "{err}");
}

/// `audit dp --search` takes the same budget syntax; a small budget in samples is reported
/// in the JSON (samples drawn, exhausted) and bad budgets exit 2 naming the option.
#[test]
fn cli_dp_search_budget() {
    for bad in ["0", "-3s", "abc"] {
        let arg = format!("--search-budget={bad}");
        let (code, _, err) = crate::common::run_cli(&[
            "audit", "dp", "--mutant", "rr-daf", "--eps", "1", "--search", &arg,
        ]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("search-budget"), "{err}");
    }
    let (code, out, err) = crate::common::run_cli(&[
        "audit",
        "dp",
        "--mutant",
        "rr-daf",
        "--eps",
        "1",
        "--search",
        "--search-budget",
        "1e5",
        "--runs",
        "400",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let s = &v["search"];
    assert_eq!(s["budget"]["kind"], "samples");
    assert_eq!(s["budget_exhausted"], true);
    assert!(s["samples"].as_u64().expect("samples") >= 100_000);
}

#[test]
fn cli_search_rejects_bad_budgets() {
    let (code, _, err) = crate::common::run_cli(&[
        "audit",
        "delta",
        "--algo",
        "ttucb",
        "--delta",
        "0.1",
        "--search",
        "--search-budget",
        "0s",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("search-budget"), "{err}");
    let (code, _, err) = crate::common::run_cli(&[
        "audit",
        "delta",
        "--algo",
        "ttucb",
        "--delta",
        "0.1",
        "--search",
        "--min-gap",
        "0",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("gap"), "{err}");
}

/// A threshold closure and the same rule as an expression give the same audit, run for run.
#[test]
fn closure_threshold_matches_the_expression() {
    use dpbai::audit::custom::with_threshold;
    use dpbai::audit::delta::{AuditInstance, RunPlan, audit_delta, audit_delta_with};
    let mut cfg = search_audit(Some("log(1/delta)/4"));
    cfg.plan = RunPlan::Fixed { runs: 200 };
    let inst = vec![AuditInstance {
        name: "i".into(),
        instance: dpbai::instance::Instance::bernoulli(vec![0.6, 0.45, 0.4]).expect("valid"),
        delta: 0.1,
        eps: None,
    }];
    let a = audit_delta(&cfg, &inst).expect("runs");
    let b = audit_delta_with(
        &cfg,
        &inst,
        &with_threshold(&cfg, |v| (1.0 / v.delta).ln() / 4.0),
    )
    .expect("runs");
    assert_eq!(
        (a.errors, a.instances[0].mean_tau),
        (b.errors, b.instances[0].mean_tau)
    );
}
