//! The certificate of a proof by dominance and its independent re-verification.
//!
//! # Format
//! JSON ([`Certificate`]): the threshold's text, the preset's name, text and lemma, the
//! [`Assumptions`], the subdivision of the domain as a preorder string over the split tree
//! (`L` a proven leaf, `U` an unreachable leaf, a variable's letter a split of the current box
//! along that variable at the deterministic point of `domain::split`: `d` δ, `K`, `t`, `a` na,
//! `b` nb, `p` ka, `q` kb, `g` gap), and the certified lower bound of `E − P` on each proven
//! leaf, in the same order.
//!
//! # What the checker verifies
//! [`check_certificate`] trusts nothing it can recompute: it re-parses both expressions from
//! their text (and the preset's text must be the preset of that name today), re-validates the
//! assumptions, rebuilds the root box from them and every box of the subdivision by the split
//! rule, and on each leaf recomputes, with outward-rounded intervals, that `E` and `P` are
//! finite there and that the lower bound of `E − P` is at least the recorded margin, itself
//! `>= 0`; an unreachable leaf must satisfy `na + nb + K − 2 > t` on the whole box. The string
//! must be consumed exactly. A recorded margin one ulp above what the checker computes, a box
//! edited away, or a changed assumption is rejected.

use super::config::{Assumptions, ProofFamily, lemma_of, validate};
use super::domain::{Bx, TreeNode, free_of_letter, leaf_margin, split, unreachable};
use crate::error::Result;
use crate::threshold::expr::{ThresholdExpr, fold, preset};
use serde::{Deserialize, Serialize};

/// The `format` field of the certificates this version writes and checks.
pub const CERTIFICATE_FORMAT: &str = "dpbai-dominance-certificate-2";

/// A proof by dominance, re-verifiable by [`check_certificate`] (module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Certificate {
    /// [`CERTIFICATE_FORMAT`].
    pub format: String,
    /// The candidate threshold `E` (expression text).
    pub threshold: String,
    /// The provable preset `P` it dominates.
    pub preset: String,
    /// The preset's expression text.
    pub preset_expression: String,
    /// The lemma `E` inherits.
    pub lemma: String,
    /// What the proof assumes.
    pub assumptions: Assumptions,
    /// The split tree in preorder (module docs).
    pub subdivision: String,
    /// Certified lower bound of `E − P` on each proven leaf, in preorder.
    pub margins: Vec<f64>,
    /// The smallest of them.
    pub min_margin: f64,
}

/// The checker's answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    /// Whether every check passed.
    pub valid: bool,
    /// The first failed check, or what the certificate proves.
    pub message: String,
    /// Leaves verified.
    pub leaves: u64,
}

impl Certificate {
    pub(super) fn from_tree(
        threshold: &str,
        preset_name: &str,
        lemma: &str,
        assumptions: Assumptions,
        tree: &[TreeNode],
    ) -> Certificate {
        let mut subdivision = String::new();
        let mut margins = Vec::new();
        let mut stack = vec![0u32];
        while let Some(i) = stack.pop() {
            match tree[i as usize] {
                TreeNode::Leaf(m) => {
                    subdivision.push('L');
                    margins.push(m);
                }
                TreeNode::Unreachable => subdivision.push('U'),
                TreeNode::Open => unreachable!("invariant: a proof leaves no open box"),
                TreeNode::Split {
                    letter,
                    left,
                    right,
                } => {
                    subdivision.push(letter);
                    stack.push(right);
                    stack.push(left);
                }
            }
        }
        let min_margin = margins.iter().copied().fold(f64::INFINITY, f64::min);
        Certificate {
            format: CERTIFICATE_FORMAT.into(),
            threshold: threshold.into(),
            preset: preset_name.into(),
            preset_expression: preset(preset_name).unwrap_or_default(),
            lemma: lemma.into(),
            assumptions,
            subdivision,
            margins,
            min_margin,
        }
    }

    /// What a valid certificate proves, in one sentence.
    pub fn statement(&self) -> String {
        let a = &self.assumptions;
        format!(
            "threshold `{}` is finite and >= {} at every point with {}; so the {} rule with it is delta-correct by {} for {} in runs capped at {} steps",
            self.threshold,
            self.preset,
            a.describe(),
            a.rules,
            self.lemma,
            if a.algorithms.is_empty() {
                "the algorithms of that lemma whose runs this domain covers".to_string()
            } else {
                a.algorithms.join(", ")
            },
            a.domain.max_steps,
        )
    }
}

impl Assumptions {
    /// The domain in words: `delta in …, K in …, eps …, sigma …, counts …, t …, phases …, gap …`.
    pub fn describe(&self) -> String {
        let range = |l: f64, h: f64| {
            if l == h {
                format!("= {}", compact(l))
            } else {
                format!("in [{}, {}]", compact(l), compact(h))
            }
        };
        let [e0, e1] = self.domain.eps_range();
        let p = &self.parameters;
        format!(
            "delta {}, K {}, eps {}, sigma {} ({} rewards of sigma {}{}), counts in [1, {m}], t in [2, {m}] (t >= na + nb + K - 2), phases in [1, {}], gap in [0, {}",
            range(self.delta[0], self.delta[1]),
            range(self.k[0] as f64, self.k[1] as f64),
            if e0 == f64::INFINITY {
                "= inf (non-private)".to_string()
            } else {
                range(e0, e1)
            },
            range(self.domain.sigma[0], self.domain.sigma[1]),
            match p.family {
                ProofFamily::Bernoulli => "Bernoulli",
                ProofFamily::Gaussian => "Gaussian",
            },
            compact(p.arm_sigma),
            p.gamma
                .map(|g| format!(", gamma = {}", compact(g)))
                .unwrap_or_default(),
            self.phases[1],
            self.domain
                .gap_max
                .map(|g| format!("{}]", compact(g)))
                .unwrap_or_else(|| "inf)".into()),
            m = self.domain.max_steps,
        )
    }
}

/// `x` in its shortest form, in exponent notation outside `[1e-4, 1e7)` (`1e-100`, not 100
/// zeros).
fn compact(x: f64) -> String {
    if x == 0.0 || !x.is_finite() || (1e-4..1e7).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// Re-verifies a certificate (module docs).
///
/// # Errors
/// [`crate::Error::Parse`] when an expression no longer parses; a failed check is not an
/// error but `valid = false` with the reason.
///
/// # Example
/// ```
/// use dpbai::threshold::dominance::{check_certificate, dominates, DominanceConfig};
/// use dpbai::threshold::expr::parse_threshold;
/// let e = parse_threshold("paper-cg").unwrap();
/// let r = dominates(&e, "paper-cg", &DominanceConfig::new(0.01, 3, 1000)).unwrap();
/// let mut c = r.certificate.unwrap();
/// assert!(check_certificate(&c).unwrap().valid);
/// c.margins[0] = dpbai::float::next_up(c.margins[0]);
/// assert!(!check_certificate(&c).unwrap().valid);
/// ```
pub fn check_certificate(c: &Certificate) -> Result<CheckReport> {
    let reject = |why: String, leaves: u64| {
        Ok(CheckReport {
            valid: false,
            message: why,
            leaves,
        })
    };
    if c.format != CERTIFICATE_FORMAT {
        return reject(
            format!("format `{}` is not {CERTIFICATE_FORMAT}", c.format),
            0,
        );
    }
    let Some(lemma) = lemma_of(&c.preset) else {
        return reject(format!("`{}` is not a provable preset", c.preset), 0);
    };
    if lemma != c.lemma {
        return reject("the lemma is not the preset's".into(), 0);
    }
    if preset(&c.preset).as_deref() != Some(c.preset_expression.as_str()) {
        return reject("the preset's expression is not the preset's".into(), 0);
    }
    let a = &c.assumptions;
    if a.rules != "paper" {
        return reject(
            format!(
                "rule set `{}`: the lemmas are about the paper rules",
                a.rules
            ),
            0,
        );
    }
    let cfg = a.config();
    if let Err(e) = validate(&c.preset, &cfg) {
        return reject(format!("assumptions out of range: {e}"), 0);
    }
    let derived = Assumptions::of(&cfg);
    if &derived != a {
        return reject(
            "the derived ranges (counts, t, phases, gap) are not those the other assumptions imply"
                .into(),
            0,
        );
    }
    let domain = cfg.domain();
    let consts = domain.constants();
    let expr = ThresholdExpr::parse(&c.threshold)?;
    let pexpr = ThresholdExpr::parse(&c.preset_expression)?;
    let e = fold(expr.tree(), Some(&consts));
    let p = fold(pexpr.tree(), Some(&consts));
    let mut chars = c.subdivision.chars();
    let mut margins = c.margins.iter();
    let mut leaves = 0u64;
    let mut stack: Vec<Bx> = vec![domain.root()];
    let mut min_seen = f64::INFINITY;
    while let Some(b) = stack.pop() {
        let Some(ch) = chars.next() else {
            return reject(
                "the subdivision ends before every box is covered".into(),
                leaves,
            );
        };
        match ch {
            'L' => {
                leaves += 1;
                let Some(&m) = margins.next() else {
                    return reject("fewer margins than proven leaves".into(), leaves);
                };
                if m.is_nan() || m < 0.0 {
                    return reject(
                        format!("leaf {leaves}: recorded margin {m:e} is not >= 0"),
                        leaves,
                    );
                }
                let got = leaf_margin(&e, &p, &b);
                if got.is_nan() || got < m {
                    return reject(
                        format!(
                            "leaf {leaves}: the certified lower bound of threshold - preset is {got:e}, below the recorded {m:e}"
                        ),
                        leaves,
                    );
                }
                min_seen = min_seen.min(m);
            }
            'U' => {
                if !unreachable(&b) {
                    return reject(
                        format!("a box marked unreachable is reachable (leaf after {leaves})"),
                        leaves,
                    );
                }
            }
            other => {
                let Some(f) = free_of_letter(other) else {
                    return reject(format!("unknown subdivision letter `{other}`"), leaves);
                };
                let Some((l, r)) = split(&b, f) else {
                    return reject(format!("a box cannot be split along {}", f.name), leaves);
                };
                stack.push(r);
                stack.push(l);
            }
        }
    }
    if chars.next().is_some() {
        return reject("the subdivision has more entries than boxes".into(), leaves);
    }
    if margins.next().is_some() {
        return reject("more margins than proven leaves".into(), leaves);
    }
    if min_seen != c.min_margin && leaves > 0 {
        return reject(
            format!(
                "min_margin {:e} is not the smallest recorded margin {min_seen:e}",
                c.min_margin
            ),
            leaves,
        );
    }
    Ok(CheckReport {
        valid: true,
        message: c.statement(),
        leaves,
    })
}
