#!/bin/sh
# Runs the workbench benchmark (a main, not a test) on FILE, else on the reference corpus' ~1M-record log when it is
# named (WEFT_SHARED_DIR=DIR, DIR holding conformance/), else on a Chord log of our own corpus; headless under Monocle
# when there is no display. Prints figures; never fails on them. WEFT_BENCH_JAVA_OPTS adds JVM options (e.g. a
# flight recording: -XX:StartFlightRecording=filename=b.jfr,settings=profile).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
CP_FILE=$(mktemp)
mvn -q -B -o test-compile dependency:build-classpath -pl app -am -Dmdep.outputFile="$CP_FILE" -Dmdep.includeScope=test
CP="app/target/test-classes:app/target/classes:$(cat "$CP_FILE")"
rm -f "$CP_FILE"
exec java -Xmx2g ${WEFT_BENCH_JAVA_OPTS:-} ${WEFT_SHARED_DIR:+-Dweft.shared.dir="$WEFT_SHARED_DIR"} -cp "$CP" dev.weft.app.bench.WorkbenchBenchmark "$@"
