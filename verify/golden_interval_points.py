#!/usr/bin/env python3
"""Golden values for the point enclosures of `dpbai::threshold::interval` (the proofs by dominance
rest on them): for each case, a function at a double `x`, computed with mpmath at 400 significant
digits, and rounded outward to doubles by mpmath: `floor` is the largest double <= the exact value,
`ceil` the smallest double >= it. A sound enclosure [lo, hi] of the point satisfies
  lo <= floor   and   ceil <= hi,
and where the value is exact (ln 1 = 0, log2 2^n = n, k(2^n) = n + 2, exp 0 = 1, sqrt 4 = 2,
integer powers), floor = ceil = the value, so the enclosure must be that point itself.

Cases: the exact points, then random doubles (seeded) of each function's domain, and the
expression `log(1 + log(n))` of the preset-like candidates at integer n.
Run:  python3 verify/golden_interval_points.py > tests/data/interval_points_golden.toml
"""
import math
import os
import random
import sys

import mpmath as mp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_cp_outward import ceil_double, floor_double  # noqa: E402

mp.mp.dps = 400


FUNCS = {
    "ln": lambda x: mp.log(x),
    "log2": lambda x: mp.log(x, 2),
    "exp": lambda x: mp.exp(x),
    "sqrt": lambda x: mp.sqrt(x),
    "k": lambda x: mp.log(x, 2) + 2,
    "sq": lambda x: x * x,
    "cube": lambda x: x * x * x,
    "log1plog": lambda x: mp.log(1 + mp.log(x)),
}


def cases():
    out = []
    exact = [("ln", 1.0), ("exp", 0.0), ("sqrt", 4.0), ("sqrt", 0.25), ("sqrt", 0.0),
             ("sqrt", 1.0), ("sq", 3.0), ("cube", 5.0), ("sq", 0.5), ("log1plog", 1.0)]
    for n in range(-20, 41):
        exact.append(("log2", 2.0 ** n))
        if n >= 0:
            exact.append(("k", 2.0 ** n))
    out += exact
    rnd = random.Random(20261204)
    for _ in range(60):
        x = 10 ** rnd.uniform(-5, 8)
        for f in ["ln", "log2", "sqrt"]:
            out.append((f, x))
        out.append(("k", 1 + x))
        out.append(("exp", rnd.uniform(-30, 30)))
        out.append(("sq", rnd.uniform(-1e3, 1e3)))
        out.append(("cube", rnd.uniform(-1e2, 1e2)))
        out.append(("log1plog", float(rnd.randint(1, 10 ** 7))))
    # Near the exact points: one ulp either side.
    for f, x in [("ln", 1.0), ("exp", 0.0), ("log2", 8.0), ("k", 16.0), ("sqrt", 4.0)]:
        for y in [math.nextafter(x, -math.inf), math.nextafter(x, math.inf)]:
            if f in ("k",) and y < 1:
                continue
            out.append((f, y))
    return out


def main():
    print("# Point values for the interval enclosures (verify/golden_interval_points.py, mpmath 400 digits).")
    print("# floor/ceil: the largest double <= and the smallest double >= the exact value.")
    for f, x in cases():
        v = FUNCS[f](mp.mpf(x))
        print("[[case]]")
        print(f'f = "{f}"')
        print(f"x = {x!r}")
        print(f"floor = {floor_double(v)!r}")
        print(f"ceil = {ceil_double(v)!r}")
        print()


if __name__ == "__main__":
    main()
