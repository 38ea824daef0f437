//! The search's shared state (common random numbers, sample count, trace), successive halving
//! of the screened candidates, and the Nelder–Mead refinement.

use super::space::{design, Candidate};
use super::{Budget, SearchConfig, TraceRow};
use crate::audit::delta::{run_batch, AlgoFactory, AuditInstance, Tally};
use crate::error::{Error, Result};
use crate::rng::mix64;
use argmin::core::{CostFunction, Executor};
use argmin::solver::neldermead::NelderMead;
use std::sync::Mutex;
use std::time::Instant;

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
pub(super) struct Search<'a> {
    pub(super) cfg: &'a SearchConfig,
    pub(super) build: &'a AlgoFactory<'a>,
    pub(super) crn_seed: u64,
    pub(super) start: Instant,
    pub(super) samples: Mutex<u64>,
    pub(super) trace: Mutex<Vec<TraceRow>>,
}

/// A screened point with its cumulative tally.
#[derive(Clone)]
pub(super) struct Scored {
    pub(super) x: Vec<f64>,
    pub(super) cand: Candidate,
    pub(super) tally: Tally,
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

    pub(super) fn audit_instance(&self, c: &Candidate) -> AuditInstance {
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

    pub(super) fn record(&self, c: &Candidate, t: &Tally, stage: &str) {
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

impl<'a> Search<'a> {
    /// Fresh state: no samples drawn, empty trace, the CRN seed derived from the audit's seed.
    pub(super) fn new(cfg: &'a SearchConfig, build: &'a AlgoFactory<'a>) -> Self {
        Search {
            cfg,
            build,
            crn_seed: mix64(cfg.audit.seed ^ 0x5EA2_C4C2_0000_0017),
            start: Instant::now(),
            samples: Mutex::new(0),
            trace: Mutex::new(Vec::new()),
        }
    }
}

/// Sorts worst-for-the-algorithm first (error frequency, then hardness).
pub(super) fn sort(p: &mut [Scored]) {
    p.sort_by(|a, b| {
        let (ra, ha) = a.key();
        let (rb, hb) = b.key();
        rb.total_cmp(&ra).then(hb.total_cmp(&ha))
    })
}

/// Screening round 0 on the design, then successive halving down to the finalists.
pub(super) fn screen(s: &Search<'_>) -> Result<Vec<Scored>> {
    let cfg = s.cfg;
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
            format!("instances {} accepts", cfg.audit.setting.algo.as_str()),
        ));
    }
    // Successive halving.
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
    Ok(pool)
}

/// Nelder–Mead from the best screened point; the local optimum replaces the weakest finalist
/// if it is worse for the algorithm.
pub(super) fn refine(s: &Search<'_>, pool: &mut [Scored]) -> Result<()> {
    let cfg = s.cfg;
    let d = cfg.space.dims();
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
        let obj = Objective { s, best: &best };
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
                sort(pool);
            }
        }
    }
    Ok(())
}
