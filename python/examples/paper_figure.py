"""Figure 2 of "Differentially Private Best-Arm Identification" from Python: the mean stopping
time of the global-DP algorithms (AdaP-TT, AdaP-TT*, DP-SE) and of TTUCB (non-private) against
ε on μ1 and μ2 at δ = 0.01, with the global-DP lower bound T*_g(ε)·log(1/(2.4δ)).

Run it as a script or cell by cell (``# %%`` cells: VS Code, Jupyter, Spyder):

    python python/examples/paper_figure.py                 # small: 10 runs, cap 10^6 (a minute)
    python python/examples/paper_figure.py --runs 100 --full   # the quick profile's cells

``--full`` is the grid of ``dpbai verify``'s Figure 2 (ε from 0.05, cap 3·10^7 samples per run,
same cells, so a ``--out-dir`` shared with ``dpbai experiment verify/quick.toml`` reuses them).
Capped runs are censored: a cell with capped runs has only a lower bound on its mean (open
marker, no bar). The figure is written to ``--out-dir`` (default: a temporary folder)."""

# %% Settings
from __future__ import annotations

import argparse
import math
import os
import tempfile
from typing import Any, Dict, List

import dpbai

INSTANCES: Dict[str, List[float]] = {
    "mu1": [0.95, 0.9, 0.9, 0.9, 0.5],
    "mu2": [0.75, 0.7, 0.7, 0.7, 0.7],
}
ALGOS = ["ttucb", "adap-tt", "adap-tt-star", "dp-se"]
DELTA = 0.01


def parse() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=10, help="runs per cell (default 10)")
    p.add_argument("--full", action="store_true", help="the quick profile's ε grid and cap")
    p.add_argument("--out-dir", default=None, help="figure, results.csv and cell cache")
    return p.parse_args()


# %% Run the grid: one tidy DataFrame, one row per (instance, algorithm, ε) cell
def run(args: argparse.Namespace, out_dir: str) -> Any:
    if args.full:
        eps, cap = [0.05, 0.1, 0.2, 0.4, 1.0, 10.0, 1000.0], 30_000_000
    else:
        eps, cap = [0.4, 1.0, 10.0, 1000.0], 1_000_000
    return dpbai.run_grid(ALGOS, INSTANCES, eps=eps, delta=DELTA, runs=args.runs,
                          max_steps=cap, out_dir=os.path.join(out_dir, "cells")), eps


# %% Draw: τ against ε per instance, markers at the measured ε, the lower bound dashed
def draw(df: Any, eps: List[float], out_dir: str) -> str:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed (pip install matplotlib): no figure drawn"
    fig, axes = plt.subplots(1, len(INSTANCES), figsize=(6 * len(INSTANCES), 4.5))
    for ax, (name, means) in zip(axes, INSTANCES.items()):
        top = min(eps[-1], 300.0)  # c(ε) = 4(e^ε − 1)² overflows a double above ε ≈ 354
        grid = [10 ** (math.log10(eps[0]) + i * math.log10(top / eps[0]) / 60) for i in range(61)]
        lb = dpbai.eps_curves(means, grid, delta=DELTA)["lb_global"]
        ax.plot(grid, lb, "k--", label="lower bound, global (T*_g log(1/(2.4δ)))")
        for algo in ALGOS:
            cells = df[(df["instance"] == name) & (df["algo"] == algo)].sort_values("eps")
            if algo == "ttucb":  # non-private: one cell, a horizontal line
                ax.axhline(float(cells["mean_tau"].iloc[0]), color="C0", label="ttucb")
                continue
            x = cells["eps"].to_numpy(dtype=float)
            y = cells["mean_tau"].to_numpy(dtype=float)
            capped = cells["capped"].to_numpy() > 0
            lo = [c[0] if c is not None else math.nan for c in cells["ci95"]]
            hi = [c[1] if c is not None else math.nan for c in cells["ci95"]]
            err = [[max(v - a, 0.0) for v, a in zip(y, lo)], [max(b - v, 0.0) for v, b in zip(y, hi)]]
            line = ax.plot(x, y, "-", alpha=0.45, linewidth=1)[0]
            ax.errorbar(x[~capped], y[~capped], yerr=[[e for e, c in zip(err[0], capped) if not c],
                                                      [e for e, c in zip(err[1], capped) if not c]],
                        fmt="o", color=line.get_color(), label=algo, capsize=3)
            if capped.any():
                ax.plot(x[capped], y[capped], "o", mfc="none", color=line.get_color(),
                        label=f"{algo} (capped: ≥)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("privacy budget ε")
        ax.set_ylabel("stopping time τ (samples)")
        ax.set_title(f"{name} {means}, δ = {DELTA}")
    axes[0].legend(fontsize=7)
    fig.suptitle("Figure 2: global DP")
    fig.text(0.01, 0.01, "Markers: measured ε; faint lines only guide the eye. Bars: 95% CI "
             "of the mean.", fontsize=7)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    path = os.path.join(out_dir, "fig2_global_mu1_mu2.png")
    fig.savefig(path, dpi=150)
    return f"wrote {path}"


# %% Main
def main() -> None:
    args = parse()
    out_dir = args.out_dir or tempfile.mkdtemp(prefix="dpbai-figure2-")
    os.makedirs(out_dir, exist_ok=True)
    df, eps = run(args, out_dir)
    df.to_csv(os.path.join(out_dir, "results.csv"), index=False)
    cols = ["instance", "algo", "eps", "runs", "capped", "mean_tau", "seed"]
    print(df[cols].to_string(index=False))
    print(draw(df, eps, out_dir))


if __name__ == "__main__":
    main()
