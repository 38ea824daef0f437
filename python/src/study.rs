//! Studies (`experiment`) and the command line (`cli_main`).

use super::*;

/// A study (`dpbai experiment`): the TOML text `config` (or the file it names when `is_path`),
/// its cells run or loaded from the cache in `out_dir`, `results.csv` written there; returns
/// the rows, typed (`out_dir` is `None` in the result when `temporary`). `progress(i, n)` is called before cell `i` of `n` and with `(n, n)`
/// at the end.
#[pyfunction]
#[pyo3(signature = (config, is_path, out_dir, *, temporary=false, runs=None, threads=None,
    progress=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn experiment(
    py: Python<'_>,
    config: &str,
    is_path: bool,
    out_dir: std::path::PathBuf,
    temporary: bool,
    runs: Option<u64>,
    threads: Option<usize>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<crate::results::ExperimentResults> {
    use dpbai::experiment::study::{BoundCache, results, runner, validate};
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
    let rows: Vec<Py<crate::results::ExperimentRow>> = rows
        .iter()
        .map(|r| record::from_serde(py, r))
        .collect::<PyResult<_>>()?;
    Ok(crate::results::ExperimentResults {
        rows: pyo3::types::PyList::new(py, rows)?.unbind(),
        out_dir: (!temporary).then(|| out_dir.display().to_string()),
    })
}

/// The `dpbai` command line (`argv[0]` is the program name): what the binary does, in this
/// process. Returns the exit code. Standard output and error are flushed before returning.
#[pyfunction]
pub(crate) fn cli_main(py: Python<'_>, argv: Vec<std::ffi::OsString>) -> i32 {
    use std::io::Write as _;
    let code = py.detach(|| cli::main_with_args(argv));
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    code
}
