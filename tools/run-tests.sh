#!/bin/sh
# Run test programs that print TAP; keep each one's output under $RESULTS
# (default build/results) and print one summary line per program, plus a
# line "SUITE: N passed, N failed, N skipped" appended to $RESULTS/summary.
# Usage: run-tests.sh SUITE PROGRAM...
# Exit status: non-zero if any program failed or printed a "not ok" line.
set -u
suite=$1; shift
results=${RESULTS:-build/results}
mkdir -p "$results"
# the host kernel's ASLR and the sanitizers (tools/san-run.sh)
san=$(dirname "$0")/san-run.sh
why=$("$san" --why)
case $why in *"ASLR off"*) echo "$suite: $why" ;; esac
rc=0 tpass=0 tfail=0 tskip=0
for prog in "$@"; do
	name=$(basename "$prog")
	log="$results/$suite-$name.tap"
	"$san" "$prog" >"$log" 2>&1
	st=$?
	tools/tap-count.sh "$log" "$st" "$name" >"$log.count"
	read -r pass fail skip <"$log.count"
	printf '%-8s %-36s %4d passed, %d failed, %d skipped\n' \
		"$suite" "$name" "$pass" "$fail" "$skip"
	if [ "$fail" -ne 0 ]; then
		rc=1
		grep -E '^not ok' "$log" | head -20 | sed 's/^/    /'
		tail -20 "$log" | sed 's/^/    | /'
		# Repeated at the end of make check, where CI logs are cut.
		{
			echo "$suite $name ($log):"
			grep -E '^not ok' "$log" | head -10 | sed 's/^/    /'
			tail -12 "$log" | sed 's/^/    | /'
		} >>"$results/failures"
	fi
	tpass=$((tpass + pass)) tfail=$((tfail + fail)) tskip=$((tskip + skip))
done
echo "$suite $tpass $tfail $tskip" >>"$results/summary"
exit $rc
