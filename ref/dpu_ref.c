// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Plain reference loops of the DPU ops: one output element at a time,
 * straight from the definitions in Documentation/compute-ops.rst. Slow on
 * purpose; any optimised implementation (the NPU model's kernels) must
 * agree bit for bit. Freestanding: no libc beyond vpux_hw_types.h.
 */
#include "vpux_hw_ops_internal.h"

struct ref_ctx {
	const struct vpux_hw_dpu_desc *d;
	const struct vpux_dpu_operands *o;
	bool in_s, w_s;
};

static const struct vpux_hw_requant *ref_q(const struct ref_ctx *c, u32 oc)
{
	if (c->d->flags & VPUX_DPU_F_PER_CHANNEL)
		return &c->o->quant[oc];
	return &c->d->requant;
}

static void ref_store(const struct ref_ctx *c, size_t idx, s64 acc, u32 oc)
{
	vpux_dpu_store(c->d, c->o->out, idx, acc, ref_q(c, oc));
}

/* input element (y, x, ch) minus the zero point; false if in padding */
static bool ref_in(const struct ref_ctx *c, s64 y, s64 x, u32 ch, s32 *v)
{
	const struct vpux_hw_dpu_desc *d = c->d;

	if (y < 0 || y >= d->in_h || x < 0 || x >= d->in_w)
		return false;
	*v = vpux_ld8(c->o->in, ((size_t)y * d->in_w + (size_t)x) * d->in_c + ch,
		      c->in_s) - d->in_zp;
	return true;
}

/* the input row/column of tap @k of output @o along one axis */
static s64 ref_pos(u32 o, u32 stride, u32 pad, u32 k, u32 dil)
{
	return (s64)o * stride - pad + (s64)k * dil;
}

/* accumulator of CONV output (oy, ox, oc), bias included */
static s64 ref_conv_at(const struct ref_ctx *c, u32 oy, u32 ox, u32 oc)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	u32 cin_g = d->in_c / d->groups, cout_g = d->out_c / d->groups;
	u32 g = oc / cout_g, ky, kx, ci;
	s64 acc = 0;

	for (ky = 0; ky < d->kernel_h; ky++) {
		s64 y = ref_pos(oy, d->stride_h, d->pad_top, ky, d->dilation_h);

		for (kx = 0; kx < d->kernel_w; kx++) {
			s64 x = ref_pos(ox, d->stride_w, d->pad_left, kx,
					d->dilation_w);

			for (ci = 0; ci < cin_g; ci++) {
				size_t wi = (((size_t)oc * d->kernel_h + ky) *
					     d->kernel_w + kx) * cin_g + ci;
				s32 xv, wv;

				if (!ref_in(c, y, x, g * cin_g + ci, &xv))
					continue;
				wv = vpux_ld8(c->o->in2, wi, c->w_s) - d->in2_zp;
				acc += (s64)xv * wv;
			}
		}
	}
	if (d->flags & VPUX_DPU_F_BIAS)
		acc += c->o->bias[oc];
	return acc;
}

static void ref_conv(const struct ref_ctx *c)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	u32 oy, ox, oc;

	for (oy = 0; oy < d->out_h; oy++) {
		for (ox = 0; ox < d->out_w; ox++)
			for (oc = 0; oc < d->out_c; oc++)
				ref_store(c, ((size_t)oy * d->out_w + ox) *
					  d->out_c + oc,
					  ref_conv_at(c, oy, ox, oc), oc);
		if (c->o->yield)
			c->o->yield(c->o->yield_arg);
	}
}

static void ref_matmul(const struct ref_ctx *c)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	size_t m, rows = (size_t)d->in_h * d->in_w;
	u32 n, k;

	for (m = 0; m < rows; m++) {
		for (n = 0; n < d->out_c; n++) {
			s64 acc = 0;

			for (k = 0; k < d->in_c; k++) {
				s32 xv = vpux_ld8(c->o->in, m * d->in_c + k, c->in_s) -
					 d->in_zp;
				s32 wv = vpux_ld8(c->o->in2, (size_t)n * d->in_c + k,
						  c->w_s) - d->in2_zp;

				acc += (s64)xv * wv;
			}
			if (d->flags & VPUX_DPU_F_BIAS)
				acc += c->o->bias[n];
			ref_store(c, m * d->out_c + n, acc, n);
		}
		if (c->o->yield && (m + 1) % d->in_w == 0)
			c->o->yield(c->o->yield_arg);
	}
}

static void ref_eltwise(const struct ref_ctx *c)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	size_t i, n = (size_t)d->in_h * d->in_w * d->in_c;

	for (i = 0; i < n; i++) {
		s32 a = vpux_ld8(c->o->in, i, c->in_s) - d->in_zp;
		s32 b = vpux_ld8(c->o->in2, i, c->w_s) - d->in2_zp;
		u32 ch = (u32)(i % d->in_c);
		s64 acc;

		if (d->op == VPUX_DPU_OP_ADD)
			acc = (s64)vpux_requant(a, &d->in_scale) +
			      vpux_requant(b, &d->in2_scale);
		else
			acc = (s64)a * b;
		ref_store(c, i, acc, ch);
		if (c->o->yield && (i + 1) % ((size_t)d->in_w * d->in_c) == 0)
			c->o->yield(c->o->yield_arg);
	}
}

/* accumulator of a pooling output (oy, ox, ch): max or rounded mean */
static s64 ref_pool_at(const struct ref_ctx *c, u32 oy, u32 ox, u32 ch)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	s32 sum = 0, max = 0, count = 0, v;
	u32 ky, kx;

	for (ky = 0; ky < d->kernel_h; ky++) {
		s64 y = ref_pos(oy, d->stride_h, d->pad_top, ky, d->dilation_h);

		for (kx = 0; kx < d->kernel_w; kx++) {
			s64 x = ref_pos(ox, d->stride_w, d->pad_left, kx,
					d->dilation_w);

			if (!ref_in(c, y, x, ch, &v))
				continue;	/* padding is excluded */
			if (!count || v > max)
				max = v;
			sum += v;
			count++;
		}
	}
	if (d->op == VPUX_DPU_OP_MAXPOOL)
		return max;
	return count ? vpux_div_round(sum, count) : 0;
}

static void ref_pool(const struct ref_ctx *c)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	u32 oy, ox, ch;

	for (oy = 0; oy < d->out_h; oy++) {
		for (ox = 0; ox < d->out_w; ox++)
			for (ch = 0; ch < d->out_c; ch++)
				ref_store(c, ((size_t)oy * d->out_w + ox) *
					  d->out_c + ch,
					  ref_pool_at(c, oy, ox, ch), ch);
		if (c->o->yield)
			c->o->yield(c->o->yield_arg);
	}
}

/**
 * vpux_ref_dpu_run() - reference implementation of a DPU descriptor
 * @d: descriptor
 * @o: operands sized by vpux_dpu_extents()
 *
 * Return: 0, or VPUX_ERR(DESC) if @d or a per-channel record is invalid.
 */
int vpux_ref_dpu_run(const struct vpux_hw_dpu_desc *d,
		     const struct vpux_dpu_operands *o)
{
	struct vpux_dpu_extents e;
	struct ref_ctx c = {
		.d = d,
		.o = o,
		.in_s = d->flags & VPUX_DPU_F_IN_SIGNED,
		.w_s = d->flags & VPUX_DPU_F_W_SIGNED,
	};
	int ret;

	ret = vpux_dpu_extents(d, &e);
	if (ret)
		return ret;
	ret = vpux_dpu_check_operands(d, o);
	if (ret)
		return ret;
	if (d->flags & VPUX_DPU_F_FP16) {
		vpux_ref_dpu_run_f16(d, o);
		return 0;
	}
	switch (d->op) {
	case VPUX_DPU_OP_CONV:
		ref_conv(&c);
		break;
	case VPUX_DPU_OP_MATMUL:
		ref_matmul(&c);
		break;
	case VPUX_DPU_OP_ADD:
	case VPUX_DPU_OP_MUL:
		ref_eltwise(&c);
		break;
	default:
		ref_pool(&c);
		break;
	}
	return 0;
}
