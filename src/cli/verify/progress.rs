//! What `verify` shows while it runs: one line per finished cell, a bar over the run's cells
//! with the compute time left, and a bar over the steps of each later phase (the pieces of
//! evidence, the claims).

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

/// The progress of `verify`'s cells. On a terminal: one bar over every distinct cell of the run
/// (grid and controls), with the cells done, how many came from the cache, how many of those to
/// compute are finished, and the compute time left (the mean compute time of the cells computed
/// so far times the cells left to compute); each cell's line is printed above the bar. Elsewhere
/// (a log, CI): the plain line per cell only.
///
/// The later phases ([`Progress::phase`]) get a second bar: the step running, `done/total` of
/// the phase, the elapsed time redrawn five times a second (so that a long step, e.g. a cold
/// audit, never looks hung) and indicatif's estimate of the time left.
pub(super) struct Progress {
    /// Draws the bars together (hidden when stderr is not a terminal).
    multi: indicatif::MultiProgress,
    /// Hidden when stderr is not a terminal.
    bar: indicatif::ProgressBar,
    /// The bar of the current later phase and the step it shows.
    phase: Option<(indicatif::ProgressBar, &'static str)>,
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
        let multi = if tty {
            indicatif::MultiProgress::new()
        } else {
            indicatif::MultiProgress::with_draw_target(indicatif::ProgressDrawTarget::hidden())
        };
        let bar = if tty {
            let bar = indicatif::ProgressBar::new(cells.len() as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {pos}/{len} cells, {msg}",
            ) {
                bar.set_style(style);
            }
            let bar = multi.add(bar);
            // Redrawn every second, so that a long cell shows its elapsed time moving.
            bar.enable_steady_tick(std::time::Duration::from_secs(1));
            bar
        } else {
            indicatif::ProgressBar::hidden()
        };
        let p = Progress {
            multi,
            bar,
            phase: None,
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

    /// A line above the bars (on a terminal) or on stderr.
    pub(super) fn line(&self, text: &str) {
        if !self.tty || self.multi.println(text).is_err() {
            eprintln!("{text}");
        }
    }

    /// Step `done + 1` of `total` of a later phase starts, named `name`: a new bar when the
    /// phase starts (`done == 0`), and a line above the bars (or on stderr) whenever the step's
    /// name changes, e.g. `[3/9] δ audits (F.60) …`, but one line for all the claims.
    pub(super) fn phase(&mut self, name: &'static str, done: usize, total: usize) {
        let changed = self.phase.as_ref().is_none_or(|(_, n)| *n != name);
        if changed {
            self.line(&format!("[{}/{total}] {name} …", done + 1));
        }
        if done == 0 || self.phase.is_none() {
            if let Some((old, _)) = self.phase.take() {
                old.finish_and_clear();
            }
            let bar = if self.tty {
                let bar = indicatif::ProgressBar::new(total as u64);
                if let Ok(style) = indicatif::ProgressStyle::with_template(
                    "{spinner} {elapsed_precise} [{bar:20}] {pos}/{len} done, left ~{eta}: {wide_msg}",
                ) {
                    bar.set_style(style);
                }
                // Its step before its first draw (no empty message).
                bar.set_position(done as u64);
                bar.set_message(name);
                let bar = self.multi.add(bar);
                bar.enable_steady_tick(std::time::Duration::from_millis(200));
                bar
            } else {
                indicatif::ProgressBar::hidden()
            };
            self.phase = Some((bar, name));
        }
        if let Some((bar, shown)) = self.phase.as_mut() {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            bar.set_message(name);
            *shown = name;
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
    pub(super) fn finish(&mut self) {
        if let Some((bar, _)) = self.phase.take() {
            bar.finish_and_clear();
        }
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
