#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make check-debug: the VM suite on the debug kernel (KASAN, lockdep,
# kmemleak, UBSAN, debug objects; tools/vm/debug.config). Builds the
# kernel on first use (cached), builds vpux_accel.ko and vpux_sim.ko
# against it from a
# copy of the tree (so the stock build's objects stay untouched), runs
# tools/vm/tests.list and fails on any test failure or kernel report.
# kmemleak is scanned after the tests (tools/vm/init.sh). Then prints the
# fuzzer's figures and the kmd/, firmware/ line coverage it reached
# (tools/vm/kcov-report.sh; per file in $RESULTS/kcov-NAME.txt).
# VPUX_DEBUG_TESTS=FILE runs that command list instead (quick iterations
# on one test; VPUX_BINS must hold its programs).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
B=${B:-$TOP/build}
RESULTS=${RESULTS:-$B/results-debug}
export RESULTS
rm -rf "$RESULTS"
mkdir -p "$RESULTS"

cache=$("$HERE/debug-kernel.sh") || { echo "check-debug: 0 passed, 1 failed"; exit 1; }

src=$B/debug-src
rm -rf "$src"
mkdir -p "$src"
(cd "$TOP" && tar --exclude=./build --exclude=./.git -cf - .) | tar -C "$src" -xf -
# -g: debug info for kcov-report.sh's addr2line (it does not change the
# code); the VM gets a copy without it.
mkdir -p "$src/vm"
if ! make -C "$cache/build" M="$src" W=1 VPUX_WERROR=1 KCFLAGS=-g modules >"$RESULTS/module.log" 2>&1 ||
   ! objcopy --strip-debug "$src/vpux_accel.ko" "$src/vm/vpux_accel.ko" >>"$RESULTS/module.log" 2>&1 ||
   ! objcopy --strip-debug "$src/vpux_sim.ko" "$src/vm/vpux_sim.ko" >>"$RESULTS/module.log" 2>&1; then
	tail -30 "$RESULTS/module.log"
	echo "check-debug: 0 passed, 1 failed"
	exit 1
fi
# the management core's image (make firmware-image), which vm-run.sh
# installs as /lib/firmware/vpux/vpux_fw.bin in the guest
VPUX_FW=${VPUX_FW-$B/firmware/vpux_fw.bin}
export VPUX_FW

if [ -n "${VPUX_DEBUG_TESTS:-}" ]; then
	cat "$VPUX_DEBUG_TESTS" >"$RESULTS/tests.list"
else
	cat "$HERE/tests.list" "$HERE/tests-debug.list" >"$RESULTS/tests.list"
fi
VPUX_VM_KERNEL=$cache/bzImage VPUX_VM_BASE=$cache/base.cpio \
VPUX_KO=$src/vm/vpux_accel.ko VPUX_SIM_KO=$src/vm/vpux_sim.ko VPUX_VM_TIMEOUT=${VPUX_VM_TIMEOUT:-1800} \
VPUX_VM_MEM=${VPUX_VM_MEM:-2048} \
	"$HERE/vm-suite.sh" vm-debug "$B/vm-debug" "$RESULTS/tests.list"

# The fuzzer's figures and, from the PCs it recorded (vpux_fuzz --kcov),
# the line coverage of the module. Only a broken report tool fails the run.
# (only this run's commands: the directory keeps earlier runs' files)
ran() { grep -q "^$1[[:space:]]" "$RESULTS/tests.list"; }
for tap in "$B"/vm-debug/*.tap; do
	name=$(basename "$tap" .tap)
	ran "$name" && grep -q '^# kcov' "$tap" 2>/dev/null || continue
	echo "== $name"
	grep -E '^# ([0-9.]+ s,|calls:|guidance:|jobs:|MMU faults|kcov:)' "$tap" | grep -v '^# kcov: section\|^# kcov: module'
	"$HERE/kcov-report.sh" -o "$RESULTS/kcov-$name.txt" "$src/vpux_accel.ko" "$tap" ||
		echo "kcov-report 0 1 0" >>"$RESULTS/summary"
done

# The soak's and the fault-injection run's figures.
for name in vpux_soak_long vpux_faultinj; do
	tap=$B/vm-debug/$name.tap
	ran "$name" && [ -f "$tap" ] || continue
	echo "== $name"
	case $name in
	vpux_soak*)
		grep -E '^# ([0-9.]+ s,|good jobs:|unexpected|resets:|kills:|files reopened)' "$tap" ;;
	*)
		grep -E '^# (seed .* scenarios|job status:|model faults:|jobs of an importer)' "$tap" ;;
	esac
done

if [ -s "$RESULTS/failures" ]; then
	echo "== failures"
	cat "$RESULTS/failures"
fi
awk '{ p += $2; f += $3; s += $4 }
     END { printf "check-debug: %d passed, %d failed, %d skipped\n", p, f, s;
	   exit (f > 0 || p == 0) }' "$RESULTS/summary"
