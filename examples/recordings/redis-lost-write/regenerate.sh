#!/usr/bin/env bash
# Rebuilds the Redis lost-write fixture (docs/case-studies/redis.md, "The shrunk hit as a fixture"): a real windowed
# run of the Redis Sentinel study under the shrunk hit's one fault, the partition of the primary and client 0 at
# 15 s (never healed), made short enough to commit: the clients add every 250 ms for 21 s of virtual time (not every
# 100 ms for 30 s), read after 1 s (not 15 s), and client 0, cut off from every Sentinel, asks once for a primary to
# read from (READ_TRIES=1) and exits 1. About 35 s of real time, 25 s of virtual time, 5,388 records, 0.3 MB gzipped.
#
# Needs Linux, redis-server and redis-sentinel (Debian's redis 7.0) and python3. The same machine and directory give
# the same bytes; another directory or machine changes a few INFO bytes (`executable:`, `os:`, total memory), never
# the finding. replay-engine's RedisLostWriteFixtureTest replays the committed recording and checks its history; app's
# RedisLostWriteUiTest opens it on the lost write's finding (both pin its figures: update them with it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
here=examples/recordings/redis-lost-write
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# exit 1 is client 0's "no primary to read from"; anything else (3: the windowed run was discarded) is a failure
./weft run --window 1000 --watchdog 300 --record "$out/lost-write.weftlog.gz" "$here/scenario.json" \
    >"$out/stdout" 2>"$out/stderr" || [ $? -eq 1 ] || { tail -3 "$out/stderr" >&2; exit 1; }
./weft replay "$out/lost-write.weftlog.gz"
./weft check history "$out/lost-write.history.jsonl" --model set | sed -n 3,4p || true
cp "$out/lost-write.weftlog.gz" "$out/lost-write.history.jsonl" "$here/"
echo "$here/lost-write.weftlog.gz and lost-write.history.jsonl regenerated"
