#!/usr/bin/env python3
"""Golden values for the local-DP time T_l of GAUSSIAN instances (Thm. 10, READINGS.md §B.8).

d_eps(p, x) = min{ (p - x)^2 / (2 sigma^2), c(eps) * erf(|p - x| / (2 sqrt(2) sigma))^2 },
c(eps) = min{4, e^{2 eps}} (e^eps - 1)^2 (A.4), psi_b(u, w) = inf_{x in [mu_b, mu*]} u d(mu*, x) + w d(mu_b, x).

Independent reference, mpmath at 30 digits; the algorithm is deliberately DIFFERENT from the Rust
one (level parametrisation of psi_b(1, x), stationarity condition solved by Brent, inner infimum
by a branch and bound with curvature bounds, LP certificate):

  * K = 2: the two-arm reduction of B.1, T^-1 = max_{w in (0,1)} psi(w, 1 - w), a concave 1-D
    problem solved by golden-section search in w; psi by a dense grid over the common mean
    (located in doubles) and a golden-section refinement of every grid-local minimum in mpmath.
  * every K: golden-section search over the leader weight beta (t*(beta) is concave, B.2), a
    bracketing (Illinois) root in the level t of sum_b w_b(beta, t) = 1 - beta, and the minimal
    weight in its DUAL form w_b(beta, t) = sup_{s in [0, D_b)} (t - beta h(s)) / h(D_b - s)
    (h(s) = d_eps at distance s), again a dense grid plus golden-section refinement in mpmath.
  For K = 2 both methods are run and must agree (checked here, printed to stderr).

The non-convexity of erf^2 is why every inner problem is a GLOBAL search: the grid has 400
points per problem and its four best grid-local extrema are refined.

Usage: python3 verify/golden_local_gaussian.py > tests/data/local_gaussian_golden.toml
(a few minutes).
"""

import math
import sys

import mpmath as mp

mp.mp.dps = 25
GRID = 400
GOLD_IT = 56

EPS_LIST = ["0.1", "0.5", "1", "3", "10"]
INSTANCES = [
    # name, sigma, means (exact decimal strings; the Rust side parses the same doubles)
    ("g2a", "0.5", ["0.9", "0.5"]),
    ("g2b", "0.1", ["0.9", "0.5"]),
    ("g2far", "0.02", ["1", "-0.5"]),
    ("g3", "0.5", ["0.9", "0.6", "0.2"]),
    ("g4", "0.25", ["1", "0.8", "0.5", "-1"]),
    ("g5", "0.05", ["0.9", "0.85", "0.6", "0.3", "-2"]),
]


def c_local(eps):
    e = mp.mpf(eps)
    return min(mp.mpf(4), mp.exp(2 * e)) * mp.expm1(e) ** 2


class Arm:
    """h(s) = d_eps at distance s, in mpmath and (for the grid search only) in doubles."""

    def __init__(self, sigma, c):
        self.k = 1 / (2 * mp.mpf(sigma) ** 2)
        self.lam = 1 / (2 * mp.sqrt(2) * mp.mpf(sigma))
        self.c = c
        self.kf, self.lamf, self.cf = float(self.k), float(self.lam), float(c)

    def h(self, s):
        return min(self.k * s * s, self.c * mp.erf(self.lam * s) ** 2)

    def hf(self, s):
        return min(self.kf * s * s, self.cf * math.erf(self.lamf * s) ** 2)


def golden(f, a, b, maximise, ends=True):
    """Golden-section search of a unimodal f on [a, b]; returns the best value seen."""
    sign = -1 if maximise else 1
    g = (mp.sqrt(5) - 1) / 2
    x1, x2 = b - g * (b - a), a + g * (b - a)
    f1, f2 = sign * f(x1), sign * f(x2)
    best = min(f1, f2)
    if ends:
        best = min(best, sign * f(a), sign * f(b))
    for _ in range(GOLD_IT):
        if f1 < f2:
            b, x2, f2 = x2, x1, f1
            x1 = b - g * (b - a)
            f1 = sign * f(x1)
        else:
            a, x1, f1 = x1, x2, f2
            x2 = a + g * (b - a)
            f2 = sign * f(x2)
        best = min(best, f1, f2)
    return sign * best


def global_1d(ff, fm, lo, hi, maximise, fine=()):
    """Global extremum of fm on [lo, hi]: grid in doubles (ff), plus the points `fine`
    evaluated in mpmath (fm), then refinement of every grid-local extremum in mpmath (fm)."""
    xs = [lo + (hi - lo) * i / GRID for i in range(GRID + 1)]
    vs = [ff(float(x)) for x in xs]
    if fine:
        pts = sorted(set(xs) | set(fine))
        known = dict(zip(xs, vs))
        xs = pts
        vs = [known[x] if x in known else float(fm(x)) for x in xs]
    n = len(xs) - 1
    sign = -1 if maximise else 1
    best = None
    cands = []
    for i in range(n + 1):
        left = vs[i - 1] if i > 0 else math.inf * sign
        right = vs[i + 1] if i < n else math.inf * sign
        if sign * vs[i] <= sign * left and sign * vs[i] <= sign * right:
            cands.append(i)
    # refine the four best grid-local extrema (plateaus of a saturated erf give many ties)
    cands.sort(key=lambda i: sign * vs[i])
    for i in cands[:4]:
        a, b = xs[max(i - 1, 0)], xs[min(i + 1, n)]
        v = golden(fm, a, b, maximise)
        if best is None or sign * v < sign * best:
            best = v
    return best


def psi(arm, d, u, w):
    """psi_b(u, w) = inf_s u h(s) + w h(d - s) (primal form)."""
    return global_1d(
        lambda s: float(u) * arm.hf(s) + float(w) * arm.hf(float(d) - s),
        lambda s: u * arm.h(s) + w * arm.h(d - s),
        mp.mpf(0),
        d,
        maximise=False,
    )


def t_two_arms(arm, d):
    """K = 2: T^-1 = max_w psi(w, 1 - w) (golden section in w, concave)."""
    inv = golden(lambda w: psi(arm, d, w, 1 - w), mp.mpf(0), mp.mpf(1), maximise=True)
    return 1 / inv


def min_weight(arm, d, beta, t):
    """w_b(beta, t) = sup_{v in (0, d]} (t - beta h(d - v)) / h(v)  (dual form, v = d - s).

    The ratio tends to -inf as v -> 0 (t < beta h(d)), but its maximiser approaches v = 0 as
    t -> beta h(d): geometric points down to 1e-16 d (in mpmath) resolve it."""
    fine = [d * mp.mpf(10) ** (-mp.mpf(j) / 8) for j in range(20, 129, 2)]
    return global_1d(
        lambda v: (float(t) - float(beta) * arm.hf(float(d) - v)) / arm.hf(v),
        lambda v: (t - beta * arm.h(d - v)) / arm.h(v),
        d / (8 * GRID),
        d,
        maximise=True,
        fine=fine,
    )


def level(arm, gaps, beta):
    """t*(beta): root of sum_b w_b(beta, t) = 1 - beta on (0, beta min_b h(D_b)) (Illinois)."""
    tmax = beta * min(arm.h(d) for d in gaps)
    g = lambda t: sum(min_weight(arm, d, beta, t) for d in gaps) - (1 - beta)
    a, b = tmax * mp.mpf("1e-12"), tmax * (1 - mp.mpf("1e-12"))
    fa, fb = g(a), g(b)
    if fb <= 0:
        # the weights reach the saturation level with room to spare (erf saturated to the
        # working precision: psi is TV-like, min(u, w) h(D)); the leftover weight is idle
        return tmax
    if not fa < 0:
        raise RuntimeError(f"no bracket: {fa} {fb}")
    # bisection first: g blows up near tmax, where secant steps would crawl
    for _ in range(12):
        m = (a + b) / 2
        fm = g(m)
        if fm < 0:
            a, fa = m, fm
        else:
            b, fb = m, fm
    side = 0
    for _ in range(200):
        c = (a * fb - b * fa) / (fb - fa)
        fc = g(c)
        if fc == 0 or abs(b - a) < tmax * mp.mpf("1e-20"):
            return c
        if (fc < 0) == (fa < 0):
            a, fa = c, fc
            if side == -1:
                fb /= 2
            side = -1
        else:
            b, fb = c, fc
            if side == 1:
                fa /= 2
            side = 1
        if abs(fc) < mp.mpf("1e-17"):
            return c
    return c


def t_general(arm, gaps):
    """T^-1 = max_beta t*(beta) (golden section in beta)."""
    inv = golden(lambda beta: level(arm, gaps, beta), mp.mpf(0), mp.mpf(1), True, ends=False)
    return 1 / inv


def main():
    print("# Golden values for the local-DP time T_l of Gaussian instances (Thm. 10, READINGS.md §B.8).")
    print(f"# Generated by verify/golden_local_gaussian.py with mpmath {mp.__version__} at "
          f"{mp.mp.dps} digits:")
    print("# golden section over the leader weight, Illinois root in the level, dual form of the")
    print("# minimal weight by a 400-point grid + golden-section refinement of the four best local")
    print("# extrema (global search: erf^2 is not convex); K = 2 cross-checked against the")
    print("# two-arm reduction max_w psi(w, 1 - w). Independent of the Rust algorithm.")
    print("# tolerance_rel: golden sections stop at ~1e-12 of their bracket (errors quadratic, first")
    print("# order at a kinked optimum), so values are accurate to ~1e-12; the Rust certificate is 1e-9.")
    print(f'mpmath_version = "{mp.__version__}"')
    print(f"digits = {mp.mp.dps}")
    print("tolerance_rel = 1e-8")
    only = sys.argv[1].split(",") if len(sys.argv) > 1 else None
    for name, sigma, means in INSTANCES:
        if only and name not in only:
            continue
        ms = [mp.mpf(m) for m in means]
        top = max(ms)
        gaps = [top - m for m in ms if m != top]
        for eps in EPS_LIST:
            c = c_local(eps)
            arm = Arm(sigma, c)
            t = t_general(arm, gaps)
            if len(gaps) == 1:
                t2 = t_two_arms(arm, gaps[0])
                rel = abs(t2 / t - 1)
                print(f"# {name} eps={eps}: two methods differ by {mp.nstr(rel, 3)}", file=sys.stderr)
                if rel > mp.mpf("1e-10"):
                    raise RuntimeError(f"{name} eps={eps}: methods disagree {t} {t2}")
            print(f"# {name} eps={eps}: {mp.nstr(t, 20)}", file=sys.stderr)
            print()
            print("[[case]]")
            print(f'instance = "{name}"')
            print(f"sigma = {sigma}")
            print("means = [" + ", ".join(means) + "]")
            print(f"eps = {eps}")
            print(f'value = "{mp.nstr(t, 25)}"')
            sys.stdout.flush()


if __name__ == "__main__":
    main()
