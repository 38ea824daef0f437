//! The CLI's errors and the one list syntax: a [`UsageError`] exits with code 2, any other
//! error with code 1 ([`exit_code`]); [`one_line`] and [`clap_line`] render them on one line.

/// A usage or input error of the CLI (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// The exit code of an audit's verdict (the verdict itself is already printed): the one
/// mapping of every `dpbai audit` command, so that `dpbai audit … && deploy` gates a deployment.
///
/// * 0: `holds`, `proven`, `no violation found` (a search, or a black-box privacy audit, which
///   can never certify privacy), a valid certificate;
/// * 1: `violated`, a counterexample, a rejected certificate;
/// * 2: bad input (a [`UsageError`]);
/// * 3: `inconclusive` (a δ-audit whose interval straddles δ), `undecided` (a proof by
///   dominance that neither proved nor refuted): the evidence decides nothing.
#[derive(Debug, thiserror::Error)]
#[error("audit verdict (exit code {0})")]
pub struct VerdictExit(pub i32);

/// Exit code 1: the audited guarantee is violated.
pub const EXIT_VIOLATED: i32 = 1;
/// Exit code 3: the audit decided nothing.
pub const EXIT_UNDECIDED: i32 = 3;

/// `Ok` for exit code 0, else the [`VerdictExit`] that sets the code without another message.
pub fn verdict_exit(code: i32) -> anyhow::Result<()> {
    if code == 0 {
        Ok(())
    } else {
        Err(anyhow::Error::new(VerdictExit(code)))
    }
}

/// The exit code of a δ-audit's or an exact privacy audit's verdict (see [`VerdictExit`]).
pub fn audit_exit(v: crate::audit::Verdict) -> i32 {
    match v {
        crate::audit::Verdict::Holds => 0,
        crate::audit::Verdict::Violated => EXIT_VIOLATED,
        crate::audit::Verdict::Inconclusive => EXIT_UNDECIDED,
        crate::audit::Verdict::NoViolationFound => 0,
    }
}

/// The exit code of a privacy audit's verdict: a black-box audit that finds no violation
/// (`no violation found`: it can never certify privacy) exits 0, an exact audit's tie 3.
pub fn privacy_exit(v: crate::audit::Verdict) -> i32 {
    match v {
        crate::audit::Verdict::Violated => EXIT_VIOLATED,
        crate::audit::Verdict::Holds | crate::audit::Verdict::NoViolationFound => 0,
        crate::audit::Verdict::Inconclusive => EXIT_UNDECIDED,
    }
}

/// Shorthand to build an `anyhow::Error` carrying a [`UsageError`].
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(msg.into()))
}

/// Parses a comma-separated list of numbers for option `--{name}` (spaces around items allowed,
/// e.g. `"0.7, 0.5"`): the one list syntax of every subcommand.
pub fn parse_list(name: &str, s: &str) -> anyhow::Result<Vec<f64>> {
    s.split(',')
        .map(|x| {
            x.trim().parse::<f64>().map_err(|_| {
                usage(format!(
                    "invalid --{name} `{s}`: `{}` is not a number (comma-separated list of numbers)",
                    x.trim()
                ))
            })
        })
        .collect()
}

/// Exit code for an error: 2 for usage/input errors, 1 otherwise (a solver that did not
/// converge, a figure that could not be drawn).
pub fn exit_code(e: &anyhow::Error) -> i32 {
    for cause in e.chain() {
        if cause.downcast_ref::<UsageError>().is_some() {
            return 2;
        }
        if let Some(err) = cause.downcast_ref::<crate::Error>() {
            return match err {
                crate::Error::NoConvergence { .. } | crate::Error::Figure { .. } => 1,
                _ => 2,
            };
        }
        if cause.downcast_ref::<std::io::Error>().is_some() {
            return 2;
        }
    }
    1
}

/// The message of a clap error on one line: its first paragraph (the error and, for missing
/// arguments, their names), without the usage block.
pub(crate) fn clap_line(e: &clap::Error) -> String {
    let text = e.to_string();
    let first: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let line = first.join(" ");
    if line.is_empty() {
        "error: bad usage".into()
    } else {
        line
    }
}

/// One-line rendering of an error chain.
pub fn one_line(e: &anyhow::Error) -> String {
    format!("{e:#}").replace('\n', " ")
}
