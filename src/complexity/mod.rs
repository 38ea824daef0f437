//! Characteristic times with certified bounds, optimal allocations, hardness constants,
//! regime-switch epsilons, sample-complexity lower bounds and the asymptotic upper-bound
//! formulas of the paper (MATH.md section B and E.3–E.4).
//!
//! Every characteristic time is returned as a [`Certified`] value: `lower <= value <= upper`
//! where `lower` and `upper` are PROVEN bounds (a feasible allocation gives `upper`, a dual
//! certificate gives `lower`, both widened by a rounding margin) and
//! `(upper − lower) <= 1e-9 · value` (else [`Error::NoConvergence`]).
//!
//! # Algorithm
//! Two-arm reduction (B.1), then the level parametrisation of `solver`: for the level `y` of
//! `ψ_b(1, x)`, every challenger's weight `x_b(y)` is found by safeguarded Newton (concave
//! increasing function), and the optimal level solves the Garivier–Kaufmann-type stationarity
//! condition `Σ_b D(μ_{a*}, z_b)/D(μ_b, z_b) = 1` (Brent), or sits at the saturation level when
//! the optimum is at a kink (TV). The inner infimum is closed-form for KL/KL and quadratic
//! pairs and a 1-D convex Newton solve for the mixed branches of the local time (B.8).
//! The closed forms of B.5, B.6, F.63, F.64 are test oracles only.
//!
//! # Families
//! * Bernoulli (`σ = 1/2`): everything below.
//! * Gaussian (known `σ`): KL is `Δ²/(2σ²)`; TV is `erf(Δ/(2√2σ))` (A.2, B.5), a concave
//!   function of the distance, so `ψ^TV_b = min(u, w)·erf(Δ_b/(2√2σ))` and the global time
//!   (B.9) uses these Gaussian KL and TV; `t_tv2` is the B.6 quadratic cost `Δ²/(1/u + 1/w)`
//!   (= `T_KL(ν_G)/2`, Cor. 11), not the square of the Gaussian TV. The local time (B.8,
//!   Thm. 10) uses the actual Gaussian distributions: `d_ε = min{Δ²/(2σ²), c(ε) erf(Δ/(2√2σ))²}`.
//!   `erf²` is not convex, so each inner infimum is solved by a certified global branch and
//!   bound (curvature bounds of `erf²`, module `gauss_local`), whose proven lower bound feeds
//!   the upper side of the certificate; when `KL <= c(ε) TV²` on every gap it is exactly the
//!   Gaussian KL time. The privacy-aware times (Eq. (10), (15)) use the paper's formula
//!   (`σ = 1/2`) for both families.

mod challengers;
pub mod curves;
mod gauss_local;
mod solver;
pub mod upper;

use crate::divergence::c_local_unchecked;
use crate::error::{check_above, check_open, Error, Result};
use crate::instance::{Family, Instance};
use challengers::{BranchCh, GlobalCh, QuadCh, TvCh};
use gauss_local::GaussLocalCh;
use serde::Serialize;
use solver::{Challenger, Piece};

/// Relative width promised for every [`Certified`] interval.
pub const CERTIFIED_REL_WIDTH: f64 = 1e-9;

/// A characteristic time with a proven enclosure and its optimal allocation.
///
/// # Definition
/// `lower <= T <= upper` is proven (up to the stated rounding margin, see the module docs);
/// `value` is the solver's point estimate (clamped into the interval); `allocation` is the
/// (near-)optimal `ω ∈ Σ_K` in arm order, whose objective certifies `upper`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Certified {
    /// Point estimate of `T`.
    pub value: f64,
    /// Proven lower bound.
    pub lower: f64,
    /// Proven upper bound.
    pub upper: f64,
    /// Optimal allocation `ω*` (sums to 1, arm order).
    pub allocation: Vec<f64>,
}

impl Certified {
    /// Relative width `(upper − lower)/value`.
    pub fn rel_width(&self) -> f64 {
        (self.upper - self.lower) / self.value
    }
    /// True when `lower <= value <= upper`.
    pub fn contains_value(&self) -> bool {
        self.lower <= self.value && self.value <= self.upper
    }
}

/// Which characteristic time (MATH.md 0.2 names).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeKind {
    /// `T_KL^Ber` for Bernoulli, `T_KL^G(μ; σ)` for Gaussian instances (L. 5).
    Kl,
    /// `T_KL^G(μ; σ)` with the given `σ` (Eq. (5); `σ = 1/2` in the paper's bounds).
    KlGaussian {
        /// Standard deviation `σ > 0`.
        sigma: f64,
    },
    /// `T_{KL,β}` of the instance's own KL (B.3, B.4).
    KlBeta {
        /// Leader weight `β ∈ (0, 1)`.
        beta: f64,
    },
    /// `T^G_{KL,β}(μ; σ)` (Eq. (5)).
    KlGaussianBeta {
        /// Standard deviation `σ > 0`.
        sigma: f64,
        /// Leader weight `β ∈ (0, 1)`.
        beta: f64,
    },
    /// `T_TV` (B.5).
    Tv,
    /// `T_TV²` (B.6).
    Tv2,
    /// Local-DP time `T_ℓ(μ; ε)` (B.8, Thm. 10), Bernoulli and Gaussian arms.
    Local {
        /// Privacy budget `ε > 0`.
        eps: f64,
    },
    /// Global-DP time `T_g(μ; ε)` (B.9, Thm. 17).
    Global {
        /// Privacy budget `ε > 0`.
        eps: f64,
    },
    /// `T_KL(ν_{G,ε})` (Eq. (10), B.7).
    KlGEps {
        /// Privacy budget `ε > 0`.
        eps: f64,
    },
    /// `T_{KL,β}(ν_{G,ε})` (Eq. (15), B.7).
    KlBetaGEps {
        /// Privacy budget `ε > 0`.
        eps: f64,
        /// Leader weight `β ∈ (0, 1)`.
        beta: f64,
    },
}

/// Evaluates one characteristic time with its certificate and optimal allocation.
///
/// # Definition
/// `T_d(ν)^{-1} = sup_{ω∈Σ_K} inf_{λ∈Alt(ν)} Σ_a ω_a d(ν_a, λ_a)` for the divergence of `kind`
/// (MATH.md B.1); β-versions add the constraint `ω_{a*} = β`.
/// # Reference
/// Eq. (1), (5), (10), (15); L. 5; Thm. 10, 17; Cor. 11, 18; MATH.md B.3–B.9.
/// # Domain
/// Any valid [`Instance`] (unique best arm; Bernoulli means in `[0, 1]`, boundary means
/// allowed); `ε > 0` finite; `β ∈ (0, 1)`; `σ > 0`.
/// # Accuracy
/// Relative error <= 1e-8 against `tests/data/bounds_golden.toml` (mpmath, 40 digits,
/// `verify/golden_bounds.py`) and, for the Gaussian local time,
/// `tests/data/local_gaussian_golden.toml` (`verify/golden_local_gaussian.py`); the returned
/// interval is proven and has relative width <= 1e-9.
/// # Errors
/// [`Error::InvalidParameter`] for a bad `ε`, `β` or `σ`; [`Error::NoConvergence`] if the
/// certificate is wider than 1e-9 (never observed on the test instances).
/// # Example
/// ```
/// use dpbai::complexity::{characteristic_time, TimeKind};
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let t = characteristic_time(TimeKind::Kl, &nu).unwrap();
/// assert!((t.value - 395.5415).abs() < 1e-3); // MATH.md B.12
/// assert!(t.lower <= t.value && t.value <= t.upper);
/// ```
pub fn characteristic_time(kind: TimeKind, nu: &Instance) -> Result<Certified> {
    let top = nu.best_mean();
    let lows: Vec<f64> = (0..nu.k())
        .filter(|&a| a != nu.best())
        .map(|a| nu.means()[a])
        .collect();
    let gaps: Vec<f64> = lows.iter().map(|&m| top - m).collect();
    let sigma = nu.sigma();
    let bern = nu.family() == Family::Bernoulli;
    let quad = |s: f64| -> Vec<QuadCh> {
        gaps.iter()
            .map(|d| QuadCh {
                q: d * d / (2.0 * s * s),
            })
            .collect()
    };
    let tv_level = |d: f64| -> f64 {
        if bern {
            d
        } else {
            crate::special::erf(d / (2.0 * std::f64::consts::SQRT_2 * sigma))
        }
    };
    let g_eps = |eps: f64| -> Vec<QuadCh> {
        gaps.iter()
            .map(|&d| QuadCh {
                q: 2.0 * d * d.min(0.5 * eps),
            })
            .collect()
    };
    let kl_ber = || -> Vec<BranchCh> {
        lows.iter()
            .map(|&m| BranchCh::kl_bernoulli(top, m))
            .collect()
    };
    match kind {
        TimeKind::Kl => {
            if bern {
                certify_free(nu, &kl_ber())
            } else {
                certify_free(nu, &quad(sigma))
            }
        }
        TimeKind::KlGaussian { sigma } => {
            check_above("sigma", sigma, 0.0)?;
            certify_free(nu, &quad(sigma))
        }
        TimeKind::KlBeta { beta } => {
            check_beta(beta)?;
            if bern {
                certify_beta(nu, &kl_ber(), beta)
            } else {
                certify_beta(nu, &quad(sigma), beta)
            }
        }
        TimeKind::KlGaussianBeta { sigma, beta } => {
            check_above("sigma", sigma, 0.0)?;
            check_beta(beta)?;
            certify_beta(nu, &quad(sigma), beta)
        }
        TimeKind::Tv => {
            let chs: Vec<TvCh> = gaps.iter().map(|&d| TvCh { level: tv_level(d) }).collect();
            certify_free(nu, &chs)
        }
        TimeKind::Tv2 => {
            // ψ_b = Δ_b²/(1/u + 1/w) (B.6)
            let chs: Vec<QuadCh> = gaps.iter().map(|d| QuadCh { q: d * d }).collect();
            certify_free(nu, &chs)
        }
        TimeKind::Local { eps } => {
            check_eps(eps)?;
            let c = c_local_unchecked(eps);
            // (c(ε) overflows for ε > ~354: then min{kl, c TV²} = kl exactly, c = +∞)
            if bern {
                let chs: Vec<BranchCh> = lows.iter().map(|&m| BranchCh::local(top, m, c)).collect();
                return certify_free(nu, &chs);
            }
            // Gaussian arms: exactly the KL time when KL <= c TV² on every gap (module docs of
            // gauss_local), else the certified branch-and-bound challenger
            if gaps
                .iter()
                .all(|&d| GaussLocalCh::kl_everywhere(d, sigma, c))
            {
                return certify_free(nu, &quad(sigma));
            }
            let chs: Vec<GaussLocalCh> = gaps
                .iter()
                .map(|&d| GaussLocalCh::new(d, sigma, c))
                .collect();
            certify_free(nu, &chs)
        }
        TimeKind::Global { eps } => {
            check_eps(eps)?;
            if bern {
                let chs: Vec<GlobalCh<BranchCh>> = lows
                    .iter()
                    .map(|&m| GlobalCh::new(BranchCh::kl_bernoulli(top, m), eps * (top - m)))
                    .collect();
                certify_free(nu, &chs)
            } else {
                let chs: Vec<GlobalCh<QuadCh>> = quad(sigma)
                    .into_iter()
                    .zip(&gaps)
                    .map(|(q, &d)| GlobalCh::new(q, eps * tv_level(d)))
                    .collect();
                certify_free(nu, &chs)
            }
        }
        TimeKind::KlGEps { eps } => {
            check_eps(eps)?;
            certify_free(nu, &g_eps(eps))
        }
        TimeKind::KlBetaGEps { eps, beta } => {
            check_eps(eps)?;
            check_beta(beta)?;
            certify_beta(nu, &g_eps(eps), beta)
        }
    }
}

fn check_eps(eps: f64) -> Result<f64> {
    check_above("eps", eps, 0.0)
}

fn check_beta(beta: f64) -> Result<f64> {
    check_open("beta", beta, 0.0, 1.0)
}

fn place(nu: &Instance, best_w: f64, others: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut out = Vec::with_capacity(nu.k());
    let mut it = others;
    for a in 0..nu.k() {
        if a == nu.best() {
            out.push(best_w);
        } else {
            out.push(it.next().expect("invariant: one weight per challenger"));
        }
    }
    out
}

fn finish(value: f64, lower: f64, upper: f64, allocation: Vec<f64>) -> Result<Certified> {
    if !(value.is_finite() && lower > 0.0 && upper.is_finite() && lower <= upper)
        || (upper - lower) > CERTIFIED_REL_WIDTH * lower
    {
        return Err(Error::NoConvergence {
            what: format!(
                "characteristic time certificate (value {value:e}, lower {lower:e}, upper {upper:e})"
            ),
            iterations: 0,
        });
    }
    Ok(Certified {
        value: value.clamp(lower, upper),
        lower,
        upper,
        allocation,
    })
}

fn certify_free<C: Challenger>(nu: &Instance, chs: &[C]) -> Result<Certified> {
    let sol = solver::solve_free(chs)?;
    let total = 1.0 + sol.x.iter().sum::<f64>();
    let value = total / sol.y;
    let upper = solver::upper_free(chs, &sol.x);
    let pieces: Vec<Vec<Piece>> = chs
        .iter()
        .zip(&sol.x)
        .map(|(c, &x)| {
            let mut v = Vec::with_capacity(6);
            c.pieces(1.0, x, &mut v);
            v
        })
        .collect();
    let lower = solver::lower_free(&pieces);
    let alloc = place(nu, 1.0 / total, sol.x.iter().map(|x| x / total));
    finish(value, lower, upper, alloc)
}

fn certify_beta<C: Challenger>(nu: &Instance, chs: &[C], beta: f64) -> Result<Certified> {
    let sol = solver::solve_beta(chs, beta)?;
    let value = 1.0 / (beta * sol.y);
    let upper = solver::upper_beta(chs, &sol.x, beta);
    let pieces: Vec<Vec<Piece>> = chs
        .iter()
        .zip(&sol.x)
        .map(|(c, &x)| {
            let mut v = Vec::with_capacity(2);
            c.pieces(beta, beta * x, &mut v);
            v
        })
        .collect();
    let lower = solver::lower_beta(&pieces, beta);
    let alloc = place(nu, beta, sol.x.iter().map(|x| beta * x));
    finish(value, lower, upper, alloc)
}

/// `T_KL` of the instance (Bernoulli KL or Gaussian KL with the instance's σ), L. 5.
///
/// # Definition, Reference, Domain, Accuracy, Errors
/// As [`characteristic_time`] with the corresponding [`TimeKind`].
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.75, 0.7, 0.7, 0.7, 0.7]).unwrap();
/// let t = dpbai::complexity::t_kl(&nu).unwrap();
/// assert!((t.value - 1424.747).abs() < 1e-3); // MATH.md B.12, μ2
/// ```
pub fn t_kl(nu: &Instance) -> Result<Certified> {
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
/// assert!((t.value - 1495.301).abs() < 1e-3); // MATH.md B.12
/// ```
pub fn t_kl_gaussian(nu: &Instance, sigma: f64) -> Result<Certified> {
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
/// assert!((t.value - 414.442).abs() < 1e-3); // MATH.md B.12
/// ```
pub fn t_kl_beta(nu: &Instance, beta: f64) -> Result<Certified> {
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
/// assert!((t.value - 1603.72).abs() < 1e-2); // MATH.md B.12
/// ```
pub fn t_kl_gaussian_beta(nu: &Instance, sigma: f64, beta: f64) -> Result<Certified> {
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
/// assert!((t.value - 498.199).abs() < 1e-2); // MATH.md B.12
/// ```
pub fn t_local(nu: &Instance, eps: f64) -> Result<Certified> {
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
/// assert!((t.value - 401.72).abs() < 1e-2); // MATH.md B.12
/// ```
pub fn t_global(nu: &Instance, eps: f64) -> Result<Certified> {
    characteristic_time(TimeKind::Global { eps }, nu)
}

/// `T_KL(ν_{G,ε})` (Eq. (10), B.7).
///
/// # Definition, Reference, Domain, Accuracy, Errors
/// As [`characteristic_time`] with the corresponding [`TimeKind`].
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let t = dpbai::complexity::t_kl_g_eps(&nu, 0.3).unwrap();
/// assert!((t.value - 1500.33).abs() < 1e-2); // MATH.md B.12
/// ```
pub fn t_kl_g_eps(nu: &Instance, eps: f64) -> Result<Certified> {
    characteristic_time(TimeKind::KlGEps { eps }, nu)
}

/// `T_{KL,β}(ν_{G,ε})` (Eq. (15), B.7).
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
    characteristic_time(TimeKind::KlBetaGEps { eps, beta }, nu)
}

/// `2H(ν_{G,ε}) = Σ_{a∈[K]} (Δ_a min{Δ_a, ε/2})^{-1}` (Eq. (10), A.7).
///
/// # Definition
/// `2H(ν_{G,ε}) = Σ_{a≠a*} (Δ_a·min{Δ_a, ε/2})^{-1}`, the privacy-aware hardness (`Δ_a` the
/// gaps of `ν`).
/// # Reference
/// Eq. (10); MATH.md A.7, F.65.
/// # Domain
/// Any valid [`Instance`]; `ε > 0` finite.
/// # Accuracy
/// A sum of `K − 1` closed-form terms: a few ulps per term. Checked against the MATH.md B.12
/// table (printed digits, relative 2e-5, `tests/complexity.rs`) and as the closed form of
/// `T_{KL,β}(ν_{G,ε})` for equal gaps (F.65).
/// # Errors
/// [`Error::InvalidParameter`] unless `ε > 0` finite.
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.75, 0.7, 0.7, 0.7, 0.7]).unwrap();
/// assert!((dpbai::complexity::two_h_g_eps(&nu, 1.0).unwrap() - 2000.0).abs() < 1e-9);
/// ```
pub fn two_h_g_eps(nu: &Instance, eps: f64) -> Result<f64> {
    check_eps(eps)?;
    Ok(nu
        .privacy_aware_squared_gaps(eps)
        .iter()
        .map(|q| 1.0 / q)
        .sum())
}

/// Inverse of the LDP constant: the `ε` with `c(ε) = v` (A.4; closed form of each piece).
///
/// # Definition
/// `c(ε) = e^{2ε}(e^ε − 1)²` for `ε <= ln 2` (`c <= 4`), `4(e^ε − 1)²` above; the inverse is
/// `ln((1 + √(1 + 4√v))/2)` for `v <= 4` and `ln(1 + √v/2)` above.
/// # Reference
/// MATH.md A.4, B.10; paper Thm. 10.
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
/// [`Error::InvalidParameter`] unless `v > 0` finite.
pub fn c_local_inverse(v: f64) -> Result<f64> {
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
/// Sec. 3.1; MATH.md B.10.
/// # Domain
/// Any valid Bernoulli [`Instance`].
/// # Accuracy
/// Inherits the 1e-9 certificates of the two times (relative error about 2e-9 on the ratio);
/// checked against the MATH.md B.12 table (`B12_TOL` of `tests/complexity.rs`) and as the crossing
/// `c(ε_ℓ*) = T_TV²/T_KL` to relative 1e-12.
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// assert!((dpbai::complexity::eps_switch_local(&nu).unwrap() - 0.8649).abs() < 1e-4);
/// ```
/// # Errors
/// Propagates the solver errors.
pub fn eps_switch_local(nu: &Instance) -> Result<f64> {
    let r = t_tv2(nu)?.value / t_kl(nu)?.value;
    c_local_inverse(r)
}

/// Global regime switch `ε_g* = T_TV/T_KL` (Sec. 4.1, B.10).
///
/// # Definition
/// `ε_g* = T*_TV(ν)/T*_KL(ν)`, where the two global-time regimes cross.
/// # Reference
/// Sec. 4.1; MATH.md B.10.
/// # Domain
/// Any valid [`Instance`].
/// # Accuracy
/// Inherits the 1e-9 certificates of the two times (relative error about 2e-9); checked
/// against the MATH.md B.12 table (`B12_TOL` of `tests/complexity.rs`).
/// # Example
/// ```
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// assert!((dpbai::complexity::eps_switch_global(&nu).unwrap() - 0.2079).abs() < 1e-4);
/// ```
/// # Errors
/// Propagates the solver errors.
pub fn eps_switch_global(nu: &Instance) -> Result<f64> {
    Ok(t_tv(nu)?.value / t_kl(nu)?.value)
}

/// `log(1/(2.4 δ))`, the factor of every lower bound (A.8).
///
/// # Definition
/// `log(1/(2.4δ))`, a lower bound of `kl(1 − δ, δ)` (see [`crate::divergence::kl_delta`]).
/// # Reference
/// L. 5; Thm. 10, 17; MATH.md A.8, E.3.
/// # Domain
/// `δ ∈ (0, 1)` (negative for `δ > 1/2.4`).
/// # Accuracy
/// A few ulps (one `ln`); no golden file (closed form), checked by its doc test.
/// # Example
/// ```
/// assert!((dpbai::complexity::log_factor(0.01).unwrap() - 3.729701).abs() < 1e-6);
/// ```
/// # Errors
/// [`Error::InvalidParameter`] unless `δ ∈ (0, 1)`.
pub fn log_factor(delta: f64) -> Result<f64> {
    check_open("delta", delta, 0.0, 1.0)?;
    Ok((1.0 / (2.4 * delta)).ln())
}

/// Sample-complexity lower bound `T · log(1/(2.4δ))` (L. 5, Thm. 10, Thm. 17). Note that it is
/// negative (vacuous) for `δ > 1/2.4`.
///
/// # Definition
/// `T·log(1/(2.4δ))` for a characteristic time `T` (see [`log_factor`]).
/// # Reference
/// L. 5, Thm. 10, Thm. 17; MATH.md E.3.
/// # Domain
/// `t` any float (a characteristic time), `δ ∈ (0, 1)`.
/// # Accuracy
/// One rounding on top of [`log_factor`] and of `t`.
/// # Errors
/// [`Error::InvalidParameter`] unless `δ ∈ (0, 1)`.
pub fn sample_lower_bound(t: f64, delta: f64) -> Result<f64> {
    Ok(t * log_factor(delta)?)
}
