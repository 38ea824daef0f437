#!/usr/bin/env bash
# Times the README's install path for each git revision given (default: HEAD): in a fresh
# worktree with its own empty target/, `cargo build --release`, then right after it
# `pip install .` into a fresh venv. The extension should reuse what the build compiled (the
# library with its command line, dpbai::cli), so the second time is the extension's own cost.
# Usage: scripts/pip-install-timing.sh [REV ...]   (prints one line per revision; run the
# revisions to compare in one call, so that they share the machine's load)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)
work=$(mktemp -d)
trap 'cd "$root"; for d in "$work"/wt-*; do [ -d "$d" ] && git worktree remove --force "$d"; done; rm -rf "$work"' EXIT
[ $# -gt 0 ] || set -- HEAD
now() { python3 -c 'import time; print(time.time())'; }
for rev in "$@"; do
  sha=$(git rev-parse --short "$rev")
  wt="$work/wt-$sha"
  git worktree add -q --detach "$wt" "$rev"
  python3 -m venv "$work/venv-$sha"
  t0=$(now)
  (cd "$wt" && cargo build --release --quiet)
  t1=$(now)
  (cd "$wt" && "$work/venv-$sha/bin/pip" install --quiet --disable-pip-version-check .)
  t2=$(now)
  python3 -c "print(f'{\"$sha\"}: cargo build --release {$t1-$t0:.0f} s, then pip install . {$t2-$t1:.0f} s')"
done
