#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Classify Fashion-MNIST test images with the trained model (the float
# one compiled to FP16, or the quantized one) through vpux-onnx and print
# each prediction next to the true label and onnxruntime's prediction
# (ort_pred_float.u8 or ort_pred.u8). Two steps, because the VM has
# busybox and no python:
#
#   demo.sh prepare DIR [N [PRED]]
#       on the host: writes DIR/image_I.pb (float 1x1x28x28, the I-th
#       test image, for N images spread over the test set; default 8) and
#       DIR/images.txt ("I LABEL ORT_PRED" per image, onnxruntime's class
#       from PRED, default ort_pred_float.u8: the float model's).
#   demo.sh run DIR MODEL [DEVICE] [VPUX_ONNX]
#       anywhere (busybox sh is enough): for each image of DIR, runs
#       VPUX_ONNX run MODEL --input input=DIR/image_I.pb --output-dir OUT
#       [--device DEVICE] and prints the class of the largest logit
#       (output_0.pb; the first of equal maxima, as onnxruntime's argmax
#       in train.py). VPUX_ONNX defaults to vpux-onnx on PATH; DEVICE to
#       none (in-process). Exits non-zero when a run fails or a
#       prediction differs from onnxruntime's.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
CLASSES="T-shirt/top Trouser Pullover Dress Coat Sandal Shirt Sneaker Bag Ankle-boot"

die() { echo "demo: $*" >&2; exit 2; }

class_name() {
	k=$1
	# shellcheck disable=SC2086
	set -- $CLASSES
	shift "$k"
	echo "$1"
}

prepare() {
	dir=$1 n=${2:-8} pred=${3:-ort_pred_float.u8}
	mkdir -p "$dir"
	/usr/bin/python3 - "$dir" "$n" "$HERE" "$pred" <<'EOF'
import os, sys
import numpy as np
sys.path.insert(0, sys.argv[3])
sys.path.insert(0, os.path.dirname(sys.argv[3]))
import train, qbuild
d, n = sys.argv[1], int(sys.argv[2])
x, y = train.load("test")
pred = np.fromfile(os.path.join(sys.argv[3], sys.argv[4]), np.uint8)
with open(os.path.join(d, "images.txt"), "w") as f:
    for i in np.linspace(0, len(x) - 1, n).astype(int):
        qbuild.write_pb(os.path.join(d, f"image_{i}.pb"), x[i][None, None], "input")
        f.write(f"{i} {y[i]} {pred[i]}\n")
EOF
}

# class index of the largest of the 10 float logits in a TensorProto
# whose raw_data (field 9, 40 bytes) is its last field
argmax_pb() {
	tag=$(tail -c 42 "$1" | head -c 2 | od -An -t x1 | tr -d ' \n')
	[ "$tag" = "4a28" ] || die "$1: not 10 float32 logits in raw_data"
	tail -c 40 "$1" | od -An -v -t f4 | tr -s ' ' '\n' | grep . |
		awk 'NR == 1 || $1 + 0 > best { best = $1 + 0; k = NR - 1 } END { print k }'
}

run() {
	dir=$1 model=$2 dev=${3:-} vpux=${4:-vpux-onnx}
	[ -f "$dir/images.txt" ] || die "$dir/images.txt: run 'demo.sh prepare $dir' first"
	out=$(mktemp -d)
	total=0 agree=0 right=0 ortright=0
	while read -r i label ort; do
		mkdir -p "$out/$i"
		set -- run "$model" --input "input=$dir/image_$i.pb" --output-dir "$out/$i"
		[ -n "$dev" ] && set -- "$@" --device "$dev"
		"$vpux" "$@" >/dev/null || die "image $i: $vpux run failed"
		p=$(argmax_pb "$out/$i/output_0.pb")
		total=$((total + 1))
		[ "$p" = "$ort" ] && agree=$((agree + 1))
		[ "$p" = "$label" ] && right=$((right + 1))
		[ "$ort" = "$label" ] && ortright=$((ortright + 1))
		mark=""
		[ "$p" = "$ort" ] || mark="  <- differs from onnxruntime"
		printf 'image %5d: vpux %-11s true %-11s onnxruntime %-11s%s\n' "$i" \
			"$(class_name "$p")" "$(class_name "$label")" "$(class_name "$ort")" "$mark"
	done <"$dir/images.txt"
	rm -rf "$out"
	echo "vpux right on $right/$total, onnxruntime on $ortright/$total; vpux agrees with onnxruntime on $agree/$total"
	[ "$agree" = "$total" ]
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
prepare) [ $# -ge 1 ] || die "usage: demo.sh prepare DIR [N [PRED]]"; prepare "$@" ;;
run) [ $# -ge 2 ] || die "usage: demo.sh run DIR MODEL [DEVICE] [VPUX_ONNX]"; run "$@" ;;
*) die "usage: demo.sh prepare DIR [N [PRED]] | demo.sh run DIR MODEL [DEVICE] [VPUX_ONNX]" ;;
esac
