//! A validated bandit instance and its transforms (READINGS.md §0.1, §A.5–§A.7).
//!
//! An [`Instance`] always has `K >= 2` finite means and a **unique** best arm; Bernoulli means lie
//! in `[0, 1]` (the paper's experiment instance μ3 has boundary means 0 and 1, READINGS.md §0.1).
//! Upper-bound formulas that need `μ ∈ (0,1)^K` or distinct means ask
//! [`Instance::is_interior`] / [`Instance::has_distinct_means`].

use crate::divergence::rr_mean_unchecked;
use crate::error::{Error, Result, check_above};
use serde::Serialize;

/// Reward distribution family of the arms.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "family", rename_all = "lowercase")]
pub enum Family {
    /// `Ber(μ_a)`, `μ_a ∈ [0, 1]`; sub-Gaussian with `σ = 1/2`.
    Bernoulli,
    /// `N(μ_a, σ²)` with known common standard deviation `σ`.
    Gaussian {
        /// Standard deviation `σ > 0`.
        sigma: f64,
    },
}

/// The name of a reward family, as studies, cell specifications, the command line and Python
/// spell it (`bernoulli`, `gaussian`): `FromStr` and `Display` by its serde spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FamilyName {
    /// Bernoulli arms (σ = 1/2).
    #[default]
    Bernoulli,
    /// Gaussian arms with known `sigma`.
    Gaussian,
}

crate::spelled!(FamilyName => "family");

impl Family {
    /// The family a user names, with the `sigma` they give: the one rule of every input (the
    /// command line, studies, batteries, Python). Gaussian arms take `sigma` (default 1);
    /// Bernoulli arms take none (their σ is 1/2), so a `sigma` given with them is refused
    /// rather than ignored. `sigma` itself is checked by [`Instance::new`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a `sigma` given with Bernoulli arms.
    ///
    /// # Example
    /// ```
    /// use dpbai::instance::{Family, FamilyName};
    /// assert_eq!(Family::of(FamilyName::Gaussian, None).unwrap(), Family::Gaussian { sigma: 1.0 });
    /// assert!(Family::of(FamilyName::Bernoulli, Some(2.0)).is_err());
    /// ```
    pub fn of(name: FamilyName, sigma: Option<f64>) -> Result<Family> {
        match (name, sigma) {
            (FamilyName::Bernoulli, None) => Ok(Family::Bernoulli),
            (FamilyName::Bernoulli, Some(s)) => Err(Error::param(
                "sigma",
                s,
                "given only with family gaussian (Bernoulli arms have σ = 1/2)",
            )),
            (FamilyName::Gaussian, s) => Ok(Family::Gaussian {
                sigma: s.unwrap_or(1.0),
            }),
        }
    }

    /// The family's name.
    pub fn name(&self) -> FamilyName {
        match self {
            Family::Bernoulli => FamilyName::Bernoulli,
            Family::Gaussian { .. } => FamilyName::Gaussian,
        }
    }

    /// The sub-Gaussian scale `σ` (1/2 for Bernoulli, READINGS.md §0.1).
    pub fn sigma(&self) -> f64 {
        match *self {
            Family::Bernoulli => 0.5,
            Family::Gaussian { sigma } => sigma,
        }
    }
}

/// A bandit instance `ν = (ν_1, …, ν_K)` with a unique best arm.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Instance {
    family: Family,
    means: Vec<f64>,
    best: usize,
}

fn fmt_means(means: &[f64]) -> String {
    let v: Vec<String> = means.iter().map(|m| m.to_string()).collect();
    format!("[{}]", v.join(", "))
}

impl Instance {
    /// Builds an instance of the given family.
    ///
    /// # Errors
    /// [`Error::InvalidInstance`] if `K < 2`, a mean is NaN/infinite (or outside `[0, 1]` for
    /// Bernoulli), or the best arm is not unique; [`Error::InvalidParameter`] if `σ <= 0`.
    pub fn new(family: Family, means: Vec<f64>) -> Result<Self> {
        let bad = |reason: String| Error::InvalidInstance {
            means: fmt_means(&means),
            reason,
        };
        if means.len() < 2 {
            return Err(bad(format!("K = {} arms, need K >= 2", means.len())));
        }
        if let Family::Gaussian { sigma } = family {
            check_above("sigma", sigma, 0.0)?;
        }
        for (a, &m) in means.iter().enumerate() {
            let ok = match family {
                Family::Bernoulli => (0.0..=1.0).contains(&m),
                Family::Gaussian { .. } => m.is_finite(),
            };
            if !ok {
                let range = match family {
                    Family::Bernoulli => "in [0, 1] (Bernoulli)",
                    Family::Gaussian { .. } => "finite",
                };
                return Err(bad(format!(
                    "mean of arm {} is {m}, must be {range}",
                    a + 1
                )));
            }
        }
        let max = means.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let ties: Vec<usize> = (0..means.len()).filter(|&a| means[a] == max).collect();
        if ties.len() > 1 {
            let arms: Vec<String> = ties.iter().map(|a| (a + 1).to_string()).collect();
            return Err(bad(format!(
                "best arm is not unique (arms {} share the largest mean {max})",
                arms.join(", ")
            )));
        }
        Ok(Instance {
            family,
            means,
            best: ties[0],
        })
    }

    /// Bernoulli instance, means in `[0, 1]`.
    ///
    /// # Example
    /// ```
    /// let nu = dpbai::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
    /// assert_eq!(nu.best(), 0);
    /// assert!((nu.delta_min() - 0.05).abs() < 1e-15);
    /// assert!(dpbai::instance::Instance::bernoulli(vec![0.5, 0.5]).is_err());
    /// ```
    pub fn bernoulli(means: Vec<f64>) -> Result<Self> {
        Self::new(Family::Bernoulli, means)
    }

    /// Gaussian instance with common standard deviation `σ`.
    pub fn gaussian(means: Vec<f64>, sigma: f64) -> Result<Self> {
        Self::new(Family::Gaussian { sigma }, means)
    }

    /// The family.
    pub fn family(&self) -> Family {
        self.family
    }
    /// Sub-Gaussian scale `σ` (1/2 for Bernoulli).
    pub fn sigma(&self) -> f64 {
        self.family.sigma()
    }
    /// Means `μ`.
    pub fn means(&self) -> &[f64] {
        &self.means
    }
    /// Number of arms `K`.
    pub fn k(&self) -> usize {
        self.means.len()
    }
    /// Index (0-based) of the unique best arm `a*`.
    pub fn best(&self) -> usize {
        self.best
    }
    /// Mean of the best arm.
    pub fn best_mean(&self) -> f64 {
        self.means[self.best]
    }
    /// Gap `Δ_a = μ_{a*} − μ_a` of every arm, with the convention `Δ_{a*} = Δ_min`
    /// (READINGS.md §0.1, paper Sec. 2.2.3), so that `Σ_{a∈[K]}` sums have K terms.
    pub fn gaps(&self) -> Vec<f64> {
        let dmin = self.delta_min();
        (0..self.k())
            .map(|a| {
                if a == self.best {
                    dmin
                } else {
                    self.best_mean() - self.means[a]
                }
            })
            .collect()
    }
    /// Gaps of the sub-optimal arms only, in arm order (the best arm skipped).
    pub fn suboptimal_gaps(&self) -> Vec<f64> {
        (0..self.k())
            .filter(|&a| a != self.best)
            .map(|a| self.best_mean() - self.means[a])
            .collect()
    }
    /// `Δ_min = min_{a≠a*} Δ_a > 0`.
    pub fn delta_min(&self) -> f64 {
        self.suboptimal_gaps()
            .into_iter()
            .fold(f64::INFINITY, f64::min)
    }
    /// `Δ_max = max_{a≠a*} Δ_a`.
    pub fn delta_max(&self) -> f64 {
        self.suboptimal_gaps().into_iter().fold(0.0, f64::max)
    }
    /// True when every mean lies in the open interval `(0, 1)` (Bernoulli) or always (Gaussian).
    pub fn is_interior(&self) -> bool {
        match self.family {
            Family::Bernoulli => self.means.iter().all(|&m| m > 0.0 && m < 1.0),
            Family::Gaussian { .. } => true,
        }
    }
    /// True when all means are pairwise distinct (assumed by the upper bounds, READINGS.md R.31).
    pub fn has_distinct_means(&self) -> bool {
        let mut m = self.means.clone();
        m.sort_by(f64::total_cmp);
        m.windows(2).all(|w| w[0] != w[1])
    }

    /// Hardness `H(ν) = 2σ² Σ_{a∈[K]} Δ_a^{-2}` with `σ` given explicitly (READINGS.md §A.7).
    ///
    /// The paper's `H` uses `σ = 1/2`: `H = (1/2) Σ_a Δ_a^{-2}`.
    pub fn hardness_h(&self, sigma: f64) -> f64 {
        2.0 * sigma * sigma * self.gaps().iter().map(|d| 1.0 / (d * d)).sum::<f64>()
    }

    /// The CTB-modified Bernoulli instance `ν_ε` with means `m_ε(μ_a)` (READINGS.md §A.5, L. 12).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if `ε <= 0`; the family must be Bernoulli (the randomiser acts
    /// on rewards in `[0, 1]`), otherwise [`Error::InvalidInstance`].
    pub fn randomised_response(&self, eps: f64) -> Result<Instance> {
        check_above("eps", eps, 0.0)?;
        if self.family != Family::Bernoulli {
            return Err(Error::InvalidInstance {
                means: fmt_means(&self.means),
                reason: "randomised response needs Bernoulli (reward in [0, 1]) arms".into(),
            });
        }
        let means = self
            .means
            .iter()
            .map(|&m| rr_mean_unchecked(m, eps))
            .collect();
        Instance::bernoulli(means)
    }

    /// Squared gaps of the privacy-aware Gaussian instance: `Δ_a·min{Δ_a, ε/2}` for every arm
    /// (best arm: `Δ_min·min{Δ_min, ε/2}`), READINGS.md §A.6.
    pub fn privacy_aware_squared_gaps(&self, eps: f64) -> Vec<f64> {
        self.gaps().iter().map(|&d| d * d.min(0.5 * eps)).collect()
    }

    /// The privacy-aware Gaussian instance `ν_{G,ε}` of Cor. 18: the instance's standard
    /// deviation (1/2 for Bernoulli arms, READINGS.md R.4; `σ` for Gaussian arms, as Eq. (15)
    /// and App. G, Eq. (23)) and means `μ_a` if `a = a*` or `Δ_a <= ε/2`, else
    /// `μ_{a*} − sqrt(εΔ_a/2)`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if `ε <= 0` or NaN.
    pub fn privacy_aware_gaussian(&self, eps: f64) -> Result<Instance> {
        check_above("eps", eps, 0.0)?;
        let top = self.best_mean();
        let means = (0..self.k())
            .map(|a| {
                let d = top - self.means[a];
                if a == self.best || d <= 0.5 * eps {
                    self.means[a]
                } else {
                    top - (0.5 * eps * d).sqrt()
                }
            })
            .collect();
        Instance::gaussian(means, self.sigma())
    }

    /// `Δ_{ε,a} = ε(sqrt(1 + 2Δ_a/ε) − 1)` for every arm (best arm: value at `Δ_min`), READINGS.md §A.7.
    ///
    /// Evaluated as `2Δ_a / (sqrt(1 + 2Δ_a/ε) + 1)`, which has no cancellation for large ε.
    pub fn delta_eps(&self, eps: f64) -> Vec<f64> {
        self.gaps()
            .iter()
            .map(|&d| 2.0 * d / ((1.0 + 2.0 * d / eps).sqrt() + 1.0))
            .collect()
    }

    /// `H(ν, ε)` as Sec. 4.3 defines it: `Σ_{a∈[K]} Δ_{ε,a}^{-2}` (READINGS.md §A.7, R.24).
    pub fn hardness_h_eps_sec43(&self, eps: f64) -> f64 {
        self.delta_eps(eps).iter().map(|d| 1.0 / (d * d)).sum()
    }

    /// `H(ν, ε)` as App. B defines it: `2σ² Σ_{a∈[K]} Δ_{ε,a}^{-2}` (READINGS.md §A.7, R.24).
    pub fn hardness_h_eps_app_b(&self, eps: f64) -> f64 {
        let s = self.sigma();
        2.0 * s * s * self.hardness_h_eps_sec43(eps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_names_read_back_and_name_the_family() {
        assert_eq!("gaussian".parse(), Ok(FamilyName::Gaussian));
        assert_eq!(FamilyName::Bernoulli.to_string(), "bernoulli");
        assert_eq!(Family::Gaussian { sigma: 2.0 }.name(), FamilyName::Gaussian);
        assert_eq!(Family::Bernoulli.name(), FamilyName::Bernoulli);
        let e = "Gaussian".parse::<FamilyName>().unwrap_err().to_string();
        assert_eq!(
            e,
            "invalid family = Gaussian: must be one of bernoulli, gaussian"
        );
    }

    fn mu1() -> Instance {
        Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap()
    }

    #[test]
    fn rejects_bad_instances() {
        assert!(Instance::bernoulli(vec![0.5]).is_err());
        assert!(Instance::bernoulli(vec![0.5, 1.2]).is_err());
        assert!(Instance::bernoulli(vec![0.5, f64::NAN]).is_err());
        assert!(Instance::bernoulli(vec![0.9, 0.9, 0.1]).is_err());
        assert!(Instance::gaussian(vec![0.0, 1.0], 0.0).is_err());
        assert!(Instance::gaussian(vec![0.0, f64::INFINITY], 1.0).is_err());
        let msg = Instance::bernoulli(vec![0.9, 0.9, 0.1])
            .unwrap_err()
            .to_string();
        assert!(msg.contains("not unique"), "{msg}");
        // boundary means are allowed (μ3)
        assert!(Instance::bernoulli(vec![0.0, 0.25, 0.5, 0.75, 1.0]).is_ok());
    }

    #[test]
    fn gaps_and_hardness_mu1() {
        let nu = mu1();
        let g = nu.gaps();
        assert!((g[0] - 0.05).abs() < 1e-15 && (g[4] - 0.45).abs() < 1e-15);
        // READINGS.md §B.12: H^G(μ1; 1/2) = 802.469
        assert!((nu.hardness_h(0.5) - 802.469).abs() < 1e-3);
        assert!(!nu.has_distinct_means());
        assert!(nu.is_interior());
    }

    #[test]
    fn rr_scales_gaps_by_tanh() {
        let nu = mu1();
        let e = 0.7;
        let r = nu.randomised_response(e).unwrap();
        let (g, gr) = (nu.suboptimal_gaps(), r.suboptimal_gaps());
        for (a, b) in g.iter().zip(&gr) {
            assert!((b - a * (0.5f64 * e).tanh()).abs() < 1e-15);
        }
        // H(ν_ε) = coth²(ε/2) H(ν)   (F.12)
        let coth2 = 1.0 / (0.5f64 * e).tanh().powi(2);
        assert!((r.hardness_h(0.5) / nu.hardness_h(0.5) / coth2 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn privacy_aware_gaussian_squared_gaps() {
        let nu = mu1();
        for &e in &[0.01, 0.1, 0.5, 2.0] {
            let g = nu.privacy_aware_gaussian(e).unwrap();
            let sq: Vec<f64> = g.gaps().iter().map(|d| d * d).collect();
            for (a, b) in sq.iter().zip(nu.privacy_aware_squared_gaps(e)) {
                assert!((a - b).abs() <= 1e-14 * b.max(1e-300), "{a} {b}");
            }
        }
    }

    #[test]
    fn delta_eps_limits() {
        let nu = mu1();
        // ε → ∞: Δ_{ε,a} → Δ_a; ε → 0: Δ_{ε,a}²/ε → 2Δ_a (R.23)
        let big = nu.delta_eps(1e12);
        let small = nu.delta_eps(1e-12);
        for ((d, b), s) in nu.gaps().iter().zip(&big).zip(&small) {
            assert!((b / d - 1.0).abs() < 1e-9);
            assert!((s * s / 1e-12 / (2.0 * d) - 1.0).abs() < 1e-5);
        }
    }
}
