//! Claim checks on trajectories (READINGS.md §E.5; L. 16, 37, 38, 46, 51; Sec. 4.3), from traced runs
//! of the plain step-by-step path ([`crate::bandit::trace`]), and the allocation-convergence
//! figure.

use crate::bandit::info::{PrivacyModel, pure_top_two};
use crate::bandit::trace::{Trace, run_traced};
use crate::bandit::{AlgoName, AlgoSpec, Setting};
use crate::claims::Traces;
use crate::claims::dp_bai::evidence::paper_instances;
use crate::claims::prelude::*;
use crate::divergence::kl_delta;
use crate::error::Result;
use crate::fault::Area;
use crate::instance::Instance;
use crate::numbers::sig;
use crate::params::Delta;
use crate::rng::rng_for_run;

/// ε of the traced private runs.
pub const TRACE_EPS: f64 = 0.5;
/// δ of the traced runs (small, so that runs are long enough to show convergence).
pub const TRACE_DELTA: f64 = 1e-6;
/// Cap of the traced runs on μ4: the engine's default cap.
const CAP: u64 = crate::mc::DEFAULT_MAX_STEPS;

/// Cap of the μ2 starvation probe.
pub const STARVE_CAP: u64 = 2_000_000;

fn mu(i: usize) -> Instance {
    Instance::bernoulli(paper_instances()[i].1.clone()).expect("invariant: paper instance")
}

fn spec(algo: AlgoName, delta: f64, eps: f64) -> AlgoSpec {
    AlgoSpec::new(
        Setting::paper(algo, delta)
            .and_then(|s| s.with_eps(eps))
            .expect("invariant: the paper's δ and ε are in range"),
    )
}

/// Traced runs per algorithm (20 for `quick`, 100 for `paper`; the μ2 probe has twice as many).
fn trace_runs(full: bool) -> u64 {
    if full { 100 } else { 20 }
}

/// Everything the traces depend on, for their cache key: the runs, the instances, every
/// algorithm with its ε, δ, cap, seed and engine semantics.
pub fn inputs(full: bool) -> serde_json::Value {
    let algos: Vec<serde_json::Value> = pure_top_two()
        .map(|algo| {
            serde_json::json!({
                "algo": algo.as_str(),
                "engine": crate::bandit::semantics::semantics(algo).version,
                "eps": if algo.info().privacy == PrivacyModel::Local { 1.0 } else { TRACE_EPS },
                "seed": format!("trace_mu4_{}", algo.as_str()),
            })
        })
        .collect();
    serde_json::json!({
        "runs": trace_runs(full), "delta": TRACE_DELTA, "cap": CAP,
        "mu4": mu(3).means(), "algorithms": algos,
        "starvation": {
            "algo": "adap-tt-star",
            "engine": crate::bandit::semantics::semantics(AlgoName::AdapTtStar).version,
            "mu2": mu(1).means(), "eps": 0.4, "delta": 0.01, "cap": STARVE_CAP,
            "runs": 2 * trace_runs(full), "seed": "trace_mu2_starvation",
        },
    })
}

/// Computes the traces (20 runs per algorithm for `quick`, 100 for `paper`).
pub fn compute(full: bool) -> Result<Traces> {
    let runs = trace_runs(full);
    let nu = mu(3);
    let mut mu4 = Vec::new();
    for algo in pure_top_two() {
        let eps = if algo.info().privacy == PrivacyModel::Local {
            1.0
        } else {
            TRACE_EPS
        };
        let sp = spec(algo, TRACE_DELTA, eps);
        let seed = crate::experiment::seed::fnv1a(&format!("trace_mu4_{}", algo.as_str()));
        let t: Vec<Trace> = (0..runs)
            .map(|r| run_traced(&sp, &nu, &mut rng_for_run(seed, r), CAP))
            .collect::<Result<_>>()?;
        mu4.push((algo, t));
    }
    let sp = spec(AlgoName::AdapTtStar, 0.01, 0.4);
    let seed = crate::experiment::seed::fnv1a("trace_mu2_starvation");
    let mu2_starve = (0..2 * runs)
        .map(|r| run_traced(&sp, &mu(1), &mut rng_for_run(seed, r), STARVE_CAP))
        .collect::<Result<_>>()?;
    Ok(Traces { mu4, mu2_starve })
}

fn traces_in(
    experiments: bool,
    full: bool,
    slot: &mut Option<Traces>,
) -> std::result::Result<&Traces, String> {
    if !experiments {
        return Err(SKIP.into());
    }
    // The traced runs are Monte Carlo evidence: a fault in `mc` empties them here, as it
    // empties the grid at its accessors (they may be computed before the claims, for Fig. 8).
    crate::fault::check(crate::fault::Area::Mc).map_err(|e| e.to_string())?;
    if slot.is_none() {
        *slot = Some(compute(full).map_err(|e| e.to_string())?);
    }
    slot.as_ref().ok_or_else(|| "no traces".to_string())
}

const SKIP: &str = "skipped: --no-experiments";

fn failed<S>(ev: &Evidence, e: String) -> Checked<S> {
    if e == SKIP {
        return Checked::Skipped;
    }
    ev.record(format!("traced runs failed: {e}"));
    Checked::Failed(format!("traced runs failed: {e}"))
}

fn of(t: &Traces, algo: AlgoName) -> &[Trace] {
    t.mu4
        .iter()
        .find(|x| x.0 == algo)
        .map(|x| x.1.as_slice())
        .unwrap_or(&[])
}

crate::statistics! {
    /// The statistics of F.17.
    pub struct F17Stats { min_lhs_over_kl }
}

/// F.17: global change of measure.
pub static F17: Claim<F17Stats> = Claim {
    id: "F.17",
    title: "global change of measure",
    source: "L. 16",
    statement: "for a δ-correct ε-global DP strategy and λ ∈ Alt(ν): ε Σ_a E[N_{τ,a}]·TV(ν_a, λ_a) ≥ kl(1−δ, δ)",
    row: Some(Row {
        claim: "global change of measure",
        formula: "`ε·Σ_a E[N_{τ,a}]·TV(ν_a,λ_a) ≥ kl(1−δ,δ)`",
        source: "L. 16",
    }),
    wording: None,
    statistic: "min_lhs_over_kl: min over AdaP-TT, AdaP-TT* (μ4, ε = 0.5, δ = 1e-6, 20 traced runs; 100 in the paper profile) of ε·min_b min(E[N_a*], E[N_b])Δ_b / kl(1−δ, δ)",
    rule: Rule {
        confirm: Some("min_lhs_over_kl >= 1"),
        ..Rule::NONE
    },
    fair: "a lower bound on the expected counts of any δ-correct ε-DP strategy; the worst alternative makes it the tightest",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Finite,
    check: f17,
};

fn f17(ctx: &mut Context) -> Checked<F17Stats> {
    let t = match traces_in(ctx.experiments, ctx.full, &mut ctx.traces) {
        Ok(t) => t,
        Err(e) => return failed(&ctx.evidence, e),
    };
    let nu = mu(3);
    let s = nu.best();
    let kl = ctx
        .evidence
        .value(Area::Special, Delta::new(TRACE_DELTA).map(kl_delta));
    let mut rows = Vec::new();
    let mut min_margin = f64::INFINITY;
    for algo in [AlgoName::AdapTt, AlgoName::AdapTtStar] {
        let tr = of(t, algo);
        let k = nu.k();
        let mean: Vec<f64> = (0..k)
            .map(|a| tr.iter().map(|x| x.counts[a] as f64).sum::<f64>() / tr.len().max(1) as f64)
            .collect();
        // inf over Alt of Σ_a E[N_a]·|μ_a − λ_a| = min_b min(E[N_a*], E[N_b])·Δ_b
        let lhs = TRACE_EPS
            * (0..k)
                .filter(|&b| b != s)
                .map(|b| mean[s].min(mean[b]) * (nu.best_mean() - nu.means()[b]))
                .fold(f64::INFINITY, f64::min);
        min_margin = min_margin.min(lhs / kl);
        rows.push(format!(
            "{}: {} ≥ {}",
            algo.info().label,
            sig(lhs, 4),
            sig(kl, 4)
        ));
    }
    Checked::done(
        format!(
            "μ4, ε = {TRACE_EPS}, δ = {TRACE_DELTA:e}, {} traced runs each, λ the worst alternative \
             (min_b min(E[N_a*], E[N_b])·Δ_b): {}",
            of(t, AlgoName::AdapTt).len(),
            rows.join("; ")
        ),
        F17Stats {
            min_lhs_over_kl: min_margin,
        },
    )
}

crate::statistics! {
    /// The statistics of F.27.
    pub struct F27Stats { min_deviation, max_deviation, runs }
}

/// F.27: tracking.
pub static F27: Claim<F27Stats> = Claim {
    id: "F.27",
    title: "tracking",
    source: "Sec. 2.2.3; L. 38",
    statement: "|N^a_{n,a} − βL_{n,a}| ≤ 1 for all n > K, a; sharper −1/2 ≤ … ≤ 1",
    row: Some(Row {
        claim: "tracking",
        formula: "`abs(N^a_{n,a} − βL_{n,a}) ≤ 1`; `−½ ≤ N^a_{n,a} − βL_{n,a} ≤ 1`",
        source: "Sec. 2.2.3; L. 38",
    }),
    wording: None,
    statistic: "min_deviation, max_deviation: extremes of N^a_{n,a} − βL_{n,a} over every step of the traced runs (5 algorithms on μ4); runs: traced runs",
    rule: Rule {
        confirm: Some(
            "min_deviation >= -0.500000000001 and max_deviation <= 1.000000000001 and runs > 0",
        ),
        ..Rule::NONE
    },
    fair: "the sharper printed bound −1/2 ≤ … ≤ 1 for every n and a, up to rounding",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Exact,
    check: f27,
};

fn f27(ctx: &mut Context) -> Checked<F27Stats> {
    let t = match traces_in(ctx.experiments, ctx.full, &mut ctx.traces) {
        Ok(t) => t,
        Err(e) => return failed(&ctx.evidence, e),
    };
    let (mut lo, mut hi, mut n) = (f64::INFINITY, f64::NEG_INFINITY, 0u32);
    for (_, tr) in &t.mu4 {
        for x in tr {
            lo = lo.min(x.tracking_min);
            hi = hi.max(x.tracking_max);
            n += 1;
        }
    }
    Checked::done(
        format!(
            "over every step of {n} traced runs (TTUCB, CTB-TT, AdaP-TT, AdaP-TT*, DPA-TT on μ4, β = 1/2): N^a − βL ∈ [{}, {}]",
            sig(lo, 3),
            sig(hi, 3)
        ),
        F27Stats {
            min_deviation: lo,
            max_deviation: hi,
            runs: f64::from(n),
        },
    )
}

crate::statistics! {
    /// The statistics of F.28.
    pub struct F28Stats { max_count_ratio }
}

/// F.28: DAF count factor.
pub static F28: Claim<F28Stats> = Claim {
    id: "F.28",
    title: "DAF count factor",
    source: "Sec. 4.3",
    statement: "N_{n,a} < 4·Ñ_{n,a} (\"a factor at most 4\")",
    row: Some(Row {
        claim: "DAF factor 4",
        formula: "`N_{n,a} < 4·Ñ_{n,a}`",
        source: "Sec. 4.3",
    }),
    wording: None,
    statistic: "max_count_ratio: largest N_{n,a}/Ñ_{n,a} after a switch step over all steps of the AdaP-TT and AdaP-TT* traces",
    rule: Rule {
        confirm: Some("max_count_ratio < 4"),
        ..Rule::NONE
    },
    fair: "the strict inequality as printed, at every step",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Exact,
    check: f28,
};

fn f28(ctx: &mut Context) -> Checked<F28Stats> {
    let t = match traces_in(ctx.experiments, ctx.full, &mut ctx.traces) {
        Ok(t) => t,
        Err(e) => return failed(&ctx.evidence, e),
    };
    let worst = [AlgoName::AdapTt, AlgoName::AdapTtStar]
        .iter()
        .flat_map(|&a| of(t, a).iter().map(|x| x.max_count_ratio))
        .fold(0.0, f64::max);
    Checked::done(
        format!(
            "largest N_{{n,a}}/Ñ_{{n,a}} after the switch step over all steps of the AdaP-TT and AdaP-TT* traces: {}",
            sig(worst, 6)
        ),
        F28Stats {
            max_count_ratio: worst,
        },
    )
}

crate::statistics! {
    /// The statistics of F.29.
    pub struct F29Stats { violations, switches }
}

/// F.29: doubling invariant.
pub static F29: Claim<F29Stats> = Claim {
    id: "F.29",
    title: "doubling invariant",
    source: "L. 37",
    statement: "N_{T_k(a),a} = 2^{k−1}, Ñ_{k,a} = 2^{k−2} (k ≥ 2)",
    row: Some(Row {
        claim: "doubling invariant",
        formula: "`N_{T_k(a),a} = 2^{k−1}`, `Ñ_{k,a} = 2^{k−2}`",
        source: "L. 37",
    }),
    wording: None,
    statistic: "violations: switch steps where the doubling invariant fails; switches: phase switches checked",
    rule: Rule {
        confirm: Some("violations == 0 and switches > 0"),
        ..Rule::NONE
    },
    fair: "an invariant at every switch; at least one switch must be observed for the check to mean anything",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Exact,
    check: f29,
};

fn f29(ctx: &mut Context) -> Checked<F29Stats> {
    let t = match traces_in(ctx.experiments, ctx.full, &mut ctx.traces) {
        Ok(t) => t,
        Err(e) => return failed(&ctx.evidence, e),
    };
    let (mut v, mut switches) = (0, 0);
    // The phased Top Two algorithms (AdaP-TT, AdaP-TT*, DPA-TT).
    let phased = AlgoName::ALL
        .into_iter()
        .filter(|a| a.info().phased && a.info().top_two);
    for a in phased {
        for x in of(t, a) {
            v += x.doubling_violations;
            switches += x.switch_times.iter().map(|s| s.len()).sum::<usize>();
        }
    }
    Checked::done(
        format!(
            "checked after every switch step of the AdaP-TT, AdaP-TT* and DPA-TT traces ({switches} phase switches; \
             DPA: Ñ = 2^{{k−1}}, R.27): {v} violations; k = 1 has Ñ = 1 (R.15)"
        ),
        F29Stats {
            violations: v as f64,
            switches: switches as f64,
        },
    )
}

/// Ratio `(max_a T_last(a) − 1)/(min_a T_last(a) − 1)` at the end of a run (L. 51).
fn round_robin_ratio(x: &Trace) -> f64 {
    let last: Vec<u64> = x
        .switch_times
        .iter()
        .filter_map(|s| s.last().copied())
        .collect();
    if last.len() < x.switch_times.len() {
        return f64::INFINITY;
    }
    let max = last.iter().copied().max().unwrap_or(0) as f64;
    let min = last.iter().copied().min().unwrap_or(0) as f64;
    (max - 1.0) / (min - 1.0)
}

crate::statistics! {
    /// The statistics of F.44.
    pub struct F44Stats { worst_share_le_2_5 }
}

/// F.44: round-robin switching.
pub static F44: Claim<F44Stats> = Claim {
    id: "F.44",
    title: "round-robin switching",
    source: "L. 51",
    statement: "eventually (max_a T_{k_{n,a}}(a) − 1)/(min_a T_{k_{n,a}}(a) − 1) ≤ 2 + η",
    row: Some(Row {
        claim: "round-robin switches",
        formula: "eventually `(max_a T_{k_{n,a}}(a)−1)/(min_a T_{k_{n,a}}(a)−1) ≤ 2+η`",
        source: "L. 51",
    }),
    wording: None,
    statistic: "worst_share_le_2_5: smallest share of traced runs (AdaP-TT, AdaP-TT*; μ4) whose final round-robin ratio is ≤ 2.5",
    rule: Rule {
        not_checkable: Some(
            "'eventually' holds from a random N_1 with finite mean: no finite run can confirm or refute it (the statistic shows the evidence is consistent)",
        ),
        ..Rule::NONE
    },
    fair: "an 'eventually' statement has no finite witness",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Asymptotic,
    check: f44,
};

fn f44(ctx: &mut Context) -> Checked<F44Stats> {
    let t = match traces_in(ctx.experiments, ctx.full, &mut ctx.traces) {
        Ok(t) => t,
        Err(e) => return failed(&ctx.evidence, e),
    };
    let mut rows = Vec::new();
    let mut frac_ok = 1.0f64;
    for a in [AlgoName::AdapTt, AlgoName::AdapTtStar] {
        let mut r: Vec<f64> = of(t, a).iter().map(round_robin_ratio).collect();
        r.sort_by(f64::total_cmp);
        let ok = r.iter().filter(|&&x| x <= 2.5).count() as f64 / r.len().max(1) as f64;
        frac_ok = frac_ok.min(ok);
        rows.push(format!(
            "{}: median {}, max {}, share ≤ 2.5: {}",
            a.info().label,
            r.get(r.len() / 2).map_or("—".into(), |x| sig(*x, 3)),
            r.last().map_or("—".into(), |x| sig(*x, 3)),
            sig(ok, 2)
        ));
    }
    Checked::done(
        format!(
            "ratio at τ on μ4 (ε = {TRACE_EPS}, δ = {TRACE_DELTA:e}): {} (worst share {}). 'Eventually', for n ≥ a \
             random N_1 with finite mean: no finite run can confirm or refute it; the evidence is consistent",
            rows.join("; "),
            sig(frac_ok, 2)
        ),
        F44Stats {
            worst_share_le_2_5: frac_ok,
        },
    )
}

crate::statistics! {
    /// The statistics of F.45.
    pub struct F45Stats { mu4_runs_settled_min_share, mu2_starved_best, tied_arms_outside_assumption }
}

/// F.45: sufficient exploration.
pub static F45: Claim<F45Stats> = Claim {
    id: "F.45",
    title: "sufficient exploration",
    source: "L. 46",
    statement: "for distinct means, eventually N_{n,a} ≥ sqrt(n/K) for all a",
    row: Some(Row {
        claim: "sufficient exploration",
        formula: "eventually `N_{n,a} ≥ sqrt(n/K)`",
        source: "L. 46",
    }),
    wording: None,
    statistic: "mu4_runs_settled_min_share: smallest share of traced runs whose last violation of min_a N_a ≥ sqrt(n/K) is before τ/2; mu2_starved_best: capped μ2 runs (tied arms) with the best arm starved",
    rule: Rule {
        not_checkable: Some(
            "'eventually' (n ≥ a random N_0 with finite mean) has no finite witness; μ2's starvation lies outside the lemma's distinct-means assumption",
        ),
        ..Rule::NONE
    },
    fair: "an 'eventually' statement has no finite witness",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Asymptotic,
    check: f45,
};

fn f45(ctx: &mut Context) -> Checked<F45Stats> {
    let t = match traces_in(ctx.experiments, ctx.full, &mut ctx.traces) {
        Ok(t) => t,
        Err(e) => return failed(&ctx.evidence, e),
    };
    let mut rows = Vec::new();
    let mut settled_min = f64::INFINITY;
    for a in [AlgoName::AdapTt, AlgoName::AdapTtStar] {
        let tr = of(t, a);
        let ok = tr
            .iter()
            .filter(|x| x.last_exploration_violation * 2 < x.outcome.tau)
            .count();
        settled_min = settled_min.min(ok as f64 / tr.len().max(1) as f64);
        rows.push(format!("{}: {ok}/{} runs", a.info().label, tr.len()));
    }
    let starved = t.mu2_starve.iter().filter(|x| !x.outcome.stopped).count();
    let starved_best = t
        .mu2_starve
        .iter()
        .filter(|x| !x.outcome.stopped && x.counts[0] as f64 <= (x.outcome.tau as f64 / 5.0).sqrt())
        .count();
    Checked::done(
        format!(
            "μ4 (distinct means): runs whose last violation of min_a N_a ≥ sqrt(n/K) is before τ/2: {}. On μ2 (tied \
             arms, outside the lemma's assumption), AdaP-TT* with ε = 0.4: {starved} of {} runs unstopped at {STARVE_CAP} \
             samples, {starved_best} of them with the best arm's count below sqrt(n/K) (starved for good, see \
             Findings). On μ4 some arms are starved for most of a run and then catch up: consistent with \
             'eventually' (n ≥ a random N_0 with finite mean), which no finite run can confirm or refute",
            rows.join(", "),
            t.mu2_starve.len()
        ),
        F45Stats {
            mu4_runs_settled_min_share: settled_min,
            mu2_starved_best: starved_best as f64,
            tied_arms_outside_assumption: flag(true),
        },
    )
}
