//! The threshold expression language of `dpbai audit delta --threshold "EXPR"`.
//!
//! A user types a stopping threshold `c_{a,b}` as an arithmetic expression; it is parsed once
//! into postfix bytecode with constant folding ([`ThresholdExpr::parse`]) and evaluated on a
//! fixed-size stack without allocation ([`ThresholdExpr::eval`]). The compiled expression
//! implements [`CustomThreshold`], so it plugs into `AlgoSpec.custom_threshold` and replaces the
//! GLR threshold of the chosen algorithm (READINGS.md §D.1, Eq. (2)).
//!
//! # Grammar
//! ```text
//! expr    := term (('+' | '-') term)*
//! term    := unary (('*' | '/') unary)*
//! unary   := '-' unary | power
//! power   := atom ('^' unary)?              right-associative; -x^2 = -(x^2); 2^-1 = 0.5
//! atom    := NUMBER | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')'
//! NUMBER  := digits ['.' digits] [('e'|'E') ['+'|'-'] digits]   (also '.5')
//! ```
//! Variables (see [`ThresholdVars`]): `delta`, `K`, `eps`, `sigma`, `t` (samples so far), `na`,
//! `nb` (counts the rule uses for the two arms compared; local counts `Ñ` for DAF), `ka`, `kb`
//! (phase indices), `gap` (`(μ̃_a − μ̃_b)_+`). Constants: `pi`, `e`.
//!
//! Functions: `log` (natural), `log2`, `sqrt`, `exp`, `abs`, `min(x, y, ...)`, `max(x, y, ...)`,
//! `cg(x)` = `C_G(x)` (Eq. (20)), `wbar(x)` = `W̄_{-1}(x)` (L. 40), `zeta(s)` = `ζ(s)`,
//! `k(x)` = `log2 x + 2` (Eq. (11)), `h(x, delta, K)` = `h(x, δ)` of L. 23 for `K` arms
//! (argument order: count, risk, number of arms; READINGS.md §C.6), and `ifge(x, y, a, b)` = `a` if
//! `x >= y` else `b` (only the chosen branch is evaluated; needed for Eq. (14)).
//!
//! # Domain
//! Evaluation never fails: a special function called outside its domain (e.g. `cg(-1)`,
//! `h(x, delta, K)` with a non-integer `K`) yields NaN, and a NaN threshold means "do not stop"
//! ([`CustomThreshold`] contract).
//!
//! # Layout
//! `lexer` (text to tokens), `parser` (tokens to a syntax tree), `compile` (constant folding and
//! bytecode), `eval` (the stack machine and its per-thread memo), `enclose` (the interval evaluator of a
//! tree), `split` (the per-count
//! specialisation of a bound expression), `presets` (the named thresholds); this file holds the
//! public type [`ThresholdExpr`].

mod compile;
mod enclose;
mod eval;
mod functions;
mod lexer;
mod parser;
pub mod presets;
mod split;
#[cfg(test)]
mod tests;

pub(crate) use compile::fold;
pub(crate) use enclose::{Bx, enclose};
pub(crate) use parser::{BinaryFn, Node, UnaryFn};
pub use presets::{PRESETS, Preset, parse_threshold, preset};

use crate::error::Result;
use crate::threshold::{CustomThreshold, ThresholdVars};
use compile::{Op, Program};
use parser::Var;
use split::CountSplit;
use std::fmt;
use std::sync::Arc;

/// A compiled threshold expression (see the module docs for the language).
///
/// # Definition
/// `eval(v)` is the value of the expression with the variables taken from `v`. If
/// [`ThresholdExpr::bind`] was called, a second program with `delta`, `K`, `eps`, `sigma`
/// substituted and constant-folded is used whenever `v` carries exactly those values (so terms
/// like `cg(log((K-1)/delta)/2)` cost nothing per evaluation); otherwise the general program runs.
///
/// # Reference
/// Replaces `c_{a,b}` in the GLR stopping rule `W_{a,b} ≥ c_{a,b}` (Eq. (2), READINGS.md §D.1).
///
/// # Domain
/// Any finite or infinite inputs; out-of-domain calls give NaN (= "do not stop").
///
/// # Accuracy
/// Arithmetic is IEEE double; special functions are those of [`crate::special`]. The presets are
/// checked against READINGS.md §D.1 reference vectors and `tests/data/audit_presets.toml`
/// (mpmath, `verify/golden_audit_presets.py`), and each `paper-*` preset against the engine's
/// function in [`crate::threshold::paper`] to a relative 1e-14 (unit test of `presets`).
///
/// # Errors
/// [`crate::Error::Parse`] with the 1-based column for a syntax error, an unknown variable or function,
/// a wrong number of arguments, or an expression too deep or too long.
///
/// # Example
/// ```
/// use dpbai::threshold::expr::ThresholdExpr;
/// use dpbai::threshold::ThresholdVars;
/// let c = ThresholdExpr::parse("log(1/delta) + 2*log(4 + log(na))").unwrap();
/// let v = ThresholdVars { delta: 0.01, na: 1.0, ..Default::default() };
/// assert!((c.eval(&v) - (100f64.ln() + 2.0 * 4f64.ln())).abs() < 1e-14);
/// let err = ThresholdExpr::parse("log(1/deta)").unwrap_err().to_string();
/// assert!(err.starts_with("unknown variable 'deta' at column 7"));
/// ```
#[derive(Debug, Clone)]
pub struct ThresholdExpr {
    src: Arc<str>,
    tree: Arc<Node>,
    general: Program,
    bound: Option<([f64; 4], Program)>,
    /// With `bound`: the per-count split of the bound program and a lower bound of its values
    /// (see [`ThresholdExpr::bind`]).
    split: Option<Arc<CountSplit>>,
}

impl ThresholdExpr {
    /// Parses and compiles `src`.
    ///
    /// # Errors
    /// See the type docs.
    pub fn parse(src: &str) -> Result<Self> {
        let tree = fold(&parser::parse_tree(src)?, None);
        let general = Program::compile(&tree)?;
        Ok(ThresholdExpr {
            src: Arc::from(src),
            tree: Arc::new(tree),
            general,
            bound: None,
            split: None,
        })
    }

    /// The syntax tree after constant folding (for interval evaluation).
    pub(crate) fn tree(&self) -> &Node {
        &self.tree
    }

    /// The source text.
    pub fn source(&self) -> &str {
        &self.src
    }

    /// Specialises the expression for one run's constants `δ`, `K`, `ε`, `σ` (pass `+∞` for `ε`
    /// of a non-private algorithm), folding every term that depends only on them.
    ///
    /// # Errors
    /// None in practice (the folded program is never deeper than the general one); kept for
    /// symmetry with [`ThresholdExpr::parse`].
    pub fn bind(&self, delta: f64, k: f64, eps: f64, sigma: f64) -> Result<Self> {
        let consts = [delta, k, eps, sigma];
        let folded = fold(&self.tree, Some(&consts));
        let prog = Program::compile(&folded)?;
        let split = CountSplit::new(&folded)?;
        Ok(ThresholdExpr {
            bound: Some((consts, prog)),
            split: Some(Arc::new(split)),
            ..self.clone()
        })
    }

    /// Whether the expression reads the variable `name` (after constant folding).
    pub fn uses(&self, name: &str) -> bool {
        let Some(v) = Var::from_name(name) else {
            return false;
        };
        self.general.code.contains(&Op::Load(v as u8))
    }

    /// Evaluates the expression (see the type docs).
    #[inline]
    pub fn eval(&self, v: &ThresholdVars) -> f64 {
        let vars = [
            v.delta, v.k, v.eps, v.sigma, v.t, v.na, v.nb, v.ka, v.kb, v.gap,
        ];
        if let Some((prog, split)) = self.bound_to(v) {
            if split.splits() {
                return split.eval(&vars);
            }
            return prog.eval(&vars);
        }
        self.general.eval(&vars)
    }

    /// The bound program and its split when the expression is bound to `v`'s run constants
    /// (bitwise equality, which also matches a bound `+∞` ε), else `None`.
    #[inline]
    fn bound_to(&self, v: &ThresholdVars) -> Option<(&Program, &CountSplit)> {
        let (c, prog) = self.bound.as_ref()?;
        let split = self.split.as_deref()?;
        let same = c[0].to_bits() == v.delta.to_bits()
            && c[1].to_bits() == v.k.to_bits()
            && c[2].to_bits() == v.eps.to_bits()
            && c[3].to_bits() == v.sigma.to_bits();
        same.then_some((prog, split))
    }

    /// Number of bytecode instructions of the general program (for diagnostics and benches).
    pub fn len(&self) -> usize {
        self.general.code.len()
    }

    /// Always `false`: a parsed expression has at least one instruction.
    pub fn is_empty(&self) -> bool {
        self.general.code.is_empty()
    }
}

impl fmt::Display for ThresholdExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.src)
    }
}

impl CustomThreshold for ThresholdExpr {
    fn eval(&self, v: &ThresholdVars) -> f64 {
        ThresholdExpr::eval(self, v)
    }
    /// Whether the expression reads `t` after constant folding ([`ThresholdExpr::uses`]).
    fn reads_time(&self) -> bool {
        self.uses("t")
    }
    /// The interval lower bound computed by [`ThresholdExpr::bind`] when `base` carries the
    /// bound constants, else `−∞`. Like [`CustomThreshold::lower_bound_after`], it is `−∞`
    /// unless the enclosure proves the value finite on the whole box (a quick rejection must
    /// not hide a NaN the plain test would report), and it sits `1e-9·(1 + |lo|)` below the
    /// enclosure for the evaluation's rounding.
    fn lower_bound(&self, base: &ThresholdVars) -> f64 {
        self.bound_to(base)
            .map_or(f64::NEG_INFINITY, |(_, f)| f.lower)
    }
    /// The interval enclosure's lower end of the bound tree on the box whose time, counts and
    /// phases run from `v`'s up to `2^62` and whose gap is any `>= 0`, less `1e-9·(1 + |lo|)`
    /// for floating-point evaluation, when `v` carries the bound constants and the enclosure
    /// proves the value finite on that box; else `−∞`.
    fn lower_bound_after(&self, v: &ThresholdVars) -> f64 {
        self.bound_to(v)
            .map_or(f64::NEG_INFINITY, |(_, f)| f.lower_after(v))
    }
}
