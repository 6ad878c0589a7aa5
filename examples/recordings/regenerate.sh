#!/usr/bin/env bash
# Rebuilds the bundled sample recording from its fuzz config. The bytes never change for the same config:
# launcher's SampleRecordingTest fails if they would.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
out=$(mktemp -d)
./weft fuzz --config examples/recordings/sample-fuzz.json --out "$out" >/dev/null || [ $? -eq 2 ]
cp "$out"/repro-seed3-per-channel-fifo-on-127-0-0-1-100-127-0-0-2-100.weftlog examples/recordings/sample.weftlog
rm -rf "$out"
echo "examples/recordings/sample.weftlog regenerated"
