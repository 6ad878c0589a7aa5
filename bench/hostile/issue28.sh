#!/usr/bin/env bash
# Issue 28's hostile operations against the real ./weft: output paths that are devices, FIFOs, directories and link
# loops; inputs that are not files; token files others can read; scenarios with NULs, 100,000 nodes or a bad
# partition; fuzz configs asking for gigabytes; 60 unauthenticated broker connections claiming 16 MiB frames; a
# SIGSTOPped host agent; recorded runs interrupted in their first instants; a node killed by SIGKILL. Each case runs
# under /usr/bin/time -v with a 60 s limit; the script prints a row per case and then the table the issue asks for:
# inputs tried, clean errors, stack traces, hangs, files replaced, peak RSS. Prints figures; asserts nothing.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
w=$PWD/target/hostile28
rm -rf "$w" && mkdir -p "$w"
[[ -f launcher/target/weft-launcher.jar ]] || mvn -q -B -ntp -DskipTests package -pl launcher -am >&2 \
  || { echo "launcher build failed" >&2; exit 1; }
weft=$PWD/weft
shim=$(ls launcher/target/classes/dev/weft/launcher/run/native/libweft_shim.so 2>/dev/null)
log=$PWD/examples/recordings/sample.weftlog
LIMIT=60

tried=0 clean=0 accepted=0 traces=0 hangs=0 replaced=0 peak_kb=0 unclear=0 early=0

# what a path is, without following it: type, inode, and for a regular file its content hash
identity() { [[ -e "$1" || -L "$1" ]] || { echo "absent"; return; }
  echo "$(stat -c '%F %i' "$1") $( [[ -f "$1" && ! -L "$1" ]] && md5sum < "$1" | cut -c1-12)"; }

# check LABEL EXPECT PROTECT -- command...   EXPECT: error (a refusal in one clean line) or ok (exit 0)
check() {
  local label=$1 expect=$2 protect=$3; shift 4
  local before; before=$(identity "$protect")
  local t0; t0=$(date +%s)
  timeout -s KILL $LIMIT /usr/bin/time -v -o "$w/time.txt" "$@" > "$w/out.txt" 2> "$w/err.txt"
  local rc=$? secs=$(( $(date +%s) - t0 ))
  local rss; rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$w/time.txt" 2>/dev/null); rss=${rss:-0}
  (( rss > peak_kb )) && peak_kb=$rss
  tried=$((tried + 1))
  local verdict
  if (( secs >= LIMIT )); then verdict=HANG; hangs=$((hangs + 1))
  elif grep -qE '^\s+at [a-zA-Z]|Exception in thread|^(java|javax)\.[a-z.]+[A-Z][A-Za-z]*(Exception|Error)' "$w/err.txt" "$w/out.txt"; then
    verdict="STACK TRACE"; traces=$((traces + 1))
  elif [[ "$expect" == ok && $rc == 0 ]]; then verdict=accepted; accepted=$((accepted + 1))
  elif [[ "$expect" == interrupt ]] && tail -1 "$w/err.txt" | grep -qE 'no recording written|holds the header|^recorded to'; then
    verdict="clean error"; clean=$((clean + 1))
  elif [[ "$expect" == interrupt && ! -s "$w/err.txt" ]]; then
    verdict="before main"; early=$((early + 1))
  elif [[ "$expect" == error && $rc != 0 ]] && tail -1 "$w/err.txt" | grep -q '^weft'; then verdict="clean error"; clean=$((clean + 1))
  else verdict="UNCLEAR (exit $rc)"; unclear=$((unclear + 1))
  fi
  [[ "$protect" != - && "$(identity "$protect")" != "$before" ]] && { verdict="$verdict, REPLACED"; replaced=$((replaced + 1)); }
  printf "%-46s exit %-3s %3ss %6s MiB  %-13s %s\n" "$label" "$rc" "$secs" $((rss / 1024)) "$verdict" \
    "$(grep -v '^\s*$' "$w/err.txt" | tail -1 | sed "s|$w/||g" | cut -c1-120)"
}

echo "issue 28 hostile operations (each at most ${LIMIT} s):"
# --- output paths (weft convert; the same rule serves fuzz, campaign, --record, exports and screenshots)
ln -s /dev/full "$w/full.json"
check "convert -> symlink to /dev/full" error "$w/full.json" -- "$weft" convert "$log" --to perfetto "$w/full.json"
ln -s /dev/null "$w/null.json"
check "convert -> symlink to /dev/null" ok "$w/null.json" -- "$weft" convert "$log" --to perfetto "$w/null.json"
mkfifo "$w/pipe.json"; (cat "$w/pipe.json" > "$w/pipe.out" &)
check "convert -> FIFO (a reader on it)" ok "$w/pipe.json" -- "$weft" convert "$log" --to perfetto "$w/pipe.json"
mkdir "$w/empty-dir"
check "convert -> empty directory" error "$w/empty-dir" -- "$weft" convert "$log" --to perfetto "$w/empty-dir"
ln -s "$w/loop-b" "$w/loop-a"; ln -s "$w/loop-a" "$w/loop-b"
check "convert -> symlink loop" error "$w/loop-a" -- "$weft" convert "$log" --to perfetto "$w/loop-a"
check "convert -> file in a missing directory" error - -- "$weft" convert "$log" --to perfetto "$w/no/such/x.json"
# --- inputs that are not files
check "convert <- symlink loop" error - -- "$weft" convert "$w/loop-a" --to perfetto "$w/o1.json"
check "convert <- a directory" error - -- "$weft" convert "$w/empty-dir" --to perfetto "$w/o2.json"
check "convert <- /dev/zero" error - -- "$weft" convert /dev/zero --to perfetto "$w/o3.json"
check "diff <- /dev/zero" error - -- "$weft" diff /dev/zero "$log"
check "diff <- symlink loop" error - -- "$weft" diff "$w/loop-a" "$log"
head -n 1 "$log" > "$w/header-only.weftlog"
check "state --at 5 of a log without ops" error - -- "$weft" state "$w/header-only.weftlog" --at 5
# --- recordings
if [[ -n "$shim" ]]; then
  check "run --record -> a directory" error "$w/empty-dir" -- "$weft" run --shim "$shim" --seed 1 --net "" --record "$w/empty-dir" -- true
  mkfifo "$w/rec.fifo"
  check "run --record -> a FIFO" error "$w/rec.fifo" -- "$weft" run --shim "$shim" --seed 1 --net "" --record "$w/rec.fifo" -- true
  ln -s /dev/full "$w/full.weftlog"
  check "run --record -> symlink to /dev/full" error "$w/full.weftlog" -- "$weft" run --shim "$shim" --seed 1 --net "" --record "$w/full.weftlog" -- true
fi
# --- token files
printf 'secret\n' > "$w/tok644"; chmod 644 "$w/tok644"
printf 'secret\n' > "$w/tok666"; chmod 666 "$w/tok666"; ln -s "$w/tok666" "$w/toklink"
check "hostd --token-file (mode 0644)" error "$w/tok644" -- "$weft" hostd --listen 127.0.0.1:0 --token-file "$w/tok644"
check "hostd --token-file (link to 0666)" error "$w/toklink" -- "$weft" hostd --listen 127.0.0.1:0 --token-file "$w/toklink"
[[ -n "$shim" ]] && check "run --listen --token-file (mode 0666)" error "$w/tok666" -- "$weft" run --shim "$shim" --seed 1 --net "" --listen 127.0.0.1:0 --token-file "$w/tok666" -- true
# --- scenarios
scen() { printf '{"name":"h","seed":1,"nodes":[%s],"events":[%s]}' "$1" "${2:-}" > "$w/$3"; }
scen '{"node_id":0,"program":"/bin/tr\u0000ue","args":[]}' "" nul.json
check "scenario: NUL in program" error - -- "$weft" run "$w/nul.json"
scen '{"node_id":0,"program":"/bin/true","args":["a\u001bb"]}' "" ctl.json
check "scenario: ESC in an argument" error - -- "$weft" run "$w/ctl.json"
scen '{"node_id":0,"program":"/bin/true","args":[]}' '{"time_ns":5,"action":{"type":"activate_partition","spec":"0++1|"}}' part.json
check "scenario: partition spec 0++1|" error - -- "$weft" run "$w/part.json"
python3 -c 'import sys; sys.stdout.write("{\"name\":\"big\",\"seed\":1,\"nodes\":[" + ",".join("{\"node_id\":%d,\"program\":\"/bin/true\",\"args\":[]}" % i for i in range(100000)) + "]}")' > "$w/100k.json"
check "scenario: 100,000 nodes" error - -- "$weft" run "$w/100k.json"
# --- fuzz configs
printf '{"net":"","seed_count":1,"workload":{"sends":100,"payload_len":16777216},"out_dir":"%s/fz1"}' "$w" > "$w/fuzz-big.json"
check "fuzz: 100 sends x 16 MiB payloads" error - -- "$weft" fuzz --config "$w/fuzz-big.json"
python3 -c 'import sys; sys.stdout.write("{\"//\":\"" + "a" * 200000000 + "\",\"net\":\"\"}")' > "$w/fuzz-comment.json"
check "fuzz: a 200 MB comment" error - -- "$weft" fuzz --config "$w/fuzz-comment.json"
rm -f "$w/fuzz-comment.json" "$w/100k.json"
ln -s /dev/zero "$w/zero.json"
check "scenario: /dev/zero" error - -- "$weft" run "$w/zero.json"
check "campaign: config /dev/zero" error - -- "$weft" campaign --config "$w/zero.json" --out "$w/camp"
check "fuzz: config /dev/zero" error - -- "$weft" fuzz --config "$w/zero.json"

if [[ -n "$shim" ]]; then
  # --- 60 unauthenticated broker connections, each claiming a 16 MiB frame and sending nothing; a real node runs
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  ( sleep 2; python3 - "$port" <<'PY'
import socket, struct, sys, time
port = int(sys.argv[1]); socks = []
for i in range(60):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5); s.sendall(struct.pack("<I", 16 << 20)); socks.append(s)
    except OSError:
        pass
time.sleep(4)
for s in socks:
    s.close()
PY
  ) &
  abuser=$!
  check "broker: 60 x 16 MiB length prefixes (watchdog 9 s)" error - -- "$weft" run --shim "$shim" --seed 1 --net "" --listen "127.0.0.1:$port" --watchdog 9 -- sh -c 'while :; do :; done'
  wait $abuser
  # --- a SIGSTOPped host agent: the master names it after WEFT_PEER_TIMEOUT_MS (2 s here)
  (umask 077; printf 'shared\n' > "$w/tok600")
  hport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "$weft" hostd --listen "127.0.0.1:$hport" --token-file "$w/tok600" --shim "$shim" > "$w/hostd.log" 2>&1 &
  hostd=$!
  sleep 3
  ( sleep 5; kill -STOP $hostd ) &
  stopper=$!
  check "master: host agent SIGSTOPped mid-run" error - -- env WEFT_PEER_TIMEOUT_MS=2000 "$weft" run --shim "$shim" --seed 1 --net "" --hosts "127.0.0.1:$hport" --token-file "$w/tok600" -- sh -c 'while :; do :; done'
  wait $stopper 2>/dev/null
  kill -CONT $hostd; kill $hostd 2>/dev/null; wait $hostd 2>/dev/null
  # --- recorded runs interrupted (SIGINT) in their first instants: no file or a valid prefix, and a line saying which
  for d in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 1.0 1.5; do
    rec="$w/int-$d.weftlog"
    ( sleep "$d"; pkill -INT -f -- "--record $rec" ) &
    interrupter=$!
    check "run --record, SIGINT after ${d} s" interrupt - -- "$weft" run --shim "$shim" --seed 1 --net "" --nodes 2 --record "$rec" -- sh -c 'while :; do :; done'
    wait $interrupter
    if [[ -e "$rec" ]]; then
      "$weft" replay "$rec" > /dev/null 2>&1 || echo "    ^ $rec does not replay as a valid prefix"
    elif [[ -s "$w/err.txt" ]] && ! grep -q 'no recording written' "$w/err.txt"; then
      echo "    ^ no $rec, yet the last line does not say so"
    fi
  done
  # --- a plain run's node killed by SIGKILL
  check "run: node 1 killed by SIGKILL" error - -- "$weft" run --shim "$shim" --seed 1 --net "" --nodes 2 -- sh -c 'if [ "$WEFT_NODE_ID" = 1 ]; then kill -9 $$; fi'
fi

echo
printf "%-16s %-13s %-14s %-6s %-15s %s\n" "inputs tried" "clean errors" "stack traces" "hangs" "files replaced" "peak RSS"
printf "%-16s %-13s %-14s %-6s %-15s %s\n" "$tried" "$clean" "$traces" "$hangs" "$replaced" "$((peak_kb / 1024)) MiB"
echo "(also: $accepted accepted as they should be; $early interrupted before the JVM ran any weft code, leaving no"
echo " file and no line; $unclear unclear)"
