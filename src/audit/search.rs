//! `dpbai audit delta --search`: adversarial search for the instance that maximises the error
//! probability `P_ν(τ < ∞, â ≠ a*)` of an algorithm and stopping threshold, then an exact
//! confirmation on fresh seeds (MATH.md E.2).
//!
//! # Protocol
//! 1. **Space.** A declared [`SearchSpace`] (family, range of `K`, range of means, minimum gap,
//!    `ε` range for private algorithms) is parametrised by `x ∈ [0, 1]^d` ([`SearchSpace::decode`]):
//!    `x₀ → K`, `x₁ → gap` (log scale), `x₂ →` position of the best mean, `x₃ →` spread of the
//!    arms below the runner-up (`0`: all `K − 1` others tied at `μ₁ − gap`), `x₄ → ε` (log scale).
//! 2. **Screening with successive halving.** The space's corners (largest and smallest `K` at
//!    the smallest gap, all others tied; each at the smallest `ε`) and a Halton design are run
//!    with `screen_runs` runs each; the better half (by error frequency, then hardness) gets its
//!    runs doubled, and so on until [`SearchConfig::finalists`] remain.
//! 3. **Nelder–Mead** (argmin, derivative free) from the best point, on the error frequency over
//!    `local_runs` runs (minus a `10^{-3}`-scaled hardness tie-break so that flat zero-error
//!    regions lead towards harder instances).
//! 4. Every evaluation uses **common random numbers**: run `r` of every candidate draws from
//!    `rng_for_run(s_crn, r)`, so differences between candidates are not seed noise.
//! 5. **Confirmation.** The `finalists` worst candidates are re-audited on fresh seeds (a seed
//!    stream disjoint from the search's) with the exact Clopper–Pearson audit
//!    ([`crate::audit::delta::audit_delta_with`]) under the pre-registered run plan, each at
//!    `α/m` (**Bonferroni over the `m` confirmed candidates**). The search data only chooses
//!    *which* instances are confirmed; the confirmation data are independent of that choice, so
//!    conditionally on it every interval covers with probability `>= 1 − α/m`, and the overall
//!    verdict (`violated` if any confirmed instance is, `holds` if all are) is wrong with
//!    probability at most `α`.
//!
//! A `holds` verdict means "no violation found": it is a statement about the confirmed
//! instances, with a power statement ([`SearchReport::power`]): how likely the confirmation was
//! to declare `violated` had the worst instance's error probability been `2δ`, and how likely a
//! screened instance with error probability `q` was to show at least one error in screening.
//!
//! The budget ([`Budget`]) bounds the search (screening and Nelder–Mead); the confirmation runs
//! its pre-registered plan whatever the budget.

use crate::audit::delta::{
    audit_delta_with, run_batch, AlgoFactory, AuditInstance, DeltaAuditConfig, DeltaReport, Tally,
};
use crate::audit::Verdict;
use crate::error::{check_open, Error, Result};
use crate::instance::Instance;
use crate::rng::mix64;
use argmin::core::{CostFunction, Executor};
use argmin::solver::neldermead::NelderMead;
use serde::Serialize;
use std::sync::Mutex;
use std::time::Instant;

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

/// Search budget (screening and Nelder–Mead; the confirmation is not counted).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "value")]
pub enum Budget {
    /// Total samples drawn (sum of `τ` over all runs, capped runs counted at the cap).
    Samples(u64),
    /// Wall-clock seconds.
    Seconds(f64),
}

/// Everything the search needs.
#[derive(Debug, Clone)]
pub struct SearchConfig {
    /// The audit (algorithm, threshold, `α`, seed, step cap, and the confirmation's run plan).
    pub audit: DeltaAuditConfig,
    /// Risk `δ` audited.
    pub delta: f64,
    /// The declared space.
    pub space: SearchSpace,
    /// The search budget.
    pub budget: Budget,
    /// Candidates of the first screening round (`>= finalists`).
    pub screen_candidates: usize,
    /// Runs per candidate in the first screening round.
    pub screen_runs: u64,
    /// Runs per Nelder–Mead evaluation.
    pub local_runs: u64,
    /// Nelder–Mead iterations at most.
    pub local_iters: u64,
    /// Candidates confirmed on fresh seeds (`m` of the Bonferroni correction).
    pub finalists: usize,
}

impl SearchConfig {
    /// Defaults: 40 screened candidates × 32 runs, halving to 2 finalists, 40 Nelder–Mead
    /// iterations of 256 runs, 60 s.
    pub fn new(audit: DeltaAuditConfig, delta: f64, space: SearchSpace) -> Self {
        SearchConfig {
            audit,
            delta,
            space,
            budget: Budget::Seconds(60.0),
            screen_candidates: 40,
            screen_runs: 32,
            local_runs: 256,
            local_iters: 40,
            finalists: 2,
        }
    }
}

/// One evaluated candidate (a row of the search trace).
#[derive(Debug, Clone, Serialize)]
pub struct TraceRow {
    /// Evaluation number.
    pub eval: usize,
    /// `screen-<round>`, `nelder-mead`, or `confirm`.
    pub stage: String,
    /// Number of arms.
    pub k: usize,
    /// Means, `;`-separated.
    pub means: String,
    /// `μ₁ − μ₂`.
    pub gap: f64,
    /// `ε` (NaN when not private).
    pub eps: f64,
    /// `T*(ν)·log(1/δ)`.
    pub hardness: f64,
    /// Runs of this evaluation (cumulative for a candidate in successive halving).
    pub runs: u64,
    /// Wrong stops.
    pub errors: u64,
    /// Capped runs.
    pub unstopped: u64,
    /// `errors / runs`.
    pub error_rate: f64,
    /// Mean `τ` over stopped runs (NaN when none).
    pub mean_tau: f64,
    /// Samples drawn by the search so far.
    pub samples: u64,
    /// Seconds since the start.
    pub seconds: f64,
}

/// Result of a search.
#[derive(Debug, Clone, Serialize)]
pub struct SearchReport {
    /// Algorithm name.
    pub algo: String,
    /// Threshold (expression text or `None` for the algorithm's own).
    pub threshold: Option<String>,
    /// `δ`.
    pub delta: f64,
    /// The declared space.
    pub space: SearchSpace,
    /// The budget.
    pub budget: Budget,
    /// Overall verdict (of the confirmation).
    pub verdict: Verdict,
    /// Worst instance found (first row of the confirmation).
    pub worst_means: Vec<f64>,
    /// Its `ε`.
    pub worst_eps: Option<f64>,
    /// Its hardness.
    pub worst_hardness: f64,
    /// Its error-rate interval from the confirmation.
    pub worst_ci: [f64; 2],
    /// Its error frequency in the confirmation.
    pub worst_error_rate: f64,
    /// Multiple-testing correction used.
    pub correction: String,
    /// Power statement.
    pub power: String,
    /// The confirmation audit (fresh seeds).
    pub confirmation: DeltaReport,
    /// Every evaluation.
    pub trace: Vec<TraceRow>,
    /// Instances evaluated by the search.
    pub evaluations: usize,
    /// Samples drawn by the search (confirmation excluded).
    pub search_samples: u64,
    /// Seconds of the search.
    pub search_seconds: f64,
    /// Seconds in total.
    pub seconds: f64,
}

/// Nelder–Mead parameter vector (argmin's `vec` feature would pull a second `rand`).
#[derive(Debug, Clone)]
struct Point(Vec<f64>);

impl argmin_math::ArgminAdd<Point, Point> for Point {
    fn add(&self, o: &Point) -> Point {
        Point(self.0.iter().zip(&o.0).map(|(a, b)| a + b).collect())
    }
}
impl argmin_math::ArgminSub<Point, Point> for Point {
    fn sub(&self, o: &Point) -> Point {
        Point(self.0.iter().zip(&o.0).map(|(a, b)| a - b).collect())
    }
}
impl argmin_math::ArgminMul<f64, Point> for Point {
    fn mul(&self, s: &f64) -> Point {
        Point(self.0.iter().map(|a| a * s).collect())
    }
}

/// State shared by all evaluations.
struct Search<'a> {
    cfg: &'a SearchConfig,
    build: &'a AlgoFactory<'a>,
    crn_seed: u64,
    start: Instant,
    samples: Mutex<u64>,
    trace: Mutex<Vec<TraceRow>>,
}

/// A screened point with its cumulative tally.
#[derive(Clone)]
struct Scored {
    x: Vec<f64>,
    cand: Candidate,
    tally: Tally,
}

impl Scored {
    fn rate(&self) -> f64 {
        if self.tally.runs == 0 {
            0.0
        } else {
            self.tally.errors as f64 / self.tally.runs as f64
        }
    }
    /// Larger is worse for the algorithm: error frequency, then hardness.
    fn key(&self) -> (f64, f64) {
        (self.rate(), nan0(self.cand.hardness))
    }
}

fn nan0(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x
    }
}

impl Search<'_> {
    fn exhausted(&self) -> bool {
        match self.cfg.budget {
            Budget::Samples(n) => *self.samples.lock().expect("invariant: no poisoning") >= n,
            Budget::Seconds(s) => self.start.elapsed().as_secs_f64() >= s,
        }
    }

    fn audit_instance(&self, c: &Candidate) -> AuditInstance {
        AuditInstance {
            name: format!("K={}", c.means.len()),
            instance: c.instance.clone(),
            delta: self.cfg.delta,
            eps: c.eps,
        }
    }

    /// Runs `from..to` (common random numbers) on `c`; `None` if the algorithm rejects it.
    fn run(&self, c: &Candidate, from: u64, to: u64) -> Result<Option<Tally>> {
        let alg = match (self.build)(&self.audit_instance(c)) {
            Ok(a) => a,
            Err(Error::InvalidInstance { .. }) => return Ok(None),
            Err(e) => return Err(e),
        };
        let best = c.instance.best();
        let t = run_batch(
            alg.as_ref(),
            best,
            self.crn_seed,
            from..to,
            self.cfg.audit.max_steps,
        );
        let drawn = u64::try_from(t.tau_sum_stopped)
            .unwrap_or(u64::MAX)
            .saturating_add(t.unstopped.saturating_mul(self.cfg.audit.max_steps));
        let mut s = self.samples.lock().expect("invariant: no poisoning");
        *s = s.saturating_add(drawn);
        Ok(Some(t))
    }

    fn record(&self, c: &Candidate, t: &Tally, stage: &str) {
        let samples = *self.samples.lock().expect("invariant: no poisoning");
        let mut tr = self.trace.lock().expect("invariant: no poisoning");
        let eval = tr.len();
        tr.push(TraceRow {
            eval,
            stage: stage.to_string(),
            k: c.means.len(),
            means: c
                .means
                .iter()
                .map(|m| format!("{m:.6}"))
                .collect::<Vec<_>>()
                .join(";"),
            gap: c.means[0] - c.means[1],
            eps: c.eps.unwrap_or(f64::NAN),
            hardness: c.hardness,
            runs: t.runs,
            errors: t.errors,
            unstopped: t.unstopped,
            error_rate: if t.runs > 0 {
                t.errors as f64 / t.runs as f64
            } else {
                f64::NAN
            },
            mean_tau: if t.stopped > 0 {
                t.tau_sum_stopped as f64 / t.stopped as f64
            } else {
                f64::NAN
            },
            samples,
            seconds: self.start.elapsed().as_secs_f64(),
        });
    }
}

/// Nelder–Mead objective: minus the error frequency over `local_runs` CRN runs, minus a
/// hardness tie-break below one error's weight.
struct Objective<'a, 'b> {
    s: &'a Search<'b>,
    best: &'a Mutex<Option<Scored>>,
}

impl CostFunction for Objective<'_, '_> {
    type Param = Point;
    type Output = f64;
    fn cost(&self, p: &Point) -> std::result::Result<f64, argmin::core::Error> {
        if self.s.exhausted() {
            return Err(argmin::core::Error::msg("search budget exhausted"));
        }
        let x: Vec<f64> = p.0.iter().map(|v| v.clamp(0.0, 1.0)).collect();
        let cand = self.s.cfg.space.decode(&x, self.s.cfg.delta)?;
        let Some(t) = self.s.run(&cand, 0, self.s.cfg.local_runs)? else {
            return Ok(1.0);
        };
        self.s.record(&cand, &t, "nelder-mead");
        let sc = Scored { x, cand, tally: t };
        let tie = 1e-3 * (nan0(sc.cand.hardness).max(1.0).log10() / 10.0).clamp(0.0, 1.0);
        let cost = -sc.rate() - tie;
        let mut b = self.best.lock().expect("invariant: no poisoning");
        if b.as_ref().is_none_or(|o| sc.key() > o.key()) {
            *b = Some(sc);
        }
        Ok(cost)
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
fn design(n: usize, d: usize) -> Vec<Vec<f64>> {
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

/// Runs the search (module docs for the protocol) on the algorithm built by `build`.
///
/// # Errors
/// [`Error::InvalidParameter`] for an invalid space, `δ`, or zero counts; errors of `build`
/// other than [`Error::InvalidInstance`] (such candidates are skipped); errors of the
/// confirmation audit. If the algorithm rejects every candidate, an error naming the space.
pub fn search_with(cfg: &SearchConfig, build: &AlgoFactory<'_>) -> Result<SearchReport> {
    cfg.space.validate()?;
    check_open("delta", cfg.delta, 0.0, 1.0)?;
    if cfg.screen_runs == 0 || cfg.local_runs == 0 || cfg.finalists == 0 {
        return Err(Error::param(
            "screen-runs, local-runs, finalists",
            format!("{}, {}, {}", cfg.screen_runs, cfg.local_runs, cfg.finalists),
            "all at least 1",
        ));
    }
    if cfg.screen_candidates < cfg.finalists {
        return Err(Error::param(
            "screen-candidates",
            cfg.screen_candidates,
            format!("at least finalists = {}", cfg.finalists),
        ));
    }
    let s = Search {
        cfg,
        build,
        crn_seed: mix64(cfg.audit.seed ^ 0x5EA2_C4C2_0000_0017),
        start: Instant::now(),
        samples: Mutex::new(0),
        trace: Mutex::new(Vec::new()),
    };
    let d = cfg.space.dims();
    // Screening round 0.
    let mut pool: Vec<Scored> = Vec::new();
    for x in design(cfg.screen_candidates, d) {
        let cand = cfg.space.decode(&x, cfg.delta)?;
        if let Some(t) = s.run(&cand, 0, cfg.screen_runs)? {
            s.record(&cand, &t, "screen-0");
            pool.push(Scored { x, cand, tally: t });
        }
        if s.exhausted() && pool.len() >= cfg.finalists {
            break;
        }
    }
    if pool.is_empty() {
        return Err(Error::param(
            "search space",
            format!("{:?}", cfg.space.family),
            format!("instances {} accepts", cfg.audit.algo.as_str()),
        ));
    }
    // Successive halving.
    let sort = |p: &mut Vec<Scored>| {
        p.sort_by(|a, b| {
            let (ra, ha) = a.key();
            let (rb, hb) = b.key();
            rb.total_cmp(&ra).then(hb.total_cmp(&ha))
        })
    };
    let mut round = 0;
    sort(&mut pool);
    while pool.len() > cfg.finalists && !s.exhausted() {
        round += 1;
        pool.truncate((pool.len() / 2).max(cfg.finalists));
        let stage = format!("screen-{round}");
        for p in pool.iter_mut() {
            let n = p.tally.runs;
            if let Some(t) = s.run(&p.cand, n, 2 * n)? {
                p.tally = p.tally.merge(t);
                s.record(&p.cand, &p.tally, &stage);
            }
        }
        sort(&mut pool);
    }
    pool.truncate(cfg.finalists);
    // Nelder–Mead from the best screened point.
    if !s.exhausted() && cfg.local_iters > 0 {
        let x0 = pool[0].x.clone();
        let step = 0.15;
        let mut simplex = vec![Point(x0.clone())];
        for i in 0..d {
            let mut y = x0.clone();
            y[i] = if y[i] + step <= 1.0 {
                y[i] + step
            } else {
                y[i] - step
            };
            simplex.push(Point(y));
        }
        let best = Mutex::new(None);
        let obj = Objective { s: &s, best: &best };
        let solver = NelderMead::new(simplex)
            .with_sd_tolerance(1e-6)
            .map_err(|e| Error::param("nelder-mead", e.to_string(), "valid settings"))?;
        // An exhausted budget aborts the executor with an error: the best point seen is kept.
        let _ = Executor::new(obj, solver)
            .configure(|st| st.max_iters(cfg.local_iters))
            .run();
        if let Some(b) = best.into_inner().expect("invariant: no poisoning") {
            // Replace the weakest finalist if the local optimum is worse for the algorithm.
            let last = pool.len() - 1;
            if b.key() > pool[last].key() && !pool.iter().any(|p| p.cand.means == b.cand.means) {
                pool[last] = b;
                sort(&mut pool);
            }
        }
    }
    let search_seconds = s.start.elapsed().as_secs_f64();
    let search_samples = *s.samples.lock().expect("invariant: no poisoning");
    // Confirmation on fresh seeds, Bonferroni over the finalists (audit_delta_with does α/m).
    let finalists: Vec<AuditInstance> = pool
        .iter()
        .enumerate()
        .map(|(i, p)| AuditInstance {
            name: format!("finalist-{}", i + 1),
            ..s.audit_instance(&p.cand)
        })
        .collect();
    let mut ccfg = cfg.audit.clone();
    ccfg.seed = mix64(cfg.audit.seed ^ 0xC0F1_F1A5_0000_0017);
    let confirmation = audit_delta_with(&ccfg, &finalists, build)?;
    let worst = &confirmation.instances[0];
    let wc = pool
        .iter()
        .find(|p| p.cand.means == worst.means)
        .map(|p| p.cand.clone())
        .unwrap_or_else(|| pool[0].cand.clone());
    for row in &confirmation.instances {
        if let Some(c) = pool.iter().find(|q| q.cand.means == row.means) {
            let t = Tally {
                runs: row.runs,
                errors: row.errors,
                unstopped: row.unstopped,
                tau_sum_stopped: 0,
                stopped: 0,
                max_tau: row.max_tau,
            };
            s.record(&c.cand, &t, "confirm");
        }
    }
    let m = finalists.len();
    let power = power_statement(
        cfg,
        worst.runs,
        worst.alpha_look,
        s.trace
            .lock()
            .expect("invariant: no poisoning")
            .iter()
            .filter(|r| r.stage != "confirm")
            .count(),
    )?;
    let trace = s.trace.into_inner().expect("invariant: no poisoning");
    Ok(SearchReport {
        algo: cfg.audit.algo.as_str().to_string(),
        threshold: cfg.audit.threshold.as_ref().map(|t| t.source().to_string()),
        delta: cfg.delta,
        space: cfg.space.clone(),
        budget: cfg.budget,
        verdict: confirmation.verdict,
        worst_means: worst.means.clone(),
        worst_eps: worst.eps,
        worst_hardness: wc.hardness,
        worst_ci: worst.ci,
        worst_error_rate: worst.error_rate,
        correction: format!(
            "Bonferroni over the {m} confirmed candidate(s): each audited at alpha/{m} = {:.3e} on fresh seeds (independent of the search data), with the run plan's own look correction",
            cfg.audit.alpha / m as f64
        ),
        power,
        evaluations: trace.iter().filter(|r| r.stage != "confirm").count(),
        trace,
        search_samples,
        search_seconds,
        seconds: s.start.elapsed().as_secs_f64(),
        confirmation,
    })
}

/// Runs the search on `cfg.audit`'s algorithm and threshold (see [`search_with`]).
///
/// # Errors
/// As [`search_with`].
///
/// # Example
/// ```no_run
/// use dpbai::audit::delta::{DeltaAuditConfig, RunPlan};
/// use dpbai::audit::search::{search, Budget, SearchConfig, SearchSpace};
/// use dpbai::audit::expr::parse_threshold;
/// use dpbai::bandit::{AlgoName, Rules};
/// let audit = DeltaAuditConfig {
///     algo: AlgoName::Ttucb, gamma: None, rules: Rules::Paper,
///     threshold: Some(parse_threshold("unsafe-log-over-20").unwrap()),
///     alpha: 1e-3, seed: 1, max_steps: 1_000_000,
///     plan: RunPlan::UntilDecided { first: 200, budget: 6400 },
/// };
/// let mut cfg = SearchConfig::new(audit, 0.05, SearchSpace::default());
/// cfg.budget = Budget::Seconds(20.0);
/// let r = search(&cfg).unwrap();
/// println!("{} on {:?}", r.verdict, r.worst_means);
/// ```
pub fn search(cfg: &SearchConfig) -> Result<SearchReport> {
    let a = &cfg.audit;
    // The in-run checks of an expression threshold: a non-finite value met during the search
    // makes the search an error naming the expression and the point, never a verdict.
    let checkers = std::sync::Mutex::new(Vec::new());
    let report = search_with(cfg, &|inst| {
        let (alg, checked) = crate::audit::delta::build_for(a, inst, None)?;
        if let Some(c) = checked {
            checkers
                .lock()
                .expect("invariant: no panic while the lock is held")
                .push(c);
        }
        Ok(alg)
    });
    let checkers = checkers
        .into_inner()
        .expect("invariant: no panic while the lock is held");
    if let Some(e) = checkers.iter().find_map(|c| c.failure()) {
        return Err(e);
    }
    report
}

/// `P(Bin(n, p) >= k)`.
fn binom_sf(k: u64, n: u64, p: f64) -> Result<f64> {
    if k == 0 {
        return Ok(1.0);
    }
    if k > n {
        return Ok(0.0);
    }
    crate::mc::stats::beta_reg(k as f64, (n - k + 1) as f64, p)
}

/// The power statement of a search (module docs).
fn power_statement(cfg: &SearchConfig, n: u64, alpha_look: f64, evals: usize) -> Result<String> {
    let delta = cfg.delta;
    let p1 = (2.0 * delta).min(1.0);
    // Smallest error count that the confirmation's last look declares violated.
    let mut kstar = None;
    for k in 0..=n {
        if crate::audit::ci::lower(k, n, alpha_look / 2.0)? > delta {
            kstar = Some(k);
            break;
        }
    }
    let conf = match kstar {
        Some(k) => format!(
            "had the worst instance's error probability been 2*delta = {p1}, its confirmation ({n} runs) would have declared violated with probability {:.3}",
            binom_sf(k, n, p1)?
        ),
        None => format!("the confirmation ({n} runs) could not have declared violated"),
    };
    let q = delta;
    let screen = 1.0 - (1.0 - q).powf(cfg.screen_runs as f64);
    Ok(format!(
        "{conf}; each of the {evals} screened instances ran >= {} CRN runs, so one with error probability >= delta = {q} showed an error with probability >= {screen:.3}",
        cfg.screen_runs
    ))
}

/// Markdown rows for a REPORT.md block: one row per search (threshold, algorithm, verdict,
/// worst instance, its CI, evaluations, seconds).
///
/// # Example
/// ```
/// let s = dpbai::audit::search::report_rows(&[]);
/// assert!(s.starts_with("| threshold |"));
/// ```
pub fn report_rows(reports: &[SearchReport]) -> String {
    let mut out = String::from(
        "| threshold | algo | delta | verdict | worst instance (K; means) | eps | error rate [CI] | hardness T*log(1/delta) | evaluations | search s |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in reports {
        let means = r
            .worst_means
            .iter()
            .map(|m| format!("{m:.3}"))
            .collect::<Vec<_>>();
        let shown = if means.len() > 4 {
            format!("{}, … ({} arms)", means[..4].join(", "), means.len())
        } else {
            means.join(", ")
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | K={}; {} | {} | {:.4} [{:.2e}, {:.2e}] | {:.3e} | {} | {:.1} |\n",
            r.threshold.as_deref().unwrap_or("(algorithm's own)"),
            r.algo,
            r.delta,
            r.verdict,
            r.worst_means.len(),
            shown,
            r.worst_eps.map(|e| format!("{e:.3}")).unwrap_or_else(|| "-".into()),
            r.worst_error_rate,
            r.worst_ci[0],
            r.worst_ci[1],
            r.worst_hardness,
            r.evaluations,
            r.search_seconds,
        ));
    }
    out
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
