#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# The float models of a set (export.py --set SET) and their onnxruntime
# references, in OUTDIR (the build tree; Documentation/float-models.rst).
#
#   gen.sh SET OUTDIR SRCTOP
#
# Cached: OUTDIR/.hash records the set and the hash of export.py and
# tools/ort/ort-run.js; when they match, nothing is done. Exit 77 (with
# one line saying what is missing) without python3-torch,
# python3-torchvision, python3-onnx, node or onnxruntime-node.
set -u
SET=$1 OUT=$2 SRC=$3
PY=/usr/bin/python3
HERE=$SRC/compiler/models/float
ORT_RUN=$SRC/tools/ort/ort-run.js

hash=$(cat "$HERE/export.py" "$ORT_RUN" | sha256sum | cut -c1-16)
if [ -f "$OUT/.hash" ] && [ "$(cat "$OUT/.hash")" = "$SET $hash" ]; then
	echo "float models ($SET): up to date in $OUT"
	exit 0
fi
if ! command -v node >/dev/null 2>&1 || [ ! -d "$SRC/tools/ort/node_modules/onnxruntime-node" ]; then
	echo "float models ($SET): no node or no tools/ort/node_modules/onnxruntime-node (make deps)"
	exit 77
fi
if ! "$PY" -c "import torch, torchvision, onnx" 2>/dev/null; then
	echo "float models ($SET): no python3-torch, python3-torchvision or python3-onnx (make deps)"
	exit 77
fi
rm -rf "$OUT.tmp" "$OUT"
mkdir -p "$OUT.tmp"
t0=$(date +%s)
# torch's exporter warns a lot: its stderr goes to export.log
if ! "$PY" "$HERE/export.py" --set "$SET" "$OUT.tmp" 2>"$OUT.tmp/export.log"; then
	cat "$OUT.tmp/export.log" >&2
	echo "float models ($SET): export.py failed" >&2
	exit 1
fi
for d in "$OUT.tmp"/*/; do
	d=${d%/}
	if ! node "$ORT_RUN" "$d/model.onnx" "$d" >/dev/null; then
		echo "float models ($SET): onnxruntime failed on $d" >&2
		exit 1
	fi
done
echo "$SET $hash" >"$OUT.tmp/.hash"
mv "$OUT.tmp" "$OUT"
echo "float models ($SET): exported with onnxruntime references in $(($(date +%s) - t0)) s ($OUT)"
