#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""make bench: ResNet-50, float32, 224x224, batch 1 -- vpux in process
against onnxruntime float32 on one thread, in the same run
(Documentation/float-models.rst).

    /usr/bin/python3 compiler/models/float/bench.py --vpux-onnx PATH
        --ort-run tools/ort/ort-run.js MODEL_DIR

MODEL_DIR is export.py --set bench's resnet50_224 (model.onnx,
test_data_set_0 with onnxruntime's output). compile_ms: the median wall
time of `vpux-onnx compile` (with --no-cpu-fallback when it has it; the
process, import, compile and write), 3 compiles. resnet50_ms: the median
of 3 `vpux-onnx run --json` host times (the execution on the in-process
device). ort_resnet50_ms: onnxruntime-node's median run (ort-run.js
--bench, intraOpNumThreads 1, all graph optimizations). The last line is
for programs:

    bench-models-float: resnet50_ms=... ort_resnet50_ms=... ratio=... compile_ms=...

While the compiler cannot compile the model (or run it), the last line is
"bench-models-float: skipped (why)" and the exit status 0.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import first_line, has_option, read_pb, rel_l2  # noqa: E402


def skip(why):
    print('bench-models-float: skipped (%s)' % why)
    sys.exit(0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--vpux-onnx', required=True)
    ap.add_argument('--ort-run', required=True)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('model_dir')
    a = ap.parse_args()
    model = os.path.join(a.model_dir, 'model.onnx')
    sd = os.path.join(a.model_dir, 'test_data_set_0')
    if not os.path.exists(model):
        skip('no %s' % model)

    # onnxruntime first: its figure is there even when vpux cannot compile
    env = dict(os.environ, ORT_OPT='all')
    p = subprocess.run(['node', a.ort_run, '--bench', model, a.model_dir],
                       capture_output=True, text=True, env=env)
    m = re.search(r'median_ms=([0-9.]+)', p.stdout)
    if p.returncode or not m:
        skip('onnxruntime: %s' % first_line(p.stderr + p.stdout))
    ort_ms = float(m.group(1))
    print('onnxruntime float32, 1 thread: %s' % p.stdout.strip())

    work = tempfile.mkdtemp(prefix='vpux-bench-float-')
    try:
        lf = os.path.join(work, 'resnet50.vpuxl')
        cmd = [a.vpux_onnx, 'compile', model, '-o', lf]
        if has_option(a.vpux_onnx, 'compile', '--no-cpu-fallback'):
            cmd.append('--no-cpu-fallback')
        tc = []
        for _ in range(a.runs):
            t0 = time.monotonic()
            p = subprocess.run(cmd, capture_output=True, text=True)
            tc.append((time.monotonic() - t0) * 1e3)
            if p.returncode:
                skip('ort_resnet50_ms=%.1f; vpux-onnx compile: %s' %
                     (ort_ms, first_line(p.stderr, r'^vpux-onnx: \S+: ')))
        tr = []
        for _ in range(a.runs):
            p = subprocess.run([a.vpux_onnx, 'run', lf, '--json', '--output-dir',
                                work, '--input', os.path.join(sd, 'input_0.pb')],
                               capture_output=True, text=True)
            if p.returncode:
                skip('ort_resnet50_ms=%.1f; vpux-onnx run: %s' %
                     (ort_ms, first_line(p.stderr, r'^vpux-onnx: \S+: ')))
            tr.append(json.loads(p.stdout)['time_us'] / 1e3)
        rel, why = rel_l2(read_pb(os.path.join(work, 'output_0.pb')),
                          read_pb(os.path.join(sd, 'output_0.pb')))
        print('vpux in process: runs %s ms; compiles %s ms; output vs '
              'onnxruntime: relative L2 %s' %
              (' '.join('%.1f' % t for t in tr),
               ' '.join('%.0f' % t for t in tc),
               why or '%.3g' % rel))
    finally:
        subprocess.run(['rm', '-rf', work])
    vpux_ms = statistics.median(tr)
    print('bench-models-float: resnet50_ms=%.1f ort_resnet50_ms=%.1f '
          'ratio=%.2f compile_ms=%.0f' % (vpux_ms, ort_ms, vpux_ms / ort_ms,
                                          statistics.median(tc)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
