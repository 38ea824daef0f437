//! Claim checks against the Monte Carlo experiment grid (MATH.md F.40–F.42, F.50–F.57).
//!
//! Comparisons of two cells use the means over stopped runs and a two-sided z-interval
//! `ratio ± 2·se` (delta method); cells with capped runs are named. The grid runs the paper's
//! **provable** thresholds, whereas the paper's figures used unpublished empirical thresholds
//! (Rem. 53, ISSUE 32): a claim about the figures that fails here says so.

use super::{claim as result, paper_instances, sig, skipped, Check, ClaimResult, Context, Verdict};
use crate::bandit::{AlgoName, DpaEpisodes};
use crate::complexity::{
    eps_switch_global, eps_switch_local, log_factor, t_kl_gaussian_beta, t_local,
};
use crate::instance::Instance;
use crate::mc::stats::cp_upper;
use crate::report::paper::experiments::CellResult;
use crate::report::paper::grid::{GridResults, DPA_DELTAS};

/// The checks of this module.
pub fn checks() -> Vec<Check> {
    vec![f40, f41, f42, f50, f51, f52, f53, f54, f55, f56, f57]
}

fn no_grid(
    id: &'static str,
    title: &'static str,
    source: &'static str,
    paper: &str,
) -> ClaimResult {
    skipped(id, title, source, paper)
}

/// Mean over stopped runs, its standard error, and the number of stopped runs.
fn stat(c: &CellResult) -> (f64, f64, u64) {
    let n = c.summary.runs - c.summary.unstopped;
    let m = c.summary.mean_tau_stopped.unwrap_or(f64::NAN);
    let s = c.std_tau_stopped.unwrap_or(f64::NAN);
    (m, s / (n.max(1) as f64).sqrt(), n)
}

/// Ratio of the means of two cells and its delta-method standard error.
fn ratio(a: &CellResult, b: &CellResult) -> (f64, f64) {
    let (ma, sa, _) = stat(a);
    let (mb, sb, _) = stat(b);
    let r = ma / mb;
    (r, r * ((sa / ma).powi(2) + (sb / mb).powi(2)).sqrt())
}

fn fmt_ratio((r, se): (f64, f64)) -> String {
    format!("{} ± {}", sig(r, 3), sig(2.0 * se, 2))
}

fn grid(ctx: &Context) -> Option<&GridResults> {
    ctx.grid.as_ref()
}

fn eps_of(g: &GridResults, inst: &str, algo: AlgoName) -> Vec<f64> {
    let mut v: Vec<f64> = g
        .cells
        .iter()
        .filter(|c| c.cell.instance == inst && c.cell.algo == algo)
        .filter_map(|c| c.cell.eps)
        .collect();
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}

fn f40(ctx: &mut Context) -> ClaimResult {
    let (id, t, s, p) = (
        "F.40",
        "DP-SE complexity",
        "Sec. 4.4",
        "per arm O(Δ_a^2 + (εΔ_a)^{-1}) (printed), total τ = O(Σ_{a≠a*} Δ_a^{-2} + Σ_{a≠a*} (εΔ_a)^{-1})",
    );
    let Some(g) = grid(ctx) else {
        return no_grid(id, t, s, p);
    };
    let mut ratios = Vec::new();
    for (name, means) in paper_instances() {
        let nu = Instance::bernoulli(means).expect("invariant: valid");
        let gaps = nu.suboptimal_gaps();
        for e in eps_of(g, name, AlgoName::DpSe) {
            if let Some(c) = g.get(name, AlgoName::DpSe, Some(e)) {
                let rate: f64 = gaps.iter().map(|d| 1.0 / (d * d) + 1.0 / (e * d)).sum();
                ratios.push(stat(c).0 / rate);
            }
        }
    }
    let lo = ratios.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = ratios.iter().cloned().fold(0.0, f64::max);
    result(
        id,
        t,
        s,
        p,
        format!(
            "mean τ(DP-SE) / (Σ Δ_a^{{-2}} + Σ (εΔ_a)^{{-1}}) over μ1–μ6 × the ε grid ({} cells) stays in [{}, {}] \
             (a bounded constant, as an O(·) statement needs); the per-arm exponent is a typo: Δ_a^{{-2}} \
             (ISSUE 25)",
            ratios.len(),
            sig(lo, 3),
            sig(hi, 3)
        ),
        if hi / lo < 50.0 { Verdict::ConfirmedAsCorrected } else { Verdict::Refuted },
    )
}

fn f41(ctx: &mut Context) -> ClaimResult {
    let (id, t, s, p) = (
        "F.41",
        "rounds of adaptivity",
        "App. H, Rem. 25",
        "E[C(τ)] ≤ K·log2 E[τ]; with one global episode ≤ log2 E[τ]",
    );
    let Some(g) = grid(ctx) else {
        return no_grid(id, t, s, p);
    };
    let mut holds = true;
    let mut worst: f64 = 0.0;
    let mut n = 0;
    for c in &g.cells {
        if !matches!(
            c.cell.algo,
            AlgoName::AdapTt | AlgoName::AdapTtStar | AlgoName::DpaTt
        ) || c.cell.dpa_episodes != DpaEpisodes::PerArm
        {
            continue;
        }
        if let Some(r) = c.summary.mean_rounds {
            let bound = c.cell.means.len() as f64 * c.summary.mean_tau.log2();
            holds &= r <= bound;
            worst = worst.max(r / bound);
            n += 1;
        }
    }
    result(
        id,
        t,
        s,
        p,
        format!(
            "per-arm phases (AdaP-TT, AdaP-TT*, DPA-TT), {n} cells: max of mean C(τ) / (K log2 mean τ) = {}; {}",
            sig(worst, 3),
            global_episodes_evidence(g)
        ),
        if holds && n > 0 { Verdict::Confirmed } else { Verdict::Refuted },
    )
}

/// F.41's second part: DPA-TT with one global episode counter (MATH.md D.8).
fn global_episodes_evidence(g: &GridResults) -> String {
    let Some(c) = g.dpa_global() else {
        return "the global-episode variant (D.8) is not in this grid".into();
    };
    let sm = &c.summary;
    let per_arm = g.get_delta(&c.cell.instance, AlgoName::DpaTt, None, c.cell.delta);
    let stopped = sm.runs - sm.unstopped;
    format!(
        "global-episode variant (D.8, TTUCB sampling) on {} at δ = {}: {} of {} runs still running at the cap of \
         {} samples (per-arm DPA-TT: {} of {}), mean C = {}. With frozen estimates the Top Two rule can keep \
         pulling the same two arms (a challenger whose estimate ties or beats the leader's has cost 0 for ever), \
         so an arm that has not doubled never does and the episode never closes: E[τ] = ∞ and the bound \
         C(τ) ≤ log2 E[τ] holds only vacuously{}",
        c.cell.instance,
        c.cell.delta,
        sm.unstopped,
        sm.runs,
        sig(c.cell.max_steps as f64, 2),
        per_arm.map_or("—".to_string(), |p| p.summary.unstopped.to_string()),
        per_arm.map_or("—".to_string(), |p| p.summary.runs.to_string()),
        sm.mean_rounds.map_or("—".to_string(), |r| sig(r, 3)),
        if stopped > 0 {
            format!(
                "; its {stopped} stopped runs: mean τ {}",
                sm.mean_tau_stopped.map_or("—".to_string(), |m| sig(m, 4))
            )
        } else {
            String::new()
        }
    )
}

fn f42(ctx: &mut Context) -> ClaimResult {
    let (id, t, s, p) = (
        "F.42",
        "DPA / BBAI",
        "App. H",
        "limsup E[τ]/log(1/δ) ≤ 2T^G_β; limsup(E[C(τ)] − K log2 log(1/δ)) ≤ K log2(2T^G_β)",
    );
    let Some(g) = grid(ctx) else {
        return no_grid(id, t, s, p);
    };
    let nu = Instance::bernoulli(paper_instances()[3].1.clone()).expect("invariant: valid");
    let tb = t_kl_gaussian_beta(&nu, 0.5, 0.5)
        .map(|c| c.value)
        .unwrap_or(f64::NAN);
    let k = nu.k() as f64;
    let mut rows = Vec::new();
    let mut last = (f64::NAN, f64::NAN);
    for &d in &DPA_DELTAS {
        if let Some(c) = g.get_delta("mu4", AlgoName::DpaTt, None, d) {
            let l = (1.0 / d).ln();
            let per = c.summary.mean_tau / l;
            let rounds = c.summary.mean_rounds.unwrap_or(f64::NAN) - k * l.log2();
            rows.push(format!(
                "δ = {d:e}: E[τ]/log(1/δ) = {}, E[C] − K log2 log(1/δ) = {}",
                sig(per, 4),
                sig(rounds, 3)
            ));
            last = (per, rounds);
        }
    }
    let decreasing = {
        let v: Vec<f64> = DPA_DELTAS
            .iter()
            .filter_map(|&d| g.get_delta("mu4", AlgoName::DpaTt, None, d))
            .map(|c| c.summary.mean_tau / (1.0 / c.cell.delta).ln())
            .collect();
        v.windows(2).all(|w| w[1] < w[0])
    };
    result(
        id,
        t,
        s,
        p,
        format!(
            "DPA-TT on μ4 (distinct means), β = 1/2: {}; bounds 2T^G_{{1/2}} = {} and K log2(2T^G_{{1/2}}) = {}. \
             E[τ]/log(1/δ) decreases along δ → 0: {decreasing}; at δ = 1e-16 it is {} and the rounds term {}. \
             Both are limsup statements as δ → 0, which no finite δ can confirm or refute (MATH.md E)",
            rows.join("; "),
            sig(2.0 * tb, 5),
            sig(k * (2.0 * tb).log2(), 4),
            sig(last.0, 4),
            sig(last.1, 3)
        ),
        Verdict::NotCheckable,
    )
}

fn f50(ctx: &mut Context) -> ClaimResult {
    let (id, t, s, p) = (
        "F.50",
        "Fig. 1 local regime switch",
        "Sec. 5.1",
        "CTB-TT matches TTUCB exactly for ε > 4 (μ1) and ε > 2 (μ2)",
    );
    let Some(g) = grid(ctx) else {
        return no_grid(id, t, s, p);
    };
    let mut rows = Vec::new();
    let mut tests: Vec<(String, (f64, f64))> = Vec::new();
    for (inst, from) in [("mu1", 4.0), ("mu2", 2.0)] {
        let Some(tt) = g.get(inst, AlgoName::Ttucb, None) else {
            continue;
        };
        for e in eps_of(g, inst, AlgoName::CtbTt) {
            if e < from {
                continue;
            }
            if let Some(c) = g.get(inst, AlgoName::CtbTt, Some(e)) {
                let r = ratio(c, tt);
                let coth2 = 1.0 / (0.5 * e).tanh().powi(2);
                if e > from {
                    tests.push((format!("{inst} ε = {e}"), r));
                }
                rows.push(format!(
                    "{inst} ε = {e}: τ(CTB-TT)/τ(TTUCB) = {} (theory coth²(ε/2) = {})",
                    fmt_ratio(r),
                    sig(coth2, 4)
                ));
            }
        }
    }
    // Family of tests "ratio = 1" above the stated ε: Bonferroni at a family level of 5%.
    let z = bonferroni_z(tests.len().max(1), 0.05);
    let off: Vec<String> = tests
        .iter()
        .filter(|(_, (r, se))| (r - 1.0).abs() > z * se)
        .map(|(l, _)| l.clone())
        .collect();
    let holds = !tests.is_empty() && off.is_empty();
    result(
        id,
        t,
        s,
        p,
        format!(
            "{} (± 2 s.e.); ratios above the stated ε farther than {} s.e. from 1 (Bonferroni over {}, family \
             level 5%): {}",
            rows.join("; "),
            sig(z, 3),
            tests.len(),
            if off.is_empty() { "none".to_string() } else { off.join(", ") }
        ),
        if holds { Verdict::Confirmed } else { Verdict::Refuted },
    )
}

/// Two-sided Bonferroni critical value: `z` with `P(|N(0,1)| > z) = alpha/m`.
fn bonferroni_z(m: usize, alpha: f64) -> f64 {
    let target = alpha / m as f64;
    let (mut lo, mut hi) = (0.0f64, 40.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        // P(|Z| > z) = erfc(z/√2)
        if crate::special::erfc(mid / std::f64::consts::SQRT_2) > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

fn f51(ctx: &mut Context) -> ClaimResult {
    let (id, t, s, p) = (
        "F.51",
        "Fig. 1 high-privacy cost",
        "Sec. 5.1",
        "the cost of local privacy is multiplicative in ε^{-2}",
    );
    let Some(g) = grid(ctx) else {
        return no_grid(id, t, s, p);
    };
    let mut rows = Vec::new();
    let mut holds = true;
    for (name, _) in paper_instances() {
        let e = eps_of(g, name, AlgoName::CtbTt);
        if e.len() < 2 {
            continue;
        }
        let (e0, e1) = (e[0], e[1]);
        let (Some(a), Some(b)) = (
            g.get(name, AlgoName::CtbTt, Some(e0)),
            g.get(name, AlgoName::CtbTt, Some(e1)),
        ) else {
            continue;
        };
        let slope = (stat(b).0 / stat(a).0).ln() / (e1 / e0).ln();
        let theory = ((0.5 * e0).tanh() / (0.5 * e1).tanh()).powi(2).ln() / (e1 / e0).ln();
        holds &= (slope - theory).abs() < 0.5;
        rows.push(format!(
            "{name}: {} (coth² predicts {})",
            sig(slope, 3),
            sig(theory, 3)
        ));
    }
    result(
        id,
        t,
        s,
        p,
        format!(
            "log–log slope of mean τ(CTB-TT) between the two smallest ε of the grid: {}",
            rows.join(", ")
        ),
        if holds {
            Verdict::Confirmed
        } else {
            Verdict::Refuted
        },
    )
}

/// Smallest ε of the grid from which the mean τ stays within a factor 1.5 of its value at the
/// largest ε (an operational "end of the high-privacy regime").
fn empirical_switch(g: &GridResults, inst: &str, algo: AlgoName) -> Option<f64> {
    let eps = eps_of(g, inst, algo);
    let plateau = stat(g.get(inst, algo, eps.last().copied())?).0;
    let mut sw = *eps.last()?;
    for &e in eps.iter().rev() {
        let m = stat(g.get(inst, algo, Some(e))?).0;
        if m <= 1.5 * plateau {
            sw = e;
        } else {
            break;
        }
    }
    Some(sw)
}

fn f52(ctx: &mut Context) -> ClaimResult {
    let (id, t, s, p) = (
        "F.52",
        "Fig. 2 global regime switch",
        "Sec. 5.2",
        "high-privacy regime for ε < 0.1 (μ1) and ε < 0.4 (μ2)",
    );
    let Some(g) = grid(ctx) else {
        return no_grid(id, t, s, p);
    };
    let mut rows = Vec::new();
    let mut holds = true;
    for (inst, paper) in [("mu1", 0.1), ("mu2", 0.4)] {
        let nu = Instance::bernoulli(
            paper_instances()
                .into_iter()
                .find(|x| x.0 == inst)
                .expect("known")
                .1,
        )
        .expect("valid");
        let th = eps_switch_global(&nu).unwrap_or(f64::NAN);
        for algo in [AlgoName::AdapTtStar, AlgoName::AdapTt] {
            let e = empirical_switch(g, inst, algo).unwrap_or(f64::NAN);
            holds &= e <= 2.0 * paper && e >= paper / 2.0;
            rows.push(format!(
                "{inst} {}: empirical switch {} (paper ≈ {paper}, theory ε_g* = {})",
                algo.as_str(),
                e,
                sig(th, 3)
            ));
        }
    }
    result(
        id,
        t,
        s,
        p,
        format!(
            "switch = smallest grid ε from which mean τ stays within 1.5× its value at the largest ε: {}; \
             verdict: within a factor 2 of the paper's values",
            rows.join("; ")
        ),
        if holds { Verdict::Confirmed } else { Verdict::Refuted },
    )
}

fn f53(ctx: &mut Context) -> ClaimResult {
    let (id, t, s, p) = (
        "F.53",
        "Fig. 2 low-privacy cost",
        "Sec. 5.2",
        "in low privacy AdaP-TT and AdaP-TT* need four times the samples of TTUCB in the worst case, as shown theoretically",
    );
    let Some(g) = grid(ctx) else {
        return no_grid(id, t, s, p);
    };
    let mut rows = Vec::new();
    let mut worst: [f64; 2] = [0.0, 0.0];
    for (name, _) in paper_instances() {
        let Some(tt) = g.get(name, AlgoName::Ttucb, None) else {
            continue;
        };
        for (i, algo) in [AlgoName::AdapTtStar, AlgoName::AdapTt]
            .into_iter()
            .enumerate()
        {
            let e = eps_of(g, name, algo);
            if let Some(c) = e.last().and_then(|&x| g.get(name, algo, Some(x))) {
                let r = ratio(c, tt);
                worst[i] = worst[i].max(r.0);
                rows.push(format!("{name} {}: {}", algo.as_str(), fmt_ratio(r)));
            }
        }
    }
    result(
        id,
        t,
        s,
        p,
        format!(
            "τ(algorithm)/τ(TTUCB) at the largest ε of the grid: {}; worst case AdaP-TT* {}×, AdaP-TT {}× \
             (theory: 4× for AdaP-TT*, 8× for AdaP-TT versus T^G_β, Thm. 22/24; plus the larger thresholds at δ = 0.01)",
            rows.join(", "),
            sig(worst[0], 3),
            sig(worst[1], 3)
        ),
        if worst[0] <= 4.0 && worst[1] <= 4.0 { Verdict::Confirmed } else { Verdict::Refuted },
    )
}

fn f54(ctx: &mut Context) -> ClaimResult {
    let (id, t, s, p) = (
        "F.54",
        "Fig. 2/4/5 ordering",
        "Sec. 5.2, App. I",
        "AdaP-TT and AdaP-TT* need fewer samples than DP-SE for every ε and instance; AdaP-TT* < AdaP-TT in high privacy, equal in low privacy",
    );
    let Some(g) = grid(ctx) else {
        return no_grid(id, t, s, p);
    };
    let (mut beat, mut total) = (0, 0);
    let mut worse = Vec::new();
    let mut star_rows = Vec::new();
    for (name, _) in paper_instances() {
        for e in eps_of(g, name, AlgoName::DpSe) {
            let Some(se) = g.get(name, AlgoName::DpSe, Some(e)) else {
                continue;
            };
            for algo in [AlgoName::AdapTt, AlgoName::AdapTtStar] {
                if let Some(c) = g.get(name, algo, Some(e)) {
                    total += 1;
                    let r = ratio(c, se);
                    if r.0 + 2.0 * r.1 < 1.0 {
                        beat += 1;
                    } else {
                        worse.push(format!("{name} {} ε={e}: {}", algo.as_str(), fmt_ratio(r)));
                    }
                }
            }
        }
        let e = eps_of(g, name, AlgoName::AdapTtStar);
        if let (Some(&lo), Some(&hi)) = (e.first(), e.last()) {
            let at = |x: f64| -> Option<(f64, f64)> {
                Some(ratio(
                    g.get(name, AlgoName::AdapTtStar, Some(x))?,
                    g.get(name, AlgoName::AdapTt, Some(x))?,
                ))
            };
            if let (Some(a), Some(b)) = (at(lo), at(hi)) {
                star_rows.push(format!(
                    "{name}: ε = {lo}: {}, ε = {hi}: {}",
                    fmt_ratio(a),
                    fmt_ratio(b)
                ));
            }
        }
    }
    let shown: Vec<String> = worse.iter().take(6).cloned().collect();
    result(
        id,
        t,
        s,
        p,
        format!(
            "AdaP-TT(*) significantly below DP-SE in {beat} of {total} (instance, ε, algorithm) cells; not below in \
             e.g. {}; τ(AdaP-TT*)/τ(AdaP-TT) at the smallest and largest ε: {} (provable thresholds; the paper's \
             figures used empirical ones)",
            if shown.is_empty() { "none".to_string() } else { shown.join(", ") },
            star_rows.join("; ")
        ),
        if beat == total && total > 0 { Verdict::Confirmed } else { Verdict::Refuted },
    )
}

fn f55(ctx: &mut Context) -> ClaimResult {
    let (id, t, s, p) = (
        "F.55",
        "local vs global switch",
        "Sec. 5.1",
        "the local regime switch is an order of magnitude larger than the global one",
    );
    let mut rows = Vec::new();
    let mut holds = true;
    for (name, means) in paper_instances() {
        let nu = Instance::bernoulli(means).expect("invariant: valid");
        let (l, gl) = (
            eps_switch_local(&nu).unwrap_or(f64::NAN),
            eps_switch_global(&nu).unwrap_or(f64::NAN),
        );
        let r = l / gl;
        if name == "mu1" || name == "mu2" {
            holds &= (10f64.sqrt()..=10f64.powf(1.5)).contains(&r);
        }
        rows.push(format!("{name} {}", sig(r, 3)));
    }
    let emp = grid(ctx).map(|g| {
        let l = empirical_switch(g, "mu1", AlgoName::CtbTt).unwrap_or(f64::NAN);
        let gl = empirical_switch(g, "mu1", AlgoName::AdapTtStar).unwrap_or(f64::NAN);
        format!(
            "; empirical switches on μ1 (CTB-TT / AdaP-TT*): {} / {}",
            l, gl
        )
    });
    result(
        id,
        t,
        s,
        p,
        format!(
            "theoretical ε_ℓ*/ε_g*: {}{}; the paper's own switches give 4/0.1 = 40 (μ1) and 2/0.4 = 5 (μ2); verdict on μ1, μ2 (the instances of Figures 1–2 the statement is about): within half a decade of 10 — but not a general fact (μ3, μ5 have ratios near 1)",
            rows.join(", "),
            emp.unwrap_or_default()
        ),
        if holds {
            Verdict::Confirmed
        } else {
            Verdict::Refuted
        },
    )
}

fn f56(ctx: &mut Context) -> ClaimResult {
    let (id, t, s, p) = (
        "F.56",
        "empirical δ-correctness",
        "App. I",
        "error frequency ≤ δ = 0.01 over 1000 runs for every algorithm",
    );
    let Some(g) = grid(ctx) else {
        return no_grid(id, t, s, p);
    };
    let (mut errors, mut runs, mut unstopped) = (0u64, 0u64, 0u64);
    let mut violated = Vec::new();
    // The paper's algorithms (not the D.8 variant, which F.41 covers).
    let paper_cells = g
        .cells
        .iter()
        .filter(|c| c.cell.delta == 0.01 && c.cell.dpa_episodes == DpaEpisodes::PerArm);
    for c in paper_cells {
        errors += c.summary.errors;
        runs += c.summary.runs;
        unstopped += c.summary.unstopped;
        if c.summary.error_ci[0] > c.cell.delta {
            violated.push(c.cell.key());
        }
    }
    let up = cp_upper(errors, runs, 0.05).unwrap_or(f64::NAN);
    result(
        id,
        t,
        s,
        p,
        format!(
            "{errors} wrong answers in {runs} runs over all δ = 0.01 cells (pooled 95% upper bound {}); cells whose \
             95% interval lies above δ: {}; {unstopped} runs hit the step cap (see the starvation finding). \
             Provable thresholds here; the paper's runs used empirical ones",
            sig(up, 3),
            if violated.is_empty() { "none".to_string() } else { violated.join(", ") }
        ),
        if violated.is_empty() && up <= 0.01 { Verdict::Confirmed } else { Verdict::Refuted },
    )
}

fn f57(ctx: &mut Context) -> ClaimResult {
    let (id, t, s, p) = (
        "F.57",
        "local feasibility",
        "Sec. 5.1",
        "local-DP sample complexity is prohibitive for ε < 0.1",
    );
    let lf = log_factor(0.01).unwrap_or(f64::NAN);
    let mut rows = Vec::new();
    for (name, means) in paper_instances().into_iter().take(2) {
        let nu = Instance::bernoulli(means).expect("invariant: valid");
        for e in [0.1, 0.05, 0.01] {
            let lb = t_local(&nu, e).map(|c| c.value * lf).unwrap_or(f64::NAN);
            rows.push(format!("{name} ε = {e}: ≥ {} samples", sig(lb, 3)));
        }
    }
    let ratio_note = grid(ctx)
        .and_then(|g| {
            let e = eps_of(g, "mu1", AlgoName::CtbTt);
            let c = g.get("mu1", AlgoName::CtbTt, e.first().copied())?;
            let nu = Instance::bernoulli(paper_instances()[0].1.clone()).ok()?;
            let lb = t_local(&nu, e[0]).ok()?.value * lf;
            Some(format!(
                "; CTB-TT needed {}× the lower bound at ε = {} on μ1",
                sig(stat(c).0 / lb, 3),
                e[0]
            ))
        })
        .unwrap_or_default();
    result(
        id,
        t,
        s,
        p,
        format!(
            "lower bound T_ℓ(μ;ε)·log(1/(2.4δ)) per run: {}{ratio_note}; at the public code's 120–230 µs per \
             sample, one run at ε = 0.01 takes at least hours",
            rows.join(", ")
        ),
        Verdict::Confirmed,
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn bonferroni_critical_values() {
        // Φ^{-1}(0.975) = 1.959964; Φ^{-1}(1 − 0.05/14) = 2.690
        assert!((super::bonferroni_z(1, 0.05) - 1.959964).abs() < 1e-5);
        assert!((super::bonferroni_z(7, 0.05) - 2.690).abs() < 1e-3);
    }
}
