#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# The float_io example (examples/float_io.c: libvpux alone, API 1.7) on
# float ONNX node tests compiled by vpux-onnx (TAP): float32 in, float32
# out, bit for bit what vpux-onnx run gives for the same input (the
# compiler's vpuxc_io wraps the same libvpux conversion); then its
# errors. Skipped without libonnx-testdata.
# Usage: float_io_test.sh BUILDDIR SRCTOP
B=${1:-$(dirname "$0")/../../build}
X=$B/tools/vpux-onnx
E=$B/examples/float_io
NODE=/usr/share/libonnx-testdata/data/node
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }

# the float32 elements of a TensorProto .pb: raw_data, its last field,
# 60 elements (3x4x5) here
raw() { tail -c 240 "$1"; }

if ! [ -d "$NODE/test_add" ] || ! [ -d "$NODE/test_sigmoid" ]; then
	for i in 1 2 3 4 5 6; do skip "no libonnx-testdata"; done
	echo "1..$n"
	exit 0
fi
# every symbol it takes from outside the C library is libvpux's API
u=$(nm -D --undefined-only "$E" | grep -v '@GLIBC' | grep -v ' w ' |
	grep -v ' vpux_[a-z_]*@VPUX_1\.[0-9]*$')
[ -z "$u" ] && nm -D --undefined-only "$E" | grep -q 'vpux_request_write_input@VPUX_1.7'
ok $? "float_io takes only libvpux's API (VPUX_1.7) and the C library${u:+: $u}"

for t in test_sigmoid test_add; do
	D=$NODE/$t/test_data_set_0
	mkdir "$T/$t" "$T/$t/ref"
	"$X" compile "$NODE/$t/model.onnx" -o "$T/$t/net.vpuxl" >/dev/null 2>"$T/err" ||
		{ ok 1 "$t: compile ($(head -1 "$T/err"))"; continue; }
	args= in=
	for f in "$D"/input_*.pb; do
		k=${f##*/input_}; k=${k%.pb}
		raw "$f" >"$T/$t/in_$k.f32"
		args="$args $T/$t/in_$k.f32"
		in="$in --input $f"
	done
	"$E" "$T/$t/net.vpuxl" $args -o "$T/$t" >"$T/$t/log" 2>&1 &&
		grep -q "f32 3x4x5 (f16 on the device, converted by libvpux)" "$T/$t/log"
	ok $? "$t: float_io runs it with float32 files ($(head -1 "$T/$t/log"))"
	"$X" run "$T/$t/net.vpuxl" $in --output-dir "$T/$t/ref" >/dev/null &&
		raw "$T/$t/ref/output_0.pb" | cmp -s - "$T/$t/output_0.f32"
	ok $? "$t: output_0.f32 bit for bit vpux-onnx run's output"
done

"$E" "$T/test_add/net.vpuxl" "$T/test_add/in_0.f32" "$T/test_sigmoid/net.vpuxl" \
	>"$T/log" 2>&1
[ $? = 1 ] && grep -q "float_io: invalid argument: input 1 'y': .* bytes, it takes 240: 3x4x5 float" "$T/log"
ok $? "a file of the wrong size: libvpux names the input and the size it takes ($(grep float_io: "$T/log" | head -1))"

echo "1..$n"
exit $fail
