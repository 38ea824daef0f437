//! The named thresholds of `--threshold NAME`, written in the expression language.
//!
//! The engine's functions in [`crate::threshold::paper`] are the single source of each paper
//! threshold; the tests of this module check every `paper-*` preset against the engine's
//! function over a grid of `(na, nb, δ, K, ε, σ, gap)`.

use super::ThresholdExpr;
use crate::error::Result;

/// A named threshold written in the expression language, declared once: one entry of
/// [`PRESETS`] gives `--threshold NAME`, `--list-presets`, the Python `threshold_presets()` and,
/// for a provable one, `audit delta --dominates NAME`.
#[derive(Clone, Copy)]
pub struct Preset {
    /// Name accepted by `--threshold NAME` (and [`preset`]).
    pub name: &'static str,
    /// What it is and where it comes from.
    pub description: &'static str,
    /// For a preset the paper proves δ-correct (for its algorithm): the lemma that does, and
    /// for which algorithms; `None` for the empirical and unsafe ones.
    pub proof: Option<&'static str>,
    /// Its expression text.
    pub text: fn() -> String,
}

impl Preset {
    /// Whether the paper proves δ-correctness with it (for its algorithm).
    pub fn provable(&self) -> bool {
        self.proof.is_some()
    }
}

impl PartialEq for Preset {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for Preset {}

impl std::fmt::Debug for Preset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Preset")
            .field("name", &self.name)
            .field("proof", &self.proof)
            .finish()
    }
}

/// `c^G_{a,b}(ω, d)` of Eq. (4) with the risk written as the expression `d`.
fn c_g_text(d: &str) -> String {
    format!("(2*cg(log((K-1)/({d}))/2) + 2*log(4+log(na)) + 2*log(4+log(nb)))")
}

/// `c^{G,ε}_{a,b}(ω, d)` of Eq. (12) with the risk written as the expression `d`.
fn c_g_eps_text(d: &str) -> String {
    let inner = c_g_text(&format!("18*({d})/(pi^4*k(na)^2*k(nb)^2)"));
    format!(
        "(2*{inner} + (1/(eps^2*sigma^2))*((1/na)*log(pi^2*K*k(na)^2/(3*({d})))^2 + (1/nb)*log(pi^2*K*k(nb)^2/(3*({d})))^2))"
    )
}

/// Eq. (14) `c̃^{G,ε}`: the case split on `gap < ε/2`, with `kmax` the expression of the
/// second case's `k` term.
fn eq14_text(kmax: &str) -> String {
    let case1 = format!(
        "0.5*{} + (sqrt(2)/(eps*sigma))*(sqrt(h(na,delta,K)/na)*log(pi^2*K*k(na)^2/(2*delta)) + sqrt(h(nb,delta,K)/nb)*log(pi^2*K*k(nb)^2/(2*delta)))",
        c_g_eps_text("2*delta/3")
    );
    let case2 = format!(
        "(1/(2*sigma^2))*log(pi^2*K*{kmax}/(2*delta)) + (eps/(2*sqrt(2)*sigma))*(sqrt(na*h(na,delta,K)) + sqrt(nb*h(nb,delta,K)))"
    );
    format!("ifge(gap, eps/2, {case2}, {case1})")
}

/// The \[BAI25\] poster's threshold shape with its `log(1/δ)` term multiplied by `m` (an
/// expression): `Σ_{n ∈ {na, nb}} m·log(1/δ) + log(n)·log(1 + εn/log n)`, with `log n` in the
/// denominator read as `max(log n, log 2)` so that the term is its limit `0` at `n = 1` (for
/// every other count `log n >= log 2`).
pub fn dp_tt_poster_text(m: &str) -> String {
    let term = |n: &str| format!("log({n})*log(1+eps*{n}/max(log({n}),log(2)))");
    format!("2*({m})*log(1/delta) + {} + {}", term("na"), term("nb"))
}

/// The preset `paper-cg` (an entry of [`PRESETS`]).
pub const PAPER_CG: Preset = Preset {
    name: "paper-cg",
    description: "Eq. (4) c^G (TTUCB, CTB-TT, Gaussian-mechanism TTUCB; Sec. 2.2.3)",
    proof: Some(
        "Eq. (4) with Lemma 35 (Kaufmann & Koolen 2021, Thm. 9): δ-correct for TTUCB, CTB-TT, Gaussian-mechanism TTUCB",
    ),
    text: || c_g_text("delta"),
};

/// The preset `paper-daf-inf` (an entry of [`PRESETS`]).
pub const PAPER_DAF_INF: Preset = Preset {
    name: "paper-daf-inf",
    description: "L. 34 c^G(w, delta/(zeta(2)^2 k(na)^2 k(nb)^2)) (DAF with eps = inf, DPA-TT; s = 2)",
    proof: Some("Lemma 34: δ-correct for DAF(ε = ∞) / DPA-TT"),
    text: || c_g_text("delta/(zeta(2)^2*k(na)^2*k(nb)^2)"),
};

/// The preset `paper-adap-tt` (an entry of [`PRESETS`]).
pub const PAPER_ADAP_TT: Preset = Preset {
    name: "paper-adap-tt",
    description: "Eq. (12) c^{G,eps} (AdaP-TT, L. 21; s = 2)",
    proof: Some("Lemma 21 (Eq. (12)): δ-correct for AdaP-TT"),
    text: || c_g_eps_text("delta"),
};

/// The preset `paper-adap-tt-star` (an entry of [`PRESETS`]).
pub const PAPER_ADAP_TT_STAR: Preset = Preset {
    name: "paper-adap-tt-star",
    description: "Eq. (14) c~^{G,eps} with k^2 in the 2nd case (AdaP-TT*, L. 23; READINGS.md R.16)",
    proof: Some("Lemma 23 (Eq. (14), k² form, READINGS.md R.16): δ-correct for AdaP-TT*"),
    text: || eq14_text("max(k(na),k(nb))^2"),
};

/// The preset `gk16-bernoulli` (an entry of [`PRESETS`]).
pub const GK16_BERNOULLI: Preset = Preset {
    name: "gk16-bernoulli",
    description: "log(2t(K-1)/delta) on the Bernoulli GLR statistic (EB-TCI; Garivier & Kaufmann 2016)",
    proof: Some(
        "Garivier & Kaufmann (2016), the Bernoulli threshold log(2t(K−1)/δ) of the GLR (Chernoff) stopping rule, proven with Krichevsky–Trofimov mixtures for any sampling rule: δ-correct for EB-TCI",
    ),
    text: || "log(2*t*(K-1)/delta)".to_string(),
};

/// Every preset, provable ones first.
///
/// # Definition
/// * `paper-cg`: `2 C_G(log((K−1)/δ)/2) + 2 log(4 + log na) + 2 log(4 + log nb)` (Eq. (4)).
/// * `paper-daf-inf`: `c^G(ω, δ/(ζ(2)² k(na)² k(nb)²))` (L. 34, `s = 2`).
/// * `paper-adap-tt`: `2 c^G(ω, 18δ/(π⁴k(na)²k(nb)²)) + (1/(ε²σ²)) Σ_c (1/n_c) log²(π²K k(n_c)²/(3δ))` (Eq. (12)).
/// * `paper-adap-tt-star`: Eq. (14), case split on `gap < ε/2`, `k²` in the second case
///   (the form proven by L. 23, READINGS.md R.16); `-printed`: `max_c k(n_c)` as printed.
/// * `ref-ttucb`, `ref-adap-tt`: the public code's empirical rules (READINGS.md §P). That code's
///   statistic is `W^G·σ²` (it uses `σ = 1`), so its threshold `c` on it is `c/σ²` on `W^G`.
///
/// # Reference
/// Eq. (4), (12), (14), L. 34 (READINGS.md §D.1); READINGS.md §P.
pub const PRESETS: &[Preset] = &[
    PAPER_CG,
    PAPER_DAF_INF,
    PAPER_ADAP_TT,
    PAPER_ADAP_TT_STAR,
    Preset {
        name: "paper-adap-tt-star-printed",
        description: "Eq. (14) as printed (max_c k, not k^2, in the 2nd case; not covered by L. 23)",
        proof: None,
        text: || eq14_text("max(k(na),k(nb))"),
    },
    GK16_BERNOULLI,
    Preset {
        name: "dp-tt-poster",
        description: "APPROXIMATE, NOT PROVEN: the shape printed on the [BAI25] poster, c(n) = log(1/delta) + log(n) log(1 + eps n/log n) per arm, summed over both arms (DP-TT)",
        proof: None,
        text: || dp_tt_poster_text("1"),
    },
    Preset {
        name: "ref-ttucb",
        description: "public code's TTUCB rule log((1 + log t)/delta) on its sigma = 1 statistic, i.e. /sigma^2 on W^G (READINGS.md §P)",
        proof: None,
        text: || "log((1+log(t))/delta)/sigma^2".to_string(),
    },
    Preset {
        name: "ref-adap-tt",
        description: "public code's AdaP-TT rule log(1/delta) + log(1+log na) + log(1+log nb) + (1/na+1/nb) log(1/delta)^2/eps^2, /sigma^2 on W^G (READINGS.md §P)",
        proof: None,
        text: || {
            "(log(1/delta) + log(1+log(na)) + log(1+log(nb)) + (1/na+1/nb)*log(1/delta)^2/eps^2)/sigma^2"
                .to_string()
        },
    },
    Preset {
        name: "unsafe-log-over-20",
        description: "DELIBERATELY UNSAFE log(1/delta)/20, to check that the auditor catches it",
        proof: None,
        text: || "log(1/delta)/20".to_string(),
    },
    Preset {
        name: "unsafe-adap-tt-no-privacy",
        description: "DELIBERATELY UNSAFE Eq. (12) without its privacy term (fails at small eps)",
        proof: None,
        text: || format!("2*{}", c_g_text("18*delta/(pi^4*k(na)^2*k(nb)^2)")),
    },
];

/// The expression text of the preset `name` (an entry of [`PRESETS`]), or `None` for an
/// unknown name.
///
/// # Example
/// ```
/// assert!(dpbai::threshold::expr::preset("paper-cg").unwrap().contains("cg("));
/// assert!(dpbai::threshold::expr::preset("nope").is_none());
/// ```
pub fn preset(name: &str) -> Option<String> {
    PRESETS.iter().find(|p| p.name == name).map(|p| (p.text)())
}

/// Parses `--threshold` input: a preset name or an expression.
///
/// # Errors
/// As [`ThresholdExpr::parse`].
///
/// # Example
/// ```
/// let c = dpbai::threshold::expr::parse_threshold("ref-ttucb").unwrap();
/// assert!(c.uses("t"));
/// ```
pub fn parse_threshold(text: &str) -> Result<ThresholdExpr> {
    match preset(text.trim()) {
        Some(expr) => ThresholdExpr::parse(&expr),
        None => ThresholdExpr::parse(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::threshold::ThresholdVars;
    use crate::threshold::paper::{
        Eq14Form, gk16, poster_term, threshold_adap, threshold_adap_star, threshold_glr,
        threshold_l34,
    };

    /// `k(x) = log2 x + 2` (Eq. (11)), as the presets' `k(...)` reads it.
    fn k_of(x: f64) -> f64 {
        crate::special::k(x).expect("count >= 1")
    }

    /// [`threshold_adap_star`] read at the expression language's variables.
    fn eq14(v: &ThresholdVars, form: Eq14Form) -> f64 {
        let k = v.k as usize;
        threshold_adap_star(v.gap, v.na, v.nb, v.delta, k, v.eps, v.sigma, form)
    }

    /// An engine threshold read at the expression language's variables.
    type EngineFn = fn(&ThresholdVars) -> f64;

    /// Every preset that spells a paper threshold, with the lemma it comes from and the function
    /// of the engine ([`crate::threshold::paper`], the single source) that it must equal: each
    /// entry calls that function, never a formula of its own.
    const ENGINE_FORMS: [(&str, &str, EngineFn); 8] = [
        ("gk16-bernoulli", "Garivier & Kaufmann 2016", |v| {
            gk16(v.t, v.k as usize, v.delta)
        }),
        ("dp-tt-poster", "the [BAI25] poster's shape", |v| {
            let l = (1.0 / v.delta).ln();
            poster_term(v.na, v.eps, l, 1.0) + poster_term(v.nb, v.eps, l, 1.0)
        }),
        ("paper-cg", "Eq. (4), L. 35", |v| {
            threshold_glr(v.na, v.nb, v.delta, v.k as usize)
        }),
        // The preset reads k(na), k(nb) where the engine's DAF/DPA passes the phase indices
        // (READINGS.md §D.8): with na = 2^(k−1), k(na) = k + 1, so the preset is the larger one.
        (
            "paper-daf-inf",
            "L. 34 (s = 2), phase index read as k(count)",
            |v| threshold_l34(v.na, v.nb, k_of(v.na), k_of(v.nb), v.delta, v.k as usize),
        ),
        ("paper-adap-tt", "Eq. (12), L. 21", |v| {
            threshold_adap(v.na, v.nb, v.delta, v.k as usize, v.eps, v.sigma)
        }),
        ("paper-adap-tt-star", "Eq. (14) k² form, L. 23", |v| {
            eq14(v, Eq14Form::KSquared)
        }),
        ("paper-adap-tt-star-printed", "Eq. (14) as printed", |v| {
            eq14(v, Eq14Form::Printed)
        }),
        (
            "unsafe-adap-tt-no-privacy",
            "Eq. (12) without its privacy term",
            // Eq. (12) at ε = ∞: its privacy term is exactly 0.
            |v| threshold_adap(v.na, v.nb, v.delta, v.k as usize, f64::INFINITY, v.sigma),
        ),
    ];

    /// Relative tolerance between a preset and its engine function. Both evaluate the same
    /// formula in double precision in a different operation order (e.g. `π⁴` folded as `π^4`
    /// against `π²·π²`, `(1/n)·x` against `x/n`): each side is within a few ulps of the exact
    /// value times the condition number of the sums of logarithms and `C_G` (of order 1 here),
    /// so 1e-14 (45 ulps) allows for that; the differences seen on this grid are about 2 ulps.
    const ENGINE_REL_TOL: f64 = 1e-14;

    #[test]
    fn every_paper_preset_is_checked_against_the_engine() {
        for p in PRESETS {
            let listed = ENGINE_FORMS.iter().any(|(n, _, _)| *n == p.name);
            if p.provable() || p.name.starts_with("paper-") {
                assert!(listed, "{}: no engine function to check it against", p.name);
            }
        }
        for (name, _, _) in ENGINE_FORMS {
            assert!(
                PRESETS.iter().any(|p| p.name == name),
                "{name} is not a preset"
            );
        }
    }

    /// The compiled preset (general and run-bound programs) equals the engine's threshold on a
    /// grid of counts, risks, arm numbers, privacy budgets, noise scales and gaps (both cases of
    /// Eq. (14), including the boundary `gap = ε/2`).
    #[test]
    fn paper_presets_equal_the_engine_thresholds() {
        let counts = [1.0, 2.0, 3.0, 8.0, 100.0, 12_345.0, 1e6];
        let mut checked = 0usize;
        for (name, lemma, engine) in ENGINE_FORMS {
            let text = preset(name).expect("listed preset");
            let general = ThresholdExpr::parse(&text).expect("preset parses");
            for delta in [0.5, 0.1, 1e-2, 1e-6, 1e-12] {
                for k in [2.0, 5.0, 20.0] {
                    for eps in [0.05, 0.5, 1.0, 4.0] {
                        for sigma in [0.5, 1.0, 2.0] {
                            let bound = general.bind(delta, k, eps, sigma).expect("binds");
                            for gap in [0.0, 0.5 * eps * (1.0 - 1e-9), 0.5 * eps, 2.0 * eps] {
                                for (&na, &nb) in counts
                                    .iter()
                                    .flat_map(|a| counts.iter().map(move |b| (a, b)))
                                {
                                    // `t`, `ka`, `kb` are not read by these presets.
                                    let (t, ka, kb) = (na + nb, 1.0, 1.0);
                                    let v = ThresholdVars {
                                        delta,
                                        k,
                                        eps,
                                        sigma,
                                        t,
                                        na,
                                        nb,
                                        ka,
                                        kb,
                                        gap,
                                    };
                                    let want = engine(&v);
                                    assert!(want.is_finite(), "{name} ({lemma}) at {v:?}: {want}");
                                    for (how, got) in
                                        [("general", general.eval(&v)), ("bound", bound.eval(&v))]
                                    {
                                        let rel = ((got - want) / want).abs();
                                        assert!(
                                            rel <= ENGINE_REL_TOL,
                                            "{name} ({lemma}), {how} program at {v:?}: {got} vs engine {want} (rel {rel:e})"
                                        );
                                    }
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, ENGINE_FORMS.len() * 5 * 3 * 4 * 3 * 4 * 49);
    }
}
