//! The difference `E − P` of two expressions on a box, simplified before interval evaluation so
//! that the dependency between them is not lost (`(P + 0.1) − P` encloses `0.1`, not
//! `0.1 ± width(P)`).
//!
//! # Rules
//! * `ifge(x, y, a, b)` in `E` or `P` whose test is decided on the box (by the enclosures of
//!   `x` and `y`) is replaced by its branch; undecided, the difference is the hull over the
//!   branches (pairing the branches when `E` and `P` test the same condition).
//! * `min(A, B) − P = min(A − P, B − P)`, `max(A, B) − P = max(A − P, B − P)`,
//!   `E − min(A, B) = max(E − A, E − B)`, `E − max(A, B) = min(E − A, E − B)`.
//! * Otherwise both sides are flattened into linear combinations `Σ c_i T_i + c_0` over `+`,
//!   `−`, unary minus and products or quotients by constants, with interval coefficients (so
//!   `0.999·P` keeps the rounding of `0.999·2`); identical subtrees `T_i` are merged and
//!   subtrees whose coefficients cancel exactly are dropped.
//!
//! # Soundness
//! Each rule is an identity of real numbers wherever `E` and `P` are real-valued; the proofs
//! apply it only on boxes where the enclosures of `E` and `P` are finite (NaN-free), so every
//! dropped term is a real number there and the identities hold. Coefficients and the remaining
//! terms are enclosed with outward rounding.

use crate::threshold::expr::{BinaryFn, Bx, Node, UnaryFn, enclose};
use crate::threshold::interval::Interval;

/// Case splits (branch pairs, `min`/`max` distributions) one difference may make; past it the
/// rest is flattened as it stands (still sound, only less tight).
const MAX_CASES: u32 = 256;

/// An enclosure of `E − P` on the box (module docs).
pub(crate) fn difference(e: &Node, p: &Node, b: &Bx) -> Interval {
    let mut fuel = MAX_CASES;
    diff(e, p, b, &mut fuel)
}

fn diff(e: &Node, p: &Node, b: &Bx, fuel: &mut u32) -> Interval {
    if *fuel == 0 {
        return linear_difference(e, p, b);
    }
    *fuel -= 1;
    if let Node::IfGe(v) = e {
        let [x, y, a, c] = &**v;
        match Interval::compare_ge(enclose(x, b), enclose(y, b)) {
            Some(true) => return diff(a, p, b, fuel),
            Some(false) => return diff(c, p, b, fuel),
            None => {
                if let Node::IfGe(w) = p {
                    if w[0] == *x && w[1] == *y {
                        return Interval::hull(diff(a, &w[2], b, fuel), diff(c, &w[3], b, fuel));
                    }
                }
                return Interval::hull(diff(a, p, b, fuel), diff(c, p, b, fuel));
            }
        }
    }
    if let Node::IfGe(w) = p {
        let [x, y, a, c] = &**w;
        return match Interval::compare_ge(enclose(x, b), enclose(y, b)) {
            Some(true) => diff(e, a, b, fuel),
            Some(false) => diff(e, c, b, fuel),
            None => Interval::hull(diff(e, a, b, fuel), diff(e, c, b, fuel)),
        };
    }
    match e {
        Node::Bin(BinaryFn::Min, x, y) => {
            return diff(x, p, b, fuel).min(diff(y, p, b, fuel));
        }
        Node::Bin(BinaryFn::Max, x, y) => {
            return diff(x, p, b, fuel).max(diff(y, p, b, fuel));
        }
        _ => {}
    }
    match p {
        Node::Bin(BinaryFn::Min, x, y) => {
            return diff(e, x, b, fuel).max(diff(e, y, b, fuel));
        }
        Node::Bin(BinaryFn::Max, x, y) => {
            return diff(e, x, b, fuel).min(diff(e, y, b, fuel));
        }
        _ => {}
    }
    linear_difference(e, p, b)
}

/// A linear combination `Σ c_i T_i + c_0` with interval coefficients.
struct Linear<'a> {
    terms: Vec<(&'a Node, Interval)>,
    constant: Interval,
}

impl<'a> Linear<'a> {
    fn collect(&mut self, n: &'a Node, c: Interval) {
        match n {
            Node::Num(v) => self.constant = self.constant.add(c.mul(Interval::point(*v))),
            Node::Bin(BinaryFn::Add, x, y) => {
                self.collect(x, c);
                self.collect(y, c);
            }
            Node::Bin(BinaryFn::Sub, x, y) => {
                self.collect(x, c);
                self.collect(y, c.neg());
            }
            Node::Un(UnaryFn::Neg, x) => self.collect(x, c.neg()),
            Node::Bin(BinaryFn::Mul, x, y) if matches!(**x, Node::Num(_)) => {
                let Node::Num(v) = **x else { unreachable!() };
                self.collect(y, c.mul(Interval::point(v)));
            }
            Node::Bin(BinaryFn::Mul, x, y) if matches!(**y, Node::Num(_)) => {
                let Node::Num(v) = **y else { unreachable!() };
                self.collect(x, c.mul(Interval::point(v)));
            }
            Node::Bin(BinaryFn::Div, x, y) if matches!(**y, Node::Num(_)) => {
                let Node::Num(v) = **y else { unreachable!() };
                self.collect(x, c.div(Interval::point(v)));
            }
            _ => match self.terms.iter_mut().find(|(t, _)| *t == n) {
                Some((_, k)) => *k = k.add(c),
                None => self.terms.push((n, c)),
            },
        }
    }
}

fn linear_difference(e: &Node, p: &Node, b: &Bx) -> Interval {
    let mut lin = Linear {
        terms: Vec::new(),
        constant: Interval::point(0.0),
    };
    lin.collect(e, Interval::point(1.0));
    lin.collect(p, Interval::point(-1.0));
    let mut acc = lin.constant;
    for (t, c) in lin.terms {
        if c.lo == 0.0 && c.hi == 0.0 && !c.nan {
            continue;
        }
        acc = acc.add(c.mul(enclose(t, b)));
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::threshold::expr::{ThresholdExpr, fold, preset};

    fn tree(src: &str) -> Node {
        fold(
            ThresholdExpr::parse(src).expect("parses").tree(),
            Some(&[0.01, 5.0, f64::INFINITY, 0.5]),
        )
    }

    fn bx() -> Bx {
        let mut b = [Interval::point(0.0); 10];
        b[0] = Interval::point(0.01);
        b[1] = Interval::point(5.0);
        b[2] = Interval::point(f64::INFINITY);
        b[3] = Interval::point(0.5);
        b[4] = Interval::new(2.0, 1e7);
        b[5] = Interval::new(1.0, 1e7);
        b[6] = Interval::new(1.0, 1e7);
        b[7] = Interval::new(1.0, 25.0);
        b[8] = Interval::new(1.0, 25.0);
        b[9] = Interval::new(0.0, 1.0);
        b
    }

    #[test]
    fn shared_terms_cancel_on_the_whole_box() {
        let cg = preset("paper-cg").expect("preset");
        let p = tree(&cg);
        let d = difference(&tree(&format!("{cg} + 0.1")), &p, &bx());
        assert!(d.lo > 0.0999 && d.hi < 0.1001, "{d:?}");
        let d = difference(&tree(&format!("ifge(K, 100, ({cg})/2, {cg})")), &p, &bx());
        assert_eq!((d.lo, d.hi), (0.0, 0.0));
        let d = difference(&tree(&format!("max({cg}, 3)")), &p, &bx());
        assert!(d.lo >= 0.0, "{d:?}");
        // Without the simplification the enclosure is as wide as P itself.
        let e = tree(&format!("{cg} + 0.1"));
        let naive = enclose(&e, &bx()).sub(enclose(&p, &bx()));
        assert!(naive.lo < -1.0);
    }

    #[test]
    fn scaled_presets_keep_their_sign() {
        let cg = preset("paper-cg").expect("preset");
        let d = difference(&tree(&format!("0.999*{cg}")), &tree(&cg), &bx());
        assert!(d.hi < 0.0, "{d:?}");
    }
}
