// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Plain reference loops of the DPU's FP16 ops (VPUX_DPU_F_FP16): one
 * output element at a time, each in the order
 * Documentation/compute-ops.rst ("FP16 ops") fixes, every operation one
 * IEEE rounding (include/hw/vpux_float.h). Slow on purpose: the NPU
 * model's kernels, generic and SIMD, must agree bit for bit.
 * Freestanding: integer soft-float, no libc beyond vpux_hw_types.h.
 */
#include "vpux_hw_ops_internal.h"

/* the input row/column of tap @k of output @o along one axis */
static s64 reff_pos(u32 o, u32 stride, u32 pad, u32 k, u32 dil)
{
	return (s64)o * stride - pad + (s64)k * dil;
}

/* is (y, x) inside the input (not padding)? */
static bool reff_inside(const struct vpux_hw_dpu_desc *d, s64 y, s64 x)
{
	return y >= 0 && y < d->in_h && x >= 0 && x < d->in_w;
}

static void reff_out(const struct vpux_hw_dpu_desc *d,
		     const struct vpux_dpu_operands *o, size_t idx, u32 c,
		     u32 acc)
{
	if (d->flags & VPUX_DPU_F_BIAS)
		acc = vpux_f32_add(acc, vpux_ld_u32(o->bias, c));
	vpux_dpu_f_store(d, o->out, idx, vpux_dpu_f_stage(d, o, c, acc));
}

/*
 * CONV output (oy, ox, oc): +0, then the products in weight order (ky,
 * kx, ci), each added with one rounding; taps in the padding are not
 * part of the sum.
 */
static u32 reff_conv_at(const struct vpux_hw_dpu_desc *d,
			const struct vpux_dpu_operands *o, u32 oy, u32 ox,
			u32 oc)
{
	u32 cin_g = d->in_c / d->groups, cout_g = d->out_c / d->groups;
	u32 g = oc / cout_g, ky, kx, ci, acc = 0;

	for (ky = 0; ky < d->kernel_h; ky++) {
		s64 y = reff_pos(oy, d->stride_h, d->pad_top, ky, d->dilation_h);

		for (kx = 0; kx < d->kernel_w; kx++) {
			s64 x = reff_pos(ox, d->stride_w, d->pad_left, kx,
					 d->dilation_w);
			size_t xi, wi;

			if (!reff_inside(d, y, x))
				continue;
			xi = ((size_t)y * d->in_w + (size_t)x) * d->in_c +
			     (size_t)g * cin_g;
			wi = (((size_t)oc * d->kernel_h + ky) * d->kernel_w +
			      kx) * cin_g;
			for (ci = 0; ci < cin_g; ci++)
				acc = vpux_f32_add(acc,
					vpux_f32_mul(vpux_ld_f16(o->in, xi + ci),
						     vpux_ld_f16(o->in2, wi + ci)));
		}
	}
	return acc;
}

static void reff_conv(const struct vpux_hw_dpu_desc *d,
		      const struct vpux_dpu_operands *o)
{
	u32 oy, ox, oc;

	for (oy = 0; oy < d->out_h; oy++) {
		for (ox = 0; ox < d->out_w; ox++)
			for (oc = 0; oc < d->out_c; oc++)
				reff_out(d, o, ((size_t)oy * d->out_w + ox) *
					 d->out_c + oc, oc,
					 reff_conv_at(d, o, oy, ox, oc));
		if (o->yield)
			o->yield(o->yield_arg);
	}
}

/*
 * MATMUL row m, column n: +0, then the products for k = 0 .. K - 1. With
 * VPUX_DPU_F_BATCH row m belongs to batch m / in_w, whose own matrix of
 * weights follows the previous batch's.
 */
static void reff_matmul(const struct vpux_hw_dpu_desc *d,
			const struct vpux_dpu_operands *o)
{
	size_t m, rows = (size_t)d->in_h * d->in_w;
	size_t kk = d->in_c, nn = d->out_c;
	u32 n, k;

	for (m = 0; m < rows; m++) {
		size_t b = d->flags & VPUX_DPU_F_BATCH ? m / d->in_w : 0;
		size_t w0 = b * nn * kk;

		for (n = 0; n < nn; n++) {
			u32 acc = 0;

			for (k = 0; k < kk; k++) {
				size_t wi = d->flags & VPUX_DPU_F_W_KN ?
					    w0 + k * nn + n : w0 + n * kk + k;

				acc = vpux_f32_add(acc,
					vpux_f32_mul(vpux_ld_f16(o->in, m * kk + k),
						     vpux_ld_f16(o->in2, wi)));
			}
			reff_out(d, o, m * nn + n, n, acc);
		}
		if (o->yield && (m + 1) % d->in_w == 0)
			o->yield(o->yield_arg);
	}
}

/* the in2 element paired with output element @i (broadcast mode) */
static size_t reff_bcast(const struct vpux_hw_dpu_desc *d, size_t i)
{
	switch ((d->flags & VPUX_DPU_F_BCAST_MASK) >> VPUX_DPU_F_BCAST_SHIFT) {
	case VPUX_DPU_BCAST_C:
		return i % d->in_c;
	case VPUX_DPU_BCAST_HW:
		return i / d->in_c;
	case VPUX_DPU_BCAST_SCALAR:
		return 0;
	default:
		return i;
	}
}

/* ADD/SUB/MUL: one rounding of in op in2 */
static void reff_eltwise(const struct vpux_hw_dpu_desc *d,
			 const struct vpux_dpu_operands *o)
{
	size_t i, n = (size_t)d->in_h * d->in_w * d->in_c;

	for (i = 0; i < n; i++) {
		u32 a = vpux_ld_f16(o->in, i);
		u32 b = vpux_ld_f16(o->in2, reff_bcast(d, i));
		u32 r;

		if (d->op == VPUX_DPU_OP_ADD)
			r = vpux_f32_add(a, b);
		else if (d->op == VPUX_DPU_OP_SUB)
			r = vpux_f32_sub(a, b);
		else
			r = vpux_f32_mul(a, b);
		reff_out(d, o, i, (u32)(i % d->in_c), r);
		if (o->yield && (i + 1) % ((size_t)d->in_w * d->in_c) == 0)
			o->yield(o->yield_arg);
	}
}

/*
 * Pooling output (oy, ox, ch), taps in order (ky, kx), padding excluded.
 * MAXPOOL: the largest tap (vpux_f32_max(): NaN if any is NaN, -0 below
 * +0). AVGPOOL: +0, then each tap added with one rounding, divided (one
 * rounding) by the count of taps inside the input, or by kernel_h *
 * kernel_w with VPUX_DPU_F_COUNT_PAD. A window with no tap inside the
 * input gives +0.
 */
static u32 reff_pool_at(const struct vpux_hw_dpu_desc *d,
			const struct vpux_dpu_operands *o, u32 oy, u32 ox,
			u32 ch)
{
	u32 ky, kx, sum = 0, max = 0, count = 0;

	for (ky = 0; ky < d->kernel_h; ky++) {
		s64 y = reff_pos(oy, d->stride_h, d->pad_top, ky, d->dilation_h);

		for (kx = 0; kx < d->kernel_w; kx++) {
			s64 x = reff_pos(ox, d->stride_w, d->pad_left, kx,
					 d->dilation_w);
			u32 v;

			if (!reff_inside(d, y, x))
				continue;
			v = vpux_ld_f16(o->in, ((size_t)y * d->in_w +
						(size_t)x) * d->in_c + ch);
			max = count ? vpux_f32_max(max, v) : v;
			sum = vpux_f32_add(sum, v);
			count++;
		}
	}
	if (d->op == VPUX_DPU_OP_MAXPOOL)
		return max;
	if (d->flags & VPUX_DPU_F_COUNT_PAD)
		count = (u32)d->kernel_h * d->kernel_w;
	return count ? vpux_f32_div(sum, vpux_f32_from_s32((s32)count)) : 0;
}

static void reff_pool(const struct vpux_hw_dpu_desc *d,
		      const struct vpux_dpu_operands *o)
{
	u32 oy, ox, ch;

	for (oy = 0; oy < d->out_h; oy++) {
		for (ox = 0; ox < d->out_w; ox++)
			for (ch = 0; ch < d->out_c; ch++)
				reff_out(d, o, ((size_t)oy * d->out_w + ox) *
					 d->out_c + ch, ch,
					 reff_pool_at(d, o, oy, ox, ch));
		if (o->yield)
			o->yield(o->yield_arg);
	}
}

/**
 * vpux_ref_dpu_run_f16() - reference of a validated FP16 DPU descriptor
 * @d: descriptor with VPUX_DPU_F_FP16, valid (vpux_dpu_extents())
 * @o: operands, checked (vpux_dpu_check_operands())
 */
void vpux_ref_dpu_run_f16(const struct vpux_hw_dpu_desc *d,
			  const struct vpux_dpu_operands *o)
{
	switch (d->op) {
	case VPUX_DPU_OP_CONV:
		reff_conv(d, o);
		break;
	case VPUX_DPU_OP_MATMUL:
		reff_matmul(d, o);
		break;
	case VPUX_DPU_OP_ADD:
	case VPUX_DPU_OP_SUB:
	case VPUX_DPU_OP_MUL:
		reff_eltwise(d, o);
		break;
	default:
		reff_pool(d, o);
		break;
	}
}
