# campaign-lib.sh: shared by chord-campaign.sh and raft-campaign.sh (sourced, not run).
# Records one run per (level, seed) with `weft run … --record`, judges it with `weft check`, and
# buckets the verdict by the checker's exit status: 0 OK, 2 VIOLATION, 3 DISCARD, anything else ERROR.

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
