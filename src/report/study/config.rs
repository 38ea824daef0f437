//! The study file of `dpbai experiment` (TOML) and its validation into experiment cells.
//!
//! Keys are spelled as `dpbai run`'s flags (`max-steps`, `tie-break`, …). Unknown keys, values
//! of the wrong type, misspelled names and values outside their domain are refused with one line
//! naming the key's path (`algorithm[2].algo`) and the allowed values. The README section
//! "Your own study" documents every key; `examples/study.toml` is a complete example.

use crate::bandit::rules::Eq14Form;
use crate::bandit::{
    build, AdapLeaderBonus, AlgoName, ChallengerCounts, DpaEpisodes, GaussLdpSigma, LeaderCounts,
    Rules, TieBreak,
};
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::report::experiments::{Cell, RunOptions};
use serde::Deserialize;

/// Default cap on the samples of one run (that of `dpbai run`).
pub const DEFAULT_MAX_STEPS: u64 = 100_000_000;

/// The study file, as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct StudyFile {
    /// Title of the figures and of SUMMARY.md.
    pub title: Option<String>,
    /// Runs per cell (`--runs` overrides it).
    pub runs: u64,
    /// Cap on the samples of one run (default 1e8, as `dpbai run`).
    pub max_steps: Option<u64>,
    /// Seed salt: absent = verify's seeds (FNV-1a of each cell's key); a number `S` adds
    /// `-seedS` to every key, hence new seeds.
    pub seed: Option<u64>,
    /// Risk(s): a number or a list.
    pub delta: toml::Value,
    /// ε grid of the private algorithms: a list, or `"lo:hi:n"` (n log-spaced values).
    pub eps: Option<toml::Value>,
    /// The instances.
    #[serde(rename = "instance")]
    pub instances: Vec<InstanceFile>,
    /// The algorithms.
    #[serde(rename = "algorithm")]
    pub algorithms: Vec<AlgorithmFile>,
    /// Which bounds the figures draw.
    #[serde(default)]
    pub bounds: BoundsFile,
}

/// Reward family of an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FamilyName {
    /// Bernoulli arms (σ = 1/2).
    #[default]
    Bernoulli,
    /// Gaussian arms with known `sigma`.
    Gaussian,
}

/// One `[[instance]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct InstanceFile {
    /// Name (letters, digits, `-`, `_`, `.`): it prefixes the cells' keys and names the figures.
    pub name: String,
    /// `bernoulli` (default) or `gaussian`.
    #[serde(default)]
    pub family: FamilyName,
    /// Arm means, with a unique best arm.
    pub means: Vec<f64>,
    /// σ of Gaussian arms (default 1; refused for Bernoulli arms).
    pub sigma: Option<f64>,
}

/// One `[[algorithm]]`: `dpbai run`'s algorithm options.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct AlgorithmFile {
    /// `dpbai run --algo`.
    pub algo: AlgoName,
    /// Legend and CSV label (default: the algorithm's name, plus ` (reference)` under the
    /// reference rules); labels must be distinct.
    pub label: Option<String>,
    /// `paper` (default) or `reference`.
    pub rules: Option<Rules>,
    /// This algorithm's own ε grid (default: the study's).
    pub eps: Option<toml::Value>,
    /// Only these instances (default: all).
    pub instances: Option<Vec<String>>,
    /// Runs of this algorithm's cells = the study's runs × this (default 1).
    pub runs_multiplier: Option<u64>,
    /// This algorithm's cap (default: the study's).
    pub max_steps: Option<u64>,
    /// `--beta`.
    pub beta: Option<f64>,
    /// `--gamma` (gauss-ldp-tt).
    pub gamma: Option<f64>,
    /// `--tie-break`.
    pub tie_break: Option<TieBreak>,
    /// `--challenger-counts`.
    pub challenger_counts: Option<ChallengerCounts>,
    /// `--ids-beta`.
    pub ids_beta: Option<bool>,
    /// `--gauss-sigma`.
    pub gauss_sigma: Option<GaussLdpSigma>,
    /// `--eq14-form`.
    pub eq14_form: Option<Eq14Form>,
    /// `--dpa-episodes`.
    pub dpa_episodes: Option<DpaEpisodes>,
    /// `--adap-leader-bonus`.
    pub adap_leader_bonus: Option<AdapLeaderBonus>,
    /// `--leader-counts`.
    pub leader_counts: Option<LeaderCounts>,
    /// `--threshold`: a user stopping threshold, a preset name (`dpbai audit delta
    /// --list-presets`) or an expression, replacing the algorithm's.
    pub threshold: Option<String>,
}

/// A lower-bound curve: `T*·log(1/(2.4δ))` of one privacy setting (MATH.md B).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LowerKind {
    /// `T_KL` (non-private).
    NonPrivate,
    /// `T_local(ε)` (ε-local DP).
    Local,
    /// `T_global(ε)` (ε-global DP).
    Global,
}

/// An asymptotic upper bound (`dpbai bounds`, MATH.md E.4), times `log(1/δ)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UpperKind {
    /// CTB-TT (Thm. 19).
    CtbTt,
    /// CTB-TT with IDS.
    CtbTtIds,
    /// AdaP-TT (Thm. 22).
    AdapTt,
    /// AdaP-TT* (Thm. 24, main-text form).
    AdapTtStar,
    /// AdaP-TT* (Lemma 52, appendix form).
    AdapTtStarLemma52,
    /// DPA-TT (App. H).
    DpaTt,
}

/// `[bounds]`: which curves the figures draw.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct BoundsFile {
    /// Lower-bound curves (default: the privacy settings of the algorithms).
    pub lower: Option<Vec<LowerKind>>,
    /// Upper-bound curves (default: those of the algorithms that have one).
    pub upper: Option<Vec<UpperKind>>,
    /// Draw the regime switches ε_g*, ε_l* as vertical lines (default true).
    pub switches: Option<bool>,
}

/// A validated instance.
#[derive(Debug, Clone)]
pub struct StudyInstance {
    /// Name.
    pub name: String,
    /// The instance.
    pub instance: Instance,
    /// `σ` of Gaussian arms (`None`: Bernoulli).
    pub sigma: Option<f64>,
}

/// A validated algorithm entry.
#[derive(Debug, Clone)]
pub struct StudyAlgorithm {
    /// Label (distinct).
    pub label: String,
    /// The algorithm.
    pub algo: AlgoName,
}

/// One cell of the study, with its place in it.
#[derive(Debug, Clone)]
pub struct StudyCell {
    /// Index into [`Study::instances`].
    pub instance: usize,
    /// Index into [`Study::algorithms`].
    pub algorithm: usize,
    /// The experiment cell (verify's machinery).
    pub cell: Cell,
}

/// A validated study: instances, algorithms and every cell, in a fixed order (instance,
/// algorithm, δ, ε).
#[derive(Debug, Clone)]
pub struct Study {
    /// Title.
    pub title: String,
    /// Instances.
    pub instances: Vec<StudyInstance>,
    /// Algorithms.
    pub algorithms: Vec<StudyAlgorithm>,
    /// Risks, in file order.
    pub deltas: Vec<f64>,
    /// The cells.
    pub cells: Vec<StudyCell>,
    /// Lower-bound curves to draw.
    pub lower: Vec<LowerKind>,
    /// Upper-bound curves to draw.
    pub upper: Vec<UpperKind>,
    /// Draw the regime switches.
    pub switches: bool,
}

fn bad(path: &str, msg: impl std::fmt::Display) -> Error {
    Error::Parse(format!("{path}: {msg}"))
}

/// The key path of a TOML error at byte `pos` of `text`: the enclosing `[table]` or
/// `[[array]]` (with its 0-based index) and the key on the error's line.
fn key_path(text: &str, pos: usize) -> String {
    let mut table = String::new();
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    let mut line_no = 0;
    let mut key = String::new();
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let t = line.trim();
        if offset > pos {
            break;
        }
        line_no = i + 1;
        if let Some(name) = t.strip_prefix("[[").and_then(|r| r.split("]]").next()) {
            let name = name.trim().to_string();
            let n = counts.entry(name.clone()).or_insert(0);
            table = format!("{name}[{n}]");
            *n += 1;
        } else if let Some(name) = t.strip_prefix('[').and_then(|r| r.split(']').next()) {
            table = name.trim().to_string();
        }
        key = t
            .split('=')
            .next()
            .filter(|_| t.contains('='))
            .unwrap_or("")
            .trim()
            .to_string();
        offset += line.len();
    }
    let path = match (table.is_empty(), key.is_empty()) {
        (true, true) => String::new(),
        (true, false) => key,
        (false, true) => table,
        (false, false) => format!("{table}.{key}"),
    };
    if path.is_empty() {
        format!("line {line_no}")
    } else {
        format!("{path} (line {line_no})")
    }
}

/// Parses and validates a study file. `source` names the file in messages.
///
/// # Errors
/// [`Error::Parse`] with one line `SOURCE: PATH: what is wrong; allowed values`.
pub fn parse_study(text: &str, source: &str) -> Result<Study> {
    let file: StudyFile = toml::from_str(text).map_err(|e| {
        let msg = e.message().replace('\n', " ");
        let at = e
            .span()
            .map(|s| key_path(text, s.start))
            .unwrap_or_else(|| "(file)".into());
        Error::Parse(format!("{source}: {at}: {}", msg.trim()))
    })?;
    validate(file).map_err(|e| match e {
        Error::Parse(m) => Error::Parse(format!("{source}: {m}")),
        other => Error::Parse(format!("{source}: {other}")),
    })
}

fn number(path: &str, v: &toml::Value) -> Result<f64> {
    match v {
        toml::Value::Float(x) => Ok(*x),
        toml::Value::Integer(i) => Ok(*i as f64),
        _ => Err(bad(path, format!("{v} is not a number"))),
    }
}

/// A list of numbers or one number.
fn numbers(path: &str, v: &toml::Value) -> Result<Vec<f64>> {
    match v {
        toml::Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, x)| number(&format!("{path}[{i}]"), x))
            .collect(),
        other => Ok(vec![number(path, other)?]),
    }
}

/// `"lo:hi:n"`: `n` log-spaced values from `lo` to `hi` (both included).
///
/// # Errors
/// [`Error::Parse`] unless `0 < lo <= hi` finite and `1 <= n <= 1000`.
pub fn log_grid(path: &str, s: &str) -> Result<Vec<f64>> {
    let err = || {
        bad(
            path,
            format!("{s:?} must be \"lo:hi:n\" with 0 < lo <= hi finite and 1 <= n <= 1000"),
        )
    };
    let p: Vec<&str> = s.split(':').map(str::trim).collect();
    if p.len() != 3 {
        return Err(err());
    }
    let lo: f64 = p[0].parse().map_err(|_| err())?;
    let hi: f64 = p[1].parse().map_err(|_| err())?;
    let n: usize = p[2].parse().map_err(|_| err())?;
    if !(lo > 0.0 && hi >= lo && hi.is_finite() && (1..=1000).contains(&n)) {
        return Err(err());
    }
    if n == 1 {
        return Ok(vec![lo]);
    }
    let (l0, l1) = (lo.ln(), hi.ln());
    Ok((0..n)
        .map(|i| match i {
            0 => lo,
            i if i == n - 1 => hi,
            // Rounded to 6 significant digits: keys (and seeds) stay readable and stable.
            i => {
                let x = (l0 + (l1 - l0) * i as f64 / (n - 1) as f64).exp();
                format!("{x:.5e}").parse().unwrap_or(x)
            }
        })
        .collect())
}

fn eps_grid(path: &str, v: &toml::Value) -> Result<Vec<f64>> {
    let grid = match v {
        toml::Value::String(s) => log_grid(path, s)?,
        other => numbers(path, other)?,
    };
    if grid.is_empty() {
        return Err(bad(path, "empty ε grid"));
    }
    for (i, &e) in grid.iter().enumerate() {
        crate::params::check_eps("eps", e).map_err(|_| {
            bad(
                &format!("{path}[{i}]"),
                format!("ε = {e} must be in (0, 1e300]"),
            )
        })?;
    }
    Ok(grid)
}

fn validate(f: StudyFile) -> Result<Study> {
    use crate::params::limits;
    limits::check_runs("runs", f.runs).map_err(|e| bad("runs", e))?;
    let max_steps = f.max_steps.unwrap_or(DEFAULT_MAX_STEPS);
    limits::check_max_steps(max_steps).map_err(|e| bad("max-steps", e))?;
    let deltas = numbers("delta", &f.delta)?;
    if deltas.is_empty() {
        return Err(bad("delta", "empty list: give at least one δ in (0, 1)"));
    }
    for (i, &d) in deltas.iter().enumerate() {
        if !(d > 0.0 && d < 1.0) {
            return Err(bad(
                &format!("delta[{i}]"),
                format!("δ = {d} must be in (0, 1)"),
            ));
        }
    }
    let study_eps = f.eps.as_ref().map(|v| eps_grid("eps", v)).transpose()?;
    if f.instances.is_empty() {
        return Err(bad("instance", "no [[instance]]: give at least one"));
    }
    if f.algorithms.is_empty() {
        return Err(bad("algorithm", "no [[algorithm]]: give at least one"));
    }
    let mut instances = Vec::new();
    for (i, inst) in f.instances.iter().enumerate() {
        let p = format!("instance[{i}]");
        if inst.name.is_empty()
            || !inst
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        {
            return Err(bad(
                &format!("{p}.name"),
                format!(
                    "{:?}: must be non-empty letters, digits, '-', '_', '.'",
                    inst.name
                ),
            ));
        }
        if instances
            .iter()
            .any(|x: &StudyInstance| x.name == inst.name)
        {
            return Err(bad(
                &format!("{p}.name"),
                format!("{:?} is used twice", inst.name),
            ));
        }
        let sigma = match (inst.family, inst.sigma) {
            (FamilyName::Bernoulli, Some(s)) => {
                return Err(bad(
                    &format!("{p}.sigma"),
                    format!("{s}: only for family = \"gaussian\" (Bernoulli arms have σ = 1/2)"),
                ))
            }
            (FamilyName::Bernoulli, None) => None,
            (FamilyName::Gaussian, s) => Some(s.unwrap_or(1.0)),
        };
        if let Some(s) = sigma {
            crate::params::check_gaussian_arms(s, &inst.means)
                .map_err(|e| bad(&format!("{p}.sigma"), e))?;
        }
        let top = inst.means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let ties = inst.means.iter().filter(|&&m| m == top).count();
        if ties > 1 {
            return Err(bad(
                &format!("{p}.means"),
                format!(
                    "{:?}: the best mean {top} is shared by {ties} arms; the best arm must be unique",
                    inst.means
                ),
            ));
        }
        let cell = Cell {
            instance: inst.name.clone(),
            means: inst.means.clone(),
            algo: AlgoName::Ttucb,
            eps: None,
            delta: 0.1,
            rules: Rules::Paper,
            runs: 1,
            max_steps: 1,
            dpa_episodes: DpaEpisodes::PerArm,
            adap_leader_bonus: AdapLeaderBonus::Eq11,
            leader_counts: LeaderCounts::Local,
            options: RunOptions {
                sigma,
                ..RunOptions::default()
            },
        };
        let instance = cell.instance().map_err(|e| bad(&format!("{p}.means"), e))?;
        instances.push(StudyInstance {
            name: inst.name.clone(),
            instance,
            sigma,
        });
    }
    let mut algorithms: Vec<StudyAlgorithm> = Vec::new();
    let mut cells = Vec::new();
    for (j, a) in f.algorithms.iter().enumerate() {
        let p = format!("algorithm[{j}]");
        let rules = a.rules.unwrap_or_default();
        let label = a.label.clone().unwrap_or_else(|| match rules {
            Rules::Paper => a.algo.as_str().to_string(),
            Rules::Reference => format!("{} (reference)", a.algo.as_str()),
        });
        if algorithms.iter().any(|x| x.label == label) {
            return Err(bad(
                &format!("{p}.label"),
                format!("{label:?} is used twice: give each [[algorithm]] a distinct label"),
            ));
        }
        let eps: Vec<Option<f64>> = if a.algo.needs_eps() {
            match (&a.eps, &study_eps) {
                (Some(v), _) => eps_grid(&format!("{p}.eps"), v)?
                    .into_iter()
                    .map(Some)
                    .collect(),
                (None, Some(g)) => g.iter().copied().map(Some).collect(),
                (None, None) => {
                    return Err(bad(
                        &format!("{p}.eps"),
                        format!(
                            "{} is private and needs an ε grid: set eps here or at the top level",
                            a.algo.as_str()
                        ),
                    ))
                }
            }
        } else {
            if a.eps.is_some() {
                return Err(bad(
                    &format!("{p}.eps"),
                    format!("{} is not private: it takes no ε", a.algo.as_str()),
                ));
            }
            vec![None]
        };
        let chosen: Vec<usize> = match &a.instances {
            None => (0..instances.len()).collect(),
            Some(names) => names
                .iter()
                .enumerate()
                .map(|(k, n)| {
                    instances.iter().position(|x| &x.name == n).ok_or_else(|| {
                        let all: Vec<&str> = instances.iter().map(|x| x.name.as_str()).collect();
                        bad(
                            &format!("{p}.instances[{k}]"),
                            format!(
                                "{n:?} is not an instance: must be one of {}",
                                all.join(", ")
                            ),
                        )
                    })
                })
                .collect::<Result<_>>()?,
        };
        let mult = a.runs_multiplier.unwrap_or(1);
        if mult == 0 {
            return Err(bad(
                &format!("{p}.runs-multiplier"),
                "0: must be at least 1",
            ));
        }
        let cap = a.max_steps.unwrap_or(max_steps);
        limits::check_max_steps(cap).map_err(|e| bad(&format!("{p}.max-steps"), e))?;
        let beta = a.beta.unwrap_or(0.5);
        crate::params::Beta::new(beta).map_err(|e| bad(&format!("{p}.beta"), e))?;
        let alg_index = algorithms.len();
        algorithms.push(StudyAlgorithm {
            label,
            algo: a.algo,
        });
        for &i in &chosen {
            for &delta in &deltas {
                for &e in &eps {
                    let cell = Cell {
                        instance: instances[i].name.clone(),
                        means: instances[i].instance.means().to_vec(),
                        algo: a.algo,
                        eps: e,
                        delta,
                        rules,
                        runs: f.runs.saturating_mul(mult),
                        max_steps: cap,
                        dpa_episodes: a.dpa_episodes.unwrap_or_default(),
                        adap_leader_bonus: a.adap_leader_bonus.unwrap_or_default(),
                        leader_counts: a.leader_counts.unwrap_or_default(),
                        options: RunOptions {
                            sigma: instances[i].sigma,
                            beta,
                            gamma: a.gamma,
                            tie_break: a.tie_break.unwrap_or_default(),
                            challenger_counts: a.challenger_counts.unwrap_or_default(),
                            ids_beta: a.ids_beta.unwrap_or(false),
                            gauss_sigma: a.gauss_sigma.unwrap_or_default(),
                            eq14_form: a.eq14_form.unwrap_or_default(),
                            seed_salt: f.seed,
                            threshold: a.threshold.clone(),
                        },
                    };
                    // Every setting is checked once, as `dpbai run` would, before anything runs.
                    let (spec, _) = cell.spec().map_err(|err| match &a.threshold {
                        Some(_) => bad(&format!("{p}.threshold"), err),
                        None => bad(&p, err),
                    })?;
                    build(&spec, &instances[i].instance).map_err(|err| bad(&p, err))?;
                    if let Some(prev) = cells
                        .iter()
                        .find(|c: &&StudyCell| c.cell.key() == cell.key())
                    {
                        return Err(bad(
                            &p,
                            format!(
                                "cell {} repeats one of algorithm[{}]: give the entries different \
                                 settings",
                                cell.key(),
                                prev.algorithm
                            ),
                        ));
                    }
                    cells.push(StudyCell {
                        instance: i,
                        algorithm: alg_index,
                        cell,
                    });
                }
            }
        }
    }
    // Re-order: instance, then algorithm (file order), then δ, then ε.
    cells.sort_by_key(|c| (c.instance, c.algorithm));
    let lower = match &f.bounds.lower {
        Some(l) => l.clone(),
        None => {
            let mut l: Vec<LowerKind> = algorithms.iter().map(|a| lower_kind(a.algo)).collect();
            l.sort();
            l.dedup();
            l
        }
    };
    let upper = match &f.bounds.upper {
        Some(u) => u.clone(),
        None => {
            let mut u: Vec<UpperKind> = cells.iter().filter_map(|c| upper_kind(&c.cell)).collect();
            u.sort();
            u.dedup();
            u
        }
    };
    Ok(Study {
        title: f.title.unwrap_or_else(|| "dpbai experiment".into()),
        instances,
        algorithms,
        deltas,
        cells,
        lower,
        upper,
        switches: f.bounds.switches.unwrap_or(true),
    })
}

/// The privacy setting of an algorithm, hence its lower bound.
pub fn lower_kind(algo: AlgoName) -> LowerKind {
    match algo {
        AlgoName::Ttucb | AlgoName::DpaTt => LowerKind::NonPrivate,
        AlgoName::CtbTt | AlgoName::GaussLdpTt => LowerKind::Local,
        AlgoName::AdapTt | AlgoName::AdapTtStar | AlgoName::DpSe => LowerKind::Global,
    }
}

/// The asymptotic upper bound a cell's algorithm has, if any (CTB-TT with IDS has its own; the
/// bounds assume the paper's rules and Bernoulli arms for CTB-TT).
pub fn upper_kind(cell: &Cell) -> Option<UpperKind> {
    match cell.algo {
        AlgoName::CtbTt if cell.options.ids_beta => Some(UpperKind::CtbTtIds),
        AlgoName::CtbTt => Some(UpperKind::CtbTt),
        AlgoName::AdapTt => Some(UpperKind::AdapTt),
        AlgoName::AdapTtStar => Some(UpperKind::AdapTtStar),
        AlgoName::DpaTt => Some(UpperKind::DpaTt),
        _ => None,
    }
}

impl LowerKind {
    /// Name in results.csv and legends.
    pub fn as_str(self) -> &'static str {
        match self {
            LowerKind::NonPrivate => "non-private",
            LowerKind::Local => "local",
            LowerKind::Global => "global",
        }
    }
}

impl UpperKind {
    /// Name in results.csv and legends.
    pub fn as_str(self) -> &'static str {
        match self {
            UpperKind::CtbTt => "ctb-tt",
            UpperKind::CtbTtIds => "ctb-tt-ids",
            UpperKind::AdapTt => "adap-tt",
            UpperKind::AdapTtStar => "adap-tt-star",
            UpperKind::AdapTtStarLemma52 => "adap-tt-star-lemma52",
            UpperKind::DpaTt => "dpa-tt",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = r#"
runs = 4
delta = 0.1
eps = [0.5, 1.0]
[[instance]]
name = "easy"
means = [0.9, 0.5, 0.1]
[[algorithm]]
algo = "dp-se"
"#;

    fn err(text: &str) -> String {
        match parse_study(text, "t.toml") {
            Err(Error::Parse(m)) => m,
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn a_valid_file_gives_its_cells() {
        let s = parse_study(BASE, "t.toml").expect("valid");
        assert_eq!(s.cells.len(), 2);
        assert_eq!(s.lower, vec![LowerKind::Global]);
    }

    #[test]
    fn bad_files_name_the_key() {
        let m = err(&format!("{BASE}epss = 3\n"));
        assert!(m.contains("epss") && m.contains("unknown field"), "{m}");
        let m = err(&BASE.replace("dp-se", "dp-sse"));
        assert!(
            m.contains("algorithm[0].algo") && m.contains("adap-tt-star"),
            "{m}"
        );
        let m = err(&BASE.replace("[0.9, 0.5, 0.1]", "[0.9, 0.9, 0.1]"));
        assert!(
            m.contains("instance[0].means") && m.contains("unique"),
            "{m}"
        );
        let m = err(&BASE.replace("[0.5, 1.0]", "[0.0, 1.0]"));
        assert!(m.contains("eps[0]") && m.contains("(0, 1e300]"), "{m}");
        let m = err(&BASE.replace("runs = 4\n", ""));
        assert!(m.contains("runs"), "{m}");
        let m = err(&BASE.replace("delta = 0.1", "delta = [0.1, 1.5]"));
        assert!(m.contains("delta[1]"), "{m}");
    }

    #[test]
    fn log_grid_ends_and_spacing() {
        let g = log_grid("eps", "0.01:100:5").expect("grid");
        assert_eq!(g, vec![0.01, 0.1, 1.0, 10.0, 100.0]);
        assert!(log_grid("eps", "1:0.1:3").is_err());
    }
}
