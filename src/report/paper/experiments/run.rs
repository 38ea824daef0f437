//! Running a cell: from its cache when it is there (or from a complete set of shard files),
//! else by simulating it (whole, or one shard of it) and writing the cache.

use super::cache::{assemble_shards, cache_path, read_cache, read_shard, shard_path, write_cache};
use super::Cell;
use crate::bandit::build;
use crate::error::{Error, Result};
use crate::mc::{simulate, summarize, EngineConfig, RunRecord, Shard, Summary};
use serde::Serialize;
use std::path::Path;

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
