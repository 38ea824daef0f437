"""Divergences between Bernoulli and Gaussian arms, vectorised like ``scipy.special``.

Same conventions as :mod:`dpbai.special`: floats or broadcastable array-likes in, a float or a
float64 ndarray out, ``ValueError`` naming the argument on out-of-domain input.

Example
-------
>>> import dpbai
>>> round(dpbai.divergence.kl_bernoulli(0.9, 0.5), 6)
0.368064
>>> dpbai.divergence.kl_bernoulli([0.9, 0.8], 0.5).round(6).tolist()
[0.368064, 0.192745]
"""

from __future__ import annotations

from .special import _call

__all__ = [
    "kl_bernoulli",
    "kl_gaussian",
    "tv_bernoulli",
    "tv2_bernoulli",
    "tv_gaussian",
    "c_local",
    "rr_mean",
    "kl_delta",
    "d_eps_plus",
    "d_eps_minus",
    "d_eps",
]


def kl_bernoulli(p, q):
    """``KL(Ber(p) || Ber(q))`` in nats, ``p, q ∈ [0, 1]`` (READINGS.md §A.1)."""
    return _call("kl_bernoulli", p, q)


def kl_gaussian(m, m2, sigma):
    """``(m - m2)² / (2σ²)``, the KL divergence of two Gaussians of scale ``σ > 0`` (READINGS.md §A.2)."""
    return _call("kl_gaussian", m, m2, sigma)


def tv_bernoulli(p, q):
    """``TV(Ber(p), Ber(q)) = |p - q|`` (READINGS.md §A.1)."""
    return _call("tv_bernoulli", p, q)


def tv2_bernoulli(p, q):
    """``TV(Ber(p), Ber(q))²`` (READINGS.md §A.1)."""
    return _call("tv2_bernoulli", p, q)


def tv_gaussian(m, m2, sigma):
    """``TV(N(m, σ²), N(m2, σ²)) = erf(|m - m2| / (2√2 σ))`` (READINGS.md §A.2)."""
    return _call("tv_gaussian", m, m2, sigma)


def c_local(eps):
    """LDP contraction ``c(ε) = min{4, e^{2ε}} (e^ε - 1)²``, ``ε > 0`` (READINGS.md §A.4, Thm. 10)."""
    return _call("c_local", eps)


def rr_mean(mu, eps):
    """Mean of a ``Ber(μ)`` arm seen through ε-randomised response (READINGS.md §A.5, Lemma 12)."""
    return _call("rr_mean", mu, eps)


def kl_delta(delta):
    """``kl(1 - δ, δ) = (1 - 2δ) log((1 - δ)/δ)``, the change-of-measure constant of Lemma 5
    (READINGS.md §A.8)."""
    return _call("kl_delta", delta)


def d_eps_plus(mu, x, eps):
    """``d⁺_ε(μ, x)``, the cost of moving a Bernoulli mean up from ``μ`` to ``x`` under ε-global
    DP ([BAI25] poster): ``inf_{z ∈ [μ, x]} ε(z - μ) + kl(z, x)``, 0 for ``x <= μ``;
    ``μ, x ∈ [0, 1]``, ``ε > 0``.

    >>> round(d_eps_plus(0.2, 1.0, 0.5), 12)  # ε(1 - μ): finite, unlike kl(0.2, 1)
    0.4
    """
    return _call("d_eps_plus", mu, x, eps)


def d_eps_minus(mu, x, eps):
    """``d⁻_ε(μ, x) = d⁺_ε(1 - μ, 1 - x)``, the cost of moving a mean down ([BAI25] poster)."""
    return _call("d_eps_minus", mu, x, eps)


def d_eps(mu, x, eps):
    """The two-sided ``d_ε(μ, x) = inf_z ε|z - μ| + kl(z, x)`` ([REG25], [BAI25] poster):
    ``d⁺_ε`` for ``x >= μ``, ``d⁻_ε`` below; ``0 <= d_ε <= min{kl, ε|x - μ|}``."""
    return _call("d_eps", mu, x, eps)
