#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The uapi headers (uapi/drm/*.h) the way the kernel's usr/include hdrtest
# and headers_check treat its own: each one compiles on its own, as C90,
# C11 and C++11, -Wall -Wextra -Werror, with nothing but <linux/types.h>
# and the DRM core's uapi (drm.h, from libdrm); a header that needs no
# drm.h also passes -pedantic and builds against the freestanding shim
# (include/uapi-shim, -nostdinc, -m32) the firmware image uses (but the
# netlink header ynl-gen writes, whose enums end in commas as the
# kernel's generated headers do). Each carries the syscall-note licence, spells its types __u8..__u64/__s*,
# never libc's or the engine core's, and no struct member has an enum
# type (its size would be the compiler's).
#
# Usage: uapi-hdr-check.sh [header...]   (environment: CC, CXX, SRCTOP)
set -u
SRCTOP=${SRCTOP:-$(cd "$(dirname "$0")/.." && pwd)}
CC=${CC:-cc}
CXX=${CXX:-c++}
DRM_INC=$(pkg-config --cflags-only-I libdrm 2>/dev/null)
[ -n "$DRM_INC" ] || DRM_INC=-I/usr/include/libdrm
[ $# -gt 0 ] || set -- "$SRCTOP"/uapi/drm/*.h
fail=0
n=0
bad() { echo "uapi-hdr-check: $1: $2" >&2; fail=1; }
for h in "$@"; do
	n=$((n + 1))
	name=${h#"$SRCTOP"/}
	head -n1 "$h" | grep -q '^/\* SPDX-License-Identifier: .*WITH Linux-syscall-note' ||
		bad "$name" "no SPDX-License-Identifier ... WITH Linux-syscall-note on line 1"
	# code without comments
	code=$(sed -e 's|/\*.*\*/||g' -e '/\/\*/,/\*\//d' "$h")
	if echo "$code" | grep -nE '\b(u?int(8|16|32|64)_t|size_t|dla_[us](8|16|32|64)|u(8|16|32|64)|s(8|16|32|64))\b' >/tmp/uapi-hdr.$$; then
		bad "$name" "types other than __u*/__s*: $(head -n1 /tmp/uapi-hdr.$$)"
	fi
	if echo "$code" | grep -nE '^[[:space:]]+enum [a-z_0-9]+ [a-z_0-9]+(\[[^]]*\])?;' >/tmp/uapi-hdr.$$; then
		bad "$name" "enum-typed struct member: $(head -n1 /tmp/uapi-hdr.$$)"
	fi
	rm -f /tmp/uapi-hdr.$$
	inc=; ped=-pedantic
	if grep -q '#include "drm.h"' "$h"; then inc=$DRM_INC; ped=; fi
	if grep -q 'YNL-GEN' "$h"; then ped=; fi
	for mode in "$CC -x c -std=c90" "$CC -x c -std=c11" "$CXX -x c++ -std=c++11"; do
		# shellcheck disable=SC2086
		$mode -Wall -Wextra -Werror $ped $inc -fsyntax-only "$h" ||
			bad "$name" "does not compile alone ($mode -Wall -Wextra -Werror $ped)"
	done
	if [ -z "$inc" ] && [ -n "$ped" ]; then
		$CC -x c -std=c90 -m32 -nostdinc -idirafter "$SRCTOP/include/uapi-shim" \
			-Wall -Wextra -Werror -pedantic -fsyntax-only "$h" ||
			bad "$name" "does not compile freestanding with include/uapi-shim"
	fi
done
[ $fail -eq 0 ] || exit 1
echo "uapi-hdr-check: $n uapi headers compile alone (C90, C11, C++11), licence and types right"
