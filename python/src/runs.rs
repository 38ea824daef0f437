//! Seeded Monte Carlo runs (`run`).

use super::*;

/// A rayon pool of `threads` workers (default: all cores).
pub(crate) fn pool(threads: Option<usize>) -> PyResult<rayon::ThreadPool> {
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

pub(crate) fn algo_name(s: &str) -> PyResult<AlgoName> {
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

pub(crate) fn rules(s: &str) -> PyResult<Rules> {
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
/// checked between batches. Returns per-run ndarrays and the CLI's summary, typed.
#[pyfunction]
#[pyo3(signature = (algo, means, *, delta, runs, seed, eps=None, threads=None, rules="paper",
    max_steps=None, family="bernoulli", sigma=None, gamma=None, beta=0.5, options=None,
    threshold=None, step_by_step=false, progress=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn run<'py>(
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
) -> PyResult<results::RunResult> {
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
    let rules_v = super::rules(rules)?;
    let nu = instance(means, family, sigma)?;
    check_delta_beta(delta, beta)?;
    match eps {
        Some(e) => {
            dpbai::params::Epsilon::new(e).map_err(py_err)?;
        }
        None if name.needs_eps() => {
            return Err(value_error(format!(
                "eps is required by {algo} (a private algorithm): pass eps > 0"
            )));
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
            // `ids_beta=True` as a Python bool, `eta=0.5` as a number; every reading also as
            // its flag value.
            let value = match v.extract::<bool>() {
                Ok(b) => b.to_string(),
                Err(_) => match v.extract::<String>() {
                    Ok(text) => text,
                    Err(_) => {
                        let number =
                            dpbai::bandit::readings::reading(&key).is_some_and(|r| r.number);
                        match v.extract::<f64>() {
                            Ok(x) if number => x.to_string(),
                            _ => {
                                return Err(value_error(format!(
                                    "invalid options[{key:?}]: must be a string (a `dpbai run \
                                     --{}` value), a bool (ids_beta) or a number (eta)",
                                    key.replace('_', "-")
                                )));
                            }
                        }
                    }
                },
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
            (Some(_), dpbai::Error::Parse(_) | dpbai::Error::Threshold { .. }) => {
                value_error(format!("invalid threshold: {e}"))
            }
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
    let mut v = serde_json::to_value(&report)
        .map_err(|e| PyRuntimeError::new_err(format!("serialising the summary: {e}")))?;
    if let Some((_, label)) = &py_th {
        v["threshold"] = serde_json::Value::from(label.as_str());
    }
    let summary = record::FromJson::from_json(py, &v, "summary")?;
    let o = |r: &mc::RunRecord| r.outcome;
    let rounds = records
        .iter()
        .map(|r| o(r).rounds.map_or(f64::NAN, |x| x as f64));
    Ok(results::RunResult {
        tau: PyArray1::from_iter(py, records.iter().map(|r| o(r).tau)).unbind(),
        recommendation: PyArray1::from_iter(
            py,
            records.iter().map(|r| o(r).recommendation as i64 + 1),
        )
        .unbind(),
        stopped: PyArray1::from_iter(py, records.iter().map(|r| o(r).stopped)).unbind(),
        rounds: PyArray1::from_iter(py, rounds).unbind(),
        summary,
    })
}
