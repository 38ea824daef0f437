//! The δ-correctness audit, the black-box ε-DP audit and the threshold presets (`audit_delta`,
//! `audit_dp`, `threshold_presets`).

use super::*;

/// A Python callable `threshold(t, na, nb, gap, K, delta, eps, sigma) -> float` as a stopping
/// threshold. Each evaluation attaches to the interpreter (takes the GIL). The first exception
/// (or non-float result) is kept and every later evaluation returns `-inf`, which stops the
/// runs at once; [`PyThreshold::failure`] then raises it as a `ValueError` naming the callable.
pub(crate) struct PyThreshold {
    f: Py<PyAny>,
    label: String,
    error: Mutex<Option<PyErr>>,
}

/// A Python threshold wrapped in the finiteness check of expression thresholds, and its label.
type CheckedPy = (Arc<finite::Checked<PyThreshold>>, String);

impl PyThreshold {
    /// The callable `f`, checked for NaN/±∞ like an expression, and its label.
    pub(crate) fn checked(f: &Bound<'_, PyAny>) -> CheckedPy {
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
    pub(crate) fn failure(th: &finite::Checked<PyThreshold>) -> PyResult<()> {
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
/// of `n` and once more with `(n, n)`. Returns the report, typed.
#[pyfunction]
#[pyo3(signature = (algo, means_or_battery, *, delta, threshold=None, eps=None, gamma=None,
    rules="paper", alpha=1e-3, seed=1, runs=1000, until_decided=false, first=100, budget=None,
    max_steps=None, family="bernoulli", sigma=None, threads=None, progress=None,
    sampling="algorithm"))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn audit_delta(
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
) -> PyResult<Py<results::DeltaAudit>> {
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
    setting.rules = super::rules(rules)?;
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
            let base = bandit::algos::threshold_constants(&spec.setting, &inst.instance)?;
            let checked = finite::bind_checked(t, &base)?;
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
    record::from_serde(py, &report)
}

/// Black-box (DP-Sniper) audit of a Python mechanism, as `dpbai audit dp --mode blackbox` does
/// for the built-in ones: on two neighbouring inputs, or with `space = (lo, hi)` (floats or
/// equal-length lists: a box where neighbours differ in one coordinate) a neighbour search over
/// the box's extremes, `pairs` seeded random pairs and the given `neighbours` (screened with
/// `screen_runs` runs each, the best certified on `runs` fresh runs). `mechanism(x)` returns one
/// float, or with `vectorized` `mechanism(x, n)` returns `n` floats. A NaN or infinite output,
/// or an exception in the mechanism, is a ValueError naming the input. Returns the black-box
/// result, typed (with the pair and the screening scores for a search).
#[pyfunction]
#[pyo3(signature = (mechanism, neighbours=None, *, eps, gamma=None, runs=200_000, alpha=1e-3,
    vectorized=false, space=None, pairs=16, screen_runs=None, seed=1, progress=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn audit_dp(
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
) -> PyResult<Py<results::DpAudit>> {
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
        let v = serde_json::to_value(&bb)
            .map_err(|e| PyRuntimeError::new_err(format!("serialising the result: {e}")))?;
        return dp_audit(py, v, eps, gamma, alpha);
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
    dp_audit(py, v, eps, gamma, alpha)
}

/// The typed result of a black-box audit: the library's result `v` and the claim audited.
fn dp_audit(
    py: Python<'_>,
    mut v: serde_json::Value,
    eps: f64,
    gamma: Option<f64>,
    alpha: f64,
) -> PyResult<Py<results::DpAudit>> {
    v["eps_claimed"] = serde_json::json!(eps);
    v["gamma_claimed"] = serde_json::json!(gamma);
    v["confidence"] = serde_json::json!(1.0 - alpha);
    v["mode"] = serde_json::json!("blackbox");
    record::FromJson::from_json(py, &v, "audit_dp")
}

/// Names of the threshold presets and their expressions (`dpbai audit delta --list-presets`).
#[pyfunction]
pub(crate) fn threshold_presets() -> Vec<(String, String, bool)> {
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
