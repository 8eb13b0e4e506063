#!/bin/sh
# Run test programs that print TAP; keep each one's output under $RESULTS
# (default build/results) and print one summary line per program.
# Usage: run-tests.sh SUITE PROGRAM...
# Exit status: non-zero if any program failed or printed a "not ok" line.
set -u
suite=$1; shift
results=${RESULTS:-build/results}
mkdir -p "$results"
rc=0
for prog in "$@"; do
	name=$(basename "$prog")
	log="$results/$suite-$name.tap"
	"$prog" >"$log" 2>&1
	st=$?
	pass=$(grep -cE '^ok [0-9]+' "$log")
	fail=$(grep -cE '^not ok [0-9]+' "$log")
	if [ "$st" -ne 0 ] && [ "$fail" -eq 0 ]; then
		# crashed or exited early: count it as one failure
		echo "not ok 0 - $name exited with status $st" >>"$log"
		fail=1
	fi
	printf '%-10s %-32s %4d passed, %d failed\n' "$suite" "$name" "$pass" "$fail"
	if [ "$fail" -ne 0 ]; then
		rc=1
		grep -E '^not ok' "$log" | head -20 | sed 's/^/    /'
		tail -20 "$log" | sed 's/^/    | /'
	fi
done
exit $rc
