//! `results.csv` of a study: one row per cell ([`write_results`]), read back for REPORT.md
//! ([`read_results`]).

use super::Row;
use super::config::{Study, UpperKind};
use crate::error::{Error, Result};
use std::path::Path;

/// Columns of `results.csv` (no comment lines: `pandas.read_csv` reads it as is). Empty
/// fields: `sigma` (Bernoulli), `eps` (non-private), `ci95_*` (capped runs or one run),
/// `km_*` (the Kaplan–Meier curve does not fall that far: beyond the cap), `upper_*` and
/// `ratio_to_upper` (no
/// asymptotic upper bound for this algorithm, rules or family; `upper_bound` is asymptotic,
/// δ → 0, not a finite-δ bound).
pub const COLUMNS: [&str; 33] = [
    "instance",
    "family",
    "sigma",
    "algorithm",
    "algo",
    "rules",
    "delta",
    "eps",
    "runs",
    "capped",
    "mean_tau",
    "mean_is_lower_bound",
    "std_tau",
    "ci95_lo",
    "ci95_hi",
    "km_median",
    "km_q25",
    "km_q75",
    "errors",
    "error_rate",
    "error_ci_lo",
    "error_ci_hi",
    "lower_bound_kind",
    "lower_bound",
    "upper_bound_kind",
    "upper_bound",
    "ratio_to_lower",
    "ratio_to_upper",
    "seed",
    "max_steps",
    "key",
    "cell",
    "run_command",
];

/// A number of `results.csv`: [`crate::error::compact_number`].
fn num(x: f64) -> String {
    crate::error::compact_number(x)
}

/// The value, or an empty field.
pub fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// Writes `results.csv` (header [`COLUMNS`], one row per cell, numbers in Rust's shortest
/// round-trip form, in exponent form below `1e-4` and from `1e15` on:
/// [`crate::error::compact_number`]), atomically.
///
/// # Errors
/// [`Error::Io`] naming the file.
pub fn write_results(rows: &[Row], path: &Path) -> Result<()> {
    let io = |e: csv::Error| match e.into_kind() {
        csv::ErrorKind::Io(e) => Error::io("write", path, e),
        other => Error::Parse(format!("cannot write {}: {other:?}", path.display())),
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(COLUMNS).map_err(io)?;
    for r in rows {
        let rec: Vec<String> = vec![
            r.instance.clone(),
            r.family.into(),
            opt(r.sigma),
            r.label.clone(),
            r.algo.into(),
            r.rules.into(),
            num(r.delta),
            opt(r.eps.map(num)),
            r.runs.to_string(),
            r.capped.to_string(),
            num(r.mean_tau),
            r.mean_is_lower_bound.to_string(),
            opt(r.std_tau.map(num)),
            opt(r.ci95.map(|c| num(c[0]))),
            opt(r.ci95.map(|c| num(c[1]))),
            opt(r.km_median),
            opt(r.km_q25),
            opt(r.km_q75),
            r.errors.to_string(),
            num(r.error_rate),
            num(r.error_ci[0]),
            num(r.error_ci[1]),
            r.lower_bound_kind.as_str().into(),
            num(r.lower_bound),
            opt(r.upper_bound_kind.map(UpperKind::as_str)),
            opt(r.upper_bound.map(num)),
            num(r.ratio_to_lower),
            opt(r.ratio_to_upper.map(num)),
            r.seed.to_string(),
            r.max_steps.to_string(),
            r.key.clone(),
            r.cell.to_string(),
            r.run_command.clone(),
        ];
        w.write_record(&rec).map_err(io)?;
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
    if header.iter().ne(COLUMNS.iter().copied()) {
        return Err(bad(
            "not a results.csv of this dpbai (its columns differ)".into()
        ));
    }
    let records: Vec<csv::StringRecord> = r
        .records()
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| bad(e.to_string()))?;
    if records.len() != study.cells.len() {
        return Err(bad(format!(
            "{} rows for the study's {} cells",
            records.len(),
            study.cells.len()
        )));
    }
    let col = |name: &str| {
        COLUMNS
            .iter()
            .position(|c| *c == name)
            .expect("invariant: a name of COLUMNS")
    };
    let mut rows = Vec::with_capacity(records.len());
    for (i, (rec, sc)) in records.iter().zip(&study.cells).enumerate() {
        let field = |name: &str| rec.get(col(name)).unwrap_or("");
        let num = |name: &str| -> Result<f64> {
            field(name)
                .parse::<f64>()
                .ok()
                .filter(|x| !x.is_nan())
                .ok_or_else(|| bad(format!("row {}: {name} = {:?}", i + 2, field(name))))
        };
        let opt_num = |name: &str| -> Result<Option<f64>> {
            if field(name).is_empty() {
                Ok(None)
            } else {
                num(name).map(Some)
            }
        };
        let count = |name: &str| -> Result<u64> {
            field(name)
                .parse::<u64>()
                .map_err(|_| bad(format!("row {}: {name} = {:?}", i + 2, field(name))))
        };
        let opt_count = |name: &str| -> Result<Option<u64>> {
            if field(name).is_empty() {
                Ok(None)
            } else {
                count(name).map(Some)
            }
        };
        let c = &sc.cell;
        if field("key") != c.key() || field("cell") != c.digest().as_str() {
            return Err(bad(format!(
                "row {} is not the study's cell {} (digest {}, the row has {:?}): rerun the study",
                i + 2,
                c.key(),
                c.digest(),
                field("cell")
            )));
        }
        let upper_bound = opt_num("upper_bound")?;
        rows.push(Row {
            capped: count("capped")?,
            mean_tau: num("mean_tau")?,
            mean_is_lower_bound: field("mean_is_lower_bound") == "true",
            std_tau: opt_num("std_tau")?,
            ci95: opt_num("ci95_lo")?
                .zip(opt_num("ci95_hi")?)
                .map(|(a, b)| [a, b]),
            km_median: opt_count("km_median")?,
            km_q25: opt_count("km_q25")?,
            km_q75: opt_count("km_q75")?,
            errors: count("errors")?,
            error_rate: num("error_rate")?,
            error_ci: [num("error_ci_lo")?, num("error_ci_hi")?],
            lower_bound: num("lower_bound")?,
            upper_bound_kind: upper_bound.and(super::config::upper_kind(c)),
            upper_bound,
            ratio_to_lower: num("ratio_to_lower")?,
            ratio_to_upper: opt_num("ratio_to_upper")?,
            seed: count("seed")?,
            run_command: field("run_command").to_string(),
            ..super::cell_row(study, i)
        });
    }
    Ok(rows)
}
