// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The SHAVE engine's FP32 transcendental functions (vpux_fmath.h): part of
 * the definition of the FP16/FP32 kernels, shared by the references and
 * the NPU model. Every step is one correctly rounded soft-float operation
 * of vpux_float.h, in the order written; Documentation/compute-ops.rst
 * ("FP16/FP32 kernels") states the same sequences. Polynomials are
 * evaluated by Horner's rule from the highest coefficient:
 * p = c[0]; p = p * v + c[i] for i = 1..n-1. The exp, log and tanh
 * coefficients are Cephes' single-precision ones; the erf/erfc ones are
 * Chebyshev fits (mpmath.chebyfit) rounded to FP32. Integer only.
 */
#include "vpux_fmath.h"

#define F_ONE		0x3f800000u	/* 1 */
#define F_TWO		0x40000000u	/* 2 */
#define F_HALF		0x3f000000u	/* 0.5 */
#define F_NEG_HALF	0xbf000000u	/* -0.5 */
#define F_LOG2E		0x3fb8aa3bu	/* log2(e) = 1.44269502 */
#define F_LN2_HI	0x3f318000u	/* 0.693359375, 9 significant bits */
#define F_LN2_LO	0xb95e8083u	/* -2.12194440e-4: ln 2 - F_LN2_HI */
#define F_EXP_HI	0x42b17218u	/* 88.7228394: e^x rounds to +Inf */
#define F_EXP_LO	0xc2d00000u	/* -104: e^x rounds to +0 */
#define F_SQRT2		0x3fb504f3u	/* 1.41421354 */
#define F_SQRT1_2	0x3f3504f3u	/* 0.707106769 = 1 / sqrt(2) */
#define F_SQRT1_2_LO	0x324fe77au	/* 1.21016171e-8: 1/sqrt(2) - F_SQRT1_2 */
#define F_ERFC_BIG	0x3f000000u	/* 0.5: erfc by e^(-t^2) R from here */
#define F_TANH_SMALL	0x3f200000u	/* 0.625 */
#define F_TANH_TINY	0x39800000u	/* 2^-12: tanh x rounds to x below */
#define F_ERF_SMALL	0x3f800000u	/* 1: erf polynomial below */
#define F_ERF_ONE	0x40800000u	/* 4: erf rounds to 1 from here */
#define F_ERFC_R0	0x3f800000u	/* 1: erfc piece 0 below */
#define F_ERFC_R1	0x40000000u	/* 2: erfc piece 1 below */
#define F_ERFC_R2	0x40400000u	/* 3: erfc piece 2 below */
#define F_ERFC_ZERO	0x4121999au	/* 10.1: erfc rounds to 0 from here */
#define F_GELU_K	0x3fcc422au	/* 2 sqrt(2 / pi) = 1.59576912 */
#define F_GELU_C	0x3d372713u	/* 0.044715 */
#define F_SPLIT		0x45801000u	/* 4097 = 2^12 + 1 (Dekker split) */
#define F_POW_BIG	0x43000000u	/* 128: |y ln x| beyond: Inf or 0 */

/* Cephes expf: e^r = 1 + r + r^2 P(r), |r| <= ln(2)/2 */
static const u32 fm_exp_p[6] = {
	0x39506967,	/* +1.9875691500e-04 */
	0x3ab743ce,	/* +1.3981999507e-03 */
	0x3c088908,	/* +8.3334519073e-03 */
	0x3d2aa9c1,	/* +4.1665795894e-02 */
	0x3e2aaaaa,	/* +1.6666665459e-01 */
	0x3f000000,	/* +5.0000001201e-01 (rounds to 0.5) */
};

/* Cephes logf: ln(1 + f) = f - f^2/2 + f^3 P(f), sqrt(1/2) <= 1 + f < sqrt(2) */
static const u32 fm_log_p[9] = {
	0x3d9021bb,	/* +7.0376836292e-02 */
	0xbdebd1b8,	/* -1.1514610310e-01 */
	0x3def251a,	/* +1.1676998740e-01 */
	0xbdfe5d4f,	/* -1.2420140846e-01 */
	0x3e11e9bf,	/* +1.4249322787e-01 */
	0xbe2aae50,	/* -1.6668057665e-01 */
	0x3e4cceac,	/* +2.0000714765e-01 */
	0xbe7ffffc,	/* -2.4999993993e-01 */
	0x3eaaaaaa,	/* +3.3333331174e-01 */
};

/* Cephes tanhf: tanh(x) = x + x^3 P(x^2), |x| < 0.625 */
static const u32 fm_tanh_p[5] = {
	0xbbbaf0ea,	/* -5.7049887274e-03 */
	0x3ca9134e,	/* +2.0639088795e-02 */
	0xbd5c1e2d,	/* -5.3739715553e-02 */
	0x3e088393,	/* +1.3331442204e-01 */
	0xbeaaaa99,	/* -3.3333281942e-01 */
};

/* erf(x) = x + x P(x^2), |x| < 1 */
static const u32 fm_erf_p[7] = {
	0x38a52b48,	/* +7.875874871e-05 */
	0xba522844,	/* -8.016864303e-04 */
	0x3baa0938,	/* +5.189087242e-03 */
	0xbcdbfd5d,	/* -2.685421146e-02 */
	0x3de71688,	/* +1.128359437e-01 */
	0xbec0939f,	/* -3.761262596e-01 */
	0x3e0375d4,	/* +1.283791661e-01 */
};

/*
 * erfc(t) = e^(-t^2) R(u), u = 1/t, R(u) a polynomial in v = u - center,
 * four pieces: t in [0.5, 1), [1, 2), [2, 3), [3, 10.1).
 */
#define F_ERFC_C0	0x3fc00000u	/* 1.5 */
static const u32 fm_erfc_r0[11] = {
	0x38c6f3df,	/* +9.486800263e-05 */
	0xb93a86a6,	/* -1.778850274e-04 */
	0x3967f2a7,	/* +2.212027175e-04 */
	0xb961b834,	/* -2.152629313e-04 */
	0xb937962a,	/* -1.750818046e-04 */
	0x3afcf731,	/* +1.929974300e-03 */
	0xbbfbab37,	/* -7.680322509e-03 */
	0x3cc6b702,	/* +2.425718680e-02 */
	0xbd8c9ef9,	/* -6.866259128e-02 */
	0x3e3a4ac9,	/* +1.819259077e-01 */
	0x3f0a0e8b,	/* +5.392844081e-01 */
};

#define F_ERFC_C1	0x3f400000u	/* 0.75 */
static const u32 fm_erfc_r1[9] = {
	0x3c062884,	/* +8.188370615e-03 */
	0xbc915a4b,	/* -1.774325036e-02 */
	0x3cc5b95a,	/* +2.413623407e-02 */
	0xbcb5d9a5,	/* -2.219850756e-02 */
	0x3b201f5d,	/* +2.443275647e-03 */
	0x3d4b0793,	/* +4.956777021e-02 */
	0xbe1e479e,	/* -1.545700729e-01 */
	0x3eaec7e6,	/* +3.413688540e-01 */
	0x3eb3c7ed,	/* +3.511346877e-01 */
};

#define F_ERFC_C2	0x3ed55555u	/* 0.416666657 */
static const u32 fm_erfc_r2[7] = {
	0x3d5fc804,	/* +5.463410914e-02 */
	0xbdf1c796,	/* -1.180564612e-01 */
	0x3ddc6f9f,	/* +1.076347753e-01 */
	0xbbb40117,	/* -5.493293982e-03 */
	0xbe40821a,	/* -1.879962981e-01 */
	0x3eeab4d9,	/* +4.584110081e-01 */
	0x3e5fbe22,	/* +2.184987366e-01 */
};

#define F_ERFC_C3	0x3e5d5c18u	/* 0.216171622 */
static const u32 fm_erfc_r3[9] = {
	0xbd49bffb,	/* -4.925535247e-02 */
	0x3ed428e6,	/* +4.143745303e-01 */
	0xbe89ee3a,	/* -2.693956494e-01 */
	0xbd53b35c,	/* -5.168472230e-02 */
	0x3e66b882,	/* +2.253132164e-01 */
	0xbe120956,	/* -1.426137388e-01 */
	0xbe18014c,	/* -1.484424472e-01 */
	0x3f075495,	/* +5.286343694e-01 */
	0x3df44f37,	/* +1.192917153e-01 */
};

static inline u32 fa(u32 a, u32 b)
{
	return vpux_f32_add(a, b);
}

static inline u32 fs(u32 a, u32 b)
{
	return vpux_f32_sub(a, b);
}

static inline u32 fm(u32 a, u32 b)
{
	return vpux_f32_mul(a, b);
}

static inline u32 fd(u32 a, u32 b)
{
	return vpux_f32_div(a, b);
}

/* |a| < |b| on finite or infinite values (magnitudes compare as integers) */
static inline bool mag_lt(u32 a, u32 b)
{
	return (a & 0x7fffffffu) < (b & 0x7fffffffu);
}

/* Horner: c[0] v^(n-1) + ... + c[n-1] */
static u32 horner(const u32 *c, u32 n, u32 v)
{
	u32 p = c[0], i;

	for (i = 1; i < n; i++)
		p = fa(fm(p, v), c[i]);
	return p;
}

/* 2^n as FP32, -126 <= n <= 127 */
static inline u32 pow2(s32 n)
{
	return (u32)(n + 127) << 23;
}

/*
 * @v * 2^@k for the exp reconstruction (-150 <= k <= 128): at most one
 * rounding, in the last multiplication.
 */
static u32 scale2(u32 v, s32 k)
{
	if (k > 127) {
		v = fm(v, pow2(127));
		k -= 127;
	}
	if (k < -126) {
		v = fm(v, pow2(k + 64));	/* exact: stays normal */
		k = -64;
	}
	return fm(v, pow2(k));
}

/*
 * e^(x + xl), |xl| tiny (the low part of a double-FP32 argument, 0 for
 * plain exp), for x inside [F_EXP_LO, F_EXP_HI].
 */
static u32 exp_core(u32 x, u32 xl)
{
	s32 k = vpux_f32_to_s32(fm(x, F_LOG2E));
	u32 kf = vpux_f32_from_s32(k), r, z, p;

	r = fs(x, fm(kf, F_LN2_HI));
	r = fs(r, fm(kf, F_LN2_LO));
	if (xl)
		r = fa(r, xl);
	z = fm(r, r);
	p = horner(fm_exp_p, 6, r);
	p = fa(fa(fm(p, z), r), F_ONE);
	return scale2(p, k);
}

/**
 * vpux_fm_exp() - e^x
 * @x: FP32
 *
 * NaN -> NaN; x >= 88.7228394 -> +Inf; x < -104 -> +0; else
 * k = rne(x * log2e), r = (x - k*C1) - k*C2, p = ((P(r) * r^2) + r) + 1,
 * result p * 2^k (one rounding, in the last multiplication).
 *
 * Return: FP32 e^x.
 */
u32 vpux_fm_exp(u32 x)
{
	if (vpux_f32_is_nan(x))
		return VPUX_F32_NAN;
	if (!(x >> 31) && x >= F_EXP_HI)
		return VPUX_F32_INF;
	if (x >> 31 && x > F_EXP_LO)
		return 0;
	return exp_core(x, 0);
}

/*
 * Split a finite positive FP32 into m * 2^e, m in [sqrt(1/2), sqrt(2)):
 * returns f = m - 1 (exact).
 */
static u32 log_reduce(u32 x, s32 *e)
{
	s32 adj = 0;
	u32 m;

	if (!(x >> 23)) {			/* subnormal: scale by 2^23, exact */
		x = fm(x, pow2(23));
		adj = -23;
	}
	*e = (s32)(x >> 23) - 127 + adj;
	m = (x & 0x7fffffu) | pow2(0);
	if (m > F_SQRT2) {
		m -= 1u << 23;			/* m / 2 */
		(*e)++;
	}
	return fs(m, F_ONE);
}

/**
 * vpux_fm_log() - natural logarithm
 * @x: FP32
 *
 * NaN or x < 0 (not -0) -> NaN; +-0 -> -Inf; +Inf -> +Inf. Else x = m 2^e
 * with m in [sqrt(1/2), sqrt(2)], f = m - 1, z = f*f,
 * y = f * (z * P(f)); y = y + e*C2 (if e != 0); y = y + (-0.5 * z);
 * r = f + y; r = r + e*C1 (if e != 0).
 *
 * Return: FP32 ln x.
 */
u32 vpux_fm_log(u32 x)
{
	u32 f, z, y, r, ef = 0;
	s32 e;

	if (vpux_f32_is_nan(x))
		return VPUX_F32_NAN;
	if (vpux_f32_is_zero(x))
		return VPUX_F32_SIGN | VPUX_F32_INF;
	if (x >> 31)
		return VPUX_F32_NAN;
	if (vpux_f32_is_inf(x))
		return x;
	f = log_reduce(x, &e);
	z = fm(f, f);
	y = fm(f, fm(z, horner(fm_log_p, 9, f)));
	if (e) {
		ef = vpux_f32_from_s32(e);
		y = fa(y, fm(ef, F_LN2_LO));
	}
	y = fa(y, fm(F_NEG_HALF, z));
	r = fa(f, y);
	if (e)
		r = fa(r, fm(ef, F_LN2_HI));
	return r;
}

/**
 * vpux_fm_tanh() - hyperbolic tangent
 * @x: FP32
 *
 * NaN -> NaN. |x| < 2^-12: x. |x| < 0.625: z = x*x,
 * r = ((P(z) * z) * x) + x. Else
 * e = exp(2|x|), r = 1 - 2 / (e + 1) with the sign of x (+-1 once e is
 * +Inf).
 *
 * Return: FP32 tanh x.
 */
u32 vpux_fm_tanh(u32 x)
{
	u32 ax = x & 0x7fffffffu, e, r;

	if (vpux_f32_is_nan(x))
		return VPUX_F32_NAN;
	if (ax < F_TANH_TINY)
		return x;
	if (ax < F_TANH_SMALL) {
		u32 z = fm(x, x);

		return fa(fm(fm(horner(fm_tanh_p, 5, z), z), x), x);
	}
	e = vpux_fm_exp(fm(ax, F_TWO));
	r = fs(F_ONE, fd(F_TWO, fa(e, F_ONE)));
	return r | (x & VPUX_F32_SIGN);
}

/**
 * vpux_fm_sigmoid() - logistic function
 * @x: FP32
 *
 * NaN -> NaN. Sign bit clear: 1 / (1 + exp(-x)); sign bit set:
 * e / (1 + e) with e = exp(x) (no overflow, gradual underflow).
 *
 * Return: FP32 sigmoid x.
 */
u32 vpux_fm_sigmoid(u32 x)
{
	u32 e;

	if (vpux_f32_is_nan(x))
		return VPUX_F32_NAN;
	if (!(x >> 31))
		return fd(F_ONE, fa(F_ONE, vpux_fm_exp(x | VPUX_F32_SIGN)));
	e = vpux_fm_exp(x);
	return fd(e, fa(F_ONE, e));
}

/*
 * erfc(t + tlo) for 0.5 <= t < 10.1 and a tiny low part @tlo (0 but in
 * GELU): e^(-t^2) R(1/t), t^2 + 2 t tlo split over two exps.
 */
static u32 erfc_big(u32 t, u32 tlo)
{
	u32 u = fd(F_ONE, t), th = t & 0xfffff000u, tl, e1, e2, r, q;

	if (t < F_ERFC_R0)
		r = horner(fm_erfc_r0, 11, fs(u, F_ERFC_C0));
	else if (t < F_ERFC_R1)
		r = horner(fm_erfc_r1, 9, fs(u, F_ERFC_C1));
	else if (t < F_ERFC_R2)
		r = horner(fm_erfc_r2, 7, fs(u, F_ERFC_C2));
	else
		r = horner(fm_erfc_r3, 9, fs(u, F_ERFC_C3));
	tl = fs(t, th);					/* exact */
	e1 = vpux_fm_exp(fm(th, th) | VPUX_F32_SIGN);	/* th^2 exact */
	q = fm(tl, fa(t, th));
	if (tlo)
		q = fa(q, fm(fm(t, F_TWO), tlo));
	e2 = vpux_fm_exp(q ^ VPUX_F32_SIGN);
	return fm(e1, fm(e2, r));
}

static void split(u32 a, u32 *hi, u32 *lo);

/* erf of 0 <= t < 1: t + t P(t^2) */
static u32 erf_small(u32 x)
{
	return fa(x, fm(x, horner(fm_erf_p, 7, fm(x, x))));
}

/**
 * vpux_fm_erf() - error function
 * @x: FP32
 *
 * NaN -> NaN; |x| < 1: x + x * P(x*x); 1 <= |x| < 4: 1 - erfc(|x|) with
 * the sign of x; |x| >= 4: +-1.
 *
 * Return: FP32 erf x.
 */
u32 vpux_fm_erf(u32 x)
{
	u32 t = x & 0x7fffffffu;

	if (vpux_f32_is_nan(x))
		return VPUX_F32_NAN;
	if (t < F_ERF_SMALL)
		return erf_small(x);
	if (t >= F_ERF_ONE)
		return F_ONE | (x & VPUX_F32_SIGN);
	return fs(F_ONE, erfc_big(t, 0)) | (x & VPUX_F32_SIGN);
}

/**
 * vpux_fm_erfc() - complementary error function
 * @x: FP32
 *
 * NaN -> NaN; x < 0.5 (sign bit set or below 0.5): 1 - erf(x);
 * 0.5 <= x < 10.1: e1 * (e2 * R(1/x)) with th = x with the low 12
 * significand bits cleared, tl = x - th, e1 = exp(-(th*th)),
 * e2 = exp(-(tl * (x + th))); x >= 10.1: +0.
 *
 * Return: FP32 erfc x.
 */
u32 vpux_fm_erfc(u32 x)
{
	if (vpux_f32_is_nan(x))
		return VPUX_F32_NAN;
	if (x >> 31 || x < F_ERFC_BIG)
		return fs(F_ONE, vpux_fm_erf(x));
	if (x >= F_ERFC_ZERO)
		return 0;
	return erfc_big(x, 0);
}

/**
 * vpux_fm_gelu_erf() - GELU, erf form
 * @x: FP32
 *
 * NaN -> NaN; -Inf -> -0. h = 0.5 * x, t = x * F_SQRT1_2;
 * sign bit clear: h * (1 + erf(t)); set, with a = -t: a < 0.5:
 * h * (1 - erf(a)); 0.5 <= a < 10.1: h * erfc(a + alo) where alo, the
 * rounding error of a plus |x| * F_SQRT1_2_LO, enters the second exp
 * (alo = ((((xh*sh - a) + xh*sl) + xl*sh) + xl*sl) + |x|*F_SQRT1_2_LO,
 * Dekker splits of |x| and F_SQRT1_2); a >= 10.1: -0.
 *
 * Return: FP32 x * Phi(x).
 */
u32 vpux_fm_gelu_erf(u32 x)
{
	u32 h = fm(F_HALF, x), t = fm(x, F_SQRT1_2);
	u32 a, ax, xh, xl, sh, sl, alo;

	if (vpux_f32_is_nan(x))
		return VPUX_F32_NAN;
	if (x == (VPUX_F32_SIGN | VPUX_F32_INF))
		return VPUX_F32_SIGN;

	if (!(x >> 31))
		return fm(h, fa(F_ONE, vpux_fm_erf(t)));
	a = t ^ VPUX_F32_SIGN;
	if (a < F_ERFC_BIG || a >= F_ERFC_ZERO)
		return fm(h, vpux_fm_erfc(a));
	ax = x ^ VPUX_F32_SIGN;
	split(ax, &xh, &xl);
	split(F_SQRT1_2, &sh, &sl);
	alo = fa(fa(fa(fs(fm(xh, sh), a), fm(xh, sl)), fm(xl, sh)),
		 fm(xl, sl));
	alo = fa(alo, fm(ax, F_SQRT1_2_LO));
	return fm(h, erfc_big(a, alo));
}

/**
 * vpux_fm_gelu_tanh() - GELU, tanh approximation
 * @x: FP32
 *
 * 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) evaluated as
 * x * sigmoid(v), v = (x + (0.044715 * ((x * x) * x))) * F_GELU_K (the same
 * real function, no cancellation for x < 0). NaN -> NaN; -Inf -> -0.
 *
 * Return: FP32.
 */
u32 vpux_fm_gelu_tanh(u32 x)
{
	u32 v;

	if (vpux_f32_is_nan(x))
		return VPUX_F32_NAN;
	if (x == (VPUX_F32_SIGN | VPUX_F32_INF))
		return VPUX_F32_SIGN;
	v = fm(fa(x, fm(F_GELU_C, fm(fm(x, x), x))), F_GELU_K);
	return fm(x, vpux_fm_sigmoid(v));
}

/* Dekker: a = hi + lo with hi of 12 significant bits (|a| < 2^100) */
static void split(u32 a, u32 *hi, u32 *lo)
{
	u32 c = fm(a, F_SPLIT);

	*hi = fs(c, fs(c, a));
	*lo = fs(a, *hi);
}

/* 0: not an integer, 1: odd integer, 2: even integer (finite @y) */
static int int_kind(u32 y)
{
	u32 e = y >> 23 & 0xffu, m = (y & 0x7fffffu) | 0x800000u;

	if (vpux_f32_is_zero(y))
		return 2;
	if (e < 127)
		return 0;
	if (e >= 150)
		return e == 150 ? 1 + !(m & 1) : 2;
	if (m & ((1u << (150 - e)) - 1))
		return 0;
	return (m >> (150 - e)) & 1 ? 1 : 2;
}

/*
 * ln(ax) for finite ax > 0 as hi + lo (about 8 more bits than FP32):
 * f = m - 1, z = f*f, t = f * (z * P(f)), h = -0.5 * z, s = f + h,
 * sl = h - (s - f) (exact), l = sl + t; with e != 0, two-sum of
 * e*C1 (exact) and s: hs = a + s, bb = hs - a,
 * err = (a - (hs - bb)) + (s - bb), l = err + (l + e*C2), s = hs; then
 * hi = s + l, lo = l - (hi - s).
 */
static u32 log_ext(u32 ax, u32 *lo)
{
	u32 f, z, t, h, s, sl, l, ef, a, hs, bb, err;
	s32 e;

	f = log_reduce(ax, &e);
	z = fm(f, f);
	t = fm(f, fm(z, horner(fm_log_p, 9, f)));
	h = fm(F_NEG_HALF, z);
	s = fa(f, h);
	sl = fs(h, fs(s, f));
	l = fa(sl, t);
	if (!e) {				/* renormalise: |s| > |l| */
		a = fa(s, l);
		*lo = fs(l, fs(a, s));
		return a;
	}
	ef = vpux_f32_from_s32(e);
	a = fm(ef, F_LN2_HI);
	hs = fa(a, s);				/* Knuth two-sum of a and s */
	bb = fs(hs, a);
	err = fa(fs(a, fs(hs, bb)), fs(s, bb));
	l = fa(err, fa(l, fm(ef, F_LN2_LO)));
	/* renormalise: |hs| > |l| */
	a = fa(hs, l);
	*lo = fs(l, fs(a, hs));
	return a;
}

/**
 * vpux_fm_pow() - x to the power y
 * @x: FP32 base
 * @y: FP32 exponent
 *
 * The C99 special cases (y = +-0 or x = 1: 1 even for NaN; NaN otherwise
 * NaN; zeros, infinities, x < 0 with a non-integer y: NaN), then y = 1:
 * x; y = 2: x*x; y = -1: 1/x; y = 0.5: sqrt(x); else |x|^y =
 * e^(y ln|x|) with ln|x| as a double-FP32 hi + lo (log_ext), the product
 * y*hi exact by Dekker's two-product, and exp of the pair; the sign of x
 * for an odd integer y.
 *
 * Return: FP32 x^y.
 */
u32 vpux_fm_pow(u32 x, u32 y)
{
	u32 ax = x & 0x7fffffffu, sign = 0;
	u32 hi, lo, p, pl, yh, yl, hh, hl;
	int kind;

	if (vpux_f32_is_zero(y) || x == F_ONE)
		return F_ONE;
	if (vpux_f32_is_nan(x) || vpux_f32_is_nan(y))
		return VPUX_F32_NAN;
	kind = vpux_f32_is_inf(y) ? 2 : int_kind(y);
	if (x >> 31 && kind == 1)
		sign = VPUX_F32_SIGN;
	if (vpux_f32_is_inf(y)) {
		if (ax == F_ONE)
			return F_ONE;
		return (ax > F_ONE) == !(y >> 31) ? VPUX_F32_INF : 0;
	}
	if (vpux_f32_is_zero(x))
		return sign | (y >> 31 ? VPUX_F32_INF : 0);
	if (vpux_f32_is_inf(x))
		return sign | (y >> 31 ? 0 : VPUX_F32_INF);
	if (x >> 31 && !kind)
		return VPUX_F32_NAN;
	if (y == F_ONE)
		return x;
	if (y == F_TWO)
		return fm(x, x);
	if (y == (VPUX_F32_SIGN | F_ONE))
		return fd(F_ONE, x);
	if (y == F_HALF)
		return vpux_f32_sqrt(x);
	hi = log_ext(ax, &lo);
	p = fm(y, hi);
	if (!mag_lt(p, F_POW_BIG))
		return sign | ((p >> 31) ? 0 : VPUX_F32_INF);
	/* |y hi| < 128: no overflow in the splits (|hi| >= 2^-25) */
	split(y, &yh, &yl);
	split(hi, &hh, &hl);
	pl = fa(fa(fa(fs(fm(yh, hh), p), fm(yh, hl)), fm(yl, hh)),
		fm(yl, hl));
	pl = fa(pl, fm(y, lo));
	if (!(p >> 31) && p >= F_EXP_HI)
		return sign | VPUX_F32_INF;
	if (p >> 31 && p > F_EXP_LO)
		return sign;
	return sign | exp_core(p, pl);
}

/**
 * vpux_fm_floor_s32() - floor of an FP32 as an integer
 * @x: FP32
 *
 * Return: floor(x) saturated to [-2^30, 2^30]; 0 for NaN.
 */
s32 vpux_fm_floor_s32(u32 x)
{
	u32 e = x >> 23 & 0xffu, m = (x & 0x7fffffu) | 0x800000u, q;
	bool frac;

	if (vpux_f32_is_nan(x))
		return 0;
	if (e >= 127 + 30)
		return x >> 31 ? -(1 << 30) : 1 << 30;
	if (e < 127)				/* |x| < 1 */
		return x >> 31 && !vpux_f32_is_zero(x) ? -1 : 0;
	if (e >= 150)
		return x >> 31 ? -(s32)(m << (e - 150)) : (s32)(m << (e - 150));
	q = m >> (150 - e);
	frac = (m & ((1u << (150 - e)) - 1)) != 0;
	if (!(x >> 31))
		return (s32)q;
	return -(s32)q - frac;
}
