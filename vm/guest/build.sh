#!/usr/bin/env bash
# Builds the SimFerret guest reproducibly: OUT/vmlinux (the pinned Debian kernel as an uncompressed ELF,
# booted through PVH), OUT/initramfs.cpio.gz (busybox-static + /init + our static C programs; mtime 0,
# sorted, owner 0:0, gzip -n) and OUT/guest.properties (what went in, with SHA-256 digests).
#   usage: build.sh OUT_DIR        cache: $WEFT_VM_CACHE or ~/.cache/weft/simferret (the kernel .deb)
# Idempotent: the kernel is downloaded once per cache; everything else is rebuilt from sources each time.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:?usage: build.sh OUT_DIR}"
cache="${WEFT_VM_CACHE:-$HOME/.cache/weft/simferret}"
# shellcheck source=kernel.pin
. "$here/kernel.pin"

need() { command -v "$1" >/dev/null 2>&1 || { echo "simferret guest: '$1' not found (install: $2)" >&2; exit 3; }; }
need gcc gcc
need cpio cpio
need gzip gzip
need xz xz-utils
need dpkg-deb dpkg
need sha256sum coreutils
busybox=/bin/busybox
if [[ ! -x $busybox ]] || ! LC_ALL=C file -L "$busybox" | grep -q 'statically linked'; then
  echo "simferret guest: a static /bin/busybox is needed (install: busybox-static)" >&2; exit 3
fi

export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0
mkdir -p "$out" "$cache"
out="$(cd "$out" && pwd)"

# 1. The kernel .deb (downloaded once, digest checked every time), then the ELF vmlinux inside its bzImage.
deb="$cache/${KERNEL_PACKAGE}_${KERNEL_VERSION}_amd64.deb"
if [[ ! -f $deb ]]; then
  need apt-get apt
  echo "simferret guest: downloading $KERNEL_PACKAGE=$KERNEL_VERSION into $cache" >&2
  download() { (cd "$cache" && apt-get download -q "$KERNEL_PACKAGE=$KERNEL_VERSION" >&2); }
  # A machine whose package lists are missing or stale (a fresh container) needs one update first.
  if ! download && { [[ $(id -u) -ne 0 ]] || ! apt-get update -qq >&2 || ! download; }; then
    echo "simferret guest: apt-get download $KERNEL_PACKAGE=$KERNEL_VERSION failed" \
      "(is it still in the archive? see vm/guest/kernel.pin)" >&2
    exit 4
  fi
  mv "$cache/${KERNEL_PACKAGE}_${KERNEL_VERSION//:/%3a}_amd64.deb" "$deb" 2>/dev/null || true
fi
got="$(sha256sum "$deb" | cut -d' ' -f1)"
if [[ $got != "$KERNEL_DEB_SHA256" ]]; then
  echo "simferret guest: $deb has SHA-256 $got, kernel.pin says $KERNEL_DEB_SHA256" >&2; exit 4
fi
vmlinux_cache="$cache/vmlinux-$KERNEL_DEB_SHA256"
if [[ ! -f $vmlinux_cache ]]; then
  tmp="$(mktemp -d)"
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards './boot/vmlinuz-*'
  vmlinuz="$(ls "$tmp"/boot/vmlinuz-*)"
  # The bzImage carries the kernel as one XZ stream after the setup code: find its magic and unpack it.
  offset="$(grep -obUaP '\xfd7zXZ\x00' "$vmlinuz" | head -1 | cut -d: -f1)"
  tail -c +"$((offset + 1))" "$vmlinuz" | xz -dc --single-stream > "$tmp/vmlinux" 2>/dev/null || true
  head -c 4 "$tmp/vmlinux" | grep -q 'ELF' || { echo "simferret guest: no ELF vmlinux in $vmlinuz" >&2; exit 4; }
  mv "$tmp/vmlinux" "$vmlinux_cache"
  rm -rf "$tmp"
fi
# Outputs are replaced by rename, and only when their bytes change: a QEMU reading the old file is not disturbed.
install_file() { # $1 = new file, $2 = target
  if cmp -s "$1" "$2"; then rm -f "$1"; else mv -f "$1" "$2"; fi
}
cp "$vmlinux_cache" "$out/.vmlinux.new"
install_file "$out/.vmlinux.new" "$out/vmlinux"

# 2. Our static programs and the initramfs tree, every timestamp and owner fixed.
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
root="$stage/root"
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/run"
cflags=(-static -O2 -Wall -Wextra -Wno-unused-parameter -ffile-prefix-map="$here"=. -fno-ident)
for prog in agent:sfagent echo_server:sfserver workload:sfclient checker:sfcheck; do
  gcc "${cflags[@]}" -o "$root/bin/${prog#*:}" "$here/src/${prog%%:*}.c"
  strip --strip-all "$root/bin/${prog#*:}"
done
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$here/init" "$root/init"
chmod 0755 "$root" "$root"/bin "$root"/proc "$root"/sys "$root"/dev "$root"/run "$root/init" "$root"/bin/sf* "$root/bin/busybox"
find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . -mindepth 1 | sort | cpio -o -H newc --reproducible -R 0:0 --quiet) | gzip -n -9 > "$out/.initramfs.new"
install_file "$out/.initramfs.new" "$out/initramfs.cpio.gz"

# 3. What went in.
{
  echo "kernel.package=$KERNEL_PACKAGE"
  echo "kernel.version=$KERNEL_VERSION"
  echo "kernel.deb.sha256=$KERNEL_DEB_SHA256"
  echo "vmlinux.sha256=$(sha256sum "$out/vmlinux" | cut -d' ' -f1)"
  echo "initramfs.sha256=$(sha256sum "$out/initramfs.cpio.gz" | cut -d' ' -f1)"
  echo "busybox.sha256=$(sha256sum "$busybox" | cut -d' ' -f1)"
} > "$out/.guest.properties.new"
install_file "$out/.guest.properties.new" "$out/guest.properties"
echo "simferret guest: built in $out" >&2
