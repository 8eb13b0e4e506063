// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * FP16/FP32 SHAVE kernels: accuracy of the shared transcendental functions
 * against libm in double precision (FP32 ulps; FP16 results against the
 * correctly rounded ones), known answers of the reference, the model's
 * kernels against the reference bit for bit on randomised tensors (ranks,
 * dims orders, padded strides, broadcasting, axes, data with +-0,
 * subnormals, Inf and NaN; fixed seeds), bit-flipped argument buffers,
 * and every argument check with its exact error. TAP output. Floating
 * point is used here only, to measure and to state known answers.
 */
#include <math.h>

/*
 * The SHAVE memory of ops_test.h: windows of 1 MiB, 0 in, 1 out,
 * 2 in2/scale, 3 bias, no window 4, window 5: 64 bytes.
 */
#define OT_NWIN		6u
#define OT_WIN_BYTES	(1u << 20)
#define OT_WIN_SMALL	5u
#define OT_WIN_NONE	4u

#include "vpux_tap.h"
#include "ops_test.h"

#define ERR_ARGS	VPUX_ERR(ARGS)
#define ERR_MMU		VPUX_ERR(MMU)
#define ERR_KERNEL	VPUX_ERR(KERNEL)
#define F16		VPUX_SHAVE_DT_F16
#define F32		VPUX_SHAVE_DT_F32

static u32 fbits(float f)
{
	u32 b;

	memcpy(&b, &f, 4);
	return b;
}

static float bitsf(u32 b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

/* a random FP32: mostly moderate values, often a special one */
static u32 rand_f32(void)
{
	static const u32 special[] = {
		0, 0x80000000u, 1, 0x80000001u, 0x007fffffu, 0x00800000u,
		0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f7fffffu,
		0xff7fffffu, 0x3f800000u, 0xbf800000u, 0x7f800001u,
	};
	u32 r = ot_rand() % 16;

	if (r == 0)
		return special[ot_rand() % (sizeof(special) / 4)];
	if (r == 1)
		return ot_rand();
	if (r < 4)	/* wide magnitudes */
		return fbits((float)ldexp((ot_rand() / 4294967296.0) - 0.5,
					  ot_range(-30, 30)));
	return fbits((float)((ot_rand() / 4294967296.0 - 0.5) * 16));
}

static u16 rand_f16(void)
{
	static const u16 special[] = {
		0, 0x8000, 1, 0x8001, 0x03ff, 0x0400, 0x7c00, 0xfc00, 0x7e00,
		0xfe01, 0x7bff, 0xfbff, 0x3c00, 0x7c01,
	};
	u32 r = ot_rand() % 16;

	if (r == 0)
		return special[ot_rand() % (sizeof(special) / 2)];
	if (r == 1)
		return (u16)ot_rand();
	return vpux_f32_to_f16(fbits((float)((ot_rand() / 4294967296.0 - 0.5) *
					     (r < 4 ? 200 : 16))));
}

/* fill window @w of both memories with random values of type @dt */
static void fill_both(unsigned int w, u32 dt)
{
	u32 i;

	for (i = 0; i + 4 <= tm_a.size[w]; i += 4) {
		u32 v;

		if (dt == F32) {
			v = rand_f32();
		} else if (dt == F16) {
			v = rand_f16() | (u32)rand_f16() << 16;
		} else {
			v = ot_rand();
		}
		memcpy(tm_a.win[w] + i, &v, 4);
		memcpy(tm_b.win[w] + i, &v, 4);
	}
}

static u32 dt_bytes(u32 dt)
{
	return vpux_shave_dt_bits(dt) / 8;
}

/* tensor at @addr: logical @dims, memory @order, @pad elements per row */
static void mk_memref(struct vpux_memref *m, u32 addr, u32 dt, u32 rank,
		      const u32 *dims, u64 order, u32 pad)
{
	u64 bits = dt_bytes(dt) * 8;
	u32 i;

	memset(m, 0, sizeof(*m));
	m->addr = addr;
	m->is_static = 1;
	m->rank = rank;
	m->data_type = dt;
	m->dims_order = order;
	for (i = 0; i < rank; i++)
		m->dims[i] = dims[i];
	for (i = 0; i < rank; i++) {
		u32 d = (u32)(order >> (4 * i) & 0xf) - 1;

		m->strides[d] = bits;
		bits = bits * dims[d] + (i + 1 < rank ? pad * 8ull * dt_bytes(dt) : 0);
	}
}

static u64 compact_order(u32 rank)
{
	u64 o = 0;
	u32 i;

	for (i = 0; i < rank; i++)
		o |= (u64)(rank - i) << (4 * i);
	return o;
}

static u64 random_order(u32 rank)
{
	u32 p[VPUX_MEMREF_MAX_RANK], i;
	u64 o = 0;

	for (i = 0; i < rank; i++)
		p[i] = i;
	for (i = rank; i > 1; i--) {
		u32 j = ot_rand() % i, t = p[i - 1];

		p[i - 1] = p[j];
		p[j] = t;
	}
	for (i = 0; i < rank; i++)
		o |= (u64)(p[i] + 1) << (4 * i);
	return o;
}

static u64 some_order(u32 rank)
{
	return ot_rand() % 2 ? random_order(rank) : compact_order(rank);
}

static u32 rand_fdt(void)
{
	return ot_rand() % 2 ? F16 : F32;
}

static u32 rand_dims(u32 *dims, u32 rank, u32 max_elems)
{
	u32 i, n;

	do {
		n = 1;
		for (i = 0; i < rank; i++) {
			u32 r = ot_rand() % 8;

			dims[i] = r == 0 ? 1 : r == 1 ? (u32)ot_range(17, 40) :
				  (u32)ot_range(1, 9);
			n *= dims[i];
		}
	} while (n > max_elems);
	return n;
}

/* ---- accuracy of the transcendental functions ---- */

/* error of FP32 @r in ulps of the exact @w (FP32 overflow/underflow aware) */
static double ulp_err(u32 r, double w)
{
	double g = bitsf(r), a = fabs(w), ulp;
	int e;

	if (isnan(w))
		return vpux_f32_is_nan(r) ? 0 : 1e9;
	if (a >= ldexp(1.0, 128) * (1 - ldexp(1.0, -25)))
		w = w > 0 ? INFINITY : -INFINITY;
	if (isinf(w) || isinf(g))
		return g == w ? 0 : 1e9;
	if (isnan(g))
		return 1e9;
	frexp(a, &e);
	ulp = ldexp(1.0, e - 24);
	if (ulp < ldexp(1.0, -149))
		ulp = ldexp(1.0, -149);
	return fabs(g - w) / ulp;
}

static double d_sigmoid(double x)
{
	return 1 / (1 + exp(-x));
}

static double d_gelu_erf(double x)
{
	return 0.5 * x * erfc(-x / sqrt(2.0));
}

static double d_gelu_tanh(double x)
{
	return x / (1 + exp(-2 * sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
}

struct acc_case {
	const char *name;
	u32 (*f)(u32);
	double (*d)(double);
	double lo, hi, bound;
};

static double max_err(const struct acc_case *c, unsigned int samples,
		      float *at)
{
	double mx = 0;
	unsigned int i;

	for (i = 0; i < samples; i++) {
		float x;
		double e;

		if (i % 2) {
			x = (float)(c->lo + (c->hi - c->lo) * (ot_rand() / 4294967296.0));
		} else {
			x = bitsf(ot_rand());
			if (!(x >= c->lo && x <= c->hi))
				continue;
		}
		e = ulp_err(c->f(fbits(x)), c->d(x));
		if (e > mx) {
			mx = e;
			*at = x;
		}
	}
	return mx;
}

static void test_accuracy(void)
{
	static const struct acc_case cs[] = {
		{ "exp", vpux_fm_exp, exp, -104, 89, 1.0 },
		{ "log", vpux_fm_log, log, 0, 3.4e38, 1.0 },
		{ "tanh", vpux_fm_tanh, tanh, -20, 20, 2.0 },
		{ "sigmoid", vpux_fm_sigmoid, d_sigmoid, -110, 100, 3.0 },
		{ "erf", vpux_fm_erf, erf, -6, 6, 2.0 },
		{ "erfc", vpux_fm_erfc, erfc, -6, 11, 5.0 },
		{ "gelu_erf", vpux_fm_gelu_erf, d_gelu_erf, -15, 1e4, 5.0 },
		{ "gelu_tanh", vpux_fm_gelu_tanh, d_gelu_tanh, -3, 1e4, 12.0 },
	};
	unsigned int i, k;

	ot_seed(7);
	for (i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		float at = 0;
		double e = max_err(&cs[i], 100000, &at);

		tap_check(e <= cs[i].bound, "accuracy: %s on [%g, %g] max %.3f ulp (bound %.0f, at %a)",
			  cs[i].name, cs[i].lo, cs[i].hi, e, cs[i].bound, at);
	}
	{	/* pow: |y ln x| <= 20 within 2 ulp; to the FP32 range within 20 */
		double mx[2] = { 0, 0 };

		for (k = 0; k < 200000; k++) {
			float x = (float)(ot_rand() / 4294967296.0 * (k % 3 ? 100 : 2));
			float y = (float)((ot_rand() / 4294967296.0 - 0.5) * (k % 2 ? 20 : 400));
			double w = pow(x, y), e;

			if (w > 3.4e38 || w < 1.2e-38)
				continue;
			e = ulp_err(vpux_fm_pow(fbits(x), fbits(y)), w);
			if (fabs(y * log(x)) <= 20 && e > mx[0])
				mx[0] = e;
			if (e > mx[1])
				mx[1] = e;
		}
		tap_check(mx[0] <= 4.0, "accuracy: pow, |y ln x| <= 20: max %.3f ulp", mx[0]);
		tap_check(mx[1] <= 20.0, "accuracy: pow, normal results: max %.3f ulp", mx[1]);
	}
	{	/* FP16: every input, the FP32 result rounded vs correctly rounded */
		static const struct { const char *n; u32 (*f)(u32); double (*d)(double); }
		h[] = { { "exp", vpux_fm_exp, exp }, { "log", vpux_fm_log, log },
			{ "tanh", vpux_fm_tanh, tanh }, { "sigmoid", vpux_fm_sigmoid, d_sigmoid },
			{ "erf", vpux_fm_erf, erf }, { "gelu_erf", vpux_fm_gelu_erf, d_gelu_erf } };
		for (i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
			unsigned int same = 0, n = 0, far = 0;

			for (k = 0; k < 0x10000; k++) {
				u32 x = vpux_f16_to_f32((u16)k);
				double w = h[i].d(bitsf(x));
				u16 got = vpux_f32_to_f16(h[i].f(x)), want;

				if (vpux_f32_is_nan(x) || isnan(w))
					continue;
				{
					_Float16 hw = (_Float16)w;	/* correctly rounded */

					memcpy(&want, &hw, 2);
				}
				n++;
				same += got == want;
				far += abs((int)(got & 0x7fff) - (int)(want & 0x7fff)) > 1 ||
				       (got ^ want) >> 15;
			}
			tap_check(same * 1000ull >= n * 999ull && !far,
				  "accuracy: FP16 %s correctly rounded for %u of %u inputs, never off by more than 1 ulp",
				  h[i].n, same, n);
		}
	}
	tap_check(vpux_fm_exp(0) == 0x3f800000u && vpux_fm_exp(0x80000000u) == 0x3f800000u &&
		  vpux_fm_exp(0xff800000u) == 0 && vpux_fm_exp(0x7f800000u) == 0x7f800000u &&
		  vpux_fm_log(0x3f800000u) == 0 && vpux_fm_log(0) == 0xff800000u &&
		  vpux_fm_log(0xbf800000u) == VPUX_F32_NAN &&
		  vpux_fm_tanh(0x80000000u) == 0x80000000u &&
		  vpux_fm_tanh(0xff800000u) == 0xbf800000u &&
		  vpux_fm_sigmoid(0) == 0x3f000000u && vpux_fm_sigmoid(0xff800000u) == 0 &&
		  vpux_fm_erf(0x7f800000u) == 0x3f800000u &&
		  vpux_fm_gelu_erf(0xff800000u) == 0x80000000u &&
		  vpux_fm_gelu_tanh(0x7f800000u) == 0x7f800000u &&
		  vpux_fm_erf(0xffc00000u) == VPUX_F32_NAN,
		  "special values of exp, log, tanh, sigmoid, erf, gelu");
	tap_check(vpux_fm_pow(VPUX_F32_NAN, 0) == 0x3f800000u &&
		  vpux_fm_pow(0x3f800000u, VPUX_F32_NAN) == 0x3f800000u &&
		  vpux_fm_pow(fbits(-2.0f), fbits(3.0f)) == fbits(-8.0f) &&
		  vpux_fm_pow(fbits(-2.0f), fbits(0.5f)) == VPUX_F32_NAN &&
		  vpux_fm_pow(0x80000000u, fbits(-3.0f)) == 0xff800000u &&
		  vpux_fm_pow(fbits(-1.0f), 0x7f800000u) == 0x3f800000u &&
		  vpux_fm_pow(fbits(0.5f), 0xff800000u) == 0x7f800000u &&
		  vpux_fm_pow(0xff800000u, fbits(-3.0f)) == 0x80000000u &&
		  vpux_fm_pow(fbits(2.0f), fbits(10.0f)) == fbits(1024.0f) &&
		  vpux_fm_pow(fbits(9.0f), fbits(0.5f)) == fbits(3.0f),
		  "pow: C99 special cases and exact powers");
	tap_check(vpux_fm_floor_s32(fbits(-0.25f)) == -1 &&
		  vpux_fm_floor_s32(fbits(2.5f)) == 2 &&
		  vpux_fm_floor_s32(fbits(-3.0f)) == -3 &&
		  vpux_fm_floor_s32(fbits(1e20f)) == 1 << 30 &&
		  vpux_fm_floor_s32(0x80000000u) == 0,
		  "floor to integer");
}

/* ---- running both implementations ---- */

static int run_both(u32 id, const void *args, u32 size, int *r_ref,
		    u64 *cycles)
{
	tm_a.yields = tm_b.yields = 0;
	*r_ref = vpux_ref_shave_run(id, args, size, &mem_b);
	return vpux_shave_run(id, args, size, &mem_a, cycles);
}

/* run on the reference only; 0 or the error */
static int run_ref(u32 id, const void *args, u32 size)
{
	return vpux_ref_shave_run(id, args, size, &mem_b);
}

static void put32(unsigned int w, u32 i, u32 v)
{
	memcpy(tm_b.win[w] + 4 * i, &v, 4);
}

static u32 get32(unsigned int w, u32 i)
{
	u32 v;

	memcpy(&v, tm_b.win[w] + 4 * i, 4);
	return v;
}

static u16 get16(unsigned int w, u32 i)
{
	u16 v;

	memcpy(&v, tm_b.win[w] + 2 * i, 2);
	return v;
}

static void mk1(struct vpux_memref *m, unsigned int w, u32 dt, u32 n)
{
	mk_memref(m, VPUX_WADDR(w, 0), dt, 1, &n, 0x1, 0);
}

static void test_kat(void)
{
	int r;

	{	/* convert */
		struct vpux_shave_convert_args a;
		static const float in[6] = { 1.0f / 3, 65520.0f, -2.5f, 5.96e-8f,
					     -0.0f, 3.0e-8f };
		static const u16 want[6] = { 0x3555, 0x7c00, 0xc100, 0x0001,
					     0x8000, 0x0001 };
		u32 i, ok = 1;

		memset(&a, 0, sizeof(a));
		mk1(&a.in, 0, F32, 6);
		mk1(&a.out, 1, F16, 6);
		for (i = 0; i < 6; i++)
			put32(0, i, fbits(in[i]));
		r = run_ref(VPUX_SHAVE_KERNEL_CONVERT, &a, sizeof(a));
		for (i = 0; i < 6; i++)
			ok &= get16(1, i) == want[i];
		tap_check(!r && ok, "kat convert FP32 -> FP16 (rounding, overflow, subnormals)");

		/* quantize to uint8, scale 0.5, zp 10: ties to even, saturation, NaN */
		{
			static const float q[8] = { 1.25f, 1.75f, -0.25f, -100.0f, 1e9f,
						    NAN, -INFINITY, 0.75f };
			static const u8 qw[8] = { 12, 14, 10, 0, 255, 10, 0, 12 };

			a.scale = fbits(0.5f);
			a.zero_point = 10;
			mk1(&a.in, 0, F32, 8);
			mk1(&a.out, 1, VPUX_SHAVE_DT_U8, 8);
			for (i = 0; i < 8; i++)
				put32(0, i, fbits(q[i]));
			r = run_ref(VPUX_SHAVE_KERNEL_CONVERT, &a, sizeof(a));
			tap_check(!r && !memcmp(tm_b.win[1], qw, 8),
				  "kat quantize FP32 -> uint8 (x/scale to nearest even, + zp, saturate, NaN -> zp)");
		}
		/* dequantize int8, zp -3, scale 0.25, to FP32 */
		{
			static const s8 q[4] = { -128, -3, 0, 127 };
			static const float dw[4] = { -31.25f, 0.0f, 0.75f, 32.5f };

			a.scale = fbits(0.25f);
			a.zero_point = -3;
			mk1(&a.in, 0, VPUX_SHAVE_DT_I8, 4);
			mk1(&a.out, 1, F32, 4);
			memcpy(tm_b.win[0], q, 4);
			r = run_ref(VPUX_SHAVE_KERNEL_CONVERT, &a, sizeof(a));
			ok = 1;
			for (i = 0; i < 4; i++)
				ok &= get32(1, i) == fbits(dw[i]);
			tap_check(!r && ok, "kat dequantize int8 -> FP32 ((q - zp) * scale)");
		}
	}
	{	/* unary */
		static const struct { u32 f, alpha, beta; float x, y; } u[] = {
			{ VPUX_SHAVE_UN_RELU, 0, 0, -0.0f, 0.0f },
			{ VPUX_SHAVE_UN_RELU, 0, 0, -3.0f, 0.0f },
			{ VPUX_SHAVE_UN_LEAKY_RELU, 0x3dcccccdu, 0, -2.0f, -0.2f },
			{ VPUX_SHAVE_UN_CLIP, 0xbf800000u, 0x40c00000u, 7.0f, 6.0f },
			{ VPUX_SHAVE_UN_CLIP, 0xbf800000u, 0x40c00000u, -7.0f, -1.0f },
			{ VPUX_SHAVE_UN_HARD_SIGMOID, 0x3e4ccccdu, 0x3f000000u, 1.0f, 0.7f },
			{ VPUX_SHAVE_UN_HARD_SWISH, 0, 0, 3.0f, 3.0f },
			{ VPUX_SHAVE_UN_HARD_SWISH, 0, 0, -3.0f, -0.0f },
			{ VPUX_SHAVE_UN_SQRT, 0, 0, 2.25f, 1.5f },
			{ VPUX_SHAVE_UN_RECIP, 0, 0, 4.0f, 0.25f },
			{ VPUX_SHAVE_UN_NEG, 0, 0, 0.0f, -0.0f },
			{ VPUX_SHAVE_UN_ABS, 0, 0, -5.0f, 5.0f },
			{ VPUX_SHAVE_UN_EXP, 0, 0, 0.0f, 1.0f },
			{ VPUX_SHAVE_UN_LOG, 0, 0, 1.0f, 0.0f },
			{ VPUX_SHAVE_UN_SIGMOID, 0, 0, 0.0f, 0.5f },
			{ VPUX_SHAVE_UN_SILU, 0, 0, 0.0f, 0.0f },
			{ VPUX_SHAVE_UN_GELU_ERF, 0, 0, 0.0f, 0.0f },
			{ VPUX_SHAVE_UN_TANH, 0, 0, 30.0f, 1.0f },
		};
		struct vpux_shave_unary_args a;
		u32 i, bad = 0;

		for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
			memset(&a, 0, sizeof(a));
			mk1(&a.in, 0, F32, 1);
			mk1(&a.out, 1, F32, 1);
			a.func = u[i].f;
			a.alpha = u[i].alpha;
			a.beta = u[i].beta;
			put32(0, 0, fbits(u[i].x));
			r = run_ref(VPUX_SHAVE_KERNEL_UNARY, &a, sizeof(a));
			if (r || get32(1, 0) != fbits(u[i].y)) {
				tap_diag("unary %u(%g) = %#x, want %#x (%d)", u[i].f, u[i].x,
					 get32(1, 0), fbits(u[i].y), r);
				bad++;
			}
		}
		tap_check(!bad, "kat unary: relu, leaky, clip, hard-sigmoid, hard-swish, sqrt, recip, neg, abs, exp, log, sigmoid, silu, gelu, tanh");
		/* FP16 in, FP16 out: NaN canonical */
		memset(&a, 0, sizeof(a));
		mk1(&a.in, 0, F16, 2);
		mk1(&a.out, 1, F16, 2);
		a.func = VPUX_SHAVE_UN_ABS;
		put32(0, 0, 0x7d01c000u);	/* -2.0, a signalling NaN */
		r = run_ref(VPUX_SHAVE_KERNEL_UNARY, &a, sizeof(a));
		tap_check(!r && get16(1, 0) == 0x4000 && get16(1, 1) == 0x7e00,
			  "kat unary FP16: abs(-2) = 2, NaN stored canonical");
	}
	{	/* binary with broadcasting: [2,3] - [3] and [2,1] * [1,3] */
		struct vpux_shave_binary_args a;
		u32 d23[2] = { 2, 3 }, d3 = 3, d21[2] = { 2, 1 }, d13[2] = { 1, 3 }, i, ok = 1;
		static const float x[6] = { 1, 2, 3, 4, 5, 6 }, y[3] = { 10, 20, 30 };
		static const float w1[6] = { -9, -18, -27, -6, -15, -24 };
		static const float w2[6] = { 10, 20, 30, 40, 80, 120 };

		memset(&a, 0, sizeof(a));
		mk_memref(&a.in, VPUX_WADDR(0, 0), F32, 2, d23, 0x12, 0);
		mk_memref(&a.in2, VPUX_WADDR(2, 0), F32, 1, &d3, 0x1, 0);
		mk_memref(&a.out, VPUX_WADDR(1, 0), F32, 2, d23, 0x12, 0);
		a.func = VPUX_SHAVE_BIN_SUB;
		for (i = 0; i < 6; i++)
			put32(0, i, fbits(x[i]));
		for (i = 0; i < 3; i++)
			memcpy(tm_b.win[2] + 4 * i, &y[i], 4);
		r = run_ref(VPUX_SHAVE_KERNEL_BINARY, &a, sizeof(a));
		for (i = 0; i < 6; i++)
			ok &= get32(1, i) == fbits(w1[i]);
		tap_check(!r && ok, "kat binary sub [2,3] - [3] (rank broadcast)");
		mk_memref(&a.in, VPUX_WADDR(0, 0), F32, 2, d21, 0x12, 0);
		mk_memref(&a.in2, VPUX_WADDR(2, 0), F32, 2, d13, 0x12, 0);
		a.func = VPUX_SHAVE_BIN_MUL;
		put32(0, 1, fbits(4));
		r = run_ref(VPUX_SHAVE_KERNEL_BINARY, &a, sizeof(a));
		ok = 1;
		for (i = 0; i < 6; i++)
			ok &= get32(1, i) == fbits(w2[i]);
		tap_check(!r && ok, "kat binary mul [2,1] * [1,3] (both broadcast)");
	}
	{	/* softmax / log-softmax of 1..4 vs libm */
		struct vpux_shave_fsoftmax_args a;
		double s = 0, e1 = 0, e2 = 0;
		u32 i;

		memset(&a, 0, sizeof(a));
		mk1(&a.in, 0, F32, 4);
		mk1(&a.out, 1, F32, 4);
		for (i = 0; i < 4; i++) {
			put32(0, i, fbits((float)(i + 1)));
			s += exp(i + 1.0);
		}
		r = run_ref(VPUX_SHAVE_KERNEL_SOFTMAX_F, &a, sizeof(a));
		for (i = 0; i < 4; i++)
			e1 = fmax(e1, ulp_err(get32(1, i), exp(i + 1.0) / s));
		r |= run_ref(VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F, &a, sizeof(a));
		for (i = 0; i < 4; i++)
			e2 = fmax(e2, ulp_err(get32(1, i), i + 1.0 - log(s)));
		tap_check(!r && e1 <= 3 && e2 <= 3,
			  "kat softmax %.2f ulp, log-softmax %.2f ulp from libm", e1, e2);
	}
	{	/* layernorm of [1, 2, 3, 4] with scale 2, bias 1 */
		struct vpux_shave_layernorm_args a;
		double mean = 2.5, var = 1.25, err = 0;
		u32 d14[2] = { 1, 4 }, d4 = 4, i;

		memset(&a, 0, sizeof(a));
		mk_memref(&a.in, VPUX_WADDR(0, 0), F32, 2, d14, 0x12, 0);
		mk_memref(&a.out, VPUX_WADDR(1, 0), F32, 2, d14, 0x12, 0);
		mk_memref(&a.scale, VPUX_WADDR(2, 0), F16, 1, &d4, 0x1, 0);
		mk_memref(&a.bias, VPUX_WADDR(3, 0), F32, 1, &d4, 0x1, 0);
		a.axis = 1;
		a.flags = VPUX_SHAVE_LN_SCALE | VPUX_SHAVE_LN_BIAS;
		a.epsilon = fbits(1e-5f);
		for (i = 0; i < 4; i++) {
			u16 two = 0x4000;

			put32(0, i, fbits((float)(i + 1)));
			memcpy(tm_b.win[2] + 2 * i, &two, 2);
			put32(3, i, fbits(1.0f));
		}
		r = run_ref(VPUX_SHAVE_KERNEL_LAYERNORM, &a, sizeof(a));
		for (i = 0; i < 4; i++)
			err = fmax(err, ulp_err(get32(1, i),
						(i + 1 - mean) / sqrt(var + (double)1e-5f) * 2 + 1));
		tap_check(!r && err <= 8, "kat layernorm with scale and bias: %.2f ulp from libm",
			  err);
	}
	{	/* reduce [2,3] over dim 1 and over both */
		struct vpux_shave_reduce_args a;
		u32 d23[2] = { 2, 3 }, d21[2] = { 2, 1 }, d11[2] = { 1, 1 }, i;
		static const float x[6] = { 1, -2, 3, 4, 5, -0.5f };

		memset(&a, 0, sizeof(a));
		mk_memref(&a.in, VPUX_WADDR(0, 0), F32, 2, d23, 0x12, 0);
		mk_memref(&a.out, VPUX_WADDR(1, 0), F32, 2, d21, 0x12, 0);
		for (i = 0; i < 6; i++)
			put32(0, i, fbits(x[i]));
		a.axes = 2;
		a.func = VPUX_SHAVE_RED_SUM;
		r = run_ref(VPUX_SHAVE_KERNEL_REDUCE, &a, sizeof(a));
		tap_check(!r && get32(1, 0) == fbits(2) && get32(1, 1) == fbits(8.5f),
			  "kat reduce sum over dim 1");
		a.func = VPUX_SHAVE_RED_MAX;
		r = run_ref(VPUX_SHAVE_KERNEL_REDUCE, &a, sizeof(a));
		tap_check(!r && get32(1, 0) == fbits(3) && get32(1, 1) == fbits(5),
			  "kat reduce max over dim 1");
		mk_memref(&a.out, VPUX_WADDR(1, 0), F32, 2, d11, 0x12, 0);
		a.axes = 3;
		a.func = VPUX_SHAVE_RED_MEAN;
		r = run_ref(VPUX_SHAVE_KERNEL_REDUCE, &a, sizeof(a));
		tap_check(!r && get32(1, 0) == fbits(10.5f / 6),
			  "kat reduce mean over both dims");
	}
	{	/* resize */
		struct vpux_shave_resize_args a;
		u32 d4 = 4, d8 = 8, d3 = 3, d2 = 2, i, ok = 1;
		u32 d12[2] = { 1, 2 }, d14[2] = { 1, 4 };
		static const float lw[4] = { 1, 1.5f, 2.5f, 3 };

		memset(&a, 0, sizeof(a));
		mk_memref(&a.in, VPUX_WADDR(0, 0), F32, 1, &d4, 0x1, 0);
		mk_memref(&a.out, VPUX_WADDR(1, 0), F32, 1, &d8, 0x1, 0);
		a.scales[0] = fbits(2.0f);
		for (i = 0; i < 4; i++)
			put32(0, i, fbits((float)i));
		r = run_ref(VPUX_SHAVE_KERNEL_RESIZE, &a, sizeof(a));
		for (i = 0; i < 8; i++)
			ok &= get32(1, i) == fbits((float)(i / 2));
		tap_check(!r && ok, "kat resize nearest x2, half_pixel, round_prefer_floor");
		mk_memref(&a.in, VPUX_WADDR(0, 0), F32, 1, &d3, 0x1, 0);
		mk_memref(&a.out, VPUX_WADDR(1, 0), F32, 1, &d2, 0x1, 0);
		a.scales[0] = fbits(2.0f / 3);
		a.coord = VPUX_SHAVE_COORD_ASYMMETRIC;
		a.nearest = VPUX_SHAVE_NEAREST_FLOOR;
		r = run_ref(VPUX_SHAVE_KERNEL_RESIZE, &a, sizeof(a));
		ok = !r && get32(1, 0) == 0 && get32(1, 1) == fbits(1.0f);
		a.nearest = VPUX_SHAVE_NEAREST_CEIL;
		r = run_ref(VPUX_SHAVE_KERNEL_RESIZE, &a, sizeof(a));
		ok &= !r && get32(1, 0) == 0 && get32(1, 1) == fbits(2.0f);
		tap_check(ok, "kat resize nearest 3 -> 2, asymmetric, floor and ceil");
		mk_memref(&a.in, VPUX_WADDR(0, 0), F32, 2, d12, 0x12, 0);
		mk_memref(&a.out, VPUX_WADDR(1, 0), F32, 2, d14, 0x12, 0);
		a.mode = VPUX_SHAVE_RESIZE_LINEAR;
		a.coord = VPUX_SHAVE_COORD_HALF_PIXEL;
		a.nearest = 0;
		a.scales[0] = fbits(1.0f);
		a.scales[1] = fbits(2.0f);
		put32(0, 0, fbits(1.0f));
		put32(0, 1, fbits(3.0f));
		r = run_ref(VPUX_SHAVE_KERNEL_RESIZE, &a, sizeof(a));
		ok = !r;
		for (i = 0; i < 4; i++)
			ok &= get32(1, i) == fbits(lw[i]);
		tap_check(ok, "kat resize linear 2 -> 4, half_pixel (edges clamped)");
	}
	{	/* gather along dim 0 with a negative index; one out of range */
		struct vpux_shave_gather_args a;
		u32 d32[2] = { 3, 2 }, d22[2] = { 2, 2 }, d2 = 2, i, ok = 1;
		static const s32 ix[2] = { 2, -3 };
		static const float w[4] = { 5, 6, 1, 2 };

		memset(&a, 0, sizeof(a));
		mk_memref(&a.in, VPUX_WADDR(0, 0), F32, 2, d32, 0x12, 0);
		mk_memref(&a.out, VPUX_WADDR(1, 0), F32, 2, d22, 0x12, 0);
		mk_memref(&a.indices, VPUX_WADDR(2, 0), VPUX_SHAVE_DT_I32, 1, &d2, 0x1, 0);
		for (i = 0; i < 6; i++)
			put32(0, i, fbits((float)(i + 1)));
		memcpy(tm_b.win[2], ix, sizeof(ix));
		r = run_ref(VPUX_SHAVE_KERNEL_GATHER, &a, sizeof(a));
		for (i = 0; i < 4; i++)
			ok &= get32(1, i) == fbits(w[i]);
		tap_check(!r && ok, "kat gather [3,2] by [2, -3]");
		put32(1, 0, 0);
		put32(2, 1, 3);
		r = run_ref(VPUX_SHAVE_KERNEL_GATHER, &a, sizeof(a));
		tap_check(r == ERR_ARGS && get32(1, 0) == 0,
			  "kat gather index 3 of 3: ARGS, nothing written");
	}
	{	/* pad [1, 2, 3] by 2 before, 1 after */
		struct vpux_shave_pad_args a;
		u32 d3 = 3, d6 = 6, i, m, ok = 1;
		static const float w[3][6] = { { 9, 9, 1, 2, 3, 9 }, { 3, 2, 1, 2, 3, 2 },
					       { 1, 1, 1, 2, 3, 3 } };

		for (m = 0; m < 3; m++) {
			memset(&a, 0, sizeof(a));
			mk_memref(&a.in, VPUX_WADDR(0, 0), F32, 1, &d3, 0x1, 0);
			mk_memref(&a.out, VPUX_WADDR(1, 0), F32, 1, &d6, 0x1, 0);
			a.mode = m;
			a.value = m ? 0 : fbits(9.0f);
			a.begin[0] = 2;
			a.end[0] = 1;
			for (i = 0; i < 3; i++)
				put32(0, i, fbits((float)(i + 1)));
			r = run_ref(VPUX_SHAVE_KERNEL_PAD, &a, sizeof(a));
			for (i = 0; i < 6; i++)
				ok &= !r && get32(1, i) == fbits(w[m][i]);
		}
		tap_check(ok, "kat pad constant, reflect, edge");
	}
	{	/* permute of FP16 and FP32: transpose 2x3 keeps every bit */
		struct vpux_shave_permute_args a;
		u32 d23[2] = { 2, 3 }, d32[2] = { 3, 2 }, i, ok = 1, k;

		for (k = 0; k < 2; k++) {
			u32 dt = k ? F32 : F16, es = dt_bytes(dt);

			memset(&a, 0, sizeof(a));
			mk_memref(&a.in, VPUX_WADDR(0, 0), dt, 2, d23, 0x12, 0);
			mk_memref(&a.out, VPUX_WADDR(1, 0), dt, 2, d32, 0x12, 0);
			a.perm[0] = 1;
			for (i = 0; i < 6 * es; i++)
				tm_b.win[0][i] = (u8)(0x7c + i);	/* NaN patterns too */
			r = run_ref(VPUX_SHAVE_KERNEL_PERMUTE, &a, sizeof(a));
			for (i = 0; i < 6; i++) {
				u32 src = (i % 2) * 3 + i / 2;

				ok &= !r && !memcmp(tm_b.win[1] + i * es,
						    tm_b.win[0] + src * es, es);
			}
		}
		tap_check(ok, "kat permute FP16 and FP32 transpose, bits kept");
	}
}

/* ---- randomised: model vs reference ---- */

union fargs {
	struct vpux_shave_convert_args cv;
	struct vpux_shave_unary_args un;
	struct vpux_shave_binary_args bin;
	struct vpux_shave_fsoftmax_args sm;
	struct vpux_shave_layernorm_args ln;
	struct vpux_shave_reduce_args rd;
	struct vpux_shave_permute_args pm;
	struct vpux_shave_resize_args rs;
	struct vpux_shave_gather_args ga;
	struct vpux_shave_pad_args pd;
	struct vpux_memref rec[4];
};

/* GATHER: valid indices (one bad one if @bad) into window 2 of both */
static void gather_indices(const union fargs *a, bool bad)
{
	u32 d = a->ga.in.dims[a->ga.axis], i, n = 4096;

	for (i = 0; i < n; i++) {
		s32 v = ot_range(-(s32)d, (s32)d - 1);

		memcpy(tm_a.win[2] + 4 * i, &v, 4);
		memcpy(tm_b.win[2] + 4 * i, &v, 4);
	}
	if (bad) {
		u32 off = VPUX_WADDR_OFFSET(a->ga.indices.addr) +
			  (u32)(a->ga.indices.strides[0] / 8) * (a->ga.indices.dims[0] - 1);
		s32 v = ot_rand() % 2 ? (s32)d : -(s32)d - 1;

		memcpy(tm_a.win[2] + off, &v, 4);
		memcpy(tm_b.win[2] + off, &v, 4);
	}
}

static const char *const kname[] = {
	"?", "clamp", "softmax", "sigmoid", "tanh", "permute", "quantize",
	"convert", "unary", "binary", "softmax_f", "log_softmax_f",
	"layernorm", "reduce", "resize", "gather", "pad",
};

static u32 rand_fparam(void)
{
	return fbits((float)((ot_rand() / 4294967296.0 - 0.5) * 4));
}

/* a random valid invocation of @id; returns the args size */
static u32 gen_case(u32 id, union fargs *a, unsigned int n)
{
	u32 rank = (u32)ot_range(1, VPUX_MEMREF_MAX_RANK);
	u32 dims[VPUX_MEMREF_MAX_RANK], odims[VPUX_MEMREF_MAX_RANK], i;
	u32 max_elems = n % 10 == 0 ? 20000 : 2000;
	u32 pad_i = ot_rand() % 3 ? 0 : (u32)ot_range(1, 5);
	u32 pad_o = ot_rand() % 3 ? 0 : (u32)ot_range(1, 5);
	u32 idt = rand_fdt(), odt = rand_fdt();

	memset(a, 0, sizeof(*a));
	rand_dims(dims, rank, max_elems);
	memcpy(odims, dims, sizeof(dims));
	switch (id) {
	case VPUX_SHAVE_KERNEL_CONVERT:
		switch (ot_rand() % 3) {
		case 0:
			break;
		case 1:
			odt = ot_rand() % 2 ? VPUX_SHAVE_DT_U8 : VPUX_SHAVE_DT_I8;
			a->cv.scale = fbits((float)ldexp(1 + ot_rand() / 4294967296.0,
							 ot_range(-8, 2)));
			a->cv.zero_point = odt == VPUX_SHAVE_DT_U8 ? ot_range(0, 255) :
					   ot_range(-128, 127);
			break;
		default:
			idt = 1 + ot_rand() % 3;
			a->cv.scale = fbits((float)ldexp(1 + ot_rand() / 4294967296.0,
							 ot_range(-12, 4)));
			a->cv.zero_point = idt == VPUX_SHAVE_DT_U8 ? ot_range(0, 255) :
					   idt == VPUX_SHAVE_DT_I8 ? ot_range(-128, 127) :
					   (s32)ot_rand();
			break;
		}
		break;
	case VPUX_SHAVE_KERNEL_UNARY:
		a->un.func = n % VPUX_SHAVE_UN_COUNT;
		if (a->un.func == VPUX_SHAVE_UN_HARD_SIGMOID) {
			a->un.alpha = rand_fparam();
			a->un.beta = rand_fparam();
		} else if (a->un.func == VPUX_SHAVE_UN_LEAKY_RELU) {
			a->un.alpha = rand_fparam();
		} else if (a->un.func == VPUX_SHAVE_UN_CLIP) {
			a->un.alpha = fbits(-fabsf(bitsf(rand_fparam())));
			a->un.beta = fbits(fabsf(bitsf(rand_fparam())));
		}
		break;
	case VPUX_SHAVE_KERNEL_BINARY: {
		u32 r2 = (u32)ot_range(1, rank), d2[VPUX_MEMREF_MAX_RANK];

		a->bin.func = n % VPUX_SHAVE_BIN_COUNT;
		for (i = 0; i < r2; i++) {
			u32 o = rank - r2 + i;

			d2[i] = ot_rand() % 3 ? dims[o] : 1;
			if (d2[i] != 1 && ot_rand() % 4 == 0)
				dims[o] = 1;	/* broadcast the first input */
			odims[o] = d2[i] > dims[o] ? d2[i] : dims[o];
		}
		for (i = 0; i < rank - r2; i++)
			odims[i] = dims[i];
		mk_memref(&a->bin.in2, VPUX_WADDR(2, ot_range(0, 64) * 4), rand_fdt(),
			  r2, d2, some_order(r2), ot_rand() % 3 ? 0 : 2);
		break;
	}
	case VPUX_SHAVE_KERNEL_SOFTMAX_F:
	case VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F:
		a->sm.axis = ot_rand() % rank;
		break;
	case VPUX_SHAVE_KERNEL_LAYERNORM:
		a->ln.axis = ot_rand() % rank;
		a->ln.flags = ot_rand() % 4;
		a->ln.epsilon = ot_rand() % 4 ? fbits(1e-5f) : 0;
		if (a->ln.flags & VPUX_SHAVE_LN_SCALE)
			mk_memref(&a->ln.scale, VPUX_WADDR(2, ot_range(0, 64) * 2), rand_fdt(),
				  rank - a->ln.axis, dims + a->ln.axis,
				  some_order(rank - a->ln.axis), 0);
		if (a->ln.flags & VPUX_SHAVE_LN_BIAS)
			mk_memref(&a->ln.bias, VPUX_WADDR(3, ot_range(0, 64) * 2), rand_fdt(),
				  rank - a->ln.axis, dims + a->ln.axis,
				  some_order(rank - a->ln.axis), 1);
		break;
	case VPUX_SHAVE_KERNEL_REDUCE:
		a->rd.func = n % VPUX_SHAVE_RED_COUNT;
		do
			a->rd.axes = ot_rand() & ((1u << rank) - 1);
		while (!a->rd.axes);
		for (i = 0; i < rank; i++)
			if (a->rd.axes & (1u << i))
				odims[i] = 1;
		break;
	case VPUX_SHAVE_KERNEL_RESIZE:
		odt = idt;
		a->rs.mode = rank >= 2 && ot_rand() % 2 ? VPUX_SHAVE_RESIZE_LINEAR :
			     VPUX_SHAVE_RESIZE_NEAREST;
		a->rs.coord = ot_rand() % VPUX_SHAVE_COORD_MODES;
		if (a->rs.mode == VPUX_SHAVE_RESIZE_NEAREST)
			a->rs.nearest = ot_rand() % VPUX_SHAVE_NEAREST_MODES;
		for (i = 0; i < rank; i++) {
			if (a->rs.mode == VPUX_SHAVE_RESIZE_LINEAR && i + 2 < rank) {
				a->rs.scales[i] = fbits(1.0f);
				continue;
			}
			odims[i] = (u32)ot_range(1, 2 * (s32)dims[i] + 2);
			if (odims[i] > 60)
				odims[i] = 60;
			a->rs.scales[i] = ot_rand() % 2 ?
				fbits((float)odims[i] / (float)dims[i]) :
				fbits((float)(0.3 + 3 * (ot_rand() / 4294967296.0)));
		}
		break;
	case VPUX_SHAVE_KERNEL_GATHER: {
		u32 ri, di[VPUX_MEMREF_MAX_RANK];

		if (ot_rand() % 4 == 0)
			idt = 1 + ot_rand() % 3;	/* a copy: any type */
		odt = idt;
		a->ga.axis = ot_rand() % rank;
		ri = (u32)ot_range(1, (s32)(VPUX_MEMREF_MAX_RANK - rank + 1));
		for (i = 0; i < ri; i++)
			di[i] = (u32)ot_range(1, 5);
		{	/* keep the output inside its window */
			u64 e = 1;

			for (i = 0; i < rank; i++)
				e *= dims[i];
			for (i = 0; i < ri; i++)
				e *= di[i];
			for (i = 0; e > 60000 && i < ri; i++)
				di[i] = 1;
		}
		for (i = 0; i < rank + ri - 1; i++)
			odims[i] = i < a->ga.axis ? dims[i] :
				   i < a->ga.axis + ri ? di[i - a->ga.axis] :
				   dims[i - ri + 1];
		mk_memref(&a->ga.indices, VPUX_WADDR(2, ot_range(0, 16) * 4),
			  VPUX_SHAVE_DT_I32, ri, di, some_order(ri), 0);
		mk_memref(&a->rec[0], VPUX_WADDR(0, ot_range(0, 64) * 4), idt, rank,
			  dims, some_order(rank), pad_i);
		mk_memref(&a->rec[1], VPUX_WADDR(1, ot_range(0, 64) * 4), odt,
			  rank + ri - 1, odims, some_order(rank + ri - 1), pad_o);
		return vpux_shave_args_size(id);
	}
	case VPUX_SHAVE_KERNEL_PAD:
		odt = idt;
		a->pd.mode = ot_rand() % VPUX_SHAVE_PAD_MODES;
		if (a->pd.mode == VPUX_SHAVE_PAD_CONSTANT)
			a->pd.value = rand_f32();
		for (i = 0; i < rank; i++) {
			u32 mx = a->pd.mode == VPUX_SHAVE_PAD_REFLECT ? dims[i] - 1 : 3;

			a->pd.begin[i] = ot_rand() % (mx + 1);
			a->pd.end[i] = ot_rand() % (mx + 1);
			odims[i] = dims[i] + a->pd.begin[i] + a->pd.end[i];
		}
		{	/* keep the output inside its window */
			u64 e = 1;

			for (i = 0; i < rank; i++)
				e *= odims[i];
			for (i = 0; e > 60000 && i < rank; i++) {
				a->pd.begin[i] = a->pd.end[i] = 0;
				odims[i] = dims[i];
			}
		}
		break;
	case VPUX_SHAVE_KERNEL_PERMUTE: {
		u32 p[VPUX_MEMREF_MAX_RANK];

		odt = idt;
		for (i = 0; i < rank; i++)
			p[i] = i;
		for (i = rank; i > 1; i--) {
			u32 j = ot_rand() % i, t = p[i - 1];

			p[i - 1] = p[j];
			p[j] = t;
		}
		for (i = 0; i < rank; i++) {
			a->pm.perm[i] = p[i];
			odims[i] = dims[p[i]];
		}
		break;
	}
	}
	mk_memref(&a->rec[0], VPUX_WADDR(0, ot_range(0, 64) * 2), idt, rank, dims,
		  some_order(rank), pad_i);
	mk_memref(&a->rec[1], VPUX_WADDR(1, ot_range(0, 64) * 2), odt, rank, odims,
		  some_order(rank), pad_o);
	return vpux_shave_args_size(id);
}

static void test_random(void)
{
	static const u32 ids[] = {
		VPUX_SHAVE_KERNEL_CONVERT, VPUX_SHAVE_KERNEL_UNARY,
		VPUX_SHAVE_KERNEL_BINARY, VPUX_SHAVE_KERNEL_SOFTMAX_F,
		VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F, VPUX_SHAVE_KERNEL_LAYERNORM,
		VPUX_SHAVE_KERNEL_REDUCE, VPUX_SHAVE_KERNEL_RESIZE,
		VPUX_SHAVE_KERNEL_GATHER, VPUX_SHAVE_KERNEL_PAD,
		VPUX_SHAVE_KERNEL_PERMUTE,
	};
	unsigned int k;

	for (k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		u32 id = ids[k];
		unsigned int n, pass = 0, cases = 100, mutated = 0, mut_ok = 0, mut_err = 0;
		unsigned int bad_idx = 0;

		ot_seed(9000 + id);
		for (n = 0; n < cases; n++) {
			union fargs a;
			u32 size = gen_case(id, &a, n), w;
			int r, rr;
			u64 cyc = 0;

			bool bad = id == VPUX_SHAVE_KERNEL_GATHER && n % 10 == 5;

			for (w = 0; w < 4; w++)
				fill_both(w, w < 2 || !a.rec[w].rank ||
					  id == VPUX_SHAVE_KERNEL_PERMUTE ? a.rec[0].data_type :
					  a.rec[w].data_type);
			if (id == VPUX_SHAVE_KERNEL_GATHER)
				gather_indices(&a, bad);
			r = run_both(id, &a, size, &rr, &cyc);
			if (bad) {
				bad_idx += r == ERR_ARGS && rr == ERR_ARGS && same_mem();
				pass += r == ERR_ARGS && rr == ERR_ARGS && same_mem();
			} else if (r == 0 && rr == 0 && cyc > VPUX_SHAVE_CYCLES_LAUNCH &&
				   same_mem() && tm_a.yields > 0)
				pass++;
			else
				tap_diag("%s case %u: ret %d/%d yields %u same %d", kname[id],
					 n, r, rr, tm_a.yields, same_mem());
			if (n % 3 == 0 && n % 10) {
				u8 m[sizeof(a)];
				unsigned int f, flips = 1 + ot_rand() % 3;
				int mr, mrr;

				memcpy(m, &a, sizeof(a));
				for (f = 0; f < flips; f++) {
					u32 bit = ot_rand() % (size * 8);

					m[bit / 8] ^= (u8)(1u << (bit % 8));
				}
				for (w = 0; w < 4; w++)
					fill_both(w, F32);
				if (id == VPUX_SHAVE_KERNEL_GATHER)
					gather_indices(&a, false);
				mr = run_both(id, m, size, &mrr, &cyc);
				mutated++;
				mut_ok += mr == mrr && same_mem();
				mut_err += mr != 0;
			}
		}
		tap_check(pass == cases, "random %s: %u/%u cases equal to the reference",
			  kname[id], pass, cases);
		if (id == VPUX_SHAVE_KERNEL_GATHER)
			tap_check(bad_idx == cases / 10,
				  "random gather: an index out of range fails both alike, nothing written (%u)",
				  bad_idx);
		tap_check(mut_ok == mutated && mut_err * 3 > mutated,
			  "random %s: %u/%u bit-flipped argument buffers handled alike (%u rejected)",
			  kname[id], mut_ok, mutated, mut_err);
	}
}

/* long lines: chunks and re-reading passes */
static void test_chunks(void)
{
	union fargs a;
	u32 d[2] = { 2, 5000 }, dt[2] = { 5000, 2 }, w;
	int r, rr;
	u64 cyc;
	unsigned int k;

	ot_seed(31);
	for (k = 0; k < 5; k++) {
		u32 id = k < 2 ? VPUX_SHAVE_KERNEL_SOFTMAX_F + k :
			 k == 2 ? VPUX_SHAVE_KERNEL_LAYERNORM : VPUX_SHAVE_KERNEL_REDUCE;

		memset(&a, 0, sizeof(a));
		mk_memref(&a.rec[0], VPUX_WADDR(0, 0), F32, 2, k == 4 ? dt : d, 0x12, 0);
		mk_memref(&a.rec[1], VPUX_WADDR(1, 0), F16, 2, k == 4 ? dt : d,
			  k % 2 ? 0x21 : 0x12, 0);
		if (k < 2)
			a.sm.axis = 1;
		if (k == 2)
			a.ln.axis = 0;
		if (k >= 3) {
			u32 o[2] = { k == 3 ? 2 : 1, k == 3 ? 1 : 2 };

			a.rd.axes = k == 3 ? 2 : 1;
			a.rd.func = VPUX_SHAVE_RED_MEAN;
			mk_memref(&a.rec[1], VPUX_WADDR(1, 0), F16, 2, o, 0x12, 0);
		}
		for (w = 0; w < 2; w++)
			fill_both(w, F32);
		/* moderate data: no NaN, so the long sums mean something */
		for (w = 0; w < 10000; w++) {
			u32 v = fbits((float)((ot_rand() / 4294967296.0 - 0.5) * 8));

			memcpy(tm_a.win[0] + 4 * w, &v, 4);
			memcpy(tm_b.win[0] + 4 * w, &v, 4);
		}
		r = run_both(id, &a, vpux_shave_args_size(id), &rr, &cyc);
		tap_check(r == 0 && rr == 0 && same_mem() && tm_a.yields > 4,
			  "chunks: %s over a line of 5000: equal to the reference (%u yields)",
			  kname[id], tm_a.yields);
	}
}

/* ---- argument checks ---- */

static void expect(const char *name, u32 id, const void *a, u32 size, int err)
{
	int r, rr;
	u64 cyc = 12345;
	unsigned int w;

	for (w = 0; w < 4; w++)
		fill_both(w, F32);
	if (id == VPUX_SHAVE_KERNEL_GATHER) {	/* indices 1, -1, 7 */
		static const s32 ix[3] = { 1, -1, 7 };

		memcpy(tm_a.win[2], ix, sizeof(ix));
		memcpy(tm_b.win[2], ix, sizeof(ix));
	}
	r = run_both(id, a, size, &rr, &cyc);
	tap_check(r == err && rr == err && (err ? cyc == 12345 : cyc > 0) &&
		  same_mem(),
		  "args: %s -> %d (model %d, reference %d)", name, err, r, rr);
}

static union fargs base(u32 id)
{
	union fargs a;
	u32 d[3] = { 2, 3, 4 }, d4 = 4, d34[2] = { 3, 4 };

	memset(&a, 0, sizeof(a));
	mk_memref(&a.rec[0], VPUX_WADDR(0, 0), F32, 3, d, 0x123, 0);
	mk_memref(&a.rec[1], VPUX_WADDR(1, 0), F16, 3, d, 0x123, 0);
	switch (id) {
	case VPUX_SHAVE_KERNEL_CONVERT:
		break;
	case VPUX_SHAVE_KERNEL_BINARY:
		mk_memref(&a.bin.in2, VPUX_WADDR(2, 0), F16, 1, &d4, 0x1, 0);
		break;
	case VPUX_SHAVE_KERNEL_LAYERNORM:
		a.ln.axis = 1;
		a.ln.flags = 3;
		a.ln.epsilon = fbits(1e-5f);
		mk_memref(&a.ln.scale, VPUX_WADDR(2, 0), F32, 2, d34, 0x12, 0);
		mk_memref(&a.ln.bias, VPUX_WADDR(3, 0), F16, 2, d34, 0x12, 0);
		break;
	case VPUX_SHAVE_KERNEL_REDUCE:
		a.rd.axes = 2;
		d[1] = 1;
		mk_memref(&a.rec[1], VPUX_WADDR(1, 0), F16, 3, d, 0x123, 0);
		break;
	case VPUX_SHAVE_KERNEL_RESIZE:
		mk_memref(&a.rec[0], VPUX_WADDR(0, 0), F16, 3, d, 0x123, 0);
		a.rs.scales[0] = a.rs.scales[1] = a.rs.scales[2] = fbits(1.0f);
		break;
	case VPUX_SHAVE_KERNEL_GATHER: {
		u32 d2 = 2, od[3] = { 2, 2, 4 };

		mk_memref(&a.rec[0], VPUX_WADDR(0, 0), F16, 3, d, 0x123, 0);
		mk_memref(&a.rec[1], VPUX_WADDR(1, 0), F16, 3, od, 0x123, 0);
		mk_memref(&a.ga.indices, VPUX_WADDR(2, 0), VPUX_SHAVE_DT_I32, 1, &d2, 0x1, 0);
		a.ga.axis = 1;
		break;
	}
	case VPUX_SHAVE_KERNEL_PAD: {
		u32 od[3] = { 2, 5, 4 };

		mk_memref(&a.rec[0], VPUX_WADDR(0, 0), F16, 3, d, 0x123, 0);
		mk_memref(&a.rec[1], VPUX_WADDR(1, 0), F16, 3, od, 0x123, 0);
		a.pd.begin[1] = 1;
		a.pd.end[1] = 1;
		break;
	}
	}
	return a;
}

static void test_args(void)
{
	union fargs a, b;
	u8 big[sizeof(union fargs) + 8] = { 0 };
	u32 id;
	int r;
	u64 cyc;

	for (id = VPUX_SHAVE_KERNEL_FIRST_F; id < VPUX_SHAVE_KERNELS; id++) {
		char nm[64];

		a = base(id);
		snprintf(nm, sizeof(nm), "%s valid", kname[id]);
		expect(nm, id, &a, vpux_shave_args_size(id), 0);
		snprintf(nm, sizeof(nm), "%s args_size - 8", kname[id]);
		expect(nm, id, &a, vpux_shave_args_size(id) - 8, ERR_ARGS);
		memcpy(big, &a, sizeof(a));
		snprintf(nm, sizeof(nm), "%s args_size + 8", kname[id]);
		expect(nm, id, big, vpux_shave_args_size(id) + 8, ERR_ARGS);
		snprintf(nm, sizeof(nm), "%s args NULL", kname[id]);
		expect(nm, id, NULL, vpux_shave_args_size(id), ERR_ARGS);
		b = a;
		b.rec[0].data_type = VPUX_SHAVE_DT_I32;
		b.rec[0].strides[2] = 32;
		b.rec[0].strides[1] = 32 * 4;
		b.rec[0].strides[0] = 32 * 12;
		snprintf(nm, sizeof(nm), "%s int32 input", kname[id]);
		expect(nm, id, &b, vpux_shave_args_size(id),
		       id == VPUX_SHAVE_KERNEL_CONVERT ? ERR_ARGS : ERR_ARGS);
		b = a;
		b.rec[1].dims[2] = 5;
		b.rec[1].strides[1] = 16 * 5;
		b.rec[1].strides[0] = 16 * 15;
		snprintf(nm, sizeof(nm), "%s output dims", kname[id]);
		/* RESIZE: any output dims */
		expect(nm, id, &b, vpux_shave_args_size(id),
		       id == VPUX_SHAVE_KERNEL_RESIZE ? 0 : ERR_ARGS);
		b = a;
		b.rec[1].addr = VPUX_WADDR(5, 60);
		snprintf(nm, sizeof(nm), "%s output beyond its window", kname[id]);
		expect(nm, id, &b, vpux_shave_args_size(id), ERR_MMU);
		b = a;
		b.rec[0].reserved = 1;
		snprintf(nm, sizeof(nm), "%s input record reserved", kname[id]);
		expect(nm, id, &b, vpux_shave_args_size(id), ERR_ARGS);
	}
	expect("kernel id VPUX_SHAVE_KERNELS", VPUX_SHAVE_KERNELS, &a, 216, ERR_KERNEL);

#define EXPECT(id, what, err, body) do { \
		a = base(id); body; \
		expect(what, id, &a, vpux_shave_args_size(id), err); \
	} while (0)

	/* CONVERT */
	EXPECT(VPUX_SHAVE_KERNEL_CONVERT, "convert float->float with a scale", ERR_ARGS,
	       a.cv.scale = fbits(1.0f));
	EXPECT(VPUX_SHAVE_KERNEL_CONVERT, "convert float->float with a zero point",
	       ERR_ARGS, a.cv.zero_point = 1);
	EXPECT(VPUX_SHAVE_KERNEL_CONVERT, "convert quantize valid", 0,
	       { a.rec[1].data_type = VPUX_SHAVE_DT_I8; a.rec[1].strides[2] = 8;
		 a.rec[1].strides[1] = 32; a.rec[1].strides[0] = 96;
		 a.cv.scale = fbits(0.1f); a.cv.zero_point = -128; });
	EXPECT(VPUX_SHAVE_KERNEL_CONVERT, "convert quantize zero point outside int8",
	       ERR_ARGS,
	       { a.rec[1].data_type = VPUX_SHAVE_DT_I8; a.rec[1].strides[2] = 8;
		 a.rec[1].strides[1] = 32; a.rec[1].strides[0] = 96;
		 a.cv.scale = fbits(0.1f); a.cv.zero_point = 128; });
	EXPECT(VPUX_SHAVE_KERNEL_CONVERT, "convert quantize scale 0", ERR_ARGS,
	       { a.rec[1].data_type = VPUX_SHAVE_DT_U8; a.rec[1].strides[2] = 8;
		 a.rec[1].strides[1] = 32; a.rec[1].strides[0] = 96; });
	EXPECT(VPUX_SHAVE_KERNEL_CONVERT, "convert quantize scale negative", ERR_ARGS,
	       { a.rec[1].data_type = VPUX_SHAVE_DT_U8; a.rec[1].strides[2] = 8;
		 a.rec[1].strides[1] = 32; a.rec[1].strides[0] = 96;
		 a.cv.scale = fbits(-1.0f); });
	EXPECT(VPUX_SHAVE_KERNEL_CONVERT, "convert quantize scale NaN", ERR_ARGS,
	       { a.rec[1].data_type = VPUX_SHAVE_DT_U8; a.rec[1].strides[2] = 8;
		 a.rec[1].strides[1] = 32; a.rec[1].strides[0] = 96;
		 a.cv.scale = VPUX_F32_NAN; });
	EXPECT(VPUX_SHAVE_KERNEL_CONVERT, "convert quantize scale Inf", ERR_ARGS,
	       { a.rec[1].data_type = VPUX_SHAVE_DT_U8; a.rec[1].strides[2] = 8;
		 a.rec[1].strides[1] = 32; a.rec[1].strides[0] = 96;
		 a.cv.scale = VPUX_F32_INF; });
	EXPECT(VPUX_SHAVE_KERNEL_CONVERT, "convert float -> int32", ERR_ARGS,
	       { a.rec[1].data_type = VPUX_SHAVE_DT_I32; a.rec[1].strides[2] = 32;
		 a.rec[1].strides[1] = 128; a.rec[1].strides[0] = 384;
		 a.cv.scale = fbits(1.0f); });
	EXPECT(VPUX_SHAVE_KERNEL_CONVERT, "convert int32 -> float, any zero point", 0,
	       { a.rec[0].data_type = VPUX_SHAVE_DT_I32;
		 a.cv.scale = fbits(1.0f); a.cv.zero_point = -70000; });
	EXPECT(VPUX_SHAVE_KERNEL_CONVERT, "convert uint8 -> float zero point 256",
	       ERR_ARGS,
	       { a.rec[0].data_type = VPUX_SHAVE_DT_U8; a.rec[0].strides[2] = 8;
		 a.rec[0].strides[1] = 32; a.rec[0].strides[0] = 96;
		 a.cv.scale = fbits(1.0f); a.cv.zero_point = 256; });
	EXPECT(VPUX_SHAVE_KERNEL_CONVERT, "convert int8 -> int8", ERR_ARGS,
	       { a.rec[0].data_type = VPUX_SHAVE_DT_I8; a.rec[0].strides[2] = 8;
		 a.rec[0].strides[1] = 32; a.rec[0].strides[0] = 96;
		 a.rec[1] = a.rec[0]; a.rec[1].addr = VPUX_WADDR(1, 0);
		 a.cv.scale = fbits(1.0f); });
	EXPECT(VPUX_SHAVE_KERNEL_CONVERT, "convert rank mismatch", ERR_ARGS,
	       { a.rec[1].rank = 2; a.rec[1].dims[2] = 0; a.rec[1].strides[2] = 0;
		 a.rec[1].strides[1] = 16; a.rec[1].dims_order = 0x12; });
	/* UNARY */
	EXPECT(VPUX_SHAVE_KERNEL_UNARY, "unary function code 17", ERR_ARGS,
	       a.un.func = VPUX_SHAVE_UN_COUNT);
	EXPECT(VPUX_SHAVE_KERNEL_UNARY, "unary reserved", ERR_ARGS, a.un.reserved = 1);
	EXPECT(VPUX_SHAVE_KERNEL_UNARY, "unary exp with alpha", ERR_ARGS,
	       a.un.alpha = fbits(1.0f));
	EXPECT(VPUX_SHAVE_KERNEL_UNARY, "unary tanh with beta", ERR_ARGS,
	       { a.un.func = VPUX_SHAVE_UN_TANH; a.un.beta = 1; });
	EXPECT(VPUX_SHAVE_KERNEL_UNARY, "unary hard-sigmoid alpha NaN", ERR_ARGS,
	       { a.un.func = VPUX_SHAVE_UN_HARD_SIGMOID; a.un.alpha = VPUX_F32_NAN; });
	EXPECT(VPUX_SHAVE_KERNEL_UNARY, "unary hard-sigmoid beta Inf", ERR_ARGS,
	       { a.un.func = VPUX_SHAVE_UN_HARD_SIGMOID; a.un.beta = VPUX_F32_INF; });
	EXPECT(VPUX_SHAVE_KERNEL_UNARY, "unary leaky alpha Inf", ERR_ARGS,
	       { a.un.func = VPUX_SHAVE_UN_LEAKY_RELU; a.un.alpha = VPUX_F32_INF; });
	EXPECT(VPUX_SHAVE_KERNEL_UNARY, "unary leaky with beta", ERR_ARGS,
	       { a.un.func = VPUX_SHAVE_UN_LEAKY_RELU; a.un.beta = fbits(1.0f); });
	EXPECT(VPUX_SHAVE_KERNEL_UNARY, "unary clip min > max", ERR_ARGS,
	       { a.un.func = VPUX_SHAVE_UN_CLIP; a.un.alpha = fbits(2.0f);
		 a.un.beta = fbits(1.0f); });
	EXPECT(VPUX_SHAVE_KERNEL_UNARY, "unary clip max NaN", ERR_ARGS,
	       { a.un.func = VPUX_SHAVE_UN_CLIP; a.un.beta = VPUX_F32_NAN; });
	EXPECT(VPUX_SHAVE_KERNEL_UNARY, "unary clip to [-Inf, 0] valid", 0,
	       { a.un.func = VPUX_SHAVE_UN_CLIP; a.un.alpha = 0xff800000u; });
	EXPECT(VPUX_SHAVE_KERNEL_UNARY, "unary uint8 output", ERR_ARGS,
	       { a.rec[1].data_type = VPUX_SHAVE_DT_U8; a.rec[1].strides[2] = 8;
		 a.rec[1].strides[1] = 32; a.rec[1].strides[0] = 96; });
	/* BINARY */
	EXPECT(VPUX_SHAVE_KERNEL_BINARY, "binary function code 7", ERR_ARGS,
	       a.bin.func = VPUX_SHAVE_BIN_COUNT);
	EXPECT(VPUX_SHAVE_KERNEL_BINARY, "binary reserved", ERR_ARGS, a.bin.reserved = 2);
	EXPECT(VPUX_SHAVE_KERNEL_BINARY, "binary in2 not broadcastable", ERR_ARGS,
	       { a.bin.in2.dims[0] = 3; a.bin.in2.strides[0] = 16; });
	EXPECT(VPUX_SHAVE_KERNEL_BINARY, "binary in2 int8", ERR_ARGS,
	       { a.bin.in2.data_type = VPUX_SHAVE_DT_I8; a.bin.in2.strides[0] = 8; });
	EXPECT(VPUX_SHAVE_KERNEL_BINARY, "binary in2 record reserved", ERR_ARGS,
	       a.bin.in2.reserved = 3);
	EXPECT(VPUX_SHAVE_KERNEL_BINARY, "binary output of the smaller rank", ERR_ARGS,
	       { a.rec[0].rank = 1; a.rec[0].dims[0] = 4; a.rec[0].dims[1] = 0;
		 a.rec[0].dims[2] = 0; a.rec[0].strides[0] = 32; a.rec[0].strides[1] = 0;
		 a.rec[0].strides[2] = 0; a.rec[0].dims_order = 1; });
	EXPECT(VPUX_SHAVE_KERNEL_BINARY, "binary in2 outside its window", ERR_MMU,
	       a.bin.in2.addr = VPUX_WADDR(4, 0));
	/* SOFTMAX_F */
	EXPECT(VPUX_SHAVE_KERNEL_SOFTMAX_F, "softmax_f axis >= rank", ERR_ARGS,
	       a.sm.axis = 3);
	EXPECT(VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F, "log_softmax_f reserved", ERR_ARGS,
	       a.sm.reserved = 1);
	/* LAYERNORM */
	EXPECT(VPUX_SHAVE_KERNEL_LAYERNORM, "layernorm axis >= rank", ERR_ARGS,
	       a.ln.axis = 3);
	EXPECT(VPUX_SHAVE_KERNEL_LAYERNORM, "layernorm unknown flag", ERR_ARGS,
	       a.ln.flags = 7);
	EXPECT(VPUX_SHAVE_KERNEL_LAYERNORM, "layernorm reserved", ERR_ARGS,
	       a.ln.reserved = 1);
	EXPECT(VPUX_SHAVE_KERNEL_LAYERNORM, "layernorm epsilon negative", ERR_ARGS,
	       a.ln.epsilon = fbits(-1e-5f));
	EXPECT(VPUX_SHAVE_KERNEL_LAYERNORM, "layernorm epsilon NaN", ERR_ARGS,
	       a.ln.epsilon = VPUX_F32_NAN);
	EXPECT(VPUX_SHAVE_KERNEL_LAYERNORM, "layernorm epsilon Inf", ERR_ARGS,
	       a.ln.epsilon = VPUX_F32_INF);
	EXPECT(VPUX_SHAVE_KERNEL_LAYERNORM, "layernorm scale of the wrong rank", ERR_ARGS,
	       a.ln.axis = 2);
	EXPECT(VPUX_SHAVE_KERNEL_LAYERNORM, "layernorm bias of the wrong dims", ERR_ARGS,
	       { a.ln.bias.dims[0] = 2; a.ln.bias.strides[0] = 16; });
	EXPECT(VPUX_SHAVE_KERNEL_LAYERNORM, "layernorm unused bias not zero", ERR_ARGS,
	       a.ln.flags = VPUX_SHAVE_LN_SCALE);
	EXPECT(VPUX_SHAVE_KERNEL_LAYERNORM, "layernorm without scale and bias valid", 0,
	       { a.ln.flags = 0; memset(&a.ln.scale, 0, 2 * sizeof(a.ln.scale)); });
	EXPECT(VPUX_SHAVE_KERNEL_LAYERNORM, "layernorm bias unreadable", ERR_MMU,
	       a.ln.bias.addr = VPUX_WADDR(4, 0));
	EXPECT(VPUX_SHAVE_KERNEL_LAYERNORM, "layernorm scale uint8", ERR_ARGS,
	       { a.ln.scale.data_type = VPUX_SHAVE_DT_U8; a.ln.scale.strides[1] = 8;
		 a.ln.scale.strides[0] = 32; });
	/* REDUCE */
	EXPECT(VPUX_SHAVE_KERNEL_REDUCE, "reduce function code 4", ERR_ARGS,
	       a.rd.func = VPUX_SHAVE_RED_COUNT);
	EXPECT(VPUX_SHAVE_KERNEL_REDUCE, "reduce no axes", ERR_ARGS, a.rd.axes = 0);
	EXPECT(VPUX_SHAVE_KERNEL_REDUCE, "reduce axis beyond the rank", ERR_ARGS,
	       a.rd.axes = 2 | 8);
	EXPECT(VPUX_SHAVE_KERNEL_REDUCE, "reduce output dim not 1", ERR_ARGS,
	       a.rd.axes = 1);

	/* RESIZE */
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize mode 2", ERR_ARGS, a.rs.mode = 2);
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize coordinate mode 5", ERR_ARGS,
	       a.rs.coord = VPUX_SHAVE_COORD_MODES);
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize nearest mode 4", ERR_ARGS,
	       a.rs.nearest = VPUX_SHAVE_NEAREST_MODES);
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize reserved", ERR_ARGS, a.rs.reserved = 1);
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize scale 0", ERR_ARGS, a.rs.scales[1] = 0);
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize scale negative", ERR_ARGS,
	       a.rs.scales[1] = fbits(-2.0f));
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize scale NaN", ERR_ARGS,
	       a.rs.scales[2] = VPUX_F32_NAN);
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize scale Inf", ERR_ARGS,
	       a.rs.scales[2] = VPUX_F32_INF);
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize scale beyond the rank", ERR_ARGS,
	       a.rs.scales[3] = fbits(1.0f));
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize dynamic output", ERR_ARGS,
	       { a.rec[1].is_static = 0; a.rec[1].dims_addr = VPUX_WADDR(3, 0); });
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize types differ", ERR_ARGS,
	       { a.rec[0].data_type = F32; a.rec[0].strides[2] = 32;
		 a.rec[0].strides[1] = 128; a.rec[0].strides[0] = 384; });
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize linear valid", 0,
	       a.rs.mode = VPUX_SHAVE_RESIZE_LINEAR);
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize linear with a nearest mode", ERR_ARGS,
	       { a.rs.mode = VPUX_SHAVE_RESIZE_LINEAR; a.rs.nearest = 1; });
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize linear scales an outer dim", ERR_ARGS,
	       { a.rs.mode = VPUX_SHAVE_RESIZE_LINEAR; a.rs.scales[0] = fbits(2.0f); });
	EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize linear changes an outer dim", ERR_ARGS,
	       { a.rs.mode = VPUX_SHAVE_RESIZE_LINEAR; a.rec[1].dims[0] = 1; });
	{
		u32 d1 = 4;

		EXPECT(VPUX_SHAVE_KERNEL_RESIZE, "resize linear of rank 1", ERR_ARGS,
		       { a.rs.mode = VPUX_SHAVE_RESIZE_LINEAR;
			 mk_memref(&a.rec[0], VPUX_WADDR(0, 0), F16, 1, &d1, 1, 0);
			 mk_memref(&a.rec[1], VPUX_WADDR(1, 0), F16, 1, &d1, 1, 0);
			 a.rs.scales[1] = a.rs.scales[2] = 0; });
	}
	/* GATHER */
	EXPECT(VPUX_SHAVE_KERNEL_GATHER, "gather axis >= rank", ERR_ARGS, a.ga.axis = 3);
	EXPECT(VPUX_SHAVE_KERNEL_GATHER, "gather reserved", ERR_ARGS, a.ga.reserved = 1);
	EXPECT(VPUX_SHAVE_KERNEL_GATHER, "gather int8 indices", ERR_ARGS,
	       { a.ga.indices.data_type = VPUX_SHAVE_DT_I8; a.ga.indices.strides[0] = 8; });
	EXPECT(VPUX_SHAVE_KERNEL_GATHER, "gather types differ", ERR_ARGS,
	       { a.rec[0].data_type = F32; a.rec[0].strides[2] = 32;
		 a.rec[0].strides[1] = 128; a.rec[0].strides[0] = 384; });
	EXPECT(VPUX_SHAVE_KERNEL_GATHER, "gather output dims", ERR_ARGS,
	       { a.rec[1].dims[1] = 3; a.rec[1].strides[0] = 16 * 12; });
	EXPECT(VPUX_SHAVE_KERNEL_GATHER, "gather index out of range", ERR_ARGS,
	       { a.ga.indices.addr = VPUX_WADDR(2, 4); });	/* -1, then random */
	{
		u32 d5[5] = { 1, 1, 1, 1, 1 };

		EXPECT(VPUX_SHAVE_KERNEL_GATHER, "gather output rank above 6", ERR_ARGS,
		       mk_memref(&a.ga.indices, VPUX_WADDR(2, 0), VPUX_SHAVE_DT_I32, 5,
				 d5, 0x12345, 0));
	}
	/* PAD */
	EXPECT(VPUX_SHAVE_KERNEL_PAD, "pad mode 3", ERR_ARGS, a.pd.mode = 3);
	EXPECT(VPUX_SHAVE_KERNEL_PAD, "pad reflect with a value", ERR_ARGS,
	       { a.pd.mode = VPUX_SHAVE_PAD_REFLECT; a.pd.value = fbits(1.0f); });
	EXPECT(VPUX_SHAVE_KERNEL_PAD, "pad reflect valid", 0,
	       a.pd.mode = VPUX_SHAVE_PAD_REFLECT);
	EXPECT(VPUX_SHAVE_KERNEL_PAD, "pad reflect by the dim", ERR_ARGS,
	       { a.pd.mode = VPUX_SHAVE_PAD_REFLECT; a.pd.begin[1] = 3; a.pd.end[1] = 0;
		 a.rec[1].dims[1] = 6; a.rec[1].strides[0] = 16 * 24; });
	EXPECT(VPUX_SHAVE_KERNEL_PAD, "pad edge by more than the dim", 0,
	       { a.pd.mode = VPUX_SHAVE_PAD_EDGE; a.pd.begin[1] = 3; a.pd.end[1] = 0;
		 a.rec[1].dims[1] = 6; a.rec[1].strides[0] = 16 * 24; });
	EXPECT(VPUX_SHAVE_KERNEL_PAD, "pad beyond the rank", ERR_ARGS, a.pd.end[3] = 1);
	EXPECT(VPUX_SHAVE_KERNEL_PAD, "pad output dims", ERR_ARGS, a.pd.end[1] = 2);
	EXPECT(VPUX_SHAVE_KERNEL_PAD, "pad types differ", ERR_ARGS,
	       { a.rec[0].data_type = F32; a.rec[0].strides[2] = 32;
		 a.rec[0].strides[1] = 128; a.rec[0].strides[0] = 384; });

	{	/* dynamic dims: unary with a dynamic input and output */
		u32 act[3] = { 1, 2, 3 }, got[3];
		int rr;

		a = base(VPUX_SHAVE_KERNEL_UNARY);
		a.rec[0].is_static = 0;
		a.rec[0].dims_addr = VPUX_WADDR(3, 0x100);
		a.rec[1].is_static = 0;
		a.rec[1].dims_addr = VPUX_WADDR(3, 0x200);
		fill_both(0, F32);
		fill_both(1, F32);
		fill_both(3, F32);
		memcpy(tm_a.win[3] + 0x100, act, sizeof(act));
		memcpy(tm_b.win[3] + 0x100, act, sizeof(act));
		r = run_both(VPUX_SHAVE_KERNEL_UNARY, &a, vpux_shave_args_size(VPUX_SHAVE_KERNEL_UNARY),
			     &rr, &cyc);
		memcpy(got, tm_a.win[3] + 0x200, sizeof(got));
		tap_check(r == 0 && rr == 0 && same_mem() && !memcmp(got, act, sizeof(act)),
			  "dynamic: unary reads the actual dims and writes the output's");
		act[2] = 5;
		memcpy(tm_a.win[3] + 0x100, act, sizeof(act));
		memcpy(tm_b.win[3] + 0x100, act, sizeof(act));
		r = run_both(VPUX_SHAVE_KERNEL_UNARY, &a, vpux_shave_args_size(VPUX_SHAVE_KERNEL_UNARY),
			     &rr, &cyc);
		tap_check(r == ERR_ARGS && rr == ERR_ARGS, "dynamic: actual dim above its bound");
	}
	a = base(VPUX_SHAVE_KERNEL_UNARY);
	tm_a.fail_alloc = tm_b.fail_alloc = 1;
	r = vpux_shave_run(VPUX_SHAVE_KERNEL_UNARY, &a, sizeof(a.un), &mem_a, &cyc);
	tm_a.fail_alloc = tm_b.fail_alloc = 0;
	tap_check(r == VPUX_ERR(NOMEM), "scratch allocation failure -> NOMEM");
}

int main(void)
{
	tmem_init(&tm_a);
	tmem_init(&tm_b);
	test_accuracy();
	test_kat();
	test_args();
	test_chunks();
	test_random();
	return tap_finish();
}
