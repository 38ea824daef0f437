//! Privacy audits: every mutant violated, every faithful target not (`src/audit/dp`).

use super::assert_usage_error;
use dpbai::audit::Verdict;
use dpbai::audit::dp::{
    DpOptions, MECHANISMS, MUTANTS, Mode, MutantBase, Target, audit_dp, mechanism_info, mutant,
};
use dpbai::bandit::AlgoName;

// ------------------------------------------------------------------------------------------
// Privacy audits: every mutant violated, every faithful target not

fn dp_opts(mode: Mode, runs: Option<u64>) -> DpOptions {
    DpOptions {
        eps: 1.0,
        gamma: dpbai::audit::dp::DEFAULT_GAMMA,
        mode,
        runs,
        alpha: 1e-3,
        seed: 7,
    }
}

#[test]
fn every_mechanism_mutant_is_violated_in_exact_mode() {
    for m in MUTANTS {
        if !matches!(m.base, MutantBase::Mechanism(_)) {
            continue;
        }
        let r = audit_dp(&Target::Mutant(m), &dp_opts(Mode::Auto, None)).expect("runs");
        assert_eq!(r.mode, "exact");
        assert_eq!(r.verdict, Verdict::Violated, "{}: {r:?}", m.name);
        assert!(r.eps_lower > 1.0, "{}", m.name);
    }
}

/// Closed forms of the exact losses (ε = 1): Laplace at half scale 2ε; RR with the keep
/// probability of 2ε: 2ε; DAF without forgetting on 32 samples (6 phases): the first sample
/// shifts phase 1 by 1 (scale 1/ε) and phase k >= 2 by 1/2^{k−1} (scale 1/(ε 2^{k−2})), so
/// ε(1 + 5/2) = 3.5ε; faithful mechanisms: exactly ε (scales rounded up: <= ε).
#[test]
fn exact_losses_match_closed_forms() {
    let loss = |t: Target| {
        audit_dp(&t, &dp_opts(Mode::Exact, None))
            .expect("runs")
            .loss_exact
            .expect("exact")
    };
    let m = |n: &str| Target::Mutant(mutant(n).expect("known"));
    assert!((loss(m("laplace-half-scale")) - 2.0).abs() < 1e-12);
    assert!((loss(m("rr-wrong-keep")) - 2.0).abs() < 1e-12);
    assert!((loss(m("daf-no-forgetting")) - 3.5).abs() < 1e-12);
    for name in ["rr", "laplace", "daf"] {
        let l = loss(Target::Mechanism(mechanism_info(name).expect("known")));
        assert!(l <= 1.0 + 1e-12 && l > 1.0 - 1e-12, "{name:?}: {l}");
    }
    let g = audit_dp(
        &Target::Mechanism(mechanism_info("gaussian").expect("known")),
        &dp_opts(Mode::Exact, None),
    )
    .expect("runs");
    assert_eq!(g.verdict, Verdict::Holds);
    assert!(g.gamma_exact.expect("gamma") <= dpbai::audit::dp::DEFAULT_GAMMA);
}

/// A mechanism mutant is the broken mechanism wrapped to keep the faithful one's claim: the
/// same statement (shape and lemma) as its base, a larger exact loss.
#[test]
fn a_mechanism_mutant_keeps_its_base_claim() {
    let mut seen = 0;
    for m in MUTANTS {
        let MutantBase::Mechanism(mutation) = m.base else {
            continue;
        };
        seen += 1;
        let broken = (mutation.build)(1.0, 1e-5).expect("builds");
        let faithful = (mutation.base().build)(1.0, 1e-5).expect("builds");
        assert_eq!(broken.claim(), faithful.claim(), "{}", m.name);
        assert_eq!(
            faithful.claim().is_approximate(),
            mutation.base().approximate,
            "{}",
            m.name
        );
    }
    assert_eq!(seen, 6);
    let algo_mutants: Vec<&str> = MUTANTS
        .iter()
        .filter(|m| !matches!(m.base, MutantBase::Mechanism(_)))
        .map(|m| m.name)
        .collect();
    assert_eq!(
        algo_mutants,
        [
            "adap-tt-eps-x4",
            "ctb-tt-eps-x4",
            "dp-tt-algo-half-scale",
            "dp-tt-algo-noiseless-phase"
        ]
    );
}

/// Black box: each mutant (mechanisms, whole algorithms run at 4ε while claiming ε, and DP-TT
/// with its release bugs planted in the whole run) is caught from samples alone (pre-registered α = 1e-3, fixed seed), and no faithful mechanism
/// is flagged.
#[test]
fn black_box_catches_every_mutant_and_spares_faithful_mechanisms() {
    for m in MUTANTS {
        let r = audit_dp(&Target::Mutant(m), &dp_opts(Mode::BlackBox, None)).expect("runs");
        assert_eq!(r.verdict, Verdict::Violated, "{}: {r:?}", m.name);
    }
    for name in &MECHANISMS {
        let r = audit_dp(&Target::Mechanism(name), &dp_opts(Mode::BlackBox, None)).expect("runs");
        assert_ne!(r.verdict, Verdict::Violated, "{name:?}: {r:?}");
        assert!(r.eps_lower <= 1.0);
    }
}

#[test]
fn whole_algorithms_are_not_flagged() {
    for algo in [
        AlgoName::CtbTt,
        AlgoName::AdapTt,
        AlgoName::AdapTtStar,
        AlgoName::DpTt,
    ] {
        let r = audit_dp(&Target::Algo(algo), &dp_opts(Mode::Auto, Some(4000))).expect("runs");
        assert_eq!(r.mode, "blackbox");
        assert_ne!(r.verdict, Verdict::Violated, "{algo:?}: {r:?}");
    }
    assert!(audit_dp(&Target::Algo(AlgoName::AdapTt), &dp_opts(Mode::Exact, None)).is_err());
    assert!(
        audit_dp(
            &Target::Algo(AlgoName::Ttucb),
            &dp_opts(Mode::Auto, Some(10))
        )
        .is_err()
    );
    // EB-TCI is DP-TT's non-private reference: no claim to audit
    let e = audit_dp(
        &Target::Algo(AlgoName::EbTci),
        &dp_opts(Mode::Auto, Some(10)),
    )
    .expect_err("no privacy claim")
    .to_string();
    assert!(e.contains("ctb-tt, adap-tt, adap-tt-star or dp-tt"), "{e}");
}

#[test]
fn cli_dp_lists_mutants_and_rejects_unknown_ones() {
    let (code, out, _) = crate::common::run_cli(&["audit", "dp", "--list-mutants"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    let search = dpbai::audit::dp::late_leak::SEARCH_MUTANTS;
    assert_eq!(lines.len(), MUTANTS.len() + search.len());
    for (l, m) in lines.iter().zip(MUTANTS) {
        assert!(l.starts_with(m.name));
    }
    for (l, (name, _)) in lines[MUTANTS.len()..].iter().zip(search) {
        assert!(l.starts_with(name), "{l}");
    }
    assert_usage_error(
        &["audit", "dp", "--mutant", "nope"],
        "unknown mutant 'nope'",
    );
    assert_usage_error(
        &["audit", "dp", "--mechanism", "nope"],
        "unknown mechanism 'nope'",
    );
    assert_usage_error(
        &["audit", "dp", "--mutant", "rr-wrong-keep", "--runs", "0"],
        "runs = 0",
    );
    assert_usage_error(&["audit", "dp"], "exactly one of");
    let (code, out, _) =
        crate::common::run_cli(&["audit", "dp", "--mutant", "laplace-half-scale", "--json"]);
    // Exit code 1: the verdict, so that `audit dp … && deploy` gates.
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["verdict"], "violated");
    for key in ["eps_lower", "eps_claimed", "confidence", "seed", "runs"] {
        assert!(v.get(key).is_some(), "{key}");
    }
}
