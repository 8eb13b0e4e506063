#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the debug kernel of the VM rig from Debian's linux-source-6.12:
# tinyconfig + tools/vm/debug.config (KASAN, lockdep, kmemleak, UBSAN,
# debug objects, fault injection, KCOV; DRM, the GEM shmem helper and
# drm_sched built in). The result is cached under
# $VPUX_VM_CACHE/debug-KEY, KEY hashing the fragment, this script and the
# source package version, so only the first run pays for the build.
#
# Usage: debug-kernel.sh     prints the cache directory, which holds
#                            bzImage, base.cpio and build/ (the KDIR to
#                            build vpux_accel.ko against)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
TAR=${VPUX_KSRC_TAR:-/usr/src/linux-source-6.12.tar.xz}
die() { echo "debug-kernel: $*" >&2; exit 1; }
[ -f "$TAR" ] || die "$TAR missing: run make deps (linux-source-6.12)"

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || stat -c %Y "$TAR")
KEY=$( (cat "$HERE/debug.config" "$0" "$HERE/mkbase.sh"; echo "$srcver") |
	sha256sum | cut -c1-16)
ROOT=${VPUX_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vpux-vm}
CACHE=$ROOT/debug-$KEY

if [ -f "$CACHE/done" ]; then
	echo "$CACHE"
	exit 0
fi
# keep one debug build at a time: each is about a gigabyte
rm -rf "$ROOT"/debug-*
mkdir -p "$CACHE"
log=$CACHE/build.log
echo "debug-kernel: building $srcver with tools/vm/debug.config (log: $log)" >&2
start=$(date +%s)
{
	tar -xJf "$TAR" -C "$CACHE"
	src=$CACHE/linux-source-6.12
	out=$CACHE/build
	make -C "$src" O="$out" tinyconfig
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$HERE/debug.config"
	make -C "$src" O="$out" olddefconfig
} >"$log" 2>&1 || die "configuration failed, see $log"

# every line of the fragment must have survived olddefconfig
missing=$(grep -E '^(CONFIG_[A-Z0-9_]+=|# CONFIG_[A-Z0-9_]+ is not set)' "$HERE/debug.config" |
	while IFS= read -r line; do
		case "$line" in
		"# "*) opt=${line#\# }; opt=${opt%% *}
		       ! grep -qE "^$opt=[ym]" "$CACHE/build/.config" || echo "$line" ;;
		*) grep -qxF "$line" "$CACHE/build/.config" || echo "$line" ;;
		esac
	done)
[ -z "$missing" ] || die "options not taken (dependencies?): $(echo "$missing" | tr '\n' ' ')"

make -C "$CACHE/linux-source-6.12" O="$CACHE/build" -j"$(nproc)" bzImage modules \
	>>"$log" 2>&1 || die "build failed, see $log"
cp "$CACHE/build/arch/x86/boot/bzImage" "$CACHE/bzImage"
"$HERE/mkbase.sh" "$CACHE/base.cpio"
touch "$CACHE/done"
echo "debug-kernel: built in $(( $(date +%s) - start ))s: $CACHE" >&2
echo "$CACHE"
