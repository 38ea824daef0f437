//! Re-planning a folder: `dpbai cluster slurm --dir DIR` into a folder that already holds a plan
//! or the outputs of one.
//!
//! Writing the same plan again (same command after `--`, same task count; e.g. with another
//! `--time`) is allowed: its shard files stay valid. A folder that holds another experiment's
//! files (a `plan.json` of another command or task count; for `run`, a shard file or a
//! `summary.json` of another specification) is refused, since `cluster status` would otherwise
//! read them beside the new plan's, unless `--force` is given: then the previous plan's files
//! and outputs are moved into `DIR/previous-N/` (the first free `N`) before the new plan is
//! written. The cell caches (`cache/`, `verify-cache/`) stay: a cell file is named by the digest
//! of its specification, so no other experiment can take it for its own.

use super::plan::{Mode, PLAN_FILES, Plan, run_cmd};
use crate::experiment::CellSpec;
use std::path::{Path, PathBuf};

/// What the jobs of a plan write into its folder, beside the plan's own files and the caches.
const OUTPUTS: [&str; 7] = [
    "logs",
    "shards",
    "summary.json",
    "REPORT.md",
    "SUMMARY.md",
    "results.csv",
    "figures",
];

/// Largest `plan.json` or `summary.json` read here (bytes), as `cluster status` reads them.
const MAX_JSON_BYTES: u64 = 16 << 20;

/// A JSON file of the folder, if it is a readable one.
fn json(path: &Path) -> Option<serde_json::Value> {
    let text = crate::files::read_user_text(path, "JSON file", MAX_JSON_BYTES).ok()?;
    serde_json::from_str(&text).ok()
}

/// The `args` of a plan's JSON (empty when absent).
fn plan_args(v: &serde_json::Value) -> Vec<String> {
    v["args"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Why `dir` holds files of another experiment than `new` (whose specification is `spec` for a
/// `run` plan), naming one of them; `None` when it holds none.
pub(super) fn other_experiment(dir: &Path, new: &Plan, spec: Option<&CellSpec>) -> Option<String> {
    let plan = dir.join("plan.json");
    if plan.exists() {
        let old = json(&plan);
        let same = old.as_ref().is_some_and(|v| {
            v["mode"] == serde_json::json!(new.mode)
                && v["args"] == serde_json::json!(new.args)
                && v["tasks"] == serde_json::json!(new.tasks)
        });
        if !same {
            let what = old
                .map(|v| {
                    format!(
                        "its plan.json is of `dpbai {} {}` as {} tasks",
                        v["mode"].as_str().unwrap_or("?"),
                        super::scripts::sh_join(&plan_args(&v)),
                        v["tasks"]
                    )
                })
                .unwrap_or_else(|| "its plan.json is not a readable plan".into());
            return Some(what);
        }
    }
    let spec = spec?;
    let digest = spec.digest();
    if let Ok(entries) = std::fs::read_dir(dir.join("shards")) {
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for f in files {
            match crate::experiment::shard::ShardFile::read(&f) {
                Ok(s) if s.spec.digest() == digest => {}
                Ok(s) => {
                    return Some(format!(
                        "{} is a shard of cell {}, the new plan computes cell {digest}",
                        f.display(),
                        s.spec.digest()
                    ));
                }
                Err(e) => return Some(format!("{e}")),
            }
        }
    }
    let summary = dir.join("summary.json");
    if summary.exists() {
        let cell = json(&summary).and_then(|v| v["cell"].as_str().map(String::from));
        if cell.as_deref() != Some(digest.as_str()) {
            return Some(format!(
                "{} is the summary of cell {}, the new plan computes cell {digest}",
                summary.display(),
                cell.as_deref().unwrap_or("(unreadable)")
            ));
        }
    }
    None
}

/// The first `DIR/previous-N` that does not exist.
fn free_aside(dir: &Path) -> PathBuf {
    (1u64..)
        .map(|n| dir.join(format!("previous-{n}")))
        .find(|p| std::fs::symlink_metadata(p).is_err())
        .expect("invariant: some previous-N is free")
}

/// Moves the previous plan's files and outputs of `dir` (its `run --out` file included) into
/// `DIR/previous-N/`; returns that folder and the names moved (`None`: nothing to move).
///
/// # Errors
/// A folder that cannot be created or an entry that cannot be renamed.
pub(super) fn move_aside(dir: &Path) -> anyhow::Result<Option<(PathBuf, Vec<String>)>> {
    let mut names: Vec<PathBuf> = PLAN_FILES
        .iter()
        .chain(OUTPUTS.iter())
        .map(PathBuf::from)
        .collect();
    // The per-run CSV of the previous `run` plan's assembly (`run --out FILE`).
    if let Some(v) = json(&dir.join("plan.json")) {
        if v["mode"] == serde_json::json!(Mode::Run) {
            if let Some(out) = run_cmd(&plan_args(&v)).ok().and_then(|r| r.out) {
                if out.is_relative() && out.components().count() == 1 {
                    names.push(out);
                }
            }
        }
    }
    let present: Vec<PathBuf> = names
        .into_iter()
        .filter(|n| std::fs::symlink_metadata(dir.join(n)).is_ok())
        .collect();
    if present.is_empty() {
        return Ok(None);
    }
    let aside = free_aside(dir);
    std::fs::create_dir_all(&aside).map_err(|e| crate::Error::io("create", &aside, e))?;
    for n in &present {
        std::fs::rename(dir.join(n), aside.join(n))
            .map_err(|e| crate::Error::io("move", dir.join(n), e))?;
    }
    Ok(Some((
        aside,
        present
            .iter()
            .map(|n| n.to_string_lossy().to_string())
            .collect(),
    )))
}
