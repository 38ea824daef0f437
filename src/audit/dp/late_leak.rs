//! The whole-algorithm late-leak mutant: AdaP-TT whose DAF estimator releases the exact phase
//! mean (no Laplace noise) from its `leak_from`-th release on (release 1 is the initial sample,
//! release `j` closes phase `j − 1`; L. 31 needs every release noised).
//!
//! It is the real AdaP-TT (the Top Two loop, leader, challenger, tracking and stopping rule of
//! `bandit::build`), built by the bandit layer and wrapped from the audit side: `LateLeakDaf`
//! delegates every estimator step to the faithful DAF and, after a release it covers, overwrites
//! the released mean by the noiseless one (the noise is still drawn, so the random stream is the
//! faithful algorithm's). The mutant runs step by step (no phase skipping), so the phase sums
//! it reads are the table's rewards.
//!
//! Why the fixed tables of `audit dp --algo` miss it: they differ in user 1, whose reward is
//! arm 1's initial sample, released once with noise (release 1); the rewards that enter
//! noiseless releases are those of later users, which only a search over the differing user
//! ([`crate::audit::dp_search`]) reaches.

use crate::bandit::algos::build_any_with;
use crate::bandit::top_two::{Arms, Estimates, Estimator, Phased};
use crate::bandit::{
    AlgoName, AlgoSpec, BaiAlgorithm, RewardTable, RunOutcome, Setting, TableOutput,
};
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::rng::Rng;

/// DAF (Alg. 5) with the noise dropped from release `leak_from` on (module docs).
#[derive(Debug)]
pub(crate) struct LateLeakDaf {
    inner: Phased,
    leak_from: u32,
}

impl Estimator for LateLeakDaf {
    const PHASED: bool = true;
    fn init(&self, s: &mut Estimates, a: usize, r: f64, rng: &mut Rng) {
        self.inner.init(s, a, r, rng);
        if self.leak_from <= 1 {
            s.mu[a] = r;
        }
    }
    fn observe(&self, s: &mut Estimates, a: usize, r: f64, rng: &mut Rng) {
        self.inner.observe(s, a, r, rng);
    }
    fn switch(
        &self,
        s: &mut Estimates,
        a: usize,
        n: &[u64],
        lazy: Option<&Arms>,
        rng: &mut Rng,
    ) -> bool {
        // The phase that may close now: its samples and their sum, read before DAF forgets them.
        let m = n[a].saturating_sub(s.start[a]);
        let sum = s.sum[a];
        let release = s.phase[a] + 1;
        let released = self.inner.switch(s, a, n, lazy, rng);
        if released && lazy.is_none() && release >= self.leak_from && m > 0 {
            s.mu[a] = sum / m as f64;
        }
        released
    }
    fn rounds(&self, s: &Estimates) -> Option<u64> {
        self.inner.rounds(s)
    }
    fn global_episodes(&self) -> bool {
        self.inner.global_episodes()
    }
    fn accepts(&self, r: f64) -> bool {
        self.inner.accepts(r)
    }
}

/// The planted bugs found only by `audit dp --search` (a fixed table of reward inputs misses
/// them): name and description, listed by `audit dp --list-mutants` after [`super::MUTANTS`].
pub const SEARCH_MUTANTS: [(&str, &str); 2] = [
    (
        "adap-tt-late-leak",
        "AdaP-TT whose DAF leaks from its third release on (audit dp --search only)",
    ),
    (
        "rr-daf-late-leak",
        "toy randomised-response DAF leaking from its third release (audit dp --search only; \
         rr-daf is its faithful version)",
    ),
];

/// AdaP-TT (paper rules, `δ`, `ε`) on `instance` whose DAF drops its noise from release
/// `leak_from >= 1` on.
///
/// # Errors
/// Those of [`crate::bandit::build`] for AdaP-TT; [`Error::InvalidParameter`] for
/// `leak_from = 0`.
pub fn adap_tt_late_leak(
    instance: &Instance,
    delta: f64,
    eps: f64,
    leak_from: u32,
) -> Result<Box<dyn BaiAlgorithm>> {
    if leak_from == 0 {
        return Err(Error::param("leak-from", 0, "a release index >= 1"));
    }
    let mut spec = AlgoSpec::new(Setting::paper(AlgoName::AdapTt, delta)?.with_eps(eps)?);
    // Step by step (no phase skipping): the phase sums the wrapper reads are the rewards.
    spec.step_by_step = true;
    let run = build_any_with(&spec, instance, |inner| LateLeakDaf { inner, leak_from })?;
    Ok(Box::new(Renamed(run.into_algorithm())))
}

/// The mutant under its own name (`adap-tt-late-leak`), everything else delegated.
struct Renamed(Box<dyn BaiAlgorithm>);

impl BaiAlgorithm for Renamed {
    fn name(&self) -> &str {
        "adap-tt-late-leak"
    }
    fn run(&self, rng: &mut Rng, max_steps: u64) -> RunOutcome {
        self.0.run(rng, max_steps)
    }
    fn run_on_table(&self, table: &RewardTable, rng: &mut Rng) -> Option<TableOutput> {
        self.0.run_on_table(table, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for_run;

    /// With `leak_from` beyond every release of the run, the mutant is the faithful AdaP-TT
    /// (same random stream, same output); with `leak_from = 3` it differs on some run.
    #[test]
    fn late_leak_is_adap_tt_until_its_leak() {
        let inst = Instance::bernoulli(vec![0.6, 0.4]).expect("valid");
        let spec = AlgoSpec::new(
            Setting::paper(AlgoName::AdapTt, 0.1)
                .and_then(|s| s.with_eps(1.0))
                .expect("valid"),
        );
        let faithful = crate::bandit::build(&spec, &inst).expect("builds");
        let never = adap_tt_late_leak(&inst, 0.1, 1.0, 60).expect("builds");
        let leak = adap_tt_late_leak(&inst, 0.1, 1.0, 3).expect("builds");
        let table: RewardTable = (0..300)
            .map(|t| {
                vec![
                    f64::from(u8::from(t % 5 < 3)),
                    f64::from(u8::from(t % 5 < 2)),
                ]
            })
            .collect();
        let mut differs = false;
        for r in 0..20 {
            let a = faithful.run_on_table(&table, &mut rng_for_run(7, r));
            let b = never.run_on_table(&table, &mut rng_for_run(7, r));
            assert_eq!(a, b, "run {r}");
            let c = leak.run_on_table(&table, &mut rng_for_run(7, r));
            differs |= a != c;
        }
        assert!(differs);
        assert!(adap_tt_late_leak(&inst, 0.1, 1.0, 0).is_err());
    }
}
