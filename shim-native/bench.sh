#!/usr/bin/env bash
# Shim overhead benchmark: wall time of montecarlo and entropy, natively and under the shim
# (seed 42, scheduler on), best of 5 runs each. Prints figures; it is not a pass/fail test.
# Usage: shim-native/bench.sh [runs]    (after the Maven/make build on Linux)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shim=$here/target/libweft_shim.so
ex=$here/target/examples
runs=${1:-5}
[[ -f $shim ]] || { echo "bench: $shim not built (run make -C shim-native or the Maven build)" >&2; exit 2; }

# best wall time in microseconds of $runs runs of "$@" (output discarded)
best_us() {
  local best=
  for ((i = 0; i < runs; i++)); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null
    t1=$(date +%s%N)
    local us=$(((t1 - t0) / 1000))
    if [[ -z $best || $us -lt $best ]]; then best=$us; fi
  done
  echo "$best"
}

printf '%-12s %12s %12s %10s   %s\n' program native_ms shim_ms overhead "reference overhead (conformance/README.md)"
for prog in montecarlo entropy; do
  case $prog in
    montecarlo) args=(1000000); ref="+71%" ;;   # about 5M PRNG calls
    entropy) args=(4 400); ref="+9%" ;;
  esac
  native=$(best_us "$ex/$prog" "${args[@]}")
  shimmed=$(best_us env LD_PRELOAD="$shim" WEFT_SEED=42 "$ex/$prog" "${args[@]}")
  # env(1) itself is in the shim column; measure it alone and subtract it
  envonly=$(best_us env true)
  shimmed=$((shimmed - envonly))
  overhead=$(awk -v n="$native" -v s="$shimmed" 'BEGIN { printf "%+.0f%%", (s - n) * 100.0 / n }')
  printf '%-12s %12.2f %12.2f %10s   %s\n' "$prog" "$(awk -v v="$native" 'BEGIN{print v/1000}')" \
    "$(awk -v v="$shimmed" 'BEGIN{print v/1000}')" "$overhead" "$ref"
done
