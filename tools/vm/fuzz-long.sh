#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make fuzz-long: the coverage-guided ioctl fuzzer for at least
# FUZZ_LONG_CALLS calls (default 1,000,000) on the debug kernel (KASAN,
# lockdep, kmemleak, UBSAN, KCOV; tools/vm/check-debug.sh does the
# work). Fails on any fuzzer failure or kernel report, or when the time
# limit (FUZZ_LONG_TIME seconds, default 9000) stopped it short of the
# calls. Prints the calls, calls/s, the guidance's figures (programs,
# inputs kept for new coverage) and the line coverage of vpux_accel.ko:
# kmd/, firmware/, portability/ (per file in
# $B/results-fuzz-long/kcov-vpux_fuzz_1m.txt; the model, vpux_sim.ko,
# is not counted).
# Not part of make check: at the 140 to 250 calls/s the debug kernel
# manages in TCG on this 2-core machine, an hour or two
# (Documentation/testing.rst).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
B=${B:-$TOP/build}
calls=${FUZZ_LONG_CALLS:-1000000}
secs=${FUZZ_LONG_TIME:-9000}
seed=${FUZZ_LONG_SEED:-$(date +%s)}
RESULTS=$B/results-fuzz-long
export RESULTS B

case $calls$secs in *[!0-9]*)
	echo "fuzz-long: FUZZ_LONG_CALLS and FUZZ_LONG_TIME must be numbers" >&2
	exit 2 ;;
esac
mkdir -p "$B"
list=$B/fuzz-long.list
printf 'vpux_fuzz_1m vpux_fuzz --seed %s --calls %s --time %s --kcov -\n' \
	"$seed" "$calls" "$secs" >"$list"
start=$(date +%s)
VPUX_DEBUG_TESTS=$list VPUX_VM_TIMEOUT=$((secs + 900)) "$HERE/check-debug.sh"
rc=$?
end=$(date +%s)
tap=$B/vm-debug/vpux_fuzz_1m.tap
done_calls=$(sed -n 's/^# calls: \([0-9]*\) in total.*/\1/p' "$tap" 2>/dev/null)
echo "fuzz-long: seed $seed, ${done_calls:-0} calls, $((end - start)) s in all (boot and module build included)"
if [ "${done_calls:-0}" -lt "$calls" ]; then
	echo "fuzz-long: FAILED: ${done_calls:-0} calls, fewer than $calls (time limit ${secs} s)"
	exit 1
fi
exit $rc
