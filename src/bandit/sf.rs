//! Special functions used by the thresholds (MATH.md C.1–C.6): thin wrappers returning plain
//! `f64` for arguments that the callers keep in-domain.
//!
//! TEMPORARY: local implementations until `crate::special` lands on main.

/// `k(x) = log2(x) + 2` (C.5), `x >= 1`.
#[inline]
pub(crate) fn k_fn(x: f64) -> f64 {
    x.log2() + 2.0
}

fn zeta(s: f64) -> f64 {
    // Euler–Maclaurin, N = 10, 6 Bernoulli terms.
    let n = 10.0f64;
    let mut sum = 0.0;
    for i in 1..10 {
        sum += (i as f64).powf(-s);
    }
    sum += n.powf(1.0 - s) / (s - 1.0) + 0.5 * n.powf(-s);
    let b = [
        1.0 / 6.0,
        -1.0 / 30.0,
        1.0 / 42.0,
        -1.0 / 30.0,
        5.0 / 66.0,
        -691.0 / 2730.0,
    ];
    let mut fact = 1.0; // (2j)!
    let mut poch = s; // s(s+1)...(s+2j-2)
    for (j, bj) in b.iter().enumerate() {
        let jj = (j + 1) as f64;
        fact *= (2.0 * jj - 1.0) * (2.0 * jj);
        sum += bj / fact * poch * n.powf(-s - 2.0 * jj + 1.0);
        poch *= (s + 2.0 * jj - 1.0) * (s + 2.0 * jj);
    }
    sum
}

fn g_g(l: f64) -> f64 {
    2.0 * l - 2.0 * l * (4.0 * l).ln() + zeta(2.0 * l).ln() - 0.5 * (1.0 - l).ln()
}

/// `C_G(x)` (C.2), `x > 0`.
pub(crate) fn c_g(x: f64) -> f64 {
    let f = |l: f64| (g_g(l) + x) / l;
    let (mut a, mut b) = (0.5 + 1e-9, 1.0 - 1e-12);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - r * (b - a);
    let mut d = a + r * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..120 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = f(d);
        }
    }
    fc.min(fd)
}

fn wbar(y: f64) -> f64 {
    if y <= 1.0 {
        return 1.0;
    }
    let mut u = if y >= 2.0 {
        y + y.ln()
    } else {
        1.0 + (2.0 * (y - 1.0)).sqrt()
    };
    for _ in 0..100 {
        let f = u - u.ln() - y;
        let step = f / (1.0 - 1.0 / u);
        u -= step;
        if step.abs() < 1e-15 * u {
            break;
        }
    }
    u
}

/// `h(x, δ)` of L. 23 (C.6), `x >= 1`.
pub(crate) fn h(x: f64, delta: f64, n_arms: usize) -> f64 {
    let k = k_fn(x);
    let pi2 = std::f64::consts::PI * std::f64::consts::PI;
    0.5 * wbar(
        2.0 * (pi2 * n_arms as f64 * k * k / (2.0 * delta)).ln() + 4.0 * (4.0 + x.ln()).ln() + 0.5,
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn reference_values() {
        // MATH.md C.2, C.6
        assert!((super::c_g(400f64.ln() / 2.0) - 4.643836).abs() < 2e-6);
        assert!((super::c_g(10.0) - 11.954646).abs() < 2e-6);
        assert!((super::h(8.0, 0.01, 5) - 16.642166).abs() < 2e-6);
        assert!((super::h(1.0, 0.01, 5) - 13.881662).abs() < 2e-6);
    }
}
