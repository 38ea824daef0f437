#!/usr/bin/env python3
"""Checks that each evidence area's injected fault moves exactly the claims whose check calls it.

For the baseline and for each area of `DPBAI_INJECT_FAULT` (solver, special, mc, audit) this runs
`dpbai verify --json` in the current directory (a repository whose verify cache is full, so no
cell is computed), and compares:

- moved(area): claims whose result under the fault is `not checkable (error: …)` while the
  baseline's is not an error (so none of them can stay `confirmed`);
- called(area): claims of the baseline (not an error, and run: not skipped) whose `areas` in
  the baseline's JSON contain the area: the areas their check called, which `dpbai verify`
  records as the check runs (src/fault.rs), not a list declared beside the claim.

It fails (exit 1) on any difference, naming the claims. The runs rewrite REPORT.md and figures/
of the directory: run it in a scratch clone. Standard library only.

Usage: scripts/fault-areas.py [--bin target/release/dpbai] [--profile quick]
"""

import argparse
import json
import os
import subprocess
import sys

AREAS = ["solver", "special", "mc", "audit"]


def verdicts(binary, profile, area):
    env = dict(os.environ)
    env.pop("DPBAI_INJECT_FAULT", None)
    if area:
        env["DPBAI_INJECT_FAULT"] = area
    out = subprocess.run([binary, "verify", "--profile", profile, "--json"], env=env,
                         check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return {r["id"]: (r["verdict"], r["note"].startswith("error:"), set(r["areas"]))
            for r in json.loads(out.stdout) if not r["note"].startswith("not run")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/dpbai")
    ap.add_argument("--profile", default="quick")
    a = ap.parse_args()
    base = verdicts(a.bin, a.profile, None)
    clean = {c for c, (_, err, _) in base.items() if not err}
    if len(clean) != len(base):
        sys.exit("the baseline has claims made not checkable by an error: "
                 + ", ".join(sorted(set(base) - clean)))
    bad = False
    for area in AREAS:
        got = verdicts(a.bin, a.profile, area)
        moved = {c for c in clean if got.get(c, ("", False, set()))[1]}
        confirmed_left = {c for c in moved if got[c][0] == "confirmed"}
        assert not confirmed_left, confirmed_left
        called = {c for c in clean if area in base[c][2]}
        print(f"{area}: {len(moved)} claims move, {len(called)} call it")
        if moved != called:
            bad = True
            if moved - called:
                print(f"  move but do not call {area}: {', '.join(sorted(moved - called))}")
            if called - moved:
                print(f"  call {area} but do not move: {', '.join(sorted(called - moved))}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
