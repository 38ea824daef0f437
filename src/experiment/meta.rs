//! The metadata every summary and shard file carries ([`RunMeta`]: the experiment in plain
//! numbers and strings, and the digest of its specification) and the object `dpbai run --json`
//! and `dpbai merge --json` print ([`Report`]).

use super::spec::{CellDigest, CellSpec, first_difference};
use crate::error::Result;
use crate::mc::{RunRecord, Shard, Summary, summarize};
use serde::{Deserialize, Serialize};

/// Everything that identifies an experiment, recorded in every summary and shard file: the
/// fields of its [`CellSpec`] in plain numbers and strings (in a fixed order, so the JSON of
/// summaries stays the same whatever the in-memory types), and the spec's digest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunMeta {
    /// `dpbai` version that produced the output (`CARGO_PKG_VERSION`).
    pub version: String,
    /// Algorithm name as on the command line.
    pub algo: String,
    /// `bernoulli` or `gaussian`.
    pub family: String,
    /// Standard deviation of Gaussian arms (`None` for Bernoulli).
    pub sigma: Option<f64>,
    /// Means `μ`.
    pub means: Vec<f64>,
    /// The best arm `a*`, **1-based** as on the command line.
    pub best_arm: usize,
    /// Risk `δ`.
    pub delta: f64,
    /// Privacy budget `ε`, if given.
    pub eps: Option<f64>,
    /// `γ` of the Gaussian mechanism, if given.
    pub gamma: Option<f64>,
    /// Leader proportion `β`.
    pub beta: f64,
    /// `paper` or `reference`.
    pub rules: String,
    /// Master seed.
    pub seed: u64,
    /// Total runs of the experiment (all shards).
    pub runs: u64,
    /// Cap on `τ` per run (`None`: no cap).
    pub max_steps: Option<u64>,
    /// Non-default readings of the algorithm, as command-line flags, e.g.
    /// `--challenger-counts local`, then the engine options as given (`--step-by-step`,
    /// `--threshold EXPR`); empty (and omitted) for the paper's defaults.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// The digest of the experiment's specification ([`CellSpec::digest`]).
    pub cell: CellDigest,
}

impl RunMeta {
    /// The metadata of `spec`.
    ///
    /// # Errors
    /// An invalid specification ([`CellSpec::setting`], [`CellSpec::instance`]).
    pub fn new(spec: &CellSpec) -> Result<Self> {
        let setting = spec.setting()?;
        let instance = spec.instance()?;
        let mut options = setting.non_default_flags();
        let threshold = spec.threshold.as_ref().map(|t| t.text.as_str());
        options.extend(super::engine_flags(spec.step_by_step, threshold));
        Ok(RunMeta {
            version: env!("CARGO_PKG_VERSION").to_string(),
            algo: spec.algo.as_str().to_string(),
            family: spec.family.clone(),
            sigma: spec.sigma,
            means: spec.means.clone(),
            best_arm: instance.best() + 1,
            delta: spec.delta,
            eps: spec.eps,
            gamma: spec.gamma,
            beta: spec.beta,
            rules: super::cell::rules_str(spec.rules).to_string(),
            seed: spec.seed,
            runs: spec.runs,
            max_steps: Some(spec.max_steps),
            options,
            cell: spec.digest(),
        })
    }

    /// The first field of this metadata that does not follow from `spec` (`None`: every field
    /// does). `version` (which dpbai wrote it) is not compared.
    pub fn mismatch(&self, spec: &CellSpec) -> Option<String> {
        let Ok(derived) = RunMeta::new(spec) else {
            return Some("(the specification is invalid)".into());
        };
        let value = |m: &RunMeta| {
            serde_json::to_value(RunMeta {
                version: String::new(),
                ..m.clone()
            })
            .expect("invariant: RunMeta serialises")
        };
        first_difference(&value(self), &value(&derived))
    }
}

/// A summary with its metadata and timing: the object printed by `dpbai run --json` and
/// `dpbai merge --json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The experiment.
    #[serde(flatten)]
    pub meta: RunMeta,
    /// `i/n` when the summary covers one shard only.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub shard: Option<String>,
    /// The statistics.
    #[serde(flatten)]
    pub summary: Summary,
    /// Wall-clock seconds of the simulation (sum over shards after a merge). Timing field.
    pub elapsed_s: f64,
    /// `total_samples / elapsed_s`. Timing field.
    pub samples_per_s: f64,
}

impl Report {
    /// The report of `records` (in run order) of the experiment `meta`.
    ///
    /// # Errors
    /// An empty record list.
    pub fn new(
        meta: &RunMeta,
        shard: Option<Shard>,
        records: &[RunRecord],
        elapsed_s: f64,
    ) -> Result<Self> {
        let summary = summarize(records, meta.best_arm - 1)?;
        let samples_per_s = if elapsed_s > 0.0 {
            summary.total_samples as f64 / elapsed_s
        } else {
            0.0
        };
        Ok(Report {
            meta: meta.clone(),
            shard: shard.map(|s| format!("{}/{}", s.index, s.count)),
            summary,
            elapsed_s,
            samples_per_s,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bandit::{AlgoName, Setting, TieBreak};
    use crate::instance::Instance;

    /// The metadata is a function of the specification: the fields `dpbai run` has always
    /// written, in their order, then the digest; every field is compared by `mismatch`.
    #[test]
    fn meta_follows_the_spec_and_names_an_edited_field() {
        let mut s = Setting::paper(AlgoName::GaussLdpTt, 0.05)
            .and_then(|s| s.with_eps(0.5))
            .and_then(|s| s.with_gamma(Some(0.1)))
            .expect("valid");
        s.beta = crate::params::Beta::new(0.25).expect("valid");
        s.tie_break = TieBreak::Uniform;
        s.ids_beta = true;
        let nu = Instance::gaussian(vec![0.9, 0.5, 0.25], 0.5).expect("valid");
        let spec = CellSpec::new(&s, &nu, None, false, 4, 3, 100_000);
        let meta = RunMeta::new(&spec).expect("valid");
        let text = serde_json::to_string(&meta).expect("writes");
        assert!(text.starts_with(r#"{"version":"#));
        assert!(text.contains(concat!(
            r#""algo":"gauss-ldp-tt","family":"gaussian","sigma":0.5,"#,
            r#""means":[0.9,0.5,0.25],"best_arm":1,"delta":0.05,"eps":0.5,"gamma":0.1,"#,
            r#""beta":0.25,"rules":"paper","seed":3,"runs":4,"max_steps":100000,"#,
            r#""options":["--tie-break uniform","--ids-beta"],"cell":""#
        )));
        assert_eq!(meta.mismatch(&spec), None);
        for (field, edit) in [
            ("means", serde_json::json!([0.9, 0.5, 0.3])),
            ("best_arm", serde_json::json!(2)),
            ("delta", serde_json::json!(0.06)),
            ("seed", serde_json::json!(4)),
            ("algo", serde_json::json!("ttucb")),
            ("sigma", serde_json::json!(0.6)),
            ("options", serde_json::json!(["--ids-beta"])),
        ] {
            let mut v = serde_json::to_value(&meta).expect("v");
            v[field] = edit;
            let edited: RunMeta = serde_json::from_value(v).expect("reads");
            assert_eq!(edited.mismatch(&spec).as_deref(), Some(field));
        }
    }
}
