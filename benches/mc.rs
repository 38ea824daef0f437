//! Benchmarks for `mc` (divan). Filled by its issue.

fn main() {
    divan::main();
}
