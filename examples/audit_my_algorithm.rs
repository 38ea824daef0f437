//! Audit a whole user-written algorithm, end to end.
//!
//! `cargo run --release --example audit_my_algorithm`
//!
//! Two uniform-sampling algorithms implement `dpbai::bandit::BaiAlgorithm`:
//! * `Hoeffding`: pulls arms round robin and stops when the empirical best's lower confidence
//!   bound clears every other arm's upper bound, with radius `sqrt(log(4 K n²/δ)/(2n))` after
//!   `n` rounds (a union bound over arms and rounds: δ-correct for rewards in `[0, 1]`);
//! * `FixedBudget`: stops after 5 rounds whatever it saw (not δ-correct on close arms).
//!
//! The delta auditor runs both on a two-armed instance with gap 0.1; `FixedBudget` is caught.

use dpbai::audit::Verdict;
use dpbai::audit::delta::{AuditInstance, DeltaAuditConfig, RunPlan, audit_delta_with};
use dpbai::bandit::{AlgoName, BaiAlgorithm, RunOutcome, Setting};
use dpbai::instance::Instance;
use dpbai::rng::Rng;
use rand::RngExt;

/// Round-robin sampling of Bernoulli arms with a stopping rule on the round count.
struct Uniform {
    means: Vec<f64>,
    delta: f64,
    /// `Some(n)`: stop after `n` rounds; `None`: the Hoeffding rule.
    fixed_rounds: Option<u64>,
}

impl BaiAlgorithm for Uniform {
    fn name(&self) -> &str {
        if self.fixed_rounds.is_some() {
            "fixed-budget"
        } else {
            "hoeffding"
        }
    }

    fn run(&self, rng: &mut Rng, max_steps: u64) -> RunOutcome {
        let k = self.means.len();
        let mut sums = vec![0.0; k];
        let mut n = 0u64;
        loop {
            if (n + 1) * k as u64 > max_steps {
                let best = argmax(&sums);
                return RunOutcome {
                    tau: n * k as u64,
                    recommendation: best,
                    stopped: false,
                    rounds: None,
                };
            }
            for (a, s) in sums.iter_mut().enumerate() {
                *s += f64::from(u8::from(rng.random::<f64>() < self.means[a]));
            }
            n += 1;
            let best = argmax(&sums);
            let stop = match self.fixed_rounds {
                Some(m) => n >= m,
                None => {
                    let nf = n as f64;
                    let r = ((4.0 * k as f64 * nf * nf / self.delta).ln() / (2.0 * nf)).sqrt();
                    (0..k).all(|b| b == best || sums[best] / nf - r > sums[b] / nf + r)
                }
            };
            if stop {
                return RunOutcome {
                    tau: n * k as u64,
                    recommendation: best,
                    stopped: true,
                    rounds: None,
                };
            }
        }
    }
}

fn argmax(x: &[f64]) -> usize {
    let mut b = 0;
    for (i, v) in x.iter().enumerate() {
        if *v > x[b] {
            b = i;
        }
    }
    b
}

/// Audits both algorithms; returns `(name, verdict, CI)`.
pub fn run() -> dpbai::Result<Vec<(String, Verdict, [f64; 2])>> {
    let cfg = DeltaAuditConfig {
        // Only labels the report (and its δ is each instance's): the factory below builds the
        // algorithm.
        setting: Setting::paper(AlgoName::Ttucb, 0.1)?,
        threshold: None,
        alpha: 1e-3,
        seed: 17,
        max_steps: 10_000_000,
        plan: RunPlan::UntilDecided {
            first: 100,
            budget: 1600,
        },
        sampling: dpbai::bandit::Sampling::Algorithm,
    };
    let battery = vec![AuditInstance {
        name: "gap-0.2".into(),
        instance: Instance::bernoulli(vec![0.6, 0.4])?,
        delta: 0.1,
        eps: None,
    }];
    let mut out = Vec::new();
    for fixed in [Some(5), None] {
        let r = audit_delta_with(&cfg, &battery, &|inst: &AuditInstance| {
            Ok(Box::new(Uniform {
                means: inst.instance.means().to_vec(),
                delta: inst.delta,
                fixed_rounds: fixed,
            }) as Box<dyn BaiAlgorithm>)
        })?;
        let name = if fixed.is_some() {
            "fixed-budget"
        } else {
            "hoeffding"
        };
        out.push((name.to_string(), r.verdict, r.ci));
    }
    Ok(out)
}

fn main() -> dpbai::Result<()> {
    for (name, verdict, ci) in run()? {
        println!(
            "{name:<14} {verdict:<12} error-rate CI [{:.3e}, {:.3e}]",
            ci[0], ci[1]
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_fixed_budget_rule_is_caught_and_hoeffding_holds() {
        let r = super::run().expect("audits run");
        assert_eq!(r[0].1, dpbai::audit::Verdict::Violated, "{r:?}");
        assert_eq!(r[1].1, dpbai::audit::Verdict::Holds, "{r:?}");
    }
}
