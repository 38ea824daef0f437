//! Stopping thresholds, the layer between the bounds ([`crate::complexity`]) and the algorithms
//! ([`crate::bandit`]): what a threshold is, every paper threshold written once, the language a
//! user writes one in, and the proofs about one.
//!
//! # Layout
//! * [`custom`]: the [`CustomThreshold`] trait a run-time threshold implements, the variables it
//!   reads ([`ThresholdVars`]) and [`ClosureThreshold`] (a Rust closure as a threshold).
//! * [`paper`]: the paper's thresholds (Eq. (4), (12), (14), L. 34) and the public code's
//!   empirical ones, as the engine's cached form and the reference functions evaluated from it
//!   (`sf.rs`: the special functions they call on the hot path).
//! * [`expr`]: the expression language of `--threshold EXPR` (lexer, parser, constant folding,
//!   bytecode, interval enclosure, per-count split) and its named presets, which spell the paper
//!   thresholds of [`paper`] in that language.
//! * [`interval`]: outward-rounded interval arithmetic, on which the enclosures are built.
//! * [`probe`]: a user threshold bound to one run's constants, probed and checked for
//!   non-finite values.
//! * [`dominance`]: the proof that a user threshold is at least a provable preset over a domain
//!   given as data ([`dominance::RunDomain`]: what an algorithm's run evaluates the threshold
//!   on, declared by the algorithm in [`crate::bandit::info`]), and its certificate.
//!
//! The auditors ([`crate::audit`]) and the experiment layer use this layer; it uses only the
//! special functions, the shared parameters and the error type.

pub mod custom;
pub mod dominance;
pub mod expr;
pub mod interval;
pub mod paper;
pub mod probe;
pub(crate) mod sf;

pub use custom::{ClosureThreshold, CustomThreshold, ThresholdVars};
pub use paper::Eq14Form;
