#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# In the VM, on the files of the installed Debian packages (make
# deb-check lays them over /, with udev from the host): the tools run
# from /usr/bin with libvpux from /usr/lib/x86_64-linux-gnu and no
# LD_LIBRARY_PATH; vpux-info lists the NPUs, vpux-run --check runs a
# network bit-exact through the kernel driver; udev applies
# 60-vpux.rules: the accel nodes get group render, mode 0660. TAP.
#   pkg-check.sh NETWORK
net=${1:?usage: pkg-check.sh NETWORK}
. "$(dirname "$0")/tap-lib.sh"
unset LD_LIBRARY_PATH
export PATH=/usr/bin:/bin
lib=/usr/lib/x86_64-linux-gnu

[ -x /usr/bin/vpux-info ] && [ -x /usr/bin/vpux-run ] && [ -f $lib/libvpux.so.1 ]
point $? "the packages' files are in place (/usr/bin/vpux-info, $lib/libvpux.so.1)"

LD_TRACE_LOADED_OBJECTS=1 /usr/bin/vpux-run >/tmp/ldd 2>&1
grep -q "libvpux.so.1 => $lib/libvpux.so.1" /tmp/ldd
point $? "vpux-run loads libvpux.so.1 from $lib ($(grep libvpux /tmp/ldd | tr -s ' \t' ' '))"

/usr/bin/vpux-info >/tmp/info 2>&1
st=$?
sed 's/^/# /' /tmp/info | head -6
[ $st -eq 0 ] && grep -q '/dev/accel/accel0' /tmp/info
point $? "installed vpux-info lists /dev/accel/accel0 (exit $st)"

/usr/bin/vpux-run -d 0 --check "$net" >/tmp/run 2>&1
st=$?
sed 's/^/# /' /tmp/run
[ $st -eq 0 ] && grep -q bit-exact /tmp/run
point $? "installed vpux-run -d 0 --check: bit-exact through the kernel driver (exit $st)"

# udev: the rule from the package, the daemon from the host's udev
rules=/lib/udev/rules.d/60-vpux.rules
[ -f $rules ]
point $? "$rules installed"
before=$(stat -c '%a %G' /dev/accel/accel0)
echo "# before udev: /dev/accel/accel0 $before"
mkdir -p /run/udev
/lib/systemd/systemd-udevd --daemon --resolve-names=early >/tmp/udevd.log 2>&1
st=$?
point $st "systemd-udevd starts"
udevadm trigger --action=add --subsystem-match=accel >/tmp/trigger.log 2>&1 &&
	udevadm settle --timeout=30 >>/tmp/trigger.log 2>&1
point $? "udevadm trigger --subsystem-match=accel and settle"
sed 's/^/# /' /tmp/udevd.log /tmp/trigger.log | head -10
bad=0
for node in /dev/accel/accel*; do
	got=$(stat -c '%a %G' "$node")
	echo "# after udev: $node $got"
	[ "$got" = "660 render" ] || bad=1
done
point $bad "every vpux accel node is mode 660, group render (was: $before)"
udevadm control --exit 2>/dev/null
tap_end
