//! Exact mode of `audit dp`: the worst-case privacy loss where the output law is computable
//! (randomised response, Laplace vectors, DAF's release plan, the Gaussian privacy profile).
//! The formulas are in the parent module's docs.
//!
//! # Verdicts decided in the safe direction
//! The losses are computed in floating point, so each verdict compares the claimed `ε` with an
//! enclosure of the exact loss of the mechanism as implemented (its parameters are doubles):
//! `holds` only when the whole enclosure lies strictly below `ε`, `violated` only when it lies
//! strictly above, `inconclusive` otherwise (a tie is never a pass). Where the comparison can be
//! made exactly it is: the Laplace loss `s/b < ε` as `s < ε·b` with the product's rounding error
//! from a fused multiply-add, randomised response `log(q/(1 − q)) < ε` as
//! `2q − 1 < expm1(ε)·(1 − q)` with exact `2q − 1`, `1 − q` (for `q >= 1/2`) and `expm1(ε)`
//! enclosed to two ulps.

use crate::audit::Verdict;
use crate::error::{Error, Result, check_above, check_open};
use crate::float::{next_down, next_up};
use crate::threshold::interval::Interval;
use std::cmp::Ordering;

/// Exact privacy loss of randomised response with keep probability `q`.
///
/// # Definition
/// `max_{r, r' ∈ [0,1], z ∈ {0,1}} log(P(z|r)/P(z|r')) = |log(q/(1 − q))|` (`+∞` at `q ∈ {0, 1}`).
///
/// # Reference
/// L. 12; READINGS.md §A.5, §E.1.
///
/// # Domain
/// `q ∈ [0, 1]`.
///
/// # Accuracy
/// A few ulps (one `ln` of a ratio of exact quantities).
///
/// # Errors
/// [`Error::InvalidParameter`] for `q ∉ [0, 1]`.
///
/// # Example
/// ```
/// let e = 1f64.exp();
/// assert!((dpbai::audit::dp::rr_loss(e / (1.0 + e)).unwrap() - 1.0).abs() < 1e-15);
/// ```
pub fn rr_loss(q: f64) -> Result<f64> {
    crate::error::check_closed("keep probability", q, 0.0, 1.0)?;
    // log q − log(1 − q) in log space (1 − q is exact for q >= 1/2).
    Ok((q.ln() - (1.0 - q).ln()).abs())
}

/// Exact privacy loss of independent Laplace outputs `Lap(m_j, b_j)` vs `Lap(m'_j, b'_j)`.
///
/// # Definition
/// `Σ_j |m_j − m'_j| / b_j` when `b_j = b'_j` for all `j`; `+∞` if some scale differs (the log
/// density ratio then grows linearly in `|x_j|`).
///
/// # Reference
/// Thm. 3, L. 31 (READINGS.md §E.1).
///
/// # Domain
/// Equal lengths, finite means, positive scales.
///
/// # Accuracy
/// Sum of `len` correctly rounded quotients.
///
/// # Errors
/// [`Error::InvalidParameter`] for different lengths or non-positive scales.
///
/// # Example
/// ```
/// use dpbai::audit::dp::laplace_vector_loss;
/// let l = laplace_vector_loss(&[(0.0, 2.0), (1.0, 1.0)], &[(1.0, 2.0), (1.5, 1.0)]).unwrap();
/// assert_eq!(l, 1.0);
/// ```
pub fn laplace_vector_loss(x: &[(f64, f64)], y: &[(f64, f64)]) -> Result<f64> {
    if x.len() != y.len() {
        return Err(Error::param(
            "release length",
            format!("{} vs {}", x.len(), y.len()),
            "equal on neighbouring inputs",
        ));
    }
    let mut loss = 0.0;
    for (&(m, b), &(m2, b2)) in x.iter().zip(y) {
        check_above("Laplace scale", b, 0.0)?;
        check_above("Laplace scale", b2, 0.0)?;
        if b != b2 {
            return Ok(f64::INFINITY);
        }
        loss += (m - m2).abs() / b;
    }
    Ok(loss)
}

/// Worst-case exact privacy loss of a release plan over neighbouring reward sequences of
/// length `len` (one entry changed between 0 and 1, the others at `1/2`).
///
/// # Definition
/// `max_{i ∈ [len]} laplace_vector_loss(plan(r^{(i,1)}), plan(r^{(i,0)}))`, where `r^{(i,v)}`
/// has entry `i` equal to `v` and the others `1/2`. Returns the loss and the worst position
/// (1-based). Exact for plans whose means are affine in each reward with data-independent
/// scales (DAF with or without forgetting), where the shifts do not depend on the other entries.
///
/// # Reference
/// L. 31 (ε-DP of the fixed-partition block means), READINGS.md §D.6, §E.1.
///
/// # Domain
/// `len >= 1`.
///
/// # Accuracy
/// As [`laplace_vector_loss`].
///
/// # Errors
/// Propagates the errors of `plan`; [`Error::InvalidParameter`] for `len = 0`.
///
/// # Example
/// ```
/// // Two disjoint blocks of size 2 with scale 1/(ε·2), ε = 0.5: loss ε.
/// let plan = |r: &[f64]| Ok(vec![((r[0] + r[1]) / 2.0, 1.0), ((r[2] + r[3]) / 2.0, 1.0)]);
/// let (loss, _) = dpbai::audit::dp::daf_exact_loss(plan, 4).unwrap();
/// assert_eq!(loss, 0.5);
/// ```
pub fn daf_exact_loss<F>(plan: F, len: usize) -> Result<(f64, usize)>
where
    F: Fn(&[f64]) -> Result<Vec<(f64, f64)>>,
{
    if len == 0 {
        return Err(Error::param("sequence length", 0, "at least 1"));
    }
    let mut worst = (f64::NEG_INFINITY, 1);
    let mut r = vec![0.5; len];
    for i in 0..len {
        r[i] = 1.0;
        let p1 = plan(&r)?;
        r[i] = 0.0;
        let p0 = plan(&r)?;
        r[i] = 0.5;
        let l = laplace_vector_loss(&p1, &p0)?;
        if l > worst.0 {
            worst = (l, i + 1);
        }
    }
    Ok(worst)
}

/// Standard normal CDF `Φ(x) = erfc(−x/√2)/2` (accurate in both tails).
fn phi(x: f64) -> f64 {
    0.5 * crate::special::erfc(-x / std::f64::consts::SQRT_2)
}

/// Exact privacy profile `γ(ε)` of the Gaussian mechanism `x + N(0, σ²)` with L2 sensitivity `Δ`.
///
/// # Definition
/// `γ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ)` (clamped at 0), the smallest `γ` for
/// which the mechanism is `(ε, γ)`-DP.
///
/// # Reference
/// Balle & Wang (2018), "Improving the Gaussian mechanism for differential privacy", Thm. 8;
/// Rem. 13 / Alg. 8 (READINGS.md §C.8, §D.5).
///
/// # Domain
/// `ε >= 0`, `σ > 0`, `Δ > 0`, all finite.
///
/// # Accuracy
/// Absolute error about `1e-16·(1 + e^ε)·Φ(·)` from the cancellation of the two terms
/// (golden-tested against mpmath in `tests/data/audit_gaussian.toml`, 1e-12 relative where
/// `γ > 1e-9`).
///
/// # Errors
/// [`Error::InvalidParameter`] outside the domain.
///
/// # Example
/// ```
/// // ε = 0: γ(0) = TV(N(0,σ²), N(Δ,σ²)) = 2Φ(Δ/(2σ)) − 1.
/// let g = dpbai::audit::dp::gaussian_gamma(0.0, 1.0, 1.0).unwrap();
/// assert!((g - 0.3829249225480262).abs() < 1e-14);
/// ```
pub fn gaussian_gamma(eps: f64, sigma: f64, sensitivity: f64) -> Result<f64> {
    crate::error::check_at_least("eps", eps, 0.0)?;
    check_above("sigma", sigma, 0.0)?;
    check_above("sensitivity", sensitivity, 0.0)?;
    let a = sensitivity / (2.0 * sigma);
    let b = eps * sigma / sensitivity;
    let p2 = phi(-a - b);
    if eps < 700.0 && p2.is_normal() {
        let g = phi(a - b) - eps.exp() * p2;
        return Ok(g.max(0.0));
    }
    // In log space: e^ε overflows beyond 709.78, and Φ(−a−b) underflows while e^ε·Φ(−a−b)
    // need not. γ = Φ(a−b)·(1 − exp(l2 − l1)), l1 = log Φ(a−b), l2 = ε + log Φ(−a−b).
    let l1 = ln_phi(a - b);
    let l2 = eps + ln_phi(-a - b);
    if l2.is_nan() || l1.is_nan() || l2 >= l1 {
        return Ok(0.0);
    }
    Ok((l1.exp() * -(l2 - l1).exp_m1()).max(0.0))
}

/// `log Φ(x)` without underflow.
fn ln_phi(x: f64) -> f64 {
    crate::special::ln_erfc(-x / std::f64::consts::SQRT_2) - std::f64::consts::LN_2
}

/// The smallest `ε` at which the Gaussian mechanism is `(ε, γ)`-DP (its exact loss at level `γ`).
///
/// # Definition
/// The root of `γ(ε) = γ` ([`gaussian_gamma`] is decreasing in `ε`), by bisection to relative
/// `1e-13`; `0` if `γ(0) <= γ`.
///
/// # Reference
/// Balle & Wang (2018), Thm. 8.
///
/// # Domain
/// `γ ∈ (0, 1)`, `σ, Δ > 0`.
///
/// # Accuracy
/// `1e-12` relative (bisection), on top of that of [`gaussian_gamma`].
///
/// # Errors
/// [`Error::InvalidParameter`] outside the domain.
///
/// # Example
/// ```
/// use dpbai::audit::dp::{gaussian_eps, gaussian_gamma};
/// let e = gaussian_eps(1e-5, 5.0, 1.0).unwrap();
/// assert!((gaussian_gamma(e, 5.0, 1.0).unwrap() / 1e-5 - 1.0).abs() < 1e-6);
/// ```
pub fn gaussian_eps(gamma: f64, sigma: f64, sensitivity: f64) -> Result<f64> {
    check_open("gamma", gamma, 0.0, 1.0)?;
    if gaussian_gamma(0.0, sigma, sensitivity)? <= gamma {
        return Ok(0.0);
    }
    let mut lo = 0.0;
    let mut hi = 1.0;
    while gaussian_gamma(hi, sigma, sensitivity)? > gamma {
        hi *= 2.0;
        if hi > 1e300 {
            return Ok(f64::INFINITY);
        }
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if gaussian_gamma(mid, sigma, sensitivity)? > gamma {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-13 * hi {
            break;
        }
    }
    Ok(hi)
}

/// Exact-mode verdict for a pure-ε claim from an enclosure `[lower, upper]` of the exact loss:
/// `holds` iff `upper < ε`, `violated` iff `lower > ε`, else `inconclusive` (a tie included).
///
/// # Example
/// ```
/// use dpbai::audit::{dp::exact_verdict, Verdict};
/// assert_eq!(exact_verdict(0.99, 0.999, 1.0), Verdict::Holds);
/// assert_eq!(exact_verdict(1.0, 1.0, 1.0), Verdict::Inconclusive);
/// assert_eq!(exact_verdict(1.01, 1.02, 1.0), Verdict::Violated);
/// ```
pub fn exact_verdict(lower: f64, upper: f64, eps_claimed: f64) -> Verdict {
    if upper < eps_claimed {
        Verdict::Holds
    } else if lower > eps_claimed {
        Verdict::Violated
    } else {
        Verdict::Inconclusive
    }
}

fn verdict_of(o: Ordering) -> Verdict {
    match o {
        Ordering::Less => Verdict::Holds,
        Ordering::Greater => Verdict::Violated,
        Ordering::Equal => Verdict::Inconclusive,
    }
}

/// The exact order of `x` and the real product `a·b` (finite `x, a, b >= 0`, `a·b` normal):
/// `a·b = p + r` exactly with `p = fl(a·b)` and `r` from a fused multiply-add; `x − p` is exact
/// when `p/2 <= x <= 2p` (Sterbenz), and otherwise `|x − p|` dwarfs `|r| <= ulp(p)/2`.
fn cmp_product(x: f64, a: f64, b: f64) -> Option<Ordering> {
    let p = a * b;
    if !(p.is_normal() && x.is_finite() && x >= 0.0) {
        return None;
    }
    let r = a.mul_add(b, -p);
    if 0.5 * p <= x && x <= 2.0 * p {
        (x - p).partial_cmp(&r)
    } else {
        x.partial_cmp(&p)
    }
}

/// Verdict of randomised response with keep probability `q` against a pure `ε` claim, decided
/// in the safe direction (module docs).
///
/// # Definition
/// The loss is `|log(q/(1 − q))|`. For `q >= 1/2`: `holds` iff `2q − 1 < E_lo·(1 − q)`,
/// `violated` iff `2q − 1 > E_hi·(1 − q)`, where `[E_lo, E_hi] ∋ expm1(ε)`; for `q < 1/2` the
/// mirror enclosure through [`crate::threshold::interval`].
///
/// # Errors
/// [`Error::InvalidParameter`] for `q ∉ [0, 1]` or `ε <= 0`.
///
/// # Example
/// ```
/// use dpbai::audit::{dp::rr_verdict, Verdict};
/// let e = 1f64.exp();
/// assert_eq!(rr_verdict(dpbai::float::next_down(e / (1.0 + e)) - 1e-15, 1.0).unwrap(), Verdict::Holds);
/// assert_eq!(rr_verdict(0.9, 1.0).unwrap(), Verdict::Violated);
/// ```
pub fn rr_verdict(q: f64, eps: f64) -> Result<Verdict> {
    crate::error::check_closed("keep probability", q, 0.0, 1.0)?;
    check_above("eps", eps, 0.0)?;
    if q == 0.0 || q == 1.0 {
        return Ok(Verdict::Violated);
    }
    let em1 = eps.exp_m1();
    let (e_lo, e_hi) = (next_down(next_down(em1)), next_up(next_up(em1)));
    if q >= 0.5 {
        let (num, den) = (2.0 * q - 1.0, 1.0 - q);
        if num == 0.0 {
            return Ok(Verdict::Holds);
        }
        if cmp_product(num, e_lo, den) == Some(Ordering::Less) {
            return Ok(Verdict::Holds);
        }
        if cmp_product(num, e_hi, den) == Some(Ordering::Greater) {
            return Ok(Verdict::Violated);
        }
        return Ok(Verdict::Inconclusive);
    }
    // q < 1/2: loss = log((1 − q)/q) = ln1p((1 − 2q)/q); enclose it.
    let one = Interval::point(1.0);
    let qi = Interval::point(q);
    let x = one.sub(qi.add(qi)).div(qi);
    let lo = next_down(next_down(x.lo.ln_1p()));
    let hi = next_up(next_up(x.hi.ln_1p()));
    Ok(exact_verdict(lo, hi, eps))
}

/// Verdict of independent Laplace outputs `Lap(m_j, b_j)` vs `Lap(m'_j, b'_j)` against a pure
/// `ε` claim, decided in the safe direction (module docs); also returns the loss
/// ([`laplace_vector_loss`]).
///
/// # Definition
/// Different scales: `violated` (loss `+∞`). One coordinate with `m_j ≠ m'_j` and an exact
/// difference: `|m − m'|/b < ε` decided exactly as `|m − m'| < ε·b`. Otherwise the sum of the
/// outward-rounded quotients is compared with [`exact_verdict`].
///
/// # Errors
/// As [`laplace_vector_loss`].
///
/// # Example
/// ```
/// use dpbai::audit::{dp::laplace_vector_verdict, Verdict};
/// let b = dpbai::float::next_up(1.0); // the scale 1/ε rounded up
/// assert_eq!(laplace_vector_verdict(&[(1.0, b)], &[(0.0, b)], 1.0).unwrap().0, Verdict::Holds);
/// assert_eq!(laplace_vector_verdict(&[(1.0, 1.0)], &[(0.0, 1.0)], 1.0).unwrap().0, Verdict::Inconclusive);
/// ```
pub fn laplace_vector_verdict(
    x: &[(f64, f64)],
    y: &[(f64, f64)],
    eps: f64,
) -> Result<(Verdict, f64)> {
    check_above("eps", eps, 0.0)?;
    let loss = laplace_vector_loss(x, y)?;
    if loss == f64::INFINITY {
        return Ok((Verdict::Violated, loss));
    }
    // Exact differences m − m' (TwoSum's error term zero) of the coordinates that differ.
    let mut terms = Vec::new();
    let mut exact = true;
    for (&(m, b), &(m2, _)) in x.iter().zip(y) {
        let d = m - m2;
        let bb = d - m;
        let err = (m - (d - bb)) + (-m2 - bb);
        if d != 0.0 || err != 0.0 {
            exact &= err == 0.0;
            terms.push((d.abs(), b));
        }
    }
    if terms.is_empty() {
        return Ok((Verdict::Holds, loss));
    }
    if exact && terms.len() == 1 {
        let (d, b) = terms[0];
        if let Some(o) = cmp_product(d, eps, b) {
            return Ok((verdict_of(o), loss));
        }
    }
    let mut sum = Interval::point(0.0);
    for (d, b) in terms {
        let di = if exact {
            Interval::point(d)
        } else {
            Interval::new(next_down(d), next_up(d))
        };
        sum = sum.add(di.div(Interval::point(b)));
    }
    Ok((exact_verdict(sum.lo, sum.hi, eps), loss))
}

/// [`daf_exact_loss`] with its verdict against a pure `ε` claim: `holds` iff every position's
/// [`laplace_vector_verdict`] holds, `violated` iff one is violated; returns the verdict, the
/// worst loss and its position.
///
/// # Errors
/// As [`daf_exact_loss`].
///
/// # Example
/// ```
/// use dpbai::audit::{dp::daf_exact_verdict, Verdict};
/// let plan = |r: &[f64]| dpbai::privacy::daf_release_plan(r, 1.0, true);
/// assert_eq!(daf_exact_verdict(plan, 32, 1.0).unwrap().0, Verdict::Holds);
/// ```
pub fn daf_exact_verdict<F>(plan: F, len: usize, eps: f64) -> Result<(Verdict, f64, usize)>
where
    F: Fn(&[f64]) -> Result<Vec<(f64, f64)>>,
{
    if len == 0 {
        return Err(Error::param("sequence length", 0, "at least 1"));
    }
    let mut worst = (f64::NEG_INFINITY, 1);
    let mut verdict = Verdict::Holds;
    let mut r = vec![0.5; len];
    for i in 0..len {
        r[i] = 1.0;
        let p1 = plan(&r)?;
        r[i] = 0.0;
        let p0 = plan(&r)?;
        r[i] = 0.5;
        let (v, l) = laplace_vector_verdict(&p1, &p0, eps)?;
        if v.severity_rank() < verdict.severity_rank() {
            verdict = v;
        }
        if l > worst.0 {
            worst = (l, i + 1);
        }
    }
    Ok((verdict, worst.0, worst.1))
}

/// Verdict of the Gaussian mechanism's exact `γ(ε)` ([`gaussian_gamma`]) against a claimed
/// `γ`: `holds` iff `γ(ε) + err < γ`, `violated` iff `γ(ε) − err > γ`, with
/// `err = 1e-10·γ(ε) + 1e-15·(1 + e^ε)` (its documented accuracy with a safety factor).
///
/// # Errors
/// As [`gaussian_gamma`].
///
/// # Example
/// ```
/// use dpbai::audit::{dp::gaussian_verdict, Verdict};
/// assert_eq!(gaussian_verdict(1.0, 5.0, 1.0, 1e-5).unwrap().0, Verdict::Holds);
/// ```
pub fn gaussian_verdict(
    eps: f64,
    sigma: f64,
    sensitivity: f64,
    gamma: f64,
) -> Result<(Verdict, f64)> {
    let g = gaussian_gamma(eps, sigma, sensitivity)?;
    let err = 1e-10 * g + 1e-15 * (1.0 + eps.exp());
    let v = if g + err < gamma {
        Verdict::Holds
    } else if g - err > gamma {
        Verdict::Violated
    } else {
        Verdict::Inconclusive
    };
    Ok((v, g))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loss of exactly `ε(1 + 1e-12)` is never `holds`, in each form of the comparison.
    #[test]
    fn a_loss_just_above_eps_is_not_holds() {
        for eps in [1e-3, 0.1, 0.5, 1.0, 2.0, 7.0] {
            let l = eps * (1.0 + 1e-12);
            assert_eq!(exact_verdict(l, l, eps), Verdict::Violated);
            // Ties and enclosures that reach eps are inconclusive.
            assert_eq!(exact_verdict(eps, eps, eps), Verdict::Inconclusive);
            assert_eq!(exact_verdict(0.5 * eps, eps, eps), Verdict::Inconclusive);
            // Laplace with scale 1/(ε(1 + 1e-12)): loss ε(1 + 1e-12) up to 1e-16.
            let b = 1.0 / l;
            let (v, _) = laplace_vector_verdict(&[(1.0, b)], &[(0.0, b)], eps).expect("valid");
            assert_eq!(v, Verdict::Violated, "eps {eps}");
            // Randomised response with log(q/(1 − q)) = ε(1 + 1e-12) up to 1e-16.
            let q = 1.0 / (1.0 + (-l).exp());
            assert_ne!(
                rr_verdict(q, eps).expect("valid"),
                Verdict::Holds,
                "eps {eps}"
            );
            // DAF-like vector: two coordinates summing to ε(1 + 1e-12).
            let (v, _) = laplace_vector_verdict(
                &[(1.0, 2.0 / l), (1.0, 2.0 / l)],
                &[(0.0, 2.0 / l), (0.0, 2.0 / l)],
                eps,
            )
            .expect("valid");
            assert_ne!(v, Verdict::Holds, "eps {eps}");
        }
    }

    /// The faithful mechanisms of `crate::privacy` (scales rounded up, keep probability down)
    /// are proven below `ε` where their margin allows it.
    #[test]
    fn faithful_mechanisms_hold_at_the_report_eps() {
        let rr = crate::privacy::RandomisedResponse::new(1.0).expect("valid");
        assert_eq!(
            rr_verdict(rr.keep_probability(), 1.0).expect("valid"),
            Verdict::Holds
        );
        let lap = crate::privacy::Laplace::new(1.0, 1.0).expect("valid");
        let (v, _) = laplace_vector_verdict(&[(1.0, lap.scale())], &[(0.0, lap.scale())], 1.0)
            .expect("valid");
        assert_eq!(v, Verdict::Holds);
        for eps in [0.1, 0.3, 0.7, 1.0, 3.0] {
            let plan = |r: &[f64]| crate::privacy::daf_release_plan(r, eps, true);
            assert_eq!(
                daf_exact_verdict(plan, 32, eps).expect("valid").0,
                Verdict::Holds
            );
        }
    }

    #[test]
    fn laplace_vector_loss_edges() {
        assert_eq!(
            laplace_vector_loss(&[(0.0, 1.0)], &[(0.0, 2.0)]).expect("valid"),
            f64::INFINITY
        );
        assert!(laplace_vector_loss(&[(0.0, 1.0)], &[]).is_err());
        assert!(laplace_vector_loss(&[(0.0, 0.0)], &[(0.0, 0.0)]).is_err());
    }

    #[test]
    fn rr_loss_is_symmetric_in_q() {
        let a = rr_loss(0.8).expect("valid");
        let b = rr_loss(0.2).expect("valid");
        assert!((a - b).abs() < 1e-15);
        assert_eq!(rr_loss(1.0).expect("valid"), f64::INFINITY);
        assert!(rr_loss(1.5).is_err());
    }

    #[test]
    fn gaussian_gamma_is_decreasing_and_matches_eps0_closed_form() {
        let mut prev = 1.0;
        for i in 0..50 {
            let g = gaussian_gamma(i as f64 * 0.1, 2.0, 1.0).expect("valid");
            assert!(g <= prev);
            prev = g;
        }
        // γ(0) = 2Φ(Δ/(2σ)) − 1 = erf(Δ/(2√2σ)).
        let g0 = gaussian_gamma(0.0, 2.0, 1.0).expect("valid");
        let want = crate::special::erf(1.0 / (4.0 * std::f64::consts::SQRT_2));
        assert!((g0 - want).abs() < 1e-15);
    }
}
