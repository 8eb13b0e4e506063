#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# The command-line tools as a user runs them (TAP): vpux-asm errors with
# file:line:column, vpux-dis refusing a corrupt loadable with a message
# naming the section, vpux-run --check/--json/--output/--repeat, and a
# dynamic network (dyn_mlp) at several sizes with --symbol/--input-shape.
# Usage: tools_test.sh BUILDDIR SRCTOP
B=${1:-$(dirname "$0")/../../build}
SRC=${2:-$(dirname "$0")/../..}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

printf 'output y i8 4\ndpu conv in=nope out=y\n' >"$T/bad.vasm"
"$B/tools/vpux-asm" -o "$T/bad.vpux" "$T/bad.vasm" 2>"$T/err"
st=$?
grep -q "bad.vasm:2:10: error: unknown tensor 'nope'" "$T/err"
ok $(( $? || ! st )) "vpux-asm: exit 1 and file:line:column error ($(cat "$T/err"))"

"$B/tools/vpux-asm" -o "$T/t.vpux" "$SRC/examples/tiny_cnn.vasm"
ok $? "vpux-asm: assembles tiny_cnn"
readelf -S "$T/t.vpux" | grep -q '\.vpux\.ops\.dpu'
ok $? "readelf -S lists the .vpux.* sections"

"$B/tools/vpux-dis" --summary "$T/t.vpux" | grep -q "ops:       1 DMA, 4 DPU, 1 SHAVE"
ok $? "vpux-dis --summary: op counts"

# flip one weight byte: the checksum names the section
cp "$T/t.vpux" "$T/c.vpux"
off=$(readelf -S -W "$T/c.vpux" | grep '\.vpux\.weights' |
	sed 's/.*PROGBITS *[0-9a-f]* *\([0-9a-f]*\).*/\1/')
printf '\377' | dd of="$T/c.vpux" bs=1 seek=$((0x$off + 40)) conv=notrunc 2>/dev/null
"$B/tools/vpux-dis" "$T/c.vpux" >/dev/null 2>"$T/err"
st=$?
grep -q ".vpux.weights: checksum mismatch" "$T/err"
ok $(( $? || ! st )) "vpux-dis: corrupt weights refused naming the section"

"$B/tools/vpux-run" "$T/c.vpux" >/dev/null 2>"$T/err"
st=$?
grep -q "checksum" "$T/err"
ok $(( $? || ! st )) "vpux-run: corrupt loadable refused ($(cat "$T/err"))"

"$B/tools/vpux-run" --check --seed 3 --output "$T/out.bin" "$T/t.vpux" >"$T/run"
ok $? "vpux-run --check: exit 0"
grep -q "(bit-exact)" "$T/run" && [ "$(stat -c %s "$T/out.bin")" = 10 ]
ok $? "vpux-run: bit-exact, output written (10 bytes)"

head -c 2048 /dev/zero >"$T/in.bin"
"$B/tools/vpux-run" --input "$T/in.bin" --output "$T/z1.bin" "$T/t.vpux" >/dev/null &&
	"$B/tools/vpux-run" --input "$T/in.bin" --output "$T/z2.bin" "$T/t.vpux" >/dev/null &&
	cmp -s "$T/z1.bin" "$T/z2.bin"
ok $? "vpux-run --input: same input file, same output"

"$B/tools/vpux-run" --json --repeat 3 --check "$T/t.vpux" >"$T/json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["repeat"] == 3 and d["check_ok"] and d["device_cycles"] > 0
assert d["latency_us_min"] <= d["latency_us_median"] <= d["latency_us_max"]
assert len(d["ops"]) == 6 and all(o["cycles"] > 0 for o in d["ops"])
' "$T/json"
ok $? "vpux-run --json --repeat 3: latency min <= median <= max, per-op cycles"

"$B/tools/vpux-run" --device /dev/accel/accel63 "$T/t.vpux" 2>"$T/err" >/dev/null
st=$?
grep -q "accel63" "$T/err"
ok $(( $? || ! st )) "vpux-run --device /dev/accel/accel63: absent node refused, named"

"$B/tools/vpux-run" -d 63 "$T/t.vpux" 2>"$T/err" >/dev/null
st=$?
grep -q "^vpux-run: /dev/accel/accel63: " "$T/err"
ok $(( $? || st != 1 )) "vpux-run -d 63: an index is /dev/accel/accelN, exit 1 ($(head -n1 "$T/err"))"

"$B/tools/vpux-dis" --json "$T/t.vpux" >"$T/json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["network"] == "tiny_cnn" and (d["dma_ops"], d["dpu_ops"], d["shave_ops"]) == (1, 4, 1)
assert d["inputs"] == 1 and d["outputs"] == 1 and len(d["tensors"]) >= 2
' "$T/json"
ok $? "vpux-dis --json: the summary as JSON (op counts, tensors)"

"$B/tools/vpux-run" --check --inflight 8 --repeat 5 "$T/t.vpux" >"$T/run"
st=$?
grep -q "with 8 in flight" "$T/run" && grep -q bit-exact "$T/run"
ok $(( $? || st )) "vpux-run --inflight 8: one network, 8 requests in flight, same outputs"

# a compiled network with tensors in CMX: its requests queue on the
# device, one after another, instead of failing with VPUX_E_BUSY
q="$B/compiler/models/resnet_qop.vpuxl"
"$B/tools/vpux-run" --check --inflight 4 --repeat 3 "$q" >"$T/run" 2>&1
st=$?
grep -q "with 4 in flight" "$T/run" && grep -q bit-exact "$T/run" &&
	! grep -q differs "$T/run"
ok $(( $? || st )) "vpux-run --inflight 4 of a compiled CMX network (resnet_qop): same outputs, bit-exact ($(grep -E 'error|differs' "$T/run" | head -1))"

# weights from a file next to the source, then read back through vpux-dis
head -c 64 /dev/urandom >"$T/w.bin"
cat >"$T/f.vasm" <<EOT
input x i8 1x8x2x2 order=NHWC
output y i8 1x8x2x2 order=NHWC
tensor w i8 8x1x1x8 region=weights fill=file:w.bin
dpu conv in=x in2=w out=y requant=1073741824,8
EOT
"$B/tools/vpux-asm" -o "$T/f.vpux" "$T/f.vasm" &&
	"$B/tools/vpux-dis" "$T/f.vpux" | grep '^data 0 ' |
	grep -q "$(od -An -tx1 -v "$T/w.bin" | tr -d ' \n' | cut -c1-64)" &&
	"$B/tools/vpux-run" --check "$T/f.vpux" | grep -q bit-exact
ok $? "vpux-asm fill=file: weights from a file, visible in vpux-dis, run bit-exact"

# --trace: a Chrome trace-event file of the overlap example (profiling.rst)
ov="$B/examples/overlap_dma.vpux"
"$B/tools/vpux-run" --json --trace "$T/ov.json" "$ov" >"$T/ov.run" &&
	"$B/tools/vpux-run" --trace "$T/ov2.json" "$ov" >/dev/null &&
	python3 "$SRC/tools/vpux-run/trace_check.py" "$T/ov.json" "$T/ov.run" \
		--overlap dma,dpu >"$T/tc" 2>&1
st=$?
ok $st "vpux-run --trace: trace-event format, one track per engine, DMA and DPU slices overlap, durations = per-op cycles ($(tail -1 "$T/tc"))"
cmp -s "$T/ov.json" "$T/ov2.json"
ok $? "vpux-run --trace: the same network gives the same trace"
"$B/tools/vpux-run" --inflight 2 --trace "$T/ov3.json" "$ov" >/dev/null &&
	python3 "$SRC/tools/vpux-run/trace_check.py" "$T/ov3.json" --processes 2 \
		>"$T/tc" 2>&1
ok $? "vpux-run --inflight 2 --trace: one process per request ($(tail -1 "$T/tc"))"
"$B/tools/vpux-run" --timeline "$ov" >"$T/tl"
grep -q '^DMA0 *|0' "$T/tl" && grep -q '^DPU0 *|\.*0' "$T/tl" &&
	grep -q 'dpu#3 conv y3' "$T/tl"
ok $? "vpux-run --timeline: a row per engine, ops labelled"

# --recipe: examples/recipes/halves.json, the CPU library from the tree
rc="$B/examples/recipes/halves.json"
python3 -c "import struct; open('$T/ifm.bin','wb').write(struct.pack('<256f', *[(i * 37 % 257 - 128) / 16 for i in range(256)]))"
VPUX_CPU_LIBRARY_PATH="$B/umd" "$B/tools/vpux-run" --recipe "$rc" --check --repeat 2 \
	--input ifm="$T/ifm.bin" --output ofm="$T/ofm.bin" >"$T/out" 2>&1
grep -q "check: every NPU run bit-exact vs the CPU reference" "$T/out" &&
	[ "$(wc -c <"$T/ofm.bin")" -eq 1024 ]
ok $? "vpux-run --recipe --check: every NPU run bit-exact, 1024-byte output ($(tail -1 "$T/out"))"
VPUX_CPU_LIBRARY_PATH="$B/umd" "$B/tools/vpux-run" --recipe "$rc" --json \
	--input ifm="$T/ifm.bin" --output ofm="$T/ofm2.bin" >"$T/out.json" &&
	python3 -c "import json,sys; d=json.load(open('$T/out.json')); sys.exit(d['repeat'] != 1)" &&
	cmp -s "$T/ofm.bin" "$T/ofm2.bin"
ok $? "vpux-run --recipe --json: JSON, the same output bytes"
VPUX_CPU_LIBRARY_PATH="$T" "$B/tools/vpux-run" --recipe "$rc" \
	--input ifm="$T/ifm.bin" >"$T/out" 2>&1
st=$?
grep -q 'resources.cpus\[0\].library_path: "libvpux-cpuops.so" is neither in VPUX_CPU_LIBRARY_PATH' "$T/out"
ok $(( $? || st != 1 )) "vpux-run --recipe: a CPU library not in the search path: exit 1, named ($(head -1 "$T/out"))"
"$B/tools/vpux-run" --recipe "$rc" --input ifm "$T/out" >/dev/null 2>"$T/err"
ok $(( $? != 2 )) "vpux-run --recipe with a loadable too: usage error"
VPUX_CPU_LIBRARY_PATH="$B/umd" "$B/tools/vpux-run" --recipe "$rc" --input ifm >/dev/null 2>"$T/err"
st=$?
grep -q "\-\-input 'ifm': not NAME=FILE" "$T/err"
ok $(( $? || st != 2 )) "vpux-run --recipe --input without NAME=FILE: usage error"

# dynamic shapes: examples/dyn_mlp.vasm, a plan over 'tokens' in [1, 64]
# tiled by 16, on one loadable at several sizes (min, tails, exact
# tiles, max), each bit-exact against the CPU reference at that size
dm="$B/examples/dyn_mlp.vpux"
"$B/tools/vpux-dis" "$dm" -o "$T/dm.vasm" &&
	"$B/tools/vpux-asm" -o "$T/dm.vpux" "$T/dm.vasm" && cmp -s "$dm" "$T/dm.vpux" &&
	grep -q '^symbol tokens axis 1..64 width=8$' "$T/dm.vasm" &&
	grep -q '^input x i8 \$tokensx32 ' "$T/dm.vasm" &&
	grep -q '^loop tokens tile 16 {$' "$T/dm.vasm" &&
	grep -q '^ *in.offset = off(0) \* 32$' "$T/dm.vasm" &&
	grep -q ' after=0$' "$T/dm.vasm"
ok $? "vpux-dis | vpux-asm of dyn_mlp: symbol, \$tokens, loop, patches, after=; same bytes"
"$B/tools/vpux-dis" --json "$dm" >"$T/json" &&
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["symbols"][0]
assert (s["name"], s["kind"], s["min"], s["max"], s["width"]) == ("tokens", "axis", 1, 64, 8)
assert d["tensors"][0]["dims"] == ["tokens", 32] and d["plan_blocks"] == 1 and d["plan_templates"] == 2
' "$T/json"
ok $? "vpux-dis --json of dyn_mlp: symbol kind and width, dims naming it, plan counts"
for t in 1 15 16 17 45 64; do
	"$B/tools/vpux-run" --check --symbol tokens=$t --output "$T/y$t.bin" "$dm" >"$T/run" 2>&1
	st=$?
	grep -q "check: output 0 'y': 0 of $((t * 16)) bytes differ from the CPU reference (bit-exact)" "$T/run" &&
		grep -q "^output 0 'y': shape ${t}x16 ($((t * 16)) bytes)" "$T/run" &&
		[ "$(stat -c %s "$T/y$t.bin")" = $((t * 16)) ]
	ok $(( $? || st )) "vpux-run --check --symbol tokens=$t: bit-exact, output shape ${t}x16, --output writes $((t * 16)) bytes ($(grep -m1 '^check\|error' "$T/run"))"
done
"$B/tools/vpux-run" --check --input-shape 0=37x32 --json "$dm" >"$T/json" 2>"$T/err"
st=$?
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["check_ok"] and d["output_shapes"] == [[37, 16]], d["output_shapes"]
' "$T/json"
ok $(( $? || st )) "vpux-run --input-shape 0=37x32 --json: binds tokens, output_shapes [[37, 16]], check_ok"
"$B/tools/vpux-run" --check --inflight 2 --repeat 2 --symbol tokens=29 "$dm" >"$T/run" 2>&1
st=$?
grep -q "bit-exact" "$T/run" && grep -q "with 2 in flight" "$T/run"
ok $(( $? || st )) "vpux-run --inflight 2 --symbol tokens=29: both requests bound, same outputs, bit-exact"
"$B/tools/vpux-run" --symbol tokens=65 "$dm" >/dev/null 2>"$T/err"
st=$?
grep -q "tokens" "$T/err" && grep -q "64" "$T/err"
ok $(( $? || st != 1 )) "vpux-run --symbol tokens=65: out of bounds, exit 1, named ($(head -n1 "$T/err"))"
"$B/tools/vpux-run" --symbol tokens=0 "$dm" >/dev/null 2>"$T/err"
ok $(( $? != 1 )) "vpux-run --symbol tokens=0: below the min, exit 1 ($(head -n1 "$T/err"))"
"$B/tools/vpux-run" --symbol nope=3 "$dm" >/dev/null 2>"$T/err"
st=$?
grep -q "nope" "$T/err"
ok $(( $? || st != 1 )) "vpux-run --symbol nope=3: no such symbol, exit 1, named ($(head -n1 "$T/err"))"
"$B/tools/vpux-run" --input-shape 0=37x31 "$dm" >/dev/null 2>"$T/err"
ok $(( $? != 1 )) "vpux-run --input-shape 0=37x31: a static dim differs, exit 1 ($(head -n1 "$T/err"))"
"$B/tools/vpux-run" "$dm" >/dev/null 2>"$T/err"
st=$?
grep -q "tokens" "$T/err"
ok $(( $? || st != 1 )) "vpux-run without --symbol: tokens unbound, exit 1, named ($(head -n1 "$T/err"))"
for a in tokens tokens= =3 tokens=x tokens=-1; do
	"$B/tools/vpux-run" --symbol "$a" "$dm" >/dev/null 2>"$T/err"
	st=$?
	grep -q "bad --symbol" "$T/err"
	ok $(( $? || st != 2 )) "vpux-run --symbol '$a': usage error, exit 2"
done
for a in 0 0= 0=37x 0=x32 a=37x32 0=37x32x1x1x1x1x1 0=37,32; do
	"$B/tools/vpux-run" --input-shape "$a" "$dm" >/dev/null 2>"$T/err"
	st=$?
	grep -q "bad --input-shape" "$T/err"
	ok $(( $? || st != 2 )) "vpux-run --input-shape '$a': usage error, exit 2"
done
"$B/tools/vpux-run" --symbol tokens=3 "$T/t.vpux" >/dev/null 2>"$T/err"
st=$?
grep -q "the network has no symbols" "$T/err"
ok $(( $? || st != 1 )) "vpux-run --symbol on a static network: exit 1"
printf 'symbol n axis 1..8\ninput x i8 $nx4\noutput y i8 $nx4\nloop n tile 2 {\n  dma src=x dst=y\n    len = off(0) * nn\n}\n' >"$T/p.vasm"
"$B/tools/vpux-asm" -o "$T/p.vpux" "$T/p.vasm" 2>"$T/err"
st=$?
grep -q "p.vasm:6:20: error: unknown symbol 'nn'" "$T/err"
ok $(( $? || ! st )) "vpux-asm: a plan's unknown symbol, file:line:column ($(cat "$T/err"))"

# a static network with symbols (examples/dyn_softmax.vasm): a SHAVE
# softmax along a dynamic axis with dynamic memrefs, the row count DMA'd
# from the request's symbol buffer into the dims record the kernel reads;
# the dims it writes are output 1. Bit-exact against the reference at
# each size (along the rows, the values depend on the count).
ds="$B/examples/dyn_softmax.vpux"
"$B/tools/vpux-dis" "$ds" -o "$T/ds.vasm" &&
	"$B/tools/vpux-asm" -o "$T/ds.vpux" "$T/ds.vasm" && cmp -s "$ds" "$T/ds.vpux" &&
	grep -q '^tensor rows_v i32 1 .* region=symbols offset=0 ' "$T/ds.vasm" &&
	grep -q '^shave softmax in=x out=y in_dims=x_dims out_dims=ydims ' "$T/ds.vasm"
ok $? "vpux-dis | vpux-asm of dyn_softmax: region=symbols, in_dims=, out_dims=; same bytes"
for r in 1 15 16 17 64; do
	"$B/tools/vpux-run" --check --symbol rows=$r --output "$T/ds$r.y" --output "$T/ds$r.d" "$ds" >"$T/run" 2>&1
	st=$?
	grep -q "check: output 0 'y': 0 of $((r * 16)) bytes differ from the CPU reference (bit-exact)" "$T/run" &&
		grep -q "check: output 1 'ydims': 0 of 8 bytes differ from the CPU reference (bit-exact)" "$T/run" &&
		grep -q "^output 0 'y': shape ${r}x16 ($((r * 16)) bytes)" "$T/run" &&
		[ "$(od -An -tu4 "$T/ds$r.d" | tr -s ' ')" = " $r 16" ]
	ok $(( $? || st )) "vpux-run --check --symbol rows=$r of dyn_softmax: bit-exact, the kernel's dims $r x 16 ($(grep -m1 '^check\|error' "$T/run"))"
done
head -c 240 "$T/ds16.y" >"$T/ds16h" && [ "$(stat -c %s "$T/ds15.y")" = 240 ] &&
	! cmp -s "$T/ds16h" "$T/ds15.y"
ok $? "dyn_softmax: 15 rows are not the first 15 of 16 (the kernel normalised over the actual rows)"
"$B/tools/vpux-run" --check --input-shape 0=33x16 --inflight 2 "$ds" >"$T/run" 2>&1
st=$?
grep -q "0 of 528 bytes differ.*(bit-exact)" "$T/run"
ok $(( $? || st )) "vpux-run --input-shape 0=33x16 --inflight 2 of dyn_softmax: bit-exact"
# an output shape a kernel computes (examples/dyn_softmax_head.vasm): the
# softmax works on the first keep of rows rows and writes its output dims
# to scratch; the output is declared $rows x 16, so the shape vpux-run
# prints (and the bytes it writes and checks) is the kernel's only if it
# came through vpux_request_output_shape() from the kernel's record, and
# --check compares it with the reference's
dh="$B/examples/dyn_softmax_head.vpux"
for rk in 40:23 23:23 5:64 64:1; do
	r=${rk%:*} k=${rk#*:}
	"$B/tools/vpux-run" --check --symbol rows=$r --symbol keep=$k --output "$T/dh.y" "$dh" >"$T/run" 2>&1
	st=$?
	grep -q "check: output 0 'y': 0 of $((k * 16)) bytes differ from the CPU reference (bit-exact)" "$T/run" &&
		grep -q "^output 0 'y': shape ${k}x16 ($((k * 16)) bytes)" "$T/run" &&
		[ "$(stat -c %s "$T/dh.y")" = $((k * 16)) ]
	ok $(( $? || st )) "vpux-run --check rows=$r keep=$k of dyn_softmax_head: the kernel's shape ${k}x16, bit-exact ($(grep -m1 '^check\|error' "$T/run"))"
done
"$B/tools/vpux-run" --check --inflight 2 --symbol rows=60 --symbol keep=9 "$dh" >"$T/run" 2>&1
st=$?
grep -q "^output 0 'y': shape 9x16 (144 bytes)" "$T/run"
ok $(( $? || st )) "vpux-run --inflight 2 rows=60 keep=9 of dyn_softmax_head: shape 9x16"
# a plan's template reads the symbol buffer too (the entry is sym_index)
printf 'symbol n axis 1..8\ninput x i8 $nx4\noutput y i8 $nx4\noutput nv i32 1\ntensor s i32 1 region=symbols offset=0\nblock {\n  dma src=s dst=nv\n}\nloop n tile 2 {\n  dma src=x dst=y\n    len = len(0) * 4\n    src.offset = off(0) * 4\n    dst.offset = off(0) * 4\n    src.size = len(0) * 4\n    dst.size = len(0) * 4\n}\n' >"$T/ps.vasm"
"$B/tools/vpux-asm" -o "$T/ps.vpux" "$T/ps.vasm" &&
	"$B/tools/vpux-run" --check --symbol n=5 --output "$T/ps.y" --output "$T/ps.n" "$T/ps.vpux" >"$T/run" 2>&1 &&
	grep -q "output 1 'nv': 0 of 4 bytes differ.*(bit-exact)" "$T/run" &&
	[ "$(od -An -tu4 "$T/ps.n" | tr -s ' ')" = " 5" ]
ok $? "a plan's DMA from region=symbols: the bound value 5 copied, bit-exact"

# FP16 (loadable 1.3): generated float inputs are finite, of magnitude
# [2^-4, 2^2); --top ranks a float output; dis | asm of an FP16 network
printf 'input x f16 4096\noutput y f16 4096\ninput z f32 512\noutput w f32 512\ndma src=x dst=y\ndma src=z dst=w\n' >"$T/fc.vasm"
"$B/tools/vpux-asm" -o "$T/fc.vpux" "$T/fc.vasm" &&
	"$B/tools/vpux-run" --seed 5 --output "$T/fc.y" --output "$T/fc.w" "$T/fc.vpux" >/dev/null &&
	python3 -c '
import struct, sys
for f, t, n in ((sys.argv[1], "e", 2), (sys.argv[2], "f", 4)):
    b = open(f, "rb").read()
    v = struct.unpack("<%d%s" % (len(b) // n, t), b)
    assert all(2 ** -4 <= abs(x) < 4 for x in v), f
    assert min(v) < 0 < max(v) and len(set(v)) > len(v) // 2, f
' "$T/fc.y" "$T/fc.w"
ok $? "vpux-run: generated f16 and f32 inputs are finite, both signs, magnitude in [2^-4, 4)"
"$B/tools/vpux-run" --check --top 3 "$B/examples/fp16_cnn.vpux" >"$T/run" 2>&1
st=$?
grep -q "check: output 0 'logits': 0 of 40 bytes differ from the CPU reference (bit-exact)" "$T/run" &&
	grep -q "^top-3 of output 'logits':" "$T/run" &&
	[ "$(grep -c '^  #[123]: class [0-9]*, value -*[0-9]' "$T/run")" = 3 ]
ok $(( $? || st )) "vpux-run --check --top 3 of fp16_cnn: bit-exact, three FP32 logits ranked"
"$B/tools/vpux-dis" "$B/examples/fp16_cnn.vpux" >"$T/f.vasm" &&
	grep -q "^dpu matmul in=s in2=wfc bias=bfc out=logits flags=fp16,bias,out_f32,scale .* act=none clamp_lo=0 clamp_hi=0 scale=0.125 shift=0 slope=0" "$T/f.vasm" &&
	grep -q "^dpu sub in=g in2=mask out=feat flags=fp16 bcast=hw " "$T/f.vasm" &&
	"$B/tools/vpux-asm" -o "$T/f.vpux" "$T/f.vasm" && cmp -s "$T/f.vpux" "$B/examples/fp16_cnn.vpux"
ok $? "vpux-dis of fp16_cnn: FP16 flags by name, float fields, bcast=; vpux-asm gives the same bytes"
printf 'input x f16 4\noutput y f16 4\ntensor w f16 4 region=weights\ndata w f16 1, 2, 1e9\ndpu add in=x in2=w out=y\n' >"$T/fb.vasm"
"$B/tools/vpux-asm" -o "$T/fb.vpux" "$T/fb.vasm" 2>"$T/err"
st=$?
grep -q "fb.vasm:4:18: error: '1e9': outside the f16 range (largest finite 65504): write inf for an infinity" "$T/err"
ok $(( $? || ! st )) "vpux-asm: an f16 value out of range, file:line:column ($(cat "$T/err"))"

# ELF kernels (loadable 1.5): readelf lists the kernel sections, vpux-dis
# names each kernel with its size and entry and gives back the same bytes,
# vpux-asm finds an SDK kernel with --kernel-dir
E="$B/examples/elf_softmax.vpux"
readelf -S -W "$E" | grep -q '\.vpux\.kcode' &&
	readelf -S -W "$E" | grep -q '\.vpux\.kstacks'
ok $? "readelf -S lists the kernel sections of elf_softmax"
"$B/tools/vpux-dis" "$E" >"$T/e.vasm" &&
	grep -q "^# kernel 0 'softmax_f': [0-9]* bytes, entry 0x0$" "$T/e.vasm" &&
	grep -q "^shave elf softmax_f win_f=wf args=" "$T/e.vasm" &&
	"$B/tools/vpux-asm" -o "$T/e.vpux" "$T/e.vasm" && cmp -s "$T/e.vpux" "$E"
ok $? "vpux-dis of elf_softmax: the kernel named with size and entry; vpux-asm gives the same bytes"
"$B/tools/vpux-dis" --json "$E" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
k = d["kernels"]
assert d["format_minor"] == 5 and len(k) == 1 and k[0]["name"] == "softmax_f" and k[0]["entry"] == 0 and k[0]["size"] > 0, k
'
ok $? "vpux-dis --json: the kernels, each name, size and entry"
"$B/tools/vpux-asm" -k "$B/kernels" -o "$T/e2.vpux" "$SRC/examples/elf_softmax.vasm" &&
	cmp -s "$T/e2.vpux" "$E"
ok $? "vpux-asm --kernel-dir: kernel file= from the SDK's build directory"
"$B/tools/vpux-asm" -o "$T/e3.vpux" "$SRC/examples/elf_softmax.vasm" 2>"$T/err"
st=$?
grep -q "elf_softmax.vasm:9:18: error: cannot open '.*examples/softmax_f.elf'" "$T/err"
ok $(( $? || ! st )) "vpux-asm: a kernel file not found, file:line:column ($(cat "$T/err"))"

echo "1..$n"
exit $fail
