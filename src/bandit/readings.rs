//! The readings of READINGS.md §R and the findings' controls, declared once: [`READING_TABLE`]
//! gives each reading's `dpbai run` flag name, how to read and set it on a [`Setting`], whether
//! it is a switch, and its part of a cell key. [`Setting::readings`],
//! [`Setting::set_reading`] (the Python package's `options={...}`),
//! [`Setting::non_default_flags`] (a summary's `options`), the cell keys
//! ([`crate::experiment::Cell::variant_suffix`]), the `dpbai run` arguments that reproduce a
//! cell ([`crate::experiment::Cell::run_args`]) and the per-algorithm check
//! ([`super::info::check_options`]) all read this table.

use super::info::{AlgoInfo, PrivacyModel};
use super::options::AlgoName;
use super::options::{
    AdapLeaderBonus, ChallengerCounts, DpaEpisodes, GaussLdpSigma, LeaderCounts, TieBreak,
};
use super::rules::Eq14Form;
use super::setting::Setting;
use crate::spelling::Spelling;

/// Where a reading's part of a cell key goes: before the instance's `σ`, `β` and `γ`, or after
/// them (the order the keys, and so the seeds, have always had).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPlace {
    /// Before `-gaussian-sigma…`, `-beta…`, `-gamma…`.
    BeforeParameters,
    /// After them.
    AfterParameters,
}

/// One reading.
#[derive(Clone, Copy)]
pub struct Reading {
    /// The `dpbai run` flag name, without `--` (also the study key and, with `_`, the Python
    /// option name).
    pub name: &'static str,
    /// Its value on a setting, as the flag spells it (`"true"`/`"false"` for a switch).
    pub get: fn(&Setting) -> String,
    /// Sets it from a flag value.
    pub set: fn(&mut Setting, &str) -> crate::Result<()>,
    /// A switch (`--ids-beta`, no value) rather than `--name VALUE`.
    pub switch: bool,
    /// Where its key part goes.
    pub key_place: KeyPlace,
    /// Its key part for a non-default value (spelled as `get` spells it).
    pub key_part: fn(&str) -> String,
    /// What it reads, for `dpbai run --help`.
    pub help: &'static str,
    /// The values it accepts (empty for a switch).
    pub values: fn() -> &'static [&'static str],
    /// Its default value (the paper's reading).
    pub default: fn() -> &'static str,
    /// Whether an algorithm takes it (a value other than the default is refused for the
    /// others, [`super::info::check_options`]).
    pub accepts: fn(&AlgoInfo) -> bool,
}

impl std::fmt::Debug for Reading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// A reading whose value is a [`Spelling`] enum in the field `$field`.
macro_rules! spelled_reading {
    ($name:literal, $field:ident: $ty:ty, $place:ident, $key:expr, $accepts:expr, $help:literal) => {
        Reading {
            name: $name,
            get: |s| s.$field.spelling().to_string(),
            set: |s, v| {
                s.$field = Spelling::parse_as($name, v)?;
                Ok(())
            },
            switch: false,
            key_place: KeyPlace::$place,
            key_part: $key,
            help: $help,
            values: <$ty as Spelling>::spellings,
            default: || <$ty as Default>::default().spelling(),
            accepts: $accepts,
        }
    };
}

/// Every reading, in the order of the flags of `dpbai run --help`.
pub const READING_TABLE: &[Reading] = &[
    spelled_reading!(
        "tie-break",
        tie_break: TieBreak,
        AfterParameters,
        |v| format!("-tie-{v}"),
        |i| i.top_two,
        "Tie-breaking of every argmax/argmin (READINGS.md §D.0)"
    ),
    spelled_reading!(
        "challenger-counts",
        challenger_counts: ChallengerCounts,
        AfterParameters,
        |v| format!("-challenger-{v}"),
        |i| i.top_two && i.phased,
        "Counts of the transport-cost challenger: global N (Alg. 1) or local Ñ (R.11)"
    ),
    Reading {
        name: "ids-beta",
        get: |s| s.ids_beta.to_string(),
        set: |s, v| {
            s.ids_beta = match v {
                "true" => true,
                "false" => false,
                _ => return Err(crate::Error::param("ids-beta", v, "true or false")),
            };
            Ok(())
        },
        switch: true,
        key_place: KeyPlace::AfterParameters,
        key_part: |_| "-ids".into(),
        help:
            "Use the IDS proportion β_n = N_C/(N_B + N_C) with cumulative tracking (Sec. 3.2, D.9)",
        values: || &[],
        default: || "false",
        accepts: |i| i.top_two,
    },
    spelled_reading!(
        "gauss-sigma",
        gauss_sigma: GaussLdpSigma,
        AfterParameters,
        |v| format!("-gauss-sigma-{v}"),
        |i| i.top_two && !i.pure(),
        "σ of gauss-ldp-tt's costs and bonus: combined (Rem. 13) or printed (Alg. 8, R.12)"
    ),
    spelled_reading!(
        "eq14-form",
        eq14_form: Eq14Form,
        AfterParameters,
        |v| format!("-eq14-{v}"),
        |i| i.algo == AlgoName::AdapTtStar,
        "Form of Eq. (14)'s second case for adap-tt-star (R.16)"
    ),
    spelled_reading!(
        "dpa-episodes",
        dpa_episodes: DpaEpisodes,
        BeforeParameters,
        |v| format!("-{v}"),
        |i| i.batches.is_some(),
        "Episodes of dpa-tt: per-arm doubling (Alg. 11) or one global episode counter (D.8)"
    ),
    spelled_reading!(
        "adap-leader-bonus",
        adap_leader_bonus: AdapLeaderBonus,
        BeforeParameters,
        |v| format!("-bonus-{v}"),
        |i| i.top_two && i.phased && i.privacy == PrivacyModel::Global,
        "Leader bonus of adap-tt / adap-tt-star: eq11 (the paper's private bonus), or a control of REPORT.md's Finding 1 (paper rules only): eq3 (TTUCB's bonus with its log ‖Ñ‖₁ term, no privacy term) or eq11-log-n (Eq. (11) with k(Ñ_a) replaced by log ‖Ñ‖₁)"
    ),
    spelled_reading!(
        "leader-counts",
        leader_counts: LeaderCounts,
        BeforeParameters,
        |_| "-live-counts".into(),
        |i| i.top_two && i.phased,
        "Counts of the UCB leader of dpa-tt (and of adap-tt(-star) with --adap-leader-bonus eq3): local Ñ, frozen between releases (Alg. 1), or global N, live (a control of Finding 3)"
    ),
];

/// The names of [`READING_TABLE`], in its order.
pub const READINGS: [&str; READING_TABLE.len()] = {
    let mut out = [""; READING_TABLE.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = READING_TABLE[i].name;
        i += 1;
    }
    out
};

/// The reading named `name` (`_` may stand for `-`).
pub fn reading(name: &str) -> Option<&'static Reading> {
    let name = name.replace('_', "-");
    READING_TABLE.iter().find(|r| r.name == name)
}

impl Setting {
    /// The readings whose value differs from the paper's default for this algorithm and `δ`,
    /// with their values, in the order of [`READING_TABLE`].
    pub fn changed_readings(&self) -> Vec<(&'static Reading, String)> {
        let default = Setting::new(self.algo, self.delta);
        READING_TABLE
            .iter()
            .filter_map(|r| {
                let v = (r.get)(self);
                (v != (r.get)(&default)).then_some((r, v))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bandit::AlgoName;

    #[test]
    fn every_reading_round_trips_through_get_and_set() {
        for r in READING_TABLE {
            let mut s = Setting::paper(AlgoName::AdapTtStar, 0.1).expect("valid");
            let v = (r.get)(&s);
            (r.set)(&mut s, &v).expect("its own spelling");
            assert_eq!((r.get)(&s), v, "{}", r.name);
            assert!((r.set)(&mut s, "no-such-value").is_err(), "{}", r.name);
            assert_eq!(
                (r.default)(),
                v,
                "{}: the paper's setting has the default",
                r.name
            );
            for value in (r.values)() {
                (r.set)(&mut s, value).expect("a listed value");
            }
        }
        assert_eq!(READINGS.len(), READING_TABLE.len());
        assert!(reading("leader_counts").is_some() && reading("nope").is_none());
    }
}
