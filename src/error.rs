//! The library's one error type.
//!
//! Every fallible function of the library returns [`Result<T>`]. Variants carry the offending
//! value and the constraint it broke, so that the CLI can print a one-line message such as
//! `invalid delta = 1.5: must be in (0, 1)` and exit with code 2.

use std::fmt::Display;

/// Errors of the `dpbai` library.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// A parameter lies outside its domain (NaN and infinities included).
    #[error("invalid {name} = {value}: must be {constraint}")]
    InvalidParameter {
        /// Name of the parameter, as the paper or the CLI spells it.
        name: String,
        /// The offending value, formatted.
        value: String,
        /// The constraint it broke, e.g. `in (0, 1)`.
        constraint: String,
    },
    /// A bandit instance is not admissible (e.g. its best arm is not unique).
    #[error("invalid instance {means}: {reason}")]
    InvalidInstance {
        /// The means, formatted.
        means: String,
        /// What is wrong with them.
        reason: String,
    },
    /// An iterative method failed to reach its tolerance.
    #[error("no convergence in {what} after {iterations} iterations")]
    NoConvergence {
        /// Which computation.
        what: String,
        /// Iterations spent.
        iterations: usize,
    },
    /// A user-supplied expression or configuration could not be parsed.
    #[error("{0}")]
    Parse(String),
}

impl Error {
    /// Builds [`Error::InvalidParameter`].
    pub fn param(
        name: impl Into<String>,
        value: impl Display,
        constraint: impl Into<String>,
    ) -> Self {
        Error::InvalidParameter {
            name: name.into(),
            value: short_number(value.to_string()),
            constraint: constraint.into(),
        }
    }
}

/// A number written with many digits (`f64`'s `Display` spells `1e-320` out in full) is
/// rewritten in exponent form; anything else is kept as is.
fn short_number(v: String) -> String {
    if v.len() > 24 {
        if let Ok(x) = v.parse::<f64>() {
            return format!("{x:e}");
        }
    }
    v
}

/// `x` as `Display` writes it (`0.01`, `1500`), or in exponent form (`1e-16`, not sixteen
/// zeros) when `|x| < 1e-4` or `|x| ≥ 1e15`: for tables and messages.
///
/// ```
/// assert_eq!(dpbai::error::compact_number(0.01), "0.01");
/// assert_eq!(dpbai::error::compact_number(1e-16), "1e-16");
/// assert_eq!(dpbai::error::compact_number(1e-300), "1e-300");
/// ```
pub fn compact_number(x: f64) -> String {
    if x != 0.0 && x.is_finite() && (x.abs() < 1e-4 || x.abs() >= 1e15) {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

/// Result alias of the library.
pub type Result<T> = std::result::Result<T, Error>;

/// Checks that `x` is finite.
pub fn check_finite(name: &str, x: f64) -> Result<f64> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(Error::param(name, x, "a finite number"))
    }
}

/// Checks `lo < x < hi` (open interval; NaN rejected).
pub fn check_open(name: &str, x: f64, lo: f64, hi: f64) -> Result<f64> {
    if x > lo && x < hi {
        Ok(x)
    } else {
        Err(Error::param(name, x, format!("in ({lo}, {hi})")))
    }
}

/// Checks `lo <= x <= hi` (closed interval; NaN rejected).
pub fn check_closed(name: &str, x: f64, lo: f64, hi: f64) -> Result<f64> {
    if x >= lo && x <= hi {
        Ok(x)
    } else {
        Err(Error::param(name, x, format!("in [{lo}, {hi}]")))
    }
}

/// Checks `x > lo` and finite.
pub fn check_above(name: &str, x: f64, lo: f64) -> Result<f64> {
    if x > lo && x.is_finite() {
        Ok(x)
    } else {
        Err(Error::param(name, x, format!("a finite number > {lo}")))
    }
}

/// Checks `x >= lo` and finite.
pub fn check_at_least(name: &str, x: f64, lo: f64) -> Result<f64> {
    if x >= lo && x.is_finite() {
        Ok(x)
    } else {
        Err(Error::param(name, x, format!("a finite number >= {lo}")))
    }
}
