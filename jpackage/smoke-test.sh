#!/usr/bin/env bash
# Installs a built package into a scratch root and uses it the way a user would:
#   jpackage/smoke-test.sh [PACKAGE_OR_IMAGE]        (default: the .deb and the .rpm in dist/target/packages)
# A .deb is unpacked with dpkg -x, an .rpm with rpm2cpio | cpio (no root, no system change); an app image directory
# (macOS .app, the Windows or Linux image, e.g. from an installed .dmg/.msi) is used in place. Then:
#   weft --version, --help; weft replay examples/recordings/sample.weftlog --check fifo,dup (22 violations, exit 2);
#   weft workbench SAMPLE --screenshot (headless) from the installed image, and the same from the GUI launcher;
#   for a .deb or .rpm: /usr/bin/weft, the desktop entry (desktop-file-validate when installed) and the MIME types, the
#   completion scripts list every command, the shim is shipped, and the AOT cache is usable where installed.
# Prints one line per check and "N passed, N failed"; exits 1 if any failed.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
if [ $# -eq 0 ]; then # every Linux package built: each its own run, all must pass
  pkgs=$(ls dist/target/packages/weft-workbench_*.deb dist/target/packages/weft-workbench-*.rpm 2>/dev/null)
  [ -n "$pkgs" ] || { echo "smoke-test: no package given and none in dist/target/packages" >&2; exit 1; }
  status=0
  for p in $pkgs; do "$0" "$p" || status=1; done
  exit $status
fi
PKG=$1
[ -n "$PKG" ] && [ -e "$PKG" ] || { echo "smoke-test: no package given and none in dist/target/packages" >&2; exit 1; }
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/weft-smoke.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
passed=0 failed=0
ok() { echo "ok   - $1"; passed=$((passed + 1)); }
bad() { echo "FAIL - $1"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }

case "$PKG" in
  *.deb)
    dpkg -x "$PKG" "$SCRATCH/root"
    PREFIX="$SCRATCH/root/opt/weft-workbench"
    WEFT="$SCRATCH/root/usr/bin/weft"
    GUI="$PREFIX/bin/weft-workbench" ;;
  *.rpm)
    mkdir -p "$SCRATCH/root"
    rpm2cpio "$PKG" | (cd "$SCRATCH/root" && cpio -idm --quiet)
    PREFIX="$SCRATCH/root/opt/weft-workbench"
    WEFT="$SCRATCH/root/usr/bin/weft"
    GUI="$PREFIX/bin/weft-workbench" ;;
  *.app)
    PREFIX="$PKG/Contents"; WEFT="$PKG/Contents/MacOS/weft"; GUI="$PKG/Contents/MacOS/weft-workbench" ;;
  *)
    PREFIX="$PKG"
    if [ -x "$PKG/bin/weft" ]; then WEFT="$PKG/bin/weft"; GUI="$PKG/bin/weft-workbench"
    else WEFT="$PKG/weft.exe"; GUI="$PKG/weft-workbench.exe"; fi ;;
esac
echo "smoke-test: $PKG"

check "weft is installed and executable ($WEFT)" test -x "$WEFT"
out=$("$WEFT" --version 2>&1); rc=$?
check "weft --version: exit 0, reference line then ours" test "$rc" = 0 -a "$(echo "$out" | head -1)" = "weft 0.0.2"
out=$("$WEFT" --help 2>&1); rc=$?
check "weft --help: exit 0 and lists replay" bash -c '[[ $0 == 0 && $1 == *"  replay "* ]]' "$rc" "$out"

"$WEFT" replay examples/recordings/sample.weftlog --check fifo,dup >"$SCRATCH/replay.out" 2>"$SCRATCH/replay.err"; rc=$?
check "weft replay sample --check fifo,dup: exit 2" test "$rc" = 2
check "... prints 'replay identical: N op(s), stream digest …' first" bash -c 'head -1 "$0" | grep -Eq "^replay identical: [0-9]+ op\(s\), stream digest [0-9a-f]{16}$"' "$SCRATCH/replay.out"
check "... and ends with '22 invariant violation(s)'" bash -c '[ "$(tail -1 "$0")" = "22 invariant violation(s)" ]' "$SCRATCH/replay.out"
check "... with nothing on stderr" test ! -s "$SCRATCH/replay.err"

is_png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && [ "$(wc -c < "$1")" -gt 20000 ]; }
env -u DISPLAY -u WAYLAND_DISPLAY "$WEFT" workbench examples/recordings/sample.weftlog --screenshot "$SCRATCH/cli.png" \
  >"$SCRATCH/shot.out" 2>&1
check "weft workbench SAMPLE --screenshot renders a PNG headless" is_png "$SCRATCH/cli.png"
env -u DISPLAY -u WAYLAND_DISPLAY "$GUI" examples/recordings/sample.weftlog --screenshot "$SCRATCH/gui.png" \
  >"$SCRATCH/gui.out" 2>&1
check "the weft-workbench launcher renders the same headless" is_png "$SCRATCH/gui.png"
mkdir -p dist/target && cp "$SCRATCH/gui.png" dist/target/smoke-screenshot.png 2>/dev/null

case "$PKG" in *.deb|*.rpm)
  R="$SCRATCH/root"
  check "/usr/bin/weft links into /opt/weft-workbench" test "$(readlink "$R/usr/bin/weft")" = ../../opt/weft-workbench/bin/weft
  D="$R/usr/share/applications/weft-workbench.desktop"
  if command -v desktop-file-validate >/dev/null; then
    check "desktop entry validates (desktop-file-validate)" desktop-file-validate "$D"
  else
    echo "skip - desktop-file-validate not installed (apt-get install desktop-file-utils)"
  fi
  exec_path=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$D")
  check "desktop entry runs the installed workbench ($exec_path)" test -x "$R$exec_path" -a "$exec_path" = /opt/weft-workbench/bin/weft-workbench
  M="$R/usr/share/mime/packages/weft-workbench.xml"
  mkdir -p "$SCRATCH/mime/packages" && cp "$M" "$SCRATCH/mime/packages/"
  check "MIME XML loads (update-mime-database)" bash -c 'update-mime-database "$0" >/dev/null 2>"$0/err" && ! grep -qi -e error -e warning "$0/err"' "$SCRATCH/mime"
  check "... with globs for *.weftlog and *.weftlog.gz" bash -c 'grep -q ":application/x-weftlog:\*\.weftlog$" "$0/globs2" && grep -q ":application/x-weftlog+gzip:\*\.weftlog\.gz$" "$0/globs2"' "$SCRATCH/mime"
  check "... and the desktop entry opens both types" grep -q '^MimeType=application/x-weftlog;application/x-weftlog+gzip;$' "$D"
  check "icons in hicolor (48 px, scalable)" test -s "$R/usr/share/icons/hicolor/48x48/apps/weft-workbench.png" -a -s "$R/usr/share/icons/hicolor/scalable/apps/weft-workbench.svg"
  check "the shim ships (libweft_shim.so next to the launcher jar)" test -s "$PREFIX/lib/app/libweft_shim.so"
  check "the supervisor for static binaries ships (weft_super next to it; run from the embedded copy if not executable)" test -s "$PREFIX/lib/app/weft_super"
  a=$("$WEFT" run --seed 11 -- date '+%F %T' 2>&1); b=$("$WEFT" run --seed 11 -- date '+%F %T' 2>&1)
  check "weft run --seed 11 -- date: the installed shim seeds the clock ($a)" test "$a" = "$b" -a "$a" = "2000-03-31 03:15:56"
  words=$("$WEFT" --help | sed -n 's/^  \([a-z-]*\) .*/\1/p')
  check "bash completion lists every command of weft --help" bash -c 'for w in $1; do grep -q "^    $w) opts=" "$0" || exit 1; done' "$R/usr/share/bash-completion/completions/weft" "$words"
  check "zsh completion lists every command of weft --help" bash -c 'for w in $1; do grep -q "^    '"'"'$w:" "$0" || exit 1; done' "$R/usr/share/zsh/vendor-completions/_weft" "$words"
  ;;
esac

# The ahead-of-time cache is only worth shipping if the installed copy can map it: AOTMode=on fails when it cannot.
cfg=$(ls "$PREFIX"/lib/app/weft.cfg "$PREFIX"/app/weft.cfg 2>/dev/null | head -1)
if [ -n "$cfg" ] && grep -q 'AOTCache=' "$cfg"; then
  JAVA_TOOL_OPTIONS="-XX:AOTMode=on" "$WEFT" replay examples/recordings/sample.weftlog >"$SCRATCH/aot.out" 2>&1
  check "the installed weft maps its AOT cache (-XX:AOTMode=on)" grep -q "^replay identical: " "$SCRATCH/aot.out"
elif [ -n "$cfg" ] && grep -q 'SharedArchiveFile=' "$cfg"; then
  # A JDK 17-24 runtime's AppCDS archive records absolute jar paths, so an installed copy may not map it: that
  # costs start-up time, not correctness. Say which, without failing.
  if JAVA_TOOL_OPTIONS="-Xshare:on" "$WEFT" replay examples/recordings/sample.weftlog 2>&1 | grep -q "^replay identical: "; then
    echo "note - the installed weft maps its AppCDS archive"
  else
    echo "note - the installed weft cannot map its AppCDS archive here (paths differ from the build's); it starts without"
  fi
else
  echo "skip - no ahead-of-time cache in this image"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
