//! How the search ranks its candidates: by the chance that the confirmation could prove a
//! violation on them within its budget.
//!
//! The confirmation of an instance whose runs last `τ̂` samples each can afford
//! `n = allowance / τ̂` runs (at most the run plan's budget). It declares a violation when the
//! error frequency exceeds `δ` by about `z*·√(p/n)` (`z* =` [`Z_CONFIRM`]), that is when the
//! error probability `p` exceeds `p_min(n) = x²`, `x = (z*/√n + √(z*²/n + 4δ))/2`.
//!
//! The score, larger first:
//! 1. **Affordable** candidates (the confirmation's first look, `n₀` runs of `τ̂` samples,
//!    fits in the allowance) before the others.
//! 2. Among them, those whose runs **erred**, by the posterior probability `P(p > p_min(n))`
//!    after `e` errors among `s` stopped runs (`p ~ Beta(e + ½, s − e + ½)`, Jeffreys' prior):
//!    a cheap instance that errs at `2δ` ranks above a costly one that errs at `3δ`.
//! 3. Then the error-free ones, **hardest** first (`T*(ν)·log(1/δ)`: error probabilities
//!    grow towards near-ties, so that is where a rare error is likeliest).
//!
//! **`τ̂`** is the mean samples per run (unstopped runs counted at their cap) divided by the
//! share `f` of runs that stopped, at most the confirmation's own step cap ([`step_cap`]),
//! which it is when no run stopped. So an instance whose runs mostly do not stop is
//! unaffordable, and its budget goes to instances whose runs do.

use super::config::SearchConfig;
use super::meter::Meter;
use crate::audit::delta::{RunPlan, Tally};

/// The margin of a confirmation run's step cap over the instance's `T*(ν)·log(1/δ)`.
pub const CAP_MARGIN: f64 = 32.0;
/// The smallest step cap of a confirmation run, per arm.
pub const CAP_PER_ARM: u64 = 100;
/// The `z`-score a confirmation needs to declare a violation (module docs): about its
/// first look's one-sided level at the default `α`.
pub const Z_CONFIRM: f64 = 3.5;

/// The step cap of a confirmation run on an instance of `k` arms and hardness
/// `T*(ν)·log(1/δ)`: `max(CAP_MARGIN·hardness, CAP_PER_ARM·K)`, at most `max_steps` (which a
/// NaN hardness gets).
pub fn step_cap(hardness: f64, k: usize, max_steps: u64) -> u64 {
    if !hardness.is_finite() {
        return max_steps;
    }
    let c = (CAP_MARGIN * hardness).ceil().min(u64::MAX as f64) as u64;
    c.max(CAP_PER_ARM.saturating_mul(k as u64)).min(max_steps)
}

/// What the ranking knows of the confirmation to come.
pub(super) struct Outlook {
    /// Runs of the confirmation's first look.
    first_look: u64,
    /// Runs of its last look.
    most_runs: u64,
    /// Finalists sharing the confirmation.
    finalists: f64,
    max_steps: u64,
}

/// A candidate's record as the ranking reads it.
pub(super) struct Evidence<'a> {
    pub(super) tally: &'a Tally,
    /// Samples its runs drew.
    pub(super) samples: u64,
    pub(super) hardness: f64,
    pub(super) k: usize,
    pub(super) delta: f64,
}

impl Outlook {
    pub(super) fn new(cfg: &SearchConfig) -> Self {
        let (first_look, most_runs) = match cfg.audit.plan {
            RunPlan::Fixed { runs } => (runs, runs),
            RunPlan::UntilDecided { first, budget } => (first, budget),
        };
        Outlook {
            first_look,
            most_runs,
            finalists: cfg.finalists.max(1) as f64,
            max_steps: cfg.audit.max_steps,
        }
    }

    /// The samples one finalist's confirmation may expect: its share of what the budget
    /// leaves after the search stages (for a budget in seconds, at the rate measured so far).
    pub(super) fn allowance(&self, meter: &Meter) -> f64 {
        meter.projected_confirmation() / self.finalists
    }

    /// The mean samples of one run (`τ̂`, module docs).
    pub(super) fn run_length(&self, e: &Evidence<'_>) -> f64 {
        let cap = step_cap(e.hardness, e.k, self.max_steps) as f64;
        let t = e.tally;
        let stopped = t.runs - t.unstopped.min(t.runs);
        if stopped == 0 {
            return cap;
        }
        let f = stopped as f64 / t.runs as f64;
        (e.samples as f64 / t.runs as f64 / f).clamp(1.0, cap.max(1.0))
    }
}

/// `p_min(n)` of the module docs: the smallest error probability a confirmation of `n` runs
/// would likely declare violated at `δ`.
pub fn p_min(n: f64, delta: f64) -> f64 {
    let z = Z_CONFIRM / n.sqrt();
    let x = (z + (z * z + 4.0 * delta).sqrt()) / 2.0;
    x * x
}

/// The score of a candidate (module docs): in `(2, 3]` for an affordable one that erred, in
/// `[0, 1)` for an affordable error-free one, below `−2` for an unaffordable one.
pub(super) fn score(o: &Outlook, e: &Evidence<'_>, allowance: f64) -> f64 {
    let t = e.tally;
    let tau = o.run_length(e);
    // log10 of the hardness over 12, in [0, 1).
    let hard = if e.hardness.is_finite() && e.hardness > 0.0 {
        (e.hardness.ln_1p() / (12.0 * std::f64::consts::LN_10)).min(0.999)
    } else {
        0.0
    };
    if o.first_look as f64 * tau > allowance {
        return -3.0 + hard;
    }
    let stopped = t.runs - t.unstopped.min(t.runs);
    let errors = t.errors.min(stopped);
    if errors == 0 {
        return hard;
    }
    let n = (allowance / tau).clamp(1.0, o.most_runs.max(1) as f64);
    let q = p_min(n, e.delta).min(1.0);
    let post = 1.0
        - crate::stats::beta_reg(errors as f64 + 0.5, (stopped - errors) as f64 + 0.5, q)
            .unwrap_or(1.0);
    2.0 + post.max(f64::MIN_POSITIVE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(runs: u64, errors: u64, unstopped: u64) -> Tally {
        Tally {
            runs,
            errors,
            unstopped,
            ..Tally::default()
        }
    }

    fn outlook() -> Outlook {
        Outlook {
            first_look: 1000,
            most_runs: 32_000,
            finalists: 2.0,
            max_steps: 10_000_000,
        }
    }

    fn ev(t: &Tally, samples: u64) -> Evidence<'_> {
        Evidence {
            tally: t,
            samples,
            hardness: 1e3,
            k: 2,
            delta: 0.01,
        }
    }

    #[test]
    fn the_cap_has_its_margin_its_floor_and_its_ceiling() {
        assert_eq!(step_cap(1e3, 2, 10_000_000), 32_000);
        assert_eq!(step_cap(1.0, 20, 10_000_000), 2_000);
        assert_eq!(step_cap(1e9, 2, 10_000_000), 10_000_000);
        assert_eq!(step_cap(f64::NAN, 2, 77), 77);
    }

    /// At the same error frequency a cheap instance outranks a costly one; one whose runs do
    /// not stop ranks below both, whatever its errors; one that erred outranks one that did
    /// not; among error-free ones the harder ranks first.
    #[test]
    fn cost_errors_and_stopping_decide_the_order() {
        let o = outlook();
        let b = 1e7;
        let two = tally(1000, 30, 0);
        let s_cheap = score(&o, &ev(&two, 100 * 1000), b);
        let s_costly = score(&o, &ev(&two, 5000 * 1000), b);
        assert!(s_cheap > s_costly && s_costly > 2.0, "{s_cheap} {s_costly}");
        let stuck = tally(1000, 200, 600);
        let s_stuck = score(&o, &ev(&stuck, 5000 * 1000), b);
        assert!(s_stuck < -2.0, "{s_stuck}");
        let clean = tally(1000, 0, 0);
        let s_clean = score(&o, &ev(&clean, 100 * 1000), b);
        assert!((0.0..1.0).contains(&s_clean));
        let harder = Evidence {
            hardness: 2e3,
            ..ev(&clean, 100 * 1000)
        };
        assert!(score(&o, &harder, b) > s_clean);
        // Unaffordable: the first look does not fit.
        assert!(score(&o, &ev(&clean, 20_000 * 1000), b) < -2.0);
    }

    /// `p_min` solves `(p − δ)·√n = z*·√p` (its definition) and falls to `δ` as `n` grows.
    #[test]
    fn p_min_solves_its_equation() {
        for (n, d) in [(100.0, 0.1), (9000.0, 1e-3), (1e6, 0.01)] {
            let p = p_min(n, d);
            assert!(((p - d) * f64::sqrt(n) - Z_CONFIRM * p.sqrt()).abs() < 1e-9 * n.sqrt());
        }
        assert!(p_min(1e4, 0.01) > p_min(1e6, 0.01) && p_min(1e12, 0.01) < 0.0101);
    }
}
