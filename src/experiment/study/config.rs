//! The study file of `dpbai experiment` (TOML): its schema (this file) and its validation into
//! experiment cells ([`super::validate`]: [`parse_study`]).
//!
//! Keys are spelled as `dpbai run`'s flags (`max-steps`, `tie-break`, …). Unknown keys, values
//! of the wrong type, misspelled names and values outside their domain are refused with one line
//! naming the key's path (`algorithm[2].algo`) and the allowed values. The section
//! "Your own study" of docs/GUIDE.md documents every key; `examples/study.toml` is a complete example.

use crate::bandit::info::PrivacyModel;
use crate::bandit::{AlgoName, Rules};
use crate::experiment::Cell;
use crate::instance::Instance;
use serde::Deserialize;

pub use super::validate::{log_grid, parse_study};

pub use crate::complexity::upper::{LowerTime, UpperKind};
pub use crate::mc::DEFAULT_MAX_STEPS;

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
    /// How the figures are laid out.
    #[serde(default)]
    pub figures: FiguresFile,
    /// Named figures drawn instead of the default one per instance and δ (`[[figure]]`): the
    /// first paper's Figures 1–5 are the `[[figure]]` tables of `verify/quick.toml`.
    #[serde(default, rename = "figure")]
    pub figure_list: Vec<FigureFile>,
}

/// `[figures]`: the layout of the figures of τ against ε.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FiguresFile {
    /// `"instance"` (default): one panel per instance and δ with every algorithm;
    /// `"algorithm"`: one panel per algorithm (`algo`) with its variants and its own bounds,
    /// for studies with many variants of a few algorithms.
    pub panels: Option<PanelSplit>,
    /// The PNG resolution in dots per inch (default 100, the figure's pixel size; 50–600): the
    /// SVG is the same at any value. `experiment --dpi` overrides it.
    pub dpi: Option<u32>,
}

/// One `[[figure]]`: a stopping-time figure (τ against ε, one panel per instance) or the ratio
/// of τ to the lower bound, of the cells of one privacy model, drawn by the code that draws the
/// paper's figures.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FigureFile {
    /// File stem in the figures folder (letters, digits, `-`, `_`).
    pub stem: String,
    /// Title drawn on the figure (δ appended).
    pub title: String,
    /// A description for lists of figures (default: the title).
    pub description: Option<String>,
    /// `eps` (default) or `ratio`.
    #[serde(default)]
    pub kind: FigureKind,
    /// `local` or `global`: the algorithms, bounds and switches drawn (`non-private` is
    /// refused: a figure draws τ against ε).
    pub model: PrivacyModel,
    /// The instances, one panel each (default: every instance of the study).
    pub instances: Option<Vec<String>>,
    /// The rule set of the cells (default `paper`).
    pub rules: Option<Rules>,
    /// The statistic per point (default `mean_ci95`).
    #[serde(default)]
    pub statistic: PointStat,
    /// Logarithmic τ axis (default true).
    pub y_log: Option<bool>,
}

/// What a `[[figure]]` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FigureKind {
    /// Stopping time against ε.
    #[default]
    Eps,
    /// Stopping time over the lower bound, against ε.
    Ratio,
}

/// A validated `[[figure]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct StudyFigure {
    /// File stem.
    pub stem: String,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// What it draws.
    pub kind: FigureKind,
    /// The privacy model: [`PrivacyModel::Local`] or [`PrivacyModel::Global`] (the study
    /// parser refuses the non-private one).
    pub model: PrivacyModel,
    /// The instances (indices into [`Study::instances`]), one panel each.
    pub instances: Vec<usize>,
    /// The rule set of its cells.
    pub rules: Rules,
    /// The statistic per point.
    pub statistic: PointStat,
    /// Logarithmic τ axis.
    pub y_log: bool,
}

/// Which statistic of `τ` a stopping-time figure plots per point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PointStat {
    /// The mean with its 95% confidence interval as error bars.
    #[default]
    MeanCi95,
    /// The mean ± one standard deviation of `τ` as error bars (as the paper's figures plot it).
    MeanStd,
    /// The Kaplan–Meier median with the interquartile range as a band, and the mean as `×`
    /// beside it (a mean far above the median shows a skewed or bimodal `τ`).
    MedianIqr,
}

impl PointStat {
    /// The panel note saying what the points and their errors are.
    pub fn note(self) -> &'static str {
        match self {
            PointStat::MeanCi95 => "bars: 95% CI of the mean",
            PointStat::MeanStd => "bars: ± 1 std of τ",
            PointStat::MedianIqr => "line: median, band: q25–q75, ×: mean",
        }
    }
}

/// How a figure splits into panels (`[figures] panels`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PanelSplit {
    /// One panel per instance and δ.
    #[default]
    Instance,
    /// One panel per algorithm within each instance and δ.
    Algorithm,
}

/// Reward family of an instance.
pub use crate::instance::FamilyName;

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
#[serde(rename_all = "kebab-case")]
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
    /// Runs of this algorithm's cells, whatever the study's runs (instead of
    /// `runs-multiplier`; `dpbai experiment --runs` does not change it).
    pub runs: Option<u64>,
    /// This algorithm's own risk(s), a number or a list (default: the study's `delta`).
    pub delta: Option<toml::Value>,
    /// The label of an earlier `[[algorithm]]` this one controls: each of its cells runs on the
    /// seeds and run count of that entry's cell at the same instance, δ and ε (paired seeds,
    /// so that "capped in the cell and not in its control" is a statement about the same runs).
    pub paired_with: Option<String>,
    /// The label of an earlier `[[algorithm]]` of the same group whose cells this one's are
    /// listed with: at each instance, δ and ε, the two (or more) alternate, instead of this
    /// entry's cells following all of that one's (the order of tables, SUMMARY.md and
    /// results.csv; nothing else changes).
    pub interleave_with: Option<String>,
    /// The group of the entry (default `grid`): `dpbai verify` reads the paper's grid and the
    /// control cells of its Findings by group. A cell may appear in two groups (the same
    /// specification, computed once), never twice in one.
    pub group: Option<String>,
    /// This algorithm's cap (default: the study's).
    pub max_steps: Option<u64>,
    /// `--beta`.
    pub beta: Option<f64>,
    /// `--gamma` (gauss-ldp-tt).
    pub gamma: Option<f64>,
    /// `--threshold`: a user stopping threshold, a preset name (`dpbai audit delta
    /// --list-presets`) or an expression, replacing the algorithm's.
    pub threshold: Option<String>,
    /// The readings, by their `dpbai run` flag names ([`crate::bandit::READING_TABLE`]:
    /// `tie-break = "uniform"`, `ids-beta = true`, …); any other key is refused when the study
    /// is validated.
    #[serde(flatten)]
    pub readings: std::collections::BTreeMap<String, toml::Value>,
}

/// `[bounds]`: which curves the figures draw.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct BoundsFile {
    /// Lower-bound curves (default: the privacy settings of the algorithms).
    pub lower: Option<Vec<LowerTime>>,
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
    /// Its group ([`DEFAULT_GROUP`] unless the file names one).
    pub group: String,
}

/// The group of an `[[algorithm]]` that names none.
pub const DEFAULT_GROUP: &str = "grid";

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

/// A validated study: instances, algorithms and every cell, in a fixed order: group (in the
/// order the file first names it), instance, algorithm (file order; an entry with
/// `interleave-with` shares its partner's place), then δ and ε (file order), then the
/// interleaved entries.
#[derive(Debug, Clone)]
pub struct Study {
    /// Title.
    pub title: String,
    /// Runs per cell (the file's `runs`, or the `--runs` that replaced it).
    pub runs: u64,
    /// Instances.
    pub instances: Vec<StudyInstance>,
    /// Algorithms.
    pub algorithms: Vec<StudyAlgorithm>,
    /// Risks, in file order.
    pub deltas: Vec<f64>,
    /// The cells.
    pub cells: Vec<StudyCell>,
    /// Lower-bound curves to draw.
    pub lower: Vec<LowerTime>,
    /// Upper-bound curves to draw.
    pub upper: Vec<UpperKind>,
    /// Draw the regime switches.
    pub switches: bool,
    /// Panel layout of the figures.
    pub panels: PanelSplit,
    /// The PNG resolution of the figures (dots per inch; `[figures] dpi`, `experiment --dpi`).
    pub dpi: u32,
    /// The named figures (`[[figure]]`), drawn instead of one per instance and δ.
    pub figures: Vec<StudyFigure>,
}

impl Study {
    /// The distinct cells, in the study's order (a cell in two groups is one cell).
    pub fn distinct_cells(&self) -> Vec<Cell> {
        let mut seen = std::collections::HashSet::new();
        self.cells
            .iter()
            .filter(|c| seen.insert(c.cell.digest()))
            .map(|c| c.cell.clone())
            .collect()
    }
}

/// The privacy setting of an algorithm, hence its lower bound.
pub fn lower_kind(algo: AlgoName) -> LowerTime {
    match algo.info().privacy {
        PrivacyModel::NonPrivate => LowerTime::Kl,
        PrivacyModel::Local => LowerTime::Local,
        PrivacyModel::Global => LowerTime::Global,
    }
}

/// The asymptotic upper bound a cell's algorithm has, if any (CTB-TT with IDS has its own; the
/// bounds assume Bernoulli arms for CTB-TT).
///
/// The theorems bound the algorithms with the paper's own stopping thresholds: a cell with a
/// user threshold (`threshold`) or the public code's rules (`rules = "reference"`) has none, so
/// its row leaves the column empty and the default `bounds.upper` does not draw one for it.
pub fn upper_kind(cell: &Cell) -> Option<UpperKind> {
    if cell.threshold.is_some() || cell.setting.rules != crate::bandit::Rules::Paper {
        return None;
    }
    if cell.setting.algo == AlgoName::CtbTt && cell.setting.ids_beta {
        return Some(UpperKind::CtbTtIds);
    }
    cell.setting.algo.info().upper_bound
}

/// A bad value at key path `path` (the file and the line are added by [`super::parse_study_with`]).
pub(super) fn bad(path: &str, msg: impl std::fmt::Display) -> crate::error::Error {
    crate::error::Error::Config {
        file: String::new(),
        key: path.to_string(),
        line: None,
        message: msg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

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
            Err(e @ Error::Config { .. }) => e.to_string(),
            other => panic!("expected a configuration error, got {other:?}"),
        }
    }

    #[test]
    fn a_valid_file_gives_its_cells() {
        let s = parse_study(BASE, "t.toml").expect("valid");
        assert_eq!(s.cells.len(), 2);
        assert_eq!(s.lower, vec![LowerTime::Global]);
    }

    /// Only cells under the paper's own thresholds carry the theorems' upper bounds: a user
    /// threshold or the reference rules have none, and the default `bounds.upper` follows.
    #[test]
    fn upper_bounds_only_for_the_papers_thresholds() {
        let with = |extra: &str| {
            let text = BASE.replace("algo = \"dp-se\"", &format!("algo = \"adap-tt\"\n{extra}"));
            let s = parse_study(&text, "t.toml").expect("valid");
            (upper_kind(&s.cells[0].cell), s.upper)
        };
        assert_eq!(with(""), (Some(UpperKind::AdapTt), vec![UpperKind::AdapTt]));
        assert_eq!(with("rules = \"reference\""), (None, vec![]));
        assert_eq!(with("threshold = \"ref-adap-tt\""), (None, vec![]));
    }

    /// The readings of an `[[algorithm]]` are the keys of the reading table: they set the
    /// cells' settings, and a bad key or value names its key path.
    #[test]
    fn readings_come_from_the_reading_table() {
        let with =
            |extra: &str| BASE.replace("algo = \"dp-se\"", &format!("algo = \"adap-tt\"\n{extra}"));
        let s = parse_study(&with("tie-break = \"uniform\"\nids-beta = true"), "t.toml")
            .expect("valid");
        let c = &s.cells[0].cell;
        assert_eq!(c.setting.tie_break, crate::bandit::TieBreak::Uniform);
        assert!(c.setting.ids_beta);
        assert!(c.key().contains("-tie-uniform-ids"), "{}", c.key());
        let m = err(&with("tie-brake = \"uniform\""));
        assert!(
            m.contains("algorithm[0].tie-brake") && m.contains("unknown field"),
            "{m}"
        );
        let m = err(&with("tie-break = \"random\""));
        assert!(
            m.contains("algorithm[0].tie-break") && m.contains("lowest-index"),
            "{m}"
        );
        let m = err(&with("ids-beta = \"yes\""));
        assert!(
            m.contains("algorithm[0].ids-beta") && m.contains("true or false"),
            "{m}"
        );
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
