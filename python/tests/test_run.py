"""dpbai.run: the same numbers as `dpbai run` for the same seed; capped runs; errors."""

import csv

import numpy as np
import pytest

import dpbai
from conftest import cli

MU1 = [0.95, 0.9, 0.9, 0.9, 0.5]
STATS = ("runs", "mean_tau", "std_tau", "median_tau", "min_tau", "max_tau", "mean_tau_stopped",
         "total_samples", "errors", "error_rate", "error_ci", "error_ci_worst_case", "unstopped",
         "unstopped_wrong", "mean_rounds")


def cli_run(tmp_path, *args):
    out = tmp_path / "runs.csv"
    j = cli("run", *args, "--json", "--out", str(out))
    with open(out) as f:
        rows = list(csv.DictReader(f))
    return j, rows


def check_same(r, j, rows):
    for k in STATS:
        assert r.summary.to_dict()[k] == j["summarised_runs" if k == "runs" else k], k
    for k in ("seed", "runs", "algo", "means", "delta", "eps", "best_arm", "max_steps", "rules"):
        assert getattr(r.summary, k) == j[k], k
    assert r.tau.tolist() == [int(x["tau"]) for x in rows]
    assert r.recommendation.tolist() == [int(x["recommendation"]) for x in rows]
    assert r.stopped.tolist() == [x["stopped"] == "true" for x in rows]


def test_ttucb_mu1_equals_cli(tmp_path):
    r = dpbai.run("ttucb", MU1, delta=0.01, runs=100, seed=7)
    j, rows = cli_run(tmp_path, "--algo", "ttucb", "--means", ",".join(map(str, MU1)),
                      "--delta", "0.01", "--runs", "100", "--seed", "7")
    check_same(r, j, rows)
    assert r.tau.dtype == np.uint64 and r.tau.shape == (100,)
    assert float(r.tau.mean()) == r.summary.mean_tau


def test_private_algorithm_and_threads_equal_cli(tmp_path):
    args = dict(delta=0.05, eps=0.5, runs=40, seed=3)
    r1 = dpbai.run("adap-tt", [0.8, 0.5, 0.2], threads=1, **args)
    r2 = dpbai.run("adap-tt", [0.8, 0.5, 0.2], threads=2, **args)
    assert r1.tau.tolist() == r2.tau.tolist()
    j, rows = cli_run(tmp_path, "--algo", "adap-tt", "--means", "0.8,0.5,0.2", "--delta", "0.05",
                      "--eps", "0.5", "--runs", "40", "--seed", "3")
    check_same(r1, j, rows)
    assert not np.isnan(r1.rounds).any() and r1.summary.mean_rounds == j["mean_rounds"]


def test_capped_runs_are_counted(tmp_path):
    r = dpbai.run("ttucb", MU1, delta=0.01, runs=30, seed=2, max_steps=500)
    assert r.summary.unstopped == int((~r.stopped).sum()) > 0
    assert (r.tau[~r.stopped] == 500).all()
    j, rows = cli_run(tmp_path, "--algo", "ttucb", "--means", ",".join(map(str, MU1)),
                      "--delta", "0.01", "--runs", "30", "--seed", "2", "--max-steps", "500")
    check_same(r, j, rows)


def test_many_batches_equal_one_cli_run(tmp_path):
    # 3000 short runs span several batches of the Python loop.
    r = dpbai.run("ttucb", [0.9, 0.5], delta=0.1, runs=3000, seed=11, threads=2)
    j, rows = cli_run(tmp_path, "--algo", "ttucb", "--means", "0.9,0.5", "--delta", "0.1",
                      "--runs", "3000", "--seed", "11", "--threads", "1")
    check_same(r, j, rows)


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"algo": "nope"}, "invalid algo"),
        ({"delta": 0.0}, "invalid delta = 0"),
        ({"runs": 0}, "invalid runs = 0"),
        ({"threads": 0}, "invalid threads = 0"),
        ({"max_steps": 0}, "invalid max_steps = 0"),
        ({"rules": "mine"}, "invalid rules"),
        ({"algo": "adap-tt"}, "eps is required"),
        ({"eps": float("nan"), "algo": "adap-tt"}, "invalid eps = nan"),
        ({"means": [0.5, 0.5]}, "invalid instance"),
    ],
)
def test_bad_input_is_value_error(kw, match):
    args = dict(algo="ttucb", means=[0.9, 0.5], delta=0.1, runs=5, seed=1)
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        dpbai.run(args.pop("algo"), args.pop("means"), **args)


def test_gil_is_released_during_runs():
    import threading
    import time

    done = threading.Event()
    out = {}

    def work():
        t0 = time.perf_counter()
        out["r"] = dpbai.run("ttucb", MU1, delta=0.01, runs=150, seed=5, threads=1)
        out["s"] = time.perf_counter() - t0
        done.set()

    th = threading.Thread(target=work)
    th.start()
    spins = 0
    while not done.is_set():
        spins += 1  # pure-Python work: progresses only while the run does not hold the GIL
    th.join()
    assert out["s"] > 0.05
    assert spins > 10_000, f"main thread ran {spins} iterations in {out['s']:.2f} s"


def test_ctrl_c_interrupts_a_long_run():
    import signal
    import subprocess
    import sys
    import time

    code = (
        "import dpbai, signal, sys, time\n"
        # Python raises KeyboardInterrupt only if SIGINT was not ignored when it started (a
        # background job of a non-interactive shell, e.g. CI under nohup, inherits SIG_IGN).
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "print('started', flush=True)\n"
        "t = time.time()\n"
        "try:\n"
        "    dpbai.run('ttucb', [0.95, 0.9, 0.9, 0.9, 0.5], delta=0.01, runs=10**7, seed=1)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(0)\n"
        "sys.exit(3)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "started"
    time.sleep(1.0)
    t0 = time.time()
    p.send_signal(signal.SIGINT)
    try:
        out, _ = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        pytest.fail("dpbai.run ignored Ctrl-C for 20 s")
    assert p.returncode == 0 and "interrupted" in out
    assert time.time() - t0 < 15.0  # batches last ~0.25 s; generous for a loaded machine


def test_options_threshold_and_step_by_step_equal_cli(tmp_path):
    # Finding 1's control (a reading), a uniform tie-break and the step-by-step loop, as `dpbai run`
    # flags; the summary records them in the CLI's order.
    args = dict(delta=0.05, eps=0.4, runs=30, seed=5)
    opts = {"adap_leader_bonus": "eq11-log-n", "tie-break": "uniform"}
    r = dpbai.run("adap-tt", [0.8, 0.5, 0.2], options=opts, step_by_step=True, **args)
    j, rows = cli_run(tmp_path, "--algo", "adap-tt", "--means", "0.8,0.5,0.2", "--delta", "0.05",
                      "--eps", "0.4", "--runs", "30", "--seed", "5",
                      "--adap-leader-bonus", "eq11-log-n", "--tie-break", "uniform",
                      "--step-by-step")
    check_same(r, j, rows)
    assert r.summary.options == j["options"] == [
        "--tie-break uniform", "--adap-leader-bonus eq11-log-n", "--step-by-step"]
    # the reading changes the runs (it is not ignored)
    plain = dpbai.run("adap-tt", [0.8, 0.5, 0.2], **args)
    assert plain.tau.tolist() != r.tau.tolist()
    # a threshold expression, as `dpbai run --threshold`
    thr = "log(1/delta) + 2*log(1 + log(t))"
    r = dpbai.run("ttucb", [0.9, 0.5], delta=0.1, runs=40, seed=2, threshold=thr,
                  options={"ids_beta": True})
    j, rows = cli_run(tmp_path, "--algo", "ttucb", "--means", "0.9,0.5", "--delta", "0.1",
                      "--runs", "40", "--seed", "2", "--threshold", thr, "--ids-beta")
    check_same(r, j, rows)
    assert r.summary.options == j["options"]


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"options": {"tie_brake": "uniform"}}, "invalid reading = tie_brake: must be one of tie-break"),
        ({"options": {"tie_break": "random"}}, "must be one of lowest-index, uniform"),
        ({"options": {"ids_beta": 1.5}}, "must be a string"),
        ({"threshold": "log(1/delta"}, "invalid threshold"),
    ],
)
def test_bad_options_are_value_errors(kw, match):
    with pytest.raises(ValueError, match=match):
        dpbai.run("ttucb", [0.9, 0.5], delta=0.1, runs=5, seed=1, **kw)
