//! docs/GLOSSARY.md defines every quantity the tool prints: each column of `bounds --eps-grid`
//! (and `eps_curves()`), of results.csv, every label of the `bounds` table and every claim
//! verdict. The printed names are read from the program itself (its output, its column list),
//! so a new column without an entry fails here. (The Python test suite checks the columns of
//! `RunResult.to_pandas()` the same way.)

use crate::common::run_cli;
use std::collections::{BTreeMap, BTreeSet};

/// The glossary's entries by section title: the backticked names of the first column of each
/// section's table.
fn glossary() -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/GLOSSARY.md"),
    )
    .expect("docs/GLOSSARY.md exists");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut section = String::new();
    for line in text.lines() {
        if let Some(t) = line.strip_prefix("## ") {
            section = t.trim().to_string();
            out.entry(section.clone()).or_default();
            continue;
        }
        let Some(row) = line.strip_prefix('|') else {
            continue;
        };
        let first = row.split('|').next().unwrap_or("").trim();
        if let Some(name) = first.strip_prefix('`').and_then(|n| n.strip_suffix('`')) {
            out.entry(section.clone())
                .or_default()
                .insert(name.to_string());
        }
    }
    out
}

/// The entries of the section whose title starts with `prefix`.
fn section(prefix: &str) -> BTreeSet<String> {
    let g = glossary();
    let (_, names) = g
        .iter()
        .find(|(t, _)| t.starts_with(prefix))
        .unwrap_or_else(|| panic!("docs/GLOSSARY.md has no section `## {prefix}…`"));
    names.clone()
}

fn missing<'a>(names: impl IntoIterator<Item = &'a str>, have: &BTreeSet<String>) -> Vec<String> {
    names
        .into_iter()
        .filter(|n| !have.contains(*n))
        .map(str::to_string)
        .collect()
}

const MU1: &str = "0.95,0.9,0.9,0.9,0.5";

#[test]
fn every_eps_grid_column_has_an_entry() {
    let (code, out, err) = run_cli(&["bounds", "--means", MU1, "--eps-grid", "0.1:1:2"]);
    assert_eq!(code, 0, "{err}");
    let header = out.lines().next().expect("a header");
    let cols: Vec<&str> = header.split(',').collect();
    assert!(cols.len() > 30, "{header}");
    let m = missing(cols, &section("dpbai bounds --eps-grid"));
    assert!(
        m.is_empty(),
        "eps-grid columns without a glossary entry: {m:?}"
    );
}

#[test]
fn every_results_csv_column_has_an_entry() {
    let columns = dpbai::experiment::study::results::columns();
    let m = missing(columns.iter().map(String::as_str), &section("results.csv"));
    assert!(
        m.is_empty(),
        "results.csv columns without a glossary entry: {m:?}"
    );
}

/// The labels of the `bounds` table read from its output: the characteristic times (the
/// first column of the table, before its parameter), and the other labels it prints, each
/// required to be in the output so that the list cannot name a label that is gone.
#[test]
fn every_bounds_label_has_an_entry() {
    let (code, out, err) = run_cli(&["bounds", "--means", MU1, "--eps", "0.1"]);
    assert_eq!(code, 0, "{err}");
    let mut labels: BTreeSet<String> = BTreeSet::new();
    let mut in_table = false;
    for line in out.lines() {
        if line.starts_with("characteristic time") {
            in_table = true;
            continue;
        }
        if in_table && line.trim().is_empty() {
            break;
        }
        if in_table {
            let cut = [" (", " [", "  "]
                .iter()
                .filter_map(|p| line.find(p))
                .min()
                .unwrap_or(line.len());
            labels.insert(line[..cut].to_string());
        }
    }
    assert!(labels.len() >= 10, "{labels:?}");
    const OTHERS: [&str; 22] = [
        "H",
        "Delta_min",
        "Delta_max",
        "best arm",
        "rel width",
        "allocation",
        "certified lower, upper",
        "eps switch local",
        "eps switch global",
        "eps switch per arm",
        "eps switch low privacy",
        "c(eps)",
        "sample-complexity lower bounds",
        "log(1/(2.4 delta))",
        "log(1/(3 delta))",
        "U log(1/delta)",
        "U/T",
        "T of its model",
        "privacy model",
        "[g1]",
        "[g2]",
        "L. 52",
    ];
    for o in OTHERS {
        assert!(
            out.contains(o),
            "`bounds` no longer prints {o:?}: update the list"
        );
        labels.insert(o.to_string());
    }
    let m = missing(
        labels.iter().map(String::as_str),
        &section("dpbai bounds (text"),
    );
    assert!(
        m.is_empty(),
        "bounds labels without a glossary entry: {m:?}"
    );
}

#[test]
fn every_claim_verdict_has_an_entry() {
    use dpbai::claims::ClaimVerdict as V;
    let words = [
        V::Confirmed,
        V::ConfirmedAsCorrected,
        V::Refuted,
        V::Inconclusive,
        V::NotCheckable,
    ]
    .map(|v| v.as_str());
    let m = missing(words, &section("Verdicts"));
    assert!(m.is_empty(), "verdicts without a glossary entry: {m:?}");
}
