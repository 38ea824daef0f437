//! The declared search space and its parametrisation by `x ∈ [0, 1]^d`, and the screening
//! design (the space's hard corners, the threshold's own worst counts, then uniform points).

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
    /// Both: a search coordinate picks Bernoulli or Gaussian(σ) arms.
    Both {
        /// Standard deviation of the Gaussian arms.
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
    /// `δ` range `[lo, hi]` searched (`None`: the audited `δ` alone); each candidate is
    /// confirmed against its own `δ`.
    pub delta: Option<(f64, f64)>,
    /// `σ` range `[lo, hi]` of the Gaussian arms searched (log scale; `None`: the family's
    /// `σ` alone). Only with a Gaussian family (or both).
    pub sigma: Option<(f64, f64)>,
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
            delta: None,
            sigma: None,
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
    /// `δ` the candidate is audited at.
    pub delta: f64,
    /// `bernoulli` or `gaussian(σ)`.
    pub family: String,
    /// Configuration of the arms below the runner-up (`tied`, `spread`, `tail`, `clusters`,
    /// `geometric`).
    pub shape: &'static str,
    /// Hardness `T*(ν)·log(1/δ)` (`T*` of the instance's own KL; NaN if not computable).
    pub hardness: f64,
}

impl SearchSpace {
    /// Checks the ranges.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the first bad field.
    pub fn validate(&self) -> Result<()> {
        use crate::error::compact_number;
        if self.k_min < 2 || self.k_max < self.k_min || self.k_max > 1000 {
            return Err(Error::param(
                "K range",
                format!("{}..{}", self.k_min, self.k_max),
                "2 <= k-min <= k-max <= 1000",
            ));
        }
        let bern = !matches!(self.family, SpaceFamily::Gaussian { .. });
        if let SpaceFamily::Gaussian { sigma } | SpaceFamily::Both { sigma } = self.family {
            let (lo, hi) = crate::params::SIGMA_RANGE;
            if !(lo..=hi).contains(&sigma) {
                return Err(Error::param("sigma", sigma, format!("in [{lo:e}, {hi:e}]")));
            }
        }
        let ok_means = self.mean_lo.is_finite()
            && self.mean_hi.is_finite()
            && self.mean_lo < self.mean_hi
            && (!bern || (self.mean_lo >= 0.0 && self.mean_hi <= 1.0));
        if !ok_means {
            return Err(Error::param(
                "means range",
                format!(
                    "[{}, {}]",
                    compact_number(self.mean_lo),
                    compact_number(self.mean_hi)
                ),
                "lo < hi (within [0, 1] for Bernoulli arms)",
            ));
        }
        let span = self.mean_hi - self.mean_lo;
        if !(self.min_gap > 0.0 && self.min_gap <= self.max_gap && self.max_gap < span) {
            return Err(Error::param(
                "gap range",
                format!(
                    "[{}, {}]",
                    compact_number(self.min_gap),
                    compact_number(self.max_gap)
                ),
                format!(
                    "0 < min-gap <= max-gap < {} (the means range)",
                    compact_number(span)
                ),
            ));
        }
        if let Some((lo, hi)) = self.eps {
            let (a, b) = crate::params::ALGO_EPS_RANGE;
            if !(a <= lo && lo <= hi && hi <= b) {
                return Err(Error::param(
                    "eps range",
                    format!("[{}, {}]", compact_number(lo), compact_number(hi)),
                    format!("{a:e} <= eps-lo <= eps-hi <= {b:e}"),
                ));
            }
        }
        if let Some((lo, hi)) = self.sigma {
            let (a, b) = crate::params::SIGMA_RANGE;
            if !(a <= lo && lo <= hi && hi <= b) {
                return Err(Error::param(
                    "sigma range",
                    format!("[{}, {}]", compact_number(lo), compact_number(hi)),
                    format!("{a:e} <= sigma-min <= sigma-max <= {b:e}"),
                ));
            }
            if !has_gaussian(self.family) {
                return Err(Error::param(
                    "sigma range",
                    format!("[{}, {}]", compact_number(lo), compact_number(hi)),
                    "a Gaussian family (--family gaussian or both): Bernoulli arms have sigma 1/2",
                ));
            }
        }
        if let Some((lo, hi)) = self.delta {
            if !(DELTA_RANGE.0 <= lo && lo <= hi && hi <= DELTA_RANGE.1) {
                return Err(Error::param(
                    "delta range",
                    format!("[{}, {}]", compact_number(lo), compact_number(hi)),
                    format!(
                        "{:e} <= delta-min <= delta <= {} (the confirmation needs about ln(4m/alpha)/delta runs)",
                        DELTA_RANGE.0, DELTA_RANGE.1
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Number of search coordinates: `K`, gap, position, shape, spread, cluster fraction, then
    /// `δ`, `ε`, family and `σ` when searched.
    pub fn dims(&self) -> usize {
        6 + usize::from(self.delta.is_some())
            + usize::from(self.eps.is_some())
            + usize::from(matches!(self.family, SpaceFamily::Both { .. }))
            + usize::from(self.sigma.is_some())
    }

    /// Index of the `σ` coordinate (the last one, when searched).
    fn sigma_index(&self) -> Option<usize> {
        self.sigma.map(|_| self.dims() - 1)
    }

    /// Index of the `δ`, `ε` and family coordinates (when present).
    fn extra(&self) -> (Option<usize>, Option<usize>, Option<usize>) {
        let mut i = 6;
        let mut next = |on: bool| {
            on.then(|| {
                i += 1;
                i - 1
            })
        };
        (
            next(self.delta.is_some()),
            next(self.eps.is_some()),
            next(matches!(self.family, SpaceFamily::Both { .. })),
        )
    }

    /// The coordinate vector of a `δ` (log scale within the range; `None` without one).
    pub(crate) fn delta_coordinate(&self, delta: f64) -> Option<(usize, f64)> {
        let (lo, hi) = self.delta?;
        let i = self.extra().0?;
        let x = if hi > lo {
            (delta / lo).ln() / (hi / lo).ln()
        } else {
            0.0
        };
        Some((i, x.clamp(0.0, 1.0)))
    }

    /// The coordinate of an `ε` (log scale; `None` without a range).
    pub(crate) fn eps_coordinate(&self, eps: f64) -> Option<(usize, f64)> {
        let (lo, hi) = self.eps?;
        let i = self.extra().1?;
        let x = if hi > lo {
            (eps / lo).ln() / (hi / lo).ln()
        } else {
            0.0
        };
        Some((i, x.clamp(0.0, 1.0)))
    }

    /// Decodes `x` (clamped to `[0, 1]^d`; missing coordinates read as 0) into an instance.
    ///
    /// # Definition
    /// `K = k_min + round(x₀(k_max − k_min))`; `gap = g_lo (g_hi/g_lo)^{x₁}`;
    /// `μ₁ = lo + gap + x₂(hi − lo − gap)`; `μ₂ = μ₁ − gap`. The `K − 2` other arms follow the
    /// shape `⌊5x₃⌋` with spread `s = x₄` and cluster fraction `f = x₅` (`D = μ₂ − lo`, arm
    /// `j = 1..K−2`, `u_j = j/(K−2)`): `tied` all at `μ₂`; `spread` at `μ₂ − s D u_j`;
    /// `tail` the first `⌈f(K−2)⌉` at `μ₂`, the rest at `μ₂ − s D` (a low-mean tail);
    /// `clusters` the first `⌈f(K−2)⌉` at `μ₂ − s D/10`, the rest at `μ₂ − s D`;
    /// `geometric` at `μ₂ − s D(1 − 2^{−j})`. Then `δ = δ_lo(δ_hi/δ_lo)^{x₆}`,
    /// `ε = ε_lo(ε_hi/ε_lo)^{x}`, the family (Gaussian for `x >= 1/2`) and
    /// `σ = σ_lo(σ_hi/σ_lo)^{x}` on the next coordinates when searched.
    ///
    /// # Errors
    /// Those of [`Instance`] (not expected for a validated space).
    pub fn decode(&self, x: &[f64], delta: f64) -> Result<Candidate> {
        let c = |i: usize| {
            let v = x.get(i).copied().unwrap_or(0.0);
            if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) }
        };
        let k = self.k_min + ((c(0) * (self.k_max - self.k_min) as f64).round() as usize);
        let gap = self.min_gap * (self.max_gap / self.min_gap).powf(c(1));
        let (lo, hi) = (self.mean_lo, self.mean_hi);
        let mu1 = lo + gap + c(2) * (hi - lo - gap);
        // (lo + gap) − gap may round below lo.
        let mu2 = (mu1 - gap).max(lo);
        let shape_i = ((c(3) * 5.0).floor() as usize).min(4);
        let shape = SHAPES[shape_i];
        let (s, f) = (c(4), c(5));
        let d = mu2 - lo;
        let others = k - 2;
        let top = ((f * others as f64).ceil() as usize).min(others);
        let mut means = vec![mu1, mu2];
        for j in 1..=others {
            let u = j as f64 / others.max(1) as f64;
            let m = match shape_i {
                0 => mu2,
                1 => mu2 - s * d * u,
                2 => {
                    if j <= top {
                        mu2
                    } else {
                        mu2 - s * d
                    }
                }
                3 => {
                    if j <= top {
                        mu2 - 0.1 * s * d
                    } else {
                        mu2 - s * d
                    }
                }
                _ => mu2 - s * d * (1.0 - 0.5f64.powi(j as i32)),
            };
            // max/min, not clamp: never a panic on rounding.
            means.push(m.max(lo).min(mu2));
        }
        let (di, ei, fi) = self.extra();
        let delta = match (self.delta, di) {
            (Some((a, b)), Some(i)) => (a * (b / a).powf(c(i))).clamp(a, b),
            _ => delta,
        };
        let eps = match (self.eps, ei) {
            (Some((a, b)), Some(i)) => Some((a * (b / a).powf(c(i))).clamp(a, b)),
            _ => None,
        };
        let sigma_of = |sigma: f64| match (self.sigma, self.sigma_index()) {
            (Some((a, b)), Some(i)) => (a * (b / a).powf(c(i))).clamp(a, b),
            _ => sigma,
        };
        let gaussian = match self.family {
            SpaceFamily::Bernoulli => None,
            SpaceFamily::Gaussian { sigma } => Some(sigma_of(sigma)),
            SpaceFamily::Both { sigma } => {
                fi.and_then(|i| (c(i) >= 0.5).then_some(sigma_of(sigma)))
            }
        };
        let (instance, family) = match gaussian {
            None => (Instance::bernoulli(means.clone())?, "bernoulli".to_string()),
            Some(sigma) => (
                Instance::gaussian(means.clone(), sigma)?,
                format!("gaussian({sigma})"),
            ),
        };
        let hardness = crate::complexity::t_kl(&instance)
            .map(|t| t.value * (1.0 / delta).ln())
            .unwrap_or(f64::NAN);
        Ok(Candidate {
            instance,
            means,
            eps,
            delta,
            family,
            shape,
            hardness,
        })
    }
}

/// Whether the family has Gaussian arms (a `σ` range needs them).
fn has_gaussian(f: SpaceFamily) -> bool {
    !matches!(f, SpaceFamily::Bernoulli)
}

/// The range of `δ` a search accepts (its confirmation needs about `ln(4m/α)/δ` runs).
pub const DELTA_RANGE: (f64, f64) = (1e-6, 0.5);

/// The shapes of the arms below the runner-up ([`SearchSpace::decode`]).
pub const SHAPES: [&str; 5] = ["tied", "spread", "tail", "clusters", "geometric"];

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

/// The corners of the screening design: the space's hard corners (most and fewest arms at the
/// smallest gap, all others tied; a low-mean tail; near-ties at the top and bottom of the means
/// range; the smallest `δ`, `ε` and `σ`, both families), one coordinate per dimension.
pub(super) fn corners(space: &SearchSpace) -> Vec<Vec<f64>> {
    let d = space.dims();
    let family = space.extra().2;
    let base: [[f64; 6]; 6] = [
        // Most arms, smallest gap, all others tied.
        [1.0, 0.0, 0.5, 0.0, 0.0, 0.0],
        // Two arms, smallest gap.
        [0.0, 0.0, 0.5, 0.0, 0.0, 0.0],
        // Most arms: a few at the runner-up, a low-mean tail.
        [1.0, 0.0, 0.5, 0.5, 1.0, 0.1],
        // Most arms, smallest gap, near the top and bottom of the means range.
        [1.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        // Middle K, small gap, spread.
        [0.5, 0.15, 0.5, 0.3, 0.5, 0.0],
    ];
    let mut out = Vec::new();
    for b in base {
        let mut p = b.to_vec();
        // δ, ε at their smallest; the family coordinate both ways for the first corners.
        p.resize(d, 0.0);
        out.push(p.clone());
        if let Some(i) = family {
            let mut q = p;
            q[i] = 1.0;
            out.push(q);
        }
    }
    out
}

/// `n` uniform points of `[0, 1]^d` from the seed (deterministic).
pub(super) fn uniform(n: usize, d: usize, seed: u64) -> Vec<Vec<f64>> {
    use rand::RngExt;
    let mut rng = crate::rng::rng_for_run(seed, 0x5EED);
    (0..n)
        .map(|_| (0..d).map(|_| rng.random::<f64>()).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_respects_the_space() {
        let sp = SearchSpace::default();
        for x in uniform(30, sp.dims(), 3) {
            let c = sp.decode(&x, 0.1).expect("decodes");
            let k = c.means.len();
            assert!((sp.k_min..=sp.k_max).contains(&k));
            let gap = c.means[0] - c.means[1];
            assert!(gap >= sp.min_gap * (1.0 - 1e-12) && gap <= sp.max_gap * (1.0 + 1e-12));
            assert!(
                c.means
                    .iter()
                    .all(|m| *m >= sp.mean_lo - 1e-12 && *m <= sp.mean_hi + 1e-12)
            );
            assert_eq!(c.instance.best(), 0);
        }
        let c = sp
            .decode(&[1.0, 0.0, 0.5, 0.0, 0.0, 0.0], 0.1)
            .expect("decodes");
        assert_eq!(c.means.len(), 20);
        assert!(c.means[1..].iter().all(|m| (m - c.means[1]).abs() < 1e-15));
        // A low-mean tail.
        let c = sp
            .decode(&[1.0, 0.0, 0.5, 0.5, 1.0, 0.1], 0.1)
            .expect("decodes");
        assert_eq!(c.shape, "tail");
        assert!(c.means[2] == c.means[1] && c.means[19] == sp.mean_lo);
        let bad = SearchSpace {
            min_gap: 0.0,
            ..SearchSpace::default()
        };
        assert!(bad.validate().is_err());
    }

    /// A `σ` range adds the last coordinate (log scale); the corners take its smallest end and
    /// toggle the family coordinate, not the `σ` one; a range needs Gaussian arms.
    #[test]
    fn a_sigma_range_is_searched_on_a_log_scale() {
        let sp = SearchSpace {
            family: SpaceFamily::Both { sigma: 1.0 },
            sigma: Some((0.01, 1.0)),
            ..SearchSpace::default()
        };
        assert_eq!(sp.dims(), 8);
        let mut x = vec![0.0; 8];
        x[6] = 1.0; // Gaussian
        for (xs, want) in [(0.0, 0.01), (0.5, 0.1), (1.0, 1.0)] {
            x[7] = xs;
            let c = sp.decode(&x, 0.1).expect("decodes");
            let got: f64 = c.family[9..c.family.len() - 1].parse().expect("sigma");
            assert!(
                (got - want).abs() < 1e-12 * want.max(1.0),
                "{xs}: {}",
                c.family
            );
        }
        let cs = corners(&sp);
        assert!(cs.iter().all(|c| c[7] == 0.0) && cs.iter().any(|c| c[6] == 1.0));
        let bern = SearchSpace {
            sigma: Some((0.1, 1.0)),
            ..SearchSpace::default()
        };
        assert!(bern.validate().is_err());
        let reversed = SearchSpace {
            sigma: Some((1.0, 0.1)),
            ..sp
        };
        assert!(reversed.validate().is_err());
    }

    #[test]
    fn halton_is_the_radical_inverse() {
        assert_eq!(halton(1, 2), 0.5);
        assert_eq!(halton(3, 2), 0.75);
        assert!((halton(5, 3) - (2.0 / 3.0 + 1.0 / 9.0)).abs() < 1e-15);
    }
}
