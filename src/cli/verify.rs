//! `dpbai verify`: check every numeric claim of the paper (not implemented yet).

/// Arguments of `dpbai verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Profile: `quick` (default) or `paper`.
    #[arg(long, default_value = "quick")]
    profile: String,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    println!(
        "dpbai verify (profile {}): not implemented yet; the claims of shared/spec/CLAIMS.md are \
         checked once the verification issue lands.",
        args.profile
    );
    Ok(())
}
