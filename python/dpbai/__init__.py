"""dpbai: differentially private best-arm identification, from Python.

Thin bindings of the Rust library ``dpbai`` (the same code as the ``dpbai`` command line):

* :mod:`dpbai.special`, :mod:`dpbai.divergence`: special functions and divergences, vectorised
  over numpy arrays like ``scipy.special``;
* :func:`bounds`, :func:`eps_curves`: characteristic times with certificates, allocations,
  privacy regime switches, lower and upper bound formulas;
* :func:`run`: seeded Monte Carlo runs of the algorithms (the same numbers as ``dpbai run``
  for the same seed), GIL released, Ctrl-C between batches;
* :func:`audit_delta`, :func:`audit_dp`: audits of stopping thresholds (also Python callables)
  and of mechanisms written in Python.

Bad input raises ``ValueError`` whose message names the value and the allowed range.

Example
-------
>>> import dpbai
>>> round(dpbai.bounds([0.95, 0.9, 0.9, 0.9, 0.5]).t_kl.value, 6)
395.541549
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _dpbai, divergence, special

__version__ = _dpbai.__version__

__all__ = [
    "special",
    "divergence",
    "bounds",
    "eps_curves",
    "run",
    "audit_delta",
    "audit_dp",
    "threshold_presets",
    "Certified",
    "Bounds",
    "EpsCurves",
    "RunResult",
    "Record",
]


class Record(dict):
    """A ``dict`` whose keys are also attributes (``r.verdict == r["verdict"]``); nested dicts
    are records too."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __dir__(self):
        return list(self.keys()) + list(super().__dir__())

    @classmethod
    def wrap(cls, obj: Any) -> Any:
        if isinstance(obj, dict):
            return cls({k: cls.wrap(v) for k, v in obj.items()})
        if isinstance(obj, list):
            return [cls.wrap(v) for v in obj]
        return obj


class Certified(Record):
    """A characteristic time with its certificate: ``value``, ``lower <= value <= upper``
    (proven bounds, relative width <= 1e-9) and the optimal ``allocation`` (ndarray, sums to
    1)."""

    def __repr__(self) -> str:
        return (
            f"Certified(value={self['value']!r}, lower={self['lower']!r}, "
            f"upper={self['upper']!r}, allocation={self['allocation']!r})"
        )


_TIMES = (
    "t_kl",
    "t_kl_gaussian",
    "t_kl_beta",
    "t_tv",
    "t_tv2",
    "t_local",
    "t_global",
    "t_kl_g_eps",
    "t_kl_beta_g_eps",
)


class Bounds(Record):
    """Result of :func:`bounds`: the fields of ``dpbai bounds --json``.

    Characteristic times (:class:`Certified` or ``None`` when ``eps`` is not given / not
    defined): ``t_kl``, ``t_kl_gaussian``, ``t_kl_beta``, ``t_tv``, ``t_tv2``, ``t_local``
    (Bernoulli only), ``t_global``, ``t_kl_g_eps``, ``t_kl_beta_g_eps``.
    Switches: ``eps_switch_local``, ``eps_switch_global``, ``eps_switch_per_arm`` (ndarray,
    ``2Δ_a``, NaN for the best arm). Bound formulas: ``log_factor``, ``sample_lower_bounds``
    (``non_private``, ``local``, ``global``) and ``upper_bounds`` (``ctb_tt``, ``ctb_tt_ids``,
    ``adap_tt``, ``adap_tt_star``, ``dpa``), per unit of ``log(1/δ)``.

    Every upper bound is asymptotic (``regime``: "asymptotic, δ → 0; not a finite-δ bound")
    and names its privacy ``model`` ("non-private" for ``dpa``, the batched non-private DPA-TT
    of App. H; "eps-local DP" for CTB-TT; "eps-global DP" for AdaP-TT and AdaP-TT*), the
    characteristic time of the lower bound that binds its algorithm (``lower_time``: ``t_kl``,
    ``t_local`` or ``t_global``, and its ``lower_time_value``), a ``note`` when the theorem's
    assumptions fail and, for ``ctb_tt``/``ctb_tt_ids``, ``refused`` (with ``value`` None) on
    Gaussian arms, where randomised response is undefined. ``adap_tt_star`` adds the active
    branch of each reading of Thm. 24 (``thm24_main_branch``, ``lemma52_app_branch``,
    ``proof_max_branch``: "g1" or "g2") and the ε where the curve jumps (``switch_eps_main`` =
    ``2Δ_max``, ``switch_eps_lemma52`` = ``Δ_max/3``).

    Gaussian arms: every private proxy (``t_kl_g_eps``, ``t_kl_beta_g_eps``, ``two_h_g_eps``)
    and upper bound takes the instance's ``sigma`` (App. G keeps σ symbolic); AdaP-TT and
    AdaP-TT* are then δ-correct but not ε-DP (DAF's noise assumes rewards in ``[0, 1]``), so
    their ``lower_time`` is ``t_kl``.
    """

    def times(self) -> Dict[str, Certified]:
        """The characteristic times that are defined, by name."""
        return {k: self[k] for k in _TIMES if self.get(k) is not None}


def bounds(
    means: Sequence[float],
    *,
    family: str = "bernoulli",
    sigma: Optional[float] = None,
    eps: Optional[float] = None,
    delta: float = 0.01,
    beta: float = 0.5,
) -> Bounds:
    """Characteristic times, allocations, regime switches and bound formulas of an instance
    (as ``dpbai bounds --json``).

    Parameters
    ----------
    means : the arm means (in ``[0, 1]`` for Bernoulli arms; a unique best arm).
    family : ``"bernoulli"`` or ``"gaussian"`` (known ``sigma``, default 1).
    sigma : standard deviation of Gaussian arms (used by every time and bound).
    eps : privacy budget ``ε > 0``; adds the local/global times and the private bounds.
    delta : risk ``δ ∈ (0, 1)`` of the sample-complexity lower bounds.
    beta : leader proportion ``β ∈ (0, 1)`` of the β-times and the upper bounds.

    Example
    -------
    >>> b = bounds([0.95, 0.9, 0.9, 0.9, 0.5], eps=0.3)
    >>> round(b.t_kl.value, 6)
    395.541549
    >>> b.t_kl.lower <= b.t_kl.value <= b.t_kl.upper
    True
    >>> round(float(b.t_kl.allocation.sum()), 12)
    1.0
    >>> b.upper_bounds.dpa.model, b.upper_bounds.adap_tt.lower_time
    ('non-private', 't_global')
    >>> g = bounds([1.0, 0.5], family="gaussian", sigma=1.0, eps=0.5)
    >>> round(g.upper_bounds.dpa.value, 6), g.upper_bounds.ctb_tt.value
    (64.0, None)
    """
    d = _dpbai.bounds(list(map(float, means)), family, sigma, eps, delta, beta)
    out = Bounds(Record.wrap(d))
    for k in _TIMES:
        if out.get(k) is not None:
            out[k] = Certified(out[k])
    return out


class EpsCurves(dict):
    """Result of :func:`eps_curves`: column name -> float64 ndarray (one entry per ``ε``)."""

    def to_pandas(self):
        """The columns as a ``pandas.DataFrame`` (pandas must be installed; it is not a
        dependency of dpbai)."""
        try:
            import pandas as pd
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("EpsCurves.to_pandas() needs pandas: pip install pandas") from e
        return pd.DataFrame(dict(self))


def eps_curves(
    means: Sequence[float],
    eps: Union[Sequence[float], np.ndarray],
    *,
    family: str = "bernoulli",
    sigma: Optional[float] = None,
    delta: float = 0.01,
    beta: float = 0.5,
) -> EpsCurves:
    """Every ε-dependent quantity on the given ``eps`` values (the columns of
    ``dpbai bounds --eps-grid``): ``c_eps``, ``t_local[_lower|_upper]``,
    ``t_global[_lower|_upper]``, ``t_kl``, ``relaxed_local``, ``relaxed_global``,
    ``t_kl_g_eps``, ``t_kl_beta_g_eps``, ``two_h_g_eps``, ``h_eps_sec43``, ``h_eps_app_b``,
    ``lb_*`` (sample-complexity lower bounds), ``ub_*`` (upper-bound formulas, asymptotic,
    δ → 0), ``ub_adap_tt_star_*_branch`` (the active term of each reading of Thm. 24: 1 = g1,
    2 = g2; the curve jumps where it changes) and ``high_privacy_arms`` (arms with
    ``ε < 2Δ_a``). Gaussian arms use their ``sigma`` throughout. NaN marks a quantity that is
    undefined (relaxed_local and the refused ub_ctb_tt, ub_ctb_tt_ids of Gaussian arms). The
    GIL is released.

    Example
    -------
    >>> import numpy as np
    >>> c = eps_curves([0.95, 0.9, 0.9, 0.9, 0.5], eps=np.logspace(-2, 1, 4))
    >>> c["t_global"].shape
    (4,)
    >>> bool(np.all(c["t_global"] >= c["t_kl"]))
    True
    """
    grid = np.asarray(eps, dtype=np.float64).ravel().tolist()
    d = _dpbai.eps_curves(list(map(float, means)), grid, family, sigma, delta, beta)
    return EpsCurves(d)


class RunResult(Record):
    """Result of :func:`run`.

    ``tau`` (uint64 ndarray): samples drawn by each run (the capped value for unstopped runs);
    ``recommendation`` (int64, **1-based** arm numbers as on the command line);
    ``stopped`` (bool; ``False`` for a run capped by ``max_steps``);
    ``rounds`` (float64, NaN where the algorithm does not define it);
    ``summary``: the object ``dpbai run --json`` prints (seed, runs, ``mean_tau``,
    ``unstopped``, ``errors``, ``error_ci``, ``samples_per_s``, ...).
    """


def run(
    algo: str,
    means: Sequence[float],
    *,
    delta: float,
    runs: int,
    seed: int,
    eps: Optional[float] = None,
    threads: Optional[int] = None,
    rules: str = "paper",
    max_steps: Optional[int] = None,
    family: str = "bernoulli",
    sigma: Optional[float] = None,
    gamma: Optional[float] = None,
    beta: float = 0.5,
    options: Optional[Mapping[str, Union[str, bool]]] = None,
    threshold: Optional[str] = None,
    step_by_step: bool = False,
) -> RunResult:
    """Seeded Monte Carlo runs of one algorithm (as ``dpbai run``).

    Run ``r`` draws from ``rng_for_run(seed, r)``, so the result does not depend on
    ``threads`` and equals ``dpbai run --algo ALGO --means ... --seed SEED --json`` for the
    same arguments. The GIL is released while the runs execute; they go in batches (each about
    0.25 s), and Ctrl-C between two batches raises ``KeyboardInterrupt``.

    Parameters
    ----------
    algo : ``ttucb``, ``ctb-tt``, ``gauss-ldp-tt``, ``adap-tt``, ``adap-tt-star``, ``dp-se``,
        ``dpa-tt``.
    means : arm means; ``family``/``sigma`` as in :func:`bounds`.
    delta : risk ``δ ∈ (0, 1)``; ``eps``: privacy budget (required by private algorithms).
    runs, seed : number of runs (>= 1) and master seed.
    threads : worker threads (default: all cores).
    rules : ``"paper"`` (provable thresholds) or ``"reference"`` (the public code's rules).
    max_steps : cap on the samples of one run (default 1e8); capped runs are reported as
        unstopped (``stopped`` False, counted in ``summary["unstopped"]``), never dropped.
    options : the readings of MATH.md section H and the findings' controls, by their
        ``dpbai run`` flag names (``_`` or ``-``): ``tie_break``, ``challenger_counts``,
        ``ids_beta`` (a bool), ``gauss_sigma``, ``eq14_form``, ``dpa_episodes``,
        ``adap_leader_bonus``, ``leader_counts``, each with a value that flag accepts, e.g.
        ``{"adap_leader_bonus": "eq11-log-n"}``; recorded in ``summary["options"]``.
    threshold : a stopping threshold replacing the algorithm's (as ``dpbai run --threshold``):
        a preset name (:func:`threshold_presets`) or an expression.
    step_by_step : DAF/DPA algorithms: the plain step-by-step loop instead of the exact
        phase-skipping fast path (same law, slower).

    Example
    -------
    >>> r = run("ttucb", [0.9, 0.5], delta=0.1, runs=50, seed=1)
    >>> r.tau.shape, r.summary["runs"], r.summary["seed"]
    ((50,), 50, 1)
    >>> float(r.tau.mean()) == r.summary["mean_tau"]
    True
    """
    d = _dpbai.run(
        algo,
        list(map(float, means)),
        delta=delta,
        runs=runs,
        seed=seed,
        eps=eps,
        threads=threads,
        rules=rules,
        max_steps=max_steps,
        family=family,
        sigma=sigma,
        gamma=gamma,
        beta=beta,
        options=dict(options) if options is not None else None,
        threshold=threshold,
        step_by_step=step_by_step,
    )
    summary = Record.wrap(json.loads(d.pop("summary_json")))
    return RunResult(summary=summary, **d)


ThresholdFn = Callable[[float, float, float, float, float, float, float, float], float]


def audit_delta(
    algo: str,
    means_or_battery: Union[str, Sequence[float], Sequence[Sequence[float]]],
    *,
    delta: float,
    threshold: Union[None, str, ThresholdFn] = None,
    eps: Optional[float] = None,
    gamma: Optional[float] = None,
    rules: str = "paper",
    alpha: float = 1e-3,
    seed: int = 1,
    runs: int = 1000,
    until_decided: bool = False,
    first: int = 100,
    budget: Optional[int] = None,
    max_steps: Optional[int] = None,
    family: str = "bernoulli",
    sigma: Optional[float] = None,
    threads: Optional[int] = None,
) -> Record:
    """Audits ``P(τ < ∞, â ≠ a*) <= δ`` of a stopping rule (as ``dpbai audit delta``).

    Parameters
    ----------
    means_or_battery : ``"default"`` (the stress battery), battery TOML text, a list of means
        (one instance) or a list of lists of means.
    threshold : ``None`` (the algorithm's own threshold), a preset name or an expression in
        the ``--threshold`` language (see :func:`threshold_presets`), or a Python callable
        ``threshold(t, na, nb, gap, K, delta, eps, sigma) -> float`` replacing ``c_{a,b}``
        (``eps`` is ``inf`` for non-private algorithms; a NaN result means "do not stop").
    runs : runs per instance (fixed plan); or ``until_decided=True`` with looks after
        ``first``, ``2·first``, ... runs up to ``budget`` (default ``100·first``).
    alpha : the audit's error probability (confidence ``1 - α``, Bonferroni over instances).

    threads : worker threads for string thresholds (default: all cores). A Python callable
        always runs on one worker that holds the GIL for the whole audit (Python code cannot
        run in parallel anyway), so Ctrl-C is honoured only when the audit returns.

    Cost of a Python threshold: it is called at every stopping test of every run (about once
    per sample for the Top Two algorithms). Each call builds an 8-tuple of floats and runs the
    function: roughly 0.5 µs for a one-line ``math`` formula (measured by
    ``python/benches/overhead.py``), about twice a whole audit step with the same rule as an
    expression string.
    Budget ``runs × E[τ]`` calls. An exception raised by the callable stops every run at its
    next test and is re-raised.

    Returns a :class:`Record` with the fields of ``dpbai audit delta --json``: ``verdict``
    (``"holds"``, ``"violated"``, ``"inconclusive"``), ``ci``, ``runs``, ``errors``,
    ``unstopped``, ``instances`` (one record per instance, worst first), ...

    Example
    -------
    >>> import math
    >>> unsafe = lambda t, na, nb, gap, K, delta, eps, sigma: math.log(1 / delta) / 20
    >>> r = audit_delta("ttucb", [0.55, 0.45], delta=0.1, threshold=unsafe, runs=300)
    >>> r.verdict
    'violated'
    """
    text = _dpbai.audit_delta(
        algo,
        means_or_battery,
        delta=delta,
        threshold=threshold,
        eps=eps,
        gamma=gamma,
        rules=rules,
        alpha=alpha,
        seed=seed,
        runs=runs,
        until_decided=until_decided,
        first=first,
        budget=budget,
        max_steps=max_steps,
        family=family,
        sigma=sigma,
        threads=threads,
    )
    return Record.wrap(json.loads(text))


def audit_dp(
    mechanism: Callable[..., Any],
    neighbours: Tuple[Any, Any],
    *,
    eps: float,
    gamma: Optional[float] = None,
    runs: int = 200_000,
    alpha: float = 1e-3,
    vectorized: bool = False,
) -> Record:
    """Black-box ε-DP audit of a mechanism written in Python (as ``dpbai audit dp --mode
    blackbox``, DP-Sniper style).

    ``mechanism(x)`` returns one real output (it draws its own randomness); with
    ``vectorized=True``, ``mechanism(x, n)`` returns ``n`` independent outputs (much faster
    with numpy). It is run ``runs`` times on each of the neighbouring inputs
    ``neighbours = (x, x_prime)``; the first half of the outputs chooses an event
    ``{Y >= c}`` or ``{Y <= c}``, the second half certifies a Clopper–Pearson lower bound
    ``eps_lower`` on the privacy loss at confidence ``1 - α``. ``verdict`` is ``"violated"``
    when ``eps_lower > eps`` (or, with ``gamma``, the certified ``γ`` exceeds it), else
    ``"inconclusive"``: a black box never proves privacy.

    Returns a :class:`Record`: ``verdict``, ``eps_lower``, ``gamma_lower``, ``runs``,
    ``certify_runs``, ``counts``, ``event``, ``eps_claimed``, ``confidence``.

    Example
    -------
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> half = lambda x, n: x + rng.laplace(0.0, 0.5, n)   # claims eps = 1, scale should be 1
    >>> audit_dp(half, (1.0, 0.0), eps=1.0, vectorized=True).verdict
    'violated'
    """
    text = _dpbai.audit_dp(
        mechanism,
        tuple(neighbours),
        eps=eps,
        gamma=gamma,
        runs=runs,
        alpha=alpha,
        vectorized=vectorized,
    )
    out = Record.wrap(json.loads(text))
    out["eps_claimed"] = eps
    out["gamma_claimed"] = gamma
    out["confidence"] = 1.0 - alpha
    out["mode"] = "blackbox"
    return out


def threshold_presets() -> Dict[str, str]:
    """The named thresholds of ``dpbai audit delta --list-presets``: name -> expression.

    >>> "ref-ttucb" in threshold_presets()
    True
    """
    return {name: text for name, text, _provable in _dpbai.threshold_presets()}
