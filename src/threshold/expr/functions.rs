//! The semantics of each function of the threshold language, at a point: the values the stack
//! machine ([`super::eval`]) computes and constant folding ([`super::compile::fold`]) uses.
//! Out-of-domain arguments give NaN.

use super::parser::{BinaryFn, UnaryFn};

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
