#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /init of the vpux test VM (busybox). The kernel command line picks the
# mode: vpux.mode=test runs /vpux/commands and reports on the second
# serial port (ttyS1), vpux.mode=shell gives an interactive shell on the
# console. Markers (##VPUX-...) frame each command's output so the host
# (tools/vm/vm-run.sh) can split it.
export PATH=/vpux/bin:/bin
export LD_LIBRARY_PATH=/vpux/lib
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
mkdir -p /dev/accel

mode=shell
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	vpux.mode=*) mode=${arg#vpux.mode=} ;;
	esac
done

out=/dev/console
[ "$mode" = test ] && out=/dev/ttyS1

finish() {
	sync
	poweroff -f
	sleep 5
}

{
	echo "##VPUX-BOOT $(uname -r)"
	# what the kernel did to itself before any of ours was loaded (an
	# early-boot report under TCG, say); the host judges what follows
	echo "##VPUX-TAINTED-BOOT $(cat /proc/sys/kernel/tainted)"
	# System suspend (vpux_pm_test) freezes tasks, and the first freezer
	# turns the static key freezer_active on: the kernel live-patches
	# every freezing() site with int3 while the other vCPU runs.
	# Multi-threaded TCG now and then leaves a stale int3 of such patching
	# to the other vCPU ("Oops: int3": seen in early boot, and once in
	# the headed suspend test, whose trace was not kept). An empty
	# cgroup-v1 freezer held FROZEN keeps the key on from here, so
	# suspending patches nothing.
	# Kernels without CONFIG_CGROUP_FREEZER (the debug one) go without.
	mkdir -p /freezer
	if mount -t cgroup -o freezer none /freezer 2>/dev/null; then
		mkdir -p /freezer/vpux-hold &&
			echo FROZEN >/freezer/vpux-hold/freezer.state &&
			echo "##VPUX-FREEZER-HELD"
	fi
	echo "vpux-vm: booted, loading modules" >/dev/kmsg
	for m in $(cat /lib/modules/load-order); do
		insmod "/lib/modules/$m.ko" || echo "##VPUX-MODULE-FAIL $m"
	done
	# the NPU model's devices, then the driver, which binds to them
	# shellcheck disable=SC2046
	insmod /vpux/vpux_sim.ko $(cat /vpux/sim-params 2>/dev/null)
	echo "##VPUX-SIM-INSMOD rc=$?"
	# shellcheck disable=SC2046
	insmod /vpux/vpux_accel.ko $(cat /vpux/module-params 2>/dev/null)
	echo "##VPUX-INSMOD rc=$?"
} >"$out" 2>&1

# what a test that reloads a module loads: the driver, the model
export VPUX_MODULE=/vpux/vpux_accel.ko
VPUX_MODULE_PARAMS=$(cat /vpux/module-params 2>/dev/null)
export VPUX_MODULE_PARAMS
export VPUX_SIM_MODULE=/vpux/vpux_sim.ko
VPUX_SIM_PARAMS=$(cat /vpux/sim-params 2>/dev/null)
export VPUX_SIM_PARAMS

if [ "$mode" != test ]; then
	echo "vpux VM: vpux_sim ($VPUX_SIM_PARAMS) and vpux_accel ($VPUX_MODULE_PARAMS) loaded; tools in /vpux/bin; exit to power off"
	setsid cttyhack sh -l
	finish
fi

cd /vpux || finish
while IFS= read -r line; do
	case "$line" in '' | '#'*) continue ;; esac
	name=${line%%[ 	]*}
	cmd=${line#"$name"}
	echo "##VPUX-BEGIN $name" >"$out"
	sh -c "$cmd" </dev/null >"$out" 2>&1
	rc=$?
	echo "##VPUX-END $name rc=$rc" >"$out"
done </vpux/commands

{
	if grep -q '^vpux_accel ' /proc/modules; then
		rmmod vpux_accel
		echo "##VPUX-RMMOD rc=$?"
	else
		echo "##VPUX-RMMOD rc=not-loaded"
	fi
	if grep -q '^vpux_sim ' /proc/modules; then
		rmmod vpux_sim
		echo "##VPUX-SIM-RMMOD rc=$?"
	else
		echo "##VPUX-SIM-RMMOD rc=not-loaded"
	fi
	if [ -w /sys/kernel/debug/kmemleak ]; then
		echo scan >/sys/kernel/debug/kmemleak
		sleep 1
		echo scan >/sys/kernel/debug/kmemleak
		echo "##VPUX-KMEMLEAK-BEGIN"
		cat /sys/kernel/debug/kmemleak
		echo "##VPUX-KMEMLEAK-END"
	fi
	echo "##VPUX-TAINTED $(cat /proc/sys/kernel/tainted)"
	echo "##VPUX-DMESG-BEGIN"
	dmesg
	echo "##VPUX-DMESG-END"
	echo "##VPUX-DONE"
} >"$out" 2>&1
finish
