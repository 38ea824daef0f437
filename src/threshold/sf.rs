//! Special functions used by the thresholds (READINGS.md §C.2, §C.5, §C.6): thin wrappers over
//! [`crate::special`] returning plain `f64` for arguments the callers keep in-domain
//! (`x > 0` for `C_G`, `x >= 1` for `k` and `h`, `δ ∈ (0, 1)` validated at build time).

/// `k(x) = log2(x) + 2` (C.5), `x >= 1`.
#[inline]
pub(crate) fn k_fn(x: f64) -> f64 {
    x.log2() + 2.0
}

/// `C_G(x)` (C.2), `x > 0`.
pub(crate) fn c_g(x: f64) -> f64 {
    crate::special::c_g_engine(x)
        .expect("invariant: C_G argument log((K−1)/δ')/2 > 0 (K >= 2, δ' < 1)")
}

/// `h(x, δ)` of L. 23 (C.6), `x >= 1`.
pub(crate) fn h(x: f64, delta: f64, n_arms: usize) -> f64 {
    crate::special::h_engine(x, delta, n_arms).expect("invariant: x >= 1, δ ∈ (0, 1), K >= 2")
}

#[cfg(test)]
mod tests {
    #[test]
    fn reference_values() {
        // READINGS.md §C.2, §C.5, §C.6 reference values.
        assert!((super::c_g(400f64.ln() / 2.0) - 4.643836).abs() < 2e-6);
        assert!((super::c_g(10.0) - 11.954646).abs() < 2e-6);
        assert!((super::h(8.0, 0.01, 5) - 16.642166).abs() < 2e-6);
        assert!((super::h(1.0, 0.01, 5) - 13.881662).abs() < 2e-6);
        assert_eq!(super::k_fn(8.0), crate::special::k(8.0).unwrap());
    }
}
