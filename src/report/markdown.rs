//! REPORT.md generated blocks: prose stays by hand; everything between
//! `<!-- BEGIN GENERATED name -->` and `<!-- END GENERATED name -->` is rewritten by `dpbai verify`.

use crate::claims::{ClaimResult, ClaimVerdict};

fn markers(name: &str) -> (String, String) {
    (
        format!("<!-- BEGIN GENERATED {name} -->"),
        format!("<!-- END GENERATED {name} -->"),
    )
}

/// Replaces the content of block `name` in `doc` (appending a new block at the end if absent).
pub fn replace_block(doc: &str, name: &str, content: &str) -> String {
    let (begin, end) = markers(name);
    let body = format!("{begin}\n{}\n{end}", content.trim_end());
    match (doc.find(&begin), doc.find(&end)) {
        (Some(b), Some(e)) if e > b => {
            format!("{}{}{}", &doc[..b], body, &doc[e + end.len()..])
        }
        _ => {
            let mut s = doc.trim_end().to_string();
            s.push_str("\n\n");
            s.push_str(&body);
            s.push('\n');
            s
        }
    }
}

/// User text (a study's title, a label) as inline Markdown that renders as the text itself: line
/// breaks become spaces, and the characters Markdown reads (`\\ * _ ` [ ] < > # |`) are
/// backslash-escaped, so a title cannot start a heading or a label a table column.
///
/// ```
/// use dpbai::report::markdown::inline;
/// assert_eq!(inline("a\n# b|c"), "a \\# b\\|c");
/// assert_eq!(inline("ttucb beta=0.3"), "ttucb beta=0.3");
/// ```
pub fn inline(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '\\' | '*' | '_' | '`' | '[' | ']' | '<' | '>' | '#' | '|' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Escapes a table cell (pipes and newlines).
pub fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The claims table of a paper whose protocol file is `protocol`, in ID order: the rule beside
/// the verdict.
pub fn claims_table_of(results: &[ClaimResult], protocol: &str) -> String {
    let mut s = format!(
        "| ID | claim | source | the paper says | we computed | rule ({protocol}) | verdict |\n\
         |---|---|---|---|---|---|---|\n"
    );
    for r in results {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | **{}**{} |\n",
            r.id,
            cell(r.title),
            cell(r.source),
            cell(&r.paper),
            cell(&r.computed),
            cell(&r.rule),
            r.verdict.as_str(),
            if r.note.is_empty() {
                String::new()
            } else {
                format!(" ({})", cell(&r.note))
            }
        ));
    }
    s
}

/// One-line counts per verdict.
pub fn verdict_summary(results: &[ClaimResult]) -> String {
    let variants = |suffix: &str| {
        results
            .iter()
            .filter(|r| r.id.split_once('/').is_some_and(|(_, s)| s == suffix))
            .count()
    };
    let (refs, other) = (variants("ref"), variants("uniform"));
    let twice = results.iter().filter(|r| r.id.contains('/')).count();
    debug_assert_eq!(
        twice,
        refs + other,
        "a claim variant the summary does not name"
    );
    format!(
        "{} claims checked ({refs} of them also under the public code's rules, {other} also under uniform \
         sampling: {} verdicts): {}",
        results.len() - twice,
        results.len(),
        verdict_counts(results)
    )
}

/// `N confirmed, N confirmed as corrected, N refuted, N inconclusive, N not checkable.` (every
/// report's summary line ends so).
pub fn verdict_counts(results: &[ClaimResult]) -> String {
    let count = |v: ClaimVerdict| results.iter().filter(|r| r.verdict == v).count();
    format!(
        "{} confirmed, {} confirmed as corrected, {} refuted, {} inconclusive, {} not checkable.",
        count(ClaimVerdict::Confirmed),
        count(ClaimVerdict::ConfirmedAsCorrected),
        count(ClaimVerdict::Refuted),
        count(ClaimVerdict::Inconclusive),
        count(ClaimVerdict::NotCheckable)
    )
}

/// Writes every paper's published claim forms under `root`, from its declarations: the
/// protocol file (`verify/protocol.toml`, …) and the claims table block of its claims document
/// (`docs/CLAIMS.md`, …). Returns the (protocol, document) paths written.
///
/// # Errors
/// [`crate::error::Error::Io`] naming the file that cannot be read or written.
pub fn write_protocol(
    root: &std::path::Path,
) -> crate::error::Result<Vec<(std::path::PathBuf, std::path::PathBuf)>> {
    use crate::claims::protocol::{claims_table, protocol_toml};
    let mut written = Vec::new();
    for paper in crate::claims::PAPERS {
        let toml = root.join(paper.protocol);
        crate::files::write_atomic(&toml, protocol_toml(paper).as_bytes())?;
        let doc_path = root.join(paper.claims_doc);
        let doc = std::fs::read_to_string(&doc_path)
            .map_err(|e| crate::error::Error::io("read", &doc_path, e))?;
        let doc = replace_block(&doc, "claims", &claims_table(paper));
        crate::files::write_atomic(&doc_path, doc.as_bytes())?;
        written.push((toml, doc_path));
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_and_appends_blocks() {
        let doc = "intro\n<!-- BEGIN GENERATED a -->\nold\n<!-- END GENERATED a -->\noutro\n";
        let out = replace_block(doc, "a", "new");
        assert_eq!(
            out,
            "intro\n<!-- BEGIN GENERATED a -->\nnew\n<!-- END GENERATED a -->\noutro\n"
        );
        let out2 = replace_block(&out, "b", "x");
        assert!(out2.ends_with("<!-- BEGIN GENERATED b -->\nx\n<!-- END GENERATED b -->\n"));
        assert_eq!(replace_block(&out2, "b", "x"), out2, "idempotent");
    }
}
