#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""The conformance table of the ONNX backend tests (make node-table):
every test of libonnx-testdata's data/node, data/pytorch-converted and
data/pytorch-operator, run through `vpux-onnx test --rel-l2 1e-2
--no-cpu-fallback` when it is a float test, written as
Documentation/onnx-node-tests.rst.

    /usr/bin/python3 compiler/tests/node_table.py --vpux-onnx PATH
        [--data /usr/share/libonnx-testdata/data] [--out FILE.rst]
        [--passing FILE] [--jobs N] [SUITE/TEST...]

A float test: every graph input and output is a tensor, at least one
output is float32, and no input or output is of another floating-point
type (double, float16, bfloat16) or a string; integer and bool inputs
(indices, axes, conditions) may be there. It passes when every data set
passes: compiled whole for the NPU, every float output within relative
L2 error 1e-2 of the reference and no non-finite value where the
reference has none (Documentation/vpux-onnx.rst, test --rel-l2). A test
that does not pass gets the first line of its error (with the first
entry of a list the line announces). --passing FILE writes the passing
float tests, one SUITE/TEST a line (the form of
compiler/tests/node_tests_float.list).
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

import onnx
from onnx import TensorProto

SUITES = ['node', 'pytorch-converted', 'pytorch-operator']
TOL = 1e-2
OTHER_FLOATS = {TensorProto.DOUBLE, TensorProto.FLOAT16, TensorProto.BFLOAT16}


def classify(model_path):
    """None for a float test, else why it is not one"""
    try:
        m = onnx.load(model_path, load_external_data=False)
    except Exception as e:  # noqa: BLE001 - any parse error is a reason
        return 'model does not load: %s' % str(e).split('\n')[0][:80]
    others, float_out = set(), False
    for v in list(m.graph.input) + list(m.graph.output):
        kind = v.type.WhichOneof('value')
        if kind != 'tensor_type':
            others.add(kind.replace('_type', '') if kind else 'no type')
            continue
        et = v.type.tensor_type.elem_type
        if et in OTHER_FLOATS or et == TensorProto.STRING:
            others.add(TensorProto.DataType.Name(et).lower())
    for v in m.graph.output:
        if (v.type.WhichOneof('value') == 'tensor_type' and
                v.type.tensor_type.elem_type == TensorProto.FLOAT):
            float_out = True
    if others:
        return 'has %s inputs or outputs' % ', '.join(sorted(others))
    if not float_out:
        return 'no float32 output'
    return None


DATA = ''


def decisive(reason):
    lines = [l.strip() for l in reason.splitlines() if l.strip()]
    if not lines:
        return 'failed (no message)'
    s = lines[0]
    if s.endswith(':') and len(lines) > 1:
        s += ' ' + lines[1]
    if DATA:
        s = s.replace(DATA + '/', '')
    return s[:300]


def category(detail):
    """the kind of a failure, for the summary: the message without the
    node, the names and the files"""
    s = re.sub(r'^compile: \d+ unsupported nodes?: ', 'compile: ', detail)
    s = re.sub(r"^compile: \w+ '[^']*': ", 'compile: ', s)
    s = re.sub(r"^(compile|import): graph: ", r'\1: ', s)
    s = re.sub(r'\S+/\S+\.(pb|onnx): ', '', s)
    s = re.sub(r"'[^']*'", "'...'", s)
    s = re.sub(r'\b\d+\b', 'N', s)
    return s[:90]


def run_test(vpux_onnx, path, timeout):
    """(passed, detail)"""
    cmd = [vpux_onnx, 'test', '--json', '--rel-l2', str(TOL),
           '--no-cpu-fallback', path]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, 'timed out after %d s' % timeout
    try:
        d = json.loads(p.stdout)
    except ValueError:
        return False, 'vpux-onnx exited %d: %s' % (
            p.returncode, decisive(p.stderr or p.stdout))
    tests = d.get('tests', [])
    for t in tests:
        if not t.get('ok'):
            return False, decisive(t.get('reason', ''))
    if not tests:
        return False, 'no data set'
    rels = [t['rel_l2'] for t in tests if 'rel_l2' in t]
    n = '%d data set%s' % (len(tests), '' if len(tests) == 1 else 's')
    if not rels:    # quantized float outputs: their one-step rule
        return True, 'quantized outputs within one step (%s)' % n
    return True, 'relative L2 %.2g (%s)' % (max(rels), n)


def rst_text(s):
    out = []
    for ch in s:
        if ch in '\\*`|_[]<>':
            out.append('\\' + ch)
        else:
            out.append(ch)
    return ''.join(out)


def write_rst(path, rows, suites, elapsed):
    tot = collections.OrderedDict((s, collections.Counter()) for s in suites)
    for suite, _, cls, res, _ in rows:
        c = tot[suite]
        c['tests'] += 1
        if cls:
            c['not float'] += 1
        else:
            c['float'] += 1
            c['passed' if res else 'failed'] += 1
    why = collections.Counter()
    for _, _, cls, res, det in rows:
        if not cls and not res:
            why[category(det)] += 1
    all_c = sum(tot.values(), collections.Counter())
    L = []
    L.append('.. SPDX-License-Identifier: GPL-2.0-only OR MIT')
    L.append('')
    L.append('.. This file is generated by compiler/tests/node_table.py')
    L.append('   (make node-table): do not edit it by hand.')
    L.append('')
    L.append('=================================')
    L.append('ONNX backend tests: float tests')
    L.append('=================================')
    L.append('')
    L.append("Every test of Debian's ``libonnx-testdata``")
    L.append('(``/usr/share/libonnx-testdata/data/{%s}``), as' % ','.join(suites))
    L.append('``compiler/tests/node_table.py`` ran them (``make node-table``,')
    L.append('%.0f s). A *float test* has tensors only as graph inputs and outputs,' % elapsed)
    L.append('at least one float32 output and no other floating-point type')
    L.append('(double, float16, bfloat16) or string among them. Each float test')
    L.append('runs through ``vpux-onnx test --rel-l2 %g --no-cpu-fallback``' % TOL)
    L.append('(:doc:`vpux-onnx`): compiled whole for the NPU (no part on the')
    L.append('CPU), and on every data set each float output within relative L2')
    L.append('error %g of the reference, ``||y - ref|| / ||ref||``, with no' % TOL)
    L.append('non-finite value where the reference has none (the FP16 rule of')
    L.append(':doc:`float-models`). A test that does not pass shows the first')
    L.append("line of its error. ``make onnx-node-float-check`` (in ``make check``)")
    L.append('runs the float tests listed in ``compiler/tests/node_tests_float.list``.')
    L.append('')
    L.append('Totals')
    L.append('======')
    L.append('')
    L.append('.. list-table::')
    L.append('   :header-rows: 1')
    L.append('')
    L.append('   * - suite')
    for k in ['tests', 'float', 'passed', 'failed', 'not float']:
        L.append('     - %s' % k)
    for s, c in list(tot.items()) + [('all', all_c)]:
        L.append('   * - %s' % s)
        for k in ['tests', 'float', 'passed', 'failed', 'not float']:
            L.append('     - %d' % c[k])
    L.append('')
    if why:
        L.append('The float tests that fail, by kind of error (the names and numbers')
        L.append('of the messages left out):')
        L.append('')
        L.append('.. list-table::')
        L.append('   :header-rows: 1')
        L.append('')
        L.append('   * - tests')
        L.append('     - error')
        for w, n in why.most_common():
            L.append('   * - %d' % n)
            L.append('     - %s' % rst_text(w))
        L.append('')
    L.append('Float tests')
    L.append('===========')
    L.append('')
    L.append('.. list-table::')
    L.append('   :header-rows: 1')
    L.append('   :widths: 30 8 62')
    L.append('')
    L.append('   * - test')
    L.append('     - result')
    L.append('     - detail')
    for suite, name, cls, res, det in rows:
        if cls:
            continue
        L.append('   * - %s/%s' % (suite, rst_text(name)))
        L.append('     - %s' % ('passed' if res else 'failed'))
        L.append('     - %s' % rst_text(det))
    L.append('')
    L.append('Tests that are not float tests')
    L.append('==============================')
    L.append('')
    L.append('.. list-table::')
    L.append('   :header-rows: 1')
    L.append('   :widths: 40 60')
    L.append('')
    L.append('   * - test')
    L.append('     - why not')
    for suite, name, cls, _, _ in rows:
        if cls:
            L.append('   * - %s/%s' % (suite, rst_text(name)))
            L.append('     - %s' % rst_text(cls))
    L.append('')
    with open(path, 'w') as f:
        f.write('\n'.join(L))
    return all_c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--vpux-onnx', required=True)
    ap.add_argument('--data', default='/usr/share/libonnx-testdata/data')
    ap.add_argument('--out')
    ap.add_argument('--passing')
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--timeout', type=int, default=300)
    ap.add_argument('tests', nargs='*')
    a = ap.parse_args()
    global DATA
    DATA = a.data.rstrip('/')

    if a.tests:
        todo = [tuple(t.split('/', 1)) for t in a.tests]
    else:
        todo = [(s, t) for s in SUITES
                for t in sorted(os.listdir(os.path.join(a.data, s)))
                if os.path.isdir(os.path.join(a.data, s, t))]
    t0 = time.monotonic()
    classes = [classify(os.path.join(a.data, s, t, 'model.onnx'))
               for s, t in todo]
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        for (s, t), cls in zip(todo, classes):
            if cls is None:
                jobs[(s, t)] = ex.submit(run_test, a.vpux_onnx,
                                         os.path.join(a.data, s, t), a.timeout)
    rows = []
    for (s, t), cls in zip(todo, classes):
        res, det = jobs[(s, t)].result() if cls is None else (False, '')
        rows.append((s, t, cls, res, det))
    elapsed = time.monotonic() - t0
    suites = [s for s in SUITES if any(r[0] == s for r in rows)]
    suites += sorted({r[0] for r in rows} - set(suites))
    if a.out:
        c = write_rst(a.out, rows, suites, elapsed)
    else:
        for s, t, cls, res, det in rows:
            print('%-50s %s' % ('%s/%s' % (s, t),
                                'not float: ' + cls if cls else
                                ('passed: ' if res else 'failed: ') + det))
        c = collections.Counter()
        for _, _, cls, res, _ in rows:
            c['tests'] += 1
            c['not float' if cls else 'passed' if res else 'failed'] += 1
            c['float'] += cls is None
    if a.passing:
        with open(a.passing, 'w') as f:
            for s, t, cls, res, _ in rows:
                if cls is None and res:
                    f.write('%s/%s\n' % (s, t))
    print('node-table: %d tests, %d float: %d passed, %d failed; %d not '
          'float (%.0f s)%s' % (c['tests'], c['float'], c['passed'],
                                c['failed'], c['not float'], elapsed,
                                ', wrote ' + a.out if a.out else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
