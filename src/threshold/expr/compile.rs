//! Compilation of a syntax tree: constant folding (with the run constants substituted when they
//! are bound) and code generation into postfix bytecode for the stack machine of [`super::eval`].

use super::functions::{apply_binary, apply_h, apply_unary};
use super::parser::{BinaryFn, Node, UnaryFn};
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicU64, Ordering};

/// Maximum evaluation stack depth.
pub(super) const MAX_STACK: usize = 64;

/// One bytecode instruction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Op {
    /// Pushes a number.
    Const(f64),
    /// Pushes the variable of a slot.
    Load(u8),
    /// Replaces the top `x` by `f(x)`.
    Un(UnaryFn),
    /// Pops `y`, replaces the top `x` by `f(x, y)`.
    Bin(BinaryFn),
    /// Pops `k`, `delta`, replaces the top `x` by `h(x, delta, k)`.
    H,
    /// Replaces the top `x` by `x^n`.
    PowI(i32),
    /// Pops `y`, `x`; jumps to the target when `!(x >= y)` (NaN compares false: else branch).
    JumpIfLess(u32),
    Jump(u32),
}

/// Constant folding, with the run constants substituted when `bound` is given (a NaN entry
/// leaves its constant free: the proofs by dominance keep `δ` or `K` as ranges).
pub(crate) fn fold(n: &Node, bound: Option<&[f64; 4]>) -> Node {
    match n {
        Node::Num(v) => Node::Num(*v),
        Node::Var(v) => match bound {
            Some(b) if v.is_run_constant() && !b[*v as usize].is_nan() => Node::Num(b[*v as usize]),
            _ => Node::Var(*v),
        },
        Node::Un(f, a) => match fold(a, bound) {
            Node::Num(x) => Node::Num(apply_unary(*f, x)),
            a => Node::Un(*f, Box::new(a)),
        },
        Node::Bin(f, a, b) => match (fold(a, bound), fold(b, bound)) {
            (Node::Num(x), Node::Num(y)) => Node::Num(apply_binary(*f, x, y)),
            (a, Node::Num(y)) if *f == BinaryFn::Pow && y.fract() == 0.0 && y.abs() <= 16.0 => {
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
pub(super) struct Program {
    pub(super) code: Vec<Op>,
    /// For programs that call an expensive special function (`cg`, `wbar`, `zeta`, `h`): a
    /// unique id and the mask of the variables read, for the per-thread memo of [`Program::eval`].
    pub(super) memo: Option<(u64, u16)>,
}

/// Source of unique program ids for the memo.
static NEXT_PROGRAM_ID: AtomicU64 = AtomicU64::new(1);

impl Program {
    /// Generates the code of a (folded) tree; decides whether the program is memoised.
    ///
    /// # Errors
    /// [`Error::Parse`] when the program needs a stack deeper than [`MAX_STACK`].
    pub(super) fn compile(n: &Node) -> Result<Program> {
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
                Op::H | Op::Un(UnaryFn::Cg) | Op::Un(UnaryFn::Wbar) | Op::Un(UnaryFn::Zeta)
            )
        });
        let memo = expensive.then(|| {
            let mask = code.iter().fold(0u16, |m, op| match op {
                Op::Load(i) => m | (1 << i),
                _ => m,
            });
            let id = NEXT_PROGRAM_ID.fetch_add(1, Ordering::Relaxed);
            (id, mask)
        });
        Ok(Program { code, memo })
    }
}
