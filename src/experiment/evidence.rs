//! Cached evidence other than a cell's stopping times: traced runs, audits, adversarial searches.
//! Each is an [`EvidenceSpec`] (a kind, a label and every input of the computation, with the
//! versions of the code that computes it) whose digest names a file in the cache folder, as a
//! Monte Carlo cell's does ([`super::cache`]); a `verify --shard i/n` job computes the items whose
//! index is `i (mod n)`, and the assembly reads them back.
//!
//! # Format
//! `<dir>/<digest>.evidence.json`, one JSON object:
//!
//! ```text
//! {"format":"dpbai-evidence-1","digest":"<16 hex>","spec":{…},"result":{…},"blake3":"<hex of the rest>"}
//! ```
//!
//! A file is used only when its blake3 seal matches its content and its specification is exactly
//! the one asked for; otherwise it is named on stderr and recomputed. A changed input changes the
//! digest, so it is recomputed: the specification must hold every input, and the version of the
//! code that computes the result (`version`), which a change of that code's results must bump
//! (the engine's trajectory fingerprints guard the algorithms; the evidence versions guard the
//! auditors and searches around them).

use super::spec::{CellDigest, canonical_json};
use crate::error::{Error, Result};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::path::{Path, PathBuf};

const FORMAT: &str = "dpbai-evidence-1";

/// Largest evidence file read (bytes).
pub const MAX_EVIDENCE_FILE_BYTES: u64 = 1 << 30;

/// The specification of one piece of evidence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvidenceSpec {
    /// What is computed (`traces`, `dp-audits`, `delta-battery`, `search`).
    pub kind: String,
    /// A human-readable label.
    pub label: String,
    /// The version of the code computing it (bumped when its results change).
    pub version: u32,
    /// Every input, as JSON (canonicalised before hashing).
    pub inputs: Value,
}

impl EvidenceSpec {
    /// A specification from its inputs.
    ///
    /// # Panics
    /// Never for inputs made of numbers, strings, lists and maps (what serde_json writes).
    pub fn new(kind: &str, label: &str, version: u32, inputs: impl Serialize) -> Self {
        EvidenceSpec {
            kind: kind.to_string(),
            label: label.to_string(),
            version,
            inputs: serde_json::to_value(inputs)
                .expect("invariant: evidence inputs serialise to JSON"),
        }
    }

    /// The canonical form (sorted keys, shortest floats): what the digest hashes.
    pub fn canonical(&self) -> String {
        canonical_json(&serde_json::json!({
            "kind": self.kind,
            "label": self.label,
            "version": self.version,
            "inputs": self.inputs,
        }))
    }

    /// The digest of [`EvidenceSpec::canonical`].
    pub fn digest(&self) -> CellDigest {
        CellDigest::parse(&blake3::hash(self.canonical().as_bytes()).to_hex()[..16])
            .expect("invariant: 16 hex digits")
    }
}

/// The file of a piece of evidence in `dir`.
pub fn evidence_path(dir: &Path, spec: &EvidenceSpec) -> PathBuf {
    dir.join(format!("{}.evidence.json", spec.digest()))
}

/// The sealed text of a file holding `result` under `spec`.
fn sealed(spec: &EvidenceSpec, result: &Value) -> String {
    let body = serde_json::json!({
        "format": FORMAT,
        "digest": spec.digest().to_string(),
        "spec": serde_json::from_str::<Value>(&spec.canonical()).unwrap_or(Value::Null),
        "result": result,
    });
    let text = canonical_json(&body);
    let seal = blake3::hash(text.as_bytes()).to_hex();
    format!("{}\n{seal}\n", text)
}

/// The result stored under `spec` in `dir`, if a file holds it and passes its checks; a file
/// that fails them is named on stderr and ignored.
fn read<T: DeserializeOwned>(dir: &Path, spec: &EvidenceSpec) -> Option<T> {
    let path = evidence_path(dir, spec);
    if !path.exists() {
        return None;
    }
    let warn = |why: &str| {
        eprintln!(
            "warning: evidence file {}: {why}; recomputing it",
            path.display()
        );
        None
    };
    let text =
        match crate::files::read_user_text(&path, "dpbai evidence file", MAX_EVIDENCE_FILE_BYTES) {
            Ok(t) => t,
            Err(e) => return warn(&e.to_string()),
        };
    let Some((body, seal)) = text.strip_suffix('\n').and_then(|t| t.rsplit_once('\n')) else {
        return warn("truncated (no seal)");
    };
    if blake3::hash(body.as_bytes()).to_hex().as_str() != seal {
        return warn("fails its blake3 seal (edited or damaged)");
    }
    let Ok(v) = serde_json::from_str::<Value>(body) else {
        return warn("not JSON");
    };
    let want = serde_json::from_str::<Value>(&spec.canonical()).unwrap_or(Value::Null);
    if v.get("format").and_then(Value::as_str) != Some(FORMAT) || v.get("spec") != Some(&want) {
        return warn("holds another specification (edited and resealed, or another format)");
    }
    match v.get("result").cloned().map(serde_json::from_value::<T>) {
        Some(Ok(r)) => Some(r),
        _ => warn("its result does not read as this kind of evidence"),
    }
}

/// The evidence of `spec`: read from `dir` when a file holds it, else computed by `compute` and
/// written there (no cache with `dir = None`). Returns it and whether it came from the cache.
///
/// # Errors
/// `compute`'s error; the file cannot be written.
pub fn cached<T: Serialize + DeserializeOwned>(
    dir: Option<&Path>,
    spec: &EvidenceSpec,
    compute: impl FnOnce() -> Result<T>,
) -> Result<(T, bool)> {
    if let Some(d) = dir {
        if let Some(r) = read(d, spec) {
            return Ok((r, true));
        }
    }
    let r = compute()?;
    if let Some(d) = dir {
        let value = serde_json::to_value(&r)
            .map_err(|e| Error::Parse(format!("evidence {}: {e}", spec.label)))?;
        crate::files::write_atomic(&evidence_path(d, spec), sealed(spec, &value).as_bytes())?;
    }
    Ok((r, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_is_cached_sealed_and_keyed_by_every_input() {
        let dir = std::env::temp_dir().join(format!("dpbai-evidence-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let spec = EvidenceSpec::new("demo", "one", 1, serde_json::json!({"runs": 3, "eps": 0.5}));
        let (a, hit) = cached(Some(&dir), &spec, || Ok(vec![1.5f64, 2.0])).expect("computes");
        assert!(!hit);
        let (b, hit): (Vec<f64>, bool) = cached(Some(&dir), &spec, || {
            Err(Error::Parse("must not run".into()))
        })
        .expect("read");
        assert!(hit && a == b);
        // Another input or version: another file.
        let other = EvidenceSpec::new("demo", "one", 2, serde_json::json!({"runs": 3, "eps": 0.5}));
        assert_ne!(spec.digest(), other.digest());
        let other = EvidenceSpec::new("demo", "one", 1, serde_json::json!({"runs": 4, "eps": 0.5}));
        assert_ne!(spec.digest(), other.digest());
        // An edited file is recomputed.
        let path = evidence_path(&dir, &spec);
        let text = std::fs::read_to_string(&path).expect("written");
        std::fs::write(&path, text.replace("1.5", "1.25")).expect("edit");
        let (c, hit) = cached(Some(&dir), &spec, || Ok(vec![1.5f64, 2.0])).expect("recomputes");
        assert!(!hit && c == a);
        // A resealed edit of the result is used only if the spec matches; an edited spec is not.
        let text = std::fs::read_to_string(&path).expect("written");
        let body = text
            .lines()
            .next()
            .expect("body")
            .replace("\"runs\":3", "\"runs\":9");
        let seal = blake3::hash(body.as_bytes()).to_hex();
        std::fs::write(&path, format!("{body}\n{seal}\n")).expect("reseal");
        let (_, hit): (Vec<f64>, bool) =
            cached(Some(&dir), &spec, || Ok(vec![0.0])).expect("recomputes");
        assert!(!hit);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
