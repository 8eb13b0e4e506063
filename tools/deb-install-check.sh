#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The packages make deb built, installed with dpkg into a scratch root
# ($B/deb/root, dpkg --root: its own package database; the packages'
# dependencies are the host's, hence --force-depends): dpkg knows them
# with every file where Debian wants it; vpux.pc from libvpux-dev builds
# a program that runs on libvpux1's library; the installed vpux-run
# --check runs bit-exact. vpux-dkms is unpacked only (its postinst runs
# dkms, which make dkms-check covers). The root then gets the host's
# udevadm and a render group, for the VM part (tools/vm/pkg-check.sh).
#
# Usage: deb-install-check.sh   (environment: VERSION, B)
set -eu
: "${VERSION:?}" "${B:?}"
out=$B/deb
R=$out/root
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
lib=/usr/lib/$ma
fail() { echo "deb-install-check: $*" >&2; exit 1; }
deb() { ls "$out/${1}_${VERSION}-"*"_${2:-amd64}.deb"; }

rm -rf "$R"
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates"
: >"$R/var/lib/dpkg/status"
dpkg --root="$R" --log=/dev/null --force-depends --force-script-chrootless \
	-i "$(deb libvpux1)" "$(deb libvpux-dev)" "$(deb vpux-tools)" \
	"$(deb python3-vpux)" >"$out/dpkg.log" 2>&1 ||
	{ cat "$out/dpkg.log"; fail "dpkg -i failed"; }
dpkg --root="$R" --log=/dev/null --force-depends --unpack "$(deb vpux-dkms all)" \
	>>"$out/dpkg.log" 2>&1 || { cat "$out/dpkg.log"; fail "dpkg --unpack vpux-dkms failed"; }
for p in libvpux1 libvpux-dev vpux-tools python3-vpux; do
	dpkg-query --admindir="$R/var/lib/dpkg" -W -f='${Status}' $p | grep -q 'install ok installed' ||
		fail "dpkg does not have $p installed"
done

# where Debian wants each file
for f in $lib/libvpux.so.$VERSION $lib/libvpux.so.1 $lib/libvpux.so $lib/libvpux.a \
	$lib/pkgconfig/vpux.pc /usr/include/vpux.h /usr/bin/vpux-info /usr/bin/vpux-run \
	/usr/bin/vpux-asm /usr/bin/vpux-dis /usr/share/man/man1/vpux-run.1.gz \
	/usr/share/man/man3/libvpux.3.gz /usr/share/man/man3/vpux_request_wait.3.gz \
	/usr/share/man/man7/vpux.7.gz /lib/udev/rules.d/60-vpux.rules \
	/usr/src/vpux-$VERSION/dkms.conf /usr/src/vpux-$VERSION/Kbuild \
	/usr/src/vpux-$VERSION/kmd/vpux_drv.c /usr/lib/python3/dist-packages/vpux/__init__.py; do
	[ -e "$R$f" ] || fail "no $f"
done
dpkg-query --admindir="$R/var/lib/dpkg" -L libvpux1 | grep -qx "$lib/libvpux.so.1" ||
	fail "dpkg -L libvpux1 does not list $lib/libvpux.so.1"
readelf -d "$R/usr/bin/vpux-run" | grep -qE 'RPATH|RUNPATH' && fail "vpux-run has a RUNPATH"

# a program through the installed vpux.pc, run on the installed library
# (vpux.pc's Requires.private, json-c, is a dependency: the host's)
export PKG_CONFIG_PATH= PKG_CONFIG_SYSROOT_DIR="$R" \
	PKG_CONFIG_LIBDIR="$R$lib/pkgconfig:$lib/pkgconfig:/usr/share/pkgconfig"
[ "$(pkg-config --modversion vpux)" = "$VERSION" ] || fail "pkg-config vpux is not $VERSION"
cat >"$out/pc-test.c" <<'EOT'
#include <stdio.h>
#include <vpux.h>

int main(void)
{
	struct vpux_device *dev;
	struct vpux_device_info info;

	if (vpux_device_open("inproc", &dev) || vpux_device_query(dev, &info)) {
		fprintf(stderr, "pc-test: %s\n", vpux_last_error());
		return 1;
	}
	printf("%s: %u DPU engines\n", info.backend, info.engines[1]);
	vpux_device_close(dev);
	return 0;
}
EOT
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror $(pkg-config --cflags vpux) -o "$out/pc-test" "$out/pc-test.c" \
	$(pkg-config --libs vpux) || fail "a program does not build with the installed vpux.pc"
o=$(LD_LIBRARY_PATH="$R$lib" "$out/pc-test") || fail "the pkg-config program fails"
case "$o" in inproc:*) ;; *) fail "the pkg-config program printed '$o'" ;; esac
LD_LIBRARY_PATH="$R$lib" "$R/usr/bin/vpux-run" --check "$B/examples/tiny_cnn.vpux" |
	grep -q bit-exact || fail "installed vpux-run --check is not bit-exact"
# the installed Python module on the installed library: the network
# through vpux.InferenceSession, the same bytes as vpux-run's
py=$(cd /tmp && LD_LIBRARY_PATH="$R$lib" PYTHONPATH="$R/usr/lib/python3/dist-packages" \
	/usr/bin/python3 -B -c 'import sys, numpy as np, vpux
s = vpux.InferenceSession(sys.argv[1], device="inproc")
feed = {a.name: np.zeros(a.shape, a.dtype) for a in s.get_inputs()}
print(vpux.__file__, vpux.__version__, [y.shape for y in s.run(None, feed)])' \
	"$B/examples/tiny_cnn.vpux") || fail "the installed Python module fails"
case "$py" in "$R/usr/lib/python3/dist-packages/vpux/__init__.py $VERSION "*) ;;
	*) fail "the installed Python module said '$py'" ;; esac

# udev for the VM: the daemon and udevadm from the host, a render group
udevadm=$(command -v udevadm) || fail "no udevadm on the host (apt-get install udev)"
install -D -m 755 "$udevadm" "$R/usr/bin/udevadm"
mkdir -p "$R/lib/systemd" "$R/etc"
ln -sf /usr/bin/udevadm "$R/lib/systemd/systemd-udevd"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$R/etc/passwd"
printf 'root:x:0:\nrender:x:%s:\n' "$(getent group render | cut -d: -f3 || echo 108)" >"$R/etc/group"
echo "deb-install-check: dpkg installed libvpux1, libvpux-dev, vpux-tools, python3-vpux (vpux-dkms unpacked) in $R; pkg-config program ($o), vpux-run --check and import vpux from there"
