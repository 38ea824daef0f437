//! `dpbai audit delta --threshold EXPR --dominates PRESET`: proof by dominance, with a
//! certificate that [`check_certificate`] re-verifies.
//!
//! # Why a proof
//! The δ-correctness lemmas of the provable presets bound `P(∃t: W_t(â, b) >= c_t, â ≠ a*)`,
//! where `c` is the preset. If a user threshold `E` satisfies `E >= c` at every point a run can
//! reach, a run that stops under `E` (`W >= E`) has `W >= c` at that time too, so the error
//! event under `E` is contained in the event the lemma bounds: `E` inherits the lemma.
//!
//! # What is proven, under which assumptions
//! `E(x)` is finite and `E(x) >= P(x)` for every `x` in the box `B` of the assumptions
//! ([`Assumptions`]): `δ ∈ [δ_min, δ_max]`, `K ∈ [K_min, K_max]` (integers), and the run domain
//! given as data ([`RunDomain`]): `ε` in a range (`+∞` alone for a non-private algorithm; a
//! finite `ε` is **required** for a preset that reads `ε`), `σ` in a range (the `σ` the rule
//! reads), `gap ∈ [0, gap_max]` (or `[0, ∞)`), counts `1 <= na, nb <= M` and time
//! `2 <= t <= M` (integers, `t >= na + nb + K − 2`: the other arms were pulled at least once),
//! phase indices `1 <= ka, kb <= ⌊log2 M⌋ + 2`, `M` = the runs' cap. This layer knows no
//! algorithm: which algorithms' runs a domain covers, and the domain each declares, are
//! `crate::audit::proof`'s (from `crate::bandit::info`). The statement is about the paper rules'
//! statistic `W^G` (the lemma's). The expressions are real-valued functions: the engine
//! evaluates them in floating point, within rounding of these values.
//!
//! # Method
//! 1. **Finiteness first.** Interval branch and bound on `E` alone: a box is done when the
//!    outward-rounded enclosure of `E` is finite and NaN-free; at each box the midpoint and the
//!    two extreme corners are evaluated as the engine would (floating point), and a NaN or ±∞
//!    there is an error naming the point ([`crate::Error::Threshold`], as `dpbai run --threshold`).
//! 2. **Dominance.** Branch and bound on boxes, worst bound first: a box is proven when `E`
//!    and `P` have finite enclosures and a certified lower bound of `E − P` is `>= 0`
//!    (`domain::leaf_margin`: the simplified difference of `simplify`, which cancels the
//!    subexpressions `E` shares with the preset and decides `ifge`/`min`/`max` on the box).
//!    Otherwise points are checked for a counterexample, certified by point enclosures
//!    (`upper(E) < lower(P)` there), and the box is split along the variable whose split most
//!    raises the worse child's bound (integers at the geometric midpoint).
//! 3. **Certificate.** A proof records its subdivision (the split tree, in preorder) and each
//!    leaf's certified margin; [`check_certificate`] rebuilds every box from the assumptions,
//!    recomputes every leaf's criterion and accepts only if each recomputed margin is at least
//!    the recorded one and every recorded margin is `>= 0`.
//!
//! The answer is `undecided` when a box cannot be split further or the box budget (or the
//! optional time budget) runs out; never `proven` on a budget.
//!
//! # Memory
//! At most about `250·max_boxes` bytes: each pending box holds eight intervals, and the split
//! tree two 16-byte nodes per processed box ([`DominanceConfig::max_boxes`] is capped at
//! [`MAX_BOXES`], so below 1 GB).
//!
//! # Files
//! `domain` (the box, its subdivision, the leaf criterion), `finite` (pass 1 and the point
//! helpers), `simplify` (the difference `E − P`), `certificate` (the certificate and its
//! checker); this file holds the assumptions, the preset checks and pass 2.

mod certificate;
mod config;
mod domain;
mod finite;
mod simplify;

pub use certificate::{CERTIFICATE_FORMAT, Certificate, CheckReport, check_certificate};
pub use config::{
    Assumptions, DEFAULT_BOXES, DominanceConfig, MAX_BOXES, ProofFamily, RunDomain, RunParameters,
    lemma_of,
};

use crate::error::Result;
use crate::threshold::expr::{ThresholdExpr, enclose, fold};
use config::validate;
use domain::{Bx, FREE, Free, TreeNode, leaf_margin, split, unreachable};
use finite::{Budget, describe_box, probe_points, prove_finite, reads, region, vars_at};
use serde::Serialize;
use std::collections::BinaryHeap;
use std::time::Instant;

/// The answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "lowercase", tag = "answer")]
pub enum Dominance {
    /// `E >= P` on the whole box: δ-correct by the preset's lemma.
    Proven {
        /// The lemma inherited.
        lemma: String,
        /// The smallest certified lower bound of `E − P` over the leaves (`>= 0`).
        min_margin: f64,
    },
    /// A reachable point where `E < P` (certified by point enclosures).
    Counterexample {
        /// The point.
        point: PointValues,
        /// `E` there.
        expr: f64,
        /// `P` there.
        preset: f64,
    },
    /// Neither could be established.
    Undecided {
        /// Why.
        reason: String,
        /// The box where it stopped (`[lo, hi]` per variable).
        region: Vec<(String, [f64; 2])>,
    },
}

/// A point of the box.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PointValues {
    /// `δ`.
    pub delta: f64,
    /// `K`.
    pub k: f64,
    /// Count of arm `a`.
    pub na: f64,
    /// Count of arm `b`.
    pub nb: f64,
    /// Time.
    pub t: f64,
    /// Phase of `a`.
    pub ka: f64,
    /// Phase of `b`.
    pub kb: f64,
    /// Empirical gap.
    pub gap: f64,
}

/// Result with statistics.
#[derive(Debug, Clone, Serialize)]
pub struct DominanceReport {
    /// The user expression.
    pub expr: String,
    /// The preset name.
    pub preset: String,
    /// The answer.
    pub result: Dominance,
    /// What the answer assumes.
    pub assumptions: Assumptions,
    /// Boxes processed (both passes).
    pub boxes: u64,
    /// Seconds.
    pub seconds: f64,
    /// The certificate of a proof ([`check_certificate`] re-verifies it).
    pub certificate: Option<Certificate>,
}

#[derive(Debug, Clone)]
struct Cell {
    /// The certified lower bound of `E − P` (−∞ when unknown).
    margin: f64,
    node: u32,
    b: Bx,
}

impl PartialEq for Cell {
    fn eq(&self, o: &Self) -> bool {
        self.margin.total_cmp(&o.margin).is_eq()
    }
}
impl Eq for Cell {}
impl PartialOrd for Cell {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Cell {
    /// Max-heap on the *worst* margin first.
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.margin.total_cmp(&self.margin)
    }
}

/// Proves or refutes `expr >= preset` on the domain of `cfg` (module docs).
///
/// # Errors
/// [`crate::Error::InvalidParameter`] for an unknown or non-provable preset, `δ` outside
/// `[1e-300, 1)` or `δ_min > δ`, `K` outside `[2, 10⁵]`, `max_steps < 2`, `σ` outside
/// `[1e-50, 1e50]` (or `≠ 1/2` for Bernoulli arms), `ε` outside `[1e-100, 1e100]` (or absent
/// for a preset that reads `ε`), an algorithm the preset's lemma does not cover, or a budget
/// out of range; [`crate::Error::Threshold`] naming a point where the threshold is NaN or ±∞.
///
/// # Example
/// ```
/// use dpbai::threshold::dominance::{dominates, Dominance, DominanceConfig};
/// use dpbai::threshold::expr::{parse_threshold, preset};
/// let e = parse_threshold(&format!("{} + 0.1", preset("paper-cg").unwrap())).unwrap();
/// let r = dominates(&e, "paper-cg", &DominanceConfig::new(0.01, 5, 1_000_000)).unwrap();
/// assert!(matches!(r.result, Dominance::Proven { .. }));
/// assert!(dpbai::threshold::dominance::check_certificate(r.certificate.as_ref().unwrap()).unwrap().valid);
/// ```
pub fn dominates(
    expr: &ThresholdExpr,
    preset_name: &str,
    cfg: &DominanceConfig,
) -> Result<DominanceReport> {
    let (pexpr, lemma) = validate(preset_name, cfg)?;
    let assumptions = Assumptions::of(cfg);
    let domain = cfg.domain();
    let consts = domain.constants();
    let e = fold(expr.tree(), Some(&consts));
    let p = fold(pexpr.tree(), Some(&consts));
    let free: Vec<Free> = FREE
        .iter()
        .copied()
        .filter(|f| reads(&e, f.slot) || reads(&p, f.slot))
        .collect();
    let mut budget = Budget {
        start: Instant::now(),
        boxes: 0,
        max_boxes: cfg.max_boxes,
        max_seconds: cfg.max_seconds,
    };
    let report = |result: Dominance, boxes: u64, start: Instant, cert: Option<Certificate>| {
        DominanceReport {
            expr: expr.source().to_string(),
            preset: preset_name.to_string(),
            result,
            assumptions: assumptions.clone(),
            boxes,
            seconds: start.elapsed().as_secs_f64(),
            certificate: cert,
        }
    };
    let root = domain.root();
    if let Some((b, why)) = prove_finite(expr, &e, root, &free, &mut budget)? {
        return Ok(report(
            Dominance::Undecided {
                reason: format!("{why} (at {})", describe_box(&b)),
                region: region(&b),
            },
            budget.boxes,
            budget.start,
            None,
        ));
    }
    // Pass 2: dominance.
    let mut tree: Vec<TreeNode> = vec![TreeNode::Open];
    let mut heap = BinaryHeap::new();
    heap.push(Cell {
        margin: leaf_margin(&e, &p, &root),
        node: 0,
        b: root,
    });
    while let Some(cell) = heap.pop() {
        if cell.margin >= 0.0 {
            // The worst remaining box is proven, hence all are.
            tree[cell.node as usize] = TreeNode::Leaf(cell.margin);
            for c in heap.drain() {
                tree[c.node as usize] = TreeNode::Leaf(c.margin);
            }
            break;
        }
        budget.boxes += 1;
        for pt in probe_points(&cell.b) {
            let (ie, ip) = (enclose(&e, &pt), enclose(&p, &pt));
            if ie.is_finite() && ip.is_finite() && ie.hi < ip.lo {
                let v = vars_at(&pt);
                return Ok(report(
                    Dominance::Counterexample {
                        point: PointValues {
                            delta: v.delta,
                            k: v.k,
                            na: v.na,
                            nb: v.nb,
                            t: v.t,
                            ka: v.ka,
                            kb: v.kb,
                            gap: v.gap,
                        },
                        expr: expr.eval(&v),
                        preset: pexpr.eval(&v),
                    },
                    budget.boxes,
                    budget.start,
                    None,
                ));
            }
        }
        if budget.exhausted() {
            return Ok(report(
                Dominance::Undecided {
                    reason: format!(
                        "budget exhausted after {} boxes ({:.1} s) with worst margin {:.3e}",
                        budget.boxes,
                        budget.start.elapsed().as_secs_f64(),
                        cell.margin
                    ),
                    region: region(&cell.b),
                },
                budget.boxes,
                budget.start,
                None,
            ));
        }
        // Split along the variable whose split best raises the worse child; when no split
        // raises it, along the relatively widest variable (so every variable gets split).
        let mut best: Option<(f64, Free, Bx, Bx, f64, f64)> = None;
        let mut widest: Option<(f64, Free, Bx, Bx, f64, f64)> = None;
        for f in &free {
            let Some((bl, br)) = split(&cell.b, *f) else {
                continue;
            };
            let ml = if unreachable(&bl) {
                f64::INFINITY
            } else {
                leaf_margin(&e, &p, &bl)
            };
            let mr = if unreachable(&br) {
                f64::INFINITY
            } else {
                leaf_margin(&e, &p, &br)
            };
            let score = ml.min(mr);
            let iv = cell.b[f.slot];
            let width = if f.integer || (f.slot == 0 && iv.lo > 0.0) {
                (iv.hi / iv.lo).ln()
            } else if iv.hi.is_infinite() {
                f64::MAX
            } else {
                (iv.hi - iv.lo) / cell.b[9].hi.clamp(1e-300, 1.0)
            };
            if widest.as_ref().is_none_or(|w| width > w.0) {
                widest = Some((width, *f, bl, br, ml, mr));
            }
            if best.as_ref().is_none_or(|w| score > w.0) {
                best = Some((score, *f, bl, br, ml, mr));
            }
        }
        if best.as_ref().is_some_and(|w| w.0 <= cell.margin) {
            best = widest;
        }
        let Some((_, f, bl, br, ml, mr)) = best else {
            return Ok(report(
                Dominance::Undecided {
                    reason: format!(
                        "a box cannot be split further (margin {:.3e}): the enclosures are too wide there, or the two thresholds are within rounding of each other",
                        cell.margin
                    ),
                    region: region(&cell.b),
                },
                budget.boxes,
                budget.start,
                None,
            ));
        };
        let (li, ri) = (tree.len() as u32, tree.len() as u32 + 1);
        tree[cell.node as usize] = TreeNode::Split {
            letter: f.letter,
            left: li,
            right: ri,
        };
        for (b, m, idx) in [(bl, ml, li), (br, mr, ri)] {
            if unreachable(&b) {
                tree.push(TreeNode::Unreachable);
            } else {
                tree.push(TreeNode::Open);
                heap.push(Cell {
                    margin: m,
                    node: idx,
                    b,
                });
            }
        }
    }
    let cert = Certificate::from_tree(
        expr.source(),
        preset_name,
        &lemma,
        assumptions.clone(),
        &tree,
    );
    let min_margin = cert.min_margin;
    Ok(report(
        Dominance::Proven { lemma, min_margin },
        budget.boxes,
        budget.start,
        Some(cert),
    ))
}

#[cfg(test)]
mod tests;
