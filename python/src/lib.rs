//! `dpbai._dpbai`: the PyO3 extension module behind the `dpbai` Python package (issue 15).
//!
//! Thin bindings of the `dpbai` library: every number is computed by the library; this crate
//! only converts arguments and results (ndarrays, dicts) and maps [`dpbai::Error`] to Python
//! exceptions (`ValueError` for bad input, `RuntimeError` otherwise). The Python package
//! (`python/dpbai/`) wraps these functions with docstrings, numpy broadcasting and result
//! classes. Long computations release the GIL ([`Python::detach`]); [`run`] checks for Ctrl-C
//! between batches of runs.

#![forbid(unsafe_code)]

use dpbai::audit::{delta as adelta, dp as adp, expr, finite};
use dpbai::bandit::{self, AlgoName, CustomThreshold, Rules, ThresholdVars};
use dpbai::complexity::{self, upper, Certified};
use dpbai::instance::{Family, Instance};
use dpbai::{divergence, mc, special};
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArray1, PyArrayDyn, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::sync::{Arc, Mutex};
use std::time::Instant;

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

// ------------------------------------------------------------------------------------------
// Special functions and divergences, element-wise

type R = dpbai::Result<f64>;

/// The element-wise kernels, by their Python names.
#[derive(Clone, Copy)]
enum Kernel {
    One(fn(f64) -> R),
    Two(fn(f64, f64) -> R),
    Three(fn(f64, f64, f64) -> R),
}

/// A number of arms `K` given as a float: an integer >= 2.
fn arms(k: f64) -> dpbai::Result<usize> {
    if k.fract() == 0.0 && (2.0..=1e15).contains(&k) {
        Ok(k as usize)
    } else {
        Err(dpbai::Error::param("K", k, "an integer >= 2"))
    }
}

fn kernel(name: &str) -> Option<Kernel> {
    use Kernel::*;
    Some(match name {
        "lambert_w0" => One(special::lambert_w0),
        "lambert_wm1" => One(special::lambert_wm1),
        "wbar_m1" => One(special::wbar_m1),
        "zeta" => One(special::zeta),
        "c_g" => One(special::c_g),
        "k" => One(special::k),
        "g1" => One(special::g1),
        "g2" => One(special::g2),
        "erf" => One(|x| Ok(special::erf(x))),
        "erfc" => One(|x| Ok(special::erfc(x))),
        "h" => Three(|x, d, k| special::h(x, d, arms(k)?)),
        "c_l36" => Three(|x, d, k| special::c_l36(x, d, arms(k)?)),
        "h1" => Two(special::h1),
        "kl_bernoulli" => Two(divergence::kl_bernoulli),
        "kl_gaussian" => Three(divergence::kl_gaussian),
        "tv_bernoulli" => Two(divergence::tv_bernoulli),
        "tv2_bernoulli" => Two(divergence::tv2_bernoulli),
        "tv_gaussian" => Three(divergence::tv_gaussian),
        "c_local" => One(divergence::c_local),
        "rr_mean" => Two(divergence::rr_mean),
        "kl_delta" => One(divergence::kl_delta),
        _ => return None,
    })
}

/// `out[i] = f(a[i], b[i], ...)`; stops at the first error.
fn apply(k: Kernel, args: &[&[f64]], out: &mut [f64]) -> dpbai::Result<()> {
    match k {
        Kernel::One(f) => {
            for (o, &x) in out.iter_mut().zip(args[0]) {
                *o = f(x)?;
            }
        }
        Kernel::Two(f) => {
            for (o, (&x, &y)) in out.iter_mut().zip(args[0].iter().zip(args[1])) {
                *o = f(x, y)?;
            }
        }
        Kernel::Three(f) => {
            let it = args[0].iter().zip(args[1]).zip(args[2]);
            for (o, ((&x, &y), &z)) in out.iter_mut().zip(it) {
                *o = f(x, y, z)?;
            }
        }
    }
    Ok(())
}

fn arity(k: Kernel) -> usize {
    match k {
        Kernel::One(_) => 1,
        Kernel::Two(_) => 2,
        Kernel::Three(_) => 3,
    }
}

/// Evaluates the function `name` element-wise on C-contiguous float64 arrays of one common
/// shape (the Python side broadcasts them), with the GIL released.
#[pyfunction]
fn elementwise<'py>(
    py: Python<'py>,
    name: &str,
    args: Vec<PyReadonlyArrayDyn<'py, f64>>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let k = kernel(name).ok_or_else(|| value_error(format!("unknown function {name:?}")))?;
    if args.len() != arity(k) {
        return Err(value_error(format!(
            "{name} takes {} argument(s), got {}",
            arity(k),
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
    let f: fn(f64) -> R = match kernel(name) {
        Some(Kernel::One(f)) => f,
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
    let fam = match family {
        "bernoulli" => {
            if let Some(s) = sigma {
                return Err(value_error(format!(
                    "invalid sigma = {s}: only meaningful with family = \"gaussian\""
                )));
            }
            Family::Bernoulli
        }
        "gaussian" => Family::Gaussian {
            sigma: sigma.unwrap_or(1.0),
        },
        other => {
            return Err(value_error(format!(
                "invalid family = {other:?}: must be \"bernoulli\" or \"gaussian\""
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
    let lf = complexity::log_factor(delta).map_err(e)?;
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
    match s {
        "paper" => Ok(Rules::Paper),
        "reference" => Ok(Rules::Reference),
        _ => Err(value_error(format!(
            "invalid rules = {s:?}: must be \"paper\" or \"reference\""
        ))),
    }
}

/// The CLI's default `--max-steps` of `dpbai run`.
const DEFAULT_MAX_STEPS: u64 = 100_000_000;
/// A batch of runs is grown (doubled) until it lasts this long: Ctrl-C is then honoured within
/// about this many seconds.
const BATCH_SECONDS: f64 = 0.25;

/// Seeded Monte Carlo runs, as `dpbai run` does them (run `r` draws from
/// `rng_for_run(seed, r)`), in batches with the GIL released; Ctrl-C (`KeyboardInterrupt`) is
/// checked between batches. Returns per-run arrays and the JSON text of the CLI's summary.
#[pyfunction]
#[pyo3(signature = (algo, means, *, delta, runs, seed, eps=None, threads=None, rules="paper",
    max_steps=None, family="bernoulli", sigma=None, gamma=None, beta=0.5, options=None,
    threshold=None, step_by_step=false))]
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
    threshold: Option<String>,
    step_by_step: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let name = algo_name(algo)?;
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
    let max_steps = max_steps.unwrap_or(DEFAULT_MAX_STEPS);
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
        threshold.as_deref(),
        step_by_step,
        runs,
        seed,
        max_steps,
    );
    let (alg, checked) = spec.build().map_err(|e| match (&threshold, &e) {
        (Some(_), dpbai::Error::Parse(_)) => value_error(format!("invalid threshold: {e}")),
        _ => py_err(e),
    })?;
    let pool = pool(Some(threads))?;

    let start = Instant::now();
    let mut records: Vec<mc::RunRecord> = Vec::with_capacity(runs as usize);
    let mut batch = (threads as u64 * 4).max(8);
    while (records.len() as u64) < runs {
        let lo = records.len() as u64;
        let hi = lo.saturating_add(batch).min(runs);
        let idx: Vec<u64> = (lo..hi).collect();
        let t0 = Instant::now();
        let part = py.detach(|| {
            pool.install(|| mc::simulate_runs(alg.as_ref(), seed, max_steps, &idx, &|| {}))
        });
        records.extend(part);
        if t0.elapsed().as_secs_f64() < BATCH_SECONDS {
            batch = batch.saturating_mul(2);
        }
        py.check_signals()?;
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
    Ok(d)
}

// ------------------------------------------------------------------------------------------
// Audits

/// A Python callable `threshold(t, na, nb, gap, K, delta, eps, sigma) -> float` as a stopping
/// threshold. Each evaluation attaches to the interpreter (takes the GIL). The first exception
/// (or non-float result) is kept and every later evaluation returns `-inf`, which stops the
/// runs at once; the audit then re-raises it.
struct PyThreshold {
    f: Py<PyAny>,
    error: Mutex<Option<PyErr>>,
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
            match self.f.call1(py, args).and_then(|r| r.extract::<f64>(py)) {
                Ok(x) => x,
                Err(e) => failed(e),
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
/// callable, or `None` (the algorithm's own). Returns the report's JSON text.
#[pyfunction]
#[pyo3(signature = (algo, means_or_battery, *, delta, threshold=None, eps=None, gamma=None,
    rules="paper", alpha=1e-3, seed=1, runs=1000, until_decided=false, first=100, budget=None,
    max_steps=None, family="bernoulli", sigma=None, threads=None))]
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
) -> PyResult<String> {
    let name = algo_name(algo)?;
    // A Python threshold serialises on the GIL: it runs on one worker whatever `threads`.
    let callable = threshold.is_some_and(|t| t.is_callable());
    let pool = pool(if callable { Some(1) } else { threads })?;
    let instances = audit_instances(means_or_battery, name, delta, eps, family, sigma)?;
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
    };
    let report = match threshold {
        None => py.detach(|| pool.install(|| adelta::audit_delta(&cfg, &instances))),
        Some(t) if t.is_callable() => {
            let label = t
                .getattr("__qualname__")
                .and_then(|q| q.extract::<String>())
                .unwrap_or_else(|_| "<callable>".into());
            let label = format!("python callable {label}");
            // A NaN or ±∞ value ends the runs and becomes a ValueError (the check of issue 12
            // that expression thresholds get), never runs ground on to the cap.
            let th = Arc::new(finite::Checked::new(
                PyThreshold {
                    f: t.clone().unbind(),
                    error: Mutex::new(None),
                },
                label.clone(),
            ));
            let dynth: Arc<dyn CustomThreshold> = th.clone();
            // One worker that stays attached to the interpreter for the whole audit: each
            // evaluation then costs a call, not a thread-state set-up (~20 µs).
            let r = py.detach(|| {
                pool.install(|| {
                    Python::attach(|_| {
                        adelta::audit_delta_with_threshold(&cfg, &instances, dynth, &label)
                    })
                })
            });
            if let Some(e) = th.inner().error.lock().ok().and_then(|mut s| s.take()) {
                return Err(e);
            }
            if let Some(e) = th.failure() {
                return Err(value_error(e.to_string()));
            }
            r
        }
        Some(t) => {
            let text: String = t.extract().map_err(|_| {
                value_error("invalid threshold: must be a preset name, an expression or a callable")
            })?;
            cfg.threshold = Some(expr::parse_threshold(&text).map_err(py_err)?);
            py.detach(|| pool.install(|| adelta::audit_delta(&cfg, &instances)))
        }
    }
    .map_err(py_err)?;
    serde_json::to_string(&report)
        .map_err(|e| PyRuntimeError::new_err(format!("serialising the report: {e}")))
}

/// Black-box (DP-Sniper) audit of a Python mechanism on two neighbouring inputs, as
/// `dpbai audit dp --mode blackbox` does for the built-in ones. `mechanism(x)` returns one
/// float, or with `vectorized` `mechanism(x, n)` returns `n` floats. Returns the JSON text of
/// the black-box result.
#[pyfunction]
#[pyo3(signature = (mechanism, neighbours, *, eps, gamma=None, runs=200_000, alpha=1e-3,
    vectorized=false))]
#[allow(clippy::too_many_arguments)]
fn audit_dp(
    py: Python<'_>,
    mechanism: &Bound<'_, PyAny>,
    neighbours: (Bound<'_, PyAny>, Bound<'_, PyAny>),
    eps: f64,
    gamma: Option<f64>,
    runs: u64,
    alpha: f64,
    vectorized: bool,
) -> PyResult<String> {
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
    let claim = match gamma {
        None => adp::Claim::Pure { eps },
        Some(gamma) => adp::Claim::Approx { eps, gamma },
    };
    let sample = |x: &Bound<'_, PyAny>| -> PyResult<Vec<f64>> {
        if vectorized {
            let res = mechanism.call1((x, runs))?;
            let out: Vec<f64> = match res.extract::<numpy::PyReadonlyArray1<'_, f64>>() {
                Ok(a) => a.as_array().to_vec(),
                Err(_) => res.extract()?,
            };
            if out.len() as u64 != runs {
                return Err(value_error(format!(
                    "mechanism(x, {runs}) returned {} values, expected {runs}",
                    out.len()
                )));
            }
            return Ok(out);
        }
        let mut out = Vec::with_capacity(runs as usize);
        for i in 0..runs {
            out.push(mechanism.call1((x,))?.extract::<f64>()?);
            if i % 65_536 == 65_535 {
                py.check_signals()?;
            }
        }
        Ok(out)
    };
    let xs = sample(&neighbours.0)?;
    let ys = sample(&neighbours.1)?;
    let bb = py
        .detach(|| adp::sniper_real(&xs, &ys, alpha, claim))
        .map_err(py_err)?;
    serde_json::to_string(&bb)
        .map_err(|e| PyRuntimeError::new_err(format!("serialising the result: {e}")))
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
                p.provable,
            )
        })
        .collect()
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
    Ok(())
}
