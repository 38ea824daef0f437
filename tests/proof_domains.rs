//! A "proven" bound is bound to the domain the algorithm runs on: `audit delta --dominates`
//! proves over each algorithm's declared run domain (`AlgoInfo::run_domain`: the range of `gap`,
//! the `σ` the rule reads, whether `ε` exists, the runs' cap on `t`) or refuses, and
//! `audit check-certificate` rejects a certificate narrower than an algorithm's domain. Each
//! reproducer below was "proven" when the prover assumed `gap ∈ [0, 1]`, `σ = 1/2`, any `ε`
//! and `t <= 1e7`, and then failed its δ-audit. Also: the exact enclosures (`ln 1 = 0`, …)
//! that let a candidate equal to the preset on part of the domain be proven, and their
//! soundness against mpmath.

use crate::common::run_cli;
use dpbai::audit::proof::{ProofRequest, check_certificate, dominates};
use dpbai::bandit::AlgoName;
use dpbai::bandit::info::{ALGORITHMS, Estimates, RuleSigma};
use dpbai::threshold::dominance::{Dominance, ProofFamily, RunParameters};
use dpbai::threshold::expr::{parse_threshold, preset};
use dpbai::threshold::interval::Interval;
use proptest::prelude::*;

/// `dpbai run`'s default step cap, the t cap of a proof by default.
const RUN_CAP: u64 = dpbai::mc::DEFAULT_MAX_STEPS;

fn request(algo: Option<AlgoName>, eps: Option<f64>, gamma: Option<f64>) -> ProofRequest {
    ProofRequest {
        delta: 0.01,
        delta_min: 0.01,
        k: 2,
        k_max: 20,
        algo,
        parameters: RunParameters {
            family: ProofFamily::Bernoulli,
            arm_sigma: 0.5,
            eps,
            gamma,
            max_steps: RUN_CAP,
        },
        max_boxes: 200_000,
        max_seconds: f64::INFINITY,
    }
}

fn answer(out: &str) -> &'static str {
    for a in ["proven", "counterexample", "undecided"] {
        if out.contains(&format!("  {a}")) {
            return a;
        }
    }
    "none"
}

fn cli_dominates(threshold: &str, preset_name: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "audit",
        "delta",
        "--delta",
        "0.01",
        "--threshold",
        threshold,
        "--dominates",
        preset_name,
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = run_cli(&args);
    if code != 2 {
        // The exit code is the verdict (0 proven, 1 counterexample, 3 undecided).
        assert_eq!(
            code,
            crate::common::verdict_code(answer(&out)),
            "{out}{err}"
        );
    }
    (code, out, err)
}

/// Reproducer 1 (gap): equal to AdaP-TT*'s preset for gap <= 1.01, 0 beyond. Its noisy
/// estimates reach gaps of 2-13, so it is not proven (a counterexample at a gap above 1.01).
#[test]
fn reproducer_gap_beyond_one_is_not_proven_for_adap_tt_star() {
    let p = preset("paper-adap-tt-star").expect("preset");
    let t = format!("ifge(gap, 1.01, 0, {p})");
    let (code, out, err) = cli_dominates(&t, "paper-adap-tt-star", &["--eps", "0.1"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(answer(&out), "counterexample", "{out}");
    assert!(out.contains("gap in [0, inf)"), "{out}");
}

/// Reproducer 2 (σ): Gauss-LDP-TT's rule reads the combined σ (10.6 at ε = 0.5, γ = 1e-6), so
/// a threshold that is 0 for σ >= 0.51 is refuted there; without ε and γ it is refused.
#[test]
fn reproducer_sigma_of_gauss_ldp_tt_is_the_combined_one() {
    let p = preset("paper-cg").expect("preset");
    let t = format!("ifge(sigma, 0.51, 0, {p})");
    let (code, out, err) = cli_dominates(
        &t,
        "paper-cg",
        &["--algo", "gauss-ldp-tt", "--eps", "0.5", "--gamma", "1e-6"],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(answer(&out), "counterexample", "{out}");
    assert!(out.contains("sigma = 10.6"), "{out}");
    let (code, out, err) = cli_dominates(&t, "paper-cg", &[]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("gamma") && err.contains("gauss-ldp-tt"),
        "{err}"
    );
    // The start-up probe names the σ the runs use, not the rewards' 1/2.
    let (code, _, err) = run_cli(&[
        "run",
        "--algo",
        "gauss-ldp-tt",
        "--means",
        "0.9,0.5",
        "--delta",
        "0.01",
        "--eps",
        "0.5",
        "--gamma",
        "1e-6",
        "--runs",
        "2",
        "--seed",
        "1",
        "--threshold",
        "ifge(sigma, 0.51, 0/0, 10)",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("sigma = 10.6"), "{err}");
}

/// Reproducer 3 (ε on a non-private algorithm): `--eps` is refused for TTUCB (its runs use
/// ε = ∞, and `dpbai run` refuses `--eps` for it); over the lemma's algorithms together, ε ranges
/// over [1, ∞] and `ifge(eps, 1e300, 0, P)` is not proven.
#[test]
fn reproducer_eps_of_a_non_private_algorithm_is_refused() {
    let p = preset("paper-cg").expect("preset");
    let t = format!("ifge(eps, 1e300, 0, {p})");
    let (code, out, err) = cli_dominates(&t, "paper-cg", &["--algo", "ttucb", "--eps", "1"]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("eps") && err.contains("ttucb"), "{err}");
    let (code, _, err) = run_cli(&[
        "run", "--algo", "ttucb", "--means", "0.9,0.5", "--delta", "0.01", "--eps", "1",
    ]);
    assert_eq!(code, 2, "dpbai run refuses it too: {err}");
    let (code, out, err) = cli_dominates(&t, "paper-cg", &["--eps", "1"]);
    assert_ne!(code, 2, "{err}");
    assert_ne!(answer(&out), "proven", "{out}");
}

/// Reproducer 4 (t): the proof covers t up to the runs' own cap (`dpbai run`'s 1e8 by
/// default), and the conclusion names the cap.
#[test]
fn reproducer_t_beyond_the_audit_cap_is_not_proven() {
    let p = preset("paper-cg").expect("preset");
    let t = format!("ifge(t, 10000001, 0, {p})");
    let (code, out, err) = cli_dominates(&t, "paper-cg", &["--algo", "ttucb"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(answer(&out), "counterexample", "{out}");
    let (code, out, err) = cli_dominates(&format!("{p} + 0.1"), "paper-cg", &["--n-arms", "5"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(answer(&out), "proven", "{out}");
    assert!(
        out.contains(&format!("in runs capped at {RUN_CAP} steps")),
        "the conclusion names the cap: {out}"
    );
}

/// For every private algorithm with a provable preset (AdaP-TT, AdaP-TT*, Gauss-LDP-TT; a new
/// one is covered by its declaration), thresholds equal to its preset on the old assumed domain
/// (`gap <= 1`, `σ = 1/2`) and 0 outside are not proven: the gap one for noisy estimates, the σ
/// one for a rule whose σ is not the rewards'. Each is proven for the old domain, so the test
/// would fail if the domain were still assumed.
#[test]
fn thresholds_that_differ_only_outside_the_old_domain_are_not_proven() {
    let mut checked = 0;
    for info in ALGORITHMS.iter() {
        let Some(pname) = info.paper_preset.map(|p| p.name) else {
            continue;
        };
        if !info.algo.needs_eps() {
            continue;
        }
        let p = preset(pname).expect("preset");
        let (eps, gamma) = (Some(0.5), Some(1e-6));
        let mut candidates = Vec::new();
        if info.estimates == Estimates::Noisy {
            candidates.push(format!("ifge(gap, 1.01, 0, {p})"));
        }
        if info.rule_sigma != RuleSigma::Rewards {
            candidates.push(format!("ifge(sigma, 0.51, 0, {p})"));
        }
        // (CTB-TT: averages of randomised-response bits with the rewards' σ: the old domain.)
        for t in candidates {
            let e = parse_threshold(&t).expect("parses");
            let r = dominates(&e, pname, &request(Some(info.algo), eps, gamma)).expect("runs");
            assert!(
                !matches!(r.result, Dominance::Proven { .. }),
                "{}: `{t}` proven over {:?}",
                info.name,
                r.assumptions.domain
            );
            // Over the old assumed domain (σ = 1/2, gap in [0, 1]) the same threshold is proven.
            let mut old = dpbai::threshold::dominance::DominanceConfig::new(0.01, 2, RUN_CAP);
            old.k_max = 20;
            old.domain.eps = [eps, eps];
            let r = dpbai::threshold::dominance::dominates(&e, pname, &old).expect("runs");
            assert!(
                matches!(r.result, Dominance::Proven { .. }),
                "{}: `{t}` not proven on the old domain: {:?}",
                info.name,
                r.result
            );
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked} cases");
}

/// A TTUCB certificate whose ε is edited from none (ε = ∞) to 1 is rejected, and so is one
/// whose gap range is cut to [0, 1] for AdaP-TT or whose cap is below its runs'.
#[test]
fn check_certificate_rejects_a_domain_narrower_than_the_algorithms() {
    let p = preset("paper-cg").expect("preset");
    let e = parse_threshold(&format!("{p} + 0.1")).expect("parses");
    let mut req = request(Some(AlgoName::Ttucb), None, None);
    req.k_max = 5;
    let r = dominates(&e, "paper-cg", &req).expect("runs");
    let cert = r.certificate.expect("a proof");
    assert!(check_certificate(&cert).expect("checks").valid);
    // Through the CLI, editing the JSON.
    let dir = std::env::temp_dir().join(format!("dpbai-proof-dom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut v = serde_json::to_value(&cert).expect("json");
    assert_eq!(
        v["assumptions"]["domain"]["eps"],
        serde_json::json!([null, null])
    );
    v["assumptions"]["domain"]["eps"] = serde_json::json!([1.0, 1.0]);
    v["assumptions"]["parameters"]["eps"] = serde_json::json!(1.0);
    let path = dir.join("ttucb-eps1.json");
    std::fs::write(&path, v.to_string()).expect("write");
    let (code, out, err) = run_cli(&["audit", "check-certificate", path.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "accepted: {out}{err}");
    assert!(err.contains("certificate rejected"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    // A cap below the runs'.
    let mut bad = cert.clone();
    bad.assumptions.parameters.max_steps *= 10;
    assert!(!check_certificate(&bad).expect("checks").valid);
    // AdaP-TT's noisy gaps: a certificate that stops at gap 1 is narrower.
    let a = preset("paper-adap-tt").expect("preset");
    let e = parse_threshold(&format!("{a} + 0.1")).expect("parses");
    let mut req = request(Some(AlgoName::AdapTt), Some(0.5), None);
    req.k_max = 3;
    let r = dominates(&e, "paper-adap-tt", &req).expect("runs");
    let mut cert = r.certificate.expect("a proof");
    assert!(check_certificate(&cert).expect("checks").valid);
    cert.assumptions.domain.gap_max = Some(1.0);
    let chk = check_certificate(&cert).expect("checks");
    assert!(!chk.valid, "{}", chk.message);
}

/// `P + 0.5·log(1 + log na)` equals `paper-cg` at `na = 1` (`log 1 = 0` exactly) and exceeds it
/// elsewhere: proven, with a certificate the checker accepts.
#[test]
fn a_candidate_equal_to_the_preset_at_na_one_is_proven() {
    let p = preset("paper-cg").expect("preset");
    let e = parse_threshold(&format!("{p} + 0.5*log(1+log(na))")).expect("parses");
    let r = dominates(&e, "paper-cg", &request(None, None, None)).expect("runs");
    let Dominance::Proven { min_margin, .. } = r.result else {
        panic!("{:?}", r.result)
    };
    assert_eq!(min_margin, 0.0);
    assert!(
        check_certificate(&r.certificate.expect("certificate"))
            .expect("checks")
            .valid
    );
}

/// The point enclosure of a function, as the prover builds it.
fn enclose(f: &str, x: f64) -> Interval {
    let i = Interval::point(x);
    match f {
        "ln" => i.ln(),
        "log2" => i.log2(),
        "exp" => i.exp(),
        "sqrt" => i.sqrt(),
        "k" => i.k(),
        "sq" => i.powi(2),
        "cube" => i.powi(3),
        "log1plog" => Interval::point(1.0).add(i.ln()).ln(),
        other => panic!("unknown function {other}"),
    }
}

/// Every point enclosure contains the exact value (mpmath at 400 digits, rounded outward by
/// mpmath: `tests/data/interval_points_golden.toml`, `verify/golden_interval_points.py`), and is
/// that value itself where it is exact (`floor = ceil`: `ln 1`, `log2 2^n`, `k(2^n)`, `exp 0`,
/// `√4`, integer powers).
#[test]
fn point_enclosures_contain_the_mpmath_values_and_are_exact_where_it_is() {
    let data = crate::common::load_toml("interval_points_golden.toml");
    let cases = data["case"].as_array().expect("cases");
    assert!(cases.len() >= 500, "{} cases", cases.len());
    let mut exact = 0;
    for c in cases {
        let f = c["f"].as_str().expect("f");
        let x = c["x"].as_float().expect("x");
        let (lo, hi) = (
            c["floor"].as_float().expect("floor"),
            c["ceil"].as_float().expect("ceil"),
        );
        let i = enclose(f, x);
        assert!(!i.nan, "{f}({x}): NaN flag");
        assert!(
            i.lo <= lo && hi <= i.hi,
            "{f}({x:e}) = [{lo:e}, {hi:e}] not in [{:e}, {:e}]",
            i.lo,
            i.hi
        );
        if lo == hi {
            assert_eq!((i.lo, i.hi), (lo, hi), "{f}({x:e}) is exact");
            exact += 1;
        }
    }
    assert!(exact >= 100, "{exact} exact cases");
}

proptest! {
    /// The enclosure of a random point contains the double the engine computes there (the
    /// libm value, within an ulp of the exact one), for each function with an exact case.
    #[test]
    fn point_enclosures_contain_the_f64_values(x in 1e-6f64..1e9, n in -40i32..40) {
        let p2 = 2f64.powi(n);
        for (f, y, want) in [
            ("ln", x, x.ln()),
            ("log2", x, x.log2()),
            ("log2", p2, p2.log2()),
            ("sqrt", x, x.sqrt()),
            ("exp", x.ln(), x.ln().exp()),
            ("k", 1.0 + x, (1.0 + x).log2() + 2.0),
            ("sq", x, x * x),
            ("log1plog", x.max(1.0).round(), (1.0 + x.max(1.0).round().ln()).ln()),
        ] {
            let i = enclose(f, y);
            prop_assert!(i.lo <= want && want <= i.hi, "{}({:e}) = {:e} not in [{:e}, {:e}]", f, y, want, i.lo, i.hi);
        }
    }
}
