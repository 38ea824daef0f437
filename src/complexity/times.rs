//! The named characteristic times of the paper: one function per time, each a
//! [`characteristic_time`] of its [`TimeKind`] (READINGS.md §B), plus the closed-form hardness
//! `2H(ν_{G,ε})` of Eq. (10).

use super::{Certified, TimeKind, characteristic_time, check_eps};
use crate::error::Result;
use crate::instance::Instance;

/// `T_KL` of the instance (Bernoulli KL or Gaussian KL with the instance's σ), L. 5.
///
/// # Definition, Reference, Domain, Accuracy, Errors
/// As [`characteristic_time`] with the corresponding [`TimeKind`].
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.75, 0.7, 0.7, 0.7, 0.7]).unwrap();
/// let t = dpbai::complexity::t_kl(&nu).unwrap();
/// assert!((t.value - 1424.747).abs() < 1e-3); // READINGS.md §B.12, μ2
/// ```
pub fn t_kl(nu: &Instance) -> Result<Certified> {
    crate::fault::check(crate::fault::Area::Solver)?;
    characteristic_time(TimeKind::Kl, nu)
}

/// `T_KL^G(μ; σ)`: the Gaussian-formula time with standard deviation `σ` (Eq. (5), B.3).
///
/// # Definition, Reference, Domain, Accuracy, Errors
/// As [`characteristic_time`] with the corresponding [`TimeKind`].
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let t = dpbai::complexity::t_kl_gaussian(&nu, 0.5).unwrap();
/// assert!((t.value - 1495.301).abs() < 1e-3); // READINGS.md §B.12
/// ```
pub fn t_kl_gaussian(nu: &Instance, sigma: f64) -> Result<Certified> {
    crate::fault::check(crate::fault::Area::Solver)?;
    characteristic_time(TimeKind::KlGaussian { sigma }, nu)
}

/// `T_{KL,β}` of the instance's own KL (B.3, B.4).
///
/// # Definition, Reference, Domain, Accuracy, Errors
/// As [`characteristic_time`] with the corresponding [`TimeKind`].
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let t = dpbai::complexity::t_kl_beta(&nu, 0.5).unwrap();
/// assert!((t.value - 414.442).abs() < 1e-3); // READINGS.md §B.12
/// ```
pub fn t_kl_beta(nu: &Instance, beta: f64) -> Result<Certified> {
    crate::fault::check(crate::fault::Area::Solver)?;
    characteristic_time(TimeKind::KlBeta { beta }, nu)
}

/// `T^G_{KL,β}(μ; σ)` (Eq. (5)); `σ = 1/2` is the paper's `T*_{KL,β}` in Thm. 22/24.
///
/// # Definition, Reference, Domain, Accuracy, Errors
/// As [`characteristic_time`] with the corresponding [`TimeKind`].
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let t = dpbai::complexity::t_kl_gaussian_beta(&nu, 0.5, 0.5).unwrap();
/// assert!((t.value - 1603.72).abs() < 1e-2); // READINGS.md §B.12
/// ```
pub fn t_kl_gaussian_beta(nu: &Instance, sigma: f64, beta: f64) -> Result<Certified> {
    crate::fault::check(crate::fault::Area::Solver)?;
    characteristic_time(TimeKind::KlGaussianBeta { sigma, beta }, nu)
}

/// `T_TV` (Cor. 18, B.5), computed by the general solver (closed form `Σ_a 1/Δ_a` is a test).
///
/// # Definition, Reference, Domain, Accuracy, Errors
/// As [`characteristic_time`] with the corresponding [`TimeKind`].
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let t = dpbai::complexity::t_tv(&nu).unwrap();
/// assert!((t.value - 82.2222).abs() < 1e-3);
/// ```
pub fn t_tv(nu: &Instance) -> Result<Certified> {
    crate::fault::check(crate::fault::Area::Solver)?;
    characteristic_time(TimeKind::Tv, nu)
}

/// `T_TV²` (Cor. 11, B.6).
///
/// # Definition, Reference, Domain, Accuracy, Errors
/// As [`characteristic_time`] with the corresponding [`TimeKind`].
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let t = dpbai::complexity::t_tv2(&nu).unwrap();
/// assert!((t.value - 2990.601).abs() < 1e-2);
/// ```
pub fn t_tv2(nu: &Instance) -> Result<Certified> {
    crate::fault::check(crate::fault::Area::Solver)?;
    characteristic_time(TimeKind::Tv2, nu)
}

/// Local-DP time `T_ℓ(μ; ε)` (Thm. 10, B.8), Bernoulli and Gaussian instances.
///
/// # Definition, Reference, Domain, Accuracy, Errors
/// As [`characteristic_time`] with the corresponding [`TimeKind`].
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let t = dpbai::complexity::t_local(&nu, 0.8).unwrap();
/// assert!((t.value - 498.199).abs() < 1e-2); // READINGS.md §B.12
/// ```
pub fn t_local(nu: &Instance, eps: f64) -> Result<Certified> {
    crate::fault::check(crate::fault::Area::Solver)?;
    characteristic_time(TimeKind::Local { eps }, nu)
}

/// Global-DP time `T_g(μ; ε)` (Thm. 17, B.9).
///
/// # Definition, Reference, Domain, Accuracy, Errors
/// As [`characteristic_time`] with the corresponding [`TimeKind`].
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let t = dpbai::complexity::t_global(&nu, 0.3).unwrap();
/// assert!((t.value - 401.72).abs() < 1e-2); // READINGS.md §B.12
/// ```
pub fn t_global(nu: &Instance, eps: f64) -> Result<Certified> {
    crate::fault::check(crate::fault::Area::Solver)?;
    characteristic_time(TimeKind::Global { eps }, nu)
}

/// `T_KL(ν_{G,ε})` (Eq. (10), B.7) with the instance's `σ` (`σ = 1/2` for Bernoulli arms): the
/// Gaussian time of squared gaps `Δ_a·min{Δ_a, ε/2}` and standard deviation `σ`, `4σ²` times
/// the printed Eq. (10).
///
/// # Definition, Reference, Domain, Accuracy, Errors
/// As [`characteristic_time`] with the corresponding [`TimeKind`]. Cor. 18's
/// `T_g(ν; ε) <= T_KL(ν_{G,ε})` is proven for Bernoulli arms only.
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let t = dpbai::complexity::t_kl_g_eps(&nu, 0.3).unwrap();
/// assert!((t.value - 1500.33).abs() < 1e-2); // READINGS.md §B.12
/// // Gaussian arms, σ = 1, one gap 1/2 > ε/2: 2σ²(1/ω₁ + 1/ω₂)/(Δ ε/2) = 2·4/(1/8) = 64
/// let g = dpbai::instance::Instance::gaussian(vec![1.0, 0.5], 1.0).unwrap();
/// assert!((dpbai::complexity::t_kl_g_eps(&g, 0.5).unwrap().value - 64.0).abs() < 1e-6);
/// ```
pub fn t_kl_g_eps(nu: &Instance, eps: f64) -> Result<Certified> {
    crate::fault::check(crate::fault::Area::Solver)?;
    characteristic_time(TimeKind::KlGEps { eps }, nu)
}

/// `T_{KL,β}(ν_{G,ε})` (Eq. (15), B.7) with the instance's `σ` (`σ = 1/2` for Bernoulli arms;
/// App. G, Eq. (23) for `σ`-sub-Gaussian arms).
///
/// # Definition, Reference, Domain, Accuracy, Errors
/// As [`characteristic_time`] with the corresponding [`TimeKind`].
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.75, 0.7, 0.7, 0.7, 0.7]).unwrap();
/// let t = dpbai::complexity::t_kl_beta_g_eps(&nu, 1.0, 0.5).unwrap();
/// assert!((t.value - 2000.0).abs() < 1e-6); // = 2H for equal gaps (F.65)
/// ```
pub fn t_kl_beta_g_eps(nu: &Instance, eps: f64, beta: f64) -> Result<Certified> {
    crate::fault::check(crate::fault::Area::Solver)?;
    characteristic_time(TimeKind::KlBetaGEps { eps, beta }, nu)
}

/// `2H(ν_{G,ε}) = 4σ² Σ_{a∈[K]} (Δ_a min{Δ_a, ε/2})^{-1}` (Eq. (10), A.7) with the instance's
/// `σ`; for `σ = 1/2` (Bernoulli arms) the printed `Σ_{a∈[K]} (Δ_a min{Δ_a, ε/2})^{-1}`.
///
/// # Definition
/// `2H(ν_{G,ε}) = 2·H^G(μ^{G,ε}; σ) = 4σ² Σ_{a∈[K]} (Δ_a·min{Δ_a, ε/2})^{-1}`, the
/// privacy-aware hardness (`Δ_a` the gaps of `ν`, `Δ_{a*} = Δ_min`).
/// # Reference
/// Eq. (10); READINGS.md §A.7, CLAIMS.md F.65.
/// # Domain
/// Any valid [`Instance`]; `ε > 0` finite.
/// # Accuracy
/// A sum of `K` closed-form terms: a few ulps per term. Checked against the READINGS.md §B.12
/// table (printed digits, relative 2e-5, `tests/complexity.rs`) and as the closed form of
/// `T_{KL,β}(ν_{G,ε})` for equal gaps (F.65).
/// # Errors
/// [`Error::InvalidParameter`](crate::Error::InvalidParameter) unless `ε > 0` finite.
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.75, 0.7, 0.7, 0.7, 0.7]).unwrap();
/// assert!((dpbai::complexity::two_h_g_eps(&nu, 1.0).unwrap() - 2000.0).abs() < 1e-9);
/// ```
pub fn two_h_g_eps(nu: &Instance, eps: f64) -> Result<f64> {
    crate::fault::check(crate::fault::Area::Solver)?;
    check_eps(eps)?;
    let s = nu.sigma();
    // 4σ² = 1 exactly for σ = 1/2
    Ok(4.0
        * s
        * s
        * nu.privacy_aware_squared_gaps(eps)
            .iter()
            .map(|q| 1.0 / q)
            .sum::<f64>())
}
