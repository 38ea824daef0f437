//! The search's shared state (common random numbers, sample count, trace), successive halving
//! of the screened candidates, and the Nelder–Mead refinement.

use super::config::SearchConfig;
use super::meter::Meter;
use super::report::Stage;
use super::report::TraceRow;
use super::space::{corners, uniform, Candidate};
use crate::audit::delta::{run_batch, AlgoFactory, AuditInstance, Tally};
use crate::error::{Error, Result};
use crate::rng::mix64;
use argmin::core::{CostFunction, Executor};
use argmin::solver::neldermead::NelderMead;
use std::sync::Mutex;

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
    pub(super) meter: Meter,
    pub(super) trace: Mutex<Vec<TraceRow>>,
    /// Screened points drawn uniformly from the space (for the power statement).
    pub(super) uniform_points: Mutex<usize>,
    /// The finished stages.
    pub(super) stages: Mutex<Vec<Stage>>,
    /// Runs done by the search stages.
    pub(super) runs: Mutex<u64>,
}

/// What one batch of runs gave.
pub(super) enum Batch {
    /// The tally.
    Done(Tally),
    /// The algorithm rejects the instance.
    Rejected,
    /// The stage's budget cannot pay for the batch (or the search was interrupted).
    Exhausted,
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
    /// Records the stage that just ended: the samples, evaluations and runs since the previous
    /// stage's end.
    pub(super) fn end_stage(&self, name: &str) {
        let mut st = self.stages.lock().expect("invariant: no poisoning");
        let tr = self.trace.lock().expect("invariant: no poisoning");
        let before: u64 = st.iter().map(|x| x.samples).sum();
        let evals_before: usize = st.iter().map(|x| x.evaluations).sum();
        let runs_before: u64 = st.iter().map(|x| x.runs).sum();
        let evaluations = tr.len() - evals_before;
        let runs = *self.runs.lock().expect("invariant: no poisoning") - runs_before;
        st.push(Stage {
            name: name.into(),
            samples: self.meter.used() - before,
            evaluations,
            runs,
        });
    }

    pub(super) fn audit_instance(&self, c: &Candidate) -> AuditInstance {
        AuditInstance {
            name: format!("K={}", c.means.len()),
            instance: c.instance.clone(),
            delta: c.delta,
            eps: c.eps,
        }
    }

    /// Runs `from..to` (common random numbers) on `c`, each run capped by the stage's budget
    /// ([`Meter::cap`]).
    pub(super) fn run(&self, c: &Candidate, from: u64, to: u64) -> Result<Batch> {
        let Some(cap) = self.meter.cap(to - from, self.cfg.audit.max_steps) else {
            return Ok(Batch::Exhausted);
        };
        let alg = match (self.build)(&self.audit_instance(c)) {
            Ok(a) => a,
            Err(Error::InvalidInstance { .. }) => return Ok(Batch::Rejected),
            Err(e) => return Err(e),
        };
        let best = c.instance.best();
        let t = run_batch(alg.as_ref(), best, self.crn_seed, from..to, cap);
        let drawn = u64::try_from(t.tau_sum_stopped)
            .unwrap_or(u64::MAX)
            .saturating_add(t.unstopped.saturating_mul(cap));
        self.meter.charge(drawn);
        *self.runs.lock().expect("invariant: no poisoning") += t.runs;
        Ok(Batch::Done(t))
    }

    pub(super) fn record(&self, c: &Candidate, t: &Tally, stage: &str) {
        let samples = self.meter.used();
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
            seconds: self.meter.seconds(),
            delta: c.delta,
            family: c.family.clone(),
            shape: c.shape.to_string(),
        });
    }
}

/// Nelder–Mead objective: minus the error frequency over `local_runs` CRN runs, minus a
/// hardness tie-break below one error's weight.
///
/// It never returns an error: argmin's Nelder–Mead unwraps the costs of its initial simplex (a
/// panic when the budget ran out there), so an exhausted budget gives the worst cost without
/// running (the remaining iterations cost nothing), and an error of the algorithm is kept in
/// `failure` and returned after the executor.
struct Objective<'a, 'b> {
    s: &'a Search<'b>,
    best: &'a Mutex<Option<Scored>>,
    failure: &'a Mutex<Option<Error>>,
}

/// The cost of a point that was not evaluated (worse than any evaluated point's).
const UNEVALUATED: f64 = 1.0;

impl CostFunction for Objective<'_, '_> {
    type Param = Point;
    type Output = f64;
    fn cost(&self, p: &Point) -> std::result::Result<f64, argmin::core::Error> {
        let mut failure = self.failure.lock().expect("invariant: no poisoning");
        if failure.is_some() {
            return Ok(UNEVALUATED);
        }
        let x: Vec<f64> = p.0.iter().map(|v| v.clamp(0.0, 1.0)).collect();
        let outcome = self
            .s
            .cfg
            .space
            .decode(&x, self.s.cfg.delta)
            .and_then(|cand| Ok((self.s.run(&cand, 0, self.s.cfg.local_runs)?, cand)));
        let (t, cand) = match outcome {
            Ok((Batch::Done(t), cand)) => (t, cand),
            Ok((Batch::Rejected | Batch::Exhausted, _)) => return Ok(UNEVALUATED),
            Err(e) => {
                *failure = Some(e);
                return Ok(UNEVALUATED);
            }
        };
        drop(failure);
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
            meter: Meter::new(cfg.budget, cfg.stop, cfg.progress.clone()),
            trace: Mutex::new(Vec::new()),
            uniform_points: Mutex::new(0),
            stages: Mutex::new(Vec::new()),
            runs: Mutex::new(0),
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

/// Screening round 0 on the design (the threshold's seeds, the corners, then uniform points up to
/// `screen_candidates`), then successive halving down to the finalists; within the screening
/// share of the budget.
pub(super) fn screen(s: &Search<'_>, seeds: &[Vec<f64>]) -> Result<Vec<Scored>> {
    let cfg = s.cfg;
    let d = cfg.space.dims();
    s.meter.begin_stage(SCREEN_SHARE);
    // The threshold's seeds first (they are specific to it), then the corners.
    let mut design: Vec<(Vec<f64>, bool)> = seeds.iter().map(|x| (x.clone(), false)).collect();
    design.extend(corners(d).into_iter().map(|x| (x, false)));
    let n_uniform = cfg.screen_candidates.saturating_sub(design.len());
    design.extend(
        uniform(n_uniform, d, s.crn_seed)
            .into_iter()
            .map(|x| (x, true)),
    );
    design.truncate(cfg.screen_candidates.max(1));
    // Screening round 0.
    let mut pool: Vec<Scored> = Vec::new();
    let mut exhausted = false;
    for (x, is_uniform) in design {
        let cand = cfg.space.decode(&x, cfg.delta)?;
        match s.run(&cand, 0, cfg.screen_runs)? {
            Batch::Done(t) => {
                s.record(&cand, &t, "screen-0");
                if is_uniform {
                    *s.uniform_points.lock().expect("invariant: no poisoning") += 1;
                }
                pool.push(Scored { x, cand, tally: t });
            }
            Batch::Rejected => {}
            Batch::Exhausted => {
                exhausted = true;
                break;
            }
        }
    }
    if pool.is_empty() {
        // The budget ran out (or Ctrl-C) before any candidate: an empty, partial result.
        if exhausted || s.meter.interrupted() {
            s.end_stage("screening");
            return Ok(pool);
        }
        return Err(Error::param(
            "search space",
            format!("{:?}", cfg.space.family),
            format!("instances {} accepts", cfg.audit.setting.algo.as_str()),
        ));
    }
    // Successive halving.
    let mut round = 0;
    sort(&mut pool);
    'rounds: while pool.len() > cfg.finalists {
        round += 1;
        pool.truncate((pool.len() / 2).max(cfg.finalists));
        let stage = format!("screen-{round}");
        for p in pool.iter_mut() {
            let n = p.tally.runs;
            match s.run(&p.cand, n, 2 * n)? {
                Batch::Done(t) => {
                    p.tally = p.tally.merge(t);
                    s.record(&p.cand, &p.tally, &stage);
                }
                Batch::Rejected => {}
                Batch::Exhausted => {
                    sort(&mut pool);
                    break 'rounds;
                }
            }
        }
        sort(&mut pool);
    }
    pool.truncate(cfg.finalists);
    s.end_stage("screening");
    Ok(pool)
}

/// Shares of what is left of the budget: screening, then Nelder–Mead (of the rest), then the
/// confirmation takes all that remains.
pub(super) const SCREEN_SHARE: f64 = 0.5;
/// See [`SCREEN_SHARE`].
pub(super) const LOCAL_SHARE: f64 = 0.4;

/// Nelder–Mead from the best screened point; the local optimum replaces the weakest finalist
/// if it is worse for the algorithm.
pub(super) fn refine(s: &Search<'_>, pool: &mut [Scored]) -> Result<()> {
    let cfg = s.cfg;
    let d = cfg.space.dims();
    // Nelder–Mead from the best screened point.
    s.meter.begin_stage(LOCAL_SHARE);
    if !pool.is_empty()
        && cfg.local_iters > 0
        && s.meter.cap(cfg.local_runs, cfg.audit.max_steps).is_some()
    {
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
        let failure = Mutex::new(None);
        let obj = Objective {
            s,
            best: &best,
            failure: &failure,
        };
        let solver = NelderMead::new(simplex)
            .with_sd_tolerance(1e-6)
            .map_err(|e| Error::param("nelder-mead", e.to_string(), "valid settings"))?;
        // The costs never fail (Objective docs); the best point seen is kept.
        let _ = Executor::new(obj, solver)
            .configure(|st| st.max_iters(cfg.local_iters))
            .run();
        if let Some(e) = failure.into_inner().expect("invariant: no poisoning") {
            return Err(e);
        }
        if let Some(b) = best.into_inner().expect("invariant: no poisoning") {
            // Replace the weakest finalist if the local optimum is worse for the algorithm.
            let last = pool.len() - 1;
            if b.key() > pool[last].key() && !pool.iter().any(|p| p.cand.means == b.cand.means) {
                pool[last] = b;
                sort(pool);
            }
        }
    }
    s.end_stage("nelder-mead");
    Ok(())
}
