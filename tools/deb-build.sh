#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# make deb: the Debian packages vpux-dkms, libvpux1, libvpux-dev,
# vpux-tools and python3-vpux, built with dpkg-buildpackage from a copy of this tree (the
# files a source package would hold: no build products, no .git) in
# $B/deb/vpux-VERSION, so that the packages come from the sources alone
# and dpkg-buildpackage's output (which goes to the parent directory)
# stays in $B/deb. Then lintian on the result: any error or warning
# fails; the packages' lintian-overrides (debian/*.lintian-overrides)
# say why a tag does not apply.
#
# Usage: deb-build.sh   (environment: VERSION, B, SRCTOP)
set -eu
: "${VERSION:?}" "${B:?}" "${SRCTOP:?}"
out=$B/deb
src=$out/vpux-$VERSION
rm -rf "$out"
mkdir -p "$src"
tar -C "$SRCTOP" --exclude=./build --exclude=./.git --exclude='*.o' \
	--exclude='*.ko' --exclude='.*.cmd' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude=modules.order --exclude=Module.symvers -cf - . | tar -C "$src" -xf -
start=$(date +%s)
(cd "$src" && DEB_BUILD_OPTIONS="parallel=$(nproc)" \
	dpkg-buildpackage -b -uc -us >"$out/build.log" 2>&1) ||
	{ tail -40 "$out/build.log"; echo "deb: dpkg-buildpackage failed (log: $out/build.log)" >&2; exit 1; }
secs=$(( $(date +%s) - start ))
changes=$(ls "$out"/vpux_*.changes)
for p in vpux-dkms libvpux1 libvpux-dev vpux-tools python3-vpux; do
	ls "$out/${p}_"*.deb >/dev/null 2>&1 || { echo "deb: no $p package" >&2; exit 1; }
done

# lintian: an error or a warning fails; info and pedantic tags and the
# overridden ones (O:) are in the log
lintian --info --display-info --pedantic --show-overrides --no-tag-display-limit \
	"$changes" >"$out/lintian.log" 2>&1 || true
bad=0
if grep -qE '^[EW]: ' "$out/lintian.log"; then
	grep -E '^[EW]: ' "$out/lintian.log" | sed 's/^/deb: lintian: /' >&2
	bad=1
fi
[ $bad -eq 0 ] || { echo "deb: lintian found errors or warnings (log: $out/lintian.log)" >&2; exit 1; }
echo "deb: $(cd "$out" && ls ./*.deb | sed 's|^\./||' | tr '\n' ' ')in ${secs}s; lintian: no error or warning ($(grep -cE '^[IPO]: ' "$out/lintian.log") info, pedantic or overridden tags in $out/lintian.log)"
