//! Special functions and divergences, element-wise, over numpy arrays (the catalogue of
//! `dpbai::functions`).

use super::*;

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
pub(crate) fn elementwise<'py>(
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
pub(crate) fn rust_loop_seconds(
    py: Python<'_>,
    name: &str,
    x: PyReadonlyArrayDyn<'_, f64>,
) -> PyResult<f64> {
    let xs: Vec<f64> = x.as_array().iter().copied().collect();
    let f: fn(f64) -> R = match functions::lookup(name).map(|f| f.eval) {
        Some(Eval::One(f)) => f,
        _ => {
            return Err(value_error(format!(
                "{name:?} is not a one-argument function"
            )));
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
