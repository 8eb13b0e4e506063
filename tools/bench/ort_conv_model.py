#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Write the ONNX models of the DPU benchmark's convolution for onnxruntime.

The shape of build/ops/bench_dpu's first line: 56x56x64 -> 64, 3x3, pad 1,
stride 1; uint8 activations (zero point 128), int8 weights (zero point 0),
int32 bias, per-tensor scales, uint8 output. Two models:

  <dir>/qconv_nchw.onnx   standard QLinearConv, NCHW tensors (onnxruntime
                          turns it into its NHWC kernel and adds transposes)
  <dir>/qconv_nhwc.onnx   com.microsoft QLinearConv with channels_last=1:
                          HWC in and out like the DPU, no transposes

Run with Debian's python3-onnx and python3-numpy (/usr/bin/python3).
Usage: ort_conv_model.py DIR
"""
import sys

import numpy as np
from onnx import TensorProto, helper, save

H = W = 56
CIN = COUT = 64
K = 3


def model(nhwc):
    rng = np.random.default_rng(1)
    w = rng.integers(-128, 128, size=(COUT, CIN, K, K), dtype=np.int8)
    b = rng.integers(-20000, 20000, size=(COUT,), dtype=np.int32)
    inits = [
        helper.make_tensor("x_scale", TensorProto.FLOAT, [], [0.02]),
        helper.make_tensor("x_zp", TensorProto.UINT8, [], [128]),
        helper.make_tensor("w", TensorProto.INT8, list(w.shape),
                           w.tobytes(), raw=True),
        helper.make_tensor("w_scale", TensorProto.FLOAT, [], [0.01]),
        helper.make_tensor("w_zp", TensorProto.INT8, [], [0]),
        helper.make_tensor("y_scale", TensorProto.FLOAT, [], [0.5]),
        helper.make_tensor("y_zp", TensorProto.UINT8, [], [3]),
        helper.make_tensor("b", TensorProto.INT32, [COUT], b.tobytes(),
                           raw=True),
    ]
    ins = ["x", "x_scale", "x_zp", "w", "w_scale", "w_zp", "y_scale",
           "y_zp", "b"]
    attrs = dict(kernel_shape=[K, K], pads=[1, 1, 1, 1], strides=[1, 1],
                 dilations=[1, 1], group=1)
    if nhwc:
        node = helper.make_node("QLinearConv", ins, ["y"],
                                domain="com.microsoft", channels_last=1,
                                **attrs)
        xs, ys = [1, H, W, CIN], [1, H, W, COUT]
    else:
        node = helper.make_node("QLinearConv", ins, ["y"], **attrs)
        xs, ys = [1, CIN, H, W], [1, COUT, H, W]
    graph = helper.make_graph(
        [node], "qconv",
        [helper.make_tensor_value_info("x", TensorProto.UINT8, xs)],
        [helper.make_tensor_value_info("y", TensorProto.UINT8, ys)],
        inits)
    opsets = [helper.make_opsetid("", 13)]
    if nhwc:
        opsets.append(helper.make_opsetid("com.microsoft", 1))
    return helper.make_model(graph, opset_imports=opsets,
                             producer_name="vpux bench")


def main():
    out = sys.argv[1]
    save(model(False), out + "/qconv_nchw.onnx")
    save(model(True), out + "/qconv_nhwc.onnx")


if __name__ == "__main__":
    main()
