//! # dpbai
//!
//! Verification and numerical analysis for **differentially private best-arm identification**
//! (fixed-confidence BAI under local and global ε-DP), after the paper "Differentially Private
//! Best-Arm Identification". The formulas are specified in `docs/READINGS.md`; section numbers
//! below refer to it, equation/lemma numbers to the paper. The successor paper \[BAI25\]
//! (M. Jourdan, A. Azize, "Optimal Best Arm Identification under Differential Privacy",
//! NeurIPS 2025, arXiv 2510.17348) is cited by its poster, \[REG25\] (Azize et al., "Optimal
//! Regret of Bernoulli Bandits under Global Differential Privacy", arXiv 2505.05613) for `d_ε`.
//!
//! ## Notation (paper symbol → Rust name)
//!
//! Every Rust name below is an intra-doc link: `RUSTDOCFLAGS="-D warnings" cargo doc --no-deps`
//! (run by `.ci/run`) fails when an entry names an item that no longer exists.
//!
//! | paper | Rust | where |
//! |---|---|---|
//! | `W_0`, `W_{-1}` (Lambert W) | [`special::lambert_w0`], [`special::lambert_wm1`] | C.3 |
//! | `W̄_{-1}(x) = −W_{-1}(−e^{−x})` | [`special::wbar_m1`] | C.3, L. 40 |
//! | `ζ(s)` | [`special::zeta`] | C.1 |
//! | `C_G(x)` (Kaufmann–Koolen) | [`special::c_g`] | C.2, Eq. (20) |
//! | `k(x) = log2 x + 2` | [`special::k`] | C.5, Eq. (11) |
//! | `h(x, δ)` | [`special::h`] | C.6, L. 23 |
//! | `g1`, `g2` | [`special::g1`], [`special::g2`] | C.7, Thm. 24 |
//! | `kl(p, q)` | [`divergence::kl_bernoulli`] | A.1 |
//! | `TV`, `TV²` | [`divergence::tv_bernoulli`], [`divergence::tv_gaussian`] | A.1, A.2 |
//! | `c(ε)` (LDP contraction) | [`divergence::c_local`] | A.4, Thm. 10 |
//! | `d⁺_ε`, `d⁻_ε`, `d_ε` (\[BAI25\] poster, \[REG25\]) | [`divergence::d_eps_plus`], [`divergence::d_eps_minus`], [`divergence::d_eps`] | `divergence` (module `d_eps`) |
//! | `ν`, `μ`, `a*`, `Δ_a` | [`instance::Instance`] | 0.1 |
//! | `μ_ε` (randomised response) | [`instance::Instance::randomised_response`] | A.5, L. 12 |
//! | `ν_{G,ε}` | [`instance::Instance::privacy_aware_gaussian`] | A.6, Cor. 18 |
//! | `H(ν)` | [`instance::Instance::hardness_h`] | A.7 |
//! | `Δ_{ε,a}` | [`instance::Instance::delta_eps`] | A.7 |
//! | `T*` (characteristic time) | [`complexity::characteristic_time`] (one per [`complexity::TimeKind`]), [`complexity::t_kl`], [`complexity::t_local`], [`complexity::t_global`] | B |
//! | `ω*` (optimal allocation) | [`complexity::Certified::allocation`] | B |
//! | `T*_ε`, `T*_{ε,β}`, `C*_ε` (\[BAI25\] poster) | [`complexity::t_eps`], [`complexity::t_eps_beta`], [`complexity::transport_cost_eps`] | `complexity` (module `global_eps`) |
//! | `W_{a,b}` (transport cost) | [`bandit::rules::transport_cost_gaussian`], [`bandit::rules::transport_cost_privacy_aware`] | D.1 |
//! | `c_{a,b}` (stopping threshold) | [`threshold::paper::threshold_glr`] (Eq. (4)), [`threshold::paper::threshold_adap`] (Eq. (12)), [`threshold::paper::threshold_adap_star`] (Eq. (14)), [`threshold::paper::threshold_l34`] (L. 34); as expression text: [`threshold::expr::PRESETS`] | D.1 |
//! | `δ`, `ε`, `β`, `σ` | [`params::Delta`], [`params::Epsilon`], [`params::Beta`], [`params::Sigma`] | 0.1 |
//!
//! Layers depend only on the layers before them:
//! `special → divergence → functions → instance → complexity → threshold → privacy/bandit → mc →
//! audit → experiment → claims → report → cli`; `error`, `params`, `plot`, `rng`, `roots`, `spelling` and `stats` are shared by all.

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod error;
pub mod fault;
pub mod files;
pub mod float;
pub mod params;
pub mod plot;
pub mod rng;
pub mod roots;
pub mod spelling;
pub mod stats;

pub mod audit;
pub mod bandit;
pub mod claims;
#[cfg(feature = "cli")]
pub mod cli;
pub mod complexity;
pub mod divergence;
pub mod experiment;
pub mod functions;
pub mod instance;
pub mod mc;
pub mod numbers;
pub mod privacy;
pub mod report;
pub mod special;
pub mod threshold;

pub use error::{Error, Result};
