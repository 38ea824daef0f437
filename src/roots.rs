//! Brent's root finder (zeroin: Brent 1973, ch. 4), shared by the bound solver
//! ([`crate::complexity`]) and the Clopper–Pearson inversion ([`crate::stats`]).

/// Brent's method on a bracket `[a, b]` whose values `fa = f(a)`, `fb = f(b)` are finite and of
/// opposite signs (or one of them is zero).
///
/// `eval(x)` returns `f(x)`; if it returns a non-finite value (a pole inside the bracket), the
/// step falls back to the bisection of the current bracket. Returns `Ok(Some(root))` when the
/// bracket is below `2u|x| + 1e-300`, `Ok(None)` if `max_iter` iterations did not get there, or the
/// first error of `eval`.
///
/// # Example
/// ```
/// # fn main() -> Result<(), std::convert::Infallible> {
/// let f = |x: f64| Ok::<f64, std::convert::Infallible>(x * x - 2.0);
/// let r = dpbai::roots::zeroin(f, 0.0, 2.0, -2.0, 2.0, 100)?.unwrap();
/// assert!((r - std::f64::consts::SQRT_2).abs() < 1e-15);
/// # Ok(()) }
/// ```
pub fn zeroin<E>(
    mut eval: impl FnMut(f64) -> Result<f64, E>,
    mut a: f64,
    mut b: f64,
    mut fa: f64,
    mut fb: f64,
    max_iter: usize,
) -> Result<Option<f64>, E> {
    if fa == 0.0 {
        return Ok(Some(a));
    }
    if fb == 0.0 {
        return Ok(Some(b));
    }
    let (mut c, mut fc) = (a, fa);
    let mut d = b - a;
    let mut e = d;
    for _ in 0..max_iter {
        if (fb > 0.0) == (fc > 0.0) {
            c = a;
            fc = fa;
            d = b - a;
            e = d;
        }
        if fc.abs() < fb.abs() {
            a = b;
            b = c;
            c = a;
            fa = fb;
            fb = fc;
            fc = fa;
        }
        let tol = 2.0 * f64::EPSILON * b.abs() + 1e-300;
        let m = 0.5 * (c - b);
        if m.abs() <= tol || fb == 0.0 {
            return Ok(Some(b));
        }
        if e.abs() >= tol && fa.abs() > fb.abs() {
            // inverse quadratic interpolation (secant when a == c)
            let s = fb / fa;
            let (mut p, mut q);
            if a == c {
                p = 2.0 * m * s;
                q = 1.0 - s;
            } else {
                let qq = fa / fc;
                let r = fb / fc;
                p = s * (2.0 * m * qq * (qq - r) - (b - a) * (r - 1.0));
                q = (qq - 1.0) * (r - 1.0) * (s - 1.0);
            }
            if p > 0.0 {
                q = -q;
            } else {
                p = -p;
            }
            if 2.0 * p < (3.0 * m * q - (tol * q).abs()).min((e * q).abs()) && p.is_finite() {
                e = d;
                d = p / q;
            } else {
                d = m;
                e = m;
            }
        } else {
            d = m;
            e = m;
        }
        a = b;
        fa = fb;
        b += if d.abs() > tol { d } else { tol.copysign(m) };
        fb = eval(b)?;
        if !fb.is_finite() {
            // stepped onto a pole: bisect the bracket instead
            b = 0.5 * (a + c);
            fb = eval(b)?;
            d = b - a;
            e = d;
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    #[test]
    fn finds_roots_and_reports_non_convergence() {
        let r = zeroin(
            |x: f64| Ok::<_, Infallible>(x.ln()),
            0.5,
            3.0,
            0.5f64.ln(),
            3f64.ln(),
            100,
        )
        .unwrap()
        .unwrap();
        assert!((r - 1.0).abs() < 1e-15);
        let none = zeroin(
            |x: f64| Ok::<_, Infallible>(x.powi(3) - 1e-3),
            -1.0,
            2.0,
            -1.001,
            7.999,
            2,
        )
        .unwrap();
        assert!(none.is_none());
        let err = zeroin(|_| Err::<f64, &str>("boom"), -1.0, 1.0, -1.0, 1.0, 10);
        assert_eq!(err, Err("boom"));
    }
}
