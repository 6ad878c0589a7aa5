#!/usr/bin/env bash
# Issue 25's acceptance figures for weft shrink: a windowed Chord (CHORD_FIX=0) and Raft (RAFT_FIX=0) hit of the
# example campaign configs, each shrunk live; prints the deviations kept (at most 10 % wanted), the runs, the wall
# time and the load, then re-runs the minimal plan twice with the report's own `rerun:` command and compares the
# recordings' sha256 with minimal.weftlog's and the checker's verdict. Prints figures, asserts nothing (the time
# depends on the machine and its load; docs/shrinking.md has the figures measured here).
# Usage: bench/shrink-acceptance.sh [CHORD_SEED [RAFT_SEED [JOBS]]]   (defaults 3, 3, 2; writes only under target/)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
chord_seed=${1:-3}
raft_seed=${2:-3}
jobs=${3:-2}
out=$PWD/target/bench/shrink
rm -rf "$out"
mkdir -p "$out/bin"
ln -sf "$PWD/weft" "$out/bin/weft" # the report's commands say `weft`
export PATH="$out/bin:$PATH"
weft --version >/dev/null # builds the launcher and the shim on first use

one() { # NAME CONFIG CELL SEED
  local dir=$out/$1
  echo "== $1: $2 --cell $3 --seed $4 (load before: $(cut -d' ' -f1-3 /proc/loadavg))"
  local start=$SECONDS
  weft shrink --config "$2" --seed "$4" --cell "$3" --jobs "$jobs" --out "$dir" 2>"$dir.progress" || {
    echo "weft shrink exited $?: $(tail -1 "$dir.progress")"; return; }
  echo "   $(grep '^plan: ' "$dir/report.txt")   $(grep '^runs: ' "$dir/report.txt")   $(grep '^time: ' "$dir/report.txt")   (load after: $(cut -d' ' -f1-3 /proc/loadavg), $((SECONDS - start)) s wall)"
  awk '/^plan: /{printf "   kept %.2f %% of the deviations\n", 100 * $2 / $(NF)}' "$dir/report.txt"
  echo "   $(grep '^invariant: ' "$dir/report.txt")"
  local rerun check
  rerun=$(sed -n 's/^rerun: //p' "$dir/report.txt")
  check=$(sed -n 's/^check: //p' "$dir/report.txt")
  for i in 1 2; do
    (eval "${rerun//rerun.weftlog/rerun$i.weftlog}") >/dev/null 2>&1 || true
    echo "   rerun $i: $(sha256sum < "$dir/rerun$i.weftlog" | cut -c1-16)…  $(eval "${check//rerun.weftlog/rerun$i.weftlog}" | grep -m1 '✗' | sed 's/^ *//')"
  done
  echo "   minimal: $(sha256sum < "$dir/minimal.weftlog" | cut -c1-16)…  $(cmp -s "$dir/rerun1.weftlog" "$dir/rerun2.weftlog" && cmp -s "$dir/minimal.weftlog" "$dir/rerun1.weftlog" && echo 'all three byte-identical' || echo 'DIFFERENT')"
}

one chord deploy/campaigns/chord-windowed.json CHORD_FIX=0 "$chord_seed"
one raft deploy/campaigns/raft-windowed.json RAFT_FIX=0 "$raft_seed"
