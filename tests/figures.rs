//! The figures `verify` and `dpbai experiment` write, checked through their JSON sidecars: no
//! data point leaves its axes unmarked (each lies inside the axes the sidecar records, or is
//! marked `"off_scale"` on the side it lies beyond), every caption states the cap, the
//! upper-bound curves are labelled asymptotic, the public-code-rule set of Figures 1–5 exists and
//! says that the paper's figures used those rules, and the median figure draws a band.
//!
//! The figures are built from a synthetic grid (every cell of the quick profile with made-up
//! runs, some capped, so that Figure 5's linear axis has points above it), from a small study
//! run by the CLI, and, as written, from the committed `figures/` and example studies.

use crate::common::{TempDir, run_cli};
use dpbai::bandit::{AlgoName, Rules, RunOutcome};
use dpbai::claims::dp_bai::evidence::{self, Profile};
use dpbai::experiment::Cell;
use dpbai::experiment::grid::GridResults;
use dpbai::experiment::run::CellResult;
use dpbai::mc::{RunRecord, summarize};
use dpbai::report::paper::figures::{THM24_SWITCH_LABEL, render_all};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Marker styles: the series whose entries are data points.
const POINT_STYLES: [&str; 4] = ["points", "line_and_points", "open_points", "crosses"];
/// The regime every upper-bound label states.
const ASYMPTOTIC: &str = "asymptotic, δ → 0; not a finite-δ bound";

/// Made-up runs of `cell`: 20 runs around a base time that falls with ε; AdaP-TT and AdaP-TT*
/// under the paper's rules on μ1, μ2 at ε ≤ 0.4 have capped runs (more than half for AdaP-TT*
/// on μ2 at ε = 0.4, so that its median lies beyond the cap).
fn synthetic(cell: &Cell) -> CellResult {
    let best = cell
        .means
        .iter()
        .enumerate()
        .fold(0, |b, (i, &m)| if m > cell.means[b] { i } else { b });
    let eps = cell.setting.eps_value().unwrap_or(f64::INFINITY);
    let base = 2_000.0 * (1.0 + 0.2 / eps.min(1e6)) * (1.0 + cell.means.len() as f64 / 10.0);
    let starving = matches!(cell.setting.algo, AlgoName::AdapTt | AlgoName::AdapTtStar)
        && cell.setting.rules == Rules::Paper
        && (cell.instance == "mu1" || cell.instance == "mu2")
        && eps <= 0.4;
    let capped = match (starving, cell.setting.algo, cell.instance.as_str()) {
        (true, AlgoName::AdapTtStar, "mu2") if eps == 0.4 => 12,
        (true, _, _) => 5,
        _ => 0,
    };
    let records: Vec<RunRecord> = (0..20u64)
        .map(|run| {
            let stopped = run >= capped;
            RunRecord {
                run,
                outcome: RunOutcome {
                    tau: if stopped {
                        (base * (0.6 + 0.04 * run as f64)) as u64
                    } else {
                        cell.max_steps
                    },
                    recommendation: best,
                    stopped,
                    rounds: None,
                },
            }
        })
        .collect();
    CellResult {
        cell: cell.clone(),
        digest: cell.digest(),
        seed: cell.seed(),
        summary: summarize(&records, best).expect("non-empty runs"),
        cached: false,
        stale: false,
        elapsed_s: 0.0,
        std_tau_stopped: None,
    }
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn num(v: &Value) -> Option<f64> {
    v.as_f64()
}

/// The side of `[lo, hi]` (display space: `log10` on a log axis) that `v` lies beyond.
fn side(v: f64, [lo, hi]: [f64; 2], log: bool, sides: [&'static str; 2]) -> Option<&'static str> {
    if log && v <= 0.0 {
        return Some(sides[0]);
    }
    let d = |x: f64| if log { x.log10() } else { x };
    let (a, b, x) = (d(lo), d(hi), d(v));
    let tol = 1e-6 * (b - a).abs().max(1e-300);
    if x < a - tol {
        Some(sides[0])
    } else if x > b + tol {
        Some(sides[1])
    } else {
        None
    }
}

/// Asserts that every data point of the sidecar at `path` lies inside its panel's axes or is
/// marked off-scale on the right side; returns the number of points marked.
fn check_sidecar(path: &Path) -> usize {
    let j = read_json(path);
    let name = path.display();
    let panels = j["figure"]["panels"]
        .as_array()
        .unwrap_or_else(|| panic!("{name}: no figure.panels"));
    let mut marked = 0;
    for (pi, p) in panels.iter().enumerate() {
        let axes = &p["axes"];
        let range = |k: &str| -> [f64; 2] {
            let r = axes[k]
                .as_array()
                .unwrap_or_else(|| panic!("{name}: panel {pi} has no axes.{k}"));
            [num(&r[0]).expect("lo"), num(&r[1]).expect("hi")]
        };
        let (xr, yr) = (range("x"), range("y"));
        let (xlog, ylog) = (axes["x_log"] == true, axes["y_log"] == true);
        for s in p["series"].as_array().expect("series") {
            let style = s["style"].as_str().unwrap_or("");
            if !POINT_STYLES.contains(&style) {
                continue;
            }
            let label = s["label"].as_str().unwrap_or("");
            let (xs, ys) = (s["x"].as_array().expect("x"), s["y"].as_array().expect("y"));
            let marks = s["off_scale"]
                .as_array()
                .unwrap_or_else(|| panic!("{name}: series '{label}' has no off_scale"));
            assert_eq!(marks.len(), xs.len(), "{name}: '{label}'");
            for i in 0..xs.len() {
                let (Some(x), Some(y)) = (num(&xs[i]), num(&ys[i])) else {
                    // null: a missing value (NaN), no point; it carries no mark
                    assert!(marks[i].is_null(), "{name}: '{label}' point {i}");
                    continue;
                };
                let want = side(y, yr, ylog, ["below", "above"])
                    .or_else(|| side(x, xr, xlog, ["left", "right"]));
                assert_eq!(
                    marks[i].as_str(),
                    want,
                    "{name}: panel {pi} '{label}' point {i} at ({x}, {y}), axes x {xr:?} y {yr:?}"
                );
                if let Some(w) = want {
                    marked += 1;
                    let stats = &s["points"][i];
                    if stats.is_object() {
                        assert_eq!(
                            stats["off_scale"].as_str(),
                            Some(w),
                            "{name}: '{label}' {i}"
                        );
                    }
                }
            }
        }
        for h in p["hlines"].as_array().into_iter().flatten() {
            if h["stats"].is_object() {
                let want = num(&h["y"]).and_then(|y| side(y, yr, ylog, ["below", "above"]));
                assert_eq!(h["off_scale"].as_str(), want, "{name}: line {}", h["label"]);
                marked += usize::from(want.is_some());
            }
        }
    }
    marked
}

fn sidecars(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    v.sort();
    v
}

fn labels(j: &Value, key: &str) -> Vec<String> {
    j["figure"]["panels"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|p| p[key].as_array().cloned().unwrap_or_default())
        .filter_map(|s| s["label"].as_str().map(String::from))
        .collect()
}

#[test]
fn verify_figures_from_a_synthetic_grid_mark_every_point_beyond_their_axes() {
    let study = evidence::study("quick", None).expect("the built-in study");
    let profile = Profile::of("quick", &study);
    let grid = GridResults {
        cells: study
            .cells
            .iter()
            .filter(|c| {
                evidence::GRID_GROUPS.contains(&study.algorithms[c.algorithm].group.as_str())
            })
            .map(|c| synthetic(&c.cell))
            .collect(),
    };
    let dir = TempDir::new("figure-sidecars");
    let written = render_all(&grid, &study, &profile, dir.path(), "test").expect("figures");
    assert_eq!(written.len(), study.figures.len());
    assert_eq!(
        study.figures.len(),
        14,
        "the paper's figures, medians, ratios and references"
    );
    let mut marked_fig5 = 0;
    for spec in &study.figures {
        let path = dir.path().join(format!("{}.json", spec.stem));
        for ext in ["png", "svg"] {
            assert!(dir.path().join(format!("{}.{ext}", spec.stem)).is_file());
        }
        let marked = check_sidecar(&path);
        let j = read_json(&path);
        let caption = j["figure"]["caption"].as_str().unwrap_or("");
        assert!(
            caption.contains("Cap: 3×10⁷ samples per run"),
            "{}: {caption}",
            spec.stem
        );
        let reference = spec.stem.ends_with("_ref");
        assert_eq!(j["rules"] == "reference", reference, "{}", spec.stem);
        if reference {
            assert!(
                caption.contains("the paper's figures used these rules (Rem. 53)"),
                "{caption}"
            );
        }
        let series = labels(&j, "series");
        let uppers: Vec<&String> = series
            .iter()
            .filter(|l| l.contains("upper bound"))
            .collect();
        assert!(uppers.iter().all(|l| l.contains(ASYMPTOTIC)), "{uppers:?}");
        if spec.stem.contains("global") && !spec.stem.contains("ratio") {
            assert!(!uppers.is_empty(), "{}", spec.stem);
            assert!(labels(&j, "vlines").iter().any(|l| l == THM24_SWITCH_LABEL));
            assert!(caption.contains("2Δ_max"), "{caption}");
        }
        if spec.stem == "fig5_global_all" {
            marked_fig5 = marked;
        }
    }
    // The capped AdaP-TT(*) cells on μ1, μ2 lie above Figure 5's linear axis: marked, not lost.
    assert!(marked_fig5 > 0, "Figure 5 has no point above its axis");
    // Under the public code's rules only μ1, μ2 have cells: the caption says so.
    let j = read_json(&dir.path().join("fig3_local_all_ref.json"));
    let caption = j["figure"]["caption"].as_str().expect("caption");
    assert!(
        caption.contains("μ3, μ4, μ5, μ6: no cell under these rules"),
        "{caption}"
    );
    // The reference Figure 2 has the public code's ε (0.01) beside the profile's grid.
    let eps0 = &read_json(&dir.path().join("fig2_global_mu1_mu2_ref.json"))["figure"]["panels"][0]
        ["series"];
    assert!(
        eps0.as_array()
            .expect("series")
            .iter()
            .any(|s| s["style"] == "line_and_points" && s["x"][0] == 0.01)
    );
    // The median figure: a band (asymmetric) per algorithm, the means as crosses, and the
    // AdaP-TT* median of μ2 at ε = 0.4 beyond the cap drawn at the cap.
    let j = read_json(&dir.path().join("fig2_global_mu1_mu2_median.json"));
    let series: Vec<Value> = j["figure"]["panels"][1]["series"]
        .as_array()
        .expect("series")
        .clone();
    assert!(
        series
            .iter()
            .any(|s| s["err_style"] == "band" && s["y_err_below"].is_array())
    );
    assert!(series.iter().any(|s| s["style"] == "crosses"));
    assert!(series.iter().any(|s| {
        s["style"] == "open_points"
            && s["y"]
                .as_array()
                .expect("y")
                .iter()
                .any(|y| y.as_f64() == Some(3e7))
    }));
}

#[test]
fn committed_figures_mark_every_point_beyond_their_axes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dirs = [
        root.join("figures"),
        root.join("examples/results/delta-scaling/figures"),
        root.join("examples/results/sensitivity/figures"),
        root.join("paper-profile/figures"),
    ];
    let mut n = 0;
    for d in &dirs {
        for f in sidecars(d) {
            check_sidecar(&f);
            n += 1;
        }
    }
    assert!(n >= 14, "only {n} sidecars");
}

/// A small study with AdaP-TT* (both readings of its bound) whose ε grid spans the bound's
/// switches, and a cap low enough that some cells are capped.
const STUDY: &str = r#"
title = "switch"
runs = 4
max-steps = 20_000
delta = 0.05
eps = [0.1, 1.0, 4.0]
[[instance]]
name = "two"
means = [0.9, 0.3]
[[algorithm]]
algo = "ttucb"
[[algorithm]]
algo = "adap-tt-star"
[bounds]
upper = ["adap-tt-star", "adap-tt-star-lemma52"]
"#;

#[test]
fn study_figures_state_the_cap_and_the_asymptotic_bounds_and_mark_the_switches() {
    let dir = TempDir::new("study-figures");
    let cfg = dir.path().join("s.toml");
    std::fs::write(&cfg, STUDY).expect("write");
    let out = dir.path().join("out");
    let (code, _, err) = run_cli(&[
        "experiment",
        cfg.to_str().expect("utf-8"),
        "--out-dir",
        out.to_str().expect("utf-8"),
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let files = sidecars(&out.join("figures"));
    assert!(!files.is_empty());
    for f in &files {
        check_sidecar(f);
        let j = read_json(f);
        let caption = j["figure"]["caption"].as_str().unwrap_or("");
        assert!(caption.contains("Cap: 2×10⁴ samples per run"), "{caption}");
    }
    let j = read_json(&out.join("figures/two_delta0.05.json"));
    let series = labels(&j, "series");
    let uppers: Vec<&String> = series
        .iter()
        .filter(|l| l.contains("upper bound"))
        .collect();
    assert_eq!(uppers.len(), 2, "{series:?}");
    assert!(uppers.iter().all(|l| l.contains(ASYMPTOTIC)), "{uppers:?}");
    // Δ_max = 0.6: Thm. 24 switches at 1.2, L. 52 at 0.2, both inside [0.1, 4]
    let vlines = labels(&j, "vlines");
    assert!(vlines.iter().any(|l| l == THM24_SWITCH_LABEL), "{vlines:?}");
    assert!(vlines.iter().any(|l| l.contains("L. 52")), "{vlines:?}");
    let summary = std::fs::read_to_string(out.join("SUMMARY.md")).expect("SUMMARY.md");
    assert!(summary.contains(ASYMPTOTIC), "{summary}");
    assert!(summary.contains("2Δ_max = 1.2"), "{summary}");
}

/// A one-panel figure with a fixed y range `[0, 1]` and the points `ys` at x = 1, 2, 3.
fn fixed_range_figure(ys: Vec<f64>) -> dpbai::plot::Figure {
    use dpbai::plot::{Figure, Panel, Series, SeriesStyle};
    let mut p = Panel::new("p", "x", "y");
    p.y_range = Some([0.0, 1.0]);
    p.series.push(Series::new(
        "data",
        vec![1.0, 2.0, 3.0],
        ys,
        SeriesStyle::Points,
        0,
    ));
    Figure::grid("t", vec![p], 1)
}

#[test]
fn a_point_beyond_a_fixed_range_is_drawn_as_an_arrow_at_the_edge() {
    use dpbai::plot::{OFF_SCALE_LABEL, render_svg};
    // Points of palette colour 0 are circles: every polygon is an arrow (plot or legend).
    let polygons = |ys: Vec<f64>| {
        let svg = render_svg(&fixed_range_figure(ys)).expect("svg");
        (
            svg.matches("<polygon").count(),
            svg.contains(OFF_SCALE_LABEL),
        )
    };
    assert_eq!(polygons(vec![0.5, 0.7, f64::NAN]), (0, false));
    // one point above, one below: two arrows and the legend's sample
    assert_eq!(polygons(vec![0.5, 5.0, -3.0]), (3, true));
}

#[test]
fn an_asymmetric_error_is_checked_like_a_symmetric_one() {
    use dpbai::plot::{ErrStyle, FigureError, render_svg};
    let mut fig = fixed_range_figure(vec![0.5, 0.6, 0.7]);
    fig.panels[0].series[0] = fig.panels[0].series[0].clone().with_err_range(
        vec![0.1, -0.1, 0.1],
        vec![0.2; 3],
        ErrStyle::Band,
    );
    assert!(matches!(
        render_svg(&fig),
        Err(FigureError::Invalid(m)) if m.contains("y_err_below = -0.1")
    ));
    fig.panels[0].series[0].y_err_below = Some(vec![0.1; 2]);
    assert!(render_svg(&fig).is_err());
    fig.panels[0].series[0].y_err_below = Some(vec![0.1; 3]);
    assert!(render_svg(&fig).is_ok());
}
