//! The sampling rules of Alg. 1: leader, challenger and tracking, the stopping arm, and the
//! tie-breaking argmax/argmin they share.

use crate::rng::Rng;
use rand::Rng as _;

/// Leader rules.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Leader {
    /// `argmax μ̃_a + sqrt(c·log(Σ Ñ)/Ñ_a)`, `c = 2σ²α(1+s)` (Eq. (3)); `live`: on the global
    /// counts instead, `argmax μ̃_a + sqrt(c·log(t)/N_a)` (issue 11's control; the leader then
    /// moves between releases).
    Ucb { c: f64, live: bool },
    /// `argmax μ̃_a + b^{G,ε}_a(Ñ)` (Eq. (11)).
    PrivateUcb,
    /// `argmax μ̃_a + sqrt(ℓ/Ñ_a) + ℓ/(εÑ_a)`, `ℓ = log Σ Ñ` (issue 11's control; frozen between
    /// releases like `Ucb { live: false }`).
    PrivateUcbLogN { eps: f64 },
    /// Empirical best `argmax μ̃` (public code, TTUCB).
    Empirical,
    /// Public code, AdaP-TT: `argmax μ̃_a + log(n)/(ε Ñ_a) + sqrt(log(n)/(2Ñ_a))`.
    RefAdap { eps: f64 },
}

/// Challenger rules.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Challenger {
    /// Transport-cost challenger `argmin_{b≠B} W_{B,b}(μ̃, ω)`, `ω = N` or `Ñ` (ISSUE 11).
    Tc { local: bool },
    /// Public code: `argmin (μ̃_B − μ̃_j + κ(t))/sqrt(1/N_B + 1/N_j)`.
    RefSigned { adap: bool },
}

/// Tracking rules.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Tracking {
    /// β-tracking (D.0).
    Beta(f64),
    /// IDS β_n with cumulative tracking (D.9).
    Ids,
    /// Coin flip w.p. β (public code).
    Coin(f64),
}

/// Which arm the stopping rule tests against all others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopArm {
    /// `â_n = argmax μ̃` (Alg. 1).
    Argmax,
    /// The leader, only right after a phase switch (public code, AdaP-TT).
    LeaderOnSwitch,
}

#[inline(always)]
fn uniform_pick(ties: u64, rng: &mut Rng) -> bool {
    // P = 1/ties (Lemire's multiply-shift; bias <= ties/2^64).
    ((rng.next_u64() as u128 * ties as u128) >> 64) == 0
}

#[inline(always)]
pub(super) fn argmax(k: usize, f: impl Fn(usize) -> f64, uniform: bool, rng: &mut Rng) -> usize {
    let mut best = 0;
    let mut bv = f(0);
    let mut ties = 1u64;
    for a in 1..k {
        let v = f(a);
        if v > bv {
            best = a;
            bv = v;
            ties = 1;
        } else if uniform && v == bv {
            ties += 1;
            if uniform_pick(ties, rng) {
                best = a;
            }
        }
    }
    best
}

#[inline(always)]
pub(super) fn argmin_except(
    k: usize,
    skip: usize,
    f: impl Fn(usize) -> f64,
    uniform: bool,
    rng: &mut Rng,
) -> usize {
    let mut best = usize::MAX;
    let mut bv = f64::INFINITY;
    let mut ties = 0u64;
    for b in 0..k {
        if b == skip {
            continue;
        }
        let v = f(b);
        if best == usize::MAX || v < bv {
            best = b;
            bv = v;
            ties = 1;
        } else if uniform && v == bv {
            ties += 1;
            if uniform_pick(ties, rng) {
                best = b;
            }
        }
    }
    best
}
