#!/usr/bin/env python3
"""Compare the divan benches of two commits in one interleaved run.

The machine is shared and noisy, so a speed claim is a ratio measured in one run: this script
builds the benches of a base commit (in the git worktree `target/bench-base`, kept between calls
with its own target directory seeded from `target/release`, so only the dpbai crate is
recompiled) and of the working tree, then runs them
alternately for a number of rounds (base first on even rounds, new first on odd ones) and
prints, per bench, two ratios new/base:

- `min ratio`: fastest sample of all rounds (the least disturbed measurement);
- `median ratio`: median over rounds of each round's median sample.

A ratio below 1 means the working tree is faster. A bench with an item counter (divan's
`ItemsCount`, e.g. the samples of a run) also gets its cost per item of both trees, `base ns` and
`new ns`: the median over rounds of each round's median time per item.

`--new-bench-code` builds the base with the working tree's files `benches/NAME.rs` of the bench
targets run (the library stays the base's), so that a bench added since the base is compared
too; it fails if that code does not build against the base's library.

Usage (from the repository root):

    scripts/bench-compare.py BASE_REV [--rounds 5] [--sample-count 10] [--new-bench-code]
                             [--bench bandit[:filter,filter...]] ...

`--bench` may repeat; a filter is a divan name filter (a regular expression), e.g.
`--bench bandit:ttucb$,dp_se --bench complexity:k5`. Without `--bench`, every bench target runs
with no filter (long: prefer filters). `--csv FILE` also writes the table for pandas.
Standard library only.
"""

import argparse
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

UNIT = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
TIME = r"([\d.]+) (ns|µs|us|ms|s)"
ROW = re.compile(r"^([│ ]*)[├╰]─ (\S+)\s+" + TIME + r"\s+│\s+" + TIME + r"\s+│\s+" + TIME)
GROUP = re.compile(r"^([│ ]*)[├╰]─ (\S+)[\s│]*$")
ITEMS = r"([\d.]+) ([KMGT]?)item/s"
THROUGHPUT = re.compile(r"^[│ ]+" + ITEMS + r"\s+│\s+" + ITEMS + r"\s+│\s+" + ITEMS)
PREFIX = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def parse_divan(text):
    """Map 'group/…/bench' to (fastest, median, median items per second or None) from divan's
    tree output (seconds; the items from the throughput line under a bench with a counter)."""
    result, stack, last = {}, [], None
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            depth = len(m.group(1)) // 3
            stack = stack[:depth] + [m.group(2)]
            fastest = float(m.group(3)) * UNIT[m.group(4)]
            median = float(m.group(7)) * UNIT[m.group(8)]
            last = "/".join(stack)
            result[last] = (fastest, median, None)
            continue
        m = THROUGHPUT.match(line)
        if m and last is not None:
            result[last] = result[last][:2] + (float(m.group(5)) * PREFIX[m.group(6)],)
            last = None
            continue
        last = None
        m = GROUP.match(line)
        if m:
            depth = len(m.group(1)) // 3
            stack = stack[:depth] + [m.group(2)]
    return result


def bench_executables(tree, target_dir, benches):
    """Build the named bench targets in `tree` and return {bench: executable path}."""
    cmd = ["cargo", "bench", "--no-run", "--message-format=json"]
    for b in benches:
        cmd += ["--bench", b]
    env = dict(os.environ, CARGO_TARGET_DIR=target_dir)
    out = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"error: building the benches in {tree} failed:\n{out.stderr[-2000:]}")
    exes = {}
    for line in out.stdout.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        target = msg.get("target", {})
        if msg.get("reason") == "compiler-artifact" and "bench" in target.get("kind", []):
            if msg.get("executable"):
                exes[target["name"]] = msg["executable"]
    missing = [b for b in benches if b not in exes]
    if missing:
        sys.exit(f"error: no bench executable for {missing} in {tree}")
    return exes


def all_bench_names(root):
    return sorted(f[:-3] for f in os.listdir(os.path.join(root, "benches")) if f.endswith(".rs"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base", help="the base commit (any git revision)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5, >= 1)")
    ap.add_argument("--sample-count", type=int, default=10, help="divan samples per bench (>= 1)")
    ap.add_argument("--bench", action="append", default=[], help="NAME[:filter,filter...]")
    ap.add_argument("--new-bench-code", action="store_true",
                    help="build the base with the working tree's bench files")
    ap.add_argument("--csv", help="also write the table to this CSV file")
    args = ap.parse_args()
    if args.rounds < 1:
        sys.exit(f"error: --rounds {args.rounds} is out of range (>= 1)")
    if args.sample_count < 1:
        sys.exit(f"error: --sample-count {args.sample_count} is out of range (>= 1)")

    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True,
                          text=True, check=True).stdout.strip()
    known = all_bench_names(root)
    plan = {}
    for spec in args.bench or known:
        name, _, filters = spec.partition(":")
        if name not in known:
            sys.exit(f"error: --bench {name!r} is not a bench target (one of {', '.join(known)})")
        plan[name] = [f for f in filters.split(",") if f]
    target_dir = os.path.join(root, "target")
    # Resolve the revision here: inside the base worktree, `HEAD~1` would name another commit.
    rev = subprocess.run(["git", "rev-parse", "--verify", "-q", args.base + "^{commit}"], cwd=root,
                         capture_output=True, text=True)
    if rev.returncode != 0:
        sys.exit(f"error: base {args.base!r} is not a commit of this repository")
    base_commit = rev.stdout.strip()

    # A fixed path, kept between calls, with its own target directory: cargo names the dpbai
    # artifacts of both trees alike, so a shared target/ would overwrite one build with the
    # other. The first call seeds it with a copy of target/release (the dependencies).
    base_tree = os.path.join(target_dir, "bench-base")
    base_target = os.path.join(base_tree, "target")
    if os.path.isdir(base_tree):
        subprocess.run(["git", "checkout", "-q", "--detach", base_commit], cwd=base_tree, check=True)
    else:
        subprocess.run(["git", "worktree", "add", "--detach", "-q", base_tree, base_commit],
                       cwd=root, check=True)
        release = os.path.join(target_dir, "release")
        if os.path.isdir(release):
            print("seeding the base build with a copy of target/release ...", file=sys.stderr)
            shutil.copytree(release, os.path.join(base_target, "release"), symlinks=True,
                            ignore=shutil.ignore_patterns("bench-base"))
    print(f"building base {args.base} (worktree {base_tree}) ...", file=sys.stderr)
    if args.new_bench_code:
        base = build_with_new_bench_code(root, base_tree, base_target, base_commit, list(plan))
    else:
        base = bench_executables(base_tree, base_target, list(plan))
    print("building the working tree ...", file=sys.stderr)
    new = bench_executables(root, target_dir, list(plan))
    samples = {}
    for r in range(args.rounds):
        order = (("base", base), ("new", new)) if r % 2 == 0 else (("new", new), ("base", base))
        for name, filters in plan.items():
            for tag, exes in order:
                print(f"round {r + 1}/{args.rounds}: {name} ({tag})", file=sys.stderr)
                out = subprocess.run(
                    [exes[name], "--bench", "--sample-count", str(args.sample_count)] + filters,
                    capture_output=True, text=True)
                if out.returncode != 0:
                    sys.exit(f"error: bench {name} ({tag}) failed:\n{out.stderr[-2000:]}")
                for key, value in parse_divan(out.stdout).items():
                    samples.setdefault((name, key), {}).setdefault(tag, []).append(value)

    rows = []
    for (name, key), by_tag in sorted(samples.items(), key=lambda kv: natural(kv[0])):
        if "base" not in by_tag or "new" not in by_tag:
            continue
        fmin = min(x[0] for x in by_tag["new"]) / min(x[0] for x in by_tag["base"])
        fmed = (statistics.median(x[1] for x in by_tag["new"])
                / statistics.median(x[1] for x in by_tag["base"]))
        ns = [ns_per_item(by_tag[tag]) for tag in ("base", "new")]
        rows.append((f"{name}::{key}", fmin, fmed, len(by_tag["new"]), ns[0], ns[1]))
    if not rows:
        sys.exit("error: no bench matched in both trees (check the filters)")
    print(f"base {args.base} ({base_commit[:10]}), {args.rounds} rounds of "
          f"{args.sample_count} samples; ratio = new / base; ns = median time per item")
    print(f"{'bench':50s} {'min ratio':>9s} {'median ratio':>12s} {'base ns':>10s} {'new ns':>10s}")
    for bench, fmin, fmed, _, base_ns, new_ns in rows:
        print(f"{bench:50s} {fmin:9.3f} {fmed:12.3f} {fmt_ns(base_ns):>10s} {fmt_ns(new_ns):>10s}")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["bench", "min_ratio", "median_ratio", "base_ns_per_item",
                        "new_ns_per_item", "rounds", "base"])
            for bench, fmin, fmed, n, base_ns, new_ns in rows:
                w.writerow([bench, f"{fmin:.4f}", f"{fmed:.4f}", fmt_ns(base_ns),
                            fmt_ns(new_ns), n, base_commit])


def natural(name_key):
    """Sort key: numbers in a bench path (divan's `args`, e.g. `by_k/ttucb/20`) by value."""
    return [[int(t) if t.isdigit() else t for t in re.split(r"(\d+)", part)] for part in name_key]


def ns_per_item(rounds):
    """Median over rounds of the median time per item, in ns (None without an item counter)."""
    if any(x[2] is None for x in rounds):
        return None
    return statistics.median(1e9 / x[2] for x in rounds)


def fmt_ns(v):
    return "" if v is None else f"{v:.4g}"


def build_with_new_bench_code(root, base_tree, base_target, base_commit, benches):
    """Build `benches` in the base tree from the working tree's `benches/NAME.rs`, then put the
    base's own files back (or remove those the base lacks), so the worktree stays clean."""
    files = [os.path.join("benches", b + ".rs") for b in benches]
    tracked = set(subprocess.run(["git", "ls-tree", "--name-only", base_commit, "--"] + files,
                                 cwd=root, capture_output=True, text=True,
                                 check=True).stdout.split())
    for f in files:
        shutil.copyfile(os.path.join(root, f), os.path.join(base_tree, f))
    try:
        return bench_executables(base_tree, base_target, benches)
    finally:
        for f in files:
            if f in tracked:
                subprocess.run(["git", "checkout", "-q", base_commit, "--", f], cwd=base_tree,
                               check=True)
            else:
                os.remove(os.path.join(base_tree, f))


if __name__ == "__main__":
    try:
        main()
    except subprocess.CalledProcessError as e:
        sys.exit(f"error: `{' '.join(e.cmd)}` failed with exit code {e.returncode}")
