#!/usr/bin/env bash
# History checker benchmark (issue 31): prints figures, asserts nothing. End-to-end `weft check history` wall times
# (JVM start-up included; `weft --version` shows it) on generated histories: large linearizable register and kv
# histories, concurrency-heavy ones, indeterminate writes (the search's pathological case: an info write may take
# effect at any later point), and a long history with one stale read at its end (search + shrinking).
# Usage: bench/history-bench.sh   (writes only under target/bench/history)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -f launcher/target/weft-launcher.jar ] || mvn -q -B -ntp -DskipTests package -pl launcher -am
out=target/bench/history
mkdir -p "$out"
gen() { python3 bench/history/gen_history.py "$@"; }

run() { # label model file: prints the wall time of one check and its verdict line
  local label=$1 model=$2 file=$3
  local ops; ops=$(grep -c '"type":"invoke"' "$file")
  local start end verdict
  start=$(date +%s.%N)
  verdict=$(./weft check history "$file" --model "$model" | grep '^verdict' || true)
  end=$(date +%s.%N)
  printf "%-52s %7d ops  %6.2f s  %s\n" "$label" "$ops" "$(awk "BEGIN{print $end-$start}")" "${verdict#verdict   : }"
}

./weft --version >/dev/null
s=$(date +%s.%N); ./weft --version >/dev/null; e=$(date +%s.%N)
printf "%-52s %11s  %6.2f s\n" "start-up only (weft --version)" "" "$(awk "BEGIN{print $e-$s}")"
gen "$out/reg-100k-5c.jsonl" 100000 5 1 1;                 run "register, 5 clients" register "$out/reg-100k-5c.jsonl"
gen "$out/reg-100k-8c.jsonl" 100000 8 1 2;                 run "register, 8 clients" register "$out/reg-100k-8c.jsonl"
# one register and many concurrent writers: the search's cost grows exponentially with concurrency (16 clients ~
# 8 concurrent writes, any order of which is a candidate until a read rules it out)
gen "$out/reg-10k-12c.jsonl" 10000 12 1 7;                 run "register, 12 clients (pathological)" register "$out/reg-10k-12c.jsonl"
gen "$out/reg-10k-16c.jsonl" 10000 16 1 8;                 run "register, 16 clients (pathological)" register "$out/reg-10k-16c.jsonl"
gen "$out/kv-100k-50c.jsonl" 100000 50 100 3;              run "kv, 100 keys, 50 clients" kv "$out/kv-100k-50c.jsonl"
gen "$out/reg-100k-info.jsonl" 100000 5 1 4 --info 20;     run "register, 5 clients, 2% info writes" register "$out/reg-100k-info.jsonl"
gen "$out/reg-10k-10c-info.jsonl" 10000 10 1 5 --info 100; run "register, 10 clients, 10% info writes" register "$out/reg-10k-10c-info.jsonl"
gen "$out/reg-100k-stale.jsonl" 100000 5 1 6 --stale;      run "register, 5 clients, one stale read at the end" register "$out/reg-100k-stale.jsonl"
