#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# In the VM: the driver (vpux_accel) and the NPU model (vpux_sim) are two
# modules, each with its own module_init. The driver never calls the
# model, so either loads without the other; the driver binds to the NPUs
# whenever they appear (by their platform id) and lets them go when the
# model unloads under it, open file and jobs in flight included. TAP.
#   split-check.sh NETWORK
# Leaves both modules loaded as init.sh loaded them.
net=${1:?usage: split-check.sh NETWORK}
. "$(dirname "$0")/tap-lib.sh"

loaded() { grep -q "^$1 " /proc/modules; }
npus() { ls -d /sys/bus/platform/devices/vpux-npu.* 2>/dev/null | wc -l; }
job() { vpux-run --device /dev/accel/accel0 --check "$net" 2>&1 | grep -q bit-exact; }

# the NPUs are the model's devices: they outlive the driver
rmmod vpux_accel
point $? "the driver unloads"
[ "$(npus)" -eq 2 ] && [ "$(nodes)" -eq 0 ]
point $? "the model's two vpux-npu devices stay, unbound ($(npus), $(nodes) nodes)"
[ "$(cat /sys/bus/platform/devices/vpux-npu.0/modalias)" = platform:vpux-npu ]
point $? "an NPU's modalias is the driver's platform id (platform:vpux-npu)"
rmmod vpux_sim
point $? "the model unloads with no driver bound"

# the driver alone: nothing to bind to
insmod "$VPUX_MODULE"
point $? "the driver loads without the model"
! grep -q vpux_sim /sys/module/vpux_accel/holders/* 2>/dev/null
point $? "the driver does not hold the model"
[ "$(nodes)" -eq 0 ]
point $? "no NPU, no accel node"

# the model's NPUs appear: the driver binds to each
insmod "$VPUX_SIM_MODULE" num_devices=2
point $? "vpux_sim loads"
settle 2
[ "$(npus)" -eq 2 ] && [ "$(nodes)" -eq 2 ]
point $? "two vpux-npu devices, two accel nodes ($(npus), $(nodes))"
[ "$(basename "$(readlink /sys/bus/platform/devices/vpux-npu.1/driver)")" = vpux-npu ]
point $? "vpux-npu.1 is bound to the driver"
[ "$(cat /sys/module/vpux_sim/refcnt)" = 0 ] && [ "$(cat /sys/module/vpux_accel/refcnt)" = 0 ]
point $? "neither module holds the other"
job
point $? "a network runs bit-exact"

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
insmod "$VPUX_SIM_MODULE" num_devices=2
settle 2
job
point $? "the NPUs are back and run a network"
rmmod vpux_accel && rmmod vpux_sim
point $? "both unload, driver first"

# as init.sh loaded them: the model, then the driver
# shellcheck disable=SC2086
insmod "$VPUX_SIM_MODULE" $VPUX_SIM_PARAMS && insmod "$VPUX_MODULE" $VPUX_MODULE_PARAMS
point $? "both load again"
settle 2
tap_end
