//! `results.csv` of a study: one row per cell ([`write_results`]), read back for REPORT.md
//! ([`read_results`]).

use super::Row;
use super::config::{Study, UpperKind};
use crate::error::{Error, Result};
use std::path::Path;

/// One line of `results.csv`: its fields, in order, are the file's columns (the one schema: the
/// header is derived from it, [`columns`]), and each field's type writes and reads it. No comment
/// lines: `pandas.read_csv` reads the file as is. Empty fields: `sigma` (Bernoulli), `eps`
/// (non-private), `ci95_*` (capped runs or one run), `km_*` (the Kaplan–Meier curve does not fall
/// that far: beyond the cap), `upper_*` and `ratio_to_upper` (no asymptotic upper bound for this
/// algorithm, rules or family; `upper_bound` is asymptotic, δ → 0, not a finite-δ bound). The
/// meaning of each column: the glossary's `results.csv` section.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct Line {
    instance: String,
    family: String,
    sigma: Option<Plain>,
    algorithm: String,
    algo: String,
    rules: String,
    delta: Num,
    eps: Option<Num>,
    runs: u64,
    capped: u64,
    mean_tau: Num,
    mean_is_lower_bound: bool,
    std_tau: Option<Num>,
    ci95_lo: Option<Num>,
    ci95_hi: Option<Num>,
    km_median: Option<u64>,
    km_q25: Option<u64>,
    km_q75: Option<u64>,
    errors: u64,
    error_rate: Num,
    error_ci_lo: Num,
    error_ci_hi: Num,
    lower_bound_kind: String,
    lower_bound: Num,
    upper_bound_kind: Option<String>,
    upper_bound: Option<Num>,
    ratio_to_lower: Num,
    ratio_to_upper: Option<Num>,
    seed: u64,
    max_steps: u64,
    key: String,
    cell: String,
    run_command: String,
}

impl From<&Row> for Line {
    fn from(r: &Row) -> Line {
        Line {
            instance: r.instance.clone(),
            family: r.family.into(),
            sigma: r.sigma.map(Plain),
            algorithm: r.label.clone(),
            algo: r.algo.into(),
            rules: r.rules.into(),
            delta: Num(r.delta),
            eps: r.eps.map(Num),
            runs: r.runs,
            capped: r.capped,
            mean_tau: Num(r.mean_tau),
            mean_is_lower_bound: r.mean_is_lower_bound,
            std_tau: r.std_tau.map(Num),
            ci95_lo: r.ci95.map(|c| Num(c[0])),
            ci95_hi: r.ci95.map(|c| Num(c[1])),
            km_median: r.km_median,
            km_q25: r.km_q25,
            km_q75: r.km_q75,
            errors: r.errors,
            error_rate: Num(r.error_rate),
            error_ci_lo: Num(r.error_ci[0]),
            error_ci_hi: Num(r.error_ci[1]),
            lower_bound_kind: r.lower_bound_kind.as_str().into(),
            lower_bound: Num(r.lower_bound),
            upper_bound_kind: r.upper_bound_kind.map(|u| UpperKind::as_str(u).into()),
            upper_bound: r.upper_bound.map(Num),
            ratio_to_lower: Num(r.ratio_to_lower),
            ratio_to_upper: r.ratio_to_upper.map(Num),
            seed: r.seed,
            max_steps: r.max_steps,
            key: r.key.clone(),
            cell: r.cell.to_string(),
            run_command: r.run_command.clone(),
        }
    }
}

/// A number of `results.csv`, written by [`crate::error::compact_number`] (Rust's shortest
/// round-trip form, in exponent form below `1e-4` and from `1e15` on); read back as any `f64`
/// but NaN.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Num(f64);

/// A number written by `f64`'s `Display` (`sigma`: `0.5`, `1`).
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Plain(f64);

/// A number read as `f64` (a field that is not one is an error naming its column), NaN refused.
fn read_number<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<f64, D::Error> {
    let x = <f64 as serde::Deserialize>::deserialize(d)?;
    if x.is_nan() {
        return Err(serde::de::Error::custom(NAN));
    }
    Ok(x)
}

/// The message of a NaN field.
const NAN: &str = "NaN is not a value of results.csv";

impl serde::Serialize for Num {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&crate::error::compact_number(self.0))
    }
}

impl<'de> serde::Deserialize<'de> for Num {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        read_number(d).map(Num)
    }
}

impl serde::Serialize for Plain {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_string())
    }
}

impl<'de> serde::Deserialize<'de> for Plain {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        read_number(d).map(Plain)
    }
}

/// The columns of `results.csv`: the field names of its line struct, in order.
///
/// # Example
/// ```
/// let c = dpbai::experiment::study::results::columns();
/// assert_eq!((c[0].as_str(), c[c.len() - 1].as_str()), ("instance", "run_command"));
/// ```
pub fn columns() -> Vec<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(Line::default())
        .expect("invariant: a default line serialises");
    let bytes = w.into_inner().expect("invariant: writing to memory");
    let mut r = csv::Reader::from_reader(bytes.as_slice());
    let header = r.headers().expect("invariant: the header just written");
    header.iter().map(String::from).collect()
}

/// The value, or an empty field.
pub fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// Writes `results.csv` (header [`columns`], one line per cell, each field written by its
/// type), atomically.
///
/// # Errors
/// [`Error::Io`] naming the file.
pub fn write_results(rows: &[Row], path: &Path) -> Result<()> {
    let io = |e: csv::Error| match e.into_kind() {
        csv::ErrorKind::Io(e) => Error::io("write", path, e),
        other => Error::Parse(format!("cannot write {}: {other:?}", path.display())),
    };
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    w.write_record(columns()).map_err(io)?;
    for r in rows {
        w.serialize(Line::from(r)).map_err(io)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::io("write", path, std::io::Error::other(e.to_string())))?;
    crate::files::write_atomic(path, &bytes)
}

/// Reads back the `results.csv` that [`write_results`] wrote for `study` (e.g. a committed
/// study's outputs, for REPORT.md). Row `i` must be the study's cell `i` (same digest of its
/// specification); the names of static columns (family, algo, rules, bound kinds) come from
/// the cell.
///
/// # Errors
/// [`Error::Parse`] naming the file and the row: unreadable file, another column layout, a row
/// of another cell (the study file and its outputs are out of step), a bad number.
pub fn read_results(study: &Study, path: &Path) -> Result<Vec<Row>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, e))?;
    read_results_text(study, &text, &path.display().to_string())
}

/// [`read_results`] of the text of a `results.csv` (`source` names it in messages).
///
/// # Errors
/// As [`read_results`].
pub fn read_results_text(study: &Study, text: &str, source: &str) -> Result<Vec<Row>> {
    let bad = |what: String| Error::Parse(format!("{source}: {what}"));
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().map_err(|e| bad(e.to_string()))?.clone();
    if header.iter().ne(columns().iter().map(String::as_str)) {
        return Err(bad(
            "not a results.csv of this dpbai (its columns differ)".into()
        ));
    }
    let lines: Vec<Line> = r
        .records()
        .enumerate()
        .map(|(i, rec)| {
            let rec = rec.map_err(|e| bad(e.to_string()))?;
            rec.deserialize(Some(&header)).map_err(|e| {
                let why = match e.kind() {
                    csv::ErrorKind::Deserialize { err, .. } => reason(err, &rec),
                    _ => e.to_string(),
                };
                bad(format!("row {}: {why}", i + 2))
            })
        })
        .collect::<Result<_>>()?;
    if lines.len() != study.cells.len() {
        return Err(bad(format!(
            "{} rows for the study's {} cells",
            lines.len(),
            study.cells.len()
        )));
    }
    let mut rows = Vec::with_capacity(lines.len());
    for (i, (l, sc)) in lines.into_iter().zip(&study.cells).enumerate() {
        let c = &sc.cell;
        if l.key != c.key() || l.cell != c.digest().as_str() {
            return Err(bad(format!(
                "row {} is not the study's cell {} (digest {}, the row has {:?}): rerun the study",
                i + 2,
                c.key(),
                c.digest(),
                l.cell
            )));
        }
        let upper_bound = l.upper_bound.map(|x| x.0);
        rows.push(Row {
            capped: l.capped,
            mean_tau: l.mean_tau.0,
            mean_is_lower_bound: l.mean_is_lower_bound,
            std_tau: l.std_tau.map(|x| x.0),
            ci95: l.ci95_lo.zip(l.ci95_hi).map(|(a, b)| [a.0, b.0]),
            km_median: l.km_median,
            km_q25: l.km_q25,
            km_q75: l.km_q75,
            errors: l.errors,
            error_rate: l.error_rate.0,
            error_ci: [l.error_ci_lo.0, l.error_ci_hi.0],
            lower_bound: l.lower_bound.0,
            upper_bound_kind: upper_bound.and(super::config::upper_kind(c)),
            upper_bound,
            ratio_to_lower: l.ratio_to_lower.0,
            ratio_to_upper: l.ratio_to_upper.map(|x| x.0),
            seed: l.seed,
            run_command: l.run_command,
            ..super::cell_row(study, i)
        });
    }
    Ok(rows)
}

/// A field's error, naming its column: the one the reader names, else (a NaN, refused after
/// parsing) the one field that reads as NaN.
fn reason(e: &csv::DeserializeError, rec: &csv::StringRecord) -> String {
    let column = e.field().map(|f| f as usize).or_else(|| {
        // Named only when one field alone reads as NaN (an instance may be called `NaN`).
        let nan: Vec<usize> = rec
            .iter()
            .enumerate()
            .filter(|(_, f)| f.parse::<f64>().is_ok_and(f64::is_nan))
            .map(|(j, _)| j)
            .collect();
        (nan.len() == 1).then(|| nan[0])
    });
    match column {
        Some(j) => format!(
            "{} = {:?}: {}",
            columns().get(j).cloned().unwrap_or_default(),
            rec.get(j).unwrap_or(""),
            e.kind()
        ),
        None => e.kind().to_string(),
    }
}
