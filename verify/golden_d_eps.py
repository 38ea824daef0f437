#!/usr/bin/env python3
"""Golden values for the signed Bernoulli divergences d+_eps, d-_eps and d_eps of
dpbai::divergence ([BAI25] poster; [REG25]), computed from their DEFINITION with mpmath.

Usage:  python3 verify/golden_d_eps.py > tests/data/d_eps_golden.toml

Definition ([REG25]; [BAI25] poster): for Bernoulli means mu (the arm) and x (the alternative),

    d_eps(mu, x) = inf_{z in [0, 1]} { eps |z - mu| + kl(z, x) },
    d+_eps(mu, x) = d_eps(mu, x) if x > mu, else 0;   d-_eps(mu, x) = d_eps(mu, x) if x < mu, else 0.

Method, independent of the Rust closed form: the infimum over z is minimised numerically at 50
significant digits by a derivative-free golden-section search on the whole interval [0, 1]
(the objective is convex in z: |z - mu| and kl(z, x) are; the search and kl are those of
verify/golden_bounds.py), 260 iterations, which shrink the
bracket below 1e-54; the value is the smallest objective seen. The objective itself is
evaluated with 150 working digits (kl(z, x) near z = x cancels up to ~60 digits when x - mu is
~1e-12) and rounded to 50. No closed form, minimiser formula
or breakpoint enters the computation of a value. A minimiser known only to within the bracket
costs at most eps * 1e-54 at the kink z = mu and O(1e-54 ** 2) at an interior minimum, far
below the 1e-30 printed.

Points (exact doubles, round-trip repr): eps in {1e-12, 1e-9, 1e-3, 0.1, 0.45, 1, 10, 1e3};
mu in {0, 1e-6, 0.1, 0.3, 0.5, 0.9, 0.999999, 1}; x on both sides of mu, x = 0 and x = 1, and
on both sides of each breakpoint g-_eps(mu) = mu e^eps / (mu (e^eps - 1) + 1) (and its mirror
1 - g-_eps(1 - mu) for d-): the doubles just below and just above it and at relative distance
1e-6. The breakpoint only CHOOSES points; it is computed at 60 digits.

Cross-check printed on stderr (not a golden value): the minimised definition against the
closed form of the poster at 50 digits; the script fails if they differ by more than 1e-40
relative, so a bad minimisation cannot write a golden file.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_bounds as gb  # noqa: E402  (kl and the golden-section search)

mp = gb.mp
mp.mp.dps = 50  # (golden_bounds sets 40 on import)
kl = gb.kl
ITERATIONS = 260
EVAL_DIGITS = 150
OUT_DIGITS = 30


def definition(mu, x, eps):
    """inf_{z in [0, 1]} eps |z - mu| + kl(z, x), by golden section over [0, 1] (the
    golden-section search of verify/golden_bounds.py, on -objective), with the ends, mu and x."""
    mu, x, eps = mp.mpf(mu), mp.mpf(x), mp.mpf(eps)

    def obj(z):
        # kl(z, x) for z near x cancels up to ~60 of the working digits: evaluate it with
        # EVAL_DIGITS, then round to the working precision
        with mp.workdps(EVAL_DIGITS):
            v = eps * abs(z - mu) + kl(z, x)
        return +v

    neg_min, _ = gb.golden_max(lambda z: -obj(z), mp.mpf(0), mp.mpf(1), ITERATIONS)
    return min(-neg_min, obj(mp.mpf(0)), obj(mp.mpf(1)), obj(mu), obj(x))


def closed_form_plus(mu, x, eps):
    """The poster's closed form (cross-check only)."""
    mu, x, eps = mp.mpf(mu), mp.mpf(x), mp.mpf(eps)
    if x <= mu:
        return mp.mpf(0)
    # x <= g-_eps(mu)  <=>  x (1 - mu) <= mu (1 - x) e^eps (no rounding of g- near 1)
    if x * (1 - mu) <= mu * (1 - x) * mp.exp(eps):
        with mp.workdps(EVAL_DIGITS):
            v = kl(mu, x)
        return +v
    with mp.workdps(EVAL_DIGITS):  # the two terms cancel near the breakpoint when eps is small
        v = -mp.log((1 - x) + x * mp.exp(-eps)) - eps * mu  # = -log(1 - x(1 - e^-eps)) - eps mu
    return +v


def breakpoint_plus(mu, eps):
    with mp.workdps(60):
        mu, eps = mp.mpf(mu), mp.mpf(eps)
        return mu * mp.exp(eps) / (mu * mp.expm1(eps) + 1)


def breakpoint_minus(mu, eps):
    with mp.workdps(60):
        return 1 - breakpoint_plus(1 - mp.mpf(mu), eps)


def near(v):
    """Doubles on both sides of the real v in (0, 1): just below / above, and at 1e-6 relative."""
    f = float(v)
    below = f if mp.mpf(f) < v else math.nextafter(f, 0.0)
    above = f if mp.mpf(f) > v else math.nextafter(f, 1.0)
    out = [below, above, float(v * (1 - mp.mpf("1e-6"))), float(v * (1 + mp.mpf("1e-6")))]
    return [p for p in out if 0.0 <= p <= 1.0]


EPS = [1e-12, 1e-9, 1e-3, 0.1, 0.45, 1.0, 10.0, 1e3]
MUS = [0.0, 1e-6, 0.1, 0.3, 0.5, 0.9, 0.999999, 1.0]

cases = []
seen = set()


def add(fn, mu, x, eps, note):
    key = (fn, mu, x, eps)
    if key in seen:
        return
    seen.add(key)
    cases.append((fn, mu, x, eps, note))


for eps in EPS:
    for mu in MUS:
        # d+: x above mu (the cost of moving the mean up), x = 1, and around g-_eps(mu)
        if mu < 1.0:
            add("d_eps_plus", mu, 1.0, eps, "x = 1")
            for x in [mu + (1.0 - mu) * f for f in (0.001, 0.5)]:
                add("d_eps_plus", mu, x, eps, "")
            gm = breakpoint_plus(mu, eps)
            if mu < gm < 1:
                for x in near(gm):
                    if x > mu:
                        side = "below" if mp.mpf(x) <= gm else "above"
                        add("d_eps_plus", mu, x, eps, "%s the breakpoint g-_eps(mu)" % side)
        add("d_eps_plus", mu, mu * 0.5, eps, "x < mu: zero")
        # d-: x below mu, x = 0, and around the mirrored breakpoint
        if mu > 0.0:
            add("d_eps_minus", mu, 0.0, eps, "x = 0")
            for x in [mu * f for f in (0.999, 0.5)]:
                add("d_eps_minus", mu, x, eps, "")
            gp = breakpoint_minus(mu, eps)
            if 0 < gp < mu:
                for x in near(gp):
                    if x < mu:
                        side = "above" if mp.mpf(x) >= gp else "below"
                        add("d_eps_minus", mu, x, eps, "%s the mirrored breakpoint 1 - g-_eps(1 - mu)" % side)
        add("d_eps_minus", mu, min(1.0, mu + 0.25), eps, "x > mu: zero")
    # the two-sided d_eps on both sides of mu
    for mu, x in [(0.3, 0.7), (0.7, 0.3), (0.0, 0.5), (1.0, 0.5), (0.5, 0.0), (0.5, 1.0), (0.4, 0.4)]:
        add("d_eps", mu, x, eps, "two-sided")

rows = []
worst = mp.mpf(0)
for fn, mu, x, eps, note in cases:
    if fn == "d_eps_plus":
        v = definition(mu, x, eps) if x > mu else mp.mpf(0)
        cf = closed_form_plus(mu, x, eps)
    elif fn == "d_eps_minus":
        v = definition(mu, x, eps) if x < mu else mp.mpf(0)
        cf = closed_form_plus(1 - mp.mpf(mu), 1 - mp.mpf(x), eps)
    else:
        v = definition(mu, x, eps)
        cf = (closed_form_plus(mu, x, eps) if x >= mu
              else closed_form_plus(1 - mp.mpf(mu), 1 - mp.mpf(x), eps))
    if v != 0:
        worst = max(worst, abs(v - cf) / abs(v))
    elif cf != 0:
        raise SystemExit(f"{fn}({mu}, {x}, {eps}): definition 0, closed form {cf}")
    rows.append((fn, mu, x, eps, note, v))
sys.stderr.write(f"{len(cases)} cases; definition vs closed form: max rel diff {mp.nstr(worst, 3)}\n")
if worst > mp.mpf("1e-40"):
    raise SystemExit("the minimised definition disagrees with the closed form: not written")

w = sys.stdout.write
w("# Golden values for the signed Bernoulli divergences d+_eps, d-_eps, d_eps (dpbai::divergence).\n")
w("# GENERATED by verify/golden_d_eps.py; do not edit. Each value is the DEFINITION\n")
w("# inf_{z in [0,1]} eps|z - mu| + kl(z, x) ([REG25]; [BAI25] poster), minimised by golden section\n")
w("# over [0, 1] at 50 digits (no closed form used); args = [mu, x, eps], exact doubles.\n")
w('generator = "verify/golden_d_eps.py"\n')
w(f'mpmath_version = "{mp.__version__}"\n')
w(f"working_digits = {mp.mp.dps}\n")
w(f"golden_section_iterations = {ITERATIONS}\n")
w(f"evaluation_digits = {EVAL_DIGITS}\n")
w(f"output_digits = {OUT_DIGITS}\n\n")
for fn, mu, x, eps, note, v in rows:
    w("[[case]]\n")
    w(f'fn = "{fn}"\n')
    w("args = [" + ", ".join(f'"{a!r}"' for a in (mu, x, eps)) + "]\n")
    w('value = "%s"\n' % mp.nstr(v, OUT_DIGITS, strip_zeros=False, min_fixed=-5, max_fixed=5))
    if note:
        w(f'note = "{note}"\n')
    w("\n")
