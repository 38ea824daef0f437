"""Bound versus empirical: the global-DP lower bound of an instance against the mean stopping
time of AdaP-TT, from the typed results (run: ``python python/examples/bounds_vs_runs.py``)."""

from __future__ import annotations

import math
from typing import Optional

import numpy as np

import dpbai

MU = [0.9, 0.6, 0.5]
DELTA = 0.05


def main() -> None:
    for eps in (0.5, 2.0):
        b: dpbai.Bounds = dpbai.bounds(MU, eps=eps, delta=DELTA)
        t_global: Optional[dpbai.Certified] = b.t_global
        assert t_global is not None  # given eps, the global time is defined
        lower = b.sample_lower_bounds.global_
        ub: Optional[dpbai.UpperBound] = b.upper_bounds.adap_tt
        upper = "none" if ub is None or ub.value is None else f"{ub.value * math.log(1 / DELTA):.4g}"
        r: dpbai.RunResult = dpbai.run("adap-tt", MU, delta=DELTA, eps=eps, runs=40, seed=1)
        s: dpbai.RunSummary = r.summary
        capped = int(np.count_nonzero(~r.stopped))
        print(
            f"eps = {eps}: T*_global = {t_global.value:.4g} (certified in "
            f"[{t_global.lower:.6g}, {t_global.upper:.6g}]), lower bound {lower:.4g}, "
            f"asymptotic upper bound {upper}, mean tau {s.mean_tau:.4g} over {s.runs} runs "
            f"(seed {s.seed}, {capped} capped, KM median {s.censored.km_median})"
        )


if __name__ == "__main__":
    main()
