"""dpbai.bounds / dpbai.eps_curves: the Rust suite's mpmath goldens, the CLI's numbers, errors."""

import collections
import csv
import io

import numpy as np
import pytest

import dpbai
from conftest import as_json, cli, load_golden

# Tolerance of the Rust golden test of the characteristic times (tests/complexity.rs).
GOLDEN_TOL = 1e-8
EPS_KINDS = ("t_local", "t_global", "t_kl_g_eps", "t_kl_beta_g_eps")
# golden upper-bound kinds (per log(1/δ), β = 1/2) -> the eps_curves column
UB_COLUMNS = {
    "ub_ctb_tt": "ub_ctb_tt",
    "ub_ctb_tt_ids": "ub_ctb_tt_ids",
    "ub_adap_tt": "ub_adap_tt",
    "ub_thm24_main": "ub_adap_tt_star_thm24_main",
    "ub_lemma52_app": "ub_adap_tt_star_lemma52_app",
    "ub_proof_max": "ub_adap_tt_star_proof_max",
}
REGIME = "asymptotic, δ → 0; not a finite-δ bound"
MU1 = [0.95, 0.9, 0.9, 0.9, 0.5]


# The largest ε of `eps_curves` (the local-DP constant c(ε) = 4(e^ε - 1)^2 is finite below it).
C_LOCAL_EPS_MAX = 354.19820926613204


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
        (curves if c["kind"] in EPS_KINDS or c["kind"] in UB_COLUMNS else plain)[key].append(c)
    checked = refused = 0
    for (means, _, _, beta), group in plain.items():
        b = dpbai.bounds(list(means), beta=beta, **kwargs(group[0]))
        for c in group:
            want = float(c["value"])
            if c["kind"] == "ub_dpa":
                got = b.upper_bounds.dpa.value
                assert abs(got - want) <= GOLDEN_TOL * want, (c["instance"], c["kind"])
                checked += 1
                continue
            t = getattr(b, c["kind"])
            assert abs(t.value - want) <= GOLDEN_TOL * want, (c["instance"], c["kind"])
            assert t.lower <= want * (1 + 1e-15) and want <= t.upper * (1 + 1e-15)
            assert isinstance(t.allocation, np.ndarray) and len(t.allocation) == len(means)
            checked += 1
    for (means, _, _, beta), group in curves.items():
        # `bounds` and `eps_curves` refuse ε beyond C_LOCAL_EPS_MAX (c(ε) overflows a double),
        # with a ValueError naming the range; the Rust golden test (tests/complexity.rs) checks
        # the library's times at those ε.
        beyond = [c for c in group if c["eps"] > C_LOCAL_EPS_MAX]
        group = [c for c in group if c["eps"] <= C_LOCAL_EPS_MAX]
        for c in beyond:
            with pytest.raises(ValueError, match="must be at most 354.198"):
                dpbai.bounds(list(means), eps=c["eps"], beta=beta, **kwargs(c))
            refused += 1
        eps = sorted({c["eps"] for c in group})
        if not group:
            continue
        cur = dpbai.eps_curves(list(means), eps, beta=beta, **kwargs(group[0]))
        for c in group:
            i = eps.index(c["eps"])
            want = float(c["value"])
            got = cur[UB_COLUMNS.get(c["kind"], c["kind"])][i]
            assert abs(got - want) <= GOLDEN_TOL * want, (c["instance"], c["kind"], c["eps"])
            checked += 1
    assert refused > 0 and checked + refused == len(cases)


def test_bounds_equal_cli_json():
    b = dpbai.bounds(MU1, eps=0.3, delta=0.05, beta=0.4)
    j = cli("bounds", "--means", ",".join(map(str, MU1)), "--eps", "0.3", "--delta", "0.05",
            "--beta", "0.4", "--json")
    for k in ("t_kl", "t_kl_gaussian", "t_kl_beta", "t_tv", "t_tv2", "t_local", "t_global",
              "t_kl_g_eps", "t_kl_beta_g_eps", "t_eps", "t_eps_beta"):
        for f in ("value", "lower", "upper"):
            assert getattr(getattr(b, k), f) == j[k][f], (k, f)
        assert getattr(b, k).allocation.tolist() == j[k]["allocation"]
    for k in ("eps_switch_local", "eps_switch_global", "hardness_h", "log_factor", "c_eps",
              "two_h_g_eps", "h_eps_sec43", "h_eps_app_b", "log_factor_bai25"):
        assert getattr(b, k) == j[k], k
    assert [None if np.isnan(x) else x for x in b.eps_switch_per_arm] == j["eps_switch_per_arm"]
    assert b.sample_lower_bounds.to_dict() == j["sample_lower_bounds"]
    # the whole typed object is the CLI's JSON: no field dropped, renamed or added
    assert as_json(b.to_dict()) == j
    ub = b.upper_bounds
    assert ub.adap_tt_star.thm24_main == j["upper_bounds"]["adap_tt_star"]["thm24_main"]
    assert ub.ctb_tt.value == j["upper_bounds"]["ctb_tt"]["value"]
    assert ub.dpa.value == j["upper_bounds"]["dpa"]["value"]
    assert ub.dp_tt.value == j["upper_bounds"]["dp_tt"]["value"]
    assert b.eps_switch_low_privacy.to_dict() == j["eps_switch_low_privacy"]
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
    # The local time of Gaussian arms is computed (only relaxed_local is undefined)
    cur = dpbai.eps_curves([0.0, -1.0], [0.5, 1.0], family="gaussian", sigma=2.0)
    assert np.isfinite(cur["t_local"]).all() and np.isfinite(cur["t_global"]).all()
    assert (cur["t_local_lower"] <= cur["t_local"]).all()
    assert (cur["t_local"] <= cur["t_local_upper"]).all()
    assert np.isnan(cur["relaxed_local"]).all()


def test_gaussian_bounds_take_sigma_and_name_their_model():
    # `dpbai bounds --family gaussian --means 1,0.5 --sigma 1 --eps 0.5`: closed forms at σ = 1
    b = dpbai.bounds([1.0, 0.5], family="gaussian", sigma=1.0, eps=0.5)
    assert b.t_kl.value == pytest.approx(32.0, rel=1e-9)
    assert b.t_kl_g_eps.value == pytest.approx(64.0, rel=1e-9)  # 2σ²·4/(Δ·ε/2)
    assert b.t_kl_beta_g_eps.value == pytest.approx(64.0, rel=1e-9)
    assert b.two_h_g_eps == pytest.approx(64.0, rel=1e-12)  # 4σ² Σ_a (Δ_a min{Δ_a, ε/2})^-1
    ub = b.upper_bounds
    assert ub.dpa.value == pytest.approx(64.0, rel=1e-9)
    assert ub.adap_tt.value == pytest.approx(128.0 * (1.0 + 1.5 ** 0.5), rel=1e-9)
    assert ub.dpa.model == "non-private" and ub.adap_tt.model == "eps-global DP"
    for k in ("ctb_tt", "ctb_tt_ids"):
        assert getattr(ub, k).value is None and "[0, 1]" in getattr(ub, k).refused
        assert getattr(ub, k).model == "eps-local DP"
    for k in ("dpa", "adap_tt", "adap_tt_star"):
        assert getattr(ub, k).regime == REGIME
        # δ-correct but not ε-DP on Gaussian rewards: the lower bound of L. 5
        assert getattr(ub, k).lower_time == "t_kl" and getattr(ub, k).lower_time_value == b.t_kl.value
    for k in ("thm24_main", "lemma52_app", "proof_max"):
        assert getattr(ub.adap_tt_star, k) >= b.t_kl.value
    assert ub.adap_tt_star.thm24_main_branch == "g2" and ub.adap_tt_star.switch_eps_main == 1.0
    # the same numbers as the CLI
    j = cli("bounds", "--family", "gaussian", "--means", "1,0.5", "--sigma", "1", "--eps",
            "0.5", "--json")
    for k in ("dpa", "adap_tt", "ctb_tt"):
        assert getattr(ub, k).value == j["upper_bounds"][k]["value"], k
        assert getattr(ub, k).refused == j["upper_bounds"][k]["refused"], k
    for k, v in j["upper_bounds"]["adap_tt_star"].items():
        assert getattr(ub.adap_tt_star, k) == v, k
    # σ-scaling: T_KL,β(ν_G,ε) ∝ σ² at fixed ε (Eq. (15) with 2σ²)
    c1 = dpbai.eps_curves([1.0, 0.5, 0.2], [0.1, 1.0], family="gaussian", sigma=1.0)
    c3 = dpbai.eps_curves([1.0, 0.5, 0.2], [0.1, 1.0], family="gaussian", sigma=3.0)
    np.testing.assert_allclose(c3["t_kl_beta_g_eps"], 9.0 * c1["t_kl_beta_g_eps"], rtol=1e-8)
    assert np.isnan(c1["ub_ctb_tt"]).all()
    assert set(c1["ub_adap_tt_star_thm24_main_branch"]) <= {1.0, 2.0}


def test_bernoulli_labels_and_thm24_branches():
    b = dpbai.bounds([0.8, 0.6, 0.55, 0.3], eps=0.05)
    ub = b.upper_bounds
    assert ub.ctb_tt.lower_time == "t_local" and ub.ctb_tt.refused is None
    assert ub.adap_tt.lower_time_value == b.t_global.value
    assert ub.dpa.lower_time_value == b.t_kl.value
    s = ub.adap_tt_star
    assert (s.thm24_main_branch, s.switch_eps_main) == ("g2", 1.0)
    assert s.switch_eps_lemma52 == pytest.approx(0.5 / 3)
    c = dpbai.eps_curves([0.8, 0.6, 0.55, 0.3], [0.5, 0.58, 0.9, 1.1])
    assert list(c["ub_adap_tt_star_thm24_main_branch"]) == [2.0, 2.0, 2.0, 1.0]
    assert list(c["high_privacy_arms"]) == [1.0, 1.0, 1.0, 0.0]
    main = c["ub_adap_tt_star_thm24_main"]
    assert main[0] < main[1] < main[2] and main[2] > 10 * main[3]  # rises, then drops at 2Δ_max
    # each bound at or above the time of its own model
    for k in ("ub_adap_tt", "ub_adap_tt_star_thm24_main", "ub_adap_tt_star_lemma52_app",
              "ub_adap_tt_star_proof_max"):
        assert (c[k] >= c["t_global"]).all(), k
    for k in ("ub_ctb_tt", "ub_ctb_tt_ids"):
        assert (c[k] >= c["t_local"]).all(), k


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


def test_t_eps_goldens_and_labels():
    """[BAI25]'s T*_eps: the mpmath goldens (verify/golden_t_eps.py), the certificate, the
    factor of each lower bound and DP-TT's upper bounds."""
    cases = [c for c in load_golden("t_eps_golden.toml")["case"] if c["kind"] != "c_eps"]
    assert len(cases) >= 20
    for c in cases:
        beta = float(c.get("beta", 0.5))
        b = dpbai.bounds(c["means"], eps=float(c["eps"]), beta=beta)
        t = b.t_eps if c["kind"] == "t_eps" else b.t_eps_beta
        want = float(c["value"])
        assert abs(t.value - want) <= GOLDEN_TOL * want, (c["instance"], c["kind"], c["eps"])
        assert t.lower <= t.value <= t.upper and t.upper - t.lower <= 1e-9 * t.value
    b = dpbai.bounds(MU1, eps=0.1)
    slack = 1 - 3e-9  # two certified values, each within 1e-9 of the truth
    assert b.t_eps.value >= b.t_global.value * slack
    assert b.t_global.value >= max(b.t_kl.value, b.t_tv.value / 0.1) * slack
    f = b.sample_lower_bounds.factors
    assert (f.non_private, f.local, f.global_, f.t_eps) == (
        "log(1/(2.4 delta))", "log(1/(2.4 delta))", "log(1/(2.4 delta))", "log(1/(3 delta))")
    assert b.sample_lower_bounds.t_eps == pytest.approx(b.t_eps.value * np.log(100 / 3), rel=1e-15)
    assert b.log_factor_bai25 == pytest.approx(np.log(100 / 3), rel=1e-15)
    assert b.upper_bounds.dp_tt_8t_eps.value == pytest.approx(8 * b.t_eps.value, rel=1e-15)
    s = b.eps_switch_low_privacy
    assert 0 < s.exact < s.sufficient
    # the exact switch: T*_eps = T_KL from it on
    hi = dpbai.bounds(MU1, eps=1.001 * s.exact)
    assert hi.t_eps.value == pytest.approx(hi.t_kl.value, rel=1e-9)
    # Gaussian arms: no T*_eps, DP-TT refused
    g = dpbai.bounds([1.0, 0.5], family="gaussian", sigma=1.0, eps=0.5)
    assert g.t_eps is None and g.eps_switch_low_privacy is None
    assert g.upper_bounds.dp_tt.value is None and "[0, 1]" in g.upper_bounds.dp_tt.refused
    # a boundary mean: the switch is infinite (None)
    assert dpbai.bounds([1.0, 0.5], eps=1.0).eps_switch_low_privacy.exact is None
