# Sourced by the bench scripts: which recordings they measure.
#
# By default our own corpus, test-corpus/corpus/ (committed; every clone has it). The reference corpus (its
# 1M-record bigflow log, the 3,600-op Chord log the published figures use, the 22k-op Chord log) is measured only
# when it is named explicitly — WEFT_SHARED_DIR=DIR in the environment, or the script's --shared DIR option — where
# DIR holds conformance/ (docs/benchmarks.md). Nothing is looked up beside the repository: a figure always says
# which corpus it came from.
#
# After sourcing: OWN (our corpus folder), REF (the reference conformance/ folder, or empty), and
# need_reference LABEL, which prints one line saying a row is skipped and returns 1 when REF is empty.
BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OWN="$BENCH_ROOT/test-corpus/corpus"
REF=""
# $1 = the value of --shared or WEFT_SHARED_DIR (may be empty)
use_reference() {
  [ -n "$1" ] || return 0
  [ -d "$1/conformance" ] || { echo "bench: no conformance/ folder under $1 (--shared / WEFT_SHARED_DIR)" >&2; exit 2; }
  REF="$(cd "$1/conformance" && pwd)"
}
use_reference "${WEFT_SHARED_DIR:-}"
need_reference() {
  [ -n "$REF" ] && return 0
  echo "skipped: $1 (needs the reference corpus: --shared DIR or WEFT_SHARED_DIR=DIR)"
  return 1
}
