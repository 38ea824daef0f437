//! `dpbai._dpbai`: the PyO3 extension module behind the `dpbai` Python package.
//!
//! Thin bindings of the `dpbai` library: every number is computed by the library; this crate
//! only converts arguments and results (ndarrays, typed result classes: `results`) and maps [`dpbai::Error`] to Python
//! exceptions (`ValueError` for bad input, `RuntimeError` otherwise). The Python package
//! (`python/dpbai/`) wraps these functions with docstrings, argument checks and numpy
//! broadcasting. Long computations release the GIL ([`Python::detach`]); `runs::run` checks for Ctrl-C
//! between batches of runs. A user's callable (mechanism, threshold) that raises or returns
//! NaN, ±∞ or a non-float becomes a `ValueError` naming it, never a panic. `study::cli_main` runs
//! the library's command line ([`dpbai::cli`]) for the package's `dpbai` console command.

#![deny(unsafe_code)]

use dpbai::audit::{delta as adelta, dp as adp};
use dpbai::bandit::{self, AlgoName, CustomThreshold, Rules, ThresholdVars};
use dpbai::cli;
use dpbai::complexity;
use dpbai::functions::{self, Eval};
use dpbai::instance::{Family, FamilyName, Instance};
use dpbai::mc;
use dpbai::params::limits;
use dpbai::threshold::{expr, probe as finite};
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArray1, PyArrayDyn, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::{PyException, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::sync::{Arc, Mutex};
use std::time::Instant;

mod audits;
mod bounds;
mod elementwise;
mod record;
mod results;
mod runs;
mod study;

use audits::PyThreshold;
use bounds::{check_delta_beta, instance};
use runs::{algo_name, pool, rules};

/// Library error → Python exception: bad input is a `ValueError` (its message names the value
/// and the allowed range), anything else a `RuntimeError`.
fn py_err(e: dpbai::Error) -> PyErr {
    match e {
        dpbai::Error::InvalidParameter { .. }
        | dpbai::Error::InvalidInstance { .. }
        | dpbai::Error::Parse(_)
        | dpbai::Error::Threshold { .. }
        | dpbai::Error::Config { .. } => PyValueError::new_err(e.to_string()),
        other => PyRuntimeError::new_err(other.to_string()),
    }
}

fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// An exception raised by the user's callable `what` as a `ValueError` naming it, with the
/// original as its `__cause__`; `KeyboardInterrupt`, `SystemExit` and the other exceptions that
/// do not derive from `Exception` pass unchanged.
fn raised(py: Python<'_>, what: &str, e: PyErr) -> PyErr {
    if !e.is_instance_of::<PyException>(py) {
        return e;
    }
    let kind = e
        .get_type(py)
        .name()
        .map_or_else(|_| "an exception".to_string(), |n| n.to_string());
    let v = value_error(format!("{what} raised {kind}: {}", e.value(py)));
    v.set_cause(py, Some(e));
    v
}

/// The name of a Python callable in messages: `python callable <qualname>`.
fn callable_label(f: &Bound<'_, PyAny>) -> String {
    let name = f
        .getattr("__qualname__")
        .and_then(|q| q.extract::<String>())
        .unwrap_or_else(|_| "<callable>".into());
    format!("python callable {name}")
}

/// Calls the user's `progress(done, total)`; its exceptions propagate unchanged.
fn report_progress(progress: Option<&Bound<'_, PyAny>>, done: u64, total: u64) -> PyResult<()> {
    if let Some(p) = progress {
        p.call1((done, total))?;
    }
    Ok(())
}

/// `progress` must be a callable when given (the Python package turns `True` into a bar).
fn check_progress(progress: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    match progress {
        Some(p) if !p.is_callable() => Err(PyTypeError::new_err(
            "invalid progress: must be a callable progress(done, total), True or None",
        )),
        _ => Ok(()),
    }
}
/// The extension module.
#[pymodule]
fn _dpbai(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(elementwise::elementwise, m)?)?;
    m.add_function(wrap_pyfunction!(elementwise::rust_loop_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(bounds::bounds, m)?)?;
    m.add_function(wrap_pyfunction!(bounds::eps_curves, m)?)?;
    m.add_function(wrap_pyfunction!(runs::run, m)?)?;
    m.add_function(wrap_pyfunction!(audits::audit_delta, m)?)?;
    m.add_function(wrap_pyfunction!(audits::audit_dp, m)?)?;
    m.add_function(wrap_pyfunction!(audits::threshold_presets, m)?)?;
    m.add_function(wrap_pyfunction!(study::experiment, m)?)?;
    m.add_function(wrap_pyfunction!(study::cli_main, m)?)?;
    results::register(m)?;
    Ok(())
}
