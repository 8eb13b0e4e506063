#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Write the ONNX models of the DPU benchmark's FP16 yardstick.

onnxruntime has no fast FP16 kernels on x86 CPUs, so the yardstick of the
model's FP16 DPU kernels is its float32 ones on the same shapes
(build/ops/bench_dpu, tools/bench/ort_f32_bench.js):

  <dir>/conv_nchw.onnx   Conv 1x64x56x56 -> 1x64x56x56, 3x3, pad 1,
                         stride 1, weights and bias constant (onnxruntime
                         rewrites it to its blocked NCHWc kernels, its
                         fastest float convolution on x86; its CPU build
                         has no NHWC float Conv)
  <dir>/mm_kn.onnx       MatMul [196, 512] x [512, 512], weights [K][N]
  <dir>/mm_nk.onnx       Gemm with transB = 1, weights [N][K]

Run with Debian's python3-onnx and python3-numpy (/usr/bin/python3).
Usage: ort_f32_model.py DIR
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

H = W = 56
CIN = COUT = 64
K = 3
M, KK, N = 196, 512, 512


def f32(name, a):
    return numpy_helper.from_array(a.astype(np.float32), name)


def conv():
    rng = np.random.default_rng(1)
    w = rng.uniform(-1, 1, size=(COUT, CIN, K, K))
    b = rng.uniform(-1, 1, size=(COUT,))
    node = helper.make_node("Conv", ["x", "w", "b"], ["y"],
                            kernel_shape=[K, K], pads=[1, 1, 1, 1],
                            strides=[1, 1], dilations=[1, 1], group=1)
    graph = helper.make_graph(
        [node], "conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       [1, CIN, H, W])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       [1, COUT, H, W])],
        [f32("w", w), f32("b", b)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                             producer_name="vpux bench")


def matmul(kn):
    rng = np.random.default_rng(2)
    if kn:
        w = rng.uniform(-1, 1, size=(KK, N))
        node = helper.make_node("MatMul", ["x", "w"], ["y"])
    else:
        w = rng.uniform(-1, 1, size=(N, KK))
        node = helper.make_node("Gemm", ["x", "w"], ["y"], transB=1)
    graph = helper.make_graph(
        [node], "matmul",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [M, KK])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [M, N])],
        [f32("w", w)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                             producer_name="vpux bench")


def main():
    out = sys.argv[1]
    save(conv(), out + "/conv_nchw.onnx")
    save(matmul(True), out + "/mm_kn.onnx")
    save(matmul(False), out + "/mm_nk.onnx")


if __name__ == "__main__":
    main()
