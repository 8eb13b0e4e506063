#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Write the engine's copy of the reference runtime kernel
(sim/include/vpux_shave_rt_ref.h) from its image, runtime.bin (make rt-ref)."""
import sys

img = open(sys.argv[1], 'rb').read()
print("""/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The reference SHAVE runtime kernel's image (WIN_R, entry 0), as the
 * engine holds it: generated from kernels/runtime/runtime.c by
 * `make rt-ref` (kernels/runtime/rt_ref.py); do not edit.
 * sim_shave_elf_test checks it equals the SDK's build.
 */
#ifndef VPUX_SHAVE_RT_REF_H
#define VPUX_SHAVE_RT_REF_H

#define VPUX_SHAVE_RT_REF_ENTRY\t0u
#define VPUX_SHAVE_RT_REF_SIZE\t%uu

static const u8 vpux_shave_rt_ref[VPUX_SHAVE_RT_REF_SIZE] = {""" % len(img))
for i in range(0, len(img), 12):
    print("\t" + " ".join("0x%02x," % b for b in img[i:i + 12]))
print("""};

#endif /* VPUX_SHAVE_RT_REF_H */""")
