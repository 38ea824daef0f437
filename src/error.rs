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
    /// The exact value is finite but beyond the largest `f64` (about 1.8e308): reported with the
    /// decimal logarithm of the true value instead of a silent `inf`.
    #[error("value of {what} overflows f64 (≈ 10^{log10:.1})")]
    Overflow {
        /// The function and its arguments, e.g. `c_local(eps = 400)`.
        what: String,
        /// `log10` of the exact value.
        log10: f64,
    },
    /// A user-supplied expression or configuration could not be parsed.
    #[error("{0}")]
    Parse(String),
    /// A user threshold (`--threshold`) is not finite at a point where a run evaluates it
    /// ([`crate::threshold::probe`]): the expression, its value and the point.
    #[error("threshold `{expr}` is {value} at {point}: it must be finite everywhere")]
    Threshold {
        /// The expression, as typed.
        expr: String,
        /// Its value there (NaN or ±∞).
        value: f64,
        /// The point: `t, na, nb, ka, kb, gap` and the constants `delta, K, eps, sigma`.
        point: String,
    },
    /// A configuration file (a study) holds a bad value: the file, the key and, where known,
    /// its line.
    #[error("{file}: {key}{}: {message}", line.map_or(String::new(), |l| format!(" (line {l})")))]
    Config {
        /// The file, as given.
        file: String,
        /// The key's path (`algorithm[2].eps[0]`), or `(file)`.
        key: String,
        /// The 1-based line of the key in the user's file, when it can be found.
        line: Option<usize>,
        /// What is wrong, and what is allowed.
        message: String,
    },
    /// A fault injected into an evidence area (`DPBAI_INJECT_FAULT`, [`crate::fault`]).
    #[error("injected fault in {area} (DPBAI_INJECT_FAULT)")]
    Injected {
        /// The area's name (`solver`, `special`, `mc`, `audit`).
        area: &'static str,
    },
    /// A figure could not be built, drawn or written ([`crate::plot`]).
    #[error("figure {name}: {source}")]
    Figure {
        /// The figure (its file stem or title).
        name: String,
        /// What went wrong in the figure layer.
        #[source]
        source: FigureError,
    },
    /// Reading or writing a file or folder failed.
    #[error("cannot {op} {}: {cause}", path.display())]
    Io {
        /// What was attempted: `read`, `write`, `create`, `rename`, ...
        op: String,
        /// The file or folder.
        path: std::path::PathBuf,
        /// The operating system's error (part of the message, so it is not also a `source`).
        cause: IoError,
    },
}

/// Errors of the figure layer ([`crate::plot`]), carried by [`Error::Figure`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FigureError {
    /// The figure description is not drawable (mismatched lengths, bad size, ...).
    #[error("invalid figure: {0}")]
    Invalid(String),
    /// The bundled font could not be registered.
    #[error("cannot register the bundled font DejaVu Sans: {0}")]
    Font(String),
    /// plotters reported an error while drawing.
    #[error("drawing failed: {0}")]
    Draw(String),
    /// Writing an output file failed.
    #[error("cannot write {}: {cause}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The operating system's error.
        cause: IoError,
    },
}

/// An [`std::io::Error`] that [`Error`] can carry (it is `Clone` and compares by kind and
/// message).
#[derive(Debug, Clone)]
pub struct IoError(std::sync::Arc<std::io::Error>);

impl IoError {
    /// The kind of the underlying error.
    pub fn kind(&self) -> std::io::ErrorKind {
        self.0.kind()
    }
}

impl PartialEq for IoError {
    fn eq(&self, other: &Self) -> bool {
        self.0.kind() == other.0.kind() && self.0.to_string() == other.0.to_string()
    }
}

impl Display for IoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for IoError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl From<std::io::Error> for IoError {
    fn from(e: std::io::Error) -> Self {
        IoError(std::sync::Arc::new(e))
    }
}

impl Error {
    /// Builds [`Error::Figure`]: the figure `name` failed with `source`.
    pub fn figure(name: impl Into<String>, source: FigureError) -> Self {
        Error::Figure {
            name: name.into(),
            source,
        }
    }

    /// Builds [`Error::Io`]: `op` (`read`, `write`, ...) on `path` failed with `source`.
    pub fn io(op: &str, path: impl AsRef<std::path::Path>, cause: std::io::Error) -> Self {
        Error::Io {
            op: op.to_string(),
            path: path.as_ref().to_path_buf(),
            cause: IoError(std::sync::Arc::new(cause)),
        }
    }

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
/// rewritten as [`compact_number`] writes it (`1e-20`, `0.01`); an integer of at most 24
/// digits (a seed, a count) and anything else are kept as they are.
fn short_number(v: String) -> String {
    if v.len() > 24 || v.contains('.') {
        if let Ok(x) = v.parse::<f64>() {
            let c = compact_number(x);
            if c.len() < v.len() {
                return c;
            }
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

/// `x` with `decimals` digits after the point (`{:.N}`), or in exponent form with as many
/// (`{:.Ne}`) when `|x| ≥ 1e15` or `0 < |x| < 1e-4`, so that no printed number runs to hundreds of
/// digits: for tables.
///
/// ```
/// assert_eq!(dpbai::error::fixed(12.3456, 2), "12.35");
/// assert_eq!(dpbai::error::fixed(1.5e300, 2), "1.50e300");
/// assert_eq!(dpbai::error::fixed(2.5e-7, 3), "2.500e-7");
/// ```
pub fn fixed(x: f64, decimals: usize) -> String {
    if x != 0.0 && x.is_finite() && (x.abs() < 1e-4 || x.abs() >= 1e15) {
        format!("{x:.decimals$e}")
    } else {
        format!("{x:.decimals$}")
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
