#!/usr/bin/env bash
# Do plain 7-node Chord runs end by themselves? (issue 24: "50 plain 7-node Chord runs, seeds 1-50, CHORD_FIX=0:
# each ends by itself within 5 s, normally or with the deadlock verdict".) Runs the docs/examples.md command once per
# seed, not windowed, with a 60 s watchdog as in the example campaign configs, and prints one row per seed (exit
# status, how the run ended, wall time) and a summary. Prints figures, asserts nothing.
# Usage: bench/chord-ends.sh [FIRST [LAST]]     (defaults 1 and 50; writes only under target/)
#        CHORD_NET=SPEC bench/chord-ends.sh ...  another net spec (e.g. "latency=uniform:1000-60000,loss=0.05":
#                                                a lost control message stalls every node: the deadlock verdict)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
first=${1:-1}
last=${2:-50}
./weft --version >/dev/null # builds the launcher and the shim on first use
chord=$PWD/shim-native/target/examples/chord_node
mkdir -p target/bench
net=${CHORD_NET:-latency=uniform:1000-60000}
echo "plain 7-node Chord, CHORD_FIX=0, --net $net, chord_node 6 45 3, --watchdog 60"
echo "machine: $(nproc) cores, load before $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %-5s %-16s %8s\n' seed exit ended wall_s
within=0 verdicts=0 normal=0 other=0 max=0
for seed in $(seq "$first" "$last"); do
  start=$(date +%s.%N)
  set +e
  CHORD_NNODES=7 CHORD_FIX=0 ./weft run --seed "$seed" --net "$net" --nodes 7 --watchdog 60 \
    -- "$chord" 6 45 3 >target/bench/chord-ends.out 2>&1
  rc=$?
  set -e
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  case $rc in
    4) ended="deadlock verdict"; verdicts=$((verdicts + 1)) ;;
    124) ended="watchdog"; other=$((other + 1)) ;;
    0|1|2|3) ended="by itself"; normal=$((normal + 1)) ;;
    *) ended="other"; other=$((other + 1)) ;;
  esac
  [[ $rc == 4 ]] && grep -m1 '^weft run: deadlock:' target/bench/chord-ends.out | cut -c1-110 >target/bench/chord-ends.last
  if (( $(echo "$wall < 5" | bc) )); then within=$((within + 1)); fi
  if (( $(echo "$wall > $max" | bc) )); then max=$wall; fi
  printf '%-5s %-5s %-16s %8.2f\n' "$seed" "$rc" "$ended" "$wall"
done
runs=$((last - first + 1))
echo "summary: $runs runs; $within ended within 5 s (longest $(printf '%.2f' "$max") s); $normal ended by themselves," \
  "$verdicts with the deadlock verdict, $other otherwise (watchdog or a signal)"
echo "machine: load after $(cut -d' ' -f1-3 /proc/loadavg)"
