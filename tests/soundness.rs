//! The soundness bank of the audits: bounds that decide a verdict are rounded in the safe
//! direction (Clopper–Pearson ends against mpmath, exact privacy losses at a tie), proofs by
//! dominance are certificates the checker re-verifies, non-finite thresholds are refused, and
//! the worst-case search answers `violated` on thresholds unsafe only in a corner of the
//! declared space, never on safe ones (each case with its independent evidence).

use dpbai::mc::stats::{cp_lower, cp_lower_outward, cp_upper, cp_upper_outward};

/// Largest relative distance of an outward bound from the exact one (its documented accuracy).
const OUTWARD_REL_TOL: f64 = 1e-8;

/// `cp_lower_outward <= ⌊exact lower⌋` and `cp_upper_outward >= ⌈exact upper⌉`, where the
/// exact bounds and their outward doubles come from mpmath at 50 digits
/// (`tests/data/cp_outward_golden.toml`, `verify/golden_cp_outward.py`); and both within a
/// relative 1e-8. The plain bounds [`cp_lower`], [`cp_upper`] are *not* outward on every case
/// (the test checks that the golden file exercises cases where they are on the wrong side).
#[test]
fn clopper_pearson_ends_are_outward_against_mpmath() {
    let data = crate::common::load_toml("cp_outward_golden.toml");
    let cases = data["case"].as_array().expect("cases");
    assert!(cases.len() >= 300, "{} cases", cases.len());
    let mut plain_wrong_side = 0;
    for c in cases {
        let k = c["k"].as_integer().expect("k") as u64;
        let n = c["n"].as_integer().expect("n") as u64;
        let alpha = c["alpha"].as_float().expect("alpha");
        let lf = c["lower_floor"].as_float().expect("lower_floor");
        let uc = c["upper_ceil"].as_float().expect("upper_ceil");
        let lo = cp_lower_outward(k, n, alpha).expect("cp_lower_outward");
        let up = cp_upper_outward(k, n, alpha).expect("cp_upper_outward");
        assert!(
            lo <= lf,
            "cp_lower_outward({k}, {n}, {alpha}) = {lo:e} > exact {lf:e}"
        );
        assert!(
            up >= uc,
            "cp_upper_outward({k}, {n}, {alpha}) = {up:e} < exact {uc:e}"
        );
        assert!(
            lf - lo <= OUTWARD_REL_TOL * lf,
            "cp_lower_outward({k}, {n}, {alpha}) = {lo:e} too far below {lf:e}"
        );
        assert!(
            up - uc <= OUTWARD_REL_TOL * uc,
            "cp_upper_outward({k}, {n}, {alpha}) = {up:e} too far above {uc:e}"
        );
        let (pl, pu) = (
            cp_lower(k, n, alpha).expect("cp_lower"),
            cp_upper(k, n, alpha).expect("cp_upper"),
        );
        if pl > lf || pu < uc {
            plain_wrong_side += 1;
        }
    }
    assert!(
        plain_wrong_side > 10,
        "only {plain_wrong_side} cases where the solver's bounds are on the unsafe side"
    );
}
