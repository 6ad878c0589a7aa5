#!/usr/bin/env bash
# Issue 24's acceptance table for live cluster runs: what a `weft run` costs before the program does anything,
# Chord runs windowed and plain, a windowed campaign, and how the cost grows with the number of nodes, each beside
# the reference Weft 0.0.2's figure quoted in issue 24 (measured there at load ~3; quoted, not re-measured).
#
#   bench/cluster-speed.sh [--runs N] [--quick]
#
# Every row prints the median wall time and, in parentheses, the median user+sys CPU seconds of the whole process
# tree (launcher JVM, broker, nodes): the machine is shared, and CPU time is the figure least disturbed by other
# builds. --runs N repeats the fixed-cost rows N times (default 5); the Chord rows always take seeds 1-5.
# --quick skips the campaign and the scaling row. The first line says the load: compare rows of one run only.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
RUNS=5
QUICK=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift ;;
    --quick) QUICK=1 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "cluster-speed: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
WEFT="${WEFT:-$ROOT/weft}"   # WEFT=path/to/weft measures another build (e.g. a baseline)
CHORD="$ROOT/shim-native/target/examples/chord_node"
"$WEFT" --version >/dev/null   # builds the launcher and its CDS archive outside the timings
[ -x "$CHORD" ] || { echo "cluster-speed: $CHORD is not built (make -C shim-native examples)" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/weft-cluster-speed.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
NET="latency=uniform:1000-60000"

# one timed command: appends "wall cpu" (seconds) to $WORK/samples; its output goes to $WORK/last.out
sample() {
  # (time writes a "Command exited with non-zero status" line first when it did: the figures are the last line)
  /usr/bin/time -f '%e %U %S' -o "$WORK/t" "$@" >"$WORK/last.out" 2>&1 || true
  tail -n 1 "$WORK/t" | awk '{printf "%.3f %.3f\n", $1, $2 + $3}' >> "$WORK/samples"
  if grep -q "non-zero status" "$WORK/t" && [ -z "${ALLOW_FAIL:-}" ]; then
    echo "cluster-speed: failed: $*" >&2; tail -n 3 "$WORK/last.out" >&2
  fi
}
# (a Chord run may end with a violation or the observer's discard: both are finished runs, exit status 2 or 3)
# median wall (median cpu) of the samples so far, then clears them
median() {
  local w c
  w=$(cut -d' ' -f1 "$WORK/samples" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  c=$(cut -d' ' -f2 "$WORK/samples" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  rm -f "$WORK/samples"
  printf '%.3f s (%.2f cpu)' "$w" "$c"
}
row() { printf '%-62s %-24s %s\n' "$1" "$2" "$3"; }

printf '# %s, %s cores, load %s, commit %s\n' "$(uname -sr)" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" \
  "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
row "work" "ours: median wall (cpu)" "reference (issue 24)"

"$WEFT" --version >/dev/null
for ((i = 0; i < RUNS; i++)); do sample "$WEFT" --version; done
row "weft --version" "$(median)" "-"
for ((i = 0; i < RUNS; i++)); do sample "$WEFT" run --seed "$i" -- /bin/true; done
row "weft run --seed N -- /bin/true" "$(median)" "-"
for ((i = 1; i <= RUNS; i++)); do sample "$WEFT" run --seed "$i" --net '' --nodes 7 -- /bin/true; done
row "weft run --seed N --net '' --nodes 7 -- /bin/true (fixed cost)" "$(median)" "0.01 s (target <= 0.10)"

chord() { # $1 = seed, rest = extra weft run options
  local seed=$1; shift
  CHORD_NNODES=7 CHORD_FIX=0 ALLOW_FAIL=1 sample "$WEFT" run --seed "$seed" --net "$NET" --nodes 7 "$@" \
    --watchdog 60 --record "$WORK/c.weftlog" -- "$CHORD" 6 45 3
}
for s in 1 2 3 4 5; do chord "$s" --window 1000; done
row "7-node Chord, --window 1000, seeds 1-5" "$(median)" "0.16-0.31 s"
for s in 1 2 3 4 5; do chord "$s"; done
row "7-node Chord, plain, seeds 1-5" "$(median)" "0.11 s"
[ "$QUICK" = 1 ] && exit 0

# the windowed example campaign restricted to CHORD_FIX=0 and seeds 0-7, one run at a time
sed -e 's|"\.\./\.\./shim-native|"'"$ROOT"'/shim-native|' -e 's|"CHORD_FIX": \[[^]]*\]|"CHORD_FIX": ["0"]|' \
  deploy/campaigns/chord-windowed.json > "$WORK/chord8.json"
ALLOW_FAIL=1 sample "$WEFT" campaign --config "$WORK/chord8.json" --seeds 0:8 --jobs 1 --out "$WORK/campaign"
row "8-seed windowed Chord campaign, CHORD_FIX=0, --jobs 1" "$(median)" "2.0 s"

scale=""
for n in 7 15 31; do
  CHORD_NNODES=$n CHORD_FIX=2 ALLOW_FAIL=1 sample "$WEFT" run --seed 3 --net "$NET" --nodes "$n" --window 1000 \
    --watchdog 60 --record "$WORK/s$n.weftlog" -- "$CHORD" 6 45 3
  scale="$scale${scale:+ / }$(median)"
done
row "windowed Chord, CHORD_FIX=2, seed 3, 7 / 15 / 31 nodes" "" "2.26 / 2.25 / 1.55 s"
printf '    %s\n' "$scale"
