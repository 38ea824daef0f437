//! The sample budget of one search stage: every batch of runs is sized so that the stage never
//! draws more samples than its share (each run's step cap is the stage's remaining samples
//! divided by the batch's runs), and an interruption flag ends a stage between batches.

use super::config::Budget;
use crate::audit::delta::Tally;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Shares of what is left of the budget: screening, then Nelder–Mead (of the rest), then the
/// confirmation takes all that remains.
pub(super) const SCREEN_SHARE: f64 = 0.5;
/// See [`SCREEN_SHARE`].
pub(super) const LOCAL_SHARE: f64 = 0.4;

/// Smallest per-run step cap worth a batch (below it the stage is over).
pub(super) const MIN_CAP: u64 = 64;

/// The meter shared by the stages of one search.
pub(crate) struct Meter {
    budget: Budget,
    start: Instant,
    /// Samples drawn so far (all stages).
    used: Mutex<u64>,
    /// Upper end of the current stage, in samples (or, for a budget in seconds, the stage's
    /// deadline in seconds since the start).
    stage_end: Mutex<f64>,
    stop: Option<&'static AtomicBool>,
    /// Given the samples drawn so far after every charge (a progress display's).
    progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
}

impl Meter {
    pub(crate) fn new(
        budget: Budget,
        stop: Option<&'static AtomicBool>,
        progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
    ) -> Self {
        Meter {
            budget,
            start: Instant::now(),
            used: Mutex::new(0),
            stage_end: Mutex::new(0.0),
            stop,
            progress,
        }
    }

    /// Samples drawn so far.
    pub(crate) fn used(&self) -> u64 {
        *self.used.lock().expect("invariant: no poisoning")
    }

    /// Seconds since the start.
    pub(crate) fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Whether the search was interrupted (Ctrl-C).
    pub(crate) fn interrupted(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Starts a stage that may use the fraction `share` of what is left of the budget; returns
    /// the stage's allowance in samples ([`Meter::stage_left`]: for a budget in seconds, at the
    /// rate measured so far, unbounded before any rate).
    pub(crate) fn begin_stage(&self, share: f64) -> f64 {
        {
            let mut end = self.stage_end.lock().expect("invariant: no poisoning");
            match self.budget {
                Budget::Samples(n) => {
                    let used = self.used() as f64;
                    let left = (n as f64 - used).max(0.0);
                    *end = used + (share * left).floor();
                }
                Budget::Seconds(s) => {
                    let now = self.seconds();
                    let left = (s - now).max(0.0);
                    *end = now + share * left;
                }
            }
        }
        self.stage_left()
    }

    /// The per-run step cap for a batch of `runs` runs (at most `max_steps`), or `None` when
    /// the stage's allowance cannot pay for it (or the search was interrupted).
    pub(crate) fn cap(&self, runs: u64, max_steps: u64) -> Option<u64> {
        if self.interrupted() || runs == 0 {
            return None;
        }
        let end = *self.stage_end.lock().expect("invariant: no poisoning");
        let left = match self.budget {
            Budget::Samples(_) => end - self.used() as f64,
            Budget::Seconds(_) => {
                let secs = end - self.seconds();
                let used = self.used() as f64;
                if secs <= 0.0 {
                    0.0
                } else if used > 0.0 {
                    // Samples per second so far.
                    secs * used / self.seconds().max(1e-3)
                } else {
                    // No rate yet: a first batch of runs capped at MIN_CAP measures it
                    // (exactly MIN_CAP·runs, not a product through `secs` that can round
                    // below it and refuse the batch).
                    (MIN_CAP * runs) as f64
                }
            }
        };
        if left.is_nan() || left <= 0.0 {
            return None;
        }
        let cap = ((left / runs as f64).floor() as u64).min(max_steps);
        (cap >= MIN_CAP.min(max_steps)).then_some(cap)
    }

    /// The samples the confirmation stage can expect: what is left of the budget after the
    /// Nelder–Mead share of it (for a budget in seconds, at the rate measured so far;
    /// unbounded before any rate). A search stage that spends less than its share leaves the
    /// rest to the confirmation, so this is the estimate at the end of the screening.
    pub(crate) fn projected_confirmation(&self) -> f64 {
        let share = 1.0 - LOCAL_SHARE;
        let used = self.used() as f64;
        match self.budget {
            Budget::Samples(n) => share * (n as f64 - used).max(0.0),
            Budget::Seconds(s) => {
                let secs = self.seconds();
                if used > 0.0 && secs > 0.0 {
                    share * (s - secs).max(0.0) * used / secs
                } else {
                    f64::INFINITY
                }
            }
        }
    }

    /// The samples the current stage has left (for a budget in seconds, at the rate measured
    /// so far; unbounded before any rate).
    pub(crate) fn stage_left(&self) -> f64 {
        let end = *self.stage_end.lock().expect("invariant: no poisoning");
        match self.budget {
            Budget::Samples(_) => (end - self.used() as f64).max(0.0),
            Budget::Seconds(_) => {
                let (used, secs) = (self.used() as f64, self.seconds());
                if used > 0.0 && secs > 0.0 {
                    ((end - secs) * used / secs).max(0.0)
                } else {
                    f64::INFINITY
                }
            }
        }
    }

    /// Runs `range` of `alg` (common random numbers from `seed`) with the step cap `cap` and
    /// records the samples drawn (capped runs counted at the cap); returns the tally and them.
    pub(crate) fn run_batch(
        &self,
        alg: &dyn crate::bandit::BaiAlgorithm,
        best: usize,
        seed: u64,
        range: std::ops::Range<u64>,
        cap: u64,
    ) -> (Tally, u64) {
        let t = crate::audit::delta::run_batch(alg, best, seed, range, cap);
        let drawn = u64::try_from(t.tau_sum_stopped)
            .unwrap_or(u64::MAX)
            .saturating_add(t.unstopped.saturating_mul(cap));
        self.charge(drawn);
        (t, drawn)
    }

    /// Records `drawn` samples.
    pub(crate) fn charge(&self, drawn: u64) {
        let mut u = self.used.lock().expect("invariant: no poisoning");
        *u = u.saturating_add(drawn);
        if let Some(p) = &self.progress {
            p.store(*u, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A budget in seconds pays for a first batch before any rate is measured, at any time
    /// left (the product `secs · MIN_CAP·runs / secs` used to round below `MIN_CAP·runs` for
    /// some `secs` and refuse every batch: a search of 0 evaluations).
    #[test]
    fn a_budget_in_seconds_pays_for_the_first_batch() {
        for s in [0.3, 3.0, 7.0, 30.0, 77.7, 604_800.0] {
            let m = Meter::new(Budget::Seconds(s), None, None);
            m.begin_stage(0.5);
            for runs in [1, 3, 16, 32, 100, 1000] {
                assert_eq!(m.cap(runs, 1_000_000), Some(MIN_CAP), "{s} s, {runs} runs");
            }
        }
        // Nothing left: no batch.
        let m = Meter::new(Budget::Seconds(1e-9), None, None);
        m.begin_stage(0.5);
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert_eq!(m.cap(32, 1_000_000), None);
    }
}
