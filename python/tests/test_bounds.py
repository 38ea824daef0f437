"""dpbai.bounds / dpbai.eps_curves: the Rust suite's mpmath goldens, the CLI's numbers, errors."""

import collections
import csv
import io

import numpy as np
import pytest

import dpbai
from conftest import cli, load_golden

# Tolerance of the Rust golden test of the characteristic times (tests/complexity.rs).
GOLDEN_TOL = 1e-8
EPS_KINDS = ("t_local", "t_global", "t_kl_g_eps", "t_kl_beta_g_eps")
MU1 = [0.95, 0.9, 0.9, 0.9, 0.5]


def kwargs(c):
    fam = c["family"]
    return {"family": fam, "sigma": c["sigma"] if fam == "gaussian" else None}


def test_acceptance_value():
    v = dpbai.bounds(MU1).t_kl.value
    assert f"{v:.6f}" == "395.541549"


def test_characteristic_time_goldens():
    cases = load_golden("bounds_golden.toml")["case"]
    assert len(cases) >= 600
    plain = collections.defaultdict(list)
    curves = collections.defaultdict(list)
    for c in cases:
        key = (tuple(c["means"]), c["family"], c["sigma"], c.get("beta", 0.5))
        (curves if c["kind"] in EPS_KINDS else plain)[key].append(c)
    checked = 0
    for (means, _, _, beta), group in plain.items():
        b = dpbai.bounds(list(means), beta=beta, **kwargs(group[0]))
        for c in group:
            want = float(c["value"])
            t = b[c["kind"]]
            assert abs(t.value - want) <= GOLDEN_TOL * want, (c["instance"], c["kind"])
            assert t.lower <= want * (1 + 1e-15) and want <= t.upper * (1 + 1e-15)
            assert isinstance(t.allocation, np.ndarray) and len(t.allocation) == len(means)
            checked += 1
    for (means, _, _, beta), group in curves.items():
        eps = sorted({c["eps"] for c in group})
        cur = dpbai.eps_curves(list(means), eps, beta=beta, **kwargs(group[0]))
        for c in group:
            i = eps.index(c["eps"])
            want = float(c["value"])
            got = cur[c["kind"]][i]
            assert abs(got - want) <= GOLDEN_TOL * want, (c["instance"], c["kind"], c["eps"])
            checked += 1
    assert checked == len(cases)


def test_bounds_equal_cli_json():
    b = dpbai.bounds(MU1, eps=0.3, delta=0.05, beta=0.4)
    j = cli("bounds", "--means", ",".join(map(str, MU1)), "--eps", "0.3", "--delta", "0.05",
            "--beta", "0.4", "--json")
    for k in ("t_kl", "t_kl_gaussian", "t_kl_beta", "t_tv", "t_tv2", "t_local", "t_global",
              "t_kl_g_eps", "t_kl_beta_g_eps"):
        for f in ("value", "lower", "upper"):
            assert b[k][f] == j[k][f], (k, f)
        assert b[k].allocation.tolist() == j[k]["allocation"]
    for k in ("eps_switch_local", "eps_switch_global", "hardness_h", "log_factor", "c_eps",
              "two_h_g_eps", "h_eps_sec43", "h_eps_app_b"):
        assert b[k] == j[k], k
    assert [None if np.isnan(x) else x for x in b.eps_switch_per_arm] == j["eps_switch_per_arm"]
    assert b.sample_lower_bounds == j["sample_lower_bounds"]
    ub = b.upper_bounds
    assert ub.adap_tt_star.thm24_main == j["upper_bounds"]["adap_tt_star"]["thm24_main"]
    assert ub.ctb_tt.value == j["upper_bounds"]["ctb_tt"]["value"]
    assert ub.dpa.value == j["upper_bounds"]["dpa"]["value"]
    # without eps the private entries are None, as the CLI's null
    b0 = dpbai.bounds(MU1)
    assert b0.t_global is None and b0.sample_lower_bounds.local is None
    assert set(b0.times()) == {"t_kl", "t_kl_gaussian", "t_kl_beta", "t_tv", "t_tv2"}


def test_eps_curves_equal_cli_grid():
    text = cli("bounds", "--means", ",".join(map(str, MU1)), "--eps-grid", "0.001:100:9",
               json_out=False)
    rows = list(csv.DictReader(io.StringIO(text)))
    eps = [float(r["eps"]) for r in rows]
    cur = dpbai.eps_curves(MU1, np.array(eps))
    assert list(cur) == list(rows[0])  # the same columns, in the same order
    for name, col in cur.items():
        want = np.array([float(r[name]) if r[name] else np.nan for r in rows])
        assert np.array_equal(col, want, equal_nan=True), name  # shortest round-trip text


def test_eps_curves_gaussian_local_is_certified():
    # issue 12: the local time of Gaussian arms is computed (only relaxed_local is undefined)
    cur = dpbai.eps_curves([0.0, -1.0], [0.5, 1.0], family="gaussian", sigma=2.0)
    assert np.isfinite(cur["t_local"]).all() and np.isfinite(cur["t_global"]).all()
    assert (cur["t_local_lower"] <= cur["t_local"]).all()
    assert (cur["t_local"] <= cur["t_local_upper"]).all()
    assert np.isnan(cur["relaxed_local"]).all()


def test_to_pandas_when_available():
    pd = pytest.importorskip("pandas")
    df = dpbai.eps_curves(MU1, [0.1, 1.0]).to_pandas()
    assert isinstance(df, pd.DataFrame) and df.shape[0] == 2


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"means": [0.9, 0.9]}, "invalid instance"),
        ({"means": [1.5, 0.2]}, "1.5"),
        ({"means": MU1, "delta": 1.0}, "invalid delta = 1"),
        ({"means": MU1, "beta": 0.0}, "invalid beta = 0"),
        ({"means": MU1, "eps": -1.0}, "invalid eps = -1"),
        ({"means": MU1, "family": "poisson"}, "invalid family"),
        ({"means": MU1, "sigma": 2.0}, "invalid sigma"),
        ({"means": [0.0, 1.0], "family": "gaussian", "sigma": 0.0}, "sigma"),
    ],
)
def test_bad_input_is_value_error(kw, match):
    with pytest.raises(ValueError, match=match):
        dpbai.bounds(**kw)


def test_eps_curves_bad_eps():
    with pytest.raises(ValueError, match="invalid eps = 0"):
        dpbai.eps_curves(MU1, [0.1, 0.0])
