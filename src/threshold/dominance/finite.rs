//! Pass 1 of the prover, finiteness ([`prove_finite`]), and the point helpers both passes use:
//! which slots an expression reads, the engine's values at a point of a box, the probe points
//! of a box and how a box is described in a report.

use super::domain::{Bx, FREE, Free, split, unreachable};
use crate::error::Result;
use crate::threshold::ThresholdVars;
use crate::threshold::expr::{Node, ThresholdExpr, enclose};
use crate::threshold::interval::Interval;
use std::time::Instant;

/// Whether the folded tree reads slot `s`.
pub(super) fn reads(n: &Node, s: usize) -> bool {
    match n {
        Node::Num(_) => false,
        Node::Var(v) => *v as usize == s,
        Node::Un(_, a) | Node::PowI(a, _) => reads(a, s),
        Node::Bin(_, a, b) => reads(a, s) || reads(b, s),
        Node::H(a, b, c) => reads(a, s) || reads(b, s) || reads(c, s),
        Node::IfGe(v) => v.iter().any(|x| reads(x, s)),
    }
}

/// The engine's values at a point of a box.
pub(super) fn vars_at(b: &Bx) -> ThresholdVars {
    ThresholdVars {
        delta: b[0].lo,
        k: b[1].lo,
        eps: b[2].lo,
        sigma: b[3].lo,
        t: b[4].lo,
        na: b[5].lo,
        nb: b[6].lo,
        ka: b[7].lo,
        kb: b[8].lo,
        gap: b[9].lo,
    }
}

/// Points of a box checked in floating point: the midpoint and the two extreme corners, each
/// made reachable (`t >= na + nb + K − 2`) or dropped.
pub(super) fn probe_points(b: &Bx) -> Vec<Bx> {
    let mid = |f: &Free| {
        let iv = b[f.slot];
        if f.integer {
            (iv.lo * iv.hi).sqrt().round().clamp(iv.lo, iv.hi)
        } else if iv.hi.is_infinite() {
            (2.0 * iv.lo).max(1.0)
        } else if f.slot == 0 && iv.lo > 0.0 {
            (iv.lo * iv.hi).sqrt().clamp(iv.lo, iv.hi)
        } else {
            0.5 * (iv.lo + iv.hi)
        }
    };
    let mut out = Vec::with_capacity(3);
    for which in 0..3 {
        let mut p = *b;
        for f in &FREE {
            let iv = b[f.slot];
            let v = match which {
                0 => mid(f),
                1 => iv.lo,
                _ => {
                    if iv.hi.is_finite() {
                        iv.hi
                    } else {
                        mid(f)
                    }
                }
            };
            p[f.slot] = Interval::point(v);
        }
        let need = p[5].lo + p[6].lo + p[1].lo - 2.0;
        if p[4].lo < need {
            if need > b[4].hi {
                continue;
            }
            p[4] = Interval::point(need);
        }
        out.push(p);
    }
    out
}

/// `[lo, hi]` per free variable, for messages.
pub(super) fn region(b: &Bx) -> Vec<(String, [f64; 2])> {
    FREE.iter()
        .map(|f| (f.name.to_string(), [b[f.slot].lo, b[f.slot].hi]))
        .collect()
}

pub(super) fn describe_box(b: &Bx) -> String {
    region(b)
        .iter()
        .map(|(n, [l, h])| {
            if l == h {
                format!("{n} = {l}")
            } else {
                format!("{n} in [{l}, {h}]")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The budgets of a proof.
pub(super) struct Budget {
    pub(super) start: Instant,
    pub(super) boxes: u64,
    pub(super) max_boxes: u64,
    pub(super) max_seconds: f64,
}

impl Budget {
    pub(super) fn exhausted(&self) -> bool {
        self.boxes >= self.max_boxes || self.start.elapsed().as_secs_f64() > self.max_seconds
    }
}

/// Pass 1: proves `E` finite on the domain, or returns the error naming a point where the
/// engine's value is NaN or ±∞; `Ok(Some(box))` when the budget ran out or a box could not be
/// split before finiteness was proven there.
pub(super) fn prove_finite(
    expr: &ThresholdExpr,
    e: &Node,
    root: Bx,
    free: &[Free],
    budget: &mut Budget,
) -> Result<Option<(Bx, String)>> {
    let mut stack = vec![root];
    while let Some(b) = stack.pop() {
        if unreachable(&b) {
            continue;
        }
        budget.boxes += 1;
        for p in probe_points(&b) {
            let v = vars_at(&p);
            let x = expr.eval(&v);
            if !x.is_finite() {
                return Err(crate::threshold::probe::describe(expr.source(), &v, x));
            }
        }
        if enclose(e, &b).is_finite() {
            continue;
        }
        if budget.exhausted() {
            return Ok(Some((
                b,
                "the budget ran out before the threshold was proven finite".into(),
            )));
        }
        // Split where a child becomes finite; else along the relatively widest variable.
        let mut best: Option<(u8, f64, Bx, Bx)> = None;
        for f in free {
            let Some((l, r)) = split(&b, *f) else {
                continue;
            };
            let fin = u8::from(enclose(e, &l).is_finite()) + u8::from(enclose(e, &r).is_finite());
            let iv = b[f.slot];
            let width = if f.integer || (f.slot == 0 && iv.lo > 0.0) {
                (iv.hi / iv.lo).ln()
            } else {
                (iv.hi - iv.lo).min(1e300)
            };
            if best
                .as_ref()
                .is_none_or(|(bf, bw, _, _)| fin > *bf || (fin == *bf && width > *bw))
            {
                best = Some((fin, width, l, r));
            }
        }
        match best {
            Some((_, _, l, r)) => {
                stack.push(r);
                stack.push(l);
            }
            None => {
                return Ok(Some((
                    b,
                    "the threshold's enclosure is not finite on a box that cannot be split further"
                        .into(),
                )));
            }
        }
    }
    Ok(None)
}
