#!/usr/bin/env bash
# chord-campaign.sh: sweep seeds x CHORD_FIX levels of chord_node under `weft run`, judge every
# recording with `weft check chord`, and print how many runs were OK, VIOLATION or DISCARD per level.
#
#   examples/campaigns/chord-campaign.sh [--seeds START:COUNT] [--fix "0 1 2"] [--nodes N]
#                                        [--net SPEC] [--ticks T] [--m M] [--base B] [--out DIR]
# Defaults: --seeds 0:50 --fix "0 1 2" --nodes 7 --net latency=uniform:1000-60000 --ticks 45 --m 6
# --base 3 --out a new temporary directory (recordings are kept there: open one with weft workbench).
# Needs a built checkout (./weft builds the launcher on first use; the examples come from the
# shim-native build). Exit status 0 when every run was judged, 1 when some run failed to record or check.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/campaign-lib.sh"

parse_seeds 0:50
levels="0 1 2" nodes=7 net="latency=uniform:1000-60000" ticks=45 m=6 base=3 out=""
while (( $# )); do
  case "$1" in
    --seeds) parse_seeds "${2:?}"; shift 2 ;;
    --fix) levels="${2:?}"; shift 2 ;;
    --nodes) nodes="${2:?}"; shift 2 ;;
    --net) net="${2?}"; shift 2 ;;
    --ticks) ticks="${2:?}"; shift 2 ;;
    --m) m="${2:?}"; shift 2 ;;
    --base) base="${2:?}"; shift 2 ;;
    --out) out="${2:?}"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option \"$1\" (see --help)" ;;
  esac
done
[[ -x "$examples_dir/chord_node" ]] || die "$examples_dir/chord_node is not built (run the Maven build or make -C shim-native)"
[[ -n "$out" ]] || out="$(mktemp -d "${TMPDIR:-/tmp}/chord-campaign.XXXXXX")"
mkdir -p "$out"

declare -A count=() seeds_of=()
echo "chord campaign: seeds $seed_start..$(( seed_start + seed_count - 1 )), CHORD_FIX levels $levels, $nodes nodes," \
     "net \"$net\", chord_node $m $ticks $base; recordings in $out"
errors=0
for fix in $levels; do
  for (( s = seed_start; s < seed_start + seed_count; s++ )); do
    log="$out/chord-fix$fix-s$s.weftlog"
    if CHORD_NNODES=$nodes CHORD_FIX=$fix "$weft" run --seed "$s" --net "$net" --nodes "$nodes" --watchdog 60 --record "$log" \
         -- "$examples_dir/chord_node" "$m" "$ticks" "$base" > "$log.run.txt" 2>&1 || [[ -s "$log" ]]; then
      set +e; "$weft" check chord "$log" "$m" > "$log.check.txt" 2>&1; code=$?; set -e
    else
      code=1
    fi
    bucket=$(bucket_of "$code")
    [[ $bucket == ERROR ]] && errors=$(( errors + 1 ))
    tally "$fix" "$bucket" "$s"
  done
done
echo
print_table CHORD_FIX $levels
(( errors == 0 ))
