//! Number formatting and grids shared by the claims, the blocks and the figures.

/// Formats `x` with `n` significant digits (plain notation for moderate magnitudes).
pub fn sig(x: f64, n: usize) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    if x == 0.0 {
        return "0".into();
    }
    let e = x.abs().log10().floor() as i32;
    if (-4..6).contains(&e) {
        let dec = (n as i32 - 1 - e).max(0) as usize;
        format!("{x:.dec$}")
    } else {
        format!("{:.*e}", n.saturating_sub(1), x)
    }
}

/// Log-spaced grid of `n >= 2` points from `lo` to `hi` (both > 0).
pub fn log_grid(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let (a, b) = (lo.ln(), hi.ln());
    (0..n)
        .map(|i| (a + (b - a) * i as f64 / (n - 1) as f64).exp())
        .collect()
}

/// Linear grid of `n >= 2` points from `lo` to `hi`.
pub fn lin_grid(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| lo + (hi - lo) * i as f64 / (n - 1) as f64)
        .collect()
}

/// Golden-section minimisation of a unimodal `f` on `[a, b]`; returns `(argmin, min)`.
pub fn golden_min(f: impl Fn(f64) -> f64, mut a: f64, mut b: f64, iters: usize) -> (f64, f64) {
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..iters {
        let c = b - r * (b - a);
        let d = a + r * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    let x = 0.5 * (a + b);
    (x, f(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sig_formats() {
        assert_eq!(sig(0.582240209, 5), "0.58224");
        assert_eq!(sig(395.5415, 7), "395.5415");
        assert_eq!(sig(2.90219e7, 6), "2.90219e7");
    }

    #[test]
    fn grids() {
        let g = log_grid(1e-3, 1e3, 7);
        assert!((g[3] - 1.0).abs() < 1e-12 && (g[6] - 1e3).abs() < 1e-9);
    }
}
