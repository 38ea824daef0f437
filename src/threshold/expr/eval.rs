//! Evaluation: the stack machine that runs compiled bytecode without allocation (with the
//! functions' values of [`super::functions`]), and its per-thread memo of expensive programs.

use super::compile::{MAX_STACK, Op, Program};
use super::functions::{apply_binary, apply_h, apply_unary};
use std::cell::RefCell;

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
