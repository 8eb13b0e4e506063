#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The ABI of a libvpux build against a release's dump (abidw, umd/abi/):
# symbols and public types may only be added. A removed or changed
# function, variable or structure of the public header fails.
#
#	abi-check.sh BASELINE.abi LIBRARY.so HEADERS_DIR
set -u
base=$1 lib=$2 hdrs=$3
if ! command -v abidiff >/dev/null 2>&1; then
	echo "abi-check: abidiff missing (apt-get install abigail-tools, or make deps)" >&2
	exit 1
fi
out=$(abidiff --no-added-syms --drop-private-types --headers-dir2 "$hdrs" \
	"$base" "$lib" 2>&1)
rc=$?
# abidiff: bit 1 error, 2 usage, 4 ABI change, 8 incompatible change;
# with --no-added-syms only removals and changes remain
if [ $rc -ne 0 ]; then
	echo "$out"
	echo "abi-check: $(basename "$lib") is not ABI compatible with $(basename "$base") (abidiff exit $rc)" >&2
	exit 1
fi
echo "abi-check: $(basename "$lib") keeps the ABI of $(basename "$base") ($(abidiff --drop-private-types --headers-dir2 "$hdrs" "$base" "$lib" | grep -c '^  \[A\]') functions added)"
