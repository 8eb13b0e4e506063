#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The worked example of custom kernels end to end (TAP): the kernel
# built with the SDK's vpux-kernel-cc, a model with a com.vpux node made
# with onnx.helper (custom_kernel_model.py), compile --kernels, test in
# process against numpy, bit for bit; the errors without --kernels and
# with an attribute missing.
#
# usage: custom_kernel_test.sh BUILDDIR SRCTOP
set -u
B=$1 TOP=$2
# Debian's python3 with python3-onnx and numpy
PY=${PYTHON:-/usr/bin/python3}
ONNX=$B/tools/vpux-onnx
KCC=$B/kernel-sdk/bin/vpux-kernel-cc
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0 bad=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=$((bad + 1)); fi
}

"$KCC" --help | grep -q 'VPUX_KERNEL_DECLARE'; ok $? "vpux-kernel-cc --help"
"$KCC" --version | grep -q '^vpux-kernel-cc '; ok $? "vpux-kernel-cc --version"
mkdir -p "$T/kdir"
"$KCC" -Werror -o "$T/kdir/scale_shift.elf" "$TOP/examples/kernels/scale_shift.c" >"$T/log" 2>&1
ok $? "vpux-kernel-cc builds examples/kernels/scale_shift.c"
readelf -S "$T/kdir/scale_shift.elf" | grep -q '\.vpux\.params'
ok $? "the kernel carries its declaration (.vpux.params)"

"$PY" "$TOP/compiler/tests/custom_kernel_model.py" "$T/m" >"$T/log" 2>&1
ok $? "custom_kernel_model.py writes the model (onnx.helper)"
"$ONNX" compile "$T/m/model.onnx" --kernels "$T/kdir" -o "$T/m.vpuxl" --report \
	--vasm "$T/m.vasm" >"$T/log" 2>&1 &&
	grep -q '^ss  *scale_shift  *2  *0  *1 ' "$T/log" &&
	grep -q '^kernel scale_shift file=scale_shift.elf$' "$T/m.vasm" &&
	grep -q '^shave elf scale_shift win_f=t[0-9]* in=t[0-9]* out=t[0-9]* params=0000c03f000080be00000000$' "$T/m.vasm" &&
	readelf -S "$T/m.vpuxl" | grep -q '\.vpux\.kcode'
ok $? "compile --kernels: a kernel task, the attributes packed, the kernel in the loadable"
"$ONNX" test "$T/m" --kernels "$T/kdir" >"$T/log" 2>&1 &&
	grep -q 'max diff 0, 100.0% exactly equal' "$T/log"
ok $? "test --kernels in process: equal to numpy bit for bit"
"$ONNX" run "$T/m.vpuxl" --input x="$T/m/test_data_set_0/input_0.pb" \
	--output-dir "$T" >"$T/log" 2>&1 && cmp -s "$T/output_0.pb" "$T/m/test_data_set_0/output_0.pb"
ok $? "run of the loadable (no --kernels needed): the reference's bytes"

"$ONNX" compile "$T/m/model.onnx" -o "$T/x.vpuxl" >"$T/log" 2>&1
[ $? = 3 ] && grep -q "scale_shift 'ss': a custom op of domain com.vpux: compile with --kernels DIR holding scale_shift.elf" "$T/log"
ok $? "without --kernels: exit 3 naming the node and the option"
"$PY" "$TOP/compiler/tests/custom_kernel_model.py" "$T/bad" --drop relu >/dev/null 2>&1
"$ONNX" compile "$T/bad/model.onnx" --kernels "$T/kdir" -o "$T/x.vpuxl" >"$T/log" 2>&1
[ $? = 3 ] && grep -q "scale_shift 'ss'.*attribute 'relu' missing: kernel 'scale_shift' declares s32 relu" "$T/log"
ok $? "an attribute missing: exit 3 naming node, attribute and kernel"
[ $bad = 0 ] || cat "$T/log"
echo "1..$n"
[ $bad = 0 ]
