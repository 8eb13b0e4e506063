// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * x86-64 SIMD kernels of the NPU model's FP16 DPU ops, user space only:
 * the kernel module never builds this file (./Kbuild lists its objects)
 * and the freestanding build compiles it to nothing (VPUX_DPU_SIMD,
 * vpux_ops_internal.h). vpux_dpu_f16_run() offers every FP16 descriptor
 * to vpux_dpu_f16_simd_run() first; what it declines (no SIMD path, a
 * changed MXCSR, no memory, a nested call) runs on the generic
 * soft-float code of dpu_f16.c, which is what the kernel runs.
 *
 * Every op runs here in native FP32 with F16C conversions: CONV (dense,
 * grouped, depthwise, channel multipliers; any kernel, stride, dilation,
 * padding), MATMUL (plain, batched, weights [K][N]), ADD, SUB and MUL
 * (every broadcast), MAXPOOL and AVGPOOL (COUNT_PAD, any window), on
 * AVX-512F or on AVX2 + FMA, chosen at run time (__builtin_cpu_supports,
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
 *    output channel (the weights are repacked into FP32 panels
 *    [k][lane]), and each lane adds its products one after the other in
 *    the definition's order, +0 first, then (ky, kx, ci) ascending or k
 *    ascending. Nothing is ever reassociated: no partial sums over K,
 *    no horizontal adds; register blocking is over pixels and channels
 *    only;
 *  - padded taps are not in the sum (no zero-padded image: 0 x Inf would
 *    be NaN): the pixels that share the same valid taps form a block,
 *    and the block's window is a list of runs of valid taps;
 *  - ADD, SUB, MUL: one vaddps, vsubps (a - b is a + (-b), -0 and NaN
 *    included) or vmulps (exact) per element; pooling: a lane per
 *    channel, the taps in (ky, kx) order, AVGPOOL from +0 with one vaddps
 *    per tap and one vdivps (IEEE, correctly rounded) by the count as
 *    FP32, MAXPOOL from the first tap with vpux_f32_max()'s rules
 *    (fs512_max(): NaN wins, +0 above -0);
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
 * loops run panel by panel, each packed (a 16 x 16 register transpose
 * of the [N][K] weights) right before its pixels pass, so it is still
 * in L2; blocks of pixels run on across output rows. The input is
 * converted once per op to FP32. A grouped convolution runs the same
 * kernel per group (its lanes are the group's output channels, so small
 * groups leave lanes idle). Depthwise (groups == in_c == out_c) has its
 * own: a lane per channel, the weights transposed to [tap][channel], per
 * tap V weight loads and P x V input loads feeding P x V FMAs. A channel
 * multiplier (out_c = m x in_c) runs on the grouped kernel with m lanes
 * of each vector busy: correct, not fast.
 *
 * Scratch is per thread and grows only (fs_tls_get(), freed when the
 * thread ends): no allocation, no fresh page per op. The panels of the
 * thread's last CONV or MATMUL stay there (up to FS_WCACHE_MAX), with a
 * copy of the weights they came from: the next op with the same bytes,
 * packed the same way (the bands of one layer), finds them by comparing.
 * If memory runs out, or an op would need more than FS_MAX_SCRATCH, the
 * generic code runs the op instead.
 */
#include "vpux_ops_internal.h"

#ifdef VPUX_DPU_SIMD

#include <pthread.h>
#include <stdlib.h>
#include <cpuid.h>
#include <immintrin.h>

#define FS_P		6u	/* output pixels per microkernel */
#define FS_VMAX		4u	/* vectors of channels per microkernel */
#define FS_MAX_SCRATCH	((size_t)512 << 20)
#define FS_LANES	(FS_VMAX * 16)	/* most lanes of a block */

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

/* the valid window of one pooling output pixel */
struct fs_win {
	s64 iy0, ix0;			/* input position of tap (0, 0) */
	u32 ky0, ky1, kx0, kx1;		/* valid taps [ky0, ky1) x [kx0, kx1) */
	u32 div;			/* AVGPOOL's divisor (FP32), 0: none */
	size_t obase;			/* the pixel's first output element */
};

struct fs_op;
typedef void fs_micro_fn(const struct fs_blk *b);
typedef void fs_store_fn(const struct fs_op *c, const float *acc, u32 np,
			 size_t pix0, u32 oc0, u32 nc);
typedef void fs_elt_fn(const struct fs_op *c, size_t i0, u32 n, u32 p,
		       const float *bx);
typedef void fs_pool_fn(const struct fs_op *c, const struct fs_win *w,
			u32 c0, u32 nc);
typedef void fs_pack_fn(float *panel, u32 nb, const u8 *w, size_t nstride,
			u32 nc, u32 ktot);

/* the kernels of one instruction set */
struct fs_isa {
	u32 vl;				/* floats per vector */
	u32 vmax;			/* vectors per microkernel */
	fs_micro_fn *micro[FS_P + 1][FS_VMAX + 1];
	fs_micro_fn *dw_micro[FS_P + 1][FS_VMAX + 1];	/* depthwise */
	fs_store_fn *store;
	fs_elt_fn *elt;			/* ADD, SUB, MUL */
	fs_pool_fn *pool[FS_VMAX + 1];	/* by vectors of channels */
	fs_pack_fn *pack;		/* a panel from weights [N][K] */
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
	float *row;			/* a channel's weights (depthwise) */
	float *w;			/* panels [group][panel][k][nb] */
	bool pack;			/* pack each panel before its use */
	bool one;			/* into the same buffer (w) each time */
	size_t mat_elems, kstride, nstride;	/* the weights' layout */
	/*
	 * Output stage per channel, out_c + FS_LANES entries each (ADD,
	 * SUB, MUL: per position of the channel pattern, see fs_elt_prep())
	 */
	float *bias, *scale, *shift, *slope;
	bool biased, scaled;
	struct fs_run *runs;		/* kernel_h * kernel_w entries */
	u64 since;			/* work since the last yield */
	/* ADD, SUB, MUL; pooling reads nelt too */
	size_t nelt;			/* elements of the input */
	u32 bmode;			/* VPUX_DPU_BCAST_* */
	u32 period;			/* of the channel pattern */
	float *bpat;			/* in2 by pattern position (C, SCALAR) */
	float *bx;			/* in2 of a chunk (HW) */
};

/* ---- the path ---- */

/* round to nearest, no FTZ/DAZ, every exception masked */
static bool fs_mxcsr_ok(void)
{
	return (_mm_getcsr() & 0xffc0u) == 0x1f80u;
}

/*
 * AVX2, FMA and F16C (CPUID leaf 1, ECX bit 29: clang 14 has no
 * __builtin_cpu_supports("f16c"); the AVX2 test covers the OS's ymm state).
 * Asked once: CPUID is a trap to the hypervisor in a virtual machine.
 */
static bool fs_cpu_avx2(void)
{
	static int f16c = -1;
	unsigned int a, b, c, d;
	int v = __atomic_load_n(&f16c, __ATOMIC_RELAXED);

	if (v < 0) {
		v = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C);
		__atomic_store_n(&f16c, v, __ATOMIC_RELAXED);
	}
	return __builtin_cpu_supports("avx2") &&
	       __builtin_cpu_supports("fma") && v;
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

/*
 * The output stage of @v, whose lanes are stage entries @si.., stored as
 * output elements @di..: the first @n lanes.
 */
static FS_INLINE FS_AVX512 void fs512_put(const struct fs_op *c, __m512 v,
					  u32 si, size_t di, u32 n)
{
	v = fs512_stage(c, v, si);
	if (c->d->flags & VPUX_DPU_F_OUT_F32) {
		float *dst = (float *)c->o->out + di;

		if (n == 16)
			_mm512_storeu_ps(dst, v);
		else
			_mm512_mask_storeu_ps(dst, (__mmask16)((1u << n) - 1),
					      v);
	} else {
		/* FP16, round to nearest even (not MXCSR) */
		__m256i h = _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);
		u8 *dst = (u8 *)c->o->out + di * 2;

		if (n == 16) {
			_mm256_storeu_si256((__m256i *)dst, h);
		} else {
			u16 t[16];

			_mm256_storeu_si256((__m256i *)t, h);
			memcpy(dst, t, n * 2);
		}
	}
}

/* @np pixels x channels [oc0, oc0 + nc) of the block's accumulators */
static FS_AVX512 void fs512_store(const struct fs_op *c, const float *acc,
				  u32 np, size_t pix0, u32 oc0, u32 nc)
{
	u32 p, l;

	for (p = 0; p < np; p++)
		for (l = 0; l < nc; l += 16)
			fs512_put(c, _mm512_loadu_ps(acc + p * c->nb + l),
				  oc0 + l, (pix0 + p) * c->d->out_c + oc0 + l,
				  nc - l < 16 ? nc - l : 16);
}

/*
 * FP16 elements @i.. of @p, @total long, as FP32 (exact); lanes past the
 * end read 0. Lanes past what the caller needs are garbage it ignores.
 */
static FS_INLINE FS_AVX512 __m512 fs512_ldh(const void *p, size_t i,
					    size_t total)
{
	const u8 *s = (const u8 *)p + 2 * i;
	u16 t[16];

	if (i + 16 <= total)
		return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)s));
	memset(t, 0, sizeof(t));
	memcpy(t, s, (total - i) * 2);
	return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)t));
}

/*
 * ADD, SUB, MUL of elements [i0, i0 + n), whose channel pattern starts at
 * position @p: in2 from the tensor (no broadcast), from @bx (HW: the
 * chunk's values) or from the pattern (C, SCALAR). One IEEE operation
 * per element: a - b is a + (-b), the product of two FP16 values exact.
 */
static FS_AVX512 void fs512_elt(const struct fs_op *c, size_t i0, u32 n,
				u32 p, const float *bx)
{
	const struct vpux_dpu_operands *o = c->o;
	u32 op = c->d->op, j;

	for (j = 0; j < n; j += 16) {
		__m512 a = fs512_ldh(o->in, i0 + j, c->nelt), b, r;

		if (c->bmode == VPUX_DPU_BCAST_NONE)
			b = fs512_ldh(o->in2, i0 + j, c->nelt);
		else if (bx)
			b = _mm512_loadu_ps(bx + j);
		else
			b = _mm512_loadu_ps(c->bpat + p);
		if (op == VPUX_DPU_OP_MUL)
			r = _mm512_mul_ps(a, b);
		else if (op == VPUX_DPU_OP_SUB)
			r = _mm512_sub_ps(a, b);
		else
			r = _mm512_add_ps(a, b);
		fs_nofuse(r);
		fs512_put(c, r, p, i0 + j, n - j < 16 ? n - j : 16);
		p += 16;
		if (p >= c->period)
			p -= c->period;
	}
}

/*
 * vpux_f32_max(@m, @v): NaN if either is (vmaxps(v, m) returns m when
 * one is NaN, so m's NaN stays and v's is put in); equal values (+0 and
 * -0 among them) give their AND, +0 unless both are -0.
 */
static FS_INLINE FS_AVX512 __m512 fs512_max(__m512 m, __m512 v)
{
	__mmask16 eq = _mm512_cmp_ps_mask(m, v, _CMP_EQ_OQ);
	__m512 r = _mm512_max_ps(v, m);

	r = _mm512_mask_mov_ps(r, _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), v);
	return _mm512_castsi512_ps(_mm512_mask_and_epi32(
		_mm512_castps_si512(r), eq, _mm512_castps_si512(m),
		_mm512_castps_si512(v)));
}

/*
 * Channels [c0, c0 + nc) (@V vectors) of the pooling pixel @w: the taps
 * in (ky, kx) order. MAXPOOL starts from the first tap, AVGPOOL from +0,
 * adds each tap with one rounding and divides once.
 */
static FS_INLINE FS_AVX512 void fs512_pool(const struct fs_op *c,
					   const struct fs_win *w, u32 c0,
					   u32 nc, const u32 V)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	bool is_max = d->op == VPUX_DPU_OP_MAXPOOL, first = true;
	__m512 acc[FS_VMAX];
	u32 ky, kx, v;

#pragma GCC unroll 4
	for (v = 0; v < V; v++)
		acc[v] = _mm512_setzero_ps();
	for (ky = w->ky0; ky < w->ky1; ky++) {
		size_t row = (size_t)(w->iy0 + (s64)ky * d->dilation_h) *
			     d->in_w;

		for (kx = w->kx0; kx < w->kx1; kx++) {
			size_t e = (row + (size_t)(w->ix0 + (s64)kx *
						   d->dilation_w)) *
				   d->in_c + c0;

#pragma GCC unroll 4
			for (v = 0; v < V; v++) {
				__m512 x = fs512_ldh(c->o->in, e + 16 * v,
						     c->nelt);

				if (!is_max)
					acc[v] = _mm512_add_ps(acc[v], x);
				else if (first)
					acc[v] = x;
				else
					acc[v] = fs512_max(acc[v], x);
			}
			first = false;
		}
	}
#pragma GCC unroll 4
	for (v = 0; v < V; v++) {
		if (w->div)
			acc[v] = _mm512_div_ps(acc[v],
					       _mm512_set1_ps(fs_f(w->div)));
		fs512_put(c, acc[v], c0 + 16 * v, w->obase + c0 + 16 * v,
			  nc - 16 * v < 16 ? nc - 16 * v : 16);
	}
}

/* @t[k] = lane k of each of the 16 rows @r (16 x 16 transpose) */
static FS_INLINE FS_AVX512 void fs512_tr16(__m512 *r, __m512 *t)
{
	u32 i;

	/* t[2j], t[2j + 1]: rows 2j, 2j + 1 interleaved */
#pragma GCC unroll 8
	for (i = 0; i < 16; i += 2) {
		t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
		t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
	}
	/* r[4q + e]: rows 4q .. 4q + 3 of lane 4j + e, 128-bit lane j */
#pragma GCC unroll 4
	for (i = 0; i < 16; i += 4) {
		__m512d a0 = _mm512_castps_pd(t[i]);
		__m512d a1 = _mm512_castps_pd(t[i + 1]);
		__m512d a2 = _mm512_castps_pd(t[i + 2]);
		__m512d a3 = _mm512_castps_pd(t[i + 3]);

		r[i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a0, a2));
		r[i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a0, a2));
		r[i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(a1, a3));
		r[i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(a1, a3));
	}
	/* 128-bit lanes: t[k] gathers lane j of r[e], r[4 + e], ... */
#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		__m512 v0 = _mm512_shuffle_f32x4(r[i], r[4 + i], 0x88);
		__m512 v1 = _mm512_shuffle_f32x4(r[i], r[4 + i], 0xdd);
		__m512 v2 = _mm512_shuffle_f32x4(r[8 + i], r[12 + i], 0x88);
		__m512 v3 = _mm512_shuffle_f32x4(r[8 + i], r[12 + i], 0xdd);

		t[i] = _mm512_shuffle_f32x4(v0, v2, 0x88);
		t[8 + i] = _mm512_shuffle_f32x4(v0, v2, 0xdd);
		t[4 + i] = _mm512_shuffle_f32x4(v1, v3, 0x88);
		t[12 + i] = _mm512_shuffle_f32x4(v1, v3, 0xdd);
	}
}

/*
 * A panel [ktot][nb] from the weights of its @nc lanes, [lane][k] with
 * lanes @nstride elements apart from @w: blocks of 16 lanes x 16 k
 * converted (16 loads), transposed in registers, stored as 16 rows of 16
 * lanes; lanes from @nc on are 0. 16 lanes at a time, so their rows
 * stream through the cache in order.
 */
static FS_AVX512 void fs512_pack(float *panel, u32 nb, const u8 *w,
				 size_t nstride, u32 nc, u32 ktot)
{
	static const u16 zero[16];
	const u8 *src[16];
	__m512 r[16], t[16];
	u32 k0, l0, kb, i;
	u16 h[16][16];

	for (l0 = 0; l0 < nb; l0 += 16) {
#pragma GCC unroll 16
		for (i = 0; i < 16; i++)
			src[i] = l0 + i < nc ?
				 w + (size_t)(l0 + i) * nstride * 2 : NULL;
		for (k0 = 0; k0 < ktot; k0 += 16) {
			kb = ktot - k0 < 16 ? ktot - k0 : 16;
			if (kb < 16) {	/* the last k: through a copy */
				memset(h, 0, sizeof(h));
				for (i = 0; i < 16; i++)
					if (src[i])
						memcpy(h[i], src[i] + k0 * 2,
						       kb * 2);
			}
#pragma GCC unroll 16
			for (i = 0; i < 16; i++) {
				const u8 *s = kb < 16 ? (const u8 *)h[i] :
					      src[i] ? src[i] + k0 * 2 :
					      (const u8 *)zero;

				r[i] = _mm512_cvtph_ps(_mm256_loadu_si256(
					(const __m256i *)s));
			}
			fs512_tr16(r, t);
			for (i = 0; i < kb; i++)
				_mm512_storeu_ps(panel + (size_t)(k0 + i) * nb +
						 l0, t[i]);
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
#define FS512_POOL(V)							\
static FS_AVX512 void fs512_pool_##V(const struct fs_op *c,		\
				     const struct fs_win *w, u32 c0, u32 nc) \
{									\
	fs512_pool(c, w, c0, nc, V);					\
}
FS512_POOL(1)
FS512_POOL(2)
FS512_POOL(3)
FS512_POOL(4)
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
	.elt = fs512_elt,
	.pool = { NULL, fs512_pool_1, fs512_pool_2, fs512_pool_3,
		  fs512_pool_4 },
	.pack = fs512_pack,
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

/* fs512_put() with 8 lanes */
static FS_INLINE FS_AVX2 void fs256_put(const struct fs_op *c, __m256 v,
					u32 si, size_t di, u32 n)
{
	v = fs256_stage(c, v, si);
	if (c->d->flags & VPUX_DPU_F_OUT_F32) {
		u8 *dst = (u8 *)c->o->out + di * 4;

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
		u8 *dst = (u8 *)c->o->out + di * 2;

		if (n == 8) {
			_mm_storeu_si128((__m128i *)dst, h);
		} else {
			u16 t[8];

			_mm_storeu_si128((__m128i *)t, h);
			memcpy(dst, t, n * 2);
		}
	}
}

static FS_AVX2 void fs256_store(const struct fs_op *c, const float *acc,
				u32 np, size_t pix0, u32 oc0, u32 nc)
{
	u32 p, l;

	for (p = 0; p < np; p++)
		for (l = 0; l < nc; l += 8)
			fs256_put(c, _mm256_loadu_ps(acc + p * c->nb + l),
				  oc0 + l, (pix0 + p) * c->d->out_c + oc0 + l,
				  nc - l < 8 ? nc - l : 8);
}

/* fs512_ldh() with 8 lanes */
static FS_INLINE FS_AVX2 __m256 fs256_ldh(const void *p, size_t i,
					  size_t total)
{
	const u8 *s = (const u8 *)p + 2 * i;
	u16 t[8];

	if (i + 8 <= total)
		return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)s));
	memset(t, 0, sizeof(t));
	memcpy(t, s, (total - i) * 2);
	return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)t));
}

/* fs512_elt() with 8 lanes */
static FS_AVX2 void fs256_elt(const struct fs_op *c, size_t i0, u32 n, u32 p,
			      const float *bx)
{
	const struct vpux_dpu_operands *o = c->o;
	u32 op = c->d->op, j;

	for (j = 0; j < n; j += 8) {
		__m256 a = fs256_ldh(o->in, i0 + j, c->nelt), b, r;

		if (c->bmode == VPUX_DPU_BCAST_NONE)
			b = fs256_ldh(o->in2, i0 + j, c->nelt);
		else if (bx)
			b = _mm256_loadu_ps(bx + j);
		else
			b = _mm256_loadu_ps(c->bpat + p);
		if (op == VPUX_DPU_OP_MUL)
			r = _mm256_mul_ps(a, b);
		else if (op == VPUX_DPU_OP_SUB)
			r = _mm256_sub_ps(a, b);
		else
			r = _mm256_add_ps(a, b);
		fs_nofuse(r);
		fs256_put(c, r, p, i0 + j, n - j < 8 ? n - j : 8);
		p += 8;
		if (p >= c->period)
			p -= c->period;
	}
}

/* fs512_max() with blends */
static FS_INLINE FS_AVX2 __m256 fs256_max(__m256 m, __m256 v)
{
	__m256 eq = _mm256_cmp_ps(m, v, _CMP_EQ_OQ);
	__m256 r = _mm256_max_ps(v, m);

	r = _mm256_blendv_ps(r, v, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
	return _mm256_blendv_ps(r, _mm256_and_ps(m, v), eq);
}

/* fs512_pool() with 8 channels per vector */
static FS_INLINE FS_AVX2 void fs256_pool(const struct fs_op *c,
					 const struct fs_win *w, u32 c0,
					 u32 nc, const u32 V)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	bool is_max = d->op == VPUX_DPU_OP_MAXPOOL, first = true;
	__m256 acc[FS_VMAX];
	u32 ky, kx, v;

#pragma GCC unroll 4
	for (v = 0; v < V; v++)
		acc[v] = _mm256_setzero_ps();
	for (ky = w->ky0; ky < w->ky1; ky++) {
		size_t row = (size_t)(w->iy0 + (s64)ky * d->dilation_h) *
			     d->in_w;

		for (kx = w->kx0; kx < w->kx1; kx++) {
			size_t e = (row + (size_t)(w->ix0 + (s64)kx *
						   d->dilation_w)) *
				   d->in_c + c0;

#pragma GCC unroll 4
			for (v = 0; v < V; v++) {
				__m256 x = fs256_ldh(c->o->in, e + 8 * v,
						     c->nelt);

				if (!is_max)
					acc[v] = _mm256_add_ps(acc[v], x);
				else if (first)
					acc[v] = x;
				else
					acc[v] = fs256_max(acc[v], x);
			}
			first = false;
		}
	}
#pragma GCC unroll 4
	for (v = 0; v < V; v++) {
		if (w->div)
			acc[v] = _mm256_div_ps(acc[v],
					       _mm256_set1_ps(fs_f(w->div)));
		fs256_put(c, acc[v], c0 + 8 * v, w->obase + c0 + 8 * v,
			  nc - 8 * v < 8 ? nc - 8 * v : 8);
	}
}

/* fs512_tr16() for 8 x 8 */
static FS_INLINE FS_AVX2 void fs256_tr8(__m256 *r, __m256 *t)
{
	u32 i;

#pragma GCC unroll 4
	for (i = 0; i < 8; i += 2) {
		t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
		t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
	}
	/* r[4q + e]: rows 4q .. 4q + 3 of lane e (128-bit lane 0), 4 + e (1) */
#pragma GCC unroll 2
	for (i = 0; i < 8; i += 4) {
		r[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
		r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xee);
		r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
		r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xee);
	}
#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		t[i] = _mm256_permute2f128_ps(r[i], r[4 + i], 0x20);
		t[4 + i] = _mm256_permute2f128_ps(r[i], r[4 + i], 0x31);
	}
}

/* fs512_pack() with blocks of 8 x 8 */
static FS_AVX2 void fs256_pack(float *panel, u32 nb, const u8 *w,
			       size_t nstride, u32 nc, u32 ktot)
{
	static const u16 zero[8];
	const u8 *src[8];
	__m256 r[8], t[8];
	u32 k0, l0, kb, i;
	u16 h[8][8];

	for (l0 = 0; l0 < nb; l0 += 8) {
#pragma GCC unroll 8
		for (i = 0; i < 8; i++)
			src[i] = l0 + i < nc ?
				 w + (size_t)(l0 + i) * nstride * 2 : NULL;
		for (k0 = 0; k0 < ktot; k0 += 8) {
			kb = ktot - k0 < 8 ? ktot - k0 : 8;
			if (kb < 8) {	/* the last k: through a copy */
				memset(h, 0, sizeof(h));
				for (i = 0; i < 8; i++)
					if (src[i])
						memcpy(h[i], src[i] + k0 * 2,
						       kb * 2);
			}
#pragma GCC unroll 8
			for (i = 0; i < 8; i++) {
				const u8 *s = kb < 8 ? (const u8 *)h[i] :
					      src[i] ? src[i] + k0 * 2 :
					      (const u8 *)zero;

				r[i] = _mm256_cvtph_ps(_mm_loadu_si128(
					(const __m128i *)s));
			}
			fs256_tr8(r, t);
			for (i = 0; i < kb; i++)
				_mm256_storeu_ps(panel + (size_t)(k0 + i) * nb +
						 l0, t[i]);
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
#define FS256_POOL(V)							\
static FS_AVX2 void fs256_pool_##V(const struct fs_op *c,		\
				   const struct fs_win *w, u32 c0, u32 nc) \
{									\
	fs256_pool(c, w, c0, nc, V);					\
}
FS256_POOL(1)
FS256_POOL(2)
FS256_POOL(3)
FS256_POOL(4)
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
	.elt = fs256_elt,
	.pool = { NULL, fs256_pool_1, fs256_pool_2, fs256_pool_3,
		  fs256_pool_4 },
	.pack = fs256_pack,
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

/*
 * The per-channel constants of the output stage: entry j is channel j %
 * @period, for j < @n, then FS_LANES entries of 0 (lanes no output takes).
 */
static void fs_stage_init(struct fs_op *c, u32 n, u32 period)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	const struct vpux_hw_dpu_fparams *f = &d->f;
	u32 j, oc;

	c->biased = d->flags & VPUX_DPU_F_BIAS;
	c->scaled = d->flags & (VPUX_DPU_F_PER_CHANNEL | VPUX_DPU_F_SCALE);
	for (j = 0, oc = 0; j < n + FS_LANES; j++) {
		u32 scale = f->scale, shift = f->shift, slope = f->slope;

		if (j >= n) {
			c->bias[j] = c->scale[j] = c->shift[j] = c->slope[j] = 0;
			continue;
		}
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
		c->bias[j] = c->biased ? fs_f(vpux_ld_u32(c->o->bias, oc)) : 0;
		c->scale[j] = fs_f(scale);
		c->shift[j] = fs_f(shift);
		c->slope[j] = fs_f(slope);
		if (++oc == period)
			oc = 0;
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
 * @nstride the distances of consecutive k and n in elements: weights
 * [K][N] are converted row by row, [N][K] transposed by the ISA's pack.
 */
static void fs_pack(struct fs_op *c, float *panel, const u8 *w0, u32 pn,
		    size_t kstride, size_t nstride)
{
	u32 n0 = pn * c->nb, nc = c->cout_g - n0 < c->nb ? c->cout_g - n0 :
		 c->nb, k;

	if (nstride != 1) {
		c->isa->pack(panel, c->nb, w0 + (size_t)n0 * nstride * 2,
			     nstride, nc, c->ktot);
		return;
	}
	for (k = 0; k < c->ktot; k++) {
		float *dst = panel + (size_t)k * c->nb;

		c->isa->cvt(dst, w0 + ((size_t)k * kstride + n0) * 2, nc);
		memset(dst + nc, 0, (c->nb - nc) * sizeof(float));
	}
}

/* panel @pn of group (batch) @g, packed into @panel; true: stop */
static bool fs_pack_one(struct fs_op *c, float *panel, u32 g, u32 pn)
{
	fs_pack(c, panel, (const u8 *)c->o->in2 + g * c->mat_elems * 2, pn,
		c->kstride, c->nstride);
	return fs_work(c, (u64)c->ktot * c->nb);
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

/* the valid taps of output pixel (@oy, @ox): [ky0, ky1) x [kx0, kx1) */
struct fs_taps4 {
	u32 ky0, ky1, kx0, kx1;
};

static void fs_pix_taps(const struct vpux_hw_dpu_desc *d, u32 oy, u32 ox,
			struct fs_taps4 *t)
{
	fs_taps((s64)oy * d->stride_h - d->pad_top, d->kernel_h,
		d->dilation_h, d->in_h, &t->ky0, &t->ky1);
	fs_taps((s64)ox * d->stride_w - d->pad_left, d->kernel_w,
		d->dilation_w, d->in_w, &t->kx0, &t->kx1);
}

/*
 * CONV, panel @pn of group @g: the output pixels in raster order, in
 * blocks of up to c->pmax that share their valid taps (so their runs);
 * a block may go on into the next row but holds at most one row's last
 * pixel, and yields after it. Returns true if the op must stop.
 */
static bool fs_conv_panel(struct fs_op *c, struct fs_blk *b, u32 g, u32 pn)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	size_t in_c = d->in_c, rowlen = (size_t)d->in_w * in_c;
	/* depthwise: one group, panel pn is channels [pn * nb, +nb) */
	u32 oc0 = g * c->cout_g + pn * c->nb;
	u32 nc = c->cout_g - pn * c->nb < c->nb ? c->cout_g - pn * c->nb : c->nb;
	size_t xch = c->dw ? oc0 : (size_t)g * c->cin_g;
	u32 oy = 0, ox = 0, y, x, p;
	struct fs_taps4 t, n;
	bool row_end;

	while (oy < d->out_h) {
		fs_pix_taps(d, oy, ox, &t);
		b->nruns = fs_conv_runs(c, t.ky0, t.ky1, t.kx0, t.kx1);
		row_end = false;
		for (p = 0, y = oy, x = ox; ; ) {
			/* pixel (y, x) joins as pixel p */
			b->xp[p] = c->x;
			if (b->nruns)
				b->xp[p] += (size_t)((s64)y * d->stride_h -
						     d->pad_top + (s64)t.ky0 *
						     d->dilation_h) * rowlen +
					    (size_t)((s64)x * d->stride_w -
						     d->pad_left + (s64)t.kx0 *
						     d->dilation_w) * in_c + xch;
			p++;
			row_end |= x + 1 == d->out_w;
			if (++x == d->out_w) {
				x = 0;
				y++;
			}
			if (p == c->pmax || y == d->out_h ||
			    (row_end && x + 1 == d->out_w))
				break;
			fs_pix_taps(d, y, x, &n);
			if (memcmp(&n, &t, sizeof(n)))
				break;
		}
		fs_block(c, b, p, (size_t)oy * d->out_w + ox, oc0, nc);
		oy = y;
		ox = x;
		if (row_end) {
			c->since = 0;
			if (fs_yield(c->o))
				return true;
		} else if (fs_work(c, (u64)p * nc * c->ktot)) {
			return true;
		}
	}
	return false;
}

/*
 * CONV: panel by panel (each packed just before its use when c->pack
 * says so: it is then still in the cache), row by row. Returns true if
 * the op must stop.
 */
static bool fs_conv(struct fs_op *c, float *acc)
{
	size_t psz = (size_t)c->ktot * c->nb;
	struct fs_blk b;
	u32 g, pn;

	b.acc = acc;
	b.runs = c->runs;
	for (g = 0; g < c->groups; g++)
		for (pn = 0; pn < c->npan; pn++) {
			/* depthwise: [tap][channel], this panel's channels */
			b.w = c->dw ? c->w + (size_t)pn * c->nb : c->one ? c->w :
			      c->w + ((size_t)g * c->npan + pn) * psz;
			if (c->pack && fs_pack_one(c, (float *)b.w, g, pn))
				return true;
			if (fs_conv_panel(c, &b, g, pn))
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

			b.w = c->one ? c->w :
			      c->w + ((size_t)g * c->npan + pn) * psz;
			if (c->pack && fs_pack_one(c, (float *)b.w, g, pn))
				return true;
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

/* ---- ADD / SUB / MUL ---- */

/* elements per call of the kernel (and between yield checks) */
#define FS_ELT_CHUNK	4096u

/*
 * in2 of elements [i0, i0 + n) with broadcast HW (element i takes in2[i
 * / in_c]) as FP32 in @bx: one value per pixel, repeated over channels.
 */
static void fs_hw_expand(float *bx, const u8 *b, size_t i0, u32 n, u32 in_c)
{
	size_t q = i0 / in_c;
	u32 j = 0, k, t, off = (u32)(i0 % in_c);

	while (j < n) {
		float v = fs_f(vpux_ld_f16(b, q++));

		k = in_c - off < n - j ? in_c - off : n - j;
		for (t = 0; t < k; t++)
			bx[j + t] = v;
		j += k;
		off = 0;
	}
}

/*
 * The channel pattern: element i has channel i % in_c; position p = i %
 * period, period = in_c rounded up to at least a vector, so the entries
 * [p, p + vl) of a table of period + vl entries whose entry j is channel
 * j % in_c are the channels of elements i .. i + vl - 1. The stage
 * constants and in2 with broadcast C (SCALAR: every entry in2[0]) are
 * such tables.
 */
static void fs_elt_prep(struct fs_op *c)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	u32 vl = c->isa->vl, j;

	fs_stage_init(c, c->period + vl, d->in_c);
	if (c->bmode == VPUX_DPU_BCAST_C || c->bmode == VPUX_DPU_BCAST_SCALAR)
		for (j = 0; j < c->period + vl; j++)
			c->bpat[j] = fs_f(vpux_ld_f16(c->o->in2,
				c->bmode == VPUX_DPU_BCAST_C ? j % d->in_c : 0));
	if (c->bmode == VPUX_DPU_BCAST_HW)
		memset(c->bx, 0, (FS_ELT_CHUNK + vl) * sizeof(float));
}

/*
 * ADD, SUB, MUL: each output row in chunks, yielding after every row and
 * when VPUX_DPU_YIELD_WORK elements were done. Returns true if the op
 * must stop.
 */
static bool fs_eltwise(struct fs_op *c)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	size_t row = (size_t)d->in_w * d->in_c, base, i;
	u32 y, n;

	for (y = 0, base = 0; y < d->in_h; y++, base += row) {
		for (i = 0; i < row; i += n) {
			n = row - i < FS_ELT_CHUNK ? (u32)(row - i) :
			    FS_ELT_CHUNK;
			if (c->bmode == VPUX_DPU_BCAST_HW)
				fs_hw_expand(c->bx, c->o->in2, base + i, n,
					     d->in_c);
			c->isa->elt(c, base + i, n,
				    (u32)((base + i) % c->period),
				    c->bmode == VPUX_DPU_BCAST_HW ? c->bx :
				    NULL);
			if (fs_work(c, n))
				return true;
		}
		c->since = 0;
		if (fs_yield(c->o))
			return true;
	}
	return false;
}

/* ---- MAXPOOL / AVGPOOL ---- */

/*
 * Pixel by pixel, channels in blocks of up to 4 vectors, yielding after
 * every output row and when VPUX_DPU_YIELD_WORK taps were read. The
 * divisor of AVGPOOL is the count of valid taps (kernel_h * kernel_w
 * with VPUX_DPU_F_COUNT_PAD) as FP32, none for an empty window (+0).
 * Returns true if the op must stop.
 */
static bool fs_pool(struct fs_op *c)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	u32 cb = c->isa->vl * FS_VMAX, oy, ox, c0, nc, count;
	u64 blk_work = (u64)d->kernel_h * d->kernel_w;
	struct fs_win w;

	for (oy = 0; oy < d->out_h; oy++) {
		w.iy0 = (s64)oy * d->stride_h - d->pad_top;
		for (ox = 0; ox < d->out_w; ox++) {
			w.ix0 = (s64)ox * d->stride_w - d->pad_left;
			fs_taps(w.iy0, d->kernel_h, d->dilation_h, d->in_h,
				&w.ky0, &w.ky1);
			fs_taps(w.ix0, d->kernel_w, d->dilation_w, d->in_w,
				&w.kx0, &w.kx1);
			if (w.ky1 == w.ky0)
				w.kx1 = w.kx0;	/* no valid tap at all */
			count = (w.ky1 - w.ky0) * (w.kx1 - w.kx0);
			if (d->flags & VPUX_DPU_F_COUNT_PAD)
				count = (u32)d->kernel_h * d->kernel_w;
			w.div = d->op == VPUX_DPU_OP_AVGPOOL && count ?
				vpux_f32_from_s32((s32)count) : 0;
			w.obase = ((size_t)oy * d->out_w + ox) * d->out_c;
			for (c0 = 0; c0 < d->in_c; c0 += cb) {
				nc = d->in_c - c0 < cb ? d->in_c - c0 : cb;
				c->isa->pool[(nc + c->isa->vl - 1) /
					     c->isa->vl](c, &w, c0, nc);
				if (fs_work(c, nc * blk_work))
					return true;
			}
		}
		c->since = 0;
		if (fs_yield(c->o))
			return true;
	}
	return false;
}

/* ---- scratch: per thread, grow-only; the last op's packed weights ---- */

/* scratch beyond this is allocated for the op alone and freed after it */
#define FS_KEEP_MAX	((size_t)64 << 20)
/*
 * Panels of at most this size are kept for the next op; larger weights
 * are packed one panel at a time into the same buffer, which then stays
 * in the cache
 */
#define FS_WCACHE_MAX	((size_t)4 << 20)

struct fs_buf {
	void *p;
	size_t size;
};

/* what the packed panels depend on besides the weights' bytes */
struct fs_wkey {
	const struct fs_isa *isa;
	u64 nmat, mat_elems, kstride, nstride, bytes;
	u32 dw, npan, nb, ktot, cout_g;
};

struct fs_tls {
	struct fs_buf scratch;		/* input, stage tables, runs, ... */
	struct fs_buf w;		/* the packed panels */
	struct fs_buf wsrc;		/* the bytes they were packed from */
	struct fs_wkey key;		/* and how */
	bool w_valid;			/* w, wsrc and key hold an op's */
	bool busy;			/* an op of this thread is running */
};

static __thread struct fs_tls *fs_tls;
static pthread_key_t fs_key;
static pthread_once_t fs_once = PTHREAD_ONCE_INIT;
static bool fs_key_ok;

static void fs_tls_free(void *p)
{
	struct fs_tls *t = p;

	if (!t)
		return;
	free(t->scratch.p);
	free(t->w.p);
	free(t->wsrc.p);
	free(t);
	if (fs_tls == t)
		fs_tls = NULL;
}

static void fs_key_init(void)
{
	fs_key_ok = !pthread_key_create(&fs_key, fs_tls_free);
}

/*
 * At exit (or when a program unloads the library): the calling thread's
 * buffers; other threads free theirs when they end (the key's
 * destructor), or, once the key is gone, never.
 */
__attribute__((destructor)) static void fs_fini(void)
{
	struct fs_tls *t = fs_tls;

	if (fs_key_ok) {
		pthread_setspecific(fs_key, NULL);
		pthread_key_delete(fs_key);
		fs_key_ok = false;
	}
	fs_tls_free(t);
}

/* the thread's buffers, NULL if out of memory */
static struct fs_tls *fs_tls_get(void)
{
	struct fs_tls *t = fs_tls;

	if (t)
		return t;
	pthread_once(&fs_once, fs_key_init);
	if (!fs_key_ok)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	if (pthread_setspecific(fs_key, t)) {
		free(t);
		return NULL;
	}
	fs_tls = t;
	return t;
}

/*
 * @b grown to at least @size bytes (64-byte aligned, by half its size at
 * least: fewer fresh pages to fault in); NULL if no memory
 */
static void *fs_buf_get(struct fs_buf *b, size_t size)
{
	if (b->size >= size)
		return b->p;
	free(b->p);
	if (size < b->size + b->size / 2)
		size = b->size + b->size / 2;
	b->size = 0;
	size = (size + 4095) & ~(size_t)4095;
	b->p = aligned_alloc(64, size);
	if (b->p)
		b->size = size;
	return b->p;
}

/*
 * @size bytes for the op: the thread's buffer @b if at most FS_KEEP_MAX,
 * else an allocation of its own that *@own holds (freed after the op).
 */
static void *fs_alloc(struct fs_buf *b, size_t size, void **own)
{
	if (size <= FS_KEEP_MAX)
		return fs_buf_get(b, size);
	*own = aligned_alloc(64, (size + 63) & ~(size_t)63);
	return *own;
}

/* a bump allocator over one scratch block: 64-byte aligned pieces */
static void *fs_take(u8 **p, size_t size)
{
	void *r = *p;

	*p += (size + 63) & ~(size_t)63;
	return r;
}

/* ---- the op ---- */

/*
 * CONV and MATMUL: the input in FP32, the weights in panels (reused from
 * the thread's previous op when it packed the same bytes the same way,
 * found by comparing them), the microkernels. Returns false if the
 * generic code must run the op.
 */
static bool fs_mac_run(struct fs_op *c, struct fs_tls *t, int *ret)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	const struct vpux_dpu_operands *o = c->o;
	bool mm = d->op == VPUX_DPU_OP_MATMUL, stop, hit, keep;
	size_t xs, ws, ss, rs, ts, nmat;
	void *own_s = NULL, *own_w = NULL;
	struct fs_wkey key;
	float *acc;
	u8 *p;

	c->groups = mm ? 1 : d->groups;
	/* depthwise: one "group" of all channels, a lane per channel */
	c->dw = c->groups > 1 && c->groups == d->in_c && d->out_c == d->in_c;
	if (c->dw)
		c->groups = 1;
	c->cin_g = c->dw ? 1 : d->in_c / c->groups;
	c->cout_g = d->out_c / c->groups;
	c->v = (c->cout_g + c->isa->vl - 1) / c->isa->vl;
	if (c->v > c->isa->vmax)
		c->v = c->isa->vmax;
	c->nb = c->v * c->isa->vl;
	c->npan = (c->cout_g + c->nb - 1) / c->nb;
	c->ktot = mm ? d->in_c : (u32)d->kernel_h * d->kernel_w * c->cin_g;
	/*
	 * At most 2^21 MACs per call (64 channels x VPUX_DPU_MAX_K, the
	 * generic code's block): the yield checks come between calls.
	 */
	c->pmax = ((u32)1 << 21) / (c->nb * c->ktot);
	c->pmax = c->pmax < 1 ? 1 : c->pmax > FS_P ? FS_P : c->pmax;
	nmat = mm ? (d->flags & VPUX_DPU_F_BATCH ? d->in_h : 1) : c->groups;
	if (mm) {
		c->mat_elems = (size_t)d->out_c * d->in_c;
		c->kstride = d->flags & VPUX_DPU_F_W_KN ? d->out_c : 1;
		c->nstride = d->flags & VPUX_DPU_F_W_KN ? 1 : d->in_c;
	} else {
		c->mat_elems = (size_t)c->cout_g * c->ktot;
		c->kstride = 1;
		c->nstride = c->ktot;
	}
	/* depthwise reads up to a panel's lanes past the last channel */
	xs = ((size_t)d->in_h * d->in_w * d->in_c + c->nb) * sizeof(float);
	ws = nmat * c->npan * (size_t)c->ktot * c->nb * sizeof(float);
	ss = ((size_t)d->out_c + FS_LANES) * sizeof(float);
	rs = (mm ? 1 : (size_t)d->kernel_h * d->kernel_w) *
	     sizeof(struct fs_run);
	ts = (size_t)c->ktot * sizeof(float);
	if (xs > FS_MAX_SCRATCH || ws > FS_MAX_SCRATCH)
		return false;
	p = fs_alloc(&t->scratch, xs + 4 * ss + rs + ts +
		     FS_P * FS_LANES * sizeof(float) + 8 * 64, &own_s);
	if (!p)
		return false;
	c->x = fs_take(&p, xs);
	c->bias = fs_take(&p, ss);
	c->scale = fs_take(&p, ss);
	c->shift = fs_take(&p, ss);
	c->slope = fs_take(&p, ss);
	c->runs = fs_take(&p, rs);
	c->row = fs_take(&p, ts);
	acc = fs_take(&p, FS_P * FS_LANES * sizeof(float));

	/* the thread's last panels, if packed the same way from the same bytes */
	memset(&key, 0, sizeof(key));
	key.isa = c->isa;
	key.nmat = nmat;
	key.mat_elems = c->mat_elems;
	key.kstride = c->kstride;
	key.nstride = c->nstride;
	key.bytes = nmat * c->mat_elems * 2;
	key.dw = c->dw;
	key.npan = c->npan;
	key.nb = c->nb;
	key.ktot = c->ktot;
	key.cout_g = c->cout_g;
	keep = c->dw || ws <= FS_WCACHE_MAX;
	hit = keep && t->w_valid && !memcmp(&key, &t->key, sizeof(key)) &&
	      !memcmp(t->wsrc.p, o->in2, key.bytes);
	if (hit) {
		c->w = t->w.p;
	} else {
		t->w_valid = false;
		c->one = !keep;
		c->w = fs_alloc(&t->w, keep ? ws : (size_t)c->ktot * c->nb *
				sizeof(float), &own_w);
		if (!c->w) {
			free(own_s);
			return false;
		}
		c->pack = !c->dw;
	}

	fs_stage_init(c, d->out_c, d->out_c);
	stop = mm ? fs_input(c, (size_t)d->in_h * d->in_w, d->in_c) :
	       fs_input(c, d->in_h, (size_t)d->in_w * d->in_c);
	if (!stop && !hit && c->dw)
		stop = fs_dw_weights(c);
	if (!stop)
		stop = mm ? fs_matmul(c, acc) : fs_conv(c, acc);
	/* every panel is packed now: keep them for the thread's next op */
	if (!stop && !hit && keep && !own_w && key.bytes <= FS_KEEP_MAX &&
	    fs_buf_get(&t->wsrc, key.bytes)) {
		memcpy(t->wsrc.p, o->in2, key.bytes);
		t->key = key;
		t->w_valid = true;
	}
	free(own_s);
	free(own_w);
	*ret = stop ? VPUX_ERR(ABORTED) : 0;
	return true;
}

/* ADD, SUB, MUL and pooling: stage tables and in2's patterns */
static bool fs_elt_run(struct fs_op *c, struct fs_tls *t, int *ret)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	bool elt = d->op == VPUX_DPU_OP_ADD || d->op == VPUX_DPU_OP_SUB ||
		   d->op == VPUX_DPU_OP_MUL, stop;
	u32 vl = c->isa->vl;
	size_t ss, bs;
	void *own = NULL;
	u8 *p;

	c->nelt = (size_t)d->in_h * d->in_w * d->in_c;
	c->bmode = (d->flags & VPUX_DPU_F_BCAST_MASK) >> VPUX_DPU_F_BCAST_SHIFT;
	c->period = d->in_c * ((vl + d->in_c - 1) / d->in_c);
	/* stage tables: per channel, or per pattern position */
	ss = ((elt ? (size_t)c->period + vl : d->out_c) + FS_LANES) *
	     sizeof(float);
	bs = (FS_ELT_CHUNK + FS_LANES) * sizeof(float);
	p = fs_alloc(&t->scratch, 5 * ss + bs + 8 * 64, &own);
	if (!p)
		return false;
	c->bias = fs_take(&p, ss);
	c->scale = fs_take(&p, ss);
	c->shift = fs_take(&p, ss);
	c->slope = fs_take(&p, ss);
	c->bpat = fs_take(&p, ss);
	c->bx = fs_take(&p, bs);
	if (elt) {
		fs_elt_prep(c);
		stop = fs_eltwise(c);
	} else {
		fs_stage_init(c, d->out_c, d->out_c);
		stop = fs_pool(c);
	}
	free(own);
	*ret = stop ? VPUX_ERR(ABORTED) : 0;
	return true;
}

/*
 * Run FP16 descriptor @d on the SIMD kernels the path selects. Returns
 * true with the result in *@ret if it ran, false if the generic code must
 * run it. The caller has validated @d and the operands.
 */
bool vpux_dpu_f16_simd_run(const struct vpux_hw_dpu_desc *d,
			   const struct vpux_dpu_operands *o, int *ret)
{
	int path = vpux_dpu_simd_path();
	struct fs_tls *t;
	struct fs_op c;
	bool ran;

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
	/* a nested op (from a yield callback) runs on the generic code */
	t = fs_tls_get();
	if (!t || t->busy)
		return false;
	c.d = d;
	c.o = o;
	t->busy = true;
	if (d->op == VPUX_DPU_OP_CONV || d->op == VPUX_DPU_OP_MATMUL)
		ran = fs_mac_run(&c, t, ret);
	else
		ran = fs_elt_run(&c, t, ret);
	t->busy = false;
	return ran;
}

#endif /* VPUX_DPU_SIMD */
