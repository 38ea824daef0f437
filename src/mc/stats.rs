//! Exact binomial confidence bounds (Clopper–Pearson) and the summary statistics of the Monte
//! Carlo engine.
//!
//! The bounds invert the binomial tail `P(Bin(n, p) ≤ k) = 1 − I_p(k + 1, n − k)` exactly, where
//! `I_x(a, b)` is the regularised incomplete beta function. `I_x(a, b)` is computed here (not by
//! statrs, whose `beta_reg` loses ~1e-8 relative through `ln Γ` cancellation at `n = 10^7` and whose
//! `Beta::inverse_cdf` is off by up to 1e-4 in the anti-conservative direction) as
//!
//! * the prefactor `x^a (1−x)^b / B(a, b)` in logarithms, through Stirling's series with the
//!   exact error term `stirlerr` and `log(1+t) − t`, so that no large logarithms cancel
//!   (the approach of DiDonato & Morris 1992, `brcomp`);
//! * times the continued fraction of Numerical Recipes §6.4 evaluated by the modified Lentz
//!   method, on the side `x < (a+1)/(a+b+2)` where it converges, the other tail by symmetry.
//!
//! Both tails are returned in logarithms, so tails down to `e^{-10^9}` are represented and the
//! bounds are found by Brent's method on `ln(tail) − ln(α)` to a relative width of `4·2^{-52}`.
//!
//! The unit tests at the end of the file
//! check its helpers (`ln1pmx`, `stirlerr`, the regularised beta) on closed forms and its
//! summaries and input checks, next to the code they pin down.

use crate::error::{check_finite, Error, Result};

const EPS: f64 = f64::EPSILON;
/// `0.5·ln(2π)`.
const HALF_LN_2PI: f64 = 0.918_938_533_204_672_8;

/// `ln(1 + t) − t` without cancellation (`t > −1`).
fn ln1pmx(t: f64) -> f64 {
    if t.abs() < 0.5 {
        // ln(1+t) = 2 atanh(u), u = t/(2+t); ln(1+t) − t = −u·t + 2(u³/3 + u⁵/5 + …)
        let u = t / (2.0 + t);
        let u2 = u * u;
        let mut term = u * u2;
        let mut sum = 0.0;
        let mut j = 3.0;
        while j < 200.0 {
            let add = term / j;
            sum += add;
            if add.abs() <= EPS * 1e-3 * sum.abs() {
                break;
            }
            term *= u2;
            j += 2.0;
        }
        -u * t + 2.0 * sum
    } else {
        t.ln_1p() - t
    }
}

/// `r·L(r − 1)` style helper: `ln(r) − r + 1` for a ratio `r > 0`, accurate for `r` near 1
/// when `t = r − 1` is supplied exactly.
fn ln_ratio_term(r: f64, t: f64) -> f64 {
    if t.abs() < 0.5 {
        ln1pmx(t)
    } else {
        r.ln() - r + 1.0
    }
}

/// Stirling's error `ln Γ(z) − [(z − ½) ln z − z + ½ ln 2π]`, `z > 0`, absolute accuracy ~1e-15.
fn stirlerr(z: f64) -> f64 {
    // Upward recurrence stirlerr(z) = stirlerr(z+1) + (z+½)·ln(1+1/z) − 1 up to z >= 16, then
    // the asymptotic series (next term 691/(360360 z^11) < 2e-16 at z = 16).
    let mut acc = 0.0;
    let mut z = z;
    while z < 16.0 {
        acc += (z + 0.5) * (1.0 / z).ln_1p() - 1.0;
        z += 1.0;
    }
    let r = 1.0 / z;
    let r2 = r * r;
    acc + r
        * (1.0 / 12.0
            - r2 * (1.0 / 360.0 - r2 * (1.0 / 1260.0 - r2 * (1.0 / 1680.0 - r2 / 1188.0))))
}

/// `ln[x^a (1−x)^b / B(a, b)]` for `0 < x < 1` (`y = 1 − x` passed separately).
fn ln_prefactor(a: f64, b: f64, x: f64, y: f64) -> f64 {
    let s = a + b;
    // ln B(a,b) = (a−½)ln a + (b−½)ln b − (s−½)ln s + ½ln2π + se(a) + se(b) − se(s), so
    // a ln x + b ln y − ln B = a·[ln r1 − r1 + 1] + b·[ln r2 − r2 + 1] + ½ ln(ab/s) − ½ ln 2π
    //                          − se(a) − se(b) + se(s),   r1 = x s/a, r2 = y s/b
    // (the linear terms cancel: a(r1 − 1) + b(r2 − 1) = s(x + y) − s = 0).
    // Only the smaller of x, y is exact in floating point (y = 1 − x is computed), so both
    // r − 1 = t are formed from it: a·t1 = x s − a = −(y s − b) = −b·t2.
    let (r1, t1, r2, t2) = if x <= 0.5 {
        let d = x * s - a;
        (x * s / a, d / a, 1.0 - d / b, -d / b)
    } else {
        let d = y * s - b;
        (1.0 - d / a, -d / a, y * s / b, d / b)
    };
    a * ln_ratio_term(r1, t1) + b * ln_ratio_term(r2, t2) + 0.5 * (a.ln() + b.ln() - s.ln())
        - HALF_LN_2PI
        - stirlerr(a)
        - stirlerr(b)
        + stirlerr(s)
}

/// Continued fraction of `I_x(a, b)` (Numerical Recipes §6.4, modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> Result<f64> {
    const TINY: f64 = 1e-300;
    let max_iter = 1_000_000usize;
    let qab = a + b;
    let qap = a + 1.0;
    let qam = a - 1.0;
    let fix = |v: f64| if v.abs() < TINY { TINY } else { v };
    let mut c = 1.0;
    let mut d = 1.0 / fix(1.0 - qab * x / qap);
    let mut h = d;
    for m in 1..=max_iter {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 / fix(1.0 + aa * d);
        c = fix(1.0 + aa / c);
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 / fix(1.0 + aa * d);
        c = fix(1.0 + aa / c);
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() <= EPS {
            return Ok(h);
        }
    }
    Err(Error::NoConvergence {
        what: "incomplete beta continued fraction".into(),
        iterations: max_iter,
    })
}

/// Logarithms of both tails of the regularised incomplete beta function,
/// `(ln I_x(a, b), ln(1 − I_x(a, b)))`.
///
/// # Definition
/// ```text
/// I_x(a, b) = (1/B(a, b)) ∫_0^x t^{a−1} (1 − t)^{b−1} dt
/// ```
///
/// # Reference
/// Numerical Recipes (3rd ed.) §6.4 (continued fraction); DiDonato & Morris (1992), ACM TOMS 18,
/// algorithm 708 (prefactor without cancellation).
///
/// # Domain
/// `a, b > 0` finite, `x ∈ [0, 1]`; `x = 0` gives `(−∞, 0)`, `x = 1` gives `(0, −∞)`.
///
/// # Accuracy
/// The smaller tail has a relative error below `1e-10` up to `a + b = 10^7` (measured: 1e-13 at
/// `a + b = 10^5`, 3e-11 at `a = 1001, b ≈ 10^7` against mpmath; statrs `beta_reg` is off by
/// 3e-8 there); checked through the Clopper–Pearson golden values of
/// `tests/data/cp_golden.toml`. The larger one is `1 − (smaller)`, accurate to `1e-16` absolute.
///
/// # Errors
/// [`Error::InvalidParameter`] outside the domain; [`Error::NoConvergence`] if the continued
/// fraction has not converged after 10⁶ terms (not observed for `a + b ≤ 10^9`).
///
/// # Example
/// ```
/// // I_x(1, 1) = x
/// let (li, lc) = dpbai::mc::stats::ln_beta_reg_pair(1.0, 1.0, 0.25).unwrap();
/// assert!((li.exp() - 0.25).abs() < 1e-15 && (lc.exp() - 0.75).abs() < 1e-15);
/// ```
pub fn ln_beta_reg_pair(a: f64, b: f64, x: f64) -> Result<(f64, f64)> {
    if !(a > 0.0 && a.is_finite()) {
        return Err(Error::param("a", a, "a finite number > 0"));
    }
    if !(b > 0.0 && b.is_finite()) {
        return Err(Error::param("b", b, "a finite number > 0"));
    }
    if !(0.0..=1.0).contains(&x) {
        return Err(Error::param("x", x, "in [0, 1]"));
    }
    if x == 0.0 {
        return Ok((f64::NEG_INFINITY, 0.0));
    }
    if x == 1.0 {
        return Ok((0.0, f64::NEG_INFINITY));
    }
    let y = 1.0 - x;
    let lp = ln_prefactor(a, b, x, y);
    if x < (a + 1.0) / (a + b + 2.0) {
        let li = lp + beta_cf(a, b, x)?.ln() - a.ln();
        Ok((li, (-li.exp()).ln_1p()))
    } else {
        let lc = lp + beta_cf(b, a, y)?.ln() - b.ln();
        Ok(((-lc.exp()).ln_1p(), lc))
    }
}

/// Regularised incomplete beta function `I_x(a, b)`.
///
/// # Definition
/// `I_x(a, b) = B(x; a, b)/B(a, b)`.
///
/// # Reference
/// See [`ln_beta_reg_pair`].
///
/// # Domain
/// `a, b > 0`, `x ∈ [0, 1]`.
///
/// # Accuracy
/// Relative `< 1e-10` (`a + b ≤ 10^7`) for the smaller of `I`, `1 − I`; see [`ln_beta_reg_pair`].
///
/// # Errors
/// As [`ln_beta_reg_pair`].
///
/// # Example
/// ```
/// // I_x(2, 1) = x²
/// let v = dpbai::mc::stats::beta_reg(2.0, 1.0, 0.3).unwrap();
/// assert!((v - 0.09).abs() < 1e-15);
/// ```
pub fn beta_reg(a: f64, b: f64, x: f64) -> Result<f64> {
    let (li, lc) = ln_beta_reg_pair(a, b, x)?;
    Ok(if li < lc { li.exp() } else { -(lc.exp_m1()) })
}

fn check_cp_args(k: u64, n: u64, alpha: f64) -> Result<()> {
    if n == 0 {
        return Err(Error::param("n", n, "at least 1 trial"));
    }
    if k > n {
        return Err(Error::param("k", k, format!("in [0, n] with n = {n}")));
    }
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::param("alpha", alpha, "in (0, 1)"));
    }
    Ok(())
}

/// Brent's root finder ([`crate::roots::zeroin`]) on `[lo, hi]` for `f` with `f(lo)·f(hi) < 0`; infinite values
/// are clamped to `±1e300` (so that the bracket may touch a pole of the logarithm).
fn brent(mut f: impl FnMut(f64) -> Result<f64>, lo: f64, hi: f64) -> Result<f64> {
    let clamp = |v: f64| v.clamp(-1e300, 1e300);
    let (a, b) = (lo, hi);
    let fa = clamp(f(a)?);
    let fb = clamp(f(b)?);
    if fa != 0.0 && fb != 0.0 && fa.signum() == fb.signum() {
        return Err(Error::NoConvergence {
            what: "Clopper-Pearson bracket (no sign change)".into(),
            iterations: 0,
        });
    }
    if let Some(root) = crate::roots::zeroin(|x| f(x).map(clamp), a, b, fa, fb, 1000)? {
        return Ok(root);
    }
    Err(Error::NoConvergence {
        what: "Clopper-Pearson root (Brent)".into(),
        iterations: 1000,
    })
}

/// Exact one-sided Clopper–Pearson upper bound: the `p` with `P(Bin(n, p) ≤ k) = α`.
///
/// # Definition
/// ```text
/// cp_upper(k, n, α) = sup{p : P(Bin(n, p) ≤ k) ≥ α},   = 1 if k = n,
///                   = 1 − α^{1/n} = −expm1(ln(α)/n) if k = 0
/// ```
/// `P(p ≤ cp_upper) ≥ 1 − α` for every true `p` (exact coverage guarantee, conservative).
///
/// # Reference
/// Clopper & Pearson (1934), Biometrika 26(4); used for the `error_ci` of `dpbai run` and by the
/// δ-correctness auditor (READINGS.md §E.2: "error frequency ≤ δ (binomial CI)").
///
/// # Domain
/// `n ≥ 1`, `0 ≤ k ≤ n`, `α ∈ (0, 1)`.
///
/// # Accuracy
/// Relative error ≤ 1e-10 against `tests/data/cp_golden.toml` (mpmath at 50 digits, direct
/// binomial sums), `n ≤ 10^7`, `α ≥ 1e-9`; closed forms at `k = 0` are exact to rounding.
///
/// # Errors
/// [`Error::InvalidParameter`] if `n = 0`, `k > n` or `α ∉ (0, 1)`.
///
/// # Example
/// ```
/// // k = 0: 1 − α^{1/n}
/// let u = dpbai::mc::stats::cp_upper(0, 10, 0.05).unwrap();
/// assert!((u - (1.0 - 0.05f64.powf(0.1))).abs() < 1e-15);
/// // P(Bin(1, p) <= 0) = 1 − p = α
/// assert!((dpbai::mc::stats::cp_upper(0, 1, 0.3).unwrap() - 0.7).abs() < 1e-15);
/// ```
pub fn cp_upper(k: u64, n: u64, alpha: f64) -> Result<f64> {
    check_cp_args(k, n, alpha)?;
    if k == n {
        return Ok(1.0);
    }
    let la = alpha.ln();
    if k == 0 {
        return Ok(-(la / n as f64).exp_m1());
    }
    // P(Bin(n,p) <= k) = 1 − I_p(k+1, n−k): decreasing in p.
    let (a, b) = ((k + 1) as f64, (n - k) as f64);
    brent(|p| Ok(ln_beta_reg_pair(a, b, p)?.1 - la), 0.0, 1.0)
}

/// Exact one-sided Clopper–Pearson lower bound: the `p` with `P(Bin(n, p) ≥ k) = α`.
///
/// # Definition
/// ```text
/// cp_lower(k, n, α) = inf{p : P(Bin(n, p) ≥ k) ≥ α},   = 0 if k = 0,
///                   = α^{1/n} = exp(ln(α)/n) if k = n
/// ```
///
/// # Reference
/// Clopper & Pearson (1934).
///
/// # Domain
/// `n ≥ 1`, `0 ≤ k ≤ n`, `α ∈ (0, 1)`.
///
/// # Accuracy
/// As [`cp_upper`].
///
/// # Errors
/// [`Error::InvalidParameter`] if `n = 0`, `k > n` or `α ∉ (0, 1)`.
///
/// # Example
/// ```
/// // k = n: α^{1/n}
/// let l = dpbai::mc::stats::cp_lower(10, 10, 0.05).unwrap();
/// assert!((l - 0.05f64.powf(0.1)).abs() < 1e-15);
/// // P(Bin(1, p) >= 1) = p = α
/// assert!((dpbai::mc::stats::cp_lower(1, 1, 0.3).unwrap() - 0.3).abs() < 1e-15);
/// ```
pub fn cp_lower(k: u64, n: u64, alpha: f64) -> Result<f64> {
    check_cp_args(k, n, alpha)?;
    if k == 0 {
        return Ok(0.0);
    }
    let la = alpha.ln();
    if k == n {
        return Ok((la / n as f64).exp());
    }
    // P(Bin(n,p) >= k) = I_p(k, n−k+1): increasing in p.
    let (a, b) = (k as f64, (n - k + 1) as f64);
    brent(|p| Ok(ln_beta_reg_pair(a, b, p)?.0 - la), 0.0, 1.0)
}

/// The relative accuracy of the binomial tails ([`ln_beta_reg_pair`], 1e-10 documented) with a
/// tenfold safety factor, as a bound on the error of their logarithm: the outward bounds below
/// require the computed log-tail to clear `ln α` by this much.
const LN_TAIL_TOL: f64 = 1e-9;

/// Moves `p` in the direction `dir` (`+1` up, `−1` down) until `ok(p)` holds, by steps that
/// double from one ulp; `None` when the end of `[0, 1]` is reached first.
fn step_until(mut p: f64, dir: f64, ok: impl Fn(f64) -> Result<bool>) -> Result<Option<f64>> {
    let mut step = f64::EPSILON * p.abs().max(f64::MIN_POSITIVE);
    for _ in 0..2100 {
        if ok(p)? {
            return Ok(Some(p));
        }
        p = if dir > 0.0 {
            crate::float::next_up(p + step)
        } else {
            crate::float::next_down(p - step)
        };
        if !(0.0..=1.0).contains(&p) {
            return Ok(None);
        }
        step *= 2.0;
    }
    Ok(None)
}

/// [`cp_upper`] rounded outward: a `u` with `u >= cp_upper(k, n, α)` guaranteed, not only to the
/// solver's accuracy.
///
/// # Definition
/// `k = n`: 1. `k = 0`: `1 − α^{1/n}` moved up by four ulps (the closed form's `ln`, division
/// and `expm1` each err by at most one). Otherwise the root `u₀` of [`cp_upper`], moved up until
/// the computed `ln P(Bin(n, u) <= k)` is at most `ln α − 1e-9`: the tail's relative error is
/// below `1e-10`, so the exact tail at `u` is below `α`, and since it decreases in `p`, the exact
/// bound lies below `u`.
///
/// # Reference
/// Clopper & Pearson (1934); the rule that a bound deciding a verdict is rounded in the safe
/// direction.
///
/// # Domain
/// As [`cp_upper`].
///
/// # Accuracy
/// At most a relative `1e-8` above the exact bound (typically a few ulps; checked against the
/// mpmath values of `tests/data/cp_outward_golden.toml`, 50 digits, `verify/golden_cp_outward.py`).
///
/// # Errors
/// As [`cp_upper`].
///
/// # Example
/// ```
/// use dpbai::mc::stats::{cp_upper, cp_upper_outward};
/// let (u, v) = (cp_upper(3, 100, 1e-3).unwrap(), cp_upper_outward(3, 100, 1e-3).unwrap());
/// assert!(v > u && v < u * (1.0 + 1e-8));
/// ```
pub fn cp_upper_outward(k: u64, n: u64, alpha: f64) -> Result<f64> {
    let u = cp_upper(k, n, alpha)?;
    if k == n {
        return Ok(1.0);
    }
    if k == 0 {
        let mut v = u;
        for _ in 0..4 {
            v = crate::float::next_up(v);
        }
        return Ok(v.min(1.0));
    }
    let (a, b) = ((k + 1) as f64, (n - k) as f64);
    let target = alpha.ln() - LN_TAIL_TOL;
    let ok = |p: f64| -> Result<bool> {
        if p >= 1.0 {
            return Ok(true);
        }
        Ok(ln_beta_reg_pair(a, b, p)?.1 <= target)
    };
    Ok(step_until(u, 1.0, ok)?.unwrap_or(1.0))
}

/// [`cp_lower`] rounded outward: an `l` with `l <= cp_lower(k, n, α)` guaranteed.
///
/// # Definition
/// `k = 0`: 0. `k = n`: `α^{1/n}` moved down by four ulps. Otherwise the root `l₀` of
/// [`cp_lower`], moved down until the computed `ln P(Bin(n, l) >= k)` is at most
/// `ln α − 1e-9` (the mirror of [`cp_upper_outward`]: the exact tail at `l` is below `α` and
/// increases in `p`, so the exact bound lies above `l`).
///
/// # Reference
/// As [`cp_upper_outward`].
///
/// # Domain
/// As [`cp_lower`].
///
/// # Accuracy
/// At most a relative `1e-8` below the exact bound (`tests/data/cp_outward_golden.toml`).
///
/// # Errors
/// As [`cp_lower`].
///
/// # Example
/// ```
/// use dpbai::mc::stats::{cp_lower, cp_lower_outward};
/// let (l, m) = (cp_lower(3, 100, 1e-3).unwrap(), cp_lower_outward(3, 100, 1e-3).unwrap());
/// assert!(m < l && m > l * (1.0 - 1e-8));
/// ```
pub fn cp_lower_outward(k: u64, n: u64, alpha: f64) -> Result<f64> {
    let l = cp_lower(k, n, alpha)?;
    if k == 0 {
        return Ok(0.0);
    }
    if k == n {
        let mut v = l;
        for _ in 0..4 {
            v = crate::float::next_down(v);
        }
        return Ok(v.max(0.0));
    }
    let (a, b) = (k as f64, (n - k + 1) as f64);
    let target = alpha.ln() - LN_TAIL_TOL;
    let ok = |p: f64| -> Result<bool> {
        if p <= 0.0 {
            return Ok(true);
        }
        Ok(ln_beta_reg_pair(a, b, p)?.0 <= target)
    };
    Ok(step_until(l, -1.0, ok)?.unwrap_or(0.0))
}

/// Exact two-sided Clopper–Pearson interval at confidence `1 − α`:
/// `(cp_lower(k, n, α/2), cp_upper(k, n, α/2))`.
///
/// # Definition
/// Equal-tailed inversion of the two one-sided binomial tests.
///
/// # Reference
/// Clopper & Pearson (1934).
///
/// # Domain
/// `n ≥ 1`, `0 ≤ k ≤ n`, `α ∈ (0, 1)`.
///
/// # Accuracy
/// As [`cp_upper`].
///
/// # Errors
/// As [`cp_upper`].
///
/// # Example
/// ```
/// let (lo, hi) = dpbai::mc::stats::clopper_pearson(0, 1000, 0.05).unwrap();
/// assert_eq!(lo, 0.0);
/// assert!((hi - (1.0 - 0.025f64.powf(1e-3))).abs() < 1e-15); // ≈ 0.00368
/// ```
pub fn clopper_pearson(k: u64, n: u64, alpha: f64) -> Result<(f64, f64)> {
    check_cp_args(k, n, alpha)?;
    Ok((cp_lower(k, n, alpha / 2.0)?, cp_upper(k, n, alpha / 2.0)?))
}

fn check_nonempty(xs: &[f64], need: usize) -> Result<()> {
    if xs.len() < need {
        return Err(Error::param(
            "sample size",
            xs.len(),
            format!("at least {need}"),
        ));
    }
    if let Some(x) = xs.iter().find(|x| x.is_nan()) {
        return Err(Error::param("sample value", x, "not NaN"));
    }
    Ok(())
}

/// Arithmetic mean `(1/n) Σ x_i`, summed in the order given (deterministic).
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty slice or a NaN value.
///
/// # Example
/// ```
/// assert_eq!(dpbai::mc::stats::mean(&[1.0, 2.0, 6.0]).unwrap(), 3.0);
/// ```
pub fn mean(xs: &[f64]) -> Result<f64> {
    check_nonempty(xs, 1)?;
    Ok(xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Sample standard deviation with Bessel's correction, `sqrt(Σ (x_i − x̄)² / (n − 1))` (two-pass).
///
/// # Errors
/// [`Error::InvalidParameter`] for fewer than 2 values or a NaN value.
///
/// # Example
/// ```
/// assert_eq!(dpbai::mc::stats::sample_std(&[1.0, 3.0]).unwrap(), 2f64.sqrt());
/// ```
pub fn sample_std(xs: &[f64]) -> Result<f64> {
    check_nonempty(xs, 2)?;
    let m = mean(xs)?;
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    Ok((ss / (xs.len() - 1) as f64).sqrt())
}

/// Lower median: the `⌈n/2⌉`-th smallest value `x_(⌈n/2⌉)` (the middle value for an odd count,
/// the lower of the two middle values for an even one).
///
/// # Definition
/// `x_(⌈n/2⌉)`, the inverse of the empirical CDF at 1/2 (Hyndman & Fan's type 1). It is the
/// convention of the Kaplan–Meier median ([`super::censored::KaplanMeier::quantile`] at
/// `p = 1/2`), which equals it when nothing is censored; it is always one of the values.
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty slice or a NaN value.
///
/// # Example
/// ```
/// assert_eq!(dpbai::mc::stats::lower_median(&[5.0, 1.0, 3.0, 2.0]).unwrap(), 2.0);
/// assert_eq!(dpbai::mc::stats::lower_median(&[5.0, 1.0, 3.0]).unwrap(), 3.0);
/// ```
pub fn lower_median(xs: &[f64]) -> Result<f64> {
    check_nonempty(xs, 1)?;
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    Ok(v[v.len().div_ceil(2) - 1])
}

/// Median: the middle value, or the mean of the two middle values for an even count.
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty slice or a NaN value.
///
/// # Example
/// ```
/// assert_eq!(dpbai::mc::stats::median(&[5.0, 1.0, 3.0, 2.0]).unwrap(), 2.5);
/// ```
pub fn median(xs: &[f64]) -> Result<f64> {
    check_nonempty(xs, 1)?;
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Ok(if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    })
}

/// Smallest value.
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty slice or a NaN value.
///
/// # Example
/// ```
/// assert_eq!(dpbai::mc::stats::min(&[5.0, 1.0]).unwrap(), 1.0);
/// ```
pub fn min(xs: &[f64]) -> Result<f64> {
    check_nonempty(xs, 1)?;
    Ok(xs.iter().cloned().fold(f64::INFINITY, f64::min))
}

/// Largest value.
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty slice or a NaN value.
///
/// # Example
/// ```
/// assert_eq!(dpbai::mc::stats::max(&[5.0, 1.0]).unwrap(), 5.0);
/// ```
pub fn max(xs: &[f64]) -> Result<f64> {
    check_nonempty(xs, 1)?;
    Ok(xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max))
}

/// Degrees of freedom above which [`student_t_quantile`] polishes statrs' value by Newton steps.
const NEWTON_DF: f64 = 1e3;

/// Quantile `t_{p,ν}` of Student's t distribution with `ν` degrees of freedom: the `t` with
/// `P(T_ν ≤ t) = p`.
///
/// # Definition
/// `F_ν(t) = 1 − ½·I_{ν/(ν+t²)}(ν/2, ½)` for `t ≥ 0`, `F_ν(−t) = 1 − F_ν(t)`; the quantile is
/// `F_ν^{-1}(p)`. `ν` need not be an integer (Welch–Satterthwaite degrees of freedom).
///
/// # Reference
/// statrs' `StudentsT::inverse_cdf` (AS 64/AS 109 inversion of the incomplete beta function),
/// accurate to 5e-13 relative for `ν ≤ 10^3` (measured on the golden values) but off by up to
/// 3e-4 relative at `ν = 10^6`; for `ν > 10^3` it is polished by Newton steps on the tail
/// [`student_t_two_sided`] (our incomplete beta) with statrs' density. Checked against `tests/data/censored_golden.toml` (mpmath,
/// 50 digits, hypergeometric form of the t CDF: `verify/golden_censored.py`).
///
/// # Domain
/// `p ∈ (0, 1)`, `ν ∈ [1, 10^7]` (the accurate range of [`beta_reg`]).
///
/// # Accuracy
/// Relative error below `2e-10` on the golden values (`p ∈ [0.9, 0.9995]`, `ν ∈ [1, 10^7]`,
/// integer and fractional; measured worst 1.6e-10 at `ν = 10^7`, ~1e-13 for `ν ≤ 10^4`).
///
/// # Errors
/// [`Error::InvalidParameter`] outside the domain; [`Error::NoConvergence`] if Newton's method
/// has not settled after 50 steps (not observed).
///
/// # Example
/// ```
/// // t_{0.975, 9} = 2.26215716279820554… (mpmath, 50 digits; tables: 2.262)
/// let t = dpbai::mc::stats::student_t_quantile(0.975, 9.0).unwrap();
/// assert!((t - 2.262_157_162_798_205_5).abs() < 1e-12);
/// ```
pub fn student_t_quantile(p: f64, df: f64) -> Result<f64> {
    use statrs::distribution::{Continuous, ContinuousCDF, StudentsT};
    if !(p > 0.0 && p < 1.0) {
        return Err(Error::param("p", p, "in (0, 1)"));
    }
    if !(1.0..=1e7).contains(&df) {
        return Err(Error::param("degrees of freedom", df, "in [1, 1e7]"));
    }
    if p == 0.5 {
        return Ok(0.0);
    }
    let dist = StudentsT::new(0.0, 1.0, df).map_err(|e| {
        Error::param(
            "degrees of freedom",
            df,
            format!("accepted by statrs ({e})"),
        )
    })?;
    // Solve u(t) = tail for t > 0, u(t) = P(T > t) = ½·two_sided(t), u'(t) = −pdf(t).
    let (tail, sign) = if p > 0.5 { (1.0 - p, 1.0) } else { (p, -1.0) };
    let mut t = check_finite("Student t quantile", dist.inverse_cdf(1.0 - tail))?.abs();
    if df <= NEWTON_DF {
        return Ok(sign * t);
    }
    // Newton converges quadratically until the tail's own error (~1e-13 relative) dominates;
    // stop when the step is negligible or no longer shrinks.
    let mut prev_step = f64::INFINITY;
    for _ in 0..50 {
        let u = 0.5 * student_t_two_sided(t, df)?;
        let next =
            check_finite("Student t quantile (Newton)", t + (u - tail) / dist.pdf(t))?.max(0.5 * t);
        let step = (next - t).abs();
        if step <= 1e-14 * t || step >= prev_step {
            return Ok(sign * if step < prev_step { next } else { t });
        }
        prev_step = step;
        t = next;
    }
    Err(Error::NoConvergence {
        what: "Student t quantile (Newton)".into(),
        iterations: 50,
    })
}

/// Two-sided tail probability `P(|T_ν| ≥ |t|)` of Student's t distribution.
///
/// # Definition
/// `P(|T_ν| ≥ |t|) = I_{ν/(ν+t²)}(ν/2, ½)` (regularised incomplete beta function).
///
/// # Reference
/// Abramowitz & Stegun 26.7.1; evaluated with [`beta_reg`] (not statrs, see the module docs).
///
/// # Domain
/// `t` finite, `ν > 0` finite.
///
/// # Accuracy
/// As [`beta_reg`]: relative `< 1e-10`; checked against mpmath in `tests/data/censored_golden.toml`.
///
/// # Errors
/// [`Error::InvalidParameter`] outside the domain.
///
/// # Example
/// ```
/// // t = 2.26215716279820554 is the 0.975 quantile at ν = 9: two-sided tail 0.05
/// let p = dpbai::mc::stats::student_t_two_sided(2.262_157_162_798_205_5, 9.0).unwrap();
/// assert!((p - 0.05).abs() < 1e-10);
/// ```
pub fn student_t_two_sided(t: f64, df: f64) -> Result<f64> {
    check_finite("t statistic", t)?;
    if !(df > 0.0 && df.is_finite()) {
        return Err(Error::param(
            "degrees of freedom",
            df,
            "a finite number > 0",
        ));
    }
    if t == 0.0 {
        return Ok(1.0);
    }
    // x = ν/(ν + t²) computed as 1/(1 + t²/ν) (no overflow for large t).
    let x = 1.0 / (1.0 + t * t / df);
    beta_reg(0.5 * df, 0.5, x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln1pmx_matches_direct_away_from_zero() {
        for &t in &[-0.49f64, -0.1, 1e-3, 0.3, 0.49] {
            let direct = t.ln_1p() - t;
            assert!((ln1pmx(t) - direct).abs() <= 1e-15 * direct.abs().max(1e-3));
        }
        // Series −t²/2 + t³/3 − t⁴/4 (+ O(t⁵)) for tiny t, to 1e-15 relative
        let t = 1e-6;
        let series = -t * t / 2.0 + t * t * t / 3.0 - t * t * t * t / 4.0;
        assert!((ln1pmx(t) - series).abs() <= 1e-15 * series.abs());
    }

    #[test]
    fn stirlerr_matches_known_values() {
        // ln Γ(1) = 0 ⇒ stirlerr(1) = 1 − ½ ln 2π
        assert!((stirlerr(1.0) - (1.0 - HALF_LN_2PI)).abs() < 1e-15);
        // ln Γ(0.5) = ½ ln π ⇒ stirlerr(½) = ½ ln π + ½ − ½ ln 2π = ½ − ½ ln 2
        assert!((stirlerr(0.5) - (0.5 - 0.5 * 2f64.ln())).abs() < 1e-15);
    }

    #[test]
    fn beta_reg_closed_forms() {
        // I_x(a, 1) = x^a, I_x(1, b) = 1 − (1−x)^b
        for &(a, x) in &[(3.0, 0.2), (50.0, 0.9), (0.5, 0.01)] {
            let want: f64 = f64::powf(x, a);
            assert!((beta_reg(a, 1.0, x).unwrap() - want).abs() <= 1e-14 * want);
        }
        let want = -(40.0 * (-1e-3f64).ln_1p()).exp_m1();
        assert!((beta_reg(1.0, 40.0, 1e-3).unwrap() - want).abs() <= 1e-14 * want);
    }

    #[test]
    fn cp_rejects_bad_input() {
        assert!(cp_upper(0, 0, 0.05).is_err());
        assert!(cp_upper(3, 2, 0.05).is_err());
        assert!(cp_lower(1, 2, 0.0).is_err());
        assert!(cp_lower(1, 2, 1.0).is_err());
        assert!(cp_lower(1, 2, f64::NAN).is_err());
        assert!(clopper_pearson(1, 2, -0.1).is_err());
    }

    #[test]
    fn summaries() {
        assert!(mean(&[]).is_err());
        assert!(sample_std(&[1.0]).is_err());
        assert!(median(&[f64::NAN]).is_err());
        assert_eq!(median(&[3.0, 1.0, 2.0]).unwrap(), 2.0);
        assert_eq!(
            sample_std(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap(),
            (32.0f64 / 7.0).sqrt()
        );
    }
}
