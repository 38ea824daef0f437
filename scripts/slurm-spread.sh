#!/usr/bin/env bash
# Issue 14: predicted against measured task times of a `dpbai cluster slurm` plan of the paper
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
trap 'slurm_local_stop; rm -rf "$work"' EXIT
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
python3 - "$plan" "$tasks" <<'PY'
import json, re, sys, statistics
plan, n = sys.argv[1], int(sys.argv[2])
pred = json.load(open(f"{plan}/plan.json"))["predicted_task_s"]
meas = []
for i in range(n):
    text = open(f"{plan}/logs/task-{i}.out").read()
    meas.append(float(re.search(r"cells in ([0-9.]+) s", text).group(1)))
def spread(v):
    return (max(v) - min(v)) / (sum(v) / len(v))
print("task  predicted_s  measured_s")
for i, (p, m) in enumerate(zip(pred, meas)):
    print(f"{i:<5} {p:11.1f}  {m:10.1f}")
print(f"predicted: median {statistics.median(pred):.1f} s, spread (max-min)/mean {100*spread(pred):.2f}%")
print(f"measured:  median {statistics.median(meas):.1f} s, spread (max-min)/mean {100*spread(meas):.2f}%, "
      f"sd/mean {100*statistics.stdev(meas)/statistics.mean(meas):.2f}%")
PY
