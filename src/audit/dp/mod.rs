//! `dpbai audit dp`: exact privacy loss where the output law is computable, and a DP-Sniper
//! style black-box lower bound otherwise (READINGS.md §E.1).
//!
//! # Exact mode
//! * Randomised response with keep probability `q` (L. 12): `P(z = 1 | r) = r q + (1 − r)(1 − q)`
//!   is affine in `r ∈ [0, 1]`, so the largest ratio over `r, r', z` is attained at `r, r' ∈ {0, 1}`:
//!   loss `= |log(q/(1 − q))|` ([`rr_loss`]).
//! * Laplace `f(D) + Lap(b)` with sensitivity `s` (Thm. 3): the log density ratio of
//!   `Lap(m, b)` and `Lap(m', b)` is `(|x − m'| − |x − m|)/b <= |m − m'|/b`, attained for `x`
//!   beyond both means: loss `= s/b` ([`laplace_vector_loss`] with one coordinate).
//! * Independent Laplace outputs with mean shifts `s_j` and common scales `b_j` on the two
//!   inputs: the log ratio is a sum of independent terms each at most `|s_j|/b_j`, all attained
//!   together in the corner `x_j → ±∞`: loss `= Σ_j |s_j|/b_j`; if some `b_j` differ between the
//!   inputs, the ratio is unbounded (loss `+∞`). For DAF ([`daf_exact_loss`]) the release plan of
//!   the implementation is evaluated on neighbouring sequences (one entry `0 ↔ 1`, the others
//!   fixed; the means are linear in the rewards, so the shifts do not depend on the others), and
//!   the loss is maximised over the position of the changed entry.
//! * Gaussian mechanism with noise `σ` and sensitivity `Δ` (Rem. 13): it is not pure-DP; its
//!   exact privacy profile is (Balle & Wang 2018, Thm. 8)
//!   `γ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ)` ([`gaussian_gamma`]); the claim
//!   `(ε, γ)` holds iff `γ(ε) <= γ`.
//!
//! Every exact verdict is decided in the safe direction ([`exact`] module docs): `holds` only
//! when an enclosure of the exact loss of the implemented mechanism lies strictly below the
//! claim, `violated` only strictly above, `inconclusive` on a tie; no slack.
//!
//! # Black-box mode (DP-Sniper style)
//! `n` runs on each of two neighbouring inputs `x, x'`. The first half of each sample is used
//! only to choose an event `E` (a threshold set `{Y >= c}` / `{Y <= c}` for real outputs, a set
//! of output values for discrete ones) and a direction; the second half, independent of that
//! choice, certifies it: with `k, k'` the counts of `E` among the `m` held-out runs,
//! `eps_lower = log(cp_lower(k, m, α/2) / cp_upper(k', m, α/2))`. Since
//! `P(cp_lower > P(E|x)) <= α/2` and `P(cp_upper < P(E|x')) <= α/2`, with probability at least
//! `1 − α`, `eps_lower <= log(P(E|x)/P(E|x')) <= ε_true`: an ε-DP mechanism is reported
//! `violated` (`eps_lower > ε`) with probability at most `α`. For `(ε, γ)` claims the certified
//! quantity is `gamma_lower = cp_lower(k, m, α/2) − e^ε cp_upper(k', m, α/2)`, and
//! `violated` means `gamma_lower > γ`. Black-box mode never reports `holds` (it cannot prove
//! privacy): it reports `no violation found`, printed with what it certified (`ε ≥ eps_lower`).
//!
//! # Whole algorithms (Definition 8)
//! `ctb-tt`, `adap-tt`, `adap-tt-star` and \[BAI25\]'s `dp-tt` ([`TABLE_DP_ALGORITHMS`]) run on
//! two fixed neighbouring reward tables (`K = 2`,
//! 400 rows drawn once from `Ber(0.7) × Ber(0.3)`, the neighbour flips row 1). Each run's output
//! `(a_1..a_τ, â, stopped)` is reduced to four discrete features (hash of the whole output,
//! recommendation, `τ`, hash of the first 16 actions); [`sniper_discrete`] picks a feature and a
//! set of its values on the selection half and certifies it on the held-out half.
//!
//! # Mutants
//! [`MUTANTS`]: six mechanism bugs (two of them in DP-TT's release) (caught instantly in exact
//! mode, and by the black box) and four whole-algorithm bugs (black box only): AdaP-TT and CTB-TT
//! run at `4ε` while claiming `ε`, and DP-TT's two release bugs planted in its whole run
//! ([`MutantBase::DpTtRun`]).
//! A mechanism bug is a [`Mutation`]: the broken mechanism, [`Mutated`] to keep the claim of
//! the faithful one of [`MECHANISMS`], so exact and black-box modes treat both alike.
//!
//! # Files
//! [`exact`] (exact losses), [`blackbox`] (the DP-Sniper testers), [`mechanisms`] (the registry
//! of single mechanisms, [`MECHANISMS`], with their claims, exact losses and sampling), [`mutants`] (planted bugs), [`late_leak`] (AdaP-TT whose DAF
//! leaks from its third release on, found only by `audit dp --search`), [`tables`] (whole
//! algorithms on neighbouring reward tables); this file holds the entry point [`audit_dp`].

pub mod blackbox;
pub mod exact;
pub mod fixtures;
pub mod late_leak;
pub mod mechanisms;
pub mod mutants;
pub mod tables;

pub use blackbox::{
    BlackBox, Claim, PairSearch, candidate_pairs, sniper_discrete, sniper_real, sniper_search,
};
pub use exact::{
    daf_exact_loss, daf_exact_verdict, exact_verdict, gaussian_eps, gaussian_gamma,
    gaussian_verdict, laplace_vector_loss, laplace_vector_verdict, rr_loss, rr_verdict,
};
pub use late_leak::adap_tt_late_leak;
pub use mechanisms::{
    Audited, DAF_SEQUENCE_LEN, DEFAULT_GAMMA, DafSchedule, ExactFinding, ExactLoss, MECHANISMS,
    MechanismInfo, Mutated, mechanism_info, mechanism_names, mutated,
};
pub use mutants::{MUTANTS, Mutant, MutantBase, Mutation, mutant};
pub use tables::{TABLE_DP_ALGORITHMS, table_dp_names};
pub(crate) use tables::{TABLE_FEATURES, neighbouring_tables, table_features};

use crate::audit::Verdict;
use crate::bandit::AlgoName;
use crate::error::{Error, Result, check_above, check_open};
use mechanisms::InputPair;
use serde::Serialize;
use tables::blackbox_algorithm;

/// The version of the DP auditor's results (cached audits carry it in their key,
/// [`crate::experiment::evidence`]): bump it when an audit of the same target and options
/// reports differently.
pub const AUDIT_VERSION: u32 = 2;

/// What `audit dp` examines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// A faithful mechanism.
    Mechanism(&'static MechanismInfo),
    /// A whole algorithm on neighbouring reward tables (Definition 8).
    Algo(AlgoName),
    /// A planted bug.
    Mutant(Mutant),
}

/// The mechanism a target stands for (faithful or mutated) at claimed `ε`, `γ`; `None` for an
/// algorithm or a mutant of one.
fn mechanism_for(target: &Target, eps: f64, gamma: f64) -> Result<Option<Box<dyn Audited>>> {
    match target {
        Target::Mechanism(m) => (m.build)(eps, gamma).map(Some),
        Target::Mutant(Mutant {
            base: MutantBase::Mechanism(b),
            ..
        }) => (b.build)(eps, gamma).map(Some),
        Target::Mutant(_) | Target::Algo(_) => Ok(None),
    }
}

/// Neighbour search for a built-in mechanism (faithful or mutated) on the input space
/// `[0, 1]` (rewards; sensitivity 1): the extreme pair `(0, 1)` and `pairs` seeded random
/// pairs, screened with `runs/10` runs each and the best certified on `runs` fresh runs
/// ([`sniper_search`]). DAF is searched by [`crate::audit::dp_search`] instead.
///
/// # Errors
/// [`crate::Error::InvalidParameter`] for an algorithm or DAF, and the errors of
/// [`sniper_search`].
pub fn mechanism_neighbour_search(
    target: &Target,
    eps: f64,
    gamma: f64,
    runs: u64,
    alpha: f64,
    seed: u64,
    pairs: usize,
) -> Result<(PairSearch, Vec<InputPair>)> {
    let mech = mechanism_for(target, eps, gamma)?.ok_or_else(|| {
        Error::param(
            "target",
            "an algorithm",
            "a mechanism or a mechanism mutant",
        )
    })?;
    mechanisms::neighbour_search(mech.as_ref(), eps, gamma, runs, alpha, seed, pairs)
}

/// Exact or black-box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Exact where the output law is computable, else black-box.
    Auto,
    /// Exact only (an error for whole algorithms).
    Exact,
    /// Black-box (DP-Sniper).
    BlackBox,
}

/// Options of `audit dp`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DpOptions {
    /// Claimed `ε`.
    pub eps: f64,
    /// Claimed `γ` (Gaussian mechanism only).
    pub gamma: f64,
    /// Mode.
    pub mode: Mode,
    /// Runs per neighbouring input (black-box); `None` for the target's default.
    pub runs: Option<u64>,
    /// Confidence parameter.
    pub alpha: f64,
    /// Master seed.
    pub seed: u64,
}

/// Report of `audit dp`.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct DpReport {
    /// What was audited (`mechanism rr`, `algo adap-tt`, `mutant laplace-half-scale`).
    pub target: String,
    /// `exact` or `blackbox`.
    pub mode: String,
    /// Verdict against the claim.
    pub verdict: Verdict,
    /// The claim in words.
    pub claim: String,
    /// Claimed `ε`.
    pub eps_claimed: f64,
    /// Claimed `γ` (Gaussian only).
    pub gamma_claimed: Option<f64>,
    /// Exact worst-case privacy loss (exact mode, pure-DP targets; for the Gaussian mechanism:
    /// the smallest `ε` with `γ(ε) <= γ_claimed`).
    pub loss_exact: Option<f64>,
    /// Exact `γ(ε_claimed)` (Gaussian mechanism, exact mode).
    pub gamma_exact: Option<f64>,
    /// Lower bound on the privacy loss: the exact loss in exact mode, the certified bound in
    /// black-box mode.
    pub eps_lower: f64,
    /// Certified lower bound on `γ` at the claimed `ε` (black-box, Gaussian).
    pub gamma_lower: Option<f64>,
    /// Runs per input (black-box; 0 in exact mode).
    pub runs: u64,
    /// Held-out runs per input (black-box).
    pub certify_runs: u64,
    /// Held-out event counts on the two inputs (black-box).
    pub counts: Option<[u64; 2]>,
    /// The certified event (black-box).
    pub event: String,
    /// `1 − α`.
    pub confidence: f64,
    /// Master seed.
    pub seed: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Remarks (e.g. the neighbouring inputs used).
    pub note: String,
}

fn target_name(t: &Target) -> String {
    match t {
        Target::Mechanism(m) => format!("mechanism {m}"),
        Target::Algo(a) => format!("algo {}", a.as_str()),
        Target::Mutant(m) => format!("mutant {}", m.name),
    }
}

fn default_runs(target: &Target) -> u64 {
    match target {
        Target::Algo(_) => 20_000,
        Target::Mutant(Mutant {
            base: MutantBase::Algo { .. } | MutantBase::DpTtRun(_),
            ..
        }) => 40_000,
        Target::Mechanism(m) => m.default_runs,
        Target::Mutant(Mutant {
            base: MutantBase::Mechanism(b),
            ..
        }) => b.base().default_runs,
    }
}

/// Audits the privacy of `target` (module docs).
///
/// # Definition
/// Exact mode: the worst-case privacy loss of the mechanism as implemented (its parameters are
/// read from the `dpbai::privacy` objects); black-box mode: the DP-Sniper lower bound.
///
/// # Reference
/// L. 12, Thm. 3, L. 31, Rem. 13, Definition 8 (READINGS.md §E.1).
///
/// # Example
/// ```
/// use dpbai::audit::dp::{audit_dp, mutant, DpOptions, Mode, Target};
/// use dpbai::audit::Verdict;
/// let o = DpOptions { eps: 1.0, gamma: 1e-5, mode: Mode::Auto, runs: None, alpha: 1e-3, seed: 1 };
/// let r = audit_dp(&Target::Mutant(mutant("laplace-half-scale").unwrap()), &o).unwrap();
/// assert_eq!(r.verdict, Verdict::Violated);
/// assert!((r.eps_lower - 2.0).abs() < 1e-12);
/// ```
///
/// # Errors
/// [`Error::InvalidParameter`] for invalid `ε`, `γ`, `α`, run counts, exact mode on a whole
/// algorithm, or an algorithm that cannot run on reward tables.
pub fn audit_dp(target: &Target, o: &DpOptions) -> Result<DpReport> {
    crate::fault::check(crate::fault::Area::Audit)?;
    let _untracked = crate::fault::untracked();
    check_above("eps", o.eps, 0.0)?;
    check_open("gamma", o.gamma, 0.0, 1.0)?;
    check_open("alpha", o.alpha, 0.0, 1.0)?;
    if o.runs == Some(0) {
        return Err(Error::param("runs", 0, "at least 1"));
    }
    let start = std::time::Instant::now();
    let mech = mechanism_for(target, o.eps, o.gamma)?;
    let exact = match (o.mode, &mech) {
        (Mode::Exact, None) => {
            return Err(Error::param(
                "mode",
                "exact",
                "blackbox or auto for whole algorithms (their output law is not computed exactly)",
            ));
        }
        (Mode::BlackBox, _) | (_, None) => false,
        _ => true,
    };
    let claim = match &mech {
        Some(m) => Claim::of(m.claim(), o.eps, o.gamma),
        None => Claim::Pure { eps: o.eps },
    };
    let approximate = matches!(claim, Claim::Approx { .. });
    let mut rep = DpReport {
        target: target_name(target),
        mode: if exact { "exact" } else { "blackbox" }.into(),
        verdict: Verdict::Inconclusive,
        claim: claim.to_string(),
        eps_claimed: o.eps,
        gamma_claimed: approximate.then_some(o.gamma),
        loss_exact: None,
        gamma_exact: None,
        eps_lower: 0.0,
        gamma_lower: None,
        runs: 0,
        certify_runs: 0,
        counts: None,
        event: String::new(),
        confidence: 1.0 - o.alpha,
        seed: o.seed,
        seconds: 0.0,
        note: String::new(),
    };
    if exact {
        let m = mech.expect("invariant: exact mode has a mechanism");
        let f = m.exact_loss(claim)?;
        rep.loss_exact = Some(f.loss);
        rep.gamma_exact = f.gamma;
        rep.eps_lower = f.loss;
        rep.verdict = f.verdict;
        rep.note = f.note;
    } else {
        let n = o.runs.unwrap_or_else(|| default_runs(target));
        let bb = match (&mech, target) {
            (Some(m), _) => m.blackbox(n, o.seed, o.alpha, claim)?,
            (None, Target::Algo(a)) => {
                let (bb, note) = blackbox_algorithm(*a, o.eps, o.eps, None, n, o.seed, o.alpha)?;
                rep.note = note;
                bb
            }
            (
                None,
                Target::Mutant(Mutant {
                    base: MutantBase::Algo { algo, factor },
                    ..
                }),
            ) => {
                let (bb, note) =
                    blackbox_algorithm(*algo, factor * o.eps, o.eps, None, n, o.seed, o.alpha)?;
                rep.note = format!("{note}; runs at eps = {}", factor * o.eps);
                bb
            }
            (
                None,
                Target::Mutant(Mutant {
                    base: MutantBase::DpTtRun(fault),
                    ..
                }),
            ) => {
                let (bb, note) = blackbox_algorithm(
                    AlgoName::DpTt,
                    o.eps,
                    o.eps,
                    Some(*fault),
                    n,
                    o.seed,
                    o.alpha,
                )?;
                rep.note = format!(
                    "{note}; Laplace scales x{}, release {} noiseless",
                    fault.scale_factor,
                    fault
                        .noiseless_release
                        .map_or("none".to_string(), |j| format!("{j} of every arm"))
                );
                bb
            }
            (None, _) => unreachable!("invariant: only algorithms lack a mechanism"),
        };
        rep.eps_lower = bb.eps_lower;
        rep.gamma_lower = bb.gamma_lower;
        rep.runs = bb.runs;
        rep.certify_runs = bb.certify_runs;
        rep.counts = Some(bb.counts);
        rep.event = bb.event;
        rep.verdict = bb.verdict;
        if rep.note.is_empty() {
            rep.note =
                "black-box mode never certifies privacy: it finds a violation or certifies a lower bound on the loss"
                    .into();
        }
    }
    rep.seconds = start.elapsed().as_secs_f64();
    Ok(rep)
}
