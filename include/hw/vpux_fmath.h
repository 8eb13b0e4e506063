/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * FP32 transcendental functions of the SHAVE engine: the one algorithm of
 * each, shared by every implementation of the FP16/FP32 kernels (the plain
 * references in ref/ and the NPU model's kernels in sim/ops/), so that all
 * of them give the same bits on every build (kernel, user space, 32-bit).
 *
 * Values travel as FP32 bit patterns (u32). Each function is a fixed
 * sequence of single-rounded soft-float operations of vpux_float.h (range
 * reduction, a polynomial with fixed FP32 coefficients evaluated by
 * Horner's rule, reconstruction), never the host's libm: the sequence is
 * written out in Documentation/compute-ops.rst ("FP16/FP32 kernels"),
 * and ref/shave_fmath.c is that text in code. A NaN result is the
 * canonical NaN. Accuracy against libm in double precision is measured by
 * sim/ops/tests/test_shave_f.c and stated in the document.
 */
#ifndef VPUX_FMATH_H
#define VPUX_FMATH_H

#include "vpux_float.h"

u32 vpux_fm_exp(u32 x);			/* e^x */
u32 vpux_fm_log(u32 x);			/* ln x */
u32 vpux_fm_tanh(u32 x);
u32 vpux_fm_sigmoid(u32 x);		/* 1 / (1 + e^-x) */
u32 vpux_fm_erf(u32 x);
u32 vpux_fm_erfc(u32 x);		/* 1 - erf(x) */
u32 vpux_fm_gelu_erf(u32 x);		/* x/2 (1 + erf(x / sqrt 2)) */
u32 vpux_fm_gelu_tanh(u32 x);		/* the tanh approximation */
u32 vpux_fm_pow(u32 x, u32 y);		/* x^y, C99 special cases */

/* floor(@x) as an integer, saturated to +-2^30; NaN gives 0 */
s32 vpux_fm_floor_s32(u32 x);

#endif /* VPUX_FMATH_H */
