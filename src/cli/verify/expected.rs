//! `verify --check` and `--record-snapshot`: the expected verdicts of `verify/expected.toml`
//! (independent expectations and recorded snapshots), read, compared and recorded.

use crate::claims::{ClaimResult, ClaimVerdict};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// `verify/expected.toml`: expectations from an independent source and recorded snapshots.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    /// A file beside this one whose `[independent]` table this one shares (the paper
    /// profile's file shares the quick one's: independent expectations do not depend on the
    /// profile).
    #[serde(default)]
    independent_from: Option<PathBuf>,
    /// From the paper or the independent prototype of docs/CLAIMS.md.
    #[serde(default)]
    independent: BTreeMap<String, ClaimVerdict>,
    /// Recorded from our own run of the profile (regression, not independent evidence).
    #[serde(default)]
    snapshot: BTreeMap<String, ClaimVerdict>,
    /// Independent expectations this profile's evidence does not meet, each with the verdict it
    /// gives instead and why: checked like the others (a change either way fails), and listed
    /// by `--check` with the reason, never silently dropped.
    #[serde(default)]
    not_met: BTreeMap<String, NotMet>,
}

/// An independent expectation a profile does not meet.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NotMet {
    /// The verdict the profile gives.
    verdict: ClaimVerdict,
    /// Why its evidence cannot meet the independent expectation.
    why: String,
}

/// Largest expected file read (bytes).
const MAX_EXPECTED_BYTES: u64 = 1 << 20;

/// The expected file `given` (`--expected`, `--expected-bai25`), or `paper`'s default for
/// `profile` (the table [`crate::claims::Paper::expected`]).
pub(super) fn expected_path(
    given: Option<&std::path::Path>,
    paper: &crate::claims::Paper,
    profile: &str,
) -> anyhow::Result<PathBuf> {
    match given {
        Some(p) => Ok(PathBuf::from(p)),
        None => paper
            .expected_file(profile)
            .map(PathBuf::from)
            .ok_or_else(|| {
                crate::cli::errors::usage(format!(
                    "no expected file of paper {} for profile {profile}",
                    paper.name
                ))
            }),
    }
}

/// Reads an expected file, with the `[independent]` table of its `independent_from` file.
fn read_expected(path: &std::path::Path) -> anyhow::Result<Expected> {
    let parse = |path: &std::path::Path| -> anyhow::Result<Expected> {
        let text = crate::files::read_user_text(path, "expected file (TOML)", MAX_EXPECTED_BYTES)?;
        toml::from_str(&text)
            .map_err(|e| crate::cli::errors::usage(format!("{}: {}", path.display(), e.message())))
    };
    let mut expected = parse(path)?;
    if let Some(from) = expected.independent_from.take() {
        if !expected.independent.is_empty() {
            return Err(crate::cli::errors::usage(format!(
                "{}: has both independent_from and an [independent] table; keep one",
                path.display()
            )));
        }
        let from = path
            .parent()
            .unwrap_or(std::path::Path::new("."))
            .join(from);
        let shared = parse(&from)?;
        if shared.independent_from.is_some() {
            return Err(crate::cli::errors::usage(format!(
                "{}: independent_from may not chain (it points to {}, which has its own)",
                path.display(),
                from.display()
            )));
        }
        expected.independent = shared.independent;
    }
    Ok(expected)
}

/// Reads and parses the expected file `path` before anything runs: a usage error naming it
/// (with where it is looked for by default) when it cannot be read or parsed.
pub(super) fn preflight(path: &std::path::Path) -> anyhow::Result<()> {
    read_expected(path).map(|_| ()).map_err(|e| {
        crate::cli::errors::usage(format!(
            "{}; --check and --record-snapshot compare with this file (default: \
             verify/expected.toml, relative to the folder dpbai runs in: run from the \
             repository, or give --expected FILE)",
            crate::cli::errors::one_line(&e)
        ))
    })
}

/// `--record-snapshot`: the expected file's lines up to `[snapshot]`, then this run's verdicts
/// of the claims that ran and are not independent expectations (a line whose verdict did not
/// change keeps its comment; the line of a claim that did not run stays as it was).
pub(super) fn record_snapshot(
    results: &[ClaimResult],
    path: &std::path::Path,
    profile: &str,
) -> anyhow::Result<()> {
    if let Some(r) = results.iter().find(|r| r.note.starts_with("error:")) {
        anyhow::bail!(
            "not recording a snapshot: {} is not checkable ({})",
            r.id,
            r.note
        );
    }
    let expected = read_expected(path)?;
    let text = crate::files::read_user_text(path, "expected file (TOML)", MAX_EXPECTED_BYTES)?;
    let Some(head) = text
        .split_inclusive('\n')
        .position(|l| l.trim() == "[snapshot]")
        .map(|i| text.split_inclusive('\n').take(i + 1).collect::<String>())
    else {
        return Err(crate::cli::errors::usage(format!(
            "{}: no [snapshot] table to record into",
            path.display()
        )));
    };
    // A line whose verdict is unchanged keeps its comment (which often says why).
    let old_lines: BTreeMap<&str, &str> = text[head.len()..]
        .lines()
        .filter_map(|l| {
            let id = l.strip_prefix('"')?.split('"').next()?;
            Some((id, l))
        })
        .collect();
    let mut out = head;
    let mut n = 0;
    for r in results {
        if expected.independent.contains_key(r.id) {
            continue;
        }
        if !r.ran {
            // Not run (e.g. `--no-experiments`): its recorded line, if any, stays.
            if let Some(line) = old_lines.get(r.id) {
                out.push_str(line);
                out.push('\n');
            }
            continue;
        }
        match old_lines.get(r.id) {
            Some(line) if expected.snapshot.get(r.id) == Some(&r.verdict) => {
                out.push_str(line);
                out.push('\n');
            }
            _ => {
                let v = serde_json::to_value(r.verdict)?;
                out.push_str(&format!(
                    "\"{}\" = {v}  # recorded by `dpbai verify --profile {profile} --record-snapshot`\n",
                    r.id
                ));
            }
        }
        n += 1;
    }
    crate::files::write_atomic(path, out.as_bytes())?;
    println!("recorded {n} snapshot verdicts in {}", path.display());
    Ok(())
}

/// `--check`: every verdict computed must be as expected, and no claim may be `not checkable`
/// because of an error; the two kinds of expectation are reported separately.
pub(super) fn check(results: &[ClaimResult], path: &std::path::Path) -> anyhow::Result<()> {
    let mut expected = read_expected(path)?;
    let mut failures = Vec::new();
    for (id, n) in &expected.not_met {
        match expected.independent.get_mut(id) {
            None => failures.push(format!(
                "{id}: in [not_met] of {} but not an independent expectation",
                path.display()
            )),
            Some(v) => {
                println!(
                    "check (independent): {id} expected {} independently, {} on this profile: {}",
                    v.as_str(),
                    n.verdict.as_str(),
                    n.why
                );
                *v = n.verdict;
            }
        }
    }
    for r in results.iter().filter(|r| r.note.starts_with("error:")) {
        failures.push(format!("{}: not checkable ({})", r.id, r.note));
    }
    for (kind, table) in [
        ("independent", &expected.independent),
        ("snapshot", &expected.snapshot),
    ] {
        let (mut same, mut changed) = (0, Vec::new());
        for (id, v) in table {
            match results.iter().find(|r| r.id == id) {
                None => changed.push(format!("{id}: expected but not checked")),
                Some(r) if !r.ran => {}
                Some(r) if r.verdict == *v => same += 1,
                Some(r) => changed.push(format!(
                    "{id}: expected {}, got {}",
                    v.as_str(),
                    r.verdict.as_str()
                )),
            }
        }
        println!(
            "check ({kind}): {same} as expected, {} changed{}",
            changed.len(),
            if changed.is_empty() {
                String::new()
            } else {
                format!(": {}", changed.join("; "))
            }
        );
        failures.extend(changed.into_iter().map(|c| format!("{kind} {c}")));
    }
    for r in results.iter().filter(|r| r.ran) {
        if !expected.independent.contains_key(r.id) && !expected.snapshot.contains_key(r.id) {
            failures.push(format!("{}: not in {}", r.id, path.display()));
        }
    }
    if !failures.is_empty() {
        anyhow::bail!("verdicts changed or not checkable: {}", failures.join("; "));
    }
    let ran = results.iter().filter(|r| r.ran).count();
    println!(
        "check: all {ran} verdicts computed are as expected ({} skipped)",
        results.len() - ran
    );
    Ok(())
}
