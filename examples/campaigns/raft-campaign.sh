#!/usr/bin/env bash
# raft-campaign.sh: sweep seeds x RAFT_FIX levels of raft_node under `weft run`, judge every
# recording with `weft check raft` (ElectionSafety: at most one leader per term), and print how many
# runs were OK, VIOLATION or DISCARD (no leader at all) per level. The same seeds run at every level.
#
#   examples/campaigns/raft-campaign.sh [--seeds START:COUNT] [--fix "0 1"] [--nodes N] [--net SPEC]
#                                       [--ticks T] [--window NS] [--out DIR]
# Defaults: --seeds 0:60 --fix "0 1" --nodes 6 --net latency=uniform:2000-10000 --ticks 40
# plain runs (--window NS: windowed, byte-identical runs per seed), --out a new temporary directory
# (recordings are kept there).
# Exit status 0 when every run was judged, 1 when some run failed to record or check.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/campaign-lib.sh"

parse_seeds 0:60
levels="0 1" nodes=6 net="latency=uniform:2000-10000" ticks=40 out="" window=""
while (( $# )); do
  common_option "$@"
  (( taken )) || die "unknown option \"$1\" (see --help)"
  shift "$taken"
done
prepare_run raft

target=("$examples_dir/raft_node" "$ticks")
check=(raft LOG)
echo "raft campaign: seeds $seed_start..$(( seed_start + seed_count - 1 )), RAFT_FIX levels $levels, $nodes nodes," \
     "net \"$net\"${window:+, window $window ns}, raft_node $ticks; recordings in $out"
sweep raft RAFT_FIX RAFT_NNODES
echo
print_table RAFT_FIX $levels
(( errors == 0 ))
