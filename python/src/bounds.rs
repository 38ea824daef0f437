//! Characteristic times, switches and bound formulas (`bounds`, `eps_curves`).

use super::*;

pub(crate) fn instance(means: Vec<f64>, family: &str, sigma: Option<f64>) -> PyResult<Instance> {
    let name = family.parse::<FamilyName>().map_err(|_| {
        value_error(format!(
            "invalid family = {family:?}: must be \"bernoulli\" or \"gaussian\""
        ))
    })?;
    let fam = Family::of(name, sigma).map_err(py_err)?;
    Instance::new(fam, means).map_err(py_err)
}

pub(crate) fn check_delta_beta(delta: f64, beta: f64) -> PyResult<()> {
    dpbai::params::Delta::new(delta).map_err(py_err)?;
    dpbai::params::Beta::new(beta).map_err(py_err)?;
    Ok(())
}

/// The ε range of the bounds, as `dpbai bounds` has it: at most
/// `divergence::C_LOCAL_EPS_MAX`, where `c(ε) = 4(e^ε − 1)²` is still a double.
fn check_c_eps(eps: f64) -> PyResult<()> {
    let max = dpbai::divergence::C_LOCAL_EPS_MAX;
    if eps <= max {
        Ok(())
    } else {
        Err(value_error(format!(
            "invalid eps = {}: must be at most {max} (c(eps) = 4(e^eps - 1)^2 exceeds the \
             largest double beyond)",
            dpbai::error::compact_number(eps)
        )))
    }
}

/// Characteristic times with certificates, switches and bound formulas: the object of
/// `dpbai bounds --json` (one builder, `cli::bounds::bounds_json`), typed.
#[pyfunction]
#[pyo3(signature = (means, family="bernoulli", sigma=None, eps=None, delta=0.01, beta=0.5))]
pub(crate) fn bounds(
    py: Python<'_>,
    means: Vec<f64>,
    family: &str,
    sigma: Option<f64>,
    eps: Option<f64>,
    delta: f64,
    beta: f64,
) -> PyResult<Py<results::Bounds>> {
    let nu = instance(means, family, sigma)?;
    check_delta_beta(delta, beta)?;
    if let Some(e) = eps {
        dpbai::params::Epsilon::new(e).map_err(py_err)?;
        check_c_eps(e)?;
    }
    let delta = dpbai::params::Delta::new(delta).map_err(py_err)?;
    let v = py
        .detach(|| cli::bounds::bounds_json(&nu, eps, delta, beta))
        .map_err(|e| match e.downcast::<dpbai::Error>() {
            Ok(e) => py_err(e),
            Err(e) => PyRuntimeError::new_err(e.to_string()),
        })?;
    record::FromJson::from_json(py, &v, "bounds")
}

/// Every ε-dependent quantity of `dpbai bounds --eps-grid` on the given ε values, one ndarray
/// per column (NaN where a quantity is undefined: relaxed_local and the refused CTB-TT bounds of
/// Gaussian arms; `*_branch` columns: 1 = the g1 term of Thm. 24, 2 = the g2 term).
#[pyfunction]
#[pyo3(signature = (means, eps, family="bernoulli", sigma=None, delta=0.01, beta=0.5))]
pub(crate) fn eps_curves<'py>(
    py: Python<'py>,
    means: Vec<f64>,
    eps: Vec<f64>,
    family: &str,
    sigma: Option<f64>,
    delta: f64,
    beta: f64,
) -> PyResult<results::EpsCurves> {
    let nu = instance(means, family, sigma)?;
    check_delta_beta(delta, beta)?;
    let delta = dpbai::params::Delta::new(delta).map_err(py_err)?;
    for &x in &eps {
        dpbai::params::Epsilon::new(x).map_err(py_err)?;
        check_c_eps(x)?;
    }
    use complexity::curves::{EPS_CURVE_COLUMNS, EPS_CURVE_WIDTH, eps_curves as rows_of};
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
    Ok(results::EpsCurves {
        columns: d.unbind(),
    })
}
