#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Every tool's command line follows vpux(7) (tools/common/vpux_cli.h):
# --help prints a usage on stdout and exits 0, --version prints
# "TOOL (vpux) VERSION" and exits 0, an unknown option exits 2 with
# "TOOL: ..." and the usage on stderr. TAP.
#
# Usage: cli_test.sh VERSION TOOL_PATH...   (make: $(VPUX_TOOLS))
set -u
version=${1:?usage: cli_test.sh VERSION TOOL...}
shift
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

for path in "$@"; do
	tool=$(basename "$path")
	"$path" --help >"$T/out" 2>"$T/err"
	st=$?
	[ $st -eq 0 ] && grep -q "^usage: $tool " "$T/out" && [ ! -s "$T/err" ]
	ok $? "$tool --help: exit $st, usage on stdout"

	"$path" -h >"$T/out2" 2>/dev/null && cmp -s "$T/out" "$T/out2"
	ok $? "$tool -h: the same as --help"

	"$path" --version >"$T/out" 2>"$T/err"
	st=$?
	[ $st -eq 0 ] && [ "$(cat "$T/out")" = "$tool (vpux) $version" ]
	ok $? "$tool --version: exit $st, '$(head -c 60 "$T/out")'"

	"$path" --no-such-option >"$T/out" 2>"$T/err"
	st=$?
	[ $st -eq 2 ] && [ ! -s "$T/out" ] &&
		[ "$(head -n1 "$T/err")" = "$tool: unknown option '--no-such-option'" ] &&
		grep -q "^usage: $tool " "$T/err"
	ok $? "$tool --no-such-option: exit $st, '$(head -n1 "$T/err")' and the usage on stderr"
done
echo "1..$n"
