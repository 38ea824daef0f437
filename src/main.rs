//! The `dpbai` command line. All logic lives in the library and in `src/cli/`.

mod cli;

fn main() {
    restore_default_sigpipe();
    std::process::exit(cli::main_with_args(std::env::args_os()));
}

/// Rust ignores `SIGPIPE`, so a write to a closed pipe (`dpbai bounds … | head`) is an error
/// that `println!` turns into a panic. Restoring the default action ends the process quietly,
/// as `cat` and the other Unix filters do.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any thread exists; `signal` with `SIG_DFL`
    // only resets the disposition of one signal.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
