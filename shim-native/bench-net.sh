#!/usr/bin/env bash
# Per-datagram round trip between two nodes: native loopback UDP vs the shim under the broker
# (weft run --net "" --nodes 2, scheduler on), tests/net_rtt.c, best of N runs (default 5).
# Figures only: this is not a pass/fail test. Needs the Maven build (launcher jar + shim).
# Usage: shim-native/bench-net.sh [runs] [rounds]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-5}
rounds=${2:-5000}
rtt=$here/target/tests/net_rtt
shim=$here/target/libweft_shim.so
jar=$here/../launcher/target/weft-launcher.jar
for f in "$rtt" "$shim" "$jar"; do [[ -f $f ]] || { echo "bench-net: $f not built (run the Maven build)" >&2; exit 2; }; done

best() { sort -g | head -1; }
native() {
  for ((i = 0; i < runs; i++)); do
    WEFT_NODE_ID=0 "$rtt" "$rounds" & server=$!
    WEFT_NODE_ID=1 "$rtt" "$rounds" | awk '{ print $1 }'
    wait "$server"
  done | best
}
shimmed() {
  for ((i = 0; i < runs; i++)); do
    java -jar "$jar" run --seed 1 --shim "$shim" --net "" --nodes 2 -- "$rtt" "$rounds" 2>/dev/null |
      awk '/per round trip/ { print $2 }'
  done | best
}
n=$(native)
s=$(shimmed)
echo "round trip, best of $runs x $rounds: native loopback UDP $n us; shim + broker (scheduler on) $s us"
