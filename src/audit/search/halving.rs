//! The search's shared state (common random numbers, sample count, trace), successive halving
//! of the screened candidates, and the Nelder–Mead refinement.

use super::config::SearchConfig;
use super::meter::{LOCAL_SHARE, MIN_CAP, Meter, SCREEN_SHARE};
use super::rank::{Evidence, Outlook, score};
use super::report::Stage;
use super::report::TraceRow;
use super::space::{Candidate, corners, uniform};
use crate::audit::delta::{AlgoFactory, AuditInstance, Tally};
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
    /// What the ranking knows of the confirmation.
    pub(super) outlook: Outlook,
}

/// What one batch of runs gave.
pub(super) enum Batch {
    /// The tally and the samples drawn.
    Done(Tally, u64),
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
    /// Samples drawn by its runs.
    pub(super) samples: u64,
}

impl Scored {
    pub(super) fn evidence(&self) -> Evidence<'_> {
        Evidence {
            tally: &self.tally,
            samples: self.samples,
            hardness: self.cand.hardness,
            k: self.cand.means.len(),
            delta: self.cand.delta,
        }
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
    /// ([`Meter::cap`]) and by the batch's own share `limit` of it (in samples; a run gets at
    /// least the meter's smallest cap).
    pub(super) fn run(&self, c: &Candidate, from: u64, to: u64, limit: f64) -> Result<Batch> {
        let Some(cap) = self.meter.cap(to - from, self.cfg.audit.max_steps) else {
            return Ok(Batch::Exhausted);
        };
        let share = (limit / (to - from) as f64).floor();
        let cap = if share.is_finite() {
            cap.min((share.max(0.0) as u64).max(MIN_CAP))
        } else {
            cap
        };
        let alg = match (self.build)(&self.audit_instance(c)) {
            Ok(a) => a,
            Err(Error::InvalidInstance { .. }) => return Ok(Batch::Rejected),
            Err(e) => return Err(e),
        };
        let (t, drawn) = self.meter.run_batch(
            alg.as_ref(),
            c.instance.best(),
            self.crn_seed,
            from..to,
            cap,
        );
        *self.runs.lock().expect("invariant: no poisoning") += t.runs;
        Ok(Batch::Done(t, drawn))
    }

    /// The confirmation allowance of one finalist the ranking assumes ([`Outlook`]).
    pub(super) fn allowance(&self) -> f64 {
        self.outlook.allowance(&self.meter)
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

/// Nelder–Mead objective: minus the score ([`score`]) of `local_runs` CRN runs.
///
/// It never returns an error: argmin's Nelder–Mead unwraps the costs of its initial simplex (a
/// panic when the budget ran out there), so an exhausted budget gives the worst cost without
/// running (the remaining iterations cost nothing), and an error of the algorithm is kept in
/// `failure` and returned after the executor.
struct Objective<'a, 'b> {
    s: &'a Search<'b>,
    best: &'a Mutex<Option<(f64, Scored)>>,
    failure: &'a Mutex<Option<Error>>,
    /// Samples one evaluation may draw at most.
    limit: f64,
}

/// The cost of a point that was not evaluated (worse than any evaluated point's).
const UNEVALUATED: f64 = 8.0;

impl CostFunction for Objective<'_, '_> {
    type Param = Point;
    type Output = f64;
    fn cost(&self, p: &Point) -> std::result::Result<f64, argmin::core::Error> {
        let mut failure = self.failure.lock().expect("invariant: no poisoning");
        if failure.is_some() {
            return Ok(UNEVALUATED);
        }
        let x: Vec<f64> = p.0.iter().map(|v| v.clamp(0.0, 1.0)).collect();
        let s = self.s;
        let outcome = s
            .cfg
            .space
            .decode(&x, s.cfg.delta)
            .and_then(|cand| Ok((s.run(&cand, 0, s.cfg.local_runs, self.limit)?, cand)));
        let (t, drawn, cand) = match outcome {
            Ok((Batch::Done(t, drawn), cand)) => (t, drawn, cand),
            Ok((Batch::Rejected | Batch::Exhausted, _)) => return Ok(UNEVALUATED),
            Err(e) => {
                *failure = Some(e);
                return Ok(UNEVALUATED);
            }
        };
        drop(failure);
        s.record(&cand, &t, "nelder-mead");
        let sc = Scored {
            x,
            cand,
            tally: t,
            samples: drawn,
        };
        let value = score(&s.outlook, &sc.evidence(), s.allowance());
        let mut b = self.best.lock().expect("invariant: no poisoning");
        if b.as_ref().is_none_or(|(o, _)| value > *o) {
            *b = Some((value, sc));
        }
        Ok(-value)
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
            outlook: Outlook::new(cfg),
        }
    }
}

/// Sorts the most promising first, by [`score`] (a stable sort: ties keep the design's order).
pub(super) fn sort(s: &Search<'_>, p: &mut [Scored]) {
    let allowance = s.allowance();
    let mut keyed: Vec<(f64, Scored)> = p
        .iter()
        .map(|q| (score(&s.outlook, &q.evidence(), allowance), q.clone()))
        .collect();
    keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (slot, (_, q)) in p.iter_mut().zip(keyed) {
        *slot = q;
    }
}

/// The screening design: the threshold's seeds (specific to it), the corners, then uniform
/// points up to `screen_candidates`, each instance once (`true` marks a uniform point).
fn design(s: &Search<'_>, seeds: &[Vec<f64>]) -> Result<Vec<(Vec<f64>, Candidate, bool)>> {
    let cfg = s.cfg;
    let d = cfg.space.dims();
    let mut points: Vec<(Vec<f64>, bool)> = seeds.iter().map(|x| (x.clone(), false)).collect();
    points.extend(corners(&cfg.space).into_iter().map(|x| (x, false)));
    let n_uniform = cfg.screen_candidates.saturating_sub(points.len());
    points.extend(
        uniform(n_uniform, d, s.crn_seed)
            .into_iter()
            .map(|x| (x, true)),
    );
    let mut out: Vec<(Vec<f64>, Candidate, bool)> = Vec::new();
    for (x, is_uniform) in points {
        let cand = cfg.space.decode(&x, cfg.delta)?;
        if !out.iter().any(|(_, c, _)| c == &cand) {
            out.push((x, cand, is_uniform));
        }
        if out.len() == cfg.screen_candidates.max(1) {
            break;
        }
    }
    Ok(out)
}

/// Screening round 0 on the design, then successive halving down to the finalists, within the
/// screening share of the budget. No instance takes more than its share: in round 0 each of
/// the `N` candidates draws at most `1/(2N)` of the screening allowance, and in each halving
/// round each survivor at most its share of half of what is left (the last round: of all of
/// it). Returns every screened candidate, the finalists first (then the others, the latest
/// eliminated first: the reserve that replaces an unaffordable finalist).
pub(super) fn screen(s: &Search<'_>, seeds: &[Vec<f64>]) -> Result<Vec<Scored>> {
    let cfg = s.cfg;
    let allowance = s.meter.begin_stage(SCREEN_SHARE);
    let design = design(s, seeds)?;
    let n = design.len().max(1) as f64;
    let mut pool: Vec<Scored> = Vec::new();
    let mut exhausted = false;
    for (i, (x, cand, is_uniform)) in design.into_iter().enumerate() {
        // Round 0: each candidate's share of the stage's samples (for a budget in seconds, of
        // what is left at the rate measured so far, shared by the candidates still to screen).
        let limit = match cfg.budget {
            super::config::Budget::Samples(_) => allowance / (2.0 * n),
            super::config::Budget::Seconds(_) => s.meter.stage_left() / (2.0 * (n - i as f64)),
        };
        match s.run(&cand, 0, cfg.screen_runs, limit)? {
            Batch::Done(t, drawn) => {
                s.record(&cand, &t, "screen-0");
                if is_uniform {
                    *s.uniform_points.lock().expect("invariant: no poisoning") += 1;
                }
                pool.push(Scored {
                    x,
                    cand,
                    tally: t,
                    samples: drawn,
                });
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
    // Successive halving; the eliminated are kept, the latest first.
    let mut reserve: Vec<Scored> = Vec::new();
    let mut round = 0;
    sort(s, &mut pool);
    'rounds: while pool.len() > cfg.finalists {
        round += 1;
        let keep = (pool.len() / 2).max(cfg.finalists);
        let mut out = pool.split_off(keep);
        out.append(&mut reserve);
        reserve = out;
        // The last round (no other after it) may use all that is left.
        let last = pool.len() <= cfg.finalists;
        let limit = s.meter.stage_left() * if last { 1.0 } else { 0.5 } / pool.len() as f64;
        let stage = format!("screen-{round}");
        for p in pool.iter_mut() {
            let n = p.tally.runs;
            match s.run(&p.cand, n, 2 * n, limit)? {
                Batch::Done(t, drawn) => {
                    p.tally = p.tally.merge(t);
                    p.samples = p.samples.saturating_add(drawn);
                    s.record(&p.cand, &p.tally, &stage);
                }
                Batch::Rejected => {}
                Batch::Exhausted => break 'rounds,
            }
        }
        sort(s, &mut pool);
    }
    // The finalists, then the others (a cut-short round's extra survivors and the reserve).
    sort(s, &mut pool);
    let mut others = pool.split_off(cfg.finalists.min(pool.len()));
    others.append(&mut reserve);
    sort(s, &mut others);
    pool.append(&mut others);
    s.end_stage("screening");
    Ok(pool)
}

/// Nelder–Mead from the best screened point; the local optimum replaces the weakest finalist
/// if it scores higher (the replaced one goes first in the reserve). Each evaluation draws
/// at most `1/(d + 2)` of the stage's allowance (the initial simplex has `d + 1` points).
pub(super) fn refine(s: &Search<'_>, pool: &mut Vec<Scored>) -> Result<()> {
    let cfg = s.cfg;
    let d = cfg.space.dims();
    let allowance = s.meter.begin_stage(LOCAL_SHARE);
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
            limit: allowance / (d + 2) as f64,
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
        if let Some((best_score, b)) = best.into_inner().expect("invariant: no poisoning") {
            let m = cfg.finalists.min(pool.len());
            let allowance = s.allowance();
            let weakest = score(&s.outlook, &pool[m - 1].evidence(), allowance);
            if best_score > weakest && !pool.iter().any(|p| p.cand == b.cand) {
                // The displaced finalist heads the reserve.
                pool.insert(m - 1, b);
                sort(s, &mut pool[..m]);
            }
        }
    }
    s.end_stage("nelder-mead");
    Ok(())
}
