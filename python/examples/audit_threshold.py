"""Audits a threshold a user types in, then a deliberately unsafe Python one, and prints each
verdict with its exact interval (run: ``python python/examples/audit_threshold.py``)."""

from __future__ import annotations

import math

import dpbai


def unsafe(t: float, na: float, nb: float, gap: float, k: float, delta: float, eps: float,
           sigma: float) -> float:
    """A twentieth of log(1/δ): stops far too early."""
    return math.log(1 / delta) / 20


def main() -> None:
    for name, threshold in (("log((1+log(t))/delta)", "log((1+log(t))/delta)"),
                            ("unsafe (Python)", unsafe)):
        a: dpbai.DeltaAudit = dpbai.audit_delta(
            "ttucb", [0.6, 0.5], delta=0.1, threshold=threshold, runs=300, seed=2
        )
        lo, hi = a.ci
        worst: dpbai.DeltaInstance = a.instances[0]
        print(f"{name}: {a.verdict}, {a.errors}/{a.runs} errors, P(error) in [{lo:.4f}, "
              f"{hi:.4f}] at confidence {a.confidence}, mean tau {worst.mean_tau:.1f}")


if __name__ == "__main__":
    main()
