"""Overhead of the Python bindings, measured in one run, medians.

Run from the repository root after `make develop` and `cargo build --release`:
    target/pyenv/bin/python python/benches/overhead.py [--reps 5]
1. vectorised special functions on 1e6 points vs the plain Rust loop over the same points
   (timed inside Rust, `_dpbai.rust_loop_seconds`), alternating, median of the ratios;
2. `dpbai.run` samples/s vs `dpbai run --json` samples/s (same arguments, alternating);
3. cost per call of a Python threshold in `audit_delta` vs the same rule as an expression;
4. wall time of a whole `audit_delta` and a whole `run` with the rule as a Python callable vs
   as an expression string (one thread, and the expression on all threads), medians of the
   ratios of alternating repetitions. `--only threshold` runs 3 and 4 only.
"""

import argparse
import json
import math
import pathlib
import statistics
import subprocess
import time

import numpy as np

import dpbai
from dpbai import _dpbai

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = str(ROOT / "target" / "release" / "dpbai")
MU1 = [0.95, 0.9, 0.9, 0.9, 0.5]


def special(reps):
    rng = np.random.default_rng(1)
    out = {}
    for name, x in (("c_g", rng.uniform(0.1, 50.0, 1_000_000)),
                    ("erf", rng.uniform(-5.0, 5.0, 1_000_000))):
        f = getattr(dpbai.special, name)
        ratios, tp, tr = [], [], []
        for _ in range(reps):
            t0 = time.perf_counter()
            f(x)
            p = time.perf_counter() - t0
            r = _dpbai.rust_loop_seconds(name, x)
            ratios.append(p / r)
            tp.append(p)
            tr.append(r)
        out[name] = dict(python_s=statistics.median(tp), rust_loop_s=statistics.median(tr),
                         ratio=statistics.median(ratios))
    return out


def runs(reps, n, threads):
    args = dict(delta=0.01, runs=n, seed=7, threads=threads)
    cmd = [CLI, "run", "--algo", "ttucb", "--means", ",".join(map(str, MU1)), "--delta", "0.01",
           "--runs", str(n), "--seed", "7", "--threads", str(threads), "--json"]
    py, cli, wall, ratios = [], [], [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        r = dpbai.run("ttucb", MU1, **args)
        w = time.perf_counter() - t0
        j = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        assert j["mean_tau"] == r.summary.mean_tau
        py.append(r.summary.samples_per_s)
        wall.append(r.summary.total_samples / w)
        cli.append(j["samples_per_s"])
        ratios.append(r.summary.samples_per_s / j["samples_per_s"])
    return dict(python_samples_per_s=statistics.median(py),
                python_wall_samples_per_s=statistics.median(wall),
                cli_samples_per_s=statistics.median(cli), ratio=statistics.median(ratios),
                runs=n, threads=threads)


def threshold_cost(reps):
    """Extra seconds per call of a Python threshold over the same rule as an expression, and
    the seconds per stopping test of the whole audit with the expression."""
    rule = "log((1+log(t))/delta)"
    calls = [0]

    def counting(t, na, nb, gap, K, delta, eps, sigma):
        calls[0] += 1
        return math.log((1 + math.log(t)) / delta)

    def plain(t, na, nb, gap, K, delta, eps, sigma):
        return math.log((1 + math.log(t)) / delta)

    kw = dict(delta=0.1, runs=2000, seed=1, threads=1)
    dpbai.audit_delta("ttucb", [0.7, 0.3], threshold=counting, **kw)
    n = calls[0]
    per, expr = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        a = dpbai.audit_delta("ttucb", [0.7, 0.3], threshold=plain, **kw)
        tp = time.perf_counter() - t0
        t0 = time.perf_counter()
        b = dpbai.audit_delta("ttucb", [0.7, 0.3], threshold=rule, **kw)
        te = time.perf_counter() - t0
        assert (a.errors, a.instances[0].mean_tau) == (b.errors, b.instances[0].mean_tau)
        per.append((tp - te) / n)
        expr.append(te / n)
    return dict(calls=n, python_extra_seconds_per_call=statistics.median(per),
                expression_audit_seconds_per_test=statistics.median(expr))


def threshold_ratio(reps, runs=2000):
    """Wall seconds of the same audit (and the same runs) with the rule as a callable and as
    an expression, alternating; medians of the seconds and of the ratios."""
    rule = "log((1+log(t))/delta)"

    def plain(t, na, nb, gap, K, delta, eps, sigma):
        return math.log((1 + math.log(t)) / delta)

    def timed(f):
        t0 = time.perf_counter()
        r = f()
        return time.perf_counter() - t0, r

    out = {}
    cases = {
        "audit_delta": lambda th, thr: dpbai.audit_delta(
            "ttucb", [0.6, 0.5], delta=0.1, runs=runs, seed=1, threshold=th, threads=thr),
        "run": lambda th, thr: dpbai.run(
            "ttucb", [0.6, 0.5], delta=0.1, runs=runs, seed=1, threshold=th, threads=thr),
    }
    for name, call in cases.items():
        tc, te1, tea, r1, ra = [], [], [], [], []
        for _ in range(reps):
            c, _ = timed(lambda: call(plain, None))
            e1, _ = timed(lambda: call(rule, 1))
            ea, _ = timed(lambda: call(rule, None))
            tc.append(c)
            te1.append(e1)
            tea.append(ea)
            r1.append(c / e1)
            ra.append(c / ea)
        out[name] = dict(runs=runs, callable_s=statistics.median(tc),
                         expression_1_thread_s=statistics.median(te1),
                         expression_all_threads_s=statistics.median(tea),
                         ratio_vs_1_thread=statistics.median(r1),
                         ratio_vs_all_threads=statistics.median(ra))
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--runs", type=int, default=3000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", choices=["threshold"])
    a = ap.parse_args()
    if a.only == "threshold":
        print(json.dumps({"python_threshold": threshold_cost(a.reps),
                          "python_threshold_wall": threshold_ratio(a.reps)}, indent=1))
        raise SystemExit
    print(json.dumps({"special": special(a.reps), "run": runs(a.reps, a.runs, a.threads),
                      "python_threshold": threshold_cost(a.reps),
                      "python_threshold_wall": threshold_ratio(a.reps)}, indent=1))
