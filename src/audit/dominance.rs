//! `dpbai audit delta --threshold EXPR --dominates PRESET`: proof by dominance.
//!
//! # Why a proof
//! The δ-correctness lemmas of the provable presets bound `P(∃t: W_t(â, b) >= c_t, â ≠ a*)`,
//! where `c` is the preset. If a user threshold `E` satisfies `E >= c` at every point a run can
//! reach, a run that stops under `E` (`W >= E`) has `W >= c` at that time too, so the error
//! event under `E` is contained in the event the lemma bounds: `E` inherits the lemma.
//!
//! # What is proven
//! `E(x) >= P(x)` for every `x` in the box `B`: counts `1 <= na, nb <= M` (integers), time
//! `2 <= t <= M`, phase indices `1 <= ka, kb <= k(M) = log2 M + 2`, `gap ∈ [0, 1]`, with `δ`,
//! `K`, `ε`, `σ` fixed, `M` = max-steps. Every point a run capped at `M` steps can reach lies in
//! `B` (boxes with `na + nb > M` are unreachable and dropped; with the paper's statistic; `gap` is `(μ̃_a − μ̃_b)_+` of estimates in `[0, 1]` for
//! rewards in `[0, 1]`; widen it with [`DominanceConfig::gap_max`] for Gaussian arms). A point
//! where `E` is NaN is fine (NaN means "do not stop"); `P` must be defined.
//!
//! # Method
//! Branch and bound on boxes with the interval enclosures of [`crate::audit::interval`]
//! (outward rounding): a box is proven when `lower(E) >= upper(P)` there; otherwise the
//! midpoint (integers rounded, `t >= na + nb` enforced) is evaluated in floating point, and a
//! point with `P − E > 1e-9·max(1, |P|)` is returned as a counterexample; else the box is split
//! in two along the variable whose split most raises the worse child's bound (integers at the
//! geometric midpoint). Boxes are processed worst bound first. The answer is `undecided` when a
//! box cannot be split further (integer variables at single values, `gap` width below `1e-12`),
//! or the box or time budget runs out.

use crate::audit::expr::{fold, preset, Node, ThresholdExpr, PRESETS};
use crate::audit::interval::{eval, Interval};
use crate::bandit::ThresholdVars;
use crate::error::{check_open, Error, Result};
use serde::Serialize;
use std::collections::BinaryHeap;
use std::time::Instant;

/// Settings of a dominance proof.
#[derive(Debug, Clone, PartialEq)]
pub struct DominanceConfig {
    /// Risk `δ`.
    pub delta: f64,
    /// Number of arms `K`.
    pub k: usize,
    /// `ε` (`+∞` for non-private algorithms).
    pub eps: f64,
    /// `σ` of the rule.
    pub sigma: f64,
    /// Step cap `M`: counts and `t` range up to it.
    pub max_steps: u64,
    /// Upper end of the `gap` range (`1` for rewards in `[0, 1]`).
    pub gap_max: f64,
    /// Boxes processed at most.
    pub max_boxes: u64,
    /// Seconds at most.
    pub max_seconds: f64,
}

impl DominanceConfig {
    /// Defaults: `ε = +∞`, `σ = 1/2`, `gap ∈ [0, 1]`, 5·10⁶ boxes, 60 s.
    pub fn new(delta: f64, k: usize, max_steps: u64) -> Self {
        DominanceConfig {
            delta,
            k,
            eps: f64::INFINITY,
            sigma: 0.5,
            max_steps,
            gap_max: 1.0,
            max_boxes: 5_000_000,
            max_seconds: 60.0,
        }
    }
}

/// The answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "lowercase", tag = "answer")]
pub enum Dominance {
    /// `E >= P` on the whole box: δ-correct by the preset's lemma.
    Proven {
        /// The lemma inherited.
        lemma: String,
    },
    /// A reachable point where `E < P`.
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
        /// The box where it stopped (`[lo, hi]` per variable, `na, nb, t, ka, kb, gap`).
        region: Vec<(String, [f64; 2])>,
    },
}

/// A point of the box.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PointValues {
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
    /// Boxes processed.
    pub boxes: u64,
    /// Seconds.
    pub seconds: f64,
}

/// Slots of the free variables (order of [`ThresholdVars`]'s evaluation slots).
const FREE: [(usize, &str, bool); 6] = [
    (5, "na", true),
    (6, "nb", true),
    (4, "t", true),
    (7, "ka", true),
    (8, "kb", true),
    (9, "gap", false),
];

#[derive(Debug, Clone)]
struct Cell {
    /// `lower(E) − upper(P)` (NaN-free; −∞ when unknown).
    margin: f64,
    b: [Interval; 10],
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

fn margin(e: &Node, p: &Node, b: &[Interval; 10]) -> f64 {
    let ie = eval(e, b);
    let ip = eval(p, b);
    if ip.nan || ip.is_empty() {
        return f64::NEG_INFINITY;
    }
    if ie.is_empty() {
        // E is NaN on the whole box: never stops there.
        return f64::INFINITY;
    }
    let m = ie.lo - ip.hi;
    if m.is_nan() {
        f64::NEG_INFINITY
    } else {
        m
    }
}

/// Splits `iv` in two (geometric midpoint for integer variables, arithmetic for `gap`);
/// `None` when it cannot be split.
fn split(iv: Interval, integer: bool) -> Option<(Interval, Interval)> {
    if integer {
        let (lo, hi) = (iv.lo, iv.hi);
        if hi - lo < 1.0 {
            return None;
        }
        let mid = (lo * hi).sqrt().floor().clamp(lo, hi - 1.0);
        Some((Interval::new(lo, mid), Interval::new(mid + 1.0, hi)))
    } else {
        if iv.hi - iv.lo < 1e-12 {
            return None;
        }
        let mid = 0.5 * (iv.lo + iv.hi);
        Some((Interval::new(iv.lo, mid), Interval::new(mid, iv.hi)))
    }
}

/// The lemma a provable preset carries (`None` for the empirical and unsafe ones).
pub fn lemma_of(name: &str) -> Option<String> {
    let p = PRESETS.iter().find(|p| p.name == name)?;
    p.provable.then(|| {
        let what = match name {
            "paper-cg" => "Eq. (4) with Lemma 35 (Kaufmann & Koolen 2021, Thm. 9): δ-correct for TTUCB, CTB-TT, Gaussian-mechanism TTUCB",
            "paper-daf-inf" => "Lemma 34: δ-correct for DAF(ε = ∞) / DPA-TT",
            "paper-adap-tt" => "Lemma 21 (Eq. (12)): δ-correct for AdaP-TT",
            "paper-adap-tt-star" => "Lemma 23 (Eq. (14), k² form, MATH.md ISSUE 16): δ-correct for AdaP-TT*",
            _ => p.description,
        };
        what.to_string()
    })
}

/// Proves or refutes `expr >= preset` on the reachable box (module docs).
///
/// # Errors
/// [`Error::InvalidParameter`] for an unknown or non-provable preset, `δ ∉ (0, 1)`, `K < 2`,
/// `max_steps < 2`, `σ <= 0` or `ε <= 0`, or a zero budget.
///
/// # Example
/// ```
/// use dpbai::audit::dominance::{dominates, Dominance, DominanceConfig};
/// use dpbai::audit::expr::{parse_threshold, preset};
/// let e = parse_threshold(&format!("{} + 0.1", preset("paper-cg").unwrap())).unwrap();
/// let r = dominates(&e, "paper-cg", &DominanceConfig::new(0.01, 5, 1_000_000)).unwrap();
/// assert!(matches!(r.result, Dominance::Proven { .. }));
/// ```
pub fn dominates(
    expr: &ThresholdExpr,
    preset_name: &str,
    cfg: &DominanceConfig,
) -> Result<DominanceReport> {
    let lemma = lemma_of(preset_name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS
            .iter()
            .filter(|p| p.provable)
            .map(|p| p.name)
            .collect();
        Error::param(
            "dominates",
            preset_name,
            format!("a provable preset: {}", names.join(", ")),
        )
    })?;
    check_open("delta", cfg.delta, 0.0, 1.0)?;
    if cfg.k < 2 {
        return Err(Error::param("K", cfg.k, "an integer >= 2"));
    }
    if cfg.max_steps < 2 {
        return Err(Error::param("max_steps", cfg.max_steps, "at least 2"));
    }
    if !(cfg.sigma > 0.0 && cfg.sigma.is_finite()) {
        return Err(Error::param("sigma", cfg.sigma, "a finite number > 0"));
    }
    if cfg.eps.is_nan() || cfg.eps <= 0.0 {
        return Err(Error::param("eps", cfg.eps, "> 0 (+inf for non-private)"));
    }
    if !(cfg.gap_max >= 0.0 && cfg.gap_max.is_finite()) || cfg.max_boxes == 0 {
        return Err(Error::param(
            "gap_max, max_boxes",
            format!("{}, {}", cfg.gap_max, cfg.max_boxes),
            "gap_max finite >= 0, max_boxes >= 1",
        ));
    }
    let ptext = preset(preset_name).expect("invariant: provable presets exist");
    let pexpr = ThresholdExpr::parse(&ptext)?;
    let consts = [cfg.delta, cfg.k as f64, cfg.eps, cfg.sigma];
    let e = fold(expr.tree(), Some(&consts));
    let p = fold(pexpr.tree(), Some(&consts));
    let start = Instant::now();
    let report = |result: Dominance, boxes: u64| DominanceReport {
        expr: expr.source().to_string(),
        preset: preset_name.to_string(),
        result,
        boxes,
        seconds: start.elapsed().as_secs_f64(),
    };
    if e == p {
        return Ok(report(Dominance::Proven { lemma }, 0));
    }
    let m = cfg.max_steps as f64;
    let kmax = m.log2().floor() + 2.0;
    let mut b0 = [Interval::point(0.0); 10];
    for (i, c) in consts.iter().enumerate() {
        b0[i] = Interval::point(*c);
    }
    b0[4] = Interval::new(2.0, m);
    b0[5] = Interval::new(1.0, m);
    b0[6] = Interval::new(1.0, m);
    b0[7] = Interval::new(1.0, kmax);
    b0[8] = Interval::new(1.0, kmax);
    b0[9] = Interval::new(0.0, cfg.gap_max);
    // Only split the variables the two expressions read.
    let reads = |slot: usize| {
        let name = FREE.iter().find(|f| f.0 == slot).map(|f| f.1).unwrap_or("");
        expr.uses(name) || pexpr.uses(name)
    };
    let free: Vec<(usize, &str, bool)> = FREE.iter().copied().filter(|f| reads(f.0)).collect();
    let bound = expr.bind(cfg.delta, cfg.k as f64, cfg.eps, cfg.sigma)?;
    let pbound = pexpr.bind(cfg.delta, cfg.k as f64, cfg.eps, cfg.sigma)?;
    let mut heap = BinaryHeap::new();
    heap.push(Cell {
        margin: margin(&e, &p, &b0),
        b: b0,
    });
    let mut boxes = 0u64;
    let region = |b: &[Interval; 10]| {
        FREE.iter()
            .map(|(s, n, _)| (n.to_string(), [b[*s].lo, b[*s].hi]))
            .collect::<Vec<_>>()
    };
    while let Some(cell) = heap.pop() {
        boxes += 1;
        if cell.margin >= 0.0 {
            // The worst remaining box is proven, hence all are.
            heap.clear();
            break;
        }
        // Midpoint check for a counterexample.
        let mid = |s: usize, integer: bool| {
            let iv = cell.b[s];
            if integer {
                (iv.lo * iv.hi).sqrt().round().clamp(iv.lo, iv.hi)
            } else {
                0.5 * (iv.lo + iv.hi)
            }
        };
        // The midpoint and the lower corner of the counts (reachable: na + nb <= t <= M).
        let g = cell.b[9];
        for (na, nb, gap) in [
            (mid(5, true), mid(6, true), mid(9, false)),
            (cell.b[5].lo, cell.b[6].lo, mid(9, false)),
            (cell.b[5].lo, cell.b[6].lo, g.lo),
            (cell.b[5].lo, cell.b[6].lo, g.hi),
        ] {
            let t = mid(4, true).max(na + nb);
            if t > cell.b[4].hi {
                continue;
            }
            let v = ThresholdVars {
                delta: cfg.delta,
                k: cfg.k as f64,
                eps: cfg.eps,
                sigma: cfg.sigma,
                t,
                na,
                nb,
                ka: mid(7, true),
                kb: mid(8, true),
                gap,
            };
            let (ve, vp) = (bound.eval(&v), pbound.eval(&v));
            if !ve.is_nan() && !vp.is_nan() && vp - ve > 1e-9 * vp.abs().max(1.0) {
                return Ok(report(
                    Dominance::Counterexample {
                        point: PointValues {
                            na,
                            nb,
                            t,
                            ka: v.ka,
                            kb: v.kb,
                            gap: v.gap,
                        },
                        expr: ve,
                        preset: vp,
                    },
                    boxes,
                ));
            }
        }
        if boxes >= cfg.max_boxes || start.elapsed().as_secs_f64() > cfg.max_seconds {
            return Ok(report(
                Dominance::Undecided {
                    reason: format!(
                        "budget exhausted after {boxes} boxes ({:.1} s) with worst margin {:.3e}",
                        start.elapsed().as_secs_f64(),
                        cell.margin
                    ),
                    region: region(&cell.b),
                },
                boxes,
            ));
        }
        // Split along the variable whose split best raises the worse child; when no split
        // raises it, along the relatively widest variable (so every variable gets split).
        let mut best: Option<(f64, Cell, Cell)> = None;
        let mut widest: Option<(f64, Cell, Cell)> = None;
        for &(s, _, integer) in &free {
            let Some((l, r)) = split(cell.b[s], integer) else {
                continue;
            };
            let (mut bl, mut br) = (cell.b, cell.b);
            bl[s] = l;
            br[s] = r;
            // A box with na + nb > M is unreachable: nothing to prove there.
            let reach = |b: &[Interval; 10]| b[5].lo + b[6].lo <= m;
            let ml = if reach(&bl) {
                margin(&e, &p, &bl)
            } else {
                f64::INFINITY
            };
            let mr = if reach(&br) {
                margin(&e, &p, &br)
            } else {
                f64::INFINITY
            };
            let score = ml.min(mr);
            let iv = cell.b[s];
            let width = if integer {
                (iv.hi / iv.lo).ln()
            } else {
                (iv.hi - iv.lo) / cfg.gap_max.max(1e-300)
            };
            let l = Cell { margin: ml, b: bl };
            let r = Cell { margin: mr, b: br };
            if widest.as_ref().is_none_or(|(w, _, _)| width > *w) {
                widest = Some((width, l.clone(), r.clone()));
            }
            if best.as_ref().is_none_or(|(sc, _, _)| score > *sc) {
                best = Some((score, l, r));
            }
        }
        if best.as_ref().is_some_and(|(sc, _, _)| *sc <= cell.margin) {
            best = widest;
        }
        match best {
            Some((_, l, r)) => {
                heap.push(l);
                heap.push(r);
            }
            None => {
                return Ok(report(
                    Dominance::Undecided {
                        reason: format!(
                            "a box cannot be split further (margin {:.3e}): the enclosures are too wide there, or the two thresholds are within rounding of each other",
                            cell.margin
                        ),
                        region: region(&cell.b),
                    },
                    boxes,
                ))
            }
        }
    }
    Ok(report(Dominance::Proven { lemma }, boxes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::expr::parse_threshold;

    fn run(src: &str) -> DominanceReport {
        let e = parse_threshold(src).expect("parses");
        dominates(&e, "paper-cg", &DominanceConfig::new(0.01, 5, 10_000_000)).expect("runs")
    }

    #[test]
    fn proves_a_larger_threshold() {
        let cg = preset("paper-cg").expect("preset");
        let r = run(&format!("{cg} + 0.1"));
        assert!(matches!(r.result, Dominance::Proven { .. }), "{r:?}");
        assert!(r.seconds < 60.0);
        let r = run("paper-cg");
        assert!(matches!(r.result, Dominance::Proven { .. }));
    }

    #[test]
    fn refutes_a_smaller_threshold() {
        let cg = preset("paper-cg").expect("preset");
        let r = run(&format!("0.999*{cg}"));
        let Dominance::Counterexample { expr, preset, .. } = r.result else {
            panic!("{r:?}")
        };
        assert!(expr < preset);
        // Below the preset only at small gaps.
        let r = run(&format!("ifge(gap, 0.03, {cg} + 1, 0.95*{cg})"));
        let Dominance::Counterexample {
            point,
            expr,
            preset,
        } = r.result
        else {
            panic!("{r:?}")
        };
        assert!(point.gap < 0.03 && expr < preset);
    }

    #[test]
    fn rejects_non_provable_presets() {
        let e = parse_threshold("1").expect("parses");
        let c = DominanceConfig::new(0.01, 5, 1000);
        assert!(dominates(&e, "unsafe-log-over-20", &c).is_err());
        assert!(dominates(&e, "nope", &c).is_err());
    }
}
