//! The declared search space and its parametrisation by `x ∈ [0, 1]^d`, and the screening
//! design (the space's hard corners, then a Halton sequence).

use crate::error::{Error, Result};
use crate::instance::Instance;
use serde::Serialize;

/// Reward family of the searched instances.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum SpaceFamily {
    /// Bernoulli arms.
    Bernoulli,
    /// Gaussian arms with this standard deviation.
    Gaussian {
        /// Standard deviation `σ > 0`.
        sigma: f64,
    },
}

/// The declared search space.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchSpace {
    /// Reward family.
    pub family: SpaceFamily,
    /// Smallest number of arms (`>= 2`).
    pub k_min: usize,
    /// Largest number of arms (`>= k_min`).
    pub k_max: usize,
    /// Smallest mean.
    pub mean_lo: f64,
    /// Largest mean.
    pub mean_hi: f64,
    /// Smallest gap `μ₁ − μ₂` (`> 0`).
    pub min_gap: f64,
    /// Largest gap (`>= min_gap`, `< mean_hi − mean_lo`).
    pub max_gap: f64,
    /// `ε` range `[lo, hi]` for private algorithms (`None`: not searched).
    pub eps: Option<(f64, f64)>,
}

impl Default for SearchSpace {
    /// The paper's settings: Bernoulli arms, `K ∈ [2, 20]`, means in `[0.05, 0.95]`, gaps in
    /// `[0.02, 0.4]`, no `ε`.
    fn default() -> Self {
        SearchSpace {
            family: SpaceFamily::Bernoulli,
            k_min: 2,
            k_max: 20,
            mean_lo: 0.05,
            mean_hi: 0.95,
            min_gap: 0.02,
            max_gap: 0.4,
            eps: None,
        }
    }
}

/// One point of the space, decoded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    /// The instance.
    #[serde(skip)]
    pub instance: Instance,
    /// Its means.
    pub means: Vec<f64>,
    /// `ε`, for private algorithms.
    pub eps: Option<f64>,
    /// Hardness `T*(ν)·log(1/δ)` (`T*` of the instance's own KL; NaN if not computable).
    pub hardness: f64,
}

impl SearchSpace {
    /// Checks the ranges.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the first bad field.
    pub fn validate(&self) -> Result<()> {
        if self.k_min < 2 || self.k_max < self.k_min || self.k_max > 1000 {
            return Err(Error::param(
                "K range",
                format!("{}..{}", self.k_min, self.k_max),
                "2 <= k-min <= k-max <= 1000",
            ));
        }
        let bern = matches!(self.family, SpaceFamily::Bernoulli);
        if let SpaceFamily::Gaussian { sigma } = self.family {
            if !(sigma > 0.0 && sigma.is_finite()) {
                return Err(Error::param("sigma", sigma, "a finite number > 0"));
            }
        }
        let ok_means = self.mean_lo.is_finite()
            && self.mean_hi.is_finite()
            && self.mean_lo < self.mean_hi
            && (!bern || (self.mean_lo >= 0.0 && self.mean_hi <= 1.0));
        if !ok_means {
            return Err(Error::param(
                "means range",
                format!("[{}, {}]", self.mean_lo, self.mean_hi),
                "lo < hi (within [0, 1] for Bernoulli arms)",
            ));
        }
        let span = self.mean_hi - self.mean_lo;
        if !(self.min_gap > 0.0 && self.min_gap <= self.max_gap && self.max_gap < span) {
            return Err(Error::param(
                "gap range",
                format!("[{}, {}]", self.min_gap, self.max_gap),
                format!("0 < min-gap <= max-gap < {span} (the means range)"),
            ));
        }
        if let Some((lo, hi)) = self.eps {
            if !(lo > 0.0 && lo <= hi && hi.is_finite()) {
                return Err(Error::param(
                    "eps range",
                    format!("[{lo}, {hi}]"),
                    "0 < lo <= hi < inf",
                ));
            }
        }
        Ok(())
    }

    /// Number of search coordinates (`4`, or `5` with an `ε` range).
    pub fn dims(&self) -> usize {
        4 + usize::from(self.eps.is_some())
    }

    /// Decodes `x` (clamped to `[0, 1]^d`; missing coordinates read as 0) into an instance.
    ///
    /// # Definition
    /// `K = k_min + round(x₀(k_max − k_min))`; `gap = g_lo (g_hi/g_lo)^{x₁}`;
    /// `μ₁ = lo + gap + x₂(hi − lo − gap)`; `μ₂ = μ₁ − gap`; arm `j >= 2` (0-based) at
    /// `μ₂ − x₃ (μ₂ − lo)(j − 1)/(K − 2)`; `ε = ε_lo (ε_hi/ε_lo)^{x₄}`.
    ///
    /// # Errors
    /// Those of [`Instance`] (not expected for a validated space).
    pub fn decode(&self, x: &[f64], delta: f64) -> Result<Candidate> {
        let c = |i: usize| {
            let v = x.get(i).copied().unwrap_or(0.0);
            if v.is_nan() {
                0.0
            } else {
                v.clamp(0.0, 1.0)
            }
        };
        let k = self.k_min + ((c(0) * (self.k_max - self.k_min) as f64).round() as usize);
        let gap = self.min_gap * (self.max_gap / self.min_gap).powf(c(1));
        let (lo, hi) = (self.mean_lo, self.mean_hi);
        let mu1 = lo + gap + c(2) * (hi - lo - gap);
        let mu2 = mu1 - gap;
        let mut means = vec![mu1, mu2];
        for j in 2..k {
            let frac = (j - 1) as f64 / (k - 2).max(1) as f64;
            means.push(mu2 - c(3) * (mu2 - lo) * frac);
        }
        let instance = match self.family {
            SpaceFamily::Bernoulli => Instance::bernoulli(means.clone())?,
            SpaceFamily::Gaussian { sigma } => Instance::gaussian(means.clone(), sigma)?,
        };
        let eps = self.eps.map(|(a, b)| a * (b / a).powf(c(4)));
        let hardness = crate::complexity::t_kl(&instance)
            .map(|t| t.value * (1.0 / delta).ln())
            .unwrap_or(f64::NAN);
        Ok(Candidate {
            instance,
            means,
            eps,
            hardness,
        })
    }
}

/// Radical inverse of `i` in base `b` (Halton coordinate).
pub(crate) fn halton(mut i: u64, b: u64) -> f64 {
    let (mut f, mut r) = (1.0, 0.0);
    while i > 0 {
        f /= b as f64;
        r += f * (i % b) as f64;
        i /= b;
    }
    r
}

/// The screening design: the space's hard corners, then a Halton sequence.
pub(super) fn design(n: usize, d: usize) -> Vec<Vec<f64>> {
    let mut pts = vec![
        // Most arms, smallest gap, all others tied, smallest eps.
        vec![1.0, 0.0, 0.5, 0.0, 0.0],
        // Two arms, smallest gap.
        vec![0.0, 0.0, 0.5, 0.0, 0.0],
        // Most arms, smallest gap, near the top and bottom of the means range.
        vec![1.0, 0.0, 1.0, 0.0, 0.0],
        vec![1.0, 0.0, 0.0, 0.0, 0.0],
        // Middle K, small gap, spread.
        vec![0.5, 0.15, 0.5, 0.5, 0.0],
    ];
    const BASES: [u64; 5] = [2, 3, 5, 7, 11];
    let mut i = 1u64;
    while pts.len() < n {
        pts.push(BASES.iter().map(|&b| halton(i, b)).collect());
        i += 1;
    }
    pts.truncate(n.max(1));
    for p in &mut pts {
        p.truncate(d);
    }
    pts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_respects_the_space() {
        let sp = SearchSpace::default();
        for x in design(30, 4) {
            let c = sp.decode(&x, 0.1).expect("decodes");
            let k = c.means.len();
            assert!((sp.k_min..=sp.k_max).contains(&k));
            let gap = c.means[0] - c.means[1];
            assert!(gap >= sp.min_gap * (1.0 - 1e-12) && gap <= sp.max_gap * (1.0 + 1e-12));
            assert!(c
                .means
                .iter()
                .all(|m| *m >= sp.mean_lo - 1e-12 && *m <= sp.mean_hi + 1e-12));
            assert_eq!(c.instance.best(), 0);
        }
        let c = sp.decode(&[1.0, 0.0, 0.5, 0.0], 0.1).expect("decodes");
        assert_eq!(c.means.len(), 20);
        assert!(c.means[1..].iter().all(|m| (m - c.means[1]).abs() < 1e-15));
        let bad = SearchSpace {
            min_gap: 0.0,
            ..SearchSpace::default()
        };
        assert!(bad.validate().is_err());
    }

    #[test]
    fn halton_is_the_radical_inverse() {
        assert_eq!(halton(1, 2), 0.5);
        assert_eq!(halton(3, 2), 0.75);
        assert!((halton(5, 3) - (2.0 / 3.0 + 1.0 / 9.0)).abs() < 1e-15);
    }
}
