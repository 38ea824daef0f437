//! A stopping threshold supplied at run time ([`CustomThreshold`]) and the variables it reads
//! ([`ThresholdVars`]).

/// Variables a user-typed stopping threshold may read (`dpbai audit delta --threshold EXPR`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ThresholdVars {
    /// Risk `δ`.
    pub delta: f64,
    /// Number of arms `K`.
    pub k: f64,
    /// Privacy budget `ε` (`+∞` for non-private algorithms).
    pub eps: f64,
    /// Sub-Gaussian scale `σ` used by the rule.
    pub sigma: f64,
    /// Samples drawn so far.
    pub t: f64,
    /// Count the rule uses for the candidate arm `a` (local count `Ñ` for DAF).
    pub na: f64,
    /// Count the rule uses for the challenger `b`.
    pub nb: f64,
    /// Phase index of `a` (1 when the estimator has no phases).
    pub ka: f64,
    /// Phase index of `b`.
    pub kb: f64,
    /// `(μ̃_a − μ̃_b)_+` of the estimates.
    pub gap: f64,
}

/// A stopping threshold supplied at run time, replacing the algorithm's `c_{a,b}`.
///
/// # Contract
/// `eval` is pure and cheap (<= 100 ns); a NaN result means "do not stop".
pub trait CustomThreshold: Send + Sync + std::fmt::Debug {
    /// The threshold value for these variables.
    fn eval(&self, v: &ThresholdVars) -> f64;
    /// A value `<=` every non-NaN `eval(v)` for `v` with the run constants of `base` (`δ`, `K`,
    /// `ε`, `σ`) and any counts, time, phases and gap: the engine skips `eval` while the
    /// statistic is below it. Default `−∞` (no skipping).
    fn lower_bound(&self, _base: &ThresholdVars) -> f64 {
        f64::NEG_INFINITY
    }
    /// A value `<=` every non-NaN `eval(v')` for `v'` with the run constants of `v` and its time,
    /// counts and phases at least `v`'s (any gap `>= 0`): what the threshold of one pair can
    /// still be after more pulls, when its counts only grow. The unphased Top Two engine keeps
    /// it for the pair that failed last and skips `eval` while that pair's statistic is below
    /// it, as it does with the cached terms of its built-in thresholds. A finite bound also
    /// promises that every such `eval(v')` is finite (a skipped evaluation must not hide a
    /// value [`crate::threshold::probe::Checked`] would report). Default `−∞` (no skipping).
    fn lower_bound_after(&self, _v: &ThresholdVars) -> f64 {
        f64::NEG_INFINITY
    }
    /// Whether `eval` may read the time `t`. `false` promises it does not: a phased engine
    /// then tests its stopping rule only where its other inputs change (at phase ends, where
    /// the counts, phase indices and estimates it reads are released), as it does for its
    /// built-in thresholds, with the same stopping times. Default `true`.
    fn reads_time(&self) -> bool {
        true
    }
}

/// A stopping threshold given as a closure of [`ThresholdVars`].
///
/// # Contract
/// As [`CustomThreshold`]: the closure is pure and cheap; NaN means "do not stop".
///
/// # Example
/// ```
/// use dpbai::threshold::custom::ClosureThreshold;
/// use dpbai::threshold::custom::{CustomThreshold, ThresholdVars};
/// let c = ClosureThreshold::new(|v: &ThresholdVars| (1.0 / v.delta).ln());
/// assert!((c.eval(&ThresholdVars { delta: 0.01, ..Default::default() }) - 100f64.ln()).abs() < 1e-15);
/// ```
pub struct ClosureThreshold<F> {
    f: F,
}

impl<F: Fn(&ThresholdVars) -> f64 + Send + Sync> ClosureThreshold<F> {
    /// Wraps `f`.
    pub fn new(f: F) -> Self {
        ClosureThreshold { f }
    }
}

impl<F> std::fmt::Debug for ClosureThreshold<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClosureThreshold")
    }
}

impl<F: Fn(&ThresholdVars) -> f64 + Send + Sync> CustomThreshold for ClosureThreshold<F> {
    fn eval(&self, v: &ThresholdVars) -> f64 {
        (self.f)(v)
    }
}
