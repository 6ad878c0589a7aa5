#!/usr/bin/env bash
# Hostile inputs (issue 12 acceptance): generates the issue's inputs under target/hostile/ and runs `weft replay` and
# the workbench's --screenshot on each under /usr/bin/time -v, printing exit status, the first output line, wall time
# and peak RSS against the bounds (weft replay <= 1 GiB, workbench <= 1.5 GiB). Prints figures; asserts nothing, and
# runs to the end whatever each run does.
#   bench/hostile-inputs.sh               all inputs, replay and workbench, then the issue 28 classes
#   bench/hostile-inputs.sh --replay-only skip the workbench (no JavaFX build)
#   bench/hostile-inputs.sh --issue28     only the issue 28 classes (bench/hostile/issue28.sh): output paths,
#                                         inputs, token files, scenarios, fuzz configs, abusive broker peers, a
#                                         stopped host agent, interrupted recordings, a node killed by a signal;
#                                         prints the table (inputs tried, clean errors, stack traces, hangs, files
#                                         replaced, peak RSS)
# Needs ~2.5 GB of free disk under target/ (the generated files are kept for reruns; delete target/hostile to redo).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
replay_only=0
[[ "${1:-}" == "--replay-only" ]] && replay_only=1
if [[ "${1:-}" == "--issue28" ]]; then
  exec bench/hostile/issue28.sh
fi

dir=target/hostile
mkdir -p "$dir"
base=examples/recordings/sample.weftlog
GIB=1073741824

# A copy of the sample recording with $2 (a command's output) inserted into record 0 right after `{"op":0,`. White space
# and unknown top-level members are not part of a record's chain (weft-log-v2.md §7), so the result still verifies.
with_inserted() { # $1 = output file; rest = command writing the inserted bytes
  local out=$1; shift
  [[ -s "$out" ]] && return
  {
    head -n 1 "$base"
    printf '%s' '{"op":0,'
    "$@"
    sed -n 2p "$base" | cut -c9-
    tail -n +3 "$base"
  } > "$out.part" && mv "$out.part" "$out"
}
spaces() { head -c "$1" /dev/zero | tr '\0' ' '; }
member() { printf '"pad":"'; head -c "$1" /dev/zero | tr '\0' 'a'; printf '",'; }
nested() { printf '"deep":'; head -c "$1" /dev/zero | tr '\0' '['; head -c "$1" /dev/zero | tr '\0' ']'; printf ','; }

echo "generating inputs under $dir (first run only) ..." >&2
with_inserted "$dir/ws-1gib-line.weftlog" spaces $GIB
[[ -s "$dir/ws-1gib-line.weftlog.gz" ]] || { gzip -1 -c "$dir/ws-1gib-line.weftlog" > "$dir/ws.part" && mv "$dir/ws.part" "$dir/ws-1gib-line.weftlog.gz"; }
[[ -s "$dir/nul-1gib-line.weftlog" ]] || { { head -n 1 "$base"; head -c $GIB /dev/zero; } > "$dir/nul.part" && mv "$dir/nul.part" "$dir/nul-1gib-line.weftlog"; }
[[ -s "$dir/bomb-1gib.gz" ]] || { head -c $GIB /dev/zero | gzip -1 > "$dir/bomb.part" && mv "$dir/bomb.part" "$dir/bomb-1gib.gz"; }
with_inserted "$dir/member-200mb.weftlog" member 200000000
with_inserted "$dir/depth-100k.weftlog" nested 100000

mvn -q -B -ntp -DskipTests package -pl launcher -am >&2 || echo "launcher build failed" >&2
if (( ! replay_only )); then
  mvn -q -B -ntp -DskipTests package -pl app -am >&2 || { echo "app build failed: workbench rows skipped" >&2; replay_only=1; }
fi
echo "reference replay of the sample (what the valid inputs must also print):"
echo "  $(./weft replay "$base" 2>&1 | head -1)"

# One measured run: prints a row; never fails the script.
run() { # $1 = label, $2 = RSS bound in MiB, rest = command
  local label=$1 bound=$2; shift 2
  local tv="$dir/time.txt" out="$dir/out.txt"
  timeout 900 /usr/bin/time -v -o "$tv" "$@" > "$out" 2>&1
  local code=$?
  local rss_kb wall first
  rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tv" 2>/dev/null)
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$tv" 2>/dev/null)
  first=$(grep -v '^\s*at \|^\s*$' "$out" | head -1 | cut -c1-110)
  local rss_mb=$(( ${rss_kb:-0} / 1024 ))
  local verdict="within ${bound} MiB"
  (( rss_mb > bound )) && verdict="OVER ${bound} MiB"
  (( code == 124 )) && verdict="TIMED OUT (900 s)"
  grep -q '^\s*at [a-z]' "$out" && verdict="$verdict, STACK TRACE"
  printf "%-34s exit %-3s %9s  peak RSS %6s MiB  %-26s %s\n" "$label" "$code" "${wall:-?}" "$rss_mb" "$verdict" "$first"
}

echo
echo "weft replay (bound 1024 MiB):"
for f in ws-1gib-line.weftlog ws-1gib-line.weftlog.gz nul-1gib-line.weftlog bomb-1gib.gz member-200mb.weftlog depth-100k.weftlog; do
  run "replay $f" 1024 ./weft replay "$dir/$f"
done

if (( ! replay_only )); then
  echo
  echo "workbench --screenshot (bound 1536 MiB):"
  for f in ws-1gib-line.weftlog ws-1gib-line.weftlog.gz nul-1gib-line.weftlog bomb-1gib.gz member-200mb.weftlog depth-100k.weftlog; do
    run "workbench $f" 1536 ./weft workbench "$dir/$f" --screenshot "$dir/$f.png" --size 1280x800
  done
fi

echo
bench/hostile/issue28.sh
