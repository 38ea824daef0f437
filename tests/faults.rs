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

/// The claims of `results` whose check called `area` (their derived areas).
fn calling(results: &[ClaimResult], area: Area) -> Vec<&'static str> {
    results
        .iter()
        .filter(|r| r.ran && r.areas.contains(&area))
        .map(|r| r.id)
        .collect()
}

/// The claims of the first paper whose check calls `area` without a fault (experiments as
/// given, no grid).
fn depends_on(area: Area, experiments: bool) -> Vec<&'static str> {
    let base = run_all(&mut Context {
        experiments,
        ..Default::default()
    });
    assert!(dp_bai::claims().len() == base.len());
    calling(&base, area)
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

/// `DPBAI_INJECT_FAULT=solver` / `special`: exactly the claims whose check calls the area are
/// not decided, each naming the injected fault.
fn injected_solver_and_special_faults_leave_nothing_decided() {
    for area in [Area::Solver, Area::Special] {
        let deps = depends_on(area, false);
        assert!(deps.len() >= 5, "{area:?}: {deps:?}");
        if area == Area::Special {
            // Eq. (12) and (14) are built from C_G through the engine's form of it.
            assert!(deps.contains(&"F.30") && deps.contains(&"F.36"), "{deps:?}");
        }
        let r = claims_with(Some(area));
        for id in &deps {
            let c = r.iter().find(|c| c.id == *id).expect("checked");
            if !c.ran {
                continue;
            }
            assert_eq!(c.verdict, ClaimVerdict::NotCheckable, "{id} under {area:?}");
            assert!(c.note.contains("injected fault"), "{id}: {}", c.note);
        }
        // Claims off that path are untouched by the fault, and some still decide.
        for c in r.iter().filter(|c| c.ran && !deps.contains(&c.id)) {
            assert!(!c.note.contains("injected fault"), "{}: {}", c.id, c.note);
        }
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
        let deps = depends_on(area, true);
        assert!(!deps.is_empty(), "{area:?}");
        for id in deps {
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
/// claims whose check calls `solver` are `not checkable` with the injected fault named; the others
/// still decide, and those that read Monte Carlo cells or audits are skipped.
fn second_paper_solver_fault_moves_exactly_its_solver_claims() {
    let paper = &dpbai::claims::bai25::PAPER;
    let run = |fault| {
        dpbai::claims::run_paper(
            paper,
            &mut Context {
                experiments: false,
                fault,
                ..Default::default()
            },
        )
    };
    let (base, r) = (run(None), run(Some(Area::Solver)));
    let solver = calling(&base, Area::Solver);
    assert!(!solver.is_empty());
    for c in (paper.claims)() {
        let m = c.meta();
        let got = r.iter().find(|x| x.id == m.id).expect("checked");
        if !got.ran {
            // Without experiments a claim that reads cells or audits is skipped, fault or not.
            assert!(!base.iter().any(|b| b.id == m.id && b.ran), "{}", m.id);
        } else if solver.contains(&m.id) {
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

/// The second paper under an `mc` or `audit` fault, with experiments on: every claim whose
/// check calls the area is `not checkable` and names the injected fault (not a missing cell).
fn second_paper_mc_and_audit_faults_name_the_fault() {
    let paper = &dpbai::claims::bai25::PAPER;
    let run = |fault| {
        dpbai::claims::run_paper(
            paper,
            &mut Context {
                experiments: true,
                fault,
                ..Default::default()
            },
        )
    };
    let base = run(None);
    for area in [Area::Mc, Area::Audit] {
        let r = run(Some(area));
        let deps = calling(&base, area);
        let mut moved = 0;
        for c in (paper.claims)() {
            let m = c.meta();
            if !deps.contains(&m.id) {
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
        assert!(moved >= 2, "{area:?}: {moved} claims call it");
    }
}
