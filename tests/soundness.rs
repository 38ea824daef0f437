//! The soundness bank of the audits: bounds that decide a verdict are rounded in the safe
//! direction (Clopper–Pearson ends against mpmath, exact privacy losses at a tie), proofs by
//! dominance are certificates the checker re-verifies, non-finite thresholds are refused, and
//! the worst-case search answers `violated` on thresholds unsafe only in a corner of the
//! declared space, never on safe ones (each case with its independent evidence).

use dpbai::stats::{cp_lower, cp_lower_outward, cp_upper, cp_upper_outward};

/// Largest relative distance of an outward bound from the exact one (its documented accuracy).
const OUTWARD_REL_TOL: f64 = 1e-8;

/// `cp_lower_outward <= ⌊exact lower⌋` and `cp_upper_outward >= ⌈exact upper⌉`, where the
/// exact bounds and their outward doubles come from mpmath at 50 digits
/// (`tests/data/cp_outward_golden.toml`, `verify/golden_cp_outward.py`); and both within a
/// relative 1e-8. The plain bounds [`cp_lower`], [`cp_upper`] are *not* outward on every case
/// (the test checks that the golden file exercises cases where they are on the wrong side).
#[test]
fn clopper_pearson_ends_are_outward_against_mpmath() {
    let data = crate::common::load_toml("cp_outward_golden.toml");
    let cases = data["case"].as_array().expect("cases");
    assert!(cases.len() >= 300, "{} cases", cases.len());
    let mut plain_wrong_side = 0;
    for c in cases {
        let k = c["k"].as_integer().expect("k") as u64;
        let n = c["n"].as_integer().expect("n") as u64;
        let alpha = c["alpha"].as_float().expect("alpha");
        let lf = c["lower_floor"].as_float().expect("lower_floor");
        let uc = c["upper_ceil"].as_float().expect("upper_ceil");
        let lo = cp_lower_outward(k, n, alpha).expect("cp_lower_outward");
        let up = cp_upper_outward(k, n, alpha).expect("cp_upper_outward");
        assert!(
            lo <= lf,
            "cp_lower_outward({k}, {n}, {alpha}) = {lo:e} > exact {lf:e}"
        );
        assert!(
            up >= uc,
            "cp_upper_outward({k}, {n}, {alpha}) = {up:e} < exact {uc:e}"
        );
        assert!(
            lf - lo <= OUTWARD_REL_TOL * lf,
            "cp_lower_outward({k}, {n}, {alpha}) = {lo:e} too far below {lf:e}"
        );
        assert!(
            up - uc <= OUTWARD_REL_TOL * uc,
            "cp_upper_outward({k}, {n}, {alpha}) = {up:e} too far above {uc:e}"
        );
        let (pl, pu) = (
            cp_lower(k, n, alpha).expect("cp_lower"),
            cp_upper(k, n, alpha).expect("cp_upper"),
        );
        if pl > lf || pu < uc {
            plain_wrong_side += 1;
        }
    }
    assert!(
        plain_wrong_side > 10,
        "only {plain_wrong_side} cases where the solver's bounds are on the unsafe side"
    );
}

use crate::common::run_cli;
use dpbai::threshold::expr::preset;

/// Every non-finite threshold of the soundness report is refused by `--dominates` with exit 2
/// and a message naming the point (as `dpbai run --threshold` refuses them), never `proven`.
#[test]
fn cli_dominates_refuses_non_finite_thresholds_naming_the_point() {
    for t in [
        "0/0",
        "max(0/0,0)",
        "ifge(t,5000000,0/0,1e300)",
        "log(1/delta)+sqrt(150-t)+100",
        "100 + sqrt(na-2)",
        "1e300*1e300",
        "2^2^2^2^2^2",
        "100 + 0*log(nb-1)",
    ] {
        let (code, out, err) = run_cli(&[
            "audit",
            "delta",
            "--dominates",
            "paper-cg",
            "--delta",
            "0.01",
            "--threshold",
            t,
        ]);
        assert_eq!(code, 2, "{t}: {out}{err}");
        assert!(!out.contains("proven"), "{t}: {out}");
        assert!(
            err.contains("at t = ") && err.contains("must be finite"),
            "{t}: {err}"
        );
        // `dpbai run` refuses the same text.
        let (code, _, err) = run_cli(&[
            "run",
            "--algo",
            "ttucb",
            "--means",
            "0.9,0.5",
            "--delta",
            "0.01",
            "--runs",
            "2",
            "--threshold",
            t,
        ]);
        assert_eq!(code, 2, "run {t}: {err}");
    }
}

/// No `proven` without `--eps` for a private preset; out-of-range inputs exit 2 naming them.
#[test]
fn cli_dominates_validates_its_inputs() {
    let (code, out, err) = run_cli(&[
        "audit",
        "delta",
        "--dominates",
        "paper-adap-tt",
        "--delta",
        "0.01",
        "--threshold",
        "paper-adap-tt-star",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("eps"), "{err}");
    for (flag, value, name) in [
        ("--delta", "5e-324", "delta"),
        ("--delta", "1e-310", "delta"),
        ("--eps", "1e-300", "eps"),
        ("--n-arms", "18446744073709551615", "K"),
        ("--dominance-boxes", "1e9", "dominance-boxes"),
    ] {
        let mut args = vec![
            "audit",
            "delta",
            "--dominates",
            "paper-cg",
            "--threshold",
            "paper-cg",
        ];
        if flag != "--delta" {
            args.extend(["--delta", "0.01"]);
        }
        args.extend([flag, value]);
        let (code, _, err) = run_cli(&args);
        assert_eq!(code, 2, "{flag} {value}: {err}");
        assert!(err.contains(name), "{flag} {value}: {err}");
    }
    let (code, _, err) = run_cli(&[
        "audit",
        "delta",
        "--dominates",
        "paper-cg",
        "--delta",
        "0.01",
        "--threshold",
        "paper-cg",
        "--family",
        "gaussian",
        "--sigma",
        "1e-300",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("sigma"), "{err}");
}

/// Every proof of the bank writes a certificate that `audit check-certificate` accepts, and a
/// copy with one margin moved up by one ulp (a claim one ulp stronger than the arithmetic
/// gives) is rejected. Bank of proofs: each holds by construction (a closed-form argument in
/// the comment of the row).
#[test]
fn cli_check_certificate_accepts_the_bank_and_rejects_a_one_ulp_edit() {
    let cg = preset("paper-cg").expect("preset");
    let adap = preset("paper-adap-tt").expect("preset");
    let bank: Vec<(String, Vec<&str>)> = vec![
        // P + 0.1 >= P everywhere.
        (
            format!("{cg} + 0.1"),
            vec!["--dominates", "paper-cg", "--n-arms", "5"],
        ),
        // Equal to P where K < 100 (the branch is decided on the domain).
        (
            format!("ifge(K, 100, ({cg})/2, {cg})"),
            vec!["--dominates", "paper-cg", "--k-min", "2", "--k-max", "20"],
        ),
        // max(P, x) >= P.
        (
            format!("max({cg}, 2*log((K-1)/delta))"),
            vec![
                "--dominates",
                "paper-cg",
                "--k-min",
                "2",
                "--k-max",
                "6",
                "--max-steps",
                "1000",
            ],
        ),
        // A safe margin of only 1e-9: P + 1e-9 >= P (safe by a small margin).
        (
            format!("{cg} + 1e-9"),
            vec!["--dominates", "paper-cg", "--delta-min", "1e-6"],
        ),
        // The private preset with its eps, plus log(t)/1e6 >= 0.
        (
            format!("{adap} + log(t)/1e6"),
            vec![
                "--dominates",
                "paper-adap-tt",
                "--eps",
                "0.5",
                "--n-arms",
                "3",
                "--max-steps",
                "100000",
            ],
        ),
    ];
    let dir = std::env::temp_dir().join(format!("dpbai-cert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (i, (t, extra)) in bank.iter().enumerate() {
        let mut args = vec![
            "audit",
            "delta",
            "--delta",
            "0.01",
            "--threshold",
            t.as_str(),
            "--json",
        ];
        args.extend(extra.iter().copied());
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 0, "{t}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("json");
        assert_eq!(v["result"]["answer"], "proven", "{t}: {out}");
        let path = dir.join(format!("cert-{i}.json"));
        std::fs::write(&path, &out).expect("write");
        let p = path.to_str().expect("utf-8 path");
        let (code, out2, err) = run_cli(&["audit", "check-certificate", p]);
        assert_eq!(code, 0, "{t}: {out2}{err}");
        assert!(out2.contains("certificate valid"), "{out2}");
        // One ulp in the wrong direction on the smallest margin.
        let mut c = v["certificate"].clone();
        let margins = c["margins"].as_array_mut().expect("margins");
        let j = margins.len() - 1;
        let m = margins[j].as_f64().expect("f64");
        margins[j] = serde_json::json!(dpbai::float::next_up(m));
        let bad = dir.join(format!("bad-{i}.json"));
        std::fs::write(&bad, serde_json::to_string(&c).expect("json")).expect("write");
        let (code, _, err) = run_cli(&["audit", "check-certificate", bad.to_str().expect("utf-8")]);
        assert_eq!(code, 1, "{t}: a one-ulp edit was accepted");
        assert!(err.contains("certificate rejected"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The search options at their extremes exit 2 naming them (memory and time stay bounded:
/// the ranges of `dpbai::audit::search`).
#[test]
fn cli_search_options_are_validated() {
    for (flag, value) in [
        ("--screen-candidates", "100000000"),
        ("--screen-runs", "100000000000"),
        ("--local-runs", "100000000000"),
        ("--alpha", "1e-300"),
        ("--finalists", "0"),
        ("--search-budget", "1e13"),
        ("--k-max", "5000"),
        ("--eps-lo", "1e-300"),
        ("--delta-min", "1e-310"),
    ] {
        let (code, _, err) = run_cli(&[
            "audit", "delta", "--algo", "adap-tt", "--delta", "0.1", "--search", flag, value,
        ]);
        assert_eq!(code, 2, "{flag} {value}: {err}");
        let name = flag.trim_start_matches("--");
        assert!(
            err.contains(name) || err.contains(&name.replace('-', " ")) || err.contains("range"),
            "{flag} {value}: {err}"
        );
    }
    for delta in ["5e-324", "1e-310"] {
        let (code, _, err) = run_cli(&[
            "audit", "delta", "--algo", "ttucb", "--delta", delta, "--search",
        ]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("1e-300") || err.contains("delta"), "{err}");
    }
}

/// Search bank, Gaussian-only corner: `ifge(sigma, 0.75, log(1/delta)/20, P)` is the paper's
/// threshold on Bernoulli arms (the rule's σ is 1/2) and `log(1/δ)/20 ≈ 0.23` on Gaussian arms
/// of σ = 1. Independent evidence (closed form): on Gaussian arms the statistic after the
/// first sample of each arm exceeds 0.23 unless the two samples are within
/// `√(4σ²·0.23)·… `; the rule then stops at once on the empirical leader, wrong with
/// probability `Φ(−gap/(σ√2)) >= Φ(−0.4/√2) = 0.389 > δ = 0.1` for every gap of the space
/// (at least the probability of that first stop being wrong times the probability of
/// stopping, both bounded away from 0). Declared: K in [2, 4], both families; default
/// budget and options otherwise. Expected: `violated`, on a Gaussian instance.
#[test]
fn search_bank_gaussian_only_corner_is_violated() {
    let cg = preset("paper-cg").expect("preset");
    let t = format!("ifge(sigma, 0.75, log(1/delta)/20, {cg})");
    let v = search(&t, "0.1", &["--family", "both", "--k-max", "4"]);
    assert_eq!(v["verdict"], "violated", "{}", v["confirmation_statement"]);
    assert!(
        v["worst_family"]
            .as_str()
            .expect("family")
            .starts_with("gaussian")
    );
}

/// Search bank, small σ: `ifge(sigma, 0.3, P, log(1/δ)/20)` is the paper's threshold for
/// σ >= 0.3 and `≈ 0.23` below, so only Gaussian arms with a small σ are at risk. Independent
/// evidence (direct Monte Carlo): on `[0.5, 0.45]` with σ = 0.1 at δ = 0.1, 400 runs are
/// `violated` (the statistic after one sample of each arm is about `gap²/(4σ²)`, so the rule
/// stops at once, wrong with probability `Φ(−gap/(σ√2))`). Declared: Gaussian arms with σ in
/// [0.1, 1] (`--sigma-min/--sigma-max`), K in [2, 4]. Expected: `violated` on an instance
/// with σ < 0.3; without the σ range (σ = 1 alone) the threshold is the paper's, and `--sigma-min`
/// without `--search` or on Bernoulli arms is refused.
#[test]
fn search_bank_small_sigma_corner_is_violated() {
    let cg = preset("paper-cg").expect("preset");
    let t = format!("ifge(sigma, 0.3, {cg}, log(1/delta)/20)");
    let (verdict, errors, runs) = direct_with(
        &t,
        "0.1",
        "0.5,0.45",
        "400",
        &["--family", "gaussian", "--sigma", "0.1"],
    );
    assert_eq!(verdict, "violated", "{errors}/{runs}");
    let v = search(
        &t,
        "0.1",
        &[
            "--family",
            "gaussian",
            "--sigma-min",
            "0.1",
            "--sigma-max",
            "1",
            "--k-max",
            "4",
        ],
    );
    assert_eq!(v["verdict"], "violated", "{}", v["confirmation_statement"]);
    let family = v["worst_family"].as_str().expect("family");
    let sigma: f64 = family
        .trim_start_matches("gaussian(")
        .trim_end_matches(')')
        .parse()
        .expect("gaussian(σ)");
    assert!((0.1..0.3).contains(&sigma), "{family}");
    for bad in [
        vec!["--sigma-min", "0.1"],
        vec!["--search", "--sigma-min", "0.1"],
        vec![
            "--search",
            "--family",
            "gaussian",
            "--sigma-min",
            "2",
            "--sigma-max",
            "1",
        ],
    ] {
        let mut args = vec!["audit", "delta", "--algo", "ttucb", "--delta", "0.1"];
        args.extend(bad);
        let (code, _, err) = run_cli(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("sigma"), "{err}");
    }
}

/// Search bank, safe by a small margin: `P + 1e-9` dominates the paper threshold (a proof:
/// `audit delta --dominates` proves it, see the certificate bank), so its error probability is
/// at most δ by Eq. (4)/Lemma 35; the search must never answer `violated` (a small budget).
#[test]
fn search_bank_safe_by_a_small_margin_is_never_violated() {
    let cg = preset("paper-cg").expect("preset");
    let t = format!("{cg} + 1e-9");
    let v = search(
        &t,
        "0.1",
        &["--k-max", "4", "--min-gap", "0.1", "--search-budget", "3e6"],
    );
    assert_eq!(v["verdict"], "no violation found", "{v}");
    assert!(v["samples"].as_u64().expect("samples") <= 3_000_000);
}

/// `audit delta --json` on the fixed instance `means`: (verdict, errors, runs).
fn direct(threshold: &str, delta: &str, means: &str, runs: &str) -> (String, u64, u64) {
    direct_with(threshold, delta, means, runs, &[])
}

/// [`direct`] with more options (`extra`, e.g. the family and σ).
fn direct_with(
    threshold: &str,
    delta: &str,
    means: &str,
    runs: &str,
    extra: &[&str],
) -> (String, u64, u64) {
    let mut args = vec![
        "audit",
        "delta",
        "--algo",
        "ttucb",
        "--delta",
        delta,
        "--means",
        means,
        "--threshold",
        threshold,
        "--runs",
        runs,
        "--json",
    ];
    args.extend(extra);
    let (code, out, err) = run_cli(&args);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let verdict = v["verdict"].as_str().expect("verdict");
    assert_eq!(code, crate::common::verdict_code(verdict), "{err}");
    (
        v["verdict"].as_str().expect("verdict").to_string(),
        v["errors"].as_u64().expect("errors"),
        v["runs"].as_u64().expect("runs"),
    )
}

/// `audit delta --search --json` on TTUCB with default options besides `declared` (every
/// stage within the default budget, `DEFAULT_BUDGET`).
fn search(threshold: &str, delta: &str, declared: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "audit",
        "delta",
        "--algo",
        "ttucb",
        "--delta",
        delta,
        "--threshold",
        threshold,
        "--search",
        "--json",
    ];
    args.extend(declared);
    let (code, out, err) = run_cli(&args);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let verdict = v["verdict"].as_str().expect("verdict");
    assert_eq!(code, crate::common::verdict_code(verdict), "{err}");
    let dpbai::audit::search::Budget::Samples(budget) = dpbai::audit::search::DEFAULT_BUDGET else {
        panic!("the default budget is in samples")
    };
    assert!(v["samples"].as_u64().expect("samples") <= budget);
    v
}

/// Search bank, many arms with uneven other means: `ifge(K, 10, log(1/δ)/20, P)` is the
/// paper's threshold below 10 arms and `log(1/δ)/20 ≈ 0.15` from 10 arms on. Independent
/// evidence (direct Monte Carlo with a Clopper–Pearson statement, not the search): on the
/// uneven instance `[0.5, 0.45, 0.4, 0.3, 0.2, 0.1, 0.1, 0.05, 0.05, 0]` at δ = 0.05, 400 runs
/// give about 300 errors, `violated` at confidence 0.999 (its CP lower end is far above δ).
/// Declared: K in [10, 20]. Expected: `violated`.
#[test]
fn search_bank_many_arms_uneven_means_is_violated() {
    let t = format!(
        "ifge(K, 10, log(1/delta)/20, {})",
        preset("paper-cg").expect("preset")
    );
    let (verdict, errors, runs) = direct(
        &t,
        "0.05",
        "0.5,0.45,0.4,0.3,0.2,0.1,0.1,0.05,0.05,0",
        "400",
    );
    assert_eq!(verdict, "violated", "{errors}/{runs}");
    let v = search(&t, "0.05", &["--k-min", "10", "--k-max", "20"]);
    assert_eq!(v["verdict"], "violated", "{}", v["confirmation_statement"]);
}

/// Search bank, small δ: `ifge(δ, 0.01, P, log(1/δ)/4)` is the paper's threshold for
/// δ >= 0.01 and `log(1/δ)/4 ≈ 1.7` below. Independent evidence (direct Monte Carlo): at
/// δ = 10⁻³ on `[0.7, 0.5, 0.3]`, 2000 runs give about 46 errors (rate 0.023, over twenty
/// times δ), `violated` at confidence 0.999. Declared: δ = 10⁻³, K in [2, 4]. Expected:
/// `violated`.
#[test]
fn search_bank_small_delta_is_violated() {
    let t = format!(
        "ifge(delta, 0.01, {}, log(1/delta)/4)",
        preset("paper-cg").expect("preset")
    );
    let (verdict, errors, runs) = direct(&t, "0.001", "0.7,0.5,0.3", "2000");
    assert_eq!(verdict, "violated", "{errors}/{runs}");
    let v = search(&t, "0.001", &["--k-max", "4"]);
    assert_eq!(v["verdict"], "violated", "{}", v["confirmation_statement"]);
}

/// Search bank, late in the run: `ifge(t, 2000, log(1/δ)/20, P)` is the paper's threshold
/// for the first 2000 samples, then `≈ 0.15`: only runs that last longer (small gaps) stop
/// wrongly. Independent evidence (direct Monte Carlo): at δ = 0.05 on `[0.5, 0.49]`, 400 runs
/// give about 120 errors, `violated`; on `[0.5, 0.45]` the runs stop before `t = 2000` and
/// the same threshold is not shown unsafe (a corner, not a globally unsafe rule), and the
/// paper's threshold itself makes no error in 400 runs on `[0.5, 0.49]`. Declared: K in
/// [2, 4]. Expected: `violated`.
#[test]
fn search_bank_late_in_the_run_is_violated() {
    let p = preset("paper-cg").expect("preset");
    let t = format!("ifge(t, 2000, log(1/delta)/20, {p})");
    let (verdict, errors, runs) = direct(&t, "0.05", "0.5,0.49", "400");
    assert_eq!(verdict, "violated", "{errors}/{runs}");
    let (verdict, errors, runs) = direct(&t, "0.05", "0.5,0.45", "400");
    assert_ne!(verdict, "violated", "{errors}/{runs}");
    let (_, errors, _) = direct(&p, "0.05", "0.5,0.49", "400");
    assert!(errors <= 5, "{errors}");
    let v = search(&t, "0.05", &["--k-max", "4"]);
    assert_eq!(v["verdict"], "violated", "{}", v["confirmation_statement"]);
}
