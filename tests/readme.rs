//! Keeps README.md a first page and the facts of README.md and docs/*.md true: every relative
//! link names a file of the repository, every claim id `F.n` is a row of docs/CLAIMS.md, every
//! `dpbai <subcommand>` in code is a subcommand of the binary, README.md has at most 150 lines
//! and its first two fenced commands are the two set-up commands.

use crate::common::run_cli;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// README.md's line budget: a first page.
const README_MAX_LINES: usize = 150;

/// The two set-up commands a newcomer runs first, in this order.
const FIRST_COMMANDS: [&str; 2] = ["cargo run --release -- verify", "make test"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every docs/*.md, as (path, text).
fn documents() -> Vec<(PathBuf, String)> {
    let mut paths = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ readable")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("document readable");
            (p, text)
        })
        .collect()
}

/// The targets of the inline Markdown links `[text](target)` of `text`.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].trim().to_string());
        }
    }
    out
}

/// Relative link targets that name no file: (document, target).
fn broken_links(docs: &[(PathBuf, String)]) -> Vec<String> {
    let mut bad = Vec::new();
    for (path, text) in docs {
        let dir = path.parent().expect("document in a folder");
        for target in link_targets(text) {
            if target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
                || target.starts_with('#')
            {
                continue;
            }
            let file = target.split('#').next().unwrap_or("");
            if !dir.join(file).is_file() {
                bad.push(format!("{}: ({target})", path.display()));
            }
        }
    }
    bad
}

/// The claim ids `F.n` named in `text` (a `F.` after a letter or digit is not one).
fn claim_ids(text: &str) -> BTreeSet<u32> {
    let bytes = text.as_bytes();
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("F.") {
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            continue;
        }
        let digits: String = text[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        if let Ok(n) = digits.parse() {
            out.insert(n);
        }
    }
    out
}

/// The claim ids of docs/CLAIMS.md's table: rows `| F.n | ...`.
fn declared_claims() -> BTreeSet<u32> {
    let text = std::fs::read_to_string(root().join("docs").join("CLAIMS.md")).expect("CLAIMS.md");
    text.lines()
        .filter_map(|l| l.strip_prefix("| F."))
        .filter_map(|r| {
            r.chars()
                .take_while(|c| c.is_ascii_digit())
                .collect::<String>()
                .parse()
                .ok()
        })
        .collect()
}

/// The code of a Markdown document: the lines of its fenced blocks and its inline code spans
/// (a span may wrap onto the next line of its paragraph).
fn code_of(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    let mut paragraph = String::new();
    fn spans(paragraph: &mut String, out: &mut Vec<String>) {
        out.extend(
            paragraph
                .split('`')
                .skip(1)
                .step_by(2)
                .map(|s| s.replace('\n', " ")),
        );
        paragraph.clear();
    }
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            spans(&mut paragraph, &mut out);
            fenced = !fenced;
            continue;
        }
        if fenced {
            out.push(line.to_string());
        } else if line.trim().is_empty() {
            spans(&mut paragraph, &mut out);
        } else {
            paragraph.push_str(line);
            paragraph.push('\n');
        }
    }
    spans(&mut paragraph, &mut out);
    out
}

/// The first fenced command lines of `text` (comments and blank lines left out).
fn fenced_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            let cmd = line.split(" #").next().unwrap_or("").trim();
            if !cmd.is_empty() && !cmd.starts_with('#') {
                out.push(cmd.to_string());
            }
        }
    }
    out
}

/// The subcommands listed under `Commands:` in a `--help` output (`help` left out).
fn subcommands(help: &str) -> BTreeSet<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

/// The word after each `dpbai ` in `code` that reads as a subcommand (lowercase, not an
/// option), with the word after it.
fn named_subcommands(code: &str) -> Vec<(String, Option<String>)> {
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '-')
            .collect()
    };
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    for (i, _) in code.match_indices("dpbai ") {
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            continue;
        }
        let rest = &code[i + 6..];
        let first = word(rest);
        if first.is_empty() || first.starts_with('-') || rest[first.len()..].starts_with('.') {
            continue;
        }
        let after = rest[first.len()..].trim_start_matches(' ');
        let second = word(after);
        let second = (!second.is_empty() && !second.starts_with('-')).then_some(second);
        out.push((first, second));
    }
    out
}

#[test]
fn readme_is_a_first_page() {
    let text = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines = text.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move the detail into docs/"
    );
    let first: Vec<String> = fenced_commands(&text).into_iter().take(2).collect();
    assert_eq!(
        first, FIRST_COMMANDS,
        "README.md's first two fenced commands must be the set-up commands"
    );
}

#[test]
fn readme_and_docs_links_name_files() {
    let bad = broken_links(&documents());
    assert!(bad.is_empty(), "links to no file:\n{}", bad.join("\n"));
}

#[test]
fn readme_and_docs_claim_ids_are_declared() {
    let declared = declared_claims();
    assert!(
        declared.contains(&1) && declared.len() > 50,
        "CLAIMS.md read"
    );
    let mut bad = Vec::new();
    for (path, text) in documents() {
        for id in claim_ids(&text) {
            if !declared.contains(&id) {
                bad.push(format!("{}: F.{id}", path.display()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "claim ids not in docs/CLAIMS.md:\n{}",
        bad.join("\n")
    );
}

#[test]
fn readme_and_docs_subcommands_exist() {
    let (code, help, _) = run_cli(&["--help"]);
    assert_eq!(code, 0);
    let top = subcommands(&help);
    assert!(top.contains("verify") && top.contains("bounds"), "{help}");
    // the nested subcommands of those that have some (`audit delta`, `cluster slurm`, …)
    let nested: Vec<(String, BTreeSet<String>)> = top
        .iter()
        .map(|c| (c.clone(), subcommands(&run_cli(&[c, "--help"]).1)))
        .filter(|(_, s)| !s.is_empty())
        .collect();
    let mut bad = Vec::new();
    for (path, text) in documents() {
        for code in code_of(&text) {
            for (first, second) in named_subcommands(&code) {
                if !top.contains(&first) {
                    bad.push(format!("{}: `dpbai {first}` in `{code}`", path.display()));
                    continue;
                }
                if let (Some((_, subs)), Some(second)) =
                    (nested.iter().find(|(c, _)| *c == first), second)
                {
                    if !subs.contains(&second) {
                        bad.push(format!(
                            "{}: `dpbai {first} {second}` in `{code}`",
                            path.display()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "not subcommands of dpbai:\n{}",
        bad.join("\n")
    );
}

#[test]
fn readme_checks_can_fail() {
    // each check rejects a planted mistake
    let dir = root().join("docs");
    let planted = vec![(
        dir.join("PLANTED.md"),
        "[gone](../no/such/file.rs) [ok](../README.md#x)".to_string(),
    )];
    assert_eq!(broken_links(&planted).len(), 1);
    assert!(claim_ids("F.999 and REF.2 and `F.56/ref`").contains(&999));
    assert!(!claim_ids("REF.2").contains(&2));
    assert_eq!(
        named_subcommands("x; dpbai verfy --check; dpbai.run"),
        vec![("verfy".to_string(), None)]
    );
    assert_eq!(
        code_of("a `dpbai\nrun` b `c`\n\n```sh\nd\n```\n"),
        vec!["dpbai run".to_string(), "c".to_string(), "d".to_string()]
    );
    assert_eq!(
        fenced_commands("```sh\n# c\nmake test   # t\n```\n"),
        vec!["make test".to_string()]
    );
}
