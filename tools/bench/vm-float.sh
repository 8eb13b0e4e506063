#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# make bench-vm (tools/bench/bench.mk), in the guest: the float ResNet-50
# of bench-models-float through /dev/accel/accel0, once, at 1x3x64x64
# (the float check set's resnet50: at 224x224 one run takes minutes under
# TCG). Its directory holds resnet50.vpuxl, input_0.pb and host.pb (the
# output of the same run in process, which the device's must equal bit
# for bit). The last line:
#
#   bench-vm-float: resnet50_vm_ms=... input=1x3x64x64 device_cycles=...
d=$(dirname "$0")
if [ ! -f "$d/resnet50.vpuxl" ]; then
	echo "bench-vm-float: skipped (no float ResNet-50: make float-models)"
	exit 0
fi
mkdir -p /tmp/vm-float
out=$(vpux-onnx run "$d/resnet50.vpuxl" -d /dev/accel/accel0 --json \
	--input "$d/input_0.pb" --output-dir /tmp/vm-float) || exit 1
cmp -s /tmp/vm-float/output_0.pb "$d/host.pb" ||
	{ echo "bench-vm-float: the output differs from the in-process run"; exit 1; }
echo "$out" | awk -F: '/"time_us"/ { t = $2 + 0 } /"device_cycles"/ { c = $2 + 0 }
	END { printf "bench-vm-float: resnet50_vm_ms=%.0f input=1x3x64x64 device_cycles=%d\n", t / 1000, c }'
