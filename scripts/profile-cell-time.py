#!/usr/bin/env python3
"""Projects the paper profile's total cell time for two binaries (benches/README.md, "Paper
profile: total cell time").

The profile's samples per cell come from its shards (`paper-profile/shards/*.tar.gz`: one CSV
per cell and shard, `# spec {...}` then a row per run with its tau). Per algorithm, the
configurations with the most samples are timed (up to --per-algo of them, until --coverage of
the algorithm's samples): `dpbai run` with the cell's spec, `--threads 1`, R runs (R times the
cell's mean tau is about --target-samples), base and new alternating for --rounds rounds, the
fastest `elapsed_s` of each kept. A configuration's time is its cell samples times its ns per
sample; an algorithm's samples outside the timed configurations are charged at the timed ones'
sample-weighted mean. Both binaries must draw the same samples (checked).

    scripts/profile-cell-time.py --base-bin B --new-bin N [--jobs 2] [--csv rows.csv]
"""
import argparse
import collections
import csv
import glob
import json
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor


def cells(shards):
    agg = {}
    with tempfile.TemporaryDirectory() as d:
        for f in glob.glob(f"{shards}/*.tar.gz"):
            with tarfile.open(f) as t:
                t.extractall(d, filter="data")
        for f in glob.glob(f"{d}/**/*.csv", recursive=True):
            with open(f) as fh:
                fh.readline()
                spec = json.loads(fh.readline()[len("# spec "):])
                for key in ("runs", "seed", "engine"):
                    spec.pop(key, None)
                a = agg.setdefault(json.dumps(spec, sort_keys=True), [0, 0, spec])
                for line in fh:
                    p = line.split(",")
                    if len(p) >= 4 and p[1].isdigit():
                        a[0] += int(p[1])
                        a[1] += 1
    return list(agg.values())


def command(spec, runs):
    a = ["run", "--algo", spec["algo"], "--means", ",".join(repr(float(m)) for m in spec["means"]),
         "--delta", repr(spec["delta"]), "--runs", str(runs), "--seed", "1", "--threads", "1",
         "--json", "--max-steps", str(spec["max_steps"]), "--beta", repr(spec["beta"]),
         "--rules", spec["rules"], "--family", spec["family"]]
    for k in ("eps", "gamma", "sigma"):
        if spec.get(k) is not None:
            a += [f"--{k}", repr(spec[k])]
    if spec.get("threshold"):
        a += ["--threshold", spec["threshold"]["expr"]]
    for k, v in spec["readings"].items():
        if k == "ids-beta":
            a += ["--ids-beta"] if v == "true" else []
        else:
            a += [f"--{k}", v]
    return a


def main():
    ap = argparse.ArgumentParser(
        description="Projects the paper profile's total cell time for two binaries.")
    ap.add_argument("--base-bin", required=True)
    ap.add_argument("--new-bin", required=True)
    ap.add_argument("--shards", default="paper-profile/shards")
    ap.add_argument("--per-algo", type=int, default=14)
    ap.add_argument("--coverage", type=float, default=0.85)
    ap.add_argument("--target-samples", type=float, default=3e8)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--csv")
    o = ap.parse_args()
    found = cells(o.shards)
    if not found:
        print(f"error: no cell files in {o.shards}/*.tar.gz", file=sys.stderr)
        sys.exit(2)
    by = collections.defaultdict(list)
    for c in found:
        by[c[2]["algo"]].append(c)
    total = {algo: sum(c[0] for c in cs) for algo, cs in by.items()}
    chosen = []
    for algo, cs in by.items():
        cs.sort(key=lambda c: -c[0])
        acc = 0
        for c in cs[: o.per_algo]:
            if acc >= o.coverage * total[algo]:
                break
            acc += c[0]
            chosen.append(c)

    def timed(c):
        samples, runs, spec = c
        r = max(1, min(runs, round(o.target_samples * runs / samples)))
        best = {}
        for _ in range(o.rounds):
            for name, b in (("base", o.base_bin), ("new", o.new_bin)):
                p = subprocess.run([b] + command(spec, r), capture_output=True, text=True)
                if p.returncode != 0:
                    sys.exit(f"{name} failed on {spec}: {p.stderr.strip()[-300:]}")
                d = json.JSONDecoder().raw_decode(p.stdout)[0]
                if name not in best or d["elapsed_s"] < best[name][1]:
                    best[name] = (d["total_samples"], d["elapsed_s"])
        if best["base"][0] != best["new"][0]:
            sys.exit(f"the binaries drew different samples on {spec}")
        n = best["base"][0]
        print(f"{spec['algo']} {samples:.3e}: {1e9 * best['base'][1] / n:.2f} -> "
              f"{1e9 * best['new'][1] / n:.2f} ns per sample", file=sys.stderr, flush=True)
        return dict(algo=spec["algo"], cell_samples=samples, runs=r, timed_samples=n,
                    ns_base=1e9 * best["base"][1] / n, ns_new=1e9 * best["new"][1] / n,
                    spec=json.dumps(spec, sort_keys=True))

    with ThreadPoolExecutor(o.jobs) as ex:
        rows = list(ex.map(timed, chosen))
    if o.csv:
        with open(o.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    tb = tn = 0.0
    print("algo,samples,covered,base_s,new_s,ratio")
    for algo in sorted(total):
        rs = [r for r in rows if r["algo"] == algo]
        s = sum(r["cell_samples"] for r in rs)
        scale = total[algo] / s
        b = scale * sum(r["cell_samples"] * r["ns_base"] for r in rs) / 1e9
        n = scale * sum(r["cell_samples"] * r["ns_new"] for r in rs) / 1e9
        tb, tn = tb + b, tn + n
        print(f"{algo},{total[algo]:.4g},{s / total[algo]:.2f},{b:.0f},{n:.0f},{n / b:.3f}")
    print(f"total,,,{tb:.0f},{tn:.0f},{tn / tb:.3f}")


if __name__ == "__main__":
    main()
