//! Keeps the layer order of CONTRIBUTING.md: a module of `src/` uses only the layers
//! before it,
//! `special → divergence → functions → instance → complexity → threshold → privacy/bandit → mc →
//! audit → experiment → claims → report → cli`
//! (`error`, `params`, `plot`, `rng`, `roots`, `spelling` and `stats` are shared by all).
//!
//! What counts as a use: a path `crate::<layer>` (or a one-line group `crate::{<layer>::…, …}`) in code outside the file's `#[cfg(test)]`
//! module. Doc comments (`//!`, `///`) and plain comments are not code: a doc link to a later
//! layer (e.g. "the auditors, [`crate::audit`]") is allowed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers in order; equal ranks may use each other.
const LAYERS: [(&str, u32); 14] = [
    ("special", 0),
    ("divergence", 1),
    ("functions", 2),
    ("instance", 3),
    ("complexity", 4),
    ("threshold", 5),
    ("privacy", 6),
    ("bandit", 6),
    ("mc", 7),
    ("audit", 8),
    ("experiment", 9),
    ("claims", 10),
    ("report", 11),
    ("cli", 12),
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

/// The functions that run something: Monte Carlo cells and runs, traced runs, audits, searches,
/// claim checks. The report layer reads their results and may call none of them.
const RUNNERS: [&str; 29] = [
    "simulate",
    "simulate_runs",
    "simulate_spec",
    "run_cell",
    "run_cell_shard",
    "CellRunner",
    "rederive",
    "run_study",
    "run_study_shard",
    "run_traced",
    "audit_delta",
    "audit_delta_with",
    "audit_delta_with_threshold",
    "audit_dp",
    "mechanism_neighbour_search",
    "search",
    "search_with",
    "default_battery",
    "build",
    "run_all",
    "run_claims",
    "run_claims_counted",
    "judge",
    "verify",
    "compute",
    "gather",
    "dp_search",
    "dp_search_counted",
    "audit_dp_search",
];

/// The code lines of `text` before its `#[cfg(test)]` module, without comments.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let code = text.split("\n#[cfg(test)]").next().unwrap_or("");
    for (i, line) in code.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("//") || t.starts_with("mod ") || t.starts_with("pub mod ") {
            continue;
        }
        out.push((i + 1, t.split("//").next().unwrap_or("").to_string()));
    }
    // String literals removed over the whole text (a literal may span lines).
    let stripped = strip_strings(
        &out.iter()
            .map(|(_, l)| l.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
    );
    out.iter()
        .zip(stripped.lines())
        .map(|((n, _), l)| (*n, l.to_string()))
        .collect()
}

/// `line` without the contents of its string literals (a word in a message is not a call).
fn strip_strings(line: &str) -> String {
    let mut out = String::new();
    let mut in_str = false;
    let mut escaped = false;
    for c in line.chars() {
        if in_str && c == '\n' {
            out.push(c);
            continue;
        }
        if in_str {
            match (escaped, c) {
                (false, '\\') => escaped = true,
                (false, '"') => {
                    in_str = false;
                    out.push(c);
                }
                _ => escaped = false,
            }
        } else {
            if c == '"' {
                in_str = true;
            }
            out.push(c);
        }
    }
    out
}

/// Whether `line` names the function `ident`: a whole identifier that is not a module (followed
/// by `::`), a method (after `.`) or inside a string literal.
fn names(line: &str, ident: &str) -> bool {
    let line = strip_strings(line);
    line.match_indices(ident).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let rest = &line[i + ident.len()..];
        let part = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        !part(before)
            && !part(rest.chars().next())
            && !rest.starts_with("::")
            && before != Some('.')
    })
}

/// `report/` only renders: no file of it names a function that runs Monte Carlo, an audit, a
/// search or a claim check (it reads the results the claims layer gathered).
#[test]
fn the_report_runs_nothing() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/report");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("source readable");
        for (line, code) in code_lines(&text) {
            for r in RUNNERS {
                if names(&code, r) {
                    bad.push(format!("{}:{line}: {r}: {code}", f.display()));
                }
            }
        }
    }
    assert!(files.len() > 10, "report/ has {} files", files.len());
    assert!(
        bad.is_empty(),
        "report/ runs something:\n{}",
        bad.join("\n")
    );
    // The scan sees a call, an import and a path, and skips a method and a string.
    assert!(names("let r = run_cell(&c, None, 1)?;", "run_cell"));
    assert!(names(
        "use crate::audit::search::{search, Budget};",
        "search"
    ));
    assert!(!names("x.search(1)", "search") && !names("f(\"a search\")", "search"));
    assert!(!names("let researched = 1;", "search"));
    assert!(!names("use crate::claims::verify::Verification;", "verify"));
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

// ---------------------------------------------------------------------------------------------
// Import circles between modules.
//
// A module is a file of `src/` (`x/mod.rs`, `lib.rs` and `main.rs` stand for their folder). Module
// `a` uses module `b` when a code line of `a` (outside its `#[cfg(test)] mod tests`) names a path
// into `b`: `crate::b::…`, `super::…`, `self::…`, or a child module's name `b::…`. Module
// declarations (`mod b;`) and re-exports (`pub use`, `pub(crate) use`) are the façade of a folder,
// not a use, but they are followed: a path to a name that a module re-exports (`super::Name`
// with `pub use c::Name` in the parent) is a use of the module that defines it, and a module
// that names, bare, an item it re-exports from a child uses that child. A circle is a strongly
// connected set of two or more modules.

type ModPath = Vec<String>;

/// Every module of `src/` with its file.
fn modules(src: &Path) -> Vec<(ModPath, PathBuf)> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(src).expect("under src").with_extension("");
            let mut m: ModPath = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(m.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                m.pop();
            }
            (m, f)
        })
        .collect()
}

/// The re-export prefixes: a folder's façade, not a use.
const REEXPORT: [&str; 3] = ["pub use ", "pub(crate) use ", "pub(super) use "];

/// The code lines of `text` before its test module, comments dropped, with each multi-line
/// `use … ;` (a re-export too) joined into one line.
fn statements(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending: Option<String> = None;
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let code = line.split("//").next().unwrap_or("").trim();
        if code == "#[cfg(test)]" && lines.peek().is_some_and(|l| l.trim() == "mod tests {") {
            break;
        }
        if let Some(p) = pending.as_mut() {
            p.push_str(code);
            if code.ends_with(';') {
                out.push(pending.take().unwrap_or_default());
            }
            continue;
        }
        let is_use = code.starts_with("use ") || REEXPORT.iter().any(|f| code.starts_with(f));
        if is_use && !code.ends_with(';') {
            pending = Some(code.to_string());
        } else if !code.is_empty() {
            out.push(code.to_string());
        }
    }
    out
}

/// The statements of `text` that can be uses: [`statements`] without `mod` lines and
/// re-exports.
fn use_lines(text: &str) -> Vec<String> {
    let mods = ["mod ", "pub mod ", "pub(crate) mod ", "pub(super) mod "];
    statements(text)
        .into_iter()
        .filter(|c| !mods.iter().chain(&REEXPORT).any(|f| c.starts_with(f)))
        .collect()
}

/// The module that `path` (segments from the crate root) falls in: its longest prefix that is a
/// module.
fn resolve(known: &BTreeSet<ModPath>, path: &[String]) -> Option<ModPath> {
    (1..=path.len())
        .rev()
        .map(|i| path[..i].to_vec())
        .find(|p| known.contains(p))
}

/// The leading path segments of `s` (`a::b::C;` gives `a`, `b`, `C`): each segment's identifier,
/// up to the first segment that does not end in `::`.
fn idents(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    for x in s.split("::") {
        let x = x.trim();
        let id: String = x
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if id.is_empty() {
            break;
        }
        let whole = id.len() == x.len();
        out.push(id);
        if !whole {
            break;
        }
    }
    out
}

/// The re-export statements of `text`, without their `pub … use ` prefix.
fn reexport_lines(text: &str) -> Vec<String> {
    statements(text)
        .iter()
        .filter_map(|c| REEXPORT.iter().find_map(|f| c.strip_prefix(f)))
        .map(String::from)
        .collect()
}

/// The names module `m` (file text `text`) re-exports, with the module each comes from.
fn reexports_of(m: &ModPath, text: &str, known: &BTreeSet<ModPath>) -> BTreeMap<String, ModPath> {
    let mut out = BTreeMap::new();
    for stmt in reexport_lines(text) {
        let stmt = stmt.trim_end_matches(';');
        let (head, items): (&str, Vec<&str>) = match stmt.split_once('{') {
            Some((h, g)) => (h.trim(), g.trim_end_matches('}').split(',').collect()),
            None => ("", vec![stmt]),
        };
        for item in items
            .into_iter()
            .map(str::trim)
            .filter(|i| !i.is_empty() && !i.contains('{'))
        {
            let (item, alias) = match item.split_once(" as ") {
                Some((p, a)) => (p.trim(), Some(a.trim().to_string())),
                None => (item, None),
            };
            let path = format!("{head}{item}");
            let mut segs: Vec<String> = path.split("::").map(String::from).collect();
            let mut full: ModPath = match segs.first().map(String::as_str) {
                Some("crate") => {
                    segs.remove(0);
                    Vec::new()
                }
                Some("self") => {
                    segs.remove(0);
                    m.clone()
                }
                _ => m.clone(),
            };
            while segs.first().is_some_and(|s| s == "super") {
                full.pop();
                segs.remove(0);
            }
            let name = alias.unwrap_or_else(|| segs.last().cloned().unwrap_or_default());
            full.extend(segs);
            if let Some(t) = resolve(known, &full) {
                if &t != m && !name.is_empty() && name != "*" {
                    out.insert(name, t);
                }
            }
        }
    }
    out
}

/// The re-export tables of every module.
type Reexports = BTreeMap<ModPath, BTreeMap<String, ModPath>>;

/// The modules `m` (file text `text`) uses.
fn uses_of(m: &ModPath, text: &str, known: &BTreeSet<ModPath>) -> BTreeSet<ModPath> {
    uses_through(m, text, known, &Reexports::new())
}

/// The modules `m` (file text `text`) uses, following the re-exports `reexp`.
fn uses_through(
    m: &ModPath,
    text: &str,
    known: &BTreeSet<ModPath>,
    reexp: &Reexports,
) -> BTreeSet<ModPath> {
    // Each root a path can start from: the text it starts with, the module it is relative to,
    // and whether that text is itself the path's first segment (a child module's name).
    let mut roots: Vec<(String, ModPath, bool)> = vec![
        ("crate::".into(), Vec::new(), false),
        (
            "super::".into(),
            m[..m.len().saturating_sub(1)].to_vec(),
            false,
        ),
        ("self::".into(), m.clone(), false),
    ];
    for k in known {
        if k.len() == m.len() + 1 && k.starts_with(m) {
            roots.push((format!("{}::", k[m.len()]), m.clone(), true));
        }
    }
    let mut out = BTreeSet::new();
    let mut add = |base: &[String], path: &str| {
        let mut full = base.to_vec();
        let mut segs = idents(path);
        while segs.first().is_some_and(|s| s == "super") {
            full.pop();
            segs.remove(0);
        }
        full.extend(segs);
        if let Some(mut t) = resolve(known, &full) {
            // a name re-exported by `t`: the module that defines it (a chain of re-exports
            // at most a few deep)
            for _ in 0..4 {
                let Some(def) = full
                    .get(t.len())
                    .and_then(|n| reexp.get(&t)?.get(n))
                    .cloned()
                else {
                    break;
                };
                // `t::Name::…` becomes `def::Name::…`
                full = def.iter().chain(&full[t.len()..]).cloned().collect();
                t = def;
            }
            if &t != m && !t.is_empty() {
                out.insert(t);
            }
        }
    };
    let own = reexp.get(m);
    let mut bare_uses = BTreeSet::new();
    for line in use_lines(text) {
        // bare names of items `m` re-exports from elsewhere (`Name`, not `x::Name` or `.name`)
        if let Some(own) = own {
            let b = line.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if b[i].is_ascii_alphabetic() || b[i] == b'_' {
                    let start = i;
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                        i += 1;
                    }
                    let bare = start == 0 || !matches!(b[start - 1], b':' | b'.');
                    if bare {
                        if let Some(def) = own.get(&line[start..i]) {
                            bare_uses.insert(def.clone());
                        }
                    }
                } else {
                    i += 1;
                }
            }
        }
        let bytes = line.as_bytes();
        let starts_path = |i: usize| {
            i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || matches!(bytes[i - 1], b'_' | b':'))
        };
        for (root, base, keep) in &roots {
            let mut from = 0;
            while let Some(pos) = line[from..].find(root.as_str()) {
                let at = from + pos;
                from = at + root.len();
                if !starts_path(at) {
                    continue;
                }
                let path = if *keep { &line[at..] } else { &line[from..] };
                // `a::{b::X, c}`: every item of the group, after the common head `a::`.
                let (head, group) = match path.split_once('{') {
                    Some((h, g))
                        if h.is_empty()
                            || h.ends_with("::") && idents(h).len() == h.matches("::").count() =>
                    {
                        (h, Some(g))
                    }
                    _ => (path, None),
                };
                match group {
                    Some(g) => {
                        for item in g.split('}').next().unwrap_or("").split(',') {
                            add(base, &format!("{head}{}", item.trim()));
                        }
                    }
                    None => add(base, head),
                }
            }
        }
    }
    out.extend(bare_uses);
    out.remove(m);
    out
}

/// The strongly connected sets of two or more modules of `edges` (Tarjan), each sorted.
fn circles(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        edges: &'a BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<ModPath, usize>,
        low: BTreeMap<ModPath, usize>,
        stack: Vec<ModPath>,
        out: Vec<Vec<String>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: &ModPath) {
            let i = self.index.len();
            self.index.insert(v.clone(), i);
            self.low.insert(v.clone(), i);
            self.stack.push(v.clone());
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if self.stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    let done = &w == v;
                    comp.push(w.join("::"));
                    if done {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = Tarjan {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.out.sort();
    t.out
}

/// The import circles `src/` still has: a folder whose `mod.rs` calls its children while they
/// use the types it defines. The list only shrinks: a new circle, or one that grows, fails the
/// test below, and so does a listed circle that is gone or smaller (update it here).
const KNOWN_CIRCLES: &[&[&str]] = &[];

#[test]
fn no_new_import_circle_between_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods = modules(&src);
    let known: BTreeSet<ModPath> = mods.iter().map(|(m, _)| m.clone()).collect();
    let texts: Vec<(ModPath, String)> = mods
        .iter()
        .map(|(m, f)| {
            (
                m.clone(),
                std::fs::read_to_string(f).expect("source readable"),
            )
        })
        .collect();
    let reexp: Reexports = texts
        .iter()
        .map(|(m, t)| (m.clone(), reexports_of(m, t, &known)))
        .collect();
    let edges: BTreeMap<ModPath, BTreeSet<ModPath>> = texts
        .iter()
        .map(|(m, t)| (m.clone(), uses_through(m, t, &known, &reexp)))
        .collect();
    assert!(
        edges.values().map(BTreeSet::len).sum::<usize>() > 300,
        "the scan sees too few uses"
    );
    let found = circles(&edges);
    let listed: Vec<BTreeSet<&str>> = KNOWN_CIRCLES
        .iter()
        .map(|c| c.iter().copied().collect())
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|c| {
            !listed
                .iter()
                .any(|l| c.iter().all(|m| l.contains(m.as_str())))
        })
        .map(|c| c.join(" ↔ "))
        .collect();
    assert!(
        new.is_empty(),
        "import circles between modules:\n{}",
        new.join("\n")
    );
    // A listed circle must still be there exactly: one that is gone or has shrunk is updated
    // here, so that the list is the circles `src/` has.
    let changed: Vec<String> = listed
        .iter()
        .filter(|l| {
            !found
                .iter()
                .any(|c| c.len() == l.len() && c.iter().all(|m| l.contains(m.as_str())))
        })
        .map(|l| {
            let now: Vec<String> = found
                .iter()
                .filter(|c| c.iter().all(|m| l.contains(m.as_str())))
                .map(|c| c.join(" ↔ "))
                .collect();
            format!(
                "{}\n  is now: {}",
                l.iter().copied().collect::<Vec<_>>().join(" ↔ "),
                if now.is_empty() {
                    "gone".into()
                } else {
                    now.join("; ")
                }
            )
        })
        .collect();
    assert!(
        changed.is_empty(),
        "listed circles that are gone or smaller (update KNOWN_CIRCLES):\n{}",
        changed.join("\n")
    );
}

#[test]
fn the_module_scan_sees_uses_and_circles() {
    let known: BTreeSet<ModPath> = [vec!["a"], vec!["a", "b"], vec!["a", "c"], vec!["d"]]
        .into_iter()
        .map(|m| m.into_iter().map(String::from).collect())
        .collect();
    let m = |s: &str| -> ModPath { s.split("::").map(String::from).collect() };
    let text = "//! [`crate::d`]\nuse super::{\n    c::X,\n    Y,\n};\npub use super::d::Y;\nfn f() { self::g(); }\n\
                #[cfg(test)]\nmod tests {\n    use crate::d::Z;\n}\n";
    assert_eq!(
        uses_of(&m("a::b"), text, &known),
        BTreeSet::from([m("a"), m("a::c")])
    );
    assert_eq!(
        uses_of(&m("a"), "fn f() { b::run(); crate::d::x(); }\n", &known),
        BTreeSet::from([m("a::b"), m("d")])
    );
    // Re-exports are followed: `a` re-exports `c::Y`; a child's `super::Y` uses `a::c`, and
    // `a` naming `Y` bare uses `a::c` too (but not through `x::Y` or `.Y`).
    // (A name containing `as`, such as `Base`, is not an alias; a re-export may span lines.)
    let parent = "pub use c::{Y, Z as W};\npub(crate) use b::{\n    Base,\n    V,\n};\nfn f(y: Y) -> W { y.V() }\n";
    let reexp = Reexports::from([(m("a"), reexports_of(&m("a"), parent, &known))]);
    assert_eq!(
        reexp[&m("a")],
        BTreeMap::from([
            ("Y".to_string(), m("a::c")),
            ("W".to_string(), m("a::c")),
            ("Base".to_string(), m("a::b")),
            ("V".to_string(), m("a::b"))
        ])
    );
    assert_eq!(
        uses_through(&m("a::b"), "use super::Y;\n", &known, &reexp),
        BTreeSet::from([m("a::c")])
    );
    assert_eq!(
        uses_through(&m("a"), parent, &known, &reexp),
        BTreeSet::from([m("a::c")])
    );
    let edges = BTreeMap::from([
        (m("a"), BTreeSet::from([m("a::b")])),
        (m("a::b"), BTreeSet::from([m("a")])),
        (m("a::c"), BTreeSet::from([m("d")])),
        (m("d"), BTreeSet::new()),
    ]);
    assert_eq!(
        circles(&edges),
        vec![vec!["a".to_string(), "a::b".to_string()]]
    );
}
