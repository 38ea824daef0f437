//! Regime-switch privacy budgets (READINGS.md §B.8, §B.9, Sec. 4.1) and the sample-complexity lower
//! bound `T·log(1/(2.4δ))` (L. 5, Thm. 10, 17).

use super::{t_kl, t_tv, t_tv2};
use crate::error::{Result, check_above};
use crate::instance::Instance;
use crate::params::Delta;

/// Inverse of the LDP constant: the `ε` with `c(ε) = v` (A.4; closed form of each piece).
///
/// # Definition
/// `c(ε) = e^{2ε}(e^ε − 1)²` for `ε <= ln 2` (`c <= 4`), `4(e^ε − 1)²` above; the inverse is
/// `ln((1 + √(1 + 4√v))/2)` for `v <= 4` and `ln(1 + √v/2)` above.
/// # Reference
/// READINGS.md §A.4, §B.10; paper Thm. 10.
/// # Domain
/// `v > 0` finite.
/// # Accuracy
/// A few ulps (closed form); the round trip `c(c^{-1}(v)) = v` holds to relative 1e-12 for
/// `v ∈ [1e-6, 1e6]` (`regime_switches_are_crossings` in `tests/complexity.rs`).
/// # Example
/// ```
/// let e0 = dpbai::complexity::c_local_inverse(2.0).unwrap();
/// assert!((e0 - dpbai::divergence::pinsker_switch_eps()).abs() < 1e-14);
/// ```
/// # Errors
/// [`Error::InvalidParameter`](crate::Error::InvalidParameter) unless `v > 0` finite.
pub fn c_local_inverse(v: f64) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Solver)?;
    check_above("c", v, 0.0)?;
    if v <= 4.0 {
        // e^ε (e^ε − 1) = √v
        let s = v.sqrt();
        Ok(((1.0 + (1.0 + 4.0 * s).sqrt()) / 2.0).ln())
    } else {
        Ok((v.sqrt() / 2.0).ln_1p())
    }
}

/// Local regime switch `ε_ℓ*`: `c(ε) = T_TV2/T_KL` (Sec. 3.1, B.10).
///
/// # Definition
/// `ε_ℓ* = c^{-1}(T*_TV²(ν)/T*_KL(ν))`, where the two local-time regimes cross.
/// # Reference
/// Sec. 3.1; READINGS.md §B.10.
/// # Domain
/// Any valid Bernoulli [`Instance`].
/// # Accuracy
/// Inherits the 1e-9 certificates of the two times (relative error about 2e-9 on the ratio);
/// checked against the READINGS.md §B.12 table (`B12_TOL` of `tests/complexity.rs`) and as the crossing
/// `c(ε_ℓ*) = T_TV²/T_KL` to relative 1e-12.
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// assert!((dpbai::complexity::eps_switch_local(&nu).unwrap() - 0.8649).abs() < 1e-4);
/// ```
/// # Errors
/// Propagates the solver errors.
pub fn eps_switch_local(nu: &Instance) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Solver)?;
    let r = t_tv2(nu)?.value / t_kl(nu)?.value;
    c_local_inverse(r)
}

/// Global regime switch `ε_g* = T_TV/T_KL` (Sec. 4.1, B.10).
///
/// # Definition
/// `ε_g* = T*_TV(ν)/T*_KL(ν)`, where the two global-time regimes cross.
/// # Reference
/// Sec. 4.1; READINGS.md §B.10.
/// # Domain
/// Any valid [`Instance`].
/// # Accuracy
/// Inherits the 1e-9 certificates of the two times (relative error about 2e-9); checked
/// against the READINGS.md §B.12 table (`B12_TOL` of `tests/complexity.rs`).
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// assert!((dpbai::complexity::eps_switch_global(&nu).unwrap() - 0.2079).abs() < 1e-4);
/// ```
/// # Errors
/// Propagates the solver errors.
pub fn eps_switch_global(nu: &Instance) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Solver)?;
    Ok(t_tv(nu)?.value / t_kl(nu)?.value)
}

/// `log(1/(2.4 δ))`, the factor of every lower bound (A.8).
///
/// # Definition
/// `log(1/(2.4δ))`, a lower bound of `kl(1 − δ, δ)` (see [`crate::divergence::kl_delta`]).
/// # Reference
/// L. 5; Thm. 10, 17; READINGS.md §A.8, §E.3.
/// # Domain
/// Every [`Delta`] (negative for `δ > 1/2.4`).
/// # Accuracy
/// A few ulps (one `ln`); no golden file (closed form), checked by its doc test.
/// # Example
/// ```
/// let d = dpbai::params::Delta::new(0.01).unwrap();
/// assert!((dpbai::complexity::log_factor(d) - 3.729701).abs() < 1e-6);
/// ```
pub fn log_factor(delta: Delta) -> f64 {
    (1.0 / (2.4 * delta.get())).ln()
}

/// Sample-complexity lower bound `T · log(1/(2.4δ))` (L. 5, Thm. 10, Thm. 17). Note that it is
/// negative (vacuous) for `δ > 1/2.4`.
///
/// # Definition
/// `T·log(1/(2.4δ))` for a characteristic time `T` (see [`log_factor`]).
/// # Reference
/// L. 5, Thm. 10, Thm. 17; READINGS.md §E.3.
/// # Domain
/// `t` any float (a characteristic time), every [`Delta`].
/// # Accuracy
/// One rounding on top of [`log_factor`] and of `t`.
pub fn sample_lower_bound(t: f64, delta: Delta) -> f64 {
    t * log_factor(delta)
}
