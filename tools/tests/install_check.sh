#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# make install into a scratch DESTDIR, as a user's machine would get it:
# every file in its place with the right mode, links and soname; vpux.pc
# usable through pkg-config by a program that links and runs; the
# installed tools run from there (vpux-run --check in-process); man finds
# and renders the pages; the DKMS tree is complete. Then make uninstall
# must leave exactly the files that were there before.
#
# Environment (from tools/install.mk): VERSION VPUX_TOOLS MAN_PAGES
# DKMS_FILES B. Exit 0 when everything holds; the first failure is named.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
P=/usr/local
fail() { echo "install-check: $*" >&2; exit 1; }

# files of others in the same directories, which uninstall must keep
mkdir -p "$D$P/bin" "$D$P/lib" "$D$P/share/man/man1" "$D/usr/src/other-1.0"
for f in "$D$P/bin/other" "$D$P/lib/libother.so.1" "$D$P/share/man/man1/other.1" \
	"$D/usr/src/other-1.0/dkms.conf"; do
	echo keep >"$f"
done
find "$D" \( -type f -o -type l \) | sort >"$D.before"

make -s -C "$TOP" B="$B" DESTDIR="$D" PREFIX="$P" install >"$D.log" 2>&1 ||
	{ cat "$D.log"; fail "make install failed"; }

# the library: real name, soname link, development link, soname inside
[ -f "$D$P/lib/libvpux.so.$VERSION" ] || fail "no $P/lib/libvpux.so.$VERSION"
[ "$(readlink "$D$P/lib/libvpux.so.1")" = "libvpux.so.$VERSION" ] ||
	fail "libvpux.so.1 does not point at libvpux.so.$VERSION"
[ "$(readlink "$D$P/lib/libvpux.so")" = libvpux.so.1 ] ||
	fail "libvpux.so does not point at libvpux.so.1"
readelf -d "$D$P/lib/libvpux.so.$VERSION" | grep -q 'SONAME.*\[libvpux.so.1\]' ||
	fail "libvpux.so.$VERSION: soname is not libvpux.so.1"
[ -f "$D$P/lib/libvpux.a" ] || fail "no libvpux.a"
cmp -s "$D$P/include/vpux.h" "$TOP/umd/include/vpux.h" || fail "vpux.h not installed"
cmp -s "$D$P/include/vpux_cpu.h" "$TOP/umd/include/vpux_cpu.h" || fail "vpux_cpu.h not installed"
# the CPU library of run recipes, in the runner's install directory
readelf --dyn-syms -W "$D$P/lib/vpux/libvpux-cpuops.so" | grep -q ' library_init$' ||
	fail "no $P/lib/vpux/libvpux-cpuops.so exporting library_init"
for t in $VPUX_TOOLS; do
	[ -x "$D$P/bin/$t" ] || fail "no $P/bin/$t"
done
for m in $MAN_PAGES; do
	[ -f "$D$P/share/man/man${m##*.}/$m" ] || fail "no man page $P/share/man/man${m##*.}/$m"
done
[ -f "$D$P/lib/udev/rules.d/60-vpux.rules" ] || fail "no udev rule"
dk=$D/usr/src/vpux-$VERSION
for f in $DKMS_FILES; do
	[ -f "$dk/$f" ] || fail "DKMS tree: no $f"
done
grep -q "^PACKAGE_VERSION=\"$VERSION\"$" "$dk/dkms.conf" ||
	fail "dkms.conf: PACKAGE_VERSION is not $VERSION"
# the kernel SDK (libvpux-dev): headers, linker script, wrapper, its page
K=$P/share/vpux/kernel-sdk
for f in $KERNEL_SDK_FILES link.ld; do
	[ -f "$D$K/${f##*/}" ] || [ -f "$D$K/include/$f" ] || fail "kernel SDK: no $f in $K"
done
[ -x "$D$P/bin/vpux-kernel-cc" ] || fail "no $P/bin/vpux-kernel-cc"
[ -f "$D$P/share/man/man1/vpux-kernel-cc.1" ] || fail "no vpux-kernel-cc(1)"
bad=$(find "$D" -newer "$D.before" -type f ! -perm 644 ! -perm 755)
[ -z "$bad" ] || fail "files neither 644 nor 755: $bad"

# vpux.pc through pkg-config, and a program built and run with it
# (vpux.pc requires json-c privately: the system's .pc files stay visible)
sys_pc=$(pkg-config --variable pc_path pkg-config)
export PKG_CONFIG_PATH="$sys_pc" PKG_CONFIG_LIBDIR="$D$P/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D"
[ "$(pkg-config --modversion vpux)" = "$VERSION" ] || fail "pkg-config: vpux is not $VERSION"
cat >"$D.c" <<'EOT'
#include <stdio.h>
#include <vpux.h>

int main(int argc, char **argv)
{
	struct vpux_device *dev;
	struct vpux_network *net;
	struct vpux_network_info ni;

	if (argc != 2 || vpux_device_open("inproc", &dev) ||
	    vpux_network_load_file(dev, argv[1], &net) ||
	    vpux_network_query(net, &ni)) {
		fprintf(stderr, "pc-test: %s\n", vpux_last_error());
		return 1;
	}
	printf("%s: %u inputs, %u outputs\n", ni.name, ni.num_inputs, ni.num_outputs);
	vpux_network_unload(net);
	vpux_device_close(dev);
	return 0;
}
EOT
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags vpux) -o "$D.prog" "$D.c" \
	$(pkg-config --libs vpux) || fail "a program does not build with pkg-config vpux"
LD_LIBRARY_PATH="$D$P/lib" ldd "$D.prog" | grep -q "libvpux.so.1 => $D$P/lib/libvpux.so.1" ||
	fail "the program does not load the installed libvpux.so.1"
out=$(LD_LIBRARY_PATH="$D$P/lib" "$D.prog" "$B/examples/tiny_cnn.vpux") ||
	fail "the program built with pkg-config fails"
[ "$out" = "tiny_cnn: 1 inputs, 1 outputs" ] || fail "the program printed '$out'"
# the static library with Libs.private
# shellcheck disable=SC2046
cc -std=c11 $(pkg-config --cflags vpux) -o "$D.sprog" "$D.c" \
	"$D$P/lib/libvpux.a" $(pkg-config --static --libs-only-l vpux | sed 's/-lvpux//') ||
	fail "a program does not link statically with pkg-config --static vpux"

# the kernel SDK through pkg-config and the installed wrapper: it names
# the SDK's directory, and builds the worked example into a kernel whose
# declaration the compiler reads (DESTDIR: the SDK through the variable)
# (PKG_CONFIG_SYSROOT_DIR puts $D before it)
[ "$(pkg-config --variable=kerneldir vpux)" = "$D$K" ] ||
	fail "pkg-config --variable=kerneldir vpux is not $K"
[ "$("$D$P/bin/vpux-kernel-cc" --version)" = "vpux-kernel-cc $VERSION" ] ||
	fail "installed vpux-kernel-cc --version"
[ "$("$D$P/bin/vpux-kernel-cc" --print-kerneldir)" = "$K" ] ||
	fail "installed vpux-kernel-cc --print-kerneldir is not $K"
"$D$P/bin/vpux-kernel-cc" --help | grep -q 'VPUX_KERNEL_DECLARE' ||
	fail "installed vpux-kernel-cc --help"
mkdir -p "$D.k"
VPUX_KERNEL_SDK="$(pkg-config --variable=kerneldir vpux)" "$D$P/bin/vpux-kernel-cc" -Werror -o "$D.k/scale_shift.elf" \
	"$TOP/examples/kernels/scale_shift.c" || fail "installed vpux-kernel-cc does not build examples/kernels/scale_shift.c"
readelf -S "$D.k/scale_shift.elf" | grep -q '\.vpux\.params' ||
	fail "the kernel built with the installed SDK has no .vpux.params"
VPUX_KERNEL_SDK="$D.none" "$D$P/bin/vpux-kernel-cc" -o "$D.k/x.elf" x.c 2>&1 |
	grep -q "no kernel SDK in '$D.none'" || fail "vpux-kernel-cc without an SDK: no clear error"
rm -rf "$D.k"

# the installed tools, from where they were installed
for t in $VPUX_TOOLS; do
	v=$(env -u LD_LIBRARY_PATH "$D$P/bin/$t" --version) ||
		fail "installed $t --version fails"
	[ "$v" = "$t (vpux) $VERSION" ] || fail "installed $t --version: '$v'"
done
env -u LD_LIBRARY_PATH ldd "$D$P/bin/vpux-run" | grep -q "libvpux.so.1 => $D$P/bin/../lib/libvpux.so.1" ||
	fail "installed vpux-run does not load the installed libvpux.so.1"
env -u LD_LIBRARY_PATH "$D$P/bin/vpux-run" --check "$B/examples/tiny_cnn.vpux" | grep -q bit-exact ||
	fail "installed vpux-run --check is not bit-exact"
# a run recipe with the installed CPU library (DESTDIR: through the path)
head -c 1024 /dev/zero >"$D.ifm"
env -u LD_LIBRARY_PATH VPUX_CPU_LIBRARY_PATH="$D$P/lib/vpux" "$D$P/bin/vpux-run" --check \
	--recipe "$B/examples/recipes/halves.json" --input ifm="$D.ifm" | grep -q bit-exact ||
	fail "installed vpux-run --recipe with the installed libvpux-cpuops.so fails"

# man finds and renders the installed pages, .so links included
for m in $MAN_PAGES; do
	n=${m%.*} s=${m##*.}
	w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -M "$D$P/share/man" "$s" "$n" 2>&1 >/dev/null)
	[ -z "$w" ] || fail "man $s $n: $w"
done
LC_ALL=C.UTF-8 man -M "$D$P/share/man" 3 vpux_request_wait 2>/dev/null | grep -q 'vpux_request_create' ||
	fail "man 3 vpux_request_wait does not show vpux_request_create(3)"

make -s -C "$TOP" B="$B" DESTDIR="$D" PREFIX="$P" uninstall >"$D.log" 2>&1 ||
	{ cat "$D.log"; fail "make uninstall failed"; }
find "$D" \( -type f -o -type l \) | sort >"$D.after"
diff -u "$D.before" "$D.after" | sed -n 's|^[-+]/|&|p' >"$D.diff"
[ -s "$D.diff" ] && { cat "$D.diff"; fail "make uninstall left or removed files (above)"; }
rm -f "$D.before" "$D.after" "$D.diff" "$D.log" "$D.c" "$D.prog" "$D.sprog" "$D.ifm"
echo "install-check: $(echo $VPUX_TOOLS | wc -w) tools, libvpux $VERSION, $(echo $MAN_PAGES | wc -w) man pages, udev rule, $(echo $DKMS_FILES | wc -w) DKMS files installed, used and uninstalled; kernel SDK $(echo $KERNEL_SDK_FILES | wc -w) headers + vpux-kernel-cc"
