#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Generate the compiler's test models and their onnxruntime references.

    /usr/bin/python3 compiler/models/gen_models.py [NAME...]

(Debian's python3, where python3-onnx lives; tools/ort installed by
make deps.) For each model family (lenet, resnet, mobilenet, mlp) and
format (qdq, qop), and for resnet18_qdq, it

1. builds the float model with fixed-seed random weights and runs it in
   onnxruntime on 32 random calibration inputs, recording the range of
   every layer output;
2. builds the quantized model from those ranges and checks it with
   onnx.checker;
3. writes <family>_<format>/model.onnx and test_data_set_0..2/input_0.pb
   (three other random inputs), then output_0.pb from onnxruntime
   (tools/ort/ort-run.js);
4. reports, per model, how far the quantized output is from the float
   one and, per quantized activation, the fraction of saturated values
   and the fraction of the 8-bit range used (gen_models.txt).

Everything is deterministic: running it again rewrites the same bytes.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import qbuild  # noqa: E402
from qbuild import Builder  # noqa: E402

N_CALIB = 32
N_TEST = 3
N_VALID = 32


def he(rng, *shape):
    fan_in = int(np.prod(shape[1:]))
    return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)


def bias(rng, n, s=0.1):
    return (rng.standard_normal(n) * s).astype(np.float32)


# --- the families ----------------------------------------------------------
# variant: 'qdq' or 'qop'; the float model a variant is calibrated with is
# the same function run with a float Builder. QOperator has no quantized
# Gemm with bias (QGemm is com.microsoft): its fully connected layers are
# bias-free QLinearMatMul, or 1x1 QLinearConv where the tensor is 4-D.

def lenet(b, variant):
    """LeNet-5: 1x1x28x28 in [0, 1] -> 10 class probabilities."""
    rng = np.random.default_rng(1001)
    x = b.input("input", [1, 1, 28, 28], (0.0, 1.0))
    x = b.conv(x, "conv1", he(rng, 6, 1, 5, 5), bias(rng, 6), pad=2, act="relu")       # 6x28x28
    x = b.maxpool(x, "pool1", 2)                                                       # 6x14x14
    x = b.conv(x, "conv2", he(rng, 16, 6, 5, 5), bias(rng, 16), act="relu")            # 16x10x10
    x = b.avgpool(x, "pool2", 2) if variant == "qdq" else b.maxpool(x, "pool2", 2)     # 16x5x5
    x = b.conv(x, "conv3", he(rng, 120, 16, 5, 5), bias(rng, 120), act="relu")         # 120x1x1
    w4, b4 = he(rng, 84, 120), bias(rng, 84)
    w5, b5 = he(rng, 10, 84), bias(rng, 10)
    if variant == "qdq":
        x = b.flatten(x, "flatten")
        x = b.gemm(x, "fc1", w4, b4, act="relu")
        x = b.gemm(x, "fc2", w5, b5)
    else:
        x = b.conv(x, "fc1", w4.reshape(84, 120, 1, 1), b4, act="relu")
        x = b.conv(x, "fc2", w5.reshape(10, 84, 1, 1), b5)
        x = b.reshape(x, "reshape", [1, 10])
    return b.softmax(x, "softmax")


def resnet(b, variant):
    """Four ResNet basic blocks (CIFAR size): 1x3x32x32 -> 10 logits."""
    rng = np.random.default_rng(2002)

    def block(x, name, cin, cout, stride=1, groups=1):
        h = b.conv(x, name + "_conv1", he(rng, cout, cin // groups, 3, 3), bias(rng, cout),
                   stride=stride, pad=1, groups=groups, act="relu")
        h = b.conv(h, name + "_conv2", 0.5 * he(rng, cout, cout, 3, 3), bias(rng, cout), pad=1)
        if stride != 1 or cin != cout:
            x = b.conv(x, name + "_proj", he(rng, cout, cin, 1, 1), bias(rng, cout), stride=stride)
        return b.add(h, x, name + "_add", act="relu")

    x = b.input("input", [1, 3, 32, 32], (-3.0, 3.0))
    x = b.conv(x, "stem", he(rng, 16, 3, 3, 3), bias(rng, 16), pad=1, act="relu")  # 16x32x32
    x = block(x, "block1", 16, 16)                                                 # 16x32x32
    x = block(x, "block2", 16, 32, stride=2)                                       # 32x16x16
    x = block(x, "block3", 32, 32, groups=4)                                       # 32x16x16
    x = block(x, "block4", 32, 64, stride=2)                                       # 64x8x8
    x = b.avgpool(x, "pool", 2)                                                    # 64x4x4
    x = b.transpose(x, "to_nhwc", [0, 2, 3, 1])                                    # 4x4x64
    x = b.reshape(x, "reshape", [1, 1024])
    w, bb = he(rng, 10, 1024), bias(rng, 10)
    return b.gemm(x, "fc", w, bb if variant == "qdq" else None)


def resnet18(b, variant):
    """ResNet-18's stem and first stage at ImageNet size: 1x3x224x224 -> 10 probabilities."""
    rng = np.random.default_rng(5005)
    x = b.input("input", [1, 3, 224, 224], (-3.0, 3.0))
    x = b.conv(x, "stem", he(rng, 64, 3, 7, 7), bias(rng, 64), stride=2, pad=3, act="relu")  # 64x112x112
    x = b.maxpool(x, "pool", 3, stride=2, pad=1)                                              # 64x56x56
    for blk in ("layer1_0", "layer1_1"):
        h = b.conv(x, blk + "_conv1", he(rng, 64, 64, 3, 3), bias(rng, 64), pad=1, act="relu")
        h = b.conv(h, blk + "_conv2", 0.5 * he(rng, 64, 64, 3, 3), bias(rng, 64), pad=1)
        x = b.add(h, x, blk + "_add", act="relu")                                             # 64x56x56
    x = b.gap(x, "gap")
    x = b.flatten(x, "flatten")
    x = b.gemm(x, "fc", 0.25 * he(rng, 10, 64), bias(rng, 10))
    return b.softmax(x, "softmax")


def mobilenet(b, variant):
    """MobileNet-v1-style depthwise + pointwise stack, ReLU6: 1x3x96x96 -> 10 probabilities."""
    rng = np.random.default_rng(3003)

    def ds(x, name, cin, cout, stride=1, dilation=1, pad=None):
        x = b.conv(x, name + "_dw", he(rng, cin, 1, 3, 3), bias(rng, cin), stride=stride,
                   pad=dilation if pad is None else pad, dilation=dilation, groups=cin, act="relu6")
        return b.conv(x, name + "_pw", he(rng, cout, cin, 1, 1), bias(rng, cout), act="relu6")

    x = b.input("input", [1, 3, 96, 96], (-1.0, 1.0))
    x = b.conv(x, "stem", he(rng, 16, 3, 3, 3), bias(rng, 16), stride=2, pad=1, act="relu6")  # 16x48x48
    x = ds(x, "ds1", 16, 32)                                       # 32x48x48
    x = ds(x, "ds2", 32, 64, stride=2, pad=[0, 0, 1, 1])           # 64x24x24 ('SAME' padding)
    x = ds(x, "ds3", 64, 64, dilation=2)                           # 64x24x24
    x = ds(x, "ds4", 64, 128, stride=2)                            # 128x12x12
    x = ds(x, "ds5", 128, 128)                                     # 128x12x12
    x = b.gap(x, "gap")                                            # 128x1x1
    x = b.flatten(x, "flatten")
    w, bb = 4 * he(rng, 10, 128), bias(rng, 10)  # the average is small: spread the logits
    x = b.gemm(x, "fc", w, bb if variant == "qdq" else None)
    return b.softmax(x, "softmax")


def mlp(b, variant):
    """MLP with a gated layer (tanh * sigmoid): 1x256 -> 10 probabilities."""
    rng = np.random.default_rng(4004)
    x = b.input("input", [1, 256], (-4.0, 4.0))
    w1, b1 = he(rng, 512, 256), bias(rng, 512)
    wt, bt = 0.5 * he(rng, 256, 512), bias(rng, 256)     # keeps tanh off its limits
    wg, bg = he(rng, 256, 512), bias(rng, 256)
    w3, b3 = he(rng, 10, 256), bias(rng, 10)
    if variant == "qdq":
        h = b.matmul_add(x, "fc1", np.ascontiguousarray(w1.T), b1, act="relu")
        t = b.tanh(b.gemm(h, "fc_tanh", wt, bt), "tanh")
        g = b.sigmoid(b.gemm(h, "fc_gate", wg, bg), "sigmoid")
        y = b.gemm(b.mul(t, g, "gate"), "fc2", w3, b3)
    else:
        h = b.gemm(x, "fc1", w1, act="relu")
        t = b.tanh(b.gemm(h, "fc_tanh", wt), "tanh")
        g = b.sigmoid(b.gemm(h, "fc_gate", wg), "sigmoid")
        y = b.gemm(b.mul(t, g, "gate"), "fc2", w3)
    return b.softmax(y, "softmax")


def mixed(b, variant):
    """Two quantized convolutions around a float Resize the NPU cannot run:
    1x3x16x16 -> 10 probabilities. vpux-onnx partitions it into two NPU
    loadables and a CPU Resize (Documentation/compiler.rst)."""
    rng = np.random.default_rng(6006)
    x = b.input("input", [1, 3, 16, 16], (-1.0, 1.0))
    x = b.conv(x, "conv1", he(rng, 8, 3, 3, 3), bias(rng, 8), pad=1, act="relu")             # 8x16x16
    x = b.resize(x, "upsample", [1, 1, 2, 2], mode="nearest",
                 coordinate_transformation_mode="asymmetric", nearest_mode="floor")        # 8x32x32
    x = b.conv(x, "conv2", he(rng, 16, 8, 3, 3), bias(rng, 16), stride=2, pad=1, act="relu")  # 16x16x16
    x = b.gap(x, "gap")
    x = b.flatten(x, "flatten")
    x = b.gemm(x, "fc", 2 * he(rng, 10, 16), bias(rng, 10))
    return b.softmax(x, "softmax")


def dyn_mlp(b, variant):
    """A token-wise MLP block over a dynamic number of tokens: [tokens, 64]
    -> [tokens, 16], tokens a dim_param (Documentation/compiler.rst,
    "Dynamic axes"): fc1 (ReLU), fc2, a residual Add of the input, fc3.
    QOperator: bias-free QLinearMatMul, as the mlp family's."""
    rng = np.random.default_rng(7007)
    qop = variant == "qop"
    x = b.input("input", ["tokens", 64], (-3.0, 3.0))
    w1, b1 = he(rng, 128, 64), bias(rng, 128)
    w2, b2 = 0.5 * he(rng, 64, 128), bias(rng, 64)
    w3, b3 = he(rng, 16, 64), bias(rng, 16)
    h = b.gemm(x, "fc1", w1, None if qop else b1, act="relu")
    h = b.gemm(h, "fc2", w2, None if qop else b2)
    h = b.add(x, h, "residual")
    return b.gemm(h, "fc3", w3, None if qop else b3)


def save_model(name, model, fmodel, tests):
    """Write @model and its test sets (inputs, onnxruntime's outputs) to
    models/NAME; return its path, the quantized outputs, the float model's
    and their largest difference as a fraction of the output range."""
    d = os.path.join(HERE, name)
    os.makedirs(d, exist_ok=True)
    mpath = os.path.join(d, "model.onnx")
    qbuild.onnx.save(model, mpath)
    for i, x in enumerate(tests):
        sd = os.path.join(d, f"test_data_set_{i}")
        os.makedirs(sd, exist_ok=True)
        qbuild.write_pb(os.path.join(sd, "input_0.pb"), x, "input")
    qbuild.ort_run_dir(mpath, d)
    # quantized vs float, on the test inputs
    qout = [qbuild.read_pb(os.path.join(d, f"test_data_set_{i}", "output_0.pb"))[0]
            for i in range(len(tests))]
    fout = [r["output"] for r in qbuild.ort_run(fmodel, tests)]
    span = max(float(np.abs(f).max()) for f in fout)
    err = max(float(np.abs(q - f).max()) for q, f in zip(qout, fout)) / span
    return mpath, qout, fout, err


def describe(mpath, model, opts):
    """The report's facts of a model: bytes, activation type, weights, ops."""
    act = np.dtype(opts["act"]).name
    w = ("%s%s %s" % (np.dtype(opts["wtype"]).name, " (7-bit)" if opts.get("reduce_range") else "",
                       "per-channel" if opts["per_channel"] else "per-tensor"))
    return os.path.getsize(mpath), act, w, sorted({n.op_type for n in model.graph.node})


# dyn_mlp's test sizes: min, a tail-only tile, one exact tile, a tile and
# a tail of one, tiles and a tail, max (tile 16 of tokens = 1..64)
DYN_TOKENS = [1, 15, 16, 17, 45, 64]


def generate_dyn(report, variant="qdq"):
    """dyn_mlp(_qop): one model, test sets of different token counts."""
    name = "dyn_mlp" if variant == "qdq" else "dyn_mlp_qop"
    opts = options("mlp", variant)
    rng = np.random.default_rng(100)
    calib = [np.clip(rng.standard_normal((t, 64)), -3, 3).astype(np.float32)
             for t in (64, 33, 8, 64)] * 8
    rng = np.random.default_rng(200)
    tests = [np.clip(rng.standard_normal((t, 64)), -3, 3).astype(np.float32) for t in DYN_TOKENS]
    out_shape = ["tokens", 16]
    fmodel, ranges = qbuild.calibrate(lambda b: dyn_mlp(b, variant), name, calib, out_shape)
    b = Builder(name, variant, ranges, **opts)
    model = b.finish(dyn_mlp(b, variant), out_shape=out_shape)
    mpath, qout, fout, err = save_model(name, model, fmodel, tests)
    nbytes, act, w, ops = describe(mpath, model, opts)
    report.append(f"{name}: {nbytes} bytes, activations {act}, weights {w}, "
                  f"tokens {','.join(str(t) for t in DYN_TOKENS)}")
    report.append(f"  ops: {' '.join(ops)}")
    report.append(f"  output vs float model: max |diff| {100 * err:.2f}% of the output range")
    print(f"gen_models: {name}: {nbytes} bytes, err {100 * err:.2f}%", flush=True)


def inputs(family, n, seed):
    rng = np.random.default_rng(seed)
    if family == "lenet":
        return [rng.random((1, 1, 28, 28), np.float32) for _ in range(n)]
    if family in ("resnet", "resnet18"):
        shape = (1, 3, 32, 32) if family == "resnet" else (1, 3, 224, 224)
        return [np.clip(rng.standard_normal(shape), -3, 3).astype(np.float32) for _ in range(n)]
    if family == "mobilenet":
        return [rng.uniform(-1, 1, (1, 3, 96, 96)).astype(np.float32) for _ in range(n)]
    if family == "mixed":
        return [rng.uniform(-1, 1, (1, 3, 16, 16)).astype(np.float32) for _ in range(n)]
    return [np.clip(rng.standard_normal((1, 256)), -4, 4).astype(np.float32) for _ in range(n)]


FAMILIES = {"lenet": lenet, "resnet": resnet, "mobilenet": mobilenet, "mlp": mlp, "resnet18": resnet18,
            "mixed": mixed}
OUT_SHAPE = {f: [1, 10] for f in FAMILIES}
# the models: every family in both formats, but resnet18 (a size test:
# 800 kB activations; the formats are covered by the others) only as
# QDQ, with one test input (600 kB); mixed (an NPU/CPU recipe) only as QDQ
MODELS = [f"{f}_{v}" for f in ("lenet", "resnet", "mobilenet", "mlp") for v in ("qdq", "qop")] + \
    ["resnet18_qdq", "mixed_qdq", "dyn_mlp", "dyn_mlp_qop"]
BIG = {"resnet18"}
# format -> family -> Builder options
OPTIONS = {
    "qdq": dict(act=np.int8, wtype=np.int8, per_channel=True),
    "qop": {"lenet": dict(act=np.uint8, wtype=np.uint8, per_channel=False),
            "resnet": dict(act=np.uint8, wtype=np.int8, per_channel=False, reduce_range=True),
            "mobilenet": dict(act=np.uint8, wtype=np.int8, per_channel=True, reduce_range=True),
            "mlp": dict(act=np.uint8, wtype=np.int8, per_channel=False, reduce_range=True)},
}


def options(family, variant):
    o = OPTIONS[variant]
    return o if variant == "qdq" else o[family]


def generate(family, variant, report):
    name = f"{family}_{variant}"
    fn = FAMILIES[family]

    def fam(b):
        return fn(b, variant)

    big = family in BIG
    n_test = 1 if big else N_TEST
    calib = inputs(family, N_CALIB // 2 if big else N_CALIB, 100)
    tests = inputs(family, n_test, 200)
    fmodel, ranges = qbuild.calibrate(fam, name, calib, OUT_SHAPE[family])
    opts = options(family, variant)
    b = Builder(name, variant, ranges, **opts)
    model = b.finish(fam(b), out_shape=OUT_SHAPE[family])

    mpath, qout, fout, err = save_model(name, model, fmodel, tests)
    agree = sum(int(q.argmax() == f.argmax()) for q, f in zip(qout, fout))

    # saturation, on inputs the calibration did not see
    sb = Builder(name, variant, ranges, stats=True, **opts)
    sm = sb.finish(fam(sb), out_shape=OUT_SHAPE[family])
    rows = qbuild.saturation(sb, qbuild.ort_run(sm, inputs(family, N_VALID // 4 if big else N_VALID, 300) + tests))
    nbytes, act, w, ops = describe(mpath, model, opts)
    report.append(f"{name}: {nbytes} bytes, activations {act}, weights {w}")
    report.append(f"  ops: {' '.join(ops)}")
    report.append(f"  output vs float model: max |diff| {100 * err:.2f}% of the output range, "
                  f"argmax agrees {agree}/{n_test}")
    worst = max(r[2] for r in rows)
    least = min(r[3] for r in rows)
    report.append(f"  activations: {len(rows)} quantized, saturated at most {100 * worst:.3f}%, "
                  f"range used at least {100 * least:.0f}%")
    for k, kind, sat, used in rows:
        report.append(f"    {k:16s} {kind or '-':8s} saturated {100 * sat:7.3f}%  range used {100 * used:5.1f}%")
    print(f"gen_models: {name}: {nbytes} bytes, err {100 * err:.2f}%, "
          f"saturated <= {100 * worst:.3f}%, used >= {100 * least:.0f}%", flush=True)


def main():
    names = sys.argv[1:] or MODELS
    report = []
    for n in names:
        if n in ("dyn_mlp", "dyn_mlp_qop"):
            generate_dyn(report, "qdq" if n == "dyn_mlp" else "qop")
            continue
        family, variant = n.rsplit("_", 1)
        generate(family, variant, report)
    if not sys.argv[1:]:
        with open(os.path.join(HERE, "gen_models.txt"), "w") as f:
            f.write("# written by gen_models.py: per model, the quantized output against the float\n"
                    "# model's (test inputs) and, per quantized activation, over 35 inputs the\n"
                    "# calibration did not see, the fraction of values at the type's limits\n"
                    "# (the minimum is not counted where it is the zero point: ReLU, ReLU6,\n"
                    "# softmax, sigmoid) and the largest |q - zero point| over its maximum.\n")
            f.write("\n".join(report) + "\n")
    else:
        print("\n".join(report))


if __name__ == "__main__":
    main()
