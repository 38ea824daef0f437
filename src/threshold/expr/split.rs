//! The run-constant specialisation behind [`super::ThresholdExpr::bind`]: the bound program is
//! split as `c + f(na) + g(nb) + rest(vars)`, with `f` and `g` cached per integer count (a
//! top-level `ifge` whose test does not read the counts is split branch by branch), and a lower
//! bound of its values over every reachable point is computed once.

use super::compile::{Program, fold};
use super::parser::{BinaryFn, Node, UnaryFn, Var};
use crate::error::Result;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// A bound program split as `c + f(na) + g(nb) + rest(vars)`, with `f` and `g` cached per
/// count; and a lower bound of the program over every reachable point.
#[derive(Debug)]
pub(super) struct CountSplit {
    /// `c`: the sum of the terms that read no variable.
    constant: f64,
    /// `f`: the sum of the terms that read only `na`, with its per-count cache.
    per_na: Option<(Program, CountCache)>,
    /// `g`: the sum of the terms that read only `nb`, with its per-count cache.
    per_nb: Option<(Program, CountCache)>,
    /// The other terms, evaluated at each call.
    rest: Option<Program>,
    /// A lower bound of the program over every reachable point ([`CountSplit::lower_bound`]).
    pub(super) lower: f64,
    /// The folded, bound tree (for [`CountSplit::lower_after`]).
    tree: std::sync::Arc<Node>,
    /// The whole program (used when the tree does not split).
    whole: Program,
    /// A top-level `ifge(x, y, a, b)` whose test does not read the counts: each branch split
    /// on its own.
    branch: Option<Box<Branch>>,
}

/// See [`CountSplit::branch`].
#[derive(Debug)]
struct Branch {
    x: Program,
    y: Program,
    a: CountSplit,
    b: CountSplit,
}

/// Counts below this are cached (in lazily allocated chunks).
const CACHE_COUNTS: usize = 1 << 22;
const CACHE_CHUNK: usize = 4096;
/// Marks an empty cache cell (a NaN payload that no arithmetic produces).
const EMPTY_CELL: u64 = 0x7FF8_DEAD_BEEF_0017;

/// Values of a one-count function at integer counts: exact values, filled on first use, shared
/// by threads (a race only computes the same value twice).
#[derive(Debug)]
struct CountCache {
    chunks: Vec<OnceLock<Box<[AtomicU64]>>>,
}

impl CountCache {
    fn new() -> Self {
        CountCache {
            chunks: (0..CACHE_COUNTS / CACHE_CHUNK)
                .map(|_| OnceLock::new())
                .collect(),
        }
    }
    #[inline]
    fn get(&self, x: f64, slot: usize, prog: &Program) -> f64 {
        let direct = |x: f64| {
            let mut v = [0.0; 10];
            v[slot] = x;
            prog.run(&v)
        };
        if !(x >= 0.0 && x < CACHE_COUNTS as f64) || x.fract() != 0.0 {
            return direct(x);
        }
        let i = x as usize;
        let chunk = self.chunks[i / CACHE_CHUNK].get_or_init(|| {
            (0..CACHE_CHUNK)
                .map(|_| AtomicU64::new(EMPTY_CELL))
                .collect()
        });
        let cell = &chunk[i % CACHE_CHUNK];
        let bits = cell.load(Ordering::Relaxed);
        if bits != EMPTY_CELL {
            return f64::from_bits(bits);
        }
        let v = direct(x);
        cell.store(v.to_bits(), Ordering::Relaxed);
        v
    }
}

/// Variables read by a tree (bit `i` for slot `i`).
fn vars_read(n: &Node) -> u16 {
    match n {
        Node::Num(_) => 0,
        Node::Var(v) => 1 << (*v as u16),
        Node::Un(_, a) | Node::PowI(a, _) => vars_read(a),
        Node::Bin(_, a, b) => vars_read(a) | vars_read(b),
        Node::H(x, d, k) => vars_read(x) | vars_read(d) | vars_read(k),
        Node::IfGe(v) => v.iter().fold(0, |m, c| m | vars_read(c)),
    }
}

/// The terms of a top-level sum (`a + b + ...`; `a − b` gives `a` and `−b`).
fn sum_terms(n: &Node, neg: bool, out: &mut Vec<Node>) {
    match n {
        Node::Bin(BinaryFn::Add, a, b) => {
            sum_terms(a, neg, out);
            sum_terms(b, neg, out);
        }
        Node::Bin(BinaryFn::Sub, a, b) => {
            sum_terms(a, neg, out);
            sum_terms(b, !neg, out);
        }
        other => out.push(if neg {
            Node::Un(UnaryFn::Neg, Box::new(other.clone()))
        } else {
            other.clone()
        }),
    }
}

fn add_all(terms: Vec<Node>) -> Option<Node> {
    terms
        .into_iter()
        .reduce(|a, b| Node::Bin(BinaryFn::Add, Box::new(a), Box::new(b)))
}

impl CountSplit {
    /// No split: the whole program.
    fn plain(lower: f64, whole: Program, tree: &Node) -> CountSplit {
        CountSplit {
            tree: std::sync::Arc::new(tree.clone()),
            constant: 0.0,
            per_na: None,
            per_nb: None,
            rest: None,
            lower,
            whole,
            branch: None,
        }
    }

    /// Splits the folded, bound tree (no split when no term reads only `na` or only `nb`).
    pub(super) fn new(tree: &Node) -> Result<CountSplit> {
        let lower = Self::lower_bound(tree);
        let whole = Program::compile(tree)?;
        let counts = (1u16 << Var::Na as u16) | (1u16 << Var::Nb as u16);
        if let Node::IfGe(v) = tree {
            let [x, y, a, b] = &**v;
            if (vars_read(x) | vars_read(y)) & counts == 0 {
                let br = Branch {
                    x: Program::compile(x)?,
                    y: Program::compile(y)?,
                    a: CountSplit::new(a)?,
                    b: CountSplit::new(b)?,
                };
                return Ok(CountSplit {
                    branch: Some(Box::new(br)),
                    ..CountSplit::plain(lower, whole, tree)
                });
            }
        }
        let mut terms = Vec::new();
        sum_terms(tree, false, &mut terms);
        let (na, nb) = (1u16 << Var::Na as u16, 1u16 << Var::Nb as u16);
        let (mut k, mut on_na, mut on_nb, mut rest) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for t in terms {
            match vars_read(&t) {
                0 => k.push(t),
                m if m == na => on_na.push(t),
                m if m == nb => on_nb.push(t),
                _ => rest.push(t),
            }
        }
        if on_na.is_empty() && on_nb.is_empty() {
            return Ok(CountSplit::plain(lower, whole, tree));
        }
        let constant = match add_all(k).map(|n| fold(&n, None)) {
            Some(Node::Num(v)) => v,
            None => 0.0,
            Some(other) => {
                // Not foldable (cannot happen for a variable-free tree); keep it in `rest`.
                rest.push(other);
                0.0
            }
        };
        let prog = |ts: Vec<Node>| -> Result<Option<Program>> {
            add_all(ts).map(|n| Program::compile(&n)).transpose()
        };
        Ok(CountSplit {
            tree: std::sync::Arc::new(tree.clone()),
            constant,
            per_na: prog(on_na)?.map(|p| (p, CountCache::new())),
            per_nb: prog(on_nb)?.map(|p| (p, CountCache::new())),
            rest: prog(rest)?,
            lower,
            whole,
            branch: None,
        })
    }

    /// Whether the per-count split is used.
    pub(super) fn splits(&self) -> bool {
        self.per_na.is_some() || self.per_nb.is_some() || self.branch.is_some()
    }

    /// Lower bound of the tree over counts, `t`, phases in `[1, 2^62]`, `gap >= 0`: the
    /// guarded enclosure of [`CountSplit::guarded_lower`] on the whole box.
    fn lower_bound(tree: &Node) -> f64 {
        Self::guarded_lower(Self::enclose_box(tree, [1.0; 5]))
    }

    /// The lower end of the enclosure `i` minus `1e-9·(1 + |lo|)`, which covers the few ulps
    /// by which a floating-point evaluation (the split sum, or the bytecode) may fall below the
    /// real value the enclosure bounds; `−∞` unless the enclosure also proves the value finite
    /// on its box: a skipped evaluation must not hide a NaN or ±∞ that the plain test would
    /// meet (and report).
    fn guarded_lower(i: crate::threshold::interval::Interval) -> f64 {
        if i.nan || i.is_empty() || !i.lo.is_finite() || !i.hi.is_finite() {
            return f64::NEG_INFINITY;
        }
        i.lo - 1e-9 * (1.0 + i.lo.abs())
    }

    /// The enclosure of the tree on the box whose `t`, `na`, `nb`, `ka`, `kb` run from `from`
    /// (in that order) up to `2^62` and whose gap is any `>= 0`.
    fn enclose_box(tree: &Node, from: [f64; 5]) -> crate::threshold::interval::Interval {
        use crate::threshold::interval::Interval;
        let big = 2f64.powi(62);
        let mut b = [Interval::point(0.0); 10];
        for (s, lo) in [Var::T, Var::Na, Var::Nb, Var::Ka, Var::Kb]
            .into_iter()
            .zip(from)
        {
            b[s as usize] = Interval::new(lo.min(big), big);
        }
        b[Var::Gap as usize] = Interval::new(0.0, f64::INFINITY);
        // Run constants are already folded into the tree; their slots are never read.
        super::enclose::enclose(tree, &b)
    }

    /// A value `<=` the program's value at every point whose time, counts and phases are at
    /// least `v`'s (any gap `>= 0`, `v`'s run constants): the guarded enclosure
    /// ([`CountSplit::guarded_lower`]) on that box ([`CountSplit::enclose_box`]).
    pub(super) fn lower_after(&self, v: &crate::threshold::ThresholdVars) -> f64 {
        Self::guarded_lower(Self::enclose_box(&self.tree, [v.t, v.na, v.nb, v.ka, v.kb]))
    }

    #[inline]
    pub(super) fn eval(&self, vars: &[f64; 10]) -> f64 {
        if let Some(br) = &self.branch {
            // `x >= y` is false for NaN: the else branch, as in the bytecode.
            return if br.x.run(vars) >= br.y.run(vars) {
                br.a.eval(vars)
            } else {
                br.b.eval(vars)
            };
        }
        if !(self.per_na.is_some() || self.per_nb.is_some()) {
            return self.whole.eval(vars);
        }
        let mut v = self.constant;
        if let Some((p, c)) = &self.per_na {
            v += c.get(vars[Var::Na as usize], Var::Na as usize, p);
        }
        if let Some((p, c)) = &self.per_nb {
            v += c.get(vars[Var::Nb as usize], Var::Nb as usize, p);
        }
        if let Some(p) = &self.rest {
            v += p.eval(vars);
        }
        v
    }
}
