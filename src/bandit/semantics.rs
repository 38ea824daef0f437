//! The engine semantics of each algorithm: a version number and a **trajectory fingerprint**,
//! recorded side by side in [`SEMANTICS`]. Both enter every cell specification
//! ([`crate::experiment::CellSpec`]), so a cached number is always tied to the code that
//! produced it.
//!
//! # The rule
//! The fingerprint of an algorithm is a hash of the trajectories of a fixed set of short seeded
//! runs ([`fingerprint`]: both rule sets, Bernoulli and Gaussian arms, every reading that
//! applies, a user threshold; per run the stopping time, the recommendation, the rounds and,
//! on the step-by-step path, the final counts). The test `fingerprints_match_the_table` fails
//! when an algorithm's trajectories change and [`SEMANTICS`] still records the old fingerprint.
//! Whoever changes trajectories on purpose bumps that algorithm's version and records the new
//! fingerprint; because both are part of the cell specification, exactly the cells of the
//! changed algorithms get new digests and are recomputed, and `dpbai verify --check` reports the
//! old ones as stale. A change that keeps every trajectory (a faster loop) moves nothing.
//!
//! The test build `cargo test --features fingerprint-canary` flips one tie-break of the Top Two
//! leader (highest index instead of lowest); `.ci/run` checks that the fingerprint test catches it.

use super::build;

use super::info::AlgoName;
use super::options::Rules;

use super::spec::AlgoSpec;

use crate::threshold::{CustomThreshold, ThresholdVars};

use super::setting::Setting;
use crate::error::Result;
use crate::instance::Instance;
use crate::params::{Epsilon, Gamma};
use crate::rng::rng_for_run;

/// The engine semantics of one algorithm, as recorded in a cell specification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Semantics {
    /// Bumped whenever the algorithm's sampled trajectories change.
    pub version: u32,
    /// [`fingerprint`] of the algorithm at this version (16 hex digits).
    pub fingerprint: &'static str,
}

/// Per algorithm: its semantics version and the fingerprint of its trajectories at that version.
pub const SEMANTICS: &[(AlgoName, Semantics)] = &[
    (AlgoName::Ttucb, at(1, "3c7cd55c620f333a")),
    (AlgoName::CtbTt, at(1, "92c33d6c6252d5d0")),
    (AlgoName::GaussLdpTt, at(1, "7ef397c77c7b6229")),
    (AlgoName::AdapTt, at(1, "0966a5457d1f9713")),
    (AlgoName::AdapTtStar, at(1, "ab96232ba685eda3")),
    (AlgoName::DpSe, at(1, "a2da215b65dda893")),
    (AlgoName::DpaTt, at(1, "3e5809c7d42ba247")),
    (AlgoName::DpTt, at(1, "fdcb9ebbd0d23cb9")),
    (AlgoName::EbTci, at(1, "820638cd6f77cf06")),
];

/// A table entry.
const fn at(version: u32, fingerprint: &'static str) -> Semantics {
    Semantics {
        version,
        fingerprint,
    }
}

/// The recorded semantics of `algo`.
pub fn semantics(algo: AlgoName) -> Semantics {
    SEMANTICS
        .iter()
        .find(|(a, _)| *a == algo)
        .map(|(_, s)| *s)
        .expect("invariant: SEMANTICS lists every AlgoName")
}

/// The user threshold of the fingerprint runs: `log((1 + log t)/δ) + 0.1·log(na·nb)/K`, which
/// reads the time, both counts and `K`, so a change in what the engine passes shows.
#[derive(Debug)]
struct ProbeThreshold;

impl CustomThreshold for ProbeThreshold {
    fn eval(&self, v: &ThresholdVars) -> f64 {
        ((1.0 + v.t.max(1.0).ln()) / v.delta).ln() + 0.1 * (v.na * v.nb).max(1.0).ln() / v.k
    }
}

/// Runs per fingerprint case.
const RUNS: u64 = 12;
/// Cap of the fingerprint runs (capped runs are part of the fingerprint too).
const CAP: u64 = 300_000;

/// The settings the fingerprint runs for `algo` on top of the defaults: a label and a change.
/// A labelled change of the default settings of a fingerprint case.
type Variant = (&'static str, fn(&mut AlgoSpec));

fn variants(algo: AlgoName) -> Vec<Variant> {
    use super::options::TieBreak;
    use super::options::{
        AdapLeaderBonus, ChallengerCounts, DpaEpisodes, GaussLdpSigma, LeaderCounts,
    };
    use crate::threshold::Eq14Form;
    let mut v: Vec<Variant> = vec![
        ("default", |_| {}),
        ("tie-break uniform", |s| {
            s.setting.tie_break = TieBreak::Uniform
        }),
        ("challenger-counts local", |s| {
            s.setting.challenger_counts = ChallengerCounts::Local
        }),
        ("ids-beta", |s| s.setting.ids_beta = true),
        ("threshold", |s| {
            s.custom_threshold = Some(std::sync::Arc::new(ProbeThreshold))
        }),
        ("step-by-step", |s| s.step_by_step = true),
    ];
    match algo {
        AlgoName::GaussLdpTt => v.push(("gauss-sigma printed", |s| {
            s.setting.gauss_sigma = GaussLdpSigma::Printed
        })),
        AlgoName::AdapTtStar => v.push(("eq14-form printed", |s| {
            s.setting.eq14_form = Eq14Form::Printed
        })),
        AlgoName::DpaTt => {
            v.push(("dpa-episodes global", |s| {
                s.setting.dpa_episodes = DpaEpisodes::Global
            }));
            v.push(("leader-counts global", |s| {
                s.setting.leader_counts = LeaderCounts::Global
            }));
        }
        AlgoName::DpTt | AlgoName::EbTci => {
            v.push(("sampling uniform", |s| {
                s.sampling = super::spec::Sampling::Uniform
            }));
            v.push(("beta 0.25", |s| {
                s.setting.beta = crate::params::Beta::new(0.25).expect("in (0, 1)")
            }));
        }
        _ => {}
    }
    if matches!(algo, AlgoName::AdapTt | AlgoName::AdapTtStar) {
        v.push(("adap-leader-bonus eq3", |s| {
            s.setting.adap_leader_bonus = AdapLeaderBonus::Eq3
        }));
        v.push(("adap-leader-bonus eq11-log-n", |s| {
            s.setting.adap_leader_bonus = AdapLeaderBonus::Eq11LogN
        }));
    }
    v
}

/// The fingerprint of `algo`'s trajectories (16 hex digits) and, for diagnosis, one line per
/// case with its own hash.
///
/// # Definition
/// For both rule sets, the Bernoulli instance `(0.7, 0.6, 0.5)` and the Gaussian instance
/// `(1, 0.6, 0)` with `σ = 1`, `δ = 0.1`, `ε = 1`, `γ = 0.1`, and every variant of
/// `variants` that builds: runs `0..12` with seed 1 and cap `3·10⁵` on the path the engine uses
/// (`τ`, recommendation, stopped, rounds), and for the Top Two algorithms the final counts of
/// run 0 on the step-by-step path ([`super::trace::run_traced`]). A case the algorithm refuses
/// (an option it does not take, a family it does not support) is left out. The hash is BLAKE3
/// of the lines, truncated.
///
/// # Errors
/// None in practice: the fixed settings are valid (kept for the builders' signature).
pub fn fingerprint(algo: AlgoName) -> Result<(String, Vec<String>)> {
    let bern = Instance::bernoulli(vec![0.7, 0.6, 0.5])?;
    let gauss = Instance::gaussian(vec![1.0, 0.6, 0.0], 1.0)?;
    let mut lines = Vec::new();
    for rules in [Rules::Paper, Rules::Reference] {
        for (fam, nu) in [("bernoulli", &bern), ("gaussian", &gauss)] {
            for (label, change) in variants(algo) {
                let mut setting = Setting::paper(algo, 0.1)?;
                setting.rules = rules;
                if algo.needs_eps() {
                    setting.eps = Some(Epsilon::new(1.0)?);
                }
                if algo == AlgoName::GaussLdpTt {
                    setting.gamma = Some(Gamma::new(0.1)?);
                }
                let mut spec = AlgoSpec::new(setting);
                change(&mut spec);
                let head = format!("{rules:?} {fam} {label}:");
                // A setting the algorithm refuses has no trajectory.
                let Ok(alg) = build(&spec, nu) else {
                    continue;
                };
                let mut line = head;
                for r in 0..RUNS {
                    let o = alg.run(&mut rng_for_run(1, r), CAP);
                    line.push_str(&format!(
                        " {}/{}/{}/{:?}",
                        o.tau, o.recommendation, o.stopped, o.rounds
                    ));
                }
                if algo != AlgoName::DpSe {
                    if let Ok(t) = super::trace::run_traced(&spec, nu, &mut rng_for_run(1, 0), CAP)
                    {
                        line.push_str(&format!(" counts {:?}", t.counts));
                    }
                }
                lines.push(line);
            }
        }
    }
    let hash = |s: &str| blake3::hash(s.as_bytes()).to_hex()[..16].to_string();
    let all = hash(&lines.join("\n"));
    let cases = lines.iter().map(|l| format!("{} {}", hash(l), l)).collect();
    Ok((all, cases))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A change of any algorithm's trajectories without a new entry in [`SEMANTICS`] fails here.
    #[test]
    fn fingerprints_match_the_table() {
        let mut wrong = Vec::new();
        for &(algo, s) in SEMANTICS {
            let (fp, cases) = fingerprint(algo).expect("fixed settings are valid");
            if fp != s.fingerprint {
                wrong.push(format!(
                    "{}: trajectories changed (fingerprint {fp}, recorded {} at version {}): \
                     bump its version in SEMANTICS and record the new fingerprint; cases:\n  {}",
                    algo.as_str(),
                    s.fingerprint,
                    s.version,
                    cases.join("\n  ")
                ));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// Every algorithm is in the table once, and the fingerprint sees both rule sets and both
    /// families (a case that builds for neither would make the fingerprint blind).
    #[test]
    fn the_table_is_complete_and_the_cases_run() {
        for algo in AlgoName::ALL {
            assert_eq!(SEMANTICS.iter().filter(|(a, _)| *a == algo).count(), 1);
            let (_, cases) = fingerprint(algo).expect("valid");
            assert!(cases.len() >= 4, "{}: {cases:?}", algo.as_str());
            let rule_sets: &[&str] =
                if algo.reference_rules() == crate::bandit::info::ReferenceRules::None {
                    &["Paper"]
                } else {
                    &["Paper", "Reference"]
                };
            for rules in rule_sets {
                assert!(
                    cases
                        .iter()
                        .any(|c| c.contains(&format!(" {rules} bernoulli ")))
                );
            }
        }
    }
}
