#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Prepare the VM kernel: fetch Debian's kernel image package for KVER
# (the same ABI as the headers the module is built against) with
# `apt-get download`, extract vmlinuz and the modules vpux_accel needs
# (the closure of VPUX_VM_MODULES in modules.dep, decompressed so
# busybox insmod can load them) and a base initramfs (busybox-static,
# the modules, /init). Everything is cached under $VPUX_VM_CACHE/$KVER
# (default ~/.cache/vpux-vm) and rebuilt only when this script changes.
#
# Usage: vm-kernel.sh KVER       prints the cache directory on success
set -eu

KVER=${1:?usage: vm-kernel.sh KVER}
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${VPUX_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vpux-vm}/$KVER
# Modules the driver depends on (directly or later: shmem BOs, drm_sched).
VPUX_VM_MODULES=${VPUX_VM_MODULES:-"drm drm_shmem_helper gpu-sched drm_exec"}
STAMP=$( (cat "$0" "$HERE/init.sh"; echo "$VPUX_VM_MODULES") | sha256sum | cut -c1-16)

if [ -f "$CACHE/stamp" ] && [ "$(cat "$CACHE/stamp")" = "$STAMP" ]; then
	echo "$CACHE"
	exit 0
fi

die() { echo "vm-kernel: $*" >&2; exit 1; }
command -v busybox >/dev/null || [ -x /bin/busybox ] || die "busybox-static missing: run make deps"
command -v depmod >/dev/null || [ -x /sbin/depmod ] || die "kmod missing: run make deps"
BUSYBOX=$(command -v busybox || echo /bin/busybox)
file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' ||
	die "$BUSYBOX is not static: install busybox-static (make deps)"

rm -rf "$CACHE"
mkdir -p "$CACHE"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pkg=linux-image-$KVER-unsigned
echo "vm-kernel: downloading $pkg" >&2
(cd "$work" && apt-get download "$pkg" >/dev/null 2>&1) ||
	(cd "$work" && apt-get download "linux-image-$KVER" >/dev/null) ||
	die "cannot download $pkg (apt-get update?)"
dpkg-deb -x "$work"/*.deb "$work/root"
cp "$work/root/boot/vmlinuz-$KVER" "$CACHE/vmlinuz"
cp "$work/root/boot/config-$KVER" "$CACHE/config"

PATH=$PATH:/sbin:/usr/sbin depmod -b "$work/root" "$KVER"

# Dependency closure in load order (dependencies first), as modprobe
# would load it, without duplicates.
order=$(for m in $VPUX_VM_MODULES; do
	PATH=$PATH:/sbin:/usr/sbin modprobe -d "$work/root" -S "$KVER" \
		--show-depends "$m" || echo "MISSING $m"
done | awk '$1 == "MISSING" { print "vm-kernel: module " $2 " not found" > "/dev/stderr"; exit 1 }
	    $1 == "insmod" && !seen[$2]++ { print $2 }') || die "module closure failed"

base=$work/base
mkdir -p "$base/bin" "$base/lib/modules" "$base/dev" "$base/proc" "$base/sys" \
	"$base/tmp" "$base/vpux" "$base/etc"
cp "$BUSYBOX" "$base/bin/busybox"
for app in $("$BUSYBOX" --list); do
	[ "$app" = busybox ] || ln -sf busybox "$base/bin/$app"
done
: >"$base/lib/modules/load-order"
for path in $order; do
	name=$(basename "$path" | sed -E 's/\.ko(\.xz|\.zst|\.gz)?$//')
	case "$path" in
	*.xz) xz -dc "$path" >"$base/lib/modules/$name.ko" ;;
	*.zst) zstd -qdc "$path" >"$base/lib/modules/$name.ko" ;;
	*.gz) gzip -dc "$path" >"$base/lib/modules/$name.ko" ;;
	*) cp "$path" "$base/lib/modules/$name.ko" ;;
	esac
	echo "$name" >>"$base/lib/modules/load-order"
done
cp "$HERE/init.sh" "$base/init"
chmod 755 "$base/init"
(cd "$base" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$CACHE/base.cpio"
echo "$STAMP" >"$CACHE/stamp"
echo "vm-kernel: cached $KVER in $CACHE ($(echo "$order" | wc -w) modules)" >&2
echo "$CACHE"
