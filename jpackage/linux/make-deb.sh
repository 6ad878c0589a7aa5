#!/usr/bin/env bash
# Makes the .deb from a finished app image with dpkg-deb: the file tree of stage-root.sh (/opt/weft-workbench, the
# image; /usr/bin/weft, the desktop entry, the MIME types for .weftlog and .weftlog.gz, hicolor icons and the shell
# completions). Debian's triggers (shared-mime-info, desktop-file-utils, hicolor-icon-theme) refresh their caches on
# install, so no maintainer scripts are needed. Depends: the packages owning the libraries the image's native code links
# (found with ldd and dpkg -S, as jpackage does), plus GTK 3 which JavaFX loads at run time.
# (jpackage --type deb would do the first part but spends minutes compressing with xz; gzip is enough here.)
#   make-deb.sh JDK WORK_DIR APP_IMAGE VERSION OUT_DIR
set -euo pipefail
JDK=$1 WORK=$2 IMG=$3 VERSION=$4 OUT=$5
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
R="$WORK/debroot"
"$HERE/stage-root.sh" "$IMG" "$R"
install -d "$R/DEBIAN"

ARCH=$(dpkg --print-architecture)
# Library dependencies of the image's native code, as package names (those not owned by a package are bundled).
deps=$(find "$R/opt/weft-workbench" -type f \( -name '*.so' -o -perm -u+x \) -exec sh -c 'file -b "$1" | grep -q ELF && ldd "$1" 2>/dev/null' _ {} \; \
  | awk '/=> \//{print $3}' | sort -u | while read -r lib; do dpkg -S "$(readlink -f "$lib")" 2>/dev/null || dpkg -S "$lib" 2>/dev/null; done \
  | cut -d: -f1 | sort -u | grep -v '^weft-workbench$' | paste -sd, | sed 's/,/, /g') || true
deps="${deps:+$deps, }libgtk-3-0"
size=$(du -sk --exclude=DEBIAN "$R" | cut -f1)
cat > "$R/DEBIAN/control" <<CONTROL
Package: weft-workbench
Version: $VERSION
Section: devel
Priority: optional
Architecture: $ARCH
Maintainer: Weft Workbench <weft@localhost>
Installed-Size: $size
Depends: $deps
Description: Weft Workbench: scrub, step and check weft-log recordings
 Deterministic simulation testing for unmodified Linux binaries: the weft command line (replay, check, fuzz,
 run under the deterministic shim) and the desktop workbench for weft-log recordings.
CONTROL
(cd "$R" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | LC_ALL=C sort | xargs -d '\n' md5sum) \
  > "$R/DEBIAN/md5sums"
deb="weft-workbench_${VERSION}_${ARCH}.deb"
mkdir -p "$OUT"
rm -f "$OUT"/weft-workbench_*.deb
dpkg-deb --root-owner-group -Zgzip --build "$R" "$OUT/$deb" >/dev/null
echo "built deb $OUT/$deb ($(du -k "$OUT/$deb" | cut -f1) KB)"
