#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Train the Fashion-MNIST CNN with numpy, export it to ONNX and quantize it.

    /usr/bin/python3 compiler/models/fashion/train.py [--epochs N]
        [--weights FILE] [--out DIR]

Trains (fixed seed, numpy only, 4-7 minutes on two idle cores, the same
weights bit for bit when run again) on Debian's
dataset-fashion-mnist, keeps the weights in FILE (default
build/fashion/weights.npz; an existing FILE is reused instead of
retraining), then writes to DIR (default: this script's directory):

  fashion_float.onnx  the float model (input 1x1x28x28 in [0, 1], logits)
  ../fashion_qdq/     the same quantized, in the ONNX test layout like the
                      other test models: model.onnx (QDQ, int8 activations
                      calibrated on training images, int8 per-channel
                      weights) and test_data_set_0..2 (the first three test
                      images, onnxruntime's outputs); fashion_qdq.onnx
                      here is a symbolic link to its model.onnx
  ort_pred_float.u8   the same for fashion_float.onnx (compiled to FP16)
  ort_pred.u8         onnxruntime's class for each of the 10,000 test
                      images with fashion_qdq.onnx (one byte each)
  figures.txt         the accuracies of both models in onnxruntime (graph
                      optimizations off, as all references: see
                      tools/ort/ort-run.js)

The model: Conv 1->8 3x3 pad 1 + ReLU, MaxPool 2; Conv 8->16 3x3 pad 1
+ ReLU, MaxPool 2; Flatten; Gemm 784->64 + ReLU; Gemm 64->10 (logits).
"""
import argparse
import gzip
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import qbuild  # noqa: E402

DATASET = "/usr/share/datasets/fashion-mnist"
SEED = 20261126


def load_idx(name):
    with gzip.open(os.path.join(DATASET, name), "rb") as f:
        data = f.read()
    magic = int.from_bytes(data[0:4], "big")
    ndim = magic & 0xFF
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(data, np.uint8, offset=4 + 4 * ndim).reshape(dims)


def load(split):
    pre = "train" if split == "train" else "t10k"
    x = load_idx(pre + "-images-idx3-ubyte.gz").astype(np.float32) / 255.0
    y = load_idx(pre + "-labels-idx1-ubyte.gz").astype(np.int64)
    return x, y


# --- numpy CNN, activations NHWC inside ------------------------------------

def im2col(x, k, pad):
    """x [B,H,W,C] -> [B*H*W, C*k*k] (stride 1, 'same' output), order (c, ky, kx)."""
    b, h, w, c = x.shape
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    win = np.lib.stride_tricks.sliding_window_view(xp, (k, k), axis=(1, 2))
    return np.ascontiguousarray(win).reshape(b * h * w, c * k * k)


def col2im(dcols, shape, k, pad):
    b, h, w, c = shape
    d = dcols.reshape(b, h, w, c, k, k)
    dxp = np.zeros((b, h + 2 * pad, w + 2 * pad, c), np.float32)
    for ky in range(k):
        for kx in range(k):
            dxp[:, ky:ky + h, kx:kx + w, :] += d[..., ky, kx]
    return dxp[:, pad:pad + h, pad:pad + w, :]


def pool_fwd(x):
    b, h, w, c = x.shape
    r = x.reshape(b, h // 2, 2, w // 2, 2, c)
    y = r.max(axis=(2, 4))
    mask = r == y[:, :, None, :, None, :]
    return y, mask


def pool_bwd(dy, mask):
    b, h2, _, w2, _, c = mask.shape
    d = mask * dy[:, :, None, :, None, :]
    return d.reshape(b, h2 * 2, w2 * 2, c)


class Net:
    def __init__(self, rng):
        def he(shape, fan_in):
            return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        self.p = {
            "w1": he((8, 1, 3, 3), 9), "b1": np.zeros(8, np.float32),
            "w2": he((16, 8, 3, 3), 72), "b2": np.zeros(16, np.float32),
            "w3": he((64, 784), 784), "b3": np.zeros(64, np.float32),
            "w4": he((10, 64), 64), "b4": np.zeros(10, np.float32),
        }

    def forward(self, x):
        """x [B,28,28] -> logits [B,10], with the cache for backward."""
        p = self.p
        b = x.shape[0]
        c = {}
        x = x[..., None]
        c["x0"] = x
        c["col1"] = im2col(x, 3, 1)
        a1 = (c["col1"] @ p["w1"].reshape(8, -1).T + p["b1"]).reshape(b, 28, 28, 8)
        r1 = np.maximum(a1, 0)
        c["r1"] = r1
        p1, c["m1"] = pool_fwd(r1)
        c["p1"] = p1
        c["col2"] = im2col(p1, 3, 1)
        a2 = (c["col2"] @ p["w2"].reshape(16, -1).T + p["b2"]).reshape(b, 14, 14, 16)
        r2 = np.maximum(a2, 0)
        c["r2"] = r2
        p2, c["m2"] = pool_fwd(r2)
        f = p2.transpose(0, 3, 1, 2).reshape(b, -1)  # ONNX Flatten order (C, H, W)
        c["f"] = f
        a3 = f @ p["w3"].T + p["b3"]
        r3 = np.maximum(a3, 0)
        c["r3"] = r3
        return r3 @ p["w4"].T + p["b4"], c

    def backward(self, dlog, c):
        p = self.p
        g = {}
        b = dlog.shape[0]
        g["w4"] = dlog.T @ c["r3"]
        g["b4"] = dlog.sum(0)
        dr3 = dlog @ p["w4"]
        da3 = dr3 * (c["r3"] > 0)
        g["w3"] = da3.T @ c["f"]
        g["b3"] = da3.sum(0)
        df = da3 @ p["w3"]
        dp2 = df.reshape(b, 16, 7, 7).transpose(0, 2, 3, 1)
        dr2 = pool_bwd(dp2, c["m2"])
        da2 = (dr2 * (c["r2"] > 0)).reshape(-1, 16)
        g["w2"] = (da2.T @ c["col2"]).reshape(16, 8, 3, 3)
        g["b2"] = da2.sum(0)
        dcol2 = da2 @ p["w2"].reshape(16, -1)
        dp1 = col2im(dcol2, c["p1"].shape, 3, 1)
        dr1 = pool_bwd(dp1, c["m1"])
        da1 = (dr1 * (c["r1"] > 0)).reshape(-1, 8)
        g["w1"] = (da1.T @ c["col1"]).reshape(8, 1, 3, 3)
        g["b1"] = da1.sum(0)
        return g


def softmax_xent(logits, y):
    z = logits - logits.max(1, keepdims=True)
    e = np.exp(z)
    prob = e / e.sum(1, keepdims=True)
    loss = -np.log(prob[np.arange(len(y)), y] + 1e-12).mean()
    d = prob
    d[np.arange(len(y)), y] -= 1
    return loss, d / len(y)


def accuracy(net, x, y, bs=500):
    ok = 0
    for i in range(0, len(x), bs):
        logits, _ = net.forward(x[i:i + bs])
        ok += int((logits.argmax(1) == y[i:i + bs]).sum())
    return ok / len(x)


def train(epochs, log):
    rng = np.random.default_rng(SEED)
    xtr, ytr = load("train")
    xte, yte = load("test")
    net = Net(rng)
    m = {k: np.zeros_like(v) for k, v in net.p.items()}
    v = {k: np.zeros_like(v) for k, v in net.p.items()}
    lr, b1, b2, eps, bs, t = 2e-3, 0.9, 0.999, 1e-8, 64, 0
    for ep in range(epochs):
        perm = rng.permutation(len(xtr))
        t0 = time.time()
        tot = 0.0
        rate = lr * (0.5 ** ep)
        for i in range(0, len(xtr) - bs + 1, bs):
            idx = perm[i:i + bs]
            logits, cache = net.forward(xtr[idx])
            loss, d = softmax_xent(logits, ytr[idx])
            tot += loss
            g = net.backward(d.astype(np.float32), cache)
            t += 1
            for k in net.p:
                m[k] = b1 * m[k] + (1 - b1) * g[k]
                v[k] = b2 * v[k] + (1 - b2) * g[k] * g[k]
                mh = m[k] / (1 - b1 ** t)
                vh = v[k] / (1 - b2 ** t)
                net.p[k] -= (rate * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        acc = accuracy(net, xte, yte)
        log(f"epoch {ep + 1}/{epochs}: loss {tot / (len(xtr) // bs):.4f}, "
            f"test accuracy {100 * acc:.2f}% ({time.time() - t0:.0f} s)")
    return net.p


# --- ONNX export, quantization, onnxruntime's figures ---------------------

def family(p):
    def fashion(b):
        x = b.input("input", [1, 1, 28, 28], (0.0, 1.0))
        x = b.conv(x, "conv1", p["w1"], p["b1"], pad=1, act="relu")     # 8x28x28
        x = b.maxpool(x, "pool1", 2)                                    # 8x14x14
        x = b.conv(x, "conv2", p["w2"], p["b2"], pad=1, act="relu")     # 16x14x14
        x = b.maxpool(x, "pool2", 2)                                    # 16x7x7
        x = b.flatten(x, "flatten")                                     # 784
        x = b.gemm(x, "fc1", p["w3"], p["b3"], act="relu")              # 64
        return b.gemm(x, "fc2", p["w4"], p["b4"])                       # 10 logits
    return fashion


N_CALIB = 1000   # training images the activations are calibrated on
N_SETS = 3       # test images written as ONNX test data
ORT_VERSION = qbuild.ort_version()


def export(p, out, log):
    fam = family(p)
    xtr, _ = load("train")
    xte, yte = load("test")
    rng = np.random.default_rng(SEED + 1)
    calib = [xtr[i][None, None] for i in rng.choice(len(xtr), N_CALIB, replace=False)]
    fmodel, ranges = qbuild.calibrate(fam, "fashion", calib, [1, 10])
    b = qbuild.Builder("fashion", "qdq", ranges, act=np.int8, wtype=np.int8, per_channel=True)
    qmodel = b.finish(fam(b), out_shape=[1, 10])
    fpath = os.path.join(out, "fashion_float.onnx")
    qdir = os.path.join(os.path.dirname(out), "fashion_qdq")
    qpath = os.path.join(qdir, "model.onnx")
    os.makedirs(qdir, exist_ok=True)
    qbuild.onnx.save(fmodel, fpath)
    qbuild.onnx.save(qmodel, qpath)
    link = os.path.join(out, "fashion_qdq.onnx")
    if not os.path.islink(link):
        os.symlink(os.path.join("..", "fashion_qdq", "model.onnx"), link)
    log(f"wrote {fpath}, {qpath}")

    x = xte[:, None]
    flog = qbuild.ort_run_raw(fpath, x)
    qlog = qbuild.ort_run_raw(qpath, x)
    fpred = flog.argmax(1)
    qpred = qlog.argmax(1)  # the first of equal maxima
    facc = float((fpred == yte).mean())
    qacc = float((qpred == yte).mean())
    # for information: onnxruntime with its graph optimizations, i.e. its
    # own integer kernels (see tools/ort/ort-run.js)
    os.environ["ORT_OPT"] = "all"
    oacc = float((qbuild.ort_run_raw(qpath, x).argmax(1) == yte).mean())
    del os.environ["ORT_OPT"]
    qpred.astype(np.uint8).tofile(os.path.join(out, "ort_pred.u8"))
    fpred.astype(np.uint8).tofile(os.path.join(out, "ort_pred_float.u8"))
    # the numpy model's own accuracy, as a check of the export
    net = Net(np.random.default_rng(0))
    net.p = p
    nacc = accuracy(net, xte, yte)

    for i in range(N_SETS):
        sd = os.path.join(qdir, f"test_data_set_{i}")
        os.makedirs(sd, exist_ok=True)
        qbuild.write_pb(os.path.join(sd, "input_0.pb"), xte[i][None, None], "input")
    qbuild.ort_run_dir(qpath, qdir)

    lines = [
        "# written by train.py: accuracy on the 10,000 Fashion-MNIST test images",
        f"float model (numpy)          {100 * nacc:.2f}%",
        f"fashion_float.onnx (ORT)     {100 * facc:.2f}%",
        f"fashion_qdq.onnx (ORT)       {100 * qacc:.2f}%",
        f"quantized vs float: same class for {int((qpred == fpred).sum())} of {len(x)} images",
        f"fashion_qdq.onnx (ORT_OPT=all) {100 * oacc:.2f}%  (onnxruntime's fused integer kernels: "
        "inexact on x86 without VNNI, not the reference)",
        f"onnxruntime-node {ORT_VERSION}, graph optimizations off; {N_CALIB} training images for calibration",
    ]
    with open(os.path.join(out, "figures.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    for ln in lines[1:]:
        log(ln)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--weights", default=None)
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--train-only", action="store_true")
    a = ap.parse_args()
    top = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
    wfile = a.weights or os.path.join(top, "build", "fashion", "weights.npz")

    def log(msg):
        print("train: " + msg, flush=True)

    if os.path.exists(wfile):
        log(f"reusing {wfile}")
        p = dict(np.load(wfile))
    else:
        p = train(a.epochs, log)
        os.makedirs(os.path.dirname(wfile), exist_ok=True)
        np.savez(wfile, **p)
        log(f"weights in {wfile}")
    if a.train_only:
        return
    export(p, a.out, log)


if __name__ == "__main__":
    main()
