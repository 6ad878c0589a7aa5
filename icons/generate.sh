#!/bin/sh
# Regenerates every raster icon from the one source, weft-workbench.svg:
#   png/weft-workbench-<N>.png  (N = 16 … 1024; Linux hicolor sizes, and the sources of the two below)
#   weft-workbench.png          (256 px: jpackage --icon on Linux, the window icon)
#   weft-workbench.ico          (Windows .msi: 16, 24, 32, 48, 64, 256 px, PNG-compressed entries)
#   weft-workbench.icns         (macOS .dmg: 16 … 1024 px, PNG-compressed entries)
# Needs rsvg-convert (Debian: librsvg2-bin) and python3 (standard library only). Same inputs, same bytes:
# rsvg-convert writes no timestamps and the containers are assembled in a fixed order.
set -eu
cd "$(dirname "$0")"
command -v rsvg-convert >/dev/null || { echo "icons/generate.sh: needs rsvg-convert (apt-get install librsvg2-bin)" >&2; exit 1; }
mkdir -p png
for n in 16 24 32 48 64 128 256 512 1024; do
  rsvg-convert --width "$n" --height "$n" --format png --output "png/weft-workbench-$n.png" weft-workbench.svg
done
cp png/weft-workbench-256.png weft-workbench.png
python3 - <<'PY'
import struct

def png(n):
    with open(f"png/weft-workbench-{n}.png", "rb") as f:
        return f.read()

# ICO: ICONDIR, one ICONDIRENTRY per size, then the PNG images (Vista+ reads PNG entries).
sizes = [16, 24, 32, 48, 64, 256]
images = [png(n) for n in sizes]
out = struct.pack("<HHH", 0, 1, len(sizes))
offset = 6 + 16 * len(sizes)
for n, data in zip(sizes, images):
    out += struct.pack("<BBBBHHII", n % 256, n % 256, 0, 0, 1, 32, len(data), offset)
    offset += len(data)
with open("weft-workbench.ico", "wb") as f:
    f.write(out + b"".join(images))

# ICNS: 'icns' + total length, then (type, length incl. 8-byte header, PNG data) per entry.
types = [("icp4", 16), ("icp5", 32), ("icp6", 64), ("ic07", 128), ("ic08", 256), ("ic09", 512), ("ic10", 1024)]
body = b"".join(t.encode() + struct.pack(">I", 8 + len(png(n))) + png(n) for t, n in types)
with open("weft-workbench.icns", "wb") as f:
    f.write(b"icns" + struct.pack(">I", 8 + len(body)) + body)
PY
echo "icons: png/ (16-1024), weft-workbench.png, weft-workbench.ico, weft-workbench.icns"
