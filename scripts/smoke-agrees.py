#!/usr/bin/env python3
"""The smoke profile never contradicts the quick profile.

Usage: smoke-agrees.py SMOKE.json EXPECTED.toml [EXPECTED.toml ...]

SMOKE.json is `dpbai verify --profile smoke --json`; the expected files are the quick profile's
(`verify/expected.toml`, `verify/expected-bai25.toml`). A claim contradicts when one side
confirms it (`confirmed`, `confirmed_as_corrected`) and the other refutes it. Weaker evidence
(`inconclusive`, `not_checkable` in the smoke run) is not a contradiction: the smoke profile is a
slice of the quick grid at 20 runs per cell. Exit 1 on any contradiction.
"""
import json
import re
import sys

POSITIVE = {"confirmed", "confirmed_as_corrected"}


def expected(paths):
    table = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = re.match(r'^"([^"]+)"\s*=\s*"([^"]+)"', line.strip())
                if m:
                    table[m.group(1)] = m.group(2)
    return table


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        smoke = {r["id"]: r["verdict"] for r in json.load(f)}
    quick = expected(sys.argv[2:])
    contradictions = []
    for cid, v in sorted(smoke.items()):
        q = quick.get(cid)
        if q is None:
            continue
        if (v in POSITIVE and q == "refuted") or (v == "refuted" and q in POSITIVE):
            contradictions.append(f"{cid}: smoke {v}, quick {q}")
    same = sum(1 for cid, v in smoke.items() if quick.get(cid) == v)
    weaker = sum(
        1
        for cid, v in smoke.items()
        if cid in quick and quick[cid] != v and v in ("inconclusive", "not_checkable")
    )
    print(
        f"smoke: {len(smoke)} verdicts, {same} as in the quick profile, {weaker} weaker "
        f"(inconclusive or not checkable), {len(contradictions)} contradicting"
    )
    for c in contradictions:
        print("  " + c, file=sys.stderr)
    sys.exit(1 if contradictions else 0)


if __name__ == "__main__":
    main()
