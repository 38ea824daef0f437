//! The sentences of the figures' captions, shared by `verify`'s figures and the study figures:
//! the cap on the runs, the regime of the upper bounds, the Thm. 24 branch switch, the rule set
//! and the points drawn at an axis edge.

use crate::complexity::upper::ASYMPTOTIC;

/// A sample count as written in a caption: `3×10⁷`, `10⁸`, `2×10⁸`; plain below `10⁴` or when
/// it is not a small multiple of a power of ten (`123456`).
///
/// # Example
/// ```
/// use dpbai::report::paper::captions::fmt_count;
/// assert_eq!(fmt_count(30_000_000), "3×10⁷");
/// assert_eq!(fmt_count(100_000_000), "10⁸");
/// assert_eq!(fmt_count(123_456), "123456");
/// ```
pub fn fmt_count(n: u64) -> String {
    let mut m = n;
    let mut k = 0;
    while m != 0 && m % 10 == 0 {
        m /= 10;
        k += 1;
    }
    let sup = crate::plot::axis::superscript(k);
    match (k, m) {
        (0..=3, _) | (_, 0) => n.to_string(),
        (_, 1) => format!("10{sup}"),
        (_, m) if m < 100 => format!("{m}×10{sup}"),
        _ => n.to_string(),
    }
}

/// The cap sentence of a figure whose cells have the caps `caps` (any order, repeats allowed;
/// empty: no cell, no sentence).
pub fn cap_sentence(caps: &[u64]) -> Option<String> {
    let mut c: Vec<u64> = caps.iter().copied().filter(|&c| c > 0).collect();
    c.sort_unstable();
    c.dedup();
    let cap = match c.as_slice() {
        [] => return None,
        [one] => format!("Cap: {} samples per run", fmt_count(*one)),
        [lo, .., hi] => format!(
            "Caps: {}–{} samples per run (per cell)",
            fmt_count(*lo),
            fmt_count(*hi)
        ),
    };
    Some(format!(
        "{cap}; a run that reaches it is capped, and a cell with capped runs has only a lower \
         bound on its mean (open marker \"≥\", no bar). Markers are the measured ε; the faint \
         lines between them only guide the eye."
    ))
}

/// The regime of the dotted upper-bound curves.
pub fn asymptotic_sentence() -> String {
    format!(
        "Dotted curves: upper bounds × log(1/δ), {ASYMPTOTIC} (at a fixed δ they may lie below \
         the data)."
    )
}

/// The Thm. 24 branch switch of AdaP-TT*'s bound (as `dpbai bounds` explains it).
pub const THM24_SENTENCE: &str = "Dotted vertical line at ε = 2Δ_max: the AdaP-TT* bound of \
     Thm. 24 takes its g2 branch below it and its g1 branch above it (Δ_max < ε/2), so the curve \
     can rise with ε and then drops there; this is Thm. 24 as printed, not a property of the \
     algorithm.";

/// The rule set of the cells drawn under the public code's rules.
pub const REFERENCE_RULES: &str = "Cells under the public code's empirical rules (rule set \
     \"reference\", READINGS.md §P): the paper's figures used these rules (Rem. 53).";

/// What the public code's rules mean for the global-DP algorithms.
pub const REFERENCE_GLOBAL: &str = "The public code has no AdaP-TT*: under these rules AdaP-TT* \
     runs AdaP-TT's rules, so its points repeat AdaP-TT's with other seeds.";

/// What the public code's rules mean for the local-DP algorithm.
pub const REFERENCE_LOCAL: &str = "The public code has no CTB-TT: under these rules CTB-TT is \
     this project's construction (the public code's TTUCB rules on the privatised rewards).";

/// The rule set of the cells drawn under the paper's rules.
pub const PAPER_RULES: &str = "Cells under the paper's rules (its provable thresholds).";

/// The sentence on the `n` points drawn as arrows at an axis edge (none for `n = 0`).
pub fn off_scale_sentence(n: usize) -> Option<String> {
    match n {
        0 => None,
        1 => Some("1 point lies beyond its axis: an arrow at the edge marks it.".into()),
        n => Some(format!(
            "{n} points lie beyond their axis: arrows at the edge mark them."
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_caps_are_written_compactly() {
        assert_eq!(fmt_count(200_000_000), "2×10⁸");
        assert_eq!(fmt_count(1_000), "1000");
        assert_eq!(fmt_count(0), "0");
        assert_eq!(fmt_count(1_250_000), "1250000");
        let one = cap_sentence(&[30_000_000, 30_000_000]).expect("a cap");
        assert!(one.starts_with("Cap: 3×10⁷ samples per run;"), "{one}");
        let two = cap_sentence(&[1_000_000, 30_000_000]).expect("caps");
        assert!(two.starts_with("Caps: 10⁶–3×10⁷"), "{two}");
        assert_eq!(cap_sentence(&[0]), None);
    }
}
