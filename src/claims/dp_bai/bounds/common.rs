//! The helpers and shared imports of the bound checks (instances, ε grid, slack).

pub(super) use crate::claims::dp_bai::evidence::paper_instances;
pub(super) use crate::claims::prelude::*;
pub(super) use crate::fault::Area;
pub(super) use crate::instance::Instance;
pub(super) use crate::numbers::{golden_min, log_grid, sig};

/// Relative slack for inequalities between computed times (solver accuracy 1e-8).
pub const REL_TOL: f64 = 1e-8;

/// `a >= b` up to the solver's relative accuracy.
pub(super) fn geq(a: f64, b: f64) -> bool {
    a >= b * (1.0 - REL_TOL)
}

pub(super) fn instances() -> Vec<(&'static str, Instance)> {
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
pub(super) fn fails(ok: bool) -> u32 {
    u32::from(!ok)
}

pub(super) fn eps_grid(ctx: &Context) -> Vec<f64> {
    log_grid(1e-4, 1e4, if ctx.full { 81 } else { 25 })
}
