//! The experiment layer: what a stored number *is*. Between the auditors and the report, it owns
//!
//! * the **cell specification** ([`spec::CellSpec`]): family, σ and every mean; the algorithm,
//!   its rule set, every reading and control option and the threshold text; δ, ε, γ, β, runs,
//!   seed and cap; and the **engine semantics** of the algorithm
//!   ([`crate::bandit::semantics`]). It has one canonical encoding (sorted keys, floats in
//!   shortest round-trip form, no default left implicit) and a [`spec::CellDigest`] of it;
//! * the labelled cells of `dpbai verify` and `dpbai experiment` ([`cell::Cell`]: a spec whose
//!   seed derives from a human-readable key), run or loaded by [`run`];
//! * seeding ([`seed`]);
//! * the cell cache ([`cache`]: one file per digest, atomic writes, stale detection), the shard
//!   files of `dpbai run --shard` and their merge ([`shard`]), and the metadata every summary
//!   carries ([`meta`]);
//! * the paper's grid of cells as data ([`grid`]);
//! * users' studies: the study file, its cells, its rows and `results.csv` ([`study`]).
//!
//! # What the digest protects, and what re-derivation adds
//! A cell's digest is an unkeyed hash (BLAKE3, truncated to 64 bits) of its canonical
//! specification. It names the cache file and travels with every row, shard, figure point and
//! REPORT table derived from the cell, so that changing any input (a mean, σ, a reading, the
//! threshold text, δ, ε, the runs, the seed, the cap, or the engine semantics of the algorithm)
//! recomputes the cell instead of reusing an old one, and so that accidental corruption or an
//! edit of a stored file is detected (each file also carries the BLAKE3 digest of its content).
//! It does not defend against a deliberate forgery: anyone can recompute an unkeyed digest.
//! Re-derivation does ([`run::rederive`], `dpbai verify --rederive N`): any stored cell can be
//! recomputed from its specification and must give bit-identical records.

pub mod cache;
pub mod cell;
pub mod evidence;
pub mod grid;
pub mod meta;
pub mod run;
pub mod seed;
pub mod shard;
pub mod shell;
pub mod spec;
pub mod study;

pub use cell::{Cell, cell_instance, engine_flags, threshold_key};
pub use run::{CellResult, Rederived, rederive, run_cell, run_cell_shard, shard_present};
pub use spec::{CellDigest, CellSpec, checked_threshold};
