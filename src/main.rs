//! The `dpbai` command line: [`dpbai::cli`] (the library's `cli` feature) does the work; this
//! binary only sets up the process (SIGPIPE, the standard-output panic hook).

fn main() {
    restore_default_sigpipe();
    stdout_failure_is_an_input_error();
    std::process::exit(dpbai::cli::main_with_args(std::env::args_os()));
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

/// `println!` panics when standard output cannot be written (`dpbai bounds … > /dev/full`: "No
/// space left on device"). That is a failure of the output the user chose, not a bug: it ends
/// with one line naming standard output and the cause, and exit code 2, as every other file
/// that cannot be written does. Every other panic keeps the default report.
fn stdout_failure_is_an_input_error() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(cause) = msg.strip_prefix("failed printing to stdout: ") {
            eprintln!("error: cannot write to standard output: {cause}");
            std::process::exit(2);
        }
        default(info);
    }));
}
