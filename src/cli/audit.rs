//! `dpbai audit`: not implemented yet (see its issue).

/// Arguments (none yet).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Arguments, ignored until the command is implemented.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    rest: Vec<String>,
}

/// Runs the command.
pub fn run(_args: Args) -> anyhow::Result<()> {
    Err(super::usage("`dpbai audit` is not implemented yet"))
}
