// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * x86-64 SIMD kernels of the NPU model's DPU, user space only: the kernel
 * module never builds this file (./Kbuild lists its objects) and the
 * freestanding build compiles it to nothing (VPUX_DPU_SIMD,
 * vpux_ops_internal.h). vpux_dpu_run() offers every descriptor to
 * vpux_dpu_simd_run() first; what it declines runs on the generic code of
 * dpu.c, which is what the kernel runs.
 *
 * Two sets of kernels, chosen once at run time (__builtin_cpu_supports,
 * vpux_dpu_set_path()), for the same ops: dense convolution (groups ==
 * 1, any kernel, stride, dilation, padding), MATMUL (a 1x1 convolution)
 * and depthwise convolution (groups == in_c == out_c). AVX-512 VNNI (see
 * "AVX-512 VNNI" below) where the CPU has it, AVX2 for what the VNNI
 * kernels decline and on CPUs without VNNI. Every function with wider instructions
 * than x86-64's baseline carries a target attribute, so the file builds
 * with the project's flags and runs on any x86-64 CPU. The results are
 * the same bytes as vpux_ref_dpu_run(), by construction. The AVX2
 * kernels:
 *
 *  - the operands are widened once per op to int16 with their zero points
 *    subtracted: (x - in_zp) and (w - in2_zp) lie in -255..255. The input
 *    is copied into a zero-padded image (padding is "the zero point", so
 *    it becomes 0 and every window is full: no border cases), channels
 *    rounded up to even with a zero channel; the weights are repacked to
 *    [block of 16 output channels][pair of taps' channels][16][2];
 *  - vpmaddwd multiplies int16 pairs exactly and adds the two products
 *    (|sum| <= 2 * 255 * 255) into int32; the sum over the window is the
 *    definition's accumulator, exact in int32 because |acc| < 2^31 for
 *    every valid descriptor (VPUX_DPU_MAX_K). No vpmaddubsw: u8 x s8
 *    pairs saturate int16;
 *  - the output stage (bias, requant, zero point, clamp) is the
 *    definition's formula on 64-bit lanes, see simd_output8().
 *
 * The microkernel computes 6 output pixels x 16 output channels in 12
 * accumulators: per pair of input channels, 2 loads of weights, 6
 * broadcasts of the pixels' input pairs, 12 vpmaddwd and 12 vpaddd (192
 * MACs). Depthwise has no reduction over channels to pair up: per tap,
 * the 16 channels' inputs are sign-extended to int32 and multiplied by
 * int32 weights with vpmulld (exact, |product| <= 65025).
 *
 * Scratch comes from malloc (user space; the op is large next to it); if
 * an allocation fails or would exceed SIMD_MAX_SCRATCH the generic code
 * runs the op instead.
 */
#include "vpux_ops_internal.h"

#ifdef VPUX_DPU_SIMD

#include <stdlib.h>
#include <immintrin.h>

#define SIMD_P		6u	/* output pixels per microkernel */
#define SIMD_OCB	16u	/* output channels per block (two ymm of s32) */
#define SIMD_MAX_SCRATCH	((size_t)512 << 20)

/* the path in use: see vpux_dpu_set_path(); 0 until resolved */
static int simd_path;

/* everything the VNNI kernels use: 512-bit ops, byte masks, vpdpbusd */
#define VNNI_TARGET	"avx512f,avx512bw,avx512vl,avx512vnni"

static bool simd_cpu_vnni(void)
{
	return __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vl") &&
	       __builtin_cpu_supports("avx512vnni");
}

/*
 * What AUTO means: the path VPUX_DPU_SIMD names, so that any program
 * (a benchmark, the compiler's runs) can be pinned to one without code;
 * unset or unknown: the best there is.
 */
static int simd_env_path(void)
{
	static const char *const name[] = {
		[VPUX_DPU_PATH_GENERIC] = "generic",
		[VPUX_DPU_PATH_AVX2] = "avx2",
		[VPUX_DPU_PATH_AVX512VNNI] = "avx512vnni",
	};
	const char *s = getenv("VPUX_DPU_SIMD");
	int i;

	for (i = VPUX_DPU_PATH_GENERIC; s && i <= VPUX_DPU_PATH_AVX512VNNI; i++)
		if (!strcmp(s, name[i]))
			return i;
	return VPUX_DPU_PATH_AVX512VNNI;
}

int vpux_dpu_set_path(int path)
{
	if (path == VPUX_DPU_PATH_AUTO)
		path = simd_env_path();
	/* what the CPU lacks falls to the next path down */
	if (path == VPUX_DPU_PATH_AVX512VNNI && !simd_cpu_vnni())
		path = VPUX_DPU_PATH_AVX2;
	if (path == VPUX_DPU_PATH_AVX2 && !__builtin_cpu_supports("avx2"))
		path = VPUX_DPU_PATH_GENERIC;
	if (path != VPUX_DPU_PATH_AVX2 && path != VPUX_DPU_PATH_AVX512VNNI)
		path = VPUX_DPU_PATH_GENERIC;
	__atomic_store_n(&simd_path, path, __ATOMIC_RELAXED);
	return path;
}

int vpux_dpu_simd_path(void)
{
	int path = __atomic_load_n(&simd_path, __ATOMIC_RELAXED);

	return path ? path : vpux_dpu_set_path(VPUX_DPU_PATH_AUTO);
}

/* per-lane constants of the output stage, one block of 16 channels */
struct simd_oq {
	s32 bias[SIMD_OCB];
	s32 mult[SIMD_OCB];
	/* [half][even/odd lanes][4 x 64 bits], as simd_output8() uses them */
	s64 shift[2][2][4];	/* n = 31 + shift */
	s64 add[2][2][4];	/* 2^62 + (n ? 2^(n-1) : 0) */
	s64 sub[2][2][4];	/* 2^(62 - n) */
};

struct simd_conv {
	const struct vpux_hw_dpu_desc *d;
	const struct vpux_dpu_operands *o;
	u32 out_c, out_w, npix;		/* output pixels */
	u32 sh, sw, cp;			/* cp: channels rounded up to even */
	size_t wp;			/* padded image width */
	u32 nruns, kpairs;		/* contiguous runs per window, pairs */
	u32 *roff, *rlen;		/* run offsets (s16), lengths (pairs) */
	u32 kmacs;			/* MACs per output element */
	u64 since;			/* work since the last yield */
	bool dw;			/* depthwise: simd_dw_micro() */
	s16 *x;				/* padded, widened input */
	void *w;			/* packed weights (depthwise: s32) */
	struct simd_oq *q;		/* per block of 16 channels */
};

/* ---- output stage ---- */

/*
 * The definition's output stage for 8 lanes (vpux_dpu_output()):
 * a = saturate_int32(acc + bias); p = a * mult (64 bits); q = floor((p +
 * 2^(n-1)) / 2^n); out = clamp(q + out_zp, act_min, act_max). The floor
 * division uses a logical shift of p + 2^62 (never negative, below 2^63)
 * minus 2^(62-n), exact because 2^n divides 2^62. Saturating q to int32
 * before adding out_zp cannot change a clamped result (|out_zp| <= 255,
 * the clamp range lies inside -128..255), so q is clamped directly, in
 * 64 bits, to [act_min - out_zp, act_max - out_zp].
 */
static inline __attribute__((always_inline, target("avx2"))) __m256i
simd_output8(__m256i acc, const struct simd_oq *q, u32 h, __m256i lo,
	     __m256i hi, __m256i zp)
{
	const __m256i imax = _mm256_set1_epi32(0x7fffffff);
	__m256i b = _mm256_loadu_si256((const __m256i *)&q->bias[8 * h]);
	__m256i m = _mm256_loadu_si256((const __m256i *)&q->mult[8 * h]);
	__m256i s = _mm256_add_epi32(acc, b);
	/* signed overflow of acc + b: operands alike in sign, sum not */
	__m256i ov = _mm256_srai_epi32(_mm256_andnot_si256(
		_mm256_xor_si256(acc, b), _mm256_xor_si256(acc, s)), 31);
	__m256i sat = _mm256_xor_si256(_mm256_srai_epi32(acc, 31), imax);
	__m256i a = _mm256_blendv_epi8(s, sat, ov);
	__m256i r[2];
	u32 k;

	for (k = 0; k < 2; k++) {
		/* k = 0: even lanes, 1: odd lanes (as 4 x 64 bits) */
		__m256i ak = k ? _mm256_srli_epi64(a, 32) : a;
		__m256i mk = k ? _mm256_srli_epi64(m, 32) : m;
		__m256i p = _mm256_mul_epi32(ak, mk);
		__m256i n = _mm256_loadu_si256((const __m256i *)q->shift[h][k]);
		__m256i add = _mm256_loadu_si256((const __m256i *)q->add[h][k]);
		__m256i sub = _mm256_loadu_si256((const __m256i *)q->sub[h][k]);
		__m256i t;

		t = _mm256_sub_epi64(_mm256_srlv_epi64(_mm256_add_epi64(p, add),
						       n), sub);
		t = _mm256_blendv_epi8(t, lo, _mm256_cmpgt_epi64(lo, t));
		t = _mm256_blendv_epi8(t, hi, _mm256_cmpgt_epi64(t, hi));
		r[k] = t;
	}
	return _mm256_add_epi32(_mm256_blend_epi32(r[0],
			_mm256_slli_epi64(r[1], 32), 0xaa), zp);
}

/* @np pixels x channels [oc0, oc0 + nc) of the block's accumulators */
static __attribute__((target("avx2"))) void
simd_store(const struct simd_conv *c, const __m256i *acc, u32 np, u32 m0,
	   u32 oc0, u32 nc)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	const struct simd_oq *q = &c->q[oc0 / SIMD_OCB];
	__m256i lo = _mm256_set1_epi64x((s64)d->act_min - d->out_zp);
	__m256i hi = _mm256_set1_epi64x((s64)d->act_max - d->out_zp);
	__m256i zp = _mm256_set1_epi32(d->out_zp);
	bool out_s = d->flags & VPUX_DPU_F_OUT_SIGNED;
	u8 *out = c->o->out;
	u32 p;

	for (p = 0; p < np; p++) {
		__m256i v0 = simd_output8(acc[2 * p], q, 0, lo, hi, zp);
		__m256i v1 = simd_output8(acc[2 * p + 1], q, 1, lo, hi, zp);
		/* values lie in -128..255: both packs are exact */
		__m256i w = _mm256_permute4x64_epi64(_mm256_packs_epi32(v0, v1),
						     0xd8);
		__m128i l = _mm256_castsi256_si128(w);
		__m128i u = _mm256_extracti128_si256(w, 1);
		__m128i b = out_s ? _mm_packs_epi16(l, u) : _mm_packus_epi16(l, u);
		u8 *dst = out + (size_t)(m0 + p) * c->out_c + oc0;

		if (nc == SIMD_OCB) {
			_mm_storeu_si128((__m128i *)dst, b);
		} else {
			u8 tmp[SIMD_OCB];

			_mm_storeu_si128((__m128i *)tmp, b);
			memcpy(dst, tmp, nc);
		}
	}
}

/* ---- microkernel ---- */

static inline __attribute__((always_inline, target("avx2"))) __m256i
simd_bcast(const s16 *p)
{
	s32 v;

	memcpy(&v, p, sizeof(v));
	return _mm256_set1_epi32(v);
}

/*
 * Accumulators of @P pixels (inputs at @xp[p]) x 16 channels (weights at
 * @w, packed) over the window's runs.
 */
static inline __attribute__((always_inline, target("avx2"))) void
simd_micro(const struct simd_conv *c, const s16 *const *xp, const s16 *w,
	   __m256i *out, const u32 P)
{
	__m256i acc[2 * SIMD_P];
	u32 r, p, j;

#pragma GCC unroll 12
	for (p = 0; p < 2 * P; p++)
		acc[p] = _mm256_setzero_si256();
	for (r = 0; r < c->nruns; r++) {
		const s16 *x[SIMD_P];
		u32 len = c->rlen[r];

#pragma GCC unroll 6
		for (p = 0; p < P; p++)
			x[p] = xp[p] + c->roff[r];
		for (j = 0; j < len; j++, w += 2 * SIMD_OCB) {
			__m256i w0 = _mm256_loadu_si256((const __m256i *)w);
			__m256i w1 = _mm256_loadu_si256((const __m256i *)(w + 16));

#pragma GCC unroll 6
			for (p = 0; p < P; p++) {
				__m256i xb = simd_bcast(x[p] + 2 * j);

				acc[2 * p] = _mm256_add_epi32(acc[2 * p],
						_mm256_madd_epi16(xb, w0));
				acc[2 * p + 1] = _mm256_add_epi32(acc[2 * p + 1],
						_mm256_madd_epi16(xb, w1));
			}
		}
	}
#pragma GCC unroll 12
	for (p = 0; p < 2 * P; p++)
		out[p] = acc[p];
}

/*
 * Depthwise: accumulators of @P pixels x 16 channels from @c0, one tap
 * at a time (runs are taps here): the int16 inputs sign-extended to
 * int32 and multiplied by the int32 weights [block][tap][16] (exact:
 * |product| <= 65025).
 */
static inline __attribute__((always_inline, target("avx2"))) void
simd_dw_micro(const struct simd_conv *c, const s16 *const *xp,
	      const s32 *w, u32 c0, __m256i *out, const u32 P)
{
	__m256i acc[2 * SIMD_P];
	u32 t, p;

#pragma GCC unroll 12
	for (p = 0; p < 2 * P; p++)
		acc[p] = _mm256_setzero_si256();
	for (t = 0; t < c->nruns; t++, w += SIMD_OCB) {
		__m256i w0 = _mm256_loadu_si256((const __m256i *)w);
		__m256i w1 = _mm256_loadu_si256((const __m256i *)(w + 8));

#pragma GCC unroll 6
		for (p = 0; p < P; p++) {
			const s16 *x = xp[p] + c->roff[t] + c0;
			__m256i x0 = _mm256_cvtepi16_epi32(
				_mm_loadu_si128((const __m128i *)x));
			__m256i x1 = _mm256_cvtepi16_epi32(
				_mm_loadu_si128((const __m128i *)(x + 8)));

			acc[2 * p] = _mm256_add_epi32(acc[2 * p],
					_mm256_mullo_epi32(x0, w0));
			acc[2 * p + 1] = _mm256_add_epi32(acc[2 * p + 1],
					_mm256_mullo_epi32(x1, w1));
		}
	}
#pragma GCC unroll 12
	for (p = 0; p < 2 * P; p++)
		out[p] = acc[p];
}

#define SIMD_MICRO(P)							\
static __attribute__((__noinline__, target("avx2"))) void			\
simd_micro##P(const struct simd_conv *c, const s16 *const *xp, u32 oc0,	\
	      __m256i *out)						\
{									\
	if (c->dw)							\
		simd_dw_micro(c, xp, (const s32 *)c->w +		\
			      (size_t)oc0 * c->nruns, oc0, out, P);	\
	else								\
		simd_micro(c, xp, (const s16 *)c->w +			\
			   (size_t)oc0 * c->kpairs * 2, out, P);	\
}

SIMD_MICRO(1)
SIMD_MICRO(2)
SIMD_MICRO(3)
SIMD_MICRO(4)
SIMD_MICRO(5)
SIMD_MICRO(6)

static void (*const simd_micros[SIMD_P + 1])(const struct simd_conv *,
					     const s16 *const *, u32,
					     __m256i *) = {
	NULL, simd_micro1, simd_micro2, simd_micro3, simd_micro4,
	simd_micro5, simd_micro6,
};

/* ---- the op ---- */

static bool simd_yield(const struct vpux_dpu_operands *o)
{
	return o->yield && o->yield(o->yield_arg);
}

/*
 * Count @work and yield once VPUX_DPU_YIELD_WORK is reached, like the
 * generic code; preparing the operands counts too (a large MATMUL's
 * input takes a while to widen). Returns true if the op must stop.
 */
static bool simd_work(const struct vpux_dpu_operands *o, u64 *since, u64 work)
{
	*since += work;
	if (*since < VPUX_DPU_YIELD_WORK)
		return false;
	*since = 0;
	return simd_yield(o);
}

/* Returns true if the op must stop. */
static __attribute__((target("avx2"))) bool simd_conv_run(struct simd_conv *c)
{
	const struct vpux_dpu_operands *o = c->o;
	u64 blk_work = (u64)SIMD_P * SIMD_OCB * c->kmacs;
	u32 m0, oc0;

	for (m0 = 0; m0 < c->npix; m0 += SIMD_P) {
		u32 np = c->npix - m0 < SIMD_P ? c->npix - m0 : SIMD_P;
		const s16 *xp[SIMD_P];
		__m256i acc[2 * SIMD_P];
		u32 p;

		for (p = 0; p < np; p++) {
			u32 oy = (m0 + p) / c->out_w, ox = (m0 + p) % c->out_w;

			xp[p] = c->x + ((size_t)oy * c->sh * c->wp +
					(size_t)ox * c->sw) * c->cp;
		}
		for (oc0 = 0; oc0 < c->out_c; oc0 += SIMD_OCB) {
			u32 nc = c->out_c - oc0 < SIMD_OCB ? c->out_c - oc0 :
				 SIMD_OCB;

			simd_micros[np](c, xp, oc0, acc);
			simd_store(c, acc, np, m0, oc0, nc);
			if (simd_work(c->o, &c->since, blk_work))
				return true;
		}
		/* after every output row the block completes */
		if ((m0 + np) / c->out_w != m0 / c->out_w ||
		    m0 + np == c->npix) {
			c->since = 0;
			if (simd_yield(o))
				return true;
		}
	}
	return false;
}

static void simd_oq_init(struct simd_conv *c)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	const struct vpux_dpu_operands *o = c->o;
	u32 oc;

	for (oc = 0; oc < c->out_c; oc++) {
		struct simd_oq *q = &c->q[oc / SIMD_OCB];
		const struct vpux_hw_requant *rq =
			(d->flags & VPUX_DPU_F_PER_CHANNEL) ? &o->quant[oc] :
			&d->requant;
		u32 l = oc % SIMD_OCB, n = (u32)(31 + rq->shift);
		u32 h = l / 8, k = l % 2, i = l % 8 / 2;

		q->bias[l] = (d->flags & VPUX_DPU_F_BIAS) ? o->bias[oc] : 0;
		q->mult[l] = rq->mult;
		q->shift[h][k][i] = n;
		q->add[h][k][i] = ((s64)1 << 62) + (n ? (s64)1 << (n - 1) : 0);
		q->sub[h][k][i] = (s64)1 << (62 - n);
	}
}

/* padded, widened input with the zero point subtracted; true: stop */
static __attribute__((target("avx2"))) bool
simd_widen_input(struct simd_conv *c, u32 in_h, u32 in_w, u32 in_c, u32 pt,
		 u32 pl)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	bool in_s = d->flags & VPUX_DPU_F_IN_SIGNED;
	s32 xz = d->in_zp;
	__m256i xzv = _mm256_set1_epi16((s16)xz);
	u32 y, x, ch;

	for (y = 0; y < in_h; y++) {
		for (x = 0; x < in_w; x++) {
			size_t src = ((size_t)y * in_w + x) * in_c;
			s16 *dst = c->x + (((size_t)y + pt) * c->wp + x + pl) * c->cp;
			const u8 *bp = (const u8 *)c->o->in + src;

			/* 16 channels at a time, then the tail */
			for (ch = 0; ch + 16 <= in_c; ch += 16) {
				__m128i b = _mm_loadu_si128((const __m128i *)(bp + ch));
				__m256i v = in_s ? _mm256_cvtepi8_epi16(b) :
					    _mm256_cvtepu8_epi16(b);

				_mm256_storeu_si256((__m256i *)(dst + ch),
						    _mm256_sub_epi16(v, xzv));
			}
			src += ch;
			dst += ch;
			if (in_s) {
				const s8 *s = (const s8 *)c->o->in + src;

				for (; ch < in_c; ch++, s++)
					*dst++ = (s16)(*s - xz);
			} else {
				const u8 *s = (const u8 *)c->o->in + src;

				for (; ch < in_c; ch++, s++)
					*dst++ = (s16)(*s - xz);
			}
		}
		if (simd_work(c->o, &c->since, (u64)in_w * in_c))
			return true;
	}
	return false;
}

/*
 * Weights [oc][tap][ci] to [oc / 16][pair][oc % 16][2] in the runs'
 * order (taps in order, channels padded to cp), zero point subtracted;
 * depthwise to [c / 16][tap][c % 16] as int32. Returns true to stop.
 */
static bool simd_pack_weights(struct simd_conv *c, u32 ntaps, u32 in_c)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	bool w_s = d->flags & VPUX_DPU_F_W_SIGNED;
	s32 wz = d->in2_zp;
	u32 oc, t, ch;

	if (c->dw) {	/* [block of 16][tap][16] as s32 */
		for (oc = 0; oc < c->out_c; oc++)
			for (t = 0; t < ntaps; t++)
				((s32 *)c->w)[((size_t)(oc / SIMD_OCB) * ntaps + t) *
					      SIMD_OCB + oc % SIMD_OCB] =
					vpux_ld8(c->o->in2, (size_t)oc * ntaps + t,
						 w_s) - wz;
		return false;
	}
	for (oc = 0; oc < c->out_c; oc++) {
		s16 *blk = (s16 *)c->w + (size_t)(oc / SIMD_OCB) * c->kpairs *
			   2 * SIMD_OCB + (oc % SIMD_OCB) * 2;

		for (t = 0; t < ntaps; t++) {
			size_t src = ((size_t)oc * ntaps + t) * in_c;

			for (ch = 0; ch < in_c; ch++) {
				size_t k = (size_t)t * c->cp + ch;

				blk[(k / 2) * 2 * SIMD_OCB + k % 2] = (s16)
					(vpux_ld8(c->o->in2, src + ch, w_s) - wz);
			}
		}
		if (simd_work(c->o, &c->since, (u64)ntaps * in_c))
			return true;
	}
	return false;
}

/*
 * Run @d on the AVX2 kernels if it is one of their ops. Returns true with
 * the result in *@ret if it ran, false if the generic code must run it.
 */
static bool simd_avx2_run(const struct vpux_hw_dpu_desc *d,
			  const struct vpux_dpu_operands *o, int *ret)
{
	u32 kh, kw, dh, dw, pt, pl, hp, sh, sw, ntaps, r;
	size_t xs, ws, nblk, wp;
	struct simd_conv c;
	bool stop;

	/* int32 accumulators out: the generic code's store */
	if (d->flags & VPUX_DPU_F_OUT_I32)
		return false;
	if (d->op == VPUX_DPU_OP_MATMUL) {
		kh = kw = dh = dw = 1;
		pt = pl = 0;
		sh = sw = 1;
		hp = d->in_h;
		wp = d->in_w;
	} else if (d->op == VPUX_DPU_OP_CONV &&
		   (d->groups == 1 ||
		    (d->groups == d->in_c && d->out_c == d->in_c))) {
		kh = d->kernel_h;
		kw = d->kernel_w;
		dh = d->dilation_h;
		dw = d->dilation_w;
		pt = d->pad_top;
		pl = d->pad_left;
		sh = d->stride_h;
		sw = d->stride_w;
		hp = (u32)d->in_h + pt + d->pad_bottom;
		wp = (size_t)d->in_w + pl + d->pad_right;
	} else {
		return false;
	}
	memset(&c, 0, sizeof(c));
	c.d = d;
	c.sh = sh;
	c.sw = sw;
	c.wp = wp;
	c.o = o;
	c.out_c = d->out_c;
	c.out_w = d->out_w;
	c.npix = (u32)d->out_h * d->out_w;
	/* depthwise: one input channel per output channel */
	c.dw = d->op == VPUX_DPU_OP_CONV && d->groups > 1;
	ntaps = kh * kw;
	nblk = (d->out_c + SIMD_OCB - 1) / SIMD_OCB;
	if (c.dw) {
		/* whole blocks of 16 channels per pixel, one run per tap */
		c.cp = (u32)nblk * SIMD_OCB;
		c.nruns = ntaps;
		c.kmacs = ntaps;
		ws = nblk * SIMD_OCB * ntaps * sizeof(s32);
	} else {
		c.cp = (d->in_c + 1u) & ~1u;
		c.kpairs = ntaps * c.cp / 2;
		c.nruns = dw == 1 ? kh : ntaps;
		c.kmacs = ntaps * d->in_c;
		ws = nblk * SIMD_OCB * c.kpairs * 2 * sizeof(s16);
	}
	xs = (size_t)hp * c.wp * c.cp * sizeof(s16);
	if (xs > SIMD_MAX_SCRATCH || ws > SIMD_MAX_SCRATCH)
		return false;
	c.x = calloc(1, xs);
	c.w = calloc(1, ws);
	c.q = malloc(nblk * sizeof(*c.q));
	c.roff = malloc(2 * c.nruns * sizeof(u32));
	if (!c.x || !c.w || !c.q || !c.roff) {
		free(c.x);
		free(c.w);
		free(c.q);
		free(c.roff);
		return false;
	}
	c.rlen = c.roff + c.nruns;
	for (r = 0; r < c.nruns; r++) {
		/* dense with dilation_w 1: a window row is one run */
		bool row = !c.dw && dw == 1;
		u32 ky = row ? r : r / kw, kx = row ? 0 : r % kw;

		c.roff[r] = (u32)(((size_t)ky * dh * c.wp + (size_t)kx * dw) * c.cp);
		c.rlen[r] = (row ? kw : 1) * c.cp / 2;
	}
	stop = simd_widen_input(&c, d->in_h, d->in_w, d->in_c, pt, pl) ||
	       simd_pack_weights(&c, ntaps, d->in_c);
	if (!stop) {
		simd_oq_init(&c);
		stop = simd_conv_run(&c);
	}
	free(c.x);
	free(c.w);
	free(c.q);
	free(c.roff);
	*ret = stop ? VPUX_ERR(ABORTED) : 0;
	return true;
}

/* ---- AVX-512 VNNI: dense and depthwise CONV, MATMUL ---- */

/*
 * The VNNI kernels multiply raw bytes: vpdpbusd adds four u8 x s8
 * products to each int32 lane, without saturation (vpdpbusds would
 * saturate, and a saturated lane is no longer the sum modulo 2^32). The
 * zero points are folded out as in the generic code, after every
 * signedness is brought to u8 x s8 by flipping bit 7, which only moves
 * the zero point:
 *
 *   s8 input x:  x' = x ^ 0x80 = x + 128 (u8),  xz' = xz + 128 (0..255)
 *   u8 weight w: w' = w ^ 0x80 = w - 128 (s8),  wz' = wz - 128 (-128..127)
 *
 * so x - xz = x' - xz' and w - wz = w' - wz', and over the window
 *
 *   sum (x' - xz')(w' - wz') = sum x'w' - wz' sum x' - xz' sum w'
 *                              + K' xz' wz'
 *
 * The input is copied into a padded image filled with xz' (padding is
 * "the zero point"), channels rounded up to 4 (a vpdpbusd lane takes 4
 * bytes) with xz' too, and the packed weights are 0 there: every term
 * the padding adds has x' - xz' = 0, so the sums may run over the whole
 * padded window of K' bytes and every pixel runs the same code. Per
 * output channel, corr = K' xz' wz' - xz' sum w' is computed once; per
 * pixel, wz' sum x' (only when wz' != 0) from per-position byte sums of
 * the image. Everything is added modulo 2^32, which is exact because the
 * true sum fits int32 (VPUX_DPU_MAX_K), whatever the terms do on the way
 * (K' xz' wz' exceeds 2^31 with K' up to 4 x 32768 for one channel). The
 * raw sum x'w' itself stays below 2^31 (|x'w'| <= 255 x 128 and the
 * padding's weights are 0), and each vpdpbusd adds its four products,
 * at most 4 x 32640 in magnitude, as one exact int32 (16-bit products,
 * 32-bit sum, no saturation anywhere).
 *
 * The microkernel holds 6 output pixels x up to 64 output channels (4
 * zmm of 16 int32 lanes) in 24 accumulators: per group of 4 input bytes
 * of the window, 4 aligned weight loads, 6 vpbroadcastd of the pixels'
 * 4 input bytes and 24 vpdpbusd (1536 MACs). Blocks are narrower for a
 * long reduction, so that a block of 6 pixels stays within 6 x 16 x
 * 32768 MACs, the AVX2 kernels' yield granularity (depthwise windows of
 * more than 16384 taps, which would need blocks narrower than 32
 * channels, are left to AVX2).
 *
 * Depthwise convolution multiplies int16 operands instead, see
 * vnni_dw_micro().
 */

#define VNNI_P		6u	/* output pixels per microkernel */
#define VNNI_NB		4u	/* 16-channel blocks per microkernel, at most */
#define VNNI_OCB	16u	/* int32 lanes of a zmm */

/*
 * Per-lane constants of one zmm of accumulators: 16 output channels, or
 * (depthwise) the even or the odd channels of a block of 32.
 */
struct vnni_oq {
	u32 corr[VNNI_OCB];	/* K' xz' wz' - xz' sum w', modulo 2^32 */
	s32 bias[VNNI_OCB];
	/* [even/odd lanes][8 x 64 bits], as vnni_output16() uses them */
	s64 mult[2][VNNI_OCB / 2];
	s64 shift[2][VNNI_OCB / 2];	/* n = 31 + shift */
	s64 round[2][VNNI_OCB / 2];	/* n ? 2^(n-1) : 0 */
};

struct vnni_conv {
	const struct vpux_hw_dpu_desc *d;
	const struct vpux_dpu_operands *o;
	u32 out_c, out_w, npix;		/* output pixels */
	u32 kh, kw, sh, sw, dh, dw;
	u32 cq;				/* channels rounded up to 4 */
	size_t wp;			/* padded image width */
	u32 nruns, kquads;		/* runs per window, 4-byte groups */
	u32 *roff, *rlen;		/* run offsets (bytes), lengths (quads) */
	u32 nbmax, nblk;		/* blocks per microkernel, in all */
	u32 bch;			/* channels per block: 16, dw 32 */
	size_t pstride, gstride;	/* bytes per position, weight group */
	u32 kmacs;			/* MACs per output element */
	u64 since;			/* work since the last yield */
	bool depthwise;			/* vnni_dw_micro() */
	u32 xz, wz;			/* xz', wz' (wz' as u32: wraps) */
	u8 *x;				/* padded image of x' (dw: s16 x - xz) */
	u32 *sx;			/* byte sums per image position, or NULL */
	s8 *w;				/* packed weights (dw: s16 w - wz) */
	struct vnni_oq *q;		/* per block of 16 lanes */
};

/*
 * saturate_int32(acc + bias) of 16 lanes, which is also what OUT_I32
 * stores: a signed overflow of the sum is operands alike in sign and a
 * sum not, ((acc ^ s) & (b ^ s)) < 0, and then the sum saturates
 * towards acc's sign.
 */
static inline __attribute__((always_inline, target(VNNI_TARGET))) __m512i
vnni_bias(__m512i acc, const struct vnni_oq *q)
{
	__m512i b = _mm512_loadu_si512(q->bias);
	__m512i s = _mm512_add_epi32(acc, b);
	/* 0x42: (A ^ C) & (B ^ C) */
	__mmask16 ov = _mm512_cmplt_epi32_mask(
		_mm512_ternarylogic_epi32(acc, b, s, 0x42),
		_mm512_setzero_si512());

	return _mm512_mask_xor_epi32(s, ov, _mm512_srai_epi32(acc, 31),
				     _mm512_set1_epi32(VPUX_S32_MAX));
}

/*
 * The rest of the output stage of 16 lanes (vpux_dpu_output()): p = a *
 * mult on 64-bit lanes, the even lanes and then the odd ones (vpmuldq
 * reads the low half of each), q = floor((p + 2^(n-1)) / 2^n) with an
 * arithmetic shift (vpsravq), clamped to [act_min - out_zp, act_max -
 * out_zp], which equals saturating q to int32 first (|out_zp| <= 255);
 * then both halves back in their int32 lanes, + out_zp, and truncated
 * to bytes (the value is an 8-bit type's by then).
 */
static inline __attribute__((always_inline, target(VNNI_TARGET))) __m128i
vnni_output16(__m512i a, const struct vnni_oq *q, __m512i lo, __m512i hi,
	      __m512i zp)
{
	__m512i r[2];
	u32 k;

	for (k = 0; k < 2; k++) {
		__m512i p = _mm512_mul_epi32(k ? _mm512_srli_epi64(a, 32) : a,
					     _mm512_loadu_si512(q->mult[k]));

		p = _mm512_srav_epi64(_mm512_add_epi64(p,
				_mm512_loadu_si512(q->round[k])),
				_mm512_loadu_si512(q->shift[k]));
		r[k] = _mm512_min_epi64(_mm512_max_epi64(p, lo), hi);
	}
	return _mm512_cvtepi32_epi8(_mm512_add_epi32(_mm512_mask_blend_epi32(
		0xaaaa, r[0], _mm512_slli_epi64(r[1], 32)), zp));
}

/*
 * Store @np pixels x @nb blocks of accumulators (acc[p * nb + b]) of the
 * blocks from @blk0; @pc holds each pixel's -wz' sum x'.
 */
static __attribute__((target(VNNI_TARGET))) void
vnni_store(const struct vnni_conv *c, const __m512i *acc, u32 np, u32 m0,
	   u32 blk0, u32 nb, const u32 *pc)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	__m512i lo = _mm512_set1_epi64((s64)d->act_min - d->out_zp);
	__m512i hi = _mm512_set1_epi64((s64)d->act_max - d->out_zp);
	__m512i zp = _mm512_set1_epi32(d->out_zp);
	bool i32 = d->flags & VPUX_DPU_F_OUT_I32;
	u8 *out = c->o->out;
	u32 p, b;

	for (p = 0; p < np; p++) {
		__m512i pcv = _mm512_set1_epi32((s32)pc[p]);
		size_t base = (size_t)(m0 + p) * c->out_c;

		for (b = 0; b < nb; b++) {
			const struct vnni_oq *q = &c->q[blk0 + b];
			u32 oc0 = (blk0 + b) * VNNI_OCB;
			u32 nc = c->out_c - oc0 < VNNI_OCB ? c->out_c - oc0 :
				 VNNI_OCB;
			__mmask16 m = (__mmask16)((1u << nc) - 1);
			__m512i a = vnni_bias(_mm512_add_epi32(_mm512_add_epi32(
					acc[p * nb + b], pcv),
					_mm512_loadu_si512(q->corr)), q);

			if (i32)
				_mm512_mask_storeu_epi32(out + (base + oc0) * 4,
							 m, a);
			else
				_mm_mask_storeu_epi8(out + base + oc0, m,
						     vnni_output16(a, q, lo, hi,
								   zp));
		}
	}
}

static inline __attribute__((always_inline, target(VNNI_TARGET))) __m512i
vnni_bcast(const u8 *p)
{
	s32 v;

	memcpy(&v, p, sizeof(v));
	return _mm512_set1_epi32(v);
}

/*
 * Accumulators of 6 pixels (windows at @xp[p]) x @NB blocks of 16
 * channels (weights at @w, [quad][block][16][4]) over the window's runs.
 */
static inline __attribute__((always_inline, target(VNNI_TARGET))) void
vnni_micro(const struct vnni_conv *c, const u8 *const *xp, const s8 *w,
	   __m512i *out, const u32 NB)
{
	__m512i acc[VNNI_P * VNNI_NB];
	u32 r, p, b, j;

#pragma GCC unroll 24
	for (p = 0; p < VNNI_P * NB; p++)
		acc[p] = _mm512_setzero_si512();
	for (r = 0; r < c->nruns; r++) {
		const u8 *x[VNNI_P];
		u32 len = c->rlen[r];

#pragma GCC unroll 6
		for (p = 0; p < VNNI_P; p++)
			x[p] = xp[p] + c->roff[r];
		for (j = 0; j < len; j++, w += 64 * NB) {
			__m512i wv[VNNI_NB];

#pragma GCC unroll 4
			for (b = 0; b < NB; b++)
				wv[b] = _mm512_load_si512(w + 64 * b);
#pragma GCC unroll 6
			for (p = 0; p < VNNI_P; p++) {
				__m512i xb = vnni_bcast(x[p] + 4 * j);

#pragma GCC unroll 4
				for (b = 0; b < NB; b++)
					acc[p * NB + b] = _mm512_dpbusd_epi32(
						acc[p * NB + b], xb, wv[b]);
			}
		}
	}
#pragma GCC unroll 24
	for (p = 0; p < VNNI_P * NB; p++)
		out[p] = acc[p];
}

#define VNNI_MICRO(NB)							\
static __attribute__((__noinline__, target(VNNI_TARGET))) void		\
vnni_micro##NB(const struct vnni_conv *c, const u8 *const *xp,		\
	       const s8 *w, __m512i *out)				\
{									\
	vnni_micro(c, xp, w, out, NB);					\
}

VNNI_MICRO(1)
VNNI_MICRO(2)
VNNI_MICRO(3)
VNNI_MICRO(4)

static void (*const vnni_micros[VNNI_NB + 1])(const struct vnni_conv *,
					      const u8 *const *, const s8 *,
					      __m512i *) = {
	NULL, vnni_micro1, vnni_micro2, vnni_micro3, vnni_micro4,
};

/*
 * Depthwise: there is no reduction over channels for vpdpbusd's groups
 * of 4, so the operands are int16 with their zero points subtracted (as
 * on AVX2, -255..255) and vpdpwssd multiplies them: it adds, per int32
 * lane, the products of the lane's two int16 pairs, exactly and without
 * saturation. The weights of a tap are stored twice per 32 channels,
 * once with the odd channels' weights 0 and once with the even ones',
 * so that one load of 32 channels' inputs feeds two vpdpwssd, the even
 * channels' sums and the odd ones' (2 x 16 MACs per load). Accumulators
 * of 6 pixels (inputs at @xp[p], the block's first channel) x @NB blocks
 * of 32 channels, out[(p * NB + b) * 2 + odd], one tap at a time (the
 * runs are taps here), weights [tap][block][even/odd][32].
 */
static inline __attribute__((always_inline, target(VNNI_TARGET))) void
vnni_dw_micro(const struct vnni_conv *c, const u8 *const *xp, const s16 *w,
	      __m512i *out, const u32 NB)
{
	__m512i acc[VNNI_P * VNNI_NB];
	u32 t, p, b;

#pragma GCC unroll 24
	for (p = 0; p < VNNI_P * 2 * NB; p++)
		acc[p] = _mm512_setzero_si512();
	for (t = 0; t < c->nruns; t++, w += 64 * NB) {
		__m512i we[VNNI_NB / 2], wo[VNNI_NB / 2];

#pragma GCC unroll 2
		for (b = 0; b < NB; b++) {
			we[b] = _mm512_load_si512(w + 64 * b);
			wo[b] = _mm512_load_si512(w + 64 * b + 32);
		}
#pragma GCC unroll 6
		for (p = 0; p < VNNI_P; p++) {
			const s16 *x = (const s16 *)(xp[p] + c->roff[t]);

#pragma GCC unroll 2
			for (b = 0; b < NB; b++) {
				__m512i xv = _mm512_loadu_si512(x + 32 * b);
				__m512i *a = &acc[(p * NB + b) * 2];

				a[0] = _mm512_dpwssd_epi32(a[0], xv, we[b]);
				a[1] = _mm512_dpwssd_epi32(a[1], xv, wo[b]);
			}
		}
	}
#pragma GCC unroll 24
	for (p = 0; p < VNNI_P * 2 * NB; p++)
		out[p] = acc[p];
}

#define VNNI_DW_MICRO(NB)						\
static __attribute__((__noinline__, target(VNNI_TARGET))) void		\
vnni_dw_micro##NB(const struct vnni_conv *c, const u8 *const *xp,	\
		  const s8 *w, __m512i *out)				\
{									\
	vnni_dw_micro(c, xp, (const s16 *)w, out, NB);			\
}

VNNI_DW_MICRO(1)
VNNI_DW_MICRO(2)

static void (*const vnni_dw_micros[VNNI_NB / 2 + 1])(const struct vnni_conv *,
						    const u8 *const *,
						    const s8 *, __m512i *) = {
	NULL, vnni_dw_micro1, vnni_dw_micro2,
};

/*
 * Depthwise: store @np pixels x @nb blocks of 32 channels from block
 * @blk0, the even and odd channels' lanes interleaved back.
 */
static __attribute__((target(VNNI_TARGET))) void
vnni_dw_store(const struct vnni_conv *c, const __m512i *acc, u32 np, u32 m0,
	      u32 blk0, u32 nb)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	__m512i lo = _mm512_set1_epi64((s64)d->act_min - d->out_zp);
	__m512i hi = _mm512_set1_epi64((s64)d->act_max - d->out_zp);
	__m512i zp = _mm512_set1_epi32(d->out_zp);
	/* dwords of even lanes 0-7 / 8-15 with odd lanes 0-7 / 8-15 */
	__m512i ilo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5,
					21, 6, 22, 7, 23);
	__m512i ihi = _mm512_add_epi32(ilo, _mm512_set1_epi32(8));
	bool i32 = d->flags & VPUX_DPU_F_OUT_I32;
	u8 *out = c->o->out;
	u32 p, b;

	for (p = 0; p < np; p++) {
		size_t base = (size_t)(m0 + p) * c->out_c;

		for (b = 0; b < nb; b++) {
			u32 blk = blk0 + b, c0 = blk * 32;
			u32 nc = c->out_c - c0 < 32 ? c->out_c - c0 : 32;
			const struct vnni_oq *qe = &c->q[2 * blk];
			const struct vnni_oq *qo = &c->q[2 * blk + 1];
			__mmask32 m = nc == 32 ? ~0u : (1u << nc) - 1;
			__m512i ae = vnni_bias(acc[(p * nb + b) * 2], qe);
			__m512i ao = vnni_bias(acc[(p * nb + b) * 2 + 1], qo);
			__m128i be, bo;

			if (i32) {
				u8 *dst = out + (base + c0) * 4;

				_mm512_mask_storeu_epi32(dst, (__mmask16)m,
					_mm512_permutex2var_epi32(ae, ilo, ao));
				_mm512_mask_storeu_epi32(dst + 64,
					(__mmask16)(m >> 16),
					_mm512_permutex2var_epi32(ae, ihi, ao));
				continue;
			}
			be = vnni_output16(ae, qe, lo, hi, zp);
			bo = vnni_output16(ao, qo, lo, hi, zp);
			_mm256_mask_storeu_epi8(out + base + c0, m,
				_mm256_setr_m128i(_mm_unpacklo_epi8(be, bo),
						  _mm_unpackhi_epi8(be, bo)));
		}
	}
}

/* -wz' times the sum of x' over the window at @x0 (image offset / cq) */
static u32 vnni_pixel_corr(const struct vnni_conv *c, size_t x0)
{
	u32 ky, kx, sum = 0;

	for (ky = 0; ky < c->kh; ky++) {
		const u32 *s = c->sx + x0 + (size_t)ky * c->dh * c->wp;

		for (kx = 0; kx < c->kw; kx++)
			sum += s[(size_t)kx * c->dw];
	}
	return 0u - c->wz * sum;
}

/* Returns true if the op must stop. */
static __attribute__((target(VNNI_TARGET))) bool
vnni_conv_run(struct vnni_conv *c)
{
	const struct vpux_dpu_operands *o = c->o;
	u32 m0, blk0;

	for (m0 = 0; m0 < c->npix; m0 += VNNI_P) {
		u32 np = c->npix - m0 < VNNI_P ? c->npix - m0 : VNNI_P;
		const u8 *xp[VNNI_P], *xc[VNNI_P];
		u32 pc[VNNI_P] = { 0 };
		__m512i acc[VNNI_P * VNNI_NB];
		u32 p;

		/* a short last block computes pixel 0 again, unstored */
		for (p = 0; p < VNNI_P; p++) {
			u32 m = m0 + (p < np ? p : 0);
			size_t x0 = (size_t)(m / c->out_w) * c->sh * c->wp +
				    (size_t)(m % c->out_w) * c->sw;

			xp[p] = c->x + x0 * c->pstride;
			if (c->sx && p < np)
				pc[p] = vnni_pixel_corr(c, x0);
		}
		for (blk0 = 0; blk0 < c->nblk; blk0 += c->nbmax) {
			u32 nb = c->nblk - blk0 < c->nbmax ? c->nblk - blk0 :
				 c->nbmax;
			const s8 *w = c->w + blk0 / c->nbmax * c->gstride;

			if (c->depthwise) {
				/* the blocks' channels of each pixel */
				for (p = 0; p < VNNI_P; p++)
					xc[p] = xp[p] + blk0 * 32 * sizeof(s16);
				vnni_dw_micros[nb](c, xc, w, acc);
				vnni_dw_store(c, acc, np, m0, blk0, nb);
			} else {
				vnni_micros[nb](c, xp, w, acc);
				vnni_store(c, acc, np, m0, blk0, nb, pc);
			}
			if (simd_work(o, &c->since,
				      (u64)VNNI_P * nb * c->bch * c->kmacs))
				return true;
		}
		/* after every output row the block completes */
		if ((m0 + np) / c->out_w != m0 / c->out_w ||
		    m0 + np == c->npix) {
			c->since = 0;
			if (simd_yield(o))
				return true;
		}
	}
	return false;
}

/* @n bytes from @src to @dst, each XOR @flip */
static inline __attribute__((always_inline, target(VNNI_TARGET))) void
vnni_copy_flip(u8 *dst, const u8 *src, size_t n, u8 flip)
{
	__m512i f = _mm512_set1_epi8((char)flip);
	size_t i;

	for (i = 0; i < n; i += 64) {
		size_t k = n - i < 64 ? n - i : 64;
		/* not k == 64 ? ~0 : (1 << k) - 1: clang 14 fails on it */
		__mmask64 m = ~0ull >> (64 - k);

		_mm512_mask_storeu_epi8(dst + i, m, _mm512_xor_si512(
			_mm512_maskz_loadu_epi8(m, src + i), f));
	}
}

/*
 * The padded image of x' (already filled with xz'), and, if wz' != 0,
 * the sum of each position's cq bytes. Returns true if the op must stop.
 */
static __attribute__((target(VNNI_TARGET))) bool
vnni_image(struct vnni_conv *c, u32 hp, u32 in_h, u32 in_w, u32 in_c,
	   u32 pt, u32 pl)
{
	u8 flip = c->d->flags & VPUX_DPU_F_IN_SIGNED ? 0x80 : 0;
	/* without channel padding a row is one contiguous copy */
	size_t seg = c->cq == in_c ? (size_t)in_w * in_c : in_c;
	u32 nseg = c->cq == in_c ? 1 : in_w;
	u32 y, x, i;
	size_t pos;

	for (y = 0; y < in_h; y++) {
		const u8 *src = (const u8 *)c->o->in + (size_t)y * in_w * in_c;
		u8 *dst = c->x + (((size_t)y + pt) * c->wp + pl) * c->cq;

		for (x = 0; x < nseg; x++, src += seg, dst += c->cq)
			vnni_copy_flip(dst, src, seg, flip);
		if (simd_work(c->o, &c->since, (u64)in_w * in_c))
			return true;
	}
	if (!c->sx)
		return false;
	/* vpsadbw against 0: sums of 8 bytes into 64-bit lanes */
	for (pos = 0; pos < (size_t)hp * c->wp; pos++) {
		const u8 *p = c->x + pos * c->cq;
		__m512i s = _mm512_setzero_si512();

		for (i = 0; i < c->cq; i += 64) {
			u32 n = c->cq - i < 64 ? c->cq - i : 64;
			__mmask64 m = ~0ull >> (64 - n);

			s = _mm512_add_epi64(s, _mm512_sad_epu8(
				_mm512_maskz_loadu_epi8(m, p + i),
				_mm512_setzero_si512()));
		}
		c->sx[pos] = (u32)_mm512_reduce_add_epi64(s);
		if (simd_work(c->o, &c->since, c->cq))
			return true;
	}
	return false;
}

/*
 * Weights [oc][tap][ci] to [group of nbmax blocks][quad][block][16][4]
 * as s8 (w'), in the runs' order (taps in order, channels padded to cq
 * with 0), with each channel's corr term. Per block of 16 channels, one
 * gather per quad collects the 16 channels' 4 bytes, from the weights
 * themselves when in_c is a multiple of 4 (their rows are the quads in
 * order) or else from rows padded to cq per tap in @tmp (16 x K'
 * bytes, zero). Returns true to stop.
 */
static __attribute__((target(VNNI_TARGET))) bool
vnni_pack_weights(struct vnni_conv *c, u32 ntaps, u32 in_c, u8 *tmp)
{
	bool direct = c->cq == in_c;
	u8 flip = c->d->flags & VPUX_DPU_F_W_SIGNED ? 0 : 0x80;
	const u8 *w = c->o->in2;
	u32 kp = ntaps * c->cq;		/* K' */
	__m512i idx = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5,
				6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
				_mm512_set1_epi32((s32)kp));
	/* padded rows are flipped as they are copied: the padding stays 0 */
	__m512i fl = _mm512_set1_epi8(direct ? (char)flip : 0);
	__m512i ones = _mm512_set1_epi8(1);
	u32 blk, l, t, kq;

	for (blk = 0; blk < c->nblk; blk++) {
		u32 oc0 = blk * VNNI_OCB, g = blk / c->nbmax;
		u32 nc = c->out_c - oc0 < VNNI_OCB ? c->out_c - oc0 : VNNI_OCB;
		u32 nb = c->nblk - g * c->nbmax < c->nbmax ?
			 c->nblk - g * c->nbmax : c->nbmax;
		s8 *dst = c->w + g * c->gstride + (blk % c->nbmax) * 64;
		const u8 *rows = direct ? w + (size_t)oc0 * kp : tmp;
		__mmask16 m = (__mmask16)((1u << nc) - 1);
		__m512i sum = _mm512_setzero_si512();

		for (l = 0; !direct && l < nc; l++)
			for (t = 0; t < ntaps; t++)
				vnni_copy_flip(tmp + (size_t)l * kp + t * c->cq,
					       w + ((size_t)(oc0 + l) * ntaps + t) *
					       in_c, in_c, flip);
		for (kq = 0; kq < c->kquads; kq++) {
			__m512i v = _mm512_mask_i32gather_epi32(
				_mm512_setzero_si512(), m, idx, rows + 4 * kq, 1);

			v = _mm512_xor_si512(v, fl);
			/* sum w' exactly: 1 x w' for each of the 4 bytes */
			sum = _mm512_dpbusd_epi32(sum, ones, v);
			_mm512_store_si512(dst + (size_t)kq * nb * 64, v);
		}
		_mm512_storeu_si512(c->q[blk].corr, _mm512_sub_epi32(
			_mm512_set1_epi32((s32)(kp * c->xz * c->wz)),
			_mm512_mullo_epi32(_mm512_set1_epi32((s32)c->xz), sum)));
		if (simd_work(c->o, &c->since, (u64)nc * ntaps * in_c))
			return true;
	}
	return false;
}

/*
 * Depthwise: the int16 image of x - xz (already 0: the padding, the
 * channels up to the last block of 32). Returns true if the op must stop.
 */
static __attribute__((target(VNNI_TARGET))) bool
vnni_dw_image(struct vnni_conv *c, u32 in_h, u32 in_w, u32 in_c, u32 pt,
	      u32 pl)
{
	bool in_s = c->d->flags & VPUX_DPU_F_IN_SIGNED;
	__m512i xz = _mm512_set1_epi16((s16)c->d->in_zp);
	const u8 *src = c->o->in;
	u32 y, x, ch;

	for (y = 0; y < in_h; y++) {
		for (x = 0; x < in_w; x++, src += in_c) {
			s16 *dst = (s16 *)(c->x + (((size_t)y + pt) * c->wp +
						   x + pl) * c->pstride);

			for (ch = 0; ch < in_c; ch += 32) {
				u32 n = in_c - ch < 32 ? in_c - ch : 32;
				__mmask32 m = n == 32 ? ~0u : (1u << n) - 1;
				__m256i b = _mm256_maskz_loadu_epi8(m, src + ch);
				__m512i v = in_s ? _mm512_cvtepi8_epi16(b) :
					    _mm512_cvtepu8_epi16(b);

				_mm512_mask_storeu_epi16(dst + ch, m,
						_mm512_sub_epi16(v, xz));
			}
		}
		if (simd_work(c->o, &c->since, (u64)in_w * in_c))
			return true;
	}
	return false;
}

/*
 * Depthwise: weights [c][tap] as int16 w - wz to [group of nbmax
 * blocks][tap][block][even/odd][32], each channel's weight in its own
 * half (the other half's is 0, already). Returns true to stop.
 */
static bool vnni_dw_pack_weights(struct vnni_conv *c, u32 ntaps)
{
	bool w_s = c->d->flags & VPUX_DPU_F_W_SIGNED;
	u32 ch, t;

	for (ch = 0; ch < c->out_c; ch++) {
		u32 blk = ch / 32, g = blk / c->nbmax;
		u32 nb = c->nblk - g * c->nbmax < c->nbmax ?
			 c->nblk - g * c->nbmax : c->nbmax;
		s16 *dst = (s16 *)(c->w + g * c->gstride) +
			   blk % c->nbmax * 64 + ch % 2 * 32 + ch % 32;

		for (t = 0; t < ntaps; t++)
			dst[(size_t)t * nb * 64] = (s16)(vpux_ld8(c->o->in2,
				(size_t)ch * ntaps + t, w_s) - c->d->in2_zp);
		if (simd_work(c->o, &c->since, ntaps))
			return true;
	}
	return false;
}

static void vnni_oq_init(struct vnni_conv *c)
{
	const struct vpux_hw_dpu_desc *d = c->d;
	const struct vpux_dpu_operands *o = c->o;
	u32 oc;

	for (oc = 0; oc < c->out_c; oc++) {
		/* depthwise: blocks of 32 as even and odd channels' lanes */
		struct vnni_oq *q = c->depthwise ?
			&c->q[oc / 32 * 2 + oc % 2] : &c->q[oc / VNNI_OCB];
		const struct vpux_hw_requant *rq =
			(d->flags & VPUX_DPU_F_PER_CHANNEL) ? &o->quant[oc] :
			&d->requant;
		u32 l = c->depthwise ? oc % 32 / 2 : oc % VNNI_OCB;
		u32 n = (u32)(31 + rq->shift);

		q->bias[l] = (d->flags & VPUX_DPU_F_BIAS) ? o->bias[oc] : 0;
		if (d->flags & VPUX_DPU_F_OUT_I32)
			continue;	/* no requant records */
		q->mult[l % 2][l / 2] = rq->mult;
		q->shift[l % 2][l / 2] = n;
		q->round[l % 2][l / 2] = n ? (s64)1 << (n - 1) : 0;
	}
}

static void *vnni_alloc(size_t n)
{
	/* whole cache lines: the weights are read with aligned loads */
	return aligned_alloc(64, (n + 63) & ~(size_t)63);
}

/*
 * Run @d on the VNNI kernels if it is one of their ops. Returns true with
 * the result in *@ret if it ran, false if another path must run it.
 */
static bool simd_vnni_run(const struct vpux_hw_dpu_desc *d,
			  const struct vpux_dpu_operands *o, int *ret)
{
	bool in_s = d->flags & VPUX_DPU_F_IN_SIGNED;
	bool w_s = d->flags & VPUX_DPU_F_W_SIGNED;
	u32 pt, pl, hp, ntaps, nq, r;
	size_t xs, ws, ts = 0;
	struct vnni_conv c;
	bool stop, ran = false;
	u8 *tmp = NULL;

	memset(&c, 0, sizeof(c));
	if (d->op == VPUX_DPU_OP_MATMUL) {
		c.kh = c.kw = c.dh = c.dw = c.sh = c.sw = 1;
		pt = pl = 0;
		hp = d->in_h;
		c.wp = d->in_w;
	} else if (d->op == VPUX_DPU_OP_CONV &&
		   (d->groups == 1 ||
		    (d->groups == d->in_c && d->out_c == d->in_c))) {
		c.kh = d->kernel_h;
		c.kw = d->kernel_w;
		c.dh = d->dilation_h;
		c.dw = d->dilation_w;
		c.sh = d->stride_h;
		c.sw = d->stride_w;
		pt = d->pad_top;
		pl = d->pad_left;
		hp = (u32)d->in_h + pt + d->pad_bottom;
		c.wp = (size_t)d->in_w + pl + d->pad_right;
	} else {
		return false;
	}
	c.d = d;
	c.o = o;
	c.out_c = d->out_c;
	c.out_w = d->out_w;
	c.npix = (u32)d->out_h * d->out_w;
	c.depthwise = d->op == VPUX_DPU_OP_CONV && d->groups > 1;
	ntaps = c.kh * c.kw;
	if (c.depthwise) {
		c.bch = 32;
		c.nblk = (d->out_c + 31u) / 32;
		c.kmacs = ntaps;
		/* 6 pixels x nbmax blocks within 6 x 16 x VPUX_DPU_MAX_K MACs */
		c.nbmax = VPUX_DPU_MAX_K / 2 / ntaps < VNNI_NB / 2 ?
			  VPUX_DPU_MAX_K / 2 / ntaps : VNNI_NB / 2;
		if (!c.nbmax)
			return false;	/* AVX2 checks more often */
		c.pstride = (size_t)c.nblk * 32 * sizeof(s16);
		c.gstride = (size_t)c.nbmax * 64 * sizeof(s16) * ntaps;
		c.nruns = ntaps;
		nq = 2 * c.nblk;
	} else {
		c.bch = VNNI_OCB;
		c.cq = (d->in_c + 3u) & ~3u;
		c.kquads = ntaps * c.cq / 4;
		c.kmacs = ntaps * d->in_c;
		c.nblk = (d->out_c + VNNI_OCB - 1) / VNNI_OCB;
		c.nbmax = VPUX_DPU_MAX_K / c.kmacs < VNNI_NB ?
			  VPUX_DPU_MAX_K / c.kmacs : VNNI_NB;
		c.pstride = c.cq;
		c.gstride = (size_t)c.nbmax * 64 * c.kquads;
		c.xz = (u32)d->in_zp + (in_s ? 128u : 0u);
		c.wz = (u32)d->in2_zp - (w_s ? 0u : 128u);
		c.nruns = c.dw == 1 ? c.kh : ntaps;
		nq = c.nblk;
		/* in_c not a multiple of 4: weights padded per tap first */
		ts = c.cq == d->in_c ? 0 : (size_t)VNNI_OCB * ntaps * c.cq;
	}
	xs = (size_t)hp * c.wp * c.pstride;
	ws = (c.nblk + c.nbmax - 1) / c.nbmax * c.gstride;
	if (xs > SIMD_MAX_SCRATCH || ws > SIMD_MAX_SCRATCH)
		return false;
	c.x = vnni_alloc(xs);
	c.w = vnni_alloc(ws);
	c.q = calloc(nq, sizeof(*c.q));
	c.roff = malloc(2 * c.nruns * sizeof(u32));
	c.sx = c.wz ? malloc((size_t)hp * c.wp * sizeof(u32)) : NULL;
	tmp = ts ? calloc(1, ts) : NULL;
	if (c.x && c.w && c.q && c.roff && (c.sx || !c.wz) && (tmp || !ts)) {
		/* padding: the zero point, x' = xz' or x - xz = 0 */
		memset(c.x, (int)c.xz, xs);
		c.rlen = c.roff + c.nruns;
		for (r = 0; r < c.nruns; r++) {
			/* dense with dilation_w 1: a window row is one run */
			bool row = !c.depthwise && c.dw == 1;
			u32 ky = row ? r : r / c.kw, kx = row ? 0 : r % c.kw;

			c.roff[r] = (u32)(((size_t)ky * c.dh * c.wp +
					   (size_t)kx * c.dw) * c.pstride);
			c.rlen[r] = (row ? c.kw : 1) * c.cq / 4;
		}
		ran = true;
		if (c.depthwise) {
			memset(c.w, 0, ws);
			stop = vnni_dw_image(&c, d->in_h, d->in_w, d->in_c,
					     pt, pl) ||
			       vnni_dw_pack_weights(&c, ntaps);
		} else {
			stop = vnni_image(&c, hp, d->in_h, d->in_w, d->in_c,
					  pt, pl) ||
			       vnni_pack_weights(&c, ntaps, d->in_c, tmp);
		}
		if (!stop) {
			vnni_oq_init(&c);
			stop = vnni_conv_run(&c);
		}
		*ret = stop ? VPUX_ERR(ABORTED) : 0;
	}
	free(c.x);
	free(c.w);
	free(c.q);
	free(c.roff);
	free(c.sx);
	free(tmp);
	return ran;
}

/* ---- dispatch ---- */

/*
 * Run @d on the SIMD path in use if it is one of its ops: the VNNI
 * kernels first, then (what they decline, or what the CPU lacks them
 * for) the AVX2 kernels. Returns true with the result in *@ret if it
 * ran, false if the generic code must run it. The caller has validated
 * @d and the operands.
 */
bool vpux_dpu_simd_run(const struct vpux_hw_dpu_desc *d,
		       const struct vpux_dpu_operands *o, int *ret)
{
	int path = vpux_dpu_simd_path();

	if (path == VPUX_DPU_PATH_AVX512VNNI && simd_vnni_run(d, o, ret))
		return true;
	if (path == VPUX_DPU_PATH_AVX512VNNI || path == VPUX_DPU_PATH_AVX2)
		return simd_avx2_run(d, o, ret);
	return false;
}

#endif /* VPUX_DPU_SIMD */
