//! The readings of READINGS.md §R and the findings' controls, declared once: [`READING_TABLE`]
//! gives each reading's `dpbai run` flag name, how to read and set it on a [`Setting`], whether
//! it is a switch, and its part of a cell key. [`Setting::readings`],
//! [`Setting::set_reading`] (the Python package's `options={...}`),
//! [`Setting::non_default_flags`] (a summary's `options`), the cell keys
//! ([`crate::experiment::Cell::variant_suffix`]), the `dpbai run` arguments that reproduce a
//! cell ([`crate::experiment::Cell::run_args`]) and the per-algorithm check
//! ([`check_options`]) all read this table.

use super::info::AlgoName;
use super::info::{ALGORITHMS, AlgoInfo, OptionName, PrivacyModel};
use super::options::{
    AdapLeaderBonus, ChallengerCounts, DpaEpisodes, GaussLdpSigma, LeaderCounts, TieBreak,
};
use super::setting::Setting;
use crate::error::{Error, Result};
use crate::spelling::Spelling;
use crate::threshold::Eq14Form;

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
    /// A number (`--eta 0.5`, checked by `set`) rather than one of `values`.
    pub number: bool,
    /// Whether a cell's specification ([`crate::experiment::CellSpec`]) lists it at its
    /// default. `false` for the readings added after specifications were first recorded
    /// (`eta`): a specification lists them only when they differ from the default, so the
    /// digest of every earlier cell stays what it was.
    pub recorded_at_default: bool,
    /// Where its key part goes.
    pub key_place: KeyPlace,
    /// Its key part for a non-default value (spelled as `get` spells it).
    pub key_part: fn(&str) -> String,
    /// What it reads, for `dpbai run --help`.
    pub help: &'static str,
    /// The values it accepts (empty for a switch and a number).
    pub values: fn() -> &'static [&'static str],
    /// Its default value (the paper's reading).
    pub default: fn() -> &'static str,
    /// Whether an algorithm takes it (a value other than the default is refused for the
    /// others, [`check_options`]).
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
            number: false,
            recorded_at_default: true,
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
        number: false,
        recorded_at_default: true,
        key_place: KeyPlace::AfterParameters,
        key_part: |_| "-ids".into(),
        help: "Use the IDS proportion β_n = N_C/(N_B + N_C) with cumulative tracking (Sec. 3.2, D.9)",
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
    Reading {
        name: "eta",
        get: |s| s.eta.get().to_string(),
        set: |s, v| {
            let x: f64 = v.trim().parse().map_err(|_| {
                let (lo, hi) = crate::params::ETA_RANGE;
                crate::Error::param(
                    "eta",
                    v,
                    format!("a number in [{lo}, {hi}] (DP-TT's phase growth)"),
                )
            })?;
            s.eta = crate::params::Eta::new(x)?;
            Ok(())
        },
        switch: false,
        number: true,
        recorded_at_default: false,
        key_place: KeyPlace::AfterParameters,
        key_part: |v| format!("-eta{v}"),
        help: "Phase growth η of dp-tt, a number in [0.01, 100]: a phase ends at ⌈(1 + η)^k⌉ pulls of its arm ([BAI25]; READINGS.md §D.11; default 1, doubling)",
        values: || &[],
        default: || "1",
        accepts: |i| i.algo == AlgoName::DpTt,
    },
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

impl Setting {
    /// The readings that differ from the paper's defaults, as `dpbai run` flags in the order of
    /// [`READING_TABLE`] (`--tie-break uniform`, `--ids-beta`, ...); empty for the paper's
    /// algorithm. `δ`, `ε`, `γ`, `β` and the rules are not included (they have their own fields
    /// wherever this list is recorded, e.g. [`crate::experiment::meta::RunMeta::options`]).
    pub fn non_default_flags(&self) -> Vec<String> {
        self.changed_readings()
            .into_iter()
            .map(|(r, v)| {
                if r.switch {
                    format!("--{}", r.name)
                } else {
                    format!("--{} {v}", r.name)
                }
            })
            .collect()
    }

    /// Every reading with its value, by its `dpbai run` flag name (without `--`) in the order of
    /// [`READING_TABLE`], defaults included: the values are the flags' spellings (`"true"` or
    /// `"false"` for `ids-beta`), which [`Setting::set_reading`] reads back.
    ///
    /// # Example
    /// ```
    /// use dpbai::bandit::{AlgoName, Setting};
    /// let s = Setting::paper(AlgoName::Ttucb, 0.01).unwrap();
    /// assert_eq!(s.readings()[0], ("tie-break", "lowest-index".to_string()));
    /// ```
    pub fn readings(&self) -> [(&'static str, String); READING_TABLE.len()] {
        std::array::from_fn(|k| (READING_TABLE[k].name, (READING_TABLE[k].get)(self)))
    }

    /// Sets the reading named `key` from its flag value, as `dpbai run --KEY VALUE` would: `key`
    /// is one of [`READINGS`] (`_` may stand for `-`), `value` a value that flag accepts
    /// (`"true"` or `"false"` for `ids-beta`). For callers that take readings by name (the
    /// Python package's `run(..., options={...})`).
    ///
    /// # Example
    /// ```
    /// use dpbai::bandit::{AlgoName, Setting, TieBreak};
    /// let mut s = Setting::paper(AlgoName::Ttucb, 0.01).unwrap();
    /// s.set_reading("tie_break", "uniform").unwrap();
    /// assert_eq!(s.tie_break, TieBreak::Uniform);
    /// let e = s.set_reading("tie-break", "random").unwrap_err().to_string();
    /// assert!(e.contains("lowest-index, uniform"), "{e}");
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::InvalidParameter`] naming the key and the allowed keys, or the value and
    /// the allowed values.
    pub fn set_reading(&mut self, key: &str, value: &str) -> crate::Result<()> {
        let r = reading(key).ok_or_else(|| {
            crate::Error::param("reading", key, format!("one of {}", READINGS.join(", ")))
        })?;
        (r.set)(self, value)
    }
}

impl AlgoInfo {
    /// Whether the algorithm takes `option` (a parameter of [`AlgoInfo::options`] or a
    /// reading of [`super::READING_TABLE`]).
    pub fn takes(&self, option: &str) -> bool {
        match reading(option) {
            Some(r) => (r.accepts)(self),
            None => self.options.contains(&option),
        }
    }

    /// The names of the algorithms that take `option`, for messages.
    pub fn takers(option: &str) -> String {
        let v: Vec<&str> = ALGORITHMS
            .iter()
            .filter(|i| i.takes(option))
            .map(|i| i.name)
            .collect();
        if v.is_empty() {
            "none".into()
        } else {
            v.join(", ")
        }
    }
}

/// Checks that every option of `s` that differs from its default is one the algorithm takes.
///
/// # Errors
/// [`Error::InvalidParameter`] naming the option, its value and the algorithms that take it.
pub fn check_options(s: &Setting) -> Result<()> {
    let info = s.algo.info();
    let default = Setting::new(s.algo, s.delta);
    let mut given: Vec<(OptionName, String)> = Vec::new();
    if let Some(e) = s.eps {
        given.push(("eps", e.get().to_string()));
    }
    if let Some(g) = s.gamma {
        given.push(("gamma", g.get().to_string()));
    }
    if s.beta != default.beta {
        given.push(("beta", s.beta.get().to_string()));
    }
    for ((name, value), (_, dv)) in s.readings().into_iter().zip(default.readings()) {
        if value != dv {
            given.push((name, value));
        }
    }
    for (name, value) in given {
        if !info.takes(name) {
            return Err(Error::param(
                name,
                value,
                format!(
                    "absent for {} (it does not take --{name}; the algorithms that do: {})",
                    info.name,
                    AlgoInfo::takers(name)
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bandit::AlgoName;
    use crate::params::{Beta, Epsilon, Gamma};

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

    /// `eta` reads numbers in its range only, each refusal one line naming the value and the
    /// range; only dp-tt takes a value other than the default.
    #[test]
    fn eta_reads_numbers_in_its_range_for_dp_tt_only() {
        let mut s = Setting::paper(AlgoName::DpTt, 0.1).expect("valid");
        assert_eq!(s.eta.get(), 1.0);
        s.set_reading("eta", "0.5").expect("in range");
        assert_eq!(s.eta.get(), 0.5);
        assert_eq!(s.non_default_flags(), ["--eta 0.5"]);
        check_options(&s).expect("dp-tt takes eta");
        for bad in ["0", "-1", "100.5", "nan", "inf", "two", ""] {
            let e = s.set_reading("eta", bad).expect_err(bad).to_string();
            assert!(
                e.contains("eta") && e.contains("[0.01, 100]") && !e.contains('\n'),
                "{bad}: {e}"
            );
        }
        assert_eq!(s.eta.get(), 0.5, "a refused value leaves the setting");
        for algo in [AlgoName::EbTci, AlgoName::AdapTt, AlgoName::Ttucb] {
            let mut s = Setting::paper(algo, 0.1).expect("valid");
            check_options(&s).expect("the default is not a choice");
            s.set_reading("eta", "2").expect("in range");
            let e = check_options(&s)
                .expect_err("eta for another algorithm")
                .to_string();
            assert!(
                e.contains("eta") && e.contains("dp-tt") && !e.contains('\n'),
                "{e}"
            );
        }
    }

    #[test]
    fn options_that_do_not_apply_are_refused_naming_them() {
        let base = |a| Setting::paper(a, 0.1).expect("valid");
        let mut s = base(AlgoName::Ttucb);
        s.gamma = Some(Gamma::new(0.5).expect("valid"));
        let e = check_options(&s).expect_err("gamma for ttucb").to_string();
        assert!(e.contains("gamma") && e.contains("gauss-ldp-tt"), "{e}");
        let mut s = base(AlgoName::DpSe);
        s.beta = Beta::new(0.3).expect("valid");
        assert!(check_options(&s).is_err(), "beta for dp-se");
        let mut s = base(AlgoName::Ttucb);
        s.eps = Some(Epsilon::new(1.0).expect("valid"));
        assert!(
            check_options(&s).is_err(),
            "eps for a non-private algorithm"
        );
        let mut s = base(AlgoName::AdapTt);
        s.eps = Some(Epsilon::new(1.0).expect("valid"));
        s.challenger_counts = super::super::ChallengerCounts::Local;
        assert!(check_options(&s).is_ok());
        s.eq14_form = crate::threshold::Eq14Form::Printed;
        assert!(check_options(&s).is_err(), "eq14-form is adap-tt-star's");
    }

    /// Which algorithm takes which option: the parameters of each entry and the readings whose
    /// `accepts` holds, against the list written out by hand.

    #[test]
    fn each_algorithm_takes_exactly_its_options() {
        let top_two = ["beta", "tie-break", "ids-beta"];
        let want: [(AlgoName, &[&str]); 7] = [
            (AlgoName::Ttucb, &[]),
            (AlgoName::CtbTt, &["eps"]),
            (AlgoName::GaussLdpTt, &["eps", "gamma", "gauss-sigma"]),
            (
                AlgoName::AdapTt,
                &[
                    "eps",
                    "challenger-counts",
                    "adap-leader-bonus",
                    "leader-counts",
                ],
            ),
            (
                AlgoName::AdapTtStar,
                &[
                    "eps",
                    "challenger-counts",
                    "eq14-form",
                    "adap-leader-bonus",
                    "leader-counts",
                ],
            ),
            (AlgoName::DpSe, &["eps"]),
            (
                AlgoName::DpaTt,
                &["challenger-counts", "dpa-episodes", "leader-counts"],
            ),
        ];
        let all: Vec<&str> = ["beta", "eps", "gamma"]
            .into_iter()
            .chain(crate::bandit::READINGS)
            .collect();
        for (algo, extra) in want {
            let info = algo.info();
            for o in &all {
                let expected = extra.contains(o) || (info.top_two && top_two.contains(o));
                assert_eq!(info.takes(o), expected, "{} takes {o}", info.name);
            }
        }
        assert!(AlgoName::DpTt.info().takes("eta") && !AlgoName::EbTci.info().takes("eta"));
    }

    #[test]
    fn set_reading_inverts_non_default_flags() {
        let mut s = Setting::paper(AlgoName::AdapTtStar, 0.1).expect("valid");
        for (k, v) in [
            ("tie-break", "uniform"),
            ("challenger_counts", "local"),
            ("ids-beta", "true"),
            ("gauss-sigma", "printed"),
            ("eq14-form", "printed"),
            ("dpa-episodes", "global"),
            ("adap-leader-bonus", "eq11-log-n"),
            ("leader-counts", "global"),
            ("eta", "0.5"),
        ] {
            s.set_reading(k, v).expect("a valid reading");
        }
        // every reading differs from its default, each as its own flag
        assert_eq!(s.non_default_flags().len(), READINGS.len());
        let e = s
            .set_reading("tie-brake", "uniform")
            .expect_err("unknown key");
        assert!(
            e.to_string()
                .contains("one of tie-break, challenger-counts"),
            "{e}"
        );
        let e = s.set_reading("ids-beta", "yes").expect_err("not a bool");
        assert!(e.to_string().contains("true or false"), "{e}");
        let e = s
            .set_reading("adap-leader-bonus", "eq4")
            .expect_err("bad value");
        assert!(e.to_string().contains("eq11, eq3, eq11-log-n"), "{e}");
    }

    /// `readings` lists every reading of [`READINGS`], and `set_reading` reads each value back.
    #[test]
    fn readings_round_trip_through_set_reading() {
        let mut s = Setting::paper(AlgoName::AdapTtStar, 0.1).expect("valid");
        s.tie_break = TieBreak::Uniform;
        s.ids_beta = true;
        s.adap_leader_bonus = AdapLeaderBonus::Eq11LogN;
        let r = s.readings();
        assert_eq!(r.clone().map(|(k, _)| k), READINGS);
        let mut t = Setting::paper(AlgoName::AdapTtStar, 0.1).expect("valid");
        for (k, v) in &r {
            t.set_reading(k, v).expect("its own spelling");
        }
        assert_eq!(t, s);
    }

    #[test]
    fn every_non_default_reading_is_one_flag_in_a_fixed_order() {
        let mut s = Setting::paper(AlgoName::AdapTtStar, 0.1).expect("valid");
        assert!(s.non_default_flags().is_empty());
        s.tie_break = TieBreak::Uniform;
        s.challenger_counts = ChallengerCounts::Local;
        s.ids_beta = true;
        s.gauss_sigma = GaussLdpSigma::Printed;
        s.eq14_form = Eq14Form::Printed;
        s.dpa_episodes = DpaEpisodes::Global;
        s.adap_leader_bonus = AdapLeaderBonus::Eq11LogN;
        s.leader_counts = LeaderCounts::Global;
        assert_eq!(
            s.non_default_flags(),
            [
                "--tie-break uniform",
                "--challenger-counts local",
                "--ids-beta",
                "--gauss-sigma printed",
                "--eq14-form printed",
                "--dpa-episodes global",
                "--adap-leader-bonus eq11-log-n",
                "--leader-counts global",
            ]
        );
    }
}
