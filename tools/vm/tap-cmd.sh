#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run a command that does not speak TAP as one TAP test point.
#   tap-cmd.sh [-x STATUS] [-g REGEX] NAME CMD...
# -x: the exit status expected (default 0); -g: a regular expression the
# output must match. The output is echoed as TAP diagnostics.
want=0 pattern=""
while :; do
	case "$1" in
	-x) want=$2; shift 2 ;;
	-g) pattern=$2; shift 2 ;;
	*) break ;;
	esac
done
name=$1
shift
outf=$(mktemp)
"$@" >"$outf" 2>&1
rc=$?
sed 's/^/# /' "$outf"
ok=1
[ "$rc" -eq "$want" ] || { ok=0; echo "# exit status $rc, expected $want"; }
if [ -n "$pattern" ] && ! grep -qE "$pattern" "$outf"; then
	ok=0
	echo "# output does not match /$pattern/"
fi
rm -f "$outf"
if [ $ok -eq 1 ]; then echo "ok 1 - $name"; else echo "not ok 1 - $name"; fi
echo "1..1"
[ $ok -eq 1 ]
