//! The cache and shard files of experiment cells (format in the [parent module](super)):
//! writing, reading with the blake3 check, and assembling shard files into the whole cell.

use super::Cell;
use crate::bandit::RunOutcome;
use crate::mc::{RunRecord, Shard};
use std::path::{Path, PathBuf};

pub(super) fn header(cell: &Cell) -> String {
    format!(
        "# dpbai-cell key={} seed={} max_steps={} version={}",
        cell.key(),
        cell.seed(),
        cell.max_steps,
        env!("CARGO_PKG_VERSION")
    )
}

pub(super) fn cache_path(dir: &Path, cell: &Cell) -> PathBuf {
    dir.join(format!("{}.csv", cell.key()))
}

pub(super) fn shard_path(dir: &Path, cell: &Cell, shard: Shard) -> PathBuf {
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
pub(super) fn read_records(path: &Path, cell: &Cell) -> Option<Vec<RunRecord>> {
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

pub(super) fn parse_records(text: &str, cell: &Cell) -> Option<Vec<RunRecord>> {
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

pub(super) fn read_cache(path: &Path, cell: &Cell) -> Option<Vec<RunRecord>> {
    let mut out = read_records(path, cell)?;
    if out.len() as u64 >= cell.runs && out.iter().enumerate().all(|(i, r)| r.run == i as u64) {
        out.truncate(cell.runs as usize);
        Some(out)
    } else {
        None
    }
}

/// The records of one shard file, if it holds exactly the shard's runs of `cell`.
pub(super) fn read_shard(dir: &Path, cell: &Cell, shard: Shard) -> Option<Vec<RunRecord>> {
    let out = read_records(&shard_path(dir, cell, shard), cell)?;
    out.iter()
        .map(|r| r.run)
        .eq(shard.runs(cell.runs))
        .then_some(out)
}

/// Assembles `<key>.csv` from a complete set of shard files (`i = 0..n` for one `n`), if the
/// folder has one; returns the records in run order.
pub(super) fn assemble_shards(dir: &Path, cell: &Cell) -> Option<Vec<RunRecord>> {
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

pub(super) fn write_cache(path: &Path, cell: &Cell, records: &[RunRecord]) -> std::io::Result<()> {
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
