//! Screening points seeded by the threshold's own expression: where it is smallest relative to
//! the algorithm's provable preset, turned into instances whose runs reach those counts.
//!
//! # Definition
//! For the preset `P` of the algorithm's lemma ([`crate::bandit::info::AlgoInfo::paper_preset`]) and
//! the user threshold `E`, the ratio `E/P` is evaluated at `na = nb = n`, `t = K n`,
//! `ka = kb = k(n)`, `gap = 0`, for `n` on a grid of powers of `√2` up to `max_steps/K`, at the
//! ends of the `K`, `δ` and `ε` ranges and for each family searched; the four smallest ratios
//! (distinct `n`) become seeds. A failed dominance proof's counterexample (a small budget of
//! boxes) is a fifth. Two arms compared `n` times each have
//! `W = gap²·n/(4σ²)` (the Gaussian GLR statistic with equal counts), so a run reaches the
//! threshold near count `n` when `gap ≈ 2σ·√(E(n)/n)`: that gap (clamped to the space) is the
//! seed's, with all other arms tied at the runner-up and, for the largest `K`, also a low-mean
//! tail.

use super::config::SearchConfig;
use super::space::SpaceFamily;
use crate::bandit::{AlgoName, Rules, ThresholdVars};
use crate::threshold::dominance::{
    Dominance, DominanceConfig, ProofFamily, RunDomain, RunParameters, dominates,
};
use crate::threshold::expr::{ThresholdExpr, parse_threshold};

/// Boxes of the dominance analysis behind a seed.
const SEED_BOXES: u64 = 2_000;

fn preset_of(algo: AlgoName) -> Option<&'static str> {
    algo.info().paper_preset.map(|p| p.name)
}

/// A seed point of the space's coordinates.
struct Seed {
    ratio: f64,
    n: f64,
    k: usize,
    delta: f64,
    eps: Option<f64>,
    gaussian: bool,
    value: f64,
}

/// The seeds of `cfg` (module docs); empty without a user threshold or a preset for the
/// algorithm.
pub(super) fn seeds(cfg: &SearchConfig) -> Vec<Vec<f64>> {
    let Some(e) = &cfg.audit.threshold else {
        return vec![];
    };
    let Some(pname) = preset_of(cfg.audit.setting.algo) else {
        return vec![];
    };
    let Ok(p) = parse_threshold(pname) else {
        return vec![];
    };
    let sp = &cfg.space;
    let deltas: Vec<f64> = match sp.delta {
        Some((lo, hi)) => vec![lo, hi],
        None => vec![cfg.delta],
    };
    let epss: Vec<Option<f64>> = match sp.eps {
        Some((lo, hi)) => vec![Some(lo), Some(hi)],
        None => vec![None],
    };
    let fams: Vec<(bool, f64)> = match sp.family {
        SpaceFamily::Bernoulli => vec![(false, 0.5)],
        SpaceFamily::Gaussian { sigma } => vec![(true, sigma)],
        SpaceFamily::Both { sigma } => vec![(false, 0.5), (true, sigma)],
    };
    let rule_sigma = |s: f64| {
        if cfg.audit.setting.rules == Rules::Reference {
            1.0
        } else {
            s
        }
    };
    let mut found: Vec<Seed> = Vec::new();
    let m = cfg.audit.max_steps as f64;
    for &k in &[sp.k_min, sp.k_max] {
        for &delta in &deltas {
            for &eps in &epss {
                for &(gaussian, sigma) in &fams {
                    let mut n = 1.0f64;
                    while n * k as f64 <= m {
                        let v = ThresholdVars {
                            delta,
                            k: k as f64,
                            eps: eps.unwrap_or(f64::INFINITY),
                            sigma: rule_sigma(sigma),
                            t: k as f64 * n.round(),
                            na: n.round(),
                            nb: n.round(),
                            ka: n.round().log2().floor() + 2.0,
                            kb: n.round().log2().floor() + 2.0,
                            gap: 0.0,
                        };
                        let (ve, vp) = (e.eval(&v), p.eval(&v));
                        if ve.is_finite() && vp.is_finite() && vp > 0.0 && ve > 0.0 {
                            found.push(Seed {
                                ratio: ve / vp,
                                n: n.round(),
                                k,
                                delta,
                                eps,
                                gaussian,
                                value: ve,
                            });
                        }
                        n *= std::f64::consts::SQRT_2;
                    }
                }
            }
        }
    }
    found.sort_by(|a, b| a.ratio.total_cmp(&b.ratio));
    let mut picked: Vec<Seed> = Vec::new();
    for s in found {
        if picked.len() == 4 {
            break;
        }
        if picked
            .iter()
            .all(|q| (q.n / s.n).ln().abs() > 1.0 || q.k != s.k)
        {
            picked.push(s);
        }
    }
    if let Some(c) = counterexample(cfg, e, pname) {
        picked.push(c);
    }
    let mut out = Vec::new();
    for s in picked {
        let sigma = if s.gaussian {
            match sp.family {
                SpaceFamily::Gaussian { sigma } | SpaceFamily::Both { sigma } => sigma,
                SpaceFamily::Bernoulli => 0.5,
            }
        } else {
            0.5
        };
        let gap = (2.0 * sigma * (s.value / s.n).sqrt()).clamp(sp.min_gap, sp.max_gap);
        let x1 = if sp.max_gap > sp.min_gap {
            (gap / sp.min_gap).ln() / (sp.max_gap / sp.min_gap).ln()
        } else {
            0.0
        };
        let x0 = if sp.k_max > sp.k_min {
            (s.k - sp.k_min) as f64 / (sp.k_max - sp.k_min) as f64
        } else {
            0.0
        };
        let d = sp.dims();
        let mut shapes = vec![[0.0, 0.0, 0.0]];
        if s.k == sp.k_max && s.k > 3 {
            shapes.push([0.5, 1.0, 0.1]);
        }
        for sh in shapes {
            let mut x = vec![x0, x1, 0.5, sh[0], sh[1], sh[2]];
            x.resize(d, 0.0);
            if let Some((i, v)) = sp.delta_coordinate(s.delta) {
                x[i] = v;
            }
            if let Some((i, v)) = s.eps.and_then(|e| sp.eps_coordinate(e)) {
                x[i] = v;
            }
            if matches!(sp.family, SpaceFamily::Both { .. }) {
                x[d - 1] = if s.gaussian { 1.0 } else { 0.0 };
            }
            out.push(x);
        }
    }
    out
}

/// A counterexample of a small dominance analysis, as a seed.
fn counterexample(cfg: &SearchConfig, e: &ThresholdExpr, pname: &str) -> Option<Seed> {
    if cfg.audit.setting.rules == Rules::Reference {
        return None;
    }
    let sp = &cfg.space;
    let gaussian = matches!(sp.family, SpaceFamily::Gaussian { .. });
    let max_steps = cfg.audit.max_steps.min(1 << 40);
    let mut d = DominanceConfig::new(cfg.delta, sp.k_min, max_steps);
    d.k_max = sp.k_max;
    d.delta_min = sp.delta.map(|x| x.0).unwrap_or(cfg.delta);
    // A seed is a starting point, not a proof: the domain of the searched space (Bernoulli
    // gaps in [0, 1], the space's smallest ε), not the algorithm's run domain.
    let eps = sp.eps.map(|x| x.0);
    let sigma = match sp.family {
        SpaceFamily::Gaussian { sigma } => sigma,
        _ => 0.5,
    };
    d.parameters = RunParameters {
        family: if gaussian {
            ProofFamily::Gaussian
        } else {
            ProofFamily::Bernoulli
        },
        arm_sigma: sigma,
        eps,
        gamma: None,
        max_steps,
    };
    d.domain = RunDomain {
        eps: [eps, eps],
        sigma: [sigma, sigma],
        gap_max: (!gaussian).then_some(1.0),
        max_steps,
    };
    d.max_boxes = SEED_BOXES;
    let r = dominates(e, pname, &d).ok()?;
    let Dominance::Counterexample { point, expr, .. } = r.result else {
        return None;
    };
    let n = point.na.min(point.nb).max(1.0);
    Some(Seed {
        ratio: 0.0,
        n,
        k: point.k as usize,
        delta: point.delta,
        eps: sp.eps.map(|x| x.0),
        gaussian,
        value: expr.max(1e-12),
    })
}
