//! `dpbai merge FILES...`: combines the shard files of `dpbai run --shard i/n --out FILE` into
//! exactly the summary of the unsharded run (same JSON except the timing fields `elapsed_s`, the
//! sum of the shards' wall-clock times, and `samples_per_s`).
//!
//! The checks are [`crate::experiment::shard::merge_shards`]'s: every file is a shard file of
//! one experiment (identical specification and metadata, the field that differs named), its
//! metadata follows from its specification, its content digest holds, `elapsed_s` is finite and
//! `>= 0`, all files have the same shard count `n`, each index `0..n` once, and the runs cover
//! `0..runs` exactly once. `--rederive N` recomputes N runs chosen at random without replacement
//! (every run when N is at least the run count) from the specification and requires them
//! bit-identical to the merged records.

use super::run::{print_report, write_csv};
use crate::experiment::meta::Report;
use crate::experiment::shard::merge_shards;
use std::path::PathBuf;

/// Arguments of `dpbai merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Shard files written by `dpbai run --shard i/n --out FILE`, or folders: every `*.json`
    /// file of a folder is one of the shard files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Per-run CSV of the merged runs (same columns as `dpbai run --out`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Recompute this many runs, chosen at random without replacement (all of them when it is at
    /// least the run count), from the shards' specification and require them bit-identical to
    /// the stored records (0: none).
    #[arg(long, default_value_t = 0)]
    pub rederive: u64,
    /// Seed of the choice of --rederive's runs.
    #[arg(long, default_value_t = 0)]
    pub rederive_seed: u64,
}

/// Recomputes `n` runs of the merged experiment, chosen without replacement by `seed` (all of
/// them when `n` >= the run count: [`crate::rng::pick_without_replacement`], as `experiment
/// --rederive` picks cells), and compares them with the stored records.
fn rederive_runs(m: &crate::experiment::shard::Merged, n: u64, seed: u64) -> anyhow::Result<()> {
    let (alg, _) = m.spec.build()?;
    let total = m.records.len() as u64;
    let picks = crate::rng::pick_without_replacement(total, n, seed);
    let fresh =
        crate::mc::simulate_runs(alg.as_ref(), m.spec.seed, m.spec.max_steps, &picks, &|| {});
    for (f, &r) in fresh.iter().zip(&picks) {
        let stored = &m.records[r as usize];
        if f != stored {
            return Err(super::errors::usage(format!(
                "re-derivation failed: run {r} recomputed as {:?}, stored as {:?}",
                f.outcome, stored.outcome
            )));
        }
    }
    eprintln!(
        "re-derived {} of {total} runs from the specification{} (cell {}): bit-identical",
        picks.len(),
        if picks.len() as u64 == total {
            ", every run"
        } else {
            ""
        },
        m.meta.cell
    );
    Ok(())
}

/// The shard files named by `paths`: a file as it is, a folder as its `*.json` files in name
/// order.
fn shard_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| crate::Error::io("read", p, e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "json") && f.is_file())
                .collect();
            if files.is_empty() {
                return Err(super::errors::usage(format!(
                    "{}: a folder without shard files (*.json)",
                    p.display()
                )));
            }
            files.sort();
            out.extend(files);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let merged = merge_shards(&shard_files(&args.files)?)?;
    if args.rederive > 0 {
        rederive_runs(&merged, args.rederive, args.rederive_seed)?;
    }
    let report = Report::new(&merged.meta, None, &merged.records, merged.elapsed_s)?;
    if let Some(path) = args.out.as_deref() {
        write_csv(path, &merged.records, merged.meta.best_arm - 1)?;
    }
    print_report(&report, args.json)
}
