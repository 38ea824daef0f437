//! The shard files of `dpbai run --shard i/n --out FILE` and their merge (`dpbai merge`).
//!
//! # Format ([`SHARD_FORMAT`])
//! One JSON object: `format`, the experiment's `spec` ([`CellSpec`]), its `meta` ([`RunMeta`],
//! which must follow from the spec and carry its digest), the `shard` `{index, count}`,
//! `elapsed_s`, the shard's `records` (increasing run index, recommendation 0-based) and
//! `digest`: the BLAKE3 hex digest of the canonical JSON of every other field, so that an edit
//! of any field, metadata included, is detected.
//!
//! # Merge
//! [`merge_shards`] refuses, naming the file and the field: a file of another format, a
//! metadata field that does not follow from the specification, a specification that does not
//! match the digest in its metadata, a content digest that fails, an `elapsed_s` outside
//! `[0, MAX_ELAPSED_S]`, impossible records or records outside the shard, shards whose
//! specification or metadata disagree (the first differing field named), mixed shard counts, a
//! shard given twice or missing; a file that is not a regular file of at most
//! [`MAX_SHARD_FILE_BYTES`] is refused unread. What it returns is exactly the record list of the unsharded run.

use super::meta::RunMeta;
use super::spec::{CellSpec, canonical_json, first_difference};
use crate::error::{Error, Result};
use crate::mc::{self, RunRecord, Shard};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Format tag of shard files.
pub const SHARD_FORMAT: &str = "dpbai-shard/2";

/// Largest `elapsed_s` of a shard file (seconds; about 32 years): a larger one was not measured
/// but edited, and the sum over the shards of a merge stays a finite number.
pub const MAX_ELAPSED_S: f64 = 1e9;

/// Largest shard file read (bytes): a shard holds at most
/// [`MAX_RUNS`](crate::params::limits::MAX_RUNS) = 1e7 records of at most 128 bytes of JSON
/// each, and its specification; a larger file is refused unread.
pub const MAX_SHARD_FILE_BYTES: u64 = 2 << 30;

/// The file written by `dpbai run --shard i/n --out FILE` (JSON) and read by `dpbai merge`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardFile {
    /// Always [`SHARD_FORMAT`].
    pub format: String,
    /// The experiment's specification (identical in every shard of it).
    pub spec: CellSpec,
    /// Its metadata (identical in every shard of it).
    pub meta: RunMeta,
    /// Which slice.
    pub shard: Shard,
    /// Wall-clock seconds of this shard's simulation.
    pub elapsed_s: f64,
    /// The shard's runs, increasing run index (recommendation 0-based).
    pub records: Vec<RunRecord>,
    /// BLAKE3 of the canonical JSON of every other field ([`ShardFile::content_digest`]).
    pub digest: String,
}

impl ShardFile {
    /// The shard file of `records`, with its digest.
    pub fn new(
        spec: CellSpec,
        meta: RunMeta,
        shard: Shard,
        elapsed_s: f64,
        records: Vec<RunRecord>,
    ) -> Self {
        let mut f = ShardFile {
            format: SHARD_FORMAT.to_string(),
            spec,
            meta,
            shard,
            elapsed_s,
            records,
            digest: String::new(),
        };
        f.digest = f.content_digest();
        f
    }

    /// BLAKE3 (hex) of the canonical JSON of the file without its `digest` field.
    pub fn content_digest(&self) -> String {
        let mut v = serde_json::to_value(self).expect("invariant: a shard file serialises");
        if let Some(o) = v.as_object_mut() {
            o.remove("digest");
        }
        blake3::hash(canonical_json(&v).as_bytes())
            .to_hex()
            .to_string()
    }

    /// Writes the file (one line of JSON).
    ///
    /// # Errors
    /// [`Error::Io`] naming the path.
    pub fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string(self).expect("invariant: a shard file serialises");
        crate::files::write_atomic(path, (text + "\n").as_bytes())
    }

    /// Reads a shard file and checks it on its own (everything but its agreement with the
    /// other shards): format, metadata against specification, digests, `elapsed_s`, records.
    ///
    /// # Errors
    /// [`Error::Io`] for an unreadable file; [`Error::Parse`] naming the file and what is wrong
    /// (the field, where one is to blame).
    pub fn read(path: &Path) -> Result<ShardFile> {
        let text = crate::files::read_user_text(path, "dpbai shard file", MAX_SHARD_FILE_BYTES)
            .map_err(|e| match e {
                Error::Parse(why) => Error::Parse(format!("shard file {why}")),
                e => e,
            })?;
        let bad = |why: String| Error::Parse(format!("shard file {}: {why}", path.display()));
        let v: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| bad(format!("not JSON ({e})")))?;
        match v.get("format").and_then(|f| f.as_str()) {
            Some(SHARD_FORMAT) => {}
            Some(other) => {
                return Err(bad(format!(
                    "format `{other}`, expected `{SHARD_FORMAT}` (written by another dpbai \
                     version: rerun this shard)"
                )));
            }
            None => return Err(bad("not a dpbai shard file (no `format`)".into())),
        }
        let file: ShardFile =
            serde_json::from_value(v).map_err(|e| bad(format!("not a dpbai shard file ({e})")))?;
        if file.spec.digest() != file.meta.cell {
            return Err(bad(format!(
                "its specification has digest {}, its metadata names {} (the file was edited; \
                 rerun this shard)",
                file.spec.digest(),
                file.meta.cell
            )));
        }
        if let Some(field) = file.meta.mismatch(&file.spec) {
            return Err(bad(format!(
                "metadata field `{field}` does not follow from the file's specification (the \
                 file was edited; rerun this shard)"
            )));
        }
        if file.digest != file.content_digest() {
            return Err(bad(
                "fails its blake3 digest (the file was edited or damaged; rerun this shard)".into(),
            ));
        }
        if !(0.0..=MAX_ELAPSED_S).contains(&file.elapsed_s) {
            return Err(bad(format!(
                "elapsed_s = {}: must be a number of seconds in [0, {MAX_ELAPSED_S:e}] (the \
                 file was edited; rerun this shard)",
                crate::error::compact_number(file.elapsed_s)
            )));
        }
        mc::check_records(&file.records, file.spec.means.len(), file.spec.max_steps)
            .map_err(|e| bad(format!("impossible record: {e}")))?;
        if let Some(r) = file.records.iter().find(|r| !file.shard.contains(r.run)) {
            return Err(bad(format!(
                "run {} does not belong to shard {}/{}",
                r.run, file.shard.index, file.shard.count
            )));
        }
        if file.records.iter().any(|r| r.run >= file.spec.runs) {
            return Err(bad(format!(
                "a run index is not below runs = {}",
                file.spec.runs
            )));
        }
        Ok(file)
    }
}

/// The merge of the shard files of one experiment.
#[derive(Debug, Clone)]
pub struct Merged {
    /// The experiment's specification.
    pub spec: CellSpec,
    /// Its metadata.
    pub meta: RunMeta,
    /// Every run, in run order: exactly the records of the unsharded run.
    pub records: Vec<RunRecord>,
    /// Sum of the shards' `elapsed_s`.
    pub elapsed_s: f64,
}

/// Reads and merges shard files (see the module docs for what is refused).
///
/// # Errors
/// [`Error::Parse`] (or [`Error::Io`]) naming the file and the field.
pub fn merge_shards(paths: &[PathBuf]) -> Result<Merged> {
    let Some(first_path) = paths.first() else {
        return Err(Error::param("shard files", 0, "at least one"));
    };
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        files.push(ShardFile::read(path)?);
    }
    let first = &files[0];
    for (f, path) in files.iter().zip(paths).skip(1) {
        let disagree = |what: &str, field: String| {
            Error::Parse(format!(
                "shard file {} belongs to another experiment than {}: its {what} differs in \
                 `{field}`",
                path.display(),
                first_path.display()
            ))
        };
        if let Some(field) = first_difference(&first.spec.to_value(), &f.spec.to_value()) {
            return Err(disagree("specification", field));
        }
        let meta = |m: &RunMeta| serde_json::to_value(m).expect("invariant: serialises");
        if let Some(field) = first_difference(&meta(&first.meta), &meta(&f.meta)) {
            return Err(disagree("metadata", field));
        }
        if f.shard.count != first.shard.count {
            return Err(Error::Parse(format!(
                "shard file {} is shard {}/{} but {} has {} shards",
                path.display(),
                f.shard.index,
                f.shard.count,
                first_path.display(),
                first.shard.count
            )));
        }
    }
    let count = first.shard.count;
    let mut seen = std::collections::BTreeSet::new();
    for (f, path) in files.iter().zip(paths) {
        if !seen.insert(f.shard.index) {
            return Err(Error::Parse(format!(
                "shard {}/{count} given twice ({})",
                f.shard.index,
                path.display()
            )));
        }
    }
    if let Some(missing) = (0..count).find(|i| !seen.contains(i)) {
        return Err(Error::Parse(format!("shard {missing}/{count} is missing")));
    }
    let spec = first.spec.clone();
    let meta = first.meta.clone();
    let elapsed_s = files.iter().map(|f| f.elapsed_s).sum();
    let records = mc::merge_records(files.into_iter().map(|f| f.records).collect(), spec.runs)?;
    Ok(Merged {
        spec,
        meta,
        records,
        elapsed_s,
    })
}
