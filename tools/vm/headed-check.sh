#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# In the VM: vpux_accel in headed mode (the engine core as firmware on the
# NPU's management core). Images the driver must refuse (missing,
# truncated, corrupt, another ABI, not an image) leave no device, say
# what was wrong, and the module still unloads; an image of ABI 1.0 boots
# without plans; then the good image boots, vpux-info reports the mode
# and plans, and a network runs bit-exact. Leaves
# vpux_accel loaded headed for the next tests (tests.list reloads the
# default at the end). TAP.
#   headed-check.sh NETWORK
net=${1:?usage: headed-check.sh NETWORK}
fw=/lib/firmware/vpux/vpux_fw.bin
good=/tmp/vpux_fw.good
. "$(dirname "$0")/tap-lib.sh"

# shellcheck disable=SC2086
load_headed() { insmod "$VPUX_MODULE" $VPUX_MODULE_PARAMS mode=headed; }
patch() {	# patch OFFSET BYTES: overwrite bytes of the image (octal escapes)
	printf "$2" | dd of="$fw" bs=1 seek="$1" conv=notrunc 2>/dev/null
}
refused() {	# refused NAME PATTERN: the image in $fw must be refused
	dmesg -c >/dev/null
	load_headed
	rc=$?
	settle 0
	[ $rc -eq 0 ] && [ "$(nodes)" -eq 0 ] && dmesg | grep -q "$2"
	point $? "$1: no device, the log says \"$2\""
	rmmod vpux_accel
	point $? "$1: the module unloads"
}

rmmod vpux_accel
point $? "the default vpux_accel unloads"
[ -s "$fw" ] && cp "$fw" "$good"
point $? "the image is in /lib/firmware/vpux"

rm -f "$fw"
refused missing "cannot load firmware"
head -c 1000 "$good" >"$fw"
refused truncated "truncated"
cp "$good" "$fw" && patch 300 '\377\377'
refused corrupt "corrupt: CRC"
cp "$good" "$fw" && patch 4 '\011\000'
refused "another ABI" "ABI 9\."
cp "$good" "$fw" && patch 0 'XXXX'
refused "not an image" "not a vpux image"
# an image of ABI 1.0 (abi_minor at byte 6; the CRC covers the bytes
# after the header) boots, but gets no plans: it reads no symbol copy
cp "$good" "$fw" && patch 6 '\000\000'
dmesg -c >/dev/null
load_headed
settle 2
[ "$(nodes)" -eq 2 ] && dmesg | grep -q "ABI 1\.0) running, no plans" &&
	! vpux-info | grep -q "plans"
point $? "an ABI 1.0 image boots without DRM_VPUX_CAP_PLANS"
rmmod vpux_accel
point $? "ABI 1.0: the module unloads"
cp "$good" "$fw"

dmesg -c >/dev/null
load_headed
point $? "vpux_accel loads with mode=headed"
settle 2
[ "$(nodes)" -eq 2 ] && dmesg | grep -q "headed: firmware"
point $? "both NPUs boot their firmware ($(nodes) nodes)"
vpux-info | grep -q "headed (firmware)"
point $? "vpux-info reports the mode"
vpux-info | grep -q "plans"
point $? "the firmware runs plans (ABI 1.1: DRM_VPUX_CAP_PLANS)"
vpux-run --device /dev/accel/accel0 --check --repeat 3 "$net" 2>&1 | grep -q bit-exact
point $? "a network runs bit-exact on the firmware"
tap_end
