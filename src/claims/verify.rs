//! The verification of one paper ([`verify`]): its study's cells run or loaded from the cache,
//! sorted into the evidence its claims read, its other evidence gathered (traced runs, audit
//! searches), and every claim judged. The caller renders the result (REPORT.md, figures) and
//! compares the verdicts with its expected files.

use super::context::Context;
use super::judge::run_claims_counted;
pub use super::paper::Step;
use super::paper::{Gathering, Paper};
use super::record::ClaimResult;
use crate::error::Result;
use crate::experiment::run::{CellResult, CellRunner};
use crate::experiment::study::Study;
use crate::fault::Area;

/// How a verification runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// The paper profile (full grids of the numeric checks) rather than the quick one.
    pub full: bool,
    /// Run the Monte Carlo evidence (`false`: `--no-experiments`; claims that need it are
    /// skipped).
    pub experiments: bool,
    /// The evidence area a fault is injected into (`DPBAI_INJECT_FAULT`).
    pub fault: Option<Area>,
}

/// `verify --shard i/n`'s part of the evidence beyond the study's cells, into `cache` (the
/// cells themselves are sharded by their runs: [`crate::experiment::run_cell_shard`]).
///
/// # Errors
/// The first computation that fails.
pub fn gather_shard(
    paper: &Paper,
    full: bool,
    cache: &std::path::Path,
    shard: crate::mc::Shard,
    progress: &mut dyn FnMut(Step<'_>),
) -> Result<()> {
    let mut ctx = Context {
        full,
        experiments: true,
        ..Default::default()
    };
    let how = Gathering {
        cache: Some(cache.to_path_buf()),
        shard: Some(shard),
    };
    (paper.gather)(&mut ctx, &how, progress)
}

/// What [`run_shard`] reports as it goes.
#[derive(Debug)]
pub enum ShardStep<'a> {
    /// Cell `done + 1` of `total` (its slice run in `seconds`, or `None`: already there).
    Cell {
        /// Cells finished before this one.
        done: usize,
        /// Cells in all.
        total: usize,
        /// The cell.
        cell: &'a crate::experiment::Cell,
        /// Seconds its slice took (`None`: it was there).
        seconds: Option<f64>,
    },
    /// A step of the evidence beyond the cells.
    Evidence(Step<'a>),
}

/// `verify --shard i/n`: the slice `shard` of every cell's runs of every paper's study of
/// `profile` (a cell two papers name is one specification, run once), then this shard's part of
/// every paper's evidence beyond the cells, into `cache`; no claim is judged. Returns the
/// number of cells.
///
/// # Errors
/// An unknown profile; the first cell or evidence computation that fails.
pub fn run_shard(
    profile: &str,
    runs: Option<u64>,
    cache: &std::path::Path,
    threads: usize,
    shard: crate::mc::Shard,
    progress: &mut dyn FnMut(ShardStep<'_>),
) -> Result<usize> {
    let mut cells = super::dp_bai::evidence::study(profile, runs)?.distinct_cells();
    for c in super::bai25::study(profile)?.distinct_cells() {
        if !cells.iter().any(|x| x.digest() == c.digest()) {
            cells.push(c);
        }
    }
    for (done, cell) in cells.iter().enumerate() {
        let seconds = crate::experiment::run_cell_shard(cell, cache, threads, shard)?;
        progress(ShardStep::Cell {
            done,
            total: cells.len(),
            cell,
            seconds,
        });
    }
    for paper in super::PAPERS {
        gather_shard(paper, profile == "paper", cache, shard, &mut |step| {
            progress(ShardStep::Evidence(step))
        })?;
    }
    Ok(cells.len())
}

/// A finished verification.
#[derive(Debug)]
pub struct Verification {
    /// The study the evidence came from.
    pub study: Study,
    /// Its cells' results, in the study's order (empty with `--no-experiments`).
    pub cells: Vec<CellResult>,
    /// The evidence the claims read (grid, controls, traced runs, searches), for the report.
    pub context: Context,
    /// Every claim, judged, in id order.
    pub claims: Vec<ClaimResult>,
}

/// Runs (or loads with `runner`) every cell of `study`, sorts the results into the evidence
/// of `paper`'s claims, gathers its other evidence and judges every claim.
///
/// # Errors
/// The first cell or evidence computation that fails outright (an error of one claim's own
/// evidence is recorded in its verdict instead).
pub fn verify(
    paper: &Paper,
    study: Study,
    runner: &CellRunner,
    opts: Options,
    evidence_cache: Option<&std::path::Path>,
    progress: &mut dyn FnMut(Step<'_>),
) -> Result<Verification> {
    let mut cells = Vec::new();
    if opts.experiments {
        let total = study.cells.len();
        for (i, sc) in study.cells.iter().enumerate() {
            let r = runner.run(&sc.cell)?;
            progress(Step::Cell {
                done: i + 1,
                total,
                result: &r,
            });
            cells.push(r);
        }
    }
    let mut context = Context {
        full: opts.full,
        experiments: opts.experiments,
        fault: opts.fault,
        ..Default::default()
    };
    if opts.experiments {
        (paper.evidence)(&study, &cells, &mut context);
        let how = Gathering {
            cache: evidence_cache.map(std::path::Path::to_path_buf),
            shard: None,
        };
        (paper.gather)(&mut context, &how, progress)?;
    }
    let claims = run_claims_counted(&(paper.claims)(), &mut context, &mut |done, total| {
        progress(Step::Phase {
            name: "checking the claims",
            done,
            total,
        })
    });
    Ok(Verification {
        study,
        cells,
        context,
        claims,
    })
}
