/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Helpers shared by the plain references (ref/) and every other
 * implementation of the ops (the NPU model's optimised kernels):
 * descriptor decoding, integer ranges, and the fixed-point math that
 * defines the numerics. Anything here is part of the definition of an op,
 * so all implementations must use it. Not for the callers of the kernels:
 * they need only vpux_hw_ops.h.
 */
#ifndef VPUX_HW_OPS_INTERNAL_H
#define VPUX_HW_OPS_INTERNAL_H

#include "vpux_hw_ops.h"
#include "vpux_shave_abi.h"
#include "vpux_float.h"
#include "vpux_fmath.h"

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
	return vpux_dpu_requant_ok(q);
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

/*
 * Store one output element of a DPU op: the output stage into an 8-bit
 * element, or (VPUX_DPU_F_OUT_I32) the saturated accumulator as a little
 * endian int32, byte by byte (operands need not be aligned).
 */
static inline void vpux_dpu_store(const struct vpux_hw_dpu_desc *d,
				  void *out, size_t idx, s64 acc,
				  const struct vpux_hw_requant *q)
{
	if (d->flags & VPUX_DPU_F_OUT_I32) {
		u32 v = (u32)vpux_clamp_s64(acc, -2147483647 - 1, 2147483647);
		u8 *p = (u8 *)out + idx * 4;

		p[0] = (u8)v;
		p[1] = (u8)(v >> 8);
		p[2] = (u8)(v >> 16);
		p[3] = (u8)(v >> 24);
	} else if (d->flags & VPUX_DPU_F_OUT_SIGNED) {
		((s8 *)out)[idx] = (s8)vpux_dpu_output(acc, q, d);
	} else {
		((u8 *)out)[idx] = (u8)vpux_dpu_output(acc, q, d);
	}
}

/* ---- FP16 ops (VPUX_DPU_F_FP16): loads, output stage, stores ---- */

/* FP16 element @i of @p as FP32 (little endian, any alignment) */
static inline u32 vpux_ld_f16(const void *p, size_t i)
{
	const u8 *b = (const u8 *)p + 2 * i;

	return vpux_f16_to_f32((u16)(b[0] | b[1] << 8));
}

/* FP32 bit pattern @i of a little-endian array (bias, records) */
static inline u32 vpux_ld_u32(const void *p, size_t i)
{
	const u8 *b = (const u8 *)p + 4 * i;

	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 |
	       (u32)b[3] << 24;
}

/* the FP16 op's per-channel record of channel @c (@o->quant) */
static inline const struct vpux_hw_dpu_fchan *
vpux_dpu_fchan_rec(const struct vpux_dpu_operands *o, u32 c)
{
	return (const struct vpux_hw_dpu_fchan *)(const void *)o->quant + c;
}

/*
 * The output stage of an FP16 op for output channel @c, applied to @acc
 * (the accumulator with the bias added): the scale stage (acc * scale,
 * rounded, + shift, rounded), then the activation. NaN stays NaN.
 */
static inline u32 vpux_dpu_f_stage(const struct vpux_hw_dpu_desc *d,
				   const struct vpux_dpu_operands *o, u32 c,
				   u32 acc)
{
	const struct vpux_hw_dpu_fparams *f = &d->f;
	u32 scale = f->scale, shift = f->shift, slope = f->slope;

	if (vpux_dpu_fchan_used(d)) {
		const struct vpux_hw_dpu_fchan *r = vpux_dpu_fchan_rec(o, c);

		if (d->flags & VPUX_DPU_F_PER_CHANNEL) {
			scale = r->scale;
			shift = r->shift;
		}
		if (f->act == VPUX_DPU_ACT_LEAKY_CH)
			slope = r->slope;
	}
	if (d->flags & (VPUX_DPU_F_PER_CHANNEL | VPUX_DPU_F_SCALE))
		acc = vpux_f32_add(vpux_f32_mul(acc, scale), shift);
	switch (f->act) {
	case VPUX_DPU_ACT_RELU:
		if (acc >> 31 && !vpux_f32_is_nan(acc))
			acc = 0;
		break;
	case VPUX_DPU_ACT_CLAMP:
		if (vpux_f32_lt(acc, f->clamp_lo))
			acc = f->clamp_lo;
		else if (vpux_f32_lt(f->clamp_hi, acc))
			acc = f->clamp_hi;
		break;
	case VPUX_DPU_ACT_LEAKY:
	case VPUX_DPU_ACT_LEAKY_CH:
		if (acc >> 31 && !vpux_f32_is_nan(acc))
			acc = vpux_f32_mul(acc, slope);
		break;
	default:
		break;
	}
	return acc;
}

/*
 * Store FP32 @v as output element @idx of an FP16 op: FP16 (rounded to
 * nearest even) or, with VPUX_DPU_F_OUT_F32, FP32; a NaN is stored as
 * the canonical NaN. Little endian, any alignment.
 */
static inline void vpux_dpu_f_store(const struct vpux_hw_dpu_desc *d,
				    void *out, size_t idx, u32 v)
{
	if (d->flags & VPUX_DPU_F_OUT_F32) {
		u8 *p = (u8 *)out + idx * 4;

		v = vpux_f32_canon(v);
		p[0] = (u8)v;
		p[1] = (u8)(v >> 8);
		p[2] = (u8)(v >> 16);
		p[3] = (u8)(v >> 24);
	} else {
		u16 h = vpux_f32_to_f16(v);
		u8 *p = (u8 *)out + idx * 2;

		p[0] = (u8)h;
		p[1] = (u8)(h >> 8);
	}
}

/* Round-half-away-from-zero quotient of @num by @den > 0 (32-bit only). */
static inline s32 vpux_div_round(s32 num, s32 den)
{
	if (num >= 0)
		return (num + den / 2) / den;
	return -((-num + den / 2) / den);
}

/* The reference of a valid FP16 descriptor with checked operands. */
void vpux_ref_dpu_run_f16(const struct vpux_hw_dpu_desc *d,
			  const struct vpux_dpu_operands *o);

/*
 * Operand pointers present for the op and per-channel requant records
 * valid? -VPUX_ENG_ERR_DESC if not.
 */
int vpux_dpu_check_operands(const struct vpux_hw_dpu_desc *d,
			    const struct vpux_dpu_operands *o);

/* ---- SHAVE kernels: shared argument checks and fixed-point math ---- */

/* a resolved buffer argument: actual dims, byte strides, memory order */
struct vpux_tensor {
	u32 addr;			/* window address of element 0 */
	u32 rank;
	u32 dt;				/* VPUX_SHAVE_DT_* */
	u32 esize;			/* bytes per element */
	u32 dims[VPUX_MEMREF_MAX_RANK];
	u64 stride[VPUX_MEMREF_MAX_RANK];	/* bytes */
	u32 order[VPUX_MEMREF_MAX_RANK];	/* [0] = innermost logical dim */
	u64 bytes;			/* extent from element 0 */
};

/* a validated kernel invocation */
struct vpux_shave_job {
	u32 kernel_id;
	union {
		struct vpux_shave_clamp_args clamp;
		struct vpux_shave_lut_args lut;
		struct vpux_shave_softmax_args softmax;
		struct vpux_shave_permute_args permute;
		struct vpux_shave_quantize_args quantize;
	} a;
	struct vpux_tensor in, out;
	u32 perm[VPUX_MEMREF_MAX_RANK];	/* out dim i = in dim perm[i] */
	u64 elems;
};

/*
 * Check @args for @kernel_id, probe every buffer, resolve dynamic dims
 * (writing dynamic output dims). 0 or VPUX_ERR(KERNEL/ARGS/MMU).
 */
int vpux_shave_prepare(u32 kernel_id, const void *args, u32 args_size,
		       const struct vpux_shave_mem *mem,
		       struct vpux_shave_job *job);
/* element-wise kernels: output value of input value @q (raw, signed) */
s32 vpux_shave_map(const struct vpux_shave_job *job, s32 q);
/* softmax: exp(-beta * d) in Q16.16 for d = max - q, 0..255 */
u32 vpux_shave_softmax_exp(const struct vpux_shave_job *job, u32 d);
/* softmax: 2^48 / sum, rounded, for a line's sum of exponentials */
u64 vpux_shave_softmax_recip(u64 sum);
/* softmax: output value of exponential @e given the line's @recip */
s32 vpux_shave_softmax_out(const struct vpux_shave_job *job, u32 e,
			   u64 recip);

/*
 * raw element <-> s32, little endian: I32 and F32 (its bit pattern) four
 * bytes, F16 (its bit pattern, zero-extended) two
 */
static inline s32 vpux_elem_load(const u8 *p, u32 dt)
{
	if (dt == VPUX_SHAVE_DT_U8)
		return p[0];
	if (dt == VPUX_SHAVE_DT_I8)
		return (s8)p[0];
	if (dt == VPUX_SHAVE_DT_F16)
		return (s32)((u32)p[0] | (u32)p[1] << 8);
	return (s32)((u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 |
		     (u32)p[3] << 24);
}

static inline void vpux_elem_store(u8 *p, u32 dt, s32 v)
{
	p[0] = (u8)v;
	if (dt == VPUX_SHAVE_DT_F16)
		p[1] = (u8)((u32)v >> 8);
	if (dt == VPUX_SHAVE_DT_I32 || dt == VPUX_SHAVE_DT_F32) {
		p[1] = (u8)((u32)v >> 8);
		p[2] = (u8)((u32)v >> 16);
		p[3] = (u8)((u32)v >> 24);
	}
}

/* one buffer record: check, probe, read dynamic dims (shave_common.c) */
int vpux_memref_check(const struct vpux_memref *m, struct vpux_tensor *t);
int vpux_memref_probe(const struct vpux_shave_mem *mem,
		      const struct vpux_tensor *t);
int vpux_memref_dims_read(const struct vpux_shave_mem *mem,
			  const struct vpux_memref *m, struct vpux_tensor *t);

/* ---- FP16/FP32 SHAVE kernels (shave_fcommon.c) ---- */

#define VPUX_SHAVE_F_RECS	4u	/* most records of a kernel */

/* a validated FP16/FP32 kernel invocation */
struct vpux_shave_fjob {
	u32 kernel_id;
	u32 nrec;			/* records in the struct: in, out, ... */
	union {
		struct vpux_memref rec[VPUX_SHAVE_F_RECS];
		struct vpux_shave_convert_args convert;
		struct vpux_shave_unary_args unary;
		struct vpux_shave_binary_args binary;
		struct vpux_shave_fsoftmax_args softmax;
		struct vpux_shave_layernorm_args ln;
		struct vpux_shave_reduce_args reduce;
		struct vpux_shave_resize_args resize;
		struct vpux_shave_gather_args gather;
		struct vpux_shave_pad_args pad;
	} a;
	/*
	 * [0] in, [1] out, [2] in2 / scale / indices, [3] bias (absent:
	 * rank 0)
	 */
	struct vpux_tensor t[VPUX_SHAVE_F_RECS];
	/* BINARY: byte step of in, in2 along each out dim (0: broadcast) */
	u64 bstride[2][VPUX_MEMREF_MAX_RANK];
	u64 elems;			/* output elements */
};

/*
 * Check @args for an FP16/FP32 kernel, probe every buffer, resolve dynamic
 * dims (writing dynamic output dims). 0 or VPUX_ERR(KERNEL/ARGS/MMU).
 */
int vpux_shave_f_prepare(u32 kernel_id, const void *args, u32 args_size,
			 const struct vpux_shave_mem *mem,
			 struct vpux_shave_fjob *job);
/* the reference of an FP16/FP32 kernel (shave_ref_f.c) */
int vpux_ref_shave_f_run(u32 kernel_id, const void *args, u32 args_size,
			 const struct vpux_shave_mem *mem);
/* element @p of type @dt (F16/F32, or integer: its value) as FP32 */
u32 vpux_shave_f_load(const u8 *p, u32 dt);
/* FP32 @v stored as type @dt (F16/F32 only): rounded, NaN canonical */
void vpux_shave_f_store(u8 *p, u32 dt, u32 v);
/* CONVERT of one element: @src of the input type to @dst */
void vpux_shave_convert(const struct vpux_shave_fjob *job, const u8 *src,
			u8 *dst);
/* UNARY value of FP32 @x */
u32 vpux_shave_unary(const struct vpux_shave_fjob *job, u32 x);
/* BINARY value of FP32 @a, @b for VPUX_SHAVE_BIN_* @func */
u32 vpux_shave_binary(u32 func, u32 a, u32 b);
/* RESIZE: FP32 input coordinate of output index @o along dim @dim */
u32 vpux_shave_resize_coord(const struct vpux_shave_fjob *job, u32 dim,
			    u32 o);
/* RESIZE nearest: input index of output index @o along dim @dim */
u32 vpux_shave_resize_nearest(const struct vpux_shave_fjob *job, u32 dim,
			      u32 o);
/* RESIZE linear: the two input indices and weights (FP32) of @o */
void vpux_shave_resize_linear(const struct vpux_shave_fjob *job, u32 dim,
			      u32 o, u32 *i0, u32 *i1, u32 *w0, u32 *w1);
/* RESIZE linear: the value of the four neighbours and weights */
u32 vpux_shave_bilinear(u32 v00, u32 v01, u32 v10, u32 v11, u32 wy0,
			u32 wy1, u32 wx0, u32 wx1);
/* PAD: input index of output index @o along @dim, -1 for the constant */
s32 vpux_shave_pad_src(const struct vpux_shave_fjob *job, u32 dim, u32 o);
/* GATHER: index value @v normalised into [0, @d), false if outside */
static inline bool vpux_shave_gather_index(s32 v, u32 d, u32 *idx)
{
	s64 x = v < 0 ? (s64)v + d : v;

	if (x < 0 || x >= d)
		return false;
	*idx = (u32)x;
	return true;
}
/* FP32 of a count (exact up to 2^24, rounded above) */
static inline u32 vpux_f32_from_u32(u32 n)
{
	return vpux_f32_norm_pack(0, 157, n);
}

/*
 * Advance the index @idx over @dims (last dim fastest), leaving the dims
 * whose bit is set in @skip alone; false once every index wrapped.
 */
static inline bool vpux_idx_next(u32 *idx, const u32 *dims, u32 rank,
				 u32 skip)
{
	u32 k, i;

	for (k = rank; k > 0; k--) {
		i = k - 1;
		if (skip & (1u << i))
			continue;
		if (++idx[i] < dims[i])
			return true;
		idx[i] = 0;
	}
	return false;
}
/* byte offset of index @idx with strides @stride */
static inline u64 vpux_idx_offset(const u32 *idx, const u64 *stride, u32 rank)
{
	u64 off = 0;
	u32 i;

	for (i = 0; i < rank; i++)
		off += idx[i] * stride[i];
	return off;
}

/* fixed-point functions, Q16.16 in and out (exp: Q30 out) */
u32 vpux_fx_exp_neg_q30(u32 t_q16);
s32 vpux_fx_sigmoid_q16(s32 x_q16);
s32 vpux_fx_tanh_q16(s32 x_q16);
u64 vpux_fx_div_u64(u64 n, u64 d);

#endif /* VPUX_HW_OPS_INTERNAL_H */
