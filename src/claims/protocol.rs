//! The published forms of a paper's claim declarations, written from them and never by hand:
//! the pre-registration `verify/protocol.toml` ([`protocol_toml`]: per claim, the paper's
//! wording, the statistic we compute, the acceptance rule, why the rule is a fair reading, the
//! rule set(s) and the regime) and the claims table of docs/CLAIMS.md
//! ([`claims_table`]). `dpbai verify --write-protocol` writes both; a test fails when either
//! committed file is stale, so the history of every rule stays readable in git.

use super::declare::{Meta, base_id, id_key};
pub use super::paper::Paper;
use super::rule::rule_text;

/// The declarations of `paper`, in id order.
pub fn sorted(paper: &Paper) -> Vec<Meta> {
    let mut v: Vec<Meta> = (paper.claims)().iter().map(|c| c.meta()).collect();
    v.sort_by_key(|m| id_key(m.id));
    v
}

/// A TOML basic string.
fn q(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn list(items: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", items.into_iter().collect::<Vec<_>>().join(", "))
}

/// The protocol's wording of a claim: its own, or its docs/CLAIMS.md row (of its base claim
/// for a variant) as `claim: formula (source)`.
pub fn wording(m: &Meta, all: &[Meta]) -> String {
    if let Some(w) = m.wording {
        return w.to_string();
    }
    let base = base_id(m.id);
    all.iter()
        .find(|b| b.id == base)
        .and_then(|b| b.row)
        .map(|r| format!("{}: {} ({})", r.claim, r.formula, r.source))
        .unwrap_or_default()
}

/// `verify/protocol.toml` of `paper`, written from its declarations.
pub fn protocol_toml(paper: &Paper) -> String {
    let all = sorted(paper);
    let variants = all.iter().filter(|m| m.id.contains('/')).count();
    let mut out = vec![
        format!("# The claim protocol of \"{}\": one entry per claim", paper.title),
        format!(
            "# ({} claims and {variants} variants of them under another rule set or sampling rule), with the paper's",
            all.len() - variants
        ),
        "# wording, the statistic we compute, the acceptance rule (predicates over the named statistics,".into(),
        "# see src/claims/rule.rs), why the rule is a fair reading, the rule set(s), the regime in which".into(),
        "# the paper states the claim, and for agreement claims the equivalence margin. A claim's evidence".into(),
        "# areas are not declared: `dpbai verify --json` reports those its check called.".into(),
        format!(
            "# Written by `dpbai verify --write-protocol` from the claim declarations in src/claims/ (do not edit); a test fails when it is stale."
        ),
        String::new(),
    ];
    for m in &all {
        let r = &m.rule;
        out.push("[[claim]]".into());
        out.push(format!("id = {}", q(m.id)));
        out.push(format!("wording = {}", q(&wording(m, &all))));
        out.push(format!("statistic = {}", q(m.statistic)));
        if let Some(c) = r.confirm {
            out.push(format!("confirm = {}", q(c)));
        }
        for (k, v) in [
            ("corrected", r.corrected),
            ("refute", r.refute),
            ("decide", r.decide),
            ("not_checkable", r.not_checkable),
        ] {
            if let Some(v) = v {
                out.push(format!("{k} = {}", q(v)));
            }
        }
        out.push(format!("fair = {}", q(m.fair)));
        out.push(format!(
            "rule_sets = {}",
            list(m.rule_sets.iter().map(|s| q(s.as_str())))
        ));
        out.push(format!("regime = {}", q(m.regime.as_str())));
        if let Some(e) = &r.equivalence {
            out.push(format!(
                "equivalence = {{ lo = {}, hi = {}, margin = [{:?}, {:?}]{} }}",
                q(e.lo),
                q(e.hi),
                e.margin[0],
                e.margin[1],
                if e.borderline {
                    ""
                } else {
                    ", borderline = \"none\""
                }
            ));
        }
        if let Some(b) = &r.borderline {
            out.push(format!(
                "borderline = {{ stat = {}, half_width = {}, edge = {:?} }}",
                q(b.stat),
                q(b.half_width),
                b.edge
            ));
        }
        out.push(format!("# rule in words: {}", rule_text(r)));
        out.push(String::new());
    }
    out.join("\n")
}

/// The claims table of the claims document: one row per claim (variants share their base
/// claim's row), from the declarations.
pub fn claims_table(paper: &Paper) -> String {
    let mut s = String::from("| ID | Claim | Formula / check | Source |\n|---|---|---|---|\n");
    for m in sorted(paper) {
        if let Some(r) = m.row {
            s.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                m.id, r.claim, r.formula, r.source
            ));
        }
    }
    s
}

/// The ids of `paper`'s claims and variants as a compact list of ranges (`F.2–F.5, S.1`),
/// for generated prose.
pub fn id_ranges(paper: &Paper) -> String {
    let mut groups: Vec<(char, Vec<u32>)> = Vec::new();
    for m in sorted(paper).iter().filter(|m| !m.id.contains('/')) {
        let (letter, n, _) = id_key(m.id);
        match groups.last_mut() {
            Some((l, v)) if *l == letter => v.push(n),
            _ => groups.push((letter, vec![n])),
        }
    }
    let mut parts = Vec::new();
    for (letter, v) in groups {
        let mut i = 0;
        while i < v.len() {
            let mut j = i;
            while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
                j += 1;
            }
            parts.push(if i == j {
                format!("{letter}.{}", v[i])
            } else {
                format!("{letter}.{}–{letter}.{}", v[i], v[j])
            });
            i = j + 1;
        }
    }
    parts.join(", ")
}
