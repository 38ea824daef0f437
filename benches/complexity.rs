//! Benchmarks for `complexity` (divan). Filled by its issue.

fn main() {
    divan::main();
}
