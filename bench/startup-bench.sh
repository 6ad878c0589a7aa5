#!/usr/bin/env bash
# Start-up and warm-up of `weft`, end to end, on the recordings users have: `weft --help`, a 2,726-op Chord log of our
# own corpus (test-corpus/corpus), and with the reference corpus named (--shared DIR or WEFT_SHARED_DIR=DIR, DIR
# holding conformance/; bench/corpus.sh) prefixes of its 1M-record log (1k, 10k, 100k, 1M records) and the 3,600-op
# Chord log the published figures and the ≤ 80 ms target use.
#
#   bench/startup-bench.sh [--runs N] [--quick] [--shared DIR] [--image DIR] [--compare DIR]
#
# Columns (wall seconds, best of N runs; the median in parentheses):
#   source   ./weft from this checkout: the build JDK (17) with the script's AppCDS archive
#   image    the app image of `mvn -Pdist package` / jpackage/build.sh (dist/target/packages/weft-workbench):
#            jlink'd runtime (JDK 25 when available) with the AOT cache trained at package time
#   ref      the reference Weft 0.0.2 on the same inputs, as measured on this machine in issue 17 and
#            the reference corpus' README (it is not installed here: quoted, not re-measured)
#   gzip -t  a native baseline measured now on the same input gzipped: how fast this machine is today
#   image cpu  user+sys CPU seconds of the image's run (best of N): less disturbed by other load than wall time
#   image/ref  below 1.00 we start and finish faster than the reference
#   compare, compare cpu  with --compare DIR: a second app image, measured in the same run row by row
# --quick skips the 1M prefix. --image DIR measures another app image (default: the one of this checkout). --compare
# DIR: e.g. the image of an earlier commit (`git archive REV | tar -x` next to a `shared` link, then
# jpackage/build.sh there), for before/after figures at the same load. The machine is shared: run it when it is
# quiet (see `uptime`) and compare rows of one run only.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
source bench/corpus.sh
RUNS=5
QUICK=0
IMAGE_DIR=""
COMPARE_DIR=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift ;;
    --quick) QUICK=1 ;;
    --image) IMAGE_DIR=$2; shift ;;
    --compare) COMPARE_DIR=$2; shift ;;
    --shared) use_reference "$2"; shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "startup-bench: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
OWN_CHORD="$OWN/chord/chord-fix2-s3.weftlog"
BIG="${REF:+$REF/large/bigflow-1m-fixed1000-s7.weftlog.gz}"
CHORD="${REF:+$REF/chord/chord-fix0-s0.weftlog}"
SOURCE="$ROOT/weft"
IMAGE="${IMAGE_DIR:-$ROOT/dist/target/packages/weft-workbench}/bin/weft"
[ -x "$IMAGE" ] || { echo "startup-bench: no app image; build it with: mvn -B -ntp -Pdist package -DskipTests" >&2; IMAGE=""; }
COMPARE=""
if [ -n "$COMPARE_DIR" ]; then
  COMPARE="$COMPARE_DIR/bin/weft"
  [ -x "$COMPARE" ] || { echo "startup-bench: no weft in $COMPARE_DIR/bin" >&2; exit 1; }
fi
"$SOURCE" --version >/dev/null   # builds the launcher and its CDS archive on first use, outside the timings

WORK=${TMPDIR:-/tmp}/weft-startup-bench
mkdir -p "$WORK"
prefix() { # $1 = records: the header plus the first N records (a prefix is a valid log: `end` is optional)
  local f="$WORK/prefix-$1.weftlog"
  [ -s "$f" ] || { gzip -dc "$BIG" | head -n $(($1 + 1)) > "$f"; } || true
  [ -s "$f.gz" ] || gzip -1 -c "$f" > "$f.gz"
  echo "$f"
}
now() { date +%s%N; }
# best and median wall time of RUNS runs of a command, in seconds with 3 decimals
measure() {
  local times=() t0 t1 i
  "$@" >/dev/null 2>&1 || true   # warm the page cache
  for ((i = 0; i < RUNS; i++)); do
    t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now)
    times+=($(( (t1 - t0) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.3f (%.3f)", a[1]/1000, a[int((NR+1)/2)]/1000}'
}

printf '# %s, %s cores, load %s, %d runs each\n' "$(uname -sr)" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$RUNS"
printf '%-28s %-16s %-16s %-10s %-8s %-16s %-9s' "case" "source" "image" "image cpu" "ref" "gzip -t" "image/ref"
[ -n "$COMPARE" ] && printf ' %-16s %s' "compare" "compare cpu"
printf '\n'
# best user+sys CPU seconds of RUNS runs
cpu() {
  local best="" t i
  for ((i = 0; i < RUNS; i++)); do
    /usr/bin/time -f '%U %S' -o "$WORK/cpu" "$@" >/dev/null 2>&1 || true
    t=$(awk '{printf "%.2f", $1 + $2}' "$WORK/cpu")
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$t; fi
  done
  echo "$best"
}
row() { # $1 = label, $2 = reference seconds or -, $3 = file for gzip -t or -, rest = weft arguments
  local label=$1 ref=$2 gz=$3; shift 3
  local s i="-" c="-" g="-" ratio="-"
  s=$(measure "$SOURCE" "$@")
  if [ -n "$IMAGE" ]; then i=$(measure "$IMAGE" "$@"); [ -x /usr/bin/time ] && c=$(cpu "$IMAGE" "$@"); fi
  if [ "$gz" != - ]; then g=$(measure gzip -t "$gz"); fi
  if [ "$ref" != - ] && [ "$i" != - ]; then ratio=$(awk -v a="${i%% *}" -v b="$ref" 'BEGIN {printf "%.2f", a / b}'); fi
  printf '%-28s %-16s %-16s %-10s %-8s %-16s %-9s' "$label" "$s" "$i" "$c" "$ref" "$g" "$ratio"
  if [ -n "$COMPARE" ]; then
    local k kc="-"
    k=$(measure "$COMPARE" "$@"); [ -x /usr/bin/time ] && kc=$(cpu "$COMPARE" "$@")
    printf ' %-16s %s' "$k" "$kc"
  fi
  printf '\n'
}
if need_reference "the 1M-record log's prefixes and the 3,600-op Chord log"; then
  sizes="1000 10000 100000"
  [ "$QUICK" = 1 ] || sizes="$sizes 1000000"
  for n in $sizes; do
    f=$(prefix "$n")
    case $n in 1000) ref=0.004 ;; 10000) ref=0.027 ;; 100000) ref=0.251 ;; 1000000) ref=2.50 ;; esac
    row "replay prefix $n" "$ref" "$f.gz" replay "$f"
  done
  row "replay chord 3,600 ops" 0.0077 - replay "$CHORD"
fi
row "replay chord 2,726 ops (own)" - - replay "$OWN_CHORD"
row "weft --help" - - --help
