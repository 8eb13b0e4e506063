// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * DPU descriptor validation, operand extents, the cycle model and the
 * requantisation primitive. Documentation/compute-ops.rst states every rule
 * checked here; tests in sim/ops/tests/ break each one in turn.
 */
#include "vpux_ops_internal.h"

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

/* output size of one spatial axis, or 0 if the window does not fit */
static u32 dpu_out_dim(u32 in, u32 k, u32 stride, u32 pad_a, u32 pad_b,
		       u32 dil)
{
	u32 padded = in + pad_a + pad_b, eff;

	if (!k || !stride || !dil)
		return 0;
	eff = dil * (k - 1) + 1;	/* < 2^32: both factors < 2^16 */
	if (padded < eff)
		return 0;
	return (padded - eff) / stride + 1;
}

static bool dpu_zp_ok(s32 zp, bool is_signed)
{
	return zp >= vpux_q8_min(is_signed) && zp <= vpux_q8_max(is_signed);
}

static bool dpu_requant_zero(const struct vpux_hw_requant *q)
{
	return !q->mult && !q->shift;
}

static const u32 dpu_op_flags[VPUX_DPU_OPS] = {
	[VPUX_DPU_OP_CONV] = VPUX_DPU_F_ALL,
	[VPUX_DPU_OP_MATMUL] = VPUX_DPU_F_ALL,
	[VPUX_DPU_OP_ADD] = VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_W_SIGNED |
			    VPUX_DPU_F_OUT_SIGNED | VPUX_DPU_F_PER_CHANNEL,
	[VPUX_DPU_OP_MUL] = VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_W_SIGNED |
			    VPUX_DPU_F_OUT_SIGNED | VPUX_DPU_F_PER_CHANNEL,
	[VPUX_DPU_OP_MAXPOOL] = VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_OUT_SIGNED,
	[VPUX_DPU_OP_AVGPOOL] = VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_OUT_SIGNED,
};

/* MATMUL/ADD/MUL: window fields unused, must be 0 or 1; no padding */
static bool dpu_no_window(const struct vpux_hw_dpu_desc *d)
{
	return d->kernel_h <= 1 && d->kernel_w <= 1 && d->stride_h <= 1 &&
	       d->stride_w <= 1 && d->dilation_h <= 1 && d->dilation_w <= 1 &&
	       !d->pad_top && !d->pad_left && !d->pad_bottom && !d->pad_right;
}

static int dpu_check_shape(const struct vpux_hw_dpu_desc *d)
{
	u32 oh, ow, k;

	switch (d->op) {
	case VPUX_DPU_OP_CONV:
	case VPUX_DPU_OP_MAXPOOL:
	case VPUX_DPU_OP_AVGPOOL:
		oh = dpu_out_dim(d->in_h, d->kernel_h, d->stride_h, d->pad_top,
				 d->pad_bottom, d->dilation_h);
		ow = dpu_out_dim(d->in_w, d->kernel_w, d->stride_w, d->pad_left,
				 d->pad_right, d->dilation_w);
		if (!oh || !ow || oh != d->out_h || ow != d->out_w)
			return -1;
		k = (u32)d->kernel_h * d->kernel_w;
		if (d->op != VPUX_DPU_OP_CONV) {
			if (d->groups > 1 || d->out_c != d->in_c)
				return -1;
			return k <= VPUX_DPU_MAX_K ? 0 : -1;
		}
		if (!d->groups || d->in_c % d->groups || d->out_c % d->groups)
			return -1;
		if ((u64)k * (d->in_c / d->groups) > VPUX_DPU_MAX_K)
			return -1;
		return 0;
	case VPUX_DPU_OP_MATMUL:
		if (!dpu_no_window(d) || d->groups > 1 ||
		    d->out_h != d->in_h || d->out_w != d->in_w ||
		    d->in_c > VPUX_DPU_MAX_K)
			return -1;
		return 0;
	default: /* ADD, MUL */
		if (!dpu_no_window(d) || d->groups > 1 ||
		    d->out_h != d->in_h || d->out_w != d->in_w ||
		    d->out_c != d->in_c)
			return -1;
		return 0;
	}
}

/**
 * vpux_dpu_extents() - validate a DPU descriptor and size its operands
 * @d: descriptor as latched from the engine's PARAM registers
 * @ext: filled with the bytes read/written per operand and the MACs
 *
 * Checks the op, the flags (within VPUX_DPU_F_ALL and allowed for the op),
 * reserved fields, that every dimension is non-zero, the output shape
 * against the window formula, groups, the reduction length, zero points
 * within their types, the requant records and the clamp range.
 *
 * Return: 0, or VPUX_ERR(DESC) with @ext zeroed.
 */
int vpux_dpu_extents(const struct vpux_hw_dpu_desc *d,
		     struct vpux_dpu_extents *ext)
{
	bool in_s, w_s, out_s, pc, is_add;
	u64 ohw, k;

	memset(ext, 0, sizeof(*ext));
	if (d->op >= VPUX_DPU_OPS || (d->flags & ~VPUX_DPU_F_ALL) ||
	    (d->flags & ~dpu_op_flags[d->op]))
		return VPUX_ERR(DESC);
	if (d->reserved0 || d->reserved[0] || d->reserved[1])
		return VPUX_ERR(DESC);
	if (!d->in_c || !d->in_h || !d->in_w ||
	    !d->out_c || !d->out_h || !d->out_w)
		return VPUX_ERR(DESC);
	if (dpu_check_shape(d))
		return VPUX_ERR(DESC);

	in_s = d->flags & VPUX_DPU_F_IN_SIGNED;
	w_s = d->flags & VPUX_DPU_F_W_SIGNED;
	out_s = d->flags & VPUX_DPU_F_OUT_SIGNED;
	pc = d->flags & VPUX_DPU_F_PER_CHANNEL;
	is_add = d->op == VPUX_DPU_OP_ADD;

	if (!dpu_zp_ok(d->in_zp, in_s) || !dpu_zp_ok(d->out_zp, out_s))
		return VPUX_ERR(DESC);
	if (d->op == VPUX_DPU_OP_MAXPOOL || d->op == VPUX_DPU_OP_AVGPOOL) {
		if (d->in2_zp)
			return VPUX_ERR(DESC);
	} else if (!dpu_zp_ok(d->in2_zp, w_s)) {
		return VPUX_ERR(DESC);
	}
	if (pc ? !dpu_requant_zero(&d->requant) :
		 !vpux_requant_valid(&d->requant))
		return VPUX_ERR(DESC);
	if (is_add ? !vpux_requant_valid(&d->in_scale) ||
		     !vpux_requant_valid(&d->in2_scale) :
		     !dpu_requant_zero(&d->in_scale) ||
		     !dpu_requant_zero(&d->in2_scale))
		return VPUX_ERR(DESC);
	if (d->act_min > d->act_max || d->act_min < vpux_q8_min(out_s) ||
	    d->act_max > vpux_q8_max(out_s))
		return VPUX_ERR(DESC);

	ohw = (u64)d->out_h * d->out_w;
	ext->in = (u64)d->in_h * d->in_w * d->in_c;
	ext->out = ohw * d->out_c;
	if (d->flags & VPUX_DPU_F_BIAS)
		ext->bias = (u64)d->out_c * sizeof(s32);
	if (pc)
		ext->quant = (u64)d->out_c * sizeof(struct vpux_hw_requant);
	switch (d->op) {
	case VPUX_DPU_OP_CONV:
		k = (u64)d->kernel_h * d->kernel_w * (d->in_c / d->groups);
		ext->in2 = k * d->out_c;
		ext->macs = ext->out * k;
		break;
	case VPUX_DPU_OP_MATMUL:
		ext->in2 = (u64)d->out_c * d->in_c;
		ext->macs = ext->out * d->in_c;
		break;
	case VPUX_DPU_OP_ADD:
	case VPUX_DPU_OP_MUL:
		ext->in2 = ext->in;
		ext->macs = ext->out;
		break;
	default:
		ext->macs = ext->out * d->kernel_h * d->kernel_w;
		break;
	}
	return 0;
}

/**
 * vpux_dpu_cycles() - estimated engine cycles of a DPU descriptor
 * @d: descriptor
 *
 * VPUX_DPU_CYCLES_SETUP plus the larger of the compute time and the CMX
 * transfer time: CONV/MATMUL retire 256 MACs per cycle, ADD/MUL and pooling
 * 32 element operations per cycle, and every operand byte moves at 64 bytes
 * per cycle. An invalid descriptor costs the setup cycles only.
 *
 * Return: cycles.
 */
u64 vpux_dpu_cycles(const struct vpux_hw_dpu_desc *d)
{
	struct vpux_dpu_extents e;
	u64 compute, bytes;
	u32 sh;

	if (vpux_dpu_extents(d, &e))
		return VPUX_DPU_CYCLES_SETUP;
	sh = (d->op == VPUX_DPU_OP_CONV || d->op == VPUX_DPU_OP_MATMUL) ?
	     VPUX_DPU_MACS_PER_CYCLE_SHIFT : VPUX_DPU_ELEMS_PER_CYCLE_SHIFT;
	compute = (e.macs + (1u << sh) - 1) >> sh;
	bytes = e.in + e.in2 + e.bias + e.quant + e.out;
	bytes = (bytes + (1u << VPUX_DPU_BYTES_PER_CYCLE_SHIFT) - 1) >>
		VPUX_DPU_BYTES_PER_CYCLE_SHIFT;
	return VPUX_DPU_CYCLES_SETUP + (compute > bytes ? compute : bytes);
}

/**
 * vpux_dpu_check_operands() - check the operands handed to a run function
 * @d: validated descriptor
 * @o: operands
 *
 * The input and output must be present, the second input for every op but
 * pooling, the bias with VPUX_DPU_F_BIAS, and with VPUX_DPU_F_PER_CHANNEL
 * @d->out_c requant records, each with mult > 0 and shift in -31..31.
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
	if (!(d->flags & VPUX_DPU_F_PER_CHANNEL))
		return 0;
	if (!o->quant)
		return VPUX_ERR(DESC);
	for (c = 0; c < d->out_c; c++)
		if (!vpux_requant_valid(&o->quant[c]))
			return VPUX_ERR(DESC);
	return 0;
}
