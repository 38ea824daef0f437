#!/usr/bin/env python3
"""Checks that each evidence area's injected fault moves exactly the claims that declare it.

For the baseline and for each area of `DPBAI_INJECT_FAULT` (solver, special, mc, audit) this runs
`dpbai verify --json` in the current directory (a repository whose verify cache is full, so no
cell is computed), and compares:

- moved(area): claims whose result under the fault is `not checkable (error: …)` while the
  baseline's is not an error (so none of them can stay `confirmed`);
- declared(area): claims of the baseline (not an error, and run: not skipped) whose entry of
  verify/protocol.toml lists the area in `areas`.

It fails (exit 1) on any difference, naming the claims. The runs rewrite REPORT.md and figures/
of the directory: run it in a scratch clone. Standard library only (tomllib: Python >= 3.11,
else a line scan of the protocol file).

Usage: scripts/fault-areas.py [--bin target/release/dpbai] [--profile quick]
"""

import argparse
import glob
import json
import os
import re
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
    return {r["id"]: (r["verdict"], r["note"].startswith("error:")) for r in json.loads(out.stdout)
            if not r["note"].startswith("not run")}


def declared_areas(path):
    try:
        import tomllib
        with open(path, "rb") as f:
            return {c["id"]: set(c.get("areas", [])) for c in tomllib.load(f)["claim"]}
    except ModuleNotFoundError:
        text = open(path, encoding="utf-8").read()
        out = {}
        for block in text.split("[[claim]]")[1:]:
            cid = re.search(r'^id = "([^"]+)"', block, re.M).group(1)
            areas = re.search(r"^areas = \[(.*)\]", block, re.M).group(1)
            out[cid] = set(re.findall(r'"([^"]+)"', areas))
        return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/dpbai")
    ap.add_argument("--profile", default="quick")
    a = ap.parse_args()
    areas = {}
    for path in sorted(glob.glob("verify/protocol*.toml")):  # every paper's protocol
        areas.update(declared_areas(path))
    base = verdicts(a.bin, a.profile, None)
    clean = {c for c, (_, err) in base.items() if not err}
    if len(clean) != len(base):
        sys.exit("the baseline has claims made not checkable by an error: "
                 + ", ".join(sorted(set(base) - clean)))
    bad = False
    for area in AREAS:
        got = verdicts(a.bin, a.profile, area)
        moved = {c for c in clean if got.get(c, ("", False))[1]}
        confirmed_left = {c for c in moved if got[c][0] == "confirmed"}
        assert not confirmed_left, confirmed_left
        declared = {c for c in clean if area in areas.get(c, set())}
        print(f"{area}: {len(moved)} claims move, {len(declared)} declare it")
        if moved != declared:
            bad = True
            if moved - declared:
                print(f"  move but do not declare {area}: {', '.join(sorted(moved - declared))}")
            if declared - moved:
                print(f"  declare {area} but do not move: {', '.join(sorted(declared - moved))}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
