#!/usr/bin/env bash
# chord-campaign.sh: sweep seeds x CHORD_FIX levels of chord_node under `weft run`, judge every
# recording with `weft check chord`, and print how many runs were OK, VIOLATION or DISCARD per level.
#
#   examples/campaigns/chord-campaign.sh [--seeds START:COUNT] [--fix "0 1 2"] [--nodes N]
#                                        [--net SPEC] [--ticks T] [--m M] [--base B] [--window NS] [--out DIR]
# Defaults: --seeds 0:50 --fix "0 1 2" --nodes 7 --net latency=uniform:1000-60000 --ticks 45 --m 6
# --base 3, plain runs (--window NS: windowed, byte-identical runs per seed), --out a new temporary
# directory (recordings are kept there: open one with weft workbench).
# Needs a built checkout (./weft builds the launcher on first use; the examples come from the
# shim-native build). Exit status 0 when every run was judged, 1 when some run failed to record or check.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/campaign-lib.sh"

parse_seeds 0:50
levels="0 1 2" nodes=7 net="latency=uniform:1000-60000" ticks=45 m=6 base=3 out="" window=""
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
    --window) window="${2:?}"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option \"$1\" (see --help)" ;;
  esac
done
[[ -x "$examples_dir/chord_node" ]] || die "$examples_dir/chord_node is not built (run the Maven build or make -C shim-native)"
[[ -n "$out" ]] || out="$(mktemp -d "${TMPDIR:-/tmp}/chord-campaign.XXXXXX")"
mkdir -p "$out"

target=("$examples_dir/chord_node" "$m" "$ticks" "$base")
check=(chord LOG "$m")
echo "chord campaign: seeds $seed_start..$(( seed_start + seed_count - 1 )), CHORD_FIX levels $levels, $nodes nodes," \
     "net \"$net\"${window:+, window $window ns}, chord_node $m $ticks $base; recordings in $out"
sweep chord CHORD_FIX CHORD_NNODES
echo
print_table CHORD_FIX $levels
(( errors == 0 ))
