#!/usr/bin/env python3
"""Instructions per sample of every algorithm, measured with callgrind, as a Markdown table.

A figure is `(I(hi) - I(lo)) / (S(hi) - S(lo))`: `I(n)` is the number of instructions callgrind
counts (`valgrind --tool=callgrind`, event `Ir`, all threads) for
`dpbai run --runs n --seed 1 --threads 1`, `S(n)` the samples those runs draw (the sum of the
per-run `tau` of `--out`). The difference cancels what does not depend on the samples (start-up,
building the algorithm, the summary), so the figure is the engine's cost per sample on runs
`lo .. hi-1`, noise free. The default `lo = 2`, `hi = 12` is the figure the engine's speed
claims quote (TTUCB on mu1 = (0.95, 0.9, 0.9, 0.9, 0.5)).

The instances, for K >= 2 arms: mu1's shape, `mu(K) = (0.95, 0.9 x (K - 2), 0.5)` (one best arm
at 0.95, K - 2 tied arms at 0.9, one arm at 0.5; `mu(5)` is mu1), Bernoulli arms, delta = 0.01,
eps = 1 for the private algorithms, gamma = 0.1 for gauss-ldp-tt, paper rules.

Usage (from the repository root, after `cargo build --release`):

    scripts/callgrind-per-sample.py [--bin target/release/dpbai] [--base-bin OTHER_DPBAI]
        [--k 2,5,20,100] [--algo ttucb,...] [--runs K=LO:HI ...] [--max-steps K=N ...]
        [--csv FILE]

With `--base-bin` every row is measured for both binaries (columns `before`, `after` and their
ratio). `--runs 100=1:2` measures K = 100 on the runs 1 .. 1 only (a long instance under
callgrind); `--max-steps 100=2000000` caps those runs (the figure is then the cost per sample of
the first 2e6 samples of each run; the table says so). Standard library only.
"""

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile

ALGOS = ["ttucb", "ctb-tt", "gauss-ldp-tt", "adap-tt", "adap-tt-star", "dp-se", "dpa-tt", "dp-tt",
         "eb-tci"]
PRIVATE = {"ctb-tt", "gauss-ldp-tt", "adap-tt", "adap-tt-star", "dp-se", "dp-tt"}
COLLECTED = re.compile(r"==\d+== Collected : (\d+)")


def means(k):
    """mu(K) = (0.95, 0.9 x (K - 2), 0.5)."""
    return [0.95] + [0.9] * (k - 2) + [0.5]


def command(binary, algo, k, runs, max_steps, out):
    cmd = [binary, "run", "--algo", algo, "--means", ",".join(str(m) for m in means(k)),
           "--delta", "0.01", "--runs", str(runs), "--seed", "1", "--threads", "1",
           "--out", out]
    if algo in PRIVATE:
        cmd += ["--eps", "1"]
    if algo == "gauss-ldp-tt":
        cmd += ["--gamma", "0.1"]
    if max_steps:
        cmd += ["--max-steps", str(max_steps)]
    return cmd


def measure(binary, algo, k, runs, max_steps):
    """(instructions, samples) of one `dpbai run` under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "runs.csv")
        cmd = ["valgrind", "--tool=callgrind",
               "--callgrind-out-file=" + os.path.join(tmp, "callgrind.out")]
        cmd += command(binary, algo, k, runs, max_steps, out)
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"error: {' '.join(cmd)} failed:\n{p.stderr[-2000:]}")
        m = COLLECTED.findall(p.stderr)
        if not m:
            sys.exit(f"error: no 'Collected' line in callgrind's output of {' '.join(cmd)}")
        with open(out, newline="") as f:
            samples = sum(int(row["tau"]) for row in csv.DictReader(f))
        return int(m[-1]), samples


def per_sample(binary, algo, k, lo, hi, max_steps):
    i_lo, s_lo = measure(binary, algo, k, lo, max_steps)
    i_hi, s_hi = measure(binary, algo, k, hi, max_steps)
    if s_hi <= s_lo:
        sys.exit(f"error: {algo} K = {k}: runs {lo} -> {hi} draw no extra sample")
    return (i_hi - i_lo) / (s_hi - s_lo), s_hi - s_lo


def per_k(values, name, parse):
    out = {}
    for v in values:
        key, sep, val = v.partition("=")
        if not sep or not key.isdigit():
            sys.exit(f"error: --{name} {v!r} is not of the form K=VALUE")
        out[int(key)] = parse(val, v)
    return out


def parse_runs(val, whole):
    lo, sep, hi = val.partition(":")
    if not (sep and lo.isdigit() and hi.isdigit() and 1 <= int(lo) < int(hi)):
        sys.exit(f"error: --runs {whole!r}: want K=LO:HI with 1 <= LO < HI")
    return int(lo), int(hi)


def parse_cap(val, whole):
    if not val.isdigit() or int(val) < 1:
        sys.exit(f"error: --max-steps {whole!r}: want K=N with N >= 1")
    return int(val)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default="target/release/dpbai", help="the dpbai binary measured")
    ap.add_argument("--base-bin", help="a second binary, measured as the 'before' column")
    ap.add_argument("--k", default="2,5,20,100", help="numbers of arms, comma-separated (>= 2)")
    ap.add_argument("--algo", default=",".join(ALGOS), help="algorithms, comma-separated")
    ap.add_argument("--runs", action="append", default=[], help="K=LO:HI (default 2:12)")
    ap.add_argument("--max-steps", action="append", default=[], help="K=N (default: none)")
    ap.add_argument("--csv", help="also write the table to this CSV file")
    args = ap.parse_args()
    try:
        ks = [int(x) for x in args.k.split(",")]
    except ValueError:
        sys.exit(f"error: --k {args.k!r} is not a comma-separated list of integers")
    if any(k < 2 for k in ks):
        sys.exit(f"error: --k {args.k!r}: every K must be >= 2")
    algos = args.algo.split(",")
    bad = [a for a in algos if a not in ALGOS]
    if bad:
        sys.exit(f"error: --algo {bad[0]!r} is not one of {', '.join(ALGOS)}")
    runs = per_k(args.runs, "runs", parse_runs)
    caps = per_k(args.max_steps, "max-steps", parse_cap)
    bins = [("after", args.bin)] + ([("before", args.base_bin)] if args.base_bin else [])
    rows = []
    for algo in algos:
        for k in ks:
            lo, hi = runs.get(k, (2, 12))
            cap = caps.get(k)
            row = {"algo": algo, "K": k, "runs": f"{lo}->{hi}", "max_steps": cap or ""}
            for tag, b in bins:
                print(f"{algo} K = {k} ({tag}) ...", file=sys.stderr)
                row[tag], row["samples"] = per_sample(b, algo, k, lo, hi, cap)
            rows.append(row)
    cols = ["algo", "K", "runs", "max_steps", "samples"]
    cols += ["before", "after", "after/before"] if args.base_bin else ["after"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for row in rows:
        if args.base_bin:
            row["after/before"] = row["after"] / row["before"]
        cells = []
        for c in cols:
            v = row[c]
            cells.append(f"{v:.3f}" if c == "after/before" else
                         f"{v:.1f}" if isinstance(v, float) and v >= 10 else
                         f"{v:.3g}" if isinstance(v, float) else str(v))
        print("| " + " | ".join(cells) + " |")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=cols)
            w.writeheader()
            for row in rows:
                w.writerow({c: row[c] for c in cols})


if __name__ == "__main__":
    main()
