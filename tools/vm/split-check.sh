#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# In the VM: the driver and the model as two modules (make module-split).
# The driver never calls the model, so vpux_accel loads without vpux_sim,
# binds to the NPUs whenever they appear, and lets them go when the model
# unloads under it, open file and jobs in flight included. TAP.
#   split-check.sh SPLIT_DIR NETWORK
# Restores the default vpux_accel.ko ($VPUX_MODULE) when done.
dir=${1:?usage: split-check.sh SPLIT_DIR NETWORK}
net=${2:?usage: split-check.sh SPLIT_DIR NETWORK}
. "$(dirname "$0")/tap-lib.sh"


loaded() { grep -q "^$1 " /proc/modules; }
npus() { ls -d /sys/bus/platform/devices/vpux-npu.* 2>/dev/null | wc -l; }
job() { vpux-run --device /dev/accel/accel0 --check "$net" 2>&1 | grep -q bit-exact; }

rmmod vpux_accel
point $? "the default vpux_accel unloads"

# the driver alone: nothing to bind to
insmod "$dir/vpux_accel-split.ko"
point $? "the driver loads without the model"
! grep -q vpux_sim /sys/module/vpux_accel/holders/* 2>/dev/null
point $? "the driver does not hold the model"
[ "$(nodes)" -eq 0 ]
point $? "no NPU, no accel node"

# the model's NPUs appear: the driver binds to each
insmod "$dir/vpux_sim.ko" num_devices=2
point $? "vpux_sim loads"
settle 2
[ "$(npus)" -eq 2 ] && [ "$(nodes)" -eq 2 ]
point $? "two vpux-npu devices, two accel nodes ($(npus), $(nodes))"
[ "$(cat /sys/module/vpux_sim/refcnt)" = 0 ]
point $? "nothing holds vpux_sim"
job
point $? "a network runs bit-exact on the split modules"

# the model unloads under the driver, with a job stream running
vpux-run --device /dev/accel/accel0 --repeat 100000 "$net" >/dev/null 2>&1 &
runner=$!
sleep 1
rmmod vpux_sim
point $? "vpux_sim unloads under a running job stream"
wait $runner
[ $? -ne 0 ]
point $? "the job stream ends with an error"
settle 0
[ "$(nodes)" -eq 0 ] && loaded vpux_accel
point $? "the driver let go of both NPUs and stays loaded"

# and binds again when they come back
insmod "$dir/vpux_sim.ko" num_devices=2
settle 2
job
point $? "the NPUs are back and run a network"
rmmod vpux_accel && rmmod vpux_sim
point $? "both unload, driver first"

# shellcheck disable=SC2086
insmod "$VPUX_MODULE" $VPUX_MODULE_PARAMS
point $? "the default vpux_accel loads again"
settle 2
tap_end
