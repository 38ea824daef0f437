//! Exact mode of `audit dp`: the worst-case privacy loss where the output law is computable
//! (randomised response, Laplace vectors, DAF's release plan, the Gaussian privacy profile).
//! The formulas are in the parent module's docs.

use crate::audit::Verdict;
use crate::error::{check_above, check_open, Error, Result};

/// Relative slack of the exact-mode comparison `loss <= ε·(1 + EXACT_REL_SLACK)`.
pub const EXACT_REL_SLACK: f64 = 1e-9;

/// Exact privacy loss of randomised response with keep probability `q`.
///
/// # Definition
/// `max_{r, r' ∈ [0,1], z ∈ {0,1}} log(P(z|r)/P(z|r')) = |log(q/(1 − q))|` (`+∞` at `q ∈ {0, 1}`).
///
/// # Reference
/// L. 12; MATH.md A.5, E.1.
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
/// Thm. 3, L. 31 (MATH.md E.1).
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
/// L. 31 (ε-DP of the fixed-partition block means), MATH.md D.6, E.1.
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
/// Rem. 13 / Alg. 8 (MATH.md C.8, D.5).
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

/// Exact-mode verdict for a pure-ε claim.
///
/// # Example
/// ```
/// use dpbai::audit::{dp::exact_verdict, Verdict};
/// assert_eq!(exact_verdict(1.0, 1.0), Verdict::Holds);
/// assert_eq!(exact_verdict(1.01, 1.0), Verdict::Violated);
/// ```
pub fn exact_verdict(loss: f64, eps_claimed: f64) -> Verdict {
    if loss <= eps_claimed * (1.0 + EXACT_REL_SLACK) {
        Verdict::Holds
    } else {
        Verdict::Violated
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
