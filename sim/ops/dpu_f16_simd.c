// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * x86-64 SIMD kernels of the NPU model's FP16 DPU ops, user space only:
 * the kernel module never builds this file (./Kbuild lists its objects)
 * and the freestanding build compiles it to nothing (VPUX_DPU_SIMD,
 * vpux_ops_internal.h). vpux_dpu_f16_run() offers every FP16 descriptor
 * to vpux_dpu_f16_simd_run() first; what it declines (pooling, ADD, SUB,
 * MUL) runs on the generic soft-float code of dpu_f16.c, which is what
 * the kernel runs.
 *
 * CONV (dense, grouped, depthwise, channel multipliers; any kernel,
 * stride, dilation, padding) and MATMUL (plain, batched, weights [K][N])
 * run here in native FP32 with F16C conversions, on AVX-512F or on AVX2
 * + FMA, chosen at run time (__builtin_cpu_supports,
 * vpux_dpu_set_path(): GENERIC forces the generic code, AVX2 the AVX2
 * kernels, AVX512VNNI the AVX-512F ones; so a CPU with AVX-512F but not
 * VNNI, which is never granted that path, runs FP16 on AVX2). Every
 * function with wider instructions than x86-64's baseline carries a
 * target attribute, so the file builds with the project's flags and runs
 * on any x86-64 CPU.
 *
 * Why the bytes are the reference's (ref/dpu_ref_f16.c):
 *
 *  - FP16 -> FP32 (vcvtph2ps) is exact, and so is the product of two
 *    FP16 values in FP32 (11 x 11 significand bits, exponents well inside
 *    FP32's normal range): vfmadd231ps(x, w, acc), which rounds x * w +
 *    acc once, is then exactly the definition's acc + x * w with the
 *    add's one rounding;
 *  - the vectors run ACROSS independent output elements: a lane is one
 *    output channel (the weights are repacked per op into FP32 panels
 *    [k][lane]), and each lane adds its products one after the other in
 *    the definition's order, +0 first, then (ky, kx, ci) ascending or k
 *    ascending. Nothing is ever reassociated: no partial sums over K,
 *    no horizontal adds; register blocking is over pixels and channels
 *    only;
 *  - padded taps are not in the sum (no zero-padded image: 0 x Inf would
 *    be NaN): the pixels of a row that share the same valid taps form a
 *    block, and the block's window is a list of runs of valid taps;
 *  - the output stage is vpux_dpu_f_stage() and vpux_dpu_f_store() one
 *    IEEE operation at a time: bias add, scale multiply then shift add
 *    (two roundings, never fused: see fs_nofuse()), the activation by
 *    sign bit and ordered compares (RELU turns -0 into +0; NaN passes
 *    through), NaN made canonical, then FP32 or vcvtps2ph with
 *    round-to-nearest-even from the immediate;
 *  - all this needs the default MXCSR: round to nearest, no
 *    flush-to-zero, no denormals-are-zero, exceptions masked (an
 *    unmasked invalid would trap on 0 x Inf). A process that changed it
 *    gets the generic code (fs_mxcsr_ok()).
 *
 * Performance: the microkernel holds 6 pixels x up to 4 vectors of
 * channels (AVX-512: 24 zmm accumulators, 6 x 64 channels; AVX2: 12 ymm,
 * 6 x 16): per k step V panel loads, 6 broadcasts and 6 x V FMAs. The
 * loops run panel by panel (a panel, K x 64 FP32, stays in L2 while all
 * pixels pass), the input converted once per op to FP32. A grouped
 * convolution runs the same kernel per group (its lanes are the group's
 * output channels, so small groups leave lanes idle). Depthwise (groups
 * == in_c == out_c) has its own: a lane per channel, the weights
 * transposed to [tap][channel], per tap V weight loads and P x V input
 * loads feeding P x V FMAs. A channel multiplier (out_c = m x in_c) runs
 * on the grouped kernel with m lanes of each vector busy: correct, not
 * fast.
 *
 * Scratch comes from malloc (the FP32 input, the panels); if an
 * allocation fails or would exceed FS_MAX_SCRATCH the generic code runs
 * the op instead.
 */
#include "vpux_ops_internal.h"

#ifdef VPUX_DPU_SIMD

#include <stdlib.h>
#include <cpuid.h>
#include <immintrin.h>

#define FS_P		6u	/* output pixels per microkernel */
#define FS_VMAX		4u	/* vectors of channels per microkernel */
#define FS_MAX_SCRATCH	((size_t)512 << 20)

#define FS_AVX2		__attribute__((target("avx2,fma,f16c")))
#define FS_AVX512	__attribute__((target("avx512f,avx2,fma,f16c")))
#define FS_INLINE	inline __attribute__((always_inline))

/* a run of consecutive valid taps: input and panel offsets in floats */
struct fs_run {
	u32 xoff, woff, len;
};

/* one call of a microkernel */
struct fs_blk {
	const float *xp[FS_P];		/* each pixel's first valid input */
	const float *w;			/* the panel */
	const struct fs_run *runs;
	u32 nruns;
	float *acc;			/* out: [FS_P][nb] */
};

struct fs_op;
typedef void fs_micro_fn(const struct fs_blk *b);
typedef void fs_store_fn(const struct fs_op *c, const float *acc, u32 np,
			 size_t pix0, u32 oc0, u32 nc);

/* the kernels of one instruction set */
struct fs_isa {
	u32 vl;				/* floats per vector */
	u32 vmax;			/* vectors per microkernel */
	fs_micro_fn *micro[FS_P + 1][FS_VMAX + 1];
	fs_micro_fn *dw_micro[FS_P + 1][FS_VMAX + 1];	/* depthwise */
	fs_store_fn *store;
	void (*cvt)(float *dst, const void *src, size_t n);
};

struct fs_op {
	const struct vpux_hw_dpu_desc *d;
	const struct vpux_dpu_operands *o;
	const struct fs_isa *isa;
	u32 nb, v;			/* lanes per panel, vectors */
	u32 groups, cin_g, cout_g, npan;	/* npan: panels per group */
	bool dw;			/* depthwise: lanes are channels */
	u32 ktot;			/* k steps of a panel */
	u32 pmax;			/* pixels per microkernel call */
	float *x;			/* the input in FP32 */
	float *row;			/* one row of weights in FP32 */
	float *w;			/* panels [group][panel][k][nb] */
	/* output stage per channel, out_c + nb entries each */
	float *bias, *scale, *shift, *slope;
	bool biased, scaled;
	struct fs_run *runs;		/* kernel_h * kernel_w entries */
	u64 since;			/* work since the last yield */
};

/* ---- the path ---- */

/* round to nearest, no FTZ/DAZ, every exception masked */
static bool fs_mxcsr_ok(void)
{
	return (_mm_getcsr() & 0xffc0u) == 0x1f80u;
}

/*
 * AVX2, FMA and F16C (CPUID leaf 1, ECX bit 29: clang 14 has no
 * __builtin_cpu_supports("f16c"); the AVX2 test covers the OS's ymm state)
 */
static bool fs_cpu_avx2(void)
{
	unsigned int a, b, c, d;

	return __builtin_cpu_supports("avx2") &&
	       __builtin_cpu_supports("fma") &&
	       __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C);
}

static bool fs_cpu_avx512(void)
{
	return __builtin_cpu_supports("avx512f") && fs_cpu_avx2();
}

/*
 * An opaque copy: the compiler cannot fuse a multiply before it with an
 * add after it into an FMA (-ffp-contract), which would round once where
 * the definition rounds twice.
 */
#define fs_nofuse(v)	__asm__("" : "+x"(v))

static float fs_f(u32 bits)
{
	float f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

/* ---- AVX-512F ---- */

static FS_AVX512 void fs512_cvt(float *dst, const void *src, size_t n)
{
	const u8 *s = src;
	size_t i = 0;

	for (; i + 16 <= n; i += 16)
		_mm512_storeu_ps(dst + i, _mm512_cvtph_ps(
			_mm256_loadu_si256((const __m256i *)(s + 2 * i))));
	for (; i < n; i++)
		dst[i] = _cvtsh_ss((u16)(s[2 * i] | s[2 * i + 1] << 8));
}

/*
 * Accumulators of @P pixels x @V vectors of 16 channels over the block's
 * runs: per k step V panel loads, P broadcasts, P x V FMAs, each lane
 * adding its products in k order.
 */
static FS_INLINE FS_AVX512 void fs512_micro(const struct fs_blk *b,
					      const u32 P, const u32 V)
{
	__m512 a[FS_P][FS_VMAX];
	u32 r, p, v, j;

#pragma GCC unroll 6
	for (p = 0; p < P; p++)
#pragma GCC unroll 4
		for (v = 0; v < V; v++)
			a[p][v] = _mm512_setzero_ps();
	for (r = 0; r < b->nruns; r++) {
		const struct fs_run *run = &b->runs[r];
		const float *w = b->w + run->woff;
		const float *x[FS_P];

#pragma GCC unroll 6
		for (p = 0; p < P; p++)
			x[p] = b->xp[p] + run->xoff;
		for (j = 0; j < run->len; j++, w += 16 * V) {
			__m512 wv[FS_VMAX];

#pragma GCC unroll 4
			for (v = 0; v < V; v++)
				wv[v] = _mm512_loadu_ps(w + 16 * v);
#pragma GCC unroll 6
			for (p = 0; p < P; p++) {
				__m512 xb = _mm512_set1_ps(x[p][j]);

#pragma GCC unroll 4
				for (v = 0; v < V; v++)
					a[p][v] = _mm512_fmadd_ps(xb, wv[v],
								  a[p][v]);
			}
		}
	}
#pragma GCC unroll 6
	for (p = 0; p < P; p++)
#pragma GCC unroll 4
		for (v = 0; v < V; v++)
			_mm512_storeu_ps(b->acc + (p * V + v) * 16, a[p][v]);
}

/*
 * Depthwise: @P pixels x @V vectors of 16 channels, a lane per channel;
 * a run is one tap: its weights [c] (transposed per op), its inputs the
 * pixels' channels at that tap, one FMA per lane and tap, taps in order.
 */
static FS_INLINE FS_AVX512 void fs512_dw_micro(const struct fs_blk *b,
						 const u32 P, const u32 V)
{
	__m512 a[FS_P][FS_VMAX];
	u32 r, p, v;

#pragma GCC unroll 6
	for (p = 0; p < P; p++)
#pragma GCC unroll 4
		for (v = 0; v < V; v++)
			a[p][v] = _mm512_setzero_ps();
	for (r = 0; r < b->nruns; r++) {
		const struct fs_run *run = &b->runs[r];
		__m512 wv[FS_VMAX];

#pragma GCC unroll 4
		for (v = 0; v < V; v++)
			wv[v] = _mm512_loadu_ps(b->w + run->woff + 16 * v);
#pragma GCC unroll 6
		for (p = 0; p < P; p++)
#pragma GCC unroll 4
			for (v = 0; v < V; v++)
				a[p][v] = _mm512_fmadd_ps(_mm512_loadu_ps(
					b->xp[p] + run->xoff + 16 * v), wv[v],
					a[p][v]);
	}
#pragma GCC unroll 6
	for (p = 0; p < P; p++)
#pragma GCC unroll 4
		for (v = 0; v < V; v++)
			_mm512_storeu_ps(b->acc + (p * V + v) * 16, a[p][v]);
}

/* the output stage of 16 lanes from channel @c: vpux_dpu_f_stage() */
static FS_INLINE FS_AVX512 __m512 fs512_stage(const struct fs_op *c,
					       __m512 v, u32 oc)
{
	const struct vpux_hw_dpu_fparams *f = &c->d->f;
	const __m512i sign = _mm512_set1_epi32((int)VPUX_F32_SIGN);
	__mmask16 neg, m;

	if (c->biased)
		v = _mm512_add_ps(v, _mm512_loadu_ps(c->bias + oc));
	if (c->scaled) {
		v = _mm512_mul_ps(v, _mm512_loadu_ps(c->scale + oc));
		fs_nofuse(v);
		v = _mm512_add_ps(v, _mm512_loadu_ps(c->shift + oc));
	}
	switch (f->act) {
	case VPUX_DPU_ACT_RELU:
		/* sign bit set and not NaN (so -0 too): +0 */
		neg = _mm512_test_epi32_mask(_mm512_castps_si512(v), sign) &
		      _mm512_cmp_ps_mask(v, v, _CMP_ORD_Q);
		v = _mm512_maskz_mov_ps((__mmask16)~neg, v);
		break;
	case VPUX_DPU_ACT_CLAMP: {
		__m512 lo = _mm512_set1_ps(fs_f(f->clamp_lo));
		__m512 hi = _mm512_set1_ps(fs_f(f->clamp_hi));

		m = _mm512_cmp_ps_mask(v, lo, _CMP_LT_OQ);
		neg = _mm512_cmp_ps_mask(hi, v, _CMP_LT_OQ) & (__mmask16)~m;
		v = _mm512_mask_mov_ps(v, m, lo);
		v = _mm512_mask_mov_ps(v, neg, hi);
		break;
	}
	case VPUX_DPU_ACT_LEAKY:
	case VPUX_DPU_ACT_LEAKY_CH:
		neg = _mm512_test_epi32_mask(_mm512_castps_si512(v), sign) &
		      _mm512_cmp_ps_mask(v, v, _CMP_ORD_Q);
		v = _mm512_mask_mul_ps(v, neg, v,
				       _mm512_loadu_ps(c->slope + oc));
		break;
	default:
		break;
	}
	/* the canonical NaN: FP32 0x7fc00000, FP16 0x7e00 once converted */
	return _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q),
				  _mm512_castsi512_ps(
					_mm512_set1_epi32((int)VPUX_F32_NAN)));
}

/* @np pixels x channels [oc0, oc0 + nc) of the block's accumulators */
static FS_AVX512 void fs512_store(const struct fs_op *c, const float *acc,
				  u32 np, size_t pix0, u32 oc0, u32 nc)
{
	bool f32 = c->d->flags & VPUX_DPU_F_OUT_F32;
	size_t esz = f32 ? 4 : 2;
	u32 p, l;

	for (p = 0; p < np; p++) {
		u8 *dst = (u8 *)c->o->out +
			  ((pix0 + p) * c->d->out_c + oc0) * esz;

		for (l = 0; l < nc; l += 16, dst += 16 * esz) {
			__m512 v = fs512_stage(c, _mm512_loadu_ps(acc + p * c->nb + l),
					       oc0 + l);
			u32 n = nc - l < 16 ? nc - l : 16;

			if (f32) {
				if (n == 16) {
					_mm512_storeu_ps(dst, v);
				} else {
					float t[16];

					_mm512_storeu_ps(t, v);
					memcpy(dst, t, n * 4);
				}
			} else {
				/* FP16, round to nearest even (not MXCSR) */
				__m256i h = _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);

				if (n == 16) {
					_mm256_storeu_si256((__m256i *)dst, h);
				} else {
					u16 t[16];

					_mm256_storeu_si256((__m256i *)t, h);
					memcpy(dst, t, n * 2);
				}
			}
		}
	}
}

#define FS512_MICRO(P, V)						\
static FS_AVX512 void fs512_micro_##P##_##V(const struct fs_blk *b)	\
{									\
	fs512_micro(b, P, V);						\
}									\
static FS_AVX512 void fs512_dw_micro_##P##_##V(const struct fs_blk *b)	\
{									\
	fs512_dw_micro(b, P, V);					\
}
#define FS512_MICROS(P)	FS512_MICRO(P, 1) FS512_MICRO(P, 2)		\
			FS512_MICRO(P, 3) FS512_MICRO(P, 4)
FS512_MICROS(1)
FS512_MICROS(2)
FS512_MICROS(3)
FS512_MICROS(4)
FS512_MICROS(5)
FS512_MICROS(6)

#define FS512_ROW(m, P)	{ NULL, fs512_##m##_##P##_1, fs512_##m##_##P##_2, \
			  fs512_##m##_##P##_3, fs512_##m##_##P##_4 }
#define FS512_TABLE(m)	{ { NULL }, FS512_ROW(m, 1), FS512_ROW(m, 2),	\
			  FS512_ROW(m, 3), FS512_ROW(m, 4), FS512_ROW(m, 5), \
			  FS512_ROW(m, 6) }
static const struct fs_isa fs_avx512 = {
	.vl = 16,
	.vmax = 4,
	.micro = FS512_TABLE(micro),
	.dw_micro = FS512_TABLE(dw_micro),
	.store = fs512_store,
	.cvt = fs512_cvt,
};

/* ---- AVX2 + FMA ---- */

static FS_AVX2 void fs256_cvt(float *dst, const void *src, size_t n)
{
	const u8 *s = src;
	size_t i = 0;

	for (; i + 8 <= n; i += 8)
		_mm256_storeu_ps(dst + i, _mm256_cvtph_ps(
			_mm_loadu_si128((const __m128i *)(s + 2 * i))));
	for (; i < n; i++)
		dst[i] = _cvtsh_ss((u16)(s[2 * i] | s[2 * i + 1] << 8));
}

/* fs512_micro() with 8 channels per vector, 16 registers */
static FS_INLINE FS_AVX2 void fs256_micro(const struct fs_blk *b,
					    const u32 P, const u32 V)
{
	__m256 a[FS_P][2];
	u32 r, p, v, j;

#pragma GCC unroll 6
	for (p = 0; p < P; p++)
#pragma GCC unroll 2
		for (v = 0; v < V; v++)
			a[p][v] = _mm256_setzero_ps();
	for (r = 0; r < b->nruns; r++) {
		const struct fs_run *run = &b->runs[r];
		const float *w = b->w + run->woff;
		const float *x[FS_P];

#pragma GCC unroll 6
		for (p = 0; p < P; p++)
			x[p] = b->xp[p] + run->xoff;
		for (j = 0; j < run->len; j++, w += 8 * V) {
			__m256 wv[2];

#pragma GCC unroll 2
			for (v = 0; v < V; v++)
				wv[v] = _mm256_loadu_ps(w + 8 * v);
#pragma GCC unroll 6
			for (p = 0; p < P; p++) {
				__m256 xb = _mm256_broadcast_ss(&x[p][j]);

#pragma GCC unroll 2
				for (v = 0; v < V; v++)
					a[p][v] = _mm256_fmadd_ps(xb, wv[v],
								  a[p][v]);
			}
		}
	}
#pragma GCC unroll 6
	for (p = 0; p < P; p++)
#pragma GCC unroll 2
		for (v = 0; v < V; v++)
			_mm256_storeu_ps(b->acc + (p * V + v) * 8, a[p][v]);
}

/* fs512_dw_micro() with 8 channels per vector */
static FS_INLINE FS_AVX2 void fs256_dw_micro(const struct fs_blk *b,
					       const u32 P, const u32 V)
{
	__m256 a[FS_P][2];
	u32 r, p, v;

#pragma GCC unroll 6
	for (p = 0; p < P; p++)
#pragma GCC unroll 2
		for (v = 0; v < V; v++)
			a[p][v] = _mm256_setzero_ps();
	for (r = 0; r < b->nruns; r++) {
		const struct fs_run *run = &b->runs[r];
		__m256 wv[2];

#pragma GCC unroll 2
		for (v = 0; v < V; v++)
			wv[v] = _mm256_loadu_ps(b->w + run->woff + 8 * v);
#pragma GCC unroll 6
		for (p = 0; p < P; p++)
#pragma GCC unroll 2
			for (v = 0; v < V; v++)
				a[p][v] = _mm256_fmadd_ps(_mm256_loadu_ps(
					b->xp[p] + run->xoff + 8 * v), wv[v],
					a[p][v]);
	}
#pragma GCC unroll 6
	for (p = 0; p < P; p++)
#pragma GCC unroll 2
		for (v = 0; v < V; v++)
			_mm256_storeu_ps(b->acc + (p * V + v) * 8, a[p][v]);
}

/* lanes of @v whose sign bit is set and that are not NaN, as a mask */
static FS_INLINE FS_AVX2 __m256 fs256_neg(__m256 v)
{
	__m256 sign = _mm256_castsi256_ps(_mm256_srai_epi32(
		_mm256_castps_si256(v), 31));

	return _mm256_and_ps(sign, _mm256_cmp_ps(v, v, _CMP_ORD_Q));
}

static FS_INLINE FS_AVX2 __m256 fs256_stage(const struct fs_op *c, __m256 v,
					    u32 oc)
{
	const struct vpux_hw_dpu_fparams *f = &c->d->f;
	__m256 m, n;

	if (c->biased)
		v = _mm256_add_ps(v, _mm256_loadu_ps(c->bias + oc));
	if (c->scaled) {
		v = _mm256_mul_ps(v, _mm256_loadu_ps(c->scale + oc));
		fs_nofuse(v);
		v = _mm256_add_ps(v, _mm256_loadu_ps(c->shift + oc));
	}
	switch (f->act) {
	case VPUX_DPU_ACT_RELU:
		v = _mm256_andnot_ps(fs256_neg(v), v);
		break;
	case VPUX_DPU_ACT_CLAMP: {
		__m256 lo = _mm256_set1_ps(fs_f(f->clamp_lo));
		__m256 hi = _mm256_set1_ps(fs_f(f->clamp_hi));

		m = _mm256_cmp_ps(v, lo, _CMP_LT_OQ);
		n = _mm256_andnot_ps(m, _mm256_cmp_ps(hi, v, _CMP_LT_OQ));
		v = _mm256_blendv_ps(v, lo, m);
		v = _mm256_blendv_ps(v, hi, n);
		break;
	}
	case VPUX_DPU_ACT_LEAKY:
	case VPUX_DPU_ACT_LEAKY_CH:
		v = _mm256_blendv_ps(v, _mm256_mul_ps(v, _mm256_loadu_ps(
					c->slope + oc)), fs256_neg(v));
		break;
	default:
		break;
	}
	return _mm256_blendv_ps(v, _mm256_castsi256_ps(
			_mm256_set1_epi32((int)VPUX_F32_NAN)),
			_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
}

static FS_AVX2 void fs256_store(const struct fs_op *c, const float *acc,
				u32 np, size_t pix0, u32 oc0, u32 nc)
{
	bool f32 = c->d->flags & VPUX_DPU_F_OUT_F32;
	size_t esz = f32 ? 4 : 2;
	u32 p, l;

	for (p = 0; p < np; p++) {
		u8 *dst = (u8 *)c->o->out +
			  ((pix0 + p) * c->d->out_c + oc0) * esz;

		for (l = 0; l < nc; l += 8, dst += 8 * esz) {
			__m256 v = fs256_stage(c, _mm256_loadu_ps(acc + p * c->nb + l),
					       oc0 + l);
			u32 n = nc - l < 8 ? nc - l : 8;

			if (f32) {
				if (n == 8) {
					_mm256_storeu_ps((float *)(void *)dst, v);
				} else {
					float t[8];

					_mm256_storeu_ps(t, v);
					memcpy(dst, t, n * 4);
				}
			} else {
				/* FP16, round to nearest even (not MXCSR) */
				__m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);

				if (n == 8) {
					_mm_storeu_si128((__m128i *)dst, h);
				} else {
					u16 t[8];

					_mm_storeu_si128((__m128i *)t, h);
					memcpy(dst, t, n * 2);
				}
			}
		}
	}
}

#define FS256_MICRO(P, V)						\
static FS_AVX2 void fs256_micro_##P##_##V(const struct fs_blk *b)	\
{									\
	fs256_micro(b, P, V);						\
}									\
static FS_AVX2 void fs256_dw_micro_##P##_##V(const struct fs_blk *b)	\
{									\
	fs256_dw_micro(b, P, V);					\
}
#define FS256_MICROS(P)	FS256_MICRO(P, 1) FS256_MICRO(P, 2)
FS256_MICROS(1)
FS256_MICROS(2)
FS256_MICROS(3)
FS256_MICROS(4)
FS256_MICROS(5)
FS256_MICROS(6)

#define FS256_ROW(m, P)	{ NULL, fs256_##m##_##P##_1, fs256_##m##_##P##_2 }
#define FS256_TABLE(m)	{ { NULL }, FS256_ROW(m, 1), FS256_ROW(m, 2),	\
			  FS256_ROW(m, 3), FS256_ROW(m, 4), FS256_ROW(m, 5), \
			  FS256_ROW(m, 6) }
static const struct fs_isa fs_avx2 = {
	.vl = 8,
	.vmax = 2,
	.micro = FS256_TABLE(micro),
	.dw_micro = FS256_TABLE(dw_micro),
	.store = fs256_store,
	.cvt = fs256_cvt,
};

/* ---- the op: preparation, blocking, yields ---- */

static bool fs_yield(const struct vpux_dpu_operands *o)
{
	return o->yield && o->yield(o->yield_arg);
}

/*
 * Count @work and yield once VPUX_DPU_YIELD_WORK is reached, like the
 * generic code; preparing the operands counts too. Returns true if the op
 * must stop.
 */
static bool fs_work(struct fs_op *c, u64 work)
{
	c->since += work;
	if (c->since < VPUX_DPU_YIELD_WORK)
		return false;
	c->since = 0;
	return fs_yield(c->o);
}

/* the per-channel constants of the output stage */
static void fs_stage_init(struct fs_op *c)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	const struct vpux_hw_dpu_fparams *f = &d->f;
	u32 oc;

	c->biased = d->flags & VPUX_DPU_F_BIAS;
	c->scaled = d->flags & (VPUX_DPU_F_PER_CHANNEL | VPUX_DPU_F_SCALE);
	for (oc = 0; oc < d->out_c; oc++) {
		u32 scale = f->scale, shift = f->shift, slope = f->slope;

		if (vpux_dpu_fchan_used(d)) {
			const struct vpux_hw_dpu_fchan *r =
				vpux_dpu_fchan_rec(c->o, oc);

			if (d->flags & VPUX_DPU_F_PER_CHANNEL) {
				scale = r->scale;
				shift = r->shift;
			}
			if (f->act == VPUX_DPU_ACT_LEAKY_CH)
				slope = r->slope;
		}
		c->bias[oc] = c->biased ? fs_f(vpux_ld_u32(c->o->bias, oc)) : 0;
		c->scale[oc] = fs_f(scale);
		c->shift[oc] = fs_f(shift);
		c->slope[oc] = fs_f(slope);
	}
}

/* the input as FP32, row by row; true: stop */
static bool fs_input(struct fs_op *c, size_t rows, size_t row_elems)
{
	const u8 *in = c->o->in;
	size_t r;

	memset(c->x + rows * row_elems, 0, c->nb * sizeof(float));
	for (r = 0; r < rows; r++) {
		c->isa->cvt(c->x + r * row_elems, in + r * row_elems * 2,
			    row_elems);
		if (fs_work(c, row_elems))
			return true;
	}
	return false;
}

/*
 * Panel @pn of group @g (or of batch @g for MATMUL): [k][nb] FP32 with
 * k = (tap, ci) in weight order or MATMUL's k, lanes past the group's
 * channels 0. @w0 is the group's (batch's) first weight, @kstride and
 * @nstride the distances of consecutive k and n in elements.
 */
static void fs_pack(struct fs_op *c, float *panel, const u8 *w0, u32 pn,
		    size_t kstride, size_t nstride, float *row)
{
	u32 n0 = pn * c->nb, nc = c->cout_g - n0 < c->nb ? c->cout_g - n0 :
		 c->nb, l, k;

	memset(panel, 0, (size_t)c->ktot * c->nb * sizeof(float));
	if (nstride == 1) {		/* [K][N]: a row of n per k */
		for (k = 0; k < c->ktot; k++)
			c->isa->cvt(panel + (size_t)k * c->nb,
				    w0 + ((size_t)k * kstride + n0) * 2, nc);
		return;
	}
	for (l = 0; l < nc; l++) {	/* [N][K]: a row of k per n */
		c->isa->cvt(row, w0 + (size_t)(n0 + l) * nstride * 2, c->ktot);
		for (k = 0; k < c->ktot; k++)
			panel[(size_t)k * c->nb + l] = row[k];
	}
}

/* all panels; true: stop */
static bool fs_weights(struct fs_op *c, u32 nmat, size_t mat_elems,
		       size_t kstride, size_t nstride)
{
	size_t psz = (size_t)c->ktot * c->nb;
	u32 g, pn;

	for (g = 0; g < nmat; g++)
		for (pn = 0; pn < c->npan; pn++) {
			fs_pack(c, c->w + ((size_t)g * c->npan + pn) * psz,
				(const u8 *)c->o->in2 + g * mat_elems * 2, pn,
				kstride, nstride, c->row);
			if (fs_work(c, psz))
				return true;
		}
	return false;
}

/*
 * Depthwise weights [c][tap] to [tap][channels rounded up to panels],
 * FP32, the rounding 0; true: stop.
 */
static bool fs_dw_weights(struct fs_op *c)
{
	size_t cp = (size_t)c->npan * c->nb, t;
	u32 ch;

	memset(c->w, 0, c->ktot * cp * sizeof(float));
	for (ch = 0; ch < c->cout_g; ch++) {
		c->isa->cvt(c->row, (const u8 *)c->o->in2 +
			    (size_t)ch * c->ktot * 2, c->ktot);
		for (t = 0; t < c->ktot; t++)
			c->w[t * cp + ch] = c->row[t];
		if (fs_work(c, c->ktot))
			return true;
	}
	return false;
}

/* run the microkernel on @np pixels of panel @panel and store them */
static void fs_block(struct fs_op *c, struct fs_blk *b, u32 np,
		     size_t pix0, u32 oc0, u32 nc)
{
	(c->dw ? c->isa->dw_micro : c->isa->micro)[np][c->v](b);
	c->isa->store(c, b->acc, np, pix0, oc0, nc);
}

/*
 * Valid taps [*k0, *k1) of a window starting at @base (may be negative)
 * with @k taps @dil apart over an axis of @len (one range, maybe empty).
 */
static void fs_taps(s64 base, u32 k, u32 dil, u32 len, u32 *k0, u32 *k1)
{
	u32 t = 0;

	while (t < k && base + (s64)t * dil < 0)
		t++;
	*k0 = t;
	while (t < k && base + (s64)t * dil < len)
		t++;
	*k1 = t;
}

/*
 * The runs of the valid window [ky0, ky1) x [kx0, kx1): one per window
 * row when a row's taps are adjacent in the input and in the weights
 * (groups == 1, dilation_w == 1), else one per tap; offsets from the
 * first valid tap. Returns the count.
 */
static u32 fs_conv_runs(struct fs_op *c, u32 ky0, u32 ky1, u32 kx0, u32 kx1)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	bool merge = !c->dw && c->groups == 1 && d->dilation_w == 1;
	size_t rowlen = (size_t)d->in_w * d->in_c;
	u32 ky, kx, n = 0;

	if (ky1 == ky0 || kx1 == kx0)
		return 0;
	for (ky = ky0; ky < ky1; ky++) {
		for (kx = kx0; kx < (merge ? kx0 + 1 : kx1); kx++) {
			struct fs_run *r = &c->runs[n++];

			r->xoff = (u32)((size_t)(ky - ky0) * d->dilation_h * rowlen +
					(size_t)(kx - kx0) * d->dilation_w * d->in_c);
			/* a tap's weights: [cin_g][nb], depthwise [channels] */
			r->woff = (u32)(((size_t)ky * d->kernel_w + kx) *
					(c->dw ? (size_t)c->npan * c->nb :
					 (size_t)c->cin_g * c->nb));
			r->len = merge ? (kx1 - kx0) * c->cin_g : c->cin_g;
		}
	}
	return n;
}

/*
 * CONV output row @oy of panel @pn of group @g: the pixels in blocks of
 * up to c->pmax that share their valid taps. Returns true if the op
 * must stop.
 */
static bool fs_conv_row(struct fs_op *c, struct fs_blk *b, u32 g, u32 pn,
			u32 oy)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	size_t in_c = d->in_c, rowlen = (size_t)d->in_w * in_c;
	/* depthwise: one group, panel pn is channels [pn * nb, +nb) */
	u32 oc0 = g * c->cout_g + pn * c->nb;
	u32 nc = c->cout_g - pn * c->nb < c->nb ? c->cout_g - pn * c->nb : c->nb;
	size_t xch = c->dw ? oc0 : (size_t)g * c->cin_g;
	s64 iy0 = (s64)oy * d->stride_h - d->pad_top, ix0;
	u32 ky0, ky1, kx0, kx1, nx0, nx1, ox, p, q;
	const float *x0;

	fs_taps(iy0, d->kernel_h, d->dilation_h, d->in_h, &ky0, &ky1);
	for (ox = 0; ox < d->out_w; ox += p) {
		ix0 = (s64)ox * d->stride_w - d->pad_left;
		fs_taps(ix0, d->kernel_w, d->dilation_w, d->in_w, &kx0, &kx1);
		/* the next pixels with the same valid taps join the block */
		for (p = 1; p < c->pmax && ox + p < d->out_w; p++) {
			fs_taps(ix0 + (s64)p * d->stride_w, d->kernel_w,
				d->dilation_w, d->in_w, &nx0, &nx1);
			if (nx0 != kx0 || nx1 != kx1)
				break;
		}
		b->nruns = fs_conv_runs(c, ky0, ky1, kx0, kx1);
		x0 = c->x;
		if (b->nruns)
			x0 += (size_t)(iy0 + (s64)ky0 * d->dilation_h) * rowlen +
			      (size_t)(ix0 + (s64)kx0 * d->dilation_w) * in_c +
			      xch;
		for (q = 0; q < p; q++)
			b->xp[q] = x0 + (size_t)q * d->stride_w * in_c;
		fs_block(c, b, p, (size_t)oy * d->out_w + ox, oc0, nc);
		if (fs_work(c, (u64)p * nc * c->ktot))
			return true;
	}
	c->since = 0;
	return fs_yield(c->o);
}

/* CONV: panel by panel, row by row. Returns true if the op must stop. */
static bool fs_conv(struct fs_op *c, float *acc)
{
	size_t psz = (size_t)c->ktot * c->nb;
	struct fs_blk b;
	u32 g, pn, oy;

	b.acc = acc;
	b.runs = c->runs;
	for (g = 0; g < c->groups; g++)
		for (pn = 0; pn < c->npan; pn++) {
			/* depthwise: [tap][channel], this panel's channels */
			b.w = c->dw ? c->w + (size_t)pn * c->nb :
			      c->w + ((size_t)g * c->npan + pn) * psz;
			for (oy = 0; oy < c->d->out_h; oy++)
				if (fs_conv_row(c, &b, g, pn, oy))
					return true;
		}
	return false;
}

/*
 * MATMUL: for each batch and panel, blocks of up to c->pmax rows (within
 * a batch), one run of K; a block that completes a row of the output
 * tensor (in_w matrix rows) yields. Returns true if the op must stop.
 */
static bool fs_matmul(struct fs_op *c, float *acc)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	bool batch = d->flags & VPUX_DPU_F_BATCH;
	u32 nmat = batch ? d->in_h : 1, kk = d->in_c;
	size_t rows = batch ? d->in_w : (size_t)d->in_h * d->in_w;
	size_t psz = (size_t)c->ktot * c->nb, m0, m;
	struct fs_run run = { 0, 0, kk };
	struct fs_blk b;
	u32 g, pn, p, np;

	b.acc = acc;
	b.runs = &run;
	b.nruns = 1;
	for (g = 0; g < nmat; g++) {
		for (pn = 0; pn < c->npan; pn++) {
			u32 oc0 = pn * c->nb;
			u32 nc = d->out_c - oc0 < c->nb ? d->out_c - oc0 : c->nb;

			b.w = c->w + ((size_t)g * c->npan + pn) * psz;
			for (m0 = 0; m0 < rows; m0 += np) {
				m = g * rows + m0;
				np = rows - m0 < c->pmax ? (u32)(rows - m0) :
				     c->pmax;
				for (p = 0; p < np; p++)
					b.xp[p] = c->x + (m + p) * kk;
				fs_block(c, &b, np, m, oc0, nc);
				if ((m + np) / d->in_w != m / d->in_w) {
					c->since = 0;
					if (fs_yield(c->o))
						return true;
				} else if (fs_work(c, (u64)np * nc * kk)) {
					return true;
				}
			}
		}
	}
	return false;
}

static void fs_free(struct fs_op *c)
{
	free(c->x);
	free(c->w);
	free(c->bias);
	free(c->runs);
	free(c->row);
}

/*
 * Run FP16 CONV or MATMUL @d on the SIMD kernels the path selects.
 * Returns true with the result in *@ret if it ran, false if the generic
 * code must run it. The caller has validated @d and the operands.
 */
bool vpux_dpu_f16_simd_run(const struct vpux_hw_dpu_desc *d,
			   const struct vpux_dpu_operands *o, int *ret)
{
	int path = vpux_dpu_simd_path();
	bool mm = d->op == VPUX_DPU_OP_MATMUL, stop;
	size_t xs, ws, ss, nmat;
	struct fs_op c;
	float *acc;

	if (d->op != VPUX_DPU_OP_CONV && !mm)
		return false;
	memset(&c, 0, sizeof(c));
	/* the AVX-512 path (which int8 grants with VNNI) implies AVX-512F */
	if (path >= VPUX_DPU_PATH_AVX512VNNI && fs_cpu_avx512())
		c.isa = &fs_avx512;
	else if (path >= VPUX_DPU_PATH_AVX2 && fs_cpu_avx2())
		c.isa = &fs_avx2;
	else
		return false;
	if (!fs_mxcsr_ok())
		return false;
	c.d = d;
	c.o = o;
	c.groups = mm ? 1 : d->groups;
	/* depthwise: one "group" of all channels, a lane per channel */
	c.dw = c.groups > 1 && c.groups == d->in_c && d->out_c == d->in_c;
	if (c.dw)
		c.groups = 1;
	c.cin_g = c.dw ? 1 : d->in_c / c.groups;
	c.cout_g = d->out_c / c.groups;
	c.v = (c.cout_g + c.isa->vl - 1) / c.isa->vl;
	if (c.v > c.isa->vmax)
		c.v = c.isa->vmax;
	c.nb = c.v * c.isa->vl;
	c.npan = (c.cout_g + c.nb - 1) / c.nb;
	c.ktot = mm ? d->in_c : (u32)d->kernel_h * d->kernel_w * c.cin_g;
	/*
	 * At most 2^21 MACs per call (64 channels x VPUX_DPU_MAX_K, the
	 * generic code's block): the yield checks come between calls.
	 */
	c.pmax = ((u32)1 << 21) / (c.nb * c.ktot);
	c.pmax = c.pmax < 1 ? 1 : c.pmax > FS_P ? FS_P : c.pmax;
	nmat = mm ? (d->flags & VPUX_DPU_F_BATCH ? d->in_h : 1) : c.groups;
	/* depthwise reads up to a panel's lanes past the last channel */
	xs = ((size_t)d->in_h * d->in_w * d->in_c + c.nb) * sizeof(float);
	ws = nmat * c.npan * (size_t)c.ktot * c.nb * sizeof(float);
	ss = ((size_t)d->out_c + c.nb) * sizeof(float);
	if (xs > FS_MAX_SCRATCH || ws > FS_MAX_SCRATCH)
		return false;
	c.x = malloc(xs);
	c.w = aligned_alloc(64, (ws + 63) & ~(size_t)63);
	c.bias = calloc(4, ss);
	c.runs = malloc((mm ? 1 : (size_t)d->kernel_h * d->kernel_w) *
			sizeof(*c.runs));
	c.row = malloc((size_t)c.ktot * sizeof(float));
	acc = aligned_alloc(64, FS_P * FS_VMAX * 16 * sizeof(float));
	if (!c.x || !c.w || !c.bias || !c.runs || !c.row || !acc) {
		fs_free(&c);
		free(acc);
		return false;
	}
	c.scale = c.bias + ss / sizeof(float);
	c.shift = c.scale + ss / sizeof(float);
	c.slope = c.shift + ss / sizeof(float);
	fs_stage_init(&c);
	if (mm)
		stop = fs_input(&c, (size_t)d->in_h * d->in_w, d->in_c) ||
		       fs_weights(&c, (u32)nmat, (size_t)d->out_c * d->in_c,
				  d->flags & VPUX_DPU_F_W_KN ? d->out_c : 1,
				  d->flags & VPUX_DPU_F_W_KN ? 1 : d->in_c) ||
		       fs_matmul(&c, acc);
	else
		stop = fs_input(&c, d->in_h, (size_t)d->in_w * d->in_c) ||
		       (c.dw ? fs_dw_weights(&c) :
			fs_weights(&c, c.groups, (size_t)c.cout_g * c.ktot,
				   1, c.ktot)) ||
		       fs_conv(&c, acc);
	fs_free(&c);
	free(acc);
	*ret = stop ? VPUX_ERR(ABORTED) : 0;
	return true;
}

#endif /* VPUX_DPU_SIMD */
