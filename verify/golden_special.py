#!/usr/bin/env python3
"""Golden values for dpbai::special, computed with mpmath at 50 significant digits.

Usage:  python3 verify/golden_special.py > tests/data/special_golden.toml

Every input is an exact IEEE double (written with Python's round-trip repr and converted with
mpmath.mpf(float)), so the golden value is the exact function value at the double the Rust
code receives, rounded to 30 significant digits.

The algorithms here are deliberately different from the Rust ones:
  * W_0, W_{-1}: mpmath.lambertw (its own series/Halley at 50 digits); W-bar additionally by
    mpmath.findroot on u - log u - x (cross-checked against lambertw where exp(-x) is moderate).
  * zeta: mpmath.zeta (Borwein / Euler-Maclaurin at 50 digits, mpmath's own).
  * C_G: golden-section search (no derivatives, 230 iterations) of (g_G(l) + x)/l at 60 digits,
    in the variable u = log(1 - l) on [log 1e-40, log 0.25].
  * g1: mpmath.polyroots (Durand-Kerner) on the quartic t^4 - t^2 - sqrt(2) y t - y^2/4.
  * closed forms (g2, k, h, c_L36, h_1, erf, erfc): evaluated in mpmath at 50 digits.
"""
import math
import sys

import mpmath as mp

mp.mp.dps = 50
OUT_DIGITS = 30
NEG_INV_E_DOUBLE = float(-1 / mp.e)  # lies 1.24e-17 below -1/e: W = -1 by convention


def logspace(lo, hi, n):
    """n doubles log-uniform on [lo, hi] (lo, hi > 0)."""
    a, b = math.log10(lo), math.log10(hi)
    return [10 ** (a + (b - a) * i / (n - 1)) for i in range(n)]


def fmt(v):
    return mp.nstr(mp.mpf(v), OUT_DIGITS, strip_zeros=False, min_fixed=-5, max_fixed=5)


cases = []


def add(name, args, value, note=""):
    cases.append((name, [float(a) for a in args], value, note))


# ---------------- Lambert W_0 ----------------
def w0(x):
    if x == NEG_INV_E_DOUBLE:
        return mp.mpf(-1)
    v = mp.lambertw(mp.mpf(x), 0)
    assert abs(mp.im(v)) == 0
    return mp.re(v)


def wm1(x):
    if x == NEG_INV_E_DOUBLE:
        return mp.mpf(-1)
    v = mp.lambertw(mp.mpf(x), -1)
    assert abs(mp.im(v)) == 0, x
    return mp.re(v)


for x in logspace(1e-300, 1e300, 41) + [1.0, math.e, 3.0, 10.0, 1.7976931348623157e308, 5e-324]:
    add("lambert_w0", [x], w0(x))
# x -> -1/e from above, and x -> 0-
near = [NEG_INV_E_DOUBLE, math.nextafter(NEG_INV_E_DOUBLE, 0.0),
        math.nextafter(math.nextafter(NEG_INV_E_DOUBLE, 0.0), 0.0)]
near += [NEG_INV_E_DOUBLE + 10.0 ** (-k) for k in range(1, 17)]
for x in near:
    add("lambert_w0", [x], w0(x), "branch point")
for x in logspace(1e-300, 0.3, 25):
    add("lambert_w0", [-x], w0(-x))

# ---------------- Lambert W_{-1} ----------------
for x in near:
    add("lambert_wm1", [x], wm1(x), "branch point")
for x in logspace(5e-324, 0.36, 45):
    add("lambert_wm1", [-x], wm1(-x))
add("lambert_wm1", [-5e-324], wm1(-5e-324), "subnormal")

# ---------------- W-bar_{-1}(x) = -W_{-1}(-e^{-x}) ----------------
def wbar(x):
    xm = mp.mpf(x)
    if x == 1.0:
        return mp.mpf(1)
    start = xm + mp.log(xm) + 0.5 if x > 1.5 else 1 + mp.sqrt(2 * (xm - 1)) * 1.1
    u = mp.findroot(lambda u: u - mp.log(u) - xm, start, tol=mp.mpf(10) ** -45)
    if x < 1e5:
        ref = -mp.lambertw(-mp.exp(-xm), -1)
        assert abs(mp.re(ref) / u - 1) < mp.mpf(10) ** -35, (x, u, ref)
    return u


for x in [1.0] + [1.0 + 10.0 ** (-k) for k in range(1, 16)] + [math.nextafter(1.0, 2.0)]:
    add("wbar_m1", [x], wbar(x), "branch point")
for x in logspace(1.0001, 1e300, 40):
    add("wbar_m1", [x], wbar(x))

# seeded pseudo-random points (log-uniform) for all three W functions
import random
rng = random.Random(20261129)
for _ in range(20):
    add("lambert_w0", [10 ** rng.uniform(-300, 300)], None, "random")
    add("lambert_wm1", [-(10 ** rng.uniform(-300, math.log10(0.3678)))], None, "random")
    add("wbar_m1", [1 + 10 ** rng.uniform(-15, 300)], None, "random")
    add("wbar_m1", [rng.uniform(1.0, 30.0)], None, "random")
cases[:] = [(n, a, v if v is not None else {"lambert_w0": w0, "lambert_wm1": wm1,
                                              "wbar_m1": wbar}[n](a[0]), note)
            for (n, a, v, note) in cases]

# ---------------- zeta on (1, 50] ----------------
for d in logspace(1e-15, 49.0, 40):
    s = 1.0 + d
    add("zeta", [s], mp.zeta(mp.mpf(s)))
for s in [2.0, 3.0, 4.0, 1.5, 1.7, 1.9, 60.0, 100.0]:
    add("zeta", [s], mp.zeta(mp.mpf(s)))

# ---------------- C_G ----------------
def g_G(lam):
    return 2 * lam - 2 * lam * mp.log(4 * lam) + mp.log(mp.zeta(2 * lam)) - mp.log(1 - lam) / 2


def c_g(x):
    with mp.workdps(60):
        xm = mp.mpf(x)
        # search in u = log(1 - lambda) (monotone reparametrisation: F stays unimodal)
        F = lambda u: (g_G(1 - mp.exp(u)) + xm) / (1 - mp.exp(u))
        a, b = mp.log(mp.mpf("0.25")), mp.log(mp.mpf(10) ** -40)
        a, b = b, a
        r = (mp.sqrt(5) - 1) / 2
        c, d = b - r * (b - a), a + r * (b - a)
        fc, fd = F(c), F(d)
        for _ in range(230):
            if fc < fd:
                b, d, fd = d, c, fc
                c = b - r * (b - a)
                fc = F(c)
            else:
                a, c, fc = c, d, fd
                d = a + r * (b - a)
                fd = F(d)
        u = (a + b) / 2
        assert mp.log(mp.mpf(10) ** -39) < u < mp.log(mp.mpf("0.2")), (x, u)
        return F(u)


for x in logspace(1e-3, 1e6, 36) + [0.1, 0.5, 1.0, 2.0, math.log(400) / 2, 5.0, 20.0, 50.0,
                                    1e-6, 1e9, 1e12, 1e15, 1e20]:
    add("c_g", [x], c_g(x))

# ---------------- g1 (root of a quartic), g2 ----------------
def g1(y):
    if y == 0.0:
        return mp.mpf(1)
    ym = mp.mpf(y)
    roots = mp.polyroots([1, 0, -1, -mp.sqrt(2) * ym, -ym * ym / 4], maxsteps=400, extraprec=200)
    t = max(mp.re(z) for z in roots if abs(mp.im(z)) < mp.mpf(10) ** -30)
    return t * t


for y in [0.0] + logspace(1e-6, 1e4, 30) + [0.5, 1.0, 2.0, 4.0, 8.0, 12.0]:
    add("g1", [y], g1(y))
# large y (outside the accuracy range [0, 1e4], checked for correctness): findroot on
# q(x) = x^2 - x - y sqrt(2x) - y^2/4 at 120 digits from x0 = y/2 + sqrt(y)
for y in [1e6, 1e10, 1e20, 1e31, 1e33, 1e100, 1e300]:
    with mp.workdps(120):
        ym = mp.mpf(y)
        x = mp.findroot(lambda x: x * x - x - ym * mp.sqrt(2 * x) - ym * ym / 4,
                        ym / 2 + mp.sqrt(ym), tol=mp.mpf(10) ** -100 * ym * ym)
    add("g1", [y], x, "large y")
for y in logspace(1e-12, 1e12, 20) + [1e-4, 0.01, 0.1, 1.0, 10.0]:
    ym = mp.mpf(y)
    add("g2", [y], ym * (1 + mp.sqrt(1 + 1 / ym)) ** 2)

# ---------------- k, h, c_L36, h_1 ----------------
def wbar_closed(a):
    return -mp.re(mp.lambertw(-mp.exp(-a), -1))


for x in [1.0, 2.0, 8.0, 1000.0, 1e12]:
    add("k", [x], mp.log(mp.mpf(x), 2) + 2)
for (x, d, K) in [(1.0, 0.01, 5), (8.0, 0.01, 5), (1e6, 1e-10, 2), (3.7, 0.5, 100), (1e15, 1e-300, 7)]:
    xm, dm = mp.mpf(x), mp.mpf(d)
    kx = mp.log(xm, 2) + 2
    add("h", [x, d, K], wbar_closed(2 * mp.log(mp.pi ** 2 * K * kx ** 2 / (2 * dm))
                                    + 4 * mp.log(4 + mp.log(xm)) + mp.mpf(1) / 2) / 2)
    add("c_l36", [x, d, K], wbar_closed(2 * mp.log(K / dm)
                                        + 4 * mp.log(4 + mp.log(xm)) + mp.mpf(1) / 2) / 2)
for (z, y) in [(2.0, 3.0), (1.0, 1.0), (0.5, 10.0), (100.0, 1000.0), (3.0, 0.5)]:
    zm, ym = mp.mpf(z), mp.mpf(y)
    add("h1", [z, y], zm * wbar_closed(ym / zm + mp.log(zm)))

# ---------------- erf, erfc ----------------
for x in logspace(1e-10, 6.0, 20) + [0.5, 1.0, 1.25, 2.0, 2.4999, 2.5, 3.0, 5.99, -0.7, -3.0]:
    add("erf", [x], mp.erf(mp.mpf(x)))
for x in logspace(1e-3, 26.0, 20) + [0.5, 1.2499, 1.25, 1.3, 2.5, 3.0, 10.0, -1.0]:
    add("erfc", [x], mp.erfc(mp.mpf(x)))

# ---------------- output ----------------
w = sys.stdout.write
w("# Golden values for dpbai::special. GENERATED by verify/golden_special.py; do not edit.\n")
w(f'generator = "verify/golden_special.py"\n')
w(f'mpmath_version = "{mp.__version__}"\n')
w(f"working_digits = {mp.mp.dps}\n")
w(f"output_digits = {OUT_DIGITS}\n")
w('note = "inputs are exact doubles (round-trip repr); values are the exact function values at '
  'those doubles, rounded to output_digits. W(x) at the double nearest -1/e (below -1/e by '
  '1.24e-17) is set to -1 by convention."\n\n')
for name, args, value, note in cases:
    w("[[case]]\n")
    w(f'fn = "{name}"\n')
    w("args = [" + ", ".join(f'"{a!r}"' for a in args) + "]\n")
    w(f'value = "{fmt(value)}"\n')
    if note:
        w(f'note = "{note}"\n')
    w("\n")
sys.stderr.write(f"{len(cases)} cases\n")
