//! What a claims module imports: the declaration types and the check's context.

pub use super::context::{Context, Evidence};
pub use super::declare::{Checked, Claim, Row, RuleSet};
pub use super::record::flag;
pub use super::rule::{Borderline, Equivalence, Regime, Rule};
pub use crate::fault::Area;
