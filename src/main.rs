//! The `dpbai` command line. All logic lives in the library and in `src/cli/`.

mod cli;

fn main() {
    std::process::exit(cli::main_with_args(std::env::args_os()));
}
