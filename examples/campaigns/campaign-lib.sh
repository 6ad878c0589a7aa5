# campaign-lib.sh: shared by chord-campaign.sh and raft-campaign.sh (sourced, not run).
# Records one run per (level, seed) with `weft run … --record`, judges it with `weft check`, and
# buckets the verdict by the checker's exit status: 0 OK, 2 VIOLATION, 3 DISCARD, anything else ERROR.
# (`weft campaign --config deploy/campaigns/*.json` does the same with dedup, resume, shards and a report.)

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
weft="${WEFT:-$repo/weft}"
examples_dir="${WEFT_EXAMPLES_DIR:-$repo/shim-native/target/examples}"

die() { echo "$(basename "$0"): $*" >&2; exit 1; }

# parse_seeds START:COUNT -> sets seed_start, seed_count
parse_seeds() {
  [[ "$1" =~ ^([0-9]+):([0-9]+)$ ]] || die "--seeds wants START:COUNT, got \"$1\""
  seed_start=${BASH_REMATCH[1]}
  seed_count=${BASH_REMATCH[2]}
}

# common_option WORDS...: the options both scripts take (--seeds --fix --nodes --net --ticks --out --window
# --help); sets the matching variable and `taken` to the number of words used, 0 when $1 is none of them.
common_option() {
  taken=2
  case "$1" in
    --seeds) parse_seeds "${2:?}" ;;
    --fix) levels="${2:?}" ;;
    --nodes) nodes="${2:?}" ;;
    --net) net="${2?}" ;;
    --ticks) ticks="${2:?}" ;;
    --out) out="${2:?}" ;;
    --window) window="${2:?}" ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) taken=0 ;;
  esac
}

# prepare_run NAME: dies unless the example NAME_node is built; makes $out (a new temporary directory if unset)
prepare_run() {
  [[ -x "$examples_dir/$1_node" ]] || die "$examples_dir/$1_node is not built (run the Maven build or make -C shim-native)"
  [[ -n "$out" ]] || out="$(mktemp -d "${TMPDIR:-/tmp}/$1-campaign.XXXXXX")"
  mkdir -p "$out"
}

# bucket_of EXIT -> OK | VIOLATION | DISCARD | ERROR
bucket_of() {
  case "$1" in
    0) echo OK ;;
    2) echo VIOLATION ;;
    3) echo DISCARD ;;
    *) echo ERROR ;;
  esac
}

# tally LEVEL BUCKET SEED: counts in assoc arrays declared by the caller (count, seeds_of)
tally() {
  count["$1 $2"]=$(( ${count["$1 $2"]:-0} + 1 ))
  seeds_of["$1 $2"]="${seeds_of["$1 $2"]:-}${seeds_of["$1 $2"]:+ }$3"
}

# print_table "LEVEL_NAME" LEVELS... : the bucket table, then the violating/discarded/error seeds
print_table() {
  local name="$1"; shift
  printf '%-6s %6s %6s %10s %8s %6s\n' "$name" runs OK VIOLATION DISCARD ERROR
  local l b total
  for l in "$@"; do
    total=0
    for b in OK VIOLATION DISCARD ERROR; do total=$(( total + ${count["$l $b"]:-0} )); done
    printf '%-6s %6d %6d %10d %8d %6d\n' "$l" "$total" "${count["$l OK"]:-0}" "${count["$l VIOLATION"]:-0}" \
      "${count["$l DISCARD"]:-0}" "${count["$l ERROR"]:-0}"
  done
  for b in VIOLATION DISCARD ERROR; do
    for l in "$@"; do
      [[ -n "${seeds_of["$l $b"]:-}" ]] && echo "$b seeds, $name $l: ${seeds_of["$l $b"]}"
    done
  done
  return 0
}

# sweep NAME FIX_VAR NNODES_VAR: the one sweep loop of both scripts. For every level in $levels and seed in
# seed_start..seed_start+seed_count-1, records "${target[@]}" on $nodes nodes under --net "$net" (and
# --window "$window" when set) with FIX_VAR=level and NNODES_VAR=$nodes, into $out/NAME-fix<level>-s<seed>.weftlog,
# then runs `weft check "${check[@]}"` with the word LOG replaced by the recording, and tallies the bucket.
# Sets count, seeds_of (for print_table) and errors (runs that failed to record or check).
sweep() {
  local name="$1" fix_var="$2" nnodes_var="$3" fix s log code bucket
  local window_args=()
  [[ -n "${window:-}" ]] && window_args=(--window "$window")
  declare -gA count=() seeds_of=()
  errors=0
  for fix in $levels; do
    for (( s = seed_start; s < seed_start + seed_count; s++ )); do
      log="$out/$name-fix$fix-s$s.weftlog"
      if env "$nnodes_var=$nodes" "$fix_var=$fix" "$weft" run --seed "$s" --net "$net" --nodes "$nodes" \
           ${window_args[@]+"${window_args[@]}"} --watchdog 60 --record "$log" -- "${target[@]}" > "$log.run.txt" 2>&1 \
         || [[ -s "$log" ]]; then
        set +e; "$weft" check "${check[@]/#LOG/$log}" > "$log.check.txt" 2>&1; code=$?; set -e
      else
        code=1
      fi
      bucket=$(bucket_of "$code")
      [[ $bucket == ERROR ]] && errors=$(( errors + 1 ))
      tally "$fix" "$bucket" "$s"
    done
  done
  return 0
}
