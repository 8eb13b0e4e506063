// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * FP16 DPU ops of the NPU model (VPUX_DPU_F_FP16): the same bytes as the
 * plain reference (ref/dpu_ref_f16.c) for every valid descriptor, bit for
 * bit, organised for speed like the int8 kernels of dpu.c:
 *
 *  - the valid taps of each window are computed once per output row
 *    (vertical) and once per pixel (horizontal), so the inner loops carry
 *    no padding test; padded taps are simply not part of any loop, as the
 *    definition skips them;
 *  - the inner loops are contiguous dot products over input channels, over
 *    a whole window row when groups == 1 and dilation_w == 1 (taps of a
 *    row are then adjacent in both the input and the weights, in the
 *    definition's order: kx, then ci);
 *  - MATMUL with weights [K][N] (VPUX_DPU_F_W_KN) and pooling run a block
 *    of columns or channels at once, each with its own accumulator, so
 *    the loads stay contiguous;
 *  - the multiply-accumulate is the integer soft-float of dpu_f16_arith.h:
 *    an FP16 x FP16 product is exact in FP32 and needs no rounding, the
 *    add is one IEEE rounding in 32-bit integers.
 *
 * Every output element adds its products in the definition's order, +0
 * first, then (ky, kx, ci) ascending (CONV) or k ascending (MATMUL), one
 * rounding each: no reassociation anywhere, which is what makes the result
 * the reference's. The output stage is the shared one
 * (vpux_dpu_f_stage(), vpux_dpu_f_store()).
 *
 * This is what the kernel module runs: integer only, no libc, no 64-bit
 * division, stack frames under 512 bytes (the per-block accumulator
 * arrays live in noinline_for_stack helpers). User-space x86-64 builds
 * first offer every op to the SIMD kernels of dpu_f16_simd.c
 * (VPUX_DPU_SIMD, vpux_dpu_set_path()), which write the same bytes.
 *
 * o->yield is called after every output row and, within a row, once
 * VPUX_DPU_YIELD_WORK operations were done, checked between blocks of at
 * most 64 output channels (or 32 channels of pooling) of one pixel.
 */
#include "vpux_ops_internal.h"
#include "dpu_f16_arith.h"
#include "dpu_geom.h"

#define F16_OC_BLOCK	64u	/* output channels between yield checks */
#define F16_CH_BLOCK	32u	/* channels of a pooling / W_KN block */

/* output element @idx of channel @c: bias, output stage, store */
static void f16_out(const struct vpux_hw_dpu_desc *d,
		    const struct vpux_dpu_operands *o, size_t idx, u32 c,
		    u32 acc)
{
	if (d->flags & VPUX_DPU_F_BIAS)
		acc = f32x_add(acc, vpux_ld_u32(o->bias, c));
	vpux_dpu_f_store(d, o->out, idx, vpux_dpu_f_stage(d, o, c, acc));
}

/* @acc plus the @n products of FP16 vectors @x and @w, in order */
static u32 f16_dot(u32 acc, const u8 *x, const u8 *w, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		acc = f16x_mac(acc, f16x_ld(x, i), f16x_ld(w, i));
	return acc;
}

/* ---- CONV ---- */

/*
 * Accumulator of output channel @oc over the valid window @p: @x is the
 * channel's group's first input channel at pixel (0, 0), @w the
 * channel's weights [kh][kw][cin_g].
 */
static u32 conv_acc(const struct dpu_geom *g, const struct dpu_pix *p,
		    const u8 *x, const u8 *w)
{
	u32 n = g->merge ? (p->kx1 - p->kx0) * g->in_c : g->cin_g;
	u32 kx_end = g->merge ? p->kx0 + 1 : p->kx1;
	u32 ky, kx, acc = 0;

	for (ky = p->ky0; ky < p->ky1; ky++) {
		size_t row = (size_t)(p->iy0 + (s64)ky * g->dh) * g->in_w;
		const u8 *wrow = w + (size_t)ky * g->kw * g->cin_g * 2;

		for (kx = p->kx0; kx < kx_end; kx++) {
			size_t ix = (size_t)(p->ix0 + (s64)kx * g->dw);

			acc = f16_dot(acc, x + (row + ix) * g->in_c * 2,
				      wrow + (size_t)kx * g->cin_g * 2, n);
		}
	}
	return acc;
}

/* output channels [oc0, oc1) of the pixel with window @p, from @obase */
static noinline_for_stack void
conv_pixel(const struct vpux_hw_dpu_desc *d, const struct vpux_dpu_operands *o,
	   const struct dpu_geom *g, const struct dpu_pix *p, u32 oc0,
	   u32 oc1, size_t obase)
{
	size_t kfull = (size_t)g->kh * g->kw * g->cin_g;	/* per oc */
	const u8 *in = o->in, *w = o->in2;
	u32 oc, acc;

	for (oc = oc0; oc < oc1; oc++) {
		u32 grp = oc / g->cout_g;

		acc = p->kx1 > p->kx0 ?
		      conv_acc(g, p, in + (size_t)grp * g->cin_g * 2,
			       w + oc * kfull * 2) : 0;
		f16_out(d, o, obase + oc, oc, acc);
	}
}

/* Returns true if the op must stop. */
static noinline bool f16_conv(const struct vpux_hw_dpu_desc *d,
			      const struct vpux_dpu_operands *o,
			      const struct dpu_geom *g)
{
	u64 kmacs = (u64)g->kh * g->kw * g->cin_g, since = 0;
	struct dpu_pix p;
	u32 oy, ox, oc0, oc1;

	for (oy = 0; oy < g->out_h; oy++) {
		dpu_pix_row(g, &p, oy);
		for (ox = 0; ox < g->out_w; ox++) {
			size_t obase = ((size_t)oy * g->out_w + ox) * g->out_c;

			dpu_pix_col(g, &p, ox);
			if (p.ky1 == p.ky0)
				p.kx1 = p.kx0;	/* no valid tap at all */
			for (oc0 = 0; oc0 < g->out_c; oc0 = oc1) {
				oc1 = g->out_c - oc0 < F16_OC_BLOCK ?
				      g->out_c : oc0 + F16_OC_BLOCK;
				conv_pixel(d, o, g, &p, oc0, oc1, obase);
				if (dpu_work(o, &since, (oc1 - oc0) * kmacs))
					return true;
			}
		}
		since = 0;
		if (dpu_yield(o))
			return true;
	}
	return false;
}

/* ---- MATMUL ---- */

/*
 * Row @m, columns [n0, n0 + nb) with weights [K][N] from @w (the row's
 * batch): the columns' accumulators side by side, k ascending in each.
 */
static noinline_for_stack void
matmul_kn(const struct vpux_hw_dpu_desc *d, const struct vpux_dpu_operands *o,
	  const u8 *x, const u8 *w, size_t m, u32 n0, u32 nb)
{
	u32 acc[F16_CH_BLOCK], kk = d->in_c, nn = d->out_c, k, j;

	for (j = 0; j < nb; j++)
		acc[j] = 0;
	for (k = 0; k < kk; k++) {
		u32 xk = f16x_ld(x, k);
		const u8 *wk = w + ((size_t)k * nn + n0) * 2;

		for (j = 0; j < nb; j++)
			acc[j] = f16x_mac(acc[j], xk, f16x_ld(wk, j));
	}
	for (j = 0; j < nb; j++)
		f16_out(d, o, m * nn + n0 + j, n0 + j, acc[j]);
}

/* Returns true if the op must stop. */
static noinline bool f16_matmul(const struct vpux_hw_dpu_desc *d,
				const struct vpux_dpu_operands *o)
{
	size_t m, rows = (size_t)d->in_h * d->in_w;
	size_t kk = d->in_c, nn = d->out_c;
	bool kn = d->flags & VPUX_DPU_F_W_KN;
	u32 blk = kn ? F16_CH_BLOCK : F16_OC_BLOCK, n0, n1, n, r = 0;
	u64 since = 0;

	for (m = 0; m < rows; m++) {
		size_t b = d->flags & VPUX_DPU_F_BATCH ? m / d->in_w : 0;
		const u8 *x = (const u8 *)o->in + m * kk * 2;
		const u8 *w = (const u8 *)o->in2 + b * nn * kk * 2;

		for (n0 = 0; n0 < nn; n0 = n1) {
			n1 = nn - n0 < blk ? (u32)nn : n0 + blk;
			if (kn)
				matmul_kn(d, o, x, w, m, n0, n1 - n0);
			else
				for (n = n0; n < n1; n++)
					f16_out(d, o, m * nn + n, n,
						f16_dot(0, x, w + n * kk * 2,
							(u32)kk));
			if (dpu_work(o, &since, (u64)(n1 - n0) * kk))
				return true;
		}
		/* a row of the output tensor: in_w rows of the matrix */
		if (++r == d->in_w) {
			r = 0;
			since = 0;
			if (dpu_yield(o))
				return true;
		}
	}
	return false;
}

/* ---- ADD / SUB / MUL ---- */

/* the in2 element paired with element @i of the row starting at @base */
static size_t f16_bcast(const struct vpux_hw_dpu_desc *d, u32 mode, size_t i)
{
	switch (mode) {
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

/* Returns true if the op must stop. */
static noinline bool f16_eltwise(const struct vpux_hw_dpu_desc *d,
				 const struct vpux_dpu_operands *o)
{
	u32 mode = (d->flags & VPUX_DPU_F_BCAST_MASK) >> VPUX_DPU_F_BCAST_SHIFT;
	u32 neg = d->op == VPUX_DPU_OP_SUB ? VPUX_F32_SIGN : 0;
	size_t row = (size_t)d->in_w * d->in_c, base = 0, i;
	u64 since = 0;
	u32 y, c;

	for (y = 0; y < d->in_h; y++, base += row) {
		for (i = 0, c = 0; i < row; i++) {
			u32 a = f16x_ld(o->in, base + i);
			u32 b = f16x_ld(o->in2, f16_bcast(d, mode, base + i));
			u32 r;

			if (d->op == VPUX_DPU_OP_MUL)
				r = f16x_prod(a, b);
			else	/* SUB: a + (-b), as vpux_f32_sub() */
				r = f32x_add(vpux_f16_to_f32((u16)a),
					     vpux_f16_to_f32((u16)b) ^ neg);
			f16_out(d, o, base + i, c, r);
			if (++c == d->in_c)
				c = 0;
			if (dpu_work(o, &since, 1))
				return true;
		}
		since = 0;
		if (dpu_yield(o))
			return true;
	}
	return false;
}

/* ---- MAXPOOL / AVGPOOL ---- */

/*
 * Channels [c0, c0 + n) of the pixel with window @p, from @obase: the
 * taps in (ky, kx) order, each channel in its own accumulator. MAXPOOL
 * starts from the first tap, AVGPOOL from +0 (so a lone -0 sums to +0).
 */
static noinline_for_stack void
pool_pixel(const struct vpux_hw_dpu_desc *d, const struct vpux_dpu_operands *o,
	   const struct dpu_geom *g, const struct dpu_pix *p, u32 c0, u32 n,
	   size_t obase)
{
	bool is_max = d->op == VPUX_DPU_OP_MAXPOOL;
	u32 count = (p->ky1 - p->ky0) * (p->kx1 - p->kx0);
	const u8 *in = (const u8 *)o->in + (size_t)c0 * 2;
	u32 acc[F16_CH_BLOCK], ky, kx, c, div = 0;
	bool first = true;

	for (c = 0; c < n; c++)
		acc[c] = 0;
	for (ky = p->ky0; ky < p->ky1; ky++) {
		size_t row = (size_t)(p->iy0 + (s64)ky * g->dh) * g->in_w;

		for (kx = p->kx0; kx < p->kx1; kx++) {
			const u8 *x = in + (row + (size_t)(p->ix0 + (s64)kx *
							   g->dw)) * g->in_c * 2;

			for (c = 0; c < n; c++) {
				u32 v = vpux_f16_to_f32((u16)f16x_ld(x, c));

				if (!is_max)
					acc[c] = f32x_add(acc[c], v);
				else
					acc[c] = first ? v : vpux_f32_max(acc[c], v);
			}
			first = false;
		}
	}
	if (!is_max) {
		if (d->flags & VPUX_DPU_F_COUNT_PAD)
			count = g->kh * g->kw;
		if (count)
			div = vpux_f32_from_s32((s32)count);
	}
	for (c = 0; c < n; c++)
		f16_out(d, o, obase + c, c0 + c,
			div ? vpux_f32_div(acc[c], div) : acc[c]);
}

/* Returns true if the op must stop. */
static noinline bool f16_pool(const struct vpux_hw_dpu_desc *d,
			      const struct vpux_dpu_operands *o,
			      const struct dpu_geom *g)
{
	u64 blk_work = (u64)F16_CH_BLOCK * g->kh * g->kw, since = 0;
	struct dpu_pix p;
	u32 oy, ox, c0;

	for (oy = 0; oy < g->out_h; oy++) {
		dpu_pix_row(g, &p, oy);
		for (ox = 0; ox < g->out_w; ox++) {
			size_t obase = ((size_t)oy * g->out_w + ox) * g->out_c;

			dpu_pix_col(g, &p, ox);
			if (p.ky1 == p.ky0)
				p.kx1 = p.kx0;
			for (c0 = 0; c0 < g->in_c; c0 += F16_CH_BLOCK) {
				pool_pixel(d, o, g, &p, c0,
					   g->in_c - c0 < F16_CH_BLOCK ?
					   g->in_c - c0 : F16_CH_BLOCK,
					   obase + c0);
				if (dpu_work(o, &since, blk_work))
					return true;
			}
		}
		since = 0;
		if (dpu_yield(o))
			return true;
	}
	return false;
}

/**
 * vpux_dpu_f16_run() - run a valid FP16 descriptor (vpux_dpu_run())
 * @d: descriptor with VPUX_DPU_F_FP16, checked by vpux_dpu_extents()
 * @o: operands, checked by vpux_dpu_check_operands()
 *
 * Return: 0, or VPUX_ERR(ABORTED) if @o->yield asked to stop (the output
 * is then partly written).
 */
int vpux_dpu_f16_run(const struct vpux_hw_dpu_desc *d,
		     const struct vpux_dpu_operands *o)
{
	struct dpu_geom g;
	bool stop;

#ifdef VPUX_DPU_SIMD
	int ret;

	if (vpux_dpu_f16_simd_run(d, o, &ret))
		return ret;
#endif
	switch (d->op) {
	case VPUX_DPU_OP_CONV:
		dpu_geom_init(&g, d);
		stop = f16_conv(d, o, &g);
		break;
	case VPUX_DPU_OP_MATMUL:
		stop = f16_matmul(d, o);
		break;
	case VPUX_DPU_OP_ADD:
	case VPUX_DPU_OP_SUB:
	case VPUX_DPU_OP_MUL:
		stop = f16_eltwise(d, o);
		break;
	default:
		dpu_geom_init(&g, d);
		stop = f16_pool(d, o, &g);
		break;
	}
	return stop ? VPUX_ERR(ABORTED) : 0;
}
