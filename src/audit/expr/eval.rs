//! Evaluation: the semantics of each function (shared with constant folding), the stack machine
//! that runs compiled bytecode without allocation, and its per-thread memo of expensive programs.

use super::compile::{Op, Program, MAX_STACK};
use super::parser::{BinaryFn, UnaryFn};
use std::cell::RefCell;

/// The value of a unary function at `x` (NaN outside its domain).
pub(super) fn apply_unary(f: UnaryFn, x: f64) -> f64 {
    match f {
        UnaryFn::Neg => -x,
        UnaryFn::Log => x.ln(),
        UnaryFn::Log2 => x.log2(),
        UnaryFn::Sqrt => x.sqrt(),
        UnaryFn::Exp => x.exp(),
        UnaryFn::Abs => x.abs(),
        UnaryFn::Cg => special_or_nan::c_g(x),
        UnaryFn::Wbar => special_or_nan::wbar_m1(x),
        UnaryFn::Zeta => special_or_nan::zeta(x),
        UnaryFn::K => special_or_nan::k(x),
    }
}

/// The value of a binary operator or function at `(x, y)` (NaN-propagating `min`/`max`).
pub(super) fn apply_binary(f: BinaryFn, x: f64, y: f64) -> f64 {
    match f {
        BinaryFn::Add => x + y,
        BinaryFn::Sub => x - y,
        BinaryFn::Mul => x * y,
        BinaryFn::Div => x / y,
        BinaryFn::Pow => x.powf(y),
        // NaN-propagating min/max: a NaN argument must not silently disappear.
        BinaryFn::Min => {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.min(y)
            }
        }
        BinaryFn::Max => {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.max(y)
            }
        }
    }
}

/// `h(x, δ)` of L. 23 for `K = k` arms; NaN unless `k` is an integer in `[2, 10^9]`.
pub(super) fn apply_h(x: f64, delta: f64, k: f64) -> f64 {
    let valid = (2.0..=1e9).contains(&k) && k.fract() == 0.0;
    if !valid {
        return f64::NAN;
    }
    special_or_nan::h(x, delta, k as usize)
}

/// Bridges to `crate::special`: out-of-domain arguments give NaN.
mod special_or_nan {
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

/// Slots of the per-thread memo (direct-mapped).
const MEMO_SLOTS: usize = 256;

/// One memo entry: program id, variable bits (masked), value.
type MemoEntry = (u64, [u64; 10], f64);

thread_local! {
    /// Per-thread memo of expensive programs. Pure function values only: a hit returns exactly
    /// what `run` would compute, so results do not depend on threads or history.
    static MEMO: RefCell<Vec<MemoEntry>> =
        RefCell::new(vec![(0, [0; 10], 0.0); MEMO_SLOTS]);
}

impl Program {
    /// `run`, through the per-thread memo when the program is expensive.
    #[inline]
    pub(super) fn eval(&self, vars: &[f64; 10]) -> f64 {
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
    pub(super) fn run(&self, vars: &[f64; 10]) -> f64 {
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
                    stack[sp - 1] = apply_unary(f, stack[sp - 1]);
                }
                Op::Bin(f) => {
                    sp -= 1;
                    stack[sp - 1] = apply_binary(f, stack[sp - 1], stack[sp]);
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
