#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the base initramfs of the test VM: busybox-static with its
# applets, tools/vm/init.sh as /init, and the given kernel modules in the
# given (load) order, decompressed so busybox insmod loads them.
#
# Usage: mkbase.sh OUT.cpio [MODULE.ko[.xz|.zst|.gz]...]
set -eu
out=${1:?usage: mkbase.sh OUT.cpio [MODULE...]}
shift
HERE=$(cd "$(dirname "$0")" && pwd)

BUSYBOX=$(command -v busybox || echo /bin/busybox)
file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' || {
	echo "mkbase: $BUSYBOX is not static: install busybox-static (make deps)" >&2
	exit 1
}

base=$(mktemp -d)
trap 'rm -rf "$base"' EXIT
mkdir -p "$base/bin" "$base/lib/modules" "$base/dev" "$base/proc" "$base/sys" \
	"$base/tmp" "$base/vpux" "$base/etc"
cp "$BUSYBOX" "$base/bin/busybox"
for app in $("$BUSYBOX" --list); do
	[ "$app" = busybox ] || ln -sf busybox "$base/bin/$app"
done
: >"$base/lib/modules/load-order"
for path in "$@"; do
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
(cd "$base" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$out"
