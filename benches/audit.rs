//! Benchmarks for `audit` (divan). Filled by its issue.

fn main() {
    divan::main();
}
