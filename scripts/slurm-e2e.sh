#!/usr/bin/env bash
# End-to-end test of `dpbai cluster` on a real single-node Slurm.
#
# As root on Debian: installs slurm-wlm and munge if missing; starts munged, slurmctld and slurmd
# from a slurm.conf generated in a temporary folder (the node's real CPU count); writes a plan for
# the quick profile with a reduced --runs as a job array of TASKS tasks; submits it and cancels
# task 2 on purpose; checks that `dpbai cluster status` reports it and recovers it with
# `dpbai cluster resubmit`; compares the assembled REPORT.md, REPORT-BAI25.md and figures/ (with
# its folder per paper) byte for byte with a local run; stops the daemons it started, by pid,
# whatever happens.
#
# Environment: SLURM_E2E_RUNS (default 8), SLURM_E2E_TASKS (default 4, at least 3),
# SLURM_E2E_KEEP=1 keeps the temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
runs=${SLURM_E2E_RUNS:-8}
tasks=${SLURM_E2E_TASKS:-4}
started_at=$(date +%s)
say() { echo "slurm-e2e [$(($(date +%s) - started_at)) s]: $*"; }
fail() { echo "slurm-e2e: FAILED: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "must run as root (it installs packages and starts daemons)"
[ "$tasks" -ge 3 ] || fail "SLURM_E2E_TASKS=$tasks: must be at least 3 (task 2 is cancelled)"
if [ ! -x target/release/dpbai ]; then
  cargo build --release
fi
# shellcheck source=scripts/slurm-local.sh
. scripts/slurm-local.sh
work=$(mktemp -d /tmp/dpbai-slurm-e2e.XXXXXX)
chmod 700 "$work"
finish() {
  local rc=$?
  slurm_local_stop
  if [ "$rc" != 0 ]; then
    for f in "$work"/log/*.log "$work"/cluster/logs/*.out; do
      [ -f "$f" ] && { echo "--- $f (tail)"; tail -n 15 "$f"; }
    done
  fi
  if [ "${SLURM_E2E_KEEP:-0}" = 1 ]; then
    echo "slurm-e2e: kept $work"
  else
    rm -rf "$work"
  fi
  exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT TERM
slurm_local_start "$work"

# The plan: dpbai from PATH, so that the scripts name no path at all.
export PATH="$repo/target/release:$PATH"
plan=$work/cluster
dpbai cluster slurm --dir "$plan" --tasks "$tasks" --time 10 -- verify --profile quick --runs "$runs"
for f in task.sh assemble.sh submit.sh; do
  if grep -n -F -e "$work" -e "$repo" -e /tmp -e /root "$plan/$f"; then
    fail "$f names a path of this machine"
  fi
done

wait_queue() { slurm_local_wait_queue 300 || fail "jobs did not finish"; }

bash "$plan/submit.sh"
array=$(awk '$1 == "tasks" {print $2; exit}' "$plan/jobs.txt")
scancel "${array}_2"
say "submitted array $array; cancelled task ${array}_2 on purpose"
status=$(dpbai cluster status --dir "$plan")
echo "$status"
echo "$status" | grep -Eq '^[0-9]+ +(running|pending) ' || fail "status shows no queued task (squeue)"
wait_queue
status=$(dpbai cluster status --dir "$plan")
echo "$status"
echo "$status" | grep -Eq '^2 +(missing|failed) ' || fail "status does not report task 2 as missing or failed"
[ "$(echo "$status" | grep -Ec '^[0-9]+ +done ')" = $((tasks - 1)) ] || fail "status: not all other tasks done"
[ ! -e "$plan/REPORT.md" ] || fail "REPORT.md assembled although task 2 was cancelled"

dpbai cluster resubmit --dir "$plan"
wait_queue
status=$(dpbai cluster status --dir "$plan")
echo "$status"
echo "$status" | tail -n 1 | grep -q "^done $tasks, .*REPORT.md written" ||
  fail "after resubmit: not all tasks done or REPORT.md not written (see logs/assemble.out)"
say "cluster run assembled; now the local run"

local_dir=$work/local
mkdir -p "$local_dir"
dpbai verify --profile quick --runs "$runs" --out-dir "$local_dir" >"$work/local.out" 2>&1 ||
  { tail -n 20 "$work/local.out"; fail "local run failed"; }
for r in REPORT.md REPORT-BAI25.md; do
  cmp "$local_dir/$r" "$plan/$r" || fail "$r differs from the local run"
done
grep -q "| $runs |" "$plan/REPORT.md" || fail "REPORT.md does not record --runs $runs"
# figures/ holds a folder per paper (figures/bai25/): compared file by file, both ways.
diff -r -q "$local_dir/figures" "$plan/figures" || fail "figures/ differs from the local run"
n=$(find "$local_dir/figures" -type f | wc -l)
[ "$n" -gt 0 ] || fail "the local run wrote no figures"
say "done"
echo "slurm-e2e: the assembled REPORT.md, REPORT-BAI25.md and figures/ ($n files) equal the local run byte for byte (quick profile, --runs $runs, $tasks tasks, task 2 cancelled and resubmitted)"
