//! Claim checks on characteristic times (READINGS.md §B) and special functions (READINGS.md §C).
//!
//! Inequalities between certified times are checked on the point values with a relative slack
//! of `REL_TOL` (1e-8, the solver's promised accuracy), so that identities such as
//! `T_ℓ = T_TV2/c(ε)` (F.63) do not fail on rounding.

pub(super) mod common;
pub(super) mod gaussian;
pub(super) mod global;
pub(super) mod local;
pub(super) mod special;
