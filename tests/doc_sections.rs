//! Keeps the documentation promise of CONTRIBUTING.md: every public numerical item of
//! `special`, `divergence` and `complexity` carries its `# Definition`, `# Reference`,
//! `# Domain` and `# Accuracy` doc sections.
//!
//! What counts as a "public numerical item" here: a free function declared `pub fn` at the start
//! of a line (not a method, not `pub(crate)`) in a source file of those modules, outside its
//! `#[cfg(test)]` module. Not counted, each for a stated reason:
//! * files of private modules that re-export nothing (`complexity/challengers.rs`,
//!   `complexity/dual.rs`, `complexity/solver.rs`): crate-internal building blocks, not public API;
//! * methods (`Certified::rel_width`, …): accessors of a result type, not definitions;
//! * constants (`CERTIFIED_REL_WIDTH`, …): documented by one line;
//! * [`EXCLUDED`]: functions that return no number of their own.
//!
//! A section is present when its name appears in a heading line `/// # Name` or in a combined
//! heading `/// # Definition, Reference, Domain, Accuracy, Errors` (used where an item states
//! "as [`other`]"), and the heading is followed by a non-empty doc line.

use std::path::{Path, PathBuf};

/// The four sections every numerical item carries.
const SECTIONS: [&str; 4] = ["Definition", "Reference", "Domain", "Accuracy"];

/// Source folders scanned.
const DIRS: [&str; 3] = ["src/special", "src/divergence", "src/complexity"];

/// Files of private, non-re-exported modules (not public API).
const PRIVATE_FILES: [&str; 3] = [
    "src/complexity/challengers.rs",
    "src/complexity/dual.rs",
    "src/complexity/solver.rs",
];

/// Public functions that are not numerical items, with the reason.
const EXCLUDED: [(&str, &str); 1] = [(
    "assumption_note",
    "returns the text of the E.4 caveat, no number",
)];

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("source folder readable")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    out.sort();
    out
}

/// `(function name, its doc lines)` of every line-start `pub fn` before `#[cfg(test)]`.
fn public_fns(text: &str) -> Vec<(String, Vec<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        let Some(rest) = line.strip_prefix("pub fn ") else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // the contiguous block of `///` lines and attributes just above the item
        let mut doc = Vec::new();
        let mut j = i;
        while j > 0 {
            j -= 1;
            let l = lines[j].trim_start();
            if let Some(d) = l.strip_prefix("///") {
                doc.push(d.trim().to_string());
            } else if !l.starts_with("#[") {
                break;
            }
        }
        doc.reverse();
        out.push((name, doc));
    }
    out
}

/// The sections of `doc` that are headed and followed by a non-empty line.
fn sections(doc: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for (i, l) in doc.iter().enumerate() {
        let Some(head) = l.strip_prefix("# ") else {
            continue;
        };
        let body = doc
            .get(i + 1)
            .is_some_and(|n| !n.is_empty() && !n.starts_with('#'));
        if body {
            found.extend(head.split(',').map(|s| s.trim().to_string()));
        }
    }
    found
}

#[test]
fn numerical_items_carry_definition_reference_domain_accuracy() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    let mut checked = 0;
    for dir in DIRS {
        for path in rust_files(&root.join(dir)) {
            let rel = path
                .strip_prefix(root)
                .expect("under the crate root")
                .to_string_lossy()
                .replace('\\', "/");
            if PRIVATE_FILES.contains(&rel.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("source readable");
            for (name, doc) in public_fns(&text) {
                if EXCLUDED.iter().any(|(n, _)| *n == name) {
                    continue;
                }
                checked += 1;
                let have = sections(&doc);
                for s in SECTIONS {
                    if !have.iter().any(|h| h == s) {
                        missing.push(format!("{rel}: `{name}` has no `# {s}` section"));
                    }
                }
            }
        }
    }
    // the scan must see the items it guards (a broken scan would pass vacuously)
    assert!(checked >= 50, "only {checked} items scanned");
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn the_scan_detects_a_missing_section() {
    let text = "/// Something.\n///\n/// # Definition\n/// `f(x) = x`.\n/// # Reference\n/// A.1\n\
                /// # Domain\n///\n#[inline]\npub fn f(x: f64) -> f64 {\n    x\n}\n";
    let fns = public_fns(text);
    assert_eq!(fns.len(), 1);
    assert_eq!(fns[0].0, "f");
    let have = sections(&fns[0].1);
    // Domain has an empty body and Accuracy is absent
    assert_eq!(
        have,
        vec!["Definition".to_string(), "Reference".to_string()]
    );
    let combined = vec![
        "# Definition, Reference, Domain, Accuracy".to_string(),
        "As [`g`].".to_string(),
    ];
    assert_eq!(sections(&combined).len(), 4);
}
