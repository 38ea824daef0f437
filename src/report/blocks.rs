//! The generated blocks of REPORT.md besides the claims table: special-function accuracy and
//! characteristic times against the independent prototype (READINGS.md §B.12, computed by
//! [`crate::claims::dp_bai::tables`]), the Monte Carlo tables, the controls of the Findings, the
//! adversarial searches, the public code side by side, the figures, and the paper's issues that
//! the numbers bear on.

use super::markdown::cell;
use super::paper::figures::algo_label;
use crate::bandit::AlgoName;
use crate::claims::ClaimResult;
use crate::claims::dp_bai::evidence::paper_instances;
use crate::claims::dp_bai::thresholds::{case2_window, window_eps};
use crate::experiment::CellResult;
use crate::experiment::grid::GridResults;
use crate::numbers::sig;
use std::collections::BTreeMap;

/// Accuracy of the special functions against the mpmath golden file (`tests/data/special_golden.toml`).
pub fn special_accuracy() -> String {
    let a = match crate::claims::dp_bai::tables::special_accuracy() {
        Ok(a) => a,
        Err(e) => return e,
    };
    let mut s = format!(
        "Against `tests/data/special_golden.toml` (mpmath {}, 50 digits, exact double inputs; \
         made by `verify/golden_special.py`):\n\n| function | points | max relative error |\n|---|---|---|\n",
        a.mpmath_version
    );
    for r in &a.rows {
        let acc = match &r.first_failure {
            None => sig(r.worst, 2),
            Some(first) => format!("error at {} point(s), first {first}", r.failed),
        };
        s.push_str(&format!(
            "| `{}` | {} | {} |\n",
            r.name,
            r.points,
            cell(&acc)
        ));
    }
    s
}

/// Characteristic times of μ1–μ6 with the relative difference from the independent prototype (READINGS.md §B.12).
pub fn bounds_table() -> String {
    let mut s = String::from(
        "Each cell: our value (certified to relative width ≤ 1e-9), then in brackets the relative \
         difference from the independent prototype (READINGS.md §B.12), which carries 4–7 digits.\n\n\
         | inst | T_KL^Ber | T_KL,1/2^Ber | T^G_KL(μ;1/2) | T^G_KL,1/2 | H | T_TV | T_TV2 | ε_ℓ* | ε_g* |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    let tables = crate::claims::dp_bai::tables::characteristic_times();
    for (name, values) in &tables.times {
        // A solver error is shown in its cell, never as a number.
        let cells: Vec<String> = values
            .iter()
            .map(|v| match v {
                Ok((o, r)) => format!("{} ({})", sig(*o, 7), sig((o / r - 1.0).abs(), 1)),
                Err(e) => cell(&format!("error: {e}")),
            })
            .collect();
        s.push_str(&format!("| {name} | {} |\n", cells.join(" | ")));
    }
    s.push_str(
        "\nμ1, the private times (READINGS.md §B.12 prototype in brackets, ~5–6 digits) and the certificate \
         width (upper − lower)/value:\n\n| ε | T_ℓ(μ;ε) | T_g(μ;ε) | width T_ℓ | width T_g |\n|---|---|---|---|---|\n",
    );
    for (e, tl, tg) in &tables.private_mu1 {
        let f = |r: &std::result::Result<(f64, f64, f64), String>| match r {
            Ok((v, reference, _)) => format!("{} ({})", sig(*v, 7), sig(*reference, 6)),
            Err(e) => format!("error: {e}"),
        };
        let w = |r: &std::result::Result<(f64, f64, f64), String>| {
            r.as_ref().map_or("—".into(), |(_, _, w)| sig(*w, 2))
        };
        s.push_str(&format!(
            "| {e} | {} | {} | {} | {} |\n",
            f(tl),
            f(tg),
            w(tl),
            w(tg)
        ));
    }
    s
}

/// The Monte Carlo table of the experiment grid: per cell the runs and the capped count, the
/// mean over all runs with capped runs at the cap ("≥": a lower bound) and its 95% Student-t
/// interval where no run is capped, the Kaplan–Meier median and quartiles ("> cap" where the
/// survival curve does not fall that far), errors, rounds, seed and the digest of the cell's
/// specification (the name of its file in verify's untracked cache, `verify-cache/`).
pub fn mc_table(grid: &GridResults) -> String {
    let mut s = String::from(
        "<details><summary>Every experiment cell (click to open)</summary>\n\n\
         | instance | algorithm | rules | ε | δ | runs | capped | mean τ | 95% CI of the mean | KM median τ [q25, q75] | errors | mean rounds | seed | cell |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for c in &grid.cells {
        let sm = &c.summary;
        let cs = &sm.censored;
        let ci = match (cs.mean_ci95_lo, cs.mean_ci95_hi) {
            (Some(lo), Some(hi)) => format!("[{}, {}]", sig(lo, 4), sig(hi, 4)),
            _ if cs.capped > 0 => "— (capped runs)".into(),
            _ => "—".into(),
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | `{}` |\n",
            c.cell.instance,
            cell_label(&c.cell),
            c.cell.setting.rules,
            c.cell
                .setting
                .eps_value()
                .map(|e| e.to_string())
                .unwrap_or_else(|| "—".into()),
            c.cell.setting.delta.get(),
            sm.runs,
            sm.unstopped,
            mean_text(c, 5),
            ci,
            median_text(c),
            sm.errors,
            sm.mean_rounds
                .map(|m| sig(m, 4))
                .unwrap_or_else(|| "—".into()),
            c.seed,
            c.digest
        ));
    }
    s.push_str("\n</details>\n");
    s
}

/// The Kaplan–Meier median and quartiles of τ: "> cap" where the curve does not fall that far.
fn median_text(c: &CellResult) -> String {
    let cs = &c.summary.censored;
    let q = |x: Option<u64>| {
        x.map_or_else(
            || format!("> {}", sig(c.cell.max_steps as f64, 2)),
            |v| sig(v as f64, 4),
        )
    };
    format!("{} [{}, {}]", q(cs.km_median), q(cs.km_q25), q(cs.km_q75))
}

/// The algorithm of a cell, with its variant.
fn cell_label(c: &crate::experiment::Cell) -> String {
    match c.setting.dpa_episodes {
        crate::bandit::DpaEpisodes::PerArm => algo_label(c.setting.algo).to_string(),
        crate::bandit::DpaEpisodes::Global => {
            format!("{} (global episodes)", algo_label(c.setting.algo))
        }
    }
}

/// Capped runs per (instance, algorithm, rule set) — the starvation finding. Each row's
/// denominator is the runs of that rule set's cells only, so a rate is never diluted by the
/// cells of the other rule set.
pub fn capped_table(grid: &GridResults) -> String {
    let mut agg: BTreeMap<(String, String, &'static str), (u64, u64)> = BTreeMap::new();
    for c in &grid.cells {
        let rules = crate::experiment::cell::rules_str(c.cell.setting.rules);
        let e = agg
            .entry((c.cell.instance.clone(), cell_label(&c.cell), rules))
            .or_insert((0, 0));
        e.0 += c.summary.unstopped;
        e.1 += c.summary.runs;
    }
    let mut s = String::from(
        "| instance | algorithm | rules | capped runs / runs (share) |\n|---|---|---|---|\n",
    );
    for ((i, a, r), (u, n)) in agg.iter().filter(|(_, (u, _))| *u > 0) {
        s.push_str(&format!(
            "| {i} | {a} | {r} | {u} / {n} ({}%) |\n",
            crate::numbers::sig(100.0 * *u as f64 / *n as f64, 3)
        ));
    }
    if agg.values().all(|(u, _)| *u == 0) {
        s.push_str("| — | — | — | none |\n");
    }
    s
}

/// Finding 2's threshold-only control: per controlled cell, the mean τ (capped runs at the cap,
/// "≥") under the paper's rules, with only the threshold replaced by the public code's
/// (same seeds and runs), and under the public code's rules (the reference-rule cell, where the
/// grid has one), with each cell's digest.
pub fn threshold_control_table(grid: &GridResults, controls: &[CellResult]) -> String {
    let mut s = String::from(
        "| instance | algorithm | ε | paper rules | paper rules, empirical threshold | public code's rules | \
         runs | seed | cells (paper / control / reference) |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for c in controls {
        let set = &c.cell.setting;
        let eps = set.eps_value();
        let base = grid.get_rules(&c.cell.instance, set.algo, eps, crate::bandit::Rules::Paper);
        let reference = grid.get_rules(
            &c.cell.instance,
            set.algo,
            eps,
            crate::bandit::Rules::Reference,
        );
        let text = |x: Option<&CellResult>| x.map_or("—".to_string(), |x| mean_text(x, 4));
        let digest = |x: Option<&CellResult>| x.map_or("—".to_string(), |x| x.digest.to_string());
        s.push_str(&format!(
            "| {} | {} (`--threshold {}`) | {} | {} | {} | {} | {} | {} | `{}` / `{}` / `{}` |\n",
            c.cell.instance,
            set.algo.as_str(),
            c.cell.threshold.as_deref().unwrap_or("—"),
            eps.map_or("—".to_string(), |e| e.to_string()),
            text(base),
            mean_text(c, 4),
            text(reference),
            c.cell.runs,
            c.cell.seed(),
            digest(base),
            c.digest,
            digest(reference),
        ));
    }
    s
}

/// A cell's mean τ over all runs with capped runs at the cap: `≥ m` when any run is capped.
pub fn mean_text(c: &CellResult, digits: usize) -> String {
    let sm = &c.summary;
    if sm.unstopped > 0 {
        format!("≥ {}", sig(sm.mean_tau, digits))
    } else {
        sig(sm.mean_tau, digits)
    }
}

/// AdaP-TT*'s case-2 plateau (Finding 5): per instance, mean τ (capped runs at the cap) at the
/// largest grid ε inside `(2Δ_min, 2Δ_max)` and at the first grid ε past it, for AdaP-TT* and
/// AdaP-TT; then the control cells (μ4 with and without its easiest arm).
pub fn case2_table(grid: &GridResults, grid_eps: &[f64], control: &[CellResult]) -> String {
    let tau = |c: Option<&CellResult>| c.map_or("—".to_string(), |c| mean_text(c, 3));
    // inside/after: a lower bound when the numerator is capped, not defined when the
    // denominator is.
    let ratio = |a: Option<&CellResult>, b: Option<&CellResult>| match (a, b) {
        (Some(x), Some(y)) if y.summary.unstopped == 0 => format!(
            "{}{}×",
            if x.summary.unstopped > 0 { "≥ " } else { "" },
            sig(x.summary.mean_tau / y.summary.mean_tau, 3)
        ),
        _ => "—".to_string(),
    };
    let mut s = String::from(
        "Mean τ over all runs (capped runs counted at the cap; '≥': a lower bound, some runs capped) at \
         the largest grid ε inside the window and at the first one past it:\n\n\
         | instance | window (2Δ_min, 2Δ_max) | ε inside | AdaP-TT* | AdaP-TT | ε after | AdaP-TT* | AdaP-TT | AdaP-TT* inside / after |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    let e = |e: Option<f64>| e.map_or("—".to_string(), |e| e.to_string());
    let short = |x: f64| {
        let t = format!("{x:.4}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    for (name, means) in paper_instances() {
        let w = case2_window(&means);
        let (inside, after) = window_eps(grid_eps, w);
        let get = |algo, e: Option<f64>| e.and_then(|e| grid.get(name, algo, Some(e)));
        let (si, ti) = (
            get(AlgoName::AdapTtStar, inside),
            get(AlgoName::AdapTt, inside),
        );
        let (sa, ta) = (
            get(AlgoName::AdapTtStar, after),
            get(AlgoName::AdapTt, after),
        );
        let empty = if w.0 < w.1 { "" } else { ", empty" };
        s.push_str(&format!(
            "| {name} | ({}, {}){empty} | {} | {} | {} | {} | {} | {} | {} |\n",
            short(w.0),
            short(w.1),
            e(inside),
            tau(si),
            tau(ti),
            e(after),
            tau(sa),
            tau(ta),
            ratio(si, sa)
        ));
    }
    s.push_str(&format!(
        "\nControl at ε = {}, mean τ (capped runs at the cap; runs per cell: {}):\n\n\
         | instance | means | AdaP-TT* | AdaP-TT |\n|---|---|---|---|\n",
        control
            .first()
            .and_then(|c| c.cell.setting.eps_value())
            .map_or("—".to_string(), |e| e.to_string()),
        control.first().map_or(0, |c| c.summary.runs)
    ));
    let mut names: Vec<&str> = control.iter().map(|c| c.cell.instance.as_str()).collect();
    names.dedup();
    for n in names {
        let find = |algo| {
            control
                .iter()
                .find(|c| c.cell.instance == n && c.cell.setting.algo == algo)
        };
        let means = find(AlgoName::AdapTtStar).map_or(String::new(), |c| {
            c.cell
                .means
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        });
        s.push_str(&format!(
            "| {n} | ({means}) | {} | {} |\n",
            tau(find(AlgoName::AdapTtStar)),
            tau(find(AlgoName::AdapTt))
        ));
    }
    s
}

/// A table of control cells (Findings 1 and 3): per cell the runs, the cap, the capped count,
/// the Kaplan–Meier median and quartiles, the longest τ (a finite stopping time when no run is
/// capped), the seed and the cell's digest, with the command that regenerates them.
pub fn control_table(cells: &[CellResult], command: &str) -> String {
    let mut s = format!(
        "Regenerated by `{command}` (one seed per cell; a cell is recomputed from its \
         specification, the study file's cell with that digest):\n\n\
         | instance | means | algorithm | ε | runs | capped at | capped | KM median τ [q25, q75] | longest τ | seed | cell |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n"
    );
    for c in cells {
        let cs = &c.summary.censored;
        let q = |x: Option<u64>| x.map_or_else(|| "> cap".to_string(), |v| sig(v as f64, 4));
        let algo = format!(
            "{}{}",
            algo_label(c.cell.setting.algo),
            c.cell.variant_suffix()
        );
        s.push_str(&format!(
            "| {} | ({}) | {} | {} | {} | {} | {} | {} [{}, {}] | {} | {} | `{}` |\n",
            c.cell.instance,
            c.cell
                .means
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            algo,
            c.cell
                .setting
                .eps_value()
                .map_or("—".to_string(), |e| e.to_string()),
            cs.runs,
            sig(c.cell.max_steps as f64, 2),
            cs.capped,
            q(cs.km_median),
            q(cs.km_q25),
            q(cs.km_q75),
            // With no run capped, the longest run is a finite stopping time.
            if cs.capped == 0 {
                sig(c.summary.max_tau as f64, 3)
            } else {
                "> cap".to_string()
            },
            c.seed,
            c.digest
        ));
    }
    s
}

/// The paper's issues (READINGS.md §R) and what the computed claims say about them.
pub fn issues_table(results: &[ClaimResult]) -> String {
    let mut s = String::from("| reading | what | claims (verdict) |\n|---|---|---|\n");
    for (n, what, ids) in crate::claims::dp_bai::ISSUES {
        let v: Vec<String> = ids
            .iter()
            .map(|id| {
                let verdict = results
                    .iter()
                    .find(|r| r.id == *id)
                    .map(|r| r.verdict.as_str())
                    .unwrap_or("not run");
                format!("{id} ({verdict})")
            })
            .collect();
        s.push_str(&format!("| R.{n} | {} | {} |\n", cell(what), v.join(", ")));
    }
    s
}

use crate::claims::dp_bai::searches::{ALPHA, DELTA, SEED, Searched, table_header};

/// REPORT.md block `audit-search`: a table of the searches (one row each, with the expected verdict),
/// then each search's power statement.
pub fn audit_search_block(searches: &[Searched]) -> String {
    let mut table = table_header();
    let mut notes = Vec::new();
    for Searched {
        algo,
        threshold,
        expected,
        found,
    } in searches
    {
        match found {
            Ok(f) => {
                let ok = if f.verdict == *expected {
                    "as expected"
                } else {
                    "NOT as expected"
                };
                notes.push(format!(
                    "- `{threshold}` on {algo} (expected {expected}, {ok}): {}.",
                    f.power
                ));
                table.push_str(&f.row);
            }
            Err(e) => notes.push(format!("- `{threshold}` on {algo}: error {e}.")),
        }
    }
    format!(
        "Regenerated by `dpbai verify` (seed {SEED}, δ = {DELTA}, confidence 1 − {ALPHA}; budgets in \
         samples; spaces: Bernoulli means in [0.05, 0.95], K ≤ 8 and gaps in [0.05, 0.4] for the \
         non-private rules, K ≤ 4, gaps in [0.1, 0.4] and the ε range shown by the worst instance for \
         AdaP-TT; 8 screened candidates × 16 runs, halving, 6 Nelder–Mead steps of 32 runs, 2 \
         finalists confirmed on fresh seeds at α/2 each):\n\n{}\n{}\n",
        table,
        notes.join("\n")
    )
}

use crate::claims::dp_bai::public::{AGREE_BAND, PUBLIC_CODE_RUNS, compare, read_public_rows};

/// The REPORT.md block: one row per public-code cell.
pub fn public_code_table(g: &GridResults) -> String {
    let cmp = match read_public_rows(PUBLIC_CODE_RUNS).and_then(|rows| compare(&rows, g)) {
        Ok(c) => c,
        Err(e) => return format!("Not available: {e}."),
    };
    let mut s = String::from(
        "| algorithm | instance | ε | public code: mean ± std (runs) | dpbai `--rules reference`: mean ± std (runs) | \
         ratio dpbai/public | 95% CI of the ratio | inside ±10%? | Welch p | cell |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for c in &cmp {
        let (m, sd, n, capped) = c.ours;
        let ours = if capped > 0 {
            format!("≥ {} ({n} runs, {capped} capped)", sig(m, 5))
        } else {
            format!("{} ± {} ({n})", sig(m, 5), sig(sd, 3))
        };
        let (ratio, ci, p) = match &c.cmp {
            Some(r) if r.factor.hi > r.factor.lo => (
                format!(
                    "{}–{} (counter factor ×{}–{})",
                    sig(r.ratio_lo, 3),
                    sig(r.ratio_hi, 3),
                    r.factor.lo,
                    r.factor.hi
                ),
                format!("[{}, {}]", sig(r.ci95_lo, 3), sig(r.ci95_hi, 3)),
                sig(r.welch_p, 2),
            ),
            Some(r) => (
                sig(r.ratio, 4),
                format!("[{}, {}]", sig(r.ci95_lo, 3), sig(r.ci95_hi, 3)),
                sig(r.welch_p, 2),
            ),
            None => ("—".into(), "— (capped runs)".into(), "—".into()),
        };
        let (lo, hi) = c
            .cmp
            .as_ref()
            .map_or((0.0, f64::INFINITY), |r| (r.ci95_lo, r.ci95_hi));
        let equivalence = if lo >= 1.0 / AGREE_BAND && hi <= AGREE_BAND {
            "inside (agrees)"
        } else if lo > AGREE_BAND || hi < 1.0 / AGREE_BAND {
            "outside (differs)"
        } else {
            "crosses the margin (undecided)"
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} ± {} ({}) | {ours} | {ratio} | {ci} | {equivalence} | {p} | `{}` |\n",
            c.row.algo.as_str(),
            c.row.instance,
            c.row.eps.map_or("∞".to_string(), |e| e.to_string()),
            sig(c.row.mean, 6),
            sig(c.row.std, 3),
            c.row.runs,
            c.cell,
        ));
    }
    s
}
