//! Seeding. A cell of `dpbai verify` or `dpbai experiment` draws run `r` from
//! `rng_for_run(seed, r)` ([`crate::rng::rng_for_run`]) with the master seed [`cell_seed`]: the
//! FNV-1a hash of the cell's key ([`super::Cell::key`]), which names the instance, the
//! algorithm, ε, δ, the rules and every non-default option but **not** the run count, so the
//! first runs of a cell do not depend on how many are run. The seed is part of the cell's
//! specification ([`super::CellSpec::seed`]); `dpbai run` takes it from `--seed`.

/// FNV-1a 64-bit hash.
///
/// # Example
/// ```
/// // the reference test vectors of Fowler–Noll–Vo
/// assert_eq!(dpbai::experiment::seed::fnv1a(""), 0xcbf29ce484222325);
/// assert_eq!(dpbai::experiment::seed::fnv1a("a"), 0xaf63dc4c8601ec8c);
/// ```
pub fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The master seed of the cell whose key is `key`.
pub fn cell_seed(key: &str) -> u64 {
    fnv1a(key)
}
