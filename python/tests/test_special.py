"""dpbai.special / dpbai.divergence: the Rust suite's mpmath goldens, broadcasting, errors."""

import collections
import math

import numpy as np
import pytest

import dpbai
from conftest import load_golden

# Tolerances of the Rust golden tests (tests/special.rs, tests/divergence.rs): same contract.
CLOSED_FORM_TOL = 1e-14
LAMBERT_REL_TOL = 2e-15
LAMBERT_ULPS = 4.0
ZETA_TOL = 1e-13
C_G_TOL = 1e-12
G1_TOL = 1e-12
D_EPS_TOL = 1e-13


def allowed(name, want):
    if name in ("lambert_w0", "lambert_wm1", "wbar_m1"):
        return LAMBERT_REL_TOL * abs(want) + LAMBERT_ULPS * math.ulp(want)
    rel = {"zeta": ZETA_TOL, "c_g": C_G_TOL, "g1": G1_TOL}.get(name, CLOSED_FORM_TOL)
    return rel * abs(want)


def grouped(doc):
    """Golden cases by function: (arguments as columns, values), evaluated as one array call."""
    g = collections.defaultdict(list)
    for c in doc["case"]:
        g[c["fn"]].append(([float(a) for a in c["args"]], float(c["value"])))
    return g


def test_special_goldens_vectorised():
    g = grouped(load_golden("special_golden.toml"))
    assert sum(len(v) for v in g.values()) >= 200
    for name, cases in g.items():
        cols = [np.array(col) for col in zip(*[a for a, _ in cases])]
        want = np.array([v for _, v in cases])
        got = getattr(dpbai.special, name)(*cols)
        assert got.shape == want.shape
        tol = np.array([allowed(name, w) for w in want])
        bad = np.abs(got - want) > tol
        assert not bad.any(), f"{name}: {cols[0][bad]} got {got[bad]} want {want[bad]}"
        # scalar calls give the same numbers, as Python floats
        for args, w in cases[:5]:
            v = getattr(dpbai.special, name)(*args)
            assert isinstance(v, float) and abs(v - w) <= allowed(name, w)


def test_divergence_goldens_vectorised():
    g = grouped(load_golden("divergence_golden.toml"))
    n = 0
    for name, cases in g.items():
        f = getattr(dpbai.divergence, name, None)
        if f is None:  # instance-level quantities (hardness_h_*...) are not element-wise
            continue
        cols = [np.array(col) for col in zip(*[a for a, _ in cases])]
        want = np.array([v for _, v in cases])
        got = f(*cols)
        inf = np.isinf(want)
        assert np.array_equal(got[inf], want[inf]), name
        with np.errstate(divide="ignore", invalid="ignore"):
            rel = np.abs(got[~inf] - want[~inf]) / np.abs(want[~inf])
        rel[want[~inf] == 0] = np.abs(got[~inf][want[~inf] == 0])
        assert np.all(rel <= CLOSED_FORM_TOL), f"{name}: worst rel err {rel.max():e}"
        n += len(cases)
    assert n >= 200


def test_d_eps_goldens_vectorised():
    """The definition of d_eps minimised at 50 digits (verify/golden_d_eps.py)."""
    g = grouped(load_golden("d_eps_golden.toml"))
    assert set(g) == {"d_eps_plus", "d_eps_minus", "d_eps"}
    for name, cases in g.items():
        assert len(cases) >= 40, name
        cols = [np.array(col) for col in zip(*[a for a, _ in cases])]
        want = np.array([v for _, v in cases])
        got = getattr(dpbai.divergence, name)(*cols)
        zero = want == 0
        assert np.all(got[zero] == 0), name
        rel = np.abs(got[~zero] - want[~zero]) / want[~zero]
        assert np.all(rel <= D_EPS_TOL), f"{name}: worst rel err {rel.max():e}"
    with pytest.raises(ValueError, match="invalid x = 1.5"):
        dpbai.divergence.d_eps_plus(0.5, 1.5, 1.0)
    with pytest.raises(ValueError, match="invalid eps = 0"):
        dpbai.divergence.d_eps([0.1, 0.2], 0.5, 0.0)


def test_known_values():
    assert round(dpbai.special.c_g(2.995732), 6) == 4.643836  # docs/GUIDE.md / dpbai fn cg
    assert dpbai.special.wbar_m1(1.0) == 1.0
    assert dpbai.special.k(4.0) == 4.0


def test_broadcasting_like_scipy():
    x = np.linspace(1.0, 50.0, 12).reshape(3, 4)
    out = dpbai.special.h(x, 0.01, 5)
    assert out.shape == (3, 4) and out.dtype == np.float64
    for idx in np.ndindex(3, 4):
        assert out[idx] == dpbai.special.h(float(x[idx]), 0.01, 5)
    # (3,1) against (4,) -> (3,4)
    p = np.array([[0.1], [0.5], [0.9]])
    q = np.array([0.2, 0.4, 0.6, 0.8])
    kl = dpbai.divergence.kl_bernoulli(p, q)
    assert kl.shape == (3, 4)
    assert kl[2, 1] == dpbai.divergence.kl_bernoulli(0.9, 0.4)
    # lists, ints, non-contiguous and float32 input are accepted
    assert dpbai.special.c_g([1, 10]).shape == (2,)
    y = np.arange(1.0, 21.0)[::2].astype(np.float32)
    assert np.array_equal(dpbai.special.c_g(y), dpbai.special.c_g(y.astype(np.float64)))
    assert dpbai.special.zeta(np.empty((0, 3)) + 2.0).shape == (0, 3)
    with pytest.raises(ValueError, match="broadcast"):
        dpbai.divergence.kl_bernoulli([0.1, 0.2], [0.3, 0.4, 0.5])


@pytest.mark.parametrize(
    "call, names",
    [
        (lambda: dpbai.special.c_g(-1.0), "x = -1"),
        (lambda: dpbai.special.c_g(np.array([1.0, float("nan")])), "x = NaN"),
        (lambda: dpbai.special.zeta(1.0), "= 1"),
        (lambda: dpbai.special.lambert_wm1(0.5), "= 0.5"),
        (lambda: dpbai.special.h(2.0, 0.01, 2.5), "K = 2.5"),
        (lambda: dpbai.special.h(2.0, 1.5, 3), "delta = 1.5"),
        (lambda: dpbai.divergence.kl_bernoulli(1.5, 0.5), "1.5"),
        (lambda: dpbai.divergence.kl_gaussian(0.0, 1.0, -2.0), "sigma = -2"),
        (lambda: dpbai.divergence.c_local(0.0), "eps = 0"),
    ],
)
def test_errors_are_value_errors_naming_the_argument(call, names):
    with pytest.raises(ValueError, match="invalid .*" + names.replace("(", r"\(")) as e:
        call()
    assert "must be" in str(e.value)


def test_stubs_cover_the_public_api():
    import ast
    import pathlib

    pkg = pathlib.Path(dpbai.__file__).parent
    # (the package itself is annotated inline and its extension module checked by stubtest)
    for mod, names in (("special", dpbai.special.__all__),
                       ("divergence", dpbai.divergence.__all__)):
        tree = ast.parse((pkg / f"{mod}.pyi").read_text())
        stubbed = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        stubbed |= {a.names[0].asname for a in tree.body if isinstance(a, ast.ImportFrom)
                    and a.names[0].asname}
        missing = set(names) - stubbed
        assert not missing, f"{mod}.pyi lacks {missing}"
