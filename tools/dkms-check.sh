#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make dkms-check: the module's source as `make install` puts it under
# /usr/src/vpux-VERSION, run through Debian's dkms(8) as a user's machine
# runs it: add (register), build against the 6.12 headers, install,
# status, remove. Everything happens in private trees under a scratch
# directory (--sourcetree, --dkmstree, --installtree, --no-depmod): the
# host's /usr/src, /var/lib/dkms and /lib/modules are not touched, and
# nothing is loaded (the VM loads modules; this host cannot).
#
# Usage: dkms-check.sh KVER KDIR   (environment: VERSION, B, MAKE)
set -eu
kver=${1:?usage: dkms-check.sh KVER KDIR}
kdir=${2:?usage: dkms-check.sh KVER KDIR}
TOP=$(cd "$(dirname "$0")/.." && pwd)
: "${VERSION:?}" "${B:?}"
command -v dkms >/dev/null || { echo "dkms-check: no dkms: run make deps" >&2; exit 1; }
T=$B/dkms-check
rm -rf "$T"
# dkms installs only for a kernel whose module directory exists
mkdir -p "$T/root" "$T/dkms" "$T/modules/$kver"
fail() { echo "dkms-check: $*" >&2; tail -40 "$T/log" 2>/dev/null >&2; exit 1; }
: >"$T/log"

${MAKE:-make} -s -C "$TOP" B="$B" DESTDIR="$T/root" install-dkms >>"$T/log" 2>&1 ||
	fail "make install-dkms failed"
src=$T/root/usr/src
D="dkms --sourcetree $src --dkmstree $T/dkms --installtree $T/modules"
# shellcheck disable=SC2086
run() { echo "+ $*" >>"$T/log"; "$@" >>"$T/log" 2>&1; }

# shellcheck disable=SC2086
run $D add -m vpux -v "$VERSION" || fail "dkms add failed"
# shellcheck disable=SC2086
$D status -m vpux -v "$VERSION" 2>/dev/null | grep -q "^vpux/$VERSION: added" ||
	fail "dkms status does not say added"
start=$(date +%s)
# shellcheck disable=SC2086
run $D build -m vpux -v "$VERSION" -k "$kver" --kernelsourcedir "$kdir" ||
	{ cat "$T/dkms/vpux/$VERSION/build/make.log" >>"$T/log" 2>/dev/null; fail "dkms build failed"; }
secs=$(( $(date +%s) - start ))
ko=$T/dkms/vpux/$VERSION/$kver/x86_64/module/vpux_accel.ko
[ -f "$ko" ] || ko=$(find "$T/dkms/vpux/$VERSION/$kver" -name 'vpux_accel.ko*' | head -n1)
[ -n "$ko" ] && [ -f "$ko" ] || fail "dkms build made no vpux_accel.ko"
[ -n "$(find "$T/dkms/vpux/$VERSION/$kver" -name 'vpux_sim.ko*')" ] ||
	fail "dkms build made no vpux_sim.ko"
# shellcheck disable=SC2086
run $D install -m vpux -v "$VERSION" -k "$kver" --kernelsourcedir "$kdir" --no-depmod ||
	fail "dkms install failed"
inst=$(find "$T/modules/$kver" -name 'vpux_accel.ko*' | head -n1)
[ -n "$inst" ] || fail "dkms install put no vpux_accel.ko under $T/modules/$kver"
[ -n "$(find "$T/modules/$kver" -name 'vpux_sim.ko*')" ] ||
	fail "dkms install put no vpux_sim.ko under $T/modules/$kver"
vm=$(modinfo -F vermagic "$inst" | cut -d' ' -f1)
[ "$vm" = "$kver" ] || fail "the installed module is for '$vm', not $kver"
[ "$(modinfo -F version "$inst")" = "$VERSION" ] ||
	echo "dkms-check: note: the module's MODULE_VERSION is $(modinfo -F version "$inst"), the release $VERSION" >>"$T/log"
# shellcheck disable=SC2086
$D status -m vpux -v "$VERSION" -k "$kver" 2>/dev/null | grep -q "installed" ||
	fail "dkms status does not say installed"
# shellcheck disable=SC2086
run $D remove -m vpux -v "$VERSION" --all --no-depmod || fail "dkms remove failed"
[ -z "$(find "$T/modules" -name 'vpux_*.ko*')" ] || fail "dkms remove left a module installed"
# shellcheck disable=SC2086
[ -z "$($D status -m vpux 2>/dev/null)" ] || fail "dkms remove left vpux registered"
echo "dkms-check: vpux/$VERSION added, built for $kver (${secs}s), installed ($(basename "$inst"), vpux_sim), removed"
