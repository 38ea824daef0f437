//! Running a cell: from its cache file when it is there (or from a complete set of its shard
//! files), else by simulating it (whole, or one shard of it) and writing the file; and
//! re-deriving stored cells from their specifications ([`rederive`]).

use super::cache::{
    CellFile, Entry, assemble_shards, cache_path, read_cache, read_cell_file, read_shard, scan,
    shard_path, stale_versions, write_cell_file,
};
use super::cell::Cell;
use super::spec::{CellDigest, CellSpec};
use crate::error::{Error, Result};
use crate::mc::{EngineConfig, RunRecord, Shard, Summary, simulate, summarize};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A finished cell.
#[derive(Debug, Clone, Serialize)]
pub struct CellResult {
    /// The cell.
    pub cell: Cell,
    /// The digest of the specification its records come from (the cell's own, or, for a stale
    /// cell used with `--allow-stale`, the older one).
    pub digest: CellDigest,
    /// Its master seed.
    pub seed: u64,
    /// Summary of its runs.
    pub summary: Summary,
    /// Whether the runs came from the cache.
    pub cached: bool,
    /// Whether they came from a cell file of an older engine semantics of the algorithm.
    pub stale: bool,
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
    crate::stats::sample_std(&t).ok()
}

impl CellResult {
    fn new(
        cell: &Cell,
        spec: &CellSpec,
        records: &[RunRecord],
        cached: bool,
        elapsed_s: f64,
    ) -> Result<Self> {
        Ok(CellResult {
            cell: cell.clone(),
            digest: spec.digest(),
            seed: spec.seed,
            summary: summarize(records, spec.instance()?.best())?,
            cached,
            stale: !spec.is_current(),
            elapsed_s,
            std_tau_stopped: std_stopped(records),
        })
    }
}

/// Simulates `spec` (or its slice `shard`); returns the records and the seconds spent.
///
/// # Errors
/// An invalid specification; a user threshold that was not finite during the runs.
pub fn simulate_spec(
    spec: &CellSpec,
    threads: usize,
    shard: Option<Shard>,
) -> Result<(Vec<RunRecord>, f64)> {
    // A cell is Monte Carlo evidence, cached or not (`fault` module docs).
    let _untracked = crate::fault::untracked();
    let (algo, checked) = spec.build()?;
    let cfg = EngineConfig {
        seed: spec.seed,
        runs: spec.runs,
        threads,
        max_steps: spec.max_steps,
        shard,
    };
    let started = std::time::Instant::now();
    let records = simulate(algo.as_ref(), &cfg, &|| {})?;
    if let Some(e) = checked.and_then(|c| c.failure()) {
        return Err(e);
    }
    Ok((records, started.elapsed().as_secs_f64()))
}

/// What to do with a cell whose cache holds it only at an older engine semantics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StalePolicy {
    /// Recompute it (a stale file is never read as the cell).
    #[default]
    Recompute,
    /// Use the stale records, flagged [`CellResult::stale`] and carrying the old digest
    /// (`dpbai verify --check --allow-stale`).
    Use,
}

/// Runs or loads cells against one cache folder.
#[derive(Debug, Clone)]
pub struct CellRunner {
    /// The cache folder (`None`: compute everything, write nothing).
    pub cache: Option<PathBuf>,
    /// Worker threads.
    pub threads: usize,
    /// Stale cells.
    pub stale: StalePolicy,
    entries: Vec<Entry>,
}

impl CellRunner {
    /// A runner on `cache` with `threads` workers; with [`StalePolicy::Use`] the folder's
    /// headers are scanned once, here.
    pub fn new(cache: Option<&Path>, threads: usize, stale: StalePolicy) -> Self {
        let entries = match (cache, stale) {
            (Some(dir), StalePolicy::Use) => scan(dir),
            _ => Vec::new(),
        };
        CellRunner {
            cache: cache.map(Path::to_path_buf),
            threads,
            stale,
            entries,
        }
    }

    /// Runs (or loads) one cell.
    ///
    /// # Errors
    /// Invalid instance or algorithm parameters; an unwritable cache ([`Error::Io`]).
    pub fn run(&self, cell: &Cell) -> Result<CellResult> {
        let spec = cell.spec();
        if let Some(dir) = &self.cache {
            let label = cell.key();
            let cached = match read_cache(dir, &spec) {
                Some(r) => Some(r),
                None => assemble_shards(dir, &label, &spec)?,
            };
            if let Some(records) = cached {
                return CellResult::new(cell, &spec, &records, true, 0.0);
            }
            if self.stale == StalePolicy::Use {
                if let Some(f) = stale_versions(&self.entries, &spec).into_iter().next() {
                    return CellResult::new(cell, &f.spec, &f.records, true, 0.0);
                }
            }
        }
        let (records, elapsed_s) = simulate_spec(&spec, self.threads, None)?;
        if let Some(dir) = &self.cache {
            write_cell_file(
                &cache_path(dir, &spec.digest()),
                &cell.key(),
                &spec,
                &records,
            )?;
        }
        CellResult::new(cell, &spec, &records, false, elapsed_s)
    }

    /// The cells among `cells` that the cache holds only at another engine semantics of their
    /// algorithm (older: stale cells; or newer, written by a later dpbai): each with that file's
    /// specification.
    pub fn stale_cells(&self, cells: &[Cell]) -> Vec<(Cell, CellSpec)> {
        let Some(dir) = &self.cache else {
            return Vec::new();
        };
        let entries = if self.entries.is_empty() {
            scan(dir)
        } else {
            self.entries.clone()
        };
        cells
            .iter()
            .filter_map(|c| {
                let spec = c.spec();
                if read_cache(dir, &spec).is_some() {
                    return None;
                }
                let old = entries
                    .iter()
                    .find(|e| e.spec != spec && e.spec.same_but_engine(&spec))?;
                Some((c.clone(), old.spec.clone()))
            })
            .collect()
    }
}

/// The stale cells of [`CellRunner::stale_cells`] in words.
#[derive(Debug, Clone, PartialEq)]
pub struct StaleCells {
    /// How many.
    pub count: usize,
    /// At which engine semantics the cache holds them: older (stale cells, computed by an
    /// earlier dpbai), newer (computed by a later dpbai than this one), or both.
    pub which: &'static str,
    /// The first five (key, algorithm, the file's engine version, newer or older than the
    /// current one), then how many more.
    pub list: String,
}

impl StaleCells {
    /// Describes `stale` (from [`CellRunner::stale_cells`]); `None` when it is empty.
    pub fn describe(stale: &[(Cell, CellSpec)]) -> Option<StaleCells> {
        if stale.is_empty() {
            return None;
        }
        let current = |c: &CellSpec| crate::bandit::semantics::semantics(c.algo).version;
        let list: Vec<String> = stale
            .iter()
            .take(5)
            .map(|(c, old)| {
                format!(
                    "{} ({} at engine version {}, {} than the current {})",
                    c.key(),
                    old.algo.as_str(),
                    old.engine.version,
                    if old.engine.version > current(old) {
                        "newer"
                    } else {
                        "older"
                    },
                    current(old)
                )
            })
            .collect();
        let more = if stale.len() > 5 {
            format!(", and {} more", stale.len() - 5)
        } else {
            String::new()
        };
        let newer = stale
            .iter()
            .filter(|(_, old)| old.engine.version > current(old))
            .count();
        let which = match (newer, stale.len() - newer) {
            (0, _) => "an older engine semantics of their algorithm (stale cells)",
            (_, 0) => "a newer engine semantics of their algorithm (computed by a later dpbai)",
            _ => "another engine semantics of their algorithm (older or newer)",
        };
        Some(StaleCells {
            count: stale.len(),
            which,
            list: format!("{}{more}", list.join("; ")),
        })
    }
}

/// Runs (or loads from `cache`) one cell on `threads` threads, recomputing stale cells.
///
/// # Errors
/// As [`CellRunner::run`].
pub fn run_cell(cell: &Cell, cache: Option<&Path>, threads: usize) -> Result<CellResult> {
    CellRunner::new(cache, threads, StalePolicy::Recompute).run(cell)
}

/// Whether the slice `shard` of `cell` is in `cache`: its shard file holds exactly the shard's
/// runs, or the complete cell is there (then [`run_cell_shard`] has nothing to do).
pub fn shard_present(cell: &Cell, cache: &Path, shard: Shard) -> bool {
    let spec = cell.spec();
    read_cache(cache, &spec).is_some() || read_shard(cache, &spec, shard).is_some()
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
    let spec = cell.spec();
    let (records, elapsed) = simulate_spec(&spec, threads, Some(shard))?;
    write_cell_file(
        &shard_path(cache, &spec.digest(), shard),
        &cell.key(),
        &spec,
        &records,
    )?;
    Ok(Some(elapsed))
}

/// One re-derived cell.
#[derive(Debug, Clone, Serialize)]
pub struct Rederived {
    /// Its label.
    pub label: String,
    /// Its digest.
    pub digest: CellDigest,
    /// Runs recomputed.
    pub runs: u64,
    /// Seconds spent.
    pub seconds: f64,
}

/// Recomputes `n` cells chosen at random (by `seed`) among those of `cells` whose whole-cell
/// file is in `cache`, each from the specification stored in its file, and requires
/// bit-identical records.
///
/// # Errors
/// [`Error::Parse`] naming the first cell whose recomputed records differ from the stored ones
/// (with the first differing run), or whose file fails its checks; an invalid specification.
pub fn rederive(
    cells: &[Cell],
    cache: &Path,
    n: usize,
    seed: u64,
    threads: usize,
) -> Result<Vec<Rederived>> {
    let mut stored: Vec<(String, CellFile)> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for c in cells {
        let d = c.digest();
        if !seen.insert(d.clone()) {
            continue;
        }
        if let Some(f) = read_cell_file(&cache_path(cache, &d))? {
            stored.push((c.key(), f));
        }
    }
    // The same seed picks the same cells.
    let picks = crate::rng::pick_without_replacement(stored.len() as u64, n as u64, seed);
    let mut slots: Vec<Option<(String, CellFile)>> = stored.into_iter().map(Some).collect();
    let mut out = Vec::new();
    for (label, f) in picks.iter().filter_map(|&i| slots[i as usize].take()) {
        let (fresh, seconds) = simulate_spec(&f.spec, threads, None)?;
        if fresh != f.records {
            let first = fresh
                .iter()
                .zip(&f.records)
                .find(|(a, b)| a != b)
                .map(|(a, b)| {
                    format!(
                        "run {}: recomputed {:?}, stored {:?}",
                        a.run, a.outcome, b.outcome
                    )
                })
                .unwrap_or_else(|| {
                    format!(
                        "{} runs recomputed, {} stored",
                        fresh.len(),
                        f.records.len()
                    )
                });
            return Err(Error::Parse(format!(
                "re-derivation failed: cell {label} ({}) does not reproduce its stored records \
                 ({first})",
                f.spec.digest()
            )));
        }
        out.push(Rederived {
            label,
            digest: f.spec.digest(),
            runs: f.spec.runs,
            seconds,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bandit::{AlgoName, Setting};

    fn cell(runs: u64) -> Cell {
        Cell {
            instance: "easy".into(),
            means: vec![0.9, 0.1],
            sigma: None,
            setting: Setting::paper(AlgoName::DpSe, 0.1)
                .and_then(|s| s.with_eps(1.0))
                .expect("valid"),
            runs,
            max_steps: 10_000_000,
            seed_salt: None,
            paired_seed: None,
            threshold: None,
        }
    }

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("dpbai-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn cache_round_trip_and_runs_in_the_spec() {
        let dir = tmp("cells");
        let mut c = cell(6);
        let a = run_cell(&c, Some(&dir), 2).expect("runs");
        assert!(!a.cached && !a.stale);
        let b = run_cell(&c, Some(&dir), 1).expect("loads");
        assert!(b.cached);
        assert_eq!(a.summary, b.summary);
        assert_eq!(a.digest, c.digest());
        c.runs = 3; // another specification: recomputed, not a prefix of the cached file
        let d = run_cell(&c, Some(&dir), 1).expect("recomputes");
        assert!(!d.cached);
        assert_eq!(
            std::fs::read_dir(&dir).expect("dir").count(),
            2,
            "one file per digest"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_edited_or_foreign_file_is_recomputed() {
        let dir = tmp("edited");
        let c = cell(4);
        run_cell(&c, Some(&dir), 1).expect("runs");
        let path = cache_path(&dir, &c.digest());
        let text = std::fs::read_to_string(&path).expect("written");
        std::fs::write(&path, text.replacen(",true,", ",false,", 1)).expect("edit");
        assert!(!run_cell(&c, Some(&dir), 1).expect("recomputes").cached);
        // the file of another spec under this cell's name: its header names the other spec
        let other = cell(5);
        run_cell(&other, Some(&dir), 1).expect("runs");
        std::fs::copy(cache_path(&dir, &other.digest()), &path).expect("copy");
        assert!(!run_cell(&c, Some(&dir), 1).expect("recomputes").cached);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn shards_assemble_into_the_unsharded_cell() {
        let base = tmp("shards");
        let (sharded, whole) = (base.join("sharded"), base.join("whole"));
        let c = Cell {
            means: vec![0.8, 0.5, 0.4],
            setting: Setting::paper(AlgoName::Ttucb, 0.1).expect("valid"),
            runs: 11,
            max_steps: 1_000_000,
            ..cell(11)
        };
        for i in [0, 2] {
            let s = Shard::new(i, 3).unwrap();
            assert!(run_cell_shard(&c, &sharded, 1, s).unwrap().is_some());
            assert!(
                run_cell_shard(&c, &sharded, 1, s).unwrap().is_none(),
                "resumable"
            );
        }
        let spec = c.spec();
        assert!(
            assemble_shards(&sharded, &c.key(), &spec)
                .unwrap()
                .is_none()
        );
        run_cell_shard(&c, &sharded, 2, Shard::new(1, 3).unwrap()).unwrap();
        let a = run_cell(&c, Some(&sharded), 1).unwrap();
        assert!(a.cached, "assembled from the shard files");
        let b = run_cell(&c, Some(&whole), 2).unwrap();
        assert!(!b.cached);
        assert_eq!(a.summary, b.summary);
        let name = cache_path(Path::new(""), &c.digest());
        assert_eq!(
            std::fs::read(sharded.join(&name)).unwrap(),
            std::fs::read(whole.join(&name)).unwrap(),
            "byte-identical cache files"
        );
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn stale_cells_are_found_and_used_only_when_allowed() {
        let dir = tmp("stale");
        let c = cell(4);
        // a file of this cell at an older engine version of its algorithm
        let mut old = c.spec();
        old.engine.version = 0;
        let (records, _) = simulate_spec(&c.spec(), 1, None).expect("runs");
        write_cell_file(&cache_path(&dir, &old.digest()), &c.key(), &old, &records).expect("w");
        let r = CellRunner::new(Some(&dir), 1, StalePolicy::Recompute);
        let stale = r.stale_cells(std::slice::from_ref(&c));
        assert_eq!(stale.len(), 1);
        assert_eq!(stale[0].1.engine.version, 0);
        let used = CellRunner::new(Some(&dir), 1, StalePolicy::Use)
            .run(&c)
            .expect("uses");
        assert!(used.cached && used.stale);
        assert_eq!(used.digest, old.digest());
        let fresh = r.run(&c).expect("recomputes");
        assert!(!fresh.cached && !fresh.stale);
        assert!(
            r.stale_cells(std::slice::from_ref(&c)).is_empty(),
            "now current"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn rederivation_passes_and_catches_a_forged_file() {
        let dir = tmp("rederive");
        let cells = [cell(5), cell(6), cell(7)];
        for c in &cells {
            run_cell(c, Some(&dir), 1).expect("runs");
        }
        let ok = rederive(&cells, &dir, 2, 1, 1).expect("reproduces");
        assert_eq!(ok.len(), 2);
        // A file whose records were changed and whose content digest was recomputed (what an
        // unkeyed digest cannot detect) is caught by re-derivation.
        let c = &cells[0];
        let spec = c.spec();
        let (mut records, _) = simulate_spec(&spec, 1, None).expect("runs");
        records[0].outcome.tau += 1;
        write_cell_file(&cache_path(&dir, &c.digest()), &c.key(), &spec, &records).expect("w");
        let e = rederive(&cells, &dir, 3, 1, 1).expect_err("forged");
        assert!(e.to_string().contains("run 0"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
