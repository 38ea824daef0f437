"""The Python conventions of the package: argument errors name the keyword; NaN, ±∞ and
raising callables give ValueError naming the callable at every entry point; to_pandas();
progress=; experiment(); callable thresholds in run(); the `dpbai` console command."""

import math
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

import dpbai
from conftest import ROOT, cli

pd = pytest.importorskip("pandas")  # make test installs it; a plain `pip install .` need not

MU = [0.9, 0.5]
NONFINITE = [float("nan"), float("inf"), float("-inf")]


def log_rule(t, na, nb, gap, K, delta, eps, sigma):
    """The expression "log((1 + log(t)) / delta)" as a callable."""
    return math.log((1.0 + math.log(t)) / delta)


def raising(*args):
    raise ZeroDivisionError("boom")


def constant(value):
    def threshold(t, na, nb, gap, K, delta, eps, sigma):
        return value

    return threshold


def scalar_mechanism(value):
    return lambda x: value


def vector_mechanism(value):
    return lambda x, n: np.full(n, value)


# ------------------------------------------------------------------------------------------
# Every entry point that takes a callable: NaN, ±∞ and exceptions are ValueErrors naming it.

THRESHOLD_ENTRIES = {
    "run": lambda th: dpbai.run("ttucb", MU, delta=0.1, runs=20, seed=1, threshold=th),
    "run-private": lambda th: dpbai.run("adap-tt", MU, delta=0.1, eps=1.0, runs=20, seed=1,
                                        threshold=th),
    "audit_delta": lambda th: dpbai.audit_delta("ttucb", MU, delta=0.1, runs=20, threshold=th),
}
MECHANISM_ENTRIES = {
    "audit_dp": lambda v: dpbai.audit_dp(scalar_mechanism(v), (1.0, 0.0), eps=1.0, runs=100),
    "audit_dp-vectorized": lambda v: dpbai.audit_dp(vector_mechanism(v), (1.0, 0.0), eps=1.0,
                                                    runs=100, vectorized=True),
}


@pytest.mark.parametrize("entry", sorted(THRESHOLD_ENTRIES))
@pytest.mark.parametrize("value", NONFINITE, ids=["nan", "inf", "-inf"])
def test_nonfinite_threshold_is_a_value_error_naming_it(entry, value):
    with pytest.raises(ValueError, match=r"python callable constant\.<locals>\.threshold"):
        THRESHOLD_ENTRIES[entry](constant(value))


@pytest.mark.parametrize("entry", sorted(THRESHOLD_ENTRIES))
def test_raising_threshold_is_a_value_error_naming_it(entry):
    with pytest.raises(ValueError, match="python callable raising raised ZeroDivisionError: boom") as e:
        THRESHOLD_ENTRIES[entry](raising)
    assert isinstance(e.value.__cause__, ZeroDivisionError)


@pytest.mark.parametrize("entry", sorted(THRESHOLD_ENTRIES))
def test_non_float_threshold_is_a_value_error_naming_it(entry):
    with pytest.raises(ValueError, match="threshold returned 'x': must return a float"):
        THRESHOLD_ENTRIES[entry](constant("x"))


@pytest.mark.parametrize("entry", sorted(MECHANISM_ENTRIES))
@pytest.mark.parametrize("value", NONFINITE, ids=["nan", "inf", "-inf"])
def test_nonfinite_mechanism_is_a_value_error_naming_it(entry, value):
    with pytest.raises(ValueError, match=r"python callable .*_mechanism\.<locals>\.<lambda> "
                                         r"returned (NaN|inf|-inf) on input 1\.0"):
        MECHANISM_ENTRIES[entry](value)


def test_the_reported_nan_mechanism_raises_value_error():
    with pytest.raises(ValueError, match="must return finite floats"):
        dpbai.audit_dp(lambda x: float("nan"), (1.0, 0.0), eps=1, runs=1000)


@pytest.mark.parametrize("vectorized", [False, True])
def test_raising_mechanism_is_a_value_error_naming_it(vectorized):
    with pytest.raises(ValueError, match="python callable raising raised ZeroDivisionError") as e:
        dpbai.audit_dp(raising, (1.0, 0.0), eps=1.0, runs=100, vectorized=vectorized)
    assert isinstance(e.value.__cause__, ZeroDivisionError)


def test_keyboard_interrupt_in_a_callable_is_not_wrapped():
    def interrupted(*args):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        dpbai.audit_dp(interrupted, (1.0, 0.0), eps=1.0, runs=100)


# Every entry point with a float keyword: NaN and ±∞ are ValueErrors naming the keyword.

FLOAT_ENTRIES = [
    ("bounds", lambda **kw: dpbai.bounds(kw.pop("means", MU), eps=kw.pop("eps", 0.5), **kw),
     ["delta", "beta", "eps"]),
    ("bounds-gaussian", lambda **kw: dpbai.bounds(MU, family="gaussian", **kw), ["sigma"]),
    ("eps_curves", lambda **kw: dpbai.eps_curves(MU, kw.pop("eps", [0.5]), **kw),
     ["delta", "beta"]),
    ("run", lambda **kw: dpbai.run(kw.pop("algo", "adap-tt"), MU, delta=kw.pop("delta", 0.1),
                                   eps=kw.pop("eps", 1.0), runs=5, seed=1, **kw),
     ["delta", "eps", "beta"]),
    ("audit_delta", lambda **kw: dpbai.audit_delta("adap-tt", MU, delta=kw.pop("delta", 0.1),
                                                   eps=kw.pop("eps", 1.0), runs=5, **kw),
     ["delta", "eps", "alpha", "gamma"]),
    ("audit_dp", lambda **kw: dpbai.audit_dp(scalar_mechanism(0.0), (1.0, 0.0),
                                             eps=kw.pop("eps", 1.0), runs=10, **kw),
     ["eps", "gamma", "alpha"]),
]


@pytest.mark.parametrize("value", NONFINITE, ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("entry, call, names", FLOAT_ENTRIES, ids=[e[0] for e in FLOAT_ENTRIES])
def test_nonfinite_floats_name_their_keyword(entry, call, names, value):
    for name in names:
        with pytest.raises(ValueError, match=f"invalid {name} = {value}: must be a finite"):
            call(**{name: value})


@pytest.mark.parametrize("value", NONFINITE, ids=["nan", "inf", "-inf"])
def test_nonfinite_means_name_the_arm(value):
    for call in (lambda m: dpbai.bounds(m), lambda m: dpbai.eps_curves(m, [1.0]),
                 lambda m: dpbai.run("ttucb", m, delta=0.1, runs=2, seed=1),
                 lambda m: dpbai.audit_delta("ttucb", m, delta=0.1, runs=2)):
        with pytest.raises(ValueError, match=rf"\[1\] = {value}: arm means must be finite"):
            call([0.9, value])
    with pytest.raises(ValueError, match=rf"invalid eps\[0\] = {value}"):
        dpbai.eps_curves(MU, [value])


# A point inside the domain of every special function and divergence.
DOMAIN = {
    "lambert_w0": (1.0,), "lambert_wm1": (-0.2,), "wbar_m1": (2.0,), "zeta": (2.0,),
    "c_g": (1.0,), "k": (2.0,), "h": (2.0, 0.01, 3.0), "c_l36": (2.0, 0.01, 3.0),
    "g1": (0.5,), "g2": (0.5,), "h1": (1.0, 2.0), "erf": (0.5,), "erfc": (0.5,),
    "kl_bernoulli": (0.3, 0.6), "kl_gaussian": (0.0, 1.0, 1.0), "tv_bernoulli": (0.3, 0.6),
    "tv2_bernoulli": (0.3, 0.6), "tv_gaussian": (0.0, 1.0, 1.0), "c_local": (1.0,),
    "rr_mean": (0.3, 1.0), "kl_delta": (0.1,), "d_eps_plus": (0.3, 0.6, 1.0),
    "d_eps_minus": (0.6, 0.3, 1.0), "d_eps": (0.3, 0.6, 1.0),
}


def test_domain_table_covers_every_function():
    assert set(DOMAIN) == set(dpbai.special.__all__) | set(dpbai.divergence.__all__)


@pytest.mark.parametrize("name", sorted(DOMAIN))
def test_special_functions_refuse_nan_and_never_return_it(name):
    mod = dpbai.special if name in dpbai.special.__all__ else dpbai.divergence
    f = getattr(mod, name)
    args = DOMAIN[name]
    assert math.isfinite(f(*args))
    for i in range(len(args)):
        bad = list(args)
        bad[i] = float("nan")
        with pytest.raises(ValueError, match="invalid .*NaN"):
            f(*bad)
        for inf in (float("inf"), float("-inf")):
            bad[i] = inf
            try:
                y = f(*bad)
            except ValueError as e:
                assert "invalid" in str(e)
            else:  # a limit, e.g. erf(±∞) = ±1, erfc(+∞) = 0, zeta(+∞) = 1
                assert not math.isnan(y), f"{name} with argument {i} = {inf} gave NaN"


# ------------------------------------------------------------------------------------------
# Argument errors name the Python keyword.

RUN = dict(delta=0.1, runs=5, seed=1)


@pytest.mark.parametrize(
    "kw, error, match",
    [
        ({"seed": 2**70}, ValueError, r"invalid seed = 1180591620717411303424: must be an "
                                      r"integer in \[0, 2\^64 - 1\]"),
        ({"seed": -1}, ValueError, r"invalid seed = -1: must be an integer in \[0, 2\^64 - 1\]"),
        ({"seed": 1.5}, TypeError, r"invalid seed = 1.5: must be an integer"),
        ({"seed": "1"}, TypeError, r"invalid seed = '1': must be an integer"),
        ({"runs": -1}, ValueError, r"invalid runs = -1: must be an integer in \[1, "),
        ({"runs": True}, TypeError, r"invalid runs = True: must be an integer"),
        ({"max_steps": -5}, ValueError, r"invalid max_steps = -5"),
        ({"threads": -2}, ValueError, r"invalid threads = -2"),
        ({"delta": "0.1"}, TypeError, r"invalid delta = '0.1': must be a finite real number"),
        ({"means": "0.9,0.8"}, TypeError, r"invalid means = '0.9,0.8': must be a sequence of "
                                          r"arm means \(e.g. \[0.9, 0.8\]\), not a string"),
        ({"means": np.array([[0.9, 0.8]])}, ValueError, r"invalid means: must be 1-D .* shape "
                                                        r"\(1, 2\)"),
        ({"means": [0.9, "a"]}, TypeError, r"invalid means = \[0.9, 'a'\]"),
        ({"algo": 3}, TypeError, r"invalid algo = 3: must be a string"),
        ({"threshold": 3}, TypeError, r"invalid threshold = 3: must be a string"),
        ({"step_by_step": "yes"}, TypeError, r"invalid step_by_step = 'yes'"),
        ({"progress": 3}, TypeError, r"invalid progress = 3"),
        ({"options": [1]}, TypeError, r"invalid options = \[1\]"),
    ],
)
def test_run_errors_name_the_keyword(kw, error, match):
    args = dict(algo="ttucb", means=MU, **RUN)
    args.update(kw)
    with pytest.raises(error, match=match):
        dpbai.run(args.pop("algo"), args.pop("means"), **args)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: dpbai.audit_delta("ttucb", MU, delta=0.1, seed=2**70), ValueError,
         r"invalid seed = 1180591620717411303424"),
        (lambda: dpbai.audit_delta("ttucb", MU, delta=0.1, runs=-1), ValueError,
         r"invalid runs = -1"),
        (lambda: dpbai.audit_delta("ttucb", MU, delta=0.1, first=0, until_decided=True),
         ValueError, r"invalid first = 0"),
        (lambda: dpbai.audit_delta("ttucb", "defualt", delta=0.1), ValueError,
         r'invalid means_or_battery = "defualt": must be "default"'),
        (lambda: dpbai.audit_delta("ttucb", [[0.9, 0.5], "0.9,0.8"], delta=0.1), TypeError,
         r"invalid means_or_battery\[1\] = '0.9,0.8'"),
        (lambda: dpbai.audit_delta("ttucb", [[0.9, 0.5], [[0.9, 0.8]]], delta=0.1), ValueError,
         r"invalid means_or_battery\[1\]: must be 1-D"),
        (lambda: dpbai.audit_delta("adap-tt", MU, delta=0.1), ValueError,
         r"eps is required by adap-tt .*: pass eps > 0"),
        (lambda: dpbai.audit_dp(scalar_mechanism(0.0), (1.0, 0.0), eps=1.0, runs=-3), ValueError,
         r"invalid runs = -3: must be an integer in \[4, "),
        (lambda: dpbai.audit_dp(scalar_mechanism(0.0), (1.0,), eps=1.0), ValueError,
         r"invalid neighbours = \(1.0,\): must be a pair"),
        (lambda: dpbai.bounds(MU, eps="1"), TypeError, r"invalid eps = '1'"),
        (lambda: dpbai.bounds("0.9,0.5"), TypeError, r"invalid means = '0.9,0.5'"),
        (lambda: dpbai.experiment("no-such-study.toml"), ValueError,
         r"invalid config_or_path = 'no-such-study.toml': no such file"),
        (lambda: dpbai.experiment(3), TypeError, r"invalid config_or_path = 3"),
        (lambda: dpbai.experiment("runs = 5\n", runs=-1), ValueError, r"invalid runs = -1"),
    ],
)
def test_other_errors_name_the_keyword(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_audit_delta_eps_message_names_no_cli_flag():
    with pytest.raises(ValueError) as e:
        dpbai.audit_delta("adap-tt", MU, delta=0.1)
    assert "--eps" not in str(e.value)


# ------------------------------------------------------------------------------------------
# Callable thresholds in run(), progress=, to_pandas(), experiment().


def test_callable_threshold_in_run_equals_the_expression():
    kw = dict(delta=0.1, runs=300, seed=3)
    e = dpbai.run("ttucb", [0.7, 0.5, 0.4], threshold="log((1+log(t))/delta)", **kw)
    c = dpbai.run("ttucb", [0.7, 0.5, 0.4], threshold=log_rule, **kw)
    assert np.array_equal(e.tau, c.tau) and np.array_equal(e.recommendation, c.recommendation)
    assert c.summary.threshold == "python callable log_rule"
    assert c.summary.mean_tau == e.summary.mean_tau


def test_progress_callable_in_run_counts_the_runs():
    seen = []
    r = dpbai.run("ttucb", MU, delta=0.1, runs=500, seed=1, progress=lambda d, t: seen.append((d, t)))
    done = [d for d, _ in seen]
    assert done == sorted(done) and len(set(done)) == len(done)
    assert all(t == 500 for _, t in seen) and seen[-1] == (500, 500)
    assert r.summary.runs == 500


def test_progress_exception_stops_the_run_and_propagates():
    def stop(done, total):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        dpbai.run("ttucb", MU, delta=0.1, runs=10_000, seed=1, progress=stop)
    with pytest.raises(RuntimeError, match="enough"):
        dpbai.audit_delta("ttucb", [MU, [0.8, 0.5]], delta=0.1, runs=10, progress=stop)
    with pytest.raises(RuntimeError, match="enough"):
        dpbai.audit_dp(vector_mechanism(0.0), (1.0, 0.0), eps=1.0, runs=100, vectorized=True,
                       progress=stop)
    with pytest.raises(RuntimeError, match="enough"):
        dpbai.experiment(STUDY, progress=stop)


def test_progress_in_audits():
    seen = []
    r = dpbai.audit_delta("ttucb", [MU, [0.8, 0.5]], delta=0.1, runs=50,
                          progress=lambda i, n: seen.append((i, n)))
    assert seen == [(0, 2), (1, 2), (2, 2)] and r.runs == 100
    seen.clear()
    dpbai.audit_dp(vector_mechanism(0.0), (1.0, 0.0), eps=1.0, runs=100, vectorized=True,
                   progress=lambda d, t: seen.append((d, t)))
    assert seen == [(100, 200), (200, 200)]


def test_progress_true_without_tqdm_prints_to_stderr(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # `import tqdm.auto` then fails
    dpbai.run("ttucb", MU, delta=0.1, runs=20, seed=1, progress=True)
    assert "ttucb runs: 20/20" in capsys.readouterr().err


def test_progress_true_with_tqdm(capsys):
    pytest.importorskip("tqdm")
    dpbai.run("ttucb", MU, delta=0.1, runs=20, seed=1, progress=True)
    assert "20/20" in capsys.readouterr().err


def test_expression_threshold_audit_is_unchanged_by_progress():
    kw = dict(delta=0.1, runs=200, threshold="log(1/delta)/20")
    a = dpbai.audit_delta("ttucb", [[0.55, 0.45], [0.6, 0.4]], **kw)
    b = dpbai.audit_delta("ttucb", [[0.55, 0.45], [0.6, 0.4]], progress=lambda i, n: None, **kw)
    strip = lambda r: [(i.name, i.errors, i.unstopped, i.runs) for i in r.instances]
    assert strip(a) == strip(b) and a.verdict == b.verdict == "violated"


def glossary_section(title):
    """The backticked names of the first column of docs/GLOSSARY.md's section `title`."""
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "GLOSSARY.md").read_text()
    names, inside = set(), False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line[3:].strip().startswith(title)
        elif inside:
            m = re.match(r"^\|\s*`([^`]+)`\s*\|", line)
            if m:
                names.add(m.group(1))
    return names


def test_to_pandas_of_every_result():
    r = dpbai.run("ttucb", MU, delta=0.1, runs=30, seed=2)
    df = r.to_pandas()
    assert list(df.columns) == [
        "run", "tau", "recommendation", "stopped", "rounds",
        "algo", "family", "means", "delta", "eps", "gamma", "beta", "rules", "seed", "max_steps",
    ]
    assert len(df) == 30 and df["tau"].mean() == r.summary.mean_tau
    assert df.attrs["summary"]["seed"] == 2
    # Counts are integers (rounds nullable: TTUCB has no phases), the configuration is on every
    # row, so frames of two calls concatenate without .assign.
    assert str(df["tau"].dtype) == "uint64" and str(df["rounds"].dtype) == "Int64"
    assert df["rounds"].isna().all() and str(df["seed"].dtype) == "int64"
    assert set(df["algo"]) == {"ttucb"} and set(df["means"]) == {",".join(str(m) for m in MU)}
    assert df["eps"].isna().all() and (df["delta"] == 0.1).all()
    p = dpbai.run("adap-tt", MU, delta=0.1, eps=1.0, runs=5, seed=3).to_pandas()
    both = __import__("pandas").concat([df, p], ignore_index=True)
    assert len(both) == 35 and list(both.groupby("algo").size()) == [5, 30]
    assert str(p["rounds"].dtype) == "Int64" and p["rounds"].notna().all()
    assert set(p["eps"]) == {1.0}
    # docs/GLOSSARY.md defines every column.
    assert set(df.columns) <= glossary_section("RunResult.to_pandas()")

    a = dpbai.audit_delta("ttucb", [MU, [0.8, 0.5]], delta=0.1, runs=40)
    adf = a.to_pandas()
    assert len(adf) == 2 and set(adf["runs"]) == {40} and "verdict" in adf.columns

    d = dpbai.audit_dp(vector_mechanism(0.0), (1.0, 0.0), eps=1.0, runs=100, vectorized=True)
    ddf = d.to_pandas()
    assert len(ddf) == 1 and ddf["verdict"][0] == d.verdict and ddf["eps_claimed"][0] == 1.0

    b = dpbai.bounds(MU, eps=0.5)
    bdf = b.to_pandas()
    assert bdf.loc["t_kl", "value"] == b.t_kl.value
    assert set(bdf.index) == set(b.times())


STUDY = """
title = "python experiment"
runs = 40
delta = [0.1]

[[instance]]
name = "two"
means = [0.9, 0.5]

[[algorithm]]
algo = "ttucb"

[[algorithm]]
algo = "adap-tt"
eps = [1.0, 4.0]
"""


def test_experiment_returns_the_results_table_of_the_cli(tmp_path):
    path = tmp_path / "study.toml"
    path.write_text(STUDY)
    seen = []
    rows = dpbai.experiment(path, out_dir=tmp_path / "py", progress=lambda i, n: seen.append(i))
    assert seen == [0, 1, 2, 3] and len(rows) == 3
    assert [r.algo for r in rows] == ["ttucb", "adap-tt", "adap-tt"]
    assert rows.out_dir == str(tmp_path / "py")
    subprocess.run([cli_bin(), "experiment", str(path), "--out-dir", str(tmp_path / "cli")],
                   check=True, capture_output=True)
    ours = (tmp_path / "py" / "results.csv").read_text()
    theirs = (tmp_path / "cli" / "results.csv").read_text()
    assert ours == theirs
    df = rows.to_pandas()
    cli_df = pd.read_csv(tmp_path / "cli" / "results.csv")
    assert np.array_equal(df["mean_tau"].to_numpy(), cli_df["mean_tau"].to_numpy())
    # the TOML text itself, into a temporary folder
    again = dpbai.experiment(STUDY)
    assert again.out_dir is None
    assert np.array_equal(again.column("mean_tau"), rows.column("mean_tau"))


def test_experiment_config_error_is_a_value_error():
    with pytest.raises(ValueError, match="algorithm"):
        dpbai.experiment('runs = 5\ndelta = [0.1]\n[[instance]]\nname = "a"\nmeans = [0.9, 0.5]\n')


def cli_bin():
    from conftest import cli_path

    return cli_path()


# ------------------------------------------------------------------------------------------
# The `dpbai` console command of the package.


def console():
    exe = shutil.which("dpbai", path=os.path.dirname(sys.executable))
    if exe is None:
        pytest.fail(f"no `dpbai` command beside {sys.executable}: the package installs one")
    return exe


def test_console_command_is_installed_and_runs_the_cli():
    exe = console()
    v = subprocess.run([exe, "--version"], capture_output=True, text=True, check=True)
    assert v.stdout.strip() == f"dpbai {dpbai.__version__}"
    ours = subprocess.run([exe, "bounds", "--means", "0.9,0.5", "--eps", "0.5", "--json"],
                          capture_output=True, text=True, check=True).stdout
    assert ours == cli("bounds", "--means", "0.9,0.5", "--eps", "0.5", "--json", json_out=False)


def test_console_command_exit_codes_and_messages():
    exe = console()
    bad = subprocess.run([exe, "bounds", "--means", "x"], capture_output=True, text=True)
    assert bad.returncode == 2 and "invalid --means `x`" in bad.stderr
    assert "Traceback" not in bad.stderr
    none = subprocess.run([exe], capture_output=True, text=True)
    assert none.returncode == 2 and "Usage" in none.stdout + none.stderr


def test_console_command_quits_quietly_on_a_closed_pipe():
    exe = console()
    p = subprocess.Popen([exe, "bounds", "--means", "0.9,0.5", "--eps-grid", "0.01:10:2000"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=60)
    assert "panicked" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: dpbai.run("ttucb", MU, delta=0.1, runs=2**63, seed=1),
         r"invalid runs = 9223372036854775808: must be at most 10000000 runs per process \(for more, `dpbai run --shard"),
        (lambda: dpbai.audit_delta("ttucb", MU, delta=0.1, runs=2**63), r"invalid runs = 9223"),
        (lambda: dpbai.audit_delta("ttucb", MU, delta=0.1, until_decided=True, budget=2**40),
         r"invalid budget = 1099511627776"),
        (lambda: dpbai.audit_dp(vector_mechanism(0.0), (1.0, 0.0), eps=1.0, runs=2**62,
                                vectorized=True), r"invalid runs = 4611686018427387904"),
        (lambda: dpbai.run("ttucb", MU, delta=0.1, runs=2, seed=1, threads=5000),
         r"invalid threads = 5000: must be an integer in \[1, 1024\]"),
    ],
)
def test_huge_counts_are_value_errors_not_panics(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_run_grid_returns_one_tidy_frame_that_concatenates_and_reuses_its_cells(tmp_path):
    pd = pytest.importorskip("pandas")
    inst = {"two": [0.9, 0.5], "three": [0.8, 0.5, 0.4]}
    df = dpbai.run_grid(["ttucb", "adap-tt-star"], inst, eps=[1.0, 10.0], delta=0.1, runs=8,
                        seed=5, out_dir=tmp_path)
    # One row per cell: the non-private algorithm once per instance, the private one per ε.
    assert len(df) == 2 * (1 + 2)
    assert set(df["instance"]) == {"two", "three"}
    assert set(df["algo"]) == {"ttucb", "adap-tt-star"}
    assert df[df["algo"] == "ttucb"]["eps"].isna().all()
    assert sorted(df[df["algo"] == "adap-tt-star"]["eps"].unique()) == [1.0, 10.0]
    assert (df["runs"] == 8).all() and (df["delta"] == 0.1).all()
    # The same cells as `dpbai experiment`: a second call reads them from the cache.
    again = dpbai.run_grid(["ttucb", "adap-tt-star"], inst, eps=[1.0, 10.0], delta=0.1, runs=8,
                           seed=5, out_dir=tmp_path)
    assert list(again["mean_tau"]) == list(df["mean_tau"])
    assert list(again["seed"]) == list(df["seed"])
    # Frames of several calls concatenate without `.assign`.
    other = dpbai.run_grid(["dp-se"], [[0.9, 0.5]], eps=[1.0], delta=0.1, runs=8, seed=5)
    both = pd.concat([df, other], ignore_index=True)
    assert len(both) == len(df) + 1 and set(both["instance"]) == {"two", "three", "i0"}
    with pytest.raises(ValueError, match="algos"):
        dpbai.run_grid([], inst, eps=[1.0])
    with pytest.raises(ValueError, match="eps"):
        dpbai.run_grid(["ttucb"], inst, eps=[])
