"""The one stub of the compiled module (``_dpbai.pyi``) is precise: every property of every
result class, read on real results, has the type the stub annotates (``stubtest`` checks the
names and signatures; this checks the values). And ``to_dict()`` is the command line's JSON."""

import ast
import math
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import dpbai
from conftest import as_json, cli

STUB = pathlib.Path(dpbai.__file__).parent / "_dpbai.pyi"
ALIASES = {"_F64": "npt.NDArray[np.float64]"}


def _properties():
    """class name -> {property: annotation text}, from the stub."""
    tree = ast.parse(STUB.read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            props = {}
            for f in node.body:
                if isinstance(f, ast.FunctionDef) and any(
                    isinstance(d, ast.Name) and d.id == "property" for d in f.decorator_list
                ):
                    props[f.name] = ast.unparse(f.returns)
            out[node.name] = props
    return out


PROPS = _properties()


def check(value, ann, at):
    """Asserts that ``value`` has the type the annotation text ``ann`` names."""
    ann = ALIASES.get(ann, ann)
    node = ast.parse(ann, mode="eval").body
    _check(value, node, at)


def _check(value, node, at):
    if isinstance(node, ast.Subscript):
        head = ast.unparse(node.value)
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if head == "Optional":
            if value is not None:
                _check(value, args[0], at)
            return
        if head in ("List", "list"):
            assert isinstance(value, list), (at, value)
            for i, v in enumerate(value):
                _check(v, args[0], f"{at}[{i}]")
            return
        if head in ("Tuple", "tuple"):
            assert isinstance(value, tuple) and len(value) == len(args), (at, value)
            for i, (v, a) in enumerate(zip(value, args)):
                _check(v, a, f"{at}[{i}]")
            return
        if head == "npt.NDArray":
            want = {"np.float64": np.float64, "np.uint64": np.uint64, "np.int64": np.int64,
                    "np.bool_": np.bool_}[ast.unparse(args[0])]
            assert isinstance(value, np.ndarray) and value.dtype == want, (at, value)
            return
        raise AssertionError(f"{at}: unknown annotation {ast.unparse(node)}")
    name = ast.unparse(node)
    if name == "float":
        assert isinstance(value, float), (at, value)
    elif name == "int":
        assert isinstance(value, int) and not isinstance(value, bool), (at, value)
    elif name in ("str", "bool"):
        assert type(value).__name__ == name, (at, value)
    elif name in PROPS:
        assert type(value).__name__ == name, (at, value)
        check_record(value, at)
    else:
        raise AssertionError(f"{at}: unknown annotation {name}")


def check_record(obj, at):
    props = PROPS[type(obj).__name__]
    for name, ann in props.items():
        check(getattr(obj, name), ann, f"{at}.{name}")


@pytest.fixture(scope="module")
def results():
    study = 'runs = 12\ndelta = [0.1]\n[[instance]]\nname = "two"\nmeans = [0.9, 0.5]\n' \
            '[[algorithm]]\nalgo = "ttucb"\n[[algorithm]]\nalgo = "adap-tt"\neps = [1.0]\n'
    rng = np.random.default_rng(3)
    return {
        "bounds": dpbai.bounds([0.9, 0.6, 0.5], eps=0.5),
        "bounds without eps": dpbai.bounds([0.9, 0.5]),
        "gaussian bounds": dpbai.bounds([1.0, 0.5], family="gaussian", eps=0.5),
        "run": dpbai.run("adap-tt", [0.9, 0.5], delta=0.1, eps=1.0, runs=20, seed=1),
        "capped run": dpbai.run("ttucb", [0.51, 0.5], delta=0.1, runs=5, seed=1,
                                max_steps=50),
        "audit": dpbai.audit_delta("ttucb", [[0.6, 0.4], [0.7, 0.5]], delta=0.1, runs=50),
        "dp audit": dpbai.audit_dp(lambda x, n: x + rng.laplace(0.0, 1.0, n), (1.0, 0.0),
                                   eps=1.0, runs=2000, vectorized=True),
        "dp search": dpbai.audit_dp(lambda x, n: x + rng.laplace(0.0, 1.0, n),
                                    space=(0.0, 1.0), eps=1.0, runs=2000, pairs=2,
                                    vectorized=True),
        "experiment": dpbai.experiment(study),
    }


def test_every_property_has_its_stub_type(results):
    for name, r in results.items():
        if isinstance(r, dpbai.ExperimentResults):
            assert len(r) == 2 and r.out_dir is None
            for i, row in enumerate(r):
                check_record(row, f"{name}[{i}]")
        else:
            check_record(r, name)


def test_every_result_class_is_exercised(results):
    seen = set()

    def walk(obj):
        if type(obj).__name__ in PROPS:
            seen.add(type(obj).__name__)
            for p in PROPS[type(obj).__name__]:
                walk(getattr(obj, p))
        elif isinstance(obj, (list, tuple)):
            for v in obj:
                walk(v)

    for r in results.values():
        walk(r)
    seen.add("EpsCurves")  # a mapping, no properties: tested in test_bounds.py
    assert seen == set(PROPS), set(PROPS) - seen


def test_results_are_frozen(results):
    b = results["bounds"]
    with pytest.raises(AttributeError):
        b.delta = 0.5
    with pytest.raises(AttributeError):
        b.t_kl.value = 1.0


def test_run_summary_to_dict_is_the_cli_json(results):
    r = results["run"]
    j = cli("run", "--algo", "adap-tt", "--means", "0.9,0.5", "--delta", "0.1", "--eps", "1",
            "--runs", "20", "--seed", "1", "--json")
    d = as_json(r.summary.to_dict())
    timing = ("elapsed_s", "samples_per_s")
    assert d.pop("threshold") is None
    for k in ("options", "shard"):  # the CLI omits them when empty
        assert not d.pop(k) and k not in j
    assert {k: v for k, v in d.items() if k not in timing} == {
        k: v for k, v in j.items() if k not in timing}


def test_gaussian_bounds_to_dict_is_the_cli_json(results):
    j = cli("bounds", "--family", "gaussian", "--sigma", "1", "--means", "1,0.5", "--eps", "0.5",
            "--json")
    assert as_json(results["gaussian bounds"].to_dict()) == j
    assert results["gaussian bounds"].t_local is not None  # Thm. 10 holds for any arms


def test_audit_to_dict_is_the_cli_json(results):
    a = results["audit"]
    j = cli("audit", "delta", "--algo", "ttucb", "--means", "0.6,0.4", "--delta", "0.1",
            "--runs", "50", "--json")
    one = dpbai.audit_delta("ttucb", [0.6, 0.4], delta=0.1, runs=50)
    d = as_json(one.to_dict())
    assert d.pop("seconds") > 0 and j.pop("seconds") > 0
    for row in d["instances"] + j["instances"]:
        row.pop("name")
    assert d == j
    assert len(a.instances) == 2


def test_repr_names_the_fields(results):
    c = results["bounds"].t_kl
    assert repr(c).startswith(f"Certified(value={c.value!r}, lower={c.lower!r}")
    assert "global_=" in repr(results["bounds"].sample_lower_bounds)
    assert math.isnan(results["bounds"].eps_switch_per_arm[0])


def test_examples_type_check_and_run():
    root = pathlib.Path(__file__).resolve().parents[1] / "examples"
    for ex in sorted(root.glob("*.py")):
        out = subprocess.run([sys.executable, str(ex)], capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 0, (ex.name, out.stderr)
        assert out.stdout.strip(), ex.name
