// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * What every implementation of the DPU ops shares because it is part of
 * their definition: descriptor validation (a wrapper of the shared rule in
 * include/hw/vpux_dpu_rules.h), the run-time check of the operands and the
 * requantisation primitive. Documentation/compute-ops.rst states every
 * rule; the NPU model's kernel tests break each one in turn.
 */
#include "vpux_hw_ops_internal.h"

/**
 * vpux_requant() - fixed-point requantisation used by every op
 * @acc: accumulator (or rescaled operand)
 * @q: Q31 multiplier and right shift; @q->mult > 0, -31 <= @q->shift <= 31
 *
 * The accumulator is first saturated to int32 (the DPU accumulator is 32
 * bits wide). With n = 31 + shift (0..62) the result is
 * floor((acc * mult + 2^(n-1)) / 2^n), i.e. acc * mult / 2^n rounded to
 * nearest with ties towards +infinity, computed exactly in 64 bits and
 * saturated to int32. One rounding, no intermediate truncation.
 *
 * Return: the requantised value (zero point not yet added).
 */
s32 vpux_requant(s64 acc, const struct vpux_hw_requant *q)
{
	s32 shift = q->shift;
	s64 a, p;
	u32 n;

	/* out-of-range records are rejected earlier; stay defined anyway */
	if (shift < -31)
		shift = -31;
	if (shift > 31)
		shift = 31;
	n = (u32)(31 + shift);
	a = acc < VPUX_S32_MIN ? VPUX_S32_MIN :
	    acc > VPUX_S32_MAX ? VPUX_S32_MAX : acc;
	p = a * (s64)q->mult;		/* |p| <= 2^62 */
	if (n)
		p = (p + ((s64)1 << (n - 1))) >> n;
	return vpux_clamp_s64(p, VPUX_S32_MIN, VPUX_S32_MAX);
}

/**
 * vpux_dpu_extents() - validate a DPU descriptor and size its operands
 * @d: descriptor as latched from the engine's PARAM registers
 * @ext: filled with the bytes read/written per operand and the MACs
 *
 * The engine's side of the one DPU descriptor rule, vpux_dpu_check() in
 * vpux_dpu_rules.h, which the engine core applies to every descriptor it
 * builds: the op, the flags, reserved fields, non-zero dimensions, the
 * output shape against the window formula, groups, the reduction length,
 * zero points within their types, the requant records and the clamp range.
 *
 * Return: 0, or VPUX_ERR(DESC) with @ext zeroed.
 */
int vpux_dpu_extents(const struct vpux_hw_dpu_desc *d,
		     struct vpux_dpu_extents *ext)
{
	memset(ext, 0, sizeof(*ext));
	return vpux_dpu_check(d, ext) ? VPUX_ERR(DESC) : 0;
}

/**
 * vpux_dpu_check_operands() - check the operands handed to a run function
 * @d: validated descriptor
 * @o: operands
 *
 * The input and output must be present, the second input for every op but
 * pooling, the bias with VPUX_DPU_F_BIAS, and with VPUX_DPU_F_PER_CHANNEL
 * @d->out_c requant records, each with mult > 0 and shift in -31..31. An
 * FP16 op's per-channel records (VPUX_DPU_F_PER_CHANNEL or
 * VPUX_DPU_ACT_LEAKY_CH) must be present and take any bits.
 *
 * Return: 0, or VPUX_ERR(DESC).
 */
int vpux_dpu_check_operands(const struct vpux_hw_dpu_desc *d,
			    const struct vpux_dpu_operands *o)
{
	u32 c;

	if (!o->in || !o->out)
		return VPUX_ERR(DESC);
	if (!o->in2 && d->op != VPUX_DPU_OP_MAXPOOL &&
	    d->op != VPUX_DPU_OP_AVGPOOL)
		return VPUX_ERR(DESC);
	if ((d->flags & VPUX_DPU_F_BIAS) && !o->bias)
		return VPUX_ERR(DESC);
	if (d->flags & VPUX_DPU_F_FP16)
		return vpux_dpu_fchan_used(d) && !o->quant ? VPUX_ERR(DESC) : 0;
	if (!(d->flags & VPUX_DPU_F_PER_CHANNEL))
		return 0;
	if (!o->quant)
		return VPUX_ERR(DESC);
	for (c = 0; c < d->out_c; c++)
		if (!vpux_requant_valid(&o->quant[c]))
			return VPUX_ERR(DESC);
	return 0;
}
