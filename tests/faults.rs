//! Fault injection (`DPBAI_INJECT_FAULT`, `src/fault.rs`) in-process: its own test binary,
//! because an injection is process-wide and would break the tests running beside it. One test
//! runs every case in turn.

use dpbai::claims::{Area, ClaimResult, ClaimVerdict, Context, dp_bai, run_all};

/// Runs every claim without experiments, with `fault` injected.
fn claims_with(fault: Option<Area>) -> Vec<ClaimResult> {
    run_all(&mut Context {
        experiments: false,
        fault,
        ..Default::default()
    })
}

/// The claims whose declaration lists `area` on its evidence path.
fn depends_on(area: Area) -> Vec<&'static str> {
    dp_bai::claims()
        .iter()
        .map(|c| c.meta())
        .filter(|m| m.areas.contains(&area))
        .map(|m| m.id)
        .collect()
}

/// Every fault case, one after the other (never two injections at once).
#[test]
fn injected_faults_move_exactly_their_claims() {
    injected_solver_and_special_faults_leave_nothing_decided();
    injected_mc_and_audit_faults_leave_nothing_decided();
    a_missing_grid_is_an_error_not_a_skip();
    second_paper_solver_fault_moves_exactly_its_solver_claims();
    second_paper_mc_and_audit_faults_name_the_fault();
    // After the guards: nothing is injected any more.
    assert!(Area::ALL.iter().all(|&a| !dpbai::fault::injected(a)));
}

/// `DPBAI_INJECT_FAULT=solver` / `special`: no claim on such a path is decided, and each of
/// them names the injected fault.
fn injected_solver_and_special_faults_leave_nothing_decided() {
    for area in [Area::Solver, Area::Special] {
        let deps = depends_on(area);
        assert!(deps.len() >= 5, "{area:?}: {deps:?}");
        let r = claims_with(Some(area));
        for id in &deps {
            let c = r.iter().find(|c| c.id == *id).expect("checked");
            if !c.ran {
                continue;
            }
            assert_eq!(c.verdict, ClaimVerdict::NotCheckable, "{id} under {area:?}");
            assert!(c.note.contains("injected fault"), "{id}: {}", c.note);
        }
        // Claims off that path still decide.
        assert!(
            r.iter()
                .any(|c| c.ran && c.verdict == ClaimVerdict::Confirmed)
        );
    }
}

/// `mc` and `audit` faults: with experiments on (and no grid, which the faulted gathering
/// never reads), every claim on such a path is not checkable with an error.
fn injected_mc_and_audit_faults_leave_nothing_decided() {
    for area in [Area::Mc, Area::Audit] {
        let r = run_all(&mut Context {
            experiments: true,
            fault: Some(area),
            ..Default::default()
        });
        for id in depends_on(area) {
            let c = r.iter().find(|c| c.id == id).expect("checked");
            assert_eq!(c.verdict, ClaimVerdict::NotCheckable, "{id} under {area:?}");
            assert!(c.note.starts_with("error:"), "{id}: {}", c.note);
        }
    }
}

/// With experiments on but the grid missing, the grid claims are errors, not skipped.
fn a_missing_grid_is_an_error_not_a_skip() {
    let r = run_all(&mut Context {
        experiments: true,
        fault: Some(Area::Audit),
        ..Default::default()
    });
    let c = r.iter().find(|c| c.id == "F.54").expect("checked");
    assert!(c.ran && c.note.starts_with("error:"), "{}", c.note);
}

/// The second paper ([BAI25]): under a solver fault (without experiments) exactly the exact
/// claims that declare `solver` are `not checkable` with the injected fault named; the others
/// still decide, and those that read Monte Carlo cells or audits are skipped.
fn second_paper_solver_fault_moves_exactly_its_solver_claims() {
    let paper = &dpbai::claims::bai25::PAPER;
    let r = dpbai::claims::run_paper(
        paper,
        &mut Context {
            experiments: false,
            fault: Some(Area::Solver),
            ..Default::default()
        },
    );
    for c in (paper.claims)() {
        let m = c.meta();
        let got = r.iter().find(|x| x.id == m.id).expect("checked");
        if m.areas.iter().any(|a| matches!(a, Area::Mc | Area::Audit)) {
            // Without experiments a claim that reads cells or audits is skipped, fault or not.
            assert!(!got.ran, "{} ran without experiments", m.id);
        } else if m.areas.contains(&Area::Solver) {
            assert_eq!(got.verdict, ClaimVerdict::NotCheckable, "{}", m.id);
            assert!(
                got.note.contains("injected fault"),
                "{}: {}",
                m.id,
                got.note
            );
        } else {
            assert!(!got.note.starts_with("error:"), "{}: {}", m.id, got.note);
        }
    }
}

/// The second paper under an `mc` or `audit` fault, with experiments on: every claim that
/// declares the area is `not checkable` and names the injected fault (not a missing cell).
fn second_paper_mc_and_audit_faults_name_the_fault() {
    let paper = &dpbai::claims::bai25::PAPER;
    for area in [Area::Mc, Area::Audit] {
        let r = dpbai::claims::run_paper(
            paper,
            &mut Context {
                experiments: true,
                fault: Some(area),
                ..Default::default()
            },
        );
        let mut moved = 0;
        for c in (paper.claims)() {
            let m = c.meta();
            if !m.areas.contains(&area) {
                continue;
            }
            let got = r.iter().find(|x| x.id == m.id).expect("checked");
            assert_eq!(
                got.verdict,
                ClaimVerdict::NotCheckable,
                "{} under {area:?}",
                m.id
            );
            assert!(
                got.note.contains("injected fault"),
                "{} under {area:?}: {}",
                m.id,
                got.note
            );
            moved += 1;
        }
        assert!(moved >= 2, "{area:?}: {moved} claims declare it");
    }
}
