// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Optimised DPU kernels of the NPU model. Same results as the plain loops
 * in ref/dpu_ref.c, bit for bit, but organised for speed:
 *
 *  - the valid part of each kernel window is computed once per output row
 *    (vertical) and per output pixel (horizontal), so inner loops carry no
 *    padding tests;
 *  - zero points are folded out of the inner loop: the dot product runs on
 *    raw 8-bit values, and the terms wz * sum(x), xz * sum(w) and
 *    n * xz * wz are added afterwards (full-window weight sums are
 *    precomputed per block of output channels);
 *  - the inner loops are contiguous dot products over input channels (and
 *    over whole window rows when groups == 1 and dilation_w == 1), with
 *    int32 accumulation, unrolled and specialised per signedness;
 *  - depthwise convolution (weights transposed per block of channels) and
 *    pooling vectorise over channels instead.
 *
 * This is the code the kernel module runs. User-space x86-64 builds first
 * offer dense and depthwise CONV and MATMUL to the AVX-512 VNNI and AVX2
 * kernels of dpu_simd.c, chosen at run time (VPUX_DPU_SIMD,
 * vpux_dpu_set_path()); they write the same bytes.
 *
 * Every valid descriptor keeps |sum (x - xz)(w - wz)| below 2^31
 * (VPUX_DPU_MAX_K), so the folded terms are combined modulo 2^32 and the
 * result is exact. No floating point, no libc, no 64-bit division.
 *
 * The code runs on kernel stacks: every stack frame stays under 512 bytes
 * even in KASAN builds (whose redzones inflate local arrays). Per-call
 * scratch arrays are small (channel blocks of 32 or 64) and each loop
 * level that owns one lives in its own noinline_for_stack helper, called
 * per output row, pixel or tap row, where the call is cheap next to the
 * work it does.
 */
#include "vpux_ops_internal.h"
#include "dpu_geom.h"

/*
 * User-space builds let GCC vectorise the dot products (-O2 alone uses
 * the "very cheap" cost model, which skips loops of unknown length); the
 * kernel build has no SIMD and keeps the plain scalar code.
 * VPUX_DPU_SCALAR builds user-space code like the kernel's (bench_dpu
 * times it): no vectorisation, no SIMD kernels.
 */
#if !defined(__KERNEL__) && !defined(VPUX_DPU_SCALAR) && defined(__GNUC__) && \
	!defined(__clang__)
#define DPU_VEC	__attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define DPU_VEC
#endif

/*
 * Depthwise products: an operand minus its zero point fits s16 (zero
 * points lie in the operand's range), which lets vectorised code use
 * 16-bit multiplies; scalar code is faster without the narrowing.
 */
#if !defined(__KERNEL__) && !defined(VPUX_DPU_SCALAR) && defined(__GNUC__) && \
	!defined(__clang__) && (defined(__SSE2__) || defined(__ARM_NEON))
typedef s16 dw_diff_t;
#else
typedef s32 dw_diff_t;
#endif


#define DPU_OC_BLOCK	64u	/* output channels per weight-sum block */
#define DPU_CH_BLOCK	32u	/* channels per pooling block */

/* combo: bit 0 = x signed, bit 1 = w signed */
#define DPU_DOT(name, TX, TW)						\
static noinline DPU_VEC s32 name(const void *xp, const void *wp, u32 n)	\
{									\
	const TX *x = xp;						\
	const TW *w = wp;						\
	s32 a0 = 0, a1 = 0, a2 = 0, a3 = 0;				\
	u32 i = 0;							\
									\
	for (; i + 8 <= n; i += 8) {					\
		a0 += x[i] * w[i] + x[i + 4] * w[i + 4];		\
		a1 += x[i + 1] * w[i + 1] + x[i + 5] * w[i + 5];	\
		a2 += x[i + 2] * w[i + 2] + x[i + 6] * w[i + 6];	\
		a3 += x[i + 3] * w[i + 3] + x[i + 7] * w[i + 7];	\
	}								\
	for (; i < n; i++)						\
		a0 += x[i] * w[i];					\
	return a0 + a1 + a2 + a3;					\
}

/* four output channels at once: each input byte is loaded once */
#define DPU_DOT4(name, TX, TW)						\
static noinline DPU_VEC void name(s32 *acc, const void *xp, const void *wp,	\
				  size_t ws,				\
		 u32 n)							\
{									\
	const TX *x = xp;						\
	const TW *w0 = wp, *w1 = w0 + ws, *w2 = w1 + ws, *w3 = w2 + ws;	\
	s32 a0 = 0, a1 = 0, a2 = 0, a3 = 0;				\
	u32 i = 0;							\
									\
	for (; i + 2 <= n; i += 2) {					\
		s32 x0 = x[i], x1 = x[i + 1];				\
									\
		a0 += x0 * w0[i] + x1 * w0[i + 1];			\
		a1 += x0 * w1[i] + x1 * w1[i + 1];			\
		a2 += x0 * w2[i] + x1 * w2[i + 1];			\
		a3 += x0 * w3[i] + x1 * w3[i + 1];			\
	}								\
	if (i < n) {							\
		a0 += x[i] * w0[i];					\
		a1 += x[i] * w1[i];					\
		a2 += x[i] * w2[i];					\
		a3 += x[i] * w3[i];					\
	}								\
	acc[0] += a0;							\
	acc[1] += a1;							\
	acc[2] += a2;							\
	acc[3] += a3;							\
}

DPU_DOT(dot_uu, u8, u8)
DPU_DOT(dot_su, s8, u8)
DPU_DOT(dot_us, u8, s8)
DPU_DOT(dot_ss, s8, s8)
DPU_DOT4(dot4_uu, u8, u8)
DPU_DOT4(dot4_su, s8, u8)
DPU_DOT4(dot4_us, u8, s8)
DPU_DOT4(dot4_ss, s8, s8)

static inline void dpu_dot4(u32 combo, s32 *acc, const u8 *x, const u8 *w,
			    size_t ws, u32 n)
{
	switch (combo) {
	case 0:
		dot4_uu(acc, x, w, ws, n);
		break;
	case 1:
		dot4_su(acc, x, w, ws, n);
		break;
	case 2:
		dot4_us(acc, x, w, ws, n);
		break;
	default:
		dot4_ss(acc, x, w, ws, n);
		break;
	}
}

static inline s32 dpu_dot(u32 combo, const u8 *x, const u8 *w, u32 n)
{
	switch (combo) {
	case 0:
		return dot_uu(x, w, n);
	case 1:
		return dot_su(x, w, n);
	case 2:
		return dot_us(x, w, n);
	default:
		return dot_ss(x, w, n);
	}
}

static s32 sum_u8(const u8 *p, u32 n)
{
	s32 a0 = 0, a1 = 0;
	u32 i = 0;

	for (; i + 2 <= n; i += 2) {
		a0 += p[i];
		a1 += p[i + 1];
	}
	if (i < n)
		a0 += p[i];
	return a0 + a1;
}

static s32 sum_s8(const s8 *p, u32 n)
{
	s32 a0 = 0, a1 = 0;
	u32 i = 0;

	for (; i + 2 <= n; i += 2) {
		a0 += p[i];
		a1 += p[i + 1];
	}
	if (i < n)
		a0 += p[i];
	return a0 + a1;
}

static inline s32 dpu_sum(bool is_signed, const u8 *p, u32 n)
{
	return is_signed ? sum_s8((const s8 *)p, n) : sum_u8(p, n);
}

static inline const struct vpux_hw_requant *
dpu_q(const struct vpux_hw_dpu_desc *d, const struct vpux_dpu_operands *o, u32 c)
{
	return (d->flags & VPUX_DPU_F_PER_CHANNEL) ? &o->quant[c] : &d->requant;
}

static inline void dpu_store(const struct vpux_hw_dpu_desc *d,
			     const struct vpux_dpu_operands *o, size_t idx,
			     s64 acc, u32 c)
{
	vpux_dpu_store(d, o->out, idx, acc, dpu_q(d, o, c));
}

/* ---- convolution / matmul: dot products over input channels ---- */

/*
 * One tap (or one merged row of taps) of @n inputs for @nb (1 or 4)
 * output channels whose weights are @ws apart; @sumw, if set, also
 * collects the weight sums of the partial window.
 */
static VPUX_WRAPS void conv_tap(u32 combo, s32 *raw, u32 *sumw,
				const u8 *xp, const u8 *wp, u32 ws, u32 n,
				u32 nb)
{
	u32 b;

	if (nb == 4)
		dpu_dot4(combo, raw, xp, wp, ws, n);
	else
		raw[0] += dpu_dot(combo, xp, wp, n);
	if (sumw)
		for (b = 0; b < nb; b++)
			sumw[b] += (u32)dpu_sum(combo & 2, wp + (size_t)b * ws, n);
}

/* sum of the valid inputs of group @grp in the window of pixel @p */
static noinline_for_stack VPUX_WRAPS u32
conv_sumx(const struct dpu_geom *g, const struct dpu_pix *p, const u8 *in,
	  bool in_s, u32 grp)
{
	u32 ky, kx, sum = 0;

	for (ky = p->ky0; ky < p->ky1; ky++) {
		size_t row = (size_t)(p->iy0 + (s64)ky * g->dh) * g->in_w;

		for (kx = p->kx0; kx < p->kx1; kx++) {
			size_t ix = (size_t)(p->ix0 + (s64)kx * g->dw);

			sum += (u32)dpu_sum(in_s, in + (row + ix) * g->in_c +
					    (size_t)grp * g->cin_g, g->cin_g);
		}
	}
	return sum;
}

/*
 * Raw dot products (and, if @sumw, partial-window weight sums) of the
 * window @p for @nb (1 or 4) output channels of one group: @x is the
 * group's first input channel, @wp the first channel's weights.
 */
static noinline_for_stack void conv_dots(const struct dpu_geom *g,
					 const struct dpu_pix *p, u32 combo,
					 const u8 *x, const u8 *wp, s32 *raw,
					 u32 *sumw, u32 nb)
{
	/* taps of a row merge into one dot product when contiguous */
	bool merge = g->groups == 1 && g->dw == 1;
	u32 kslice = g->kw * g->cin_g;	/* weights per (oc, ky) */
	u32 kfull = g->kh * kslice;	/* weights per oc */
	u32 n = merge ? (p->kx1 - p->kx0) * g->in_c : g->cin_g;
	u32 kx_end = merge ? p->kx0 + 1 : p->kx1;
	u32 ky, kx;

	for (ky = p->ky0; ky < p->ky1; ky++) {
		size_t row = (size_t)(p->iy0 + (s64)ky * g->dh) * g->in_w;
		const u8 *wrow = wp + (size_t)ky * kslice;
		const u8 *xrow = x + row * g->in_c;

		for (kx = p->kx0; kx < kx_end; kx++) {
			size_t ix = (size_t)(p->ix0 + (s64)kx * g->dw);

			conv_tap(combo, raw, sumw, xrow + ix * g->in_c,
				 wrow + (size_t)kx * g->cin_g, kfull, n, nb);
		}
	}
}

/*
 * Output channels [oc0, oc1) of the pixel whose window is @p, stored from
 * @obase (index of channel 0 of the pixel); @wsum holds the full-window
 * weight sums of the block when the input zero point is non-zero. The
 * helpers are kept out of line so that no stack frame grows large.
 */
static noinline_for_stack VPUX_WRAPS void
conv_pixel(const struct vpux_hw_dpu_desc *d, const struct vpux_dpu_operands *o,
	   const struct dpu_geom *g, const struct dpu_pix *p,
	   const s32 *wsum, u32 oc0, u32 oc1, size_t obase)
{
	bool in_s = d->flags & VPUX_DPU_F_IN_SIGNED;
	bool w_s = d->flags & VPUX_DPU_F_W_SIGNED;
	u32 combo = (in_s ? 1u : 0u) | (w_s ? 2u : 0u);
	u32 xz = (u32)d->in_zp, wz = (u32)d->in2_zp;
	u32 kfull = g->kh * g->kw * g->cin_g;	/* weights per oc */
	u32 ntaps = (p->ky1 - p->ky0) * (p->kx1 - p->kx0);
	bool full = ntaps == g->kh * g->kw;
	u32 oc, b, nb, cur_g = ~0u, sumx = 0;

	for (oc = oc0; oc < oc1; oc += nb) {
		u32 grp = oc / g->cout_g, sumw[4] = { 0 }, acc;
		s32 raw[4] = { 0 };

		/* four channels of one group share the input */
		nb = oc + 4 <= oc1 && (oc + 3) / g->cout_g == grp ? 4 : 1;
		if (wz && grp != cur_g) {
			sumx = conv_sumx(g, p, o->in, in_s, grp);
			cur_g = grp;
		}
		if (ntaps)
			conv_dots(g, p, combo,
				  (const u8 *)o->in + (size_t)grp * g->cin_g,
				  (const u8 *)o->in2 + (size_t)oc * kfull, raw,
				  xz && !full ? sumw : NULL, nb);
		for (b = 0; b < nb; b++) {
			if (xz && full)
				sumw[b] = (u32)wsum[oc + b - oc0];
			/* exact modulo 2^32; true value fits s32 */
			acc = (u32)raw[b] - wz * sumx - xz * sumw[b] +
			      ntaps * g->cin_g * xz * wz;
			dpu_store(d, o, obase + oc + b,
				  (s64)(s32)acc +
				  ((d->flags & VPUX_DPU_F_BIAS) ?
				   o->bias[oc + b] : 0), oc + b);
		}
	}
}

/* full-window weight sums of output channels [oc0, oc1) */
static noinline_for_stack void conv_wsum(const struct vpux_hw_dpu_desc *d,
					 const struct vpux_dpu_operands *o,
					 const struct dpu_geom *g, u32 oc0,
					 u32 oc1, s32 *wsum)
{
	bool w_s = d->flags & VPUX_DPU_F_W_SIGNED;
	const u8 *w = o->in2;
	u32 kfull = g->kh * g->kw * g->cin_g;	/* weights per oc */
	u32 oc;

	for (oc = oc0; oc < oc1; oc++)
		wsum[oc - oc0] = dpu_sum(w_s, w + (size_t)oc * kfull, kfull);
}

/*
 * Output channels [oc0, oc1) of the pixels of output row @oy. Returns
 * true if the op must stop.
 */
static noinline_for_stack bool conv_row(const struct vpux_hw_dpu_desc *d,
					const struct vpux_dpu_operands *o,
					const struct dpu_geom *g,
					const s32 *wsum, u32 oc0, u32 oc1,
					u32 oy)
{
	/* MACs of one pixel of the block, at most 2^21 */
	u64 px_work = (u64)(oc1 - oc0) * g->kh * g->kw * g->cin_g, since = 0;
	struct dpu_pix p;
	u32 ox;

	dpu_pix_row(g, &p, oy);
	for (ox = 0; ox < g->out_w; ox++) {
		dpu_pix_col(g, &p, ox);
		conv_pixel(d, o, g, &p, wsum, oc0, oc1,
			   ((size_t)oy * g->out_w + ox) * g->out_c);
		if (dpu_work(o, &since, px_work))
			return true;
	}
	return false;
}

/*
 * Output channels [oc0, oc1), at most DPU_OC_BLOCK, of every pixel.
 * Returns true if the op must stop.
 */
static noinline bool conv_block(const struct vpux_hw_dpu_desc *d,
				const struct vpux_dpu_operands *o,
				const struct dpu_geom *g, u32 oc0, u32 oc1)
{
	s32 wsum[DPU_OC_BLOCK];
	u32 oy;

	if (d->in_zp)
		conv_wsum(d, o, g, oc0, oc1, wsum);
	for (oy = 0; oy < g->out_h; oy++) {
		if (conv_row(d, o, g, wsum, oc0, oc1, oy) || dpu_yield(o))
			return true;
	}
	return false;
}

/* ---- depthwise (one input and one output channel per group) ---- */

#define DPU_DW_BLOCK	32u	/* channels per depthwise block */
#define DPU_DW_WT	288u	/* bytes of transposed weights on the stack */

/*
 * @k consecutive taps of one window row for a block of @n channels: their
 * inputs are @xstep bytes apart, their weights @wstep apart. The weights
 * of consecutive channels are either strided (@wstride = ktaps, straight
 * from the [c][kh][kw] layout) or contiguous (@wstride = 1: the block's
 * weights transposed to [tap][c] once per block, which vectorises).
 */
#define DPU_DW_TAP(name, TX, TW)					\
static noinline DPU_VEC void name(s32 *acc, const void *xp, size_t xstep, \
				  const void *wp, u32 wstride, u32 wstep, \
				  u32 k, u32 n, s32 xz, s32 wz)		\
{									\
	const TX *x = xp;						\
	const TW *w = wp;						\
	u32 c, t;							\
									\
	for (t = 0; t < k; t++, x += xstep, w += wstep) {		\
		if (wstride == 1) {					\
			for (c = 0; c < n; c++)				\
				acc[c] += (dw_diff_t)(x[c] - xz) *	\
					  (dw_diff_t)(w[c] - wz);	\
			continue;					\
		}							\
		for (c = 0; c < n; c++)					\
			acc[c] += (dw_diff_t)(x[c] - xz) *		\
				  (dw_diff_t)(w[(size_t)c * wstride] - wz); \
	}								\
}

DPU_DW_TAP(dw_uu, u8, u8)
DPU_DW_TAP(dw_su, s8, u8)
DPU_DW_TAP(dw_us, u8, s8)
DPU_DW_TAP(dw_ss, s8, s8)

static void dpu_dw_taps(u32 combo, s32 *acc, const u8 *xp, size_t xstep,
			const u8 *wp, u32 wstride, u32 wstep, u32 k, u32 n,
			s32 xz, s32 wz)
{
	switch (combo) {
	case 0:
		dw_uu(acc, xp, xstep, wp, wstride, wstep, k, n, xz, wz);
		break;
	case 1:
		dw_su(acc, xp, xstep, wp, wstride, wstep, k, n, xz, wz);
		break;
	case 2:
		dw_us(acc, xp, xstep, wp, wstride, wstep, k, n, xz, wz);
		break;
	default:
		dw_ss(acc, xp, xstep, wp, wstride, wstep, k, n, xz, wz);
		break;
	}
}

/* bias, requantise and store the @n accumulators of channels from @c0 */
static noinline_for_stack void dw_store(const struct vpux_hw_dpu_desc *d,
					const struct vpux_dpu_operands *o,
					const s32 *acc, u32 c0, u32 n,
					size_t obase)
{
	u32 c;

	for (c = 0; c < n; c++)
		dpu_store(d, o, obase + c,
			  (s64)acc[c] + ((d->flags & VPUX_DPU_F_BIAS) ?
					 o->bias[c0 + c] : 0),
			  c0 + c);
}

/*
 * Channels [c0, c0 + n) of the pixel whose window is @p, stored from
 * @obase (index of channel c0 of the pixel); @wt holds the block's
 * weights transposed to [tap][c], or is NULL to read them strided.
 */
static noinline_for_stack void dw_pixel(const struct vpux_hw_dpu_desc *d,
					const struct vpux_dpu_operands *o,
					const struct dpu_geom *g,
					const struct dpu_pix *p, const u8 *wt,
					u32 c0, u32 n, size_t obase)
{
	bool in_s = d->flags & VPUX_DPU_F_IN_SIGNED;
	bool w_s = d->flags & VPUX_DPU_F_W_SIGNED;
	u32 combo = (in_s ? 1u : 0u) | (w_s ? 2u : 0u);
	u32 ktaps = g->kh * g->kw;
	const u8 *in = (const u8 *)o->in + c0;
	const u8 *w = (const u8 *)o->in2 + (size_t)c0 * ktaps;
	s32 acc[DPU_DW_BLOCK];
	size_t ix = (size_t)(p->ix0 + (s64)p->kx0 * g->dw);
	u32 ky;

	memset(acc, 0, n * sizeof(acc[0]));
	for (ky = p->ky0; ky < p->ky1 && p->kx1 > p->kx0; ky++) {
		size_t row = (size_t)(p->iy0 + (s64)ky * g->dh) * g->in_w;
		u32 tap = ky * g->kw + p->kx0;

		dpu_dw_taps(combo, acc, in + (row + ix) * g->in_c,
			    (size_t)g->dw * g->in_c,
			    wt ? wt + tap * n : w + tap, wt ? 1 : ktaps,
			    wt ? n : 1, p->kx1 - p->kx0, n, d->in_zp,
			    d->in2_zp);
	}
	dw_store(d, o, acc, c0, n, obase);
}

/*
 * Channels [c0, c0 + n) of every pixel, yielding after each row. Returns
 * true if the op must stop.
 */
static noinline_for_stack bool dw_rows(const struct vpux_hw_dpu_desc *d,
				       const struct vpux_dpu_operands *o,
				       const struct dpu_geom *g, const u8 *wt,
				       u32 c0, u32 n)
{
	u64 px_work = (u64)n * g->kh * g->kw, since = 0;
	struct dpu_pix p;
	u32 oy, ox;

	for (oy = 0; oy < g->out_h; oy++) {
		dpu_pix_row(g, &p, oy);
		for (ox = 0; ox < g->out_w; ox++) {
			dpu_pix_col(g, &p, ox);
			dw_pixel(d, o, g, &p, wt, c0, n,
				 ((size_t)oy * g->out_w + ox) * g->out_c + c0);
			if (dpu_work(o, &since, px_work))
				return true;
		}
		since = 0;
		if (dpu_yield(o))
			return true;
	}
	return false;
}

/* @n channels of @ktaps weights each, [c][tap] to [tap][c] */
static noinline_for_stack void dw_transpose(u8 *wt, const u8 *w, u32 ktaps,
					    u32 n)
{
	u32 c, t;

	for (c = 0; c < n; c++)
		for (t = 0; t < ktaps; t++)
			wt[t * n + c] = w[(size_t)c * ktaps + t];
}

static noinline bool dpu_depthwise(const struct vpux_hw_dpu_desc *d,
				   const struct vpux_dpu_operands *o,
				   const struct dpu_geom *g)
{
	u32 ktaps = g->kh * g->kw;
	bool tr = ktaps * DPU_DW_BLOCK <= DPU_DW_WT;
	const u8 *w = o->in2;
	u8 wt[DPU_DW_WT];
	u32 c0;

	for (c0 = 0; c0 < g->in_c; c0 += DPU_DW_BLOCK) {
		u32 n = g->in_c - c0 < DPU_DW_BLOCK ? g->in_c - c0 : DPU_DW_BLOCK;

		if (tr)
			dw_transpose(wt, w + (size_t)c0 * ktaps, ktaps, n);
		if (dw_rows(d, o, g, tr ? wt : NULL, c0, n))
			return true;
	}
	return false;
}

/* ---- pooling: vectorised over channels ---- */

/* one window position for @n channels: @mode 0 load, 1 max, 2 sum */
static noinline_for_stack void pool_tap(s32 *acc, const u8 *xu, u32 n, bool in_s, int mode)
{
	const s8 *xs = (const s8 *)xu;
	u32 c;

	if (mode == 0 && in_s) {
		for (c = 0; c < n; c++)
			acc[c] = xs[c];
	} else if (mode == 0) {
		for (c = 0; c < n; c++)
			acc[c] = xu[c];
	} else if (mode == 1 && in_s) {
		for (c = 0; c < n; c++)
			acc[c] = xs[c] > acc[c] ? xs[c] : acc[c];
	} else if (mode == 1) {
		for (c = 0; c < n; c++)
			acc[c] = xu[c] > acc[c] ? xu[c] : acc[c];
	} else if (in_s) {
		for (c = 0; c < n; c++)
			acc[c] += xs[c];
	} else {
		for (c = 0; c < n; c++)
			acc[c] += xu[c];
	}
}

/* channels [c0, c0 + n) of the pixel whose window is @p, from @obase */
static noinline_for_stack void pool_pixel(const struct vpux_hw_dpu_desc *d,
					  const struct vpux_dpu_operands *o,
					  const struct dpu_geom *g,
					  const struct dpu_pix *p, u32 c0,
					  u32 n, size_t obase)
{
	bool in_s = d->flags & VPUX_DPU_F_IN_SIGNED;
	bool is_max = d->op == VPUX_DPU_OP_MAXPOOL;
	s32 count = (s32)((p->ky1 - p->ky0) * (p->kx1 - p->kx0));
	const u8 *in = (const u8 *)o->in + c0;
	s32 acc[DPU_CH_BLOCK];
	bool first = true;
	u32 c, ky, kx;

	for (c = 0; c < n; c++)
		acc[c] = 0;
	for (ky = p->ky0; ky < p->ky1; ky++) {
		size_t row = (size_t)(p->iy0 + (s64)ky * g->dh) * g->in_w;

		for (kx = p->kx0; kx < p->kx1; kx++) {
			size_t ix = (size_t)(p->ix0 + (s64)kx * g->dw);

			pool_tap(acc, in + (row + ix) * g->in_c, n, in_s,
				 first ? 0 : is_max ? 1 : 2);
			first = false;
		}
	}
	for (c = 0; c < n; c++) {
		s32 v;

		if (!count)
			v = 0;
		else if (is_max)
			v = acc[c] - d->in_zp;
		else
			v = vpux_div_round(acc[c] - count * d->in_zp, count);
		dpu_store(d, o, obase + c, v, c0 + c);
	}
}

/* Returns true if the op must stop. */
static noinline bool dpu_pool(const struct vpux_hw_dpu_desc *d,
			      const struct vpux_dpu_operands *o,
			      const struct dpu_geom *g)
{
	/* element operations of one pixel's channel block */
	u64 blk_work = (u64)DPU_CH_BLOCK * g->kh * g->kw, since = 0;
	u32 oy, ox, c0;
	struct dpu_pix p;

	for (oy = 0; oy < g->out_h; oy++) {
		dpu_pix_row(g, &p, oy);
		for (ox = 0; ox < g->out_w; ox++) {
			size_t obase = ((size_t)oy * g->out_w + ox) * g->out_c;

			dpu_pix_col(g, &p, ox);
			for (c0 = 0; c0 < g->in_c; c0 += DPU_CH_BLOCK) {
				pool_pixel(d, o, g, &p, c0,
					   g->in_c - c0 < DPU_CH_BLOCK ?
					   g->in_c - c0 : DPU_CH_BLOCK,
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

/* ---- element-wise ---- */

/* Returns true if the op must stop. */
static bool dpu_eltwise(const struct vpux_hw_dpu_desc *d,
			const struct vpux_dpu_operands *o)
{
	bool in_s = d->flags & VPUX_DPU_F_IN_SIGNED;
	bool w_s = d->flags & VPUX_DPU_F_W_SIGNED;
	bool is_add = d->op == VPUX_DPU_OP_ADD;
	size_t row = (size_t)d->in_w * d->in_c, base = 0;
	u64 since = 0;
	u32 y, i, c;

	for (y = 0; y < d->in_h; y++, base += row) {
		for (i = 0, c = 0; i < row; i++) {
			s32 a = vpux_ld8(o->in, base + i, in_s) - d->in_zp;
			s32 b = vpux_ld8(o->in2, base + i, w_s) - d->in2_zp;
			s64 acc;

			if (is_add)
				acc = (s64)vpux_requant(a, &d->in_scale) +
				      vpux_requant(b, &d->in2_scale);
			else
				acc = a * b;
			dpu_store(d, o, base + i, acc, c);
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

#if !defined(__KERNEL__) && !defined(VPUX_DPU_SIMD)
/* no SIMD kernels in this build (dpu_simd.c has the others) */
int vpux_dpu_set_path(int path)
{
	(void)path;
	return VPUX_DPU_PATH_GENERIC;
}
#endif

/**
 * vpux_dpu_run() - execute a DPU descriptor on host copies of its operands
 * @d: descriptor
 * @o: operands sized by vpux_dpu_extents()
 *
 * Optimised implementation; results are identical to vpux_ref_dpu_run().
 * Calls @o->yield between output rows and within rows at least every
 * VPUX_DPU_YIELD_WORK operations plus one pixel's block of work.
 *
 * Return: 0, VPUX_ERR(DESC) if @d, an operand pointer or a per-channel
 * requant record is invalid (nothing written then), or VPUX_ERR(ABORTED)
 * if @o->yield asked to stop (the output is then partly written).
 */
int vpux_dpu_run(const struct vpux_hw_dpu_desc *d,
		 const struct vpux_dpu_operands *o)
{
	struct vpux_dpu_extents e;
	struct dpu_geom g;
	bool stop = false;
	u32 oc0, oc1;
	int ret;

	ret = vpux_dpu_extents(d, &e);
	if (ret)
		return ret;
	ret = vpux_dpu_check_operands(d, o);
	if (ret)
		return ret;
	if (d->flags & VPUX_DPU_F_FP16)
		return vpux_dpu_f16_run(d, o);
#ifdef VPUX_DPU_SIMD
	if (vpux_dpu_simd_run(d, o, &ret))
		return ret;
#endif
	dpu_geom_init(&g, d);
	switch (d->op) {
	case VPUX_DPU_OP_CONV:
		if (g.cin_g == 1 && g.cout_g == 1) {
			stop = dpu_depthwise(d, o, &g);
			break;
		}
		fallthrough;
	case VPUX_DPU_OP_MATMUL:
		for (oc0 = 0; oc0 < g.out_c && !stop; oc0 = oc1) {
			oc1 = g.out_c - oc0 < DPU_OC_BLOCK ?
			      g.out_c : oc0 + DPU_OC_BLOCK;
			stop = conv_block(d, o, &g, oc0, oc1);
		}
		break;
	case VPUX_DPU_OP_ADD:
	case VPUX_DPU_OP_MUL:
		stop = dpu_eltwise(d, o);
		break;
	default:
		stop = dpu_pool(d, o, &g);
		break;
	}
	return stop ? VPUX_ERR(ABORTED) : 0;
}
