"""Special functions of the paper, vectorised like ``scipy.special``.

Every function takes floats or array-likes, broadcasts them with numpy's rules and returns a
``float`` for scalar input, else a float64 ``numpy.ndarray`` of the broadcast shape. The values
are computed by the Rust library (the same code as ``dpbai fn``), with the GIL released.
Out-of-domain input (NaN and infinities included) raises ``ValueError`` naming the argument
and its allowed range, e.g. ``invalid x = -1: must be a finite number > 0``.

Example
-------
>>> import numpy as np, dpbai
>>> round(dpbai.special.c_g(2.995732), 6)
4.643836
>>> dpbai.special.c_g(np.array([1.0, 10.0])).round(4).tolist()
[2.5071, 11.9546]
"""

from __future__ import annotations

import numpy as np

from . import _dpbai

__all__ = [
    "lambert_w0",
    "lambert_wm1",
    "wbar_m1",
    "zeta",
    "c_g",
    "k",
    "h",
    "c_l36",
    "g1",
    "g2",
    "h1",
    "erf",
    "erfc",
]


def _call(name, *args):
    """Broadcasts ``args`` to one C-contiguous float64 shape and evaluates ``name`` in Rust."""
    arrs = [np.asarray(a, dtype=np.float64) for a in args]
    scalar = all(a.ndim == 0 for a in arrs)
    if len(arrs) > 1:
        try:
            arrs = np.broadcast_arrays(*arrs)
        except ValueError as e:
            raise ValueError(f"{name}: arguments do not broadcast: {e}") from None
    arrs = [a if a.flags.c_contiguous else a.copy(order="C") for a in arrs]
    out = _dpbai.elementwise(name, arrs)
    return float(out) if scalar else out


def lambert_w0(x):
    """Principal branch ``W_0(x)`` of Lambert W, ``x >= -1/e`` (READINGS.md §C.3).

    >>> lambert_w0(1.0)
    0.5671432904097838
    """
    return _call("lambert_w0", x)


def lambert_wm1(x):
    """Lower branch ``W_{-1}(x)`` of Lambert W, ``-1/e <= x < 0`` (READINGS.md §C.3).

    >>> round(lambert_wm1(-0.2), 12)
    -2.542641357774
    """
    return _call("lambert_wm1", x)


def wbar_m1(x):
    """``W̄_{-1}(x) = -W_{-1}(-e^{-x})``, ``x >= 1`` (READINGS.md §C.3, Lemma 40).

    >>> wbar_m1(1.0)
    1.0
    """
    return _call("wbar_m1", x)


def zeta(s):
    """Riemann zeta ``ζ(s)``, ``s > 1`` (READINGS.md §C.1).

    >>> round(zeta(2.0), 12)
    1.644934066848
    """
    return _call("zeta", s)


def c_g(x):
    """Kaufmann–Koolen ``C_G(x) = min_λ (g_G(λ) + x)/λ``, ``x > 0`` (READINGS.md §C.2, Eq. (20)).

    >>> round(c_g(1.0), 4)
    2.5071
    """
    return _call("c_g", x)


def k(x):
    """``k(x) = log2(x) + 2``, ``x >= 1`` (READINGS.md §C.5, Eq. (11)).

    >>> k(4.0)
    4.0
    """
    return _call("k", x)


def h(x, delta, K):
    """``h(x, δ)`` of Lemma 23 with ``K`` arms: ``x >= 1``, ``δ ∈ (0, 1)``, integer ``K >= 2``
    (READINGS.md §C.6)."""
    return _call("h", x, delta, K)


def c_l36(x, delta, K):
    """``c_{L36}(x, δ) = ½ W̄_{-1}(2 log(K/δ) + 4 log(4 + log x) + ½)`` (Lemma 36, READINGS.md §C.6);
    same domain as :func:`h`."""
    return _call("c_l36", x, delta, K)


def g1(y):
    """``g1(y) = sup{x : x² < x + y√(2x) + y²/4}``, ``y >= 0`` (READINGS.md §C.7, Thm. 24)."""
    return _call("g1", y)


def g2(y):
    """``g2(y) = y (1 + √(1 + 1/y))²``, ``y > 0`` (READINGS.md §C.7, Thm. 24).

    >>> g2(1.0) == 1.0 * (1 + 2 ** 0.5) ** 2
    True
    """
    return _call("g2", y)


def h1(z, y):
    """The largest root ``x`` of ``x = z log x + y`` (READINGS.md §C.7): ``z > 0``, ``y/z + log z >= 1``.

    >>> x = h1(2.0, 3.0)
    >>> abs(x - (2.0 * __import__("math").log(x) + 3.0)) < 1e-12
    True
    """
    return _call("h1", z, y)


def erf(x):
    """The error function (accurate to about 1 ulp; defined on the whole real line).

    >>> erf(0.0)
    0.0
    """
    return _call("erf", x)


def erfc(x):
    """The complementary error function ``1 - erf(x)``, without cancellation for large ``x``."""
    return _call("erfc", x)
