#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Export float32 ONNX models of common architectures for the compiler's
float conformance check and benchmark (Documentation/float-models.rst).

    /usr/bin/python3 compiler/models/float/export.py [--set check|bench]
                     OUTDIR [NAME...]

Writes OUTDIR/NAME/model.onnx and OUTDIR/NAME/test_data_set_{0,1}/
input_0.pb (the ONNX backend-test layout); the references
(output_K.pb) are onnxruntime's, written afterwards by
tools/ort/ort-run.js. Prints one line per model (export time, ops,
output statistics) and writes OUTDIR/MANIFEST with the same lines.

Nothing is downloaded: the weights are torchvision's random
initialisation under torch.manual_seed, and every BatchNorm gets random
affine parameters (gamma in [0.5, 1.5], beta ~ N(0, 0.1)) and running
statistics measured on random data (a few forward passes in training
mode with a cumulative average, then eval()), so that the statistics
are non-trivial (not 0 and 1) and the activations stay in range through
deep networks, as they do in a trained one. The inputs are N(0, 1),
seeded per model and data set.

--set check (the default): the models of `make float-models-check`, at
small inputs (64x64; the ViT 32x32) to keep the check's time small.
--set bench: ResNet-50 at 224x224, batch 1, for `make bench`.
"""
import argparse
import copy
import hashlib
import inspect
import os
import sys
import time

import numpy as np

try:
    import torch
    import torch.nn as nn
    import torchvision
    from torchvision import models as tvm
    from onnx import numpy_helper
    import onnx
except ImportError as e:  # the Makefile prints this and skips
    sys.stderr.write('export.py: %s (apt-get install python3-torch '
                     'python3-torchvision python3-onnx)\n' % e)
    sys.exit(77)

OPSET = 17


class UNetSmall(nn.Module):
    """A small U-Net: two downsampling stages (Conv, BN, ReLU, MaxPool),
    upsampling by ConvTranspose and by Upsample (bilinear: Resize), skip
    connections by Concat, a 1x1 Conv head."""

    @staticmethod
    def block(cin, cout):
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    def __init__(self, classes=5):
        super().__init__()
        self.enc1 = self.block(3, 16)
        self.enc2 = self.block(16, 32)
        self.mid = self.block(32, 64)
        self.pool = nn.MaxPool2d(2)
        self.up2 = nn.ConvTranspose2d(64, 32, 2, stride=2)
        self.dec2 = self.block(64, 32)
        self.up1 = nn.Upsample(scale_factor=2, mode='bilinear',
                               align_corners=False)
        self.red1 = nn.Conv2d(32, 16, 1)
        self.dec1 = self.block(32, 16)
        self.head = nn.Conv2d(16, classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        m = self.mid(self.pool(e2))
        d2 = self.dec2(torch.cat([self.up2(m), e2], 1))
        d1 = self.dec1(torch.cat([self.red1(self.up1(d2)), e1], 1))
        return self.head(d1)


class OutOnly(nn.Module):
    """torchvision's segmentation models return {'out': ...}."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        return self.m(x)['out']


def vit_small():
    # torchvision's ViT (patch-embedding Conv, class token, position
    # embedding, pre-norm encoder blocks: LayerNorm, multi-head
    # attention, MLP with GELU; LayerNorm, Linear head), small dims
    # (torchvision starts the class token and the head at zero: random)
    from torchvision.models.vision_transformer import VisionTransformer
    m = VisionTransformer(image_size=32, patch_size=8, num_layers=2,
                          num_heads=4, hidden_dim=64, mlp_dim=128,
                          num_classes=10)
    with torch.no_grad():
        m.class_token.normal_(0, 0.5)
        nn.init.xavier_uniform_(m.heads.head.weight)
        m.heads.head.bias.normal_(0, 0.1)
    return m


def lraspp():
    return OutOnly(tvm.segmentation.lraspp_mobilenet_v3_large(
        weights=None, weights_backbone=None, num_classes=6))


# name -> (constructor, input shape)
CHECK = {
    'resnet18': (lambda: tvm.resnet18(weights=None), (1, 3, 64, 64)),
    'resnet50': (lambda: tvm.resnet50(weights=None), (1, 3, 64, 64)),
    'mobilenet_v2': (lambda: tvm.mobilenet_v2(weights=None), (1, 3, 64, 64)),
    'mobilenet_v3_small': (lambda: tvm.mobilenet_v3_small(weights=None),
                           (1, 3, 64, 64)),
    'efficientnet_b0': (lambda: tvm.efficientnet_b0(weights=None),
                        (1, 3, 64, 64)),
    'squeezenet1_1': (lambda: tvm.squeezenet1_1(weights=None), (1, 3, 64, 64)),
    'shufflenet_v2_x0_5': (lambda: tvm.shufflenet_v2_x0_5(weights=None),
                           (1, 3, 64, 64)),
    'densenet121': (lambda: tvm.densenet121(weights=None), (1, 3, 64, 64)),
    'regnet_x_400mf': (lambda: tvm.regnet_x_400mf(weights=None),
                       (1, 3, 64, 64)),
    'unet_small': (UNetSmall, (1, 3, 64, 64)),
    'lraspp_mobilenet_v3': (lraspp, (1, 3, 64, 64)),
    'vit_small': (vit_small, (1, 3, 32, 32)),
    'resnet18_b4': (lambda: tvm.resnet18(weights=None), (4, 3, 64, 64)),
    'convnext_tiny': (lambda: tvm.convnext_tiny(weights=None),
                      (1, 3, 64, 64)),
    'swin_t': (lambda: tvm.swin_t(weights=None), (1, 3, 64, 64)),
}

BENCH = {
    'resnet50_224': (lambda: tvm.resnet50(weights=None), (1, 3, 224, 224)),
}

SETS = 2


def seed_of(name, k=0):
    h = hashlib.sha256(('%s/%d' % (name, k)).encode()).digest()
    return int.from_bytes(h[:4], 'little')


def calibrate_bn(model, shape, seed):
    """Random BatchNorm affine parameters, running statistics measured on
    random data (cumulative average over a few batches), then eval()."""
    g = torch.Generator().manual_seed(seed)
    bns = [m for m in model.modules()
           if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    for m in bns:
        with torch.no_grad():
            if m.affine:
                m.weight.copy_(torch.rand(m.weight.shape, generator=g) + 0.5)
                m.bias.copy_(torch.randn(m.bias.shape, generator=g) * 0.1)
        m.reset_running_stats()
        m.momentum = None  # cumulative moving average
    if bns:
        model.train()
        batch = (max(shape[0], 4),) + tuple(shape[1:])
        with torch.no_grad():
            for _ in range(3):
                model(torch.randn(batch, generator=g))
    model.eval()
    return len(bns)


def export_kwargs():
    kw = dict(opset_version=OPSET, do_constant_folding=True,
              input_names=['input'], output_names=['output'])
    # torch >= 2.5 defaults to the dynamo exporter: ask for TorchScript's
    if 'dynamo' in inspect.signature(torch.onnx.export).parameters:
        kw['dynamo'] = False
    return kw


def fp16_bound(model, x, y):
    """The relative L2 error of an ideal FP16-storage run: the same model
    with every weight and every layer's output rounded to FP16 (nearest
    even), computed in float32 otherwise. What an FP16 NPU can reach at
    best, whatever its implementation (Documentation/float-models.rst)."""
    m = copy.deepcopy(model)
    r16 = lambda t: t.half().float()
    hooks = []
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(r16(p))
        for mod in m.modules():
            if not list(mod.children()):
                hooks.append(mod.register_forward_hook(
                    lambda _m, _i, o: r16(o) if torch.is_tensor(o) else o))
        e = m(r16(x))
    for h in hooks:
        h.remove()
    return float((e - y).norm() / y.norm())


def export_one(outdir, name, ctor, shape):
    t0 = time.monotonic()
    torch.manual_seed(seed_of(name))
    model = ctor()
    nbn = calibrate_bn(model, shape, seed_of(name, 100))
    d = os.path.join(outdir, name)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, 'model.onnx')
    x0 = torch.zeros(shape)
    # with grad enabled: nn.MultiheadAttention's inference fast path
    # (aten::_native_multi_head_attention, which has no ONNX export) is
    # taken only without it
    torch.onnx.export(model, x0, path, **export_kwargs())
    stats = []
    for k in range(SETS):
        g = torch.Generator().manual_seed(seed_of(name, k + 1))
        x = torch.randn(shape, generator=g)
        sd = os.path.join(d, 'test_data_set_%d' % k)
        os.makedirs(sd, exist_ok=True)
        t = numpy_helper.from_array(x.numpy().astype(np.float32), 'input')
        with open(os.path.join(sd, 'input_0.pb'), 'wb') as f:
            f.write(t.SerializeToString())
        with torch.no_grad():
            y = model(x)
        stats.append('set%d std %.3g max|y| %.3g fp16-bound %.3g' %
                     (k, float(y.std()), float(y.abs().max()),
                      fp16_bound(model, x, y)))
        with open(os.path.join(sd, 'fp16_bound.txt'), 'w') as f:
            f.write('%.6g\n' % fp16_bound(model, x, y))
    m = onnx.load(path)
    ops = sorted({n.op_type for n in m.graph.node})
    line = ('%-20s %-16s %5.1f s  %4d nodes, %3d BatchNorm calibrated, %s; ops: %s'
            % (name, 'x'.join(map(str, shape)), time.monotonic() - t0,
               len(m.graph.node), nbn, ', '.join(stats), ' '.join(ops)))
    print(line, flush=True)
    return line


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--set', choices=['check', 'bench'], default='check')
    ap.add_argument('outdir')
    ap.add_argument('names', nargs='*')
    a = ap.parse_args()
    table = CHECK if a.set == 'check' else BENCH
    names = a.names or list(table)
    for n in names:
        if n not in table:
            sys.stderr.write('export.py: unknown model %s (%s)\n' %
                             (n, ' '.join(table)))
            return 2
    torch.set_num_threads(1)
    os.makedirs(a.outdir, exist_ok=True)
    t0 = time.monotonic()
    lines = ['# torch %s, torchvision %s, opset %d' %
             (torch.__version__, torchvision.__version__, OPSET)]
    for n in names:
        ctor, shape = table[n]
        lines.append(export_one(a.outdir, n, ctor, shape))
    with open(os.path.join(a.outdir, 'MANIFEST'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('export.py: %d models in %.1f s' % (len(names),
                                              time.monotonic() - t0))
    return 0


if __name__ == '__main__':
    sys.exit(main())
