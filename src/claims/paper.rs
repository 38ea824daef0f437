//! A paper whose claims `dpbai verify` checks: its claim declarations, its study files (the
//! Monte Carlo evidence as data), how its evidence is sorted for its checks and gathered beyond
//! the study's cells, and where the published forms of its declarations live.

use super::context::Context;
use super::declare::AnyClaim;
use crate::error::Result;
use crate::experiment::run::CellResult;
use crate::experiment::study::Study;

/// How a paper gathers the evidence beyond its study's cells (traced runs, audits, searches),
/// each piece cached in the folder of [`Gathering::cache`] ([`crate::experiment::evidence`]).
pub type Gather = fn(&mut Context, &Gathering, &mut dyn FnMut(Step<'_>)) -> Result<()>;

/// Where a paper's evidence beyond its study's cells is cached, and which part a job computes.
#[derive(Debug, Clone, Default)]
pub struct Gathering {
    /// The cache folder (none: compute everything, write nothing).
    pub cache: Option<std::path::PathBuf>,
    /// Compute only the pieces `k ≡ i (mod n)` of `verify --shard i/n` into the cache, and fill
    /// nothing of the context.
    pub shard: Option<crate::mc::Shard>,
}

impl Gathering {
    /// Whether piece `k` is this job's.
    pub fn mine(&self, k: usize) -> bool {
        self.shard.is_none_or(|s| k as u64 % s.count == s.index)
    }
}

/// A paper: a study file plus a claims module.
#[derive(Clone, Copy)]
pub struct Paper {
    /// Short name (`dp-bai`).
    pub name: &'static str,
    /// The paper's title, for the generated headers.
    pub title: &'static str,
    /// The protocol file, relative to the repository (`verify/protocol.toml`).
    pub protocol: &'static str,
    /// The claims document whose generated `claims` block lists the claims.
    pub claims_doc: &'static str,
    /// The report file `dpbai verify` writes, relative to its output folder.
    pub report: &'static str,
    /// The expected verdicts `verify --check` compares with, by profile name (`quick`,
    /// `paper`), relative to the folder `dpbai` runs in.
    pub expected: &'static [(&'static str, &'static str)],
    /// The built-in study files by profile name (`quick`, `paper`), compiled in (none for a
    /// paper whose claims need no Monte Carlo cells).
    pub studies: &'static [(&'static str, &'static str)],
    /// The declarations.
    pub claims: fn() -> Vec<&'static dyn AnyClaim>,
    /// Sorts the results of the study's cells (`results[i]` is cell `i`) into the evidence the
    /// checks read.
    pub evidence: fn(&Study, &[CellResult], &mut Context),
    /// Gathers the evidence beyond the study's cells (traced runs, audit searches).
    pub gather: Gather,
}

impl Paper {
    /// The expected file of `profile`, if the paper has one.
    pub fn expected_file(&self, profile: &str) -> Option<&'static str> {
        self.expected
            .iter()
            .find(|(p, _)| *p == profile)
            .map(|(_, f)| *f)
    }
}

impl std::fmt::Debug for Paper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Paper").field("name", &self.name).finish()
    }
}

/// What a verification's progress callback is told.
#[derive(Debug)]
pub enum Step<'a> {
    /// Cell `done` of `total` of the study has finished (computed or loaded).
    Cell {
        /// Cells finished so far.
        done: usize,
        /// Cells in all.
        total: usize,
        /// The cell's result.
        result: &'a CellResult,
    },
    /// Step `done + 1` of `total` of a phase starts: a piece of the evidence beyond the cells
    /// (`name` is the piece, e.g. "traced runs"), or a claim to judge ("checking the claims").
    Phase {
        /// What runs now.
        name: &'static str,
        /// Steps of the phase finished so far.
        done: usize,
        /// Steps of the phase in all.
        total: usize,
    },
}
