//! The parser of the threshold expression language (the grammar of the [`super`] module docs):
//! tokens to a syntax tree, with the names of the variables and functions it knows.

use super::lexer::{Lexer, Tok, Token, describe, syntax};
use crate::error::{Error, Result};
use crate::functions::{ExprFn, FUNCTIONS};

/// Variable names, in the order of the evaluation slots.
const VAR_NAMES: [&str; 10] = [
    "delta", "K", "eps", "sigma", "t", "na", "nb", "ka", "kb", "gap",
];
/// The elementary functions with their arities (`usize::MAX` = two or more); the special
/// functions come from the one catalogue, [`crate::functions::FUNCTIONS`] (those with an
/// [`ExprFn`], under their `command` name).
const ELEMENTARY: [(&str, usize); 8] = [
    ("log", 1),
    ("log2", 1),
    ("sqrt", 1),
    ("exp", 1),
    ("abs", 1),
    ("min", usize::MAX),
    ("max", usize::MAX),
    ("ifge", 4),
];

/// The catalogue's special function of the language named `name`.
fn special(name: &str) -> Option<ExprFn> {
    FUNCTIONS
        .iter()
        .find_map(|f| f.expr.filter(|_| f.command == name))
}

/// Every function name of the language with its arity: the elementary ones, then the
/// catalogue's special functions, then `ifge`.
fn function_names() -> impl Iterator<Item = (&'static str, usize)> {
    let (ifge, plain) = ELEMENTARY
        .split_last()
        .expect("invariant: ELEMENTARY is not empty");
    plain
        .iter()
        .copied()
        .chain(
            FUNCTIONS
                .iter()
                .filter(|f| f.expr.is_some())
                .map(|f| (f.command, f.arity())),
        )
        .chain(std::iter::once(*ifge))
}

/// Maximum nesting depth of an expression: nested parentheses, calls, unary signs and powers
/// count one level each (every nesting passes through one unary operand).
const MAX_NESTING: usize = 200;
/// Maximum expression length in bytes.
const MAX_LEN: usize = 10_000;

/// Evaluation slot of each variable (index into `[f64; 10]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Var {
    Delta = 0,
    K = 1,
    Eps = 2,
    Sigma = 3,
    T = 4,
    Na = 5,
    Nb = 6,
    Ka = 7,
    Kb = 8,
    Gap = 9,
}

impl Var {
    pub(super) fn from_name(s: &str) -> Option<Var> {
        Some(match s {
            "delta" => Var::Delta,
            "K" => Var::K,
            "eps" => Var::Eps,
            "sigma" => Var::Sigma,
            "t" => Var::T,
            "na" => Var::Na,
            "nb" => Var::Nb,
            "ka" => Var::Ka,
            "kb" => Var::Kb,
            "gap" => Var::Gap,
            _ => return None,
        })
    }
    /// Whether the variable is fixed for a whole run (foldable by [`super::ThresholdExpr::bind`]).
    pub(super) fn is_run_constant(self) -> bool {
        matches!(self, Var::Delta | Var::K | Var::Eps | Var::Sigma)
    }
}

/// The functions of one argument, and unary minus (their values: `functions::apply_unary`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnaryFn {
    /// `-x`.
    Neg,
    /// `log(x)`, natural logarithm.
    Log,
    /// `log2(x)`.
    Log2,
    /// `sqrt(x)`.
    Sqrt,
    /// `exp(x)`.
    Exp,
    /// `abs(x)`.
    Abs,
    /// `cg(x)` = `C_G(x)` (Eq. (20)).
    Cg,
    /// `wbar(x)` = `W̄_{-1}(x)` (L. 40).
    Wbar,
    /// `zeta(s)` = `ζ(s)`.
    Zeta,
    /// `k(x)` = `log2 x + 2` (Eq. (11)).
    K,
}

/// The operators and functions of two arguments (`min`/`max` of more arguments are chained).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinaryFn {
    /// `x + y`.
    Add,
    /// `x - y`.
    Sub,
    /// `x * y`.
    Mul,
    /// `x / y`.
    Div,
    /// `x ^ y`.
    Pow,
    /// `min(x, y)`, NaN if either is.
    Min,
    /// `max(x, y)`, NaN if either is.
    Max,
}

/// Syntax tree (compile time only).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    /// A number or a named constant.
    Num(f64),
    /// A variable.
    Var(Var),
    /// A function of one argument.
    Un(UnaryFn, Box<Node>),
    /// A function of two arguments.
    Bin(BinaryFn, Box<Node>, Box<Node>),
    /// `h(x, delta, K)`.
    H(Box<Node>, Box<Node>, Box<Node>),
    /// `ifge(x, y, a, b)`.
    IfGe(Box<[Node; 4]>),
    /// `x^n` for a constant small integer `n` (from folding `x ^ const`).
    PowI(Box<Node>, i32),
}

/// Parses `src` into a syntax tree (not yet folded).
///
/// # Errors
/// [`Error::Parse`] with the 1-based column (see [`super::ThresholdExpr`]).
pub(super) fn parse_tree(src: &str) -> Result<Node> {
    if src.len() > MAX_LEN {
        return Err(Error::Parse(format!(
            "expression is {} bytes long, at most {MAX_LEN} allowed",
            src.len()
        )));
    }
    let toks = Lexer::new(src).tokens()?;
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    if p.peek().tok == Tok::End {
        return Err(syntax(1, "empty expression"));
    }
    let tree = p.expr()?;
    let end = p.peek().clone();
    if end.tok != Tok::End {
        let what = match &end.tok {
            Tok::Op(')') => "unmatched ')'".to_string(),
            other => format!("unexpected {} (missing operator?)", describe(other)),
        };
        return Err(syntax(end.col, what));
    }
    Ok(tree)
}

/// Recursive descent over the tokens, one method per grammar rule.
struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
}

fn known_vars() -> String {
    let mut v: Vec<&str> = VAR_NAMES.to_vec();
    v.extend(["pi", "e"]);
    v.join(", ")
}

fn known_fns() -> String {
    function_names()
        .map(|(n, _)| n)
        .collect::<Vec<_>>()
        .join(", ")
}
impl Parser {
    fn peek(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }
    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    fn is_op(&self, c: char) -> bool {
        self.peek().tok == Tok::Op(c)
    }
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        // The whole expression is the first operand; the levels below it are what nests.
        if self.depth > MAX_NESTING + 1 {
            return Err(syntax(
                self.peek().col,
                format!("expression nested more than {MAX_NESTING} levels deep"),
            ));
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Node> {
        let mut lhs = self.term()?;
        loop {
            let f = if self.is_op('+') {
                BinaryFn::Add
            } else if self.is_op('-') {
                BinaryFn::Sub
            } else {
                break;
            };
            self.bump();
            let rhs = self.term()?;
            lhs = Node::Bin(f, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn term(&mut self) -> Result<Node> {
        let mut lhs = self.unary()?;
        loop {
            let f = if self.is_op('*') {
                BinaryFn::Mul
            } else if self.is_op('/') {
                BinaryFn::Div
            } else {
                break;
            };
            self.bump();
            let rhs = self.unary()?;
            lhs = Node::Bin(f, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Node> {
        self.enter()?;
        let n = if self.is_op('-') {
            self.bump();
            Node::Un(UnaryFn::Neg, Box::new(self.unary()?))
        } else if self.is_op('+') {
            self.bump();
            self.unary()?
        } else {
            self.power()?
        };
        self.depth -= 1;
        Ok(n)
    }

    fn power(&mut self) -> Result<Node> {
        let base = self.atom()?;
        if self.is_op('^') {
            self.bump();
            let exp = self.unary()?;
            return Ok(Node::Bin(BinaryFn::Pow, Box::new(base), Box::new(exp)));
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<Node> {
        let t = self.bump();
        match t.tok {
            Tok::Num(v) => Ok(Node::Num(v)),
            Tok::Op('(') => {
                let inner = self.expr()?;
                let close = self.bump();
                if close.tok != Tok::Op(')') {
                    return Err(syntax(
                        close.col,
                        format!(
                            "expected ')' to close '(' of column {}, found {}",
                            t.col,
                            describe(&close.tok)
                        ),
                    ));
                }
                Ok(inner)
            }
            Tok::Name(name) => {
                if self.is_op('(') {
                    self.call(&name, t.col)
                } else {
                    self.variable(&name, t.col)
                }
            }
            other => Err(syntax(
                t.col,
                format!(
                    "expected a number, a name or '(', found {}",
                    describe(&other)
                ),
            )),
        }
    }

    fn variable(&self, name: &str, col: usize) -> Result<Node> {
        if let Some(v) = Var::from_name(name) {
            return Ok(Node::Var(v));
        }
        match name {
            "pi" => Ok(Node::Num(std::f64::consts::PI)),
            "e" => Ok(Node::Num(std::f64::consts::E)),
            _ => {
                let hint = if function_names().any(|(n, _)| n == name) {
                    format!(" ('{name}' is a function: write {name}(...))")
                } else {
                    String::new()
                };
                Err(Error::Parse(format!(
                    "unknown variable '{name}'{hint} at column {col} (known: {})",
                    known_vars()
                )))
            }
        }
    }

    fn call(&mut self, name: &str, col: usize) -> Result<Node> {
        let Some((_, arity)) = function_names().find(|(n, _)| *n == name) else {
            let hint = if Var::from_name(name).is_some() || name == "pi" || name == "e" {
                format!(" ('{name}' is a variable; use '*' to multiply)")
            } else {
                String::new()
            };
            return Err(Error::Parse(format!(
                "unknown function '{name}'{hint} at column {col} (known: {})",
                known_fns()
            )));
        };
        self.bump(); // '('
        let mut args = vec![self.expr()?];
        while self.is_op(',') {
            self.bump();
            args.push(self.expr()?);
        }
        let close = self.bump();
        if close.tok != Tok::Op(')') {
            return Err(syntax(
                close.col,
                format!(
                    "expected ',' or ')' in the call of {name}, found {}",
                    describe(&close.tok)
                ),
            ));
        }
        let n = args.len();
        let ok = if arity == usize::MAX {
            n >= 2
        } else {
            n == arity
        };
        if !ok {
            let want = if arity == usize::MAX {
                "at least 2".to_string()
            } else {
                arity.to_string()
            };
            return Err(syntax(
                col,
                format!("{name} takes {want} argument(s), got {n}"),
            ));
        }
        let mut it = args.into_iter();
        let mut next = || it.next().expect("invariant: arity checked above");
        Ok(match name {
            "log" => Node::Un(UnaryFn::Log, Box::new(next())),
            "log2" => Node::Un(UnaryFn::Log2, Box::new(next())),
            "sqrt" => Node::Un(UnaryFn::Sqrt, Box::new(next())),
            "exp" => Node::Un(UnaryFn::Exp, Box::new(next())),
            "abs" => Node::Un(UnaryFn::Abs, Box::new(next())),
            "ifge" => Node::IfGe(Box::new([next(), next(), next(), next()])),
            "min" | "max" => {
                let f = if name == "min" {
                    BinaryFn::Min
                } else {
                    BinaryFn::Max
                };
                let mut acc = next();
                for _ in 1..n {
                    acc = Node::Bin(f, Box::new(acc), Box::new(next()));
                }
                acc
            }
            _ => match special(name) {
                Some(ExprFn::Cg) => Node::Un(UnaryFn::Cg, Box::new(next())),
                Some(ExprFn::Wbar) => Node::Un(UnaryFn::Wbar, Box::new(next())),
                Some(ExprFn::Zeta) => Node::Un(UnaryFn::Zeta, Box::new(next())),
                Some(ExprFn::K) => Node::Un(UnaryFn::K, Box::new(next())),
                Some(ExprFn::H) => {
                    let (x, d, k) = (next(), next(), next());
                    Node::H(Box::new(x), Box::new(d), Box::new(k))
                }
                None => unreachable!("invariant: every name of function_names() is handled"),
            },
        })
    }
}
