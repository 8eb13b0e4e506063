#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Lay out the Python suite's data in DIR (on the host: the VM has no
compiler inputs, no data set and no onnxruntime):

  fashion_float.onnx, mixed_qdq.onnx   the models the compile tests take
  fashion.vpux        fashion_float.onnx compiled by vpux.compile()
  dyn_mlp.vpux        a network with a symbol (copied from ARGV[3])
  fashion_ref.npz     images: N Fashion-MNIST test images [N,1,1,28,28]
                      index: their indices in the test set
                      ort_pred: onnxruntime's class for each
                      (compiler/models/fashion/ort_pred_float.u8)
                      logits: onnxruntime's outputs [N,10] (tools/ort,
                      onnxruntime-node), absent without node

    mkref.py DIR SRCTOP DYN_MLP_VPUX [N]
"""
import gzip
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import vpux

DATASET = "/usr/share/datasets/fashion-mnist"


def load_images(n):
    with gzip.open(os.path.join(DATASET, "t10k-images-idx3-ubyte.gz")) as f:
        data = f.read()
    x = np.frombuffer(data, np.uint8, offset=16).reshape(-1, 28, 28)
    idx = np.linspace(0, len(x) - 1, n).astype(np.int64)
    return (x[idx].astype(np.float32) / 255.0)[:, None, None], idx


def ort_logits(srctop, model, images):
    ort = os.path.join(srctop, "tools/ort")
    if not shutil.which("node") or not os.path.isdir(
            os.path.join(ort, "node_modules/onnxruntime-node")):
        return None
    with tempfile.TemporaryDirectory() as d:
        inp, out = os.path.join(d, "in.f32"), os.path.join(d, "out.f32")
        images.tofile(inp)
        subprocess.run(["node", os.path.join(ort, "ort-run.js"), "--raw",
                        model, inp, out, "1,1,28,28"], check=True)
        return np.fromfile(out, np.float32).reshape(len(images), -1)


def main():
    out, srctop, dyn = sys.argv[1:4]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 16
    os.makedirs(out, exist_ok=True)
    fashion = os.path.join(srctop, "compiler/models/fashion")
    onnx = os.path.join(fashion, "fashion_float.onnx")
    shutil.copy(onnx, os.path.join(out, "fashion_float.onnx"))
    shutil.copy(os.path.join(srctop, "compiler/models/mixed_qdq/model.onnx"),
                os.path.join(out, "mixed_qdq.onnx"))
    shutil.copy(dyn, os.path.join(out, "dyn_mlp.vpux"))
    with open(os.path.join(out, "fashion.vpux"), "wb") as f:
        f.write(vpux.compile(onnx))
    images, idx = load_images(n)
    pred = np.fromfile(os.path.join(fashion, "ort_pred_float.u8"), np.uint8)
    ref = {"images": images, "index": idx, "ort_pred": pred[idx]}
    logits = ort_logits(srctop, onnx, images)
    if logits is not None:
        ref["logits"] = logits
    np.savez(os.path.join(out, "fashion_ref.npz"), **ref)
    print("mkref: %s: %d images, onnxruntime's logits %s" % (
        out, n, "too" if logits is not None else "absent (no node)"))


if __name__ == "__main__":
    main()
