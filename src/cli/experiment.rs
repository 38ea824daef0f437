//! `dpbai experiment CONFIG.toml`: a user's study (instances, algorithms, ε and δ grids) run as
//! verify's experiment cells and reported as `results.csv`, `figures/` and `SUMMARY.md` in
//! `--out-dir` (see [`crate::experiment::study`], [`crate::report::study`] and the section
//! "Your own study" of docs/GUIDE.md).

use crate::experiment::study::runner::{cache_dir, load_study, rows, run_study, run_study_shard};
use crate::experiment::study::{self, BoundCache};
use crate::report::study::output;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Arguments of `dpbai experiment`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Outputs in OUT_DIR: results.csv (one row per instance, algorithm, rules, delta, eps), figures/
(tau against eps per instance and delta: PNG, SVG, sidecar JSON), SUMMARY.md, and cache/ (one
file per finished cell, named by the digest of its full specification: a rerun or an
interrupted run resumes from it, and a cell whose means, sigma, readings, threshold or any other
input changed is recomputed). Several studies, or concurrent runs, may share one OUT_DIR. With
--shard i/n only the slice i/n of every cell's runs is run into cache/ (no report); run again
without --shard once all shards' files are in OUT_DIR/cache: the outputs equal those of an
unsharded run.")]
pub struct Args {
    /// The study file (TOML; see examples/study.toml).
    pub config: PathBuf,
    /// Output folder (default: `experiment-<config file stem>`).
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// Worker threads (default: all cores). The outputs do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Run only the slice i/n (0-based) of every cell's runs into OUT_DIR/cache; no report.
    #[arg(long)]
    pub shard: Option<String>,
    /// Override the study's runs per cell (an algorithm's runs-multiplier still applies).
    #[arg(long)]
    pub runs: Option<u64>,
    /// After the run, recompute this many cells, chosen at random, from the specifications
    /// stored in their cache files and require bit-identical records (0: none).
    #[arg(long, default_value_t = 0)]
    pub rederive: usize,
    /// Seed of the choice of --rederive's cells.
    #[arg(long, default_value_t = 0)]
    pub rederive_seed: u64,
    /// PNG resolution of the figures in dots per inch (50–600; default: the study's `[figures]
    /// dpi`, else 100, the figure's pixel size). The SVG is the same at any value.
    #[arg(long)]
    pub dpi: Option<u32>,
}

/// The study of `args` (with its `--runs` override).
pub(crate) fn load(args: &Args) -> anyhow::Result<study::config::Study> {
    let mut study = load_study(&args.config, args.runs)?;
    if let Some(d) = args.dpi {
        study.dpi = crate::params::limits::check_dpi("dpi", d)?;
    }
    Ok(study)
}

/// The default output folder.
fn out_dir(args: &Args) -> PathBuf {
    args.out_dir.clone().unwrap_or_else(|| {
        let stem = args
            .config
            .file_stem()
            .map_or("study".into(), |s| s.to_string_lossy().to_string());
        PathBuf::from(format!("experiment-{stem}"))
    })
}

/// The command recorded in the outputs: the study file's name and `--runs`, nothing that
/// depends on the machine (folder, threads, shard).
fn command(args: &Args) -> String {
    let name = args
        .config
        .file_name()
        .map_or("study.toml".into(), |s| s.to_string_lossy().to_string());
    match args.runs {
        Some(r) => format!("dpbai experiment {name} --runs {r}"),
        None => format!("dpbai experiment {name}"),
    }
}

fn bar(n: u64) -> indicatif::ProgressBar {
    if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(n);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:20}] {pos}/{len} cells (eta {eta}) {wide_msg}",
        ) {
            bar.set_style(style);
        }
        // Redrawn every second, so that a long cell shows its elapsed time moving.
        bar.enable_steady_tick(std::time::Duration::from_secs(1));
        bar
    } else {
        indicatif::ProgressBar::hidden()
    }
}

/// Runs the command.
/// A characteristic time that cannot be certified in double precision at the study's means
/// (gaps of 1e-310, or of 1e19 standard deviations) is a property of the input: exit 2 naming
/// the study file, as `bounds` does for its `--means`.
fn uncertified(args: &Args, e: impl Into<anyhow::Error>) -> anyhow::Error {
    let e = e.into();
    match e.downcast_ref::<crate::Error>() {
        Some(inner @ crate::Error::NoConvergence { .. }) => super::errors::usage(format!(
            "{}: a characteristic time of one of its instances cannot be certified in double \
             precision ({inner}); use less extreme means or gaps",
            args.config.display()
        )),
        _ => e,
    }
}

/// Runs `dpbai experiment`: the study's cells (cached by content), then its tables and figures.
pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(t) = args.threads {
        crate::params::limits::check_threads(t)?;
    }
    let shard = args
        .shard
        .as_deref()
        .map(crate::mc::Shard::parse)
        .transpose()?;
    if shard.is_some() && args.rederive > 0 {
        return Err(super::errors::usage(
            "--rederive does not apply with --shard (a shard writes shard files, not cells): \
             re-derive when assembling, without --shard",
        ));
    }
    let study = load(&args)?;
    if let Some(sh) = shard {
        // Every cell must have a run in the slice, as `dpbai run --shard` requires.
        if let Some(c) = study.cells.iter().min_by_key(|c| c.cell.runs) {
            if sh.index >= c.cell.runs {
                return Err(super::errors::usage(format!(
                    "shard {}/{} of cell {} is empty (it has {} runs): use at most {} shards, \
                     the runs of the study's smallest cell",
                    sh.index,
                    sh.count,
                    c.cell.key(),
                    c.cell.runs,
                    c.cell.runs
                )));
            }
        }
    }
    let dir = out_dir(&args);
    let cache = cache_dir(&dir);
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let started = std::time::Instant::now();
    let pb = bar(study.cells.len() as u64);
    let progress = |i: usize, c: &crate::experiment::Cell| {
        pb.set_position(i as u64);
        pb.set_message(c.key());
    };
    if let Some(shard) = shard {
        run_study_shard(&study, &cache, threads, shard, &progress)
            .map_err(|e| uncertified(&args, e))?;
        pb.finish_and_clear();
        println!(
            "shard {}/{}: {} cells in {:.1} s into {}; run `dpbai experiment` without --shard \
             once every shard's files are there",
            shard.index,
            shard.count,
            study.cells.len(),
            started.elapsed().as_secs_f64(),
            cache.display()
        );
        return Ok(());
    }
    let results =
        run_study(&study, &cache, threads, &progress).map_err(|e| uncertified(&args, e))?;
    pb.finish_and_clear();
    let computed = results.iter().filter(|r| !r.cached).count();
    write_outputs(&study, &results, &dir, &command(&args)).map_err(|e| uncertified(&args, e))?;
    println!(
        "{} cells ({} computed, {} from the cache) in {:.1} s: {}/results.csv, figures/, SUMMARY.md",
        results.len(),
        computed,
        results.len() - computed,
        started.elapsed().as_secs_f64(),
        dir.display()
    );
    if args.rederive > 0 {
        let cells: Vec<_> = study.cells.iter().map(|c| c.cell.clone()).collect();
        let done = crate::experiment::rederive(
            &cells,
            &cache,
            args.rederive,
            args.rederive_seed,
            threads,
        )?;
        println!(
            "re-derived {} cells from their stored specifications: bit-identical ({})",
            done.len(),
            done.iter()
                .map(|d| d.digest.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(())
}

/// results.csv, figures/ and SUMMARY.md of finished cells.
fn write_outputs(
    study: &study::config::Study,
    results: &[crate::experiment::CellResult],
    dir: &Path,
    command: &str,
) -> anyhow::Result<()> {
    let mut bounds = BoundCache::default();
    let rows = rows(study, results, &mut bounds)?;
    output::write_results(&rows, &dir.join("results.csv"))?;
    let figs = dir.join("figures");
    crate::files::create_parent(&figs.join("x"))?;
    output::render_figures(study, &rows, &figs, command, &mut bounds)?;
    output::render_delta_figures(study, &rows, &figs, command)?;
    output::write_summary(study, &rows, &dir.join("SUMMARY.md"), command)?;
    Ok(())
}
