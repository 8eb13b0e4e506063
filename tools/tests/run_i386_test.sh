#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tools/run-i386.sh, the way the 32-bit engine-core tests run: natively,
# under qemu-i386, or skipped with a reason, whichever host this is. The
# host without IA32 emulation is made here from a probe the kernel
# refuses (its ELF machine field zeroed: "Exec format error", exactly
# what such a kernel says of every i386 program).
# Usage: run_i386_test.sh RUN_I386 PROBE PROGRAM
#   PROGRAM  an i386 TAP test program (fw32/validate)
set -u
run=${1:?usage: run_i386_test.sh RUN_I386 PROBE PROGRAM}
probe=${2:?usage}
prog=${3:?usage}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; sed 's/^/# | /' "$tmp/out" | tail -n 15; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$1"; then ok "$2"; else nok "$2"; fi; }

# a run's TAP: every point ok, as many as the program plans
all_ok() {
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$1" | tail -n1)
	[ -n "$plan" ] && [ "$plan" -gt 0 ] && ! grep -q '^not ok' "$1" &&
		[ "$(grep -c '^ok [0-9]' "$1")" -eq "$plan" ]
}

# The probe is what it claims: an ELF32 i386 executable.
check '[ "$(od -An -tx1 -j4 -N1 "$probe" | tr -d " ")" = 01 ] &&
	[ "$(od -An -tu2 -j18 -N2 "$probe" | tr -d " ")" = 3 ]' \
	"the probe is an ELF32 i386 program"

native=no
[ "$("$probe" 2>/dev/null)" = "vpux-i386-probe 4" ] && native=yes
echo "# this host's kernel runs i386 programs: $native"

# The same host as one without IA32 emulation: the kernel refuses the probe.
cp "$probe" "$tmp/refused"
printf '\000\000' | dd of="$tmp/refused" bs=1 seek=18 conv=notrunc 2>/dev/null
"$tmp/refused" >"$tmp/out" 2>&1
check '[ $? -ne 0 ] && grep -q "Exec format error" "$tmp/out"' \
	"a probe the kernel cannot execute fails with Exec format error"

if command -v "${VPUX_QEMU_I386:-qemu-i386}" >/dev/null 2>&1; then
	# forced: really executed by qemu-i386, to the end (LeakSanitizer off;
	# with it on, the program never exits and the timeout ends it)
	VPUX_I386_RUN=qemu VPUX_I386_TIMEOUT=60 "$run" "$probe" "$prog" >"$tmp/out" 2>&1
	rc=$?
	check '[ $rc -eq 0 ] && all_ok "$tmp/out" &&
		grep -q "^# i386: under qemu-i386" "$tmp/out"' \
		"VPUX_I386_RUN=qemu: every point passes under qemu-i386, exit 0 (rc=$rc)"

	# auto on a host whose kernel refuses i386 programs: qemu, and says why
	VPUX_I386_TIMEOUT=60 "$run" "$tmp/refused" "$prog" >"$tmp/out" 2>&1
	rc=$?
	check '[ $rc -eq 0 ] && all_ok "$tmp/out" &&
		grep -q "^# the host kernel runs no i386 programs (.*Exec format error): under qemu-i386" "$tmp/out"' \
		"no IA32 emulation: runs under qemu-i386 and says why (rc=$rc)"
else
	skip "no qemu-i386 (qemu-user) on this host"
	skip "no qemu-i386 (qemu-user) on this host"
fi

# auto on a host with neither: one skipped point with the reason, exit 0
VPUX_QEMU_I386=$tmp/no-such-qemu "$run" "$tmp/refused" "$prog" >"$tmp/out" 2>&1
rc=$?
check '[ $rc -eq 0 ] && [ "$(grep -c "^ok" "$tmp/out")" -eq 1 ] &&
	grep -q "^ok 1 # SKIP the host kernel runs no i386 programs (.*Exec format error) and there is no .*no-such-qemu" "$tmp/out"' \
	"neither: one SKIP line naming both reasons, exit 0 (rc=$rc)"

# auto where the kernel runs them: natively, LeakSanitizer on
if [ $native = yes ]; then
	"$run" "$probe" "$prog" >"$tmp/out" 2>&1
	rc=$?
	check '[ $rc -eq 0 ] && all_ok "$tmp/out" && grep -q "^# i386: native" "$tmp/out"' \
		"IA32 emulation: runs natively (rc=$rc)"
else
	skip "this host's kernel runs no i386 programs"
fi

# a bad VPUX_I386_RUN is refused by name
VPUX_I386_RUN=fast "$run" "$probe" "$prog" >"$tmp/out" 2>&1
rc=$?
check '[ $rc -eq 2 ] && grep -q "VPUX_I386_RUN=fast: expected auto, native or qemu" "$tmp/out"' \
	"VPUX_I386_RUN=fast is refused with exit 2 and a message (rc=$rc)"

echo "1..$n"
