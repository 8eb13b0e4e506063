#!/bin/sh
# make check: every test of the project, one summary line at the end.
#
#   host      unit tests of model, engine core, UMD (ASan + UBSan)
#   build     the kernel module (W=1), the firmware image
#   vm        the kselftests and tools inside a VM running the real module
#   pkg       the Debian packages: built (dpkg-buildpackage, lintian),
#             installed with dpkg into a scratch root, used there and in
#             a VM (make deb, deb-install-check, deb-vm-check)
#
# Each stage records "SUITE PASSED FAILED SKIPPED" in build/results/summary.
set -u
cd "$(dirname "$0")/.." || exit 2
RESULTS=${RESULTS:-$PWD/build/results}
export RESULTS
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
JOBS=${JOBS:-$(nproc)}

# record NAME CMD...: run a step that is not a TAP program as one test;
# a step that cannot run on this host exits 0 after a line "SKIP: why"
# and counts as skipped, with its reason on the line
record() {
	name=$1; shift
	log="$RESULTS/$name.log"
	start=$(date +%s)
	if ! "$@" >"$log" 2>&1; then
		echo "build 0 1 0" >>"$RESULTS/summary"
		printf '%-8s %-36s FAILED (see %s)\n' build "$name" "$log"
		tail -30 "$log" | sed 's/^/    | /'
		{
			echo "build $name ($log):"
			tail -12 "$log" | sed 's/^/    | /'
		} >>"$RESULTS/failures"
	elif grep -q '^SKIP: ' "$log"; then
		echo "build 0 0 1" >>"$RESULTS/summary"
		printf '%-8s %-36s skipped: %s\n' build "$name" \
			"$(sed -n 's/^SKIP: //p' "$log" | head -n1)"
	else
		echo "build 1 0 0" >>"$RESULTS/summary"
		printf '%-8s %-36s ok (%ss)\n' build "$name" $(( $(date +%s) - start ))
	fi
}

echo "== build"
if ! make -s -j"$JOBS" all >"$RESULTS/make-all.log" 2>&1; then
	tail -40 "$RESULTS/make-all.log"
	echo "check: build failed (log: $RESULTS/make-all.log)"
	echo "check: 0 passed, 1 failed"
	exit 1
fi
record module-sparse make -s module-sparse
for t in $(make -s print-check-steps); do
	record "$t" make -s "$t"
done

echo "== host tests"
make -s -j"$JOBS" host-check

echo "== VM tests"
make -s vm-check

echo "== packages"
record deb make -s deb
record deb-install-check make -s deb-install-check
make -s deb-vm-check

# The failures again, last, so that a log cut to its tail still names them.
if [ -s "$RESULTS/failures" ]; then
	echo "== failures"
	cat "$RESULTS/failures"
fi
awk '{ p += $2; f += $3; s += $4 }
     END { printf "check: %d passed, %d failed, %d skipped\n", p, f, s;
	   exit (f > 0 || p == 0) }' "$RESULTS/summary"
