//! Section 5's conclusions carried to the other instances (App. I, F.75) and AdaP-TT's
//! gap-dependent sub-optimality in high privacy (Sec. 4.3, F.76).
//!
//! App. I runs the algorithms on μ1–μ6 and says that "the additional experiments validate the
//! same conclusions as the ones reached in Section 5". F.50–F.55 judge Section 5 on its own
//! instances μ1, μ2 (and some of its statements on all six); F.75 judges every conclusion of
//! Section 5 that names no instance-specific number on μ3–μ6, one verdict per (instance,
//! conclusion), under both rule sets.

use super::estimates::{
    RatioEst, Z95, distinct_algos, est, fmt_ratio, get, grid, no_grid, ratio, rules_tag,
};
use super::figures::{MATCH_BAND, ctb_slope, dpse_ratios, in_band, off_band, star_pair};
use super::slopes::{BERNOULLI_SIGMA, BETA};
use super::switches::{ORDER_BAND, SwitchRatio, switch_ratio};
use crate::bandit::{AlgoName, Rules};
use crate::claims::dp_bai::evidence::{APP_I_REFERENCE, paper_instances};
use crate::claims::prelude::*;
use crate::complexity::upper::upper_bounds;
use crate::complexity::{t_kl_gaussian_beta, t_tv};
use crate::experiment::grid::GridResults;
use crate::fault::Area;
use crate::instance::Instance;
use crate::numbers::sig;

/// The instances App. I adds to Section 5's μ1, μ2.
const APP_I_INSTANCES: [&str; 4] = ["mu3", "mu4", "mu5", "mu6"];

/// The largest deviation of a log–log slope from the predicted one that still tells ε⁻² from
/// ε⁻¹ and ε⁻³ (F.51's tolerance).
const SLOPE_TOLERANCE: f64 = 0.5;

/// One conclusion on one instance: agreed (its interval on the claim's side), contradicted (on
/// the other side) or undetermined.
#[derive(Clone, Copy, PartialEq)]
enum Outcome {
    Agree,
    Contradict,
    Undetermined,
}

impl Outcome {
    fn of(agree: bool, contradict: bool) -> Outcome {
        match (agree, contradict) {
            (true, _) => Outcome::Agree,
            (false, true) => Outcome::Contradict,
            _ => Outcome::Undetermined,
        }
    }
    fn as_str(self) -> &'static str {
        match self {
            Outcome::Agree => "agrees",
            Outcome::Contradict => "contradicts",
            Outcome::Undetermined => "undetermined",
        }
    }
}

/// The (instance, conclusion) outcomes of F.75, with their evidence.
#[derive(Default)]
struct Tally {
    agree: u32,
    contradict: u32,
    undetermined: u32,
    rows: Vec<String>,
}

impl Tally {
    fn add(&mut self, inst: &str, what: &str, o: Outcome, detail: String) {
        match o {
            Outcome::Agree => self.agree += 1,
            Outcome::Contradict => self.contradict += 1,
            Outcome::Undetermined => self.undetermined += 1,
        }
        self.rows
            .push(format!("{inst} {what}: {} ({detail})", o.as_str()));
    }
}

crate::statistics! {
    /// The statistics of F.75, F.75/ref.
    pub struct F75Stats { instances, checks, agree, contradict, undetermined }
}

/// The rule of F.75 under both rule sets.
const F75_RULE: Rule = Rule {
    confirm: Some("checks > 0 and agree == checks"),
    refute: Some("contradict > 0"),
    decide: Some(
        "more runs, or a finer ε grid around the switches, where a conclusion is undetermined",
    ),
    ..Rule::NONE
};

/// The statistic of F.75 under both rule sets.
const F75_STATISTIC: &str = "instances: μ3–μ6 with cells; checks = agree + contradict + undetermined: one per (instance, conclusion, algorithm) of Section 5's conclusions that name no instance-specific number: (1) CTB-TT matches TTUCB in low privacy: τ(CTB-TT)/τ(TTUCB) at the largest local ε, its 95% interval inside [1/1.1, 1.1] (agrees) or entirely outside (contradicts); (2) CTB-TT's cost is multiplicative in ε⁻²: the log–log slope between the two smallest local ε, with its 95% interval (delta method), within 0.5 of the slope coth²(ε/2) predicts (agrees) or more than 0.5 from it (contradicts; cells with capped runs: undetermined); (3) AdaP-TT(*) does not depend on ε in low privacy: τ at the largest over τ at the next largest global ε inside [1/1.1, 1.1] or outside; (4) it depends on ε in high privacy: τ at the smallest over τ at the largest global ε above 1.1 (agrees) or at most 1.1 (contradicts: flat or falling); (5) AdaP-TT(*) needs fewer samples than DP-SE: every ε's ratio below 1 (agrees), one above 1 (contradicts); (6) AdaP-TT* improves on AdaP-TT in high privacy and equals it in low privacy (paper rules only: under the public code's, AdaP-TT* is AdaP-TT): τ(AdaP-TT*)/τ(AdaP-TT) below 1 at the smallest ε and inside [1/1.1, 1.1] at the largest (agrees), above 1 or outside (contradicts); (7) the local switch is an order of magnitude above the global one: log10 of the switches' ratio (F.55's estimator and grid intervals) inside [0.5, 1.5] with both ends finite (agrees) or entirely outside (contradicts); capped runs are counted at the cap (a lower bound of the mean) and leave the interval open on that side";

/// The fairness of F.75 under both rule sets.
const F75_FAIR: &str = "'the same conclusions as the ones reached in Section 5' on the instances Section 5 does not show: each of its conclusions that names no instance-specific number (the switches 4, 2, 0.1, 0.4 are μ1's and μ2's, F.50 and F.52) is judged with the yardstick its own claim uses on μ1, μ2 (±10% for 'matches' and 'the same', F.50, F.54; a slope within 0.5 for 'multiplicative ε⁻²', F.51; log10 ratio in [0.5, 1.5] for 'an order of magnitude', F.55), each instance separately (a pool never confirms); the low-privacy factor 4 is a δ → 0 statement and is judged on δ-slopes by F.53 and F.71, not here";

/// F.75: App. I's conclusions on μ3–μ6.
pub static F75: Claim<F75Stats> = Claim {
    id: "F.75",
    title: "App. I: Section 5's conclusions on μ3–μ6",
    source: "App. I, Sec. 5",
    statement: "the additional experiments on μ3–μ6 validate the same conclusions as the ones reached in Section 5",
    row: Some(Row {
        claim: "App. I same conclusions",
        formula: "Section 5's conclusions (two regimes, CTB-TT = TTUCB in low privacy, ε⁻², AdaP-TT(*) < DP-SE, AdaP-TT* < AdaP-TT in high privacy, local switch ≈ 10× global) hold on μ3–μ6",
        source: "App. I",
    }),
    wording: None,
    statistic: F75_STATISTIC,
    rule: F75_RULE,
    fair: F75_FAIR,
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Finite,
    check: f75,
};

/// F.75/ref: App. I's conclusions on μ3–μ6 under the public code's rules.
pub static F75_REF: Claim<F75Stats> = Claim {
    id: "F.75/ref",
    title: "App. I: Section 5's conclusions on μ3–μ6",
    source: "App. I, Sec. 5",
    statement: "the additional experiments on μ3–μ6 validate the same conclusions as the ones reached in Section 5",
    row: None,
    wording: None,
    statistic: F75_STATISTIC,
    rule: F75_RULE,
    fair: "the rules of F.75; the paper's figures used these rules (Rem. 53); the cells are the study group `app-i-reference`: the `reference` group's algorithms and ε on μ3–μ6",
    rule_sets: &[RuleSet::Reference],
    regime: Regime::Finite,
    check: f75r,
};

pub(super) fn f75(ctx: &mut Context) -> Checked<F75Stats> {
    let Some(g) = grid(ctx) else {
        return no_grid(ctx);
    };
    conclusions(&ctx.evidence, g, Rules::Paper)
}

pub(super) fn f75r(ctx: &mut Context) -> Checked<F75Stats> {
    let cells = match super::estimates::group(ctx, APP_I_REFERENCE) {
        Ok(c) => c.to_vec(),
        Err(skip) => return skip,
    };
    conclusions(&ctx.evidence, &GridResults { cells }, Rules::Reference)
}

/// F.75's tally on the cells of `g` under `rules`.
fn conclusions(ev: &Evidence, g: &GridResults, rules: Rules) -> Checked<F75Stats> {
    let mut t = Tally::default();
    let mut instances = 0u32;
    let globals = distinct_algos(rules, &[AlgoName::AdapTt, AlgoName::AdapTtStar]);
    for inst in APP_I_INSTANCES {
        let Some(tt) = get(ev, g, inst, AlgoName::Ttucb, None, rules) else {
            continue;
        };
        instances += 1;
        // (1) CTB-TT matches TTUCB at the largest local ε.
        if let Some(&e) = g.eps_of(inst, AlgoName::CtbTt, rules).last()
            && let Some(c) = get(ev, g, inst, AlgoName::CtbTt, Some(e), rules)
        {
            let r = ratio(ev, c, tt);
            let o = Outcome::of(in_band(&r), off_band(&r));
            t.add(
                inst,
                "CTB-TT = TTUCB",
                o,
                format!("ε = {e}: {}", fmt_ratio(r)),
            );
        }
        // (2) CTB-TT's cost multiplicative in ε⁻².
        if let Some(s) = ctb_slope(ev, g, inst, rules) {
            let dev = (s.slope - s.theory).abs();
            let w = Z95 * s.se;
            let o = if s.capped > 0 || !w.is_finite() {
                Outcome::Undetermined
            } else {
                Outcome::of(dev + w < SLOPE_TOLERANCE, dev - w > SLOPE_TOLERANCE)
            };
            t.add(
                inst,
                "CTB-TT ∝ ε⁻²",
                o,
                format!(
                    "slope {} ± {} against {}, {} capped runs",
                    sig(s.slope, 3),
                    sig(w, 2),
                    sig(s.theory, 3),
                    s.capped
                ),
            );
        }
        for &algo in &globals {
            let eps = g.eps_of(inst, algo, rules);
            let at = |e: f64| get(ev, g, inst, algo, Some(e), rules);
            // (3) Flat in low privacy: the two largest ε.
            if let [.., e1, e2] = eps[..]
                && let (Some(a), Some(b)) = (at(e2), at(e1))
            {
                let r = ratio(ev, a, b);
                let o = Outcome::of(in_band(&r), off_band(&r));
                let what = format!("{} flat in low privacy", algo.as_str());
                t.add(
                    inst,
                    &what,
                    o,
                    format!("τ(ε = {e2})/τ(ε = {e1}) = {}", fmt_ratio(r)),
                );
            }
            // (4) Growing in high privacy: the smallest against the largest ε.
            if let (Some(&lo), Some(&hi)) = (eps.first(), eps.last())
                && lo < hi
                && let (Some(a), Some(b)) = (at(lo), at(hi))
            {
                let r = ratio(ev, a, b);
                let o = Outcome::of(r.lo > MATCH_BAND, r.hi <= MATCH_BAND);
                let what = format!("{} depends on ε in high privacy", algo.as_str());
                t.add(
                    inst,
                    &what,
                    o,
                    format!("τ(ε = {lo})/τ(ε = {hi}) = {}", fmt_ratio(r)),
                );
            }
        }
        // (5) AdaP-TT(*) below DP-SE at every ε.
        let to_dpse = dpse_ratios(ev, g, inst, rules);
        for &algo in &globals {
            let cells: Vec<(f64, RatioEst)> = to_dpse
                .iter()
                .filter(|c| c.0 == algo)
                .map(|c| (c.1, c.2))
                .collect();
            if cells.is_empty() {
                continue;
            }
            let below = cells.iter().filter(|c| c.1.hi < 1.0).count();
            let above: Vec<String> = cells
                .iter()
                .filter(|c| c.1.lo > 1.0)
                .map(|c| format!("ε = {}: {}", c.0, fmt_ratio(c.1)))
                .collect();
            let o = Outcome::of(below == cells.len(), !above.is_empty());
            t.add(
                inst,
                &format!("{} < DP-SE", algo.as_str()),
                o,
                format!(
                    "below 1 at {below} of {} ε; above at {}",
                    cells.len(),
                    if above.is_empty() {
                        "none".to_string()
                    } else {
                        above.join(", ")
                    }
                ),
            );
        }
        // (6) AdaP-TT* against AdaP-TT (paper rules).
        if let Some(((lo, a), (hi, b))) = star_pair(ev, g, inst, rules) {
            let o = Outcome::of(a.hi < 1.0 && in_band(&b), a.lo > 1.0 || off_band(&b));
            t.add(
                inst,
                "AdaP-TT* < AdaP-TT (high), = (low)",
                o,
                format!("ε = {lo}: {}, ε = {hi}: {}", fmt_ratio(a), fmt_ratio(b)),
            );
        }
        // (7) The local switch an order of magnitude above the global one.
        for &algo in &globals {
            let Some(SwitchRatio {
                l, gl, r, lo, hi, ..
            }) = switch_ratio(ev, g, inst, algo, rules)
            else {
                continue;
            };
            let (b0, b1) = ORDER_BAND;
            let o = Outcome::of(
                lo.is_finite() && hi.is_finite() && lo >= b0 && hi <= b1,
                lo > b1 || hi < b0,
            );
            t.add(
                inst,
                &format!("local switch ≈ 10× {}'s", algo.as_str()),
                o,
                format!(
                    "{l} / {gl} = 10^{} in 10^[{}, {}]",
                    sig(r, 2),
                    sig(lo, 2),
                    sig(hi, 2)
                ),
            );
        }
    }
    let checks = t.agree + t.contradict + t.undetermined;
    Checked::done(
        format!(
            "{}: {} of {checks} (instance, conclusion) checks agree, {} contradict, {} undetermined: {}",
            rules_tag(rules),
            t.agree,
            t.contradict,
            t.undetermined,
            t.rows.join("; ")
        ),
        F75Stats {
            instances: f64::from(instances),
            checks: f64::from(checks),
            agree: f64::from(t.agree),
            contradict: f64::from(t.contradict),
            undetermined: f64::from(t.undetermined),
        },
    )
}

crate::statistics! {
    /// The statistics of F.76.
    pub struct F76Stats { instances, pairs, agree, contradict, undetermined, wide, wide_reversed }
}

/// How far apart two instances' gap factors must be for F.76 to compare them: the theory's
/// prediction is an order, up to the bounds' constants, so only clearly separated factors
/// (twice, 0.3 decade) are compared.
const GAP_SEPARATION: f64 = 2.0;

/// F.76: AdaP-TT's gap-dependent sub-optimality in high privacy.
pub static F76: Claim<F76Stats> = Claim {
    id: "F.76",
    title: "AdaP-TT's gap-dependent high-privacy excess",
    source: "Sec. 4.3, 1.1.3",
    statement: "as ε → 0 AdaP-TT's upper bound is O(T_KL·Δ_max/ε) against the lower bound Ω(T_TV/ε): it is tight only when T_KL = O(T_TV/Δ_max) (mean gaps of the same order of magnitude); otherwise the plug-in approach is sub-optimal by a problem-dependent factor, which AdaP-TT* removes",
    row: Some(Row {
        claim: "AdaP-TT gap-dependent excess",
        formula: "high privacy: AdaP-TT `O(T_KL·Δ_max/ε)` vs `Ω(T_TV/ε)`; sub-optimal unless `T_KL = O(T_TV/Δ_max)`",
        source: "Sec. 4.3",
    }),
    wording: None,
    statistic: "instances: μ1, μ2, μ4–μ6 (μ3 has means 0 and 1, outside Thm. 22 and 24, which take μ ∈ (0, 1)^K) with a comparison point: the smallest grid ε below 2Δ_min (every arm in the high-privacy regime, F.25) at which the yardstick AdaP-TT* has no capped run; at it R = τ(AdaP-TT)/τ(AdaP-TT*) (AdaP-TT*, above T_TV/ε by Cor. 18 and below a constant multiple of it by Thm. 24, stands for the lower bound) with its 95% interval (capped AdaP-TT runs are counted at the cap: R's lower end stays valid, its upper end is +∞); the gap factor G = T^G_{KL,1/2}(ν)·Δ_max/T_TV(ν) (σ = 1/2, the solver's certified intervals: Thm. 22's ε → 0 bound over the lower bound, up to constants); pairs: ordered instance pairs whose factors are certified apart by a factor 2 or more (G_i's lower end ≥ 2 × G_j's upper end); agree: R_i's interval entirely above R_j's; contradict: R_i's entirely below R_j's; undetermined: the intervals overlap; wide / wide_reversed: the pairs whose factors are also apart by more than the yardstick's slack S_i (Thm. 24's bound for AdaP-TT* over T_TV/ε at instance i's point, T_TV's certified lower end: AdaP-TT*'s cost lies between T_TV/ε and S_i·T_TV/ε, Cor. 18 and Thm. 24), and those among them ordered the other way",
    rule: Rule {
        confirm: Some("pairs > 0 and agree == pairs"),
        refute: Some("wide_reversed > 0"),
        decide: Some(
            "a higher cap at the comparison points (R is open above while AdaP-TT has capped runs), more runs where two intervals of R overlap, or δ-slopes at small ε (the bounds are δ → 0 statements)",
        ),
        ..Rule::NONE
    },
    fair: "the claim is about the gap between Thm. 22's bound and Cor. 18's as ε → 0; its empirical reading is that AdaP-TT's excess over the optimal rate grows with the gap factor G while AdaP-TT*'s does not (Sec. 4.4), so AdaP-TT*'s cost is the yardstick; that yardstick is known only up to a constant (between T_TV/ε, Cor. 18, and a multiple of up to 16 of it, Thm. 24), so the theory predicts an order of R only loosely: pairs whose factors differ by 2× or more are compared, each decided conservatively by non-overlapping 95% intervals, and agreement on every pair confirms; a reversed pair refutes only when its factors are apart by more than the yardstick's slack S_i (then the slack cannot explain the reversal), otherwise it leaves the claim inconclusive; the points are chosen by the regime and by censoring only, never by R",
    rule_sets: &[RuleSet::Paper],
    regime: Regime::Asymptotic,
    check: f76,
};

/// F.76's comparisons of the excesses of `points`.
#[derive(Debug, Default, PartialEq)]
struct Pairs {
    /// Ordered pairs whose gap factors are certified [`GAP_SEPARATION`] apart.
    pairs: u32,
    /// Of those, the pairs whose excesses are ordered as the factors (disjoint intervals).
    agree: u32,
    /// Of those, the pairs ordered the other way.
    contradict: u32,
    /// Pairs whose factors are apart by more than the yardstick's slack `S_i` as well.
    wide: u32,
    /// Of those, the pairs ordered the other way.
    wide_reversed: u32,
    rows: Vec<String>,
}

/// Every ordered pair of `points` whose gap factors are certified [`GAP_SEPARATION`] apart,
/// with its outcome; a pair apart by more than the slack `S_i` of the larger factor's
/// yardstick too is `wide`.
fn order_pairs(points: &[Excess]) -> Pairs {
    let mut p = Pairs::default();
    for i in points {
        for j in points {
            if i.g.0 < GAP_SEPARATION * j.g.1 {
                continue;
            }
            let wide = i.g.0 >= i.slack * j.g.1;
            p.pairs += 1;
            p.wide += u32::from(wide);
            let o = Outcome::of(i.r.lo > j.r.hi, i.r.hi < j.r.lo);
            p.agree += u32::from(o == Outcome::Agree);
            p.contradict += u32::from(o == Outcome::Contradict);
            p.wide_reversed += u32::from(wide && o == Outcome::Contradict);
            p.rows.push(format!(
                "R({}, ε = {}) > R({}, ε = {}): {}{}",
                i.name,
                i.eps,
                j.name,
                j.eps,
                o.as_str(),
                if wide { " (wide)" } else { "" }
            ));
        }
    }
    p
}

/// An instance's solver quantities of F.76: its gap factor `G` (certified ends), `2Δ_min` (the
/// edge of the high-privacy regime) and `T_TV`'s certified lower end.
struct Factor {
    name: &'static str,
    g: (f64, f64),
    edge: f64,
    nu: Instance,
    tv: f64,
}

/// An instance's gap factor `G` (certified lower and upper ends) and excess `R` at `eps` (F.76).
struct Excess {
    name: &'static str,
    g: (f64, f64),
    eps: f64,
    r: RatioEst,
    /// The yardstick's slack `S`: Thm. 24's bound for AdaP-TT* over `T_TV/ε` at `eps`.
    slack: f64,
}

pub(super) fn f76(ctx: &mut Context) -> Checked<F76Stats> {
    // The solver's part first, before the grid (a solver fault reaches it).
    let mut factors: Vec<Factor> = Vec::new();
    let mut gaps = Vec::new();
    for (name, means) in paper_instances() {
        let best = means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let sub: Vec<f64> = means
            .iter()
            .filter(|&&m| m < best)
            .map(|m| best - m)
            .collect();
        let d_max = sub.iter().copied().fold(0.0, f64::max);
        let edge = 2.0 * sub.iter().copied().fold(f64::INFINITY, f64::min);
        if means.iter().any(|&m| m <= 0.0 || m >= 1.0) {
            // Thm. 22 and 24 take Bernoulli means in (0, 1)^K.
            continue;
        }
        let nu = Instance::bernoulli(means).expect("invariant: valid");
        let (Some(tb), Some(tv)) = (
            ctx.evidence
                .certified(t_kl_gaussian_beta(&nu, BERNOULLI_SIGMA, BETA)),
            ctx.evidence.certified(t_tv(&nu)),
        ) else {
            continue;
        };
        let g = (tb.lower * d_max / tv.upper, tb.upper * d_max / tv.lower);
        gaps.push(format!("{name} {}", sig(g.0, 3)));
        factors.push(Factor {
            name,
            g,
            edge,
            nu,
            tv: tv.lower,
        });
    }
    let Some(grid) = grid(ctx) else {
        return no_grid(ctx);
    };
    let mut rows = Vec::new();
    let mut chosen = Vec::new();
    for Factor {
        name,
        g,
        edge,
        nu,
        tv,
    } in factors
    {
        let at = |e: f64, algo: AlgoName| grid.get_rules(name, algo, Some(e), Rules::Paper);
        let point = grid
            .eps_of(name, AlgoName::AdapTt, Rules::Paper)
            .into_iter()
            .filter(|&e| e < edge * (1.0 - 1e-9))
            .find(|&e| {
                matches!(
                    (at(e, AlgoName::AdapTt), at(e, AlgoName::AdapTtStar)),
                    (Some(_), Some(b)) if b.summary.unstopped == 0
                )
            });
        let Some(e) = point else {
            rows.push(format!(
                "{name}: no grid ε below 2Δ_min = {} where AdaP-TT* has no capped run",
                sig(edge, 3)
            ));
            continue;
        };
        let (Some(a), Some(b)) = (
            get(
                &ctx.evidence,
                grid,
                name,
                AlgoName::AdapTt,
                Some(e),
                Rules::Paper,
            ),
            get(
                &ctx.evidence,
                grid,
                name,
                AlgoName::AdapTtStar,
                Some(e),
                Rules::Paper,
            ),
        ) else {
            continue;
        };
        let r = ratio(&ctx.evidence, a, b);
        // T_TV's lower end: the slack is over-, never under-stated.
        let slack = ctx.evidence.value(
            Area::Solver,
            upper_bounds(&nu, e, BETA).map(|u| u.adap_tt_star.thm24_main * e / tv),
        );
        rows.push(format!(
            "{name} (G = {}, S = {}): R at ε = {e} = {} (AdaP-TT mean {})",
            sig(g.0, 3),
            sig(slack, 3),
            fmt_ratio(r),
            sig(est(a).mean, 3)
        ));
        chosen.push(Excess {
            name,
            g,
            eps: e,
            r,
            slack,
        });
    }
    let Pairs {
        pairs,
        agree,
        contradict,
        wide,
        wide_reversed,
        rows: verdicts,
    } = order_pairs(&chosen);
    Checked::done(
        format!(
            "gap factors G = T^G_(KL,1/2)·Δ_max/T_TV: {}; excess R = τ(AdaP-TT)/τ(AdaP-TT*) at the smallest grid ε \
             in the high-privacy regime where AdaP-TT* has no capped run, provable thresholds [95% interval]: {}; pairs with \
             G apart by {GAP_SEPARATION}× or more: {}",
            gaps.join(", "),
            rows.join("; "),
            if verdicts.is_empty() {
                "none".to_string()
            } else {
                verdicts.join(", ")
            }
        ),
        F76Stats {
            instances: chosen.len() as f64,
            pairs: f64::from(pairs),
            agree: f64::from(agree),
            contradict: f64::from(contradict),
            undetermined: f64::from(pairs - agree - contradict),
            wide: f64::from(wide),
            wide_reversed: f64::from(wide_reversed),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::{AnyClaim, ClaimVerdict, judge};

    fn point(name: &'static str, g: f64, lo: f64, hi: f64) -> Excess {
        Excess {
            name,
            g: (g, g),
            eps: 0.05,
            slack: 8.0,
            r: RatioEst {
                r: (lo * hi).sqrt(),
                lo,
                hi,
                num_capped: hi.is_infinite(),
                den_capped: false,
                median_ratio: None,
            },
        }
    }

    /// Only factors twice apart are compared, the larger factor must carry the larger excess:
    /// a reversed pair contradicts, overlapping intervals decide nothing.
    #[test]
    fn pairs_follow_the_gap_factors() {
        let counts = |p: Pairs| (p.pairs, p.agree, p.contradict, p.wide, p.wide_reversed);
        // c against a (4 ≥ 2·1) and b (4 ≥ 2·1.5); a against b is not a pair (1.5 < 2); no pair
        // is apart by more than the slack 8.
        let p = order_pairs(&[
            point("a", 1.0, 3.0, 5.0),
            point("b", 1.5, 4.0, 6.0),
            point("c", 4.0, 6.5, f64::INFINITY),
        ]);
        assert_eq!(counts(p), (2, 2, 0, 0, 0));
        // A reversed pair within the slack contradicts without refuting; beyond it, it refutes.
        let p = order_pairs(&[point("a", 1.0, 3.0, 5.0), point("c", 4.0, 1.0, 2.0)]);
        assert_eq!(counts(p), (1, 0, 1, 0, 0));
        let p = order_pairs(&[point("a", 1.0, 3.0, 5.0), point("c", 9.0, 1.0, 2.0)]);
        assert_eq!(counts(p), (1, 0, 1, 1, 1));
        // Overlapping intervals decide nothing.
        let p = order_pairs(&[point("a", 1.0, 3.0, 5.0), point("c", 4.0, 4.0, 9.0)]);
        assert_eq!(counts(p), (1, 0, 0, 0, 0));
    }

    /// Without cells F.75, F.75/ref and F.76 are errors (`not checkable`), never a verdict on no
    /// evidence; under `--no-experiments` they are skipped.
    #[test]
    fn no_cells_is_not_evidence() {
        for claim in [&F75 as &dyn AnyClaim, &F75_REF, &F76] {
            let mut ctx = Context {
                experiments: true,
                grid: Some(GridResults::default()),
                ..Default::default()
            };
            let r = judge(claim, &mut ctx);
            assert_eq!(
                r.verdict,
                ClaimVerdict::NotCheckable,
                "{}: {}",
                r.id,
                r.note
            );
            let mut ctx = Context::default();
            let r = judge(claim, &mut ctx);
            assert!(!r.ran, "{}: {}", r.id, r.note);
        }
    }
}
