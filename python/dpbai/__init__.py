"""dpbai: differentially private best-arm identification, from Python.

Thin bindings of the Rust library ``dpbai`` (the same code as the ``dpbai`` command line):

* :mod:`dpbai.special`, :mod:`dpbai.divergence`: special functions and divergences, vectorised
  over numpy arrays like ``scipy.special``;
* :func:`bounds`, :func:`eps_curves`: characteristic times with certificates, allocations,
  privacy regime switches, lower and upper bound formulas;
* :func:`run`: seeded Monte Carlo runs of the algorithms (the same numbers as ``dpbai run``
  for the same seed), GIL released, Ctrl-C between batches;
* :func:`audit_delta`, :func:`audit_dp`: audits of stopping thresholds (also Python callables)
  and of mechanisms written in Python;
* :func:`experiment`: a study (``dpbai experiment``) and its results table.

Results are typed, frozen objects (:class:`Bounds`, :class:`RunResult`, :class:`DeltaAudit`,
...; classes of the extension module, with one stub, ``_dpbai.pyi``): every field is an
attribute (``r.summary.mean_tau``), per-run data are numpy arrays, and each has ``to_dict()``
(plain data, the keys of the command line's JSON), ``to_pandas()`` where a table makes sense
(pandas must be installed) and a ``repr``. Long calls take ``progress=`` (a callable
``progress(done, total)``, or ``True`` for a tqdm bar). The package also installs the ``dpbai``
command.

Bad input raises ``ValueError`` (``TypeError`` for a wrong type) whose message names the
keyword, the value and what is allowed. A Python mechanism or threshold that returns NaN or
±∞, or raises, gives a ``ValueError`` naming it (the exception it raised is the
``__cause__``).

Example
-------
>>> import dpbai
>>> round(dpbai.bounds([0.95, 0.9, 0.9, 0.9, 0.5]).t_kl.value, 6)
395.541549
"""

from __future__ import annotations

import numbers
import os
import tempfile
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _args, _dpbai, divergence, special
from ._dpbai import (
    AdapTtStarBound,
    Bounds,
    Censored,
    Certified,
    DeltaAudit,
    DeltaInstance,
    DpAudit,
    EpsCurves,
    ExperimentResults,
    ExperimentRow,
    LowerBoundFactors,
    LowPrivacySwitch,
    RunResult,
    RunSummary,
    SampleLowerBounds,
    UpperBound,
    UpperBounds,
)

__version__: str = _dpbai.__version__

__all__ = [
    "special",
    "divergence",
    "bounds",
    "eps_curves",
    "run",
    "audit_delta",
    "audit_dp",
    "threshold_presets",
    "experiment",
    "run_grid",
    "AdapTtStarBound",
    "Bounds",
    "Censored",
    "Certified",
    "DeltaAudit",
    "DeltaInstance",
    "DpAudit",
    "EpsCurves",
    "ExperimentResults",
    "ExperimentRow",
    "LowerBoundFactors",
    "LowPrivacySwitch",
    "RunResult",
    "RunSummary",
    "SampleLowerBounds",
    "UpperBound",
    "UpperBounds",
]

ThresholdFn = Callable[[float, float, float, float, float, float, float, float], float]
"""A Python stopping threshold ``threshold(t, na, nb, gap, K, delta, eps, sigma) -> float``."""
ProgressArg = Union[None, bool, Callable[[int, int], Any]]
"""``progress=``: ``None``, ``True`` (a bar) or a callable ``progress(done, total)``."""


def _family(family: Any, sigma: Any) -> Tuple[str, Optional[float]]:
    return _args.text("family", family), _args.opt_real("sigma", sigma)


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
    eps : privacy budget ``ε > 0``; adds the local/global times, [BAI25]'s tight global-DP
        time ``t_eps`` (``T*_ε``, Bernoulli arms) and the private bounds.
    delta : risk ``δ ∈ (0, 1)`` of the sample-complexity lower bounds (each labelled with its
        factor: ``log(1/(2.4 delta))`` for the first paper's, ``log(1/(3 delta))`` for
        ``T*_ε``'s).
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
    >>> b.t_eps.value >= b.t_global.value  # [BAI25]: T*_eps >= T_g
    True
    >>> b.sample_lower_bounds.factors.t_eps, b.upper_bounds.dp_tt.lower_time
    ('log(1/(3 delta))', 't_eps')
    >>> g = bounds([1.0, 0.5], family="gaussian", sigma=1.0, eps=0.5)
    >>> round(g.upper_bounds.dpa.value, 6), g.upper_bounds.ctb_tt.value
    (64.0, None)
    """
    family, sigma = _family(family, sigma)
    d: Bounds = _dpbai.bounds(
        _args.vector("means", means),
        family,
        sigma,
        _args.opt_real("eps", eps),
        _args.real("delta", delta),
        _args.real("beta", beta),
    )
    return d


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
    2 = g2; the curve jumps where it changes), ``high_privacy_arms`` (arms with
    ``ε < 2Δ_a``), and [BAI25]'s ``t_eps[_lower|_upper]``, ``t_eps_beta``,
    ``t_eps_over_t_global``, ``lb_t_eps`` (times ``log(1/(3δ))``, not ``log(1/(2.4δ))``),
    ``ub_dp_tt`` and ``ub_dp_tt_8t_eps``. Gaussian arms use their ``sigma`` throughout. NaN
    marks a quantity that is undefined (relaxed_local, the refused ub_ctb_tt, ub_ctb_tt_ids and
    the [BAI25] columns of Gaussian arms). Every ``eps`` must be at most 354.198…
    (``ValueError`` beyond, where ``c_eps`` exceeds the largest double). The GIL is released.

    Example
    -------
    >>> import numpy as np
    >>> c = eps_curves([0.95, 0.9, 0.9, 0.9, 0.5], eps=np.logspace(-2, 1, 4))
    >>> c["t_global"].shape
    (4,)
    >>> bool(np.all(c["t_global"] >= c["t_kl"]))
    True
    """
    one: Any = eps
    if isinstance(one, numbers.Real) and not isinstance(one, bool):
        one = [one]
    grid = _args.vector("eps", one, what="privacy budgets")
    family, sigma = _family(family, sigma)
    return _dpbai.eps_curves(
        _args.vector("means", means),
        grid,
        family,
        sigma,
        _args.real("delta", delta),
        _args.real("beta", beta),
    )


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
    threshold: Union[None, str, ThresholdFn] = None,
    step_by_step: bool = False,
    progress: ProgressArg = None,
) -> RunResult:
    """Seeded Monte Carlo runs of one algorithm (as ``dpbai run``).

    Run ``r`` draws from ``rng_for_run(seed, r)``, so the result does not depend on
    ``threads`` and equals ``dpbai run --algo ALGO --means ... --seed SEED --json`` for the
    same arguments. The GIL is released while the runs execute; they go in batches (each about
    0.25 s), and Ctrl-C between two batches raises ``KeyboardInterrupt``.

    Parameters
    ----------
    algo : ``ttucb``, ``ctb-tt``, ``gauss-ldp-tt``, ``adap-tt``, ``adap-tt-star``, ``dp-se``,
        ``dpa-tt``, ``dp-tt``, ``eb-tci`` (the last two: [BAI25], Bernoulli arms only).
    means : arm means; ``family``/``sigma`` as in :func:`bounds`.
    delta : risk ``δ ∈ (0, 1)``; ``eps``: privacy budget (required by private algorithms).
    runs, seed : number of runs (>= 1) and master seed (an integer in ``[0, 2^64 - 1]``).
    threads : worker threads (default: all cores).
    rules : ``"paper"`` (provable thresholds) or ``"reference"`` (the public code's rules).
    max_steps : cap on the samples of one run (default 1e8); capped runs are reported as
        unstopped (``stopped`` False, counted in ``summary.unstopped``), never dropped.
    options : the readings the code adopts and the findings' controls, by their
        ``dpbai run`` flag names (``_`` or ``-``): ``tie_break``, ``challenger_counts``,
        ``ids_beta`` (a bool), ``gauss_sigma``, ``eq14_form``, ``dpa_episodes``,
        ``adap_leader_bonus``, ``leader_counts``, ``eta`` (a number: DP-TT's phase growth,
        ``dp-tt`` only), each with a value that flag accepts, e.g.
        ``{"adap_leader_bonus": "eq11-log-n"}``; recorded in ``summary.options``.
    threshold : a stopping threshold replacing the algorithm's: a preset name
        (:func:`threshold_presets`) or an expression (as ``dpbai run --threshold``), or a
        Python callable ``threshold(t, na, nb, gap, K, delta, eps, sigma) -> float`` as in
        :func:`audit_delta` (then the runs go on one worker; the same numbers as the
        expression of the same rule, for the same seed).
    step_by_step : DAF/DPA algorithms: the plain step-by-step loop instead of the exact
        phase-skipping fast path (same law, slower).
    progress : ``progress(done, total)`` (runs done of ``runs``), called after each batch;
        ``True`` shows a bar (tqdm if installed).

    Example
    -------
    >>> r = run("ttucb", [0.9, 0.5], delta=0.1, runs=50, seed=1)
    >>> r.tau.shape, r.summary.runs, r.summary.seed
    ((50,), 50, 1)
    >>> float(r.tau.mean()) == r.summary.mean_tau
    True
    """
    family, sigma = _family(family, sigma)
    if threshold is not None and not callable(threshold):
        threshold = _args.text("threshold", threshold)
    if options is not None and not isinstance(options, Mapping):
        raise TypeError(
            f"invalid options = {options!r}: must be a mapping of reading names to values"
        )
    return _dpbai.run(
        _args.text("algo", algo),
        _args.vector("means", means),
        delta=_args.real("delta", delta),
        runs=_args.integer("runs", runs, 1),
        seed=_args.integer("seed", seed, 0),
        eps=_args.opt_real("eps", eps),
        threads=_args.opt_integer("threads", threads, 1, 1024),
        rules=_args.text("rules", rules),
        max_steps=_args.opt_integer("max_steps", max_steps, 1),
        family=family,
        sigma=sigma,
        gamma=_args.opt_real("gamma", gamma),
        beta=_args.real("beta", beta),
        options=dict(options) if options is not None else None,
        threshold=threshold,
        step_by_step=_args.flag("step_by_step", step_by_step),
        progress=_args.progress(progress, f"{algo} runs"),
    )


def _means_or_battery(value: Any) -> Any:
    if isinstance(value, str):
        return value
    try:
        if isinstance(value, (bytes, Mapping)):
            raise TypeError
        items = list(value)
    except TypeError:
        raise TypeError(
            f"invalid means_or_battery = {value!r}: must be \"default\", battery TOML text, a "
            "list of means or a list of lists of means"
        ) from None
    if all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in items):
        return _args.vector("means_or_battery", items)
    return [_args.vector(f"means_or_battery[{i}]", m) for i, m in enumerate(items)]


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
    progress: ProgressArg = None,
    sampling: str = "algorithm",
) -> DeltaAudit:
    """Audits ``P(τ < ∞, â ≠ a*) <= δ`` of a stopping rule (as ``dpbai audit delta``).

    Parameters
    ----------
    means_or_battery : ``"default"`` (the stress battery), battery TOML text, a list of means
        (one instance) or a list of lists of means.
    threshold : ``None`` (the algorithm's own threshold), a preset name or an expression in
        the ``--threshold`` language (see :func:`threshold_presets`), or a Python callable
        ``threshold(t, na, nb, gap, K, delta, eps, sigma) -> float`` replacing ``c_{a,b}``
        (``eps`` is ``inf`` for non-private algorithms). A NaN or ±∞ value, a non-float, or
        an exception raised by the callable stops every run at its next test and raises a
        ``ValueError`` naming the callable (and the point, for a non-finite value).
    runs : runs per instance (fixed plan); or ``until_decided=True`` with looks after
        ``first``, ``2·first``, ... runs up to ``budget`` (default ``100·first``).
    alpha : the audit's error probability (confidence ``1 - α``, Bonferroni over instances).
    threads : worker threads for string thresholds (default: all cores). A Python callable
        always runs on one worker that holds the GIL for the whole audit (Python code cannot
        run in parallel anyway), so Ctrl-C is honoured only when the audit returns.
    progress : ``progress(i, n)`` before instance ``i`` of ``n`` and ``(n, n)`` at the end;
        ``True`` shows a bar (tqdm if installed).
    sampling : ``"algorithm"`` (its own Top Two rules) or ``"uniform"`` (round robin, with the
        algorithm's estimator, statistic and threshold): a threshold is δ-correct for any
        sampling rule (Sec. 2.2.3), so both must hold.

    Cost of a Python threshold: it is called at every stopping test of every run (about once
    per sample for the Top Two algorithms), on one worker. An audit with the one-line rule
    ``math.log((1 + math.log(t)) / delta)`` as a callable takes about 10× as long as the same
    rule as an expression string (2.35 s against 0.204 s for 2000 runs on ``[0.6, 0.5]``,
    δ = 0.1; ``python/benches/overhead.py --only threshold``), and the expression also runs
    in parallel. Budget ``runs × E[τ]`` calls.

    Returns a :class:`DeltaAudit` with the fields of ``dpbai audit delta --json``:
    ``verdict`` (``"holds"``, ``"violated"``, ``"inconclusive"``), ``ci``, ``runs``,
    ``errors``, ``unstopped``, ``instances`` (one record per instance, worst first), ...

    Example
    -------
    >>> import math
    >>> unsafe = lambda t, na, nb, gap, K, delta, eps, sigma: math.log(1 / delta) / 20
    >>> r = audit_delta("ttucb", [0.55, 0.45], delta=0.1, threshold=unsafe, runs=300)
    >>> r.verdict
    'violated'
    """
    if threshold is not None and not callable(threshold):
        threshold = _args.text("threshold", threshold)
    family, sigma = _family(family, sigma)
    return _dpbai.audit_delta(
        _args.text("algo", algo),
        _means_or_battery(means_or_battery),
        delta=_args.real("delta", delta),
        threshold=threshold,
        eps=_args.opt_real("eps", eps),
        gamma=_args.opt_real("gamma", gamma),
        rules=_args.text("rules", rules),
        alpha=_args.real("alpha", alpha),
        seed=_args.integer("seed", seed, 0),
        runs=_args.integer("runs", runs, 1),
        until_decided=_args.flag("until_decided", until_decided),
        first=_args.integer("first", first, 1),
        budget=_args.opt_integer("budget", budget, 1),
        max_steps=_args.opt_integer("max_steps", max_steps, 1),
        family=family,
        sigma=sigma,
        sampling=_args.text("sampling", sampling),
        threads=_args.opt_integer("threads", threads, 1, 1024),
        progress=_args.progress(progress, f"audit {algo}"),
    )


def audit_dp(
    mechanism: Callable[..., Any],
    neighbours: Optional[Tuple[Any, Any]] = None,
    *,
    eps: float,
    gamma: Optional[float] = None,
    runs: int = 200_000,
    alpha: float = 1e-3,
    vectorized: bool = False,
    space: Optional[Tuple[Any, Any]] = None,
    pairs: int = 16,
    screen_runs: Optional[int] = None,
    seed: int = 1,
    progress: ProgressArg = None,
) -> DpAudit:
    """Black-box ε-DP audit of a mechanism written in Python (as ``dpbai audit dp --mode
    blackbox``, DP-Sniper style).

    ``mechanism(x)`` returns one real output (it draws its own randomness); with
    ``vectorized=True``, ``mechanism(x, n)`` returns ``n`` independent outputs (much faster
    with numpy). It is run ``runs`` times on each of the neighbouring inputs
    ``neighbours = (x, x_prime)``; the first half of the outputs chooses an event (a threshold
    ``{Y >= c}`` or ``{Y <= c}``, an interval ``{a <= Y <= b}``, or a likelihood-ratio
    classifier over histogram bins, as in DP-Sniper), the second half certifies a
    Clopper–Pearson lower bound ``eps_lower`` on the privacy loss at confidence ``1 - α``.
    ``verdict`` is ``"violated"`` when ``eps_lower > eps`` (or, with ``gamma``, the certified
    ``γ`` exceeds it), else ``"no violation found"`` (the words of every search that finds
    nothing): a black box never proves privacy, it certifies ``eps >= eps_lower``.

    With ``space = (lo, hi)`` (floats, or equal-length lists: a box of inputs where neighbours
    differ in one coordinate) the pair is searched: the box's extremes, ``pairs`` seeded random
    pairs and ``neighbours`` if given are screened with ``screen_runs`` runs each (default
    ``runs // 10``), and the best pair is certified on ``runs`` fresh runs (the result gives
    ``pair``, ``pairs_screened`` and ``screen_scores``).

    An output that is NaN, ±∞ or not a float, and an exception raised by the mechanism, give
    a ``ValueError`` naming the mechanism and the input (the exception is its ``__cause__``).
    ``progress(done, total)`` counts outputs (``total = 2·runs``): after each neighbour, and
    every 65,536 calls of a scalar mechanism; ``True`` shows a bar.

    Returns a :class:`DpAudit`: ``verdict``, ``eps_lower``, ``gamma_lower``, ``runs``,
    ``certify_runs``, ``counts``, ``event``, ``eps_claimed``, ``confidence``.

    Example
    -------
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> half = lambda x, n: x + rng.laplace(0.0, 0.5, n)   # claims eps = 1, scale should be 1
    >>> audit_dp(half, (1.0, 0.0), eps=1.0, vectorized=True).verdict
    'violated'
    """
    if not callable(mechanism):
        raise TypeError(f"invalid mechanism = {mechanism!r}: must be a callable")
    pair: Optional[Tuple[Any, ...]] = None
    if neighbours is not None:
        try:
            pair = tuple(neighbours)
        except TypeError:
            pair = ()
        if len(pair) != 2:
            raise ValueError(
                f"invalid neighbours = {neighbours!r}: must be a pair (x, x_prime) of "
                "neighbouring inputs"
            )
    elif space is None:
        raise ValueError(
            "invalid neighbours = None: give neighbours = (x, x_prime), or space = (lo, hi) "
            "for a neighbour search"
        )
    eps = _args.real("eps", eps)
    gamma = _args.opt_real("gamma", gamma)
    alpha = _args.real("alpha", alpha)
    return _dpbai.audit_dp(
        mechanism,
        pair,
        eps=eps,
        gamma=gamma,
        runs=_args.integer("runs", runs, 4),
        alpha=alpha,
        vectorized=_args.flag("vectorized", vectorized),
        space=None if space is None else tuple(space),
        pairs=_args.integer("pairs", pairs, 0, 10_000),
        screen_runs=None if screen_runs is None else _args.integer("screen_runs", screen_runs, 8),
        seed=_args.integer("seed", seed, 0),
        progress=_args.progress(progress, "audit dp"),
    )


def experiment(
    config_or_path: Union[str, "os.PathLike[str]"],
    *,
    out_dir: Union[None, str, "os.PathLike[str]"] = None,
    runs: Optional[int] = None,
    threads: Optional[int] = None,
    progress: ProgressArg = None,
) -> ExperimentResults:
    """Runs a study (as ``dpbai experiment``) and returns its results table.

    Parameters
    ----------
    config_or_path : a study file (a path) or its TOML text (``[[instance]]``,
        ``[[algorithm]]``, ``eps``, ``delta``, ``runs``, ... as in docs/GUIDE.md's study format).
    out_dir : the folder of ``results.csv`` and the content-addressed cell cache (a rerun
        loads unchanged cells from it); default: a temporary folder, removed on return.
    runs : replaces the study's ``runs``.
    threads : worker threads (default: all cores); the numbers do not depend on it.
    progress : ``progress(i, n)`` before cell ``i`` of ``n`` and ``(n, n)`` at the end;
        ``True`` shows a bar (tqdm if installed).

    Example
    -------
    >>> study = '''
    ... runs = 20
    ... delta = [0.1]
    ... [[instance]]
    ... name = "two"
    ... means = [0.9, 0.5]
    ... [[algorithm]]
    ... algo = "ttucb"
    ... '''
    >>> rows = experiment(study)
    >>> len(rows), rows[0].algo, rows[0].runs
    (1, 'ttucb', 20)
    """
    if isinstance(config_or_path, os.PathLike):
        config, is_path = os.fspath(config_or_path), True
    elif isinstance(config_or_path, str):
        is_path = "\n" not in config_or_path and "=" not in config_or_path
        config = config_or_path
    else:
        raise TypeError(
            f"invalid config_or_path = {config_or_path!r}: must be a path or the study's TOML "
            "text"
        )
    if is_path and not os.path.isfile(config):
        raise ValueError(
            f"invalid config_or_path = {config!r}: no such file (give a study file or its TOML "
            "text)"
        )
    runs = _args.opt_integer("runs", runs, 1)
    threads = _args.opt_integer("threads", threads, 1, 1024)
    cb = _args.progress(progress, "experiment cells")

    def go(folder: str, temporary: bool) -> ExperimentResults:
        return _dpbai.experiment(
            config, is_path, folder, temporary=temporary, runs=runs, threads=threads, progress=cb
        )

    if out_dir is None:
        with tempfile.TemporaryDirectory(prefix="dpbai-experiment-") as tmp:
            return go(tmp, True)
    return go(os.fspath(out_dir), False)


def _toml_float(x: float) -> str:
    """A float as TOML reads it back exactly (``repr`` round-trips; ``inf`` is TOML's too)."""
    return repr(float(x))


def run_grid(
    algos: Sequence[str],
    instances: Union[Sequence[Sequence[float]], Mapping[str, Sequence[float]]],
    eps: Sequence[float],
    delta: Union[float, Sequence[float]] = 0.01,
    runs: int = 100,
    seed: Optional[int] = None,
    *,
    family: str = "bernoulli",
    sigma: Optional[float] = None,
    rules: str = "paper",
    max_steps: Optional[int] = None,
    out_dir: Union[None, str, "os.PathLike[str]"] = None,
    threads: Optional[int] = None,
    progress: ProgressArg = None,
) -> Any:
    """Runs every algorithm on every instance at every ε and δ and returns one tidy pandas
    DataFrame, one row per cell (the columns of ``experiment(...).to_pandas()``: ``instance``,
    ``algo``, ``eps``, ``delta``, ``runs``, ``seed``, ``mean_tau``, ``capped``, ...; docs/GLOSSARY.md).

    It is ``experiment`` on a study written from the arguments, so the cells are the same
    content-addressed cells as ``dpbai experiment``'s: with ``out_dir`` a rerun loads the
    unchanged cells from its cache, and frames of several calls concatenate with ``pd.concat``.
    A non-private algorithm (``ttucb``) runs once per instance and δ (its ``eps`` is missing).

    Parameters
    ----------
    algos : algorithm names (``dpbai run --help``), e.g. ``["ttucb", "adap-tt-star", "dp-se"]``.
    instances : a list of mean vectors (named ``i0``, ``i1``, ...) or a dict name -> means.
    eps : the ε grid of the private algorithms.
    delta : one risk or several.
    runs : runs per cell. seed : salts the cells' seeds (default: ``dpbai verify``'s seeds).
    family, sigma : ``"bernoulli"`` (default) or ``"gaussian"`` with ``sigma``.
    rules : ``"paper"`` (the provable thresholds) or ``"reference"`` (the public code's).
    max_steps : the cap on one run's samples (capped runs are censored, counted in ``capped``).

    Example
    -------
    >>> df = run_grid(["ttucb", "adap-tt-star"], {"two": [0.9, 0.5]}, eps=[1.0, 10.0],
    ...               delta=0.1, runs=10, seed=3)  # doctest: +SKIP
    >>> sorted(df["algo"].unique())  # doctest: +SKIP
    ['adap-tt-star', 'ttucb']
    """
    import json

    if isinstance(algos, str) or not algos:
        raise ValueError(f"invalid algos = {algos!r}: must be a non-empty list of names")
    named = (
        list(instances.items())
        if isinstance(instances, Mapping)
        else [(f"i{i}", m) for i, m in enumerate(instances)]
    )
    if not named:
        raise ValueError("invalid instances = []: must name at least one instance")
    eps_list = [float(e) for e in eps]
    if not eps_list:
        raise ValueError("invalid eps = []: must hold at least one ε")
    deltas = [float(delta)] if isinstance(delta, (int, float)) else [float(d) for d in delta]
    runs = _args.integer("runs", runs, 1)
    lines = [
        'title = "run_grid"',
        f"runs = {runs}",
        f"delta = [{', '.join(_toml_float(d) for d in deltas)}]",
        f"eps = [{', '.join(_toml_float(e) for e in eps_list)}]",
    ]
    if seed is not None:
        lines.append(f"seed = {_args.integer('seed', seed, 0)}")
    if max_steps is not None:
        lines.append(f"max-steps = {_args.integer('max_steps', max_steps, 1)}")
    for name, means in named:
        lines += ["", "[[instance]]", f"name = {json.dumps(str(name))}",
                  f"family = {json.dumps(family)}",
                  f"means = [{', '.join(_toml_float(m) for m in means)}]"]
        if sigma is not None:
            lines.append(f"sigma = {_toml_float(sigma)}")
    for a in algos:
        lines += ["", "[[algorithm]]", f"algo = {json.dumps(str(a))}",
                  f"rules = {json.dumps(rules)}"]
    rows = experiment("\n".join(lines) + "\n", out_dir=out_dir, threads=threads,
                      progress=progress)
    return rows.to_pandas()


def threshold_presets() -> dict[str, str]:
    """The named thresholds of ``dpbai audit delta --list-presets``: name -> expression.

    >>> "ref-ttucb" in threshold_presets()
    True
    """
    return {name: text for name, text, _provable in _dpbai.threshold_presets()}
