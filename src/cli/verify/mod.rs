//! `dpbai verify`: check every numeric claim of the papers, regenerate the generated blocks of
//! REPORT.md (the first paper) and REPORT-BAI25.md (BAI25) and figures/, and compare
//! verdicts with `verify/expected.toml` and `verify/expected-bai25.toml`.

use crate::claims::dp_bai::evidence::{self, Profile};
use crate::claims::verify::{Options, ShardStep, Step, verify};
use crate::experiment::Cell;
use crate::experiment::run::{CellRunner, StaleCells, StalePolicy};
use crate::experiment::study::Study;
use crate::fault::Area;
use crate::report::markdown::verdict_summary;

mod args;
mod expected;
mod progress;

pub use args::Args;

use expected::{check, expected_path, preflight, record_snapshot};
use progress::Progress;

/// The study of the arguments' profile, with their `--runs`.
pub(crate) fn study_of(args: &Args) -> anyhow::Result<Study> {
    if args.runs == Some(0) {
        return Err(super::errors::usage(
            "invalid --runs = 0: must be at least 1",
        ));
    }
    Ok(evidence::study(&args.profile, args.runs)?)
}

/// `verify --shard i/n`: every cell's slice into shard files, no report.
fn run_shard(args: &Args, shard: &str, threads: usize) -> anyhow::Result<()> {
    if args.no_experiments || args.check {
        return Err(super::errors::usage(
            "--shard runs experiments only: it cannot be combined with --no-experiments or --check",
        ));
    }
    let shard = crate::mc::Shard::parse(shard)?;
    let cache = args.out_dir().join("verify-cache").join(&args.profile);
    let started = std::time::Instant::now();
    let n = crate::claims::verify::run_shard(
        &args.profile,
        args.runs,
        &cache,
        threads,
        shard,
        &mut |step| match step {
            ShardStep::Cell {
                done,
                total,
                cell,
                seconds,
            } => eprintln!(
                "[{:>3}/{total}] {} {:<48} shard {}/{} {}",
                done + 1,
                cell.digest(),
                cell.key(),
                shard.index,
                shard.count,
                seconds.map_or("(cached)".to_string(), |s| format!("{s:.1} s"))
            ),
            ShardStep::Evidence(Step::Phase { name, done, total }) => {
                eprintln!("evidence [{}/{total}]: {name}", done + 1)
            }
            ShardStep::Evidence(_) => {}
        },
    )?;
    println!(
        "shard {}/{} of profile {}: {n} cells in {:.1} s, files in {}; run `dpbai verify --profile {}` \
         once every shard's files are in that folder",
        shard.index,
        shard.count,
        args.profile,
        started.elapsed().as_secs_f64(),
        cache.display(),
        args.profile
    );
    Ok(())
}

/// `--check` without `--allow-stale`: fails on any stale cell before anything runs; with it,
/// says how many there are. Returns the policy for the run.
fn stale_policy(
    args: &Args,
    cells: &[Cell],
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
    let stale = CellRunner::new(Some(cache), 1, StalePolicy::Recompute).stale_cells(cells);
    let Some(s) = StaleCells::describe(&stale) else {
        return Ok(StalePolicy::Recompute);
    };
    if args.allow_stale {
        eprintln!(
            "warning: {} cells used at {} (--allow-stale): {}",
            s.count, s.which, s.list
        );
        Ok(StalePolicy::Use)
    } else {
        Err(super::errors::usage(format!(
            "{} cells of {} are held only at {}: {}; run `dpbai verify` without \
             --check to recompute them, or pass --allow-stale",
            s.count,
            cache.display(),
            s.which,
            s.list
        )))
    }
}

/// `verify --write-protocol`: every paper's protocol file and claims table, from the declarations.
fn write_protocol(root: &std::path::Path) -> anyhow::Result<()> {
    for (toml, doc) in crate::report::markdown::write_protocol(root)? {
        println!(
            "wrote {} and the claims table of {}",
            toml.display(),
            doc.display()
        );
    }
    Ok(())
}

/// [`verify`] of `paper` on `study` with its progress shown: a bar over the study's cells (each
/// line prefixed with `tag`) and a bar over the steps of each later phase. `cells` are the runner, the cell
/// cache folder and the evidence cache (none with `--no-experiments`).
fn verify_shown(
    paper: &crate::claims::Paper,
    study: Study,
    cells: (&CellRunner, &std::path::Path, Option<&std::path::Path>),
    opts: Options,
    tag: &str,
) -> anyhow::Result<crate::claims::verify::Verification> {
    let (runner, cache, evidence_cache) = cells;
    let mut bar = Progress::new(&study.distinct_cells(), cache);
    let v = verify(
        paper,
        study,
        runner,
        opts,
        evidence_cache,
        &mut |step| match step {
            Step::Cell {
                done,
                total,
                result,
            } => bar.cell(&format!("[{tag}{done:>3}/{total}]"), result),
            Step::Phase { name, done, total } => bar.phase(name, done, total),
        },
    )?;
    bar.finish();
    Ok(v)
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.write_protocol {
        return write_protocol(&args.out_dir());
    }
    let started = std::time::Instant::now();
    // Fault injection into the evidence gathering (documented in crate::claims).
    let fault = match std::env::var("DPBAI_INJECT_FAULT") {
        Ok(v) => Some(v.parse::<Area>().map_err(|_| {
            super::errors::usage(format!(
                "invalid DPBAI_INJECT_FAULT = {v}: must be one of {}",
                <Area as crate::spelling::Spelling>::spellings().join(", ")
            ))
        })?),
        Err(_) => None,
    };
    let study = study_of(&args)?;
    let threads = match args.threads {
        Some(0) => {
            return Err(super::errors::usage(
                "invalid --threads = 0: must be at least 1",
            ));
        }
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    crate::params::limits::check_threads(threads)?;
    if let Some(sh) = &args.shard {
        return run_shard(&args, sh, threads);
    }
    // The expected files are read before any cell runs, so that a missing or malformed one
    // fails at once (e.g. `verify --check` outside the repository), not after the whole
    // profile. Only --check and --record-snapshot read them.
    let expected_files = if args.check || args.record_snapshot {
        let first = expected_path(
            args.expected.as_deref(),
            &crate::claims::dp_bai::PAPER,
            &args.profile,
        )?;
        let second = expected_path(
            args.expected_bai25.as_deref(),
            &crate::claims::bai25::PAPER,
            &args.profile,
        )?;
        preflight(&first)?;
        preflight(&second)?;
        Some((first, second))
    } else {
        None
    };
    let cells = study.distinct_cells();
    let cache = args.out_dir().join("verify-cache").join(&args.profile);
    let policy = if args.no_experiments {
        StalePolicy::Recompute
    } else {
        stale_policy(&args, &cells, &cache)?
    };
    let runner = CellRunner::new(Some(&cache), threads, policy);
    let profile = Profile::of(&args.profile, &study);
    let command = format!("dpbai verify --profile {}", args.profile);
    let opts = Options {
        full: args.profile == "paper",
        experiments: !args.no_experiments,
        fault,
    };
    let evidence_cache = (!args.no_experiments).then_some(cache.as_path());
    let v = verify_shown(
        &crate::claims::dp_bai::PAPER,
        study,
        (&runner, &cache, evidence_cache),
        opts,
        "",
    )?;
    let figs =
        crate::report::verify::figures(&v, &profile, &args.out_dir().join("figures"), &command)?;
    if !figs.is_empty() {
        eprintln!(
            "wrote {} figures (PNG + SVG + JSON) to {}",
            figs.len(),
            args.out_dir().join("figures").display()
        );
    }
    let report_path = crate::report::verify::write(&v, &profile, &args.out_dir(), &command)?;
    let results = &v.claims;
    // The second paper (crate::claims::bai25): its study's cells (those the first paper's
    // study also names come from the cache), its audits, its claims.
    let second = &crate::claims::bai25::PAPER;
    let v2 = verify_shown(
        second,
        crate::claims::bai25::study(&args.profile)?,
        (&runner, &cache, evidence_cache),
        opts,
        &format!("{}: ", second.name),
    )?;
    let figs_second =
        crate::report::bai25::figures(&v2, &args.out_dir().join("figures"), &command)?;
    if !figs_second.is_empty() {
        eprintln!(
            "wrote {} figures of {} to {}",
            figs_second.len(),
            second.name,
            args.out_dir().join("figures").display()
        );
    }
    let report_second = crate::report::bai25::write(&v2, &args.out_dir())?;
    if args.json {
        let all: Vec<&crate::claims::ClaimResult> = results.iter().chain(&v2.claims).collect();
        println!("{}", serde_json::to_string_pretty(&all)?);
    } else {
        for r in results.iter().chain(&v2.claims) {
            println!("{:<8} {:<24} {}", r.id, r.verdict.as_str(), r.title);
        }
        println!("{}", verdict_summary(results));
        println!(
            "{}: {}",
            second.name,
            crate::report::bai25::summary(&v2.claims)
        );
        println!(
            "wrote {} and {} in {:.1} s (profile {})",
            report_path.display(),
            report_second.display(),
            started.elapsed().as_secs_f64(),
            args.profile
        );
        if args.profile == "smoke" {
            println!(
                "the smoke profile is a slice of the quick grid at 20 runs per cell: its verdicts \
                 rest on less evidence than `dpbai verify` (the reference), so some are \
                 inconclusive or not checkable there, never the opposite of the quick profile's"
            );
        }
    }
    if args.rederive > 0 {
        if args.no_experiments {
            return Err(super::errors::usage(
                "--rederive needs the experiments (not --no-experiments)",
            ));
        }
        let done = crate::experiment::rederive(
            &cells,
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
    let Some((expected, expected_second)) = expected_files else {
        return Ok(());
    };
    if args.record_snapshot {
        record_snapshot(results, &expected, &args.profile)?;
        record_snapshot(&v2.claims, &expected_second, &args.profile)?;
    }
    if args.check {
        // Both papers are compared (and reported) before either failure is returned.
        let first = check(results, &expected);
        let second = check(&v2.claims, &expected_second);
        first?;
        second?;
    }
    Ok(())
}
