#!/bin/sh
# Runs the workbench benchmark (a main, not a test) on the ~1M-record corpus log or on FILE, headless
# under Monocle when there is no display. Prints figures; never fails on them. WEFT_BENCH_JAVA_OPTS adds JVM
# options (e.g. a flight recording: -XX:StartFlightRecording=filename=b.jfr,settings=profile).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
CP_FILE=$(mktemp)
mvn -q -B -o test-compile dependency:build-classpath -pl app -am -Dmdep.outputFile="$CP_FILE" -Dmdep.includeScope=test
CP="app/target/test-classes:app/target/classes:$(cat "$CP_FILE")"
rm -f "$CP_FILE"
exec java -Xmx2g ${WEFT_BENCH_JAVA_OPTS:-} -Dweft.shared.dir="${WEFT_SHARED_DIR:-$ROOT/../shared}" -cp "$CP" dev.weft.app.bench.WorkbenchBenchmark "$@"
