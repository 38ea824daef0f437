//! Property-based CLI harness: generated argument vectors over every subcommand and
//! option, with numbers from the extremes (subnormal, ±0, 1e±300, overflow, NaN, u64::MAX),
//! malformed lists and expressions. Each case runs the binary as a subprocess with a time cap.
//!
//! Property: exit 0 with finite output (no NaN; no infinity outside `dpbai fn`, whose
//! divergences are legitimately `inf` at the boundary), or exit 2 with exactly one line on
//! stderr naming an option (or, for `dpbai fn`, the function's argument). Never a panic (101),
//! an abort (134), a kill by the time cap, or another exit code.
//!
//! The default run checks [`DEFAULT_CASES`] cases on 4 worker threads (the work of one case is
//! bounded: few runs and a small step cap, or a value that is refused); the `--ignored` sweep
//! checks [`SWEEP_CASES`] more with another seed:
//! `cargo test --release --test lib cli_props -- --ignored`.

use crate::common::dpbai_bin;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Cases of the default run.
const DEFAULT_CASES: usize = 2000;
/// Cases of the `--ignored` sweep.
const SWEEP_CASES: usize = 20_000;
/// Time cap of one case.
const CASE_CAP: Duration = Duration::from_secs(30);

fn pick(xs: &'static [&'static str]) -> BoxedStrategy<String> {
    prop::sample::select(xs).prop_map(str::to_string).boxed()
}

/// Real numbers at the extremes, plus malformed ones.
fn real() -> BoxedStrategy<String> {
    pick(&[
        "0",
        "-0",
        "-1",
        "1e-320",
        "5e-324",
        "1e-300",
        "1e-154",
        "1e-100",
        "1e-17",
        "0.01",
        "0.1",
        "0.3",
        "0.5",
        "0.9",
        "1",
        "2",
        "700",
        "709",
        "710",
        "1e4",
        "1e100",
        "1e155",
        "1e300",
        "1e309",
        "inf",
        "-inf",
        "NaN",
        "nan",
        "abc",
        "",
        "0x10",
        "1_0",
        "0.99999999999999989",
    ])
}

/// Probabilities and risks: mostly in range, some at or beyond the edges.
fn unit() -> BoxedStrategy<String> {
    prop_oneof![
        3 => pick(&["0.1", "0.05", "0.01", "0.5", "1e-300", "1e-100", "0.99999999999999989"]),
        2 => real(),
    ]
    .boxed()
}

/// Run counts: small, or far beyond the limits.
fn runs() -> BoxedStrategy<String> {
    prop_oneof![
        4 => pick(&["1", "2", "3"]),
        1 => pick(&[
            "0", "-1", "abc", "1e3", "10000001", "1000000000000", "18446744073709551615",
            "18446744073709551616",
        ]),
    ]
    .boxed()
}

/// Step caps: small, or refused.
fn max_steps() -> BoxedStrategy<String> {
    prop_oneof![
        4 => pick(&["1", "7", "200", "3000"]),
        1 => pick(&["0", "-5", "1000000000001", "18446744073709551615", "x"]),
    ]
    .boxed()
}

fn threads() -> BoxedStrategy<String> {
    pick(&["1", "2", "3", "0", "1025", "100000", "-1", "z"])
}

fn means() -> BoxedStrategy<String> {
    pick(&[
        "0.7,0.55,0.5,0.3",
        "0.7, 0.5",
        " 0.3 , 0.2 ",
        "0.9,0.1",
        "1e-17,0.6",
        "1e-300,0",
        "1,0.999999999999",
        "0.6,0.5,0.5,0.5",
        "0.7,,0.5",
        "0.7",
        "0.5,0.5",
        "1.5,0.2",
        "-0.1,0.3",
        "NaN,0.2",
        "",
        ",",
        "0.7;0.5",
        "3,-2,1e50",
        "1e60,0",
        "1e-320,0.5",
    ])
}

pub(crate) fn threshold() -> BoxedStrategy<String> {
    pick(&[
        "1/0",
        "sqrt(-1)",
        "zeta(1)",
        "k(0)",
        "log(t)",
        "log(t - 5)",
        "log(1/delta)",
        "log(1/delta)/20",
        "cg(log((K-1)/delta)/2)",
        "h(na, delta, K)",
        "2^1024",
        "1e999",
        "(",
        "log(",
        "na +",
        "x",
        "",
        "paper-cg",
        "paper-adap-tt",
        "ref-ttucb",
        "unsafe-log-over-20",
    ])
}

const ALGOS: &[&str] = &[
    "ttucb",
    "ctb-tt",
    "gauss-ldp-tt",
    "adap-tt",
    "adap-tt-star",
    "dp-se",
    "dpa-tt",
    "nope",
];

/// Appends `--name value` with probability ~1/2 (or always when `always`).
fn opt(name: &'static str, v: BoxedStrategy<String>, always: bool) -> BoxedStrategy<Vec<String>> {
    let flag = format!("--{name}");
    if always {
        v.prop_map(move |x| vec![flag.clone(), x]).boxed()
    } else {
        prop::option::of(v)
            .prop_map(move |x| x.map(|x| vec![flag.clone(), x]).unwrap_or_default())
            .boxed()
    }
}

fn flag(name: &'static str) -> BoxedStrategy<Vec<String>> {
    any::<bool>()
        .prop_map(move |b| if b { vec![format!("--{name}")] } else { vec![] })
        .boxed()
}

fn concat(head: &[&str], parts: Vec<BoxedStrategy<Vec<String>>>) -> BoxedStrategy<Vec<String>> {
    let head: Vec<String> = head.iter().map(|s| s.to_string()).collect();
    parts
        .prop_map(move |ps| {
            let mut v = head.clone();
            for p in ps {
                v.extend(p);
            }
            v
        })
        .boxed()
}

fn run_case() -> BoxedStrategy<Vec<String>> {
    concat(
        &["run"],
        vec![
            opt("algo", pick(ALGOS), true),
            opt("means", means(), true),
            opt("family", pick(&["bernoulli", "gaussian", "poisson"]), false),
            opt("sigma", real(), false),
            opt("delta", unit(), true),
            opt("eps", real(), false),
            opt("gamma", unit(), false),
            opt("beta", unit(), false),
            opt("rules", pick(&["paper", "reference", "x"]), false),
            opt("tie-break", pick(&["lowest-index", "uniform", "x"]), false),
            opt("challenger-counts", pick(&["global", "local"]), false),
            flag("ids-beta"),
            opt("gauss-sigma", pick(&["combined", "printed"]), false),
            opt("eq14-form", pick(&["k-squared", "printed"]), false),
            opt("dpa-episodes", pick(&["per-arm", "global"]), false),
            flag("step-by-step"),
            opt("engine", pick(&["phase", "per-sample", "x"]), false),
            opt("runs", runs(), true),
            opt(
                "seed",
                pick(&["0", "1", "18446744073709551615", "-1"]),
                true,
            ),
            opt("threads", threads(), false),
            opt("max-steps", max_steps(), true),
            opt(
                "shard",
                pick(&["0/2", "1/2", "2/2", "0/0", "x", "0/100"]),
                false,
            ),
            opt("out", pick(&["@OUT"]), false),
            flag("json"),
        ],
    )
}

fn bounds_case() -> BoxedStrategy<Vec<String>> {
    concat(
        &["bounds"],
        vec![
            opt("means", means(), true),
            opt("family", pick(&["bernoulli", "gaussian", "x"]), false),
            opt("sigma", real(), false),
            opt("eps", real(), false),
            opt("delta", unit(), false),
            opt("beta", unit(), false),
            flag("json"),
            opt(
                "eps-grid",
                pick(&[
                    "0.01:10:5",
                    "1:0.1:3",
                    "0.001:1000:1000000000",
                    "0:1:3",
                    "a:b:c",
                    "1e-300:1e300:7",
                    "0.1:10:100001",
                    "0.5:0.5:1",
                    "-1:2:3",
                ]),
                false,
            ),
        ],
    )
}

fn audit_delta_case() -> BoxedStrategy<Vec<String>> {
    concat(
        &["audit", "delta"],
        vec![
            opt("algo", pick(ALGOS), false),
            flag("list-presets"),
            opt("means", means(), false),
            opt("family", pick(&["bernoulli", "gaussian", "x"]), false),
            opt("sigma", real(), false),
            opt("delta", unit(), false),
            opt("eps", real(), false),
            opt("gamma", unit(), false),
            opt("threshold", threshold(), false),
            opt("rules", pick(&["paper", "reference"]), false),
            opt("runs", runs(), true),
            opt(
                "battery",
                pick(&["default", "/nonexistent/battery.toml"]),
                false,
            ),
            opt("alpha", unit(), false),
            opt("max-steps", max_steps(), true),
            opt("seed", pick(&["1", "7"]), false),
            flag("json"),
        ],
    )
}

fn audit_delta_sequential_case() -> BoxedStrategy<Vec<String>> {
    concat(
        &["audit", "delta", "--until-decided"],
        vec![
            opt("algo", pick(ALGOS), true),
            opt("means", means(), true),
            opt("delta", unit(), true),
            opt("eps", real(), false),
            opt("budget", runs(), true),
            opt("first", runs(), true),
            opt("max-steps", max_steps(), true),
        ],
    )
}

fn audit_dp_case() -> BoxedStrategy<Vec<String>> {
    let target = prop_oneof![
        opt(
            "mechanism",
            pick(&["rr", "laplace", "gaussian", "daf", "nope"]),
            true
        ),
        opt(
            "algo",
            pick(&["ctb-tt", "adap-tt", "adap-tt-star", "ttucb"]),
            true
        ),
        opt(
            "mutant",
            pick(&[
                "laplace-half-scale",
                "daf-no-forgetting",
                "rr-wrong-keep",
                "gaussian-small-sigma",
                "adap-tt-eps-x4",
                "ctb-tt-eps-x4",
                "nope",
            ]),
            true,
        ),
        Just(vec!["--list-mutants".to_string()]),
    ]
    .boxed();
    concat(
        &["audit", "dp"],
        vec![
            target,
            opt("eps", real(), false),
            opt("gamma", unit(), false),
            opt("mode", pick(&["auto", "exact", "blackbox", "x"]), false),
            opt(
                "runs",
                pick(&["2", "20", "200", "0", "1000000000000", "-3"]),
                true,
            ),
            opt("alpha", unit(), false),
            opt("seed", pick(&["1", "2"]), false),
            flag("json"),
        ],
    )
}

fn fn_case() -> BoxedStrategy<Vec<String>> {
    let name = prop_oneof![
        9 => pick(&crate::common::FN_NAMES),
        1 => pick(&["nope"]),
    ];
    (name, prop::collection::vec(real(), 0..4), any::<bool>())
        .prop_map(|(n, args, json)| {
            let mut v = vec!["fn".to_string()];
            if json {
                v.push("--json".into());
            }
            v.push(n);
            v.extend(args);
            v
        })
        .boxed()
}

fn merge_case() -> BoxedStrategy<Vec<String>> {
    concat(
        &["merge"],
        vec![
            opt("out", pick(&["@OUT"]), false),
            pick(&["/nonexistent/shard.json", "@GARBAGE"])
                .prop_map(|f| vec![f])
                .boxed(),
            flag("json"),
        ],
    )
}

/// `verify` only in forms refused before any work (a valid verify takes minutes).
fn verify_case() -> BoxedStrategy<Vec<String>> {
    pick(&[
        "--runs 0",
        "--runs 18446744073709551615",
        "--runs 10000001",
        "--threads 0",
        "--threads 100000",
        "--shard 2/2",
        "--shard x",
        "--shard 0/2 --check",
        "--profile nope",
        "--runs -1",
    ])
    .prop_map(|s| {
        let mut v = vec!["verify".to_string()];
        v.extend(s.split(' ').map(str::to_string));
        v
    })
    .boxed()
}

fn any_case() -> BoxedStrategy<Vec<String>> {
    prop_oneof![
        6 => run_case(),
        3 => bounds_case(),
        3 => audit_delta_case(),
        1 => audit_delta_sequential_case(),
        3 => audit_dp_case(),
        4 => fn_case(),
        1 => merge_case(),
        1 => verify_case(),
    ]
    .boxed()
}

/// Output of one case.
pub(crate) struct Outcome {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) timed_out: bool,
}

pub(crate) fn run_with_cap(args: &[String], dir: &std::path::Path, id: usize) -> Outcome {
    let args: Vec<String> = args
        .iter()
        .map(|a| match a.as_str() {
            "@OUT" => dir.join(format!("out-{id}")).display().to_string(),
            "@GARBAGE" => {
                let p = dir.join(format!("garbage-{id}.json"));
                std::fs::write(&p, "{\"format\": \"dpbai-shard/1\", \"records\": [1, 2]}")
                    .expect("write garbage");
                p.display().to_string()
            }
            _ => a.clone(),
        })
        .collect();
    let mut child = Command::new(dpbai_bin())
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dpbai binary runs");
    let mut so = child.stdout.take().expect("stdout");
    let mut se = child.stderr.take().expect("stderr");
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = so.read_to_string(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = se.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if start.elapsed() > CASE_CAP {
            timed_out = true;
            let _ = child.kill();
            break child.wait().expect("wait after kill");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    Outcome {
        code: status.code(),
        stdout: t_out.join().unwrap_or_default(),
        stderr: t_err.join().unwrap_or_default(),
        timed_out,
    }
}

/// Whether `line` names an option of `args` (or, for `fn`, is about the call).
fn names_an_option(args: &[String], line: &str) -> bool {
    if args[0] == "fn" {
        return true;
    }
    let l = line.to_lowercase();
    // An explicit `--option` in the message.
    if l.match_indices("--").any(|(i, _)| {
        l[i + 2..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase())
    }) {
        return true;
    }
    let mut names: Vec<String> = vec![
        "means".into(),
        "instance".into(),
        "arm".into(),
        "threshold".into(),
        "shard".into(),
        "algo".into(),
        "mechanism".into(),
        "mutant".into(),
        "battery".into(),
        "profile".into(),
        "argument".into(),
        "subcommand".into(),
        "usage".into(),
    ];
    for a in args {
        if let Some(n) = a.strip_prefix("--") {
            names.push(n.to_lowercase());
            names.push(n.replace('-', "_").to_lowercase());
            names.push(n.replace('-', " ").to_lowercase());
        }
    }
    names.iter().any(|n| l.contains(n.as_str()))
}

fn has_token(text: &str, tok: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case(tok))
}

/// Checks the property; returns a description of the violation, if any.
fn check(args: &[String], o: &Outcome) -> Option<String> {
    if o.timed_out {
        return Some(format!("hang (killed after {CASE_CAP:?})"));
    }
    match o.code {
        Some(0) => {
            if has_token(&o.stdout, "nan") {
                return Some(format!("NaN in the output:\n{}", o.stdout));
            }
            let listing = args.iter().any(|a| a.starts_with("--list"));
            if args[0] != "fn"
                && !listing
                && (has_token(&o.stdout, "inf") || o.stdout.contains("∞"))
            {
                return Some(format!("an infinity in the output:\n{}", o.stdout));
            }
            if o.stdout.trim().is_empty() && !args.iter().any(|a| a == "--help") {
                return Some("exit 0 with no output".into());
            }
            None
        }
        Some(2) => {
            let err = o.stderr.trim();
            if err.lines().count() != 1 {
                return Some(format!("exit 2 without a one-line message: {err:?}"));
            }
            // NaN may only appear as the user's own value, or as the value a user threshold
            // took (the message that refuses it).
            let nan_given = args.iter().any(|a| a.to_lowercase().contains("nan"))
                || args.iter().any(|a| a == "--threshold");
            if has_token(err, "nan") && !nan_given {
                return Some(format!("NaN in the message: {err}"));
            }
            if !names_an_option(args, err) {
                return Some(format!("message names no option: {err}"));
            }
            None
        }
        // An audit's verdict: 1 violated, 3 inconclusive or undecided (docs/GUIDE.md), with its
        // report on stdout and no error on stderr.
        Some(1 | 3) if args[0] == "audit" => {
            if o.stdout.trim().is_empty() || o.stderr.contains("error:") {
                return Some(format!(
                    "audit exit {:?} without its report, or with an error: {}",
                    o.code,
                    o.stderr.trim()
                ));
            }
            if has_token(&o.stdout, "nan") {
                return Some(format!("NaN in the output:\n{}", o.stdout));
            }
            None
        }
        other => Some(format!(
            "exit {other:?} (panic/abort?), stderr: {}",
            o.stderr.lines().take(3).collect::<Vec<_>>().join(" | ")
        )),
    }
}

fn sweep(cases: usize, seed: [u8; 32], workers: usize) {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed),
    );
    let strat = any_case();
    let all: Vec<Vec<String>> = (0..cases)
        .map(|_| strat.new_tree(&mut runner).expect("case").current())
        .collect();
    let dir = std::env::temp_dir().join(format!("dpbai-cli-props-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let counts = std::sync::Mutex::new([0usize; 2]);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= all.len() {
                        break;
                    }
                    let o = run_with_cap(&all[i], &dir, i);
                    if let Some(why) = check(&all[i], &o) {
                        failures.lock().expect("lock").push(format!(
                            "dpbai {}\n  {}",
                            quote(&all[i]),
                            why.chars().take(400).collect::<String>()
                        ));
                    } else {
                        counts.lock().expect("lock")[usize::from(o.code == Some(2))] += 1;
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let [ok, refused] = *counts.lock().expect("lock");
    println!("{cases} cases: {ok} exit 0, {refused} exit 2");
    let f = failures.into_inner().expect("lock");
    assert!(
        f.is_empty(),
        "{} of {cases} cases broke the property:\n{}",
        f.len(),
        f.iter().take(25).cloned().collect::<Vec<_>>().join("\n")
    );
    // Both outcomes occur: the generator is not degenerate.
    assert!(
        ok > cases / 20 && refused > cases / 20,
        "{ok} ok, {refused} refused"
    );
}

fn quote(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            if a.is_empty() || a.contains([' ', ',', '(', ')', '*', '^', ';']) {
                format!("'{a}'")
            } else {
                a.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn generated_cli_cases_exit_0_finite_or_2_one_line() {
    sweep(DEFAULT_CASES, [12; 32], 4);
}

#[test]
#[ignore = "long sweep: cargo test --release --test lib cli_props -- --ignored"]
fn generated_cli_cases_long_sweep() {
    sweep(SWEEP_CASES, [112; 32], 4);
}
