//! The claims layer: every claim judged without experiments meets no error, and the published
//! forms of the declarations (`verify/protocol.toml`, the claims table of docs/CLAIMS.md) are
//! the ones the declarations write.

use dpbai::claims::protocol::{Paper, claims_table, protocol_toml};
use dpbai::claims::{ClaimResult, ClaimVerdict, Context, bai25, dp_bai, run_all, run_paper};
use dpbai::fault::Area;
use std::path::PathBuf;

/// Runs every claim without experiments and with no fault (the fault tests run in their own
/// test binary, `tests/faults.rs`: an injection is process-wide).
fn claims_with(fault: Option<Area>) -> Vec<ClaimResult> {
    run_all(&mut Context {
        experiments: false,
        fault,
        ..Default::default()
    })
}

/// Without a fault, no claim that ran meets an error, and every declared claim is checked.
#[test]
fn claims_without_experiments_have_no_errors() {
    let r = claims_with(None);
    for c in &r {
        assert!(!c.note.starts_with("error:"), "{}: {}", c.id, c.note);
        assert!(!c.rule.is_empty(), "{} has no rule", c.id);
    }
    assert_eq!(r.len(), dp_bai::claims().len());
    // The claims that need no experiments are decided, not skipped.
    let decided = r.iter().filter(|c| c.ran).count();
    assert!(decided >= 45, "only {decided} claims ran");
}

/// The second paper's claims ([BAI25]) run without experiments and meet no error: the exact ones
/// are all decided, and only those whose check reads Monte Carlo cells or audits (the areas it
/// calls when experiments are on) are skipped; their ids are `B.n` with n in its list of twelve.
#[test]
fn second_paper_claims_are_decided_without_errors() {
    let r = run_paper(
        &bai25::PAPER,
        &mut Context {
            experiments: false,
            ..Default::default()
        },
    );
    let with_runs = run_paper(
        &bai25::PAPER,
        &mut Context {
            experiments: true,
            ..Default::default()
        },
    );
    assert_eq!(r.len(), bai25::claims().len());
    let mut exact = 0;
    for c in &r {
        let runs = with_runs.iter().find(|w| w.id == c.id).expect("judged");
        let needs_runs = runs
            .areas
            .iter()
            .any(|a| matches!(a, Area::Mc | Area::Audit));
        if needs_runs {
            assert!(!c.ran, "{} ran without experiments", c.id);
        } else {
            exact += 1;
            assert!(c.ran, "{} skipped", c.id);
            assert_ne!(c.verdict, ClaimVerdict::NotCheckable, "{}", c.id);
        }
        assert!(!c.note.starts_with("error:"), "{}: {}", c.id, c.note);
        let n: u32 =
            c.id.strip_prefix("B.")
                .expect("B.n")
                .parse()
                .expect("number");
        assert!((1..=12).contains(&n), "{}", c.id);
    }
    assert!(exact >= 6, "only {exact} exact claims");
}

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The generated block `name` of a Markdown file.
fn block(doc: &str, name: &str) -> String {
    let begin = format!("<!-- BEGIN GENERATED {name} -->\n");
    let end = format!("\n<!-- END GENERATED {name} -->");
    let b = doc.find(&begin).expect("the block exists") + begin.len();
    let e = doc[b..].find(&end).expect("the block ends") + b;
    doc[b..e].to_string()
}

fn assert_published(paper: &Paper) {
    let toml = std::fs::read_to_string(repo(paper.protocol)).expect("protocol file");
    assert!(
        toml == protocol_toml(paper),
        "{} is stale: run `dpbai verify --write-protocol`",
        paper.protocol
    );
    let doc = std::fs::read_to_string(repo(paper.claims_doc)).expect("claims document");
    assert!(
        block(&doc, "claims") == claims_table(paper).trim_end(),
        "the claims table of {} is stale: run `dpbai verify --write-protocol`",
        paper.claims_doc
    );
}

/// `verify/protocol.toml` and docs/CLAIMS.md's claims table are exactly what the declarations
/// write: editing either file by hand, or a declaration without rewriting them, fails here.
#[test]
fn published_protocols_are_the_declarations() {
    for paper in dpbai::claims::PAPERS {
        assert_published(paper);
    }
}

/// Every paper's protocol file parses as TOML, with one entry per declared claim, each carrying
/// its rule.
#[test]
fn the_protocol_file_is_toml_with_every_claim() {
    for paper in dpbai::claims::PAPERS {
        the_protocol_of(paper);
    }
}

fn the_protocol_of(paper: &Paper) {
    let text = protocol_toml(paper);
    let v: toml::Value = toml::from_str(&text).expect("valid TOML");
    let entries = v["claim"].as_array().expect("claims");
    assert_eq!(entries.len(), (paper.claims)().len());
    for e in entries {
        assert!(e.get("confirm").is_some() || e.get("not_checkable").is_some());
        assert!(
            e["wording"].as_str().is_some_and(|w| !w.is_empty()),
            "{e:?}"
        );
    }
}

/// No tracked document writes the range of every claim by hand (one went stale when the claims
/// grew): the ids come from the declarations.
#[test]
fn no_hand_written_range_of_every_claim() {
    let out = std::process::Command::new("git")
        .args(["ls-files", "*.md", "*.rs", "*.py", "*.toml", "*.sh"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("git runs");
    let files = String::from_utf8_lossy(&out.stdout).to_string();
    let pattern = regex_lite_range();
    for f in files.lines() {
        let Ok(text) = std::fs::read_to_string(repo(f)) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            assert!(
                !pattern(line),
                "{f}:{}: a hand-written range of every claim: {line}",
                i + 1
            );
        }
    }
}

/// Matches `F.1–F.<n>`, `B.1-B.<n>` and the like (the range of every claim of a paper from
/// its first).
fn regex_lite_range() -> impl Fn(&str) -> bool {
    |line: &str| {
        ["F", "B"].iter().any(|l| {
            let pats = [
                format!("{l}.1–{l}."),
                format!("{l}.1-{l}."),
                format!("{l}.1–"),
                format!("{l}.1 – {l}."),
            ];
            pats.iter().any(|p| {
                line.match_indices(p.as_str()).any(|(i, _)| {
                    let rest = &line[i + p.len()..];
                    let rest = rest.trim_start_matches(&format!("{l}."));
                    rest.starts_with(|c: char| c.is_ascii_digit())
                        && !line[..i].ends_with(|c: char| c.is_ascii_digit())
                })
            })
        })
    }
}

#[test]
fn the_range_pattern_catches_both_papers() {
    let m = regex_lite_range();
    // built from pieces: this file is scanned too
    let range = |a: &str, sep: &str, b: &str| [a, sep, b].concat();
    assert!(m(&range("claims F.1", "–", "F.68 here")) && m(&range("see B.1", "–", "B.12")));
    assert!(m(&range("B.1", "-", "B.5")));
    assert!(!m("F.50–F.55") && !m("B.2, B.3") && !m("F.11–F.13"));
}
