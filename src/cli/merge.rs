//! `dpbai merge FILES...`: combines the shard files of `dpbai run --shard i/n --out FILE` into
//! exactly the summary of the unsharded run (same JSON except the timing fields `elapsed_s`, the
//! sum of the shards' wall-clock times, and `samples_per_s`).
//!
//! Checks: every file is a shard file of the same experiment (identical metadata: algorithm,
//! instance, parameters, seed, runs, cap, version), all with the same shard count `n`, each
//! index `0..n` exactly once, and the runs cover `0..runs` exactly once. Each file's records
//! must match their blake3 digest and be possible (τ <= max-steps, recommendation an arm,
//! an unstopped run cut at the cap).

use super::run::{make_report, print_report, write_csv};
use dpbai::mc::{self, ShardFile};
use std::path::{Path, PathBuf};

/// Arguments of `dpbai merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Shard files written by `dpbai run --shard i/n --out FILE`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Per-run CSV of the merged runs (same columns as `dpbai run --out`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Reads one shard file of `dpbai run --shard i/n --out FILE`.
///
/// # Errors
/// A usage error when the file cannot be read or is not a shard file of this format.
pub(crate) fn read_shard_file(path: &Path) -> anyhow::Result<ShardFile> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| super::usage(format!("cannot read shard file {}: {e}", path.display())))?;
    let file: ShardFile = serde_json::from_str(&text).map_err(|e| {
        super::usage(format!(
            "{} is not a dpbai shard file ({e})",
            path.display()
        ))
    })?;
    if file.format != mc::SHARD_FORMAT {
        return Err(super::usage(format!(
            "{} has format `{}`, expected `{}`",
            path.display(),
            file.format,
            mc::SHARD_FORMAT
        )));
    }
    Ok(file)
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut shards: Vec<ShardFile> = Vec::new();
    for path in &args.files {
        let file = read_shard_file(path)?;
        if let Some(first) = shards.first() {
            if file.meta != first.meta {
                return Err(super::usage(format!(
                    "{} belongs to a different experiment than {} (algorithm, instance, \
                     parameters, seed, runs, max-steps and version must all match)",
                    path.display(),
                    args.files[0].display()
                )));
            }
            if file.shard.count != first.shard.count {
                return Err(super::usage(format!(
                    "{} is shard {}/{} but {} has {} shards",
                    path.display(),
                    file.shard.index,
                    file.shard.count,
                    args.files[0].display(),
                    first.shard.count
                )));
            }
        }
        match &file.digest {
            Some(d) if *d == mc::records_digest(&file.records) => {}
            Some(_) => {
                return Err(super::usage(format!(
                    "{}: its records fail their blake3 digest (the file was edited or damaged; \
                     rerun this shard)",
                    path.display()
                )))
            }
            None => {
                return Err(super::usage(format!(
                    "{}: no digest of its records (written by an older dpbai; rerun this shard)",
                    path.display()
                )))
            }
        }
        let cap = file.meta.max_steps.unwrap_or(u64::MAX);
        mc::check_records(&file.records, file.meta.means.len(), cap)
            .map_err(|e| super::usage(format!("{}: impossible record: {e}", path.display())))?;
        if let Some(r) = file.records.iter().find(|r| !file.shard.contains(r.run)) {
            return Err(super::usage(format!(
                "{}: run {} does not belong to shard {}/{}",
                path.display(),
                r.run,
                file.shard.index,
                file.shard.count
            )));
        }
        shards.push(file);
    }
    let count = shards[0].shard.count;
    let mut seen = std::collections::BTreeSet::new();
    for (f, path) in shards.iter().zip(&args.files) {
        if !seen.insert(f.shard.index) {
            return Err(super::usage(format!(
                "shard {}/{count} given twice ({})",
                f.shard.index,
                path.display()
            )));
        }
    }
    if let Some(missing) = (0..count).find(|i| !seen.contains(i)) {
        return Err(super::usage(format!("shard {missing}/{count} is missing")));
    }
    let meta = shards[0].meta.clone();
    let elapsed: f64 = shards.iter().map(|s| s.elapsed_s).sum();
    let parts = shards.into_iter().map(|s| s.records).collect();
    let records = mc::merge_records(parts, meta.runs)?;
    let report = make_report(&meta, None, &records, elapsed)?;
    if let Some(path) = args.out.as_deref() {
        write_csv(path, &records, meta.best_arm - 1)?;
    }
    print_report(&report, args.json)
}
