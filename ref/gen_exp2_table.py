#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Regenerate vpux_exp2_q30[] in ref/shave_common.c:
# entry i = round(2^30 * 2^(-i/256)), i = 0..256. Build-time only; the
# kernels never use floating point.
v = [round(2**30 * 2**(-i / 256)) for i in range(257)]
for i in range(0, 257, 6):
    print('\t' + ', '.join('%du' % x for x in v[i:i + 6]) + ',')
