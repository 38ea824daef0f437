//! Comparing our mean stopping time with one known only by its moments (the public code's
//! `mean ± std` over `n` runs, `data/public_code_runs.csv`).
//!
//! Two statistics per cell:
//! * a 95% confidence interval of the **ratio of means** `μ_ours / μ_theirs`, by the delta method
//!   on the log ratio with Welch–Satterthwaite degrees of freedom ([`ratio_ci`]);
//! * the two-sided **Welch t-test** of equal means ([`welch_test`]).
//!
//! # Why the log-ratio delta method
//! Stopping times are positive and right-skewed, and the question is multiplicative ("ours is
//! 1.1× theirs"). On the log scale the interval stays positive and is asymmetric the right way,
//! and it is invariant under rescaling either side, which makes the under-count correction below
//! exact. Fieller's theorem, the other standard choice, agrees to first order in the
//! coefficients of variation of the two means (`s/(x̄√n)`, at most 0.14 for the public
//! code's rows) and is unbounded when the denominator's mean is not significantly non-zero, which
//! never applies here. Welch–Satterthwaite degrees of freedom, not `n₁ + n₂ − 2`, because the
//! variances differ (our runs number 10² to 10³, the public code's 9 to 50).
//!
//! # A side known only within a factor
//! The public code's AdaP-TT reports a counter, not its pulls: its true mean is `f·ȳ` for an
//! unknown `f ∈ [f_lo, f_hi]` ([`FactorRange`]; the range `[1, 2]` of [`ADAPTT_COUNTER`] follows
//! from the doubling rule, READINGS.md §P.6). Assuming the under-count scales the whole
//! distribution by `f` (so the true std is `f·s_y`), the log-ratio interval at a given `f` is the
//! interval at `f = 1` divided by `f` (its standard error and degrees of freedom do not depend on
//! `f`), and the union over `f` is
//! ```text
//! [ lo / f_hi,  hi / f_lo ]
//! ```
//! which covers the true ratio with probability ≥ 95% whatever `f` in the range is the true one.
//! The Welch p-value is the supremum over `f` of the p-value of `μ_ours = f·μ_theirs` (a
//! composite null: the means are called different only if they differ for every `f` in the
//! range). If the per-run factor varies, the true std is not exactly `f·s_y`; the reports say so.

use crate::error::{Error, Result, check_finite};
use crate::stats;
use serde::{Deserialize, Serialize};

/// Confidence level of [`RatioComparison::ci95_lo`]/`_hi`: `1 − RATIO_CI_ALPHA = 95%`.
pub const RATIO_CI_ALPHA: f64 = 0.05;

/// Largest degrees of freedom handed to the t quantile (its domain); beyond it the quantile
/// changes by less than `2e-7` relative (`t_{0.975,ν} − z ≈ (z³ + z)/(4ν)`).
pub const MAX_DF: f64 = 1e7;

/// Sample moments of one side: mean, sample standard deviation (`n − 1`) and run count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Moments {
    /// Sample mean, `> 0`.
    pub mean: f64,
    /// Sample standard deviation with Bessel's correction, `≥ 0`.
    pub std: f64,
    /// Number of runs, `≥ 2`.
    pub n: u64,
}

impl Moments {
    /// Validates `mean > 0` finite, `std ≥ 0` finite, `n ≥ 2`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the first bad value.
    pub fn new(mean: f64, std: f64, n: u64) -> Result<Self> {
        if !(mean > 0.0 && mean.is_finite()) {
            return Err(Error::param("mean", mean, "a finite number > 0"));
        }
        if !(std >= 0.0 && std.is_finite()) {
            return Err(Error::param("std", std, "a finite number >= 0"));
        }
        if n < 2 {
            return Err(Error::param("n", n, "at least 2 runs"));
        }
        Ok(Moments { mean, std, n })
    }

    /// Moments of a sample.
    ///
    /// # Errors
    /// As [`Moments::new`] (fewer than 2 values, a NaN, or a mean `≤ 0`).
    pub fn of(xs: &[f64]) -> Result<Self> {
        Moments::new(stats::mean(xs)?, stats::sample_std(xs)?, xs.len() as u64)
    }

    /// The same moments scaled by `f` (mean and std).
    fn scaled(&self, f: f64) -> Moments {
        Moments {
            mean: self.mean * f,
            std: self.std * f,
            n: self.n,
        }
    }

    /// `s²/n`, the squared standard error of the mean.
    fn var_of_mean(&self) -> f64 {
        self.std * self.std / self.n as f64
    }
}

/// The unknown factor `f ∈ [lo, hi]` between a side's true mean and its reported one.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FactorRange {
    /// Smallest factor, `> 0`.
    pub lo: f64,
    /// Largest factor, `≥ lo`.
    pub hi: f64,
}

impl FactorRange {
    /// The exact case `f = 1`.
    pub const EXACT: FactorRange = FactorRange { lo: 1.0, hi: 1.0 };

    /// Validates `0 < lo ≤ hi < ∞`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] otherwise.
    pub fn new(lo: f64, hi: f64) -> Result<Self> {
        if !(lo > 0.0 && lo.is_finite()) {
            return Err(Error::param("factor lo", lo, "a finite number > 0"));
        }
        if !(hi >= lo && hi.is_finite()) {
            return Err(Error::param(
                "factor hi",
                hi,
                format!("finite and >= lo = {lo}"),
            ));
        }
        Ok(FactorRange { lo, hi })
    }
}

/// The public code's AdaP-TT counter (READINGS.md §P.6): its pulls are `f` times the `τ` it
/// reports, with `f ∈ [1, 2)`.
///
/// # Derivation
/// The public code returns `counts.sum()`, where `counts[a]` grows only when arm `a` completes
/// a phase, to the arm's pulls at that moment (`N_{T_k(a),a}`); the pulls of every arm's ongoing
/// phase are left out. A phase ends when its pulls reach the completed ones (`ph_counts ==
/// counts`), so an ongoing phase holds fewer pulls than the arm's completed ones, and the arm that
/// just switched holds none: `counts.sum() <= τ < 2·counts.sum()`. In this crate's notation
/// (L. 37, F.29) the counter is `Σ_a N_{T_k(a),a} = Σ_a 2^{k_a − 1}` and `N_{n,a} < 2·N_{T_k(a),a}`
/// after the switch step (F.28). No measured factor narrows this range: the public runs record
/// only the counter's moments (`data/public_code_runs.csv`).
pub const ADAPTT_COUNTER: FactorRange = FactorRange { lo: 1.0, hi: 2.0 };

/// Ratio of our mean over theirs with its interval, and the Welch test (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RatioComparison {
    /// `x̄ / ȳ` with their **reported** mean (factor 1).
    pub ratio: f64,
    /// Smallest ratio over the factor range, `x̄ / (f_hi·ȳ)`.
    pub ratio_lo: f64,
    /// Largest ratio over the factor range, `x̄ / (f_lo·ȳ)`.
    pub ratio_hi: f64,
    /// Lower end of the 95% interval of `μ_ours / μ_theirs` (widened by the factor range).
    pub ci95_lo: f64,
    /// Upper end of the 95% interval of `μ_ours / μ_theirs` (widened by the factor range).
    pub ci95_hi: f64,
    /// Standard error of `ln(x̄/ȳ)` (delta method).
    pub log_se: f64,
    /// Welch–Satterthwaite degrees of freedom of the log ratio (`None` when `log_se = 0`).
    pub df: Option<f64>,
    /// Welch statistic at factor 1 (`±∞` when both stds are 0 and the means differ).
    pub welch_t: f64,
    /// Welch p-value: supremum over the factor range of the two-sided p-value of equal means.
    pub welch_p: f64,
    /// The factor range used.
    pub factor: FactorRange,
}

/// Welch–Satterthwaite degrees of freedom of `a + b` with `a = s₁²/n₁`, `b = s₂²/n₂`-type terms
/// (`None` when both are 0).
fn welch_df(a: f64, n1: u64, b: f64, n2: u64) -> Option<f64> {
    let den = a * a / (n1 - 1) as f64 + b * b / (n2 - 1) as f64;
    (den > 0.0).then(|| (a + b) * (a + b) / den)
}

/// 95% (`1 − α`) confidence interval of the ratio of means `μ_ours / μ_theirs`.
///
/// # Definition
/// ```text
/// r = x̄/ȳ,  a = s₁²/(n₁x̄²),  b = s₂²/(n₂ȳ²),  se = sqrt(a + b)          (delta method on ln r)
/// ν = (a + b)² / (a²/(n₁−1) + b²/(n₂−1))                              (Welch–Satterthwaite)
/// CI = [ r·exp(−t_{1−α/2,ν}·se) / f_hi,  r·exp(t_{1−α/2,ν}·se) / f_lo ]
/// ```
/// with `ν` capped at [`MAX_DF`]; `se = 0` (both samples constant) gives `[r/f_hi, r/f_lo]`.
///
/// # Reference
/// Delta method: Casella & Berger §5.5.4; Welch (1947), Biometrika 34; Satterthwaite (1946).
/// The factor range: module docs (READINGS.md §P.6 for the AdaP-TT counter).
///
/// # Domain
/// Moments as [`Moments::new`], `α ∈ (0, 1)`, a [`FactorRange`].
///
/// # Accuracy
/// The arithmetic to ~1e-9 relative (t quantile); checked against
/// `tests/data/censored_golden.toml` (mpmath, `verify/golden_censored.py`). The coverage is
/// asymptotic (delta method, normal means): close to nominal for coefficients of variation of the
/// means below ~0.2.
///
/// # Errors
/// [`Error::InvalidParameter`] for `α ∉ (0, 1)` (the moments and range are validated by their
/// constructors).
///
/// # Example
/// ```
/// use dpbai::mc::compare::{compare_means, FactorRange, Moments};
/// let ours = Moments::new(53733.0, 5000.0, 1000).unwrap();
/// let theirs = Moments::new(54255.2, 5441.8, 50).unwrap(); // public code, TTUCB on μ1
/// let c = compare_means(&ours, &theirs, FactorRange::EXACT).unwrap();
/// assert!(c.ci95_lo < 1.0 && 1.0 < c.ci95_hi && c.welch_p > 0.05);
/// ```
pub fn ratio_ci(
    ours: &Moments,
    theirs: &Moments,
    factor: FactorRange,
    alpha: f64,
) -> Result<(f64, f64, f64, Option<f64>)> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::param("alpha", alpha, "in (0, 1)"));
    }
    let r = ours.mean / theirs.mean;
    let a = ours.var_of_mean() / (ours.mean * ours.mean);
    let b = theirs.var_of_mean() / (theirs.mean * theirs.mean);
    let se = (a + b).sqrt();
    let df = welch_df(a, ours.n, b, theirs.n);
    let half = match df {
        Some(nu) => stats::student_t_quantile(1.0 - alpha / 2.0, nu.min(MAX_DF))? * se,
        None => 0.0,
    };
    let lo = check_finite("ratio CI lower end", r * (-half).exp() / factor.hi)?;
    let hi = check_finite("ratio CI upper end", r * half.exp() / factor.lo)?;
    Ok((lo, hi, se, df))
}

/// Two-sided Welch t-test of `μ_ours = μ_theirs`: `(t, ν, p)`.
///
/// # Definition
/// `t = (x̄ − ȳ)/sqrt(s₁²/n₁ + s₂²/n₂)`, `ν` Welch–Satterthwaite, `p = P(|T_ν| ≥ |t|)`.
/// Both stds 0: `t = 0, p = 1` if the means are equal, else `t = ±∞, p = 0`; `ν = None` then.
///
/// # Reference
/// Welch (1947), Biometrika 34(1–2).
///
/// # Domain
/// Moments as [`Moments::new`].
///
/// # Accuracy
/// `p` to `1e-10` relative ([`stats::student_t_two_sided`]); checked against mpmath.
///
/// # Errors
/// Only from the t tail on non-finite input (not reachable from valid moments).
///
/// # Example
/// ```
/// use dpbai::mc::compare::{welch_test, Moments};
/// let (t, nu, p) = welch_test(
///     &Moments::new(10.0, 2.0, 10).unwrap(),
///     &Moments::new(10.0, 3.0, 20).unwrap(),
/// ).unwrap();
/// assert_eq!((t, p), (0.0, 1.0));
/// assert!(nu.unwrap() > 9.0);
/// ```
pub fn welch_test(ours: &Moments, theirs: &Moments) -> Result<(f64, Option<f64>, f64)> {
    let (a, b) = (ours.var_of_mean(), theirs.var_of_mean());
    let diff = ours.mean - theirs.mean;
    match welch_df(a, ours.n, b, theirs.n) {
        Some(nu) => {
            let t = diff / (a + b).sqrt();
            Ok((t, Some(nu), stats::student_t_two_sided(t, nu)?))
        }
        None if diff == 0.0 => Ok((0.0, None, 1.0)),
        None => Ok((diff.signum() * f64::INFINITY, None, 0.0)),
    }
}

/// Grid points (besides the endpoints and `x̄/ȳ`) on which the Welch p-value is maximised over
/// the factor range.
const FACTOR_GRID: usize = 1000;

/// Ratio interval and Welch test of our mean against one known within a factor range.
///
/// # Definition
/// `ratio`, `ci95_*`, `log_se`, `df` from [`ratio_ci`] at `α = 0.05`; `welch_t` from
/// [`welch_test`] at factor 1; `welch_p = sup_{f ∈ [f_lo, f_hi]} p(f)` where `p(f)` is the
/// Welch p-value against `(f·ȳ, f·s_y, n_y)`, taken over `f = x̄/ȳ` (where `p = 1`) when it
/// lies in the range, the endpoints, and 1001 equally spaced factors (`|t(f)|` is monotone on
/// each side of `x̄/ȳ`, so the supremum sits at the endpoint nearest to it up to the slow change
/// of `ν(f)`, which the grid resolves).
///
/// # Reference
/// See [`ratio_ci`], [`welch_test`] and the module docs.
///
/// # Domain
/// As [`ratio_ci`].
///
/// # Accuracy
/// As [`ratio_ci`]; `welch_p` to `1e-6` relative against a 20001-point mpmath maximisation.
///
/// # Errors
/// As [`ratio_ci`].
///
/// # Example
/// ```
/// use dpbai::mc::compare::{compare_means, Moments, ADAPTT_COUNTER};
/// // AdaP-TT on μ1 at ε = 1: the public code's 158126.5 counts 1/2 to 1 of its pulls
/// let ours = Moments::new(200000.0, 30000.0, 1000).unwrap();
/// let theirs = Moments::new(158126.5, 10561.7, 11).unwrap();
/// let c = compare_means(&ours, &theirs, ADAPTT_COUNTER).unwrap();
/// assert!(c.ratio > 1.2 && c.ci95_lo < 1.0 && c.welch_p == 1.0); // 200000/158126.5 ∈ [1, 2]
/// ```
pub fn compare_means(
    ours: &Moments,
    theirs: &Moments,
    factor: FactorRange,
) -> Result<RatioComparison> {
    let (ci95_lo, ci95_hi, log_se, df) = ratio_ci(ours, theirs, factor, RATIO_CI_ALPHA)?;
    let (welch_t, _, _) = welch_test(ours, theirs)?;
    let root = ours.mean / theirs.mean;
    let mut fs: Vec<f64> = vec![factor.lo, factor.hi];
    if factor.hi > factor.lo {
        let w = factor.hi - factor.lo;
        fs.extend((1..FACTOR_GRID).map(|i| factor.lo + w * i as f64 / FACTOR_GRID as f64));
    }
    if (factor.lo..=factor.hi).contains(&root) {
        fs.push(root);
    }
    let mut welch_p: f64 = 0.0;
    for f in fs {
        welch_p = welch_p.max(welch_test(ours, &theirs.scaled(f))?.2);
    }
    Ok(RatioComparison {
        ratio: root,
        ratio_lo: root / factor.hi,
        ratio_hi: root / factor.lo,
        ci95_lo,
        ci95_hi,
        log_se,
        df,
        welch_t,
        welch_p,
        factor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_input() {
        assert!(Moments::new(0.0, 1.0, 5).is_err());
        assert!(Moments::new(f64::NAN, 1.0, 5).is_err());
        assert!(Moments::new(1.0, -1.0, 5).is_err());
        assert!(Moments::new(1.0, f64::INFINITY, 5).is_err());
        assert!(Moments::new(1.0, 1.0, 1).is_err());
        assert!(FactorRange::new(0.0, 1.0).is_err());
        assert!(FactorRange::new(1.5, 1.0).is_err());
        assert!(FactorRange::new(1.0, f64::NAN).is_err());
        let m = Moments::new(1.0, 1.0, 5).unwrap();
        assert!(ratio_ci(&m, &m, FactorRange::EXACT, 0.0).is_err());
        assert!(Moments::of(&[1.0]).is_err());
    }

    /// Rescaling their side by f divides the interval by f (the property the factor range rests
    /// on), and the widened interval is the union of the per-f intervals at the two ends.
    #[test]
    fn factor_range_is_the_union_of_rescaled_intervals() {
        let ours = Moments::new(200000.0, 30000.0, 1000).unwrap();
        let theirs = Moments::new(158126.5, 10561.7, 11).unwrap();
        let at = |f: f64| ratio_ci(&ours, &theirs.scaled(f), FactorRange::EXACT, 0.05).unwrap();
        let (lo1, hi1, se1, df1) = at(1.0);
        let (lo2, hi2, se2, df2) = at(2.0);
        assert!((lo2 - lo1 / 2.0).abs() < 1e-12 && (hi2 - hi1 / 2.0).abs() < 1e-12);
        assert!((se2 - se1).abs() < 1e-15 && (df2.unwrap() - df1.unwrap()).abs() < 1e-9);
        let c = compare_means(&ours, &theirs, ADAPTT_COUNTER).unwrap();
        assert!((c.ci95_lo - at(2.0).0).abs() < 1e-12);
        assert!((c.ci95_hi - at(1.0).1).abs() < 1e-12);
        assert!(c.ratio_lo < c.ratio_hi && c.ratio_hi == c.ratio); // f_lo = 1
    }

    /// Both sides constant: a zero-width interval and a p-value of 0 or 1.
    #[test]
    fn constant_samples() {
        let a = Moments::new(108802.0, 0.0, 50).unwrap();
        let c = compare_means(&a, &a, FactorRange::EXACT).unwrap();
        assert_eq!(
            (c.ci95_lo, c.ci95_hi, c.df, c.welch_p),
            (1.0, 1.0, None, 1.0)
        );
        let b = Moments::new(100000.0, 0.0, 50).unwrap();
        let c = compare_means(&a, &b, FactorRange::EXACT).unwrap();
        assert_eq!((c.welch_t, c.welch_p), (f64::INFINITY, 0.0));
        assert_eq!(c.ci95_lo, c.ci95_hi);
    }

    /// The public code's counter of AdaP-TT (READINGS.md §P.6, `mc::ADAPTT_COUNTER`): at every
    /// stop, `Σ_a N_{T_k(a),a} <= τ < 2·Σ_a N_{T_k(a),a}` under the public code's own rules.
    struct CounterAtSwitch {
        counter: u64,
        t: u64,
    }

    impl crate::bandit::top_two::Observer for CounterAtSwitch {
        fn after_switch(
            &mut self,
            counters: &crate::bandit::top_two::Counters,
            est: &crate::bandit::top_two::Estimates,
            _switched: bool,
        ) {
            self.counter = est.start.iter().sum();
            self.t = counters.t;
        }
    }

    #[test]
    fn the_public_codes_counter_holds_half_to_all_of_the_pulls() {
        let inst = crate::instance::Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).unwrap();
        let mut spec = crate::bandit::AlgoSpec::new(
            crate::bandit::Setting::paper(crate::bandit::AlgoName::AdapTt, 0.01).expect("valid δ"),
        );
        spec.setting.rules = crate::bandit::Rules::Reference;
        spec.setting.eps = Some(crate::params::Epsilon::new(1.0).expect("valid ε"));
        let alg = crate::bandit::algos::build_any(&spec, &inst).unwrap();
        let (mut lo, mut hi) = (f64::INFINITY, 0f64);
        for r in 0..20 {
            let mut obs = CounterAtSwitch { counter: 0, t: 0 };
            let out = alg.run_observed(
                &mut crate::rng::rng_for_run(14, r),
                10_000_000,
                false,
                &mut obs,
            );
            assert!(out.stopped, "run {r}");
            assert_eq!(obs.t, out.tau, "the stop follows a switch step");
            let f = out.tau as f64 / obs.counter as f64;
            (lo, hi) = (lo.min(f), hi.max(f));
        }
        let range = ADAPTT_COUNTER;
        assert!(lo >= range.lo && hi < range.hi, "factor {lo}..{hi}");
        // Not a vacuous range: the ongoing phases do hold pulls at the stop.
        assert!(hi > 1.0, "{hi}");
    }
}
