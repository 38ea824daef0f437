#!/usr/bin/env python3
"""Golden values for dpbai::divergence (and instance transforms), computed with mpmath.

Usage:  python3 verify/golden_divergence.py > tests/data/divergence_golden.toml

Inputs are exact IEEE doubles (round-trip repr, mpmath.mpf(float)); values are the exact
closed forms at those doubles, evaluated with 80 significant digits (kl(p, q) with
|p - q| ~ 1e-12 cancels ~24 digits, so 80 leaves > 50 correct), rounded to 30 digits.
The formulas are the textbook ones of READINGS.md §A.1-§A.8 (p log(p/q) + ..., e^{2e}(e^e - 1)^2,
erf, ...), not the Rust code's cancellation-free rearrangements.
"""
import math
import sys

import mpmath as mp

mp.mp.dps = 80
OUT_DIGITS = 30
cases = []


def add(name, args, value, note=""):
    cases.append((name, [float(a) for a in args], value, note))


def logspace(lo, hi, n):
    a, b = math.log10(lo), math.log10(hi)
    return [10 ** (a + (b - a) * i / (n - 1)) for i in range(n)]


def kl(p, q):
    p, q = mp.mpf(p), mp.mpf(q)
    if p == q:
        return mp.mpf(0)
    if (p > 0 and q == 0) or (p < 1 and q == 1):
        return mp.inf
    t1 = 0 if p == 0 else p * mp.log(p / q)
    t2 = 0 if p == 1 else (1 - p) * mp.log((1 - p) / (1 - q))
    return t1 + t2


# kl on a grid spanning the interior, the boundaries and the diagonal
grid = [1e-12, 1e-6, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999999, 1 - 1e-12]
for p in [0.0, 1e-9, 0.1, 0.5, 0.9, 1 - 1e-9, 1.0]:
    for q in [1e-12, 0.001, 0.3, 0.7, 0.999, 1 - 1e-12]:
        add("kl_bernoulli", [p, q], kl(p, q))
for p in grid:
    for rel in [1e-12, 1e-8, 1e-4, 0.05]:
        q = p * (1 + rel) if p * (1 + rel) < 1 else p * (1 - rel)
        add("kl_bernoulli", [p, q], kl(p, q), "near diagonal")
import random
rng = random.Random(20261129)  # fixed seed: reproducible pseudo-random interior pairs
for _ in range(40):
    p, q = rng.random(), rng.random()
    if rng.random() < 0.5:  # cluster half the pairs at moderate distance (|u|, |v| ~ 0.5)
        q = min(max(p * (1 + rng.uniform(-0.7, 0.7)), 1e-9), 1 - 1e-9)
    add("kl_bernoulli", [p, q], kl(p, q), "random interior")
for p in [0.0, 0.3, 1.0]:
    add("kl_bernoulli", [p, p], mp.mpf(0), "zero identity")
add("kl_bernoulli", [0.5, 0.0], mp.inf, "infinite")
add("kl_bernoulli", [0.5, 1.0], mp.inf, "infinite")

# Gaussian KL, TV
for (m, m2, s) in [(1.0, 0.0, 1.0), (0.3, 0.2999, 0.5), (-2.0, 3.5, 0.1), (1e-8, 0.0, 1e-3), (5.0, 5.0, 2.0)]:
    m_, m2_, s_ = mp.mpf(m), mp.mpf(m2), mp.mpf(s)
    add("kl_gaussian", [m, m2, s], (m_ - m2_) ** 2 / (2 * s_ ** 2))
    add("tv_gaussian", [m, m2, s], mp.erf(abs(m_ - m2_) / (2 * mp.sqrt(2) * s_)))
for (p, q) in [(0.9, 0.5), (0.0, 1.0), (0.3, 0.3), (0.123456789, 0.987654321), (1e-10, 2e-10)]:
    d = abs(mp.mpf(p) - mp.mpf(q))
    add("tv_bernoulli", [p, q], d)
    add("tv2_bernoulli", [p, q], d * d)

# c(eps), log-uniform over (1e-8, 50] plus the switch points
for e in logspace(1e-8, 50.0, 30) + [math.log(2), 0.5822402093, 1.0]:
    em = mp.mpf(e)
    add("c_local", [e], min(mp.mpf(4), mp.exp(2 * em)) * (mp.exp(em) - 1) ** 2)
with mp.workdps(60):
    eps0 = mp.log((1 + mp.sqrt(1 + 4 * mp.sqrt(2))) / 2)
add("pinsker_switch_eps", [], eps0, "closed form of c(eps) = 2")

# randomised response mean, kl(1 - delta, delta)
for (mu, e) in [(0.0, 0.1), (1.0, 2.0), (0.37, 0.5), (0.9, 10.0), (0.5, 1e-6), (0.123, 1e-9), (0.75, 40.0)]:
    mum, em = mp.mpf(mu), mp.mpf(e)
    add("rr_mean", [mu, e], (mum * (mp.exp(em) - 1) + 1) / (mp.exp(em) + 1))
for d in logspace(1e-12, 0.49, 12) + [0.4999, 0.49999999]:
    dm = mp.mpf(d)
    add("kl_delta", [d], (1 - 2 * dm) * mp.log((1 - dm) / dm))

# instance transforms (READINGS.md §A.5-§A.7) on mu1 = (0.95, 0.9, 0.9, 0.9, 0.5), eps = 0.3
mu1 = [0.95, 0.9, 0.9, 0.9, 0.5]
mus = [mp.mpf(m) for m in mu1]
top = max(mus)
sub = [top - m for m in mus if m != top]
dmin = min(sub)
gaps = [dmin if m == top else top - m for m in mus]
add("hardness_h_bernoulli_mu1", [], sum(1 / (g * g) for g in gaps) / 2, "H = (1/2) sum Delta_a^-2")
for e in [0.05, 0.3, 2.0]:
    em = mp.mpf(e)
    d_eps = [em * (mp.sqrt(1 + 2 * g / em) - 1) for g in gaps]
    add("hardness_h_eps_sec43_mu1", [e], sum(1 / (d * d) for d in d_eps))
    add("privacy_aware_sq_gap_sum_mu1", [e], sum(g * min(g, em / 2) for g in gaps))

# The extremes: p, q in {1e-300, 1e-17, 1 - 2^-53} (and the probes
# kl(1e-17, 0.6), kl(0.3, 1e-320), with 1e-320 the subnormal double it parses to).
# 1 - p with p = 1e-300 needs 300+ digits: these use 800 working digits.
def kl_wide(p, q):
    with mp.workdps(800):
        return +kl(p, q)


ext = [1e-300, 1e-17, 0.3, 0.6, 1 - 2.0 ** -53]
for p in ext:
    for q in ext:
        add("kl_bernoulli", [p, q], kl_wide(p, q), "extreme")
        d = abs(mp.mpf(p) - mp.mpf(q))
        add("tv_bernoulli", [p, q], d, "extreme")
        add("tv2_bernoulli", [p, q], d * d, "extreme")
add("kl_bernoulli", [0.3, 1e-320], kl_wide(0.3, 1e-320), "extreme, subnormal q")
add("kl_bernoulli", [1e-300, 1.5e-300], kl_wide(1e-300, 1.5e-300), "extreme, near diagonal")
add("kl_bernoulli", [0.0, 1e-300], kl_wide(0.0, 1e-300), "extreme")
add("kl_bernoulli", [1.0, 1 - 2.0 ** -53], kl_wide(1.0, 1 - 2.0 ** -53), "extreme")
for (m, m2, s) in [(1e-300, 0.0, 1.0), (1.0, 0.0, 1e-50), (1e50, -1e50, 1e50), (0.5, 0.25, 1e-17)]:
    m_, m2_, s_ = mp.mpf(m), mp.mpf(m2), mp.mpf(s)
    add("kl_gaussian", [m, m2, s], (m_ - m2_) ** 2 / (2 * s_ ** 2), "extreme")
    add("tv_gaussian", [m, m2, s], mp.erf(abs(m_ - m2_) / (2 * mp.sqrt(2) * s_)), "extreme")

# Gaussian-mechanism calibration sigma = sqrt(2 log(1.25/gamma))/eps (Rem. 13; the Rust value
# is rounded up one ulp, the safe direction), at eps in {1e-300, 700, 1e4}.
for e in [1e-300, 1e-17, 0.5, 700.0, 1e4, 1e300]:
    for g in [1e-300, 1e-5, 0.5, 1 - 2.0 ** -53]:
        em, gm = mp.mpf(e), mp.mpf(g)
        add("gaussian_sigma", [e, g], mp.sqrt(2 * mp.log(mp.mpf("1.25") / gm)) / em, "extreme")

# Exact loss of the Gaussian mechanism (Balle & Wang Thm. 8): the eps with gamma(eps) = gamma,
# by findroot on the textbook profile Phi(a - b) - e^eps Phi(-a - b), a = 1/(2 sigma),
# b = eps sigma, for sigma calibrated at large eps (where e^eps overflows a double); the root
# by bisection on the 80-digit profile.
def bw_gamma(e, sig):
    a, b = 1 / (2 * sig), e * sig
    return mp.ncdf(a - b) - mp.exp(e) * mp.ncdf(-a - b)


for e in [0.5, 700.0, 709.0, 710.0, 1e4]:
    g = 1e-5
    sig = float(mp.sqrt(2 * mp.log(mp.mpf("1.25") / mp.mpf(g))) / mp.mpf(e))
    sig = math.nextafter(sig, math.inf)  # the calibration is rounded up one ulp (as dpbai does)
    sm = mp.mpf(sig)
    # bracket: gamma is decreasing in eps; the loss is near a^2 + a*z for large a
    lo, hi = mp.mpf(0), mp.mpf(1)
    while bw_gamma(hi, sm) > g:
        hi *= 2
    for _ in range(300):  # bisection at 80 digits: the bracket shrinks far below 1e-30
        mid = (lo + hi) / 2
        if bw_gamma(mid, sm) > g:
            lo = mid
        else:
            hi = mid
    root = (lo + hi) / 2
    add("gaussian_eps", [g, sig], root, "exact loss at gamma = 1e-5, sigma calibrated at eps = %r" % e)

w = sys.stdout.write
w("# Golden values for dpbai::divergence. GENERATED by verify/golden_divergence.py; do not edit.\n")
w('generator = "verify/golden_divergence.py"\n')
w(f'mpmath_version = "{mp.__version__}"\n')
w(f"working_digits = {mp.mp.dps}\n")
w(f"output_digits = {OUT_DIGITS}\n\n")
for name, args, value, note in cases:
    w("[[case]]\n")
    w(f'fn = "{name}"\n')
    w("args = [" + ", ".join(f'"{a!r}"' for a in args) + "]\n")
    v = "inf" if value == mp.inf else mp.nstr(mp.mpf(value), OUT_DIGITS, strip_zeros=False,
                                               min_fixed=-5, max_fixed=5)
    w(f'value = "{v}"\n')
    if note:
        w(f'note = "{note}"\n')
    w("\n")
sys.stderr.write(f"{len(cases)} cases\n")
