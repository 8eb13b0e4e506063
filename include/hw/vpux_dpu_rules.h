/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The DPU descriptor rules: what makes a struct vpux_hw_dpu_desc valid and
 * how many bytes and MACs a valid one touches. This is the one definition:
 * the model's DPU engine checks every descriptor it is started with
 * through it (vpux_dpu_extents(), ref/dpu_common.c) and the engine core
 * checks every descriptor it builds at submit through it
 * (firmware/dla_engine.c), so a task the core accepts is never refused by
 * the engine for its descriptor. Documentation/compute-ops.rst states the
 * rules in prose.
 *
 * Like vpux_regs.h it must stay includable from the kernel, from host user
 * space and from the freestanding firmware builds (32-bit x86, rv32): only
 * compiler-provided types, no library, no 64-bit division, no floating
 * point. Everything is static inline, so each user pays only for what it
 * reads (the engine core never reads the MACs).
 */
#ifndef VPUX_DPU_RULES_H
#define VPUX_DPU_RULES_H

#include "vpux_regs.h"

/*
 * Longest reduction a DPU op may have: (in_c / groups) * kernel_h *
 * kernel_w for CONV, in_c for MATMUL, kernel_h * kernel_w for pooling.
 * Every operand differs from its zero point by at most 255, so a dot
 * product of this length fits the DPU's 32-bit accumulator:
 * 32768 * 255 * 255 < 2^31. Longer descriptors fail validation.
 */
#define VPUX_DPU_MAX_K			32768u

/**
 * struct vpux_dpu_extents - bytes a DPU descriptor touches in each operand
 * @in: activations read
 * @in2: weights or second input read (0 if unused)
 * @bias: bias bytes read (0 unless VPUX_DPU_F_BIAS)
 * @quant: requant records read (0 unless VPUX_DPU_F_PER_CHANNEL)
 * @out: output bytes written
 * @macs: multiply-accumulates (or element operations) the op performs
 */
struct vpux_dpu_extents {
	__UINT64_TYPE__ in, in2, bias, quant, out;
	__UINT64_TYPE__ macs;
};

/**
 * enum vpux_dpu_rule - the descriptor rule a DPU descriptor breaks
 * @VPUX_DPU_RULE_OK: none, the descriptor is valid
 * @VPUX_DPU_RULE_OP: op is not a VPUX_DPU_OP_*
 * @VPUX_DPU_RULE_FLAGS: a flag outside VPUX_DPU_F_ALL or not used by the op
 *	in its mode (integer or FP16); SUB without VPUX_DPU_F_FP16;
 *	VPUX_DPU_F_SCALE with VPUX_DPU_F_PER_CHANNEL
 * @VPUX_DPU_RULE_RESERVED: reserved0 or reserved[] not zero (FP16: or
 *	f.zero0[] or f.zero1[])
 * @VPUX_DPU_RULE_SHAPE: a channel, height or width is zero
 * @VPUX_DPU_RULE_KERNEL: CONV/pooling: a kernel size, stride or dilation
 *	is zero; MATMUL/ADD/MUL: one of them is above 1
 * @VPUX_DPU_RULE_PAD: MATMUL/ADD/MUL: a padding is not zero
 * @VPUX_DPU_RULE_OUT_H: out_h differs from the window formula (or from
 *	in_h), or the dilated window does not fit the padded input
 * @VPUX_DPU_RULE_OUT_W: likewise for out_w
 * @VPUX_DPU_RULE_OUT_C: pooling/ADD/MUL: out_c differs from in_c
 * @VPUX_DPU_RULE_GROUPS: CONV: groups is zero or does not divide both
 *	channel counts; other ops: groups above 1
 * @VPUX_DPU_RULE_REDUCTION: the reduction length exceeds VPUX_DPU_MAX_K
 * @VPUX_DPU_RULE_IN_ZP: in_zp outside the input's 8-bit type
 * @VPUX_DPU_RULE_IN2_ZP: in2_zp outside the weights' (second input's)
 *	type, or not zero for pooling
 * @VPUX_DPU_RULE_OUT_ZP: out_zp outside the output's type
 * @VPUX_DPU_RULE_REQUANT: requant not a valid record, or not all zero
 *	with VPUX_DPU_F_PER_CHANNEL
 * @VPUX_DPU_RULE_IN_SCALE: ADD: in_scale not a valid record; other ops:
 *	not all zero
 * @VPUX_DPU_RULE_IN2_SCALE: likewise for in2_scale
 * @VPUX_DPU_RULE_ACT_MIN: act_min below the output's type or above act_max
 *	(FP16: clamp_lo a NaN or above clamp_hi with VPUX_DPU_ACT_CLAMP, not
 *	zero with another activation)
 * @VPUX_DPU_RULE_ACT_MAX: act_max above the output's type (FP16:
 *	clamp_hi a NaN with VPUX_DPU_ACT_CLAMP, not zero without it)
 * @VPUX_DPU_RULE_ACT: FP16: act is not a VPUX_DPU_ACT_*
 * @VPUX_DPU_RULE_SCALE: FP16: scale or shift is a NaN with
 *	VPUX_DPU_F_SCALE, or not zero without it
 * @VPUX_DPU_RULE_SLOPE: FP16: slope is a NaN with VPUX_DPU_ACT_LEAKY, or
 *	not zero with another activation
 * @VPUX_DPU_RULES: number of values
 */
enum vpux_dpu_rule {
	VPUX_DPU_RULE_OK = 0,
	VPUX_DPU_RULE_OP,
	VPUX_DPU_RULE_FLAGS,
	VPUX_DPU_RULE_RESERVED,
	VPUX_DPU_RULE_SHAPE,
	VPUX_DPU_RULE_KERNEL,
	VPUX_DPU_RULE_PAD,
	VPUX_DPU_RULE_OUT_H,
	VPUX_DPU_RULE_OUT_W,
	VPUX_DPU_RULE_OUT_C,
	VPUX_DPU_RULE_GROUPS,
	VPUX_DPU_RULE_REDUCTION,
	VPUX_DPU_RULE_IN_ZP,
	VPUX_DPU_RULE_IN2_ZP,
	VPUX_DPU_RULE_OUT_ZP,
	VPUX_DPU_RULE_REQUANT,
	VPUX_DPU_RULE_IN_SCALE,
	VPUX_DPU_RULE_IN2_SCALE,
	VPUX_DPU_RULE_ACT_MIN,
	VPUX_DPU_RULE_ACT_MAX,
	VPUX_DPU_RULE_ACT,
	VPUX_DPU_RULE_SCALE,
	VPUX_DPU_RULE_SLOPE,
	VPUX_DPU_RULES
};

/**
 * vpux_dpu_rule_field() - the descriptor field a rule is about
 * @r: a rule
 *
 * Return: a field name for messages ("shape" for a zero dimension,
 * "kernel" for the kernel, stride and dilation fields, "pad" for the
 * paddings, "reduction" for the reduction length); "?" if @r is unknown.
 */
static inline const char *vpux_dpu_rule_field(enum vpux_dpu_rule r)
{
	static const char *const field[VPUX_DPU_RULES] = {
		[VPUX_DPU_RULE_OK] = "none",
		[VPUX_DPU_RULE_OP] = "op",
		[VPUX_DPU_RULE_FLAGS] = "flags",
		[VPUX_DPU_RULE_RESERVED] = "reserved",
		[VPUX_DPU_RULE_SHAPE] = "shape",
		[VPUX_DPU_RULE_KERNEL] = "kernel",
		[VPUX_DPU_RULE_PAD] = "pad",
		[VPUX_DPU_RULE_OUT_H] = "out_h",
		[VPUX_DPU_RULE_OUT_W] = "out_w",
		[VPUX_DPU_RULE_OUT_C] = "out_c",
		[VPUX_DPU_RULE_GROUPS] = "groups",
		[VPUX_DPU_RULE_REDUCTION] = "reduction",
		[VPUX_DPU_RULE_IN_ZP] = "in_zp",
		[VPUX_DPU_RULE_IN2_ZP] = "in2_zp",
		[VPUX_DPU_RULE_OUT_ZP] = "out_zp",
		[VPUX_DPU_RULE_REQUANT] = "requant",
		[VPUX_DPU_RULE_IN_SCALE] = "in_scale",
		[VPUX_DPU_RULE_IN2_SCALE] = "in2_scale",
		[VPUX_DPU_RULE_ACT_MIN] = "act_min",
		[VPUX_DPU_RULE_ACT_MAX] = "act_max",
		[VPUX_DPU_RULE_ACT] = "act",
		[VPUX_DPU_RULE_SCALE] = "scale",
		[VPUX_DPU_RULE_SLOPE] = "slope",
	};

	return (__UINT32_TYPE__)r < VPUX_DPU_RULES ? field[r] : "?";
}

/* the integer flags and the flags of both modes */
#define VPUX_DPU_F_INT_ALL		0x3fu
#define VPUX_DPU_F_FP16_ANY		(VPUX_DPU_F_FP16 | VPUX_DPU_F_OUT_F32 | \
					 VPUX_DPU_F_PER_CHANNEL | \
					 VPUX_DPU_F_SCALE)

/* flags op @op (< VPUX_DPU_OPS) may carry in the mode @flags selects */
static inline __UINT32_TYPE__ vpux_dpu_op_flags(__UINT32_TYPE__ op,
						__UINT32_TYPE__ flags)
{
	if (flags & VPUX_DPU_F_FP16) {
		switch (op) {
		case VPUX_DPU_OP_CONV:
			return VPUX_DPU_F_FP16_ANY | VPUX_DPU_F_BIAS;
		case VPUX_DPU_OP_MATMUL:
			return VPUX_DPU_F_FP16_ANY | VPUX_DPU_F_BIAS |
			       VPUX_DPU_F_BATCH | VPUX_DPU_F_W_KN;
		case VPUX_DPU_OP_ADD:
		case VPUX_DPU_OP_SUB:
		case VPUX_DPU_OP_MUL:
			return VPUX_DPU_F_FP16_ANY | VPUX_DPU_F_BCAST_MASK;
		case VPUX_DPU_OP_AVGPOOL:
			return VPUX_DPU_F_FP16_ANY | VPUX_DPU_F_COUNT_PAD;
		default:
			return VPUX_DPU_F_FP16_ANY;
		}
	}
	switch (op) {
	case VPUX_DPU_OP_CONV:
	case VPUX_DPU_OP_MATMUL:
		return VPUX_DPU_F_INT_ALL;
	case VPUX_DPU_OP_ADD:
	case VPUX_DPU_OP_MUL:
		return VPUX_DPU_F_INT_ALL &
		       ~(VPUX_DPU_F_BIAS | VPUX_DPU_F_OUT_I32);
	case VPUX_DPU_OP_SUB:
		return 0;	/* FP16 only: any flag set is refused */
	default:
		return VPUX_DPU_F_IN_SIGNED | VPUX_DPU_F_OUT_SIGNED;
	}
}

/* CONV and pooling slide a window; MATMUL and ADD/SUB/MUL do not */
static inline int vpux_dpu_op_windowed(__UINT32_TYPE__ op)
{
	return op == VPUX_DPU_OP_CONV || op == VPUX_DPU_OP_MAXPOOL ||
	       op == VPUX_DPU_OP_AVGPOOL;
}

/* an FP32 bit pattern that is a NaN */
static inline int vpux_dpu_f32_nan(__UINT32_TYPE__ v)
{
	return (v & 0x7fffffffu) > 0x7f800000u;
}

/* FP32 a < b for non-NaN patterns (-0 == +0) */
static inline int vpux_dpu_f32_lt(__UINT32_TYPE__ a, __UINT32_TYPE__ b)
{
	__UINT32_TYPE__ ka = a >> 31 ? ~a : a | 0x80000000u;
	__UINT32_TYPE__ kb = b >> 31 ? ~b : b | 0x80000000u;

	if (!((a | b) & 0x7fffffffu))
		return 0;
	return ka < kb;
}

/*
 * 8-bit types: @v lies in int8 (-128..127) or uint8 (0..255) iff
 * (u32)@v + @bias <= 255, with @bias = 128 for int8, 0 for uint8.
 * vpux_dpu_q8_bias() gives the bias of the type flag @f in @flags.
 */
static inline __UINT32_TYPE__ vpux_dpu_q8_bias(__UINT32_TYPE__ flags,
					       __UINT32_TYPE__ f)
{
	return flags & f ? 128u : 0u;
}

static inline int vpux_dpu_q8_ok(__INT32_TYPE__ v, __UINT32_TYPE__ bias)
{
	return (__UINT32_TYPE__)v + bias <= 255u;
}

/**
 * vpux_dpu_requant_ok() - is @q a usable requant record
 * @q: record
 *
 * The rule of the descriptor's records and of every per-channel record the
 * engine reads at run time: mult > 0, shift in -31..31.
 *
 * Return: non-zero if valid.
 */
static inline int vpux_dpu_requant_ok(const struct vpux_hw_requant *q)
{
	return q->mult > 0 && (__UINT32_TYPE__)q->shift + 31u <= 62u;
}

/* an unused record: both words zero */
static inline int vpux_dpu_requant_zero(const struct vpux_hw_requant *q)
{
	return !(q->mult | q->shift);
}

/*
 * Output size of one window axis, 0 if the dilated window does not fit the
 * padded input (or a factor is 0). 32-bit arithmetic only: in + pads <
 * 2^18, dil * (k - 1) + 1 < 2^32.
 */
static inline __UINT32_TYPE__ vpux_dpu_out_dim(__UINT32_TYPE__ in,
					       __UINT32_TYPE__ k,
					       __UINT32_TYPE__ stride,
					       __UINT32_TYPE__ pad_a,
					       __UINT32_TYPE__ pad_b,
					       __UINT32_TYPE__ dil)
{
	__UINT32_TYPE__ padded = in + pad_a + pad_b, eff;

	if (!k || !stride || !dil)
		return 0;
	eff = dil * (k - 1) + 1;
	if (padded < eff)
		return 0;
	return (padded - eff) / stride + 1;
}

/* CONV, MAXPOOL, AVGPOOL: window geometry, groups, reduction length */
static inline enum vpux_dpu_rule
vpux_dpu_check_window(const struct vpux_hw_dpu_desc *d)
{
	__UINT32_TYPE__ k;

	if (!d->kernel_h || !d->kernel_w || !d->stride_h || !d->stride_w ||
	    !d->dilation_h || !d->dilation_w)
		return VPUX_DPU_RULE_KERNEL;
	if (d->out_h != vpux_dpu_out_dim(d->in_h, d->kernel_h, d->stride_h,
					 d->pad_top, d->pad_bottom,
					 d->dilation_h))
		return VPUX_DPU_RULE_OUT_H;
	if (d->out_w != vpux_dpu_out_dim(d->in_w, d->kernel_w, d->stride_w,
					 d->pad_left, d->pad_right,
					 d->dilation_w))
		return VPUX_DPU_RULE_OUT_W;
	k = (__UINT32_TYPE__)d->kernel_h * d->kernel_w;
	if (d->op != VPUX_DPU_OP_CONV) {
		if (d->groups > 1)
			return VPUX_DPU_RULE_GROUPS;
		if (d->out_c != d->in_c)
			return VPUX_DPU_RULE_OUT_C;
		return k > VPUX_DPU_MAX_K ? VPUX_DPU_RULE_REDUCTION :
					    VPUX_DPU_RULE_OK;
	}
	if (!d->groups || d->in_c % d->groups || d->out_c % d->groups)
		return VPUX_DPU_RULE_GROUPS;
	/* k < 2^32 and in_c / groups < 2^16: compare without overflow */
	if (k > VPUX_DPU_MAX_K ||
	    k * (__UINT32_TYPE__)(d->in_c / d->groups) > VPUX_DPU_MAX_K)
		return VPUX_DPU_RULE_REDUCTION;
	return VPUX_DPU_RULE_OK;
}

/* MATMUL, ADD, MUL: no window (fields 0 or 1), same rows and columns */
static inline enum vpux_dpu_rule
vpux_dpu_check_flat(const struct vpux_hw_dpu_desc *d)
{
	if ((d->kernel_h | d->kernel_w | d->stride_h | d->stride_w |
	     d->dilation_h | d->dilation_w) > 1)
		return VPUX_DPU_RULE_KERNEL;
	if (d->pad_top | d->pad_left | d->pad_bottom | d->pad_right)
		return VPUX_DPU_RULE_PAD;
	if (d->groups > 1)
		return VPUX_DPU_RULE_GROUPS;
	if (d->out_h != d->in_h)
		return VPUX_DPU_RULE_OUT_H;
	if (d->out_w != d->in_w)
		return VPUX_DPU_RULE_OUT_W;
	if (d->op == VPUX_DPU_OP_MATMUL)
		return d->in_c > VPUX_DPU_MAX_K ? VPUX_DPU_RULE_REDUCTION :
						  VPUX_DPU_RULE_OK;
	return d->out_c != d->in_c ? VPUX_DPU_RULE_OUT_C : VPUX_DPU_RULE_OK;
}

/* FP16: the output stage of struct vpux_hw_dpu_fparams */
static inline enum vpux_dpu_rule
vpux_dpu_check_float(const struct vpux_hw_dpu_desc *d)
{
	const struct vpux_hw_dpu_fparams *f = &d->f;

	if (f->act >= VPUX_DPU_ACTS)
		return VPUX_DPU_RULE_ACT;
	if (f->zero0[0] | f->zero0[1] | f->zero1[0] | f->zero1[1] |
	    f->zero1[2])
		return VPUX_DPU_RULE_RESERVED;
	if (f->act == VPUX_DPU_ACT_CLAMP) {
		if (vpux_dpu_f32_nan(f->clamp_lo) ||
		    (!vpux_dpu_f32_nan(f->clamp_hi) &&
		     vpux_dpu_f32_lt(f->clamp_hi, f->clamp_lo)))
			return VPUX_DPU_RULE_ACT_MIN;
		if (vpux_dpu_f32_nan(f->clamp_hi))
			return VPUX_DPU_RULE_ACT_MAX;
	} else {
		if (f->clamp_lo)
			return VPUX_DPU_RULE_ACT_MIN;
		if (f->clamp_hi)
			return VPUX_DPU_RULE_ACT_MAX;
	}
	if (d->flags & VPUX_DPU_F_SCALE ?
	    vpux_dpu_f32_nan(f->scale) || vpux_dpu_f32_nan(f->shift) :
	    f->scale || f->shift)
		return VPUX_DPU_RULE_SCALE;
	if (f->act == VPUX_DPU_ACT_LEAKY ? vpux_dpu_f32_nan(f->slope) :
					   f->slope != 0)
		return VPUX_DPU_RULE_SLOPE;
	return VPUX_DPU_RULE_OK;
}

/* FP16: per-channel records at quant (scale stage or slopes) */
static inline int vpux_dpu_fchan_used(const struct vpux_hw_dpu_desc *d)
{
	return (d->flags & VPUX_DPU_F_PER_CHANNEL) ||
	       d->f.act == VPUX_DPU_ACT_LEAKY_CH;
}

/* zero points, requant records, clamp range */
static inline enum vpux_dpu_rule
vpux_dpu_check_quant(const struct vpux_hw_dpu_desc *d)
{
	__UINT32_TYPE__ f = d->flags;
	__UINT32_TYPE__ out_b = vpux_dpu_q8_bias(f, VPUX_DPU_F_OUT_SIGNED);
	int add = d->op == VPUX_DPU_OP_ADD;

	if (f & VPUX_DPU_F_OUT_I32) {
		/* raw accumulators: no output stage, so none of its fields */
		if (!vpux_dpu_q8_ok(d->in_zp,
				    vpux_dpu_q8_bias(f, VPUX_DPU_F_IN_SIGNED)))
			return VPUX_DPU_RULE_IN_ZP;
		if (!vpux_dpu_q8_ok(d->in2_zp,
				    vpux_dpu_q8_bias(f, VPUX_DPU_F_W_SIGNED)))
			return VPUX_DPU_RULE_IN2_ZP;
		if (d->out_zp)
			return VPUX_DPU_RULE_OUT_ZP;
		if (!vpux_dpu_requant_zero(&d->requant))
			return VPUX_DPU_RULE_REQUANT;
		if (!vpux_dpu_requant_zero(&d->in_scale))
			return VPUX_DPU_RULE_IN_SCALE;
		if (!vpux_dpu_requant_zero(&d->in2_scale))
			return VPUX_DPU_RULE_IN2_SCALE;
		if (d->act_min)
			return VPUX_DPU_RULE_ACT_MIN;
		if (d->act_max)
			return VPUX_DPU_RULE_ACT_MAX;
		return VPUX_DPU_RULE_OK;
	}

	if (!vpux_dpu_q8_ok(d->in_zp, vpux_dpu_q8_bias(f, VPUX_DPU_F_IN_SIGNED)))
		return VPUX_DPU_RULE_IN_ZP;
	if (d->op == VPUX_DPU_OP_MAXPOOL || d->op == VPUX_DPU_OP_AVGPOOL ?
	    d->in2_zp != 0 :
	    !vpux_dpu_q8_ok(d->in2_zp, vpux_dpu_q8_bias(f, VPUX_DPU_F_W_SIGNED)))
		return VPUX_DPU_RULE_IN2_ZP;
	if (!vpux_dpu_q8_ok(d->out_zp, out_b))
		return VPUX_DPU_RULE_OUT_ZP;
	if (f & VPUX_DPU_F_PER_CHANNEL ? !vpux_dpu_requant_zero(&d->requant) :
					 !vpux_dpu_requant_ok(&d->requant))
		return VPUX_DPU_RULE_REQUANT;
	if (add ? !vpux_dpu_requant_ok(&d->in_scale) :
		  !vpux_dpu_requant_zero(&d->in_scale))
		return VPUX_DPU_RULE_IN_SCALE;
	if (add ? !vpux_dpu_requant_ok(&d->in2_scale) :
		  !vpux_dpu_requant_zero(&d->in2_scale))
		return VPUX_DPU_RULE_IN2_SCALE;
	if (!vpux_dpu_q8_ok(d->act_min, out_b) || d->act_min > d->act_max)
		return VPUX_DPU_RULE_ACT_MIN;
	if (!vpux_dpu_q8_ok(d->act_max, out_b))
		return VPUX_DPU_RULE_ACT_MAX;
	return VPUX_DPU_RULE_OK;
}

/* h * w * c of three 16-bit fields: < 2^48, 0 iff one of them is 0 */
static inline __UINT64_TYPE__ vpux_dpu_vol(__UINT32_TYPE__ h,
					   __UINT32_TYPE__ w,
					   __UINT32_TYPE__ c)
{
	return (__UINT64_TYPE__)(h * w) * c;
}

/* FP16 ADD/SUB/MUL: elements of in2 (the broadcast mode's shape) */
static inline __UINT64_TYPE__ vpux_dpu_bcast_elems(const struct vpux_hw_dpu_desc *d)
{
	switch ((d->flags & VPUX_DPU_F_BCAST_MASK) >> VPUX_DPU_F_BCAST_SHIFT) {
	case VPUX_DPU_BCAST_C:
		return d->in_c;
	case VPUX_DPU_BCAST_HW:
		return (__UINT64_TYPE__)d->in_h * d->in_w;
	case VPUX_DPU_BCAST_SCALAR:
		return 1;
	default:
		return vpux_dpu_vol(d->in_h, d->in_w, d->in_c);
	}
}

/*
 * The other operands' elements and the MACs of a valid descriptor
 * (vpux_dpu_check() turns elements into bytes).
 */
static inline void vpux_dpu_sizes(const struct vpux_hw_dpu_desc *d,
				  struct vpux_dpu_extents *ext)
{
	__UINT64_TYPE__ k;

	ext->bias = d->flags & VPUX_DPU_F_BIAS ? d->out_c : 0;
	ext->quant = d->flags & VPUX_DPU_F_FP16 ?
		     (vpux_dpu_fchan_used(d) ? d->out_c : 0) :
		     (d->flags & VPUX_DPU_F_PER_CHANNEL ? d->out_c : 0);
	switch (d->op) {
	case VPUX_DPU_OP_CONV:
		/* <= VPUX_DPU_MAX_K */
		k = (__UINT32_TYPE__)d->kernel_h * d->kernel_w *
		    (__UINT32_TYPE__)(d->in_c / d->groups);
		ext->in2 = k * d->out_c;
		ext->macs = ext->out * k;
		break;
	case VPUX_DPU_OP_MATMUL:
		ext->in2 = (__UINT64_TYPE__)d->out_c * d->in_c;
		if (d->flags & VPUX_DPU_F_BATCH)
			ext->in2 *= d->in_h;
		ext->macs = ext->out * d->in_c;
		break;
	case VPUX_DPU_OP_ADD:
	case VPUX_DPU_OP_SUB:
	case VPUX_DPU_OP_MUL:
		ext->in2 = vpux_dpu_bcast_elems(d);
		ext->macs = ext->out;
		break;
	default:
		ext->in2 = 0;
		ext->macs = ext->out * ((__UINT32_TYPE__)d->kernel_h *
					d->kernel_w);
		break;
	}
}

/**
 * vpux_dpu_check() - check a DPU descriptor against every rule
 * @d: the descriptor, as the engine latches it
 * @ext: filled with the operand bytes and MACs if @d is valid; untouched
 *	otherwise
 *
 * Checks, in this order: the op; the flags (within VPUX_DPU_F_ALL and
 * used by the op in its mode); the reserved fields; every dimension
 * non-zero; the op's geometry (window formula, groups, reduction length,
 * or no window for MATMUL/ADD/SUB/MUL); then for an integer op the zero
 * points within their types, the requant records and the clamp range,
 * for an FP16 op the activation, its clamp bounds, the scale stage and
 * the slope (vpux_dpu_check_float()). Per-channel requant records live
 * in memory and are not part of the descriptor: the engine checks them
 * when it reads them (vpux_dpu_requant_ok()); FP16 per-channel records
 * take any bits.
 *
 * Return: VPUX_DPU_RULE_OK, or the first rule @d breaks.
 */
static inline enum vpux_dpu_rule
vpux_dpu_check(const struct vpux_hw_dpu_desc *d, struct vpux_dpu_extents *ext)
{
	__UINT64_TYPE__ in, out;
	enum vpux_dpu_rule r;

	int fp16 = !!(d->flags & VPUX_DPU_F_FP16);

	if (d->op >= VPUX_DPU_OPS)
		return VPUX_DPU_RULE_OP;
	if (d->flags & ~vpux_dpu_op_flags(d->op, d->flags) ||
	    (d->op == VPUX_DPU_OP_SUB && !fp16))
		return VPUX_DPU_RULE_FLAGS;
	/* int32 output has no sign flag and no requant records */
	if (!fp16 && (d->flags & VPUX_DPU_F_OUT_I32) &&
	    (d->flags & (VPUX_DPU_F_OUT_SIGNED | VPUX_DPU_F_PER_CHANNEL)))
		return VPUX_DPU_RULE_FLAGS;
	/* one scale stage: per tensor or per channel */
	if (fp16 && (d->flags & VPUX_DPU_F_SCALE) &&
	    (d->flags & VPUX_DPU_F_PER_CHANNEL))
		return VPUX_DPU_RULE_FLAGS;
	if (d->reserved0 | d->reserved[0] | d->reserved[1])
		return VPUX_DPU_RULE_RESERVED;
	in = vpux_dpu_vol(d->in_h, d->in_w, d->in_c);
	out = vpux_dpu_vol(d->out_h, d->out_w, d->out_c);
	if (!in || !out)
		return VPUX_DPU_RULE_SHAPE;
	if (vpux_dpu_op_windowed(d->op))
		r = vpux_dpu_check_window(d);
	else
		r = vpux_dpu_check_flat(d);
	if (!r)
		r = fp16 ? vpux_dpu_check_float(d) : vpux_dpu_check_quant(d);
	if (r)
		return r;
	ext->in = in;
	ext->out = out;
	vpux_dpu_sizes(d, ext);
	/* elements to bytes */
	ext->bias *= 4;			/* int32 or FP32 */
	ext->quant *= fp16 ? sizeof(struct vpux_hw_dpu_fchan) :
			     sizeof(struct vpux_hw_requant);
	if (fp16) {
		ext->in *= 2;
		ext->in2 *= 2;
	}
	if (d->flags & VPUX_DPU_F_OUT_I32)	/* int32 or FP32 */
		ext->out = out * 4;
	else if (fp16)
		ext->out = out * 2;
	return VPUX_DPU_RULE_OK;
}

#endif /* VPUX_DPU_RULES_H */
