//! `dpbai._dpbai`: the PyO3 extension module behind the `dpbai` Python package.
//!
//! Thin bindings of the `dpbai` library: every number is computed by the library; this crate
//! only converts arguments and results (ndarrays, dicts) and maps [`dpbai::Error`] to Python
//! exceptions (`ValueError` for bad input, `RuntimeError` otherwise). The Python package
//! (`python/dpbai/`) wraps these functions with docstrings, numpy broadcasting and result
//! classes. Long computations release the GIL ([`Python::detach`]); [`run`] checks for Ctrl-C
//! between batches of runs. A user's callable (mechanism, threshold) that raises or returns
//! NaN, ±∞ or a non-float becomes a `ValueError` naming it, never a panic. [`cli_main`] runs
//! the command line (`src/cli/`, compiled in) for the package's `dpbai` console command.

#![deny(unsafe_code)]

use dpbai::audit::{delta as adelta, dp as adp, expr, finite};
use dpbai::bandit::{self, AlgoName, CustomThreshold, Rules, ThresholdVars};
use dpbai::complexity::{self, upper, Certified};
use dpbai::functions::{self, Eval};
use dpbai::instance::{Family, FamilyName, Instance};
use dpbai::params::limits;
use dpbai::{divergence, mc};
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArray1, PyArrayDyn, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::{PyException, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The command line of the `dpbai` binary (`src/cli/`), compiled into the extension: the
/// wheel's `dpbai` console command ([`cli_main`]) runs the same code as the binary.
/// Its one `unsafe` block installs the audit search's Ctrl-C handler (documented there); the
/// extension's own code has none.
#[path = "../../src/cli/mod.rs"]
#[allow(unsafe_code)]
mod cli;

/// Library error → Python exception: bad input is a `ValueError` (its message names the value
/// and the allowed range), anything else a `RuntimeError`.
fn py_err(e: dpbai::Error) -> PyErr {
    match e {
        dpbai::Error::InvalidParameter { .. }
        | dpbai::Error::InvalidInstance { .. }
        | dpbai::Error::Parse(_)
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

// ------------------------------------------------------------------------------------------
// Special functions and divergences, element-wise (the catalogue of `dpbai::functions`)

type R = dpbai::Result<f64>;

/// `out[i] = f(a[i], b[i], ...)` for the catalogue's function `f`; stops at the first error.
fn apply(f: &functions::Function, args: &[&[f64]], out: &mut [f64]) -> dpbai::Result<()> {
    match f.eval {
        Eval::One(f) => {
            for (o, &x) in out.iter_mut().zip(args[0]) {
                *o = f(x)?;
            }
        }
        Eval::Two(f) => {
            for (o, (&x, &y)) in out.iter_mut().zip(args[0].iter().zip(args[1])) {
                *o = f(x, y)?;
            }
        }
        Eval::Three(f) => {
            let it = args[0].iter().zip(args[1]).zip(args[2]);
            for (o, ((&x, &y), &z)) in out.iter_mut().zip(it) {
                *o = f(x, y, z)?;
            }
        }
    }
    Ok(())
}

/// Evaluates the function `name` element-wise on C-contiguous float64 arrays of one common
/// shape (the Python side broadcasts them), with the GIL released.
#[pyfunction]
fn elementwise<'py>(
    py: Python<'py>,
    name: &str,
    args: Vec<PyReadonlyArrayDyn<'py, f64>>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let k =
        functions::lookup(name).ok_or_else(|| value_error(format!("unknown function {name:?}")))?;
    if args.len() != k.arity() {
        return Err(value_error(format!(
            "{name} takes {} argument(s), got {}",
            k.arity(),
            args.len()
        )));
    }
    let shape = args[0].shape().to_vec();
    if args.iter().any(|a| a.shape() != shape.as_slice()) {
        return Err(value_error(
            "arguments must have one common (broadcast) shape",
        ));
    }
    let slices: Vec<&[f64]> = args
        .iter()
        .map(|a| a.as_slice())
        .collect::<Result<_, _>>()
        .map_err(|e| value_error(e.to_string()))?;
    let n = slices[0].len();
    let out = py.detach(|| {
        let mut out = vec![0.0; n];
        apply(k, &slices, &mut out).map(|()| out)
    });
    let out = out.map_err(py_err)?;
    let arr = ArrayD::from_shape_vec(IxDyn(&shape), out)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok(arr.into_pyarray(py))
}

/// Seconds a plain Rust loop takes to evaluate `name` (one argument) on `x` (the baseline of
/// the overhead measurement of the vectorised functions; a copy of `x` is made first).
#[pyfunction]
fn rust_loop_seconds(py: Python<'_>, name: &str, x: PyReadonlyArrayDyn<'_, f64>) -> PyResult<f64> {
    let xs: Vec<f64> = x.as_array().iter().copied().collect();
    let f: fn(f64) -> R = match functions::lookup(name).map(|f| f.eval) {
        Some(Eval::One(f)) => f,
        _ => {
            return Err(value_error(format!(
                "{name:?} is not a one-argument function"
            )))
        }
    };
    py.detach(|| {
        let start = Instant::now();
        let mut out = Vec::with_capacity(xs.len());
        for &v in &xs {
            out.push(f(v)?);
        }
        let s = start.elapsed().as_secs_f64();
        std::hint::black_box(out);
        Ok(s)
    })
    .map_err(py_err)
}

// ------------------------------------------------------------------------------------------
// Bounds

fn instance(means: Vec<f64>, family: &str, sigma: Option<f64>) -> PyResult<Instance> {
    let fam = match family.parse::<FamilyName>() {
        Ok(FamilyName::Bernoulli) => {
            if let Some(s) = sigma {
                return Err(value_error(format!(
                    "invalid sigma = {s}: only meaningful with family = \"gaussian\""
                )));
            }
            Family::Bernoulli
        }
        Ok(FamilyName::Gaussian) => Family::Gaussian {
            sigma: sigma.unwrap_or(1.0),
        },
        Err(_) => {
            return Err(value_error(format!(
                "invalid family = {family:?}: must be \"bernoulli\" or \"gaussian\""
            )))
        }
    };
    Instance::new(fam, means).map_err(py_err)
}

fn check_delta_beta(delta: f64, beta: f64) -> PyResult<()> {
    dpbai::params::Delta::new(delta).map_err(py_err)?;
    dpbai::params::Beta::new(beta).map_err(py_err)?;
    Ok(())
}

fn cert<'py>(py: Python<'py>, c: &Certified) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("value", c.value)?;
    d.set_item("lower", c.lower)?;
    d.set_item("upper", c.upper)?;
    d.set_item("allocation", PyArray1::from_slice(py, &c.allocation))?;
    Ok(d)
}

/// The value of the characteristic time `lt` (as `dpbai bounds --json`'s `lower_time_value`).
fn lower_value(
    lt: upper::LowerTime,
    t_kl: f64,
    local: Option<f64>,
    global: Option<f64>,
) -> Option<f64> {
    match lt {
        upper::LowerTime::Kl => Some(t_kl),
        upper::LowerTime::Local => local,
        upper::LowerTime::Global => global,
    }
}

/// The labels every upper bound carries (as `dpbai bounds --json`).
fn ub_labels(
    d: &Bound<'_, PyDict>,
    model: upper::PrivacyModel,
    lt: upper::LowerTime,
    note: &Option<String>,
    lower: Option<f64>,
) -> PyResult<()> {
    d.set_item("note", note.clone())?;
    d.set_item("model", model.label())?;
    d.set_item("regime", upper::ASYMPTOTIC)?;
    d.set_item("lower_time", lt.name())?;
    d.set_item("lower_time_value", lower)?;
    Ok(())
}

fn ub<'py>(
    py: Python<'py>,
    u: &upper::UpperBound,
    lower: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("value", u.finite())?;
    ub_labels(&d, u.model, u.lower_time, &u.note, lower)?;
    d.set_item("refused", u.refused.clone())?;
    Ok(d)
}

/// Characteristic times with certificates, switches and bound formulas: the fields of
/// `dpbai bounds --json`, allocations as ndarrays.
#[pyfunction]
#[pyo3(signature = (means, family="bernoulli", sigma=None, eps=None, delta=0.01, beta=0.5))]
fn bounds<'py>(
    py: Python<'py>,
    means: Vec<f64>,
    family: &str,
    sigma: Option<f64>,
    eps: Option<f64>,
    delta: f64,
    beta: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let nu = instance(means, family, sigma)?;
    check_delta_beta(delta, beta)?;
    if let Some(e) = eps {
        dpbai::params::Epsilon::new(e).map_err(py_err)?;
    }
    let bern = nu.family() == Family::Bernoulli;
    let sigma = nu.sigma();
    let e = py_err;
    let d = PyDict::new(py);
    let t_kl = complexity::t_kl(&nu).map_err(e)?;
    let t_tv = complexity::t_tv(&nu).map_err(e)?;
    let t_tv2 = complexity::t_tv2(&nu).map_err(e)?;
    let lf = complexity::log_factor(dpbai::params::Delta::new(delta).map_err(e)?);
    d.set_item("family", if bern { "bernoulli" } else { "gaussian" })?;
    d.set_item("sigma", sigma)?;
    d.set_item("means", PyArray1::from_slice(py, nu.means()))?;
    d.set_item("best_arm", nu.best() + 1)?;
    d.set_item("delta", delta)?;
    d.set_item("beta", beta)?;
    d.set_item("eps", eps)?;
    d.set_item("t_kl", cert(py, &t_kl)?)?;
    let t_klg = complexity::t_kl_gaussian(&nu, sigma).map_err(e)?;
    d.set_item("t_kl_gaussian", cert(py, &t_klg)?)?;
    let t_klb = complexity::t_kl_beta(&nu, beta).map_err(e)?;
    d.set_item("t_kl_beta", cert(py, &t_klb)?)?;
    d.set_item("t_tv", cert(py, &t_tv)?)?;
    d.set_item("t_tv2", cert(py, &t_tv2)?)?;
    d.set_item("hardness_h", nu.hardness_h(sigma))?;
    d.set_item(
        "eps_switch_local",
        complexity::c_local_inverse(t_tv2.value / t_kl.value).map_err(e)?,
    )?;
    d.set_item("eps_switch_global", t_tv.value / t_kl.value)?;
    let per_arm: Vec<f64> = (0..nu.k())
        .map(|i| {
            if i == nu.best() {
                f64::NAN
            } else {
                2.0 * (nu.best_mean() - nu.means()[i])
            }
        })
        .collect();
    d.set_item("eps_switch_per_arm", PyArray1::from_vec(py, per_arm))?;
    d.set_item("log_factor", lf)?;
    let slb = PyDict::new(py);
    slb.set_item("non_private", t_kl.value * lf)?;
    slb.set_item("local", py.None())?;
    slb.set_item("global", py.None())?;
    let ubs = PyDict::new(py);
    ubs.set_item(
        "dpa",
        ub(py, &upper::dpa(&nu, beta).map_err(e)?, Some(t_kl.value))?,
    )?;
    for k in ["ctb_tt", "ctb_tt_ids", "adap_tt", "adap_tt_star"] {
        ubs.set_item(k, py.None())?;
    }
    for k in ["t_local", "t_global", "t_kl_g_eps", "t_kl_beta_g_eps"] {
        d.set_item(k, py.None())?;
    }
    if let Some(eps) = eps {
        let global = complexity::t_global(&nu, eps).map_err(e)?;
        let mut local_value = None;
        if bern {
            let local = complexity::t_local(&nu, eps).map_err(e)?;
            slb.set_item("local", local.value * lf)?;
            d.set_item("t_local", cert(py, &local)?)?;
            local_value = Some(local.value);
        }
        let lower = |lt| lower_value(lt, t_kl.value, local_value, Some(global.value));
        slb.set_item("global", global.value * lf)?;
        d.set_item("t_global", cert(py, &global)?)?;
        let kge = complexity::t_kl_g_eps(&nu, eps).map_err(e)?;
        d.set_item("t_kl_g_eps", cert(py, &kge)?)?;
        let kbge = complexity::t_kl_beta_g_eps(&nu, eps, beta).map_err(e)?;
        d.set_item("t_kl_beta_g_eps", cert(py, &kbge)?)?;
        d.set_item("c_eps", divergence::c_local(eps).map_err(e)?)?;
        d.set_item("two_h_g_eps", complexity::two_h_g_eps(&nu, eps).map_err(e)?)?;
        d.set_item("h_eps_sec43", nu.hardness_h_eps_sec43(eps))?;
        d.set_item("h_eps_app_b", nu.hardness_h_eps_app_b(eps))?;
        let u = upper::upper_bounds(&nu, eps, beta).map_err(e)?;
        ubs.set_item("ctb_tt", ub(py, &u.ctb_tt, lower(u.ctb_tt.lower_time))?)?;
        ubs.set_item(
            "ctb_tt_ids",
            ub(py, &u.ctb_tt_ids, lower(u.ctb_tt_ids.lower_time))?,
        )?;
        ubs.set_item("adap_tt", ub(py, &u.adap_tt, lower(u.adap_tt.lower_time))?)?;
        let st = &u.adap_tt_star;
        let s = PyDict::new(py);
        s.set_item("thm24_main", st.thm24_main)?;
        s.set_item("lemma52_app", st.lemma52_app)?;
        s.set_item("proof_max", st.proof_max)?;
        ub_labels(&s, st.model, st.lower_time, &st.note, lower(st.lower_time))?;
        s.set_item("thm24_main_branch", st.thm24_main_branch.name())?;
        s.set_item("lemma52_app_branch", st.lemma52_app_branch.name())?;
        s.set_item("proof_max_branch", st.proof_max_branch.name())?;
        s.set_item("switch_eps_main", st.switch_eps_main)?;
        s.set_item("switch_eps_lemma52", st.switch_eps_lemma52)?;
        ubs.set_item("adap_tt_star", s)?;
    }
    d.set_item("sample_lower_bounds", slb)?;
    d.set_item("upper_bounds", ubs)?;
    Ok(d)
}

/// Every ε-dependent quantity of `dpbai bounds --eps-grid` on the given ε values, one ndarray
/// per column (NaN where a quantity is undefined: relaxed_local and the refused CTB-TT bounds of
/// Gaussian arms; `*_branch` columns: 1 = the g1 term of Thm. 24, 2 = the g2 term).
#[pyfunction]
#[pyo3(signature = (means, eps, family="bernoulli", sigma=None, delta=0.01, beta=0.5))]
fn eps_curves<'py>(
    py: Python<'py>,
    means: Vec<f64>,
    eps: Vec<f64>,
    family: &str,
    sigma: Option<f64>,
    delta: f64,
    beta: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let nu = instance(means, family, sigma)?;
    check_delta_beta(delta, beta)?;
    let delta = dpbai::params::Delta::new(delta).map_err(py_err)?;
    for &x in &eps {
        dpbai::params::Epsilon::new(x).map_err(py_err)?;
    }
    use complexity::curves::{eps_curves as rows_of, EPS_CURVE_COLUMNS, EPS_CURVE_WIDTH};
    let rows = py
        .detach(|| rows_of(&nu, &eps, delta, beta))
        .map_err(py_err)?;
    let mut cols: Vec<Vec<f64>> = (0..EPS_CURVE_WIDTH)
        .map(|_| Vec::with_capacity(rows.len()))
        .collect();
    for row in rows {
        for (col, v) in cols.iter_mut().zip(row) {
            col.push(v);
        }
    }
    let d = PyDict::new(py);
    for (name, col) in EPS_CURVE_COLUMNS.iter().zip(cols) {
        d.set_item(*name, PyArray1::from_vec(py, col))?;
    }
    Ok(d)
}

// ------------------------------------------------------------------------------------------
// Runs

/// A rayon pool of `threads` workers (default: all cores).
fn pool(threads: Option<usize>) -> PyResult<rayon::ThreadPool> {
    if threads == Some(0) {
        return Err(value_error("invalid threads = 0: must be at least 1"));
    }
    if let Some(t) = threads {
        limits::check_threads(t).map_err(py_err)?;
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("thread pool: {e}")))
}

fn algo_name(s: &str) -> PyResult<AlgoName> {
    AlgoName::ALL
        .iter()
        .copied()
        .find(|a| a.as_str() == s)
        .ok_or_else(|| {
            let names: Vec<&str> = AlgoName::ALL.iter().map(|a| a.as_str()).collect();
            value_error(format!(
                "invalid algo = {s:?}: must be one of {}",
                names.join(", ")
            ))
        })
}

fn rules(s: &str) -> PyResult<Rules> {
    s.parse().map_err(|_| {
        value_error(format!(
            "invalid rules = {s:?}: must be \"paper\" or \"reference\""
        ))
    })
}

/// A batch of runs is grown (doubled) until it lasts this long: Ctrl-C is then honoured within
/// about this many seconds.
const BATCH_SECONDS: f64 = 0.25;

/// Seeded Monte Carlo runs, as `dpbai run` does them (run `r` draws from
/// `rng_for_run(seed, r)`), in batches with the GIL released; Ctrl-C (`KeyboardInterrupt`) is
/// checked between batches. Returns per-run arrays and the JSON text of the CLI's summary.
#[pyfunction]
#[pyo3(signature = (algo, means, *, delta, runs, seed, eps=None, threads=None, rules="paper",
    max_steps=None, family="bernoulli", sigma=None, gamma=None, beta=0.5, options=None,
    threshold=None, step_by_step=false, progress=None))]
#[allow(clippy::too_many_arguments)]
fn run<'py>(
    py: Python<'py>,
    algo: &str,
    means: Vec<f64>,
    delta: f64,
    runs: u64,
    seed: u64,
    eps: Option<f64>,
    threads: Option<usize>,
    rules: &str,
    max_steps: Option<u64>,
    family: &str,
    sigma: Option<f64>,
    gamma: Option<f64>,
    beta: f64,
    options: Option<Bound<'py, PyDict>>,
    threshold: Option<Bound<'py, PyAny>>,
    step_by_step: bool,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let name = algo_name(algo)?;
    check_progress(progress.as_ref())?;
    let (text_threshold, py_threshold) = match &threshold {
        None => (None, None),
        Some(t) if t.is_callable() => (None, Some(t)),
        Some(t) => (
            Some(t.extract::<String>().map_err(|_| {
                PyTypeError::new_err(
                    "invalid threshold: must be a preset name, an expression or a callable",
                )
            })?),
            None,
        ),
    };
    let rules_v = self::rules(rules)?;
    let nu = instance(means, family, sigma)?;
    check_delta_beta(delta, beta)?;
    match eps {
        Some(e) => {
            dpbai::params::Epsilon::new(e).map_err(py_err)?;
        }
        None if name.needs_eps() => {
            return Err(value_error(format!(
                "eps is required by {algo} (a private algorithm): pass eps > 0"
            )))
        }
        None => {}
    }
    if runs == 0 {
        return Err(value_error("invalid runs = 0: must be at least 1"));
    }
    limits::check_runs_or(
        "runs",
        runs,
        "for more, `dpbai run --shard i/n` and `dpbai merge` split them over processes",
    )
    .map_err(py_err)?;
    let max_steps = max_steps.unwrap_or(mc::DEFAULT_MAX_STEPS);
    if max_steps == 0 {
        return Err(value_error("invalid max_steps = 0: must be at least 1"));
    }
    let threads = match threads {
        Some(0) => return Err(value_error("invalid threads = 0: must be at least 1")),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let mut setting = bandit::Setting::paper(name, delta)
        .and_then(|s| s.with_gamma(gamma))
        .map_err(py_err)?;
    setting.eps = eps
        .map(dpbai::params::Epsilon::new)
        .transpose()
        .map_err(py_err)?;
    setting.beta = dpbai::params::Beta::new(beta).map_err(py_err)?;
    setting.rules = rules_v;
    if let Some(opts) = &options {
        for (k, v) in opts.iter() {
            let key: String = k
                .extract()
                .map_err(|_| value_error("invalid options: keys must be strings"))?;
            // `ids_beta=True` as a Python bool; every other reading as its flag value.
            let value = match v.extract::<bool>() {
                Ok(b) => b.to_string(),
                Err(_) => v.extract::<String>().map_err(|_| {
                    value_error(format!(
                        "invalid options[{key:?}]: must be a string (a `dpbai run --{}` value) \
                         or a bool (ids_beta)",
                        key.replace('_', "-")
                    ))
                })?,
            };
            setting.set_reading(&key, &value).map_err(py_err)?;
        }
    }
    // One specification, as `dpbai run` builds it: the algorithm and the metadata follow from it.
    let spec = dpbai::experiment::CellSpec::new(
        &setting,
        &nu,
        text_threshold.as_deref(),
        step_by_step,
        runs,
        seed,
        max_steps,
    );
    // A Python threshold: checked for NaN/±∞ like an expression, on one worker that stays
    // attached to the interpreter during a batch (Python code cannot run in parallel).
    let py_th = py_threshold.map(PyThreshold::checked);
    let (alg, checked) = match &py_th {
        Some((th, _)) => {
            let (mut engine, _) = spec.engine_spec().map_err(py_err)?;
            engine.custom_threshold = Some(th.clone() as Arc<dyn CustomThreshold>);
            let inst = spec.instance().map_err(py_err)?;
            (bandit::build(&engine, &inst).map_err(py_err)?, None)
        }
        None => spec.build().map_err(|e| match (&text_threshold, &e) {
            (Some(_), dpbai::Error::Parse(_)) => value_error(format!("invalid threshold: {e}")),
            _ => py_err(e),
        })?,
    };
    let threads = if py_th.is_some() { 1 } else { threads };
    let pool = pool(Some(threads))?;

    let start = Instant::now();
    let mut records: Vec<mc::RunRecord> = Vec::with_capacity(runs as usize);
    let mut batch = (threads as u64 * 4).max(8);
    while (records.len() as u64) < runs {
        let lo = records.len() as u64;
        let hi = lo.saturating_add(batch).min(runs);
        let idx: Vec<u64> = (lo..hi).collect();
        let t0 = Instant::now();
        let simulate = || mc::simulate_runs(alg.as_ref(), seed, max_steps, &idx, &|| {});
        let part = if py_th.is_some() {
            py.detach(|| pool.install(|| Python::attach(|_| simulate())))
        } else {
            py.detach(|| pool.install(simulate))
        };
        records.extend(part);
        if let Some((th, _)) = &py_th {
            PyThreshold::failure(th)?;
        }
        if t0.elapsed().as_secs_f64() < BATCH_SECONDS {
            batch = batch.saturating_mul(2);
        }
        py.check_signals()?;
        report_progress(progress.as_ref(), records.len() as u64, runs)?;
    }
    let elapsed = start.elapsed().as_secs_f64();
    if let Some(e) = checked.and_then(|c| c.failure()) {
        return Err(value_error(format!("invalid threshold: {e}")));
    }

    let meta = dpbai::experiment::meta::RunMeta::new(&spec).map_err(py_err)?;
    let report =
        dpbai::experiment::meta::Report::new(&meta, None, &records, elapsed).map_err(py_err)?;
    let d = PyDict::new(py);
    let o = |r: &mc::RunRecord| r.outcome;
    d.set_item(
        "tau",
        PyArray1::from_iter(py, records.iter().map(|r| o(r).tau)),
    )?;
    d.set_item(
        "recommendation",
        PyArray1::from_iter(py, records.iter().map(|r| o(r).recommendation as i64 + 1)),
    )?;
    d.set_item(
        "stopped",
        PyArray1::from_iter(py, records.iter().map(|r| o(r).stopped)),
    )?;
    d.set_item(
        "rounds",
        PyArray1::from_iter(
            py,
            records
                .iter()
                .map(|r| o(r).rounds.map_or(f64::NAN, |x| x as f64)),
        ),
    )?;
    let text = serde_json::to_string(&report)
        .map_err(|e| PyRuntimeError::new_err(format!("serialising the summary: {e}")))?;
    d.set_item("summary_json", text)?;
    if let Some((_, label)) = &py_th {
        d.set_item("threshold", label)?;
    }
    Ok(d)
}

// ------------------------------------------------------------------------------------------
// Audits

/// A Python callable `threshold(t, na, nb, gap, K, delta, eps, sigma) -> float` as a stopping
/// threshold. Each evaluation attaches to the interpreter (takes the GIL). The first exception
/// (or non-float result) is kept and every later evaluation returns `-inf`, which stops the
/// runs at once; [`PyThreshold::check`] then raises it as a `ValueError` naming the callable.
struct PyThreshold {
    f: Py<PyAny>,
    label: String,
    error: Mutex<Option<PyErr>>,
}

/// A Python threshold wrapped in the finiteness check of expression thresholds, and its label.
type CheckedPy = (Arc<finite::Checked<PyThreshold>>, String);

impl PyThreshold {
    /// The callable `f`, checked for NaN/±∞ like an expression, and its label.
    fn checked(f: &Bound<'_, PyAny>) -> CheckedPy {
        let label = callable_label(f);
        let th = PyThreshold {
            f: f.clone().unbind(),
            label: label.clone(),
            error: Mutex::new(None),
        };
        (Arc::new(finite::Checked::new(th, label.clone())), label)
    }

    /// The first failure of the checked threshold `th` so far, if any: the callable's kept
    /// error (an exception or a non-float), else a non-finite value; a `ValueError` naming it.
    fn failure(th: &finite::Checked<PyThreshold>) -> PyResult<()> {
        if let Some(e) = th.inner().error.lock().ok().and_then(|mut s| s.take()) {
            return Err(e);
        }
        match th.failure() {
            Some(e) => Err(value_error(e.to_string())),
            None => Ok(()),
        }
    }
}

impl std::fmt::Debug for PyThreshold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PyThreshold")
    }
}

impl CustomThreshold for PyThreshold {
    fn eval(&self, v: &ThresholdVars) -> f64 {
        let failed = |e: PyErr| {
            if let Ok(mut slot) = self.error.lock() {
                slot.get_or_insert(e);
            }
            f64::NEG_INFINITY
        };
        if self.error.lock().map_or(true, |s| s.is_some()) {
            return f64::NEG_INFINITY;
        }
        Python::attach(|py| {
            let args = (v.t, v.na, v.nb, v.gap, v.k, v.delta, v.eps, v.sigma);
            match self.f.call1(py, args) {
                Ok(r) => match r.extract::<f64>(py) {
                    Ok(x) => x,
                    Err(_) => {
                        let shown = r
                            .bind(py)
                            .repr()
                            .map_or_else(|_| "a non-float".into(), |s| s.to_string());
                        failed(value_error(format!(
                            "{} returned {shown}: must return a float",
                            self.label
                        )))
                    }
                },
                Err(e) => failed(raised(py, &self.label, e)),
            }
        })
    }
}

/// The instances of a δ-audit: `"default"` (the stress battery), TOML battery text, a list of
/// means (one instance) or a list of lists of means.
fn audit_instances(
    obj: &Bound<'_, PyAny>,
    algo: AlgoName,
    delta: f64,
    eps: Option<f64>,
    family: &str,
    sigma: Option<f64>,
) -> PyResult<Vec<adelta::AuditInstance>> {
    if let Ok(s) = obj.cast::<PyString>() {
        let s: String = s.extract()?;
        return if s.trim() == "default" {
            adelta::default_battery(algo, delta, eps).map_err(py_err)
        } else if !s.contains('=') {
            // One word is a battery name, not TOML: "default" is the only one.
            Err(value_error(format!(
                "invalid means_or_battery = {:?}: must be \"default\" (the stress battery), \
                 battery TOML text, a list of means or a list of lists of means",
                s.trim()
            )))
        } else {
            adelta::parse_battery(&s, delta, eps).map_err(py_err)
        };
    }
    let lists: Vec<Vec<f64>> = match obj.extract::<Vec<f64>>() {
        Ok(m) => vec![m],
        Err(_) => obj.extract::<Vec<Vec<f64>>>().map_err(|_| {
            value_error(
                "invalid means_or_battery: must be \"default\", battery TOML text, a list of \
                 means or a list of lists of means",
            )
        })?,
    };
    lists
        .into_iter()
        .enumerate()
        .map(|(i, m)| {
            Ok(adelta::AuditInstance {
                name: format!("instance {}", i + 1),
                instance: instance(m, family, sigma)?,
                delta,
                eps,
            })
        })
        .collect()
}

/// `dpbai audit delta` with the threshold given as a preset name, an expression, a Python
/// callable, or `None` (the algorithm's own). `progress(i, n)` is called before instance `i`
/// of `n` and once more with `(n, n)`. Returns the report's JSON text.
#[pyfunction]
#[pyo3(signature = (algo, means_or_battery, *, delta, threshold=None, eps=None, gamma=None,
    rules="paper", alpha=1e-3, seed=1, runs=1000, until_decided=false, first=100, budget=None,
    max_steps=None, family="bernoulli", sigma=None, threads=None, progress=None,
    sampling="algorithm"))]
#[allow(clippy::too_many_arguments)]
fn audit_delta(
    py: Python<'_>,
    algo: &str,
    means_or_battery: &Bound<'_, PyAny>,
    delta: f64,
    threshold: Option<&Bound<'_, PyAny>>,
    eps: Option<f64>,
    gamma: Option<f64>,
    rules: &str,
    alpha: f64,
    seed: u64,
    runs: u64,
    until_decided: bool,
    first: u64,
    budget: Option<u64>,
    max_steps: Option<u64>,
    family: &str,
    sigma: Option<f64>,
    threads: Option<usize>,
    progress: Option<&Bound<'_, PyAny>>,
    sampling: &str,
) -> PyResult<String> {
    let name = algo_name(algo)?;
    check_progress(progress)?;
    let how = "split the instances or the runs over several calls";
    if until_decided {
        limits::check_runs_or("first", first, how).map_err(py_err)?;
        if let Some(b) = budget {
            limits::check_runs_or("budget", b, how).map_err(py_err)?;
        } else {
            limits::check_runs_or(
                "100 * first (the default budget)",
                first.saturating_mul(100),
                how,
            )
            .map_err(py_err)?;
        }
    } else {
        limits::check_runs_or("runs", runs, how).map_err(py_err)?;
    }
    // A Python threshold serialises on the GIL: it runs on one worker whatever `threads`.
    let callable = threshold.is_some_and(|t| t.is_callable());
    let pool = pool(if callable { Some(1) } else { threads })?;
    let instances = audit_instances(means_or_battery, name, delta, eps, family, sigma)?;
    if name.needs_eps() && instances.iter().any(|i| i.eps.is_none()) {
        return Err(value_error(format!(
            "eps is required by {algo} (a private algorithm): pass eps > 0 (or an eps for \
             every instance of the battery)"
        )));
    }
    let mut setting = bandit::Setting::paper(name, delta)
        .and_then(|s| s.with_gamma(gamma))
        .map_err(py_err)?;
    setting.rules = self::rules(rules)?;
    let mut cfg = adelta::DeltaAuditConfig {
        setting,
        threshold: None,
        alpha,
        seed,
        max_steps: max_steps.unwrap_or(adelta::DEFAULT_MAX_STEPS),
        plan: if until_decided {
            adelta::RunPlan::UntilDecided {
                first,
                budget: budget.unwrap_or(100 * first),
            }
        } else {
            adelta::RunPlan::Fixed { runs }
        },
        sampling: sampling.parse().map_err(|_| {
            value_error(format!(
                "invalid sampling = {sampling:?}: must be \"algorithm\" or \"uniform\""
            ))
        })?,
    };
    // The threshold of every instance: the algorithm's own, a Python callable (checked for
    // NaN/±∞) or an expression (bound per instance and checked, as `dpbai audit delta` does).
    let py_th = match threshold {
        Some(t) if t.is_callable() => Some(PyThreshold::checked(t)),
        Some(t) => {
            let text: String = t.extract().map_err(|_| {
                PyTypeError::new_err(
                    "invalid threshold: must be a preset name, an expression or a callable",
                )
            })?;
            cfg.threshold = Some(expr::parse_threshold(&text).map_err(py_err)?);
            None
        }
        None => None,
    };
    let n = instances.len() as u64;
    let progress_fn = progress.map(|p| p.clone().unbind());
    let progress_error: Mutex<Option<PyErr>> = Mutex::new(None);
    let bound: Mutex<Vec<finite::CheckedThreshold>> = Mutex::new(Vec::new());
    let started = std::sync::atomic::AtomicU64::new(0);
    let factory = |inst: &adelta::AuditInstance| -> dpbai::Result<Box<dyn bandit::BaiAlgorithm>> {
        if let Some(p) = &progress_fn {
            let i = started.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if let Err(e) = Python::attach(|py| p.call1(py, (i, n))) {
                if let Ok(mut slot) = progress_error.lock() {
                    slot.get_or_insert(e);
                }
                return Err(dpbai::Error::Parse("progress raised".into()));
            }
        }
        let mut spec = bandit::AlgoSpec::new(cfg.setting_for(inst)?);
        if let Some((th, _)) = &py_th {
            spec.custom_threshold = Some(th.clone() as Arc<dyn CustomThreshold>);
        } else if let Some(t) = &cfg.threshold {
            let checked =
                finite::bind_checked(t, &inst.instance, inst.delta, inst.eps, cfg.setting.rules)?;
            spec.custom_threshold = Some(checked.clone() as Arc<dyn CustomThreshold>);
            if let Ok(mut b) = bound.lock() {
                b.push(checked);
            }
        }
        bandit::build(&spec, &inst.instance)
    };
    let result = if callable {
        // One worker that stays attached to the interpreter for the whole audit: each
        // evaluation then costs a call, not a thread-state set-up (~20 µs).
        py.detach(|| {
            pool.install(|| {
                Python::attach(|_| adelta::audit_delta_with(&cfg, &instances, &factory))
            })
        })
    } else {
        py.detach(|| pool.install(|| adelta::audit_delta_with(&cfg, &instances, &factory)))
    };
    if let Some(e) = progress_error.lock().ok().and_then(|mut s| s.take()) {
        return Err(e);
    }
    if let Some((th, _)) = &py_th {
        PyThreshold::failure(th)?;
    }
    if let Some(e) = bound
        .lock()
        .ok()
        .and_then(|b| b.iter().find_map(|c| c.failure()))
    {
        return Err(value_error(e.to_string()));
    }
    let mut report = result.map_err(py_err)?;
    if let Some((_, label)) = &py_th {
        report.threshold = Some(label.clone());
    }
    report_progress(progress, n, n)?;
    serde_json::to_string(&report)
        .map_err(|e| PyRuntimeError::new_err(format!("serialising the report: {e}")))
}

/// Black-box (DP-Sniper) audit of a Python mechanism, as `dpbai audit dp --mode blackbox` does
/// for the built-in ones: on two neighbouring inputs, or with `space = (lo, hi)` (floats or
/// equal-length lists: a box where neighbours differ in one coordinate) a neighbour search over
/// the box's extremes, `pairs` seeded random pairs and the given `neighbours` (screened with
/// `screen_runs` runs each, the best certified on `runs` fresh runs). `mechanism(x)` returns one
/// float, or with `vectorized` `mechanism(x, n)` returns `n` floats. A NaN or infinite output,
/// or an exception in the mechanism, is a ValueError naming the input. Returns the JSON text of
/// the black-box result (with the pair and the screening scores for a search).
#[pyfunction]
#[pyo3(signature = (mechanism, neighbours=None, *, eps, gamma=None, runs=200_000, alpha=1e-3,
    vectorized=false, space=None, pairs=16, screen_runs=None, seed=1, progress=None))]
#[allow(clippy::too_many_arguments)]
fn audit_dp(
    py: Python<'_>,
    mechanism: &Bound<'_, PyAny>,
    neighbours: Option<(Bound<'_, PyAny>, Bound<'_, PyAny>)>,
    eps: f64,
    gamma: Option<f64>,
    runs: u64,
    alpha: f64,
    vectorized: bool,
    space: Option<(Bound<'_, PyAny>, Bound<'_, PyAny>)>,
    pairs: usize,
    screen_runs: Option<u64>,
    seed: u64,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    check_progress(progress)?;
    if !mechanism.is_callable() {
        return Err(value_error("invalid mechanism: must be a callable"));
    }
    dpbai::error::check_above("eps", eps, 0.0).map_err(py_err)?;
    if let Some(g) = gamma {
        dpbai::error::check_open("gamma", g, 0.0, 1.0).map_err(py_err)?;
    }
    if runs < 4 {
        return Err(value_error(format!(
            "invalid runs = {runs}: must be at least 4"
        )));
    }
    limits::check_runs_or("runs", runs, "audit fewer outputs per call").map_err(py_err)?;
    let claim = match gamma {
        None => adp::Claim::Pure { eps },
        Some(gamma) => adp::Claim::Approx { eps, gamma },
    };
    // Every output must be a finite float: a NaN or ±∞ (or an exception) is a ValueError
    // naming the mechanism and the input, never a sample.
    let label = callable_label(mechanism);
    let bad = |x: &Bound<'_, PyAny>, i: u64, n: u64, v: f64| {
        let xs = x.repr().map_or_else(|_| "x".into(), |r| r.to_string());
        value_error(format!(
            "{label} returned {v} on input {xs} (output {i} of {n}): a mechanism must return \
             finite floats"
        ))
    };
    // Outputs drawn so far, and the total the progress callback is told (2·runs for one pair;
    // a search reports its pairs' outputs as they come, against the same total per pair).
    let done = std::cell::Cell::new(0u64);
    let total = std::cell::Cell::new(2 * runs);
    let sample = |x: &Bound<'_, PyAny>, n: u64| -> PyResult<Vec<f64>> {
        let what = |r: &Bound<'_, PyAny>| r.repr().map_or_else(|_| "?".into(), |r| r.to_string());
        if vectorized {
            let res = mechanism.call1((x, n)).map_err(|e| raised(py, &label, e))?;
            let out: Vec<f64> = match res.extract::<numpy::PyReadonlyArray1<'_, f64>>() {
                Ok(a) => a.as_array().to_vec(),
                Err(_) => res.extract().map_err(|_| {
                    value_error(format!(
                        "{label} returned {}: with vectorized=True it must return {n} floats \
                         (a 1-D float64 array or a list)",
                        what(&res)
                    ))
                })?,
            };
            if out.len() as u64 != n {
                return Err(value_error(format!(
                    "{label}(x, {n}) returned {} values, expected {n}",
                    out.len()
                )));
            }
            if let Some((i, v)) = out.iter().enumerate().find(|(_, v)| !v.is_finite()) {
                return Err(bad(x, i as u64, n, *v));
            }
            done.set(done.get() + n);
            report_progress(progress, done.get().min(total.get()), total.get())?;
            return Ok(out);
        }
        let mut out = Vec::with_capacity(n as usize);
        for i in 0..n {
            let r = mechanism.call1((x,)).map_err(|e| raised(py, &label, e))?;
            let v: f64 = r.extract().map_err(|_| {
                value_error(format!(
                    "{label} returned {}: must return a float",
                    what(&r)
                ))
            })?;
            if !v.is_finite() {
                return Err(bad(x, i, n, v));
            }
            out.push(v);
            if i % 65_536 == 65_535 {
                py.check_signals()?;
                report_progress(progress, (done.get() + i + 1).min(total.get()), total.get())?;
            }
        }
        done.set(done.get() + n);
        report_progress(progress, done.get().min(total.get()), total.get())?;
        Ok(out)
    };
    let Some((lo, hi)) = space else {
        let Some((x0, x1)) = neighbours else {
            return Err(value_error(
                "give neighbours = (x, x_prime), or space = (lo, hi) for a neighbour search",
            ));
        };
        let xs = sample(&x0, runs)?;
        let ys = sample(&x1, runs)?;
        let bb = py
            .detach(|| adp::sniper_real(&xs, &ys, alpha, claim))
            .map_err(py_err)?;
        return serde_json::to_string(&bb)
            .map_err(|e| PyRuntimeError::new_err(format!("serialising the result: {e}")));
    };
    let as_vec = |b: &Bound<'_, PyAny>| -> PyResult<(Vec<f64>, bool)> {
        if let Ok(v) = b.extract::<f64>() {
            return Ok((vec![v], true));
        }
        b.extract::<Vec<f64>>()
            .map(|v| (v, false))
            .map_err(|_| value_error("invalid space: (lo, hi) must be floats or lists of floats"))
    };
    let ((lo, scalar), (hi, _)) = (as_vec(&lo)?, as_vec(&hi)?);
    if lo.is_empty()
        || lo.len() != hi.len()
        || lo
            .iter()
            .zip(&hi)
            .any(|(a, b)| !(a.is_finite() && b.is_finite() && a <= b))
    {
        return Err(value_error(
            "invalid space: lo and hi must have the same length, finite, lo <= hi",
        ));
    }
    if pairs > 10_000 {
        return Err(value_error(format!(
            "invalid pairs = {pairs}: must be at most 10000"
        )));
    }
    let mut user = Vec::new();
    if let Some((x0, x1)) = &neighbours {
        let (a, _) = as_vec(x0)?;
        let (b, _) = as_vec(x1)?;
        user.push((a, b));
    }
    let cands = adp::candidate_pairs(&lo, &hi, pairs, seed, &user);
    let screen = screen_runs.unwrap_or((runs / 10).max(8));
    if screen < 8 || runs < 8 {
        return Err(value_error(format!(
            "invalid screen_runs = {screen} or runs = {runs}: must be at least 8 for a search"
        )));
    }
    total.set(2 * (screen * cands.len() as u64 + runs));
    let to_py = |v: &[f64]| -> PyResult<Py<PyAny>> {
        if scalar {
            Ok(v[0].into_pyobject(py)?.into_any().unbind())
        } else {
            Ok(pyo3::types::PyList::new(py, v)?.into_any().unbind())
        }
    };
    let mut failure: Option<PyErr> = None;
    let r = adp::sniper_search(cands.len(), screen, runs, alpha, claim, |i, side, n, _| {
        let v = if side == 0 { &cands[i].0 } else { &cands[i].1 };
        let x =
            to_py(v).map_err(|e| dpbai::Error::param("input", format!("{v:?}"), e.to_string()))?;
        match sample(x.bind(py), n) {
            Ok(out) => Ok(out),
            Err(e) => {
                let msg = e.to_string();
                failure = Some(e);
                Err(dpbai::Error::param(
                    "mechanism",
                    msg,
                    "finite outputs, no exception",
                ))
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let r = r.map_err(py_err)?;
    let mut v = serde_json::to_value(&r.result)
        .map_err(|e| PyRuntimeError::new_err(format!("serialising the result: {e}")))?;
    v["pair"] = serde_json::json!(cands[r.pair]);
    v["pairs_screened"] = serde_json::json!(cands.len());
    v["screen_scores"] = serde_json::json!(r.screen_scores);
    Ok(v.to_string())
}

/// Names of the threshold presets and their expressions (`dpbai audit delta --list-presets`).
#[pyfunction]
fn threshold_presets() -> Vec<(String, String, bool)> {
    expr::PRESETS
        .iter()
        .map(|p| {
            (
                p.name.to_string(),
                expr::preset(p.name).unwrap_or_default(),
                p.provable(),
            )
        })
        .collect()
}

// ------------------------------------------------------------------------------------------
// Studies and the command line

/// A study (`dpbai experiment`): the TOML text `config` (or the file it names when `is_path`),
/// its cells run or loaded from the cache in `out_dir`, `results.csv` written there; returns
/// the rows as JSON text. `progress(i, n)` is called before cell `i` of `n` and with `(n, n)`
/// at the end.
#[pyfunction]
#[pyo3(signature = (config, is_path, out_dir, *, runs=None, threads=None, progress=None))]
fn experiment(
    py: Python<'_>,
    config: &str,
    is_path: bool,
    out_dir: std::path::PathBuf,
    runs: Option<u64>,
    threads: Option<usize>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    use dpbai::experiment::study::{results, runner, validate, BoundCache};
    check_progress(progress)?;
    if runs == Some(0) {
        return Err(value_error("invalid runs = 0: must be at least 1"));
    }
    let study = if is_path {
        runner::load_study(std::path::Path::new(config), runs)
    } else {
        validate::parse_study_with(config, "config", runs)
    }
    .map_err(py_err)?;
    let threads = match threads {
        Some(0) => return Err(value_error("invalid threads = 0: must be at least 1")),
        Some(t) => limits::check_threads(t).map_err(py_err)?,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    std::fs::create_dir_all(&out_dir).map_err(|e| {
        PyValueError::new_err(format!(
            "invalid out_dir = {:?}: cannot create it ({e})",
            out_dir.display().to_string()
        ))
    })?;
    let n = study.cells.len() as u64;
    let progress_fn = progress.map(|p| p.clone().unbind());
    let progress_error: Mutex<Option<PyErr>> = Mutex::new(None);
    let report = |i: usize, _: &dpbai::experiment::Cell| {
        if let Some(p) = &progress_fn {
            if progress_error.lock().map_or(true, |s| s.is_some()) {
                return;
            }
            if let Err(e) = Python::attach(|py| p.call1(py, (i as u64, n))) {
                if let Ok(mut slot) = progress_error.lock() {
                    slot.get_or_insert(e);
                }
            }
        }
    };
    let cache = runner::cache_dir(&out_dir);
    let rows = py.detach(|| {
        let cells = runner::run_study(&study, &cache, threads, &report)?;
        let rows = runner::rows(&study, &cells, &mut BoundCache::default())?;
        results::write_results(&rows, &out_dir.join("results.csv"))?;
        Ok::<_, dpbai::Error>(rows)
    });
    if let Some(e) = progress_error.lock().ok().and_then(|mut s| s.take()) {
        return Err(e);
    }
    let rows = rows.map_err(py_err)?;
    report_progress(progress, n, n)?;
    serde_json::to_string(&rows)
        .map_err(|e| PyRuntimeError::new_err(format!("serialising the results: {e}")))
}

/// The `dpbai` command line (`argv[0]` is the program name): what the binary does, in this
/// process. Returns the exit code. Standard output and error are flushed before returning.
#[pyfunction]
fn cli_main(py: Python<'_>, argv: Vec<std::ffi::OsString>) -> i32 {
    use std::io::Write as _;
    let code = py.detach(|| cli::main_with_args(argv));
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    code
}

/// The extension module.
#[pymodule]
fn _dpbai(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(elementwise, m)?)?;
    m.add_function(wrap_pyfunction!(rust_loop_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(bounds, m)?)?;
    m.add_function(wrap_pyfunction!(eps_curves, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(audit_delta, m)?)?;
    m.add_function(wrap_pyfunction!(audit_dp, m)?)?;
    m.add_function(wrap_pyfunction!(threshold_presets, m)?)?;
    m.add_function(wrap_pyfunction!(experiment, m)?)?;
    m.add_function(wrap_pyfunction!(cli_main, m)?)?;
    Ok(())
}
