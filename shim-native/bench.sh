#!/usr/bin/env bash
# Shim overhead benchmark: montecarlo and entropy natively and under the shim (seed 42,
# scheduler on), best of N runs (default 5); then the cost per call of the backstop and of the
# supervisor for static binaries (weft_super). Prints wall time and CPU time (user+sys; less
# sensitive to other load on a shared machine). Figures only: this is not a pass/fail test.
# Usage: shim-native/bench.sh [runs]    (after the Maven or make build, Linux only)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shim=$here/target/libweft_shim.so
ex=$here/target/examples
runs=${1:-5}
[[ -f $shim ]] || { echo "bench: $shim not built (run make -C shim-native or the Maven build)" >&2; exit 2; }

TIMEFORMAT='%R %U %S'
# prints "best_wall_s best_cpu_s" over $runs runs of: [shim|native] program args...
best() {
  local mode=$1; shift
  local bw= bc= out
  for ((i = 0; i < runs; i++)); do
    if [[ $mode == shim ]]; then
      out=$( { time LD_PRELOAD=$shim WEFT_SEED=42 "$@" >/dev/null 2>&1; } 2>&1 )
    elif [[ $mode == super ]]; then
      out=$( { time WEFT_SEED=42 "$here/target/weft_super" "$@" >/dev/null 2>&1; } 2>&1 )
    else
      out=$( { time "$@" >/dev/null 2>&1; } 2>&1 )
    fi
    read -r w u s <<<"$out"
    local c
    c=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
    if [[ -z $bw ]] || awk -v a="$w" -v b="$bw" 'BEGIN { exit !(a < b) }'; then bw=$w; fi
    if [[ -z $bc ]] || awk -v a="$c" -v b="$bc" 'BEGIN { exit !(a < b) }'; then bc=$c; fi
  done
  echo "$bw $bc"
}

pct() { awk -v n="$1" -v s="$2" 'BEGIN { if (n > 0) printf "%+.0f%%", (s - n) * 100.0 / n; else print "n/a" }'; }

echo "best of $runs runs; reference overhead as the reference corpus' README (conformance/README.md) states it"
printf '%-11s %10s %10s %9s   %10s %10s %9s   %s\n' program wall_nat wall_shim overhead cpu_nat cpu_shim overhead reference
for prog in montecarlo entropy; do
  case $prog in
    montecarlo) args=(1000000); ref="+71%" ;;   # about 5M PRNG calls
    entropy) args=(4 400); ref="+9%" ;;
  esac
  read -r nw nc <<<"$(best native "$ex/$prog" "${args[@]}")"
  read -r sw sc <<<"$(best shim "$ex/$prog" "${args[@]}")"
  printf '%-11s %9.3fs %9.3fs %9s   %9.3fs %9.3fs %9s   %s\n' "$prog" "$nw" "$sw" "$(pct "$nw" "$sw")" \
    "$nc" "$sc" "$(pct "$nc" "$sc")" "$ref"
done

# The backstop (syscall user dispatch, backstop.c): cost per raw system call made from the program's
# own code, i.e. (shim - native) CPU time / N. getpid is run by the handler for the program; clock
# is answered from the virtual clock.
n=200000
echo
echo "backstop: $n inline system calls from the program's text; best of $runs runs"
printf '%-8s %10s %10s %14s\n' call cpu_nat cpu_shim per_call_extra
for call in getpid clock; do
  read -r _ nc <<<"$(best native "$here/target/tests/backstop_bench" $call $n)"
  read -r _ sc <<<"$(best shim "$here/target/tests/backstop_bench" $call $n)"
  printf '%-8s %9.3fs %9.3fs %12s\n' "$call" "$nc" "$sc" \
    "$(awk -v a="$nc" -v b="$sc" -v n=$n 'BEGIN { printf "%.2f us", (b - a) * 1e6 / n }')"
done

# The supervisor for static binaries (weft_super, docs/shim.md "Static binaries"): static_probe bench N
# makes N clock_gettime calls (the vDSO, rewritten into a system call) and N getrandom(8), each a seccomp
# user notification answered by the supervisor. Per call: (supervised - native) / 2N, wall and CPU (the
# supervisor's CPU included: time(1) counts waited-for children).
probe=$here/target/tests/static_probe
if [[ -x $probe && -x $here/target/weft_super ]]; then
  n=50000
  echo
  echo "supervisor: $n clock_gettime + $n getrandom in a static binary; best of $runs runs"
  read -r nw nc <<<"$(best native "$probe" bench $n)"
  read -r sw sc <<<"$(best super "$probe" bench $n)"
  printf '%-9s %9s %9s %9s %9s %14s %14s\n' calls wall_nat wall_sup cpu_nat cpu_sup per_call_wall per_call_cpu
  printf '%-9s %8.3fs %8.3fs %8.3fs %8.3fs %14s %14s\n' $((2 * n)) "$nw" "$sw" "$nc" "$sc" \
    "$(awk -v a="$nw" -v b="$sw" -v n=$((2 * n)) 'BEGIN { printf "%.2f us", (b - a) * 1e6 / n }')" \
    "$(awk -v a="$nc" -v b="$sc" -v n=$((2 * n)) 'BEGIN { printf "%.2f us", (b - a) * 1e6 / n }')"
else
  echo; echo "supervisor: skipped (target/weft_super or the static target/tests/static_probe not built)"
fi
