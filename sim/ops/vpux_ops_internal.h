/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Helpers shared by the optimised kernels (sim/ops/) and the plain
 * references (sim/ref/): descriptor decoding, integer ranges, and the
 * fixed-point math that defines the numerics. Anything here is part of the
 * definition of an op, so both implementations must use it.
 */
#ifndef VPUX_OPS_INTERNAL_H
#define VPUX_OPS_INTERNAL_H

#include "vpux_ops.h"

#ifndef fallthrough
#define fallthrough	__attribute__((__fallthrough__))
#endif

#define VPUX_S32_MAX	((s32)0x7fffffff)
#define VPUX_S32_MIN	(-VPUX_S32_MAX - 1)

/* inclusive range of an 8-bit type: signed int8 or uint8 */
static inline s32 vpux_q8_min(bool is_signed)
{
	return is_signed ? -128 : 0;
}

static inline s32 vpux_q8_max(bool is_signed)
{
	return is_signed ? 127 : 255;
}

static inline s32 vpux_clamp_s64(s64 v, s32 lo, s32 hi)
{
	return v < lo ? lo : v > hi ? hi : (s32)v;
}

/* load element @i of an 8-bit tensor as a signed value */
static inline s32 vpux_ld8(const void *p, size_t i, bool is_signed)
{
	return is_signed ? (s32)((const s8 *)p)[i] : (s32)((const u8 *)p)[i];
}

/* requant record check shared by descriptor and per-channel validation */
static inline bool vpux_requant_valid(const struct vpux_hw_requant *q)
{
	return q->mult > 0 && q->shift >= -31 && q->shift <= 31;
}

/*
 * Final output stage of every DPU op: requantise @acc, add the output zero
 * point, clamp to [act_min, act_max] (already inside the output type).
 */
static inline s32 vpux_dpu_output(s64 acc, const struct vpux_hw_requant *q,
				  const struct vpux_hw_dpu_desc *d)
{
	return vpux_clamp_s64((s64)vpux_requant(acc, q) + d->out_zp,
			      d->act_min, d->act_max);
}

/* Round-half-away-from-zero quotient of @num by @den > 0 (32-bit only). */
static inline s32 vpux_div_round(s32 num, s32 den)
{
	if (num >= 0)
		return (num + den / 2) / den;
	return -((-num + den / 2) / den);
}

/*
 * Operand pointers present for the op and per-channel requant records
 * valid? -VPUX_ENG_ERR_DESC if not.
 */
int vpux_dpu_check_operands(const struct vpux_hw_dpu_desc *d,
			    const struct vpux_dpu_operands *o);

#endif /* VPUX_OPS_INTERNAL_H */
