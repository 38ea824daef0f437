//! Seeded, parallel, shardable Monte Carlo engine and its summaries.
//!
//! # Reproducibility contract
//! * Run `r` (0-based) draws all its randomness from [`crate::rng::rng_for_run`]`(seed, r)`.
//! * Runs execute in parallel on a rayon pool of `threads` threads; outcomes are collected **by
//!   run index** and every reduction ([`summarize`]) walks them in increasing run order, so the
//!   output is bit-for-bit identical for any thread count.
//! * A shard `i/n` runs the indices `r ≡ i (mod n)` among `0..runs` (round-robin, so shards get
//!   equal shares of early and late runs). Merging the records of the `n` shards and sorting by run
//!   index gives exactly the record list of the unsharded run, hence exactly its summary
//!   ([`merge_records`]).
//!
//! # Unstopped runs
//! A run that reaches `max_steps` without stopping is kept with `stopped = false` and its
//! `τ` = the samples drawn before the cap. The `τ` statistics (`mean_tau`, `std_tau`,
//! `median_tau`, `min_tau`, `max_tau`) are over **all** runs with this capped `τ` (so they
//! under-estimate the true ones when `unstopped > 0`); `median_tau` is the lower median, the
//! same definition as the Kaplan–Meier `censored.km_median`, and equals it whenever that is
//! defined; `mean_tau_stopped` is over the stopped runs
//! only; `unstopped` counts the capped runs.
//!
//! # Errors
//! `errors` counts the runs that **stopped** with a wrong recommendation, the event
//! `{τ < ∞, â ≠ a*}` of δ-correctness (READINGS.md §E.2); `error_rate = errors / runs` and `error_ci`
//! is its exact two-sided 95% Clopper–Pearson interval. Counting a capped run as "no error" is
//! optimistic when the cap may have cut a run that would later stop wrongly, so the summary also
//! gives `error_ci_worst_case`, the interval for `(errors + unstopped) / runs`.
//!
//! # Censoring
//! `censored` ([`CensoredStats`], module [`censored`]) treats the capped runs as right-censored
//! observations: Kaplan–Meier median and quartiles (`null` where the curve does not fall that
//! far: "> cap"), the mean with capped runs at the cap flagged as a lower bound, and a 95%
//! Student-t interval of the mean only when no run is capped. Reports should use these rather
//! than `mean_tau_stopped`.
//!
//! The metadata of a summary, the shard files of `dpbai run --shard` and their merge are the
//! experiment layer's ([`crate::experiment::meta`], [`crate::experiment::shard`]).

pub mod censored;
pub mod compare;

pub use censored::CensoredStats;
pub use compare::{ADAPTT_COUNTER, FactorRange, Moments, RatioComparison, compare_means};

use crate::bandit::{BaiAlgorithm, RunOutcome};
use crate::error::{Error, Result};
use crate::rng::rng_for_run;
use crate::stats::{self, Observation};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// A slice `index/count` of the run indices: run `r` belongs to it iff `r mod count == index`.
/// Read from a file, it is checked as [`Shard::new`] checks it (`count >= 1`, `index < count`),
/// so that no file can make a shard with `count = 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ShardFields")]
pub struct Shard {
    /// `i`, in `0..count`.
    pub index: u64,
    /// `n >= 1`, the number of shards.
    pub count: u64,
}

/// The fields of a [`Shard`] as a file holds them, before [`Shard::new`] checks them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShardFields {
    index: u64,
    count: u64,
}

impl TryFrom<ShardFields> for Shard {
    type Error = Error;
    fn try_from(f: ShardFields) -> Result<Self> {
        Shard::new(f.index, f.count)
    }
}

impl Shard {
    /// Validates `index < count`, `count >= 1`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] otherwise.
    pub fn new(index: u64, count: u64) -> Result<Self> {
        if count == 0 {
            return Err(Error::param("shard count", count, "at least 1"));
        }
        if index >= count {
            return Err(Error::param(
                "shard index",
                index,
                format!("in 0..{count} (0-based, i/n with i < n)"),
            ));
        }
        Ok(Shard { index, count })
    }

    /// Parses `"i/n"` (0-based `i`, e.g. `0/3`, `1/3`, `2/3`).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for anything else.
    pub fn parse(s: &str) -> Result<Self> {
        let bad = || Error::param("shard", s, "of the form i/n with integers 0 <= i < n");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let i: u64 = i.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        Shard::new(i, n).map_err(|_| bad())
    }

    /// Whether run `r` belongs to this shard.
    pub fn contains(&self, r: u64) -> bool {
        r % self.count == self.index
    }

    /// The run indices of this shard among `0..runs`, increasing.
    pub fn runs(&self, runs: u64) -> impl Iterator<Item = u64> + '_ {
        (self.index..runs).step_by(self.count as usize)
    }
}

/// The outcome of run `run`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Run index `r` (0-based; its generator is `rng_for_run(seed, r)`).
    pub run: u64,
    /// The algorithm's outcome (recommendation 0-based).
    #[serde(flatten)]
    pub outcome: RunOutcome,
}

/// What to simulate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EngineConfig {
    /// Master seed.
    pub seed: u64,
    /// Total number of runs (before sharding), `>= 1`.
    pub runs: u64,
    /// Worker threads, `>= 1`.
    pub threads: usize,
    /// Cap on `τ` per run (`u64::MAX`: no cap).
    pub max_steps: u64,
    /// Run only this slice of the indices.
    pub shard: Option<Shard>,
}

impl EngineConfig {
    /// A configuration with one thread, no cap and no shard.
    pub fn new(seed: u64, runs: u64) -> Self {
        EngineConfig {
            seed,
            runs,
            threads: 1,
            max_steps: u64::MAX,
            shard: None,
        }
    }

    /// How many runs this configuration simulates (without listing them).
    pub fn count(&self) -> u64 {
        match self.shard {
            None => self.runs,
            Some(s) if self.runs > s.index => (self.runs - s.index - 1) / s.count + 1,
            Some(_) => 0,
        }
    }

    /// The run indices this configuration simulates, increasing.
    pub fn indices(&self) -> Vec<u64> {
        match self.shard {
            None => (0..self.runs).collect(),
            Some(s) => s.runs(self.runs).collect(),
        }
    }
}

/// Runs `algo` over the configured run indices in parallel; returns the records in increasing
/// run order. `on_run_done` is called once per finished run (from worker threads), e.g. to
/// advance a progress bar; the library itself does no I/O.
///
/// # Errors
/// [`Error::InvalidParameter`] if `runs = 0`, `threads = 0` or `max_steps = 0`; an error of
/// the thread-pool builder is reported as [`Error::InvalidParameter`] on `threads`.
pub fn simulate(
    algo: &dyn BaiAlgorithm,
    cfg: &EngineConfig,
    on_run_done: &(dyn Fn() + Sync),
) -> Result<Vec<RunRecord>> {
    let _untracked = crate::fault::untracked();
    if cfg.runs == 0 {
        return Err(Error::param("runs", 0, "at least 1"));
    }
    if cfg.threads == 0 {
        return Err(Error::param("threads", 0, "at least 1"));
    }
    if cfg.max_steps == 0 {
        return Err(Error::param("max-steps", 0, "at least 1"));
    }
    crate::params::limits::check_runs("runs", cfg.count())?;
    crate::params::limits::check_threads(cfg.threads)?;
    let indices = cfg.indices();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .map_err(|e| Error::param("threads", cfg.threads, format!("a usable pool size ({e})")))?;
    let records =
        pool.install(|| simulate_runs(algo, cfg.seed, cfg.max_steps, &indices, on_run_done));
    Ok(records)
}

/// Runs `algo` on the run indices `indices` on the **current** rayon pool (the global one, or
/// the pool of an enclosing `install`) and returns their records in the order of `indices`.
/// Run `r` draws from `rng_for_run(seed, r)`, so simulating `0..runs` in consecutive batches
/// gives exactly the records of one [`simulate`] call: this is how a caller interleaves work
/// between batches (the Python bindings check for Ctrl-C there).
///
/// # Example
/// ```
/// use dpbai::bandit::{build, AlgoName, AlgoSpec, Setting};
/// use dpbai::instance::Instance;
/// use dpbai::mc::{simulate, simulate_runs, EngineConfig};
/// let nu = Instance::bernoulli(vec![0.9, 0.5]).unwrap();
/// let alg = build(&AlgoSpec::new(Setting::paper(AlgoName::Ttucb, 0.1).unwrap()), &nu).unwrap();
/// let whole = simulate(alg.as_ref(), &EngineConfig::new(3, 6), &|| {}).unwrap();
/// let mut parts = simulate_runs(alg.as_ref(), 3, u64::MAX, &[0, 1, 2], &|| {});
/// parts.extend(simulate_runs(alg.as_ref(), 3, u64::MAX, &[3, 4, 5], &|| {}));
/// assert_eq!(whole, parts);
/// ```
pub fn simulate_runs(
    algo: &dyn BaiAlgorithm,
    seed: u64,
    max_steps: u64,
    indices: &[u64],
    on_run_done: &(dyn Fn() + Sync),
) -> Vec<RunRecord> {
    let _untracked = crate::fault::untracked();
    indices
        .par_iter()
        .map(|&r| {
            let mut rng = rng_for_run(seed, r);
            let outcome = algo.run(&mut rng, max_steps);
            on_run_done();
            RunRecord { run: r, outcome }
        })
        .collect()
}

/// Combines the records of the shards of one experiment into the record list of the unsharded
/// run (sorted by run index) and checks that it covers `0..runs` exactly once.
///
/// # Errors
/// [`Error::InvalidParameter`] naming the first missing or duplicated run index.
pub fn merge_records(parts: Vec<Vec<RunRecord>>, runs: u64) -> Result<Vec<RunRecord>> {
    let mut all: Vec<RunRecord> = parts.into_iter().flatten().collect();
    all.sort_by_key(|r| r.run);
    for (i, rec) in all.iter().enumerate() {
        let want = i as u64;
        if rec.run != want {
            return Err(if rec.run < want {
                Error::param("run", rec.run, "present in exactly one shard (duplicated)")
            } else {
                Error::param("run", want, "present in one of the shards (missing)")
            });
        }
    }
    if all.len() as u64 != runs {
        return Err(Error::param(
            "run",
            all.len(),
            format!("present in one of the shards (missing; {runs} runs expected)"),
        ));
    }
    Ok(all)
}

/// Summary of a list of runs (see the module docs for how unstopped runs and errors count).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Runs summarised (JSON `summarised_runs`; equals `runs` except for a one-shard summary).
    #[serde(rename = "summarised_runs")]
    pub runs: u64,
    /// Mean of `τ` over all runs (capped `τ` for unstopped runs).
    pub mean_tau: f64,
    /// Sample standard deviation (`n − 1`) of `τ` over all runs; `None` for one run.
    pub std_tau: Option<f64>,
    /// Median of `τ` over all runs: the lower median `τ_(⌈n/2⌉)` ([`stats::lower_median`]), the
    /// convention of the Kaplan–Meier median `censored.km_median`, so that the two are equal
    /// whenever `km_median` is defined (capped runs sit at the cap, above every stopped run).
    /// When more than half the runs are capped, `km_median` is `None` ("> cap") and this is the
    /// cap.
    pub median_tau: f64,
    /// Smallest `τ`.
    pub min_tau: u64,
    /// Largest `τ`.
    pub max_tau: u64,
    /// Mean of `τ` over the stopped runs (`None` if none stopped).
    pub mean_tau_stopped: Option<f64>,
    /// Sum of `τ` over all runs (samples drawn).
    pub total_samples: u64,
    /// Stopped runs with a wrong recommendation (event `τ < ∞, â ≠ a*`).
    pub errors: u64,
    /// `errors / runs`.
    pub error_rate: f64,
    /// Exact two-sided 95% Clopper–Pearson interval of the error probability.
    pub error_ci: [f64; 2],
    /// Same interval counting every unstopped run as an error (conservative).
    pub error_ci_worst_case: [f64; 2],
    /// Runs capped by `max_steps`.
    pub unstopped: u64,
    /// Unstopped runs whose recommendation at the cap is wrong.
    pub unstopped_wrong: u64,
    /// Mean number of rounds of adaptivity over the runs that report it (`None` if none do).
    pub mean_rounds: Option<f64>,
    /// Censoring-aware statistics of `τ` (capped runs as right-censored observations):
    /// Kaplan–Meier median and quartiles, the mean as a lower bound when runs are capped, and
    /// its 95% interval when none is (JSON object `censored`).
    pub censored: CensoredStats,
}

impl Moments {
    /// Moments of the stopping times of a Monte Carlo summary, refused when runs were capped
    /// (their mean is then only a lower bound, [`CensoredStats`]).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] when `unstopped > 0`, fewer than 2 runs, or a mean `≤ 0`.
    ///
    /// # Example
    /// ```
    /// use dpbai::bandit::RunOutcome;
    /// use dpbai::mc::{compare::Moments, summarize, RunRecord};
    /// let rec = |run, tau, stopped| RunRecord {
    ///     run,
    ///     outcome: RunOutcome { tau, recommendation: 0, stopped, rounds: None },
    /// };
    /// let s = summarize(&[rec(0, 10, true), rec(1, 30, true)], 0).unwrap();
    /// assert_eq!(Moments::from_summary(&s).unwrap().mean, 20.0);
    /// let s = summarize(&[rec(0, 10, true), rec(1, 30, false)], 0).unwrap();
    /// assert!(Moments::from_summary(&s).is_err());
    /// ```
    pub fn from_summary(s: &Summary) -> Result<Self> {
        if s.unstopped > 0 {
            return Err(Error::param(
                "capped runs",
                s.unstopped,
                "0 (with capped runs the mean is only a lower bound)",
            ));
        }
        let std = s
            .std_tau
            .ok_or_else(|| Error::param("runs", s.runs, "at least 2"))?;
        Moments::new(s.mean_tau, std, s.runs)
    }
}

/// Confidence level of `error_ci`: `1 − ERROR_CI_ALPHA = 95%`.
pub const ERROR_CI_ALPHA: f64 = 0.05;

/// Default cap on the samples of one run (`dpbai run --max-steps`, a study's `max-steps`, the
/// Python `run(max_steps=None)`); a run that reaches it is censored.
pub const DEFAULT_MAX_STEPS: u64 = 100_000_000;

/// Summarises `records` (in the given order, which must be the run order for reproducibility)
/// for an instance whose best arm is `best` (0-based).
///
/// # Definition
/// See the module docs and the fields of [`Summary`].
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty list.
///
/// # Example
/// ```
/// use dpbai::bandit::RunOutcome;
/// use dpbai::mc::{summarize, RunRecord};
/// let rec = |run, tau, arm, stopped| RunRecord {
///     run,
///     outcome: RunOutcome { tau, recommendation: arm, stopped, rounds: None },
/// };
/// let s = summarize(&[rec(0, 10, 0, true), rec(1, 30, 1, true), rec(2, 50, 0, false)], 0).unwrap();
/// assert_eq!((s.mean_tau, s.median_tau, s.errors, s.unstopped), (30.0, 30.0, 1, 1));
/// assert_eq!(s.mean_tau_stopped, Some(20.0));
/// ```
pub fn summarize(records: &[RunRecord], best: usize) -> Result<Summary> {
    if records.is_empty() {
        return Err(Error::param("runs", 0, "at least 1"));
    }
    let n = records.len() as u64;
    let taus: Vec<f64> = records.iter().map(|r| r.outcome.tau as f64).collect();
    let total: u128 = records.iter().map(|r| r.outcome.tau as u128).sum();
    let stopped: Vec<&RunRecord> = records.iter().filter(|r| r.outcome.stopped).collect();
    let stopped_total: u128 = stopped.iter().map(|r| r.outcome.tau as u128).sum();
    let errors = stopped
        .iter()
        .filter(|r| r.outcome.recommendation != best)
        .count() as u64;
    let unstopped = n - stopped.len() as u64;
    let unstopped_wrong = records
        .iter()
        .filter(|r| !r.outcome.stopped && r.outcome.recommendation != best)
        .count() as u64;
    let rounds: Vec<f64> = records
        .iter()
        .filter_map(|r| r.outcome.rounds.map(|x| x as f64))
        .collect();
    let (lo, hi) = stats::clopper_pearson(errors, n, ERROR_CI_ALPHA)?;
    let (wlo, whi) = stats::clopper_pearson(errors + unstopped, n, ERROR_CI_ALPHA)?;
    Ok(Summary {
        runs: n,
        mean_tau: (total as f64) / n as f64,
        std_tau: if n >= 2 {
            Some(stats::sample_std(&taus)?)
        } else {
            None
        },
        median_tau: stats::lower_median(&taus)?,
        min_tau: records.iter().map(|r| r.outcome.tau).min().unwrap_or(0),
        max_tau: records.iter().map(|r| r.outcome.tau).max().unwrap_or(0),
        mean_tau_stopped: if stopped.is_empty() {
            None
        } else {
            Some(stopped_total as f64 / stopped.len() as f64)
        },
        total_samples: u64::try_from(total).unwrap_or(u64::MAX),
        errors,
        error_rate: errors as f64 / n as f64,
        error_ci: [lo, hi],
        error_ci_worst_case: [wlo, whi],
        unstopped,
        unstopped_wrong,
        mean_rounds: if rounds.is_empty() {
            None
        } else {
            Some(stats::mean(&rounds)?)
        },
        censored: CensoredStats::from_observations(&observations(records))?,
    })
}

/// The records as stopping-time observations (`stopped = false`: censored at `τ`).
pub fn observations(records: &[RunRecord]) -> Vec<Observation> {
    records
        .iter()
        .map(|r| Observation {
            time: r.outcome.tau,
            stopped: r.outcome.stopped,
        })
        .collect()
}

/// Checks that `records` are possible outcomes of runs on `k` arms capped at `max_steps`:
/// `τ <= max_steps`, recommendation `< k`, and an unstopped run has `τ = max_steps` (a run is
/// only cut by the cap).
///
/// # Errors
/// [`Error::InvalidParameter`] naming the first impossible record.
pub fn check_records(records: &[RunRecord], k: usize, max_steps: u64) -> Result<()> {
    for r in records {
        let o = &r.outcome;
        if o.tau > max_steps {
            return Err(Error::param(
                format!("tau of run {}", r.run),
                o.tau,
                format!("at most max_steps = {max_steps}"),
            ));
        }
        if o.recommendation >= k {
            return Err(Error::param(
                format!("recommendation of run {}", r.run),
                o.recommendation + 1,
                format!("an arm in 1..={k}"),
            ));
        }
        if !o.stopped && o.tau < max_steps {
            return Err(Error::param(
                format!("tau of unstopped run {}", r.run),
                o.tau,
                format!("equal to the cap {max_steps} (a run is only cut by the cap)"),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parse_and_slices() {
        assert_eq!(
            Shard::parse("1/3").expect("ok"),
            Shard { index: 1, count: 3 }
        );
        for bad in ["3/3", "1/0", "a/3", "1", "-1/3", "1/3/4", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let s = Shard::new(1, 3).expect("ok");
        assert_eq!(s.runs(8).collect::<Vec<_>>(), vec![1, 4, 7]);
        assert!(s.contains(4) && !s.contains(5));
    }

    #[test]
    fn merge_detects_gaps_and_duplicates() {
        let rec = |run| RunRecord {
            run,
            outcome: RunOutcome {
                tau: 1,
                recommendation: 0,
                stopped: true,
                rounds: None,
            },
        };
        assert!(merge_records(vec![vec![rec(0), rec(2)], vec![rec(1)]], 3).is_ok());
        assert!(merge_records(vec![vec![rec(0), rec(2)]], 3).is_err());
        assert!(merge_records(vec![vec![rec(0), rec(1)], vec![rec(1)]], 2).is_err());
        assert!(merge_records(vec![vec![rec(0), rec(1)]], 3).is_err());
    }

    /// `median_tau` and `censored.km_median` are one definition (the lower median): equal on
    /// uncapped runs of even and odd count (where the midpoint convention would differ), equal
    /// with up to half the runs capped, and `median_tau` = the cap when `km_median` is
    /// undefined.
    #[test]
    fn the_two_medians_agree() {
        let rec = |run: u64, tau: u64, stopped: bool| RunRecord {
            run,
            outcome: RunOutcome {
                tau,
                recommendation: 0,
                stopped,
                rounds: None,
            },
        };
        let cases: [(&[u64], usize, Option<u64>); 5] = [
            (&[133_396, 147_834, 90_000, 200_000], 0, Some(133_396)),
            (&[7, 3, 5], 0, Some(5)),
            (&[10, 20, 30, 40, 50, 60], 2, Some(30)),
            (&[10, 20, 30, 40], 2, Some(20)),
            (&[10, 20, 30, 40], 3, None),
        ];
        for (taus, capped, km) in cases {
            let cap = taus.iter().copied().max().expect("non-empty");
            let recs: Vec<RunRecord> = taus
                .iter()
                .enumerate()
                .map(|(i, &t)| {
                    // The `capped` largest runs are capped, at the cap.
                    let mut order: Vec<u64> = taus.to_vec();
                    order.sort_unstable();
                    let is_capped = order[taus.len() - capped..].contains(&t);
                    rec(i as u64, if is_capped { cap } else { t }, !is_capped)
                })
                .collect();
            let s = summarize(&recs, 0).expect("valid");
            assert_eq!(s.censored.km_median, km, "{taus:?}, {capped} capped");
            match km {
                Some(m) => assert_eq!(s.median_tau, m as f64, "{taus:?}"),
                None => assert_eq!(s.median_tau, cap as f64, "{taus:?}"),
            }
        }
    }
}
