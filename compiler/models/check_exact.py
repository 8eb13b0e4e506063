#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Check onnxruntime's references against exact integer arithmetic.

    /usr/bin/python3 compiler/models/check_exact.py [NAME...]

For every convolution and matrix product of the committed models
(QLinearConv / QLinearMatMul of the QOperator models; Conv / Gemm /
MatMul between DequantizeLinear and QuantizeLinear of the QDQ models),
runs the model in onnxruntime (tools/ort, as the references are made)
with the layer's 8-bit input and output exposed, recomputes the output
from the input with numpy in exact integers -- accumulate (x - x_zp) *
(w - w_zp) in int64, add the int32 bias, then round_half_even(acc *
x_scale * w_scale / y_scale) + y_zp, saturated -- and counts the
elements that differ. This is the arithmetic the NPU implements (with
its own rounding of ties, Documentation/compute-ops.rst), so it bounds
what a correct compiler can differ from the references by.

Prints one line per layer; exits 1 when an element differs by more than
one step, or more than 0.1 % of a layer's elements differ.
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import qbuild  # noqa: E402


def attr(n, k, default):
    for a in n.attribute:
        if a.name == k:
            return helper.get_attribute_value(a)
    return default


def conv(x, w, st, pads, dl, g):
    """Exact convolution: x [C,H,W], w [OC, C/g, kh, kw], int64."""
    c, h, wd = x.shape
    oc, icg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (h + pads[0] + pads[2] - (dl[0] * (kh - 1) + 1)) // st[0] + 1
    ow = (wd + pads[1] + pads[3] - (dl[1] * (kw - 1) + 1)) // st[1] + 1
    out = np.zeros((oc, oh, ow), np.int64)
    ocg = oc // g
    for gi in range(g):
        xs = xp[gi * icg:(gi + 1) * icg]
        for ky in range(kh):
            for kx in range(kw):
                y0, x0 = ky * dl[0], kx * dl[1]
                patch = xs[:, y0:y0 + st[0] * (oh - 1) + 1:st[0], x0:x0 + st[1] * (ow - 1) + 1:st[1]]
                out[gi * ocg:(gi + 1) * ocg] += np.einsum("oc,chw->ohw", w[gi * ocg:(gi + 1) * ocg, :, ky, kx], patch)
    return out


def layers(m, init):
    """(node, x, x_scale, x_zp, w, w_scale, w_zp, bias, y_scale, y_zp, y) per layer."""
    prod = {o: n for n in m.graph.node for o in n.output}
    cons = {}
    for n in m.graph.node:
        for i in n.input:
            cons.setdefault(i, []).append(n)
    res = []
    for n in m.graph.node:
        if n.op_type in ("QLinearConv", "QLinearMatMul"):
            i = n.input
            b = init[i[8]] if len(i) > 8 else None
            res.append((n, i[0], i[1], i[2], i[3], i[4], i[5], b, i[6], i[7], n.output[0]))
        elif n.op_type in ("Conv", "Gemm", "MatMul"):
            dqx, dqw = prod[n.input[0]], prod[n.input[1]]
            b = init[prod[n.input[2]].input[0]] if len(n.input) > 2 else None
            t = n.output[0]
            while cons[t][0].op_type in ("Relu", "Clip"):
                t = cons[t][0].output[0]
            q = cons[t][0]
            assert q.op_type == "QuantizeLinear", q.op_type
            res.append((n, *dqx.input, *dqw.input, b, q.input[1], q.input[2], q.output[0]))
    return res


def check(name):
    m = onnx.load(os.path.join(HERE, name, "model.onnx"))
    init = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    ls = layers(m, init)
    zps = {}  # the 8-bit tensors to expose -> their zero point (its type)
    for L in ls:
        zps[L[1]], zps[L[10]] = L[3], L[9]
    for t in sorted(zps):
        dt = init[zps[t]].dtype
        m.graph.output.append(helper.make_tensor_value_info(t, qbuild.NP2ONNX[dt], None))
    sets = sorted(d for d in os.listdir(os.path.join(HERE, name)) if d.startswith("test_data_set_"))
    xs = [qbuild.read_pb(os.path.join(HERE, name, d, "input_0.pb"))[0] for d in sets]
    runs = qbuild.ort_run(m, xs)
    ok = True
    for n, xn, xsn, xzn, wn, wsn, wzn, b, ysn, yzn, yn in ls:
        xz, yz = int(init[xzn]), int(init[yzn])
        w = init[wn].astype(np.int64)
        wz = init[wzn].astype(np.int64)
        mult = np.float64(init[xsn]) * init[wsn].astype(np.float64) / np.float64(init[ysn])
        qmin, qmax = qbuild.qrange(init[yzn].dtype)
        worst, ndiff, total = 0, 0, 0
        for r in runs:
            a = r[xn].astype(np.int64) - xz
            if n.op_type in ("Conv", "QLinearConv"):
                wzb = wz.reshape(-1, 1, 1, 1) if wz.ndim else wz
                acc = conv(a[0], w - wzb, attr(n, "strides", [1, 1]), attr(n, "pads", [0, 0, 0, 0]),
                           attr(n, "dilations", [1, 1]), attr(n, "group", 1))[None]
                if b is not None:
                    acc += b.astype(np.int64).reshape(-1, 1, 1)
                mm = mult.reshape(-1, 1, 1) if mult.ndim else mult
            else:
                wt = w.T if (n.op_type == "Gemm" and attr(n, "transB", 0)) else w   # [K, N]
                acc = a @ (wt - (wz.reshape(1, -1) if wz.ndim else wz))
                if b is not None:
                    acc += b.astype(np.int64)
                mm = mult
            y = np.clip(np.rint(acc * mm) + yz, qmin, qmax)
            d = np.abs(y - r[yn].astype(np.int64))
            worst, ndiff, total = max(worst, int(d.max())), ndiff + int((d > 0).sum()), total + d.size
        bad = worst > 1 or ndiff > total / 1000
        ok = ok and not bad
        print(f"{name:14s} {n.op_type:13s} {n.name:24s} {ndiff:4d} of {total:7d} differ, "
              f"by up to {worst}{' FAIL' if bad else ''}")
    return ok


def main():
    names = sys.argv[1:] or sorted(d for d in os.listdir(HERE)
                                   if os.path.exists(os.path.join(HERE, d, "model.onnx")))
    ok = all([check(n) for n in names])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
