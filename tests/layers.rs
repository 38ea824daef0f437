//! Keeps the layer order of CONTRIBUTING.md: a module of `src/` uses only the layers
//! before it,
//! `special → divergence → instance → complexity → privacy/bandit → mc → audit → experiment →
//! report → cli`
//! (`error`, `params`, `rng`, `roots` and `spelling` are shared by all).
//!
//! What counts as a use: a path `crate::<layer>` (or a one-line group `crate::{<layer>::…, …}`) in code outside the file's `#[cfg(test)]`
//! module. Doc comments (`//!`, `///`) and plain comments are not code: a doc link to a later
//! layer (e.g. "the auditors, [`crate::audit`]") is allowed.

use std::path::{Path, PathBuf};

/// The layers in order; equal ranks may use each other.
const LAYERS: [(&str, u32); 11] = [
    ("special", 0),
    ("divergence", 1),
    ("instance", 2),
    ("complexity", 3),
    ("privacy", 4),
    ("bandit", 4),
    ("mc", 5),
    ("audit", 6),
    ("experiment", 7),
    ("report", 8),
    ("cli", 9),
];

fn rank(name: &str) -> Option<u32> {
    LAYERS.iter().find(|(n, _)| *n == name).map(|&(_, r)| r)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder readable") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The layer names reached by `crate::<name>` in the code lines of `text` (before
/// `#[cfg(test)]`), with their line numbers.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        let code = code.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(pos) = rest.find("crate::") {
            let after = &rest[pos + "crate::".len()..];
            if let Some(group) = after.strip_prefix('{') {
                // `crate::{a::X, b}` on one line: every top-level name of the group
                let inner = group.split('}').next().unwrap_or("");
                for item in inner.split(',') {
                    let name = item.trim().split("::").next().unwrap_or("").to_string();
                    out.push((i + 1, name));
                }
            } else {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                out.push((i + 1, name));
            }
            rest = after;
        }
    }
    out
}

#[test]
fn no_module_uses_a_later_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    let mut checked = 0;
    for f in &files {
        let rel = f.strip_prefix(&src).expect("under src");
        let top = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|s| s.trim_end_matches(".rs").to_string())
            .expect("a first component");
        let Some(own) = rank(&top) else { continue };
        checked += 1;
        let text = std::fs::read_to_string(f).expect("source readable");
        for (line, name) in crate_paths(&text) {
            if let Some(other) = rank(&name) {
                if other > own {
                    bad.push(format!(
                        "{}:{line}: {top} uses crate::{name}",
                        rel.display()
                    ));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} layered files found");
    assert!(bad.is_empty(), "later-layer uses:\n{}", bad.join("\n"));
}

#[test]
fn the_scan_sees_a_use_and_skips_docs_and_tests() {
    let text = "//! [`crate::report`]\n/// see [`crate::cli`]\nuse crate::audit::Verdict;\n\
                use crate::{mc::Summary, report};\n\
                #[cfg(test)]\nmod tests { use crate::report::x; }\n";
    let found = crate_paths(text);
    let expected: Vec<(usize, String)> =
        vec![(3, "audit".into()), (4, "mc".into()), (4, "report".into())];
    assert_eq!(found, expected);
}
