//! Claim checks on characteristic times (READINGS.md §B) and special functions (READINGS.md §C).
//!
//! Inequalities between certified times are checked on the point values with a relative slack
//! of `REL_TOL` (1e-8, the solver's promised accuracy), so that identities such as
//! `T_ℓ = T_TV2/c(ε)` (F.63) do not fail on rounding.

mod common;
mod gaussian;
mod global;
mod local;
mod special;
use common::Check;

/// The checks of this module.
pub fn checks() -> Vec<Check> {
    vec![
        local::f3,
        local::f4,
        local::f5,
        local::f10,
        local::f11,
        local::f13,
        global::f18,
        global::f19,
        global::f21,
        global::f23,
        global::f24,
        gaussian::f26,
        special::f32,
        global::f34,
        special::f37,
        special::f38,
        special::f48,
        local::f63,
        global::f64_,
        gaussian::f65,
        special::f66,
    ]
}
