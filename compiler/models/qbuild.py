# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Build float and quantized ONNX models from one description.

A model family is a function ``family(b)`` that calls the layer methods of
a Builder (conv, gemm, add, maxpool, ...). Run with a float Builder it
gives the float model, every layer output exposed for calibration; run
again with the calibrated ranges it gives the quantized model, in one of
two formats:

qdq
    the float graph with QuantizeLinear -> DequantizeLinear pairs on every
    activation, the weights as int8 initializers behind DequantizeLinear
    (per output channel or per tensor), the biases int32 with scale
    x_scale * w_scale; as onnxruntime's quantizer writes it.
qop
    QOperator: QLinearConv / QLinearMatMul / MaxPool / Reshape / Flatten /
    Transpose on the 8-bit tensors; the ops with no standard quantized
    form (Add, Mul, AveragePool, GlobalAveragePool, Softmax, Sigmoid,
    Tanh) as DequantizeLinear -> op -> QuantizeLinear. ReLU and ReLU6 are
    folded into the output quantization: its zero point is the type's
    minimum and, for ReLU6, its range ends at or below 6, so saturation
    does the clamping. No com.microsoft op.

Graph inputs and outputs are float in every format: the input goes
through QuantizeLinear, the output comes from DequantizeLinear.

Only Debian's python3-onnx and numpy; onnxruntime runs through
tools/ort/ort-run.js (node).
"""
import os
import subprocess
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 13
IR_VERSION = 7
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORT_RUN = os.path.join(TOP, "tools", "ort", "ort-run.js")

NP2ONNX = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.uint8): TensorProto.UINT8,
           np.dtype(np.int8): TensorProto.INT8, np.dtype(np.int32): TensorProto.INT32}


def qrange(dtype):
    i = np.iinfo(dtype)
    return int(i.min), int(i.max)


def qparams(rmin, rmax, dtype):
    """Asymmetric (scale, zero point) covering [rmin, rmax] and 0."""
    rmin, rmax = min(float(rmin), 0.0), max(float(rmax), 0.0)
    qmin, qmax = qrange(dtype)
    scale = (rmax - rmin) / (qmax - qmin)
    if scale <= 0:
        scale = 1.0
    zp = int(np.clip(np.round(qmin - rmin / scale), qmin, qmax))
    return np.float32(scale), zp


def quantize(x, scale, zp, dtype):
    qmin, qmax = qrange(dtype)
    return np.clip(np.rint(x / scale) + zp, qmin, qmax).astype(dtype)


class V:
    """A value of the graph: a tensor name and the layer (key) it is."""

    def __init__(self, name, key):
        self.name = name
        self.key = key


class Builder:
    """
    fmt: 'float', 'qdq' or 'qop'; ranges: key -> (min, max) of the float
    model's layer outputs (quantized formats); act: activation type
    (np.int8 or np.uint8); wtype: weight type (np.int8 symmetric, or
    np.uint8 asymmetric per tensor); per_channel: weights per output
    channel; reduce_range: int8 weights in -64..64; stats: expose every
    quantized activation as a graph output.

    reduce_range is for QOperator models with int8 weights: onnxruntime
    runs QLinearConv/QLinearMatMul with its u8s8 kernel, which on x86
    without VNNI (VPMADDUBSW) saturates the sum of two adjacent products
    at int16; with |w| <= 64 it cannot (2 * 255 * 64 < 2^15), so its
    outputs are the exact integer results the NPU must match. (QDQ models
    keep 8-bit weights: tools/ort runs them without graph optimizations,
    as float ops between exact Q/DQ, never through that kernel.)
    """

    def __init__(self, name, fmt, ranges=None, act=np.int8, wtype=np.int8,
                 per_channel=True, reduce_range=False, stats=False):
        assert fmt in ("float", "qdq", "qop")
        self.name, self.fmt, self.ranges = name, fmt, ranges or {}
        self.act, self.wtype, self.per_channel = np.dtype(act), np.dtype(wtype), per_channel
        # int8 weights in -64..64 (7 bits), as onnxruntime's reduce_range
        self.wmax = 64 if reduce_range else 127
        self.stats = stats
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []
        self.keys = []          # layer outputs, in order
        self.qp = {}            # key -> (scale, zp) of the activation
        self.kind = {}          # key -> 'relu', 'relu6', 'fixed', 'shared', ''
        self._init_names = set()

    # --- plumbing ---------------------------------------------------------

    def init(self, name, arr):
        if name not in self._init_names:
            self._init_names.add(name)
            self.inits.append(numpy_helper.from_array(np.asarray(arr), name))
        return name

    def node(self, op, ins, outs, name, **attrs):
        self.nodes.append(helper.make_node(op, ins, outs, name=name, **attrs))
        return outs[0]

    def q(self):
        return self.fmt != "float"

    def _qparams_of(self, key, kind, like=None):
        """Decide and remember the quantization of layer @key."""
        self.kind[key] = kind
        if not self.q():
            return None
        qmin, qmax = qrange(self.act)
        if kind == "shared":
            p = self.qp[like]
        elif kind == "sigmoid" or kind == "softmax":
            p = (np.float32(1 / 256), qmin)
        elif kind == "tanh":
            p = (np.float32(1 / 128), (qmin + qmax + 1) // 2)
        else:
            lo, hi = self.ranges[key]
            if kind == "relu":
                lo = 0.0
            elif kind == "relu6":
                lo, hi = 0.0, min(hi, 6.0)
            p = qparams(lo, hi, self.act)
        self.qp[key] = p
        return p

    def _scale_zp_names(self, key):
        s, z = self.qp[key]
        return (self.init(key + "_scale", np.array(s, np.float32)),
                self.init(key + "_zero_point", np.array(z, self.act)))

    def _qdq(self, fname, key):
        """float tensor @fname -> Q -> DQ (qdq format)."""
        s, z = self._scale_zp_names(key)
        qn = self.node("QuantizeLinear", [fname, s, z], [key + "_quantized"], key + "_QuantizeLinear")
        self._stat(qn, key)
        dq = self.node("DequantizeLinear", [qn, s, z], [key + "_dequantized"], key + "_DequantizeLinear")
        return V(dq, key)

    def _quant(self, fname, key):
        """float tensor @fname -> Q (qop format)."""
        s, z = self._scale_zp_names(key)
        qn = self.node("QuantizeLinear", [fname, s, z], [key + "_quantized"], key + "_QuantizeLinear")
        self._stat(qn, key)
        return V(qn, key)

    def _deq(self, v):
        """8-bit @v -> DequantizeLinear (qop format)."""
        s, z = self._scale_zp_names(v.key)
        out = v.name + "_dequantized"
        if not any(out in n.output for n in self.nodes):
            self.node("DequantizeLinear", [v.name, s, z], [out], v.name + "_DequantizeLinear")
        return out

    def _stat(self, tname, key):
        if self.stats:
            self.outputs.append(helper.make_tensor_value_info(tname, NP2ONNX[self.act], None))

    def _out(self, fname, key):
        """Finish a float-domain layer output named @fname."""
        self.keys.append(key)
        if self.fmt == "float":
            return V(fname, key)
        if self.fmt == "qdq":
            return self._qdq(fname, key)
        return self._quant(fname, key)

    def _fin(self, v):
        """The float input tensor of the next float op."""
        if self.fmt == "qop":
            return self._deq(v)
        return v.name

    def _act(self, fname, key, act):
        if act == "relu":
            return self.node("Relu", [fname], [key + "_relu"], key + "_Relu")
        if act == "relu6":
            lo = self.init("relu6_min", np.array(0.0, np.float32))
            hi = self.init("relu6_max", np.array(6.0, np.float32))
            return self.node("Clip", [fname, lo, hi], [key + "_relu6"], key + "_Clip")
        assert act is None
        return fname

    # weights

    def _wquant(self, w, key, axis):
        """Quantize weights @w along @axis (output channels)."""
        if self.wtype == np.int8:
            if self.per_channel:
                red = tuple(i for i in range(w.ndim) if i != axis)
                amax = np.abs(w).max(axis=red)
                s = np.maximum(amax, 1e-8) / self.wmax
                shp = [1] * w.ndim
                shp[axis] = -1
                wq = np.clip(np.rint(w / s.reshape(shp)), -self.wmax, self.wmax).astype(np.int8)
                return wq, s.astype(np.float32), np.zeros(len(s), np.int8)
            s = max(float(np.abs(w).max()), 1e-8) / self.wmax
            wq = np.clip(np.rint(w / s), -self.wmax, self.wmax).astype(np.int8)
            return wq, np.array(s, np.float32), np.array(0, np.int8)
        assert not self.per_channel, "uint8 weights: per tensor"
        s, z = qparams(w.min(), w.max(), np.uint8)
        return quantize(w, s, z, np.uint8), np.array(s, np.float32), np.array(z, np.uint8)

    def _bias(self, b, key, x_scale, w_scale):
        bs = (np.float32(x_scale) * w_scale).astype(np.float32)
        bq = np.rint(b / bs).astype(np.int64)
        assert np.abs(bq).max(initial=0) < 2 ** 31
        return bq.astype(np.int32), bs

    # --- layers -----------------------------------------------------------

    def input(self, name, shape, rng):
        self.inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, shape))
        self.ranges.setdefault(name, rng)
        self.kind[name] = ""
        if self.q():
            self.qp[name] = qparams(*self.ranges[name], self.act)
        if self.fmt == "qdq":
            return self._qdq(name, name)
        if self.fmt == "qop":
            return self._quant(name, name)
        return V(name, name)

    def conv(self, x, key, w, b=None, stride=1, pad=0, dilation=1, groups=1, act=None):
        w = np.asarray(w, np.float32)
        k = list(w.shape[2:])
        pads = [pad] * 4 if np.isscalar(pad) else list(pad)
        st = [stride] * 2 if np.isscalar(stride) else list(stride)
        dl = [dilation] * 2 if np.isscalar(dilation) else list(dilation)
        attrs = dict(kernel_shape=k, strides=st, pads=pads, dilations=dl, group=groups)
        self._qparams_of(key, act or "")
        if self.fmt == "float":
            ins = [x.name, self.init(key + "_W", w)]
            if b is not None:
                ins.append(self.init(key + "_B", np.asarray(b, np.float32)))
            y = self.node("Conv", ins, [key + "_conv" if act else key], key + "_Conv", **attrs)
            y = self._act(y, key, act)
            if act:
                self.nodes[-1].output[0] = key
            return self._out(key, key)
        xs = self.qp[x.key][0]
        wq, ws, wz = self._wquant(w, key, 0)
        wn = self.init(key + "_W_quantized", wq)
        wsn = self.init(key + "_W_scale", ws)
        wzn = self.init(key + "_W_zero_point", wz)
        if self.fmt == "qdq":
            wd = self.node("DequantizeLinear", [wn, wsn, wzn], [key + "_W_dequantized"],
                           key + "_W_DequantizeLinear", **({"axis": 0} if ws.ndim else {}))
            ins = [x.name, wd]
            if b is not None:
                bq, bs = self._bias(np.asarray(b, np.float32), key, xs, ws)
                bd = self.node("DequantizeLinear",
                               [self.init(key + "_B_quantized", bq), self.init(key + "_B_scale", bs),
                                self.init(key + "_B_zero_point", np.zeros(bq.shape if bs.ndim else (), np.int32))],
                               [key + "_B_dequantized"], key + "_B_DequantizeLinear",
                               **({"axis": 0} if bs.ndim else {}))
                ins.append(bd)
            y = self.node("Conv", ins, [key + "_conv"], key + "_Conv", **attrs)
            y = self._act(y, key, act)
            self.keys.append(key)
            return self._qdq(y, key)
        # qop: QLinearConv, activation folded into the output range
        xsn, xzn = self._scale_zp_names(x.key)
        ysn, yzn = self._scale_zp_names(key)
        ins = [x.name, xsn, xzn, wn, wsn, wzn, ysn, yzn]
        if b is not None:
            bq, _ = self._bias(np.asarray(b, np.float32), key, xs, ws)
            ins.append(self.init(key + "_B_quantized", bq))
        y = self.node("QLinearConv", ins, [key + "_quantized"], key + "_QLinearConv", **attrs)
        self._stat(y, key)
        self.keys.append(key)
        return V(y, key)

    def gemm(self, x, key, w, b=None, act=None):
        """y = x @ w.T + b, w [N, K] (Gemm transB=1; qop: QLinearMatMul, no bias)."""
        w = np.asarray(w, np.float32)
        self._qparams_of(key, act or "")
        if self.fmt == "float":
            ins = [x.name, self.init(key + "_W", w)]
            if b is not None:
                ins.append(self.init(key + "_B", np.asarray(b, np.float32)))
            y = self.node("Gemm", ins, [key + "_gemm" if act else key], key + "_Gemm", transB=1)
            if act:
                self._act(y, key, act)
                self.nodes[-1].output[0] = key
            return self._out(key, key)
        xs = self.qp[x.key][0]
        if self.fmt == "qdq":
            wq, ws, wz = self._wquant(w, key, 0)
            wd = self.node("DequantizeLinear",
                           [self.init(key + "_W_quantized", wq), self.init(key + "_W_scale", ws),
                            self.init(key + "_W_zero_point", wz)],
                           [key + "_W_dequantized"], key + "_W_DequantizeLinear",
                           **({"axis": 0} if ws.ndim else {}))
            ins = [x.name, wd]
            if b is not None:
                bq, bs = self._bias(np.asarray(b, np.float32), key, xs, ws)
                bd = self.node("DequantizeLinear",
                               [self.init(key + "_B_quantized", bq), self.init(key + "_B_scale", bs),
                                self.init(key + "_B_zero_point", np.zeros(bq.shape if bs.ndim else (), np.int32))],
                               [key + "_B_dequantized"], key + "_B_DequantizeLinear",
                               **({"axis": 0} if bs.ndim else {}))
                ins.append(bd)
            y = self.node("Gemm", ins, [key + "_gemm"], key + "_Gemm", transB=1)
            y = self._act(y, key, act)
            self.keys.append(key)
            return self._qdq(y, key)
        assert b is None, "qop: QLinearMatMul has no bias"
        wq, ws, wz = self._wquant(np.ascontiguousarray(w.T), key, 1)
        xsn, xzn = self._scale_zp_names(x.key)
        ysn, yzn = self._scale_zp_names(key)
        y = self.node("QLinearMatMul",
                      [x.name, xsn, xzn, self.init(key + "_W_quantized", wq),
                       self.init(key + "_W_scale", ws), self.init(key + "_W_zero_point", wz), ysn, yzn],
                      [key + "_quantized"], key + "_QLinearMatMul")
        self._stat(y, key)
        self.keys.append(key)
        return V(y, key)

    def matmul_add(self, x, key, w, b, act=None):
        """y = act(MatMul(x, w) + b), w [K, N]: two layers, key_mm and key (float, qdq)."""
        assert self.fmt != "qop"
        w = np.asarray(w, np.float32)
        b = np.asarray(b, np.float32)
        mm = key + "_mm"
        self._qparams_of(mm, "")
        if self.fmt == "float":
            y = self.node("MatMul", [x.name, self.init(key + "_W", w)], [mm], mm + "_MatMul")
            m = self._out(y, mm)
            self._qparams_of(key, act or "")
            y = self.node("Add", [m.name, self.init(key + "_B", b)], [key + "_add" if act else key], key + "_Add")
            if act:
                self._act(y, key, act)
                self.nodes[-1].output[0] = key
            return self._out(key, key)
        wq, ws, wz = self._wquant(w, mm, 1)
        wd = self.node("DequantizeLinear",
                       [self.init(mm + "_W_quantized", wq), self.init(mm + "_W_scale", ws),
                        self.init(mm + "_W_zero_point", wz)],
                       [mm + "_W_dequantized"], mm + "_W_DequantizeLinear", **({"axis": 1} if ws.ndim else {}))
        y = self.node("MatMul", [x.name, wd], [mm + "_matmul"], mm + "_MatMul")
        self.keys.append(mm)
        m = self._qdq(y, mm)
        self._qparams_of(key, act or "")
        bs = np.float32(max(float(np.abs(b).max()), 1e-8) / 127.0)
        bq = np.clip(np.rint(b / bs), -127, 127).astype(np.int8)
        bd = self.node("DequantizeLinear",
                       [self.init(key + "_B_quantized", bq), self.init(key + "_B_scale", np.array(bs, np.float32)),
                        self.init(key + "_B_zero_point", np.array(0, np.int8))],
                       [key + "_B_dequantized"], key + "_B_DequantizeLinear")
        y = self.node("Add", [m.name, bd], [key + "_add"], key + "_Add")
        y = self._act(y, key, act)
        self.keys.append(key)
        return self._qdq(y, key)

    def _float_op(self, op, ins, key, kind="", act=None, like=None, **attrs):
        """A float op on quantized inputs (DQ -> op -> [act] -> Q in qop)."""
        self._qparams_of(key, act or kind, like)
        fins = [self._fin(v) for v in ins]
        if self.fmt == "float":
            y = self.node(op, fins, [key + "_" + op.lower() if act else key], key + "_" + op, **attrs)
            if act:
                self._act(y, key, act)
                self.nodes[-1].output[0] = key
            return self._out(key, key)
        y = self.node(op, fins, [key + "_" + op.lower()], key + "_" + op, **attrs)
        y = self._act(y, key, act)
        return self._out(y, key)

    def _layout_op(self, op, x, key, extra=(), **attrs):
        """An op that moves 8-bit values: same quantization in and out."""
        if self.fmt == "qop":
            self._qparams_of(key, "shared", x.key)
            y = self.node(op, [x.name] + list(extra), [key + "_quantized"], key + "_" + op, **attrs)
            self._stat(y, key)
            self.keys.append(key)
            return V(y, key)
        return self._float_op(op, [x], key, "shared", like=x.key, **attrs) if not extra else \
            self._float_extra(op, x, key, extra, **attrs)

    def _float_extra(self, op, x, key, extra, **attrs):
        self._qparams_of(key, "shared", x.key)
        y = self.node(op, [x.name] + list(extra), [key if self.fmt == "float" else key + "_" + op.lower()],
                      key + "_" + op, **attrs)
        return self._out(y, key)

    def add(self, a, b, key, act=None):
        return self._float_op("Add", [a, b], key, act=act)

    def mul(self, a, b, key):
        return self._float_op("Mul", [a, b], key)

    def maxpool(self, x, key, k, stride=None, pad=0):
        pads = [pad] * 4 if np.isscalar(pad) else list(pad)
        return self._layout_op("MaxPool", x, key, kernel_shape=[k, k], strides=[stride or k] * 2, pads=pads)

    def avgpool(self, x, key, k, stride=None, pad=0):
        pads = [pad] * 4 if np.isscalar(pad) else list(pad)
        return self._float_op("AveragePool", [x], key, kernel_shape=[k, k], strides=[stride or k] * 2, pads=pads)

    def gap(self, x, key):
        return self._float_op("GlobalAveragePool", [x], key)

    def softmax(self, x, key, axis=-1):
        return self._float_op("Softmax", [x], key, "softmax", axis=axis)

    def sigmoid(self, x, key):
        return self._float_op("Sigmoid", [x], key, "sigmoid")

    def tanh(self, x, key):
        return self._float_op("Tanh", [x], key, "tanh")

    def resize(self, x, key, scales, mode="nearest", **attrs):
        """Resize by constant @scales (same quantization in and out)."""
        sc = self.init(key + "_scales", np.array(scales, np.float32))
        return self._float_extra("Resize", x, key, ["", sc], mode=mode, **attrs)

    def transpose(self, x, key, perm):
        return self._layout_op("Transpose", x, key, perm=list(perm))

    def flatten(self, x, key, axis=1):
        return self._layout_op("Flatten", x, key, axis=axis)

    def reshape(self, x, key, shape):
        s = self.init(key + "_shape", np.array(shape, np.int64))
        return self._layout_op("Reshape", x, key, extra=[s])

    # --- the model --------------------------------------------------------

    def finish(self, v, out_name="output", out_shape=None, calib=False):
        """Make @v the graph output @out_name (float); return the ModelProto."""
        if self.fmt == "qop":
            s, z = self._scale_zp_names(v.key)
            self.node("DequantizeLinear", [v.name, s, z], [out_name], out_name + "_DequantizeLinear")
        else:
            for n in self.nodes:
                for i, o in enumerate(n.output):
                    if o == v.name:
                        n.output[i] = out_name
            for n in self.nodes:
                for i, o in enumerate(n.input):
                    if o == v.name:
                        n.input[i] = out_name
        outs = [helper.make_tensor_value_info(out_name, TensorProto.FLOAT, out_shape)]
        if calib:
            assert self.fmt == "float"
            outs += [helper.make_tensor_value_info(k, TensorProto.FLOAT, None)
                     for k in self.keys if k != v.key]
        graph = helper.make_graph(self.nodes, self.name, self.inputs, outs + self.outputs, self.inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="vpux gen_models.py")
        m.ir_version = IR_VERSION
        if not calib and not self.stats:  # the extra outputs have no shape
            onnx.checker.check_model(m, full_check=True)
        return m


# --- onnxruntime through tools/ort -----------------------------------------

def write_pb(path, arr, name):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(np.asarray(arr), name).SerializeToString())


def read_pb(path):
    t = TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t), t.name


def ort_version():
    import json
    with open(os.path.join(TOP, "tools", "ort", "node_modules", "onnxruntime-node", "package.json")) as f:
        return json.load(f)["version"]


def ort_run_dir(model_path, model_dir):
    subprocess.run(["node", ORT_RUN, model_path, model_dir], check=True, stdout=subprocess.DEVNULL)


def ort_run(model, inputs, input_name="input"):
    """Run ModelProto @model on each input array; return per input a dict name -> output."""
    with tempfile.TemporaryDirectory(prefix="vpux-ort-") as d:
        mp = os.path.join(d, "model.onnx")
        onnx.save(model, mp)
        for i, x in enumerate(inputs):
            os.mkdir(os.path.join(d, f"test_data_set_{i}"))
            write_pb(os.path.join(d, f"test_data_set_{i}", "input_0.pb"), x, input_name)
        ort_run_dir(mp, d)
        res = []
        for i in range(len(inputs)):
            outs = {}
            for k in range(len(model.graph.output)):
                arr, name = read_pb(os.path.join(d, f"test_data_set_{i}", f"output_{k}.pb"))
                outs[name] = arr
            res.append(outs)
        return res


def ort_run_raw(model_path, x):
    """Run the model over x [N, ...] (first output of each, float32, stacked)."""
    with tempfile.TemporaryDirectory(prefix="vpux-ort-") as d:
        inp, out = os.path.join(d, "in.f32"), os.path.join(d, "out.f32")
        np.ascontiguousarray(x, np.float32).tofile(inp)
        shape = ",".join(str(s) for s in (1,) + tuple(x.shape[1:]))
        subprocess.run(["node", ORT_RUN, "--raw", model_path, inp, out, shape], check=True)
        return np.fromfile(out, np.float32).reshape(len(x), -1)


def calibrate(family, name, inputs, out_shape, percentile=None):
    """
    Run the float model on @inputs, return (float model, key -> (min, max)).
    With @percentile (e.g. 99.99), the range of each layer output is its
    (100 - p)th to pth percentile instead of its extremes.
    """
    b = Builder(name, "float")
    v = family(b)
    m = b.finish(v, calib=True)
    res = ort_run(m, inputs)
    ranges = {}
    for k in b.keys:
        arrs = [r[k if k != v.key else "output"] for r in res]
        if percentile is None:
            ranges[k] = (float(min(a.min() for a in arrs)), float(max(a.max() for a in arrs)))
        else:
            allv = np.concatenate([a.ravel() for a in arrs])
            ranges[k] = (float(np.percentile(allv, 100 - percentile)), float(np.percentile(allv, percentile)))
    b = Builder(name, "float")
    return b.finish(family(b), out_shape=out_shape), ranges


def saturation(b, res):
    """Per quantized activation: (key, kind, fraction saturated, fraction of the range used)."""
    qmin, qmax = qrange(b.act)
    rows = []
    for k in b.keys:
        name = [o.name for o in b.outputs if o.name.startswith(k + "_quantized")]
        if not name:
            continue
        q = np.concatenate([r[name[0]].ravel() for r in res]).astype(np.int32)
        s, zp = b.qp[k]
        kind = b.kind.get(k, "")
        sat = (q == qmax)
        if zp != qmin:
            sat = sat | (q == qmin)
        span = max(qmax - zp, zp - qmin)
        used = np.abs(q - zp).max() / span
        rows.append((k, kind, float(sat.mean()), float(used)))
    return rows
