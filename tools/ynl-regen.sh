#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Generate the vpux netlink family's code from its spec with the kernel's
# own generator (tools/net/ynl/ynl-gen-c.py of linux-source-6.12), which
# also validates the spec against the kernel's genetlink schema:
#
#   tools/ynl-regen.sh          write uapi/drm/vpux_netlink.h and
#                               kmd/vpux_nl_gen.[ch]
#   tools/ynl-regen.sh --check  regenerate into a scratch directory and
#                               fail if the committed files differ
#
# KSRC: an unpacked kernel tree (default: the needed parts are unpacked
# from /usr/src/linux-source-6.12.tar.xz into a scratch directory).
# Exit status 77 (skip) when neither is there.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
spec=Documentation/netlink/specs/vpux.yaml
mode=write
[ "${1-}" = --check ] && mode=check

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ -n "${KSRC-}" ]; then
	ks=$KSRC
else
	tarball=$(ls /usr/src/linux-source-6.12*.tar.xz 2>/dev/null | tail -n1)
	if [ -z "$tarball" ]; then
		echo "ynl-regen: no kernel source (set KSRC or install linux-source-6.12)" >&2
		exit 77
	fi
	tar -C "$tmp" -xJf "$tarball" --wildcards '*/tools/net/ynl/*' \
		'*/Documentation/netlink/*.yaml'
	ks=$(ls -d "$tmp"/linux-source-6.12*)
fi

# the generator looks for the tree's root (MAINTAINERS) and the schema
# next to the spec's directory: give it a tree of its own
w=$tmp/tree
mkdir -p "$w/Documentation/netlink/specs" "$w/out"
mkdir -p "$w/tools/net"
cp -r "$ks/tools/net/ynl" "$w/tools/net/"
cp "$ks"/Documentation/netlink/*.yaml "$w/Documentation/netlink/"
cp "$top/$spec" "$w/$spec"
touch "$w/MAINTAINERS"

gen() {
	(cd "$w/tools/net/ynl" && python3 ynl-gen-c.py --spec "../../../$spec" "$@")
}
gen --mode uapi --header -o "$w/out/vpux_netlink.h"
gen --mode kernel --header -o "$w/out/vpux_nl_gen.h"
gen --mode kernel --source -o "$w/out/vpux_nl_gen.c"

status=0
for f in uapi/drm/vpux_netlink.h kmd/vpux_nl_gen.h kmd/vpux_nl_gen.c; do
	new=$w/out/$(basename "$f")
	if [ $mode = write ]; then
		cp "$new" "$top/$f"
	elif ! diff -u "$top/$f" "$new"; then
		echo "ynl-regen: $f differs from what $spec generates" >&2
		status=1
	fi
done
[ $mode = check ] && [ $status = 0 ] && echo "ynl-regen: the generated files match $spec"
exit $status
