#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# make abi-check (umd/abi/abi-check.sh) must fail on an incompatible
# change: a small library over the real public header is dumped as a
# "release", then built again with a field added in the middle of a
# public structure, and with a symbol removed; each must fail the check,
# the unchanged one and one that only adds a symbol must pass. Then the
# library of this tree against the committed 1.7 baseline. TAP.
#
#	abi_check_test.sh BUILDDIR SRCTOP
set -u
B=$1 S=$2
T=$B/umd/tests/abi-demo
CHECK=$S/umd/abi/abi-check.sh
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $*"; }

if ! command -v abidw >/dev/null 2>&1; then
	echo "1..0 # SKIP abigail-tools missing (make deps)"
	exit 0
fi
rm -rf "$T" && mkdir -p "$T/base" "$T/field" "$T/gone" "$T/added"
cat >"$T/demo.c" <<'C'
#include <string.h>
#include "vpux.h"
int vpux_request_status(struct vpux_request *r, struct vpux_request_status *st)
{
	(void)r;
	memset(st, 0, sizeof(*st));
	return 0;
}
#ifndef GONE
int vpux_device_get_props(struct vpux_device *d, struct vpux_device_props *p)
{
	(void)d;
	p->size = sizeof(*p);
	return 0;
}
#endif
#ifdef ADDED
uint32_t vpux_version(void) { return VPUX_API_VERSION; }
#endif
C
printf 'VPUX_1.0 { global: vpux_request_status; local: *; };\nVPUX_1.8 { global: vpux_device_get_props; vpux_version; } VPUX_1.0;\n' >"$T/demo.map"
for v in base field gone added; do
	cp "$S/umd/include/vpux.h" "$T/$v/vpux.h"
done
# the deliberate change: a field in the middle of struct vpux_request_status
sed -i 's/^\tint32_t error;$/\tint32_t error;\n\tuint32_t new_field;/' "$T/field/vpux.h"
if grep -q new_field "$T/field/vpux.h"; then
	ok "a field inserted into struct vpux_request_status"
else
	nok "a field inserted into struct vpux_request_status (the header changed?)"
fi
build() {	# dir extra-cflags
	cc -g -O0 -shared -fPIC -I"$T/$1" $2 -Wl,--version-script="$T/demo.map" \
		-Wl,-soname,libdemo.so.1 -o "$T/$1/libdemo.so.1" "$T/demo.c"
}
build base "" && build field "" && build gone -DGONE && build added -DADDED || {
	nok "the demo libraries build"; echo "1..$n"; exit 1; }
abidw --headers-dir "$T/base" --drop-private-types --short-locs \
	--no-comp-dir-path "$T/base/libdemo.so.1" >"$T/base.abi"
if "$CHECK" "$T/base.abi" "$T/base/libdemo.so.1" "$T/base" >"$T/base.log" 2>&1; then
	ok "unchanged: the check passes"
else
	nok "unchanged: the check passes"; sed 's/^/# /' "$T/base.log"
fi
if "$CHECK" "$T/base.abi" "$T/added/libdemo.so.1" "$T/added" >"$T/added.log" 2>&1; then
	ok "a symbol added: the check passes"
else
	nok "a symbol added: the check passes"; sed 's/^/# /' "$T/added.log"
fi
if "$CHECK" "$T/base.abi" "$T/field/libdemo.so.1" "$T/field" >"$T/field.log" 2>&1; then
	nok "a changed structure: the check fails"
elif grep -q "vpux_request_status" "$T/field.log" &&
     grep -q "not ABI compatible" "$T/field.log"; then
	ok "a changed structure: the check fails and names struct vpux_request_status"
else
	nok "a changed structure: the check fails naming the structure"
	sed 's/^/# /' "$T/field.log"
fi
if "$CHECK" "$T/base.abi" "$T/gone/libdemo.so.1" "$T/gone" >"$T/gone.log" 2>&1; then
	nok "a removed symbol: the check fails"
elif grep -q "vpux_device_get_props" "$T/gone.log"; then
	ok "a removed symbol: the check fails and names vpux_device_get_props"
else
	nok "a removed symbol: the check fails naming it"; sed 's/^/# /' "$T/gone.log"
fi
if out=$("$CHECK" "$S/umd/abi/libvpux-1.7.abi" "$B/umd/libvpux.so.1" \
	"$S/umd/include" 2>&1); then
	ok "this tree's libvpux.so.1 against the 1.7 baseline: $out"
else
	nok "this tree's libvpux.so.1 against the 1.7 baseline"
	echo "$out" | sed 's/^/# /'
fi
echo "1..$n"
exit $fail
