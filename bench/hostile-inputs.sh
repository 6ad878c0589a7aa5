#!/usr/bin/env bash
# Hostile inputs (issue 12): each must end with a clear message or the reference's verdict, in bounded memory.
# Prints the verdict line, wall time and peak RSS of `weft replay` for each; asserts nothing. Inputs are generated
# on the fly (pipes), never stored, except the two gzip files (about 1 MB each) under target/bench.
# Usage: bench/hostile-inputs.sh        (needs python3, gzip; writes only under target/)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mvn -q -B -ntp -DskipTests package -pl launcher -am
mkdir -p target/bench
jar=launcher/target/weft-launcher.jar
GiB=$((1 << 30))

run() { # run LABEL CMD...: prints the last stderr/stdout line, wall time and peak RSS
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o target/bench/hostile-time.txt "$@" > target/bench/hostile-out.txt 2>&1 || true
  read -r t m < <(tail -1 target/bench/hostile-time.txt)
  printf "%-34s %6.1f s  peak RSS %5.0f MB  %s\n" "$label" "$t" "$(awk "BEGIN{print $m/1024}")" \
    "$(tail -1 target/bench/hostile-out.txt | cut -c1-110)"
}
vector=target/bench/vector.weftlog
python3 -c '
import sys
spec = open("../shared/spec/weft-log-v2.md").read()
block = spec[spec.index("## 12."):].split("```")[1]
sys.stdout.write(block.lstrip("\n"))' > "$vector"

padded() { # the vector with N bytes of white space inside record op 6 (line 8), streamed
  python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
n = int(sys.argv[2]); out = sys.stdout.buffer
out.write(("\n".join(lines[:7]) + "\n" + lines[7][:1]).encode())
chunk = b" " * (1 << 20)
for _ in range(n >> 20): out.write(chunk)
out.write((lines[7][1:] + "\n" + "\n".join(lines[8:])).encode())' "$vector" "$1"
}
member() { # the vector with an unknown string member of N bytes in record op 6
  python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
n = int(sys.argv[2]); out = sys.stdout.buffer
out.write(("\n".join(lines[:7]) + "\n" + lines[7][:-1] + ",\"big\":\"").encode())
chunk = b"a" * (1 << 20)
for _ in range(n >> 20): out.write(chunk)
out.write(("\"}\n" + "\n".join(lines[8:])).encode())' "$vector" "$1"
}
deep() { # the vector with an unknown member nested N levels deep in record op 6
  python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
n = int(sys.argv[2])
lines[7] = lines[7][:-1] + ",\"deep\":" + "[" * n + "]" * n + "}"
sys.stdout.write("\n".join(lines))' "$vector" "$1"
}

[ -f target/bench/line-1g.gz ] || head -c $GiB /dev/zero | tr '\0' 'a' | gzip -1 > target/bench/line-1g.gz
[ -f target/bench/bomb-1g.gz ] || head -c $GiB /dev/zero | gzip -1 > target/bench/bomb-1g.gz

echo "weft replay on hostile inputs (reference verdict for the valid ones: replay identical: 16 op(s), stream digest d62fd06704cbe952)"
run "endless line (/dev/zero)"        java -jar $jar replay /dev/zero
{ head -c $GiB /dev/zero | tr '\0' a | run "1 GiB line, plain (pipe)" java -jar $jar replay /dev/stdin; } || true
run "1 GiB line, gzip"                java -jar $jar replay target/bench/line-1g.gz
run "1 GiB gzip bomb (zeros)"         java -jar $jar replay target/bench/bomb-1g.gz
{ padded $GiB | run "valid log + 1 GiB white space" java -jar $jar replay /dev/stdin; } || true
{ member $((200 << 20)) 2>/dev/null | run "valid log + 200 MB member" java -jar $jar replay /dev/stdin; } || true
{ deep 100000 | run "valid log + depth 100,000" java -jar $jar replay /dev/stdin; } || true
