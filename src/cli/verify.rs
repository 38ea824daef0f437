//! `dpbai verify`: check every numeric claim of the paper, regenerate REPORT.md's generated
//! blocks and figures/, and compare verdicts with `verify/expected.toml`.

use dpbai::experiment::grid::long_runs::{feasibility_cells, long_run_cells, small_eps_cells};
use dpbai::experiment::grid::threshold_control::threshold_control_cells;
use dpbai::experiment::grid::{
    case2_control_cells, dpa_live_counts_cell, run_grid, starvation_control_cells, Profile,
};
use dpbai::experiment::run::{CellRunner, StalePolicy};
use dpbai::experiment::{run_cell_shard, Cell, CellResult};
use dpbai::report::blocks;
use dpbai::report::claims::{run_all, Area, ClaimResult, ClaimVerdict, Context};
use dpbai::report::markdown::{claims_table, replace_block, verdict_summary};
use std::collections::BTreeMap;
use std::path::PathBuf;

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
        return Err(super::usage(
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

/// `verify/expected.toml`: expectations from an independent source and recorded snapshots.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    /// A file beside this one whose `[independent]` table this one shares (the paper
    /// profile's file shares the quick one's: independent expectations do not depend on the
    /// profile).
    #[serde(default)]
    independent_from: Option<PathBuf>,
    /// From the paper or the independent prototype of docs/CLAIMS.md.
    #[serde(default)]
    independent: BTreeMap<String, ClaimVerdict>,
    /// Recorded from our own run of the profile (regression, not independent evidence).
    #[serde(default)]
    snapshot: BTreeMap<String, ClaimVerdict>,
}

/// The expected file the arguments name, or the profile's default.
fn expected_path(args: &Args) -> PathBuf {
    args.expected.clone().unwrap_or_else(|| {
        PathBuf::from(if args.profile == "paper" {
            "verify/expected-paper.toml"
        } else {
            "verify/expected.toml"
        })
    })
}

/// Reads an expected file, with the `[independent]` table of its `independent_from` file.
fn read_expected(path: &std::path::Path) -> anyhow::Result<Expected> {
    let parse = |path: &std::path::Path| -> anyhow::Result<Expected> {
        let text = std::fs::read_to_string(path).map_err(|e| dpbai::Error::io("read", path, e))?;
        toml::from_str(&text)
            .map_err(|e| super::usage(format!("{}: {}", path.display(), e.message())))
    };
    let mut expected = parse(path)?;
    if let Some(from) = expected.independent_from.take() {
        if !expected.independent.is_empty() {
            return Err(super::usage(format!(
                "{}: has both independent_from and an [independent] table; keep one",
                path.display()
            )));
        }
        let from = path
            .parent()
            .unwrap_or(std::path::Path::new("."))
            .join(from);
        let shared = parse(&from)?;
        if shared.independent_from.is_some() {
            return Err(super::usage(format!(
                "{}: independent_from may not chain (it points to {}, which has its own)",
                path.display(),
                from.display()
            )));
        }
        expected.independent = shared.independent;
    }
    Ok(expected)
}

/// `--record-snapshot`: the expected file's lines up to `[snapshot]`, then this run's verdicts
/// of the claims that ran and are not independent expectations.
fn record_snapshot(
    results: &[ClaimResult],
    path: &std::path::Path,
    profile: &str,
) -> anyhow::Result<()> {
    if let Some(r) = results.iter().find(|r| r.note.starts_with("error:")) {
        anyhow::bail!(
            "not recording a snapshot: {} is not checkable ({})",
            r.id,
            r.note
        );
    }
    let expected = read_expected(path)?;
    let text = std::fs::read_to_string(path).map_err(|e| dpbai::Error::io("read", path, e))?;
    let Some(head) = text
        .split_inclusive('\n')
        .position(|l| l.trim() == "[snapshot]")
        .map(|i| text.split_inclusive('\n').take(i + 1).collect::<String>())
    else {
        return Err(super::usage(format!(
            "{}: no [snapshot] table to record into",
            path.display()
        )));
    };
    let mut out = head;
    let mut n = 0;
    for r in results.iter().filter(|r| r.ran) {
        if expected.independent.contains_key(r.id) {
            continue;
        }
        let v = serde_json::to_value(r.verdict)?;
        out.push_str(&format!(
            "\"{}\" = {v}  # recorded by `dpbai verify --profile {profile} --record-snapshot`\n",
            r.id
        ));
        n += 1;
    }
    dpbai::files::write_atomic(path, out.as_bytes())?;
    println!("recorded {n} snapshot verdicts in {}", path.display());
    Ok(())
}

/// `--check`: every verdict computed must be as expected, and no claim may be `not checkable`
/// because of an error; the two kinds of expectation are reported separately.
fn check(results: &[ClaimResult], path: &std::path::Path) -> anyhow::Result<()> {
    let expected = read_expected(path)?;
    let mut failures = Vec::new();
    for r in results.iter().filter(|r| r.note.starts_with("error:")) {
        failures.push(format!("{}: not checkable ({})", r.id, r.note));
    }
    for (kind, table) in [
        ("independent", &expected.independent),
        ("snapshot", &expected.snapshot),
    ] {
        let (mut same, mut changed) = (0, Vec::new());
        for (id, v) in table {
            match results.iter().find(|r| r.id == id) {
                None => changed.push(format!("{id}: expected but not checked")),
                Some(r) if !r.ran => {}
                Some(r) if r.verdict == *v => same += 1,
                Some(r) => changed.push(format!(
                    "{id}: expected {}, got {}",
                    v.as_str(),
                    r.verdict.as_str()
                )),
            }
        }
        println!(
            "check ({kind}): {same} as expected, {} changed{}",
            changed.len(),
            if changed.is_empty() {
                String::new()
            } else {
                format!(": {}", changed.join("; "))
            }
        );
        failures.extend(changed.into_iter().map(|c| format!("{kind} {c}")));
    }
    for r in results.iter().filter(|r| r.ran) {
        if !expected.independent.contains_key(r.id) && !expected.snapshot.contains_key(r.id) {
            failures.push(format!("{}: not in {}", r.id, path.display()));
        }
    }
    if !failures.is_empty() {
        anyhow::bail!("verdicts changed or not checkable: {}", failures.join("; "));
    }
    let ran = results.iter().filter(|r| r.ran).count();
    println!(
        "check: all {ran} verdicts computed are as expected ({} skipped)",
        results.len() - ran
    );
    Ok(())
}

const TEMPLATE: &str =
    "# REPORT: the paper's claims, checked\n\nRegenerated by `cargo run --release -- verify`.\n";

/// One progress line for a finished cell.
fn cell_status(r: &CellResult) -> String {
    let s = &r.summary;
    format!(
        "{} {:<48} mean tau {:>12.1} errors {} unstopped {} {}{}",
        r.digest,
        r.cell.key(),
        s.mean_tau,
        s.errors,
        s.unstopped,
        if r.cached {
            "(cached)".to_string()
        } else {
            format!("{:.1} s", r.elapsed_s)
        },
        if r.stale { " (stale)" } else { "" }
    )
}

/// A spinner with `msg` on a terminal (hidden elsewhere).
fn spinner(msg: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} {elapsed}") {
        bar.set_style(style);
    }
    bar.set_message(msg.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// The progress of `verify`'s cells. On a terminal: one bar over every distinct cell of the run
/// (grid and controls), with the cells done, how many came from the cache, how many of those to
/// compute are finished, and the compute time left (the mean compute time of the cells computed
/// so far times the cells left to compute); each cell's line is printed above the bar. Elsewhere
/// (a log, CI): the plain line per cell only.
struct Progress {
    /// Hidden when stderr is not a terminal.
    bar: indicatif::ProgressBar,
    /// Whether stderr is a terminal.
    tty: bool,
    /// Cell keys finished (a control that is also a grid cell counts once).
    seen: std::collections::BTreeSet<String>,
    /// Distinct cells finished from the cache.
    cached: usize,
    /// Distinct cells computed.
    computed: usize,
    /// Distinct cells without a cache file when the run started.
    to_compute: usize,
    /// Compute time of the cells computed so far (s).
    compute_s: f64,
}

impl Progress {
    /// The progress over `cells` (the run's distinct cells), of which those without a file in
    /// `cache` are to compute.
    fn new(cells: &[Cell], cache: &std::path::Path) -> Self {
        use std::io::IsTerminal;
        let to_compute = cells
            .iter()
            .filter(|c| !dpbai::experiment::cache::cache_path(cache, &c.spec().digest()).exists())
            .count();
        let tty = std::io::stderr().is_terminal();
        let bar = if tty {
            let bar = indicatif::ProgressBar::new(cells.len() as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {pos}/{len} cells, {msg}",
            ) {
                bar.set_style(style);
            }
            bar
        } else {
            indicatif::ProgressBar::hidden()
        };
        let p = Progress {
            bar,
            tty,
            seen: std::collections::BTreeSet::new(),
            cached: 0,
            computed: 0,
            to_compute,
            compute_s: 0.0,
        };
        p.bar.set_message(p.message());
        p
    }

    /// "k cached, j/J computed, compute left ~T".
    fn message(&self) -> String {
        let left = self.to_compute.saturating_sub(self.computed);
        let eta = if left == 0 {
            "none".to_string()
        } else if self.computed == 0 {
            "?".to_string()
        } else {
            let s = self.compute_s / self.computed as f64 * left as f64;
            format!(
                "~{}",
                indicatif::HumanDuration(std::time::Duration::from_secs_f64(s))
            )
        };
        format!(
            "{} cached, {}/{} computed, compute left {eta}",
            self.cached, self.computed, self.to_compute
        )
    }

    /// A line above the bar (on a terminal) or on stderr.
    fn line(&self, text: &str) {
        if self.tty {
            self.bar.println(text);
        } else {
            eprintln!("{text}");
        }
    }

    /// A finished cell: its line, then the bar.
    fn cell(&mut self, tag: &str, r: &CellResult) {
        self.line(&format!("{tag} {}", cell_status(r)));
        if self.seen.insert(r.cell.key()) {
            if r.cached {
                self.cached += 1;
            } else {
                self.computed += 1;
                self.compute_s += r.elapsed_s;
            }
            self.bar.set_position(self.seen.len() as u64);
            self.bar.set_message(self.message());
        }
    }

    /// Removes the bar and says what ran.
    fn finish(&self) {
        self.bar.finish_and_clear();
        if self.tty {
            eprintln!(
                "cells: {} ({} from the cache, {} computed in {:.1} s)",
                self.seen.len(),
                self.cached,
                self.computed,
                self.compute_s
            );
        }
    }
}

/// `--check` without `--allow-stale`: fails on any stale cell before anything runs; with it,
/// says how many there are. Returns the policy for the run.
fn stale_policy(
    args: &Args,
    profile: &Profile,
    cache: &std::path::Path,
) -> anyhow::Result<StalePolicy> {
    if !args.check {
        if args.allow_stale {
            return Err(super::usage("--allow-stale only applies with --check"));
        }
        return Ok(StalePolicy::Recompute);
    }
    let probe = CellRunner::new(Some(cache), 1, StalePolicy::Recompute);
    let stale = probe.stale_cells(&shard_cells(profile));
    if stale.is_empty() {
        return Ok(StalePolicy::Recompute);
    }
    let list: Vec<String> = stale
        .iter()
        .take(5)
        .map(|(c, old)| {
            format!(
                "{} ({} at engine version {}, current {})",
                c.key(),
                old.algo.as_str(),
                old.engine.version,
                dpbai::bandit::semantics::semantics(old.algo).version
            )
        })
        .collect();
    let more = if stale.len() > 5 {
        format!(", and {} more", stale.len() - 5)
    } else {
        String::new()
    };
    if args.allow_stale {
        eprintln!(
            "warning: {} stale cells used (--allow-stale): {}{more}",
            stale.len(),
            list.join("; ")
        );
        Ok(StalePolicy::Use)
    } else {
        Err(super::usage(format!(
            "{} cells of {} are stale (the cache holds them at an older engine semantics of their              algorithm): {}{more}; run `dpbai verify` without --check to recompute them, or pass              --allow-stale",
            stale.len(),
            cache.display(),
            list.join("; ")
        )))
    }
}

/// The profile the arguments name, with their `--runs` override.
pub(crate) fn profile_of(args: &Args) -> anyhow::Result<Profile> {
    let mut profile =
        Profile::named(&args.profile).ok_or_else(|| super::usage("unknown profile"))?;
    if let Some(r) = args.runs {
        if r == 0 {
            return Err(super::usage("invalid --runs = 0: must be at least 1"));
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
        Ok(v) => Some(Area::parse(&v).ok_or_else(|| {
            super::usage(format!(
                "invalid DPBAI_INJECT_FAULT = {v}: must be one of solver, special, mc, audit"
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
        return Err(super::usage("invalid --threads = 0: must be at least 1"));
    }
    dpbai::params::limits::check_threads(threads)?;
    if let Some(sh) = &args.shard {
        return run_shard(&profile, &args, sh, threads);
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
            return Err(super::usage(
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
    let expected = expected_path(&args);
    if args.record_snapshot {
        record_snapshot(&results, &expected, &args.profile)?;
    }
    if args.check {
        check(&results, &expected)?;
    }
    Ok(())
}
