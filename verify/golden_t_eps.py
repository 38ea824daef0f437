#!/usr/bin/env python3
"""Golden values for the tight global-DP time T*_eps of [BAI25] (dpbai::complexity::t_eps,
t_eps_beta) and its transportation cost C*_eps (transport_cost_eps).

[BAI25] M. Jourdan, A. Azize, "Optimal Best Arm Identification under Differential Privacy",
NeurIPS 2025, arXiv 2510.17348 (poster):

    C*_eps(a*, a, mu, w) = inf_{x in [mu_a, mu_a*]} w_a* d-_eps(mu_a*, x) + w_a d+_eps(mu_a, x)
    T*_eps(mu)^-1        = max_w min_{a != a*} C*_eps(a*, a, mu, w);  T*_eps,beta: w_a* = beta.

Independent of the Rust algorithm (level parametrisation, Newton inversion, stationarity
condition, LP certificate; closed-form piecewise minimiser for the hot-loop cost): this script
reuses the nested optimisation of verify/golden_bounds.py at 40 digits (Brent over the leader
weight beta, a bracketing root over the level t, and the DUAL form of the minimal weight
w_b(beta, t) = sup_z (t - beta X1(z)) / X2(z)), with X1 = d-_eps(mu_a*, .), X2 = d+_eps(mu_a, .)
written here in mpmath from the poster's closed form (the closed form itself is checked
against the definition by verify/golden_d_eps.py). C*_eps is minimised over x by golden
section (derivative-free), 200 iterations at 40 digits.

Usage: python3 verify/golden_t_eps.py > tests/data/t_eps_golden.toml   (minutes on one core)
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_bounds as gb  # noqa: E402  (the shared nested optimisation)

mp = gb.mp
mp.mp.dps = 40
EVAL_DIGITS = 80  # the third branch cancels near the breakpoint at small eps


class DPlus:
    """X(z) = d+_eps(m, z): 0 below m, kl(m, z) up to g-_eps(m), then -log(1 - z(1 - e^-eps)) - eps m."""

    def __init__(self, m, eps):
        self.m, self.eps = mp.mpf(m), mp.mpf(eps)

    def kl_branch(self, z):
        # z <= g-_eps(m)  <=>  z (1 - m) <= m (1 - z) e^eps
        return z * (1 - self.m) <= self.m * (1 - z) * mp.exp(self.eps)

    def f(self, z):
        z = mp.mpf(z)
        if z <= self.m:
            return mp.mpf(0)
        with mp.workdps(EVAL_DIGITS):
            if self.kl_branch(z):
                v = gb.kl(self.m, z)
            else:
                v = -mp.log((1 - z) + z * mp.exp(-self.eps)) - self.eps * self.m
        return +v

    def d(self, z):
        z = mp.mpf(z)
        if z <= self.m:
            return mp.mpf(0)
        if self.kl_branch(z):
            return (z - self.m) / (z * (1 - z))
        a = -mp.expm1(-self.eps)
        return a / (1 - z * a)


class DMinus:
    """X(z) = d-_eps(p, z) = d+_eps(1 - p, 1 - z)."""

    def __init__(self, p, eps):
        self.up = DPlus(1 - mp.mpf(p), eps)

    def f(self, z):
        return self.up.f(1 - mp.mpf(z))

    def d(self, z):
        return -self.up.d(1 - mp.mpf(z))


def ch_eps(means, eps):
    top, rest = gb.split(means)
    return [gb.Challenger(top, m, [(DMinus(top, eps), DPlus(m, eps))], []) for m in rest]


def c_eps(top, low, u, w, eps, iters=200):
    """inf_{x in [low, top]} u d-_eps(top, x) + w d+_eps(low, x) by golden section."""
    X1, X2 = DMinus(top, eps), DPlus(low, eps)
    u, w = mp.mpf(u), mp.mpf(w)

    def obj(x):
        return u * X1.f(x) + w * X2.f(x)

    g = (mp.sqrt(5) - 1) / 2
    a, b = mp.mpf(low), mp.mpf(top)
    best = min(obj(a), obj(b))
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = obj(c), obj(d)
    for _ in range(iters):
        best = min(best, fc, fd)
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = obj(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = obj(d)
    return min(best, fc, fd)


MU1 = [0.95, 0.9, 0.9, 0.9, 0.5]
MU2 = [0.75, 0.7, 0.7, 0.7, 0.7]
GRID = ["0.001", "0.01", "0.1", "0.45", "1", "10"]

TIMES = [  # (instance, means, kind, eps list, beta)
    ("mu1", MU1, "t_eps", GRID, None),
    ("mu2", MU2, "t_eps", GRID, None),
    ("mu1", MU1, "t_eps_beta", ["0.01", "0.45", "10"], "0.5"),
    ("mu2", MU2, "t_eps_beta", ["0.01", "0.45", "10"], "0.5"),
    ("k2_mid", [0.5, 0.4], "t_eps", ["0.05", "1"], None),
    ("k3_tied", [0.8, 0.5, 0.5], "t_eps", ["0.2"], None),
    ("mu3", [0.0, 0.25, 0.5, 0.75, 1.0], "t_eps", ["0.1", "3"], None),
    ("k4_low", [0.05, 0.02, 0.01, 0.0], "t_eps", ["0.02", "1"], None),
    ("k2_top1", [1.0, 0.7], "t_eps_beta", ["0.5"], "0.3"),
]

COSTS = [  # (top, low, u, w, eps): every piece of the minimiser, the boundary means
    (0.9, 0.5, 1.0, 1.0, 0.01),
    (0.9, 0.5, 1.0, 1.0, 0.5),
    (0.9, 0.5, 1.0, 1.0, 5.0),
    (0.9, 0.5, 10.0, 1.0, 0.3),
    (0.9, 0.5, 1.0, 10.0, 0.3),
    (0.75, 0.7, 0.3376, 0.1656, 0.1),
    (0.95, 0.9, 0.39, 0.2, 1.0),
    (1.0, 0.0, 2.0, 3.0, 0.7),
    (1.0, 0.3, 1.0, 1e-3, 2.0),
    (0.02, 0.0, 1.0, 1.0, 0.05),
    (0.6, 0.5999, 100.0, 120.0, 1e-4),
    (0.999, 0.99, 5.0, 1.0, 20.0),
]


def main():
    t0 = time.time()
    out = sys.stdout.write
    out("# Golden values for T*_eps, T*_eps,beta and C*_eps ([BAI25] poster), dpbai::complexity.\n")
    out("# GENERATED by verify/golden_t_eps.py; do not edit. Nested optimisation of\n")
    out("# verify/golden_bounds.py (Brent over beta, root over the level, dual form of the minimal\n")
    out("# weight) on the signed divergences d-_eps, d+_eps; C*_eps by golden section over x.\n")
    out("# Means and eps are the exact doubles the Rust side parses.\n")
    out('generator = "verify/golden_t_eps.py"\n')
    out('mpmath_version = "%s"\n' % mp.__version__)
    out("digits = %d\n\n" % mp.mp.dps)
    for name, means, kind, eps_list, beta in TIMES:
        means_s = [repr(float(m)) for m in means]
        mm = [mp.mpf(float(s)) for s in means_s]
        for e in eps_list:
            t1 = time.time()
            E = mp.mpf(float(e))
            v = gb.char_time(ch_eps(mm, E), None if beta is None else mp.mpf(float(beta)))
            out("[[case]]\n")
            out('instance = "%s"\n' % name)
            out("means = [%s]\n" % ", ".join(means_s))
            out('kind = "%s"\n' % kind)
            out("eps = %s\n" % e)
            if beta is not None:
                out("beta = %s\n" % beta)
            out('value = "%s"\n\n' % mp.nstr(v, 25))
            sys.stdout.flush()
            sys.stderr.write("%s %s eps=%s: %s (%.1fs)\n" % (name, kind, e, mp.nstr(v, 12), time.time() - t1))
    for top, low, u, w, eps in COSTS:
        v = c_eps(float(top), float(low), float(u), float(w), float(eps))
        out("[[case]]\n")
        out('kind = "c_eps"\n')
        out("args = [%s]\n" % ", ".join(repr(float(x)) for x in (top, low, u, w, eps)))
        out('value = "%s"\n\n' % mp.nstr(v, 25))
    out("# total time %.0f s\n" % (time.time() - t0))


if __name__ == "__main__":
    main()
