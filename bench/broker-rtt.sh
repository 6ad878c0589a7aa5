#!/usr/bin/env bash
# Per-datagram round trip between two nodes: native loopback UDP vs the same binary under `weft run --net`
# (the live broker in the launcher JVM, the shim's scheduler on). Prints figures, asserts nothing.
# The program is bench/rtt.c: node 1 pings node 0 ROUNDS times, REPEATS times, and prints the best run, timed
# with a raw clock_gettime system call (real time, not the shim's virtual clock). bench/rtt_wire.c makes the same
# four broker exchanges per round trip by speaking the wire protocol itself: the broker's share without the shim's.
# The native rows show both a blocking receive (one kernel wake-up per datagram) and a busy-polling one (none:
# the floor the issue's ~2 us refers to, reachable only with a free core per node).
# Usage: bench/broker-rtt.sh [ROUNDS [REPEATS]]     (defaults 5000 and 5; writes only under target/)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source bench/two_nodes.sh
rounds=${1:-5000}
repeats=${2:-5}
bench_cc rtt rtt_wire
rtt=$PWD/target/bench/rtt
./weft --version >/dev/null # builds the launcher and the shim on first use

# The shim's backstop answers raw clock_gettime system calls in the program's own code from the virtual clock;
# the figures need real time, so it is off for every run here.
export WEFT_BACKSTOP=0
figure() { sed -n 's/.*best of [0-9]*: \([0-9.]*\) us per round trip, \([0-9.]*\) us per datagram.*/\1 \2/p'; }
row() { printf "%-58s %9s us per round trip  %8s us per datagram\n" "$1" "$2" "$3"; }

native() { # blocking receives (the kernel wakes the receiver), or with RTT_BUSY=1 busy-polling ones
  native_pair "$rtt" "$rounds" "$repeats"
}
under_weft() { # extra weft run options...
  ./weft run --seed 1 --net "" --nodes 2 "$@" -- "$rtt" env "$rounds" "$repeats" 2>/dev/null
}

echo "round trips: $rounds, best of $repeats (machine: $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
read -r r d < <(native | figure);                                   row "native loopback UDP" "$r" "$d"
read -r r d < <(RTT_BUSY=1 native | figure);                        row "  same, busy-polling receive (no wake-up)" "$r" "$d"
read -r r d < <(under_weft | figure);                               row "weft run --net \"\" --nodes 2 (scheduler on)" "$r" "$d"
read -r r d < <(under_weft --record target/bench/rtt.weftlog | figure)
row "  same, recording to a plain weft-log" "$r" "$d"
read -r r d < <(under_weft --no-sched | figure);                    row "  same, scheduler off (--no-sched)" "$r" "$d"
read -r r d < <(WEFT_NET_SPIN_NS=50000 under_weft | figure);        row "  same, scheduler on, WEFT_NET_SPIN_NS=50000" "$r" "$d"
read -r r d < <(./weft run --seed 1 --net "" --nodes 2 -- "$PWD/target/bench/rtt_wire" "$rounds" "$repeats" 2>/dev/null \
  | figure);                                                         row "  broker alone: wire-level clients (bench/rtt_wire.c)" "$r" "$d"
echo "target: at most 7.6 us per datagram under the broker with the scheduler on (reference 15.2 us, scheduler off)"
