//! Experiment cells of `dpbai verify`: one (instance, algorithm, ε, δ, rules) combination run
//! over many seeded Monte Carlo runs, cached as a CSV so that the `paper` profile is resumable.
//!
//! # Seeds
//! A cell's master seed is the FNV-1a hash of its key *without* the run count, so the runs of
//! the quick profile are exactly the first runs of the paper profile, and a cell can be
//! extended without recomputing what it has.
//!
//! # Cache
//! `<cache>/<key>.csv`: a comment line `# dpbai-cell key=… seed=… max_steps=… version=…`, then
//! `run,tau,recommendation,stopped,rounds` (recommendation 0-based; `rounds` empty when not
//! defined), then a last comment line `# blake3=<hex>`, the digest of everything before it (a
//! file failing it is recomputed with a warning naming it); pandas reads it with
//! `comment="#"`. A cached cell is reused when its key, seed,
//! `max_steps` and version match and it holds at least the requested runs.
//!
//! # Shards
//! `dpbai verify --shard i/n` (e.g. one job of a cluster's job array per `i`) runs the slice
//! `r ≡ i (mod n)` of every cell and writes `<cache>/<key>.shard-<i>-of-<n>.csv` (same format).
//! Once the shard files of all `i` sit in one cache folder, [`run_cell`] assembles them into the
//! complete `<key>.csv` — exactly the file an unsharded run writes, since run `r` draws from
//! `rng_for_run(seed, r)` whatever the shard.

use crate::audit::expr::parse_threshold;
use crate::bandit::rules::Eq14Form;
use crate::bandit::{
    build, AdapLeaderBonus, AlgoName, AlgoSpec, ChallengerCounts, CustomThreshold, DpaEpisodes,
    GaussLdpSigma, LeaderCounts, Rules, RunOutcome, TieBreak,
};
use crate::error::{Error, Result};
use crate::instance::{Family, Instance};
use crate::mc::{simulate, summarize, EngineConfig, RunRecord, Shard, Summary};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One experiment cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// Instance name (`mu1` … `mu6`).
    pub instance: String,
    /// Bernoulli means.
    pub means: Vec<f64>,
    /// Algorithm.
    pub algo: AlgoName,
    /// Privacy budget (None for non-private algorithms).
    pub eps: Option<f64>,
    /// Risk.
    pub delta: f64,
    /// Paper (provable) or reference (public code) rules.
    pub rules: Rules,
    /// Runs.
    pub runs: u64,
    /// Cap on the samples of one run.
    pub max_steps: u64,
    /// Episodes of `dpa-tt` (per-arm unless the cell tests the global-episode variant).
    pub dpa_episodes: DpaEpisodes,
    /// Leader bonus of AdaP-TT(*) (Eq. (11) unless the cell is a control of Finding 1).
    #[serde(default)]
    pub adap_leader_bonus: AdapLeaderBonus,
    /// Counts of the UCB leader (frozen local counts unless the cell is a control of Finding 3).
    #[serde(default)]
    pub leader_counts: LeaderCounts,
    /// The other settings of `dpbai run` (reward family, β, γ, MATH.md §H readings, seed
    /// salt); all default for verify's cells, whose keys and seeds therefore do not depend on
    /// them.
    #[serde(default)]
    pub options: RunOptions,
}

/// The settings of a cell beyond those verify varies: each one is a `dpbai run` option, and a
/// non-default value adds a suffix to the cell's key (so its cache file and seed differ), while
/// the default adds nothing (verify's keys and seeds are unchanged).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunOptions {
    /// `σ` of Gaussian arms (`--family gaussian --sigma`); `None` for Bernoulli arms.
    pub sigma: Option<f64>,
    /// Leader proportion `β` (`--beta`, default 1/2).
    pub beta: f64,
    /// `γ` of the Gaussian mechanism (`--gamma`, gauss-ldp-tt).
    pub gamma: Option<f64>,
    /// `--tie-break`.
    pub tie_break: TieBreak,
    /// `--challenger-counts`.
    pub challenger_counts: ChallengerCounts,
    /// `--ids-beta`.
    pub ids_beta: bool,
    /// `--gauss-sigma`.
    pub gauss_sigma: GaussLdpSigma,
    /// `--eq14-form`.
    pub eq14_form: Eq14Form,
    /// A salt of the cell's seed (`dpbai experiment`'s `seed` key): the key gets `-seed<S>`,
    /// so the seed (FNV-1a of the key) changes with it. `None` = verify's seeds.
    pub seed_salt: Option<u64>,
    /// A user stopping threshold (`--threshold`, [`parse_threshold`]: a preset name or an
    /// expression) replacing the algorithm's; the key gets `-thr<16 hex digits>` of
    /// [`threshold_key`]. `None` = the algorithm's own threshold (and no JSON field, so
    /// verify's serialised cells do not change).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<String>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            sigma: None,
            beta: 0.5,
            gamma: None,
            tie_break: TieBreak::LowestIndex,
            challenger_counts: ChallengerCounts::Global,
            ids_beta: false,
            gauss_sigma: GaussLdpSigma::Combined,
            eq14_form: Eq14Form::KSquared,
            seed_salt: None,
            threshold: None,
        }
    }
}

/// The hash naming a user threshold in a cell key: FNV-1a of its normalised text (a preset name
/// expanded to its expression, then every whitespace character removed, so that spellings of
/// one expression that differ only in spacing, or a preset and its expansion, share a key).
pub fn threshold_key(text: &str) -> u64 {
    let expanded = crate::audit::expr::preset(text.trim()).unwrap_or_else(|| text.to_string());
    let normal: String = expanded.chars().filter(|c| !c.is_whitespace()).collect();
    fnv1a(&normal)
}

pub use crate::audit::finite::CheckedThreshold;

/// Parses `text` ([`parse_threshold`]: a preset name or an expression) and binds it with
/// [`crate::audit::finite::bind_checked`] (probed, checked during the runs).
///
/// # Errors
/// [`Error::Parse`] naming the expression: a syntax error, or a non-finite value at a probe
/// point (named).
pub fn checked_threshold(
    text: &str,
    instance: &Instance,
    delta: f64,
    eps: Option<f64>,
    rules: Rules,
) -> Result<CheckedThreshold> {
    let expr =
        parse_threshold(text).map_err(|e| Error::Parse(format!("threshold `{text}`: {e}")))?;
    crate::audit::finite::bind_checked(&expr, instance, delta, eps, rules)
}

/// The `dpbai run` spelling of a value-enum option.
fn flag_value<T: clap::ValueEnum>(v: &T) -> String {
    v.to_possible_value()
        .map(|p| p.get_name().to_string())
        .unwrap_or_default()
}

/// A finished cell.
#[derive(Debug, Clone, Serialize)]
pub struct CellResult {
    /// The cell.
    pub cell: Cell,
    /// Its master seed.
    pub seed: u64,
    /// Summary of its runs.
    pub summary: Summary,
    /// Whether the runs came from the cache.
    pub cached: bool,
    /// Wall time spent computing (0 when cached).
    pub elapsed_s: f64,
    /// Sample standard deviation of `τ` over the stopped runs (None if fewer than two stopped).
    pub std_tau_stopped: Option<f64>,
}

fn std_stopped(records: &[RunRecord]) -> Option<f64> {
    let t: Vec<f64> = records
        .iter()
        .filter(|r| r.outcome.stopped)
        .map(|r| r.outcome.tau as f64)
        .collect();
    crate::mc::stats::sample_std(&t).ok()
}

/// FNV-1a 64-bit hash.
pub fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// `paper` or `reference`, as in keys and on the command line.
pub(crate) fn rules_str(r: Rules) -> &'static str {
    match r {
        Rules::Paper => "paper",
        Rules::Reference => "reference",
    }
}

impl Cell {
    /// Key without the run count (names the cache file and seeds the cell).
    pub fn key(&self) -> String {
        let eps = self
            .eps
            .map(|e| format!("eps{e}"))
            .unwrap_or_else(|| "nonprivate".into());
        format!(
            "{}_{}{}_{}_delta{}_{}",
            self.instance,
            self.algo.as_str(),
            self.variant_suffix(),
            eps,
            self.delta,
            rules_str(self.rules)
        )
    }
    /// `-global` for the global-episode DPA variant, `-bonus-eq3` / `-bonus-eq11-log-n` and
    /// `-live-counts` for the control cells; empty for the paper's algorithms (so their keys and
    /// seeds do not change).
    pub fn variant_suffix(&self) -> String {
        let mut s = String::new();
        if self.dpa_episodes == DpaEpisodes::Global {
            s.push_str("-global");
        }
        match self.adap_leader_bonus {
            AdapLeaderBonus::Eq11 => {}
            AdapLeaderBonus::Eq3 => s.push_str("-bonus-eq3"),
            AdapLeaderBonus::Eq11LogN => s.push_str("-bonus-eq11-log-n"),
        }
        if self.leader_counts == LeaderCounts::Global {
            s.push_str("-live-counts");
        }
        let o = &self.options;
        let d = RunOptions::default();
        if let Some(sigma) = o.sigma {
            s.push_str(&format!("-gaussian-sigma{sigma}"));
        }
        if o.beta != d.beta {
            s.push_str(&format!("-beta{}", o.beta));
        }
        if let Some(g) = o.gamma {
            s.push_str(&format!("-gamma{g}"));
        }
        if o.tie_break != d.tie_break {
            s.push_str(&format!("-tie-{}", flag_value(&o.tie_break)));
        }
        if o.challenger_counts != d.challenger_counts {
            s.push_str(&format!("-challenger-{}", flag_value(&o.challenger_counts)));
        }
        if o.ids_beta {
            s.push_str("-ids");
        }
        if o.gauss_sigma != d.gauss_sigma {
            s.push_str(&format!("-gauss-sigma-{}", flag_value(&o.gauss_sigma)));
        }
        if o.eq14_form != d.eq14_form {
            s.push_str(&format!("-eq14-{}", flag_value(&o.eq14_form)));
        }
        if let Some(salt) = o.seed_salt {
            s.push_str(&format!("-seed{salt}"));
        }
        if let Some(t) = &o.threshold {
            s.push_str(&format!("-thr{:016x}", threshold_key(t)));
        }
        s
    }

    /// The cell's instance: Bernoulli, or Gaussian with `options.sigma`.
    ///
    /// # Errors
    /// [`Error::InvalidInstance`] for means outside the family's domain.
    pub fn instance(&self) -> Result<Instance> {
        match self.options.sigma {
            None => Instance::bernoulli(self.means.clone()),
            Some(sigma) => Instance::new(Family::Gaussian { sigma }, self.means.clone()),
        }
    }

    /// The algorithm settings of the cell (the one record `build` reads) and, for a cell with a
    /// user threshold, its in-run check (set as `custom_threshold`; read its
    /// [`crate::audit::finite::Checked::failure`] after the runs).
    ///
    /// # Errors
    /// A bad threshold ([`checked_threshold`]); an instance outside its family's domain.
    pub fn spec(&self) -> Result<(AlgoSpec, Option<CheckedThreshold>)> {
        let o = &self.options;
        let mut spec = AlgoSpec::new(self.algo, self.delta);
        spec.eps = self.eps;
        spec.rules = self.rules;
        spec.dpa_episodes = self.dpa_episodes;
        spec.adap_leader_bonus = self.adap_leader_bonus;
        spec.leader_counts = self.leader_counts;
        spec.beta = o.beta;
        spec.gamma = o.gamma;
        spec.tie_break = o.tie_break;
        spec.challenger_counts = o.challenger_counts;
        spec.ids_beta = o.ids_beta;
        spec.gauss_sigma = o.gauss_sigma;
        spec.eq14_form = o.eq14_form;
        let checked = match &o.threshold {
            Some(t) => {
                let c = checked_threshold(t, &self.instance()?, self.delta, self.eps, self.rules)?;
                spec.custom_threshold = Some(c.clone() as Arc<dyn CustomThreshold>);
                Some(c)
            }
            None => None,
        };
        Ok((spec, checked))
    }

    /// The `dpbai run` arguments (after `dpbai run`) that reproduce the cell's runs exactly:
    /// same seed, runs, cap and settings (non-default options only).
    pub fn run_args(&self) -> Vec<String> {
        let o = &self.options;
        let d = RunOptions::default();
        let means: Vec<String> = self.means.iter().map(|m| m.to_string()).collect();
        let mut a: Vec<String> = vec![
            "--algo".into(),
            self.algo.as_str().into(),
            "--means".into(),
            means.join(","),
        ];
        let mut push = |k: &str, v: String| {
            a.push(format!("--{k}"));
            a.push(v);
        };
        if let Some(sigma) = o.sigma {
            push("family", "gaussian".into());
            push("sigma", sigma.to_string());
        }
        push("delta", self.delta.to_string());
        if let Some(e) = self.eps {
            push("eps", e.to_string());
        }
        if let Some(g) = o.gamma {
            push("gamma", g.to_string());
        }
        if o.beta != d.beta {
            push("beta", o.beta.to_string());
        }
        push("rules", rules_str(self.rules).into());
        if o.tie_break != d.tie_break {
            push("tie-break", flag_value(&o.tie_break));
        }
        if o.challenger_counts != d.challenger_counts {
            push("challenger-counts", flag_value(&o.challenger_counts));
        }
        if o.gauss_sigma != d.gauss_sigma {
            push("gauss-sigma", flag_value(&o.gauss_sigma));
        }
        if o.eq14_form != d.eq14_form {
            push("eq14-form", flag_value(&o.eq14_form));
        }
        if self.dpa_episodes != DpaEpisodes::PerArm {
            push("dpa-episodes", flag_value(&self.dpa_episodes));
        }
        if self.adap_leader_bonus != AdapLeaderBonus::Eq11 {
            push("adap-leader-bonus", flag_value(&self.adap_leader_bonus));
        }
        if self.leader_counts != LeaderCounts::Local {
            push("leader-counts", flag_value(&self.leader_counts));
        }
        push("runs", self.runs.to_string());
        push("seed", self.seed().to_string());
        push("max-steps", self.max_steps.to_string());
        if o.ids_beta {
            a.push("--ids-beta".into());
        }
        if let Some(t) = &o.threshold {
            a.push("--threshold".into());
            a.push(t.clone());
        }
        a
    }
    /// Master seed of the cell.
    pub fn seed(&self) -> u64 {
        fnv1a(&self.key())
    }
}

fn header(cell: &Cell) -> String {
    format!(
        "# dpbai-cell key={} seed={} max_steps={} version={}",
        cell.key(),
        cell.seed(),
        cell.max_steps,
        env!("CARGO_PKG_VERSION")
    )
}

fn cache_path(dir: &Path, cell: &Cell) -> PathBuf {
    dir.join(format!("{}.csv", cell.key()))
}

fn shard_path(dir: &Path, cell: &Cell, shard: Shard) -> PathBuf {
    dir.join(format!(
        "{}.shard-{}-of-{}.csv",
        cell.key(),
        shard.index,
        shard.count
    ))
}

/// The records of a cache or shard file whose header matches `cell`, in file order. A file
/// whose last line is not the blake3 digest of the rest, or with impossible records, is
/// reported on stderr (named) and ignored, so that it is recomputed.
fn read_records(path: &Path, cell: &Cell) -> Option<Vec<RunRecord>> {
    let text = std::fs::read_to_string(path).ok()?;
    if !text.starts_with(&header(cell)) {
        return None; // another cell, cap or version: stale, recomputed silently
    }
    let warn = |why: &str| {
        eprintln!(
            "warning: verify cache file {} {why}; recomputing it",
            path.display()
        );
    };
    let body = text.strip_suffix('\n').and_then(|t| {
        let (body, last) = t.rsplit_once('\n')?;
        let digest = last.strip_prefix("# blake3=")?;
        (blake3::hash(format!("{body}\n").as_bytes())
            .to_hex()
            .as_str()
            == digest)
            .then_some(body)
    });
    let Some(body) = body else {
        warn("fails its blake3 digest (edited, truncated or written by an older dpbai)");
        return None;
    };
    let out = parse_records(body, cell)?;
    if let Err(e) = crate::mc::check_records(&out, cell.means.len(), cell.max_steps) {
        warn(&format!("holds an impossible record ({e})"));
        return None;
    }
    Some(out)
}

fn parse_records(text: &str, cell: &Cell) -> Option<Vec<RunRecord>> {
    let mut lines = text.lines();
    if lines.next()? != header(cell) {
        return None;
    }
    if lines.next()? != "run,tau,recommendation,stopped,rounds" {
        return None;
    }
    let mut out = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 5 {
            return None;
        }
        out.push(RunRecord {
            run: f[0].parse().ok()?,
            outcome: RunOutcome {
                tau: f[1].parse().ok()?,
                recommendation: f[2].parse().ok()?,
                stopped: f[3] == "true",
                rounds: if f[4].is_empty() {
                    None
                } else {
                    Some(f[4].parse().ok()?)
                },
            },
        });
    }
    Some(out)
}

fn read_cache(path: &Path, cell: &Cell) -> Option<Vec<RunRecord>> {
    let mut out = read_records(path, cell)?;
    if out.len() as u64 >= cell.runs && out.iter().enumerate().all(|(i, r)| r.run == i as u64) {
        out.truncate(cell.runs as usize);
        Some(out)
    } else {
        None
    }
}

/// The records of one shard file, if it holds exactly the shard's runs of `cell`.
fn read_shard(dir: &Path, cell: &Cell, shard: Shard) -> Option<Vec<RunRecord>> {
    let out = read_records(&shard_path(dir, cell, shard), cell)?;
    out.iter()
        .map(|r| r.run)
        .eq(shard.runs(cell.runs))
        .then_some(out)
}

/// Assembles `<key>.csv` from a complete set of shard files (`i = 0..n` for one `n`), if the
/// folder has one; returns the records in run order.
fn assemble_shards(dir: &Path, cell: &Cell) -> Option<Vec<RunRecord>> {
    let prefix = format!("{}.shard-", cell.key());
    let mut counts: Vec<u64> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| {
            let rest = name.strip_prefix(&prefix)?.strip_suffix(".csv")?;
            let (_, n) = rest.split_once("-of-")?;
            n.parse().ok()
        })
        .collect();
    counts.sort_unstable();
    counts.dedup();
    for n in counts {
        let shards: Option<Vec<Vec<RunRecord>>> = (0..n)
            .map(|i| read_shard(dir, cell, Shard::new(i, n).ok()?))
            .collect();
        if let Some(shards) = shards {
            let mut records: Vec<RunRecord> = shards.into_iter().flatten().collect();
            records.sort_by_key(|r| r.run);
            write_cache(&cache_path(dir, cell), cell, &records).ok()?;
            return Some(records);
        }
    }
    None
}

/// Simulates `cell` (or its slice `shard`); returns the records and the seconds spent.
fn simulate_cell(
    cell: &Cell,
    threads: usize,
    shard: Option<Shard>,
) -> Result<(Vec<RunRecord>, f64)> {
    let nu = cell.instance()?;
    let (spec, checked) = cell.spec()?;
    let algo = build(&spec, &nu)?;
    let cfg = EngineConfig {
        seed: cell.seed(),
        runs: cell.runs,
        threads,
        max_steps: cell.max_steps,
        shard,
    };
    let started = std::time::Instant::now();
    let records = simulate(algo.as_ref(), &cfg, &|| {})?;
    if let Some(e) = checked.and_then(|c| c.failure()) {
        return Err(e);
    }
    Ok((records, started.elapsed().as_secs_f64()))
}

/// Whether the slice `shard` of `cell` is in `cache`: its shard file holds exactly the shard's
/// runs, or the complete cell is there (then [`run_cell_shard`] has nothing to do).
pub fn shard_present(cell: &Cell, cache: &Path, shard: Shard) -> bool {
    read_cache(&cache_path(cache, cell), cell).is_some() || read_shard(cache, cell, shard).is_some()
}

/// Runs the slice `shard` of `cell` into its shard file in `cache`, unless the complete cell or
/// that shard is already there. Returns the seconds spent (`None` when nothing was run).
///
/// # Errors
/// As [`run_cell`].
pub fn run_cell_shard(
    cell: &Cell,
    cache: &Path,
    threads: usize,
    shard: Shard,
) -> Result<Option<f64>> {
    if shard_present(cell, cache, shard) {
        return Ok(None);
    }
    let (records, elapsed) = simulate_cell(cell, threads, Some(shard))?;
    let p = shard_path(cache, cell, shard);
    write_cache(&p, cell, &records)
        .map_err(|e| Error::Parse(format!("cannot write {}: {e}", p.display())))?;
    Ok(Some(elapsed))
}

fn write_cache(path: &Path, cell: &Cell, records: &[RunRecord]) -> std::io::Result<()> {
    let mut s = header(cell);
    s.push_str("\nrun,tau,recommendation,stopped,rounds\n");
    for r in records {
        let o = &r.outcome;
        let rounds = o.rounds.map(|x| x.to_string()).unwrap_or_default();
        s.push_str(&format!(
            "{},{},{},{},{}\n",
            r.run, o.tau, o.recommendation, o.stopped, rounds
        ));
    }
    let digest = blake3::hash(s.as_bytes()).to_hex();
    s.push_str(&format!("# blake3={digest}\n"));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, s)
}

/// Runs (or loads from `cache`) one cell on `threads` threads.
///
/// # Errors
/// Invalid instance or algorithm parameters; an unwritable cache is reported as
/// [`Error::Parse`] with the path.
pub fn run_cell(cell: &Cell, cache: Option<&Path>, threads: usize) -> Result<CellResult> {
    let nu = cell.instance()?;
    if let Some(dir) = cache {
        let cached =
            read_cache(&cache_path(dir, cell), cell).or_else(|| assemble_shards(dir, cell));
        if let Some(records) = cached {
            let summary = summarize(&records, nu.best())?;
            return Ok(CellResult {
                cell: cell.clone(),
                seed: cell.seed(),
                summary,
                cached: true,
                elapsed_s: 0.0,
                std_tau_stopped: std_stopped(&records),
            });
        }
    }
    let (records, elapsed_s) = simulate_cell(cell, threads, None)?;
    if let Some(dir) = cache {
        let p = cache_path(dir, cell);
        write_cache(&p, cell, &records)
            .map_err(|e| Error::Parse(format!("cannot write {}: {e}", p.display())))?;
    }
    let summary = summarize(&records, nu.best())?;
    Ok(CellResult {
        cell: cell.clone(),
        seed: cell.seed(),
        summary,
        cached: false,
        elapsed_s,
        std_tau_stopped: std_stopped(&records),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_known_values() {
        // FNV-1a 64 test vectors (Fowler–Noll–Vo reference).
        assert_eq!(fnv1a(""), 0xcbf29ce484222325);
        assert_eq!(fnv1a("a"), 0xaf63dc4c8601ec8c);
    }

    #[test]
    fn default_options_keep_verify_keys_and_each_option_changes_the_key() {
        let profile = crate::report::grid::Profile::named("quick").expect("quick");
        let base = profile.cell("mu4", &[0.75, 0.5], AlgoName::AdapTtStar, Some(0.2));
        assert_eq!(base.key(), "mu4_adap-tt-star_eps0.2_delta0.01_paper");
        let d = RunOptions::default();
        let variants = [
            RunOptions {
                sigma: Some(1.0),
                ..d.clone()
            },
            RunOptions {
                beta: 0.3,
                ..d.clone()
            },
            RunOptions {
                gamma: Some(1e-6),
                ..d.clone()
            },
            RunOptions {
                tie_break: TieBreak::Uniform,
                ..d.clone()
            },
            RunOptions {
                challenger_counts: ChallengerCounts::Local,
                ..d.clone()
            },
            RunOptions {
                ids_beta: true,
                ..d.clone()
            },
            RunOptions {
                gauss_sigma: GaussLdpSigma::Printed,
                ..d.clone()
            },
            RunOptions {
                eq14_form: Eq14Form::Printed,
                ..d.clone()
            },
            RunOptions {
                seed_salt: Some(7),
                ..d.clone()
            },
            RunOptions {
                threshold: Some("paper-cg".into()),
                ..d.clone()
            },
            RunOptions {
                threshold: Some("log(1/delta)".into()),
                ..d.clone()
            },
        ];
        let mut keys = vec![base.key()];
        for o in variants {
            let c = Cell {
                options: o,
                ..base.clone()
            };
            assert!(c.key().starts_with("mu4_adap-tt-star-"), "{}", c.key());
            keys.push(c.key());
        }
        let n = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), n, "every option gives its own key (and seed)");
    }

    #[test]
    fn cache_round_trip_and_prefix() {
        let dir = std::env::temp_dir().join(format!("dpbai-cells-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut cell = Cell {
            instance: "easy".into(),
            means: vec![0.9, 0.1],
            algo: AlgoName::DpSe,
            eps: Some(1.0),
            delta: 0.1,
            rules: Rules::Paper,
            runs: 6,
            max_steps: 10_000_000,
            dpa_episodes: DpaEpisodes::PerArm,
            adap_leader_bonus: AdapLeaderBonus::Eq11,
            leader_counts: LeaderCounts::Local,
            options: RunOptions::default(),
        };
        let a = run_cell(&cell, Some(&dir), 2).expect("runs");
        assert!(!a.cached);
        let b = run_cell(&cell, Some(&dir), 1).expect("loads");
        assert!(b.cached);
        assert_eq!(a.summary, b.summary);
        cell.runs = 3; // a prefix of the cached runs
        let c = run_cell(&cell, Some(&dir), 1).expect("loads prefix");
        let d = run_cell(&cell, None, 1).expect("recomputes");
        assert!(c.cached && !d.cached);
        assert_eq!(
            c.summary, d.summary,
            "the first runs do not depend on the run count"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn shards_assemble_into_the_unsharded_cell() {
        let base = std::env::temp_dir().join(format!("dpbai-shards-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let (sharded, whole) = (base.join("sharded"), base.join("whole"));
        let cell = Cell {
            instance: "easy".into(),
            means: vec![0.8, 0.5, 0.4],
            algo: AlgoName::Ttucb,
            eps: None,
            delta: 0.1,
            rules: Rules::Paper,
            runs: 11,
            max_steps: 1_000_000,
            dpa_episodes: DpaEpisodes::PerArm,
            adap_leader_bonus: AdapLeaderBonus::Eq11,
            leader_counts: LeaderCounts::Local,
            options: RunOptions::default(),
        };
        for i in [0, 2] {
            let s = Shard::new(i, 3).unwrap();
            assert!(run_cell_shard(&cell, &sharded, 1, s).unwrap().is_some());
            assert!(
                run_cell_shard(&cell, &sharded, 1, s).unwrap().is_none(),
                "resumable"
            );
        }
        // Shard 1/3 missing: nothing to assemble yet.
        assert!(assemble_shards(&sharded, &cell).is_none());
        run_cell_shard(&cell, &sharded, 2, Shard::new(1, 3).unwrap()).unwrap();
        let a = run_cell(&cell, Some(&sharded), 1).unwrap();
        assert!(a.cached, "assembled from the shard files");
        let b = run_cell(&cell, Some(&whole), 2).unwrap();
        assert!(!b.cached);
        assert_eq!(a.summary, b.summary);
        let key = format!("{}.csv", cell.key());
        assert_eq!(
            std::fs::read(sharded.join(&key)).unwrap(),
            std::fs::read(whole.join(&key)).unwrap(),
            "byte-identical cache files"
        );
        let _ = std::fs::remove_dir_all(&base);
    }
}
