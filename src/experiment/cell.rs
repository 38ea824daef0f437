//! The labelled cells of `dpbai verify` and `dpbai experiment`: one (instance, algorithm, ε, δ,
//! rules, readings) combination run over many seeded Monte Carlo runs. A [`Cell`] is a
//! [`CellSpec`] whose seed derives from a human-readable key ([`Cell::key`]: instance name,
//! algorithm, ε, δ, rules and one suffix per non-default option; [`super::seed`]). The key labels
//! the cell in progress lines and tables; the [`CellDigest`] of its specification identifies it
//! (the cache file, the shard files, every row and figure point derived from it).
//!
//! Cache and shard files: [`super::cache`]; running: [`super::run`].

use super::seed::{cell_seed, fnv1a};
use super::spec::{CellDigest, CellSpec, normal_threshold};
use crate::bandit::readings::KeyPlace;
use crate::bandit::{
    AdapLeaderBonus, AlgoName, AlgoSpec, ChallengerCounts, DpaEpisodes, GaussLdpSigma,
    LeaderCounts, Rules, Setting, TieBreak,
};
use crate::error::Result;
use crate::instance::{Family, Instance};
use crate::threshold::Eq14Form;
use crate::threshold::probe::CheckedThreshold;
use serde::Serialize;

/// One experiment cell: an instance, a [`Setting`] and the run sizes.
///
/// Serialised (e.g. `dpbai verify --json`) in its historical layout, with the setting's
/// fields spread over the cell and an `options` object (the private `CellJson`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(into = "CellJson")]
pub struct Cell {
    /// Instance name (`mu1` … `mu6`).
    pub instance: String,
    /// Means of the arms.
    pub means: Vec<f64>,
    /// `σ` of Gaussian arms (`--family gaussian --sigma`); `None` for Bernoulli arms.
    pub sigma: Option<f64>,
    /// The algorithm and its parameters. A value other than [`Setting::new`]'s default adds a
    /// suffix to the cell's key (so its cache file and seed differ), while the default adds
    /// nothing (verify's keys and seeds do not depend on the defaults).
    pub setting: Setting,
    /// Runs.
    pub runs: u64,
    /// Cap on the samples of one run.
    pub max_steps: u64,
    /// A salt of the cell's seed (`dpbai experiment`'s `seed` key): the key gets `-seed<S>`,
    /// so the seed (FNV-1a of the key) changes with it. `None` = verify's seeds.
    pub seed_salt: Option<u64>,
    /// The master seed of the cell this one controls: a control runs on the same seeds and run
    /// count as its cell, so "capped in the cell and not in its control" is a statement about
    /// the same runs. `None`: the seed of the cell's own key.
    pub paired_seed: Option<u64>,
    /// A user stopping threshold (`--threshold`, [`crate::threshold::expr::parse_threshold`]: a preset name or an
    /// expression) replacing the algorithm's; the key gets `-thr<16 hex digits>` of
    /// [`threshold_key`]. `None` = the algorithm's own threshold.
    pub threshold: Option<String>,
}

/// The serialised layout of a [`Cell`] (unchanged since before [`Setting`]): the paper's
/// varied parameters at the top level, the other `dpbai run` options in `options`.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct CellJson {
    instance: String,
    means: Vec<f64>,
    algo: AlgoName,
    eps: Option<f64>,
    delta: f64,
    rules: Rules,
    runs: u64,
    max_steps: u64,
    dpa_episodes: DpaEpisodes,
    adap_leader_bonus: AdapLeaderBonus,
    leader_counts: LeaderCounts,
    options: OptionsJson,
}

/// The `options` object of [`CellJson`].
#[derive(Debug, Clone, PartialEq, Serialize)]
struct OptionsJson {
    sigma: Option<f64>,
    beta: f64,
    gamma: Option<f64>,
    tie_break: TieBreak,
    challenger_counts: ChallengerCounts,
    ids_beta: bool,
    gauss_sigma: GaussLdpSigma,
    eq14_form: Eq14Form,
    seed_salt: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    paired_seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    threshold: Option<String>,
}

impl From<Cell> for CellJson {
    fn from(c: Cell) -> Self {
        let s = c.setting;
        CellJson {
            instance: c.instance,
            means: c.means,
            algo: s.algo,
            eps: s.eps_value(),
            delta: s.delta.get(),
            rules: s.rules,
            runs: c.runs,
            max_steps: c.max_steps,
            dpa_episodes: s.dpa_episodes,
            adap_leader_bonus: s.adap_leader_bonus,
            leader_counts: s.leader_counts,
            options: OptionsJson {
                sigma: c.sigma,
                beta: s.beta.get(),
                gamma: s.gamma_value(),
                tie_break: s.tie_break,
                challenger_counts: s.challenger_counts,
                ids_beta: s.ids_beta,
                gauss_sigma: s.gauss_sigma,
                eq14_form: s.eq14_form,
                seed_salt: c.seed_salt,
                paired_seed: c.paired_seed,
                threshold: c.threshold,
            },
        }
    }
}

/// The instance of a cell with these means: Bernoulli (`sigma = None`), or Gaussian with `σ`.
///
/// # Errors
/// [`crate::Error::InvalidInstance`] for means outside the family's domain.
pub fn cell_instance(means: &[f64], sigma: Option<f64>) -> Result<Instance> {
    match sigma {
        None => Instance::bernoulli(means.to_vec()),
        Some(sigma) => Instance::new(Family::Gaussian { sigma }, means.to_vec()),
    }
}

/// The hash naming a user threshold in a cell key: FNV-1a of its normalised text
/// ([`normal_threshold`]: a preset name expanded to its expression, white space removed), so
/// spellings of one expression that differ only in spacing, or a preset and its expansion,
/// share a key (and a seed).
pub fn threshold_key(text: &str) -> u64 {
    fnv1a(&normal_threshold(text))
}

/// `paper` or `reference`, as in keys and on the command line.
pub(crate) fn rules_str(r: Rules) -> &'static str {
    crate::spelling::Spelling::spelling(&r)
}

/// The engine-only options of a run as `dpbai run` records them in a summary's `options`, after
/// the setting's readings ([`Setting::non_default_flags`]): `--step-by-step`, then
/// `--threshold EXPR` with `EXPR` shell-quoted ([`super::shell::shell_word`]).
pub fn engine_flags(step_by_step: bool, threshold: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    if step_by_step {
        out.push("--step-by-step".into());
    }
    if let Some(t) = threshold {
        out.push(format!("--threshold {}", super::shell::shell_word(t)));
    }
    out
}

use crate::error::compact_number;

/// A number in a cell key: as `Display` writes it (`0.01`, `0.0000000000000001`), unless that
/// takes more than 24 characters (`1e-300` has 300 zeros there), then in exponent form (`1e-300`).
/// The key seeds the cell, so the rule keeps every key whose numbers were short enough to store
/// (the longest number of a stored key is `1e-16`, 18 characters) and shortens only the keys no
/// result was stored under.
///
/// ```text
/// key_number(0.01) = "0.01", key_number(1e-16) = "0.0000000000000001", key_number(1e-300) = "1e-300"
/// ```
fn key_number(x: f64) -> String {
    let plain = x.to_string();
    if plain.len() > 24 {
        format!("{x:e}")
    } else {
        plain
    }
}

impl Cell {
    /// A cell of `algo` with the paper's readings at `eps` (private algorithms) and `delta` on
    /// the named Bernoulli instance: what a study's `[[algorithm]]` naming only `algo` gives.
    ///
    /// # Errors
    /// `delta` or `eps` out of range.
    pub fn paper(
        instance: &str,
        means: &[f64],
        algo: AlgoName,
        eps: Option<f64>,
        delta: f64,
        runs: u64,
        max_steps: u64,
    ) -> Result<Cell> {
        let mut setting = Setting::paper(algo, delta)?;
        if let Some(e) = eps {
            setting = setting.with_eps(e)?;
        }
        Ok(Cell {
            instance: instance.to_string(),
            means: means.to_vec(),
            sigma: None,
            setting,
            runs,
            max_steps,
            seed_salt: None,
            paired_seed: None,
            threshold: None,
        })
    }

    /// The human-readable key, without the run count: it labels the cell in progress lines and
    /// tables and seeds it ([`Cell::seed`]); the cache file is named by the digest of the cell's
    /// specification ([`CellDigest`]), not by the key.
    pub fn key(&self) -> String {
        let s = &self.setting;
        let eps = s
            .eps_value()
            .map(|e| format!("eps{}", key_number(e)))
            .unwrap_or_else(|| "nonprivate".into());
        format!(
            "{}_{}{}_{}_delta{}_{}",
            self.instance,
            s.algo.as_str(),
            self.variant_suffix(),
            eps,
            key_number(s.delta.get()),
            rules_str(s.rules)
        )
    }
    /// `-global` for the global-episode DPA variant, `-bonus-eq3` / `-bonus-eq11-log-n` and
    /// `-live-counts` for the control cells, then one suffix per other non-default option;
    /// empty for the paper's algorithms (so their keys and seeds do not change).
    pub fn variant_suffix(&self) -> String {
        let o = &self.setting;
        let d = Setting::new(o.algo, o.delta);
        let changed = o.changed_readings();
        let part = |place: KeyPlace| -> String {
            changed
                .iter()
                .filter(|(r, _)| r.key_place == place)
                .map(|(r, v)| (r.key_part)(v))
                .collect()
        };
        let mut s = part(KeyPlace::BeforeParameters);
        if let Some(sigma) = self.sigma {
            s.push_str(&format!("-gaussian-sigma{}", key_number(sigma)));
        }
        if o.beta != d.beta {
            s.push_str(&format!("-beta{}", key_number(o.beta.get())));
        }
        if let Some(g) = o.gamma_value() {
            s.push_str(&format!("-gamma{}", key_number(g)));
        }
        s.push_str(&part(KeyPlace::AfterParameters));
        if let Some(salt) = self.seed_salt {
            s.push_str(&format!("-seed{salt}"));
        }
        if let Some(t) = &self.threshold {
            s.push_str(&format!("-thr{:016x}", threshold_key(t)));
        }
        s
    }

    /// The cell's instance: Bernoulli, or Gaussian with `sigma` ([`cell_instance`]).
    ///
    /// # Errors
    /// [`crate::Error::InvalidInstance`] for means outside the family's domain.
    pub fn instance(&self) -> Result<Instance> {
        cell_instance(&self.means, self.sigma)
    }

    /// The cell's full specification: its setting, instance, threshold, runs and cap, the seed
    /// of its key, at the current engine semantics.
    pub fn spec(&self) -> CellSpec {
        let instance = self
            .instance()
            .expect("invariant: a cell's means were validated when it was made");
        CellSpec::new(
            &self.setting,
            &instance,
            self.threshold.as_deref(),
            false,
            self.runs,
            self.seed(),
            self.max_steps,
        )
    }

    /// The digest of [`Cell::spec`]: what identifies the cell.
    pub fn digest(&self) -> CellDigest {
        self.spec().digest()
    }

    /// The engine's spec of the cell (its [`Setting`]) and, for a cell with a user threshold,
    /// its in-run check (set as `custom_threshold`; read its
    /// [`crate::threshold::probe::Checked::failure`] after the runs).
    ///
    /// # Errors
    /// A bad threshold ([`super::checked_threshold`]); an instance outside its family's domain.
    pub fn engine_spec(&self) -> Result<(AlgoSpec, Option<CheckedThreshold>)> {
        self.spec().engine_spec()
    }

    /// The `dpbai run` arguments (after `dpbai run`) that reproduce the cell's runs exactly:
    /// same seed, runs, cap and settings (non-default options only).
    pub fn run_args(&self) -> Vec<String> {
        let o = &self.setting;
        let d = Setting::new(o.algo, o.delta);
        let means: Vec<String> = self.means.iter().map(|m| m.to_string()).collect();
        let mut a: Vec<String> = vec![
            "--algo".into(),
            o.algo.as_str().into(),
            "--means".into(),
            means.join(","),
        ];
        let mut push = |k: &str, v: String| {
            a.push(format!("--{k}"));
            a.push(v);
        };
        if let Some(sigma) = self.sigma {
            push("family", "gaussian".into());
            push("sigma", compact_number(sigma));
        }
        push("delta", compact_number(o.delta.get()));
        if let Some(e) = o.eps_value() {
            push("eps", compact_number(e));
        }
        if let Some(g) = o.gamma_value() {
            push("gamma", g.to_string());
        }
        if o.beta != d.beta {
            push("beta", o.beta.get().to_string());
        }
        push("rules", rules_str(o.rules).into());
        let changed = o.changed_readings();
        for (r, v) in changed.iter().filter(|(r, _)| !r.switch) {
            push(r.name, v.clone());
        }
        push("runs", self.runs.to_string());
        push("seed", self.seed().to_string());
        push("max-steps", self.max_steps.to_string());
        for (r, _) in changed.iter().filter(|(r, _)| r.switch) {
            a.push(format!("--{}", r.name));
        }
        if let Some(t) = &self.threshold {
            a.push("--threshold".into());
            a.push(t.clone());
        }
        a
    }
    /// Master seed of the cell: [`cell_seed`] of its key, or the seed of the cell it controls
    /// ([`Cell::paired_seed`]).
    pub fn seed(&self) -> u64 {
        self.paired_seed.unwrap_or_else(|| cell_seed(&self.key()))
    }
    /// This cell as a control of `base`: the same seed and runs as `base`.
    pub fn paired_with(self, base: &Cell) -> Cell {
        Cell {
            paired_seed: Some(base.seed()),
            runs: base.runs,
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_options_keep_verify_keys_and_each_option_changes_the_key() {
        let base = Cell::paper(
            "mu4",
            &[0.75, 0.5],
            AlgoName::AdapTtStar,
            Some(0.2),
            0.01,
            100,
            30_000_000,
        )
        .expect("valid");
        assert_eq!(base.key(), "mu4_adap-tt-star_eps0.2_delta0.01_paper");
        let p = base.setting;
        let set = |f: &dyn Fn(&mut Setting)| {
            let mut c = base.clone();
            f(&mut c.setting);
            c
        };
        let variants = [
            Cell {
                sigma: Some(1.0),
                ..base.clone()
            },
            set(&|s| s.beta = crate::params::Beta::new(0.3).expect("valid")),
            set(&|s| s.gamma = Some(crate::params::Gamma::new(1e-6).expect("valid"))),
            set(&|s| s.tie_break = TieBreak::Uniform),
            set(&|s| s.challenger_counts = ChallengerCounts::Local),
            set(&|s| s.ids_beta = true),
            set(&|s| s.gauss_sigma = GaussLdpSigma::Printed),
            set(&|s| s.eq14_form = Eq14Form::Printed),
            Cell {
                seed_salt: Some(7),
                paired_seed: None,
                ..base.clone()
            },
            Cell {
                threshold: Some("paper-cg".into()),
                ..base.clone()
            },
            Cell {
                threshold: Some("log(1/delta)".into()),
                ..base.clone()
            },
        ];
        assert_eq!(base.setting, p);
        let mut keys = vec![base.key()];
        for c in variants {
            assert!(c.key().starts_with("mu4_adap-tt-star-"), "{}", c.key());
            keys.push(c.key());
        }
        let n = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), n, "every option gives its own key (and seed)");
    }

    /// Keys spell short numbers as before (stored cells keep their seeds and digests: the
    /// delta-scaling example's `1e-16` and `gamma 1e-6` cells) and long ones in exponent form.
    #[test]
    fn keys_keep_short_numbers_and_shorten_long_ones() {
        let cell = |delta: f64, gamma: Option<f64>| {
            let mut c = Cell::paper(
                "mu4",
                &[0.75, 0.5],
                AlgoName::GaussLdpTt,
                Some(1.0),
                0.01,
                100,
                30_000_000,
            )
            .expect("valid");
            c.setting.delta = crate::params::Delta::new(delta).expect("valid");
            c.setting.gamma = gamma.map(|g| crate::params::Gamma::new(g).expect("valid"));
            c.key()
        };
        assert_eq!(
            cell(1e-16, Some(1e-6)),
            "mu4_gauss-ldp-tt-gamma0.000001_eps1_delta0.0000000000000001_paper"
        );
        assert_eq!(
            cell(1e-300, Some(1e-300)),
            "mu4_gauss-ldp-tt-gamma1e-300_eps1_delta1e-300_paper"
        );
        assert_eq!(key_number(1e-22), "0.0000000000000000000001");
        assert_eq!(key_number(1e-23), "1e-23");
        assert_eq!(key_number(1e300), "1e300");
    }

    /// The JSON of a cell keeps the layout of the struct it had before [`Setting`] (fields in
    /// that struct's declaration order; `threshold` omitted when absent).
    #[test]
    fn json_keeps_the_layout_before_setting() {
        let mut c = Cell::paper(
            "mu4",
            &[0.75, 0.5],
            AlgoName::GaussLdpTt,
            Some(0.2),
            0.01,
            100,
            30_000_000,
        )
        .expect("valid");
        c.setting.gamma = Some(crate::params::Gamma::new(1e-6).expect("valid"));
        c.setting.tie_break = TieBreak::Uniform;
        c.seed_salt = Some(3);
        let old = concat!(
            r#"{"instance":"mu4","means":[0.75,0.5],"algo":"gauss-ldp-tt","eps":0.2,"#,
            r#""delta":0.01,"rules":"paper","runs":100,"max_steps":30000000,"#,
            r#""dpa_episodes":"per-arm","adap_leader_bonus":"eq11","leader_counts":"local","#,
            r#""options":{"sigma":null,"beta":0.5,"gamma":1e-6,"tie_break":"uniform","#,
            r#""challenger_counts":"global","ids_beta":false,"gauss_sigma":"combined","#,
            r#""eq14_form":"k-squared","seed_salt":3}}"#
        );
        assert_eq!(serde_json::to_string(&c).expect("serialises"), old);
        c.threshold = Some("paper-cg".into());
        let with_thr = serde_json::to_string(&c).expect("serialises");
        assert!(with_thr.ends_with(r#""seed_salt":3,"threshold":"paper-cg"}}"#));
    }
}
