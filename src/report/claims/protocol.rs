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

use super::ClaimVerdict;
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
}

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
    let run = || -> Result<(ClaimVerdict, String), String> {
        let confirm = entry.confirm.as_deref().unwrap_or("");
        if eval(confirm, stats)? {
            return Ok((ClaimVerdict::Confirmed, String::new()));
        }
        if let Some(c) = &entry.corrected {
            if eval(c, stats)? {
                return Ok((ClaimVerdict::ConfirmedAsCorrected, String::new()));
            }
        }
        match &entry.refute {
            None => Ok((ClaimVerdict::Refuted, String::new())),
            Some(r) if eval(r, stats)? => Ok((ClaimVerdict::Refuted, String::new())),
            Some(_) => Ok((
                ClaimVerdict::Inconclusive,
                entry.decide.clone().unwrap_or_default(),
            )),
        }
    };
    run().unwrap_or_else(|e| (ClaimVerdict::NotCheckable, format!("error: {e}")))
}

/// The rule in words, as REPORT.md's claim table shows it.
pub fn rule_text(entry: &Entry) -> String {
    if let Some(r) = &entry.not_checkable {
        return format!("not checkable: {r}");
    }
    let mut s = format!("confirmed if {}", entry.confirm.as_deref().unwrap_or(""));
    if let Some(c) = &entry.corrected {
        s.push_str(&format!("; confirmed as corrected if {c}"));
    }
    match &entry.refute {
        Some(r) => s.push_str(&format!("; refuted if {r}; else inconclusive")),
        None => s.push_str("; else refuted"),
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

    #[test]
    fn missing_or_nan_is_not_checkable() {
        let e = Entry {
            id: "F.0".into(),
            wording: String::new(),
            statistic: String::new(),
            confirm: Some("x <= 1".into()),
            corrected: None,
            refute: Some("x > 2".into()),
            decide: Some("more runs".into()),
            not_checkable: None,
            fair: String::new(),
            rule_sets: vec![],
            profile: "any".into(),
            areas: vec![],
        };
        assert_eq!(decide(&e, &st(&[("x", 0.5)])).0, ClaimVerdict::Confirmed);
        assert_eq!(decide(&e, &st(&[("x", 1.5)])).0, ClaimVerdict::Inconclusive);
        assert_eq!(decide(&e, &st(&[("x", 2.5)])).0, ClaimVerdict::Refuted);
        let (v, note) = decide(&e, &st(&[("x", f64::NAN)]));
        assert_eq!(v, ClaimVerdict::NotCheckable);
        assert!(note.starts_with("error:"));
        assert_eq!(decide(&e, &st(&[("y", 0.0)])).0, ClaimVerdict::NotCheckable);
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
                match (known, rv) {
                    (None, Some(v)) => out.push((a.name.clone(), v)),
                    (Some(v), None) => out.push((r.clone(), v)),
                    (None, None) => {
                        out.push((a.name.clone(), 3.0));
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
