#!/usr/bin/env bash
# Replay benchmark (issue 2): prints figures, asserts nothing. End-to-end `weft replay` wall times including JVM
# start-up (shown separately), peak RSS, and in-process figures (warm throughput, LogIndex, stateAt cost).
# Also the index build (LogIndex: what the workbench waits for before every op is reachable), each in a fresh JVM.
# Usage: bench/replay-bench.sh [--shared DIR] [--baseline GIT_REF]   (writes only under target/)
#   Our own corpus (test-corpus/corpus) by default: start-up and a 2,726-op Chord replay. The rows on the reference
#   corpus' 1M-record and 22k-op logs (the published figures) need it named: --shared DIR or WEFT_SHARED_DIR=DIR,
#   DIR holding conformance/ (bench/corpus.sh); without it one line says they are skipped.
#   --baseline REF: also builds REF's replay engine (javac, into target/bench/baseline) and prints its index-build and
#   in-process replay figures interleaved with this checkout's, run for run: before and after on the same machine load.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source bench/corpus.sh
baseline=
while [ $# -gt 0 ]; do
  case "$1" in
    --baseline) baseline=${2:?--baseline needs a git ref}; shift ;;
    --shared) use_reference "${2:?--shared needs a folder}"; shift ;;
    *) echo "replay-bench: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
mvn -q -B -ntp -DskipTests package -pl launcher -am
mkdir -p target/bench

best() { # best wall time (s) and its peak RSS (KB) over N runs of a command
  local n=$1; shift; local best=999 rss=0
  for _ in $(seq "$n"); do
    /usr/bin/time -f "%e %M" -o target/bench/time.txt "$@" >/dev/null 2>&1 || true
    local out; out=$(tail -1 target/bench/time.txt)
    local t=${out% *} m=${out#* }
    if awk "BEGIN{exit !($t < $best)}"; then best=$t; rss=$m; fi
  done
  echo "$best $rss"
}
row() { printf "%-48s %8s s  peak RSS %6.0f MB  %s\n" "$1" "$2" "$(awk "BEGIN{print $3/1024}")" "${4:-}"; }

./weft --version >/dev/null # creates the class-data-sharing archive on first use
read -r t m < <(best 5 ./weft --version);                   row "start-up only (weft --version)" "$t" "$m"; startup=$t
read -r t m < <(best 5 ./weft replay "$OWN/chord/chord-fix2-s3.weftlog"); row "replay chord 2,726 ops (our corpus)" "$t" "$m" "(start-up $startup s of it)"
need_reference "the 3,600-op, 22k-op and 999,914-record replays, the in-process figures and the index build" || exit 0
C=$REF
big_gz=$C/large/bigflow-1m-fixed1000-s7.weftlog.gz
big=target/bench/bigflow-1m-fixed1000-s7.weftlog
[ -f "$big" ] || gzip -dc "$big_gz" > "$big"
read -r t m < <(best 5 ./weft replay $C/chord/chord-fix0-s0.weftlog); row "replay chord 3,600 ops" "$t" "$m" "(target < 0.4 s; start-up $startup s of it)"
read -r t m < <(best 3 ./weft replay "$big");                row "replay 999,914 records, plain (258 MB)" "$t" "$m" \
  "$(awk "BEGIN{printf \"%.0f records/s end to end, %.0f excluding start-up (reference 424k)\", 999914/$t, 999914/($t-$startup)}")"
read -r t m < <(best 3 ./weft replay "$big_gz");             row "replay 999,914 records, gzip (22.8 MB)" "$t" "$m" \
  "$(awk "BEGIN{printf \"%.0f records/s end to end (reference 401k)\", 999914/$t}")"
read -r t m < <(best 3 ./weft replay $C/chord/chord-long450-fix0-s1.weftlog); row "replay chord 22k ops" "$t" "$m"; plain=$t
read -r t m < <(best 3 ./weft replay $C/chord/chord-long450-fix0-s1.weftlog --check fifo,dup); row "replay --check fifo,dup chord 22k ops (659 violations)" "$t" "$m" "(reference 5.5 s; plain $plain s)"

cp=launcher/target/test-classes:launcher/target/weft-launcher.jar
java -Xmx2g -cp "$cp" dev.weft.launcher.bench.ReplayBenchmark "$big" "$big_gz"

# Heap independent of log length: the 1M-record replay must run in a heap far smaller than the log.
if java -Xmx48m -XX:+UseSerialGC -jar launcher/target/weft-launcher.jar replay "$big" >/dev/null 2>&1; then
  echo "heap bound  : 999,914-record replay completes with -Xmx48m (plain replay keeps no per-record state)"
else
  echo "heap bound  : 999,914-record replay FAILED with -Xmx48m"
fi

# The index build on a freshly started JVM (run 1, JIT warm-up included: what opening the workbench pays) and warm
# (runs 2-3), with the process CPU time beside the wall time (steadier on a shared machine).
engine=replay-engine/target/classes:replay-engine/target/test-classes
echo "index build (LogIndex, fifo+dup, checkpoints every 1024; gzip expanded to the cache as it is read):"
java -Xmx2g -cp "$engine" dev.weft.replay.bench.IndexBenchmark --runs 3 "$big_gz" "$big"

if [ -n "$baseline" ]; then
  base=target/bench/baseline
  rm -rf "$base" && mkdir -p "$base/src" "$base/classes"
  git archive "$baseline" replay-engine/src/main/java | tar -x -C "$base/src"
  find "$base/src" -name '*.java' > "$base/files"
  javac -nowarn -d "$base/classes" @"$base/files"
  javac -nowarn -d "$base/classes" -cp "$base/classes" replay-engine/src/test/java/dev/weft/replay/bench/IndexBenchmark.java
  echo "before ($baseline) / after (this checkout), alternating fresh JVMs, first run of each JVM (cold):"
  for what in "--runs 1 $big_gz" "--runs 1 $big" "--replay --runs 1 $big" "--read --runs 1 $big"; do
    for i in 1 2 3; do
      # shellcheck disable=SC2086
      printf "  before %s\n" "$(java -Xmx2g -cp "$base/classes" dev.weft.replay.bench.IndexBenchmark $what)"
      # shellcheck disable=SC2086
      printf "  after  %s\n" "$(java -Xmx2g -cp "$engine" dev.weft.replay.bench.IndexBenchmark $what)"
    done
  done
fi
