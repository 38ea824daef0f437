"""dpbai.audit_delta / dpbai.audit_dp: Python thresholds and mechanisms, caught when unsafe."""

import math
import random

import numpy as np
import pytest

import dpbai
from conftest import cli


def unsafe_threshold(t, na, nb, gap, K, delta, eps, sigma):
    """The planted unsafe rule of the README: log(1/δ)/20, far below any provable threshold."""
    return math.log(1.0 / delta) / 20.0


def test_unsafe_python_threshold_is_violated():
    r = dpbai.audit_delta("ttucb", [0.55, 0.45], delta=0.1, threshold=unsafe_threshold, runs=300)
    assert r.verdict == "violated"
    assert r.ci[0] > 0.1 and r.runs == 300
    assert r.threshold.startswith("python callable unsafe_threshold")
    # the same rule as an expression gives the same runs, hence the same counts
    e = dpbai.audit_delta("ttucb", [0.55, 0.45], delta=0.1, threshold="log(1/delta)/20",
                          runs=300)
    assert (e.verdict, e.errors, e.unstopped) == (r.verdict, r.errors, r.unstopped)


def test_python_threshold_sees_the_variables():
    seen = []

    def rec(t, na, nb, gap, K, delta, eps, sigma):
        if len(seen) < 50:
            seen.append((t, na, nb, gap, K, delta, eps, sigma))
        return 1e9 if t < 200 else -1.0  # stop at the first test after t = 200

    r = dpbai.audit_delta("ttucb", [0.7, 0.5, 0.3], delta=0.05, threshold=rec, runs=20)
    assert r.unstopped == 0 and r.instances[0].mean_tau >= 200
    t, na, nb, gap, K, delta, eps, sigma = seen[0]
    assert (K, delta, sigma) == (3.0, 0.05, 0.5) and math.isinf(eps)
    assert all(a + b <= s for s, a, b, *_ in seen) and all(g >= 0 for *_, g, _, _, _, _ in seen)


def test_python_threshold_exception_is_a_value_error_naming_it():
    def broken(*args):
        raise ZeroDivisionError("boom")

    with pytest.raises(ValueError, match="python callable .*broken raised ZeroDivisionError: boom") as e:
        dpbai.audit_delta("ttucb", [0.6, 0.4], delta=0.1, threshold=broken, runs=10)
    assert isinstance(e.value.__cause__, ZeroDivisionError)


def test_preset_and_cli_agree():
    r = dpbai.audit_delta("ttucb", [0.6, 0.4], delta=0.1, threshold="ref-ttucb", runs=200,
                          seed=4)
    j = cli("audit", "delta", "--algo", "ttucb", "--means", "0.6,0.4", "--delta", "0.1",
            "--threshold", "ref-ttucb", "--runs", "200", "--seed", "4", "--json")
    for k in ("verdict", "runs", "errors", "unstopped", "ci"):
        assert r.to_dict()[k] == j[k], k
    assert "ref-ttucb" in dpbai.threshold_presets()


def test_audit_delta_bad_input():
    with pytest.raises(ValueError, match="invalid algo"):
        dpbai.audit_delta("nope", [0.6, 0.4], delta=0.1)
    with pytest.raises(ValueError, match="unknown variable"):
        dpbai.audit_delta("ttucb", [0.6, 0.4], delta=0.1, threshold="log(1/deta)")
    with pytest.raises(TypeError, match="means_or_battery"):
        dpbai.audit_delta("ttucb", {"a": 1}, delta=0.1)
    with pytest.raises(ValueError, match="invalid alpha"):
        dpbai.audit_delta("ttucb", [0.6, 0.4], delta=0.1, alpha=2.0)


def laplace(scale, seed):
    """A Python Laplace mechanism `x + Lap(scale)` with its own seeded generator."""
    rng = random.Random(seed)

    def mech(x):
        u = rng.random() - 0.5
        return x - scale * math.copysign(math.log(1.0 - 2.0 * abs(u)), u)

    return mech


def test_laplace_at_half_scale_is_violated():
    eps = 1.0
    r = dpbai.audit_dp(laplace(0.5 / eps, 1), (1.0, 0.0), eps=eps, runs=200_000)
    assert r.verdict == "violated" and eps < r.eps_lower <= 2.0 * eps
    assert r.runs == 200_000 and r.certify_runs == 100_000


def test_faithful_laplace_is_not_flagged():
    eps = 1.0
    r = dpbai.audit_dp(laplace(1.0 / eps, 2), (1.0, 0.0), eps=eps, runs=200_000)
    assert r.verdict == "no violation found" and r.eps_lower <= eps


def test_vectorised_mechanism():
    rng = np.random.default_rng(3)
    r = dpbai.audit_dp(lambda x, n: x + rng.laplace(0.0, 0.5, n), (1.0, 0.0), eps=1.0,
                       runs=400_000, vectorized=True)
    assert r.verdict == "violated"
    with pytest.raises(ValueError, match="returned 3 values"):
        dpbai.audit_dp(lambda x, n: [0.0, 1.0, 2.0], (1.0, 0.0), eps=1.0, runs=10,
                       vectorized=True)


def test_audit_dp_bad_input():
    with pytest.raises(ValueError, match="invalid eps = 0"):
        dpbai.audit_dp(laplace(1.0, 1), (1.0, 0.0), eps=0.0)
    with pytest.raises(TypeError, match="invalid mechanism = 3.0: must be a callable"):
        dpbai.audit_dp(3.0, (1.0, 0.0), eps=1.0)
    with pytest.raises(ValueError, match="invalid runs = 2"):
        dpbai.audit_dp(laplace(1.0, 1), (1.0, 0.0), eps=1.0, runs=2)
    with pytest.raises(ValueError, match="returned 'text': must return a float"):
        dpbai.audit_dp(lambda x: "text", (1.0, 0.0), eps=1.0, runs=10)


def test_non_finite_or_raising_mechanisms_are_value_errors():
    with pytest.raises(ValueError, match="returned NaN on input 1.0"):
        dpbai.audit_dp(lambda x: float("nan"), (1.0, 0.0), eps=1, runs=1000)
    with pytest.raises(ValueError, match="returned inf"):
        dpbai.audit_dp(lambda x: float("inf"), (1.0, 0.0), eps=1, runs=1000)

    def boom(x):
        raise RuntimeError("no output today")

    with pytest.raises(ValueError, match="boom raised RuntimeError: no output today"):
        dpbai.audit_dp(boom, (1.0, 0.0), eps=1, runs=1000)


def test_neighbour_search_finds_a_leak_on_a_rare_input():
    # Faithful Laplace(1/eps) except near x = 0.7, where the scale halves: the fixed pair
    # (1, 0) sees no leak; the search over [0, 1] screens random pairs and finds one.
    rng = np.random.default_rng(5)

    def mech(x, n):
        scale = 0.05 if abs(x - 0.7) < 0.1 else 1.0
        return x + rng.laplace(0.0, scale, n)

    fixed = dpbai.audit_dp(mech, (1.0, 0.0), eps=1.0, runs=100_000, vectorized=True)
    assert fixed.verdict == "no violation found"
    r = dpbai.audit_dp(mech, eps=1.0, runs=100_000, vectorized=True, space=(0.0, 1.0),
                       pairs=32)
    assert r.verdict == "violated" and r.pairs_screened >= 33


def test_python_threshold_nan_is_refused_not_run_to_the_cap():
    def nan_after_start(t, na, nb, gap, K, delta, eps, sigma):
        return float("nan") if t > 50 else 1e9

    with pytest.raises(ValueError, match="must be finite everywhere"):
        dpbai.audit_delta("ttucb", [0.6, 0.4], delta=0.1, threshold=nan_after_start, runs=10,
                          max_steps=10_000_000)


def test_uniform_sampling_keeps_the_threshold_and_catches_an_unsafe_one():
    # As `dpbai audit delta --sampling uniform`: the same threshold under round robin.
    r = dpbai.audit_delta("ttucb", [0.55, 0.45], delta=0.1, threshold="log(1/delta)/20",
                          runs=300, sampling="uniform")
    assert r.sampling == "uniform" and r.verdict == "violated"
    cmd = cli("audit", "delta", "--algo", "ttucb", "--means", "0.55,0.45", "--delta", "0.1",
              "--threshold", "log(1/delta)/20", "--runs", "300", "--sampling", "uniform", "--json")
    assert (cmd["errors"], cmd["sampling"]) == (r.errors, "uniform")
    assert dpbai.audit_delta("ttucb", [0.6, 0.4], delta=0.1, runs=20).sampling == "algorithm"
    with pytest.raises(ValueError, match="sampling"):
        dpbai.audit_delta("ttucb", [0.6, 0.4], delta=0.1, runs=20, sampling="round-robin")
