#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# selftests/ as a kernel tree carries it: Debian's linux-source-6.12 gets
# uapi/drm/vpux_accel.h and vpux_netlink.h as include/uapi/drm/ (exported by
# make headers) and selftests/ as tools/testing/selftests/drivers/accel/vpux/,
# and nothing else of the project; then the kselftest framework builds it
#   make -C tools/testing/selftests TARGETS=drivers/accel/vpux
# and runs it through its runner (run_tests; here on the host, without
# the module, every test must end ok or skip; the VM suite runs the same
# tests on the real module).
#
# The parts of the source tree this needs (Makefile, scripts, include,
# arch/x86, usr, tools), with make headers done, are extracted once into
# ~/.cache/vpux-ksft/ (VPUX_KSFT_CACHE, about 3 minutes once); each run
# works on a copy in $B/ksft-tree.
#
# Usage: ksft-intree-check.sh   (environment: B, SRCTOP)
set -eu
: "${B:?}" "${SRCTOP:?}"
tar=${KSFT_SRC_TAR:-/usr/src/linux-source-6.12.tar.xz}
[ -f "$tar" ] || { echo "ksft-intree: no $tar: run make deps" >&2; exit 1; }
cache=${VPUX_KSFT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vpux-ksft}
key=$(stat -c '%s-%Y' "$tar")
pristine=$cache/linux-source-6.12-$key
log=$B/ksft-tree.log
mkdir -p "$cache" "$B"
: >"$log"
fail() { echo "ksft-intree: $*" >&2; tail -30 "$log" >&2; exit 1; }

# the pristine tree, made once, under a lock (other checkouts share it)
(
	flock 9
	if [ ! -f "$pristine/.done" ]; then
		rm -rf "$pristine" "$pristine.tmp"
		mkdir -p "$pristine.tmp"
		echo "ksft-intree: extracting $tar (once, into $pristine)"
		tar -xJf "$tar" -C "$pristine.tmp" --strip-components=1 \
			linux-source-6.12/Makefile linux-source-6.12/scripts \
			linux-source-6.12/include linux-source-6.12/arch/x86 \
			linux-source-6.12/usr linux-source-6.12/tools &&
		make -s -C "$pristine.tmp" headers >>"$log" 2>&1 &&
		touch "$pristine.tmp/.done" && mv "$pristine.tmp" "$pristine"
	fi
) 9>"$cache/.lock"
[ -f "$pristine/.done" ] || fail "could not prepare $pristine"

K=$B/ksft-tree
rm -rf "$K"
# hard links for what the build only reads; real copies of what make
# headers and the selftests build write
cp -al "$pristine" "$K"
for d in usr include/generated arch/x86/include/generated tools/testing/selftests; do
	[ -e "$pristine/$d" ] || continue
	rm -rf "${K:?}/$d"
	cp -a "$pristine/$d" "$K/$d"
done
# only the uapi headers go into the kernel tree (the ioctls, the netlink
# family, the task format)
cp "$SRCTOP/uapi/drm/vpux_accel.h" "$SRCTOP/uapi/drm/vpux_netlink.h" \
	"$SRCTOP/uapi/drm/vpux_task.h" "$K/include/uapi/drm/"
make -s -C "$K" headers >>"$log" 2>&1 || fail "make headers failed"
for h in vpux_accel.h vpux_netlink.h vpux_task.h; do
	[ -f "$K/usr/include/drm/$h" ] || fail "make headers did not export drm/$h"
done
T=$K/tools/testing/selftests/drivers/accel/vpux
mkdir -p "$(dirname "$T")"
cp -a "$SRCTOP/selftests" "$T"
start=$(date +%s)
make -C "$K/tools/testing/selftests" -j"$(nproc)" TARGETS=drivers/accel/vpux \
	>>"$log" 2>&1 || fail "the in-tree build failed"
secs=$(( $(date +%s) - start ))
progs=$(sed -n '/^TEST_GEN_PROGS/,/[^\\]$/p' "$T/Makefile" | tr -d '\\' |
	sed 's/^TEST_GEN_PROGS :=//' | wc -w)
built=$(find "$T" -maxdepth 1 -type f -perm -u+x -name 'vpux_*' | wc -l)
[ "$built" -eq "$progs" ] || fail "built $built of $progs tests"

make -s -C "$K/tools/testing/selftests" TARGETS=drivers/accel/vpux run_tests \
	>"$B/ksft-tree-run.tap" 2>&1 || fail "run_tests failed"
ok=$(grep -c '^ok [0-9]* selftests: drivers/accel/vpux: ' "$B/ksft-tree-run.tap" || true)
notok=$(grep -c '^not ok' "$B/ksft-tree-run.tap" || true)
[ "$ok" -eq "$progs" ] && [ "$notok" -eq 0 ] ||
	{ grep '^not ok\|^ok' "$B/ksft-tree-run.tap" >&2; fail "run_tests: $ok ok, $notok not ok of $progs"; }
echo "ksft-intree: linux-source-6.12 + only drivers/accel/vpux and the uapi headers: $built tests built in-tree (${secs}s), run_tests: $ok ok (no device: skips)"
