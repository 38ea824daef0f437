//! The cell cache: one file per cell specification, named by its digest.
//!
//! # Format
//! `<dir>/<digest>.csv` (a whole cell) or `<dir>/<digest>.shard-<i>-of-<n>.csv` (the runs
//! `r ≡ i (mod n)` of it, [`crate::mc::Shard`]):
//!
//! ```text
//! # dpbai-cell <digest> <label>
//! # spec <canonical specification>
//! run,tau,recommendation,stopped,rounds
//! 0,1234,0,true,
//! …
//! # blake3=<hex digest of every line above>
//! ```
//!
//! `recommendation` is 0-based; `rounds` is empty when the algorithm does not define it. pandas
//! reads the file with `comment="#"`. A file is used only when its digest line matches its
//! content, its specification is exactly the one asked for (so a digest collision cannot pass
//! for a hit), and its records are possible ([`crate::mc::check_records`]) and are exactly the
//! runs of the cell (or of the shard). A file failing any of this (an edited file whose digest
//! line was recomputed, "resealed", included) is named on stderr and recomputed. Only regular
//! files of at most [`MAX_CELL_FILE_BYTES`] are read ([`crate::files::read_user_file`]): a named
//! pipe or a device under a cell's name is refused, not opened.
//!
//! Files are written to a temporary name and renamed, so concurrent runs writing one folder
//! never leave a partial file, and two runs computing the same cell write the same bytes. No
//! manifest is kept: what a folder holds is read off the files themselves ([`scan`]).

use super::spec::{CellDigest, CellSpec};
use crate::bandit::RunOutcome;
use crate::error::{Error, Result};
use crate::mc::{RunRecord, Shard};
use std::path::{Path, PathBuf};

const MAGIC: &str = "# dpbai-cell ";
const SPEC: &str = "# spec ";
const COLUMNS: &str = "run,tau,recommendation,stopped,rounds";

/// Largest cell file read (bytes): a cell has at most
/// [`MAX_RUNS`](crate::params::limits::MAX_RUNS) = 1e7 runs, a record line at most 64 bytes
/// (`tau` and `rounds` below 1e13), and the header holds the specification (up to 1e5 arms and
/// a threshold text), so 1 GiB bounds every file dpbai writes; a larger one is refused unread.
pub const MAX_CELL_FILE_BYTES: u64 = 1 << 30;

/// The file of a whole cell.
pub fn cache_path(dir: &Path, digest: &CellDigest) -> PathBuf {
    dir.join(format!("{digest}.csv"))
}

/// The file of one shard of a cell.
pub fn shard_path(dir: &Path, digest: &CellDigest, shard: Shard) -> PathBuf {
    dir.join(format!(
        "{digest}.shard-{}-of-{}.csv",
        shard.index, shard.count
    ))
}

/// A cache or shard file, read and checked.
#[derive(Debug, Clone)]
pub struct CellFile {
    /// The human-readable label of the cell.
    pub label: String,
    /// Its specification.
    pub spec: CellSpec,
    /// The records, in file order.
    pub records: Vec<RunRecord>,
}

/// The two header lines of a cell file.
fn header(label: &str, spec: &CellSpec) -> String {
    format!(
        "{MAGIC}{} {label}\n{SPEC}{}\n",
        spec.digest(),
        spec.canonical()
    )
}

/// The label and specification of a cell file from its first two lines, without reading the
/// records (`None`: not a cell file of this format).
fn read_head(text: &str) -> Option<(String, CellSpec)> {
    let mut lines = text.lines();
    let first = lines.next()?.strip_prefix(MAGIC)?;
    let (digest, label) = first.split_once(' ')?;
    let spec = CellSpec::from_json(lines.next()?.strip_prefix(SPEC)?).ok()?;
    (spec.digest().as_str() == digest).then(|| (label.to_string(), spec))
}

fn parse_records(body: &str) -> Option<Vec<RunRecord>> {
    let mut out = Vec::new();
    for line in body.lines() {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 5 {
            return None;
        }
        out.push(RunRecord {
            run: f[0].parse().ok()?,
            outcome: RunOutcome {
                tau: f[1].parse().ok()?,
                recommendation: f[2].parse().ok()?,
                stopped: match f[3] {
                    "true" => true,
                    "false" => false,
                    _ => return None,
                },
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

/// Reads and checks a cell file: the content digest, the header, the records' format and that
/// they are possible for the specification. `Ok(None)` when the file does not exist.
///
/// # Errors
/// [`Error::Parse`] naming the file and what is wrong with it.
pub fn read_cell_file(path: &Path) -> Result<Option<CellFile>> {
    let text = match crate::files::read_user_text(path, "dpbai cell file", MAX_CELL_FILE_BYTES) {
        Ok(t) => t,
        Err(Error::Io { cause, .. })
            if matches!(
                cause.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(None);
        }
        Err(Error::Parse(why)) => {
            return Err(Error::Parse(format!("cell file {why}")));
        }
        Err(e) => return Err(e),
    };
    let bad = |why: &str| Error::Parse(format!("cell file {}: {why}", path.display()));
    let (content, last) = text
        .strip_suffix('\n')
        .and_then(|t| t.rsplit_once('\n'))
        .ok_or_else(|| bad("truncated (no digest line)"))?;
    let digest = last
        .strip_prefix("# blake3=")
        .ok_or_else(|| bad("truncated (no digest line)"))?;
    if blake3::hash(format!("{content}\n").as_bytes())
        .to_hex()
        .as_str()
        != digest
    {
        return Err(bad("fails its blake3 digest (edited or damaged)"));
    }
    let (label, spec) =
        read_head(content).ok_or_else(|| bad("not a dpbai cell file of this format (header)"))?;
    let body = content
        .splitn(4, '\n')
        .nth(3)
        .ok_or_else(|| bad("no records"))?;
    if content.lines().nth(2) != Some(COLUMNS) {
        return Err(bad("no column line"));
    }
    let records = parse_records(body).ok_or_else(|| bad("a record is malformed"))?;
    crate::mc::check_records(&records, spec.means.len(), spec.max_steps)
        .map_err(|e| bad(&format!("holds an impossible record ({e})")))?;
    Ok(Some(CellFile {
        label,
        spec,
        records,
    }))
}

/// [`read_cell_file`], with a file that fails its checks reported on stderr (named) and
/// treated as absent, so that it is recomputed.
fn read_or_warn(path: &Path) -> Option<CellFile> {
    match read_cell_file(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("warning: {e}; recomputing it");
            None
        }
    }
}

/// A file that passed its own checks but is not the one asked for (its digest line was
/// recomputed after an edit: a resealed file), named on stderr, as a file failing its checks
/// is: it is recomputed.
fn warn_mismatch(path: &Path, why: &str) {
    eprintln!(
        "warning: cell file {}: {why} (the file was edited and resealed, or written by another \
         experiment under this name); recomputing it",
        path.display()
    );
}

/// Why the records `f` of a file are not exactly the runs `runs` of `spec` (`None`: they are).
fn mismatch(f: &CellFile, spec: &CellSpec, mut runs: impl Iterator<Item = u64>) -> Option<String> {
    if f.spec != *spec {
        return Some(format!(
            "its specification (digest {}) is not the cell's ({})",
            f.spec.digest(),
            spec.digest()
        ));
    }
    let mut records = f.records.iter().map(|r| r.run);
    loop {
        match (records.next(), runs.next()) {
            (None, None) => return None,
            (Some(got), Some(want)) if got == want => {}
            (Some(got), Some(want)) => {
                return Some(format!("it holds run {got} where run {want} belongs"));
            }
            (Some(got), None) => return Some(format!("it holds run {got} beyond the cell's runs")),
            (None, Some(want)) => return Some(format!("run {want} is missing")),
        }
    }
}

/// The records of `spec` in `dir`, if its file is there, is for exactly this specification and
/// holds exactly its runs `0..runs`. A file that is there but fails this is named on stderr.
pub fn read_cache(dir: &Path, spec: &CellSpec) -> Option<Vec<RunRecord>> {
    let path = cache_path(dir, &spec.digest());
    let f = read_or_warn(&path)?;
    match mismatch(&f, spec, 0..spec.runs) {
        None => Some(f.records),
        Some(why) => {
            warn_mismatch(&path, &why);
            None
        }
    }
}

/// The records of one shard file, if it holds exactly the shard's runs of `spec`. A file that
/// is there but fails this is named on stderr.
pub fn read_shard(dir: &Path, spec: &CellSpec, shard: Shard) -> Option<Vec<RunRecord>> {
    let path = shard_path(dir, &spec.digest(), shard);
    let f = read_or_warn(&path)?;
    match mismatch(&f, spec, shard.runs(spec.runs)) {
        None => Some(f.records),
        Some(why) => {
            warn_mismatch(&path, &why);
            None
        }
    }
}

/// Assembles the whole cell's file from a complete set of its shard files (`i = 0..n` for one
/// `n`), if the folder has one; returns the records in run order.
///
/// # Errors
/// An unwritable cache.
pub fn assemble_shards(dir: &Path, label: &str, spec: &CellSpec) -> Result<Option<Vec<RunRecord>>> {
    let prefix = format!("{}.shard-", spec.digest());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(None);
    };
    let mut counts: Vec<u64> = Vec::new();
    for name in entries.filter_map(|e| e.ok()?.file_name().into_string().ok()) {
        let Some(rest) = name
            .strip_prefix(&prefix)
            .and_then(|r| r.strip_suffix(".csv"))
        else {
            continue;
        };
        // `<digest>.shard-<i>-of-<n>.csv` with `0 <= i < n`: anything else (`shard-0-of-0`, a
        // stray name) is no shard of the cell; it is named, and left alone.
        let shard = rest
            .split_once("-of-")
            .and_then(|(i, n)| Shard::new(i.parse().ok()?, n.parse().ok()?).ok());
        match shard {
            Some(s) => counts.push(s.count),
            None => eprintln!(
                "warning: {}: not a shard file name (`<digest>.shard-<i>-of-<n>.csv` with \
                 0 <= i < n); ignored",
                dir.join(&name).display()
            ),
        }
    }
    counts.sort_unstable();
    counts.dedup();
    for n in counts {
        let shards: Option<Vec<Vec<RunRecord>>> = (0..n)
            .map(|i| read_shard(dir, spec, Shard::new(i, n).ok()?))
            .collect();
        if let Some(shards) = shards {
            let mut records: Vec<RunRecord> = shards.into_iter().flatten().collect();
            records.sort_by_key(|r| r.run);
            write_cell_file(&cache_path(dir, &spec.digest()), label, spec, &records)?;
            return Ok(Some(records));
        }
    }
    Ok(None)
}

/// Writes a cell file atomically (a temporary file in the same folder, then a rename).
///
/// # Errors
/// [`Error::Io`] naming the file.
pub fn write_cell_file(
    path: &Path,
    label: &str,
    spec: &CellSpec,
    records: &[RunRecord],
) -> Result<()> {
    let mut s = header(label, spec);
    s.push_str(COLUMNS);
    s.push('\n');
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
    crate::files::write_atomic(path, s.as_bytes())
}

/// One whole-cell file of a cache folder, as [`scan`] finds it.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The file.
    pub path: PathBuf,
    /// The cell's label.
    pub label: String,
    /// Its specification.
    pub spec: CellSpec,
}

/// The whole-cell files of `dir` (their headers only; shard files, other files and anything
/// that is not a regular file, such as a named pipe, are skipped), in file-name order.
pub fn scan(dir: &Path) -> Vec<Entry> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.ends_with(".csv") && !n.contains(".shard-") && !n.starts_with('.')
            }) && crate::files::is_regular(p)
        })
        .collect();
    paths.sort();
    paths
        .into_iter()
        .filter_map(|path| {
            use std::io::BufRead;
            let f = std::fs::File::open(&path).ok()?;
            let mut head = String::new();
            let mut r = std::io::BufReader::new(f);
            for _ in 0..2 {
                r.read_line(&mut head).ok()?;
            }
            let (label, spec) = read_head(&head)?;
            Some(Entry { path, label, spec })
        })
        .collect()
}

/// The cell files of `dir` that hold `spec` at an engine semantics other than its current one
/// (cells computed by an older version of the algorithm), read and checked.
pub fn stale_versions(entries: &[Entry], spec: &CellSpec) -> Vec<CellFile> {
    entries
        .iter()
        .filter(|e| e.spec != *spec && e.spec.same_but_engine(spec))
        .filter_map(|e| read_cell_file(&e.path).ok().flatten())
        .filter(|f| {
            f.records.len() as u64 == f.spec.runs
                && f.records.iter().enumerate().all(|(i, r)| r.run == i as u64)
        })
        .collect()
}
