//! Integration tests of the figure layer (`dpbai::report`): files written, PNG header and size,
//! SVG text, determinism, robustness to NaN / non-positive values on log axes.
//!
//! `demo_figures_for_eyeballing` (ignored) writes made-up demo figures to
//! `$TMPDIR/dpbai-figure-demo/` for looking at the layout:
//! `cargo test --release --test lib report::demo -- --ignored`.

use std::path::PathBuf;

use dpbai::plot::{
    ErrStyle, Figure, FigureError, Panel, RefStyle, Series, SeriesStyle, VLine, render, render_svg,
    render_with_sidecar, write_sidecar,
};
use dpbai::report::paper::builders::{
    AllocationPanelData, Curve, Empirical, EpsPanelData, RatioPanelData, allocation_figure,
    paper_eps_figure, ratio_figure,
};

/// A fresh directory under the system temp dir, unique per process and test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dpbai-report-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Width and height from the IHDR chunk of a PNG file.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    const SIG: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
    assert_eq!(bytes[..8], SIG, "PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR", "first chunk is IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&bytes[16..20]), be(&bytes[20..24]))
}

/// The trimmed contents of the `<text>` elements of an SVG document.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("</text>")
        .filter_map(|chunk| {
            let start = chunk.rfind("<text")?;
            let body = &chunk[start..];
            Some(body[body.find('>')? + 1..].trim().to_string())
        })
        .collect()
}

/// Two log–log panels with NaN, zero and negative values, error bars reaching below zero,
/// a band, and vertical lines (one outside the data range).
fn two_panel_figure() -> Figure {
    let eps = vec![0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0];
    let mut left = Panel::new(
        "Instance A",
        "privacy budget ε",
        "stopping time τ (samples)",
    );
    left.x_log = true;
    left.y_log = true;
    left.series.push(
        Series::new(
            "algorithm one",
            eps.clone(),
            vec![1e6, f64::NAN, 1e4, 0.0, 900.0, -5.0, 850.0],
            SeriesStyle::LineAndPoints,
            0,
        )
        .with_err(
            vec![2e6, 1.0, 5e3, 1.0, 950.0, 1.0, f64::NAN],
            ErrStyle::Bars,
        ),
    );
    left.series.push(Series::new(
        "lower bound",
        eps.clone(),
        eps.iter().map(|e| 400.0 * (1.0 + 0.5 / e)).collect(),
        SeriesStyle::Dashed,
        6,
    ));
    left.vlines.push(VLine {
        x: 0.5,
        x_hi: None,
        label: "switch".into(),
        style: RefStyle::Shaded,
        color: 7,
    });
    let mut right = left.clone();
    right.title = "Instance B".into();
    right.series[0].err_style = ErrStyle::Band;
    right.series[0].y[4] = f64::INFINITY;
    right.vlines.push(VLine {
        x: 0.2,
        x_hi: Some(0.4),
        label: "band".into(),
        style: RefStyle::Shaded,
        color: 3,
    });
    let mut fig = Figure::grid("Test figure: two panels", vec![left, right], 2);
    fig.width = 1000;
    fig.height = 420;
    fig
}

/// `--dpi`: the PNG is `dpi/100` times the figure's pixel size, the SVG is the same bytes, and
/// a resolution outside 50–600 is refused with a message naming it.
#[test]
fn a_png_at_a_higher_dpi_is_scaled_and_the_svg_is_unchanged() {
    use dpbai::plot::render_at;
    let dir = temp_dir("dpi");
    let fig = two_panel_figure();
    let a = render_at(&fig, &dir.join("a"), 100).expect("rendered at 100 dpi");
    let b = render_at(&fig, &dir.join("b"), 300).expect("rendered at 300 dpi");
    assert_eq!(png_size(&std::fs::read(&a.png).expect("png")), (1000, 420));
    assert_eq!(png_size(&std::fs::read(&b.png).expect("png")), (3000, 1260));
    assert_eq!(
        std::fs::read(&a.svg).expect("svg"),
        std::fs::read(&b.svg).expect("svg")
    );
    for bad in [0, 49, 601] {
        let e = render_at(&fig, &dir.join("c"), bad).expect_err("refused");
        assert!(e.to_string().contains(&format!("dpi = {bad}")), "{e}");
    }
}

/// A title wider than the figure is drawn smaller (or cut with '…'), never clipped at the
/// left edge: the SVG's title text starts with the title's first word.
#[test]
fn a_long_title_is_shrunk_not_clipped() {
    let dir = temp_dir("long-title");
    let mut fig = two_panel_figure();
    fig.title = format!(
        "Newcomer study {}",
        "of a very long title that goes on ".repeat(6)
    );
    let out = render(&fig, &dir.join("fig")).expect("rendered");
    let svg = std::fs::read_to_string(&out.svg).expect("svg written");
    let texts = svg_texts(&svg);
    let title = texts
        .iter()
        .find(|t| t.contains("very long title"))
        .expect("the title is drawn");
    assert!(title.starts_with("Newcomer study"), "{title}");
    assert!(title.chars().count() < fig.title.chars().count(), "{title}");
    assert!(title.ends_with('…'), "{title}");
}

#[test]
fn two_panel_figure_writes_png_and_svg_with_text_and_size() {
    let dir = temp_dir("two-panel");
    let fig = two_panel_figure();
    let out = render(&fig, &dir.join("fig")).expect("rendered");
    assert_eq!(out.png, dir.join("fig.png"));
    let png = std::fs::read(&out.png).expect("png written");
    assert_eq!(png_size(&png), (1000, 420));
    let svg = std::fs::read_to_string(&out.svg).expect("svg written");
    assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
    for text in [
        "Test figure: two panels",
        "Instance A",
        "Instance B",
        "privacy budget ε",
        "stopping time τ (samples)",
        "algorithm one",
        "lower bound",
    ] {
        assert!(svg.contains(text), "SVG lacks {text:?}");
    }
    // decade tick labels of the ε axis, as whole text elements
    let texts = svg_texts(&svg);
    for tick in ["0.001", "0.01", "1", "1000"] {
        assert!(
            texts.iter().any(|t| t == tick),
            "no tick {tick} in {texts:?}"
        );
    }
    let sidecar = write_sidecar(
        &dir.join("fig"),
        &serde_json::json!({"command": "test", "seed": 1, "figure": fig}),
    )
    .expect("sidecar");
    let back: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sidecar).expect("read")).expect("json");
    assert_eq!(back["figure"]["panels"][1]["title"], "Instance B");
    // NaN data become null in the sidecar
    assert!(back["figure"]["panels"][0]["series"][0]["y"][1].is_null());

    let all = render_with_sidecar(&fig, &dir.join("all"), serde_json::json!({"seed": 7}))
        .expect("rendered with sidecar");
    let path = all.sidecar.expect("sidecar path");
    assert_eq!(path, dir.join("all.json"));
    let back: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    assert_eq!(back["seed"], 7);
    assert_eq!(back["figure"]["title"], "Test figure: two panels");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rendering_is_deterministic() {
    let dir = temp_dir("determinism");
    let fig = two_panel_figure();
    let a = render(&fig, &dir.join("a")).expect("a");
    let b = render(&fig, &dir.join("b")).expect("b");
    let read = |p: &PathBuf| std::fs::read(p).expect("read");
    assert_eq!(read(&a.svg), read(&b.svg), "SVG bytes differ");
    assert_eq!(read(&a.png), read(&b.png), "PNG bytes differ");
    assert_eq!(
        render_svg(&fig).expect("svg"),
        render_svg(&fig).expect("svg")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn png_text_is_rasterised_with_the_bundled_font() {
    // Same figure, different title: the PNGs differ only if the text is really drawn.
    let dir = temp_dir("text");
    let mut fig = two_panel_figure();
    let a = render(&fig, &dir.join("a")).expect("a");
    fig.title = "Another title".into();
    let b = render(&fig, &dir.join("b")).expect("b");
    let read = |p: &PathBuf| std::fs::read(p).expect("read");
    assert_ne!(read(&a.png), read(&b.png));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn degenerate_panels_render_without_panic() {
    let fig = degenerate_figure();
    let dir = temp_dir("degenerate");
    let out = render(&fig, &dir.join("deg")).expect("renders");
    let svg = std::fs::read_to_string(&out.svg).expect("svg");
    assert!(svg.contains("constant on log axis"));
    assert_eq!(
        png_size(&std::fs::read(&out.png).expect("png")),
        (fig.width, fig.height)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// All-NaN series, empty series, a single point, a constant series, a log axis with only
/// non-positive values, empty titles: each must render (axes fall back to a default range).
fn degenerate_figure() -> Figure {
    let mut p = Panel::new("degenerate", "x", "y");
    p.x_log = true;
    p.y_log = true;
    p.series.push(Series::new(
        "nan",
        vec![f64::NAN; 3],
        vec![1.0; 3],
        SeriesStyle::Points,
        0,
    ));
    p.series
        .push(Series::new("empty", vec![], vec![], SeriesStyle::Line, 1));
    p.series.push(Series::new(
        "nonpositive",
        vec![1.0, 2.0],
        vec![0.0, -1.0],
        SeriesStyle::LineAndPoints,
        2,
    ));
    let mut q = Panel::new("single point", "x", "y");
    q.series.push(Series::new(
        "one",
        vec![3.0],
        vec![7.0],
        SeriesStyle::LineAndPoints,
        3,
    ));
    let mut r = Panel::new("constant on log axis", "x", "y");
    r.y_log = true;
    r.series.push(Series::new(
        "const",
        vec![1.0, 2.0, 3.0],
        vec![5.0; 3],
        SeriesStyle::Line,
        4,
    ));
    let mut untitled = Panel::new("", "", "");
    untitled.series.push(Series::new(
        "",
        vec![1.0, 2.0],
        vec![1.0, 2.0],
        SeriesStyle::Dotted,
        5,
    ));
    Figure::grid("degenerate", vec![p, q, r, untitled], 3)
}

#[test]
fn invalid_figures_are_errors() {
    let mut fig = two_panel_figure();
    fig.panels[0].series[0].x.pop();
    assert!(matches!(
        render_svg(&fig),
        Err(FigureError::Invalid(msg)) if msg.contains("algorithm one")
    ));
}

/// Made-up but plausible data for a stopping-time-versus-ε panel.
fn demo_eps_panel(
    name: &str,
    eps: &[f64],
    algos: &[(&str, f64, f64)],
    t_kl: f64,
    switch: f64,
    paper: f64,
    local: bool,
) -> EpsPanelData {
    let log_term = (1.0f64 / 0.024).ln();
    let shape = |e: f64, s: f64| {
        if local {
            1.0 + (s / e).powi(2)
        } else {
            1.0 + s / e
        }
    };
    let fine: Vec<f64> = (0..=60)
        .map(|i| 10f64.powf(-3.0 + 0.1 * i as f64))
        .collect();
    EpsPanelData {
        instance: name.into(),
        eps: eps.to_vec(),
        empirical: algos
            .iter()
            .enumerate()
            .map(|(k, &(a, factor, s))| {
                let mean: Vec<f64> = eps
                    .iter()
                    .map(|&e| t_kl * log_term * factor * shape(e, s))
                    .collect();
                let std = mean.iter().map(|m| m * (0.25 + 0.05 * k as f64)).collect();
                let runs = eps
                    .iter()
                    .map(|&e| if local && e < 0.1 { 0 } else { 1000 })
                    .collect();
                Empirical {
                    mean,
                    ci95: std,
                    runs,
                    ..Empirical::named(a)
                }
            })
            .collect(),
        lower_bounds: vec![Curve {
            label: if local {
                "lower bound T_ℓ(μ;ε)·log(1/(2.4δ))".into()
            } else {
                "lower bound T_g(μ;ε)·log(1/(2.4δ))".into()
            },
            x: fine.clone(),
            y: fine
                .iter()
                .map(|&e| t_kl * log_term * shape(e, switch))
                .collect(),
            algorithm: None,
        }],
        upper_bounds: algos
            .iter()
            .filter(|(a, _, _)| *a != "TTUCB")
            .take(2)
            .map(|&(a, factor, s)| Curve {
                label: format!("asymptotic upper bound {a}"),
                x: fine.clone(),
                y: fine
                    .iter()
                    .map(|&e| 1.6 * t_kl * log_term * factor * shape(e, s))
                    .collect(),
                algorithm: Some(a.into()),
            })
            .collect(),
        upper_switches: vec![],
        theory_switch: Some(switch),
        paper_switch: Some(paper),
        switches: vec![],
        note: None,
    }
}

#[test]
#[ignore = "writes demo figures to $TMPDIR/dpbai-figure-demo for looking at them"]
fn demo_figures_for_eyeballing() {
    let dir = std::env::temp_dir().join("dpbai-figure-demo");
    let global_eps = [
        0.001, 0.005, 0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 10.0, 100.0,
        1000.0,
    ];
    let local_eps = [
        0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 10.0, 100.0,
    ];
    let global_algos = [
        ("AdaP-TT*", 2.0, 0.05),
        ("AdaP-TT", 2.4, 0.09),
        ("DP-SE", 6.0, 0.2),
        ("TTUCB", 1.2, 0.0),
    ];
    let local_algos = [("CTB-TT", 1.3, 1.5), ("TTUCB", 1.2, 0.0)];
    let fig2 = paper_eps_figure(
        "DEMO (made-up data) — Figure 2: global DP, stopping time vs ε",
        vec![
            demo_eps_panel(
                "μ1 = (0.95, 0.9, 0.9, 0.9, 0.5)",
                &global_eps,
                &global_algos,
                800.0,
                0.03,
                0.1,
                false,
            ),
            demo_eps_panel(
                "μ2 = (0.75, 0.7, 0.7, 0.7, 0.7)",
                &global_eps,
                &global_algos,
                3000.0,
                0.08,
                0.4,
                false,
            ),
        ],
        true,
    )
    .expect("fig2");
    render(&fig2, &dir.join("demo_fig2")).expect("render fig2");

    let names = ["μ1", "μ2", "μ3", "μ4", "μ5", "μ6"];
    let local_panels = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            demo_eps_panel(
                n,
                &local_eps,
                &local_algos,
                200.0 * (i + 1) as f64,
                0.6 + 0.1 * i as f64,
                2.0 + i as f64,
                true,
            )
        })
        .collect();
    let fig3 = paper_eps_figure(
        "DEMO (made-up data) — Figure 3: local DP, stopping time vs ε",
        local_panels,
        true,
    )
    .expect("fig3");
    render(&fig3, &dir.join("demo_fig3")).expect("render fig3");

    let global_panels: Vec<EpsPanelData> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            demo_eps_panel(
                n,
                &global_eps,
                &global_algos,
                300.0 * (i + 1) as f64,
                0.02 * (i + 1) as f64,
                0.1 * (i + 1) as f64,
                false,
            )
        })
        .collect();
    let fig5 = paper_eps_figure(
        "DEMO (made-up data) — Figure 5: global DP, y axis linear",
        global_panels.clone(),
        false,
    )
    .expect("fig5");
    render(&fig5, &dir.join("demo_fig5")).expect("render fig5");
    // A fixed y range zooms in; everything outside is clipped to the plot rectangle.
    let mut zoom = fig5.clone();
    zoom.title = "DEMO (made-up data) — Figure 5 zoomed with fixed y ranges".into();
    for p in &mut zoom.panels {
        let ttucb = p.series.iter().find(|s| s.label == "TTUCB").map(|s| s.y[0]);
        p.y_range = ttucb.map(|t| [0.0, 12.0 * t]);
    }
    render(&zoom, &dir.join("demo_fig5_zoom")).expect("render zoom");

    let ratio = ratio_figure(
        "DEMO (made-up data) — empirical τ / lower bound",
        global_panels
            .iter()
            .take(2)
            .map(|p| RatioPanelData {
                instance: p.instance.clone(),
                eps: p.eps.clone(),
                empirical: p.empirical.clone(),
                lower_bound: p
                    .eps
                    .iter()
                    .map(|&e| p.empirical[3].mean[0] / 1.2 * (1.0 + 0.03 / e))
                    .collect(),
            })
            .collect(),
    )
    .expect("ratio");
    render(&ratio, &dir.join("demo_ratio")).expect("render ratio");

    let n: Vec<f64> = (0..=40).map(|i| 10f64.powf(1.0 + 0.1 * i as f64)).collect();
    let w = [0.42, 0.35, 0.15, 0.05, 0.03];
    let fractions = w
        .iter()
        .enumerate()
        .map(|(a, &wa)| {
            n.iter()
                .map(|&m| wa + (0.2 - wa) * (1.0 / m.sqrt()) * (1.0 + 0.1 * a as f64))
                .collect()
        })
        .collect::<Vec<Vec<f64>>>();
    let sd = fractions
        .iter()
        .map(|f| n.iter().zip(f).map(|(m, _)| 0.3 / m.sqrt()).collect())
        .collect();
    let alloc = allocation_figure(
        "DEMO (made-up data) — allocation N_a(n)/n → w*",
        vec![
            AllocationPanelData {
                title: "μ4, AdaP-TT, ε = 0.1".into(),
                n: n.clone(),
                fractions: fractions.clone(),
                fraction_std: Some(sd),
                optimal: w.to_vec(),
            },
            AllocationPanelData {
                title: "μ4, TTUCB".into(),
                n,
                fractions,
                fraction_std: None,
                optimal: w.to_vec(),
            },
        ],
    )
    .expect("alloc");
    render(&alloc, &dir.join("demo_alloc")).expect("render alloc");
    render(&two_panel_figure(), &dir.join("demo_edge_cases")).expect("render edge cases");
    render(&degenerate_figure(), &dir.join("demo_degenerate")).expect("render degenerate");
}

/// A verify-cache file edited after it was written (one τ digit, then one
/// recommendation) fails its blake3 digest and is recomputed, never used.
#[test]
fn edited_cache_file_is_detected_and_recomputed() {
    use dpbai::bandit::{AlgoName, Setting};
    use dpbai::experiment::{Cell, run_cell};
    let dir = std::env::temp_dir().join(format!("dpbai-tamper-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cell = Cell {
        instance: "easy".into(),
        means: vec![0.9, 0.1],
        sigma: None,
        setting: Setting::paper(AlgoName::Ttucb, 0.1).expect("valid δ"),
        runs: 8,
        max_steps: 10_000_000,
        seed_salt: None,
        paired_seed: None,
        threshold: None,
    };
    let first = run_cell(&cell, Some(&dir), 1).expect("runs");
    assert!(!first.cached);
    assert!(run_cell(&cell, Some(&dir), 1).expect("loads").cached);
    let path = std::fs::read_dir(&dir)
        .expect("cache dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "csv"))
        .expect("cache file");
    let clean = std::fs::read_to_string(&path).expect("read cache");
    assert!(
        clean
            .lines()
            .last()
            .expect("lines")
            .starts_with("# blake3=")
    );
    // Edit the τ of run 0 (fourth line, after the two header lines and the column line:
    // "0,<tau>,<rec>,...") and then its recommendation.
    let lines: Vec<&str> = clean.lines().collect();
    let f: Vec<&str> = lines[3].split(',').collect();
    let tau: u64 = f[1].parse().expect("tau");
    let edits = [
        format!("{},{},{},{},{}", f[0], tau + 1, f[2], f[3], f[4]),
        format!(
            "{},{},{},{},{}",
            f[0],
            f[1],
            1 - f[2].parse::<usize>().expect("rec"),
            f[3],
            f[4]
        ),
    ];
    for edited_line in edits {
        let mut edited: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        edited[3] = edited_line;
        std::fs::write(&path, edited.join("\n") + "\n").expect("write edited cache");
        let again = run_cell(&cell, Some(&dir), 1).expect("recomputes");
        assert!(!again.cached, "an edited cache file must not be used");
        assert_eq!(again.summary, first.summary);
        assert_eq!(
            std::fs::read_to_string(&path).expect("rewritten"),
            clean,
            "recomputed and rewritten byte for byte"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Claims: the protocol's verdicts and fault injection.
// ---------------------------------------------------------------------------------------------

/// `verify --check` fails (exit code non-zero) under an injected solver fault.
#[test]
fn verify_check_fails_under_an_injected_fault() {
    let dir = temp_dir("verify-fault");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dpbai"))
        .args(["verify", "--no-experiments", "--check", "--out-dir"])
        .arg(&dir)
        .arg("--expected")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("verify/expected.toml"))
        .env("DPBAI_INJECT_FAULT", "solver")
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("injected fault"), "{err}");
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_dpbai"))
        .args(["verify", "--no-experiments", "--out-dir"])
        .arg(&dir)
        .env("DPBAI_INJECT_FAULT", "disk")
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
}

/// `--expected` conventions: a file may share another's `[independent]` table with
/// `independent_from` (the paper profile's file does), may not have both, and
/// `--record-snapshot` fills its `[snapshot]` table so that `--check` then passes (keeping the
/// comment of a line whose verdict is unchanged).
#[test]
fn expected_files_share_independent_tables_and_record_snapshots() {
    let dir = temp_dir("verify-expected");
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let quick = repo.join("verify/expected.toml");
    // The second paper's expected file is a copy: --record-snapshot must not touch the
    // repository's.
    let second = dir.join("second.toml");
    std::fs::copy(repo.join("verify/expected-bai25.toml"), &second).expect("copied");
    let verify = |expected: &std::path::Path, extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_dpbai"))
            .args(["verify", "--no-experiments", "--out-dir"])
            .arg(&dir)
            .arg("--expected")
            .arg(expected)
            .arg("--expected-bai25")
            .arg(&second)
            .args(extra)
            .output()
            .expect("runs")
    };
    let shared = dir.join("shared.toml");
    std::fs::write(
        &shared,
        format!(
            "independent_from = {:?}\n\n# snapshots\n[snapshot]\n\"F.999\" = \"confirmed\"\n\"F.38\" = \"refuted\"  # kept: unchanged\n\"F.39\" = \"confirmed\"  # dropped: changed\n\"F.56\" = \"inconclusive\"  # not run here\n",
            quick.display().to_string()
        ),
    )
    .expect("written");
    // Not recorded yet: the snapshot claims that ran are missing, so --check fails.
    let out = verify(&shared, &["--check"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not in"), "{err}");
    let out = verify(&shared, &["--record-snapshot", "--check"]);
    let text = std::fs::read_to_string(&shared).expect("read");
    assert!(
        out.status.success(),
        "{}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.starts_with("independent_from") && text.contains("# snapshots\n[snapshot]\n"));
    assert!(
        !text.contains("F.999") && text.contains("--record-snapshot`\n"),
        "{text}"
    );
    // The shared table is used: an independent claim is not recorded as a snapshot.
    assert!(!text.contains("\"F.1\" ="), "{text}");
    // An unchanged verdict keeps its line and comment; a changed one is recorded afresh.
    assert!(
        text.contains("\"F.38\" = \"refuted\"  # kept: unchanged\n")
            && !text.contains("# dropped: changed")
            && text.contains("\"F.39\" = \"refuted\"  # recorded by"),
        "{text}"
    );
    // A claim that did not run (no experiments) keeps its recorded line.
    assert!(
        text.contains("\"F.56\" = \"inconclusive\"  # not run here\n"),
        "{text}"
    );
    let both = dir.join("both.toml");
    std::fs::write(
        &both,
        format!(
            "independent_from = {:?}\n[independent]\n\"F.1\" = \"confirmed\"\n[snapshot]\n",
            quick.display().to_string()
        ),
    )
    .expect("written");
    assert_eq!(verify(&both, &["--check"]).status.code(), Some(2));
}

/// Every relative link of both reports (`[text](target)`, external and in-page links aside)
/// resolves, from the report's own folder, to a file or folder that git tracks: a link into a
/// git-ignored cache or a path written for another folder fails here.
#[test]
fn every_relative_link_of_the_reports_resolves_to_a_tracked_file() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .expect("git ls-files");
    assert!(out.status.success(), "git ls-files failed");
    let tracked: std::collections::BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .split('\0')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let resolves =
        |p: &str| tracked.contains(p) || tracked.iter().any(|t| t.starts_with(&format!("{p}/")));
    let mut checked = 0;
    for report in ["REPORT.md", "paper-profile/REPORT.md"] {
        let text = std::fs::read_to_string(root.join(report)).expect("report");
        let base: Vec<&str> = report.rsplit_once('/').map_or(vec![], |(d, _)| vec![d]);
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = rest[..end].split('#').next().unwrap_or("");
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            // Normalise `dir/../x` against the report's folder.
            let mut parts: Vec<&str> = base.clone();
            for c in target.split('/') {
                match c {
                    "." | "" => {}
                    ".." => {
                        assert!(
                            parts.pop().is_some(),
                            "{report}: {target} leaves the repository"
                        );
                    }
                    c => parts.push(c),
                }
            }
            let path = parts.join("/");
            assert!(
                resolves(&path),
                "{report}: the link {target} ({path}) is not a tracked file"
            );
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} links checked");
}
