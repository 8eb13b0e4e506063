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
# Modules the driver depends on (directly or later: shmem BOs, drm_sched),
# and vgem, whose fences the kselftests use as in-fences they control.
VPUX_VM_MODULES=${VPUX_VM_MODULES:-"drm drm_shmem_helper gpu-sched drm_exec vgem"}
STAMP=$( (cat "$0" "$HERE/mkbase.sh"; echo "$VPUX_VM_MODULES") | sha256sum | cut -c1-16)

if [ -f "$CACHE/stamp" ] && [ "$(cat "$CACHE/stamp")" = "$STAMP" ]; then
	echo "$CACHE"
	exit 0
fi

die() { echo "vm-kernel: $*" >&2; exit 1; }
command -v depmod >/dev/null || [ -x /sbin/depmod ] || die "kmod missing: run make deps"

rm -rf "$CACHE"
mkdir -p "$CACHE"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pkg=linux-image-$KVER-unsigned
echo "vm-kernel: downloading $pkg" >&2
dl() { (cd "$work" && apt-get download "$1" >/dev/null 2>&1); }
# a stale package list may no longer name the package: refresh once
dl "$pkg" || { apt-get update -q >/dev/null 2>&1; dl "$pkg"; } ||
	die "cannot download $pkg"
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

# shellcheck disable=SC2086
"$HERE/mkbase.sh" "$CACHE/base.cpio" $order
echo "$STAMP" >"$CACHE/stamp"
echo "vm-kernel: cached $KVER in $CACHE ($(echo "$order" | wc -w) modules)" >&2
echo "$CACHE"
