#!/usr/bin/env bash
# Issue 18's acceptance matrix on the real CLI, as a new user would run it: every case N times
# per seed on several seeds through `./weft run`, and a table of what came out.
#   bench/issue18-acceptance.sh [-n RUNS] [-s "SEEDS"] [-f FLAGS] [-g GROUPS] [-o OUTDIR] [CASE...]
# RUNS defaults to 10, SEEDS to "11 12 13", FLAGS (extra `weft run` flags, e.g. --proc-sched) to none,
# GROUPS to "accept harder list1 timers" (accept: the issue's acceptance list; harder: other Debian
# programs; list1: docs/real-programs.md's first list; timers: issue 29's timer rows). CASE names
# pick single cases.
# A case's output is its stdout plus its exit status; its stderr is scanned for DEADLOCK, "held
# the run token", other "[weft]" warnings and timeouts (every run has `timeout 60`).
# Columns: distinct = distinct outputs over the RUNS runs of that seed (1 = run-stable);
# seeds-differ = the seeds' first outputs are pairwise different (for seed-sensitive cases);
# bad = runs with a nonzero exit, a timeout, DEADLOCK or a run-token warning, or (cases run with
# EXPECT_RE set) an output without a line matching it; ok = expectation met.
# Build first: mvn -B -ntp -q -DskipTests package -pl launcher -am
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
SRC=$HERE/issue18
RUNS=10; SEEDS="11 12 13"; FLAGS=""; OUT=""; GROUPS_ON="accept harder list1 timers"
while getopts "n:s:f:g:o:" o; do
  case $o in n) RUNS=$OPTARG ;; s) SEEDS=$OPTARG ;; f) FLAGS=$OPTARG ;; g) GROUPS_ON=$OPTARG ;; o) OUT=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
ONLY=" $* "
group() { [[ " $GROUPS_ON " == *" $1 "* ]]; }
[ -f "$ROOT/launcher/target/weft-launcher.jar" ] || { echo "build first: mvn -B -ntp -q -DskipTests package -pl launcher -am" >&2; exit 2; }
WORK=$(mktemp -d /tmp/weft-acc18.XXXXXX)
[ -n "$OUT" ] || OUT=$WORK/out
mkdir -p "$OUT"
trap 'rm -rf "$WORK/bin" "$WORK/d"' EXIT
BIN=$WORK/bin; mkdir -p "$BIN"
gcc -O1 -o "$BIN/fork_rand" "$SRC/fork_rand.c"
gcc -O1 -o "$BIN/raw_sys" "$SRC/raw_sys.c"
gcc -O1 -static -o "$BIN/raw_sys_static" "$SRC/raw_sys.c" 2>/dev/null || echo "note: gcc -static failed (no libc.a?)" >&2
gcc -O1 -o "$BIN/rdtsc" "$SRC/rdtsc.c"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
LUA=$(command -v lua || command -v lua5.4 || true)
BB=$(command -v busybox || true)

# run_case NAME KIND[+FLAG] CMD...   KIND: seeded (run-stable and seed-sensitive) | stable (run-stable)
#                             | varies (expected NOT stable: a documented escape, reported only)
printf '%-22s %5s %8s %12s %4s %3s  %s\n' case seed distinct seeds-differ bad ok note
TOTAL=0; FAILED=0
run_case() {
  local name=$1 kind=${2%%+*} extra=""
  [[ "$2" == *+* ]] && extra=${2#*+}
  shift 2
  [ "$ONLY" = "  " ] || [[ "$ONLY" == *" $name "* ]] || return 0
  local firsts=() case_ok=yes
  for seed in $SEEDS; do
    local dir=$OUT/$name/$seed; mkdir -p "$dir"
    local bad=0 notes=""
    for i in $(seq "$RUNS"); do
      # A fresh working directory per run: the cases that make files make them here, new.
      rm -rf "$WORK/d"; mkdir -p "$WORK/d"
      ( cd "$WORK/d" && timeout -k 5 60 "$ROOT/weft" run --seed "$seed" $FLAGS $extra -- "$@" ) >"$dir/$i.out" 2>"$dir/$i.err"
      local rc=$?
      echo "exit $rc" >>"$dir/$i.out"
      if [ $rc -ne 0 ]; then bad=$((bad + 1)); [ $rc -eq 124 ] && notes="$notes timeout"; fi
      if [ -n "${EXPECT_RE:-}" ] && ! grep -qE "$EXPECT_RE" "$dir/$i.out"; then bad=$((bad + 1)); notes="$notes unexpected-output"; fi
      grep -q DEADLOCK "$dir/$i.err" && { bad=$((bad + 1)); notes="$notes DEADLOCK"; }
      grep -q "held the run token" "$dir/$i.err" && { bad=$((bad + 1)); notes="$notes token-warning"; }
    done
    local distinct; distinct=$(md5sum "$dir"/*.out | awk '{print $1}' | sort -u | wc -l)
    firsts+=("$(md5sum <"$dir/1.out" | cut -c1-32)")
    local ok=yes
    case $kind in seeded|stable) [ "$distinct" -eq 1 ] && [ $bad -eq 0 ] || ok=no ;; varies) ok=- ;; esac
    [ "$ok" = no ] && case_ok=no
    notes=$(echo "$notes" | tr ' ' '\n' | grep . | sort | uniq -c | awk '{printf "%s×%s ", $2, $1}')
    printf '%-22s %5s %8s %12s %4s %3s  %s\n' "$name" "$seed" "$distinct" "" "$bad" "$ok" "$notes"
  done
  local ndist; ndist=$(printf '%s\n' "${firsts[@]}" | sort -u | wc -l)
  local differ=no; [ "$ndist" -eq "${#firsts[@]}" ] && differ=yes
  local ok=$case_ok
  [ "$kind" = seeded ] && [ "$differ" = no ] && ok=no
  [ "$kind" = varies ] && ok=-
  printf '%-22s %5s %8s %12s %4s %3s  %s\n' "$name" all "" "$differ" "" "$ok" "($kind; outputs in $OUT/$name)"
  TOTAL=$((TOTAL + 1)); [ "$ok" = no ] && FAILED=$((FAILED + 1))
  return 0
}

if group accept; then
# --- class 1: cross-process synchronization
run_case pool-with        seeded "$PY" "$SRC/pool_with.py"
run_case pool-terminate   seeded "$PY" "$SRC/pool_terminate.py"
run_case lock-child       seeded "$PY" "$SRC/lock_child.py"
# --- class 2: concurrent processes printing
run_case xargs-P2         seeded sh -c 'printf "%s\n" a b c d e f | xargs -P2 -n1 sh -c '\''echo $0 $(date +%N) $RANDOM; echo $0 done'\'''
run_case make-j2          seeded make -s -j2 -f "$SRC/Makefile.j2"
# One clock for the tree: no two of make -j2's eight date readings may be the same instant.
EXPECT_RE='^repeated-instants 0$' run_case make-j2-clock seeded sh -c 'make -s -j2 -f "$0" > log; cat log; awk "{print \$3}" log | sort | uniq -d | wc -l | sed "s/^/repeated-instants /"' "$SRC/Makefile.j2"
# --- class 3: per-process random streams and one clock
run_case fork-rand-c      seeded "$BIN/fork_rand"
run_case fork-rand-perl   seeded perl -e 'for (1..3) { my $p = fork; if (!$p) { print "child $_ ", rand(), "\n"; exit 0 } waitpid($p, 0) } print "parent ", rand(), "\n"'
run_case date-sleep-date  seeded sh -c 'date +%s.%N; sleep 1; date +%s.%N'
# --- class 4: file times
run_case stat-fresh       seeded sh -c 'echo hi > f; stat -c "%Y %y %Z" f; touch g; ls -l --time-style=+%s.%N f g | cut -d" " -f6-'
run_case gzip-fresh       seeded sh -c 'echo hello > f; gzip -c f | od -An -tx1 | head -1'
run_case tar-fresh        seeded sh -c 'mkdir t; echo a > t/a; echo b > t/b; tar czf - t | md5sum'
# --- class 5: glibc internals
[ -n "$LUA" ] && run_case lua-os-clock seeded "$LUA" -e 'local t = 0 for i = 1, 200000 do t = t + i end print(os.clock(), os.time(), math.random())'
[ -n "$BB" ] && run_case busybox-mktemp-u seeded "$BB" mktemp -u /tmp/weft-acc.XXXXXXXXXX
run_case raw-syscalls-dyn seeded "$BIN/raw_sys"
[ -x "$BIN/raw_sys_static" ] && run_case raw-syscalls-static seeded "$BIN/raw_sys_static"
[ -n "$BB" ] && run_case busybox-static seeded "$BB" sh -c 'date +%s.%N; mktemp -u; od -An -N8 -tx1 /dev/urandom'
run_case rdtsc-loop       seeded+--rdtsc "$BIN/rdtsc"
fi
# --- harder programs of our own choosing
if group harder; then
run_case sort-parallel    seeded sh -c 'seq 1 20000 | sort -R --parallel=2 -S 1M | md5sum'
command -v pigz >/dev/null && run_case pigz-fresh seeded sh -c 'seq 1 50000 > f; pigz -p2 -c f | md5sum'
run_case py-thread-subproc seeded "$PY" "$SRC/py_thr_sub.py"
run_case perl-fork-pipe   seeded perl -e 'pipe(R, W); for my $i (1..3) { if (!fork) { close R; print W "kid $i ", rand(), " ", time, "\n"; exit } } close W; print sort <R>; 1 while wait > 0'
run_case sh-pipeline      seeded sh -c 'seq 1 3000 | shuf | head -n 2000 | sort -n | md5sum; date +%s.%N'
fi
# --- docs/real-programs.md's first list (issue 6), each N times per seed
REAL=$ROOT/examples/real
if group list1; then
run_case l1-date          seeded date '+%s.%N %F %T'
run_case l1-shuf          seeded shuf -i 1-1000 -n 8
run_case l1-sort-R        seeded sh -c "seq 1 40 | sort -R | tr '\n' ' '"
run_case l1-mktemp        seeded mktemp -u /tmp/weft-test.XXXXXXXXXX
run_case l1-python3       seeded "$PY" "$REAL/plain_random.py"
run_case l1-python3-threads seeded "$PY" "$REAL/threads_random.py"
run_case l1-perl          seeded perl -e 'my %h = map { $_ => 1 } 1..12; print join(" ", rand(), int(rand(1e9)), $$, time, join(",", keys %h), {}), "\n"'
command -v bash >/dev/null && run_case l1-bash seeded bash -c 'echo $RANDOM $RANDOM $SRANDOM $$ $BASHPID; (echo sub $BASHPID)'
run_case l1-awk           seeded awk 'BEGIN { srand(); print rand(), rand(), srand() }'
command -v sqlite3 >/dev/null && run_case l1-sqlite3 seeded sqlite3 :memory: "select random(), hex(randomblob(8)), datetime('now');"
command -v openssl >/dev/null && run_case l1-openssl seeded openssl rand -hex 16
command -v tclsh >/dev/null && run_case l1-tclsh seeded sh -c "echo 'puts [expr {rand()}]; puts [clock seconds]' | tclsh"
command -v node >/dev/null && run_case l1-node seeded node "$REAL/random.js"
if command -v javac >/dev/null && javac -d "$BIN" "$REAL/ThreadsDemo.java" 2>/dev/null; then
  run_case l1-java-threads seeded java -Xshare:auto -cp "$BIN" ThreadsDemo
fi
fi
# --- issue 29: timers on the virtual clock (each also takes no real time: `timeout 60` would say)
if group timers; then
EXPECT_RE='^rc=124$' run_case t-timeout-sleep stable sh -c 'timeout 1 sleep 10; echo rc=$?'
EXPECT_RE='^interrupted after 1.0$' run_case t-py-alarm-sleep stable "$PY" -c 'import signal, time
class Alarm(Exception): pass
def alarm(s, f): raise Alarm()
signal.signal(signal.SIGALRM, alarm)
signal.alarm(1)
t = time.monotonic()
try:
    time.sleep(5); print("slept")
except Alarm:
    print("interrupted after", round(time.monotonic() - t, 1))'
EXPECT_RE='^alarm$' run_case t-perl-alarm stable perl -e '$SIG{ALRM} = sub { print "alarm\n"; exit 0 }; alarm 1; sleep 5; print "slept\n"'
EXPECT_RE='^20 ticks in 0.2 s$' run_case t-py-setitimer stable "$PY" -c 'import signal, time
n = 0
def tick(s, f):
    global n
    n += 1
signal.signal(signal.SIGALRM, tick)
signal.setitimer(signal.ITIMER_REAL, 0.01, 0.01)
t = time.monotonic()
while n < 20: time.sleep(0.003)
signal.setitimer(signal.ITIMER_REAL, 0)
print(n, "ticks in", round(time.monotonic() - t, 1), "s")'
# timeout around a threaded program (tests/timeout_threaded.c, TimersTest): its main thread sleeps 0.5 s while the
# other waits on a pipe; `timeout 20` must not fire at once (it did: rc 124, no output), `timeout 1` must at 1 s
gcc -O1 -pthread -o "$BIN/timeout_threaded" "$ROOT/shim-native/tests/timeout_threaded.c"
EXPECT_RE='^main: done at 50 cs$' run_case t-timeout-threaded stable timeout 20 "$BIN/timeout_threaded"
EXPECT_RE='^rc=124 after=100cs$' run_case t-timeout1-threaded stable bash -c 's=$(date +%s%N); timeout 1 "$0" long; rc=$?
e=$(date +%s%N); echo rc=$rc after=$(( (e - s) / 10000000 ))cs' "$BIN/timeout_threaded"
# timers against waits on simulated sockets: a one-node cluster, plain and windowed (tests/net_timers.c is
# NetTimersTest's program; each line checked is what a real machine prints)
NODE1="--net latency=uniform:2000-10000 --nodes 1"
EXPECT_RE='^\[n0\] udp recv interrupted after 1.0$' run_case t-net-py-recv "stable+$NODE1" "$PY" -c 'import signal, socket, time
class Alarm(Exception): pass
def alarm(s, f): raise Alarm()
signal.signal(signal.SIGALRM, alarm)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", 4900))
t = time.monotonic(); signal.alarm(1)
try:
    u.recv(100); print("udp got data")
except Alarm:
    print("udp recv interrupted after", round(time.monotonic() - t, 1))'
gcc -O1 -o "$BIN/net_timers" "$ROOT/shim-native/tests/net_timers.c"
EXPECT_RE='^\[n0\] 6 tcp accept timer_create rc=-1 errno=Interrupted system call ticks=1 after=15$' \
  run_case t-net-c-windowed "stable+$NODE1 --window 1000" "$BIN/net_timers"
# select/pselect/ppoll/poll over TCP and UDP, epoll_wait/epoll_pwait cut by a timer (tests/net_timers_select.c,
# NetTimersTest), and an asyncio TCP server + client whose loop waits in epoll_wait for an alarm
gcc -O1 -o "$BIN/net_timers_select" "$ROOT/shim-native/tests/net_timers_select.c"
EXPECT_RE='^\[n0\] 7 tcp epoll_wait rc=-1 errno=Interrupted system call ticks=1 after=10$' \
  run_case t-net-select-c "stable+$NODE1" "$BIN/net_timers_select"
EXPECT_RE='^\[n0\] 9 tcp epoll_pwait 1.5s mask blocks SIGALRM rc=0 ticks=1 after=15$' \
  run_case t-net-select-windowed "stable+$NODE1 --window 1000" "$BIN/net_timers_select"
ASYNCIO_ALARM='import asyncio, signal

async def main():
    loop = asyncio.get_running_loop()
    fired, served = asyncio.Event(), asyncio.Event()
    def on_alarm():
        print("alarm at", round(loop.time() - t0, 1), flush=True)
        fired.set()
    loop.add_signal_handler(signal.SIGALRM, on_alarm)
    async def serve(r, w):
        print("server got", (await r.readline()).decode().strip(), flush=True)
        await fired.wait()
        w.write(b"pong after the alarm\n")
        await w.drain()
        await r.read()   # until the client closes
        w.close()
        served.set()
    srv = await asyncio.start_server(serve, "127.0.0.1", 4950)
    r, w = await asyncio.open_connection("127.0.0.1", 4950)
    t0 = loop.time()
    signal.alarm(1)
    w.write(b"ping\n")
    await w.drain()
    line = (await r.readline()).decode().strip()
    print("client got", repr(line), "at", round(loop.time() - t0, 1), flush=True)
    ticks = []
    loop.add_signal_handler(signal.SIGALRM, lambda: ticks.append(loop.time()))
    signal.setitimer(signal.ITIMER_REAL, 0.3, 0.3)
    try:
        await asyncio.wait_for(r.read(1), 1.0)
        print("read returned")
    except asyncio.TimeoutError:
        signal.setitimer(signal.ITIMER_REAL, 0)
        print("wait_for timed out at", round(loop.time() - t0, 1), "ticks", len(ticks), flush=True)
    w.close()
    await w.wait_closed()
    await served.wait()
    print("server done", flush=True)
    srv.close()
    await srv.wait_closed()

asyncio.run(main())'
EXPECT_RE="^\[n0\] client got 'pong after the alarm' at 1.0$" run_case t-net-py-asyncio "stable+$NODE1" "$PY" -c "$ASYNCIO_ALARM"
EXPECT_RE='^\[n0\] wait_for timed out at 2.0 ticks 3$' \
  run_case t-net-py-asyncio-windowed "stable+$NODE1 --window 1000" "$PY" -c "$ASYNCIO_ALARM"
# signals as scheduler states: four processes / four threads with a signal pending at one instant handle it in
# an order the seed chooses (tests/signal_order.c, SignalOrderTest)
gcc -O1 -pthread -o "$BIN/signal_order" "$ROOT/shim-native/tests/signal_order.c"
EXPECT_RE='^u[1-4] u[1-4] u[1-4] u[1-4] $' run_case t-sig-order-procs seeded "$BIN/signal_order" procs-kill
EXPECT_RE='^u[1-4] u[1-4] u[1-4] u[1-4] $' run_case t-sig-order-threads seeded "$BIN/signal_order" threads-timer
# alarm's SIGALRM interrupts the main thread's select, not another thread's sleep (Linux's choice for a
# process-directed signal; tests/alarm_main_thread.c, TimersTest)
gcc -O1 -pthread -o "$BIN/alarm_main_thread" "$ROOT/shim-native/tests/alarm_main_thread.c"
EXPECT_RE='^main: select rc=-1 Interrupted system call at 10$' run_case t-alarm-main-thread stable "$BIN/alarm_main_thread" select-main
# a static busybox exec'd by a dynamic sh runs under weft_super at the sh child's place in the tree
# (docs/shim.md "Static images exec'd inside a dynamic tree"); its sleep moves the clock sh learns
[ -n "$BB" ] && run_case t-busybox-from-sh seeded sh -c "$BB date +%s.%N; $BB mktemp -u; $BB od -An -N8 -tx1 /dev/urandom"
[ -n "$BB" ] && EXPECT_RE='^1$' run_case t-busybox-sleep-from-sh stable sh -c "a=\$(date +%s%N); $BB sleep 1; echo \$(( \$(date +%s%N) - a >= 1000000000 ))"
# ... and takes turns in the tree's scheduler (step 2): its sleeps are virtual waits in wake order, so a 100 s sleep
# and timeout's 30 s take no real time (before: real time, past the case's 60 s limit)
[ -n "$BB" ] && EXPECT_RE='^rc=124$' run_case t-busybox-timeout seeded sh -c "date +%s.%N; timeout 30 $BB sleep 100; echo rc=\$?; date +%s.%N"
[ -n "$BB" ] && EXPECT_RE='^one two three done [0-9]+[.][0-9]+$' run_case t-busybox-sleep-order seeded sh -c \
  "echo \$( ($BB sleep 3; echo three) & (sleep 1; echo one) & ($BB sleep 2; echo two) & wait; $BB sleep 100; echo done; date +%s.%N)"
fi

echo
echo "cases: $TOTAL, expectation not met: $FAILED (runs per seed: $RUNS, seeds: $SEEDS, flags: ${FLAGS:-none}, groups: $GROUPS_ON)"
