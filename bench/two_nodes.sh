# Sourced by the bench scripts that time one two-node C program natively and under `weft run` (broker-rtt.sh,
# tcp-bench.sh), from the repository root: compiling the program and running its two nodes without weft.

# bench_cc NAME...: compiles bench/NAME.c into target/bench/NAME (-O2).
bench_cc() {
  mkdir -p target/bench
  local name
  for name in "$@"; do cc -O2 -o "target/bench/$name" "bench/$name.c"; done
}

# native_pair PROGRAM ARGS...: node 0 in the background (its output dropped), node 1 in the foreground (it prints
# the figures), as `weft run --nodes 2` starts them but on the host's loopback; waits for both.
native_pair() {
  local program=$1
  shift
  "$program" 0 "$@" >/dev/null & local zero=$!
  "$program" 1 "$@"
  wait "$zero"
}
