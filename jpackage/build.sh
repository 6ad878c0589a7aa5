#!/bin/sh
# Builds a self-contained Weft Workbench for this OS with the JDK's jpackage:
#   jpackage/build.sh [app-image|deb|rpm|dmg|msi] [OUT_DIR]      (default: app-image into app/target/jpackage)
# JavaFX goes on the module path (its platform jars are real modules); everything else, including
# RichTextFX and TilesFX which are not proper modules, stays on the class path (javafx:jlink cannot do this).
# A .deb needs dpkg-deb/fakeroot, a .dmg must be built on macOS, an .msi on Windows with WiX 3.
set -eu
TYPE=${1:-app-image}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${2:-$ROOT/app/target/jpackage}
cd "$ROOT"
mvn -q -B package -pl app -am -DskipTests
STAGE=app/target/jpackage-input
rm -rf "$STAGE" "$OUT"
mkdir -p "$STAGE/app" "$STAGE/fxmods"
cp app/target/weft-app.jar "$STAGE/app/"
for j in app/target/lib/*.jar; do
  case "$(basename "$j")" in
    javafx-*-linux.jar|javafx-*-mac*.jar|javafx-*-win.jar) cp "$j" "$STAGE/fxmods/" ;;
    javafx-*) ;;   # the empty platform-independent stubs
    *) cp "$j" "$STAGE/app/" ;;
  esac
done
# `--screenshot` without a display runs Monocle from the class path against the JavaFX modules: it needs
# these packages exported to it (a plain-jar run has JavaFX on the class path and needs none of this).
OPENS=""
for p in com.sun.javafx.logging com.sun.javafx.event com.sun.javafx.collections com.sun.javafx; do
  OPENS="$OPENS --java-options --add-exports=javafx.base/$p=ALL-UNNAMED"; done
for p in com.sun.glass.ui com.sun.glass.events com.sun.glass.ui.monocle com.sun.glass.utils com.sun.javafx.util \
         com.sun.javafx.application com.sun.javafx.tk com.sun.prism com.sun.javafx.scene com.sun.javafx.cursor; do
  OPENS="$OPENS --java-options --add-exports=javafx.graphics/$p=ALL-UNNAMED"; done
EXTRA=""
if [ "$TYPE" = deb ]; then EXTRA="--linux-package-deps libgtk-3-0 --linux-shortcut --linux-menu-group Development"; fi
# shellcheck disable=SC2086
jpackage --type "$TYPE" --name weft-workbench --app-version 0.1.0 \
  --description "Weft Workbench: scrub, step and check weft-log recordings" \
  --input "$STAGE/app" --main-jar weft-app.jar --main-class dev.weft.app.WorkbenchMain \
  --module-path "$STAGE/fxmods" \
  --add-modules javafx.controls,javafx.swing,java.desktop,java.logging,java.prefs,java.naming,java.net.http,java.sql,java.management,jdk.unsupported,jdk.crypto.ec \
  --icon icons/weft-workbench.png --java-options "-Xmx2g" $OPENS --dest "$OUT" $EXTRA
echo "built $TYPE in $OUT"
