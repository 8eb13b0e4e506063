#!/bin/sh
# Count the TAP results in LOG: prints "PASSED FAILED SKIPPED".
# A program that exited non-zero (STATUS) without any "not ok" line, or
# that printed no test point at all, counts as one failure named NAME.
log=$1 status=${2:-0} name=${3:-$1}
pass=$(grep -E '^ok [0-9]+' "$log" | grep -cv '# SKIP')
skip=$(grep -E '^ok [0-9]+' "$log" | grep -c '# SKIP')
fail=$(grep -cE '^not ok [0-9]+' "$log")
if [ "$fail" -eq 0 ] && { [ "$status" -ne 0 ] || [ $((pass + skip)) -eq 0 ]; }; then
	echo "not ok 0 - $name exited with status $status" >>"$log"
	fail=1
fi
echo "$pass $fail $skip"
