//! A claim, declared once ([`Claim`]): its id, where the paper states it and how, its rule, its
//! regime, and its check, whose typed statistics ([`Statistics`]) the rule
//! reads. A paper's claims module lists its declarations; everything else (the verdicts,
//! REPORT.md's claims table, `verify/protocol.toml`, the claims table of docs/CLAIMS.md) is
//! derived from them.

use super::context::Context;
use super::rule::{Regime, Rule};

/// The statistics a claim's check returns: named `f64` values, declared as a struct with
/// [`crate::statistics!`] so that a rule naming an absent statistic fails a test (every rule's
/// names are checked against [`Statistics::NAMES`]), never a run.
pub trait Statistics {
    /// The names, in the order of [`Statistics::values`]; the rule language reads them.
    const NAMES: &'static [&'static str];
    /// The values, in the order of [`Statistics::NAMES`].
    fn values(&self) -> Vec<f64>;
    /// `(name, value)` pairs.
    fn named(&self) -> Vec<(&'static str, f64)> {
        Self::NAMES.iter().copied().zip(self.values()).collect()
    }
}

/// Declares a struct of `f64` statistics and its [`Statistics`] impl. A field whose statistic
/// name is not a Rust identifier gives the name after `as`:
///
/// ```
/// dpbai::statistics! {
///     /// Example statistics.
///     pub struct Example { violations, rate_at_1e4 as "rate_at_1e-4" }
/// }
/// use dpbai::claims::Statistics;
/// assert_eq!(Example::NAMES, &["violations", "rate_at_1e-4"]);
/// let s = Example { violations: 0.0, rate_at_1e4: 2.5 };
/// assert_eq!(s.values(), vec![0.0, 2.5]);
/// ```
#[macro_export]
macro_rules! statistics {
    ($(#[$m:meta])* $vis:vis struct $name:ident { $($field:ident $(as $rename:literal)?),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Default)]
        #[allow(missing_docs)]
        $vis struct $name { $(pub $field: f64),* }
        impl $crate::claims::Statistics for $name {
            const NAMES: &'static [&'static str] = &[$($crate::statistics!(@name $field $($rename)?)),*];
            fn values(&self) -> Vec<f64> {
                vec![$(self.$field),*]
            }
        }
    };
    (@name $field:ident) => { stringify!($field) };
    (@name $field:ident $rename:literal) => { $rename };
}

/// What a check found.
#[derive(Debug, Clone)]
pub enum Checked<S> {
    /// The evidence in words and its statistics.
    Done {
        /// What we computed (values, with their uncertainty where empirical).
        computed: String,
        /// The statistics the rule reads.
        stats: S,
    },
    /// No statistics: the evidence could not be gathered; the check has recorded why in the
    /// context's evidence log, so the claim is `not checkable (error: …)`.
    Failed(String),
    /// Not run: its Monte Carlo inputs were not computed (`verify --no-experiments`).
    Skipped,
}

impl<S> Checked<S> {
    /// The evidence and its statistics.
    pub fn done(computed: impl Into<String>, stats: S) -> Self {
        Checked::Done {
            computed: computed.into(),
            stats,
        }
    }
}

/// The rule sets a claim's evidence uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleSet {
    /// The paper's provable thresholds.
    Paper,
    /// The public code's empirical rules (`--rules reference`).
    Reference,
}

impl RuleSet {
    /// The spelling of the protocol file.
    pub fn as_str(&self) -> &'static str {
        match self {
            RuleSet::Paper => "paper",
            RuleSet::Reference => "reference",
        }
    }
}

/// A row of the claims table of docs/CLAIMS.md (a base claim's; its variants share it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// The short name (column "Claim").
    pub claim: &'static str,
    /// The formula or statement (column "Formula / check").
    pub formula: &'static str,
    /// Where the paper states it (column "Source").
    pub source: &'static str,
}

/// The declaration of one claim, beside its check.
#[derive(Debug)]
pub struct Claim<S: 'static> {
    /// Claim id: `F.n` (a variant `F.n/ref` under the public code's rules, `F.n/uniform`
    /// under uniform sampling), `S.1`, or the second paper's `B.n`.
    pub id: &'static str,
    /// Short title (REPORT.md's claims table).
    pub title: &'static str,
    /// Where the paper states it (REPORT.md).
    pub source: &'static str,
    /// The paper's statement, briefly (REPORT.md's "the paper says").
    pub statement: &'static str,
    /// docs/CLAIMS.md's row (`None` for a variant, which shares its base claim's).
    pub row: Option<Row>,
    /// The protocol's wording of the claim; `None`: the row's `claim: formula (source)` (of
    /// the base claim for a variant).
    pub wording: Option<&'static str>,
    /// The statistics the check computes, in words (the protocol's `statistic`).
    pub statistic: &'static str,
    /// The acceptance rule.
    pub rule: Rule,
    /// Why the rule is a fair reading of the wording.
    pub fair: &'static str,
    /// The rule sets its evidence uses.
    pub rule_sets: &'static [RuleSet],
    /// How the paper states it.
    pub regime: Regime,
    /// The check.
    pub check: fn(&mut Context) -> Checked<S>,
}

/// A declared claim with its statistics' type erased: what a paper's list holds.
pub trait AnyClaim: Sync {
    /// The declaration's fields (everything but the typed check).
    fn meta(&self) -> Meta;
    /// The names of the check's statistics.
    fn names(&self) -> &'static [&'static str];
    /// Runs the check; the statistics as `(name, value)` pairs.
    fn run(&self, ctx: &mut Context) -> Checked<Vec<(&'static str, f64)>>;
}

/// The fields of a declaration, without its check.
#[derive(Debug, Clone, Copy)]
pub struct Meta {
    /// See [`Claim::id`].
    pub id: &'static str,
    /// See [`Claim::title`].
    pub title: &'static str,
    /// See [`Claim::source`].
    pub source: &'static str,
    /// See [`Claim::statement`].
    pub statement: &'static str,
    /// See [`Claim::row`].
    pub row: Option<Row>,
    /// See [`Claim::wording`].
    pub wording: Option<&'static str>,
    /// See [`Claim::statistic`].
    pub statistic: &'static str,
    /// See [`Claim::rule`].
    pub rule: Rule,
    /// See [`Claim::fair`].
    pub fair: &'static str,
    /// See [`Claim::rule_sets`].
    pub rule_sets: &'static [RuleSet],
    /// See [`Claim::regime`].
    pub regime: Regime,
}

impl<S: Statistics + Sync> AnyClaim for Claim<S> {
    fn meta(&self) -> Meta {
        Meta {
            id: self.id,
            title: self.title,
            source: self.source,
            statement: self.statement,
            row: self.row,
            wording: self.wording,
            statistic: self.statistic,
            rule: self.rule,
            fair: self.fair,
            rule_sets: self.rule_sets,
            regime: self.regime,
        }
    }
    fn names(&self) -> &'static [&'static str] {
        S::NAMES
    }
    fn run(&self, ctx: &mut Context) -> Checked<Vec<(&'static str, f64)>> {
        match (self.check)(ctx) {
            Checked::Done { computed, stats } => Checked::Done {
                computed,
                stats: stats.named(),
            },
            Checked::Failed(e) => Checked::Failed(e),
            Checked::Skipped => Checked::Skipped,
        }
    }
}

/// The base id of a claim (`F.50` of `F.50/ref`).
pub fn base_id(id: &str) -> &str {
    id.split_once('/').map_or(id, |(b, _)| b)
}

/// Sort key of a claim id: by letter (`B`, `F`, `S`), number, then variant (`F.7` before `F.10`,
/// `F.50` before `F.50/ref` before `F.51`).
pub fn id_key(id: &str) -> (char, u32, bool) {
    let (num, suffix) = id.split_once('/').unwrap_or((id, ""));
    let letter = num.chars().next().unwrap_or('?');
    let n = num
        .split_once('.')
        .and_then(|(_, n)| n.parse::<u32>().ok())
        .unwrap_or(u32::MAX);
    (letter, n, !suffix.is_empty())
}
