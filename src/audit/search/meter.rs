//! The sample budget of one search stage: every batch of runs is sized so that the stage never
//! draws more samples than its share (each run's step cap is the stage's remaining samples
//! divided by the batch's runs), and an interruption flag ends a stage between batches.

use super::config::Budget;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Smallest per-run step cap worth a batch (below it the stage is over).
const MIN_CAP: u64 = 64;

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
    /// the stage's allowance (samples, or seconds for a budget in seconds).
    pub(crate) fn begin_stage(&self, share: f64) -> f64 {
        let mut end = self.stage_end.lock().expect("invariant: no poisoning");
        match self.budget {
            Budget::Samples(n) => {
                let used = self.used() as f64;
                let left = (n as f64 - used).max(0.0);
                *end = used + (share * left).floor();
                *end - used
            }
            Budget::Seconds(s) => {
                let now = self.seconds();
                let left = (s - now).max(0.0);
                *end = now + share * left;
                *end - now
            }
        }
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
                // Samples per second so far (a first batch of small runs measures it).
                let used = self.used() as f64;
                let rate = if used > 0.0 {
                    used / self.seconds().max(1e-3)
                } else {
                    (MIN_CAP * runs) as f64 / secs.max(1e-9)
                };
                secs * rate
            }
        };
        if left.is_nan() || left <= 0.0 {
            return None;
        }
        let cap = ((left / runs as f64).floor() as u64).min(max_steps);
        (cap >= MIN_CAP.min(max_steps)).then_some(cap)
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
