//! What `verify` shows while it runs: one line per finished cell, a bar over the run's cells
//! with the compute time left, and spinners for the long steps.

use crate::experiment::{Cell, CellResult};

/// One progress line for a finished cell.
pub(super) fn cell_status(r: &CellResult) -> String {
    let s = &r.summary;
    format!(
        "{} {:<48} mean tau {:>12.1} errors {} unstopped {} {}{}",
        r.digest,
        r.cell.key(),
        s.mean_tau,
        s.errors,
        s.unstopped,
        if r.cached {
            "(cached)".to_string()
        } else {
            format!("{:.1} s", r.elapsed_s)
        },
        if r.stale { " (stale)" } else { "" }
    )
}

/// A spinner with `msg` on a terminal (hidden elsewhere).
pub(super) fn spinner(msg: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} {elapsed}") {
        bar.set_style(style);
    }
    bar.set_message(msg.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// The progress of `verify`'s cells. On a terminal: one bar over every distinct cell of the run
/// (grid and controls), with the cells done, how many came from the cache, how many of those to
/// compute are finished, and the compute time left (the mean compute time of the cells computed
/// so far times the cells left to compute); each cell's line is printed above the bar. Elsewhere
/// (a log, CI): the plain line per cell only.
pub(super) struct Progress {
    /// Hidden when stderr is not a terminal.
    bar: indicatif::ProgressBar,
    /// Whether stderr is a terminal.
    tty: bool,
    /// Cell keys finished (a control that is also a grid cell counts once).
    seen: std::collections::BTreeSet<String>,
    /// Distinct cells finished from the cache.
    cached: usize,
    /// Distinct cells computed.
    computed: usize,
    /// Distinct cells without a cache file when the run started.
    to_compute: usize,
    /// Compute time of the cells computed so far (s).
    compute_s: f64,
}

impl Progress {
    /// The progress over `cells` (the run's distinct cells), of which those without a file in
    /// `cache` are to compute.
    pub(super) fn new(cells: &[Cell], cache: &std::path::Path) -> Self {
        use std::io::IsTerminal;
        let to_compute = cells
            .iter()
            .filter(|c| !crate::experiment::cache::cache_path(cache, &c.spec().digest()).exists())
            .count();
        let tty = std::io::stderr().is_terminal();
        let bar = if tty {
            let bar = indicatif::ProgressBar::new(cells.len() as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {pos}/{len} cells, {msg}",
            ) {
                bar.set_style(style);
            }
            bar
        } else {
            indicatif::ProgressBar::hidden()
        };
        let p = Progress {
            bar,
            tty,
            seen: std::collections::BTreeSet::new(),
            cached: 0,
            computed: 0,
            to_compute,
            compute_s: 0.0,
        };
        p.bar.set_message(p.message());
        p
    }

    /// "k cached, j/J computed, compute left ~T".
    pub(super) fn message(&self) -> String {
        let left = self.to_compute.saturating_sub(self.computed);
        let eta = if left == 0 {
            "none".to_string()
        } else if self.computed == 0 {
            "?".to_string()
        } else {
            let s = self.compute_s / self.computed as f64 * left as f64;
            format!(
                "~{}",
                indicatif::HumanDuration(std::time::Duration::from_secs_f64(s))
            )
        };
        format!(
            "{} cached, {}/{} computed, compute left {eta}",
            self.cached, self.computed, self.to_compute
        )
    }

    /// A line above the bar (on a terminal) or on stderr.
    pub(super) fn line(&self, text: &str) {
        if self.tty {
            self.bar.println(text);
        } else {
            eprintln!("{text}");
        }
    }

    /// A finished cell: its line, then the bar.
    pub(super) fn cell(&mut self, tag: &str, r: &CellResult) {
        self.line(&format!("{tag} {}", cell_status(r)));
        if self.seen.insert(r.cell.key()) {
            if r.cached {
                self.cached += 1;
            } else {
                self.computed += 1;
                self.compute_s += r.elapsed_s;
            }
            self.bar.set_position(self.seen.len() as u64);
            self.bar.set_message(self.message());
        }
    }

    /// Removes the bar and says what ran.
    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
        if self.tty {
            eprintln!(
                "cells: {} ({} from the cache, {} computed in {:.1} s)",
                self.seen.len(),
                self.cached,
                self.computed,
                self.compute_s
            );
        }
    }
}
