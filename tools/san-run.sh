#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Run a sanitized test program (ASan, UBSan, TSan) so that the host
# kernel's address-space layout cannot break the sanitizer runtime.
# Debian 12's runtimes (GCC 12's libasan/libtsan, clang 14's) put their
# shadow memory at fixed addresses that assume at most 28 bits of mmap
# randomisation; a kernel with more (vm.mmap_rnd_bits > 28, the default
# of some newer kernels) may place the program or a library there, and
# the program then dies at start ("ThreadSanitizer: unexpected memory
# mapping", or endless "AddressSanitizer:DEADLYSIGNAL"). On such a host
# the program runs with ASLR off (setarch -R: personality
# ADDR_NO_RANDOMIZE, no privilege needed).
#
# Usage: san-run.sh PROGRAM [ARG...]
#        san-run.sh --why   prints how programs run here, and why
# VPUX_SAN_NORANDOM=1 forces setarch -R, =0 forbids it.
set -u
bits=$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 28)
want=${VPUX_SAN_NORANDOM:-}
why="VPUX_SAN_NORANDOM=$want"
if [ -z "$want" ]; then
	want=0 why="vm.mmap_rnd_bits=$bits > 28"
	[ "$bits" -le 28 ] 2>/dev/null || want=1
fi
if [ "$want" = 1 ] && ! setarch "$(uname -m)" -R true 2>/dev/null; then
	echo "san-run: vm.mmap_rnd_bits=$bits needs ASLR off for the sanitizers, but setarch -R fails here" >&2
	want=0
fi
if [ "${1-}" = --why ]; then
	if [ "$want" = 1 ]; then
		echo "sanitized programs run with ASLR off (setarch -R): $why"
	else
		echo "sanitized programs run as they are (vm.mmap_rnd_bits=$bits)"
	fi
	exit 0
fi
[ "$want" = 1 ] && exec setarch "$(uname -m)" -R "$@"
exec "$@"
