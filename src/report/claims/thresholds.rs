//! Claim checks on the stopping thresholds' asymptotics (READINGS.md §D.1; Sec. 4.3, 4.4).

use super::context::{Check, Context};
use super::record::{claim as result, ClaimResult, Stats};
use crate::report::numbers::sig;
use crate::threshold::paper::{threshold_adap, threshold_adap_star, Eq14Form};

/// The checks of this module.
pub fn checks() -> Vec<Check> {
    vec![f30, f36]
}

const DELTAS: [f64; 6] = [1e-2, 1e-10, 1e-30, 1e-100, 1e-200, 1e-300];

/// Leading-order statistics of a deviation sequence along δ → 0: `<p>_increases`, the number of
/// steps from δ = 1e-10 on where the deviation from the limit grows, and `<p>_shrink`, its last
/// value over its value at δ = 1e-10 (the convergence is only logarithmic in δ).
fn convergence(p: &str, devs: &[f64]) -> Stats {
    let tail = &devs[1..];
    vec![
        (
            format!("{p}_increases"),
            tail.windows(2).filter(|w| w[1] > w[0]).count() as f64,
        ),
        (format!("{p}_shrink"), tail[tail.len() - 1] / tail[0]),
    ]
}

fn f30(_: &mut Context) -> ClaimResult {
    let (wa, wb, k, eps, s) = (64.0, 128.0, 5, 0.5, 0.5);
    let ratios: Vec<(f64, f64)> = DELTAS
        .iter()
        .map(|&d| {
            let l = (1.0 / d).ln();
            let approx = 2.0 * l + (1.0 / wa + 1.0 / wb) * l * l / (eps * eps * s * s);
            (d, threshold_adap(wa, wb, d, k, eps, s) / approx)
        })
        .collect();
    let rows: Vec<String> = ratios
        .iter()
        .map(|(d, r)| format!("δ = {d:e}: {}", sig(*r, 5)))
        .collect();
    let devs: Vec<f64> = ratios.iter().map(|r| (r.1 - 1.0).abs()).collect();
    result(
        "F.30",
        "AdaP-TT threshold asymptotics",
        "Sec. 4.3",
        "c^{G,ε} ≈ 2log(1/δ) + (1/ω_a + 1/ω_b)·log²(1/δ)/(ε²σ²)",
        format!(
            "exact Eq. (12) / asymptotic form at ω = (64, 128), K = 5, ε = 0.5, σ = 1/2: {} — the ratio tends \
             to 1 (leading order, logarithmically slowly: the k(ω)² and π² terms shift log(1/δ) by a constant)",
            rows.join("; ")
        ),
        convergence("dev", &devs),
    )
}

fn f36(_: &mut Context) -> ClaimResult {
    let (wa, wb, k, eps, s) = (64.0, 128.0, 5, 0.5, 0.5);
    let mut rows = Vec::new();
    let (mut d1, mut d2, mut dh) = (Vec::new(), Vec::new(), Vec::new());
    for &d in &DELTAS {
        let l = (1.0 / d).ln();
        // case 1 (gap < ε/2): ≈ log(1/δ) + (1/ω_a+1/ω_b)log²/(2ε²σ²) + (√2/(εσ))(ω_a^{-1/2}+ω_b^{-1/2})log^{3/2}
        let a1 = l
            + (1.0 / wa + 1.0 / wb) * l * l / (2.0 * eps * eps * s * s)
            + 2f64.sqrt() / (eps * s) * (wa.powf(-0.5) + wb.powf(-0.5)) * l.powf(1.5);
        let c1 = threshold_adap_star(0.1, wa, wb, d, k, eps, s, Eq14Form::KSquared);
        // case 2 (gap ≥ ε/2): ≈ log(1/δ)/(2σ²) + (ε/(2√2σ))(√ω_a + √ω_b)·sqrt(log(1/δ))
        let a2 =
            l / (2.0 * s * s) + eps / (2.0 * 2f64.sqrt() * s) * (wa.sqrt() + wb.sqrt()) * l.sqrt();
        let c2 = threshold_adap_star(0.3, wa, wb, d, k, eps, s, Eq14Form::KSquared);
        let half = c1 / threshold_adap(wa, wb, d, k, eps, s);
        rows.push(format!(
            "δ = {d:e}: case 1 {} , case 2 {}, c̃/c^{{G,ε}} (case 1) {}",
            sig(c1 / a1, 4),
            sig(c2 / a2, 4),
            sig(half, 4)
        ));
        d1.push((c1 / a1 - 1.0).abs());
        d2.push((c2 / a2 - 1.0).abs());
        dh.push((half - 0.5).abs());
    }
    result(
        "F.36",
        "AdaP-TT* threshold asymptotics; factor 1/2",
        "L. 23, Sec. 4.4",
        "Eq. (14) ≈ the Sec. 4.4 asymptotic forms; in the small-gap case c^{G,ε} is recovered with an improved factor 1/2",
        format!(
            "exact Eq. (14) (k² form) / asymptotic form, ω = (64, 128), K = 5, ε = 0.5: {} — both ratios tend to \
             1 and c̃/c^{{G,ε}} tends to 1/2 (slowly: the log^{{3/2}} term)",
            rows.join("; ")
        ),
        [
            convergence("case1", &d1),
            convergence("case2", &d2),
            convergence("half", &dh),
        ]
        .concat(),
    )
}
