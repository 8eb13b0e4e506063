#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the VM test list and count it: one line per command like
# tools/run-tests.sh, and "SUITE PASSED FAILED SKIPPED" appended to
# $RESULTS/summary. The environment of vm-run.sh passes through.
#
# Usage: vm-suite.sh SUITE OUTDIR CMDFILE
set -u
suite=$1 out=$2 cmds=$3
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
RESULTS=${RESULTS:-$TOP/build/results}
mkdir -p "$RESULTS"

"$HERE/vm-run.sh" test "$out" "$cmds"
rc=$?

tp=0 tf=0 ts=0
for n in $(sed -e '/^#/d' -e '/^$/d' -e 's/[ 	].*//' "$cmds") vm-rig; do
	log=$out/$n.tap
	[ -f "$log" ] || : >"$log"
	st=$(cat "$out/$n.rc" 2>/dev/null || echo 0)
	# shellcheck disable=SC2046
	set -- $("$TOP/tools/tap-count.sh" "$log" "$st" "$n")
	printf '%-8s %-36s %4d passed, %d failed, %d skipped\n' "$suite" "$n" "$1" "$2" "$3"
	if [ "$2" -ne 0 ]; then
		grep -E '^not ok|^# ' "$log" | head -20 | sed 's/^/    /'
		{
			echo "$suite $n ($log):"
			grep -E '^not ok|^# ' "$log" | head -12 | sed 's/^/    /'
		} >>"$RESULTS/failures"
	fi
	tp=$((tp + $1)) tf=$((tf + $2)) ts=$((ts + $3))
done
echo "$suite $tp $tf $ts" >>"$RESULTS/summary"
echo "$suite: kernel log in $out/dmesg.log, console in $out/console.log"
[ $rc -eq 0 ] && [ $tf -eq 0 ]
