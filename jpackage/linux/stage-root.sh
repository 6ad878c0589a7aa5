#!/usr/bin/env bash
# Lays out the installed file tree of the Linux packages (the .deb and the .rpm hold the same files):
# /opt/weft-workbench (the app image), /usr/bin/weft, the desktop entry, the MIME types for .weftlog and
# .weftlog.gz, hicolor icons, the shell completions and the copyright file.
#   stage-root.sh APP_IMAGE ROOT_DIR
set -euo pipefail
IMG=$1 R=$2
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
rm -rf "$R"
install -d "$R/opt" "$R/usr/share/doc/weft-workbench"
cp -pR "$IMG" "$R/opt/weft-workbench"   # -p: the AOT caches check the jars' modification times
cp "$ROOT/jpackage/linux/copyright" "$R/usr/share/doc/weft-workbench/copyright"

install -d "$R/usr/bin" "$R/usr/share/applications" "$R/usr/share/mime/packages" \
  "$R/usr/share/bash-completion/completions" "$R/usr/share/zsh/vendor-completions" \
  "$R/usr/share/icons/hicolor/scalable/apps"
ln -s ../../opt/weft-workbench/bin/weft "$R/usr/bin/weft"   # relative: also right inside a scratch root
install -m 644 "$HERE/weft-workbench.desktop" "$R/usr/share/applications/"
install -m 644 "$HERE/weft-workbench-mime.xml" "$R/usr/share/mime/packages/weft-workbench.xml"
install -m 644 "$ROOT/icons/weft-workbench.svg" "$R/usr/share/icons/hicolor/scalable/apps/"
for n in 16 24 32 48 64 128 256 512; do
  install -d "$R/usr/share/icons/hicolor/${n}x${n}/apps"
  install -m 644 "$ROOT/icons/png/weft-workbench-$n.png" "$R/usr/share/icons/hicolor/${n}x${n}/apps/weft-workbench.png"
done
# The completion scripts come from the command list of the weft just packaged.
"$R/opt/weft-workbench/bin/weft" completion bash > "$R/usr/share/bash-completion/completions/weft"
"$R/opt/weft-workbench/bin/weft" completion zsh > "$R/usr/share/zsh/vendor-completions/_weft"
