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
  common_option "$@"
  if (( taken )); then shift "$taken"; continue; fi
  case "$1" in
    --m) m="${2:?}"; shift 2 ;;
    --base) base="${2:?}"; shift 2 ;;
    *) die "unknown option \"$1\" (see --help)" ;;
  esac
done
prepare_run chord

target=("$examples_dir/chord_node" "$m" "$ticks" "$base")
check=(chord LOG "$m")
echo "chord campaign: seeds $seed_start..$(( seed_start + seed_count - 1 )), CHORD_FIX levels $levels, $nodes nodes," \
     "net \"$net\"${window:+, window $window ns}, chord_node $m $ticks $base; recordings in $out"
sweep chord CHORD_FIX CHORD_NNODES
echo
print_table CHORD_FIX $levels
(( errors == 0 ))
