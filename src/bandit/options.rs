//! The options that select the algorithms' rules and readings ([`Rules`], the leader,
//! challenger, episode, tie-break and σ readings); the algorithms themselves are declared in
//! [`super::info`].

use serde::{Deserialize, Serialize};

/// Which family of stopping rules / sampling details to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum Rules {
    /// The paper's provable thresholds and pseudo-code (Eq. (4), (12), (14), L. 34).
    #[default]
    Paper,
    /// The public code's empirical rules (READINGS.md §P), for like-for-like figures.
    Reference,
}

/// Leader bonus of AdaP-TT and AdaP-TT\* (the control that isolates Finding 1's cause).
///
/// Eq. (11)'s private bonus `b^{G,ε}_a(Ñ) = sqrt(k(Ñ_a)/Ñ_a) + k(Ñ_a)/(εÑ_a)` depends on the arm's
/// own frozen local count only, so an arm whose released mean is low stays below the others for
/// ever. The controls make the bonus grow with `‖Ñ‖₁ = Σ_b Ñ_b`, which increases whenever any
/// arm releases a new estimate: Eq. (3)'s `b^G_a(Ñ) = sqrt(2σ²α(1+s)·log(‖Ñ‖₁)/Ñ_a)` (READINGS.md
/// D.1, `s = α = 1.2`, TTUCB's bonus), or Eq. (11) with `k(Ñ_a)` replaced by `log ‖Ñ‖₁` (keeps
/// the privacy term `·/(εÑ_a)`). `‖Ñ‖₁` changes only at releases, so the leader stays frozen
/// between releases and the phase-skipping fast path stays exact (`skip_tests.rs` covers both).
/// The bonuses read counts only, so privacy (L. 20) is unaffected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum AdapLeaderBonus {
    /// Eq. (11), `b^{G,ε}_a(Ñ)` (Alg. 9, 10; default).
    #[default]
    Eq11,
    /// Eq. (3), `sqrt(2σ²α(1+s)·log(‖Ñ‖₁)/Ñ_a)` (TTUCB's bonus on the local counts). It has no
    /// privacy term, so it is *smaller* than Eq. (11) at small `Ñ_a` and small `ε`, and cannot
    /// lift a mean released with a large negative Laplace draw (scale `1/(εÑ_a)`).
    Eq3,
    /// Eq. (11) with `k(Ñ_a)` replaced by `log ‖Ñ‖₁`: `sqrt(ℓ/Ñ_a) + ℓ/(εÑ_a)`, `ℓ = log ‖Ñ‖₁`
    /// ([`super::rules::ucb_bonus_private_log_n`]): the privacy-scaled bonus, growing with the total
    /// count (the public code's index shape, READINGS.md §P).
    Eq11LogN,
}

/// Counts of the UCB leader `argmax_a μ̃_a + sqrt(2σ²α(1+s)·log(‖ω‖₁)/ω_a)` of the phased
/// algorithms (the control of Finding 3).
///
/// Alg. 1 computes the leader on the local counts `ω = Ñ`, which DPA freezes between releases;
/// with one global episode counter the leader and challenger then stay fixed and the other
/// arms are never pulled (Finding 3). With live counts `ω = N` (global counts, `‖N‖₁ = t`) the
/// pulled pair's bonus shrinks at every pull, so the leader moves on. The estimates `μ̃` stay the
/// released ones. The leader then changes between releases, so the phase-skipping fast paths
/// (`skip_steps`, `rotate_steps`) are **disabled** for this option (the loop goes step by step
/// with lazily drawn phase rewards, exact by construction).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum LeaderCounts {
    /// Local counts `Ñ`, frozen between releases (Alg. 1; default).
    #[default]
    Local,
    /// Live global counts `N` and `‖N‖₁ = t`.
    Global,
}

/// Episodes of the DPA estimator (READINGS.md §D.8, App. H).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum DpaEpisodes {
    /// Each arm doubles on its own (Alg. 11): `C(τ) = Σ_a k_{τ,a}`.
    #[default]
    PerArm,
    /// One episode counter `k_n`: every estimate is refreshed when *all* arms have doubled
    /// (`N_{n,a} >= 2 N_{T_{k_n},a}` for all `a`): `C(τ) = k_τ`.
    Global,
}

/// Tie-breaking rule of every `argmax` / `argmin` (READINGS.md §D.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum TieBreak {
    /// Lowest index (deterministic; default).
    #[default]
    LowestIndex,
    /// Uniform among the optimisers.
    Uniform,
}

/// Which counts the transport-cost challenger uses (READINGS.md §D.2, R.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum ChallengerCounts {
    /// Global counts `N` (Alg. 1, 9, 10 and L. 49; default).
    #[default]
    Global,
    /// Local counts `Ñ` (L. 45's proof).
    Local,
}

/// `σ` used by `gauss-ldp-tt` (READINGS.md §D.5, R.12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "kebab-case"))]
pub enum GaussLdpSigma {
    /// `σ² = σ_arm² + σ_{ε,γ}²` (`1/4 + σ_{ε,γ}²` for Bernoulli arms; Rem. 13; default).
    #[default]
    Combined,
    /// The arms' own `σ` (`1/2` for Bernoulli), as printed in Alg. 8.
    Printed,
}

crate::spelled!(
    Rules => "rules",
    AdapLeaderBonus => "adap-leader-bonus",
    LeaderCounts => "leader-counts",
    DpaEpisodes => "dpa-episodes",
    TieBreak => "tie-break",
    ChallengerCounts => "challenger-counts",
    GaussLdpSigma => "gauss-sigma",
);
