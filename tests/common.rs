//! Shared helpers of the integration tests: golden-file loading and named tolerances.
#![allow(dead_code)]

use std::path::PathBuf;

/// Path of a file under `tests/data/`.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

/// Reads and parses a TOML golden document under `tests/data/` (toml 1.x: a whole document is
/// a `Table`; `str::parse::<toml::Value>` would read a single value).
pub fn load_toml(name: &str) -> toml::Table {
    let text = std::fs::read_to_string(data_path(name)).expect("golden file readable");
    toml::from_str(&text).expect("golden file is a valid TOML document")
}

/// A golden number: a decimal string of `tests/data/*.toml` (mpmath's digits; `inf` allowed).
pub fn golden_number(v: &toml::Value) -> f64 {
    v.as_str()
        .expect("golden numbers are strings")
        .parse::<f64>()
        .expect("golden number parses")
}

/// The per-function worst relative error and the failures of a golden-value test: every case
/// is recorded, the worst per function printed, and the test fails listing every failure.
#[derive(Default)]
pub struct GoldenTally {
    worst: std::collections::BTreeMap<String, (f64, Vec<f64>)>,
    failures: Vec<String>,
}

impl GoldenTally {
    /// Records one case: its relative error `rel`, whether it is within its tolerance, and the
    /// failure message (built only on failure).
    pub fn record(
        &mut self,
        name: &str,
        args: &[f64],
        rel: f64,
        ok: bool,
        msg: impl FnOnce() -> String,
    ) {
        let e = self.worst.entry(name.to_string()).or_insert((0.0, vec![]));
        if rel > e.0 {
            *e = (rel, args.to_vec());
        }
        if !ok || rel.is_nan() {
            self.failures.push(msg());
        }
    }

    /// Prints the worst relative error per function; fails with every failure listed.
    pub fn finish(self) {
        for (name, (r, args)) in &self.worst {
            println!("max rel err {name:30} {r:.2e} at {args:?}");
        }
        assert!(
            self.failures.is_empty(),
            "golden failures:\n{}",
            self.failures.join("\n")
        );
    }
}

/// Bernoulli instances that stress a characteristic-time solver: near ties, means at 0 and
/// 1, many arms.
pub fn hard_bernoulli_means() -> Vec<Vec<f64>> {
    vec![
        vec![0.5, 0.4999999],
        vec![0.3, 0.2999999, 0.1],
        vec![1.0, 0.0],
        vec![1.0, 0.0, 0.0, 0.0],
        vec![1e-9, 0.0],
        vec![1.0, 0.99999, 0.0],
        (0..200).map(|i| 0.99 - 0.0049 * i as f64).collect(),
    ]
}

/// A certified time of `dpbai bounds --json` (`{value, lower, upper, allocation}`): asserts
/// `lower <= value <= upper`, the relative width <= 1e-9 and `k` weights; returns the value.
pub fn certified_json(t: &serde_json::Value, k: usize) -> f64 {
    let (val, lo, hi) = (
        t["value"].as_f64().expect("value"),
        t["lower"].as_f64().expect("lower"),
        t["upper"].as_f64().expect("upper"),
    );
    assert!(lo <= val && val <= hi, "{t}");
    assert!(
        hi - lo <= dpbai::complexity::CERTIFIED_REL_WIDTH * lo,
        "{t}"
    );
    assert_eq!(t["allocation"].as_array().expect("allocation").len(), k);
    val
}

/// Relative error `|got − want| / |want|` (absolute when `want == 0`).
pub fn rel_err(got: f64, want: f64) -> f64 {
    if want == 0.0 {
        got.abs()
    } else {
        ((got - want) / want).abs()
    }
}

/// Path of the built `dpbai` binary (integration tests run it as a user would).
pub fn dpbai_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_dpbai"))
}

/// The exit code `dpbai audit` gives a verdict (docs/GUIDE.md, "Auditing before deployment"):
/// 0 `holds`/`proven`/`no violation found`, 1 `violated`/`counterexample`, 3
/// `inconclusive`/`undecided`, the same for every auditor.
pub fn verdict_code(verdict: &str) -> i32 {
    match verdict {
        "holds" | "proven" | "no violation found" => 0,
        "violated" | "counterexample" => 1,
        "inconclusive" | "undecided" => 3,
        other => panic!("not an audit verdict: {other:?}"),
    }
}

/// Runs the binary with `args`; returns (exit code, stdout, stderr).
pub fn run_cli(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(dpbai_bin())
        .args(args)
        .output()
        .expect("dpbai binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The names of `dpbai fn --list`.
pub const FN_NAMES: [&str; 17] = [
    "lambert-w0",
    "lambert-wm1",
    "wbar",
    "zeta",
    "cg",
    "k",
    "h",
    "g1",
    "g2",
    "kl-bernoulli",
    "kl-gaussian",
    "tv-bernoulli",
    "c-local",
    "kl",
    "d-eps-plus",
    "d-eps-minus",
    "d-eps",
];

/// The proptest configuration of every property test: `cases` cases drawn from a fixed seed,
/// so that `cargo test` is reproducible like the Monte Carlo runs. Set
/// `DPBAI_PROPTEST_SEED` to another integer, or to `random` for a fresh seed, to explore
/// further; a failure prints the seed beside proptest's minimal input, and
/// `proptest-regressions/` keeps replaying the failing cases once found.
pub fn prop_config(cases: u32) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngSeed};
    const FIXED_SEED: u64 = 20_261_130;
    let seed = match std::env::var("DPBAI_PROPTEST_SEED").as_deref() {
        Err(_) => FIXED_SEED,
        Ok("random") => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(FIXED_SEED, |d| d.as_nanos() as u64),
        Ok(v) => v
            .parse()
            .expect("DPBAI_PROPTEST_SEED must be unset, `random` or an integer"),
    };
    eprintln!("DPBAI_PROPTEST_SEED={seed} cases={cases}");
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    }
}

/// A fresh folder under the system's temporary directory, removed when dropped (unique per
/// process and call, so parallel tests never share one).
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates `dpbai-<tag>-<pid>-<n>`.
    pub fn new(tag: &str) -> Self {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let d = std::env::temp_dir().join(format!("dpbai-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temporary folder");
        TempDir(d)
    }

    /// Its path.
    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Reads a number written either as a TOML integer or float.
pub fn num(v: &toml::Value) -> f64 {
    v.as_float()
        .or_else(|| v.as_integer().map(|i| i as f64))
        .expect("number")
}

/// Runs the binary in `dir` with a time limit (a hang is a failure); (exit code, stdout, stderr).
pub fn run_in(
    dir: &std::path::Path,
    args: &[&str],
    limit: std::time::Duration,
) -> (i32, String, String) {
    let mut child = std::process::Command::new(dpbai_bin())
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("dpbai runs");
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("`dpbai {}` did not finish within {limit:?}", args.join(" "));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Exit 2, one line on stderr, containing every one of `names`.
#[track_caller]
pub fn refused(r: (i32, String, String), names: &[&str]) -> String {
    let (code, out, err) = r;
    assert_eq!(code, 2, "stdout {out}\nstderr {err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    for n in names {
        assert!(err.contains(n), "`{n}` not in: {err}");
    }
    err
}
