//! The arguments of `dpbai verify`.

use std::path::PathBuf;

/// Arguments of `dpbai verify`.
#[derive(clap::Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// `quick` (default; minutes on 2 cores), `paper` (the full grid of Section 5 / App. I) or
    /// `smoke` (about a minute: a slice of the quick grid at 20 runs per cell, every numeric
    /// claim and audit; the claims whose cells it lacks are not checkable, and its verdicts are
    /// compared with no snapshot): the study files `verify/quick.toml`, `verify/paper.toml`,
    /// `verify/smoke.toml` (and the second paper's `verify/bai25-*.toml`), compiled in.
    #[arg(long, default_value = "quick", value_parser = ["quick", "paper", "smoke"])]
    pub(crate) profile: String,
    /// Folder that holds REPORT.md and figures/ (default: the current directory; for the smoke
    /// profile `smoke-profile/`, so that it never overwrites the committed reports).
    #[arg(long)]
    pub(crate) out_dir: Option<PathBuf>,
    /// Compare the verdicts with the expected ones and exit non-zero on any change. A cell
    /// that the cache holds only at an older engine semantics of its algorithm (a stale cell)
    /// fails the check before anything runs, unless --allow-stale.
    #[arg(long)]
    pub(crate) check: bool,
    /// With --check: use stale cells (computed by an older engine semantics of their algorithm)
    /// instead of failing, and say how many there are. Their rows carry their old digests.
    #[arg(long)]
    pub(crate) allow_stale: bool,
    /// After the report, recompute this many cached cells, chosen at random, from the
    /// specifications stored in their files and require bit-identical records (0: none).
    #[arg(long, default_value_t = 0)]
    pub(crate) rederive: usize,
    /// Seed of the choice of --rederive's cells (default 0).
    #[arg(long, default_value_t = 0)]
    pub(crate) rederive_seed: u64,
    /// File of expected verdicts: tables `[independent]` (from the paper or docs/CLAIMS.md's prototype) and
    /// `[snapshot]` (recorded from our own run), each `"F.1" = "confirmed"`; or, instead of
    /// `[independent]`, `independent_from = "FILE"` (beside it) to share that file's table.
    /// Default: `verify/expected.toml` for the quick profile, `verify/expected-paper.toml` for
    /// the paper profile (whose snapshots differ: more runs, the full grid).
    #[arg(long)]
    pub(crate) expected: Option<PathBuf>,
    /// File of expected verdicts of the second paper's claims (BAI25, REPORT-BAI25.md), in
    /// the format of --expected. Default: `verify/expected-bai25.toml` for the quick profile,
    /// `verify/expected-bai25-paper.toml` for the paper profile.
    #[arg(long)]
    pub(crate) expected_bai25: Option<PathBuf>,
    /// Rewrite the `[snapshot]` table of the expected file with this run's verdicts of every
    /// claim that ran and is not in `[independent]` (refused when a claim is `not checkable`
    /// because of an error); the lines above `[snapshot]` are kept.
    #[arg(long)]
    pub(crate) record_snapshot: bool,
    /// Write the published forms of the claim declarations (`verify/protocol.toml` and the
    /// claims table of `docs/CLAIMS.md`, under --out-dir) and exit: nothing is checked.
    #[arg(long)]
    pub(crate) write_protocol: bool,
    /// Also print every result as JSON on stdout.
    #[arg(long)]
    pub(crate) json: bool,
    /// Override the runs per experiment cell of the profile.
    #[arg(long)]
    pub(crate) runs: Option<u64>,
    /// Worker threads for the Monte Carlo runs (default: all cores).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Skip the Monte Carlo experiments (claims that need them are reported as not checkable).
    #[arg(long)]
    pub(crate) no_experiments: bool,
    /// Run only the slice i/n (0-based) of every cell's runs into shard files under
    /// OUT_DIR/verify-cache/PROFILE, and write no report: one job of a job array per i. Then put
    /// all shard files in one verify-cache folder and run `verify` without --shard: it assembles
    /// the cells (identical to an unsharded run) and writes the report.
    #[arg(long)]
    pub(crate) shard: Option<String>,
}

impl Args {
    /// The output folder: `--out-dir`, else `smoke-profile/` for the smoke profile and the
    /// current directory for the others.
    pub(crate) fn out_dir(&self) -> PathBuf {
        self.out_dir.clone().unwrap_or_else(|| {
            PathBuf::from(if self.profile == "smoke" {
                "smoke-profile"
            } else {
                "."
            })
        })
    }
}
