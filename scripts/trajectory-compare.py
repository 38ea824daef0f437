#!/usr/bin/env python3
"""Check that two dpbai binaries sample the same trajectories, run for run, byte for byte.

Each case is one `dpbai run ... --out FILE` (the per-run CSV: run, tau, recommendation, correct,
stopped, rounds); the two binaries must write identical files, or reject the case with the same
exit code and the same message. The grid covers every algorithm under both rule sets, on
Bernoulli and Gaussian instances (K = 2 .. 100, tied arms, starving instances with capped
runs), with every reading option of `dpbai run` (tie-break, challenger counts, IDS beta,
gauss-sigma, eq14-form, dpa-episodes, adap-leader-bonus, leader-counts, --step-by-step, beta,
user thresholds). A case an algorithm rejects (exit code 2 from both binaries alike) is counted
as rejected, not as a failure.

Usage (from the repository root):

    scripts/trajectory-compare.py --base-bin BASE_DPBAI [--bin target/release/dpbai]
        [--runs 20] [--max-steps 300000] [--quick] [--filter REGEX] [--jobs 2]

`--quick` runs the default options on every instance and each option on mu1 only. Exit code 0
when every case agrees, 1 otherwise (the differing cases are listed). Standard library only.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

ALGOS = ["ttucb", "ctb-tt", "gauss-ldp-tt", "adap-tt", "adap-tt-star", "dp-se", "dpa-tt"]
PRIVATE = {"ctb-tt", "gauss-ldp-tt", "adap-tt", "adap-tt-star", "dp-se"}


def mu_k(k):
    return [0.95] + [0.9] * (k - 2) + [0.5]


def bern(name, means):
    return name, ["--means", ",".join(str(m) for m in means)]


def gauss(name, means, sigma):
    return name, ["--means", ",".join(str(m) for m in means), "--family", "gaussian",
                  "--sigma", str(sigma)]


INSTANCES = [
    bern("mu1", mu_k(5)),
    bern("k2", [0.9, 0.1]),
    bern("k2-close", [0.55, 0.5]),
    bern("tied5", [0.75, 0.7, 0.7, 0.7, 0.7]),
    bern("mu5", [0.75, 0.53125, 0.375, 0.28125, 0.25]),
    bern("k7", [0.6, 0.55, 0.5, 0.45, 0.4, 0.35, 0.3]),
    bern("k20", mu_k(20)),
    gauss("gauss4", [1.0, 0.8, 0.8, 0.5], 0.5),
    gauss("gauss5", [0.5, 0.0, 0.0, -0.2, -0.5], 1.0),
]
# Instances the option sweep runs on (all of them without --quick would be slow).
OPTION_INSTANCES = ["mu1", "k7", "gauss4", "k2"]
LARGE = bern("k100", mu_k(100))

OPTIONS = [
    [],
    ["--tie-break", "uniform"],
    ["--challenger-counts", "local"],
    ["--ids-beta"],
    ["--gauss-sigma", "printed"],
    ["--eq14-form", "printed"],
    ["--dpa-episodes", "global"],
    ["--adap-leader-bonus", "eq3"],
    ["--adap-leader-bonus", "eq11-log-n"],
    ["--leader-counts", "global"],
    ["--adap-leader-bonus", "eq3", "--leader-counts", "global"],
    ["--step-by-step"],
    ["--beta", "0.3"],
    ["--tie-break", "uniform", "--ids-beta"],
    ["--challenger-counts", "local", "--beta", "0.7"],
    ["--threshold", "paper-cg"],
    ["--threshold", "log((1+log(t))/delta)/sigma^2"],
    ["--threshold", "2*log(4+log(na)) + 2*log(4+log(nb)) + log(K/delta) + ka + kb + gap"],
]


def cases(args):
    rx = re.compile(args.filter) if args.filter else None
    out = []
    for algo in ALGOS:
        for rules in ["paper", "reference"]:
            for eps in (["1", "0.1"] if algo in PRIVATE else [None]):
                todo = [(inst, []) for inst in INSTANCES]
                for opt in OPTIONS[1:]:
                    for inst in INSTANCES:
                        if inst[0] in (["mu1"] if args.quick else OPTION_INSTANCES):
                            todo.append((inst, opt))
                if not args.quick and eps in (None, "1"):
                    todo.append((LARGE, []))
                for (name, inst), opt in todo:
                    cmd = ["run", "--algo", algo, "--rules", rules, "--delta", "0.01"] + inst
                    if eps:
                        cmd += ["--eps", eps]
                    if algo == "gauss-ldp-tt":
                        cmd += ["--gamma", "0.1"]
                    runs = args.runs if name != "k100" else max(2, args.runs // 10)
                    cmd += ["--runs", str(runs), "--seed", "7",
                            "--max-steps", str(args.max_steps)] + opt
                    label = f"{algo} {rules} eps={eps} {name} {' '.join(opt)}".strip()
                    if rx is None or rx.search(label):
                        out.append((label, cmd))
    return out


def run_one(binary, cmd, tmp, tag):
    path = os.path.join(tmp, tag + ".csv")
    p = subprocess.run([binary] + cmd + ["--threads", "1", "--out", path],
                       capture_output=True, text=True)
    data = None
    if p.returncode == 0:
        with open(path, "rb") as f:
            data = f.read()
    err = p.stderr.strip().splitlines()[-1:] if p.returncode != 0 else []
    return p.returncode, err, data


def compare(base, new, case):
    label, cmd = case
    with tempfile.TemporaryDirectory() as tmp:
        b = run_one(base, cmd, tmp, "base")
        n = run_one(new, cmd, tmp, "new")
    if b != n:
        why = (f"exit {b[0]} vs {n[0]} {b[1]} {n[1]}" if b[0] != n[0] or b[1] != n[1]
               else "per-run records differ")
        return label, "differ", why
    return label, ("rejected" if b[0] != 0 else "same"), ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base-bin", required=True, help="the reference dpbai binary")
    ap.add_argument("--bin", default="target/release/dpbai", help="the binary checked")
    ap.add_argument("--runs", type=int, default=20, help="runs per case (>= 1)")
    ap.add_argument("--max-steps", type=int, default=300_000, help="cap per run (>= 1)")
    ap.add_argument("--quick", action="store_true", help="options on mu1 only")
    ap.add_argument("--filter", help="only cases whose label matches this regular expression")
    ap.add_argument("--jobs", type=int, default=2, help="cases run at once (>= 1)")
    args = ap.parse_args()
    for name in ("runs", "max_steps", "jobs"):
        if getattr(args, name) < 1:
            sys.exit(f"error: --{name.replace('_', '-')} {getattr(args, name)} is out of range "
                     "(>= 1)")
    for b in (args.base_bin, args.bin):
        if not os.access(b, os.X_OK):
            sys.exit(f"error: {b} is not an executable")
    todo = cases(args)
    counts = {"same": 0, "rejected": 0, "differ": 0}
    bad = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for label, status, why in ex.map(lambda c: compare(args.base_bin, args.bin, c), todo):
            counts[status] += 1
            if status == "differ":
                bad.append(f"{label}: {why}")
                print(f"DIFFER {label}: {why}", file=sys.stderr)
    print(f"{len(todo)} cases: {counts['same']} identical, {counts['rejected']} rejected alike, "
          f"{counts['differ']} differ")
    for line in bad:
        print("  " + line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
