#!/usr/bin/env bash
# SimFerret replay fidelity: records and replays seeds FIRST..LAST with `weft vm` and prints, per seed, the
# record/replay wall times, the rr log size, the event count and whether the replay was identical; then totals.
#   usage: bench/simferret-fidelity.sh [FIRST [LAST]]   (default 1 20; run directories under a temp dir)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
first="${1:-1}" last="${2:-20}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
weft=("$here/weft")
identical=0 total=0
printf '%-6s %-9s %-9s %-10s %-7s %s\n' seed record_s replay_s rr_bytes events replay
for seed in $(seq "$first" "$last"); do
  dir="$work/seed-$seed"
  t0=$(date +%s.%N)
  "${weft[@]}" vm record --seed "$seed" --out "$dir" > "$work/rec.txt" 2>&1 || true
  t1=$(date +%s.%N)
  if "${weft[@]}" vm replay "$dir" > "$work/rep.txt" 2>&1; then verdict=identical; identical=$((identical + 1)); else verdict="NOT: $(head -c 200 "$work/rep.txt")"; fi
  t2=$(date +%s.%N)
  total=$((total + 1))
  rr=$(stat -c %s "$dir/replay.rr" 2>/dev/null || echo -)
  events=$(wc -l < "$dir/events.jsonl" 2>/dev/null || echo -)
  printf '%-6s %-9.2f %-9.2f %-10s %-7s %s\n' "$seed" "$(awk "BEGIN{print $t1 - $t0}")" "$(awk "BEGIN{print $t2 - $t1}")" "$rr" "$events" "$verdict"
  grep -q 'assertions: 7 of 7 hold' "$work/rec.txt" || { echo "  record of seed $seed:"; sed 's/^/    /' "$work/rec.txt"; }
done
echo "identical replays: $identical of $total"
