#!/usr/bin/env bash
# Wall time of issue 6's list of real programs, native vs under the shim (best of N runs each).
# The shim runs go through the same wrapper `weft run` builds (PID namespace when available,
# setarch -R, env LD_PRELOAD=...), without the JVM start of the launcher itself.
#   shim-native/bench-real.sh [runs]      (build first: make -C shim-native)
set -u
RUNS=${1:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
SHIM=$HERE/target/libweft_shim.so
REAL=$ROOT/examples/real
[ -f "$SHIM" ] || { echo "build the shim first: make -C $HERE" >&2; exit 2; }
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
JDIR=$(mktemp -d); trap 'rm -rf "$JDIR"' EXIT
command -v javac >/dev/null && javac -d "$JDIR" "$REAL/ThreadsDemo.java"

WRAP=()
if unshare --user --map-current-user --pid --fork --kill-child -- true 2>/dev/null; then
  WRAP=(unshare --user --map-current-user --pid --fork --kill-child --)
fi
WRAP+=(setarch -R sh -c 'exec 3>&2 2>/dev/null; (exec 2>&3 3>&-; exec "$@"); exit $?' weft-init)

now_ns() { date +%s%N; }
best_ms() { # best wall time in ms of RUNS runs of "$@"
  local best=""
  for _ in $(seq "$RUNS"); do
    local t0 t1; t0=$(now_ns); timeout -k 2 60 "$@" >/dev/null 2>&1; t1=$(now_ns)
    local ms=$(( (t1 - t0) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "$best"
}

printf '%-18s %10s %10s %8s\n' program native_ms shim_ms ratio
tot_n=0; tot_s=0
bench() {
  local name=$1; shift
  command -v "$1" >/dev/null 2>&1 || { printf '%-18s %s\n' "$name" "(not installed)"; return; }
  local n s
  n=$(best_ms "$@")
  s=$(best_ms env WEFT_SEED=42 OPENSSL_ia32cap='~0x4000000000000000:~0x40000' "${WRAP[@]}" env LD_PRELOAD="$SHIM" "$@")
  tot_n=$((tot_n + n)); tot_s=$((tot_s + s))
  printf '%-18s %10d %10d %8s\n' "$name" "$n" "$s" "$(awk -v a="$s" -v b="$n" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')"
}
bench date date '+%s.%N'
bench shuf shuf -i 1-1000 -n 8
bench "sort -R" sh -c "seq 1 40 | sort -R"
bench mktemp mktemp -u /tmp/weft-bench.XXXXXXXXXX
bench python3 "$PY" "$REAL/plain_random.py"
bench "python3 threads" "$PY" "$REAL/threads_random.py"
bench perl perl -e 'print rand(), "\n"'
bench bash bash -c 'echo $RANDOM'
bench awk awk 'BEGIN { srand(); print rand() }'
bench sqlite3 sqlite3 :memory: "select random(), hex(randomblob(8));"
bench "openssl rand" openssl rand -hex 16
bench tclsh sh -c "echo 'puts [expr {rand()}]' | tclsh"
bench node node "$REAL/random.js"
[ -f "$JDIR/ThreadsDemo.class" ] && bench "java threads" java -cp "$JDIR" ThreadsDemo
printf '%-18s %10d %10d %8s\n' total "$tot_n" "$tot_s" "$(awk -v a="$tot_s" -v b="$tot_n" 'BEGIN { printf "%.2fx", a / b }')"
