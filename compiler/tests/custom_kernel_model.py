#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""The worked example of custom kernels (Documentation/vpux-onnx.rst,
"Custom kernels"): an ONNX model made with onnx.helper in which a
com.vpux node, scale_shift, runs the SDK-built kernel
examples/kernels/scale_shift.c between two ONNX ops, and a data set whose
reference is numpy doing what the NPU does (FP16 tensors, FP32
arithmetic with two roundings):

    t = Relu(x);  y = scale_shift(t; scale, shift, relu=0) + t

usage: custom_kernel_model.py DIR [--drop ATTR]
writes DIR/model.onnx and DIR/test_data_set_0/{input_0,output_0}.pb;
--drop leaves an attribute out (the compile must refuse the node).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SCALE, SHIFT = 1.5, -0.25


def main():
    out = sys.argv[1]
    drop = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--drop" else None
    shape = [2, 3, 8, 8]
    attrs = {"scale": SCALE, "shift": SHIFT, "relu": 0}
    if drop:
        del attrs[drop]
    nodes = [
        helper.make_node("Relu", ["x"], ["t"], name="relu"),
        helper.make_node("scale_shift", ["t"], ["s"], name="ss",
                         domain="com.vpux", **attrs),
        helper.make_node("Add", ["s", "t"], ["y"], name="add"),
    ]
    graph = helper.make_graph(
        nodes, "custom_kernel",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)])
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 17), helper.make_opsetid("com.vpux", 1)])
    os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(out, "model.onnx"))

    rng = np.random.default_rng(31)
    x = rng.standard_normal(shape).astype(np.float32)
    h = lambda a: a.astype(np.float16).astype(np.float32)   # an FP16 tensor
    t = np.maximum(h(x), 0)
    s = h(t * np.float32(SCALE) + np.float32(SHIFT))
    y = h(s + t)
    for name, v, a in (("input_0", "x", x), ("output_0", "y", y)):
        with open(os.path.join(out, "test_data_set_0", name + ".pb"), "wb") as f:
            f.write(numpy_helper.from_array(a, v).SerializeToString())


if __name__ == "__main__":
    main()
