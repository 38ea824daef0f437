//! Benchmarks for `special` (divan). Filled by its issue.

fn main() {
    divan::main();
}
