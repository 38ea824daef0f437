#!/usr/bin/env python3
"""Golden values for the characteristic times of `dpbai::complexity` (MATH.md section B).

Independent reference, mpmath at 40 digits. The algorithm is deliberately DIFFERENT from the
Rust solver (which works on the level y of psi_b(1, x), inverts it by Newton and solves the
stationarity condition sum_b D(mu*, z_b)/D(mu_b, z_b) = 1):

  * outer: Brent's minimiser (parabolic + golden section) over the leader weight beta
    (t*(beta) is concave, MATH.md B.2), to 1e-19 in beta;
  * middle: root of  sum_b w_b(beta, t) = 1 - beta  in the level t (bracketing solver);
  * inner: the minimal weight is computed through the DUAL form of the inner infimum,
        w_b(beta, t) = sup_z (t - beta X1(z)) / X2(z)   over every branch pair (X1, X2),
    i.e. a quasi-concave 1-D maximisation in the common mean z, solved by a bracketed root of
    its derivative (closed forms only for the TV pairs, where the sup is at z = mu*).

psi_b(u, w) >= t  <=>  u X1(z) + w X2(z) >= t for all z and every branch pair, hence the formula.
Branch pairs: KL: (d(mu*, z), d(mu_b, z)); local DP (Thm. 10): the four pairs of
min{kl, c(eps) TV^2} x min{kl, c(eps) TV^2}; global DP (Thm. 17): the KL pair and the TV pair.

The privacy-aware times T_KL(nu_G,eps), T_KL,beta(nu_G,eps) (Eq. (10), (15)) use the instance's
sigma (1/2 for Bernoulli arms): squared gaps Delta min{Delta, eps/2} with the cost coefficient
1/(2 sigma^2) of Eq. (15) and App. G, Eq. (23).

Upper bounds (kinds ub_*, per unit of log(1/delta), beta = 1/2; instances with K <= 10): the
formulas of Sec. 3.2 (CTB-TT, Bernoulli only), Thm. 22 / L. 52 (AdaP-TT), Thm. 24 main text,
L. 52 and the proof's last display (AdaP-TT*), App. H (DPA), transcribed here from the paper with
sigma symbolic (App. G keeps it so for sigma-sub-Gaussian arms), on the times above; g1 by
bisection on its defining inequality x^2 < x + y sqrt(2x) + y^2/4, the proof's D^(2) from its
defining inequality 2 x sigma < eps sqrt(x) sqrt(2 T max{beta, 1-beta}) + 1/sigma (a quadratic in
sqrt(x)), not through g2.

Usage: python3 verify/golden_bounds.py > tests/data/bounds_golden.toml   (about an hour on 2 busy
cores; "--part i/n", "--from NAME", "--only a,b" split the work, "--kinds p1,p2" keeps the rows
whose kind starts with one of the prefixes, and "--merge OUT f1 f2 ..." concatenates part files,
keeping the first value of each case, in the order of a single full run).
"""

import sys
import time

import mpmath as mp

mp.mp.dps = 40

# --------------------------------------------------------------------------------------------
# divergences and their derivatives in the second argument


def kl(p, q):
    p, q = mp.mpf(p), mp.mpf(q)
    if p == q:
        return mp.mpf(0)
    if q <= 0 or q >= 1:
        return mp.inf
    r = mp.mpf(0)
    if p > 0:
        r += p * mp.log(p / q)
    if p < 1:
        # log1p: q can be as small as 1e-600 at large levels (kl(0, q) = -log(1 - q))
        r += (1 - p) * (mp.log1p(-p) - mp.log1p(-q))
    return r


def dkl(p, q):
    return (q - p) / (q * (1 - q))


class Quad:
    """X(z) = k (z - m)^2 (Gaussian KL with k = 1/(2 sigma^2), or c(eps) TV^2 Bernoulli)."""

    def __init__(self, m, k):
        self.m, self.k = mp.mpf(m), mp.mpf(k)

    def f(self, z):
        return self.k * (z - self.m) ** 2

    def d(self, z):
        return 2 * self.k * (z - self.m)


class Kl:
    def __init__(self, m):
        self.m = mp.mpf(m)

    def f(self, z):
        return kl(self.m, z)

    def d(self, z):
        if self.m >= 1:
            return -1 / z
        if self.m <= 0:
            return 1 / (1 - z)
        return dkl(self.m, z)


# --------------------------------------------------------------------------------------------
# minimal weight through the dual form


def bracket_root(f, a, b, fa=None, fb=None, rel=mp.mpf(10) ** -28):
    """Illinois (regula falsi with halving) on a sign change f(a) < 0 < f(b) or f(a) > 0 > f(b)."""
    fa = f(a) if fa is None else fa
    fb = f(b) if fb is None else fb
    if fa == 0:
        return a
    if fb == 0:
        return b
    assert (fa < 0) != (fb < 0), "no sign change"
    side = 0
    for _ in range(400):
        c = (a * fb - b * fa) / (fb - fa)
        if not (min(a, b) < c < max(a, b)):
            c = (a + b) / 2
        fc = f(c)
        if fc == 0:
            return c
        if (fc < 0) == (fb < 0):
            b, fb = c, fc
            if side == -1:
                fa /= 2
            side = -1
        else:
            a, fa = c, fc
            if side == 1:
                fb /= 2
            side = 1
        if abs(b - a) <= rel * max(abs(a), abs(b)):
            break
    return (a + b) / 2


def w_pair(beta, t, X1, X2, top, low):
    """sup_{z in (low, top]} (t - beta X1(z)) / X2(z) for convex X1 (zero at top) and X2 (zero
    at low). Returns +inf if t is not reachable (t >= beta X1(low))."""
    if t >= beta * X1.f(low):
        return mp.inf

    def num(z):
        return t - beta * X1.f(z)

    def deriv(z):  # the sign of d/dz of the ratio
        return -beta * X1.d(z) * X2.f(z) - num(z) * X2.d(z)

    gap = top - low
    hi = top
    if X2.f(top) == mp.inf:
        hi = top - gap * mp.mpf(10) ** -30
    dh = deriv(hi)
    if dh >= 0:
        return num(hi) / X2.f(hi)
    lo = low + gap * mp.mpf(10) ** -30
    for _ in range(400):
        # the maximiser can sit extremely close to low (e.g. kl(1, z) at large levels t)
        if deriv(lo) > 0:
            break
        lo = low + (lo - low) * mp.mpf(10) ** -30
    z = bracket_root(deriv, lo, hi, fb=dh)
    return num(z) / X2.f(z)


def tv_pair_w(beta, t, level):
    """psi = min(u, w) * level: minimal w is t / level when t <= beta * level."""
    if t > beta * level:
        return mp.inf
    return t / level


class Challenger:
    """One sub-optimal arm b: smooth pairs [(X1, X2)] and TV levels [level]."""

    def __init__(self, top, low, pairs, tv_levels):
        self.top, self.low = mp.mpf(top), mp.mpf(low)
        self.pairs, self.tv = pairs, tv_levels

    def w(self, beta, t):
        best = mp.mpf(0)
        for X1, X2 in self.pairs:
            best = max(best, w_pair(beta, t, X1, X2, self.top, self.low))
            if best == mp.inf:
                return best
        for lev in self.tv:
            best = max(best, tv_pair_w(beta, t, lev))
        return best

    def tmax(self, beta):
        """Largest level reachable at leader weight beta (sup over w of psi(beta, w))."""
        vals = [beta * X1.f(self.low) for X1, _ in self.pairs] + [beta * l for l in self.tv]
        return min(vals)


def t_star(chs, beta):
    beta = mp.mpf(beta)
    target = 1 - beta
    tmax = min(c.tmax(beta) for c in chs)

    def excess(t):
        return mp.fsum(c.w(beta, t) for c in chs) - target

    has_tv = any(c.tv for c in chs)
    if has_tv and tmax != mp.inf and excess(tmax) <= 0:
        return tmax  # boundary optimum (TV saturation): the level tmax is reachable
    # bracket the root geometrically from a moderate level (tmax can be astronomically large
    # for the local time at large eps, where min{kl, c TV^2} has c ~ 1e8686)
    t = min(tmax / 2, mp.mpf(1))
    if excess(t) < 0:
        lo = t
        while True:
            t = min(2 * t, (t + tmax) / 2)
            if excess(t) > 0:
                hi = t
                break
            lo = t
    else:
        hi = t
        while True:
            t = t / 2
            if excess(t) < 0:
                lo = t
                break
            hi = t
    while excess(hi) == mp.inf:
        mid = (lo + hi) / 2
        if excess(mid) > 0:
            hi = mid
        else:
            lo = mid
    return bracket_root(excess, lo, hi)


def golden_max(fun, a, b, iters=90):
    g = (mp.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = fun(c), fun(d)
    for _ in range(iters):
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = fun(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = fun(d)
    return max(fc, fd), (c if fc >= fd else d)


def brent_max(fun, a, b, tol=mp.mpf(10) ** -19, maxiter=400):
    """Brent's method (parabolic interpolation + golden section) maximising a unimodal fun on
    [a, b]; returns (max value, argmax). Works for kinked concave functions (golden fallback)."""
    cg = (3 - mp.sqrt(5)) / 2
    x = w = v = a + cg * (b - a)
    fx = fw = fv = -fun(x)
    d = e = mp.mpf(0)
    for _ in range(maxiter):
        m = (a + b) / 2
        tol1 = tol * abs(x) + mp.mpf(10) ** -30
        tol2 = 2 * tol1
        if abs(x - m) <= tol2 - (b - a) / 2:
            break
        para = False
        if abs(e) > tol1:
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = 2 * (q - r)
            if q > 0:
                p = -p
            q = abs(q)
            if abs(p) < abs(q * e / 2) and q * (a - x) < p < q * (b - x):
                e, d = d, p / q
                u = x + d
                if u - a < tol2 or b - u < tol2:
                    d = tol1 if x < m else -tol1
                para = True
        if not para:
            e = (b - x) if x < m else (a - x)
            d = cg * e
        u = x + (d if abs(d) >= tol1 else (tol1 if d > 0 else -tol1))
        fu = -fun(u)
        if fu <= fx:
            if u < x:
                b = x
            else:
                a = x
            v, fv, w, fw, x, fx = w, fw, x, fx, u, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fw or w == x:
                v, fv, w, fw = w, fw, u, fu
            elif fu <= fv or v == x or v == w:
                v, fv = u, fu
    return -fx, x


def char_time(chs, beta=None):
    if beta is not None:
        return 1 / t_star(chs, beta)
    best, _ = brent_max(lambda bb: t_star(chs, bb), mp.mpf("1e-6"), 1 - mp.mpf("1e-6"))
    return 1 / best


# --------------------------------------------------------------------------------------------
# challengers of every time


def c_local(eps):
    eps = mp.mpf(eps)
    return min(4, mp.exp(2 * eps)) * mp.expm1(eps) ** 2


def split(means):
    means = [mp.mpf(m) for m in means]
    top = max(means)
    return top, [m for m in means if m != top]


def ch_kl_bern(means):
    top, rest = split(means)
    return [Challenger(top, m, [(Kl(top), Kl(m))], []) for m in rest]


def ch_quad(means, k, sq=None):
    """Gaussian KL cost with coefficient k = 1/(2 sigma^2); `sq` replaces the squared gaps."""
    top, rest = split(means)
    out = []
    for m in rest:
        if sq is not None:
            # squared gap replaced: rescale the coefficient so that k' (top - m)^2 = k * sq(gap)
            kk = k * sq(top - m) / (top - m) ** 2
        else:
            kk = k
        out.append(Challenger(top, m, [(Quad(top, kk), Quad(m, kk))], []))
    return out


def tv_level(gap, family, sigma):
    if family == "bernoulli":
        return gap
    return mp.erf(gap / (2 * mp.sqrt(2) * sigma))


def ch_tv(means, family, sigma):
    top, rest = split(means)
    return [Challenger(top, m, [], [tv_level(top - m, family, sigma)]) for m in rest]


def ch_local(means, eps):
    c = c_local(eps)
    top, rest = split(means)
    out = []
    for m in rest:
        a = [Kl(top), Quad(top, c)]
        b = [Kl(m), Quad(m, c)]
        out.append(Challenger(top, m, [(x, y) for x in a for y in b], []))
    return out


def ch_global(means, eps, family, sigma):
    eps = mp.mpf(eps)
    top, rest = split(means)
    out = []
    for m in rest:
        if family == "bernoulli":
            pair = (Kl(top), Kl(m))
        else:
            k = 1 / (2 * mp.mpf(sigma) ** 2)
            pair = (Quad(top, k), Quad(m, k))
        out.append(Challenger(top, m, [pair], [eps * tv_level(top - m, family, sigma)]))
    return out


def sq_g_eps(eps):
    eps = mp.mpf(eps)
    return lambda d: d * min(d, eps / 2)


# --------------------------------------------------------------------------------------------
# upper-bound formulas (asymptotic, delta -> 0), sigma symbolic


def g1(y):
    """sup{x : x^2 < x + y sqrt(2x) + y^2/4} (Thm. 24): the root of the increasing-beyond-1 gap
    x^2 - x - y sqrt(2x) - y^2/4, by bisection on its sign (negative at x = 1 for y > 0)."""
    y = mp.mpf(y)
    if y == 0:
        return mp.mpf(1)
    q = lambda x: x * x - x - y * mp.sqrt(2 * x) - y * y / 4
    lo, hi = mp.mpf(1), mp.mpf(2)
    while q(hi) < 0:
        lo, hi = hi, 2 * hi
    for _ in range(300):
        mid = (lo + hi) / 2
        if q(mid) < 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def g2(y):
    """1 + 2 (sqrt(1 + 1/y) - 1)^(-1) (Thm. 24, as printed)."""
    y = mp.mpf(y)
    return 1 + 2 / (mp.sqrt(1 + 1 / y) - 1)


def d2_proof(eps, t, mb, sigma):
    """D^(2)_{0,0,0} = sup{x : 2 x sigma < eps sqrt(x) sqrt(2 T mb) + 1/sigma} (App. G.5): the
    positive root s of 2 sigma s^2 - eps sqrt(2 T mb) s - 1/sigma, squared."""
    b = eps * mp.sqrt(2 * t * mb)
    s = (b + mp.sqrt(b * b + 8)) / (4 * sigma)
    return s * s


def upper_rows(means, fam, sigma, eps_list):
    """Rows (kind, eps, beta, thunk) of the upper bounds at beta = 1/2."""
    beta = mp.mpf("0.5")
    mb = max(beta, 1 - beta)
    sig = mp.mpf(sigma)
    s2 = sig ** 2
    k = 1 / (2 * s2)
    top = max(means)
    gaps = [top - m for m in means if m != top]
    dmax = max(gaps)
    cache = {}

    def tg_beta():
        if "tgb" not in cache:
            cache["tgb"] = char_time(ch_quad(means, k), beta)
        return cache["tgb"]

    def tg_half(b=None):  # T^G(mu; 1/2), for CTB-TT (Bernoulli arms)
        key = ("th", b)
        if key not in cache:
            cache[key] = char_time(ch_quad(means, mp.mpf(2)), b)
        return cache[key]

    rows = [("ub_dpa", None, "0.5", lambda: 2 * tg_beta())]
    for e in eps_list:
        E = mp.mpf(float(e))

        def tge(E=E):
            key = ("tge", E)
            if key not in cache:
                cache[key] = char_time(ch_quad(means, k, sq_g_eps(E)), beta)
            return cache[key]

        if fam == "bernoulli":
            coth2 = (1 / mp.tanh(E / 2)) ** 2
            rows.append(("ub_ctb_tt", e, "0.5", (lambda c=coth2: c * tg_half(beta))))
            rows.append(("ub_ctb_tt_ids", e, "0.5", (lambda c=coth2: c * tg_half())))
        rows.append(
            ("ub_adap_tt", e, "0.5",
             (lambda E=E: 4 * tg_beta() * (1 + mp.sqrt(1 + dmax ** 2 / (2 * s2 ** 2 * E ** 2)))))
        )

        def main(E=E, tge=tge):
            if dmax < E / 2:
                return 4 * tg_beta() * g1(dmax / (s2 * E))
            t = tge()
            return 2 * t * g2(E ** 2 * t * mb / 4) / s2

        def lemma(E=E, tge=tge):
            if dmax < 3 * E:
                return 4 * tg_beta() * g1(dmax / (s2 * E))
            t = tge()
            return 12 * t * g2(3 * E ** 2 * t * mb / 2) / s2

        def proof(E=E, tge=tge):
            t = tge()
            small = max([d for d in gaps if d <= E / 2], default=mp.mpf(0))
            d1 = g1(small / (s2 * E))
            d2 = d2_proof(E, t, mb, sig) if dmax >= E / 2 else mp.mpf(0)
            return 4 * t * max(d1, d2)

        rows.append(("ub_thm24_main", e, "0.5", main))
        rows.append(("ub_lemma52_app", e, "0.5", lemma))
        rows.append(("ub_proof_max", e, "0.5", proof))
    return rows


# --------------------------------------------------------------------------------------------
# cases


def instances():
    out = []
    B, G = "bernoulli", "gaussian"
    paper = [
        ("mu1", [0.95, 0.9, 0.9, 0.9, 0.5]),
        ("mu2", [0.75, 0.7, 0.7, 0.7, 0.7]),
        ("mu3", [0, 0.25, 0.5, 0.75, 1]),
        ("mu4", [0.75, 0.625, 0.5, 0.375, 0.25]),
        ("mu5", [0.75, 0.53125, 0.375, 0.28125, 0.25]),
        ("mu6", [0.75, 0.71875, 0.625, 0.46875, 0.25]),
    ]
    for n, m in paper:
        out.append((n, B, 0.5, m))
    out += [
        ("k2_mid", B, 0.5, [0.5, 0.4]),
        ("k2_far", B, 0.5, [0.9, 0.1]),
        ("k2_near0", B, 0.5, [0.01, 0.001]),
        ("k2_near1", B, 0.5, [0.999, 0.99]),
        ("k2_tie", B, 0.5, [0.6, 0.5999]),
        ("k2_boundary", B, 0.5, [1.0, 0.0]),
        ("k2_top1", B, 0.5, [1.0, 0.7]),
        ("k3_tied", B, 0.5, [0.8, 0.5, 0.5]),
        ("k3_neartie", B, 0.5, [0.7, 0.6999, 0.2]),
        ("k4_low", B, 0.5, [0.05, 0.02, 0.01, 0.0]),
        ("k4_high", B, 0.5, [1.0, 0.98, 0.95, 0.9]),
        ("k6_spread", B, 0.5, [0.3, 0.1, 0.25, 0.05, 0.2, 0.29]),
        ("k10_lin", B, 0.5, [0.1 * i + 0.05 for i in range(10)]),
        ("k10_tied", B, 0.5, [0.6] + [0.55] * 5 + [0.3] * 4),
        ("k20_geo", B, 0.5, [0.9 - 0.8 * (0.8 ** i) for i in range(20)][::-1]),
        ("k50_lin", B, 0.5, [0.98 - 0.019 * i for i in range(50)]),
        ("k50_cluster", B, 0.5, [0.81] + [0.8 - 0.001 * i for i in range(49)]),
        ("g_k2", G, 1.0, [1.0, 0.0]),
        ("g_k3", G, 2.0, [0.0, -1.0, -3.0]),
        ("g_k5_mu1", G, 0.5, [0.95, 0.9, 0.9, 0.9, 0.5]),
        ("g_k5_s03", G, 0.3, [2.0, 1.5, 1.4, 0.0, -5.0]),
        ("g_k8", G, 1.0, [0.1 * i * i for i in range(8)]),
        ("g_tie", G, 1.0, [0.0, -0.001, -0.5]),
        ("g_k30", G, 1.5, [3.0 - 0.1 * i for i in range(30)]),
        ("g_k50", G, 1.0, [0.2 * ((7 * i) % 50) for i in range(50)]),
        ("g_wide", G, 0.1, [10.0, 9.0, 0.0]),
        # `dpbai bounds --family gaussian --means 1,0.5 --sigma 1 --eps 0.5`
        ("g_k2_s1", G, 1.0, [1.0, 0.5]),
        ("g_k4_s2", G, 2.0, [0.8, 0.6, 0.55, 0.3]),
        ("g_k4_s005", G, 0.05, [0.8, 0.6, 0.55, 0.3]),
        # the Thm. 24 curve of `dpbai bounds --means 0.8,0.6,0.55,0.3` (switch at eps = 2 Delta_max = 1)
        ("k4_thm24", B, 0.5, [0.8, 0.6, 0.55, 0.3]),
    ]
    return out


def eps_for(name, k):
    if name == "k4_thm24" or name.startswith("g_k4_"):
        return ["0.05", "0.3", "0.5", "0.58", "0.9", "1.1", "3"]
    if name == "g_k2_s1":
        return ["0.05", "0.5", "3"]
    if name in ("mu1", "mu2"):
        return ["1e-4", "0.05", "0.3", "1", "3", "1e4"]
    if k >= 50:
        return ["0.3"]
    if k >= 10:
        return ["1e-2", "1"]
    return ["1e-4", "0.3", "3", "1e4"]


def rows_for(name, fam, sigma, means):
    """The decimal means and the rows (kind, eps, beta, thunk) of one instance, in print order."""
    # the Rust side parses the same decimal strings into f64: use the exact doubles here
    means_s = [repr(float(m)) for m in means]
    means = [mp.mpf(float(s)) for s in means_s]
    k = len(means)
    sig = mp.mpf(sigma)
    quad_k = 1 / (2 * sig ** 2)
    rows = []
    if fam == "bernoulli":
        rows.append(("t_kl", None, None, lambda: char_time(ch_kl_bern(means))))
        rows.append(("t_kl_beta", None, "0.5", lambda: char_time(ch_kl_bern(means), mp.mpf("0.5"))))
        rows.append(("t_kl_beta", None, "0.3", lambda: char_time(ch_kl_bern(means), mp.mpf(0.3))))
    else:
        rows.append(("t_kl", None, None, lambda: char_time(ch_quad(means, quad_k))))
        rows.append(("t_kl_beta", None, "0.5", lambda: char_time(ch_quad(means, quad_k), mp.mpf("0.5"))))
    rows.append(("t_kl_gaussian", None, None, lambda: char_time(ch_quad(means, quad_k))))
    rows.append(("t_tv", None, None, lambda: char_time(ch_tv(means, fam, sig))))
    rows.append(("t_tv2", None, None, lambda: char_time(ch_quad(means, mp.mpf(1)))))
    for e in eps_for(name, k):
        E = mp.mpf(float(e))
        if fam == "bernoulli":
            rows.append(("t_local", e, None, (lambda E=E: char_time(ch_local(means, E)))))
        rows.append(("t_global", e, None, (lambda E=E: char_time(ch_global(means, E, fam, sig)))))
        # Eq. (10), (15) with the instance's sigma (quad_k = 2 for sigma = 1/2)
        rows.append(("t_kl_g_eps", e, None, (lambda E=E: char_time(ch_quad(means, quad_k, sq_g_eps(E))))))
        rows.append(
            ("t_kl_beta_g_eps", e, "0.5",
             (lambda E=E: char_time(ch_quad(means, quad_k, sq_g_eps(E)), mp.mpf("0.5"))))
        )
    if k <= 10:
        rows += upper_rows(means, fam, sigma, eps_for(name, k))
    return means_s, rows


def main():
    t0 = time.time()
    print("# Golden values for the characteristic times (dpbai::complexity).")
    print("# Generated by verify/golden_bounds.py with mpmath %s at %d digits:" % (mp.__version__, mp.mp.dps))
    print("# Brent/golden-section over beta, bracketing root over the level t, dual form")
    print("# w_b(beta, t) = sup_z (t - beta X1(z))/X2(z) of the minimal weight.")
    print("# Independent of the Rust algorithm (level parametrisation + stationarity + Newton).")
    print("# kinds: t_kl (Bernoulli KL for Bernoulli, Gaussian KL for Gaussian), t_kl_gaussian")
    print("# (sigma = 1/2 for Bernoulli), t_kl_beta (beta given), t_tv, t_tv2 (B.6 quadratic cost),")
    print("# t_local (Bernoulli only), t_global, t_kl_g_eps, t_kl_beta_g_eps (Eq. (10), (15), with the")
    print("# instance's sigma); ub_* upper bounds per log(1/delta) at beta = 1/2 (Sec. 3.2, Thm. 22, 24,")
    print("# L. 52 and its proof, App. H; sigma symbolic as in App. G).")
    print('mpmath_version = "%s"' % mp.__version__)
    print("digits = %d" % mp.mp.dps)
    print()
    # optional "--part i/n": every n-th instance starting at i (to run in parallel)
    part = None
    if len(sys.argv) > 2 and sys.argv[1] == "--part":
        i, n = sys.argv[2].split("/")
        part = (int(i), int(n))
    # optional "--from NAME": skip the instances before NAME (resume a run)
    start = sys.argv[sys.argv.index("--from") + 1] if "--from" in sys.argv else None
    # optional "--only a,b,c": just these instances
    only = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else None
    # optional "--kinds p1,p2": just the rows whose kind starts with one of these prefixes
    kinds = sys.argv[sys.argv.index("--kinds") + 1].split(",") if "--kinds" in sys.argv else None
    for idx, (name, fam, sigma, means) in enumerate(instances()):
        if part and idx % part[1] != part[0]:
            continue
        if only is not None and name not in only:
            continue
        if start is not None:
            if name != start:
                continue
            start = None
        means_s, rows = rows_for(name, fam, sigma, means)
        if kinds is not None:
            rows = [r for r in rows if any(r[0].startswith(p) for p in kinds)]
        for kind, e, beta, fn in rows:
            t1 = time.time()
            v = fn()
            print("[[case]]")
            print('instance = "%s"' % name)
            print('family = "%s"' % fam)
            print("sigma = %s" % sigma)
            print("means = [%s]" % ", ".join(means_s))
            print('kind = "%s"' % kind)
            if e is not None:
                print("eps = %s" % e)
            if beta is not None:
                print("beta = %s" % beta)
            print('value = "%s"' % mp.nstr(v, 25))
            print()
            sys.stdout.flush()
            print("%s %s eps=%s beta=%s: %s (%.1fs)" % (name, kind, e, beta, mp.nstr(v, 12), time.time() - t1),
                  file=sys.stderr)
    print("# total time %.0f s" % (time.time() - t0))


def merge(out, files):
    """Concatenate part files (header of this script, first occurrence of each case kept)."""
    import re

    seen, cases = set(), []
    for f in files:
        blocks = open(f).read().split("[[case]]\n")[1:]
        for b in blocks:
            b = b.split("\n# total")[0].strip() + "\n"
            if not re.search(r"^value = ", b, re.M):
                continue
            key = tuple(re.findall(r"^(?:instance|kind|eps|beta) = (.*)$", b, re.M))
            if key in seen:
                continue
            seen.add(key)
            cases.append(b)
    head = [
        "# Golden values for the characteristic times (dpbai::complexity).",
        "# Generated by verify/golden_bounds.py with mpmath %s at %d digits (parallel parts merged):"
        % (mp.__version__, mp.mp.dps),
        "# Brent/golden-section over beta, bracketing root over the level t, dual form",
        "# w_b(beta, t) = sup_z (t - beta X1(z))/X2(z) of the minimal weight; independent of the",
        "# Rust algorithm (level parametrisation + stationarity + Newton + LP certificate).",
        "# kinds: t_kl (Bernoulli KL for Bernoulli, Gaussian KL for Gaussian), t_kl_gaussian",
        "# (sigma = 1/2 for Bernoulli), t_kl_beta (beta given), t_tv, t_tv2 (B.6 quadratic cost),",
        "# t_local (Bernoulli only), t_global, t_kl_g_eps, t_kl_beta_g_eps (Eq. (10), (15), with the",
        "# instance's sigma); ub_* upper bounds per log(1/delta) at beta = 1/2 (Sec. 3.2, Thm. 22, 24,",
        "# L. 52 and its proof, App. H; sigma symbolic as in App. G).",
        "# Means are the exact doubles the Rust side parses.",
        'mpmath_version = "%s"' % mp.__version__,
        "digits = %d" % mp.mp.dps,
        "",
    ]
    # the order a single full run prints: instances as instances(), rows as rows_for()
    order = {}
    for i, (name, fam, sigma, means) in enumerate(instances()):
        for j, (kind, e, beta, _) in enumerate(rows_for(name, fam, sigma, means)[1]):
            order[(name, kind, e, beta)] = (i, j)

    def key(c):
        f = dict(re.findall(r"^(instance|kind|eps|beta) = (.*)$", c, re.M))
        k = (f["instance"].strip('"'), f["kind"].strip('"'), f.get("eps"), f.get("beta"))
        return order.get(k, (len(order), 0))

    cases.sort(key=key)
    with open(out, "w") as fh:
        fh.write("\n".join(head) + "\n" + "\n".join("[[case]]\n" + c for c in cases))
    print("%d cases, %d instances" % (len(cases), len({c.split("\n")[0] for c in cases})))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--merge":
        merge(sys.argv[2], sys.argv[3:])
    else:
        main()
