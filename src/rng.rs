//! The one named, portable random generator of `dpbai` and the per-run seeding rule.
//!
//! Run `r` of a Monte Carlo experiment with master seed `s` draws from
//! [`rng_for_run`]`(s, r)`, whatever the thread count or shard, so results are bit-for-bit
//! reproducible. No other generator (`StdRng`, `SmallRng`, thread RNGs) is used anywhere.

use rand::SeedableRng;

/// The generator: Xoshiro256++ (Blackman & Vigna), portable and stable across platforms.
pub type Rng = rand_xoshiro::Xoshiro256PlusPlus;

/// SplitMix64 finaliser (Steele, Lea & Flood 2014), a bijection of `u64`.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator of run `run` under master seed `seed`.
///
/// # Definition
/// ```text
/// key = mix64(seed) XOR mix64(run + 0x9E3779B97F4A7C15)
/// state = four outputs of SplitMix64 started at key   (Xoshiro256PlusPlus::seed_from_u64)
/// ```
/// Distinct runs of one seed get distinct keys (`mix64` is a bijection).
///
/// # Example
/// ```
/// use rand::RngExt;
/// let mut a = dpbai::rng::rng_for_run(42, 7);
/// let mut b = dpbai::rng::rng_for_run(42, 7);
/// assert_eq!(a.random::<u64>(), b.random::<u64>());
/// ```
pub fn rng_for_run(seed: u64, run: u64) -> Rng {
    let key = mix64(seed) ^ mix64(run.wrapping_add(0x9E37_79B9_7F4A_7C15));
    Rng::seed_from_u64(key)
}

/// `min(k, n)` distinct indices of `0..n`, chosen uniformly without replacement by `seed`: the
/// first `min(k, n)` places of a Fisher–Yates shuffle of `0..n` driven by
/// [`rng_for_run`]`(seed, 0)`, in the order drawn. With `k >= n` every index is picked once.
/// What `--rederive N` re-derives: `N` cells of a cache (`experiment`, `verify`) or `N` runs of
/// merged shards (`merge`).
///
/// # Definition
/// ```text
/// for i in 0..min(k, n): j = uniform in [i, n); swap(a[i], a[j])     (a = 0, 1, …, n − 1)
/// return a[0..min(k, n)]
/// ```
/// The swaps are kept in a map, so memory is `O(min(k, n))`, not `O(n)`.
///
/// # Example
/// ```
/// let p = dpbai::rng::pick_without_replacement(30, 30, 7);
/// let mut s = p.clone();
/// s.sort_unstable();
/// assert_eq!(s, (0..30).collect::<Vec<u64>>());
/// assert_eq!(dpbai::rng::pick_without_replacement(5, 9, 1).len(), 5);
/// ```
pub fn pick_without_replacement(n: u64, k: u64, seed: u64) -> Vec<u64> {
    use rand::RngExt;
    let mut rng = rng_for_run(seed, 0);
    let take = k.min(n);
    let mut moved: std::collections::HashMap<u64, u64> = std::collections::HashMap::new();
    let mut out = Vec::with_capacity(take as usize);
    for i in 0..take {
        let j = rng.random_range(i..n);
        let at_j = moved.get(&j).copied().unwrap_or(j);
        let at_i = moved.get(&i).copied().unwrap_or(i);
        moved.insert(j, at_i);
        out.push(at_j);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// The sparse shuffle is the dense one: same picks for every `(n, k, seed)` tried.
    #[test]
    fn picks_are_a_dense_fisher_yates_prefix() {
        for (n, k, seed) in [
            (1u64, 1u64, 0u64),
            (10, 3, 5),
            (30, 30, 7),
            (30, 40, 2),
            (100, 99, 9),
        ] {
            let mut a: Vec<u64> = (0..n).collect();
            let mut rng = rng_for_run(seed, 0);
            for i in 0..k.min(n) {
                let j = rng.random_range(i..n);
                a.swap(i as usize, j as usize);
            }
            assert_eq!(
                pick_without_replacement(n, k, seed),
                a[..k.min(n) as usize].to_vec()
            );
        }
    }

    #[test]
    fn distinct_runs_distinct_streams() {
        let x: Vec<u64> = (0..100)
            .map(|r| rng_for_run(1, r).random::<u64>())
            .collect();
        let mut y = x.clone();
        y.sort();
        y.dedup();
        assert_eq!(y.len(), 100);
    }
}
