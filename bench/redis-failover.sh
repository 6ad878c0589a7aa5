#!/usr/bin/env bash
# One windowed run of the Redis Sentinel failover study (docs/case-studies/redis.md) and where its time goes
# (docs/benchmarks.md, "Redis failover run: where the time goes").
#
#   bench/redis-failover.sh [SEED]      (default seed 1; needs redis-server, redis-sentinel and python3)
#
# Prints the load before and after, the run's wall time and user+sys CPU of the whole process tree, the broker's
# TCP round trips by kind (--stats), the record count, whether the recording replays identical, and the history
# verdict. One run takes tens of seconds on a shared 2-core machine; the figures swing with the load.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
SEED=${1:-1}
WEFT="${WEFT:-$ROOT/weft}"   # WEFT=path/to/weft measures another build
for p in redis-server redis-sentinel python3; do
  command -v "$p" >/dev/null || { echo "redis-failover: $p is not installed" >&2; exit 1; }
done
"$WEFT" --version >/dev/null   # builds the launcher outside the timing
WORK=$(mktemp -d "${TMPDIR:-/tmp}/weft-redis-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f '%e %U %S' -o "$WORK/t" "$WEFT" run --seed "$SEED" --stats --window 1000 --watchdog 300 \
  --record "$WORK/r.weftlog" examples/redis-failover/scenario.json >"$WORK/out" 2>"$WORK/err" || true
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
tail -n 1 "$WORK/t" | awk '{printf "seed '"$SEED"': %.1f s wall, %.1f s CPU (user %.1f + sys %.1f)\n", $1, $2 + $3, $2, $3}'
grep -h "tcp requests by kind" "$WORK/err" | sed 's/^weft broker: /broker /' || echo "(no request counts: an older build)"
[ -f "$WORK/r.weftlog" ] || { echo "no recording; the run's last lines:"; tail -n 3 "$WORK/err"; exit 1; }
"$WEFT" replay "$WORK/r.weftlog" | tail -n 1
"$WEFT" check history "$WORK/r.history.jsonl" --model set | grep -m1 "^verdict" || true
