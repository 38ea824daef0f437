//! Benchmarks for `bandit` (divan). Filled by its issue.

fn main() {
    divan::main();
}
