#!/usr/bin/env bash
# Makes the .rpm from a finished app image with rpmbuild: the same file tree as the .deb (stage-root.sh), so the
# .rpm too puts `weft` on PATH as /usr/bin/weft (jpackage's own --type rpm installs only /opt/weft-workbench).
# Requires: the shared libraries the image's native code links and does not bundle, by soname (as rpm's own
# dependency generator writes them, so they resolve on any rpm distribution), plus GTK 3, which JavaFX loads at run
# time. No scriptlets: the distributions' file triggers (shared-mime-info, desktop-file-utils, hicolor-icon-theme)
# refresh their caches. The payload is gzip-compressed (the default xz takes minutes for the ~150 MB image).
#   make-rpm.sh WORK_DIR APP_IMAGE VERSION OUT_DIR
set -euo pipefail
WORK=$(cd "$1" && pwd) IMG=$2 VERSION=$3 OUT=$4
HERE=$(cd "$(dirname "$0")" && pwd)
command -v rpmbuild >/dev/null || { echo "make-rpm.sh: rpmbuild not found (apt-get install rpm)" >&2; exit 1; }
R="$WORK/rpmroot"
"$HERE/stage-root.sh" "$IMG" "$R"

# Sonames the image's ELF files need that it does not ship itself.
elfs=$(find "$R/opt/weft-workbench" -type f \( -name '*.so' -o -name '*.so.*' -o -perm -u+x \) \
  -exec sh -c 'file -b "$1" | grep -q ELF && echo "$1"' _ {} \;)
bundled=$(for f in $elfs; do basename "$f"; done | sort -u)
needed=$(for f in $elfs; do readelf -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; done | sort -u)
requires=$(comm -23 <(echo "$needed") <(echo "$bundled") | grep -v '^ld-linux' | sed 's/$/()(64bit)/' | paste -sd' ')

TOP="$WORK/rpmbuild"
rm -rf "$TOP" && mkdir -p "$TOP"/{BUILD,RPMS,SPECS,SOURCES,SRPMS}
cat > "$TOP/SPECS/weft-workbench.spec" <<SPEC
Name: weft-workbench
Version: $VERSION
Release: 1
Summary: Weft Workbench: scrub, step and check weft-log recordings
License: Proprietary
URL: https://localhost/weft-workbench
AutoReqProv: no
Requires: $requires gtk3

%description
Deterministic simulation testing for unmodified Linux binaries: the weft command line (replay, check, fuzz,
run under the deterministic shim) and the desktop workbench for weft-log recordings.

%install
cp -a "$R/." "%{buildroot}/"

%files
%defattr(-,root,root,-)
/opt/weft-workbench
/usr/bin/weft
/usr/share/applications/weft-workbench.desktop
/usr/share/mime/packages/weft-workbench.xml
/usr/share/icons/hicolor/*/apps/weft-workbench.*
/usr/share/bash-completion/completions/weft
/usr/share/zsh/vendor-completions/_weft
%doc /usr/share/doc/weft-workbench/copyright
SPEC
# No stripping or other post-install rewriting: the AOT caches check the jars byte for byte and by time.
rpmbuild -bb --quiet --define "_topdir $TOP" --define "__os_install_post %{nil}" --define "debug_package %{nil}" \
  --define "_build_id_links none" --define "_binary_payload w6.gzdio" --define "_arch $(uname -m)" \
  --target "$(uname -m)" "$TOP/SPECS/weft-workbench.spec" >"$WORK/rpmbuild.log" 2>&1 \
  || { cat "$WORK/rpmbuild.log" >&2; exit 1; }
rpm=$(find "$TOP/RPMS" -name '*.rpm' | head -1)
mkdir -p "$OUT"
rm -f "$OUT"/weft-workbench-*.rpm
cp "$rpm" "$OUT/"
echo "built rpm $OUT/$(basename "$rpm") ($(du -k "$rpm" | cut -f1) KB)"
