#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot Debian's 6.12 kernel under qemu-system-x86_64 (software emulation)
# with an initramfs holding busybox, the DRM modules, the model
# (vpux_sim.ko), the driver (vpux_accel.ko) and the given programs; load
# the two modules and either run a command list
# (test), print one command's output (demo) or give a shell (shell).
#
#   vm-run.sh test  OUTDIR CMDFILE   run CMDFILE ("name command..." lines),
#                                    split the TAP output per command into
#                                    OUTDIR/NAME.tap, keep the kernel log
#                                    (OUTDIR/dmesg.log, console.log) and
#                                    fail on any failed test, timeout,
#                                    kernel warning or bad taint
#   vm-run.sh demo  OUTDIR CMD...    run one command, print its output
#   vm-run.sh shell                  interactive shell on the console
#
# Environment: KVER (kernel ABI, default: newest 6.12 headers installed),
# VPUX_KO (the driver, default ./vpux_accel.ko), VPUX_SIM_KO (the model,
# default vpux_sim.ko beside VPUX_KO), VPUX_BINS (programs, and data
# files such as loadables, to copy into /vpux/bin; the programs' shared
# libraries follow), VPUX_DATA (directories to copy whole into
# /vpux/data, e.g. ONNX test directories), VPUX_MODULE_PARAMS (the
# driver's, default none), VPUX_SIM_PARAMS (the model's, default
# num_devices=2),
# VPUX_VM_TIMEOUT (seconds, default 300), VPUX_VM_MEM (MiB, default 1024),
# VPUX_VM_KERNEL and VPUX_VM_BASE (a bzImage to boot instead of Debian's,
# e.g. the debug kernel, and the base cpio made for it by mkbase.sh),
# VPUX_FW (the management core's firmware image, installed as
# /lib/firmware/vpux/vpux_fw.bin where request_firmware() finds it;
# default $B/firmware/vpux_fw.bin when it was built, empty for none),
# VPUX_ROOTFS (a directory laid over the guest's /, e.g. installed
# packages: its files keep their paths, and the shared libraries its
# programs and libraries need follow at the paths they have here).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
mode=${1:?usage: vm-run.sh test|demo|shell ...}
shift

die() { echo "vm-run: $*" >&2; exit 2; }

KVER=${KVER:-$(ls -d /usr/src/linux-headers-6.12*-amd64 2>/dev/null | sort -V | tail -n1 | sed 's|.*/linux-headers-||')}
[ -n "$KVER" ] || die "no linux-headers-6.12*-amd64: run make deps"
VPUX_KO=${VPUX_KO:-$TOP/vpux_accel.ko}
[ -f "$VPUX_KO" ] || die "$VPUX_KO not built: run make module"
VPUX_SIM_KO=${VPUX_SIM_KO:-$(dirname "$VPUX_KO")/vpux_sim.ko}
[ -f "$VPUX_SIM_KO" ] || die "$VPUX_SIM_KO not built: run make module"
VPUX_SIM_PARAMS=${VPUX_SIM_PARAMS:-num_devices=2}
TIMEOUT=${VPUX_VM_TIMEOUT:-300}
MEM=${VPUX_VM_MEM:-1024}

if [ -n "${VPUX_VM_KERNEL:-}" ] && [ -n "${VPUX_VM_BASE:-}" ]; then
	kernel=$VPUX_VM_KERNEL
	base=$VPUX_VM_BASE
else
	cache=$("$HERE/vm-kernel.sh" "$KVER") || die "cannot prepare the $KVER kernel"
	kernel=$cache/vmlinuz
	base=$cache/base.cpio
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# Payload: /vpux with the module, the programs and their libraries.
pay=$work/payload
mkdir -p "$pay/vpux/bin" "$pay/vpux/lib" "$pay/lib64"
cp "$VPUX_KO" "$pay/vpux/vpux_accel.ko"
cp "$VPUX_SIM_KO" "$pay/vpux/vpux_sim.ko"
printf '%s\n' "${VPUX_MODULE_PARAMS:-}" >"$pay/vpux/module-params"
printf '%s\n' "$VPUX_SIM_PARAMS" >"$pay/vpux/sim-params"
# /init from this tree, over the cached base's: the kernel's initramfs
# unpacker lets a later archive's file replace an earlier one's
cp "$HERE/init.sh" "$pay/init"
chmod 755 "$pay/init"
for bin in ${VPUX_BINS:-}; do
	[ -f "$bin" ] || die "$bin: not built"
	cp "$bin" "$pay/vpux/bin/"
	ldd "$bin" 2>/dev/null | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }' |
	while read -r lib; do
		case "$lib" in
		*/ld-linux*) cp -L "$lib" "$pay/lib64/" ;;
		*) cp -L "$lib" "$pay/vpux/lib/" ;;
		esac
	done
done

# Data directories, whole, under /vpux/data/NAME.
if [ -n "${VPUX_DATA:-}" ]; then
	mkdir -p "$pay/vpux/data"
	for d in $VPUX_DATA; do
		[ -d "$d" ] || die "$d: no such directory (VPUX_DATA)"
		cp -r "$d" "$pay/vpux/data/"
	done
fi

# Files at their installed paths (make deb-check: the packages' files).
if [ -n "${VPUX_ROOTFS:-}" ]; then
	[ -d "$VPUX_ROOTFS" ] || die "$VPUX_ROOTFS: no such directory"
	cp -a "$VPUX_ROOTFS/." "$pay/"
	libpath=$(find "$VPUX_ROOTFS" -name '*.so*' -printf '%h\n' | sort -u | tr '\n' :)
	find "$VPUX_ROOTFS" -type f \( -perm -u+x -o -name '*.so*' \) |
	while read -r f; do
		head -c 4 "$f" | grep -q ELF || continue
		LD_LIBRARY_PATH=$libpath ldd "$f" 2>/dev/null |
			awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }'
	done | sort -u | while read -r lib; do
		case "$lib" in "$VPUX_ROOTFS"/*) continue ;; esac
		[ -e "$pay$lib" ] || cp -L --parents "$lib" "$pay/" 2>/dev/null ||
			{ mkdir -p "$pay$(dirname "$lib")" && cp -L "$lib" "$pay$lib"; }
	done
fi

# The firmware image (make firmware-image) for headed devices.
VPUX_FW=${VPUX_FW-${B:-$TOP/build}/firmware/vpux_fw.bin}
if [ -n "$VPUX_FW" ] && [ -f "$VPUX_FW" ]; then
	mkdir -p "$pay/lib/firmware/vpux"
	cp "$VPUX_FW" "$pay/lib/firmware/vpux/vpux_fw.bin"
elif [ -n "$VPUX_FW" ] && [ "$VPUX_FW" != "${B:-$TOP/build}/firmware/vpux_fw.bin" ]; then
	die "$VPUX_FW: no such firmware image (make firmware-image)"
fi

case "$mode" in
test)
	out=${1:?usage: vm-run.sh test OUTDIR CMDFILE}
	cmds=${2:?usage: vm-run.sh test OUTDIR CMDFILE}
	cp "$cmds" "$pay/vpux/commands"
	;;
demo)
	out=${1:?usage: vm-run.sh demo OUTDIR CMD...}
	shift
	echo "demo $*" >"$pay/vpux/commands"
	mode=test
	demo=1
	;;
shell)
	out=$work/out
	;;
*)
	die "unknown mode $mode"
	;;
esac
mkdir -p "$out"
(cd "$pay" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$work/payload.cpio"
cat "$base" "$work/payload.cpio" >"$work/initrd.cpio"

qemu="qemu-system-x86_64 -machine pc -cpu max -smp 2 -accel tcg,thread=multi -m $MEM
	-kernel $kernel -initrd $work/initrd.cpio -no-reboot -nic none"
append="console=ttyS0 panic=-1 loglevel=6 vpux.mode=$mode"

if [ "$mode" = shell ]; then
	# shellcheck disable=SC2086
	exec $qemu -nographic -append "$append"
fi

boot() {
	rm -f "$out/console.log" "$out/serial.log"
	start=$(date +%s)
	# shellcheck disable=SC2086
	timeout --foreground -k 10 "$TIMEOUT" $qemu -display none -monitor none \
		-serial "file:$out/console.log" -serial "file:$out/serial.log" \
		-append "$append" </dev/null
	qrc=$?
	secs=$(( $(date +%s) - start ))
	# The guest's tty turns every \n into \r\n.
	sed -i 's/\r$//' "$out/serial.log" "$out/console.log" 2>/dev/null
}

rm -f "$out/console-boot1.log"
boot
# Multi-threaded TCG now and then leaves a stale int3 of the kernel's own
# text patching to another vCPU ("Oops: int3" in early boot, seen on a
# loaded host). A guest that dies before it even loads the module ran
# nothing of ours: boot it once more, and say so in the rig's TAP.
retried=
if ! grep -q '^##VPUX-INSMOD' "$out/serial.log" 2>/dev/null &&
   grep -qE 'Kernel panic|Oops' "$out/console.log" 2>/dev/null; then
	mv "$out/console.log" "$out/console-boot1.log"
	retried=$(grep -m1 -E 'Oops|Kernel panic' "$out/console-boot1.log")
	echo "vm-run: the guest kernel died while booting, before insmod ($retried); booting again (first console: $out/console-boot1.log)" >&2
	boot
fi

# Split the serial log into per-command TAP files.
awk -v dir="$out" '
	/^##VPUX-BEGIN / { name = $2; file = dir "/" name ".tap"; printf "" > file; next }
	/^##VPUX-END / { close(file); file = ""; sub(/.*rc=/, ""); print $0 > (dir "/" name ".rc"); next }
	/^##VPUX-DMESG-BEGIN/ { file = dir "/dmesg.log"; printf "" > file; next }
	/^##VPUX-DMESG-END/ { close(file); file = ""; next }
	file != "" { print > file }
' "$out/serial.log"

if [ "${demo:-0}" = 1 ]; then
	cat "$out/demo.tap" 2>/dev/null
	rc=$(cat "$out/demo.rc" 2>/dev/null || echo timeout)
	[ "$rc" = 0 ] || { echo "vm-run: demo failed (rc=$rc, logs in $out)" >&2; exit 1; }
	exit 0
fi

# The rig's own checks, as TAP.
rig=$out/vm-rig.tap
n=0 bad=0
point() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi >>"$rig"
}
: >"$rig"
[ -z "$retried" ] || echo "# the first boot died before insmod, booted again: $retried" >>"$rig"
grep -q '^##VPUX-FREEZER-HELD' "$out/serial.log" 2>/dev/null ||
	echo "# no cgroup-v1 freezer: system suspend live-patches freezer_active" >>"$rig"
grep -q '^##VPUX-DONE' "$out/serial.log" 2>/dev/null
point $? "guest ran to the end (qemu rc=$qrc, ${secs}s, limit ${TIMEOUT}s)"
grep -q '^##VPUX-SIM-INSMOD rc=0' "$out/serial.log" 2>/dev/null
point $? "insmod vpux_sim.ko $VPUX_SIM_PARAMS"
grep -q '^##VPUX-INSMOD rc=0' "$out/serial.log" 2>/dev/null
point $? "insmod vpux_accel.ko${VPUX_MODULE_PARAMS:+ $VPUX_MODULE_PARAMS}"
grep -q '^##VPUX-MODULE-FAIL' "$out/serial.log" 2>/dev/null
[ $? -ne 0 ]; point $? "DRM dependency modules loaded"
grep -q '^##VPUX-RMMOD rc=0' "$out/serial.log" 2>/dev/null
point $? "rmmod vpux_accel at the end"
grep -q '^##VPUX-SIM-RMMOD rc=0' "$out/serial.log" 2>/dev/null
point $? "rmmod vpux_sim at the end"
# The log from the console is complete even if the guest died early.
klog=$out/dmesg.log
[ -s "$klog" ] || klog=$out/console.log
bad_re='WARNING:|BUG:|Oops|KASAN|UBSAN|possible circular locking|possible recursive locking|kmemleak|Call Trace|general protection|Kernel panic|hung_task|soft lockup'
bad() {
	grep -E "$bad_re" | grep -v 'kmemleak: Kernel memory leak detector initialized' |
		grep -v 'kmemleak: Automatic memory scanning thread'
}
# Judged from the line /init logs before it loads any module: a report
# of the kernel's own boot (seen under TCG: a KASAN report from an early
# interrupt) is shown, not blamed on vpux. Without that line, all of it.
mark='vpux-vm: booted, loading modules'
if grep -q "$mark" "$klog" 2>/dev/null; then
	boot_lines=$(sed "/$mark/q" "$klog" | bad)
	bad_lines=$(sed -n "/$mark/,\$p" "$klog" | bad)
else
	boot_lines=
	bad_lines=$(bad <"$klog" 2>/dev/null)
fi
[ -z "$bad_lines" ]; point $? "kernel log free of warnings, oopses and lock reports"
[ -n "$bad_lines" ] && echo "$bad_lines" | head -20 | sed 's/^/# /' >>"$rig"
# An oops or BUG: its RIP, code and call trace, so a report read only
# from the TAP (a CI summary) still says where it happened.
after_mark() { if grep -q "$mark" "$klog"; then sed -n "/$mark/,\$p" "$klog"; else cat "$klog"; fi; }
oops=$(after_mark 2>/dev/null | grep -m1 -n -E 'Oops|BUG:|general protection' | cut -d: -f1)
if [ -n "$oops" ]; then
	after_mark | tail -n "+$oops" | head -60 |
		grep -E 'RIP:|Code:|Call Trace|^\[ *[0-9.]+\]  |Modules linked|CPU:|Comm:|Kernel panic' |
		head -30 | sed 's/^/# oops: /' >>"$rig"
fi
[ -n "$boot_lines" ] && echo "$boot_lines" | head -20 |
	sed 's/^/# before any module was loaded: /' >>"$rig"
leaks=$(sed -n '/^##VPUX-KMEMLEAK-BEGIN/,/^##VPUX-KMEMLEAK-END/p' "$out/serial.log" | grep -c 'unreferenced object')
[ "$leaks" -eq 0 ]; point $? "kmemleak reports no leak ($leaks)"
taint=$(sed -n 's/^##VPUX-TAINTED //p' "$out/serial.log")
boot_taint=$(sed -n 's/^##VPUX-TAINTED-BOOT //p' "$out/serial.log")
# Allowed: O (out-of-tree, 4096) and E (unsigned module, 8192), and what
# the kernel was tainted with before any module was loaded (shown).
[ -n "$taint" ] && [ $((taint & ~(4096 | 8192 | ${boot_taint:-0}))) -eq 0 ]
point $? "kernel taint only out-of-tree/unsigned (tainted=${taint:-unknown}, at boot ${boot_taint:-unknown})"
[ "${boot_taint:-0}" -eq 0 ] ||
	echo "# the kernel tainted itself ($boot_taint) before any module was loaded" >>"$rig"
echo "1..$n" >>"$rig"

[ $qrc -eq 124 ] && echo "vm-run: guest timed out after ${TIMEOUT}s" >&2
exit $bad
