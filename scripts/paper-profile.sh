#!/usr/bin/env bash
# Regenerates paper-profile/ (`dpbai verify --profile paper`) in pieces that survive between
# machines and sessions: the profile is split into the 13 shards of the cluster plan
# (`dpbai cluster slurm -- verify --profile paper`, about one hour of one core each), and every
# finished shard is stored, compressed, as paper-profile/shards/shard-I-of-13.tar.gz (its cell
# shard files, content-addressed by the digest of each cell's full specification).
#
#   scripts/paper-profile.sh status        which shards are stored
#   scripts/paper-profile.sh run I [J …]   compute and store shards I, J, … (skips stored ones)
#   scripts/paper-profile.sh assemble      with all 13 stored: unpack them and write
#                                          paper-profile/REPORT.md and figures (then run
#                                          `dpbai verify --profile paper --out-dir paper-profile --check`)
#
# A stored shard whose cells no longer match the code (another engine fingerprint, a changed
# cell) is simply not used: `verify` recomputes those cells. THREADS (default: all cores) sets the
# threads of a shard; DPBAI the binary (default: target/release/dpbai, built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
N=13
STORE=paper-profile/shards
CACHE=paper-profile/verify-cache/paper
BIN=${DPBAI:-target/release/dpbai}
THREADS=${THREADS:-$(nproc)}

stored() { [ -e "$STORE/shard-$1-of-$N.tar.gz" ]; }

binary() {
  if [ ! -x "$BIN" ]; then cargo build --release --bin dpbai; fi
}

unpack() {
  mkdir -p "$CACHE"
  for f in "$STORE"/shard-*-of-$N.tar.gz; do
    [ -e "$f" ] && tar xzf "$f" -C "$CACHE"
  done
  return 0
}

case "${1:-status}" in
  status)
    n=0
    for ((i = 0; i < N; i++)); do
      if stored "$i"; then echo "shard $i/$N stored"; n=$((n + 1)); else echo "shard $i/$N missing"; fi
    done
    echo "$n of $N shards stored"
    ;;
  run)
    shift
    [ $# -gt 0 ] || { echo "usage: $0 run I [J …] (0 <= I < $N)" >&2; exit 2; }
    binary
    unpack
    for i in "$@"; do
      if ! [[ "$i" =~ ^[0-9]+$ ]] || [ "$i" -ge "$N" ]; then
        echo "invalid shard $i: must be an integer in [0, $N)" >&2
        exit 2
      fi
      if stored "$i"; then echo "shard $i/$N already stored"; continue; fi
      start=$(date +%s)
      "$BIN" verify --profile paper --shard "$i/$N" --threads "$THREADS" --out-dir paper-profile
      mkdir -p "$STORE"
      (cd "$CACHE" && find . -maxdepth 1 -name "*.shard-$i-of-$N.csv" -printf '%P\n' | sort |
        tar --owner=0 --group=0 --numeric-owner --mtime=@0 -cf - -T -) |
        gzip -n >"$STORE/shard-$i-of-$N.tar.gz.part"
      mv "$STORE/shard-$i-of-$N.tar.gz.part" "$STORE/shard-$i-of-$N.tar.gz"
      echo "shard $i/$N stored in $(($(date +%s) - start)) s"
    done
    ;;
  assemble)
    for ((i = 0; i < N; i++)); do
      stored "$i" || { echo "shard $i/$N is not stored: run \`$0 run $i\` first" >&2; exit 2; }
    done
    binary
    unpack
    "$BIN" verify --profile paper --out-dir paper-profile
    ;;
  *)
    echo "usage: $0 status | run I [J …] | assemble" >&2
    exit 2
    ;;
esac
