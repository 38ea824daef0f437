//! The result classes of the Python API, each declared once with [`record!`] (frozen, every
//! field a read-only attribute, `to_dict()`, `__repr__`); per-run data and allocations are
//! numpy arrays. Their stubs are in `python/dpbai/_dpbai.pyi` (checked by `stubtest`).

use crate::record::{F64Array, record};
use pyo3::exceptions::{PyImportError, PyKeyError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// `pandas`, or an `ImportError` saying how to get it.
fn pandas(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("pandas")
        .map_err(|_| PyImportError::new_err("to_pandas() needs pandas: pip install pandas"))
}

record! {
    /// A characteristic time with its certificate: `lower <= value <= upper` (proven bounds,
    /// relative width <= 1e-9) and the optimal `allocation` (sums to 1).
    Certified {
        value: f64,
        lower: f64,
        upper: f64,
        allocation: F64Array,
    }
}

record! {
    /// An asymptotic upper bound on `limsup E[τ]/log(1/δ)` with its labels.
    UpperBound {
        /// The bound (`None` when refused or not finite).
        value: Option<f64>,
        /// Why the theorem's assumptions fail here, if they do.
        note: Option<String>,
        /// The privacy model of the algorithm.
        model: String,
        /// "asymptotic, δ → 0; not a finite-δ bound".
        regime: String,
        /// The characteristic time of the lower bound that binds the algorithm.
        lower_time: String,
        /// Its value (`None` when not computed: no ε).
        lower_time_value: Option<f64>,
        /// Why no bound is given (CTB-TT on Gaussian arms), if none is.
        refused: Option<String>,
    }
}

record! {
    /// The three readings of Thm. 24 (AdaP-TT*) with their active branches ("g1" or "g2")
    /// and the ε where each curve jumps.
    AdapTtStarBound {
        thm24_main: f64,
        lemma52_app: f64,
        proof_max: f64,
        note: Option<String>,
        model: String,
        regime: String,
        lower_time: String,
        lower_time_value: Option<f64>,
        thm24_main_branch: String,
        lemma52_app_branch: String,
        proof_max_branch: String,
        switch_eps_main: f64,
        switch_eps_lemma52: f64,
    }
}

record! {
    /// The upper-bound formulas, per unit of `log(1/δ)` (the private ones need ε). `dp_tt` is
    /// DP-TT's `2(1 + η)·T*_{ε,β}` (η = 1) and `dp_tt_8t_eps` its `8·T*_ε` (BAI25 poster;
    /// `lower_time` "t_eps"; refused for Gaussian arms).
    UpperBounds {
        dpa: Py<UpperBound>,
        ctb_tt: Option<Py<UpperBound>>,
        ctb_tt_ids: Option<Py<UpperBound>>,
        adap_tt: Option<Py<UpperBound>>,
        adap_tt_star: Option<Py<AdapTtStarBound>>,
        dp_tt: Option<Py<UpperBound>>,
        dp_tt_8t_eps: Option<Py<UpperBound>>,
    }
}

record! {
    /// The factor of each sample-complexity lower bound: "log(1/(2.4 delta))" (the first
    /// paper's L. 5, Thm. 10, 17) or "log(1/(3 delta))" (BAI25's `T*_ε` bound).
    LowerBoundFactors {
        non_private: String,
        local: String,
        global_: String,
        t_eps: String,
    }
}

record! {
    /// Sample-complexity lower bounds per privacy setting, each with its factor (`factors`):
    /// `T·log(1/(2.4δ))` for `non_private`, `local`, `global_` (the key `global` of
    /// `to_dict()`), and BAI25's `T*_ε·log(1/(3δ))` for `t_eps` (Bernoulli arms, with ε).
    SampleLowerBounds {
        non_private: f64,
        local: Option<f64>,
        global_: Option<f64>,
        t_eps: Option<f64>,
        factors: Py<LowerBoundFactors>,
    }
}

record! {
    /// Where BAI25's `T*_ε` meets `T*_KL`: `exact` (the smallest ε with `C*_ε = C*_KL` at the
    /// KL-optimal allocation; `T*_ε = T*_KL` iff ε >= it) and the poster's `sufficient`
    /// condition; `None` when infinite (a mean at 0 or 1).
    LowPrivacySwitch {
        exact: Option<f64>,
        sufficient: Option<f64>,
    }
}

/// The characteristic times of [`Bounds`], in order.
const TIMES: [&str; 11] = [
    "t_kl",
    "t_kl_gaussian",
    "t_kl_beta",
    "t_tv",
    "t_tv2",
    "t_local",
    "t_global",
    "t_kl_g_eps",
    "t_kl_beta_g_eps",
    "t_eps",
    "t_eps_beta",
];

record! {
    /// Result of `bounds()`: the fields of `dpbai bounds --json`.
    ///
    /// Characteristic times (`Certified`; the ε-dependent ones `None` when `eps` is not given):
    /// `t_kl`, `t_kl_gaussian`, `t_kl_beta`, `t_tv`, `t_tv2`, `t_local` (Thm. 10, for Bernoulli
    /// and Gaussian arms alike), `t_global`, `t_kl_g_eps`, `t_kl_beta_g_eps`, and BAI25's tight
    /// global-DP times `t_eps` (`T*_ε`) and `t_eps_beta` (`T*_{ε,β}`), Bernoulli arms only.
    /// Switches: `eps_switch_local`, `eps_switch_global`, `eps_switch_per_arm` (ndarray, `2Δ_a`,
    /// NaN for the best arm), `eps_switch_low_privacy` (BAI25; Bernoulli arms).
    /// Bound formulas: `log_factor` (`log(1/(2.4δ))`), `log_factor_bai25` (`log(1/(3δ))`),
    /// `sample_lower_bounds` (each with its factor) and `upper_bounds` (per unit of
    /// `log(1/δ)`).
    ///
    /// Every upper bound is asymptotic (`regime`: "asymptotic, δ → 0; not a finite-δ bound")
    /// and names its privacy `model` ("non-private" for `dpa`, the batched non-private DPA-TT
    /// of App. H; "eps-local DP" for CTB-TT; "eps-global DP" for AdaP-TT and AdaP-TT*), the
    /// characteristic time of the lower bound that binds its algorithm (`lower_time`: `t_kl`,
    /// `t_local` or `t_global`, and its `lower_time_value`), a `note` when the theorem's
    /// assumptions fail and, for `ctb_tt`/`ctb_tt_ids`, `refused` (with `value` None) on
    /// Gaussian arms, where randomised response is undefined. `adap_tt_star` adds the active
    /// branch of each reading of Thm. 24 (`thm24_main_branch`, `lemma52_app_branch`,
    /// `proof_max_branch`: "g1" or "g2") and the ε where the curve jumps (`switch_eps_main` =
    /// `2Δ_max`, `switch_eps_lemma52` = `Δ_max/3`).
    ///
    /// Gaussian arms: every private proxy (`t_kl_g_eps`, `t_kl_beta_g_eps`, `two_h_g_eps`) and
    /// upper bound takes the instance's `sigma` (App. G keeps σ symbolic); AdaP-TT and AdaP-TT*
    /// are then δ-correct but not ε-DP (DAF's noise assumes rewards in `[0, 1]`), so their
    /// `lower_time` is `t_kl`.
    Bounds {
        family: String,
        sigma: f64,
        means: F64Array,
        best_arm: u64,
        delta: f64,
        beta: f64,
        eps: Option<f64>,
        t_kl: Py<Certified>,
        t_kl_gaussian: Py<Certified>,
        t_kl_beta: Py<Certified>,
        t_tv: Py<Certified>,
        t_tv2: Py<Certified>,
        t_local: Option<Py<Certified>>,
        t_global: Option<Py<Certified>>,
        t_kl_g_eps: Option<Py<Certified>>,
        t_kl_beta_g_eps: Option<Py<Certified>>,
        t_eps: Option<Py<Certified>>,
        t_eps_beta: Option<Py<Certified>>,
        hardness_h: f64,
        eps_switch_local: f64,
        eps_switch_global: f64,
        /// `2Δ_a` per arm, NaN for the best arm.
        eps_switch_per_arm: F64Array,
        log_factor: f64,
        log_factor_bai25: f64,
        eps_switch_low_privacy: Option<Py<LowPrivacySwitch>>,
        c_eps: Option<f64>,
        two_h_g_eps: Option<f64>,
        h_eps_sec43: Option<f64>,
        h_eps_app_b: Option<f64>,
        sample_lower_bounds: Py<SampleLowerBounds>,
        upper_bounds: Py<UpperBounds>,
    }
    methods {
        /// The characteristic times that are defined, by name.
        fn times<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
            let d = PyDict::new(slf.py());
            for k in TIMES {
                let v = slf.getattr(k)?;
                if !v.is_none() {
                    d.set_item(k, v)?;
                }
            }
            Ok(d)
        }

        /// The defined characteristic times as a `pandas.DataFrame` indexed by name, with
        /// columns `value`, `lower`, `upper` and `allocation`.
        fn to_pandas<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let pd = pandas(py)?;
            let rows = PyDict::new(py);
            for (k, c) in Self::times(slf)?.iter() {
                let c = c.call_method0("to_dict")?;
                rows.set_item(k, c)?;
            }
            let kw = PyDict::new(py);
            kw.set_item("orient", "index")?;
            pd.getattr("DataFrame")?
                .call_method("from_dict", (rows,), Some(&kw))
        }
    }
}

/// Result of `eps_curves()`: column name → float64 ndarray (one entry per ε), read like a
/// mapping (`c["t_global"]`, `"t_kl" in c`, `c.keys()`).
#[pyclass(frozen, module = "dpbai._dpbai")]
pub struct EpsCurves {
    pub columns: Py<PyDict>,
}

#[pymethods]
impl EpsCurves {
    fn __getitem__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.columns
            .bind(py)
            .get_item(name)?
            .ok_or_else(|| PyKeyError::new_err(name.to_string()))
    }
    fn __contains__(&self, py: Python<'_>, name: &str) -> PyResult<bool> {
        self.columns.bind(py).contains(name)
    }
    fn __len__(&self, py: Python<'_>) -> usize {
        self.columns.bind(py).len()
    }
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.columns.bind(py).keys().as_any().try_iter()?.into_any())
    }
    /// The column names, in the order of `dpbai bounds --eps-grid`.
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        Ok(self.columns.bind(py).keys())
    }
    /// `(name, column)` pairs.
    fn items<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        self.columns.bind(py).items()
    }
    /// The columns, in order.
    fn values<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        self.columns.bind(py).values()
    }
    /// The columns as a dict of ndarrays.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.columns.bind(py).copy()
    }
    /// The columns as a `pandas.DataFrame`.
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        pandas(py)?
            .getattr("DataFrame")?
            .call1((self.to_dict(py)?,))
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let d = self.columns.bind(py);
        let n = match d.values().iter().next() {
            Some(col) => col.len()?,
            None => 0,
        };
        Ok(format!("EpsCurves({} columns × {n} ε values)", d.len()))
    }
}

record! {
    /// Censoring-aware statistics of τ (capped runs as right-censored observations).
    Censored {
        runs: u64,
        capped: u64,
        /// The cap (`None` when no run is censored).
        cap: Option<u64>,
        /// Kaplan–Meier median (`None`: beyond the cap).
        km_median: Option<u64>,
        km_q25: Option<u64>,
        km_q75: Option<u64>,
        mean: f64,
        mean_is_lower_bound: bool,
        mean_ci95_lo: Option<f64>,
        mean_ci95_hi: Option<f64>,
    }
}

record! {
    /// The summary of `run()`: the object `dpbai run --json` prints.
    RunSummary {
        version: String,
        algo: String,
        family: String,
        sigma: Option<f64>,
        means: Vec<f64>,
        /// 1-based, as on the command line.
        best_arm: u64,
        delta: f64,
        eps: Option<f64>,
        gamma: Option<f64>,
        beta: f64,
        rules: String,
        seed: u64,
        runs: u64,
        max_steps: Option<u64>,
        /// Non-default readings and engine options, as `dpbai run` flags.
        options: Vec<String>,
        /// The digest of the run's specification.
        cell: String,
        shard: Option<String>,
        summarised_runs: u64,
        mean_tau: f64,
        std_tau: Option<f64>,
        median_tau: f64,
        min_tau: u64,
        max_tau: u64,
        mean_tau_stopped: Option<f64>,
        total_samples: u64,
        errors: u64,
        error_rate: f64,
        error_ci: (f64, f64),
        error_ci_worst_case: (f64, f64),
        unstopped: u64,
        unstopped_wrong: u64,
        mean_rounds: Option<f64>,
        censored: Py<Censored>,
        elapsed_s: f64,
        samples_per_s: f64,
        /// The name of a Python callable threshold, if one replaced the algorithm's.
        threshold: Option<String>,
    }
}

/// Result of `run()`: per-run ndarrays and the summary.
#[pyclass(frozen, get_all, module = "dpbai._dpbai")]
pub struct RunResult {
    /// Samples drawn by each run (the capped value for an unstopped run), uint64.
    pub tau: Py<numpy::PyArray1<u64>>,
    /// The recommended arm, **1-based**, int64.
    pub recommendation: Py<numpy::PyArray1<i64>>,
    /// `False` for a run capped by `max_steps`.
    pub stopped: Py<numpy::PyArray1<bool>>,
    /// Rounds of adaptivity (NaN where the algorithm does not define them).
    pub rounds: F64Array,
    pub summary: Py<RunSummary>,
}

const RUN_FIELDS: [&str; 5] = ["tau", "recommendation", "stopped", "rounds", "summary"];

#[pymethods]
impl RunResult {
    /// The result as plain Python data (the summary as a dict).
    fn to_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        crate::record::to_dict(slf.as_any(), &RUN_FIELDS)
    }
    /// One row per run: `run` (0-based run index `r`, seeded by `rng_for_run(seed, r)`),
    /// `tau` (uint64), `recommendation` (int64), `stopped`, `rounds` (nullable `Int64`: `<NA>`
    /// where the algorithm has no phases), then the configuration on every row (
    /// `algo`, `family`, `means` as `"0.9,0.5"`, `delta`, `eps` and `gamma` (NaN when absent),
    /// `beta`, `rules`, `seed`, `max_steps`), so that the frames of several calls concatenate
    /// without `.assign`; the summary in `df.attrs["summary"]`. docs/GLOSSARY.md defines every
    /// column.
    fn to_pandas<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let pd = pandas(py)?;
        let me = slf.get();
        let cols = PyDict::new(py);
        let n = me.tau.bind(py).len()?;
        let runs: Vec<u64> = (0..n as u64).collect();
        cols.set_item("run", numpy::PyArray1::from_vec(py, runs))?;
        for k in &RUN_FIELDS[..3] {
            cols.set_item(*k, slf.getattr(*k)?)?;
        }
        cols.set_item(
            "rounds",
            pd.call_method1("array", (slf.getattr("rounds")?, "Int64"))?,
        )?;
        let s = me.summary.get();
        let or_nan = |v: Option<f64>| v.unwrap_or(f64::NAN);
        let means: Vec<String> = s.means.iter().map(|m| m.to_string()).collect();
        cols.set_item("algo", s.algo.as_str())?;
        cols.set_item("family", s.family.as_str())?;
        cols.set_item("means", means.join(","))?;
        cols.set_item("delta", s.delta)?;
        cols.set_item("eps", or_nan(s.eps))?;
        cols.set_item("gamma", or_nan(s.gamma))?;
        cols.set_item("beta", s.beta)?;
        cols.set_item("rules", s.rules.as_str())?;
        cols.set_item("seed", s.seed)?;
        match s.max_steps {
            Some(m) => cols.set_item("max_steps", m)?,
            None => cols.set_item("max_steps", f64::NAN)?,
        }
        let df = pd.getattr("DataFrame")?.call1((cols,))?;
        df.getattr("attrs")?
            .set_item("summary", me.summary.bind(py).call_method0("to_dict")?)?;
        Ok(df)
    }
    fn __repr__(&self) -> String {
        let s = self.summary.get();
        format!(
            "RunResult(algo='{}', runs={}, seed={}, mean_tau={}, unstopped={}, errors={})",
            s.algo, s.runs, s.seed, s.mean_tau, s.unstopped, s.errors
        )
    }
}

record! {
    /// One instance of a δ-audit.
    DeltaInstance {
        name: String,
        family: String,
        means: Vec<f64>,
        delta: f64,
        eps: Option<f64>,
        runs: u64,
        errors: u64,
        unstopped: u64,
        error_rate: f64,
        /// Confidence interval on `P(τ < ∞, â ≠ a*)`.
        ci: (f64, f64),
        verdict: String,
        looks: u64,
        alpha_look: f64,
        runs_to_decide: Option<u64>,
        more_runs: Option<u64>,
        /// Mean τ over the stopped runs (NaN when none stopped).
        mean_tau: f64,
        max_tau: u64,
        /// The step cap of its runs.
        step_cap: u64,
        skipped: Option<String>,
    }
}

record! {
    /// Result of `audit_delta()`: the fields of `dpbai audit delta --json`.
    DeltaAudit {
        algo: String,
        threshold: Option<String>,
        sampling: String,
        /// "holds", "violated" or "inconclusive".
        verdict: String,
        runs: u64,
        errors: u64,
        unstopped: u64,
        ci: (f64, f64),
        confidence: f64,
        alpha_per_instance: f64,
        seed: u64,
        max_steps: u64,
        /// One per instance, worst first.
        instances: Vec<Py<DeltaInstance>>,
        seconds: f64,
    }
    methods {
        /// One row per instance (worst first).
        fn to_pandas<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let rows = crate::record::to_dict(slf.as_any(), Self::FIELDS)?
                .get_item("instances")?
                .unwrap_or_else(|| PyList::empty(py).into_any());
            pandas(py)?.getattr("DataFrame")?.call1((rows,))
        }
    }
}

record! {
    /// Result of `audit_dp()` (a black-box audit, DP-Sniper style).
    DpAudit {
        /// Certified lower bound on the privacy loss.
        eps_lower: f64,
        gamma_lower: Option<f64>,
        runs: u64,
        certify_runs: u64,
        counts: (u64, u64),
        event: String,
        /// "violated" or "no violation found" (a black box never proves privacy; `eps_lower` is what it certified).
        verdict: String,
        eps_claimed: f64,
        gamma_claimed: Option<f64>,
        confidence: f64,
        mode: String,
        /// The certified pair of a neighbour search.
        pair: Option<(Vec<f64>, Vec<f64>)>,
        pairs_screened: Option<u64>,
        screen_scores: Option<Vec<f64>>,
    }
    methods {
        /// The result as a one-row `pandas.DataFrame` (nested fields flattened with `.`).
        fn to_pandas<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let d = crate::record::to_dict(slf.as_any(), Self::FIELDS)?;
            pandas(slf.py())?.call_method1("json_normalize", (d,))
        }
    }
}

record! {
    /// One row of a study's `results.csv`: a finished cell with its statistics and bounds.
    ExperimentRow {
        instance: String,
        family: String,
        sigma: Option<f64>,
        label: String,
        algo: String,
        rules: String,
        delta: f64,
        eps: Option<f64>,
        runs: u64,
        capped: u64,
        mean_tau: f64,
        mean_is_lower_bound: bool,
        std_tau: Option<f64>,
        ci95: Option<(f64, f64)>,
        km_median: Option<u64>,
        km_q25: Option<u64>,
        km_q75: Option<u64>,
        errors: u64,
        error_rate: f64,
        error_ci: (f64, f64),
        lower_bound_kind: String,
        lower_bound: f64,
        upper_bound_kind: Option<String>,
        upper_bound: Option<f64>,
        ratio_to_lower: f64,
        ratio_to_upper: Option<f64>,
        seed: u64,
        max_steps: u64,
        key: String,
        cell: String,
        run_command: String,
    }
}

/// Result of `experiment()`: the rows of the study's `results.csv` in the study's order (a
/// sequence: `len()`, indexing, iteration), and `out_dir`, the folder holding `results.csv` and
/// the cell cache (`None` when it was a temporary folder).
#[pyclass(frozen, get_all, sequence, module = "dpbai._dpbai")]
pub struct ExperimentResults {
    pub rows: Py<PyList>,
    pub out_dir: Option<String>,
}

#[pymethods]
impl ExperimentResults {
    fn __len__(&self, py: Python<'_>) -> usize {
        self.rows.bind(py).len()
    }
    fn __getitem__<'py>(&self, py: Python<'py>, i: isize) -> PyResult<Bound<'py, PyAny>> {
        self.rows.bind(py).as_any().get_item(i)
    }
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.rows.bind(py).as_any().try_iter()?.into_any())
    }
    /// One column as an ndarray (float64 when every entry is a number, else an object array
    /// with `None` entries kept).
    fn column<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let np = py.import("numpy")?;
        let values = PyList::empty(py);
        for r in self.rows.bind(py).iter() {
            values.append(r.getattr(name)?)?;
        }
        let kw = PyDict::new(py);
        kw.set_item("dtype", np.getattr("float64")?)?;
        match np.call_method("asarray", (&values,), Some(&kw)) {
            Ok(a) => Ok(a),
            Err(_) => {
                kw.set_item("dtype", py.get_type::<pyo3::types::PyAny>())?;
                np.call_method("asarray", (&values,), Some(&kw))
            }
        }
    }
    /// The rows as a list of dicts.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let rows: Vec<Bound<'py, PyAny>> = self
            .rows
            .bind(py)
            .iter()
            .map(|r| r.call_method0("to_dict"))
            .collect::<PyResult<_>>()?;
        PyList::new(py, rows)
    }
    /// The results table as a `pandas.DataFrame`.
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        pandas(py)?
            .getattr("DataFrame")?
            .call1((self.to_dict(py)?,))
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "ExperimentResults({} rows, out_dir={:?})",
            self.rows.bind(py).len(),
            self.out_dir
        )
    }
}

/// Registers the result classes in the extension module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Certified>()?;
    m.add_class::<UpperBound>()?;
    m.add_class::<AdapTtStarBound>()?;
    m.add_class::<UpperBounds>()?;
    m.add_class::<LowerBoundFactors>()?;
    m.add_class::<SampleLowerBounds>()?;
    m.add_class::<LowPrivacySwitch>()?;
    m.add_class::<Bounds>()?;
    m.add_class::<EpsCurves>()?;
    m.add_class::<Censored>()?;
    m.add_class::<RunSummary>()?;
    m.add_class::<RunResult>()?;
    m.add_class::<DeltaInstance>()?;
    m.add_class::<DeltaAudit>()?;
    m.add_class::<DpAudit>()?;
    m.add_class::<ExperimentRow>()?;
    m.add_class::<ExperimentResults>()?;
    Ok(())
}
