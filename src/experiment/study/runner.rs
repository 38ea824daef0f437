//! Running a study: its file read and validated ([`load_study`]), its cells run or loaded from
//! the output folder's cache ([`run_study`], or one shard of every cell: [`run_study_shard`]),
//! and one [`Row`] per cell ([`rows`]).
//!
//! The cache is content-addressed ([`crate::experiment::cache`]): several studies, or several
//! runs of one study at once, may share an output folder; a cell is recomputed whenever
//! anything in its specification changed (a mean, σ, a reading, the threshold text, ...),
//! whatever its instance is called.

use super::config::Study;
use super::{BoundCache, Row, row};
use crate::error::{Error, Result};
use crate::experiment::run::{CellResult, CellRunner, StalePolicy};
use crate::experiment::{Cell, run_cell_shard};
use crate::mc::Shard;
use std::path::{Path, PathBuf};

/// The cache folder of a study's output folder.
pub fn cache_dir(out_dir: &Path) -> PathBuf {
    out_dir.join("cache")
}

/// Reads and validates the study file `path`, with its `runs` replaced by `runs` when given.
///
/// # Errors
/// [`Error::Io`] for an unreadable file; [`Error::Parse`] for one that is not a regular UTF-8 file
/// within the size limit ([`read_study_file`]); [`Error::Config`] naming the file, the key and the
/// line.
pub fn load_study(path: &Path, runs: Option<u64>) -> Result<Study> {
    if let Some(r) = runs {
        if r == 0 {
            return Err(Error::param("runs", 0, "at least 1"));
        }
        crate::params::limits::check_runs("runs", r)?;
    }
    let text = read_study_file(path)?;
    super::validate::parse_study_with(&text, &path.display().to_string(), runs)
}

/// The text of a study file: a regular file of at most
/// [`MAX_FILE_BYTES`](super::validate::study_limits::MAX_FILE_BYTES), in UTF-8
/// ([`crate::files::read_user_text`], the reader of every user file).
///
/// # Errors
/// [`Error::Io`] for an unreadable file; [`Error::Parse`] for anything else.
pub fn read_study_file(path: &Path) -> Result<String> {
    use super::validate::study_limits::MAX_FILE_BYTES;
    crate::files::read_user_text(path, "study file (TOML)", MAX_FILE_BYTES)
}

/// Runs (or loads from `cache`) every cell of `study` on `threads` threads, in the study's
/// order; `progress(i, cell)` is called before cell `i` runs.
///
/// # Errors
/// The first failing cell's error.
pub fn run_study(
    study: &Study,
    cache: &Path,
    threads: usize,
    progress: &dyn Fn(usize, &Cell),
) -> Result<Vec<CellResult>> {
    let runner = CellRunner::new(Some(cache), threads, StalePolicy::Recompute);
    study
        .cells
        .iter()
        .enumerate()
        .map(|(i, sc)| {
            progress(i, &sc.cell);
            runner.run(&sc.cell)
        })
        .collect()
}

/// Runs the slice `shard` of every cell of `study` into `cache` (see
/// [`crate::experiment::run_cell_shard`]); `progress(i, cell)` is called before cell `i`.
///
/// # Errors
/// The first failing cell's error.
pub fn run_study_shard(
    study: &Study,
    cache: &Path,
    threads: usize,
    shard: Shard,
    progress: &dyn Fn(usize, &Cell),
) -> Result<()> {
    for (i, sc) in study.cells.iter().enumerate() {
        progress(i, &sc.cell);
        run_cell_shard(&sc.cell, cache, threads, shard)?;
    }
    Ok(())
}

/// The rows of a study's finished cells (`results[i]` is cell `i`), with their bounds.
///
/// # Errors
/// Solver failures of the bounds.
pub fn rows(study: &Study, results: &[CellResult], bounds: &mut BoundCache) -> Result<Vec<Row>> {
    results
        .iter()
        .enumerate()
        .map(|(k, r)| row(study, k, r, bounds))
        .collect()
}
