#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""The float architectures against onnxruntime (make float-models-check;
Documentation/float-models.rst).

    /usr/bin/python3 compiler/models/float/check.py --vpux-onnx PATH
        [--expected FILE] [--device DEV] [--tol 1e-2] [--work DIR]
        MODELS_DIR [NAME...]

For each MODELS_DIR/NAME (model.onnx, test_data_set_N/input_K.pb and
onnxruntime's output_K.pb, made by export.py and tools/ort/ort-run.js):
compiles it with `vpux-onnx compile` to one loadable (with
--no-cpu-fallback when this vpux-onnx has it; a .vpuxl cannot hold a CPU
part either way), runs the loadable on each data set with `vpux-onnx
run` (--device, default in process) and judges every output by the FP16
rule: ||y - ref|| / ||ref|| <= tol over the elements where the reference
is finite, the others matched exactly (an overflow fails), the type and
shape the reference's.

Prints one line per model: PASS/FAIL, the compile time, per data set the
relative L2 error of each output, or the first line of the error. Then a
summary. Exit 1 when a model named in --expected (one name a line, #
comments) fails or does not exist; a model that passes without being
listed is reported, not an error.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import numpy_helper


def first_line(text, prefix_re=None):
    """The line that decides: the first non-empty line of an error, with
    vpux-onnx's "vpux-onnx: PATH: " prefix removed; a line that only
    announces a list ("N unsupported nodes:") gets the list's first
    entry appended."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    if not lines:
        return '(no message)'
    s = lines[0]
    if prefix_re:
        s = re.sub(prefix_re, '', s)
    if s.endswith(':') and len(lines) > 1:
        s += ' ' + lines[1]
    return s[:300]


def has_option(vpux_onnx, cmd, opt):
    """Does `vpux-onnx CMD` take OPT? It is asked with nothing else: an
    option it lacks is an "unknown option" error naming it."""
    p = subprocess.run([vpux_onnx, cmd, opt], capture_output=True,
                       text=True)
    return not re.search(r"unknown option '%s'" % re.escape(opt), p.stderr)


def read_pb(path):
    t = onnx.TensorProto()
    with open(path, 'rb') as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def rel_l2(y, ref):
    """(relative L2 error, why it fails or None) by the FP16 rule"""
    if y.dtype != ref.dtype or y.shape != ref.shape:
        return None, '%s%s, the reference is %s%s' % (
            y.dtype, list(y.shape), ref.dtype, list(ref.shape))
    if not np.issubdtype(ref.dtype, np.floating):
        d = np.abs(y.astype(np.int64) - ref.astype(np.int64))
        return 0.0, (None if d.size == 0 or d.max() <= 1 else
                     'integer output beyond 1 of the reference')
    y = y.astype(np.float64).ravel()
    ref = ref.astype(np.float64).ravel()
    fin = np.isfinite(ref)
    nf_ok = np.where(np.isnan(ref), np.isnan(y), y == ref)
    bad = np.flatnonzero((~fin & ~nf_ok) | (fin & ~np.isfinite(y)))
    d = y[fin] - ref[fin]
    num = float(np.sqrt(np.sum(d * d)))
    den = float(np.sqrt(np.sum(ref[fin] * ref[fin])))
    rel = num / den if den > 0 else (0.0 if num == 0 else float('inf'))
    if bad.size:
        i = bad[0]
        return rel, ('%d of %d elements non-finite where the reference is '
                     'not (or the reverse), first [%d] = %g, reference %g'
                     % (bad.size, y.size, i, y[i], ref[i]))
    return rel, None


def data_sets(d):
    sets = [e for e in os.listdir(d) if re.fullmatch(r'test_data_set_\d+', e)]
    return sorted(sets, key=lambda e: int(e.rsplit('_', 1)[1]))


def check_model(a, name, work, fallback_flag):
    d = os.path.join(a.models, name)
    lf = os.path.join(work, name + '.vpuxl')
    cmd = [a.vpux_onnx, 'compile', os.path.join(d, 'model.onnx'), '-o', lf]
    if fallback_flag:
        cmd.append('--no-cpu-fallback')
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=a.timeout)
        rc, err = p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        rc, err = -1, 'compile: timed out after %d s' % a.timeout
    ms = (time.monotonic() - t0) * 1e3
    prefix = r'^vpux-onnx: \S+: '
    if rc != 0:
        return False, 'compile %6.0f ms  FAIL: %s' % (ms, first_line(err, prefix))
    parts, ok = [], True
    run_ms = 0.0
    for s in data_sets(d):
        sd = os.path.join(d, s)
        od = os.path.join(work, name, s)
        os.makedirs(od, exist_ok=True)
        ins = sorted((f for f in os.listdir(sd) if re.fullmatch(r'input_\d+\.pb', f)),
                     key=lambda f: int(f[6:-3]))
        cmd = [a.vpux_onnx, 'run', lf, '--output-dir', od, '--device', a.device]
        for f in ins:
            cmd += ['--input', os.path.join(sd, f)]
        t1 = time.monotonic()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=a.timeout)
            rc, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            rc, err = -1, 'timed out after %d s' % a.timeout
        run_ms += (time.monotonic() - t1) * 1e3
        if rc != 0:
            ok = False
            parts.append('%s: run FAIL: %s' % (s[-5:], first_line(err, r'^vpux-onnx: [^ ]*: ')))
            break
        rels = []
        k = 0
        while os.path.exists(os.path.join(sd, 'output_%d.pb' % k)):
            ref = read_pb(os.path.join(sd, 'output_%d.pb' % k))
            got_f = os.path.join(od, 'output_%d.pb' % k)
            if not os.path.exists(got_f):
                ok = False
                rels.append('output %d missing' % k)
                break
            rel, why = rel_l2(read_pb(got_f), ref)
            if why is None and not rel <= a.tol:
                why = 'relative L2 error %.3g, more than %g' % (rel, a.tol)
            if why:
                ok = False
                rels.append('output %d: %s' % (k, why))
            else:
                rels.append('%.2e' % rel)
            k += 1
        if k == 0:
            ok = False
            rels.append('no output_0.pb reference')
        parts.append('set%s [%s]' % (s.rsplit('_', 1)[1], ', '.join(rels)))
    return ok, 'compile %6.0f ms  run %6.0f ms  rel_l2 %s%s' % (
        ms, run_ms, ' '.join(parts), '' if ok else '  FAIL')


def read_list(path):
    names = []
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.split('#', 1)[0].strip()
                if line:
                    names.append(line)
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--vpux-onnx', required=True)
    ap.add_argument('--expected')
    ap.add_argument('--device', default='inproc')
    ap.add_argument('--tol', type=float, default=1e-2)
    ap.add_argument('--timeout', type=int, default=600)
    ap.add_argument('--work')
    ap.add_argument('models')
    ap.add_argument('names', nargs='*')
    a = ap.parse_args()

    expected = read_list(a.expected)
    names = a.names or sorted(
        e for e in os.listdir(a.models)
        if os.path.exists(os.path.join(a.models, e, 'model.onnx')))
    if a.names:     # the expected ones among those asked for
        expected = [n for n in expected if n in names]
    missing = [n for n in expected if n not in names]
    fallback_flag = has_option(a.vpux_onnx, 'compile', '--no-cpu-fallback')
    work = a.work or tempfile.mkdtemp(prefix='vpux-float-')
    os.makedirs(work, exist_ok=True)
    print('float-models-check: rule relative L2 <= %g, no non-finite value '
          'where the reference is finite; device %s; compile%s' %
          (a.tol, a.device, ' --no-cpu-fallback' if fallback_flag else
           ' (this vpux-onnx has no --no-cpu-fallback: a .vpuxl holds no CPU part)'))
    passed, failed = [], []
    t0 = time.monotonic()
    for n in names:
        ok, line = check_model(a, n, work, fallback_flag)
        bounds = []
        for k in range(2):
            f = os.path.join(a.models, n, 'test_data_set_%d' % k,
                             'fp16_bound.txt')
            if os.path.exists(f):
                bounds.append(open(f).read().strip())
        if bounds:
            line += '  (FP16-storage bound %s)' % ' '.join(bounds)
        print('%-20s %s  %s' % (n, 'PASS' if ok else 'FAIL', line), flush=True)
        (passed if ok else failed).append(n)
    bad = [n for n in expected if n in failed] + missing
    new = [n for n in passed if n not in expected]
    print('float-models-check: %d models, %d pass, %d fail (%.0f s); '
          'expected to pass (%s): %d, %s' %
          (len(names), len(passed), len(failed), time.monotonic() - t0,
           os.path.basename(a.expected or '-'), len(expected),
           'failing: ' + ' '.join(bad) if bad else 'all pass'))
    for n in missing:
        print('float-models-check: %s is expected but there is no such model' % n)
    if new:
        print('float-models-check: passing now, not in the expected list '
              '(add them): %s' % ' '.join(new))
    if not a.work:
        subprocess.run(['rm', '-rf', work])
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
