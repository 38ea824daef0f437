//! Claim checks on characteristic times (READINGS.md §B) and special functions (READINGS.md §C).
//!
//! Inequalities between certified times are checked on the point values with a relative slack
//! of [`REL_TOL`] (1e-8, the solver's promised accuracy), so that identities such as
//! `T_ℓ = T_TV2/c(ε)` (F.63) do not fail on rounding.

mod gaussian;
mod global;
mod local;
mod special;

use super::{
    claim as result, flag, golden_min, log_grid, paper_instances, sig, stats, Area, Check,
    ClaimResult, Context,
};
use crate::instance::Instance;

/// Relative slack for inequalities between computed times (solver accuracy 1e-8).
pub const REL_TOL: f64 = 1e-8;

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

/// `a >= b` up to the solver's relative accuracy.
fn geq(a: f64, b: f64) -> bool {
    a >= b * (1.0 - REL_TOL)
}

fn instances() -> Vec<(&'static str, Instance)> {
    paper_instances()
        .into_iter()
        .map(|(n, m)| {
            (
                n,
                Instance::bernoulli(m).expect("invariant: paper instances are valid"),
            )
        })
        .collect()
}

/// 1 when a checked inequality fails (NaN fails too), for violation counts.
fn fails(ok: bool) -> u32 {
    u32::from(!ok)
}

fn eps_grid(ctx: &Context) -> Vec<f64> {
    log_grid(1e-4, 1e4, if ctx.full { 81 } else { 25 })
}
