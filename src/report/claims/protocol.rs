//! The claim protocol (`verify/protocol.toml`): for every claim F.1–F.66, the paper's wording,
//! the statistic we compute, the acceptance rule, why the rule is a fair reading of the wording,
//! the rule set(s) and the profile it needs. [`decide`] turns a claim's statistics into its
//! verdict by the rule; no check chooses its own verdict.
//!
//! # Rule language
//! A predicate is a conjunction `atom and atom …`, an atom `name op value` with `op` one of
//! `<`, `<=`, `>`, `>=`, `==`, `!=` and `value` a number or another statistic's name. A claim's
//! entry gives
//! * `confirm`: the claim holds as printed when this predicate holds;
//! * `corrected` (optional): else, it holds under the reading of READINGS.md when this one holds;
//! * `refute` (optional): else, it is refuted when this one holds and `inconclusive` otherwise
//!   (`decide` says what would decide); without `refute`, a failed `confirm` is a refutation;
//! * `not_checkable` (instead of the three): the claim is not checkable, for the reason given.
//!
//! A statistic that is missing or not finite makes the claim `not checkable (error: …)`.
//!
//! # Agreement claims: equivalence, never absence of a difference
//! A claim that two quantities agree names its interval and its margin in `equivalence`
//! (`lo`, `hi`: the statistics holding the lowest lower end and the highest upper end of the 95%
//! intervals; `margin`: the band). It is `confirmed` only when the whole interval lies inside
//! the margin (two one-sided tests, each at 2.5%) and `confirm` (the other conditions, e.g. that
//! cells were compared) holds; it is refuted by `refute` when given, else when the interval
//! lies entirely outside the margin; an interval that straddles an edge of the margin is
//! `inconclusive`, whether or not it contains the null value.
//!
//! # Borderline verdicts
//! A decision whose statistic lies within its own 95% half-width of the band's edge is
//! `inconclusive (borderline)`: for an `equivalence`, when the interval end nearest an edge of the
//! margin is within [`BORDERLINE_REL`] of it (relative); for a claim with `borderline`
//! (`stat`, `half_width`, `edge`), when `|stat − edge| <= half_width`. A rule may opt out with
//! `borderline = "none"` in its `equivalence`.
//!
//! # Regimes
//! Every claim says how the paper states it (`regime`): `exact` (an identity or inequality of
//! mathematics, checked to rounding or certified accuracy), `finite` (a statement at the
//! experiment's δ and ε, e.g. a figure), or `asymptotic` (δ → 0, ε → 0 or ε → ∞). An asymptotic
//! claim is judged on asymptotic evidence (a slope in log(1/δ) or in ε, a trend across the grid,
//! with its interval); a finite-δ excess of an asymptotic constant is a Finding of REPORT.md,
//! never a refutation.

use super::record::ClaimVerdict;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The protocol file, compiled in so that the binary works from any directory.
pub const PROTOCOL_TOML: &str = include_str!("../../../verify/protocol.toml");

/// One claim's entry of the protocol.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Claim ID, `F.1` … `F.66`.
    pub id: String,
    /// The paper's wording (quoted or closely paraphrased).
    pub wording: String,
    /// The statistic(s) we compute, in words; their names appear in the predicates.
    pub statistic: String,
    /// Predicate under which the claim is confirmed as printed.
    #[serde(default)]
    pub confirm: Option<String>,
    /// Predicate under which the claim holds under the corrected reading (READINGS.md §R).
    #[serde(default)]
    pub corrected: Option<String>,
    /// Predicate under which the claim is refuted (else inconclusive).
    #[serde(default)]
    pub refute: Option<String>,
    /// What evidence would decide an inconclusive claim.
    #[serde(default)]
    pub decide: Option<String>,
    /// Reason the claim cannot be checked by computation (instead of a rule).
    #[serde(default)]
    pub not_checkable: Option<String>,
    /// Why the rule is a fair reading of the wording.
    pub fair: String,
    /// Rule sets the evidence uses: `paper` (provable thresholds) and/or `reference`.
    pub rule_sets: Vec<String>,
    /// Profiles in which the claim is checked (`any`, or `quick`/`paper`).
    pub profile: String,
    /// Evidence areas on the claim's path (`solver`, `special`, `mc`, `audit`).
    #[serde(default)]
    pub areas: Vec<String>,
    /// How the paper states the claim: `exact`, `finite` or `asymptotic` (see the module docs).
    pub regime: Regime,
    /// The interval and margin of an agreement claim (see the module docs).
    #[serde(default)]
    pub equivalence: Option<Equivalence>,
    /// The point statistic, its half-width and the band edge of a borderline test.
    #[serde(default)]
    pub borderline: Option<Borderline>,
}

/// How the paper states a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Regime {
    /// An identity or inequality of mathematics (no δ, no sampling).
    Exact,
    /// A statement at the experiment's δ and ε (a figure, a table).
    Finite,
    /// A limit: δ → 0, ε → 0 or ε → ∞.
    Asymptotic,
}

impl Regime {
    /// The spelling of the protocol file.
    pub fn as_str(&self) -> &'static str {
        match self {
            Regime::Exact => "exact",
            Regime::Finite => "finite",
            Regime::Asymptotic => "asymptotic",
        }
    }
}

/// The equivalence test of an agreement claim.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Equivalence {
    /// Statistic holding the lowest lower end of the compared 95% intervals.
    pub lo: String,
    /// Statistic holding the highest upper end.
    pub hi: String,
    /// The margin `[a, b]`, justified in the entry's `fair`.
    pub margin: [f64; 2],
    /// `"none"` turns the borderline test off (the default applies it).
    #[serde(default)]
    pub borderline: Option<String>,
}

/// A borderline test on a point statistic.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Borderline {
    /// The decision statistic.
    pub stat: String,
    /// The statistic holding its 95% half-width.
    pub half_width: String,
    /// The band edge the rule compares it with.
    pub edge: f64,
}

/// Relative distance of an equivalence interval's end from the margin under which the decision
/// is borderline: the end is within a rounding of the reported three significant digits.
pub const BORDERLINE_REL: f64 = 5e-3;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    claim: Vec<Entry>,
}

/// The parsed protocol, keyed by claim ID.
pub type Protocol = BTreeMap<String, Entry>;

/// Parses a protocol file.
///
/// # Errors
/// A TOML error, a duplicate ID, an entry with neither a `confirm` rule nor a `not_checkable`
/// reason, or a predicate that does not parse.
pub fn parse(text: &str) -> crate::Result<Protocol> {
    let f: File = toml::from_str(text)
        .map_err(|e| crate::Error::Parse(format!("verify/protocol.toml: {}", e.message())))?;
    let mut out = Protocol::new();
    for e in f.claim {
        let bad = |m: String| crate::Error::Parse(format!("verify/protocol.toml, {}: {m}", e.id));
        match (&e.confirm, &e.not_checkable) {
            (Some(_), None) | (None, Some(_)) => {}
            _ => {
                return Err(bad(
                    "give exactly one of `confirm` and `not_checkable`".into()
                ))
            }
        }
        for p in [&e.confirm, &e.corrected, &e.refute].into_iter().flatten() {
            atoms(p).map_err(bad)?;
        }
        if let Some(q) = &e.equivalence {
            if q.margin[0].partial_cmp(&q.margin[1]) != Some(std::cmp::Ordering::Less) {
                return Err(bad(format!("equivalence margin {:?} is empty", q.margin)));
            }
            if q.borderline.as_deref().is_some_and(|b| b != "none") {
                return Err(bad(
                    "equivalence.borderline must be \"none\" or absent".into()
                ));
            }
            if e.decide.is_none() {
                return Err(bad("an equivalence rule needs `decide`".into()));
            }
        }
        if e.refute.is_some() && e.decide.is_none() {
            return Err(bad("a `refute` rule needs `decide`".into()));
        }
        let id = e.id.clone();
        if out.insert(id.clone(), e).is_some() {
            return Err(crate::Error::Parse(format!(
                "verify/protocol.toml: duplicate {id}"
            )));
        }
    }
    Ok(out)
}

/// The compiled-in protocol.
pub fn protocol() -> &'static Protocol {
    static P: OnceLock<Protocol> = OnceLock::new();
    P.get_or_init(|| {
        parse(PROTOCOL_TOML).expect("invariant: verify/protocol.toml is checked by tests")
    })
}

/// One comparison of a predicate.
#[derive(Debug, Clone, PartialEq)]
pub struct Atom {
    /// Statistic on the left.
    pub name: String,
    /// Operator.
    pub op: &'static str,
    /// Right-hand side: a number or a statistic's name.
    pub rhs: Rhs,
}

/// Right-hand side of an [`Atom`].
#[derive(Debug, Clone, PartialEq)]
pub enum Rhs {
    /// A constant of the rule.
    Num(f64),
    /// Another statistic.
    Stat(String),
}

const OPS: [&str; 6] = ["<=", ">=", "==", "!=", "<", ">"];

/// Splits a predicate into its atoms.
///
/// # Errors
/// An atom without an operator, or an empty name.
pub fn atoms(pred: &str) -> Result<Vec<Atom>, String> {
    pred.split(" and ")
        .map(|a| {
            let a = a.trim();
            let (i, op) = OPS
                .iter()
                .filter_map(|op| a.find(op).map(|i| (i, *op)))
                .min_by_key(|&(i, op)| (i, std::cmp::Reverse(op.len())))
                .ok_or_else(|| format!("no operator in `{a}`"))?;
            let name = a[..i].trim().to_string();
            let rhs = a[i + op.len()..].trim();
            if name.is_empty() || rhs.is_empty() {
                return Err(format!("malformed `{a}`"));
            }
            let rhs = rhs
                .parse::<f64>()
                .map(Rhs::Num)
                .unwrap_or_else(|_| Rhs::Stat(rhs.to_string()));
            Ok(Atom { name, op, rhs })
        })
        .collect()
}

fn lookup(stats: &[(String, f64)], name: &str) -> Result<f64, String> {
    match stats.iter().find(|s| s.0 == name) {
        None => Err(format!("statistic `{name}` was not computed")),
        Some((_, v)) if !v.is_finite() => Err(format!("statistic `{name}` = {v}")),
        Some((_, v)) => Ok(*v),
    }
}

/// Evaluates a predicate on named statistics.
///
/// # Errors
/// A statistic the predicate needs is missing or not finite (the message names it).
pub fn eval(pred: &str, stats: &[(String, f64)]) -> Result<bool, String> {
    let mut all = true;
    for a in atoms(pred)? {
        let l = lookup(stats, &a.name)?;
        let r = match &a.rhs {
            Rhs::Num(x) => *x,
            Rhs::Stat(n) => lookup(stats, n)?,
        };
        all &= match a.op {
            "<" => l < r,
            "<=" => l <= r,
            ">" => l > r,
            ">=" => l >= r,
            "==" => l == r,
            _ => l != r,
        };
    }
    Ok(all)
}

/// The verdict of `entry`'s rule on `stats`, and its note (the reason of `not checkable`, or
/// what would decide an `inconclusive` claim; empty otherwise).
pub fn decide(entry: &Entry, stats: &[(String, f64)]) -> (ClaimVerdict, String) {
    if let Some(reason) = &entry.not_checkable {
        return (ClaimVerdict::NotCheckable, reason.clone());
    }
    let inconclusive = || {
        Ok((
            ClaimVerdict::Inconclusive,
            entry.decide.clone().unwrap_or_default(),
        ))
    };
    let run = || -> Result<(ClaimVerdict, String), String> {
        let confirm = entry.confirm.as_deref().unwrap_or("");
        if let Some(q) = &entry.equivalence {
            let (lo, hi) = (lookup_end(stats, &q.lo)?, lookup_end(stats, &q.hi)?);
            let [a, b] = q.margin;
            let extra = eval(confirm, stats)?;
            let inside = lo >= a && hi <= b;
            let outside = match &entry.refute {
                Some(r) => eval(r, stats)?,
                None => lo > b || hi < a,
            };
            let near = |x: f64, edge: f64| (x - edge).abs() <= BORDERLINE_REL * edge.abs();
            let borderline = q.borderline.is_none()
                && (near(lo, a) || near(hi, b) || near(lo, b) || near(hi, a));
            return match (extra && inside, outside, borderline) {
                (true, _, false) => Ok((ClaimVerdict::Confirmed, String::new())),
                (false, true, false) => Ok((ClaimVerdict::Refuted, String::new())),
                (true, _, true) | (false, true, true) => Ok((
                    ClaimVerdict::Inconclusive,
                    format!(
                        "borderline: the interval [{}, {}] ends within {}% of the margin [{a}, {b}]",
                        crate::report::numbers::sig(lo, 5),
                        crate::report::numbers::sig(hi, 5),
                        BORDERLINE_REL * 100.0
                    ),
                )),
                (false, false, _) => inconclusive(),
            };
        }
        let verdict = if eval(confirm, stats)? {
            ClaimVerdict::Confirmed
        } else if entry
            .corrected
            .as_deref()
            .map(|c| eval(c, stats))
            .transpose()?
            == Some(true)
        {
            ClaimVerdict::ConfirmedAsCorrected
        } else {
            match &entry.refute {
                None => ClaimVerdict::Refuted,
                Some(r) if eval(r, stats)? => ClaimVerdict::Refuted,
                Some(_) => return inconclusive(),
            }
        };
        if let Some(b) = &entry.borderline {
            let (x, hw) = (lookup(stats, &b.stat)?, lookup(stats, &b.half_width)?);
            if (x - b.edge).abs() <= hw {
                return Ok((
                    ClaimVerdict::Inconclusive,
                    format!(
                        "borderline: {} = {} lies within its 95% half-width {} of the edge {}",
                        b.stat,
                        crate::report::numbers::sig(x, 4),
                        crate::report::numbers::sig(hw, 3),
                        b.edge
                    ),
                ));
            }
        }
        Ok((verdict, String::new()))
    };
    run().unwrap_or_else(|e| (ClaimVerdict::NotCheckable, format!("error: {e}")))
}

/// An interval end: finite, or `±∞` (an end a capped cell leaves open); NaN or missing is an
/// error.
fn lookup_end(stats: &[(String, f64)], name: &str) -> Result<f64, String> {
    match stats.iter().find(|s| s.0 == name) {
        None => Err(format!("statistic `{name}` was not computed")),
        Some((_, v)) if v.is_nan() => Err(format!("statistic `{name}` = NaN")),
        Some((_, v)) => Ok(*v),
    }
}

/// The rule in words, as REPORT.md's claim table shows it.
pub fn rule_text(entry: &Entry) -> String {
    if let Some(r) = &entry.not_checkable {
        return format!("not checkable: {r}");
    }
    let confirm = entry.confirm.as_deref().unwrap_or("");
    let mut s = match &entry.equivalence {
        Some(q) => format!(
            "equivalence: confirmed if [{}, {}] lies inside the margin [{}, {}] (two one-sided tests at 2.5%){}",
            q.lo,
            q.hi,
            crate::report::numbers::sig(q.margin[0], 4),
            crate::report::numbers::sig(q.margin[1], 4),
            if confirm.is_empty() {
                String::new()
            } else {
                format!(" and {confirm}")
            }
        ),
        None => format!("confirmed if {confirm}"),
    };
    if let Some(c) = &entry.corrected {
        s.push_str(&format!("; confirmed as corrected if {c}"));
    }
    match (&entry.refute, &entry.equivalence) {
        (Some(r), _) => s.push_str(&format!("; refuted if {r}; else inconclusive")),
        (None, Some(_)) => s.push_str("; refuted if it lies entirely outside; else inconclusive"),
        (None, None) => s.push_str("; else refuted"),
    }
    if entry
        .equivalence
        .as_ref()
        .is_some_and(|q| q.borderline.is_none())
    {
        s.push_str(&format!(
            "; inconclusive (borderline) if an end lies within {}% of an edge",
            BORDERLINE_REL * 100.0
        ));
    }
    if let Some(b) = &entry.borderline {
        s.push_str(&format!(
            "; inconclusive (borderline) if |{} − {}| ≤ {}",
            b.stat, b.edge, b.half_width
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(v: &[(&str, f64)]) -> Vec<(String, f64)> {
        v.iter().map(|(n, x)| (n.to_string(), *x)).collect()
    }

    #[test]
    fn parses_atoms() {
        let a = atoms("a <= 1e-8 and b >= c").expect("parses");
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].op, "<=");
        assert_eq!(a[0].rhs, Rhs::Num(1e-8));
        assert_eq!(a[1].rhs, Rhs::Stat("c".into()));
        assert!(atoms("a 3").is_err());
    }

    /// A test entry with rule `confirm` and nothing else.
    fn entry(confirm: &str) -> Entry {
        Entry {
            id: "F.0".into(),
            wording: String::new(),
            statistic: String::new(),
            confirm: Some(confirm.into()),
            corrected: None,
            refute: None,
            decide: Some("more runs".into()),
            not_checkable: None,
            fair: String::new(),
            rule_sets: vec![],
            profile: "any".into(),
            areas: vec![],
            regime: Regime::Finite,
            equivalence: None,
            borderline: None,
        }
    }

    #[test]
    fn missing_or_nan_is_not_checkable() {
        let e = Entry {
            refute: Some("x > 2".into()),
            ..entry("x <= 1")
        };
        assert_eq!(decide(&e, &st(&[("x", 0.5)])).0, ClaimVerdict::Confirmed);
        assert_eq!(decide(&e, &st(&[("x", 1.5)])).0, ClaimVerdict::Inconclusive);
        assert_eq!(decide(&e, &st(&[("x", 2.5)])).0, ClaimVerdict::Refuted);
        let (v, note) = decide(&e, &st(&[("x", f64::NAN)]));
        assert_eq!(v, ClaimVerdict::NotCheckable);
        assert!(note.starts_with("error:"));
        assert_eq!(decide(&e, &st(&[("y", 0.0)])).0, ClaimVerdict::NotCheckable);
    }

    /// No agreement is confirmed on an interval that merely contains the null value: every
    /// equivalence rule, fed the interval [0.5, 2] with its other conditions met and its
    /// refutation not, is `inconclusive`; the same interval inside a wide margin is `confirmed`.
    #[test]
    fn an_interval_containing_one_is_not_agreement() {
        let p = protocol();
        let mut seen = 0;
        for e in p.values() {
            let Some(q) = &e.equivalence else { continue };
            seen += 1;
            let mut st = satisfying(e.confirm.as_deref().expect("an equivalence has `confirm`"));
            if let Some(r) = &e.refute {
                for a in atoms(r).expect("parses") {
                    if !st.iter().any(|s| s.0 == a.name) {
                        st.push((a.name.clone(), 0.0));
                        violate(&mut st, &a);
                    }
                }
            }
            st.push((q.lo.clone(), 0.5));
            st.push((q.hi.clone(), 2.0));
            let (v, note) = decide(e, &st);
            assert_eq!(v, ClaimVerdict::Inconclusive, "{}: {note}", e.id);
            let mut wide = e.clone();
            wide.equivalence = Some(Equivalence {
                margin: [0.25, 4.0],
                ..q.clone()
            });
            assert_eq!(decide(&wide, &st).0, ClaimVerdict::Confirmed, "{}", e.id);
        }
        assert!(
            seen >= 3,
            "the agreement claims declare their equivalence ({seen})"
        );
    }

    /// An interval end within rounding of the margin's edge is borderline, both ways.
    #[test]
    fn knife_edges_are_borderline() {
        let e = Entry {
            equivalence: Some(Equivalence {
                lo: "lo".into(),
                hi: "hi".into(),
                margin: [1.0 / 1.1, 1.1],
                borderline: None,
            }),
            ..entry("cells > 0")
        };
        let at = |lo: f64, hi: f64| decide(&e, &st(&[("cells", 3.0), ("lo", lo), ("hi", hi)]));
        assert_eq!(at(0.95, 1.05).0, ClaimVerdict::Confirmed);
        let (v, note) = at(0.95, 1.0997);
        assert_eq!(v, ClaimVerdict::Inconclusive);
        assert!(note.starts_with("borderline"), "{note}");
        assert_eq!(at(1.2, 1.5).0, ClaimVerdict::Refuted);
        assert_eq!(at(1.1003, 1.5).0, ClaimVerdict::Inconclusive);
        assert_eq!(at(0.95, f64::INFINITY).0, ClaimVerdict::Inconclusive);
        let mut point = e.clone();
        point.equivalence = None;
        point.confirm = Some("x <= 4".into());
        point.borderline = Some(Borderline {
            stat: "x".into(),
            half_width: "hw".into(),
            edge: 4.0,
        });
        let d = |x: f64, hw: f64| decide(&point, &st(&[("x", x), ("hw", hw)])).0;
        assert_eq!(d(3.0, 0.5), ClaimVerdict::Confirmed);
        assert_eq!(d(3.8, 0.5), ClaimVerdict::Inconclusive);
        assert_eq!(d(4.2, 0.5), ClaimVerdict::Inconclusive);
        assert_eq!(d(5.0, 0.5), ClaimVerdict::Refuted);
    }

    /// A point satisfying a predicate: each statistic at the middle of the interval its atoms
    /// allow (or at its `==` value); statistic-valued right-hand sides copied.
    fn satisfying(pred: &str) -> Vec<(String, f64)> {
        let atoms = atoms(pred).expect("parses");
        let mut lo: BTreeMap<String, f64> = BTreeMap::new();
        let mut hi: BTreeMap<String, f64> = BTreeMap::new();
        let mut eq: BTreeMap<String, f64> = BTreeMap::new();
        for a in &atoms {
            if let Rhs::Num(x) = a.rhs {
                match a.op {
                    "<" | "<=" => {
                        hi.insert(a.name.clone(), x);
                    }
                    ">" | ">=" => {
                        lo.insert(a.name.clone(), x);
                    }
                    "==" => {
                        eq.insert(a.name.clone(), x);
                    }
                    _ => {
                        eq.insert(a.name.clone(), x + 1.0);
                    }
                }
            }
        }
        let mut out: Vec<(String, f64)> = Vec::new();
        let mut names: Vec<&String> = lo.keys().chain(hi.keys()).chain(eq.keys()).collect();
        names.sort();
        names.dedup();
        for n in names {
            let v = match (eq.get(n), lo.get(n), hi.get(n)) {
                (Some(&e), _, _) => e,
                (None, Some(&l), Some(&h)) => 0.5 * (l + h),
                (None, Some(&l), None) => l + l.abs() + 1.0,
                (None, None, Some(&h)) => h - h.abs() - 1.0,
                (None, None, None) => unreachable!(),
            };
            out.push((n.clone(), v));
        }
        for a in &atoms {
            if let Rhs::Stat(r) = &a.rhs {
                let known = out.iter().find(|s| s.0 == a.name).map(|s| s.1);
                let rv = out.iter().find(|s| s.0 == *r).map(|s| s.1);
                // A strict comparison needs the two sides apart.
                let step = match a.op {
                    ">" => 1.0,
                    "<" => -1.0,
                    _ => 0.0,
                };
                match (known, rv) {
                    (None, Some(v)) => out.push((a.name.clone(), v + step)),
                    (Some(v), None) => out.push((r.clone(), v - step)),
                    (None, None) => {
                        out.push((a.name.clone(), 3.0 + step));
                        out.push((r.clone(), 3.0));
                    }
                    (Some(_), Some(_)) => {}
                }
            }
        }
        out
    }

    /// Moves `atom`'s statistic so that the atom fails.
    fn violate(stats: &mut [(String, f64)], a: &Atom) {
        let rhs = match &a.rhs {
            Rhs::Num(x) => *x,
            Rhs::Stat(n) => stats.iter().find(|s| s.0 == *n).expect("assigned").1,
        };
        let v = match a.op {
            "<" | "<=" => rhs + rhs.abs() + 1.0,
            ">" | ">=" => rhs - rhs.abs() - 1.0,
            "==" => rhs + 1.0,
            _ => rhs,
        };
        stats
            .iter_mut()
            .find(|s| s.0 == a.name)
            .expect("assigned")
            .1 = v;
    }

    /// Every claim F.1–F.66 has an entry with a non-empty rule, and no verdict is a constant:
    /// for each rule, statistics that satisfy it give `confirmed`, moving any one statistic
    /// across its atom's bound moves the verdict, and a `refute` rule can be met.
    #[test]
    fn every_rule_moves_with_its_statistics() {
        let p = protocol();
        for i in 1..=66 {
            let e = p.get(&format!("F.{i}")).expect("every claim has an entry");
            assert!(!rule_text(e).is_empty() && !e.wording.is_empty() && !e.fair.is_empty());
        }
        for e in p.values() {
            let Some(confirm) = &e.confirm else {
                assert!(e.not_checkable.as_deref().is_some_and(|r| !r.is_empty()));
                continue;
            };
            let mut good = satisfying(confirm);
            if let Some(q) = &e.equivalence {
                let [a, b] = q.margin;
                good.push((q.lo.clone(), a + 0.25 * (b - a)));
                good.push((q.hi.clone(), a + 0.75 * (b - a)));
            }
            // Statistics only the corrected reading reads, set so that it holds.
            if let Some(c) = &e.corrected {
                for (n, v) in satisfying(c) {
                    if !good.iter().any(|s| s.0 == n) {
                        good.push((n, v));
                    }
                }
            }
            // Statistics only the refutation reads, set so that it fails.
            if let Some(r) = &e.refute {
                for a in atoms(r).expect("parses") {
                    if !good.iter().any(|s| s.0 == a.name) {
                        good.push((a.name.clone(), 0.0));
                        violate(&mut good, &a);
                    }
                }
            }
            assert_eq!(
                decide(e, &good).0,
                ClaimVerdict::Confirmed,
                "{}: {good:?}",
                e.id
            );
            for a in atoms(confirm).expect("parses") {
                let mut bad = good.clone();
                violate(&mut bad, &a);
                let v = decide(e, &bad).0;
                assert_ne!(
                    v,
                    ClaimVerdict::Confirmed,
                    "{}: moving {} did not move",
                    e.id,
                    a.name
                );
                assert_ne!(v, ClaimVerdict::NotCheckable, "{}: {bad:?}", e.id);
            }
            if let Some(q) = &e.equivalence {
                // Either end moved across its edge of the margin leaves the claim unconfirmed.
                for (name, v) in [(&q.lo, q.margin[0] * 0.9), (&q.hi, q.margin[1] * 1.1)] {
                    let mut bad = good.clone();
                    bad.iter_mut().find(|s| s.0 == *name).expect("assigned").1 = v;
                    assert_ne!(decide(e, &bad).0, ClaimVerdict::Confirmed, "{}", e.id);
                }
                continue;
            }
            if let Some(r) = &e.refute {
                // Statistics of the refutation; the confirm rule's others kept.
                let mut st = good.clone();
                for (n, v) in satisfying(r) {
                    match st.iter_mut().find(|s| s.0 == n) {
                        Some(s) => s.1 = v,
                        None => st.push((n, v)),
                    }
                }
                // A refutation is only read once the claim is not confirmed.
                let refute_names: Vec<String> = atoms(r)
                    .expect("parses")
                    .into_iter()
                    .map(|a| a.name)
                    .collect();
                if decide(e, &st).0 == ClaimVerdict::Confirmed {
                    let a = atoms(confirm)
                        .expect("parses")
                        .into_iter()
                        .find(|a| !refute_names.contains(&a.name))
                        .expect("a confirm atom outside the refutation");
                    violate(&mut st, &a);
                }
                assert_eq!(decide(e, &st).0, ClaimVerdict::Refuted, "{}: {st:?}", e.id);
            }
        }
    }
}
