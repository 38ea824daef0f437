//! A claim's acceptance rule ([`Rule`]) and how it decides ([`decide`]): a claim's statistics
//! become its verdict by the rule declared beside its check ([`super::Claim`]); no check chooses
//! its own verdict. `verify/protocol.toml`, the published pre-registration, is written from the
//! declarations ([`super::protocol`]).
//!
//! # Rule language
//! A predicate is a conjunction `atom and atom …`, an atom `name op value` with `op` one of
//! `<`, `<=`, `>`, `>=`, `==`, `!=` and `value` a number or another statistic's name; every name
//! is a field of the claim's typed statistics ([`super::Statistics`]), which a test checks for
//! every declared claim. A rule gives
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
//! `borderline: false` in its [`Equivalence`] (`borderline = "none"` in the protocol file).
//!
//! # Regimes
//! Every claim says how the paper states it (`regime`): `exact` (an identity or inequality of
//! mathematics, checked to rounding or certified accuracy), `finite` (a statement at the
//! experiment's δ and ε, e.g. a figure), or `asymptotic` (δ → 0, ε → 0 or ε → ∞). An asymptotic
//! claim is judged on asymptotic evidence (a slope in log(1/δ) or in ε, a trend across the grid,
//! with its interval); a finite-δ excess of an asymptotic constant is a Finding of REPORT.md,
//! never a refutation.

use super::record::ClaimVerdict;
use crate::numbers::sig;

/// A claim's acceptance rule (see the module docs). Build one with struct-update syntax from
/// [`Rule::NONE`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    /// Predicate under which the claim is confirmed as printed.
    pub confirm: Option<&'static str>,
    /// Predicate under which the claim holds under the corrected reading (READINGS.md §R).
    pub corrected: Option<&'static str>,
    /// Predicate under which the claim is refuted (else inconclusive).
    pub refute: Option<&'static str>,
    /// What evidence would decide an inconclusive claim.
    pub decide: Option<&'static str>,
    /// Reason the claim cannot be checked by computation (instead of a rule).
    pub not_checkable: Option<&'static str>,
    /// The interval and margin of an agreement claim.
    pub equivalence: Option<Equivalence>,
    /// The point statistic, its half-width and the band edge of a borderline test.
    pub borderline: Option<Borderline>,
}

impl Rule {
    /// The empty rule, the base of every declaration's struct update.
    pub const NONE: Rule = Rule {
        confirm: None,
        corrected: None,
        refute: None,
        decide: None,
        not_checkable: None,
        equivalence: None,
        borderline: None,
    };

    /// A rule that only confirms (else refutes).
    pub const fn confirm(predicate: &'static str) -> Rule {
        Rule {
            confirm: Some(predicate),
            ..Rule::NONE
        }
    }

    /// The predicates of the rule (confirm, corrected, refute), for the checks of names.
    pub fn predicates(&self) -> impl Iterator<Item = &'static str> + use<> {
        [self.confirm, self.corrected, self.refute]
            .into_iter()
            .flatten()
    }

    /// Every statistic name the rule reads: the atoms' sides, the equivalence ends and the
    /// borderline statistics.
    ///
    /// # Errors
    /// A predicate that does not parse.
    pub fn names(&self) -> Result<Vec<&'static str>, String> {
        let mut out = Vec::new();
        for p in self.predicates() {
            for a in atoms(p)? {
                out.push(a.name);
                if let Rhs::Stat(s) = a.rhs {
                    out.push(s);
                }
            }
        }
        if let Some(q) = &self.equivalence {
            out.extend([q.lo, q.hi]);
        }
        if let Some(b) = &self.borderline {
            out.extend([b.stat, b.half_width]);
        }
        Ok(out)
    }

    /// The rule's own consistency: exactly one of `confirm` and `not_checkable`, predicates
    /// that parse, a non-empty equivalence margin, and `decide` wherever the verdict can be
    /// inconclusive.
    ///
    /// # Errors
    /// The first inconsistency, in words.
    pub fn validate(&self) -> Result<(), String> {
        match (self.confirm, self.not_checkable) {
            (Some(_), None) | (None, Some(_)) => {}
            _ => return Err("give exactly one of `confirm` and `not_checkable`".into()),
        }
        for p in self.predicates() {
            atoms(p)?;
        }
        if let Some(q) = &self.equivalence {
            if q.margin[0].partial_cmp(&q.margin[1]) != Some(std::cmp::Ordering::Less) {
                return Err(format!("equivalence margin {:?} is empty", q.margin));
            }
            if self.decide.is_none() {
                return Err("an equivalence rule needs `decide`".into());
            }
        }
        if self.refute.is_some() && self.decide.is_none() {
            return Err("a `refute` rule needs `decide`".into());
        }
        Ok(())
    }
}

/// How the paper states a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Equivalence {
    /// Statistic holding the lowest lower end of the compared 95% intervals.
    pub lo: &'static str,
    /// Statistic holding the highest upper end.
    pub hi: &'static str,
    /// The margin `[a, b]`, justified in the claim's `fair`.
    pub margin: [f64; 2],
    /// Whether the borderline test applies (`false`: `borderline = "none"` in the protocol).
    pub borderline: bool,
}

impl Equivalence {
    /// Ratios that agree within ±10%: every 95% interval, from `ratio_lo_min` to
    /// `ratio_hi_max`, inside `[1/1.1, 1.1]`, with the borderline test.
    pub const RATIO_WITHIN_10_PERCENT: Equivalence = Equivalence {
        lo: "ratio_lo_min",
        hi: "ratio_hi_max",
        margin: [1.0 / 1.1, 1.1],
        borderline: true,
    };
}

/// A borderline test on a point statistic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Borderline {
    /// The decision statistic.
    pub stat: &'static str,
    /// The statistic holding its 95% half-width.
    pub half_width: &'static str,
    /// The band edge the rule compares it with.
    pub edge: f64,
}

/// Relative distance of an equivalence interval's end from the margin under which the decision
/// is borderline: the end is within a rounding of the reported three significant digits.
pub const BORDERLINE_REL: f64 = 5e-3;

/// One comparison of a predicate.
#[derive(Debug, Clone, PartialEq)]
pub struct Atom {
    /// Statistic on the left.
    pub name: &'static str,
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
    Stat(&'static str),
}

const OPS: [&str; 6] = ["<=", ">=", "==", "!=", "<", ">"];

/// Splits a predicate into its atoms.
///
/// # Errors
/// An atom without an operator, or an empty name.
pub fn atoms(pred: &'static str) -> Result<Vec<Atom>, String> {
    pred.split(" and ")
        .map(|a| {
            let a = a.trim();
            let (i, op) = OPS
                .iter()
                .filter_map(|op| a.find(op).map(|i| (i, *op)))
                .min_by_key(|&(i, op)| (i, std::cmp::Reverse(op.len())))
                .ok_or_else(|| format!("no operator in `{a}`"))?;
            let name = a[..i].trim();
            let rhs = a[i + op.len()..].trim();
            if name.is_empty() || rhs.is_empty() {
                return Err(format!("malformed `{a}`"));
            }
            let rhs = rhs.parse::<f64>().map_or(Rhs::Stat(rhs), Rhs::Num);
            Ok(Atom { name, op, rhs })
        })
        .collect()
}

/// Named statistics as a check returned them.
pub type Named = [(&'static str, f64)];

fn lookup(stats: &Named, name: &str) -> Result<f64, String> {
    match stats.iter().find(|s| s.0 == name) {
        None => Err(format!("statistic `{name}` was not computed")),
        Some((_, v)) if !v.is_finite() => Err(format!("statistic `{name}` = {v}")),
        Some((_, v)) => Ok(*v),
    }
}

/// An interval end: finite, or `±∞` (an end a capped cell leaves open); NaN or missing is an
/// error.
fn lookup_end(stats: &Named, name: &str) -> Result<f64, String> {
    match stats.iter().find(|s| s.0 == name) {
        None => Err(format!("statistic `{name}` was not computed")),
        Some((_, v)) if v.is_nan() => Err(format!("statistic `{name}` = NaN")),
        Some((_, v)) => Ok(*v),
    }
}

/// Evaluates a predicate on named statistics.
///
/// # Errors
/// A statistic the predicate needs is missing or not finite (the message names it).
pub fn eval(pred: &'static str, stats: &Named) -> Result<bool, String> {
    let mut all = true;
    for a in atoms(pred)? {
        let l = lookup(stats, a.name)?;
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

/// The verdict of `rule` on `stats`, and its note (the reason of `not checkable`, or what
/// would decide an `inconclusive` claim; empty otherwise).
pub fn decide(rule: &Rule, stats: &Named) -> (ClaimVerdict, String) {
    if let Some(reason) = rule.not_checkable {
        return (ClaimVerdict::NotCheckable, reason.to_string());
    }
    let inconclusive = || {
        Ok((
            ClaimVerdict::Inconclusive,
            rule.decide.unwrap_or_default().to_string(),
        ))
    };
    let run = || -> Result<(ClaimVerdict, String), String> {
        let confirm = rule.confirm.unwrap_or("");
        if let Some(q) = &rule.equivalence {
            let (lo, hi) = (lookup_end(stats, q.lo)?, lookup_end(stats, q.hi)?);
            let [a, b] = q.margin;
            let extra = eval(confirm, stats)?;
            let inside = lo >= a && hi <= b;
            let outside = match rule.refute {
                Some(r) => eval(r, stats)?,
                None => lo > b || hi < a,
            };
            let near = |x: f64, edge: f64| (x - edge).abs() <= BORDERLINE_REL * edge.abs();
            let borderline =
                q.borderline && (near(lo, a) || near(hi, b) || near(lo, b) || near(hi, a));
            return match (extra && inside, outside, borderline) {
                (true, _, false) => Ok((ClaimVerdict::Confirmed, String::new())),
                (false, true, false) => Ok((ClaimVerdict::Refuted, String::new())),
                (true, _, true) | (false, true, true) => Ok((
                    ClaimVerdict::Inconclusive,
                    format!(
                        "borderline: the interval [{}, {}] ends within {}% of the margin [{a}, {b}]",
                        sig(lo, 5),
                        sig(hi, 5),
                        BORDERLINE_REL * 100.0
                    ),
                )),
                (false, false, _) => inconclusive(),
            };
        }
        let verdict = if eval(confirm, stats)? {
            ClaimVerdict::Confirmed
        } else if rule.corrected.map(|c| eval(c, stats)).transpose()? == Some(true) {
            ClaimVerdict::ConfirmedAsCorrected
        } else {
            match rule.refute {
                None => ClaimVerdict::Refuted,
                Some(r) if eval(r, stats)? => ClaimVerdict::Refuted,
                Some(_) => return inconclusive(),
            }
        };
        if let Some(b) = &rule.borderline {
            let (x, hw) = (lookup(stats, b.stat)?, lookup(stats, b.half_width)?);
            if (x - b.edge).abs() <= hw {
                return Ok((
                    ClaimVerdict::Inconclusive,
                    format!(
                        "borderline: {} = {} lies within its 95% half-width {} of the edge {}",
                        b.stat,
                        sig(x, 4),
                        sig(hw, 3),
                        b.edge
                    ),
                ));
            }
        }
        Ok((verdict, String::new()))
    };
    run().unwrap_or_else(|e| (ClaimVerdict::NotCheckable, format!("error: {e}")))
}

/// The rule in words, as REPORT.md's claim table shows it.
pub fn rule_text(rule: &Rule) -> String {
    if let Some(r) = rule.not_checkable {
        return format!("not checkable: {r}");
    }
    let confirm = rule.confirm.unwrap_or("");
    let mut s = match &rule.equivalence {
        Some(q) => format!(
            "equivalence: confirmed if [{}, {}] lies inside the margin [{}, {}] (two one-sided tests at 2.5%){}",
            q.lo,
            q.hi,
            sig(q.margin[0], 4),
            sig(q.margin[1], 4),
            if confirm.is_empty() {
                String::new()
            } else {
                format!(" and {confirm}")
            }
        ),
        None => format!("confirmed if {confirm}"),
    };
    if let Some(c) = rule.corrected {
        s.push_str(&format!("; confirmed as corrected if {c}"));
    }
    match (rule.refute, &rule.equivalence) {
        (Some(r), _) => s.push_str(&format!("; refuted if {r}; else inconclusive")),
        (None, Some(_)) => s.push_str("; refuted if it lies entirely outside; else inconclusive"),
        (None, None) => s.push_str("; else refuted"),
    }
    if rule.equivalence.as_ref().is_some_and(|q| q.borderline) {
        s.push_str(&format!(
            "; inconclusive (borderline) if an end lies within {}% of an edge",
            BORDERLINE_REL * 100.0
        ));
    }
    if let Some(b) = &rule.borderline {
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
    use std::collections::BTreeMap;

    fn st(v: &[(&'static str, f64)]) -> Vec<(&'static str, f64)> {
        v.to_vec()
    }

    /// The rules of every declared claim, with their ids.
    fn rules() -> Vec<(&'static str, Rule)> {
        crate::claims::dp_bai::claims()
            .iter()
            .map(|c| (c.meta().id, c.meta().rule))
            .collect()
    }

    #[test]
    fn parses_atoms() {
        let a = atoms("a <= 1e-8 and b >= c").expect("parses");
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].op, "<=");
        assert_eq!(a[0].rhs, Rhs::Num(1e-8));
        assert_eq!(a[1].rhs, Rhs::Stat("c"));
        assert!(atoms("a 3").is_err());
    }

    /// A test rule `confirm` with a `decide` and nothing else.
    fn entry(confirm: &'static str) -> Rule {
        Rule {
            confirm: Some(confirm),
            decide: Some("more runs"),
            ..Rule::NONE
        }
    }

    #[test]
    fn missing_or_nan_is_not_checkable() {
        let e = Rule {
            refute: Some("x > 2"),
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
        let mut seen = 0;
        for (id, e) in rules() {
            let Some(q) = &e.equivalence else { continue };
            seen += 1;
            let mut st = satisfying(e.confirm.expect("an equivalence has `confirm`"));
            if let Some(r) = e.refute {
                for a in atoms(r).expect("parses") {
                    if !st.iter().any(|s| s.0 == a.name) {
                        st.push((a.name, 0.0));
                        violate(&mut st, &a);
                    }
                }
            }
            st.push((q.lo, 0.5));
            st.push((q.hi, 2.0));
            let (v, note) = decide(&e, &st);
            assert_eq!(v, ClaimVerdict::Inconclusive, "{id}: {note}");
            let mut wide = e;
            wide.equivalence = Some(Equivalence {
                margin: [0.25, 4.0],
                ..*q
            });
            assert_eq!(decide(&wide, &st).0, ClaimVerdict::Confirmed, "{id}");
        }
        assert!(
            seen >= 3,
            "the agreement claims declare their equivalence ({seen})"
        );
    }

    /// An interval end within rounding of the margin's edge is borderline, both ways.
    #[test]
    fn knife_edges_are_borderline() {
        let e = Rule {
            equivalence: Some(Equivalence {
                lo: "lo",
                hi: "hi",
                margin: [1.0 / 1.1, 1.1],
                borderline: true,
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
        let mut point = e;
        point.equivalence = None;
        point.confirm = Some("x <= 4");
        point.borderline = Some(Borderline {
            stat: "x",
            half_width: "hw",
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
    fn satisfying(pred: &'static str) -> Vec<(&'static str, f64)> {
        let atoms = atoms(pred).expect("parses");
        let mut lo: BTreeMap<&'static str, f64> = BTreeMap::new();
        let mut hi: BTreeMap<&'static str, f64> = BTreeMap::new();
        let mut eq: BTreeMap<&'static str, f64> = BTreeMap::new();
        for a in &atoms {
            if let Rhs::Num(x) = a.rhs {
                match a.op {
                    "<" | "<=" => {
                        hi.insert(a.name, x);
                    }
                    ">" | ">=" => {
                        lo.insert(a.name, x);
                    }
                    "==" => {
                        eq.insert(a.name, x);
                    }
                    _ => {
                        eq.insert(a.name, x + 1.0);
                    }
                }
            }
        }
        let mut out: Vec<(&'static str, f64)> = Vec::new();
        let mut names: Vec<&&'static str> = lo.keys().chain(hi.keys()).chain(eq.keys()).collect();
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
            out.push((*n, v));
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
                    (None, Some(v)) => out.push((a.name, v + step)),
                    (Some(v), None) => out.push((*r, v - step)),
                    (None, None) => {
                        out.push((a.name, 3.0 + step));
                        out.push((*r, 3.0));
                    }
                    (Some(_), Some(_)) => {}
                }
            }
        }
        out
    }

    /// Moves `atom`'s statistic so that the atom fails.
    fn violate(stats: &mut [(&'static str, f64)], a: &Atom) {
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

    /// Every declared claim has a non-empty rule, and no verdict is a constant:
    /// for each rule, statistics that satisfy it give `confirmed`, moving any one statistic
    /// across its atom's bound moves the verdict, and a `refute` rule can be met.
    #[test]
    fn every_rule_moves_with_its_statistics() {
        for (id, e) in rules() {
            assert!(!rule_text(&e).is_empty());
            let Some(confirm) = e.confirm else {
                assert!(e.not_checkable.is_some_and(|r| !r.is_empty()));
                continue;
            };
            let mut good = satisfying(confirm);
            if let Some(q) = &e.equivalence {
                let [a, b] = q.margin;
                good.push((q.lo, a + 0.25 * (b - a)));
                good.push((q.hi, a + 0.75 * (b - a)));
            }
            // Statistics only the corrected reading reads, set so that it holds.
            if let Some(c) = e.corrected {
                for (n, v) in satisfying(c) {
                    if !good.iter().any(|s| s.0 == n) {
                        good.push((n, v));
                    }
                }
            }
            // Statistics only the refutation reads, set so that it fails.
            if let Some(r) = e.refute {
                for a in atoms(r).expect("parses") {
                    if !good.iter().any(|s| s.0 == a.name) {
                        good.push((a.name, 0.0));
                        violate(&mut good, &a);
                    }
                }
            }
            assert_eq!(
                decide(&e, &good).0,
                ClaimVerdict::Confirmed,
                "{id}: {good:?}"
            );
            for a in atoms(confirm).expect("parses") {
                let mut bad = good.clone();
                violate(&mut bad, &a);
                let v = decide(&e, &bad).0;
                assert_ne!(
                    v,
                    ClaimVerdict::Confirmed,
                    "{id}: moving {} did not move",
                    a.name
                );
                assert_ne!(v, ClaimVerdict::NotCheckable, "{id}: {bad:?}");
            }
            if let Some(q) = &e.equivalence {
                // Either end moved across its edge of the margin leaves the claim unconfirmed.
                for (name, v) in [(q.lo, q.margin[0] * 0.9), (q.hi, q.margin[1] * 1.1)] {
                    let mut bad = good.clone();
                    bad.iter_mut().find(|s| s.0 == name).expect("assigned").1 = v;
                    assert_ne!(decide(&e, &bad).0, ClaimVerdict::Confirmed, "{id}");
                }
                continue;
            }
            if let Some(r) = e.refute {
                // Statistics of the refutation; the confirm rule's others kept.
                let mut st = good.clone();
                for (n, v) in satisfying(r) {
                    match st.iter_mut().find(|s| s.0 == n) {
                        Some(s) => s.1 = v,
                        None => st.push((n, v)),
                    }
                }
                // A refutation is only read once the claim is not confirmed.
                let refute_names: Vec<&'static str> = atoms(r)
                    .expect("parses")
                    .into_iter()
                    .map(|a| a.name)
                    .collect();
                if decide(&e, &st).0 == ClaimVerdict::Confirmed {
                    let a = atoms(confirm)
                        .expect("parses")
                        .into_iter()
                        .find(|a| !refute_names.contains(&a.name))
                        .expect("a confirm atom outside the refutation");
                    violate(&mut st, &a);
                }
                assert_eq!(decide(&e, &st).0, ClaimVerdict::Refuted, "{id}: {st:?}");
            }
        }
    }
}
