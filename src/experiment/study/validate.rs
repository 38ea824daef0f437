//! Validation of a parsed study file into a [`Study`]: the numbers and grids, the instances,
//! and the expansion of every `[[algorithm]]` into its cells (each [`Setting`] built once and
//! checked as `dpbai run` would, before anything runs).

use super::config::bad;
use super::config::{
    DEFAULT_GROUP, DEFAULT_MAX_STEPS, LowerTime, Study, StudyAlgorithm, StudyCell, StudyFile,
    StudyInstance, UpperKind, lower_kind, upper_kind,
};
use crate::bandit::{READING_TABLE, READINGS, Reading, Rules, Setting, build};
use crate::error::{Error, Result};
use crate::experiment::{Cell, cell_instance};

/// Limits of a study (checked before anything is built): list lengths, instances, algorithms
/// and cells. Validation is linear in the number of cells.
pub mod study_limits {
    /// Values of one δ or ε list (a `"lo:hi:n"` grid has `n <= 1000` too).
    pub const MAX_LIST: usize = 1000;
    /// `[[instance]]` tables.
    pub const MAX_INSTANCES: usize = 1000;
    /// `[[algorithm]]` tables.
    pub const MAX_ALGORITHMS: usize = 1000;
    /// Cells of the whole study.
    pub const MAX_CELLS: usize = 100_000;
    /// Size of the study file, in bytes.
    pub const MAX_FILE_BYTES: u64 = 1 << 20;
    /// Length of an instance name: it names figure files (`<name>_delta<δ>.png`, written
    /// through a temporary `.<pid>-<n>-<file>`), which must stay below the 255 bytes a file
    /// name may have.
    pub const MAX_NAME: usize = 128;
}
use study_limits::*;

/// The readings of the `[[algorithm]]` table at `p` ([`super::config::AlgorithmFile::readings`]), each with
/// its checked flag value (a switch's `true`/`false` as the text `set` reads).
fn study_readings(
    p: &str,
    keys: &std::collections::BTreeMap<String, toml::Value>,
) -> Result<Vec<(&'static Reading, String)>> {
    let mut scratch = Setting::new(
        crate::bandit::AlgoName::Ttucb,
        crate::params::Delta::new(0.5).expect("invariant: 1/2 is a risk"),
    );
    keys.iter()
        .map(|(key, value)| {
            let r = READING_TABLE
                .iter()
                .find(|r| r.name == key)
                .ok_or_else(|| {
                    bad(
                        &format!("{p}.{key}"),
                        format!(
                        "unknown field `{key}`: an [[algorithm]] takes algo, label, group, rules, \
                         eps, delta, instances, runs, runs-multiplier, paired-with, \
                         interleave-with, max-steps, beta, gamma, threshold and the readings {}",
                        READINGS.join(", ")
                    ),
                    )
                })?;
            let text = match (value, r.switch) {
                (toml::Value::Boolean(b), true) => b.to_string(),
                (toml::Value::String(v), false) => v.clone(),
                (toml::Value::Float(x), false) if r.number => x.to_string(),
                (toml::Value::Integer(x), false) if r.number => x.to_string(),
                _ => {
                    let want = if r.switch {
                        "true or false"
                    } else if r.number {
                        "a number"
                    } else {
                        "a string"
                    };
                    return Err(bad(
                        &format!("{p}.{key}"),
                        format!("{value}: must be {want}"),
                    ));
                }
            };
            (r.set)(&mut scratch, &text).map_err(|e| bad(&format!("{p}.{key}"), e))?;
            Ok((r, text))
        })
        .collect()
}

/// The table headers of `text` with their 1-based lines: `("algorithm", Some(1), line)` for the
/// second `[[algorithm]]`, `("bounds", None, line)` for `[bounds]`.
fn tables(text: &str) -> Vec<(String, Option<usize>, usize)> {
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("[[").and_then(|r| r.split("]]").next()) {
            let name = name.trim().to_string();
            let n = counts.entry(name.clone()).or_insert(0);
            out.push((name, Some(*n), i + 1));
            *n += 1;
        } else if let Some(name) = t.strip_prefix('[').and_then(|r| r.split(']').next()) {
            out.push((name.trim().to_string(), None, i + 1));
        }
    }
    out
}

/// The 1-based line of the key path `path` (`algorithm[2].eps[0]`, `runs`, `instance[1]`) in
/// the user's `text`: the key's own line within its table, else the table's header line.
fn line_of(text: &str, path: &str) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let key_line = |from: usize, to: usize, key: &str| {
        (from..to.min(lines.len())).find(|&i| {
            let t = lines[i].trim_start();
            t.strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with('='))
        })
    };
    let heads = tables(text);
    let is_table = |t: &str| {
        let name = t.split('[').next().unwrap_or("");
        matches!(
            name,
            "instance" | "algorithm" | "bounds" | "figures" | "figure"
        )
    };
    let (table, rest) = match path.split_once('.') {
        Some((t, r)) if is_table(t) => (t, r),
        _ if is_table(path) => (path, ""),
        _ => ("", path),
    };
    let key = rest.split('[').next().unwrap_or("");
    if table.is_empty() {
        let end = heads.first().map_or(lines.len(), |h| h.2 - 1);
        return key_line(0, end, key).map(|i| i + 1);
    }
    let (name, index) = match table.split_once('[') {
        Some((n, i)) => (n, i.trim_end_matches(']').parse::<usize>().ok()),
        None => (table, None),
    };
    let pos = heads
        .iter()
        .position(|(n, i, _)| n == name && *i == index)?;
    let start = heads[pos].2;
    let end = heads.get(pos + 1).map_or(lines.len(), |h| h.2 - 1);
    if key.is_empty() {
        return Some(start);
    }
    Some(key_line(start, end, key).map_or(start, |i| i + 1))
}

/// The key path of a TOML error at byte `pos` of `text` and its line: the enclosing `[table]`
/// or `[[array]]` (with its 0-based index) and the key on the error's line; for a missing
/// field, the table that lacks it (or the top level).
fn key_path(text: &str, pos: usize, missing: bool) -> (String, Option<usize>) {
    let mut table = String::new();
    let mut table_line = None;
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
            table_line = Some(line_no);
            *n += 1;
        } else if let Some(name) = t.strip_prefix('[').and_then(|r| r.split(']').next()) {
            table = name.trim().to_string();
            table_line = Some(line_no);
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
    if missing {
        // serde reports a missing field at the start of the table that lacks it.
        return if table.is_empty() {
            ("(top level)".into(), None)
        } else {
            (table, table_line)
        };
    }
    let path = match (table.is_empty(), key.is_empty()) {
        (true, true) => "(file)".to_string(),
        (true, false) => key,
        (false, true) => table,
        (false, false) => format!("{table}.{key}"),
    };
    (path, Some(line_no))
}

/// Parses and validates a study file. `source` names the file in messages.
///
/// # Errors
/// [`Error::Config`] naming the file, the key, its line and what is allowed.
pub fn parse_study(text: &str, source: &str) -> Result<Study> {
    parse_study_with(text, source, None)
}

/// [`parse_study`] with the file's `runs` replaced by `runs` (`dpbai experiment --runs`),
/// before anything is validated (so multipliers and limits see it). Line numbers are those of
/// `text`, the user's own file.
///
/// # Errors
/// As [`parse_study`].
pub fn parse_study_with(text: &str, source: &str, runs: Option<u64>) -> Result<Study> {
    let mut file: StudyFile = toml::from_str(text).map_err(|e| {
        let msg = e.message().replace('\n', " ");
        let missing = msg.starts_with("missing field");
        let (key, line) = e
            .span()
            .map(|s| key_path(text, s.start, missing))
            .unwrap_or_else(|| ("(file)".into(), None));
        Error::Config {
            file: source.to_string(),
            key,
            line,
            message: msg.trim().to_string(),
        }
    })?;
    if let Some(r) = runs {
        file.runs = r;
    }
    validate(file).map_err(|e| match e {
        Error::Config { key, message, .. } => Error::Config {
            file: source.to_string(),
            line: line_of(text, &key),
            key,
            message,
        },
        other => Error::Config {
            file: source.to_string(),
            key: "(file)".into(),
            line: None,
            message: other.to_string(),
        },
    })
}

fn number(path: &str, v: &toml::Value) -> Result<f64> {
    match v {
        toml::Value::Float(x) => Ok(*x),
        toml::Value::Integer(i) => Ok(*i as f64),
        _ => Err(bad(path, format!("{v} is not a number"))),
    }
}

/// A list of numbers (at most [`MAX_LIST`]) or one number.
fn numbers(path: &str, v: &toml::Value) -> Result<Vec<f64>> {
    match v {
        toml::Value::Array(a) if a.len() > MAX_LIST => Err(bad(
            path,
            format!("{} values: at most {MAX_LIST} in one list", a.len()),
        )),
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
                format!(
                    "ε = {} must be in (0, 1e300]",
                    crate::error::compact_number(e)
                ),
            )
        })?;
    }
    Ok(grid)
}

/// A list of risks (or one), each in (0, 1).
fn risks(path: &str, v: &toml::Value) -> Result<Vec<f64>> {
    let deltas = numbers(path, v)?;
    if deltas.is_empty() {
        return Err(bad(path, "empty list: give at least one δ in (0, 1)"));
    }
    for (i, &d) in deltas.iter().enumerate() {
        if !(d > 0.0 && d < 1.0) {
            return Err(bad(
                &format!("{path}[{i}]"),
                format!("δ = {} must be in (0, 1)", crate::error::compact_number(d)),
            ));
        }
    }
    Ok(deltas)
}

fn validate(f: StudyFile) -> Result<Study> {
    use crate::params::limits;
    limits::check_runs("runs", f.runs).map_err(|e| bad("runs", e))?;
    let max_steps = f.max_steps.unwrap_or(DEFAULT_MAX_STEPS);
    limits::check_max_steps(max_steps).map_err(|e| bad("max-steps", e))?;
    let deltas = risks("delta", &f.delta)?;
    let mut all_deltas = deltas.clone();
    let study_eps = f.eps.as_ref().map(|v| eps_grid("eps", v)).transpose()?;
    if f.instances.is_empty() {
        return Err(bad("instance", "no [[instance]]: give at least one"));
    }
    if f.algorithms.is_empty() {
        return Err(bad("algorithm", "no [[algorithm]]: give at least one"));
    }
    if f.instances.len() > MAX_INSTANCES {
        return Err(bad(
            "instance",
            format!(
                "{} [[instance]] tables: at most {MAX_INSTANCES}",
                f.instances.len()
            ),
        ));
    }
    if f.algorithms.len() > MAX_ALGORITHMS {
        return Err(bad(
            "algorithm",
            format!(
                "{} [[algorithm]] tables: at most {MAX_ALGORITHMS}",
                f.algorithms.len()
            ),
        ));
    }
    let mut instances = Vec::new();
    for (i, inst) in f.instances.iter().enumerate() {
        let p = format!("instance[{i}]");
        if inst.name.is_empty()
            || inst.name.len() > MAX_NAME
            || !inst
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        {
            let shown = if inst.name.chars().count() > 40 {
                format!(
                    "{:?}… ({} characters)",
                    inst.name.chars().take(40).collect::<String>(),
                    inst.name.chars().count()
                )
            } else {
                format!("{:?}", inst.name)
            };
            return Err(bad(
                &format!("{p}.name"),
                format!(
                    "{shown}: must be 1 to {MAX_NAME} letters, digits, '-', '_', '.' (it names \
                     the figure files)"
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
        let sigma = match crate::instance::Family::of(inst.family, inst.sigma) {
            Ok(crate::instance::Family::Gaussian { sigma }) => Some(sigma),
            Ok(crate::instance::Family::Bernoulli) => None,
            Err(e) => return Err(bad(&format!("{p}.sigma"), e)),
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
        let instance =
            cell_instance(&inst.means, sigma).map_err(|e| bad(&format!("{p}.means"), e))?;
        instances.push(StudyInstance {
            name: inst.name.clone(),
            instance,
            sigma,
        });
    }
    let mut algorithms: Vec<StudyAlgorithm> = Vec::new();
    let mut cells = Vec::new();
    // Keys seen so far, with the algorithm entry that made them (linear duplicate check).
    let mut seen: std::collections::HashMap<(String, String), usize> = Default::default();
    // Per entry, the place it is listed at (its own index, or its partner's), and the groups in
    // the order the file first names them.
    let mut places: Vec<usize> = Vec::new();
    let mut groups: Vec<String> = Vec::new();
    // Per cell: (group rank, place, position within its entry and instance).
    let mut order: Vec<(usize, usize, usize)> = Vec::new();
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
                    ));
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
            Some(names) if names.is_empty() => {
                return Err(bad(
                    &format!("{p}.instances"),
                    "empty list: name at least one instance, or leave the key out for all",
                ));
            }
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
        let cell_runs = match (a.runs, a.runs_multiplier) {
            (Some(_), Some(_)) => {
                return Err(bad(
                    &format!("{p}.runs"),
                    "give runs or runs-multiplier, not both",
                ));
            }
            (Some(r), None) => {
                if r == 0 {
                    return Err(bad(&format!("{p}.runs"), "0: must be at least 1"));
                }
                limits::check_runs("runs", r).map_err(|e| bad(&format!("{p}.runs"), e))?;
                r
            }
            (None, mult) => {
                let mult = mult.unwrap_or(1);
                if mult == 0 {
                    return Err(bad(
                        &format!("{p}.runs-multiplier"),
                        "0: must be at least 1",
                    ));
                }
                let r = f.runs.saturating_mul(mult);
                limits::check_runs("runs", r).map_err(|e| {
                    bad(
                        &format!("{p}.runs-multiplier"),
                        format!("runs × runs-multiplier = {} × {mult}: {e}", f.runs),
                    )
                })?;
                r
            }
        };
        let entry_deltas = match &a.delta {
            Some(v) => risks(&format!("{p}.delta"), v)?,
            None => deltas.clone(),
        };
        for &d in &entry_deltas {
            if !all_deltas.contains(&d) {
                all_deltas.push(d);
            }
        }
        let group = a.group.clone().unwrap_or_else(|| DEFAULT_GROUP.into());
        if group.is_empty()
            || !group
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c))
        {
            return Err(bad(
                &format!("{p}.group"),
                format!("{group:?}: must be non-empty letters, digits, '-', '_'"),
            ));
        }
        let paired =
            match &a.paired_with {
                None => None,
                Some(l) => Some(algorithms.iter().position(|x| &x.label == l).ok_or_else(
                    || {
                        bad(
                            &format!("{p}.paired-with"),
                            format!("{l:?} is not the label of an earlier [[algorithm]]"),
                        )
                    },
                )?),
            };
        let place = match &a.interleave_with {
            None => algorithms.len(),
            Some(l) => {
                let q = algorithms
                    .iter()
                    .position(|x| &x.label == l)
                    .ok_or_else(|| {
                        bad(
                            &format!("{p}.interleave-with"),
                            format!("{l:?} is not the label of an earlier [[algorithm]]"),
                        )
                    })?;
                if algorithms[q].group != group {
                    return Err(bad(
                        &format!("{p}.interleave-with"),
                        format!(
                            "{l:?} is in group {:?}, this entry in {group:?}: only entries of one group interleave",
                            algorithms[q].group
                        ),
                    ));
                }
                places[q]
            }
        };
        places.push(place);
        let group_rank = match groups.iter().position(|g| g == &group) {
            Some(r) => r,
            None => {
                groups.push(group.clone());
                groups.len() - 1
            }
        };
        let planned = cells.len() + chosen.len() * entry_deltas.len() * eps.len();
        if planned > MAX_CELLS {
            return Err(bad(
                &p,
                format!("the study would have {planned} cells or more: at most {MAX_CELLS}"),
            ));
        }
        let cap = a.max_steps.unwrap_or(max_steps);
        limits::check_max_steps(cap).map_err(|e| bad(&format!("{p}.max-steps"), e))?;
        let beta = a
            .beta
            .map(crate::params::Beta::new)
            .transpose()
            .map_err(|e| bad(&format!("{p}.beta"), e))?;
        let readings = study_readings(&p, &a.readings)?;
        let setting = |delta: f64, eps: Option<f64>| -> Result<Setting> {
            let mut s = Setting::paper(a.algo, delta)?.with_gamma(a.gamma)?;
            if let Some(e) = eps {
                s = s.with_eps(e)?;
            }
            if let Some(b) = beta {
                s.beta = b;
            }
            s.rules = rules;
            for (r, v) in &readings {
                (r.set)(&mut s, v)?;
            }
            Ok(s)
        };
        let alg_index = algorithms.len();
        algorithms.push(StudyAlgorithm {
            label,
            algo: a.algo,
            group: group.clone(),
        });
        for &i in &chosen {
            let mut position = 0;
            for &delta in &entry_deltas {
                for &e in &eps {
                    let mut cell = Cell {
                        instance: instances[i].name.clone(),
                        means: instances[i].instance.means().to_vec(),
                        sigma: instances[i].sigma,
                        setting: setting(delta, e).map_err(|err| bad(&p, err))?,
                        runs: cell_runs,
                        max_steps: cap,
                        seed_salt: f.seed,
                        paired_seed: None,
                        threshold: a.threshold.clone(),
                    };
                    // Every setting is checked once, as `dpbai run` would, before anything runs.
                    let (spec, _) = cell.engine_spec().map_err(|err| match &a.threshold {
                        Some(_) => bad(&format!("{p}.threshold"), err),
                        None => bad(&p, err),
                    })?;
                    build(&spec, &instances[i].instance).map_err(|err| bad(&p, err))?;
                    if let Some(base) = paired {
                        let of_base = cells.iter().find(|c: &&StudyCell| {
                            c.algorithm == base
                                && c.instance == i
                                && c.cell.setting.delta.get() == delta
                                && c.cell.setting.eps_value() == e
                        });
                        let Some(b) = of_base else {
                            return Err(bad(
                                &format!("{p}.paired-with"),
                                format!(
                                    "{:?} has no cell on {} at δ = {delta}, ε = {}",
                                    algorithms[base].label,
                                    instances[i].name,
                                    e.map_or("—".to_string(), |x| x.to_string())
                                ),
                            ));
                        };
                        cell = cell.paired_with(&b.cell);
                    }
                    // A cell may be in two groups (one specification, computed once), never
                    // twice in one.
                    if let Some(&prev) = seen.get(&(group.clone(), cell.key())) {
                        return Err(bad(
                            &p,
                            format!(
                                "cell {} repeats one of algorithm[{prev}]: give the entries \
                                 different settings",
                                cell.key()
                            ),
                        ));
                    }
                    seen.insert((group.clone(), cell.key()), alg_index);
                    cells.push(StudyCell {
                        instance: i,
                        algorithm: alg_index,
                        cell,
                    });
                    order.push((group_rank, place, position));
                    position += 1;
                }
            }
        }
    }
    // Re-order: group, instance, the entry's place, its δ and ε (file order), the entry.
    type Rank = (usize, usize, usize, usize, usize);
    let mut ranked: Vec<(Rank, StudyCell)> = cells
        .into_iter()
        .zip(order)
        .map(|(c, (g, place, pos))| ((g, c.instance, place, pos, c.algorithm), c))
        .collect();
    ranked.sort_by_key(|(k, _)| *k);
    let cells: Vec<StudyCell> = ranked.into_iter().map(|(_, c)| c).collect();
    let lower = match &f.bounds.lower {
        Some(l) => l.clone(),
        None => {
            let mut l: Vec<LowerTime> = algorithms.iter().map(|a| lower_kind(a.algo)).collect();
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
    let figures = super::figures::validate(&f.figure_list, &instances)?;
    Ok(Study {
        title: f.title.unwrap_or_else(|| "dpbai experiment".into()),
        runs: f.runs,
        instances,
        algorithms,
        deltas: all_deltas,
        cells,
        lower,
        upper,
        switches: f.bounds.switches.unwrap_or(true),
        panels: f.figures.panels.unwrap_or_default(),
        dpi: match f.figures.dpi {
            Some(d) => crate::params::limits::check_dpi("figures.dpi", d)?,
            None => crate::params::limits::DEFAULT_DPI,
        },
        figures,
    })
}
