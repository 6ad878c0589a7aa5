#!/usr/bin/env bash
# TCP through the live broker beside native loopback TCP: a 64-byte request/response round trip and a bulk
# transfer, both timed in real time by bench/tcp_bench.c (server node 0, client node 1). Prints figures, asserts
# nothing. Usage: bench/tcp-bench.sh [ROUNDS [MBYTES]]   (defaults 2000 and 64; writes only under target/)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source bench/two_nodes.sh
rounds=${1:-2000}
mbytes=${2:-64}
bench_cc tcp_bench
bin=$PWD/target/bench/tcp_bench
./weft --version >/dev/null # builds the launcher and the shim on first use
export WEFT_BACKSTOP=0 # the figures need real time (see bench/broker-rtt.sh)

row() { printf "%-52s %10s us per round trip  %9s MiB/s bulk\n" "$1" "$2" "$3"; }
figures() { sed -n -e 's/.*rr: \([0-9.]*\) us.*/rr \1/p' -e 's/.*bulk: \([0-9.]*\) MiB.*/bulk \1/p' \
  | awk '{v[$1]=$2} END {print v["rr"], v["bulk"]}'; }

native() {
  native_pair "$bin" "$rounds" "$mbytes"
}
under_weft() { # extra weft run options...
  ./weft run --seed 1 --net "" --nodes 2 --end-when-exited 1 "$@" -- "$bin" env "$rounds" "$mbytes" 2>/dev/null
}

echo "round trips: $rounds of 64 bytes; bulk: $mbytes MiB (machine: $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
read -r r b < <(native | figures);                                        row "native loopback TCP" "$r" "$b"
read -r r b < <(under_weft | figures);                                    row "weft run --net \"\" --nodes 2 (scheduler on)" "$r" "$b"
read -r r b < <(under_weft --record target/bench/tcp.weftlog | figures);  row "  same, recording to a plain weft-log" "$r" "$b"
read -r r b < <(under_weft --no-sched | figures);                         row "  same, scheduler off (--no-sched)" "$r" "$b"
