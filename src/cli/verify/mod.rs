//! `dpbai verify`: check every numeric claim of the paper, regenerate REPORT.md's generated
//! blocks and figures/, and compare verdicts with `verify/expected.toml`.

use dpbai::experiment::grid::long_runs::{feasibility_cells, long_run_cells, small_eps_cells};
use dpbai::experiment::grid::threshold_control::threshold_control_cells;
use dpbai::experiment::grid::{
    case2_control_cells, dpa_live_counts_cell, run_grid, starvation_control_cells, Profile,
};
use dpbai::experiment::run::{CellRunner, StalePolicy};
use dpbai::experiment::{run_cell_shard, Cell};
use dpbai::fault::Area;
use dpbai::report::blocks;
use dpbai::report::claims::{run_all, Context};
use dpbai::report::markdown::{claims_table, replace_block, verdict_summary};
use std::path::PathBuf;

mod expected;
mod progress;

use expected::{check, expected_path, preflight, record_snapshot};
use progress::{spinner, Progress};

/// Arguments of `dpbai verify`.
#[derive(clap::Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// `quick` (default; minutes on 2 cores) or `paper` (the full grid of Section 5 / App. I).
    #[arg(long, default_value = "quick", value_parser = ["quick", "paper"])]
    pub(crate) profile: String,
    /// Folder that holds REPORT.md and figures/ (default: the current directory).
    #[arg(long, default_value = ".")]
    pub(crate) out_dir: PathBuf,
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
    /// Rewrite the `[snapshot]` table of the expected file with this run's verdicts of every
    /// claim that ran and is not in `[independent]` (refused when a claim is `not checkable`
    /// because of an error); the lines above `[snapshot]` are kept.
    #[arg(long)]
    pub(crate) record_snapshot: bool,
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

/// The cells a `verify --shard` job runs: the grid (both rule sets), then the control cells that
/// are not grid cells (case 2, starvation, DPA live counts), so that the assembly computes no
/// cell itself.
pub(crate) fn shard_cells(profile: &Profile) -> Vec<Cell> {
    let mut cells = profile.cells();
    let controls = case2_control_cells(profile)
        .into_iter()
        .chain(starvation_control_cells(profile))
        .chain(long_run_cells(profile))
        .chain(small_eps_cells(profile))
        .chain(threshold_control_cells(profile))
        .chain(feasibility_cells(profile))
        .chain(std::iter::once(dpa_live_counts_cell(profile)));
    for c in controls {
        if !cells.iter().any(|g| g.key() == c.key()) {
            cells.push(c);
        }
    }
    cells
}

/// `verify --shard i/n`: every cell's slice into shard files, no report.
fn run_shard(profile: &Profile, args: &Args, shard: &str, threads: usize) -> anyhow::Result<()> {
    if args.no_experiments || args.check {
        return Err(super::errors::usage(
            "--shard runs experiments only: it cannot be combined with --no-experiments or --check",
        ));
    }
    let shard = dpbai::mc::Shard::parse(shard)?;
    let cache = args.out_dir.join("verify-cache").join(profile.name);
    let cells = shard_cells(profile);
    let started = std::time::Instant::now();
    for (i, cell) in cells.iter().enumerate() {
        let s = run_cell_shard(cell, &cache, threads, shard)?;
        eprintln!(
            "[{:>3}/{}] {} {:<48} shard {}/{} {}",
            i + 1,
            cells.len(),
            cell.digest(),
            cell.key(),
            shard.index,
            shard.count,
            s.map_or("(cached)".to_string(), |s| format!("{s:.1} s"))
        );
    }
    println!(
        "shard {}/{} of profile {}: {} cells in {:.1} s, files in {}; run `dpbai verify --profile {}` \
         once every shard's files are in that folder",
        shard.index,
        shard.count,
        profile.name,
        cells.len(),
        started.elapsed().as_secs_f64(),
        cache.display(),
        profile.name
    );
    Ok(())
}

const TEMPLATE: &str =
    "# REPORT: the paper's claims, checked\n\nRegenerated by `cargo run --release -- verify`.\n";

/// `--check` without `--allow-stale`: fails on any stale cell before anything runs; with it,
/// says how many there are. Returns the policy for the run.
fn stale_policy(
    args: &Args,
    profile: &Profile,
    cache: &std::path::Path,
) -> anyhow::Result<StalePolicy> {
    if !args.check {
        if args.allow_stale {
            return Err(super::errors::usage(
                "--allow-stale only applies with --check",
            ));
        }
        return Ok(StalePolicy::Recompute);
    }
    let probe = CellRunner::new(Some(cache), 1, StalePolicy::Recompute);
    let stale = probe.stale_cells(&shard_cells(profile));
    if stale.is_empty() {
        return Ok(StalePolicy::Recompute);
    }
    let current =
        |c: &dpbai::experiment::CellSpec| dpbai::bandit::semantics::semantics(c.algo).version;
    let list: Vec<String> = stale
        .iter()
        .take(5)
        .map(|(c, old)| {
            format!(
                "{} ({} at engine version {}, {} than the current {})",
                c.key(),
                old.algo.as_str(),
                old.engine.version,
                if old.engine.version > current(old) {
                    "newer"
                } else {
                    "older"
                },
                current(old)
            )
        })
        .collect();
    let more = if stale.len() > 5 {
        format!(", and {} more", stale.len() - 5)
    } else {
        String::new()
    };
    let newer = stale
        .iter()
        .filter(|(_, old)| old.engine.version > current(old))
        .count();
    // Which engine semantics the cache holds them at: older (a stale cell, computed by an
    // earlier dpbai), newer (computed by a later dpbai than this one), or both.
    let which = match (newer, stale.len() - newer) {
        (0, _) => "an older engine semantics of their algorithm (stale cells)",
        (_, 0) => "a newer engine semantics of their algorithm (computed by a later dpbai)",
        _ => "another engine semantics of their algorithm (older or newer)",
    };
    if args.allow_stale {
        eprintln!(
            "warning: {} cells used at {which} (--allow-stale): {}{more}",
            stale.len(),
            list.join("; ")
        );
        Ok(StalePolicy::Use)
    } else {
        Err(super::errors::usage(format!(
            "{} cells of {} are held only at {which}: {}{more}; run `dpbai verify` without \
             --check to recompute them, or pass --allow-stale",
            stale.len(),
            cache.display(),
            list.join("; ")
        )))
    }
}

/// The profile the arguments name, with their `--runs` override.
pub(crate) fn profile_of(args: &Args) -> anyhow::Result<Profile> {
    let mut profile =
        Profile::named(&args.profile).ok_or_else(|| super::errors::usage("unknown profile"))?;
    if let Some(r) = args.runs {
        if r == 0 {
            return Err(super::errors::usage(
                "invalid --runs = 0: must be at least 1",
            ));
        }
        dpbai::params::limits::check_runs("runs", r)?;
        profile.runs = r;
    }
    Ok(profile)
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    // Fault injection into the evidence gathering (documented in dpbai::report::claims).
    let fault = match std::env::var("DPBAI_INJECT_FAULT") {
        Ok(v) => Some(v.parse::<Area>().map_err(|_| {
            super::errors::usage(format!(
                "invalid DPBAI_INJECT_FAULT = {v}: must be one of {}",
                <Area as dpbai::spelling::Spelling>::spellings().join(", ")
            ))
        })?),
        Err(_) => None,
    };
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    // The public code's measured stopping times ship with the crate (data/README.md).
    let public_csv = repo.join("data").join("public_code_runs.csv");
    let mut ctx = Context {
        full: args.profile == "paper",
        experiments: !args.no_experiments,
        fault,
        public_code_csv: Some(public_csv.clone()),
        ..Default::default()
    };
    let profile = profile_of(&args)?;
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    if threads == 0 {
        return Err(super::errors::usage(
            "invalid --threads = 0: must be at least 1",
        ));
    }
    dpbai::params::limits::check_threads(threads)?;
    if let Some(sh) = &args.shard {
        return run_shard(&profile, &args, sh, threads);
    }
    // The expected file is read before any cell runs, so that a missing or malformed one fails
    // at once (e.g. `verify --check` outside the repository), not after the whole profile.
    if args.check || args.record_snapshot {
        preflight(&expected_path(args.expected.as_deref(), &args.profile))?;
    }
    let mut case2_control = Vec::new();
    let mut starvation = Vec::new();
    let mut dpa_control = Vec::new();
    let mut threshold_control = Vec::new();
    let mut feasibility = Vec::new();
    let cache = args.out_dir.join("verify-cache").join(profile.name);
    if !args.no_experiments {
        let runner = CellRunner::new(
            Some(&cache),
            threads,
            stale_policy(&args, &profile, &cache)?,
        );
        let progress = std::cell::RefCell::new(Progress::new(&shard_cells(&profile), &cache));
        let grid = run_grid(&profile, &runner, &|done, total, r| {
            progress
                .borrow_mut()
                .cell(&format!("[{done:>3}/{total}]"), r);
        })?;
        let figs = dpbai::report::paper::figures::render_all(
            &grid,
            &profile,
            &args.out_dir.join("figures"),
            &format!("dpbai verify --profile {}", profile.name),
        )?;
        progress.borrow().line(&format!(
            "wrote {} figures (PNG + SVG + JSON) to {}",
            figs.len(),
            args.out_dir.join("figures").display()
        ));
        for cell in case2_control_cells(&profile) {
            let r = runner.run(&cell)?;
            progress.borrow_mut().cell("[control]", &r);
            case2_control.push(r);
        }
        for cell in starvation_control_cells(&profile)
            .into_iter()
            .chain(long_run_cells(&profile))
            .chain(small_eps_cells(&profile))
        {
            let r = runner.run(&cell)?;
            progress.borrow_mut().cell("[control]", &r);
            starvation.push(r);
        }
        for cell in feasibility_cells(&profile) {
            let r = runner.run(&cell)?;
            progress.borrow_mut().cell("[control]", &r);
            feasibility.push(r);
        }
        for cell in threshold_control_cells(&profile) {
            let r = runner.run(&cell)?;
            progress.borrow_mut().cell("[control]", &r);
            threshold_control.push(r);
        }
        let live = runner.run(&dpa_live_counts_cell(&profile))?;
        progress.borrow_mut().cell("[control]", &live);
        dpa_control = grid
            .dpa_global()
            .cloned()
            .into_iter()
            .chain([live])
            .collect();
        ctx.grid = Some(grid);
        ctx.controls = dpbai::experiment::grid::GridResults {
            cells: case2_control
                .iter()
                .chain(&starvation)
                .chain(&dpa_control)
                .chain(&threshold_control)
                .chain(&feasibility)
                .cloned()
                .collect(),
        };
        let fig8 = dpbai::report::claims::trace::render_allocation(
            &mut ctx,
            &args.out_dir.join("figures"),
            &format!("dpbai verify --profile {}", profile.name),
        )?;
        let progress = progress.into_inner();
        progress.line(&format!("wrote {}", fig8.png.display()));
        progress.finish();
    }
    let checking = spinner("checking the claims");
    let results = run_all(&mut ctx);
    checking.finish_and_clear();

    let report_path = args.out_dir.join("REPORT.md");
    let doc = std::fs::read_to_string(&report_path).unwrap_or_else(|_| TEMPLATE.to_string());
    let mut doc = replace_block(&doc, "summary", &verdict_summary(&results));
    doc = replace_block(&doc, "claims", &claims_table(&results));
    doc = replace_block(&doc, "special", &blocks::special_accuracy(repo));
    doc = replace_block(&doc, "bounds", &blocks::bounds_table());
    doc = replace_block(&doc, "figures", &blocks::figures_list());
    doc = replace_block(
        &doc,
        "studies",
        &dpbai::report::study::digest::report_block(repo),
    );
    doc = replace_block(&doc, "issues", &blocks::issues_table(&results));
    // The adversarial instance search on the provable and the unsafe thresholds.
    if ctx.experiments {
        doc = replace_block(&doc, "audit-search", &dpbai::report::audit_search::block());
    }
    if let Some(grid) = &ctx.grid {
        doc = replace_block(&doc, "mc", &blocks::mc_table(grid));
        doc = replace_block(&doc, "capped", &blocks::capped_table(grid));
        doc = replace_block(
            &doc,
            "starvation",
            &blocks::control_table(
                &starvation,
                &format!("dpbai verify --profile {}", profile.name),
            ),
        );
        doc = replace_block(
            &doc,
            "dpa",
            &blocks::control_table(
                &dpa_control,
                &format!("dpbai verify --profile {}", profile.name),
            ),
        );
        doc = replace_block(
            &doc,
            "threshold-control",
            &blocks::threshold_control_table(grid, &threshold_control),
        );
        doc = replace_block(
            &doc,
            "public",
            &dpbai::report::claims::public::public_code_table(&public_csv, grid),
        );
        doc = replace_block(
            &doc,
            "case2",
            &blocks::case2_table(grid, &profile.global_eps, &case2_control),
        );
    }
    dpbai::files::write_atomic(&report_path, doc.as_bytes())?;

    if args.json {
        println!("{}", serde_json::to_string_pretty(&results)?);
    } else {
        for r in &results {
            println!("{:<8} {:<24} {}", r.id, r.verdict.as_str(), r.title);
        }
        println!("{}", verdict_summary(&results));
        println!(
            "wrote {} in {:.1} s (profile {})",
            report_path.display(),
            started.elapsed().as_secs_f64(),
            args.profile
        );
    }

    if args.rederive > 0 {
        if args.no_experiments {
            return Err(super::errors::usage(
                "--rederive needs the experiments (not --no-experiments)",
            ));
        }
        let done = dpbai::experiment::rederive(
            &shard_cells(&profile),
            &cache,
            args.rederive,
            args.rederive_seed,
            threads,
        )?;
        let list: Vec<String> = done
            .iter()
            .map(|d| {
                format!(
                    "{} {} ({} runs, {:.1} s)",
                    d.digest, d.label, d.runs, d.seconds
                )
            })
            .collect();
        println!(
            "rederive: {} cells recomputed from their stored specifications, bit-identical: {}",
            done.len(),
            list.join("; ")
        );
    }
    let expected = expected_path(args.expected.as_deref(), &args.profile);
    if args.record_snapshot {
        record_snapshot(&results, &expected, &args.profile)?;
    }
    if args.check {
        check(&results, &expected)?;
    }
    Ok(())
}
