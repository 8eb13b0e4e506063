#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make module-shape-check: what the modules say about themselves
# (modinfo). The driver carries its platform id and its device-tree
# compatible as aliases, so that udev loads it for a "vpux-npu" platform
# device or a "vpux,npu" device-tree node; neither module depends on the
# other (the driver binds to the model's NPUs through the platform bus);
# the driver has a version and no release date. TAP.
#
# Usage: module-shape-check.sh VPUX_ACCEL.KO VPUX_SIM.KO
accel=${1:?usage: module-shape-check.sh VPUX_ACCEL.KO VPUX_SIM.KO}
sim=${2:?usage: module-shape-check.sh VPUX_ACCEL.KO VPUX_SIM.KO}
n=0 failed=0
point() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
modinfo=$(command -v modinfo || echo /sbin/modinfo)
aliases=$("$modinfo" -F alias "$accel")

echo "$aliases" | grep -qx 'platform:vpux-npu'
point $? "vpux_accel: alias platform:vpux-npu"
echo "$aliases" | grep -qx 'of:N\*T\*Cvpux,npu'
point $? "vpux_accel: alias of:N*T*Cvpux,npu (the device-tree compatible)"
echo "$aliases" | grep -qx 'of:N\*T\*Cvpux,npuC\*'
point $? "vpux_accel: alias of:N*T*Cvpux,npuC* (a node listing more compatibles)"
! "$modinfo" -F depends "$accel" | tr ',' '\n' | grep -qx vpux_sim
point $? "vpux_accel does not depend on vpux_sim ($("$modinfo" -F depends "$accel"))"
[ -z "$("$modinfo" -F depends "$sim")" ]
point $? "vpux_sim depends on no module"
[ -z "$("$modinfo" -F alias "$sim")" ]
point $? "vpux_sim has no alias: nothing loads the model but its user"
"$modinfo" -F parm "$sim" | grep -q '^num_devices:' &&
	! "$modinfo" -F parm "$accel" | grep -q '^num_devices:'
point $? "num_devices is the model's parameter, not the driver's"
[ -n "$("$modinfo" -F version "$accel")" ]
point $? "vpux_accel has a version ($("$modinfo" -F version "$accel"))"
! strings "$accel" | grep -qx '20[0-9]\{6\}'
point $? "vpux_accel carries no DRIVER_DATE"
echo "1..$n"
[ $failed -eq 0 ]
