//! Characteristic times with certified bounds, optimal allocations, hardness constants,
//! regime-switch epsilons, sample-complexity lower bounds and the asymptotic upper-bound
//! formulas of the paper (READINGS.md §B and §E.3–§E.4).
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
//!   Gaussian KL time. The privacy-aware times `T_KL(ν_{G,ε})`, `T_{KL,β}(ν_{G,ε})` (Eq. (10),
//!   (15)) take the instance's `σ`: `ψ_b = Δ_b·min{Δ_b, ε/2}/(2σ²(1/u + 1/w))`, the transport
//!   cost of Eq. (15) whose `2σ²` App. G (Eq. (23), L. 52) keeps for `σ`-sub-Gaussian arms; it is
//!   `4σ²` times the `σ = 1/2` value (the paper's, and the Bernoulli one). Cor. 18's
//!   `T_g <= T_KL(ν_{G,ε})` is proven for Bernoulli arms only (its proof uses `TV = Δ`; the
//!   Gaussian TV `erf(Δ/(2√2σ))` saturates, so it can fail for Gaussian arms).

mod challengers;
pub mod curves;
mod dual;
mod gauss_local;
mod global_eps;
mod solver;
mod switches;
mod times;
pub mod upper;

use crate::divergence::c_local_unchecked;
use crate::error::{Error, Result, check_above, check_open};
use crate::instance::{Family, Instance};
use challengers::{BranchCh, GlobalCh, QuadCh, TvCh};
use gauss_local::GaussLocalCh;
pub(crate) use global_eps::transport_argmin_eps;
pub use global_eps::{
    LowPrivacySwitch, eps_switch_low_privacy, log_factor_bai25, sample_lower_bound_bai25, t_eps,
    t_eps_beta, transport_cost_eps, transport_cost_eps_unchecked, transport_cost_eps_with,
};
use serde::Serialize;
use solver::{Challenger, Piece};
pub use switches::{
    c_local_inverse, eps_switch_global, eps_switch_local, log_factor, sample_lower_bound,
};
pub use times::{
    t_global, t_kl, t_kl_beta, t_kl_beta_g_eps, t_kl_g_eps, t_kl_gaussian, t_kl_gaussian_beta,
    t_local, t_tv, t_tv2, two_h_g_eps,
};

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

/// Which characteristic time (READINGS.md §0.2 names).
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
    /// `T_KL(ν_{G,ε})` (Eq. (10), B.7), with the instance's `σ` (`σ = 1/2` for Bernoulli).
    KlGEps {
        /// Privacy budget `ε > 0`.
        eps: f64,
    },
    /// `T_{KL,β}(ν_{G,ε})` (Eq. (15), B.7), with the instance's `σ` (`σ = 1/2` for Bernoulli).
    KlBetaGEps {
        /// Privacy budget `ε > 0`.
        eps: f64,
        /// Leader weight `β ∈ (0, 1)`.
        beta: f64,
    },
    /// The tight global-DP time `T*_ε(μ)` of \[BAI25\] (poster): the transport cost of the
    /// signed divergences `d⁻_ε`, `d⁺_ε` (Bernoulli arms only).
    Eps {
        /// Privacy budget `ε > 0`.
        eps: f64,
    },
    /// `T*_{ε,β}(μ)`: `T*_ε` with the leader weight fixed to `β` (Bernoulli arms only).
    EpsBeta {
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
/// (READINGS.md §B.1); β-versions add the constraint `ω_{a*} = β`.
/// # Reference
/// Eq. (1), (5), (10), (15); L. 5; Thm. 10, 17; Cor. 11, 18; READINGS.md §B.3–§B.9;
/// \[BAI25\] poster for [`TimeKind::Eps`] and [`TimeKind::EpsBeta`] (module `global_eps`).
/// # Domain
/// Any valid [`Instance`] (unique best arm; Bernoulli means in `[0, 1]`, boundary means
/// allowed); `ε > 0` finite; `β ∈ (0, 1)`; `σ > 0`. `T*_ε` and `T*_{ε,β}` need Bernoulli arms.
/// # Accuracy
/// Relative error <= 1e-8 against `tests/data/bounds_golden.toml` (mpmath, 40 digits,
/// `verify/golden_bounds.py`), for `T*_ε` against `tests/data/t_eps_golden.toml`
/// (`verify/golden_t_eps.py`) and, for the Gaussian local time,
/// `tests/data/local_gaussian_golden.toml` (`verify/golden_local_gaussian.py`); the returned
/// interval is proven and has relative width <= 1e-9.
/// # Errors
/// [`Error::InvalidParameter`] for a bad `ε`, `β` or `σ`; [`Error::InvalidInstance`] for
/// `T*_ε` on Gaussian arms; [`Error::NoConvergence`] if the certificate is wider than 1e-9
/// (never observed on the test instances).
/// # Example
/// ```
/// use dpbai::complexity::{characteristic_time, TimeKind};
/// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
/// let t = characteristic_time(TimeKind::Kl, &nu).unwrap();
/// assert!((t.value - 395.5415).abs() < 1e-3); // READINGS.md §B.12
/// assert!(t.lower <= t.value && t.value <= t.upper);
/// ```
pub fn characteristic_time(kind: TimeKind, nu: &Instance) -> Result<Certified> {
    crate::fault::check(crate::fault::Area::Solver)?;
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
    // Eq. (10), (15) with the instance's σ: ψ_b = Δ_b·min{Δ_b, ε/2}/(2σ²(1/u + 1/w)) (the 2σ²
    // of Eq. (15) and App. G, Eq. (23)); `1/(2σ²) = 2` exactly for σ = 1/2.
    let inv2s2 = 1.0 / (2.0 * sigma * sigma);
    let g_eps = |eps: f64| -> Vec<QuadCh> {
        gaps.iter()
            .map(|&d| QuadCh {
                q: d * d.min(0.5 * eps) * inv2s2,
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
        TimeKind::Eps { eps } => certify_free(nu, &eps_challengers(nu, eps)?),
        TimeKind::EpsBeta { eps, beta } => {
            check_beta(beta)?;
            certify_beta(nu, &eps_challengers(nu, eps)?, beta)
        }
    }
}

/// The challengers of `T*_ε` (\[BAI25\] poster): `C*_ε(a*, a, μ, ·)` per sub-optimal arm.
fn eps_challengers(nu: &Instance, eps: f64) -> Result<Vec<BranchCh>> {
    let e = crate::divergence::DEps::new(eps)?;
    if nu.family() != Family::Bernoulli {
        return Err(Error::InvalidInstance {
            means: format!("{:?}", nu.means()),
            reason: "T*_eps ([BAI25]) is defined for Bernoulli arms (its divergence d_eps is \
                     between Bernoulli laws)"
                .into(),
        });
    }
    let top = nu.best_mean();
    Ok((0..nu.k())
        .filter(|&a| a != nu.best())
        .map(|a| BranchCh::eps(top, nu.means()[a], e))
        .collect())
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
    let lower = dual::lower_free(&pieces);
    let alloc = place(nu, 1.0 / total, sol.x.iter().map(|x| x / total));
    finish(value, lower, upper, alloc)
}

fn certify_beta<C: Challenger>(nu: &Instance, chs: &[C], beta: f64) -> Result<Certified> {
    let mut sol = solver::solve_beta(chs, beta)?;
    // A cost that reaches its saturation level at a finite weight (T*_ε with a mean at 0 or
    // 1) can leave Σ x_b below (1 − β)/β at the optimal level, the saturation level: the rest
    // of the weight is spread proportionally (every ψ_b is non-decreasing in its weight).
    let sat = chs
        .iter()
        .map(|c| c.saturation().level)
        .fold(f64::INFINITY, f64::min);
    let (target, sum) = ((1.0 - beta) / beta, sol.x.iter().sum::<f64>());
    if sat.is_finite() && sol.y >= sat * (1.0 - 1e-12) && sum < target {
        let k = target / sum;
        sol.x.iter_mut().for_each(|x| *x *= k);
    }
    // Near a sharp bend of ψ (T*_ε at tiny ε: d_ε ≈ ε·TV) the weights are so sensitive to the
    // level that the root leaves Σ x_b above the target by more than rounding: scale them
    // down onto the simplex, as `upper_beta` certifies them (never triggered by the smooth
    // costs, whose sums are exact to 1e-12).
    if sum > target * (1.0 + 1e-12) {
        let k = target / sum * (1.0 - 4.0 * f64::EPSILON);
        sol.x.iter_mut().for_each(|x| *x *= k);
    }
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
    let lower = dual::lower_beta(&pieces, beta);
    let alloc = place(nu, beta, sol.x.iter().map(|x| beta * x));
    finish(value, lower, upper, alloc)
}
