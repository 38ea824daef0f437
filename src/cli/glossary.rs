//! `bounds --explain`: the entries of docs/GLOSSARY.md (compiled in) for what a command printed.

/// The glossary, compiled in so that an installed binary explains without the source tree.
const GLOSSARY: &str = include_str!("../../docs/GLOSSARY.md");

/// The entries of the glossary section whose title starts with `section`, one per line:
/// `name  (symbol; defined in; units): meaning`.
pub fn section(section: &str) -> Vec<String> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in GLOSSARY.lines() {
        if let Some(t) = line.strip_prefix("## ") {
            inside = t.trim().starts_with(section);
            continue;
        }
        if !inside {
            continue;
        }
        let Some(row) = line.strip_prefix('|') else {
            continue;
        };
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let [name, symbol, defined, units, meaning, ..] = cells[..] else {
            continue;
        };
        let Some(name) = name.strip_prefix('`').and_then(|n| n.strip_suffix('`')) else {
            continue;
        };
        out.push(format!("{name}  ({symbol}; {defined}; {units}): {meaning}"));
    }
    out
}

/// Prints the entries of `section` under a heading, to stdout or (`to_stderr`, when stdout is
/// machine-readable output) to stderr.
pub fn explain(section_title: &str, to_stderr: bool) {
    let lines = section(section_title);
    let text = format!(
        "\nglossary (docs/GLOSSARY.md, {section_title}):\n{}",
        lines
            .iter()
            .map(|l| format!("  {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    if to_stderr {
        eprintln!("{text}");
    } else {
        println!("{text}");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_sections_bounds_explains_have_entries() {
        for s in ["dpbai bounds (text output)", "dpbai bounds --eps-grid"] {
            let e = super::section(s);
            assert!(e.len() > 20, "{s}: {e:?}");
            assert!(e.iter().all(|l| l.contains("): ")), "{s}: {e:?}");
        }
    }
}
