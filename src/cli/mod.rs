//! Argument parsing, output formats and exit codes of the `dpbai` binary.
//!
//! Exit codes: 0 success; 2 bad usage or input (one line on stderr naming the value, key or
//! path and the allowed range; a file that cannot be read or written is input too); 1 any
//! other failure (a solver that does not converge).
//!
//! The library's public face is [`main_with_args`] (the binary and the Python package's console
//! command call it); the modules' docs describe their private structure for maintainers
//! (`cargo doc --document-private-items` checks those links).
#![allow(rustdoc::private_intra_doc_links)]

use clap::{Parser, Subcommand};
use std::ffi::OsString;

pub mod audit;
pub mod bounds;
pub mod cluster;
pub mod errors;
pub mod experiment;
pub mod fn_cmd;
pub mod glossary;
pub mod merge;
pub mod readings;
pub mod run;
pub mod verify;

use errors::{clap_line, exit_code, one_line};

#[derive(Parser, Debug)]
#[command(
    name = "dpbai",
    version,
    about = "Verification and numerical analysis for differentially private best-arm identification",
    long_about = None
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Evaluate one special function or divergence (`dpbai fn --list` for the names).
    Fn(fn_cmd::Args),
    /// Characteristic times, optimal allocations, regime switches and bound formulas.
    Bounds(bounds::Args),
    /// Run an algorithm over many seeded Monte Carlo runs.
    Run(run::Args),
    /// Merge shard outputs of `dpbai run --shard` into one summary.
    Merge(merge::Args),
    /// Audit delta-correctness of stopping rules or epsilon-DP of mechanisms.
    Audit(audit::Args),
    /// Check every numeric claim of the paper; regenerate figures/ and REPORT.md.
    Verify(verify::Args),
    /// Run your own study (instances, algorithms, ε and δ grids in a TOML file): results.csv,
    /// figures of τ against ε with the bounds, SUMMARY.md.
    Experiment(experiment::Args),
    /// Run `verify`, `run` or `experiment` as a Slurm job array: write the plan, show its status, resubmit.
    Cluster(cluster::Args),
}

/// Parses `args` (program name first), runs the command, returns the exit code. Never panics
/// on user input.
pub fn main_with_args<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = e.print();
                    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                        2
                    } else {
                        0
                    }
                }
                _ => {
                    eprintln!("{} (see `dpbai --help`)", clap_line(&e));
                    2
                }
            };
        }
    };
    let result = match cli.command {
        Command::Fn(a) => fn_cmd::run(a),
        Command::Bounds(a) => bounds::run(a),
        Command::Run(a) => run::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Audit(a) => audit::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Experiment(a) => experiment::run(a),
        Command::Cluster(a) => cluster::run(a),
    };
    match result {
        Ok(()) => 0,
        Err(e) => match e.downcast_ref::<errors::VerdictExit>() {
            // An audit's verdict, already printed, sets the code alone.
            Some(v) => v.0,
            None => {
                eprintln!("error: {}", one_line(&e));
                exit_code(&e)
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// clap's `ValueEnum` spelling of every value equals its serde spelling (the library's
    /// `FromStr`/`Display`, [`crate::spelling::Spelling`]).
    #[test]
    fn clap_and_serde_spell_every_option_value_alike() {
        use crate::bandit as b;
        use crate::spelling::Spelling;
        use crate::threshold::Eq14Form;
        fn same<T: Spelling + clap::ValueEnum + std::fmt::Debug>() {
            let clap_names: Vec<String> = T::value_variants()
                .iter()
                .map(|v| {
                    let pv = v.to_possible_value().expect("no skipped variant");
                    assert_eq!(T::parse(pv.get_name()).ok(), Some(*v));
                    pv.get_name().to_string()
                })
                .collect();
            assert_eq!(clap_names, T::spellings(), "{}", T::KEY);
        }
        same::<b::AlgoName>();
        same::<b::Rules>();
        same::<b::AdapLeaderBonus>();
        same::<b::LeaderCounts>();
        same::<b::DpaEpisodes>();
        same::<b::TieBreak>();
        same::<b::ChallengerCounts>();
        same::<b::GaussLdpSigma>();
        same::<Eq14Form>();
    }

    /// A value clap accepts for `a` of the subcommand at `path` (its first possible value,
    /// else the first of a few candidates that parses without a value error).
    fn value_for(path: &[String], a: &clap::Arg) -> String {
        if let Some(v) = a.get_possible_values().first() {
            return v.get_name().to_string();
        }
        ["1", "0.5", "0.9,0.5", "ttucb", "x"]
            .into_iter()
            .find(|v| {
                let mut argv: Vec<String> = vec!["dpbai".into()];
                argv.extend(path.iter().cloned());
                match a.get_long() {
                    Some(l) => argv.extend([format!("--{l}"), v.to_string()]),
                    None if a.is_last_set() => argv.extend(["--".into(), v.to_string()]),
                    None => argv.push(v.to_string()),
                }
                !matches!(
                    Cli::try_parse_from(&argv).map_err(|e| e.kind()),
                    Err(clap::error::ErrorKind::ValueValidation
                        | clap::error::ErrorKind::InvalidValue)
                )
            })
            .expect("a candidate value parses")
            .into()
    }

    /// The leaf subcommands with their paths (`["cluster", "slurm"]`, …).
    fn leaves(c: &clap::Command, path: Vec<String>, out: &mut Vec<(Vec<String>, clap::Command)>) {
        if c.get_subcommands().next().is_none() {
            out.push((path, c.clone()));
            return;
        }
        for s in c.get_subcommands() {
            let mut p = path.clone();
            p.push(s.get_name().to_string());
            leaves(s, p, out);
        }
    }

    /// Every subcommand, with each of its required options removed in turn (the others
    /// given), fails with clap's one-line message naming the missing option.
    #[test]
    fn every_missing_required_option_is_named() {
        let mut all = Vec::new();
        leaves(&Cli::command(), Vec::new(), &mut all);
        let mut checked = 0;
        for (path, cmd) in &all {
            let required: Vec<&clap::Arg> = cmd
                .get_arguments()
                .filter(|a| a.is_required_set())
                .collect();
            for missing in &required {
                let mut argv: Vec<String> = vec!["dpbai".into()];
                argv.extend(path.iter().cloned());
                for a in &required {
                    if a.get_id() == missing.get_id() {
                        continue;
                    }
                    match a.get_long() {
                        Some(l) => argv.extend([format!("--{l}"), value_for(path, a)]),
                        None if a.is_last_set() => {
                            argv.extend(["--".into(), value_for(path, a)]);
                        }
                        None => argv.push(value_for(path, a)),
                    }
                }
                let err = Cli::try_parse_from(&argv).expect_err("a required option is missing");
                assert_eq!(
                    err.kind(),
                    clap::error::ErrorKind::MissingRequiredArgument,
                    "{argv:?}: {err}"
                );
                let line = clap_line(&err);
                let name = missing.get_long().map_or_else(
                    || missing.get_id().as_str().to_uppercase(),
                    |l| format!("--{l}"),
                );
                assert!(line.contains(&name), "{argv:?}: `{name}` not in: {line}");
                assert!(!line.contains('\n'));
                checked += 1;
            }
        }
        assert!(checked >= 8, "only {checked} required options");
    }
}
