"""Shared helpers of the Python test suite (run by `make test`)."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the suite runs on the repository's Python (3.11)
    tomllib = None

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def load_golden(name):
    """A golden TOML file of the Rust suite (tests/data/), the same references."""
    if tomllib is None:
        pytest.skip("tomllib needs Python >= 3.11")
    with open(DATA / name, "rb") as f:
        return tomllib.load(f)


def cli_path():
    """The `dpbai` binary built by `cargo build --release` (or $DPBAI_BIN)."""
    p = pathlib.Path(os.environ.get("DPBAI_BIN", ROOT / "target" / "release" / "dpbai"))
    if not p.exists():
        pytest.fail(f"CLI binary {p} missing: run `cargo build --release` (make test does)")
    return str(p)


def cli(*args, json_out=True):
    """Runs the CLI; returns parsed JSON (or stdout text). An audit exits with its verdict (1
    violated, 3 inconclusive or undecided: docs/GUIDE.md), which is checked against the JSON."""
    r = subprocess.run([cli_path(), *args], capture_output=True, text=True)
    ok = {0, 1, 3} if args and args[0] == "audit" else {0}
    if r.returncode not in ok:
        raise subprocess.CalledProcessError(r.returncode, [cli_path(), *args], r.stdout, r.stderr)
    out = json.loads(r.stdout) if json_out else r.stdout
    if json_out and args[0] == "audit" and "verdict" in out:
        code = {"holds": 0, "proven": 0, "no violation found": 0, "violated": 1,
                "counterexample": 1, "inconclusive": 3, "undecided": 3}
        assert isinstance(out["verdict"], str), out["verdict"]
        assert r.returncode == code[out["verdict"]], (r.returncode, out["verdict"])
    return out


def as_json(value):
    """``value`` as the command line's JSON has it: ndarrays as lists, NaN as ``None`` (how
    serde writes a NaN), dicts and lists element-wise."""
    import math

    import numpy as np

    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
