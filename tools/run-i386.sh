#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Run a 32-bit x86 (-m32) test program so that it really executes, on
# any x86-64 host:
#
#   native    the host kernel executes i386 programs (CONFIG_IA32_EMULATION,
#             not disabled with ia32_emulation=false): run it as it is;
#   qemu      it does not ("Exec format error"): run it under qemu-i386
#             (Debian's qemu-user, a make deps package), which translates
#             the program's instructions and its system calls;
#   skip      neither: one "ok 1 # SKIP" TAP line that says why.
#
# Usage: run-i386.sh PROBE PROGRAM [ARG...]
#   PROBE     a tiny -m32 program that prints "vpux-i386-probe 4" (its
#             pointer size) when the kernel runs it natively.
# Environment:
#   VPUX_I386_RUN      auto (default), native or qemu: force one way
#   VPUX_QEMU_I386     the qemu-user binary (default: qemu-i386 on PATH)
#   VPUX_I386_TIMEOUT  seconds a program may run under qemu (default 600)
#
# Under qemu-i386 LeakSanitizer is off (ASAN_OPTIONS detect_leaks=0):
# its leak check stops the world from a helper task made with
# clone(CLONE_VM|CLONE_UNTRACED) without CLONE_THREAD, which qemu-user
# refuses with EINVAL, and the sanitizer then waits for that task in a
# sched_yield() loop forever (seen: the program printed all its TAP lines
# and never exited). Address and undefined-behaviour checks stay on; the
# 64-bit build of the same test checks leaks.
set -u
probe=${1:?usage: run-i386.sh PROBE PROGRAM [ARG...]}
prog=${2:?usage: run-i386.sh PROBE PROGRAM [ARG...]}
shift 2
how=${VPUX_I386_RUN:-auto}
qemu=${VPUX_QEMU_I386:-qemu-i386}

native_ok() {
	[ "$("$probe" 2>/dev/null)" = "vpux-i386-probe 4" ]
}

# Why the host cannot run it, from the probe's own failure.
native_why() {
	why=$("$probe" 2>&1 >/dev/null | tail -n1)
	[ -n "$why" ] || why="the probe did not run"
	echo "the host kernel runs no i386 programs ($why)"
}

case "$how" in
auto)
	if native_ok; then
		how=native
	elif command -v "$qemu" >/dev/null 2>&1; then
		echo "# $(native_why): under $qemu"
		how=qemu
	else
		echo "ok 1 # SKIP $(native_why) and there is no $qemu (qemu-user)"
		echo "1..1"
		exit 0
	fi
	;;
native|qemu) ;;
*)
	echo "run-i386.sh: VPUX_I386_RUN=$how: expected auto, native or qemu" >&2
	exit 2
	;;
esac

if [ "$how" = native ]; then
	echo "# i386: native"
	exec "$prog" "$@"
fi
command -v "$qemu" >/dev/null 2>&1 || {
	echo "run-i386.sh: $qemu: not found (install qemu-user: make deps)" >&2
	exit 2
}
echo "# i386: under $qemu (LeakSanitizer off: it needs a clone qemu-user refuses)"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
exec timeout -k 5 "${VPUX_I386_TIMEOUT:-600}" "$qemu" -L / "$prog" "$@"
