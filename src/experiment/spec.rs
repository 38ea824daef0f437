//! The specification of a cell: everything its records depend on, in one canonical encoding,
//! and the digest that names it.
//!
//! # Canonical encoding
//! The JSON object of [`CellSpec`] with its keys sorted at every level, no white space, numbers
//! as serde_json writes them (integers in decimal, floats in their shortest round-trip form:
//! `0.01`, `1e-250`), and no default left implicit: every reading of the algorithm is written,
//! default or not, and absent values are `null`. Two specifications are equal iff their
//! encodings are.
//!
//! # Digest
//! [`CellDigest`]: the first 16 hex digits (64 bits) of the BLAKE3 hash of the encoding. What
//! it protects against, and what it does not, is said in the [layer docs](super).

use crate::bandit::semantics::semantics;
use crate::bandit::{AlgoName, AlgoSpec, BaiAlgorithm, CustomThreshold, Rules, Setting};
use crate::error::{Error, Result};
use crate::instance::{Family, FamilyName, Instance};
use crate::params::{Beta, Delta, Epsilon, Gamma};
use crate::spelling::Spelling;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Version of the specification's own layout (its keys and their meaning).
pub const SPEC_FORMAT: u32 = 1;

/// The engine semantics recorded in a specification ([`crate::bandit::semantics`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSemantics {
    /// The algorithm's semantics version.
    pub version: u32,
    /// The fingerprint of its trajectories at that version.
    pub fingerprint: String,
}

impl EngineSemantics {
    /// The current semantics of `algo`.
    pub fn current(algo: AlgoName) -> Self {
        let s = semantics(algo);
        EngineSemantics {
            version: s.version,
            fingerprint: s.fingerprint.to_string(),
        }
    }
}

/// Everything the records of a cell depend on (see the module docs for its encoding).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellSpec {
    /// [`SPEC_FORMAT`].
    pub format: u32,
    /// `bernoulli` or `gaussian`.
    pub family: String,
    /// `σ` of Gaussian arms; `null` for Bernoulli arms (whose σ is 1/2 by definition).
    pub sigma: Option<f64>,
    /// The means of the arms.
    pub means: Vec<f64>,
    /// The algorithm.
    pub algo: AlgoName,
    /// Its rule set.
    pub rules: Rules,
    /// Risk `δ`.
    pub delta: f64,
    /// Privacy budget `ε`.
    pub eps: Option<f64>,
    /// `γ` of the Gaussian mechanism.
    pub gamma: Option<f64>,
    /// Leader proportion `β`.
    pub beta: f64,
    /// Every reading and control option by its `dpbai run` flag name, with its value
    /// ([`Setting::readings`]), defaults included, except those added later (`eta`), listed
    /// only when they differ from their default (`recorded_at_default` of
    /// [`crate::bandit::Reading`]), so that earlier digests hold.
    pub readings: BTreeMap<String, String>,
    /// The user threshold replacing the algorithm's.
    pub threshold: Option<ThresholdSpec>,
    /// Whether the plain step-by-step loop is used (`dpbai run --step-by-step`).
    pub step_by_step: bool,
    /// Runs.
    pub runs: u64,
    /// Master seed (run `r` draws from `rng_for_run(seed, r)`).
    pub seed: u64,
    /// Cap on the samples of one run.
    pub max_steps: u64,
    /// The engine semantics of the algorithm.
    pub engine: EngineSemantics,
}

/// A user threshold in a specification: the text as given (what is parsed, and what messages
/// show) and its normalised form ([`normal_threshold`]: a preset name expanded), so that a
/// change of a preset's definition changes the specification too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThresholdSpec {
    /// The text as given (trimmed).
    pub text: String,
    /// [`normal_threshold`] of the text.
    pub expr: String,
}

impl ThresholdSpec {
    /// The specification of the threshold `text`.
    pub fn new(text: &str) -> Self {
        ThresholdSpec {
            text: text.trim().to_string(),
            expr: normal_threshold(text),
        }
    }
}

/// The digest of a [`CellSpec`]: 16 lower-case hex digits.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CellDigest(String);

impl CellDigest {
    /// Parses 16 lower-case hex digits.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for anything else.
    pub fn parse(s: &str) -> Result<Self> {
        if s.len() == 16
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            Ok(CellDigest(s.to_string()))
        } else {
            Err(Error::param("cell digest", s, "16 lower-case hex digits"))
        }
    }
    /// The 16 hex digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for CellDigest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A user threshold as the specification records it: a preset name expanded to its expression,
/// then every white-space character removed (so spellings that differ only in spacing, or a
/// preset and its expansion, are one specification).
pub fn normal_threshold(text: &str) -> String {
    let expanded = crate::threshold::expr::preset(text.trim()).unwrap_or_else(|| text.to_string());
    expanded.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Parses `text` ([`crate::threshold::expr::parse_threshold`]: a preset name or an expression) and binds it to the
/// constants a run of `setting` on `instance` passes to its threshold
/// ([`crate::bandit::algos::threshold_constants`]) with
/// [`crate::threshold::probe::bind_checked`] (probed, checked during the runs).
///
/// # Errors
/// [`Error::Parse`] naming the expression for a syntax error; [`Error::Threshold`] for a
/// non-finite value at a probe point (named).
pub fn checked_threshold(
    text: &str,
    instance: &Instance,
    setting: &Setting,
) -> Result<crate::threshold::probe::CheckedThreshold> {
    let expr = crate::threshold::expr::parse_threshold(text)
        .map_err(|e| Error::Parse(format!("threshold `{text}`: {e}")))?;
    crate::threshold::probe::bind_checked(
        &expr,
        &crate::bandit::algos::threshold_constants(setting, instance)?,
    )
}

/// `value` as canonical JSON text (sorted keys, no white space).
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String((*k).clone()).to_string());
                out.push(':');
                write_canonical(&m[k.as_str()], out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(x, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// The first top-level key whose value differs between two JSON objects (`None`: equal), for
/// messages that name the field.
pub fn first_difference(a: &Value, b: &Value) -> Option<String> {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return (a != b).then(|| "(the whole object)".to_string());
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .find(|k| a.get(k.as_str()) != b.get(k.as_str()))
        .cloned()
}

impl CellSpec {
    /// The specification of `runs` runs (seed `seed`, cap `max_steps`) of `setting` on
    /// `instance`, with an optional user threshold, at the current engine semantics.
    pub fn new(
        setting: &Setting,
        instance: &Instance,
        threshold: Option<&str>,
        step_by_step: bool,
        runs: u64,
        seed: u64,
        max_steps: u64,
    ) -> Self {
        let family = instance.family().name().spelling();
        let sigma = match instance.family() {
            Family::Bernoulli => None,
            Family::Gaussian { sigma } => Some(sigma),
        };
        CellSpec {
            format: SPEC_FORMAT,
            family: family.into(),
            sigma,
            means: instance.means().to_vec(),
            algo: setting.algo,
            rules: setting.rules,
            delta: setting.delta.get(),
            eps: setting.eps_value(),
            gamma: setting.gamma_value(),
            beta: setting.beta.get(),
            readings: setting
                .readings()
                .into_iter()
                .zip(crate::bandit::READING_TABLE)
                .filter(|((_, v), r)| r.recorded_at_default || *v != (r.default)())
                .map(|((k, v), _)| (k.to_string(), v))
                .collect(),
            threshold: threshold.map(ThresholdSpec::new),
            step_by_step,
            runs,
            seed,
            max_steps,
            engine: EngineSemantics::current(setting.algo),
        }
    }

    /// The specification as a JSON value.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("invariant: a CellSpec serialises (finite numbers)")
    }

    /// The canonical encoding (module docs).
    pub fn canonical(&self) -> String {
        canonical_json(&self.to_value())
    }

    /// Parses a canonical (or any) JSON encoding of a specification.
    ///
    /// # Errors
    /// [`Error::Parse`] naming what is wrong.
    pub fn from_json(text: &str) -> Result<Self> {
        let spec: CellSpec = serde_json::from_str(text)
            .map_err(|e| Error::Parse(format!("not a dpbai cell specification: {e}")))?;
        if let Some(t) = &spec.threshold {
            if normal_threshold(&t.text) != t.expr {
                return Err(Error::Parse(format!(
                    "cell specification: threshold {:?} does not normalise to its recorded form \
                     {:?} (edited, or its preset changed)",
                    t.text, t.expr
                )));
            }
        }
        Ok(spec)
    }

    /// The digest of the canonical encoding.
    pub fn digest(&self) -> CellDigest {
        CellDigest(blake3::hash(self.canonical().as_bytes()).to_hex()[..16].to_string())
    }

    /// Whether `other` is this specification at another engine semantics (stale or newer).
    pub fn same_but_engine(&self, other: &CellSpec) -> bool {
        CellSpec {
            engine: other.engine.clone(),
            ..self.clone()
        } == *other
    }

    /// Whether the specification's engine semantics is the current one of its algorithm.
    pub fn is_current(&self) -> bool {
        self.engine == EngineSemantics::current(self.algo)
    }

    /// The instance.
    ///
    /// # Errors
    /// [`Error::InvalidInstance`] for means outside the family's domain; [`Error::Parse`] for an
    /// unknown family or a σ that does not match it.
    pub fn instance(&self) -> Result<Instance> {
        let family = match (self.family.parse::<FamilyName>(), self.sigma) {
            (Ok(FamilyName::Bernoulli), None) => Family::Bernoulli,
            (Ok(FamilyName::Gaussian), Some(sigma)) => Family::Gaussian { sigma },
            (_, s) => {
                let f = &self.family;
                return Err(Error::Parse(format!(
                    "cell specification: family {f:?} with sigma {s:?} (bernoulli takes none, \
                     gaussian needs one)"
                )));
            }
        };
        Instance::new(family, self.means.clone())
    }

    /// The algorithm's parameters.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a value outside its domain or an unknown reading.
    pub fn setting(&self) -> Result<Setting> {
        let mut s = Setting::new(self.algo, Delta::new(self.delta)?);
        s.eps = self.eps.map(Epsilon::new).transpose()?;
        s.gamma = self.gamma.map(Gamma::new).transpose()?;
        s.beta = Beta::new(self.beta)?;
        s.rules = self.rules;
        for (k, v) in &self.readings {
            s.set_reading(k, v)?;
        }
        Ok(s)
    }

    /// The engine's spec and, with a user threshold, its in-run check (read
    /// [`crate::threshold::probe::Checked::failure`] after the runs).
    ///
    /// # Errors
    /// As [`CellSpec::setting`], [`CellSpec::instance`] and [`checked_threshold`].
    pub fn engine_spec(
        &self,
    ) -> Result<(AlgoSpec, Option<crate::threshold::probe::CheckedThreshold>)> {
        let setting = self.setting()?;
        let mut spec = AlgoSpec::new(setting);
        spec.step_by_step = self.step_by_step;
        let checked = match &self.threshold {
            Some(t) => {
                let c = checked_threshold(&t.text, &self.instance()?, &setting)?;
                spec.custom_threshold = Some(c.clone() as Arc<dyn CustomThreshold>);
                Some(c)
            }
            None => None,
        };
        Ok((spec, checked))
    }

    /// The algorithm, built for the instance, with its threshold check.
    ///
    /// # Errors
    /// As [`CellSpec::engine_spec`] and [`crate::bandit::build`].
    pub fn build(
        &self,
    ) -> Result<(
        Box<dyn BaiAlgorithm>,
        Option<crate::threshold::probe::CheckedThreshold>,
    )> {
        let (spec, checked) = self.engine_spec()?;
        Ok((crate::bandit::build(&spec, &self.instance()?)?, checked))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> CellSpec {
        let nu = Instance::bernoulli(vec![0.9, 0.5]).expect("valid");
        let s = Setting::paper(AlgoName::AdapTt, 0.01)
            .and_then(|s| s.with_eps(0.5))
            .expect("valid");
        CellSpec::new(&s, &nu, None, false, 100, 7, 1_000_000)
    }

    #[test]
    fn canonical_is_sorted_and_round_trips() {
        let s = base();
        let text = s.canonical();
        assert!(text.starts_with(r#"{"algo":"adap-tt","beta":0.5,"delta":0.01,"engine":{"#));
        assert!(
            text.contains(r#""readings":{"adap-leader-bonus":"eq11","challenger-counts":"global""#)
        );
        assert!(!text.contains(' '));
        let back = CellSpec::from_json(&text).expect("parses");
        assert_eq!(back, s);
        assert_eq!(back.canonical(), text);
        assert_eq!(s.digest().as_str().len(), 16);
        assert!(CellDigest::parse(s.digest().as_str()).is_ok());
        assert!(CellDigest::parse("ABCDEF0123456789").is_err());
    }

    #[test]
    fn every_field_changes_the_digest() {
        let s = base();
        let d = s.digest();
        let edits: Vec<fn(&mut CellSpec)> = vec![
            |c| c.means[1] = 0.6,
            |c| {
                c.family = "gaussian".into();
                c.sigma = Some(1.0)
            },
            |c| c.rules = Rules::Reference,
            |c| c.delta = 0.02,
            |c| c.eps = Some(0.6),
            |c| c.gamma = Some(0.1),
            |c| c.beta = 0.4,
            |c| {
                c.readings.insert("tie-break".into(), "uniform".into());
            },
            |c| c.threshold = Some(ThresholdSpec::new("log(1/delta)")),
            |c| c.step_by_step = true,
            |c| c.runs = 101,
            |c| c.seed = 8,
            |c| c.max_steps = 2_000_000,
            |c| c.engine.version += 1,
            |c| c.engine.fingerprint = "ffffffffffffffff".into(),
            |c| c.algo = AlgoName::AdapTtStar,
        ];
        for (i, e) in edits.iter().enumerate() {
            let mut c = s.clone();
            e(&mut c);
            assert_ne!(c.digest(), d, "edit {i}");
            assert_eq!(
                c.same_but_engine(&s),
                i == 13 || i == 14,
                "edit {i}: only engine edits keep the rest"
            );
        }
    }

    #[test]
    fn the_setting_and_instance_are_rebuilt_exactly() {
        let mut set = Setting::paper(AlgoName::GaussLdpTt, 0.05)
            .and_then(|s| s.with_eps(0.5))
            .and_then(|s| s.with_gamma(Some(0.1)))
            .expect("valid");
        set.tie_break = crate::bandit::TieBreak::Uniform;
        set.ids_beta = true;
        let nu = Instance::gaussian(vec![0.9, 0.5, 0.25], 2.0).expect("valid");
        let spec = CellSpec::new(&set, &nu, Some(" paper-cg "), true, 5, 3, 100);
        assert_eq!(spec.setting().expect("valid"), set);
        assert_eq!(spec.instance().expect("valid"), nu);
        let t = spec.threshold.clone().expect("a threshold");
        assert_eq!(
            (t.text.as_str(), t.expr),
            ("paper-cg", normal_threshold("paper-cg"))
        );
        assert!(spec.build().is_ok());
    }

    /// `eta` (a reading added after specifications were recorded) is left out of a
    /// specification at its default, so the canonical text of a DP-TT cell at `η = 1` is the one
    /// without the reading, and any other `η` is recorded, changes the digest and reads back.
    #[test]
    fn eta_is_recorded_only_when_it_is_not_the_default() {
        let nu = Instance::bernoulli(vec![0.9, 0.5]).expect("valid");
        let set = Setting::paper(AlgoName::DpTt, 0.01)
            .and_then(|s| s.with_eps(0.5))
            .expect("valid");
        let at_default = CellSpec::new(&set, &nu, None, false, 100, 7, 1_000_000);
        assert!(!at_default.readings.contains_key("eta"));
        assert!(!at_default.canonical().contains(r#""eta""#));
        // every other reading is recorded, defaults included
        assert_eq!(at_default.readings.len(), crate::bandit::READINGS.len() - 1);
        assert_eq!(at_default.setting().expect("valid"), set);
        let mut other = set;
        other.set_reading("eta", "0.5").expect("in range");
        let spec = CellSpec::new(&other, &nu, None, false, 100, 7, 1_000_000);
        assert_eq!(spec.readings.get("eta").map(String::as_str), Some("0.5"));
        assert_ne!(spec.digest(), at_default.digest());
        assert_eq!(spec.setting().expect("valid"), other);
        let back = CellSpec::from_json(&spec.canonical()).expect("parses");
        assert_eq!(back.digest(), spec.digest());
    }

    #[test]
    fn first_difference_names_the_key() {
        let a = base();
        let mut b = a.clone();
        b.seed = 9;
        assert_eq!(
            first_difference(&a.to_value(), &b.to_value()).as_deref(),
            Some("seed")
        );
        assert_eq!(first_difference(&a.to_value(), &a.to_value()), None);
    }
}
