#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# vpux-onnx as a user runs it (TAP): run on a loadable built without the
# compiler (mk-copy-net: a DMA copy with float ONNX input and output in
# .vpux.io/.vpux.ioq), the output .pb bit for bit, .npy input, --json,
# the errors and exit codes; then compile and test on ONNX node tests of
# libonnx-testdata (skipped when it is not installed).
# Usage: onnx_tools_test.sh BUILDDIR SRCTOP
B=${1:-$(dirname "$0")/../../build}
SRC=${2:-$(dirname "$0")/../..}
X=$B/tools/vpux-onnx
NODE=/usr/share/libonnx-testdata/data/node
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
# expect STATUS REGEX NAME CMD...: exit status and a message on stderr
expect() {
	want=$1 re=$2 name=$3
	shift 3
	"$@" >"$T/out" 2>"$T/err"
	st=$?
	[ "$st" = "$want" ] && grep -qE "$re" "$T/err"
	ok $? "$name (exit $st: $(head -1 "$T/err" | head -c 300))"
}

"$B/compiler/tests/mk-copy-net" "$T"
ok $? "mk-copy-net: a loadable with .vpux.io/.vpux.ioq, inputs, expected output"

mkdir "$T/o1" "$T/o2" "$T/o3"
"$X" run "$T/copy.vpuxl" --input in="$T/in.pb" --output-dir "$T/o1" >"$T/run"
ok $? "run: float input quantized, copied, dequantized"
cmp -s "$T/o1/output_0.pb" "$T/expect.pb"
ok $? "run: output_0.pb is the expected TensorProto ('out', float 4x4, bit for bit)"
grep -q "output 0 'out': float 4x4" "$T/run"
ok $? "run: says what it wrote ($(head -1 "$T/run"))"

"$X" run "$T/copy.vpuxl" --input in="$T/in.npy" --output-dir "$T/o2" >/dev/null &&
	cmp -s "$T/o2/output_0.pb" "$T/expect.pb"
ok $? "run: the same input as .npy, the same output"

"$X" run "$T/copy.vpuxl" --input "$T/in.pb" --output-dir "$T/o3" >/dev/null &&
	cmp -s "$T/o3/output_0.pb" "$T/expect.pb"
ok $? "run: --input FILE takes the TensorProto's own name"

"$X" run --json "$T/copy.vpuxl" --input in="$T/in.pb" --output-dir "$T/o3" >"$T/json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
o = d["outputs"][0]
assert d["device"] == "inproc" and o["name"] == "out" and o["dtype"] == "float"
assert o["dims"] == [4, 4] and o["file"].endswith("output_0.pb")
' "$T/json"
ok $? "run --json: device, output name, dtype, dims, file"

mkdir "$T/o4"
# raw_data is the last field of a packed TensorProto: the 16 bytes
"$X" run "$T/raw.vpuxl" --input x="$T/in_u8.pb" --output-dir "$T/o4" >"$T/run" &&
	grep -q "output 0 'y': uint8 1x1x4x4" "$T/run" &&
	[ "$(tail -c 16 "$T/o4/output_0.pb" | od -An -tx1)" = "$(tail -c 16 "$T/in_u8.pb" | od -An -tx1)" ]
ok $? "run: a loadable without .vpux.io: tensor names, uint8 in and out, the bytes copied"

expect 2 "usage:" "no arguments: usage, exit 2" "$X"
expect 2 "unknown command 'frobnicate'" "unknown command: exit 2" "$X" frobnicate
expect 2 "no --output-dir" "run without --output-dir: exit 2" \
	"$X" run "$T/copy.vpuxl" --input in="$T/in.pb"
expect 2 "input 'in' not given \(--input in=FILE\)" "run without the input: named, exit 2" \
	"$X" run "$T/copy.vpuxl" --output-dir "$T/o3"
expect 2 "input 'zz' .*no such input \(inputs: 'in'\)" "run with an unknown input: the inputs listed, exit 2" \
	"$X" run "$T/copy.vpuxl" --input in="$T/in.pb" --input zz="$T/in.pb" --output-dir "$T/o3"
expect 2 "in_u8.pb: input 'in': a uint8 tensor, the network takes float" \
	"run with a uint8 tensor for a float input: exit 2" \
	"$X" run "$T/copy.vpuxl" --input in="$T/in_u8.pb" --output-dir "$T/o3"
head -c 20 "$T/in.pb" >"$T/cut.pb"
expect 2 "cut.pb: not a TensorProto" "run with a truncated .pb: the file named, exit 2" \
	"$X" run "$T/copy.vpuxl" --input in="$T/cut.pb" --output-dir "$T/o3"
head -c 100 "$T/in.npy" >"$T/cut.npy"
expect 2 "cut.npy: truncated .npy header" "run with a truncated .npy: exit 2" \
	"$X" run "$T/copy.vpuxl" --input in="$T/cut.npy" --output-dir "$T/o3"
cp "$T/copy.vpuxl" "$T/bad.vpuxl"
off=$(readelf -S -W "$T/bad.vpuxl" | grep '\.vpux\.ioq' |
	sed 's/.*PROGBITS *[0-9a-f]* *\([0-9a-f]*\).*/\1/')
printf '\377' | dd of="$T/bad.vpuxl" bs=1 seek=$((0x$off + 24)) conv=notrunc 2>/dev/null
expect 2 "\.vpux\.ioq: checksum mismatch" "run with a corrupt .vpux.ioq: named, exit 2" \
	"$X" run "$T/bad.vpuxl" --input in="$T/in.pb" --output-dir "$T/o3"
expect 4 "accel63" "run on an absent device: exit 4, the node named" \
	"$X" run --device /dev/accel/accel63 "$T/copy.vpuxl" --input in="$T/in.pb" --output-dir "$T/o3"
expect 2 "not a directory" "run with a missing output directory: exit 2" \
	"$X" run "$T/copy.vpuxl" --input in="$T/in.pb" --output-dir "$T/nope"

# ---- with the compiler, on ONNX node tests ----
if [ ! -d "$NODE/test_maxpool_2d_uint8" ]; then
	skip "libonnx-testdata not installed: compile and test"
	echo "1..$n"
	exit $fail
fi
"$X" test "$NODE/test_maxpool_2d_uint8" >"$T/test"
st=$?
[ $st = 0 ] && grep -q "^ok 1 - .*test_maxpool_2d_uint8/test_data_set_0: max diff 0, 100.0% exactly equal" "$T/test" &&
	grep -q "^1\.\.1$" "$T/test" && [ "$(tail -1 "$T/test")" = "1 passed, 0 failed" ]
ok $? "test test_maxpool_2d_uint8: TAP line, plan, summary, exit 0 ($(head -1 "$T/test"))"

# one reference element off by 1 (within the tolerance), another by 2
cp -r "$NODE/test_maxpool_2d_uint8" "$T/mp"
chmod -R u+w "$T/mp"
cp -r "$T/mp/test_data_set_0" "$T/mp/test_data_set_1"
cp -r "$T/mp/test_data_set_0" "$T/mp/test_data_set_10"
cp -r "$T/mp/test_data_set_0" "$T/mp/test_data_set_2"
"$B/compiler/tests/mk-copy-net" perturb "$NODE/test_maxpool_2d_uint8/test_data_set_0/output_0.pb" \
	"$T/mp/test_data_set_1/output_0.pb" 1
"$B/compiler/tests/mk-copy-net" perturb "$NODE/test_maxpool_2d_uint8/test_data_set_0/output_0.pb" \
	"$T/mp/test_data_set_10/output_0.pb" 2
"$X" test "$T/mp" >"$T/test"
st=$?
[ $st = 1 ] && grep -q "^ok 2 - .*test_data_set_1: max diff 1, 96.0% exactly equal" "$T/test" &&
	grep -q "^ok 3 - .*test_data_set_2: max diff 0" "$T/test" &&
	grep -q "^not ok 4 - .*test_data_set_10: output 0 'y': 1 of 25 elements beyond the tolerance" "$T/test" &&
	[ "$(tail -1 "$T/test")" = "3 passed, 1 failed" ]
ok $? "test: a reference 1 away passes, 2 away fails; data sets in numeric order; exit 1"
grep "^not ok" "$T/test" | sed 's/^/# /'

"$X" test --json "$T/mp" >"$T/json"
st=$?
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"]
assert d["passed"] == 3 and d["failed"] == 1 and len(t) == 4
assert t[1]["ok"] and t[1]["max_diff"] == 1 and abs(t[1]["equal_fraction"] - 0.96) < 1e-9
assert not t[3]["ok"] and "beyond the tolerance" in t[3]["reason"]
' "$T/json" && [ $st = 1 ]
ok $? "test --json: passed, failed, per data set max_diff, equal_fraction, reason"

"$X" test "$NODE/test_hardmax_axis_0" >"$T/test"
st=$?
[ $st = 1 ] && grep -q "^not ok 1 - .*test_hardmax_axis_0/test_data_set_0: compile: partitioning: Hardmax '#0' cannot run on the NPU, nor on the CPU" "$T/test" &&
	grep -q "unsupported" "$T/test"
ok $? "test on an unsupported model: not ok with the deciding line first, then the compiler's list, exit 1 ($(grep -m1 '^not ok' "$T/test" | head -c 200))"

"$X" test "$T/nope" >"$T/test"
st=$?
[ $st = 1 ] && grep -q "^not ok 1 - .*nope: not an ONNX test directory" "$T/test"
ok $? "test on a directory that is not a test: not ok, exit 1"

"$X" compile "$NODE/test_maxpool_2d_uint8/model.onnx" -o "$T/mp.vpuxl" --report >"$T/rep"
ok $? "compile: test_maxpool_2d_uint8 to a loadable, with --report"
[ -s "$T/rep" ] && readelf -S "$T/mp.vpuxl" | grep -q '\.vpux\.io '
ok $? "compile: a report printed; the loadable has .vpux.io"
mkdir "$T/o5"
"$X" run "$T/mp.vpuxl" --input x="$NODE/test_maxpool_2d_uint8/test_data_set_0/input_0.pb" \
	--output-dir "$T/o5" >/dev/null &&
	"$X" run "$NODE/test_maxpool_2d_uint8/model.onnx" \
	--input x="$NODE/test_maxpool_2d_uint8/test_data_set_0/input_0.pb" --output-dir "$T/o4" >/dev/null &&
	cmp -s "$T/o4/output_0.pb" "$T/o5/output_0.pb"
ok $? "run: the compiled loadable and the .onnx (compiled on the fly) give the same output"
expect 3 "Hardmax" "compile of an unsupported model: the node named, exit 3" \
	"$X" compile "$NODE/test_hardmax_axis_0/model.onnx" -o "$T/abs.vpuxl"
printf 'garbage' >"$T/g.onnx"
expect 3 "g.onnx" "compile of a file that is not ONNX: exit 3" \
	"$X" compile "$T/g.onnx" -o "$T/g.vpuxl"
expect 2 "no output file" "compile without -o: exit 2" \
	"$X" compile "$NODE/test_abs/model.onnx"

# the quantization parameters of a node test are graph inputs: folded
if [ -d "$NODE/test_quantizelinear" ]; then
	mkdir "$T/o6"
	q=$NODE/test_quantizelinear/test_data_set_0
	"$X" run "$NODE/test_quantizelinear/model.onnx" --input x="$q/input_0.pb" \
		--input y_scale="$q/input_1.pb" --input y_zero_point="$q/input_2.pb" \
		--output-dir "$T/o6" >/dev/null && [ -s "$T/o6/output_0.pb" ]
	ok $? "run test_quantizelinear: scale and zero point inputs folded, float input quantized"
fi

# ---- a model the NPU cannot run whole: a run recipe (compiler/models/mixed_qdq) ----
MIX=$SRC/compiler/models/mixed_qdq
export VPUX_CPU_LIBRARY_PATH=$B/umd
"$X" compile "$MIX/model.onnx" -o "$T/mix" --report >"$T/rep" &&
	[ -s "$T/mix/recipe.json" ] && [ -s "$T/mix/npu0.vpuxl" ] && [ -s "$T/mix/npu1.vpuxl" ]
ok $? "compile mixed_qdq -o DIR: recipe.json, npu0.vpuxl, npu1.vpuxl ($(tail -1 "$T/rep"))"
grep -q "cpu   Resize 'upsample_Resize'" "$T/rep"
ok $? "compile --report: the Resize runs on the CPU"
head -1 "$T/rep" | grep -qE "^placement: [0-9]+ nodes on the NPU \(2 parts\), 1 on the CPU, [0-9]+ constant; the first to leave the NPU: Resize 'upsample_Resize': operator not supported by the NPU compiler$" &&
	grep -qE "^  npu0  QuantizeLinear '" "$T/rep" && grep -qE "^  npu1  Conv '" "$T/rep" &&
	grep -q "^  cpu   Resize 'upsample_Resize': operator not supported by the NPU compiler$" "$T/rep"
ok $? "compile --report: the counts and the first node off the NPU first, then each node's place and the CPU's reason ($(head -1 "$T/rep" | head -c 160))"
expect 3 "CPU fallback is off \(--no-cpu-fallback\) and 1 node would leave the NPU, the first Resize 'upsample_Resize':" \
	"compile --no-cpu-fallback: a model that needs the CPU fails, exit 3" \
	"$X" compile "$MIX/model.onnx" -o "$T/nofb" --no-cpu-fallback
grep -q "^  Resize 'upsample_Resize': operator not supported by the NPU compiler" "$T/err" && [ ! -e "$T/nofb/recipe.json" ]
ok $? "compile --no-cpu-fallback: the node named with its reason, nothing written"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
runs = [(x["name"], x.get("where", "npu")) for x in r["execution"]["runs"]]
assert runs == [("quantize", "cpu"), ("npu0", "npu"), ("dequantize", "cpu"),
                ("resize", "cpu"), ("quantize", "cpu"), ("npu1", "npu"),
                ("dequantize", "cpu")], runs
assert r["header"]["target"] == "vpux1"
assert [c["library_path"] for c in r["resources"]["cpus"]] == ["libvpux-cpuops.so"] * 3
# the cut converts with the Q/DQ parameters of the model (conv1: its DQ, upsample: its Q)
q = r["execution"]["runs"][4]["constants"]
d = r["execution"]["runs"][2]["constants"]
assert q[0]["value"] == d[0]["value"] and q[2]["value"] == "int8", (q, d)
bufs = {b["name"]: b for b in r["resources"]["buffers"]}
assert bufs["input"]["type"] == "input" and bufs["input"]["size"] == 3 * 16 * 16 * 4
assert bufs["output"]["type"] == "output" and bufs["npu0:out0"]["size"] == 8 * 16 * 16
' "$T/mix/recipe.json"
ok $? "recipe: the runs in order, the glue with the cut's scale and zero point, the buffers"
if [ -f "$SRC/tools/recipe-schema-check.py" ] && [ -f "$SRC/Documentation/run-recipes.schema.json" ]; then
	python3 "$SRC/tools/recipe-schema-check.py" "$SRC/Documentation/run-recipes.schema.json" \
		"$T/mix/recipe.json" >/dev/null 2>&1
	ok $? "recipe: valid against Documentation/run-recipes.schema.json"
else
	skip "no run-recipe schema in the tree"
fi
"$X" compile "$MIX/model.onnx" -o "$T/m.json" >/dev/null &&
	[ -s "$T/m.json" ] && [ -s "$T/m.npu0.vpuxl" ] && grep -q '"m.npu1.vpuxl"' "$T/m.json"
ok $? "compile -o NAME.json: loadables NAME.npuN.vpuxl next to it"
expect 2 "needs the CPU for 1 node.*recipe" "compile of a partitioned model -o X.vpuxl: exit 2" \
	"$X" compile "$MIX/model.onnx" -o "$T/m.vpuxl"
mkdir "$T/o7" "$T/o8"
"$X" run "$MIX/model.onnx" --input input="$MIX/test_data_set_0/input_0.pb" \
	--output-dir "$T/o7" >/dev/null &&
	"$X" run "$T/mix/recipe.json" --input input="$MIX/test_data_set_0/input_0.pb" \
	--output-dir "$T/o8" >/dev/null &&
	cmp -s "$T/o7/output_0.pb" "$T/o8/output_0.pb"
ok $? "run: the .onnx (partitioned on the fly) and its compiled recipe give the same output"
# a partitioned model runs from memory (vpux_runner_create_from_memory()):
# no temporary directory, so a TMPDIR that does not exist is no matter
mkdir "$T/o9"
TMPDIR="$T/no/such/dir" "$X" run "$MIX/model.onnx" --input input="$MIX/test_data_set_0/input_0.pb" \
	--output-dir "$T/o9" >/dev/null &&
	TMPDIR="$T/no/such/dir" "$X" test "$MIX" >/dev/null &&
	cmp -s "$T/o7/output_0.pb" "$T/o9/output_0.pb"
ok $? "run and test of a partitioned .onnx need no temporary directory"
"$X" test "$MIX" >"$T/tap"
ok $? "test mixed_qdq through the recipe: $(grep -c '^ok' "$T/tap") of 3 data sets match onnxruntime"
expect 2 "input 'nope'.*no such input" "run of a recipe with an unknown input: exit 2" \
	"$X" run "$T/mix/recipe.json" --input input="$MIX/test_data_set_0/input_0.pb" \
	--input nope="$MIX/test_data_set_0/input_0.pb" --output-dir "$T/o8"
# a node neither path runs: the old message, then why the CPU cannot either
PYO=/usr/bin/python3
if "$PYO" -c "import onnx" 2>/dev/null; then
	"$PYO" - "$MIX/model.onnx" "$T/abs.onnx" <<'PY'
import sys, onnx
m = onnx.load(sys.argv[1])
for n in m.graph.node:
    if n.op_type == "Resize":
        n.op_type = "Hardmax"
        del n.input[1:]
        del n.attribute[:]
onnx.save(m, sys.argv[2])
PY
	expect 3 "Hardmax 'upsample_Resize' cannot run on the NPU, nor on the CPU: libvpux-cpuops has no such function" \
		"compile: a node without an NPU or CPU path: why the CPU cannot, exit 3" \
		"$X" compile "$T/abs.onnx" -o "$T/abs"
	grep -q "^  Hardmax 'upsample_Resize': operator not supported by the NPU compiler" "$T/err"
	ok $? "compile: ... after the lowering's precise message, unchanged"
	"$PYO" - "$MIX/model.onnx" "$T/cubic.onnx" <<'PY'
import sys, onnx
m = onnx.load(sys.argv[1])
for n in m.graph.node:
    if n.op_type == "Resize":
        for a in n.attribute:
            if a.name == "mode":
                a.s = b"cubic"
onnx.save(m, sys.argv[2])
PY
	expect 3 "Resize 'upsample_Resize'.*mode must be nearest or linear" \
		"compile: a Resize mode libvpux-cpuops lacks is refused by the compiler, exit 3" \
		"$X" compile "$T/cubic.onnx" -o "$T/cubic"
	# conv2 with float weights (its int8 weights dequantized): the NPU
	# refuses it, so the Conv runs on the CPU with the weights and bias
	# in w0.bin; the same numbers as mixed_qdq's QDQ graph, so
	# mixed_qdq's onnxruntime references hold
	mkdir "$T/fconv"
	cp -r "$MIX"/test_data_set_* "$T/fconv/"
	"$PYO" - "$MIX/model.onnx" "$T/fconv/model.onnx" <<'PY'
import sys, onnx, numpy as np
from onnx import numpy_helper
m = onnx.load(sys.argv[1])
g = m.graph
inits = {i.name: i for i in g.initializer}
for n in list(g.node):
    if n.name == "conv2_W_DequantizeLinear":
        q = numpy_helper.to_array(inits[n.input[0]]).astype(np.float32)
        s = numpy_helper.to_array(inits[n.input[1]]).astype(np.float32)
        g.initializer.append(numpy_helper.from_array(q * s.reshape(-1, 1, 1, 1), n.output[0]))
        g.node.remove(n)
onnx.save(m, sys.argv[2])
PY
	"$X" compile "$T/fconv/model.onnx" -o "$T/fc" --report >"$T/rep" &&
		grep -q "cpu   Conv 'conv2_Conv': weights are not a quantized constant" "$T/rep" &&
		! grep -q '"name": "fill"' "$T/fc/recipe.json" && [ -s "$T/fc/w0.bin" ]
	ok $? "compile: a float-weight Conv on the CPU (the Relu after it on the NPU in FP16), weights and bias in w0.bin, no fill runs"
	"$X" test "$T/fconv" >"$T/tap"
	ok $? "test: the CPU Conv recipe matches onnxruntime ($(grep -c '^ok' "$T/tap") of 3 data sets)"
	python3 - "$T/fc/recipe.json" "$T/fc/w0.bin" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
ws = [b for b in r["resources"]["buffers"] if b["type"] == "weight"]
assert len(ws) == 2, ws  # conv2's weights and bias
for b in ws:
    d = b["data"]
    n = 4
    for x in d["shape"]:
        n *= x
    assert d["file"] == "w0.bin" and d["dtype"] == "float32" and n == b["size"], b
    assert d["offset"] % 8 == 0 and d["offset"] + b["size"] <= os.path.getsize(sys.argv[2]), b
assert os.path.getsize(sys.argv[1]) < 20000
PY
	ok $? "recipe: the weight buffers name w0.bin with offset, dtype and shape; the JSON stays small"
	# the runner checks the weights file: there, long enough, inside the directory
	cp -r "$T/fc" "$T/fc2"
	head -c 100 "$T/fc/w0.bin" >"$T/fc2/w0.bin"
	expect 4 "resources.buffers\[[0-9]+\].data: .*w0.bin has 100 bytes, buffer .* needs" \
		"run: a truncated weights file refused, exit 4" \
		"$X" run "$T/fc2/recipe.json" --input input="$MIX/test_data_set_0/input_0.pb" --output-dir "$T/o8"
	rm "$T/fc2/w0.bin"
	expect 4 "data.file: .*w0.bin: No such file" "run: a missing weights file named, exit 4" \
		"$X" run "$T/fc2/recipe.json" --input input="$MIX/test_data_set_0/input_0.pb" --output-dir "$T/o8"
	sed 's|"w0.bin"|"../fc/w0.bin"|' "$T/fc/recipe.json" >"$T/fc2/recipe.json"
	expect 4 "leaves the recipe's directory \('..'\)" "run: a weights file outside the recipe's directory refused, exit 4" \
		"$X" run "$T/fc2/recipe.json" --input input="$MIX/test_data_set_0/input_0.pb" --output-dir "$T/o8"
	sed 's|"w0.bin"|"'"$T"'/fc/w0.bin"|' "$T/fc/recipe.json" >"$T/fc2/recipe.json"
	expect 4 "is an absolute path" "run: an absolute weights path refused, exit 4" \
		"$X" run "$T/fc2/recipe.json" --input input="$MIX/test_data_set_0/input_0.pb" --output-dir "$T/o8"
	# a CPU Conv with 18 MiB of float32 weights (the recipe's JSON is
	# read whole up to 16 MiB: the weights are not in it)
	mkdir -p "$T/big/test_data_set_0"
	"$PYO" - "$T/big" <<'PY'
import sys, numpy as np, onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh
d = sys.argv[1]
rng = np.random.default_rng(7)
w = (rng.standard_normal((1100, 256, 4, 4)) * 0.02).astype(np.float32)
x = rng.uniform(-1, 1, (1, 256, 4, 4)).astype(np.float32)
s1, s2 = np.float32(1 / 127), np.float32(0.03)
z = np.int8(0)
nodes = [h.make_node("QuantizeLinear", ["x", "s1", "z"], ["xq"], name="q0"),
         h.make_node("DequantizeLinear", ["xq", "s1", "z"], ["xd"], name="dq0"),
         h.make_node("Conv", ["xd", "w"], ["c"], name="bigconv"),
         h.make_node("QuantizeLinear", ["c", "s2", "z"], ["cq"], name="q1"),
         h.make_node("DequantizeLinear", ["cq", "s2", "z"], ["y"], name="dq1")]
g = h.make_graph(nodes, "big", [h.make_tensor_value_info("x", T.FLOAT, [1, 256, 4, 4])],
                 [h.make_tensor_value_info("y", T.FLOAT, [1, 1100, 1, 1])],
                 [nh.from_array(w, "w"), nh.from_array(np.array(s1), "s1"),
                  nh.from_array(np.array(s2), "s2"), nh.from_array(np.array(z), "z")])
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), d + "/model.onnx")
xq = np.clip(np.rint(x / s1), -128, 127) * s1
c = np.einsum("ochw,nchw->no", w.astype(np.float64), xq.astype(np.float64)).reshape(1, 1100, 1, 1)
y = (np.clip(np.rint(c / s2), -128, 127) * s2).astype(np.float32)
open(d + "/test_data_set_0/input_0.pb", "wb").write(nh.from_array(x, "x").SerializeToString())
open(d + "/test_data_set_0/output_0.pb", "wb").write(nh.from_array(y, "y").SerializeToString())
PY
	"$X" compile "$T/big/model.onnx" -o "$T/bigr" --report >"$T/rep" &&
		grep -q "cpu   Conv 'bigconv'" "$T/rep" &&
		[ "$(stat -c %s "$T/bigr/w0.bin")" -gt 16777216 ] && [ "$(stat -c %s "$T/bigr/recipe.json")" -lt 100000 ]
	ok $? "compile: a CPU Conv with $(stat -c %s "$T/bigr/w0.bin" 2>/dev/null) bytes of weights: w0.bin, a small JSON"
	"$X" test "$T/big" >"$T/tap"
	ok $? "test: the recipe with more than 16 MiB of CPU weights runs and matches ($(grep -c '^ok' "$T/tap") of 1)"
	# --no-cpu-fallback names every node that would leave the NPU
	"$PYO" - "$T/twocpu.onnx" <<'PY'
import sys, numpy as np, onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh
w = np.full((4, 4, 1, 1), 0.25, np.float32)
nodes = [h.make_node("Hardmax", ["x"], ["hm"], name="hardmax", axis=1),
         h.make_node("Conv", ["x", "w"], ["c1"], name="conv1"),
         h.make_node("Round", ["c1"], ["y"], name="round")]
g = h.make_graph(nodes, "twocpu", [h.make_tensor_value_info("x", T.FLOAT, [1, 4, 4, 4])],
                 [h.make_tensor_value_info("y", T.FLOAT, [1, 4, 4, 4]),
                  h.make_tensor_value_info("hm", T.FLOAT, [1, 4, 4, 4])], [nh.from_array(w, "w")])
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), sys.argv[1])
PY
	expect 3 "CPU fallback is off \(--no-cpu-fallback\) and 2 nodes would leave the NPU, the first Hardmax 'hardmax':" \
		"compile --no-cpu-fallback of a float model: exit 3, the count and the first node first" \
		"$X" compile "$T/twocpu.onnx" -o "$T/twocpu" --no-cpu-fallback
	grep -q "^  Hardmax 'hardmax': operator Hardmax (opset 13) not supported by the NPU compiler" "$T/err" &&
		grep -q "^  Round 'round': operator Round (opset 13) not supported by the NPU compiler" "$T/err"
	ok $? "compile --no-cpu-fallback: every node off the NPU named with the registry's reason"
	expect 3 "^vpux-onnx: .*partitioning: Hardmax 'hardmax' cannot run on the NPU, nor on the CPU \(the first of these\):" \
		"compile of a model two nodes of which run nowhere: the decisive line first, exit 3" \
		"$X" compile "$T/twocpu.onnx" -o "$T/twocpu"
	grep -q "^  Round 'round': NPU: operator Round (opset 13) not supported by the NPU compiler; CPU: libvpux-cpuops has no such function" "$T/err"
	ok $? "compile: ... then every such node with both reasons"
else
	skip "no python3-onnx: the partitioning error tests"
	skip "no python3-onnx"
	skip "no python3-onnx"
	skip "no python3-onnx"
	skip "no python3-onnx"
	skip "no python3-onnx: weights files, large CPU weights, --no-cpu-fallback (13 tests)"
fi

# test --rel-l2: the FP16 rule for float outputs that are not quantized
# (here test_relu, on the NPU in FP16): relative L2 error
# within the tolerance, no non-finite value where the reference is finite
if [ -d "$NODE/test_relu" ] && "$PYO" -c "import onnx, numpy" 2>/dev/null; then
	mkdir "$T/rl"
	cp "$NODE/test_relu/model.onnx" "$T/rl/"
	"$PYO" - "$NODE/test_relu/test_data_set_0" "$T/rl" <<'PY'
import os, sys, shutil, numpy as np, onnx
from onnx import numpy_helper as nh
src, dst = sys.argv[1], sys.argv[2]
x = nh.to_array(onnx.load_tensor(os.path.join(src, "input_0.pb")))
y = nh.to_array(onnx.load_tensor(os.path.join(src, "output_0.pb")))
def put(k, xx, yy):
    d = os.path.join(dst, "test_data_set_%d" % k)
    os.makedirs(d)
    open(os.path.join(d, "input_0.pb"), "wb").write(nh.from_array(xx, "x").SerializeToString())
    open(os.path.join(d, "output_0.pb"), "wb").write(nh.from_array(yy, "y").SerializeToString())
put(0, x, y * np.float32(1.005))            # relative L2 0.005: passes
put(1, x, y * np.float32(1.02))             # 0.02: fails
xi = x.copy(); xi.flat[0] = np.inf
yi = y.copy(); yi.flat[0] = np.float32(3)
put(2, xi, yi)                              # inf where the reference is 3: fails
yj = y.copy(); yj.flat[0] = np.inf
put(3, xi, yj)                              # inf matched by inf: passes
PY
	"$X" test --rel-l2 1e-2 "$T/rl" >"$T/tap"
	st=$?
	[ $st = 1 ] && grep -q "^ok 1 - .*test_data_set_0: .*relative L2 0.00[45]" "$T/tap" &&
		grep -q "^not ok 2 - .*test_data_set_1: output 0 'y': relative L2 error 0.019[5-8], more than 0.01" "$T/tap" &&
		grep -q "^not ok 3 - .*test_data_set_2: output 0 'y': 1 of 60 elements non-finite where the reference is not.*first \[0\] = inf, reference 3" "$T/tap" &&
		grep -q "^ok 4 - .*test_data_set_3" "$T/tap" && [ "$(tail -1 "$T/tap")" = "2 passed, 2 failed" ]
	ok $? "test --rel-l2 1e-2: 0.5 % passes, 2 % fails, an overflow fails, inf matched passes, exit 1"
	grep "^not ok" "$T/tap" | sed 's/^/# /'
	"$X" test "$T/rl" >"$T/tap"
	grep -q "^not ok 1 - .*beyond the tolerance" "$T/tap"
	ok $? "test without --rel-l2: the 0.5 % data set fails the float-rounding rule"
	"$X" test --json --rel-l2 0.03 "$T/rl" >"$T/json"
	"$PYO" -c '
import json, sys
t = json.load(open(sys.argv[1]))["tests"]
assert t[1]["ok"] and abs(t[1]["rel_l2"] - 0.0196) < 1e-3, t[1]
' "$T/json"
	ok $? "test --json --rel-l2: rel_l2 per data set"
	# mixed_qdq's Resize runs on the CPU: with --no-cpu-fallback a failure
	"$X" test --rel-l2 1e-2 --no-cpu-fallback "$MIX" >"$T/tap"
	[ $? = 1 ] && grep -q "^not ok 1 - .*compile: " "$T/tap" &&
		grep -q "Resize 'upsample_Resize'" "$T/tap"
	ok $? "test --no-cpu-fallback: a model the NPU cannot run whole is not ok, no recipe"
	expect 2 "rel-l2 '2': a tolerance in \(0, 1\)" "test --rel-l2 2: refused, exit 2" \
		"$X" test --rel-l2 2 "$T/rl"
else
	skip "no test_relu or no python3-onnx: test --rel-l2"
	skip "no python3-onnx"
	skip "no python3-onnx"
	skip "no python3-onnx"
	skip "no python3-onnx"
fi

# a float model with a QDQ section: FP16 around an int8 Conv, whole on
# the NPU, judged by the FP16 rule against onnxruntime
MF=$SRC/compiler/models/mixed_float
"$X" compile "$MF/model.onnx" -o "$T/mf.vpuxl" --no-cpu-fallback --report >"$T/rep" &&
	grep -q "^placement: every node on the NPU" "$T/rep" &&
	"$X" test --rel-l2 1e-2 --no-cpu-fallback "$MF" >"$T/tap"
ok $? "a float model with a QDQ section: whole on the NPU, within the FP16 rule ($(tail -1 "$T/tap"))"

# compiler/models/float/check.py (make float-models-check) on a quantized
# model whose output it judges by the FP16 rule: good, 2 % off, an
# unlisted one; expected.list decides the exit status
FCHK=$SRC/compiler/models/float/check.py
if [ -f "$FCHK" ] && "$PYO" -c "import onnx, numpy" 2>/dev/null; then
	mkdir "$T/fm"
	for m in good off extra; do
		mkdir "$T/fm/$m"
		cp "$SRC/compiler/models/mlp_qdq/model.onnx" "$T/fm/$m/"
		cp -r "$SRC/compiler/models/mlp_qdq/test_data_set_0" "$SRC/compiler/models/mlp_qdq/test_data_set_1" "$T/fm/$m/"
	done
	"$PYO" - "$T/fm" <<'PY'
import sys, numpy as np, onnx
from onnx import numpy_helper as nh
def edit(f, fn):
    t = onnx.load_tensor(f)
    open(f, "wb").write(nh.from_array(fn(nh.to_array(t).copy()), t.name).SerializeToString())
edit(sys.argv[1] + "/off/test_data_set_1/output_0.pb", lambda a: a * np.float32(1.02))
PY
	printf 'good\n' >"$T/fm.list"
	"$PYO" "$FCHK" --vpux-onnx "$X" --expected "$T/fm.list" "$T/fm" good off >"$T/fchk.txt"
	st=$?
	[ $st = 0 ] && grep -q "^good  *PASS  compile .* rel_l2 set0 \[0.00e+00\] set1 \[0.00e+00\]" "$T/fchk.txt" &&
		grep -q "^off  *FAIL .*set1 \[output 0: relative L2 error 0.0196, more than 0.01\]" "$T/fchk.txt" &&
		grep -q "expected to pass (fm.list): 1, all pass" "$T/fchk.txt"
	ok $? "check.py: PASS with rel_l2 per set, 2 % off FAILs, exit 0 when the expected pass ($(tail -1 "$T/fchk.txt"))"
	printf 'good\noff\n' >"$T/fm.list"
	"$PYO" "$FCHK" --vpux-onnx "$X" --expected "$T/fm.list" "$T/fm" >"$T/fchk.txt"
	[ $? = 1 ] && grep -q "failing: off" "$T/fchk.txt" && grep -q "passing now, not in the expected list (add them): extra" "$T/fchk.txt"
	ok $? "check.py: an expected model failing exits 1; an unlisted pass is named"
	printf 'nosuch\n' >"$T/fm.list"
	"$PYO" "$FCHK" --vpux-onnx "$X" --expected "$T/fm.list" "$T/fm" >"$T/fchk.txt"
	[ $? = 1 ] && grep -q "nosuch is expected but there is no such model" "$T/fchk.txt"
	ok $? "check.py: an expected model that does not exist exits 1"
	"$PYO" - "$SRC/compiler/models/float" <<'PY'
import sys, numpy as np
sys.path.insert(0, sys.argv[1])
from check import rel_l2
r = np.array([1, 2, 3, np.inf, np.nan], np.float32)
assert rel_l2(r.copy(), r) == (0.0, None)
y = r.copy(); y[0] = np.inf
assert "1 of 5 elements non-finite" in rel_l2(y, r)[1]
y = r.copy(); y[3] = 7
assert rel_l2(y, r)[1] is not None
y = r.copy(); y[4] = 0
assert rel_l2(y, r)[1] is not None
assert abs(rel_l2(r * np.float32(1.01), r)[0] - 0.01) < 1e-6
assert rel_l2(np.zeros(3, np.float32), np.zeros(3, np.float32)) == (0.0, None)
assert rel_l2(np.ones(3, np.float32), np.zeros(3, np.float32))[0] == float("inf")
assert "the reference is float32[2]" in rel_l2(np.zeros(3, np.float32), np.zeros(2, np.float32))[1]
PY
	ok $? "check.py rel_l2(): overflow, infinities and NaN matched exactly, 1 %, zero references, shapes"
else
	skip "no check.py or no python3-onnx"
	skip "no python3-onnx"
	skip "no python3-onnx"
	skip "no python3-onnx"
fi

# a dynamic axis: compiled once with bounds, run at the input's size
DYN=$SRC/compiler/models/dyn_mlp
expect 3 "dim_param 'tokens' \(of 'input'\) has no bounds" \
	"compile: a dim_param without --symbol-bounds named" \
	"$X" compile "$DYN/model.onnx" -o "$T/dyn.vpuxl"
expect 2 "symbol bounds 'tokens=9..2'" "compile: --symbol-bounds MIN above MAX refused" \
	"$X" compile "$DYN/model.onnx" -o "$T/dyn.vpuxl" --symbol-bounds tokens=9..2
expect 3 "no dim_param 'batch'" "compile: bounds of an unknown dim_param refused" \
	"$X" compile "$DYN/model.onnx" -o "$T/dyn.vpuxl" --symbol-bounds tokens=1..64 \
	--symbol-bounds batch=1..2
"$X" compile "$DYN/model.onnx" -o "$T/dyn.vpuxl" --symbol-bounds tokens=1..64 \
	--tile 8 --report >"$T/rep" && grep -q "symbol tokens: 1..64, tile 8" "$T/rep"
ok $? "compile --symbol-bounds --tile: a plan ($(grep '^plan:' "$T/rep"))"
mkdir "$T/od"
"$X" run "$T/dyn.vpuxl" --input input="$DYN/test_data_set_3/input_0.pb" \
	--output-dir "$T/od" >"$T/run" && grep -q "output 0 'output': float 17x16" "$T/run"
ok $? "run: 17 tokens bind the symbol, the output is 17x16 ($(head -1 "$T/run"))"
# 65 tokens: a .npy of float32 [65, 64]
python3 -c '
import struct, sys
h = b"{\x27descr\x27: \x27<f4\x27, \x27fortran_order\x27: False, \x27shape\x27: (65, 64), }"
h += b" " * (118 - len(h)) + b"\n"
sys.stdout.buffer.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + b"\x00" * 65 * 64 * 4)
' >"$T/x65.npy"
expect 2 "symbol 'tokens': 65 outside its bounds \[1, 64\]" \
	"run: an input of 65 tokens refused naming the symbol" \
	"$X" run "$T/dyn.vpuxl" --input input="$T/x65.npy" --output-dir "$T/od"

# the model's own input and output names reach the loadable (format 1.4)
"$X" compile "$SRC/compiler/models/lenet_qdq/model.onnx" -o "$T/names.vpuxl" >/dev/null &&
	"$B/tools/vpux-dis" --json "$T/names.vpuxl" >"$T/names.json" &&
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
io = [t for t in d["tensors"] if t["io"]]
assert d["format_minor"] >= 4
assert [t.get("full_name") for t in io] == ["input", "output"], io
' "$T/names.json"
ok $? "compile: the ONNX input and output names in .vpux.names"

if "$PYO" -c "import onnx" 2>/dev/null; then
	# vpux-run and the timeline (vpux_network_op_info()) show those names in
	# full, past vpux_tensor_desc.name's 31 bytes
	LONG_IN=images/normalized_input_tensor_of_lenet:0
	LONG_OUT=classifier/logits_after_the_last_gemm:0
	"$PYO" -c '
import onnx, sys
m = onnx.load(sys.argv[1])
ren = {"input": sys.argv[3], "output": sys.argv[4]}
for v in list(m.graph.input) + list(m.graph.output):
    v.name = ren.get(v.name, v.name)
for n in m.graph.node:
    for i, x in enumerate(n.input):
        n.input[i] = ren.get(x, x)
    for i, x in enumerate(n.output):
        n.output[i] = ren.get(x, x)
onnx.save(m, sys.argv[2])
' "$SRC/compiler/models/lenet_qdq/model.onnx" "$T/long.onnx" "$LONG_IN" "$LONG_OUT" &&
		"$X" compile "$T/long.onnx" -o "$T/long.vpuxl" >/dev/null &&
		"$B/tools/vpux-run" "$T/long.vpuxl" --top 2 --timeline >"$T/long.txt" &&
		grep -q "^top-2 of output '$LONG_OUT':" "$T/long.txt" &&
		grep -qE "^ *dma#[0-9]+ copy $LONG_OUT " "$T/long.txt"
	ok $? "vpux-run: --top and --timeline name the output in full ($LONG_OUT)"
	head -c 10 /dev/zero >"$T/short.bin"
	expect 1 "short.bin: need [0-9]+ bytes for input '$LONG_IN'" \
		"vpux-run: a short input file names the input in full" \
		"$B/tools/vpux-run" "$T/long.vpuxl" --input "$T/short.bin"

	# a NaN in a float constant the compiler quantizes has no quantized value
	# (umd/hostconv.h): the node stays off the NPU, named with the element
	"$PYO" -c '
import numpy as np, onnx, sys
from onnx import helper as h, numpy_helper as nh, TensorProto as T
c = np.linspace(-1, 1, 48).astype(np.float32).reshape(1, 3, 4, 4)
c[0, 1, 2, 3] = np.nan
q = lambda s, z: [nh.from_array(np.array(s, np.float32), "s" + z),
                  nh.from_array(np.array(128, np.uint8), "z" + z)]
nodes = [h.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
         h.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
         h.make_node("Add", ["xd", "C"], ["y"]),
         h.make_node("QuantizeLinear", ["y", "sy", "zy"], ["yq"]),
         h.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["out"])]
g = h.make_graph(nodes, "nan_const",
                 [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 4, 4])],
                 [h.make_tensor_value_info("out", T.FLOAT, [1, 3, 4, 4])],
                 [nh.from_array(c, "C")] + q(0.02, "x") + q(0.05, "y"))
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), sys.argv[1])
' "$T/nanc.onnx"
	expect 3 "Add '#2': element 27 of the float constant 'C' is NaN \(a NaN has no quantized value\)" \
		"compile: a NaN in a float constant to quantize named, the node off the NPU" \
		"$X" compile "$T/nanc.onnx" -o "$T/nanc.vpuxl" --no-cpu-fallback
else
	skip "no python3-onnx: full names in vpux-run"
	skip "no python3-onnx"
	skip "no python3-onnx"
fi

echo "1..$n"
exit $fail
