//! The interval evaluator of a syntax tree: the natural interval extension built from the
//! outward-rounded operations of [`crate::threshold::interval`] (the proofs by dominance and the
//! lower bound of [`super::ThresholdExpr::bind`]).

use super::parser::{BinaryFn, Node, UnaryFn};
use crate::threshold::interval::Interval;

fn apply1(x: Interval, f: UnaryFn) -> Interval {
    match f {
        UnaryFn::Neg => x.neg(),
        UnaryFn::Abs => x.abs(),
        UnaryFn::Log => x.ln(),
        UnaryFn::Log2 => x.log2(),
        UnaryFn::Sqrt => x.sqrt(),
        UnaryFn::Exp => x.exp(),
        UnaryFn::K => x.k(),
        UnaryFn::Cg => x.cg(),
        UnaryFn::Wbar => x.wbar(),
        UnaryFn::Zeta => x.zeta(),
    }
}

fn apply2(x: Interval, f: BinaryFn, y: Interval) -> Interval {
    match f {
        BinaryFn::Add => x.add(y),
        BinaryFn::Sub => x.sub(y),
        BinaryFn::Mul => x.mul(y),
        BinaryFn::Div => x.div(y),
        BinaryFn::Min => x.min(y),
        BinaryFn::Max => x.max(y),
        BinaryFn::Pow => x.pow(y),
    }
}

/// A box: one interval per variable slot (`delta, K, eps, sigma, t, na, nb, ka, kb, gap`).
pub(crate) type Bx = [Interval; 10];

/// Encloses the values of `node` on the box `vars` (one interval per variable slot, in the
/// order `delta, K, eps, sigma, t, na, nb, ka, kb, gap`).
///
/// # Definition
/// The natural interval extension: each operation applied to the enclosures of its operands,
/// rounded outward ([`crate::threshold::interval`]); `ifge(x, y, a, b)` gives `a` if `x >= y` on
/// the whole box, `b` if `x < y` on the whole box, else the hull of both.
///
/// # Accuracy
/// Sound: for every point of the box the expression's value is enclosed (or NaN with `nan`
/// set). Not tight: dependencies between operands widen the enclosure, which splitting the box
/// reduces.
pub(crate) fn enclose(node: &Node, vars: &Bx) -> Interval {
    match node {
        Node::Num(v) => Interval::point(*v),
        Node::Var(v) => vars[*v as usize],
        Node::Un(f, a) => apply1(enclose(a, vars), *f),
        Node::Bin(f, a, b) => apply2(enclose(a, vars), *f, enclose(b, vars)),
        Node::PowI(a, n) => enclose(a, vars).powi(*n),
        Node::H(x, d, k) => enclose(x, vars).h(enclose(d, vars), enclose(k, vars)),
        Node::IfGe(v) => {
            let [x, y, a, b] = &**v;
            Interval::ifge(
                enclose(x, vars),
                enclose(y, vars),
                || enclose(a, vars),
                || enclose(b, vars),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for_run;
    use crate::threshold::ThresholdVars;
    use crate::threshold::expr::ThresholdExpr;
    use rand::RngExt;

    /// Soundness: at random points of random boxes, the point value lies in the enclosure.
    #[test]
    fn enclosures_contain_point_values() {
        let exprs = [
            "cg(log((K-1)/delta)/2 + log(na))",
            "wbar(1 + na/nb)",
            "zeta(1 + 1/na)",
            "h(na, delta, K)",
            "k(na)*k(nb)",
            "log(na) - exp(-nb/100) + sqrt(t)",
            "2^(gap - 0.5) + na^2 - abs(gap - 0.3)",
            "ifge(gap, 0.2, log(na), log(nb)) / (1 + gap)",
            "min(na, nb) + max(log(t), 2) - 1/(na*nb)",
            "(2*cg(log((K-1)/(delta))/2) + 2*log(4+log(na)) + 2*log(4+log(nb)))",
        ];
        let mut rng = rng_for_run(171, 0);
        for src in exprs {
            let e = ThresholdExpr::parse(src).expect("parses");
            for _ in 0..300 {
                let mut b = [Interval::point(0.0); 10];
                b[0] = Interval::point(0.05);
                b[1] = Interval::point(5.0);
                b[2] = Interval::point(0.5);
                b[3] = Interval::point(0.5);
                let mut pick = |lo: f64, hi: f64| {
                    let u = lo + (hi - lo) * rng.random::<f64>();
                    let v = lo + (hi - lo) * rng.random::<f64>();
                    Interval::new(u.min(v), u.max(v))
                };
                b[4] = pick(2.0, 1e6);
                b[5] = pick(1.0, 1e4);
                b[6] = pick(1.0, 1e4);
                b[7] = pick(1.0, 10.0);
                b[8] = pick(1.0, 10.0);
                b[9] = pick(0.0, 1.0);
                let enc = enclose(e.tree(), &b);
                for _ in 0..10 {
                    let at = |i: Interval, u: f64| i.lo + (i.hi - i.lo) * u;
                    let v = ThresholdVars {
                        delta: 0.05,
                        k: 5.0,
                        eps: 0.5,
                        sigma: 0.5,
                        t: at(b[4], rng.random()),
                        na: at(b[5], rng.random()),
                        nb: at(b[6], rng.random()),
                        ka: at(b[7], rng.random()),
                        kb: at(b[8], rng.random()),
                        gap: at(b[9], rng.random()),
                    };
                    let x = e.eval(&v);
                    assert!(enc.contains(x), "{src}: {x} not in {enc:?} at {v:?}");
                }
            }
        }
    }

    #[test]
    fn domain_errors_set_the_nan_flag() {
        let b = [Interval::new(-1.0, 2.0); 10];
        let e = ThresholdExpr::parse("log(na)").expect("parses");
        let i = enclose(e.tree(), &b);
        assert!(i.nan && i.lo == f64::NEG_INFINITY);
        let e = ThresholdExpr::parse("cg(na - 5)").expect("parses");
        assert_eq!(enclose(e.tree(), &b), Interval::EMPTY_NAN);
    }
}
