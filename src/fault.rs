//! Fault injection for the verification of the verifier: `DPBAI_INJECT_FAULT=<area>` makes
//! every entry point of one evidence area fail while `dpbai verify` gathers its evidence, so
//! that REPORT.md shows which claims rest on that area (none of them may stay `confirmed`).
//!
//! The fault is injected **inside the area's own entry points**, not at the call sites of the
//! checks, so a check cannot forget it:
//! * `special`: the checked special functions ([`crate::special::lambert_w0`], …,
//!   [`crate::special::g2`], [`crate::special::zeta`], [`crate::special::c_g`]) return
//!   [`crate::Error::Injected`] (the `*_unchecked` forms of the engine's hot paths are not
//!   entry points of the verification and are left alone);
//! * `solver`: the characteristic-time solvers of [`crate::complexity`] and the regime
//!   switches;
//! * `mc`: the accessors of Monte Carlo results ([`crate::experiment::grid::GridResults`] and
//!   the study's cell groups, [`crate::claims::Context::group`]) and the traced runs;
//! * `audit`: [`crate::audit::delta::audit_delta`] and the ε-DP audits.
//!
//! The engine's forms of the special functions (`*_unchecked`, and the `C_G` and `h` the
//! thresholds call) return plain numbers and cannot fail; they [`touch`] the area instead. So
//! does every entry point above. [`crate::claims::judge`] reads what a check touched
//! ([`take_touched`]): that set is the claim's evidence areas, derived from what its check
//! calls, not declared beside it, and a check that touched the injected area without failing
//! is judged `not checkable` all the same. The Monte Carlo runs ([`crate::mc::simulate`], traced
//! runs, the δ audits) are the `mc` and `audit` areas' own computations: their engine calls are
//! not counted ([`untracked`]), since a cached cell or audit does not make them.
//!
//! An injection is process-wide (an atomic, seen by every worker thread, unlike a thread-local)
//! and lasts as long as the [`Injection`] guard that [`inject`] returns; with no guard alive
//! every entry point runs normally, at the cost of one relaxed atomic load. The record of
//! touched areas, by contrast, is per thread: the judge runs a check on its own thread and
//! reads that thread's record, so computations running beside it (other tests of the same
//! process, other callers of a library) cannot add areas to a claim or hide them from it. The
//! Monte Carlo workers' touches stay on the workers' records, which no judge reads.

use std::cell::Cell;
use std::sync::atomic::{AtomicU8, Ordering};

/// An evidence area that a fault can break.
/// Spelled (`FromStr`, `Display`) by its serde names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Area {
    /// Characteristic-time solvers (crate::complexity).
    Solver,
    /// Special functions (crate::special).
    Special,
    /// Monte Carlo cells and traced runs.
    Mc,
    /// Privacy and δ-correctness audits.
    Audit,
}

crate::spelled!(Area => "DPBAI_INJECT_FAULT");

impl Area {
    /// Every area.
    pub const ALL: [Area; 4] = [Area::Solver, Area::Special, Area::Mc, Area::Audit];

    /// The spelling of an area (`solver`, …), as in `DPBAI_INJECT_FAULT` and in
    /// `verify/protocol.toml`.
    pub fn as_str(&self) -> &'static str {
        crate::spelling::Spelling::spelling(self)
    }
    fn code(self) -> u8 {
        self as u8 + 1
    }
    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// 0: no fault; otherwise [`Area::code`] of the broken area.
static INJECTED: AtomicU8 = AtomicU8::new(0);

thread_local! {
    /// The areas this thread touched since its last [`take_touched`] ([`Area::bit`] flags).
    static TOUCHED: Cell<u8> = const { Cell::new(0) };
    /// How many [`Untracked`] guards this thread holds: while any is, [`touch`] records nothing.
    static UNTRACKED: Cell<u32> = const { Cell::new(0) };
}

/// Records that a computation of `area` ran on this thread (see the module docs). Two
/// thread-local loads and, the first time, one store.
#[inline]
pub fn touch(area: Area) {
    let bit = area.bit();
    TOUCHED.with(|t| {
        let bits = t.get();
        if bits & bit == 0 && UNTRACKED.with(Cell::get) == 0 {
            t.set(bits | bit);
        }
    });
}

/// The areas this thread touched since its last call, in [`Area::ALL`]'s order; clears the
/// record.
pub fn take_touched() -> Vec<Area> {
    let bits = TOUCHED.with(|t| t.replace(0));
    Area::ALL
        .into_iter()
        .filter(|a| bits & a.bit() != 0)
        .collect()
}

/// While alive, [`touch`] records nothing on the thread that made it (see the module docs).
#[derive(Debug)]
#[must_use = "recording resumes when the guard is dropped"]
pub struct Untracked(std::marker::PhantomData<*const ()>);

impl Drop for Untracked {
    fn drop(&mut self) {
        UNTRACKED.with(|u| u.set(u.get() - 1));
    }
}

/// Pauses [`touch`] on this thread until the returned guard is dropped (guards nest).
pub fn untracked() -> Untracked {
    UNTRACKED.with(|u| u.set(u.get() + 1));
    Untracked(std::marker::PhantomData)
}

/// While alive, the entry points of one area fail (see the module docs).
#[derive(Debug)]
#[must_use = "the fault lasts as long as the guard"]
pub struct Injection {
    active: bool,
}

impl Drop for Injection {
    fn drop(&mut self) {
        if self.active {
            INJECTED.store(0, Ordering::SeqCst);
        }
    }
}

/// Injects a fault into `area` until the returned guard is dropped; `None` injects nothing and
/// leaves the state alone.
///
/// The injection is process-wide: while it lasts, *every* caller of the area's entry points in
/// the process fails, so a process injects one fault at a time and runs nothing else meanwhile
/// (`dpbai verify` does; the test suite runs its fault tests in a test binary of their own,
/// `tests/faults.rs`).
pub fn inject(area: Option<Area>) -> Injection {
    if let Some(a) = area {
        INJECTED.store(a.code(), Ordering::SeqCst);
    }
    Injection {
        active: area.is_some(),
    }
}

/// Whether a fault is injected into `area` now.
#[inline]
pub fn injected(area: Area) -> bool {
    let v = INJECTED.load(Ordering::Relaxed);
    v != 0 && v == area.code()
}

/// `Err(Error::Injected)` when a fault is injected into `area`: an entry point's first line.
///
/// # Errors
/// [`crate::Error::Injected`] while a fault is injected into `area`.
#[inline]
pub fn check(area: Area) -> crate::Result<()> {
    touch(area);
    if injected(area) {
        Err(crate::Error::Injected {
            area: area.as_str(),
        })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread's record holds its own touches only: another thread touching an area (a test
    /// running beside a judged claim) does not add it, and a guard pauses only its own thread.
    #[test]
    fn the_record_of_touched_areas_is_per_thread() {
        take_touched();
        std::thread::spawn(|| {
            touch(Area::Mc);
            assert_eq!(take_touched(), vec![Area::Mc]);
            let _paused = untracked();
        })
        .join()
        .expect("joined");
        touch(Area::Solver);
        std::thread::spawn(|| touch(Area::Audit))
            .join()
            .expect("joined");
        assert_eq!(take_touched(), vec![Area::Solver]);
        {
            let _paused = untracked();
            touch(Area::Special);
            let _nested = untracked();
        }
        assert!(take_touched().is_empty());
        touch(Area::Special);
        assert_eq!(take_touched(), vec![Area::Special]);
        assert!(take_touched().is_empty(), "taking clears the record");
    }
}
