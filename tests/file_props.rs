//! Property harnesses for the file and text surfaces: study files (`experiment`), plan files
//! (`cluster status`), shard files (`merge`) and threshold expressions (`run --threshold`).
//! Each case is a generated mutation of a valid input (a value replaced by an extreme one, a
//! key removed or added, the text cut short or given a stray line) or a generated expression,
//! run through the binary as a subprocess with a time cap ([`super::cli_props::run_with_cap`]).
//!
//! Property: exit 0 with no NaN in the output, or exit 2 with exactly one line on stderr naming
//! the input (the file's name, or for an expression `--threshold` or the expression). Never a
//! panic (101), an abort (134), a hang, or another exit code.
//!
//! [`CASES`] cases per surface in the default run (4 surfaces).

use super::cli_props::{Outcome, run_with_cap};
use crate::common::{TempDir, run_cli};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};
use std::path::Path;

/// Cases per surface.
const CASES: usize = 2000;

/// Replacement values: extremes of every JSON type.
fn pool() -> Vec<Value> {
    vec![
        json!(0),
        json!(-1),
        json!(5e-324),
        json!(1e-310),
        json!(1e308),
        json!(-1e308),
        json!(0.5),
        json!(1.5),
        json!(u64::MAX),
        json!(1e20),
        json!(9007199254740993u64),
        json!(""),
        json!("x"),
        json!("ttucb"),
        json!("../../etc/passwd"),
        json!("a\nb"),
        json!("💥"),
        json!(true),
        json!(null),
        json!([]),
        json!({}),
        json!([0.9, 0.5]),
        json!([1e308, -1e308]),
        json!(["x"]),
    ]
}

/// One mutation: which node (index into the node list, modulo its length), what to do, which
/// replacement.
#[derive(Debug, Clone)]
struct Mutation {
    node: usize,
    op: u8,
    value: usize,
    cut: usize,
}

fn mutation() -> BoxedStrategy<Mutation> {
    (any::<usize>(), 0u8..6, any::<usize>(), any::<usize>())
        .prop_map(|(node, op, value, cut)| Mutation {
            node,
            op,
            value,
            cut,
        })
        .boxed()
}

/// Paths (object keys and array indices) of every node of `v` below the root.
fn nodes(v: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                path.push(json!(k));
                out.push(path.clone());
                nodes(c, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                path.push(json!(i));
                out.push(path.clone());
                nodes(c, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, k| match k {
        Value::String(s) => &mut v[s.as_str()],
        k => &mut v[k.as_u64().expect("index") as usize],
    })
}

/// Applies `m` to the document `base`; `Err(text)` for the text-level mutations (cut short,
/// a stray line), given `render` to write the document.
fn mutate(base: &Value, m: &Mutation, render: &dyn Fn(&Value) -> Option<String>) -> String {
    let mut v = base.clone();
    let mut all = Vec::new();
    nodes(&v, &mut Vec::new(), &mut all);
    let path = &all[m.node % all.len()];
    let pool = pool();
    match m.op {
        0 | 1 => *at(&mut v, path) = pool[m.value % pool.len()].clone(),
        2 => {
            let (last, parent) = path.split_last().expect("below the root");
            match (at(&mut v, parent), last) {
                (Value::Object(o), Value::String(k)) => {
                    o.remove(k);
                }
                (Value::Array(a), Value::Number(i)) => {
                    a.remove(i.as_u64().expect("index") as usize);
                }
                _ => {}
            }
        }
        3 => {
            let (_, parent) = path.split_last().expect("below the root");
            if let Value::Object(o) = at(&mut v, parent) {
                o.insert("unknown-key".into(), pool[m.value % pool.len()].clone());
            }
        }
        _ => {}
    }
    let text = render(&v).unwrap_or_else(|| render(base).expect("the base renders"));
    match m.op {
        4 => text[..floor_char(&text, m.cut % (text.len() + 1))].to_string(),
        5 => {
            let at = floor_char(&text, m.cut % (text.len() + 1));
            format!("{}\n= what\n{}", &text[..at], &text[at..])
        }
        _ => text,
    }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Exit 0 with no NaN, or exit 2 with one line containing `name`; the violation otherwise.
fn check(o: &Outcome, name: &str) -> Option<String> {
    if o.timed_out {
        return Some("hang".into());
    }
    match o.code {
        Some(0)
            if o.stdout
                .to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w == "nan") =>
        {
            Some(format!("NaN in the output: {}", o.stdout))
        }
        Some(0) => None,
        Some(2) => {
            let e = o.stderr.trim();
            if e.lines().count() != 1 {
                Some(format!("not one line: {e:?}"))
            } else if !e.contains(name) {
                Some(format!("does not name `{name}`: {e}"))
            } else {
                None
            }
        }
        c => Some(format!(
            "exit {c:?}: {}",
            o.stderr.lines().take(3).collect::<Vec<_>>().join(" | ")
        )),
    }
}

/// Writes case `i`'s files (mutation `m`) in the folder; returns its arguments and the name its
/// refusal must contain.
type MakeCase<'a> = dyn Fn(usize, &Mutation, &Path) -> (Vec<String>, String) + Sync + 'a;

/// Runs `cases` generated cases on 4 workers: `make(i, dir)` writes the case's files and
/// returns its arguments and the name its refusal must contain. Returns (exit 0, exit 2).
fn sweep(surface: &str, seed: u8, make: &MakeCase<'_>) -> (usize, usize) {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    );
    let strat = mutation();
    let muts: Vec<Mutation> = (0..CASES)
        .map(|_| strat.new_tree(&mut runner).expect("case").current())
        .collect();
    let tmp = TempDir::new(&format!("file-props-{surface}"));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let counts = std::sync::Mutex::new([0usize; 2]);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= muts.len() {
                        break;
                    }
                    let (args, name) = make(i, &muts[i], tmp.path());
                    let o = run_with_cap(&args, tmp.path(), i);
                    match check(&o, &name) {
                        Some(why) => failures.lock().expect("lock").push(format!(
                            "{surface} case {i} ({:?}): dpbai {}\n  {}\n  input: {:?}",
                            muts[i],
                            args.join(" "),
                            why.chars().take(300).collect::<String>(),
                            std::fs::read_to_string(&args[1])
                                .unwrap_or_default()
                                .chars()
                                .take(600)
                                .collect::<String>()
                        )),
                        None => counts.lock().expect("lock")[usize::from(o.code == Some(2))] += 1,
                    }
                }
            });
        }
    });
    let f = failures.into_inner().expect("lock");
    assert!(
        f.is_empty(),
        "{} of {CASES} {surface} cases broke the property:\n{}",
        f.len(),
        f.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
    );
    let [ok, refused] = *counts.lock().expect("lock");
    println!("{surface}: {CASES} cases, {ok} exit 0, {refused} exit 2");
    (ok, refused)
}

/// Study files: mutations of a small valid study.
#[test]
fn generated_study_files() {
    let base = json!({
        "title": "t",
        "runs": 3,
        "max-steps": 3000,
        "delta": [0.1],
        "eps": [1.0],
        "instance": [
            {"name": "a", "means": [0.9, 0.1]},
            {"name": "g", "family": "gaussian", "sigma": 0.5, "means": [1.0, 0.0]}
        ],
        "algorithm": [
            {"algo": "ttucb", "beta": 0.5},
            {"algo": "adap-tt", "label": "adap", "instances": ["a"]}
        ]
    });
    let render = |v: &Value| toml::to_string(v).ok();
    let (ok, refused) = sweep("study", 31, &|i, m, dir| {
        let name = format!("study-{i}.toml");
        std::fs::write(dir.join(&name), mutate(&base, m, &render)).expect("write");
        let out = dir.join(format!("out-{i}"));
        (
            vec![
                "experiment".into(),
                dir.join(&name).display().to_string(),
                "--out-dir".into(),
                out.display().to_string(),
            ],
            name,
        )
    });
    assert!(ok > 20 && refused > CASES / 2, "{ok} {refused}");
}

/// Plan files: mutations of the plan.json that `cluster slurm` writes.
#[test]
fn generated_plan_files() {
    let tmp = TempDir::new("file-props-plan-base");
    let d = tmp.path().join("p");
    let (code, _, err) = run_cli(&[
        "cluster",
        "slurm",
        "--dir",
        d.to_str().unwrap(),
        "--",
        "run",
        "--algo",
        "ttucb",
        "--means",
        "0.9,0.5",
        "--delta",
        "0.1",
        "--runs",
        "100",
        "--seed",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let base: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("plan.json")).unwrap()).unwrap();
    let render = |v: &Value| serde_json::to_string_pretty(v).ok();
    let (ok, refused) = sweep("plan", 32, &|i, m, dir| {
        let p = dir.join(format!("plan-{i}"));
        std::fs::create_dir_all(&p).expect("mkdir");
        std::fs::write(p.join("plan.json"), mutate(&base, m, &render)).expect("write");
        (
            vec![
                "cluster".into(),
                "status".into(),
                "--dir".into(),
                p.display().to_string(),
            ],
            "plan".into(),
        )
    });
    assert!(ok > 20 && refused > CASES / 2, "{ok} {refused}");
}

/// Shard files: mutations of a shard that `run --shard` writes (its content digest makes
/// almost every mutation a refusal; the parse and range checks come first).
#[test]
fn generated_shard_files() {
    let tmp = TempDir::new("file-props-shard-base");
    let s = tmp.path().join("s.json");
    let (code, _, err) = run_cli(&[
        "run",
        "--algo",
        "ttucb",
        "--means",
        "0.9,0.5",
        "--delta",
        "0.1",
        "--runs",
        "4",
        "--seed",
        "1",
        "--shard",
        "0/1",
        "--out",
        s.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let base: Value = serde_json::from_str(&std::fs::read_to_string(&s).unwrap()).unwrap();
    let render = |v: &Value| serde_json::to_string(v).ok();
    let (_, refused) = sweep("shard", 33, &|i, m, dir| {
        let name = format!("shard-{i}.json");
        std::fs::write(dir.join(&name), mutate(&base, m, &render)).expect("write");
        (
            vec!["merge".into(), dir.join(&name).display().to_string()],
            name,
        )
    });
    assert!(refused > CASES / 2, "{refused}");
}

/// Threshold expressions from a grammar: names, numbers at the extremes, the functions of the
/// language (and unknown ones), operators, unbalanced parentheses.
fn expression() -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        prop::sample::select(vec![
            "t", "na", "nb", "K", "delta", "eps", "sigma", "x", "1", "0", "-1", "1e308", "1e-320",
            "2", "0.5", "nan", "inf", "",
        ])
        .prop_map(str::to_string),
        super::cli_props::threshold(),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec!["+", "-", "*", "/", "^", ",", " "]),
                inner.clone()
            )
                .prop_map(|(a, o, b)| format!("{a} {o} {b}")),
            (
                prop::sample::select(vec![
                    "log", "sqrt", "exp", "cg", "h", "k", "zeta", "min", "max", "ifge", "w0",
                    "wm1", "abs", "nope", "",
                ]),
                prop::collection::vec(inner.clone(), 0..4)
            )
                .prop_map(|(f, args)| format!("{f}({})", args.join(", "))),
            inner.clone().prop_map(|a| format!("({a}")),
            inner.prop_map(|a| format!("-({a})")),
        ]
    })
    .boxed()
}

/// Threshold expressions, through `run --threshold` on a short run.
#[test]
fn generated_threshold_expressions() {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[34; 32]),
    );
    let strat = expression();
    let exprs: Vec<String> = (0..CASES)
        .map(|_| strat.new_tree(&mut runner).expect("case").current())
        .collect();
    let (ok, refused) = sweep("expression", 34, &|i, _, _| {
        (
            vec![
                "run".into(),
                "--algo".into(),
                "ttucb".into(),
                "--means".into(),
                "0.9,0.1".into(),
                "--delta".into(),
                "0.1".into(),
                "--runs".into(),
                "3".into(),
                "--seed".into(),
                "1".into(),
                "--max-steps".into(),
                "2000".into(),
                "--threshold".into(),
                exprs[i].clone(),
            ],
            "threshold".into(),
        )
    });
    assert!(ok > 20 && refused > 20, "{ok} {refused}");
}
