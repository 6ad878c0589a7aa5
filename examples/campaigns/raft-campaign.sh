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
  case "$1" in
    --seeds) parse_seeds "${2:?}"; shift 2 ;;
    --fix) levels="${2:?}"; shift 2 ;;
    --nodes) nodes="${2:?}"; shift 2 ;;
    --net) net="${2?}"; shift 2 ;;
    --ticks) ticks="${2:?}"; shift 2 ;;
    --out) out="${2:?}"; shift 2 ;;
    --window) window="${2:?}"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option \"$1\" (see --help)" ;;
  esac
done
[[ -x "$examples_dir/raft_node" ]] || die "$examples_dir/raft_node is not built (run the Maven build or make -C shim-native)"
[[ -n "$out" ]] || out="$(mktemp -d "${TMPDIR:-/tmp}/raft-campaign.XXXXXX")"
mkdir -p "$out"

target=("$examples_dir/raft_node" "$ticks")
check=(raft LOG)
echo "raft campaign: seeds $seed_start..$(( seed_start + seed_count - 1 )), RAFT_FIX levels $levels, $nodes nodes," \
     "net \"$net\"${window:+, window $window ns}, raft_node $ticks; recordings in $out"
sweep raft RAFT_FIX RAFT_NNODES
echo
print_table RAFT_FIX $levels
(( errors == 0 ))
