#!/usr/bin/env bash
# Predicted against measured task times of a `dpbai cluster slurm` plan of the paper
# profile, on a local single-node Slurm (root, Debian; see scripts/slurm-local.sh). Runs only the
# job array (no assembly) with a reduced --runs.
#
#   scripts/slurm-spread.sh [RUNS [TASKS]]     (defaults 64 and 16)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
runs=${1:-64}
tasks=${2:-16}
[ "$(id -u)" = 0 ] || { echo "slurm-spread: must run as root" >&2; exit 1; }
[ -x target/release/dpbai ] || cargo build --release
# shellcheck source=scripts/slurm-local.sh
. scripts/slurm-local.sh
work=$(mktemp -d /tmp/dpbai-slurm-spread.XXXXXX)
trap 'slurm_local_stop; [ "${SLURM_SPREAD_KEEP:-0}" = 1 ] && echo "kept $work" || rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
slurm_local_start "$work"
export PATH="$repo/target/release:$PATH"
plan=$work/plan
dpbai cluster slurm --dir "$plan" --tasks "$tasks" -- verify --profile paper --runs "$runs"
mkdir -p "$plan/logs"
(cd "$plan" && sbatch --parsable --array=0-$((tasks - 1)) task.sh >/dev/null)
started=$(date +%s)
slurm_local_wait_queue 7200
echo "job array of $tasks tasks finished in $(($(date +%s) - started)) s wall on $(nproc) CPUs"
python3 - "$plan" "$tasks" "$runs" <<'PY'
import glob, json, math, os, re, sys, statistics
plan, n, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
pred = json.load(open(f"{plan}/plan.json"))["predicted_task_s"]
meas = []
for i in range(n):
    text = open(f"{plan}/logs/task-{i}.out").read()
    meas.append(float(re.search(r"cells in ([0-9.]+) s", text).group(1)))
# Load-independent work of every task: the samples its runs drew, times the cost model's ns per
# sample of the algorithm (ns_per_sample in src/cli/cluster.rs; DPA-TT with global episodes:
# DPA_GLOBAL_NS_PER_SAMPLE).
NS = {"ttucb": 185, "ctb-tt": 125, "gauss-ldp-tt": 125, "adap-tt": 12, "adap-tt-star": 12,
      "dp-se": 1.5, "dpa-tt": 50, "dpa-tt-global": 0.02}
work = [0.0] * n
cells = {}  # key -> per-run costs (all tasks)
for path in glob.glob(f"{plan}/verify-cache/paper/*.shard-*-of-{n}.csv"):
    name = os.path.basename(path)
    key, i = re.match(r"(.*)\.shard-(\d+)-of-\d+\.csv$", name).groups()
    algo = key.split("_")[1]
    ns = NS[algo]
    for line in open(path):
        f = line.strip().split(",")
        if line.startswith("#") or f[0] == "run" or len(f) < 2:
            continue
        c = int(f[1]) * ns * 1e-9
        work[int(i)] += c
        cells.setdefault(key, []).append(c)
def spread(v):
    return (max(v) - min(v)) / (sum(v) / len(v))
print("task  predicted_s  measured_s  work_s")
for i, (p, m, w) in enumerate(zip(pred, meas, work)):
    print(f"{i:<5} {p:11.1f}  {m:10.1f}  {w:6.1f}")
print(f"predicted: median {statistics.median(pred):.1f} s, spread (max-min)/mean {100*spread(pred):.2f}%")
print(f"measured wall: median {statistics.median(meas):.1f} s, spread (max-min)/mean {100*spread(meas):.2f}%, "
      f"sd/mean {100*statistics.stdev(meas)/statistics.mean(meas):.2f}%")
print(f"measured work (samples x ns/sample, load-independent): median {statistics.median(work):.1f} s, "
      f"spread {100*spread(work):.2f}%, sd/mean {100*statistics.stdev(work)/statistics.mean(work):.2f}%")
# Extrapolation to the full paper profile (1000 runs, 10 000 for TTUCB) on n tasks: a task draws
# k = runs_full/n runs of every cell; its work has mean sum k*m_c and variance sum k*v_c, with m_c
# and v_c the mean and variance of a run's cost in cell c (measured here).
mean_full = var_full = 0.0
for key, c in cells.items():
    full = 10000 if key.split("_")[1] == "ttucb" else 1000
    k = full / n
    mean_full += k * statistics.mean(c)
    var_full += k * statistics.variance(c)
sd = math.sqrt(var_full)
print(f"full paper profile on {n} tasks, from these runs: work per task {mean_full:.0f} s, sd/mean "
      f"{100*sd/mean_full:.2f}% (random run lengths; expected (max-min)/mean of {n} tasks about "
      f"{100*3.5*sd/mean_full:.1f}%, plus the remainder runs the plan predicts)")
PY
