//! The threshold expression language of `dpbai audit delta --threshold "EXPR"`.
//!
//! A user types a stopping threshold `c_{a,b}` as an arithmetic expression; it is parsed once
//! into postfix bytecode with constant folding ([`ThresholdExpr::parse`]) and evaluated on a
//! fixed-size stack without allocation ([`ThresholdExpr::eval`]). The compiled expression
//! implements [`CustomThreshold`], so it plugs into `AlgoSpec.custom_threshold` and replaces the
//! GLR threshold of the chosen algorithm (MATH.md D.1, Eq. (2)).
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
//! (argument order: count, risk, number of arms; MATH.md C.6), and `ifge(x, y, a, b)` = `a` if
//! `x >= y` else `b` (only the chosen branch is evaluated; needed for Eq. (14)).
//!
//! # Domain
//! Evaluation never fails: a special function called outside its domain (e.g. `cg(-1)`,
//! `h(x, delta, K)` with a non-integer `K`) yields NaN, and a NaN threshold means "do not stop"
//! ([`CustomThreshold`] contract).

use crate::bandit::{CustomThreshold, ThresholdVars};
use crate::error::{Error, Result};
use std::fmt;
use std::sync::Arc;

/// Variable names, in the order of the evaluation slots.
const VAR_NAMES: [&str; 10] = [
    "delta", "K", "eps", "sigma", "t", "na", "nb", "ka", "kb", "gap",
];
/// Function names with their arities (`usize::MAX` = two or more).
const FN_NAMES: [(&str, usize); 14] = [
    ("log", 1),
    ("log2", 1),
    ("sqrt", 1),
    ("exp", 1),
    ("abs", 1),
    ("min", usize::MAX),
    ("max", usize::MAX),
    ("cg", 1),
    ("wbar", 1),
    ("zeta", 1),
    ("k", 1),
    ("h", 3),
    ("ifge", 4),
    // Placeholder kept sorted by the listing below; never matched.
    ("", 0),
];
/// Maximum nesting depth of the parser (parentheses, unary minus, powers, calls).
const MAX_NESTING: usize = 200;
/// Maximum evaluation stack depth.
const MAX_STACK: usize = 64;
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
    fn from_name(s: &str) -> Option<Var> {
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
    /// Whether the variable is fixed for a whole run (foldable by [`ThresholdExpr::bind`]).
    fn is_run_constant(self) -> bool {
        matches!(self, Var::Delta | Var::K | Var::Eps | Var::Sigma)
    }
}

/// Unary functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum F1 {
    Neg,
    Log,
    Log2,
    Sqrt,
    Exp,
    Abs,
    Cg,
    Wbar,
    Zeta,
    K,
}

/// Binary operators and functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum F2 {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Min,
    Max,
}

/// Syntax tree (compile time only).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Num(f64),
    Var(Var),
    Un(F1, Box<Node>),
    Bin(F2, Box<Node>, Box<Node>),
    H(Box<Node>, Box<Node>, Box<Node>),
    IfGe(Box<[Node; 4]>),
    /// `x^n` for a constant small integer `n` (from folding `x ^ const`).
    PowI(Box<Node>, i32),
}

/// One bytecode instruction.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Const(f64),
    Load(u8),
    Un(F1),
    Bin(F2),
    H,
    PowI(i32),
    /// Pops `y`, `x`; jumps to the target when `!(x >= y)` (NaN compares false: else branch).
    JumpIfLess(u32),
    Jump(u32),
}

fn apply1(f: F1, x: f64) -> f64 {
    match f {
        F1::Neg => -x,
        F1::Log => x.ln(),
        F1::Log2 => x.log2(),
        F1::Sqrt => x.sqrt(),
        F1::Exp => x.exp(),
        F1::Abs => x.abs(),
        F1::Cg => sf::c_g(x),
        F1::Wbar => sf::wbar_m1(x),
        F1::Zeta => sf::zeta(x),
        F1::K => sf::k(x),
    }
}

fn apply2(f: F2, x: f64, y: f64) -> f64 {
    match f {
        F2::Add => x + y,
        F2::Sub => x - y,
        F2::Mul => x * y,
        F2::Div => x / y,
        F2::Pow => x.powf(y),
        // NaN-propagating min/max: a NaN argument must not silently disappear.
        F2::Min => {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.min(y)
            }
        }
        F2::Max => {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.max(y)
            }
        }
    }
}

fn apply_h(x: f64, delta: f64, k: f64) -> f64 {
    let valid = (2.0..=1e9).contains(&k) && k.fract() == 0.0;
    if !valid {
        return f64::NAN;
    }
    sf::h(x, delta, k as usize)
}

/// Bridges to `crate::special`: out-of-domain arguments give NaN.
mod sf {
    pub fn c_g(x: f64) -> f64 {
        crate::special::c_g(x).unwrap_or(f64::NAN)
    }
    pub fn wbar_m1(x: f64) -> f64 {
        crate::special::wbar_m1(x).unwrap_or(f64::NAN)
    }
    pub fn zeta(x: f64) -> f64 {
        crate::special::zeta(x).unwrap_or(f64::NAN)
    }
    pub fn k(x: f64) -> f64 {
        crate::special::k(x).unwrap_or(f64::NAN)
    }
    pub fn h(x: f64, delta: f64, n_arms: usize) -> f64 {
        crate::special::h(x, delta, n_arms).unwrap_or(f64::NAN)
    }
}

// ------------------------------------------------------------------------------------------
// Lexer

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    Name(String),
    Op(char),
    End,
}

struct Lexer<'a> {
    chars: Vec<(usize, char)>,
    pos: usize,
    src: &'a str,
}

/// A token with its 1-based column (in characters).
#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    col: usize,
}

fn syntax(col: usize, msg: impl fmt::Display) -> Error {
    Error::Parse(format!("{msg} at column {col}"))
}

impl<'a> Lexer<'a> {
    fn new(src: &'a str) -> Self {
        Lexer {
            chars: src.char_indices().collect(),
            pos: 0,
            src,
        }
    }

    fn peek_char(&self, off: usize) -> Option<char> {
        self.chars.get(self.pos + off).map(|&(_, c)| c)
    }

    fn tokens(mut self) -> Result<Vec<Token>> {
        let mut out = Vec::new();
        loop {
            while matches!(self.peek_char(0), Some(c) if c.is_whitespace()) {
                self.pos += 1;
            }
            let col = self.pos + 1;
            let Some(c) = self.peek_char(0) else {
                out.push(Token { tok: Tok::End, col });
                return Ok(out);
            };
            if c.is_ascii_digit()
                || (c == '.' && matches!(self.peek_char(1), Some(d) if d.is_ascii_digit()))
            {
                let start = self.pos;
                while matches!(self.peek_char(0), Some(d) if d.is_ascii_digit()) {
                    self.pos += 1;
                }
                if self.peek_char(0) == Some('.') {
                    self.pos += 1;
                    while matches!(self.peek_char(0), Some(d) if d.is_ascii_digit()) {
                        self.pos += 1;
                    }
                }
                if matches!(self.peek_char(0), Some('e' | 'E')) {
                    let sign = usize::from(matches!(self.peek_char(1), Some('+' | '-')));
                    if matches!(self.peek_char(1 + sign), Some(d) if d.is_ascii_digit()) {
                        self.pos += 1 + sign;
                        while matches!(self.peek_char(0), Some(d) if d.is_ascii_digit()) {
                            self.pos += 1;
                        }
                    }
                }
                let b0 = self.chars[start].0;
                let b1 = self.chars.get(self.pos).map_or(self.src.len(), |&(b, _)| b);
                let text = &self.src[b0..b1];
                let v: f64 = text
                    .parse()
                    .map_err(|_| syntax(col, format!("malformed number '{text}'")))?;
                if !v.is_finite() {
                    return Err(syntax(col, format!("number '{text}' overflows")));
                }
                out.push(Token {
                    tok: Tok::Num(v),
                    col,
                });
            } else if c.is_ascii_alphabetic() || c == '_' {
                let mut name = String::new();
                while let Some(d) = self.peek_char(0) {
                    if d.is_ascii_alphanumeric() || d == '_' {
                        name.push(d);
                        self.pos += 1;
                    } else {
                        break;
                    }
                }
                out.push(Token {
                    tok: Tok::Name(name),
                    col,
                });
            } else if "+-*/^(),".contains(c) {
                self.pos += 1;
                out.push(Token {
                    tok: Tok::Op(c),
                    col,
                });
            } else {
                return Err(syntax(col, format!("unexpected character '{c}'")));
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// Parser

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
    FN_NAMES
        .iter()
        .filter(|(n, _)| !n.is_empty())
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Num(v) => format!("number {v}"),
        Tok::Name(n) => format!("'{n}'"),
        Tok::Op(c) => format!("'{c}'"),
        Tok::End => "end of expression".into(),
    }
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
        if self.depth > MAX_NESTING {
            return Err(syntax(
                self.peek().col,
                format!("expression nested more than {MAX_NESTING} levels deep"),
            ));
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Node> {
        self.enter()?;
        let mut lhs = self.term()?;
        loop {
            let f = if self.is_op('+') {
                F2::Add
            } else if self.is_op('-') {
                F2::Sub
            } else {
                break;
            };
            self.bump();
            let rhs = self.term()?;
            lhs = Node::Bin(f, Box::new(lhs), Box::new(rhs));
        }
        self.depth -= 1;
        Ok(lhs)
    }

    fn term(&mut self) -> Result<Node> {
        let mut lhs = self.unary()?;
        loop {
            let f = if self.is_op('*') {
                F2::Mul
            } else if self.is_op('/') {
                F2::Div
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
            Node::Un(F1::Neg, Box::new(self.unary()?))
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
            return Ok(Node::Bin(F2::Pow, Box::new(base), Box::new(exp)));
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
                let hint = if FN_NAMES.iter().any(|(n, _)| *n == name && !n.is_empty()) {
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
        let Some(&(_, arity)) = FN_NAMES.iter().find(|(n, _)| *n == name && !n.is_empty()) else {
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
        self.enter()?;
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
        self.depth -= 1;
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
            "log" => Node::Un(F1::Log, Box::new(next())),
            "log2" => Node::Un(F1::Log2, Box::new(next())),
            "sqrt" => Node::Un(F1::Sqrt, Box::new(next())),
            "exp" => Node::Un(F1::Exp, Box::new(next())),
            "abs" => Node::Un(F1::Abs, Box::new(next())),
            "cg" => Node::Un(F1::Cg, Box::new(next())),
            "wbar" => Node::Un(F1::Wbar, Box::new(next())),
            "zeta" => Node::Un(F1::Zeta, Box::new(next())),
            "k" => Node::Un(F1::K, Box::new(next())),
            "h" => {
                let (x, d, k) = (next(), next(), next());
                Node::H(Box::new(x), Box::new(d), Box::new(k))
            }
            "ifge" => Node::IfGe(Box::new([next(), next(), next(), next()])),
            "min" | "max" => {
                let f = if name == "min" { F2::Min } else { F2::Max };
                let mut acc = next();
                for _ in 1..n {
                    acc = Node::Bin(f, Box::new(acc), Box::new(next()));
                }
                acc
            }
            _ => unreachable!("invariant: every name of FN_NAMES is handled"),
        })
    }
}

// ------------------------------------------------------------------------------------------
// Folding and code generation

/// Constant folding, with the run constants substituted when `bound` is given.
pub(crate) fn fold(n: &Node, bound: Option<&[f64; 4]>) -> Node {
    match n {
        Node::Num(v) => Node::Num(*v),
        Node::Var(v) => match bound {
            Some(b) if v.is_run_constant() => Node::Num(b[*v as usize]),
            _ => Node::Var(*v),
        },
        Node::Un(f, a) => match fold(a, bound) {
            Node::Num(x) => Node::Num(apply1(*f, x)),
            a => Node::Un(*f, Box::new(a)),
        },
        Node::Bin(f, a, b) => match (fold(a, bound), fold(b, bound)) {
            (Node::Num(x), Node::Num(y)) => Node::Num(apply2(*f, x, y)),
            (a, Node::Num(y)) if *f == F2::Pow && y.fract() == 0.0 && y.abs() <= 16.0 => {
                Node::PowI(Box::new(a), y as i32)
            }
            (a, b) => Node::Bin(*f, Box::new(a), Box::new(b)),
        },
        Node::PowI(a, n) => match fold(a, bound) {
            Node::Num(x) => Node::Num(x.powi(*n)),
            a => Node::PowI(Box::new(a), *n),
        },
        Node::H(x, d, k) => match (fold(x, bound), fold(d, bound), fold(k, bound)) {
            (Node::Num(x), Node::Num(d), Node::Num(k)) => Node::Num(apply_h(x, d, k)),
            (x, d, k) => Node::H(Box::new(x), Box::new(d), Box::new(k)),
        },
        Node::IfGe(v) => {
            let [x, y, a, b] = &**v;
            match (fold(x, bound), fold(y, bound)) {
                (Node::Num(x), Node::Num(y)) => {
                    if x >= y {
                        fold(a, bound)
                    } else {
                        fold(b, bound)
                    }
                }
                (x, y) => Node::IfGe(Box::new([x, y, fold(a, bound), fold(b, bound)])),
            }
        }
    }
}

/// Emits postfix code; returns the stack depth needed by the subtree.
fn emit(n: &Node, code: &mut Vec<Op>) -> usize {
    match n {
        Node::Num(v) => {
            code.push(Op::Const(*v));
            1
        }
        Node::Var(v) => {
            code.push(Op::Load(*v as u8));
            1
        }
        Node::Un(f, a) => {
            let d = emit(a, code);
            code.push(Op::Un(*f));
            d
        }
        Node::Bin(f, a, b) => {
            let da = emit(a, code);
            let db = emit(b, code);
            code.push(Op::Bin(*f));
            da.max(1 + db)
        }
        Node::PowI(a, n) => {
            let d = emit(a, code);
            code.push(Op::PowI(*n));
            d
        }
        Node::H(x, d, k) => {
            let dx = emit(x, code);
            let dd = emit(d, code);
            let dk = emit(k, code);
            code.push(Op::H);
            dx.max(1 + dd).max(2 + dk)
        }
        Node::IfGe(v) => {
            let [x, y, a, b] = &**v;
            let dx = emit(x, code);
            let dy = emit(y, code);
            let jl = code.len();
            code.push(Op::JumpIfLess(0));
            let da = emit(a, code);
            let jend = code.len();
            code.push(Op::Jump(0));
            let else_at = code.len() as u32;
            let db = emit(b, code);
            let end = code.len() as u32;
            code[jl] = Op::JumpIfLess(else_at);
            code[jend] = Op::Jump(end);
            dx.max(1 + dy).max(da).max(db)
        }
    }
}

/// Compiled bytecode.
#[derive(Debug, Clone, PartialEq)]
struct Program {
    code: Vec<Op>,
    /// For programs that call an expensive special function (`cg`, `wbar`, `zeta`, `h`): a
    /// unique id and the mask of the variables read, for the per-thread memo of [`Program::eval`].
    memo: Option<(u64, u16)>,
}

/// Source of unique program ids for the memo.
static NEXT_PROGRAM_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
/// Slots of the per-thread memo (direct-mapped).
const MEMO_SLOTS: usize = 256;

/// One memo entry: program id, variable bits (masked), value.
type MemoEntry = (u64, [u64; 10], f64);

thread_local! {
    /// Per-thread memo of expensive programs. Pure function values only: a hit returns exactly
    /// what `run` would compute, so results do not depend on threads or history.
    static MEMO: std::cell::RefCell<Vec<MemoEntry>> =
        std::cell::RefCell::new(vec![(0, [0; 10], 0.0); MEMO_SLOTS]);
}

impl Program {
    fn compile(n: &Node) -> Result<Program> {
        let mut code = Vec::new();
        let depth = emit(n, &mut code);
        if depth > MAX_STACK {
            return Err(Error::Parse(format!(
                "expression needs an evaluation stack of {depth} > {MAX_STACK} entries; simplify it"
            )));
        }
        let expensive = code.iter().any(|op| {
            matches!(
                op,
                Op::H | Op::Un(F1::Cg) | Op::Un(F1::Wbar) | Op::Un(F1::Zeta)
            )
        });
        let memo = expensive.then(|| {
            let mask = code.iter().fold(0u16, |m, op| match op {
                Op::Load(i) => m | (1 << i),
                _ => m,
            });
            let id = NEXT_PROGRAM_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            (id, mask)
        });
        Ok(Program { code, memo })
    }

    /// `run`, through the per-thread memo when the program is expensive.
    #[inline]
    fn eval(&self, vars: &[f64; 10]) -> f64 {
        let Some((id, mask)) = self.memo else {
            return self.run(vars);
        };
        let mut key = [0u64; 10];
        let mut h = id.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for i in 0..10 {
            if mask & (1 << i) != 0 {
                key[i] = vars[i].to_bits();
                h = (h ^ key[i]).wrapping_mul(0x100_0000_01B3);
            }
        }
        let slot = (crate::rng::mix64(h) as usize) % MEMO_SLOTS;
        let hit = MEMO.with(|m| {
            let m = m.borrow();
            let e = &m[slot];
            (e.0 == id && e.1 == key).then_some(e.2)
        });
        if let Some(v) = hit {
            return v;
        }
        let v = self.run(vars);
        MEMO.with(|m| m.borrow_mut()[slot] = (id, key, v));
        v
    }

    #[inline]
    fn run(&self, vars: &[f64; 10]) -> f64 {
        if let [Op::Const(c)] = self.code.as_slice() {
            return *c;
        }
        let mut stack = [0.0f64; MAX_STACK];
        let mut sp = 0usize;
        let mut pc = 0usize;
        let code = &self.code[..];
        while pc < code.len() {
            match code[pc] {
                Op::Const(c) => {
                    stack[sp] = c;
                    sp += 1;
                }
                Op::Load(i) => {
                    stack[sp] = vars[i as usize];
                    sp += 1;
                }
                Op::Un(f) => {
                    stack[sp - 1] = apply1(f, stack[sp - 1]);
                }
                Op::Bin(f) => {
                    sp -= 1;
                    stack[sp - 1] = apply2(f, stack[sp - 1], stack[sp]);
                }
                Op::PowI(n) => {
                    stack[sp - 1] = stack[sp - 1].powi(n);
                }
                Op::H => {
                    sp -= 2;
                    stack[sp - 1] = apply_h(stack[sp - 1], stack[sp], stack[sp + 1]);
                }
                Op::JumpIfLess(target) => {
                    sp -= 2;
                    // `x >= y` is false for NaN: the else branch is taken.
                    let take_then = stack[sp] >= stack[sp + 1];
                    if !take_then {
                        pc = target as usize;
                        continue;
                    }
                }
                Op::Jump(target) => {
                    pc = target as usize;
                    continue;
                }
            }
            pc += 1;
        }
        stack[0]
    }
}

/// A compiled threshold expression (see the module docs for the language).
///
/// # Definition
/// `eval(v)` is the value of the expression with the variables taken from `v`. If
/// [`ThresholdExpr::bind`] was called, a second program with `delta`, `K`, `eps`, `sigma`
/// substituted and constant-folded is used whenever `v` carries exactly those values (so terms
/// like `cg(log((K-1)/delta)/2)` cost nothing per evaluation); otherwise the general program runs.
///
/// # Reference
/// Replaces `c_{a,b}` in the GLR stopping rule `W_{a,b} ≥ c_{a,b}` (Eq. (2), MATH.md D.1).
///
/// # Domain
/// Any finite or infinite inputs; out-of-domain calls give NaN (= "do not stop").
///
/// # Accuracy
/// Arithmetic is IEEE double; special functions are those of [`crate::special`]. The presets are
/// checked against MATH.md D.1 reference vectors and `tests/data/audit_presets.toml`
/// (mpmath, `verify/golden_audit_presets.py`).
///
/// # Errors
/// [`Error::Parse`] with the 1-based column for a syntax error, an unknown variable or function,
/// a wrong number of arguments, or an expression too deep or too long.
///
/// # Example
/// ```
/// use dpbai::audit::expr::ThresholdExpr;
/// use dpbai::bandit::ThresholdVars;
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
    fast: Option<Arc<Fast>>,
}

/// A bound program split as `c + f(na) + g(nb) + rest(vars)`, with `f` and `g` cached per
/// count; and a lower bound of the program over every reachable point.
#[derive(Debug)]
struct Fast {
    konst: f64,
    fa: Option<(Program, CountCache)>,
    fb: Option<(Program, CountCache)>,
    rest: Option<Program>,
    lower: f64,
    /// The whole program (used when the tree does not split).
    whole: Program,
    /// A top-level `ifge(x, y, a, b)` whose test does not read the counts: each branch split
    /// on its own.
    branch: Option<Box<Branch>>,
}

/// See [`Fast::branch`].
#[derive(Debug)]
struct Branch {
    x: Program,
    y: Program,
    a: Fast,
    b: Fast,
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
    chunks: Vec<std::sync::OnceLock<Box<[std::sync::atomic::AtomicU64]>>>,
}

impl CountCache {
    fn new() -> Self {
        CountCache {
            chunks: (0..CACHE_COUNTS / CACHE_CHUNK)
                .map(|_| std::sync::OnceLock::new())
                .collect(),
        }
    }
    #[inline]
    fn get(&self, x: f64, slot: usize, prog: &Program) -> f64 {
        use std::sync::atomic::{AtomicU64, Ordering};
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
fn reads(n: &Node) -> u16 {
    match n {
        Node::Num(_) => 0,
        Node::Var(v) => 1 << (*v as u16),
        Node::Un(_, a) | Node::PowI(a, _) => reads(a),
        Node::Bin(_, a, b) => reads(a) | reads(b),
        Node::H(x, d, k) => reads(x) | reads(d) | reads(k),
        Node::IfGe(v) => v.iter().fold(0, |m, c| m | reads(c)),
    }
}

/// The terms of a top-level sum (`a + b + ...`; `a − b` gives `a` and `−b`).
fn sum_terms(n: &Node, neg: bool, out: &mut Vec<Node>) {
    match n {
        Node::Bin(F2::Add, a, b) => {
            sum_terms(a, neg, out);
            sum_terms(b, neg, out);
        }
        Node::Bin(F2::Sub, a, b) => {
            sum_terms(a, neg, out);
            sum_terms(b, !neg, out);
        }
        other => out.push(if neg {
            Node::Un(F1::Neg, Box::new(other.clone()))
        } else {
            other.clone()
        }),
    }
}

fn add_all(terms: Vec<Node>) -> Option<Node> {
    terms
        .into_iter()
        .reduce(|a, b| Node::Bin(F2::Add, Box::new(a), Box::new(b)))
}

impl Fast {
    /// No split: the whole program.
    fn plain(lower: f64, whole: Program) -> Fast {
        Fast {
            konst: 0.0,
            fa: None,
            fb: None,
            rest: None,
            lower,
            whole,
            branch: None,
        }
    }

    /// Splits the folded, bound tree (no split when no term reads only `na` or only `nb`).
    fn new(tree: &Node) -> Result<Fast> {
        let lower = Self::lower_bound(tree);
        let whole = Program::compile(tree)?;
        let counts = (1u16 << Var::Na as u16) | (1u16 << Var::Nb as u16);
        if let Node::IfGe(v) = tree {
            let [x, y, a, b] = &**v;
            if (reads(x) | reads(y)) & counts == 0 {
                let br = Branch {
                    x: Program::compile(x)?,
                    y: Program::compile(y)?,
                    a: Fast::new(a)?,
                    b: Fast::new(b)?,
                };
                return Ok(Fast {
                    branch: Some(Box::new(br)),
                    ..Fast::plain(lower, whole)
                });
            }
        }
        let mut terms = Vec::new();
        sum_terms(tree, false, &mut terms);
        let (na, nb) = (1u16 << Var::Na as u16, 1u16 << Var::Nb as u16);
        let (mut k, mut fa, mut fb, mut rest) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for t in terms {
            match reads(&t) {
                0 => k.push(t),
                m if m == na => fa.push(t),
                m if m == nb => fb.push(t),
                _ => rest.push(t),
            }
        }
        if fa.is_empty() && fb.is_empty() {
            return Ok(Fast::plain(lower, whole));
        }
        let konst = match add_all(k).map(|n| fold(&n, None)) {
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
        Ok(Fast {
            konst,
            fa: prog(fa)?.map(|p| (p, CountCache::new())),
            fb: prog(fb)?.map(|p| (p, CountCache::new())),
            rest: prog(rest)?,
            lower,
            whole,
            branch: None,
        })
    }

    /// Whether the per-count split is used.
    fn splits(&self) -> bool {
        self.fa.is_some() || self.fb.is_some() || self.branch.is_some()
    }

    /// Lower bound of the tree over counts, `t`, phases in `[1, 2^62]`, `gap >= 0` (the
    /// interval enclosure of [`crate::audit::interval`]; `−∞` when it has none).
    fn lower_bound(tree: &Node) -> f64 {
        use crate::audit::interval::{eval, Interval};
        let big = 2f64.powi(62);
        let mut b = [Interval::point(0.0); 10];
        for s in [Var::T, Var::Na, Var::Nb, Var::Ka, Var::Kb] {
            b[s as usize] = Interval::new(1.0, big);
        }
        b[Var::Gap as usize] = Interval::new(0.0, f64::INFINITY);
        // Run constants are already folded into the tree; their slots are never read.
        let i = eval(tree, &b);
        if i.is_empty() || i.lo.is_nan() {
            f64::NEG_INFINITY
        } else {
            i.lo
        }
    }

    #[inline]
    fn eval(&self, vars: &[f64; 10]) -> f64 {
        if let Some(br) = &self.branch {
            // `x >= y` is false for NaN: the else branch, as in the bytecode.
            return if br.x.run(vars) >= br.y.run(vars) {
                br.a.eval(vars)
            } else {
                br.b.eval(vars)
            };
        }
        if !(self.fa.is_some() || self.fb.is_some()) {
            return self.whole.eval(vars);
        }
        let mut v = self.konst;
        if let Some((p, c)) = &self.fa {
            v += c.get(vars[Var::Na as usize], Var::Na as usize, p);
        }
        if let Some((p, c)) = &self.fb {
            v += c.get(vars[Var::Nb as usize], Var::Nb as usize, p);
        }
        if let Some(p) = &self.rest {
            v += p.eval(vars);
        }
        v
    }
}

impl ThresholdExpr {
    /// Parses and compiles `src`.
    ///
    /// # Errors
    /// See the type docs.
    pub fn parse(src: &str) -> Result<Self> {
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
        let tree = fold(&tree, None);
        let general = Program::compile(&tree)?;
        Ok(ThresholdExpr {
            src: Arc::from(src),
            tree: Arc::new(tree),
            general,
            bound: None,
            fast: None,
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
        let fast = Fast::new(&folded)?;
        Ok(ThresholdExpr {
            bound: Some((consts, prog)),
            fast: Some(Arc::new(fast)),
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
        if let Some((c, prog)) = &self.bound {
            // Bitwise equality (also matches a bound +inf eps).
            if c[0].to_bits() == vars[0].to_bits()
                && c[1].to_bits() == vars[1].to_bits()
                && c[2].to_bits() == vars[2].to_bits()
                && c[3].to_bits() == vars[3].to_bits()
            {
                if let Some(f) = self.fast.as_ref().filter(|f| f.splits()) {
                    return f.eval(&vars);
                }
                return prog.eval(&vars);
            }
        }
        self.general.eval(&vars)
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
    /// The interval lower bound computed by [`ThresholdExpr::bind`] when `base` carries the
    /// bound constants, else `−∞`.
    fn lower_bound(&self, base: &ThresholdVars) -> f64 {
        match (&self.bound, &self.fast) {
            (Some((c, _)), Some(f))
                if c[0].to_bits() == base.delta.to_bits()
                    && c[1].to_bits() == base.k.to_bits()
                    && c[2].to_bits() == base.eps.to_bits()
                    && c[3].to_bits() == base.sigma.to_bits() =>
            {
                f.lower
            }
            _ => f64::NEG_INFINITY,
        }
    }
}

// ------------------------------------------------------------------------------------------
// Presets

/// A named threshold written in the expression language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// Name accepted by `--threshold NAME` (and [`preset`]).
    pub name: &'static str,
    /// What it is and where it comes from.
    pub description: &'static str,
    /// Whether the paper proves δ-correctness with it (for its algorithm).
    pub provable: bool,
}

/// Every preset, provable ones first.
pub const PRESETS: [Preset; 9] = [
    Preset {
        name: "paper-cg",
        description: "Eq. (4) c^G (TTUCB, CTB-TT, Gaussian-mechanism TTUCB; Sec. 2.2.3)",
        provable: true,
    },
    Preset {
        name: "paper-daf-inf",
        description: "L. 34 c^G(w, delta/(zeta(2)^2 k(na)^2 k(nb)^2)) (DAF with eps = inf, DPA-TT; s = 2)",
        provable: true,
    },
    Preset {
        name: "paper-adap-tt",
        description: "Eq. (12) c^{G,eps} (AdaP-TT, L. 21; s = 2)",
        provable: true,
    },
    Preset {
        name: "paper-adap-tt-star",
        description: "Eq. (14) c~^{G,eps} with k^2 in the 2nd case (AdaP-TT*, L. 23; MATH.md ISSUE 16)",
        provable: true,
    },
    Preset {
        name: "paper-adap-tt-star-printed",
        description: "Eq. (14) as printed (max_c k, not k^2, in the 2nd case; not covered by L. 23)",
        provable: false,
    },
    Preset {
        name: "ref-ttucb",
        description: "public code's TTUCB rule log((1 + log t)/delta) on its sigma = 1 statistic, i.e. /sigma^2 on W^G (MATH.md S)",
        provable: false,
    },
    Preset {
        name: "ref-adap-tt",
        description: "public code's AdaP-TT rule log(1/delta) + log(1+log na) + log(1+log nb) + (1/na+1/nb) log(1/delta)^2/eps^2, /sigma^2 on W^G (MATH.md S)",
        provable: false,
    },
    Preset {
        name: "unsafe-log-over-20",
        description: "DELIBERATELY UNSAFE log(1/delta)/20, to check that the auditor catches it",
        provable: false,
    },
    Preset {
        name: "unsafe-adap-tt-no-privacy",
        description: "DELIBERATELY UNSAFE Eq. (12) without its privacy term (fails at small eps)",
        provable: false,
    },
];

/// `c^G_{a,b}(ω, d)` of Eq. (4) with the risk written as the expression `d`.
fn c_g_text(d: &str) -> String {
    format!("(2*cg(log((K-1)/({d}))/2) + 2*log(4+log(na)) + 2*log(4+log(nb)))")
}

/// `c^{G,ε}_{a,b}(ω, d)` of Eq. (12) with the risk written as the expression `d`.
fn c_g_eps_text(d: &str) -> String {
    let inner = c_g_text(&format!("18*({d})/(pi^4*k(na)^2*k(nb)^2)"));
    format!(
        "(2*{inner} + (1/(eps^2*sigma^2))*((1/na)*log(pi^2*K*k(na)^2/(3*({d})))^2 + (1/nb)*log(pi^2*K*k(nb)^2/(3*({d})))^2))"
    )
}

/// The expression text of a preset, or `None` for an unknown name.
///
/// # Definition
/// * `paper-cg`: `2 C_G(log((K−1)/δ)/2) + 2 log(4 + log na) + 2 log(4 + log nb)` (Eq. (4)).
/// * `paper-daf-inf`: `c^G(ω, δ/(ζ(2)² k(na)² k(nb)²))` (L. 34, `s = 2`).
/// * `paper-adap-tt`: `2 c^G(ω, 18δ/(π⁴k(na)²k(nb)²)) + (1/(ε²σ²)) Σ_c (1/n_c) log²(π²K k(n_c)²/(3δ))` (Eq. (12)).
/// * `paper-adap-tt-star`: Eq. (14), case split on `gap < ε/2`, `k²` in the second case
///   (the form proven by L. 23, MATH.md ISSUE 16); `-printed`: `max_c k(n_c)` as printed.
/// * `ref-ttucb`, `ref-adap-tt`: the public code's empirical rules (MATH.md S). That code's
///   statistic is `W^G·σ²` (it uses `σ = 1`), so its threshold `c` on it is `c/σ²` on `W^G`.
///
/// # Reference
/// Eq. (4), (12), (14), L. 34 (MATH.md D.1); MATH.md S.
///
/// # Example
/// ```
/// assert!(dpbai::audit::expr::preset("paper-cg").unwrap().contains("cg("));
/// assert!(dpbai::audit::expr::preset("nope").is_none());
/// ```
pub fn preset(name: &str) -> Option<String> {
    let star = |kmax: &str| {
        let case1 = format!(
            "0.5*{} + (sqrt(2)/(eps*sigma))*(sqrt(h(na,delta,K)/na)*log(pi^2*K*k(na)^2/(2*delta)) + sqrt(h(nb,delta,K)/nb)*log(pi^2*K*k(nb)^2/(2*delta)))",
            c_g_eps_text("2*delta/3")
        );
        let case2 = format!(
            "(1/(2*sigma^2))*log(pi^2*K*{kmax}/(2*delta)) + (eps/(2*sqrt(2)*sigma))*(sqrt(na*h(na,delta,K)) + sqrt(nb*h(nb,delta,K)))"
        );
        format!("ifge(gap, eps/2, {case2}, {case1})")
    };
    Some(match name {
        "paper-cg" => c_g_text("delta"),
        "paper-daf-inf" => c_g_text("delta/(zeta(2)^2*k(na)^2*k(nb)^2)"),
        "paper-adap-tt" => c_g_eps_text("delta"),
        "paper-adap-tt-star" => star("max(k(na),k(nb))^2"),
        "paper-adap-tt-star-printed" => star("max(k(na),k(nb))"),
        "ref-ttucb" => "log((1+log(t))/delta)/sigma^2".to_string(),
        "ref-adap-tt" => {
            "(log(1/delta) + log(1+log(na)) + log(1+log(nb)) + (1/na+1/nb)*log(1/delta)^2/eps^2)/sigma^2"
                .to_string()
        }
        "unsafe-log-over-20" => "log(1/delta)/20".to_string(),
        "unsafe-adap-tt-no-privacy" => {
            format!("2*{}", c_g_text("18*delta/(pi^4*k(na)^2*k(nb)^2)"))
        }
        _ => return None,
    })
}

/// Parses `--threshold` input: a preset name or an expression.
///
/// # Errors
/// As [`ThresholdExpr::parse`].
///
/// # Example
/// ```
/// let c = dpbai::audit::expr::parse_threshold("ref-ttucb").unwrap();
/// assert!(c.uses("t"));
/// ```
pub fn parse_threshold(text: &str) -> Result<ThresholdExpr> {
    match preset(text.trim()) {
        Some(expr) => ThresholdExpr::parse(&expr),
        None => ThresholdExpr::parse(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(src: &str, v: &ThresholdVars) -> f64 {
        ThresholdExpr::parse(src).expect("parses").eval(v)
    }

    fn vars() -> ThresholdVars {
        ThresholdVars {
            delta: 0.01,
            k: 5.0,
            eps: 0.5,
            sigma: 0.5,
            t: 100.0,
            na: 8.0,
            nb: 16.0,
            ka: 5.0,
            kb: 6.0,
            gap: 0.1,
        }
    }

    #[test]
    fn arithmetic_and_precedence() {
        let v = vars();
        assert_eq!(ev("1 + 2*3", &v), 7.0);
        assert_eq!(ev("(1 + 2)*3", &v), 9.0);
        assert_eq!(ev("2^3^2", &v), 512.0);
        assert_eq!(ev("-2^2", &v), -4.0);
        assert_eq!(ev("2^-1", &v), 0.5);
        assert_eq!(ev("8/4/2", &v), 1.0);
        assert_eq!(ev("1 - 2 - 3", &v), -4.0);
        assert_eq!(ev("--3", &v), 3.0);
        assert_eq!(ev("1.5e2 + .5", &v), 150.5);
        assert_eq!(ev("min(3, 1, 2) + max(na, nb)", &v), 17.0);
        assert_eq!(ev("na*nb + t - ka - kb", &v), 128.0 + 100.0 - 11.0);
        assert_eq!(ev("ifge(gap, eps/2, 1, 2)", &v), 2.0);
        assert_eq!(ev("ifge(0.3, eps/2, 1, 2)", &v), 1.0);
        assert_eq!(ev("ifge(eps/2, eps/2, 1, 2)", &v), 1.0);
        assert!((ev("log(e) + log2(8) + sqrt(4) + exp(0) + abs(-1)", &v) - 8.0).abs() < 1e-15);
        assert!((ev("pi", &v) - std::f64::consts::PI).abs() == 0.0);
        assert_eq!(ev("delta*K*eps*sigma", &v), 0.01 * 5.0 * 0.5 * 0.5);
    }

    #[test]
    fn nan_propagates_through_min_max() {
        let v = vars();
        assert!(ev("min(log(-1), 1)", &v).is_nan());
        assert!(ev("max(1, sqrt(-1))", &v).is_nan());
        assert!(ev("h(na, delta, 2.5)", &v).is_nan());
    }

    #[test]
    fn constant_folding_collapses_constants() {
        let c = ThresholdExpr::parse("log(1/0.01) + 2*3").expect("parses");
        assert_eq!(c.len(), 1);
        let c = ThresholdExpr::parse("log(1/delta) + na").expect("parses");
        let b = c.bind(0.01, 5.0, f64::INFINITY, 0.5).expect("binds");
        let v = ThresholdVars {
            delta: 0.01,
            k: 5.0,
            eps: f64::INFINITY,
            sigma: 0.5,
            na: 3.0,
            ..Default::default()
        };
        assert_eq!(b.bound.as_ref().map(|(_, p)| p.code.len()), Some(3));
        assert_eq!(b.eval(&v), c.eval(&v));
        // Mismatched constants fall back to the general program.
        let v2 = ThresholdVars { delta: 0.1, ..v };
        assert!((b.eval(&v2) - (10f64.ln() + 3.0)).abs() < 1e-15);
    }

    fn err(src: &str) -> String {
        ThresholdExpr::parse(src)
            .expect_err("must fail")
            .to_string()
    }

    #[test]
    fn errors_point_at_the_column() {
        assert!(
            err("log(1/deta)").starts_with("unknown variable 'deta' at column 7 (known: delta, K,")
        );
        assert!(err("deta + 1").starts_with("unknown variable 'deta' at column 1"));
        assert!(err("foo(1)").starts_with("unknown function 'foo' at column 1 (known: log,"));
        assert_eq!(
            err("1 +"),
            "expected a number, a name or '(', found end of expression at column 4"
        );
        assert_eq!(
            err("(1 + 2"),
            "expected ')' to close '(' of column 1, found end of expression at column 7"
        );
        assert_eq!(err("1 + 2)"), "unmatched ')' at column 6");
        assert_eq!(
            err("2 na"),
            "unexpected 'na' (missing operator?) at column 3"
        );
        assert_eq!(err("1 $ 2"), "unexpected character '$' at column 3");
        assert_eq!(err(""), "empty expression at column 1");
        assert_eq!(
            err("min(1)"),
            "min takes at least 2 argument(s), got 1 at column 1"
        );
        assert_eq!(err("h(1, 2)"), "h takes 3 argument(s), got 2 at column 1");
        assert!(err("log").contains("'log' is a function"));
        assert!(err("na(2)").contains("'na' is a variable"));
        assert!(err(&"(".repeat(500)).contains("nested more than"));
        assert!(err(&"-".repeat(500)).contains("nested more than"));
        assert!(err("1e999").contains("overflows"));
    }

    #[test]
    fn deep_right_assoc_chains_are_rejected_not_overflowed() {
        let s = vec!["na"; 150].join("^");
        assert!(err(&s).contains("evaluation stack"), "{}", err(&s));
        // Long left-associative chains stay shallow on the stack and are accepted.
        let long = vec!["na"; 3000].join("+");
        let c = ThresholdExpr::parse(&long).expect("parses");
        let v = ThresholdVars {
            na: 1.0,
            ..Default::default()
        };
        assert_eq!(c.eval(&v), 3000.0);
    }

    #[test]
    fn memo_returns_exactly_the_uncached_value() {
        let c =
            ThresholdExpr::parse(&preset("paper-adap-tt-star").expect("preset")).expect("parses");
        assert!(c.general.memo.is_some());
        let b = c.bind(0.01, 5.0, 0.5, 0.5).expect("binds");
        for rep in 0..3 {
            for i in 1..300 {
                let v = ThresholdVars {
                    na: i as f64,
                    nb: (2 * i + rep) as f64,
                    gap: 0.001 * i as f64,
                    ..vars()
                };
                let vs = [
                    v.delta, v.k, v.eps, v.sigma, v.t, v.na, v.nb, v.ka, v.kb, v.gap,
                ];
                let direct = c.general.run(&vs);
                assert_eq!(c.eval(&v).to_bits(), direct.to_bits());
                assert!((b.eval(&v) - direct).abs() <= 1e-12 * direct.abs());
            }
        }
        // Cheap programs are not memoised.
        assert!(ThresholdExpr::parse("log(na)")
            .expect("parses")
            .general
            .memo
            .is_none());
    }

    #[test]
    fn every_preset_parses() {
        for p in PRESETS {
            let text = preset(p.name).expect("preset exists");
            ThresholdExpr::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", p.name));
        }
    }
}
