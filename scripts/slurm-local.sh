# A single-node Slurm on this machine, for scripts/slurm-e2e.sh and
# scripts/slurm-spread.sh (source it; needs root on Debian).
#
#   slurm_local_start WORK   installs slurm-wlm and munge if missing; starts munged, slurmctld
#                            and slurmd from WORK/slurm.conf (generated: proctrack/linuxproc,
#                            task/none, select/cons_tres, the node's real CPU count and memory;
#                            pid, spool, state and log files under WORK); exports SLURM_CONF.
#   slurm_local_stop         stops the daemons it started, by the pids in their pid files.
#   slurm_local_wait_queue S waits (at most S seconds) until no job is queued.

slurm_local_start() {
  SLURM_LOCAL_WORK=$1
  local work=$1
  if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    echo "slurm-local: installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
  fi
  mkdir -p "$work"/run "$work"/spool "$work"/state "$work"/log
  # munged with its own key, socket and pid file.
  dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
  chmod 400 "$work/munge.key"
  munged --force --key-file="$work/munge.key" --socket="$work/munge.socket" \
    --pid-file="$work/run/munged.pid" --log-file="$work/log/munged.log" \
    --seed-file="$work/munge.seed"
  local host cpus mem_mb state=""
  host=$(hostname -s)
  cpus=$(nproc)
  mem_mb=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024))
  cat >"$work/slurm.conf" <<CONF
ClusterName=dpbailocal
SlurmctldHost=$host
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge.socket
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmdSpoolDir=$work/spool
StateSaveLocation=$work/state
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$work/slurm.conf"
  slurmctld -f "$SLURM_CONF"
  slurmd -f "$SLURM_CONF"
  for _ in $(seq 120); do
    state=$(sinfo -h -o %t 2>/dev/null || true)
    case "$state" in idle* | mix* | alloc*) break ;; esac
    sleep 0.5
  done
  case "$state" in
    idle* | mix* | alloc*) ;;
    *)
      echo "slurm-local: node not up (sinfo: '$state')" >&2
      return 1
      ;;
  esac
  echo "slurm-local: single-node Slurm up on $host, $cpus CPUs (munged $(cat "$work/run/munged.pid"), slurmctld $(cat "$work/run/slurmctld.pid"), slurmd $(cat "$work/run/slurmd.pid"))"
}

slurm_local_stop() {
  local work=${SLURM_LOCAL_WORK:-}
  [ -n "$work" ] || return 0
  local name f pid
  for name in slurmd slurmctld munged; do
    f="$work/run/$name.pid"
    if [ -s "$f" ]; then
      pid=$(cat "$f")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$f"
    fi
  done
}

slurm_local_wait_queue() {
  local limit=$1
  for _ in $(seq $((2 * limit))); do
    [ -z "$(squeue -h -o %i)" ] && return 0
    sleep 0.5
  done
  echo "slurm-local: jobs still queued after $limit s: $(squeue -h)" >&2
  return 1
}
