/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * IEEE 754 binary16 (FP16) and binary32 (FP32) arithmetic in integers:
 * the engines' floating-point unit as part of the hardware's definition
 * (Documentation/compute-ops.rst, "Floating point").
 *
 * Every function gives the correctly rounded IEEE result, round to
 * nearest, ties to even, with gradual underflow (subnormals are neither
 * flushed on input nor on output), overflow to infinity, and the IEEE
 * special cases (Inf - Inf, 0 * Inf, 0 / 0, sqrt(-x) give NaN). A NaN
 * result is always the canonical quiet NaN (FP32 0x7fc00000, FP16
 * 0x7e00): the sign and payload of a NaN operand are not propagated.
 * That is the one point where a CPU's own unit may differ (x86 keeps the
 * payload of the first NaN operand), and it cannot be seen from outside:
 * NaN stays NaN through every op the engines compose from these, and
 * every result an engine stores is canonicalised (vpux_f32_canon()).
 *
 * So a CPU whose float unit is IEEE (SSE, AVX, with the default MXCSR:
 * no flush-to-zero, no denormals-are-zero, round to nearest) computes the
 * same bits with its own instructions, as long as it performs the same
 * operations in the same order, one rounding each: the NPU model's SIMD
 * kernels rely on that, and the property tests compare both.
 *
 * Values travel as their bit patterns (u32, u16). Integer arithmetic
 * only, no 64-bit division, no libc: builds in the kernel (which must not
 * touch the FPU outside kernel_fpu_begin()), in user space and
 * freestanding, 32- and 64-bit.
 */
#ifndef VPUX_FLOAT_H
#define VPUX_FLOAT_H

#include "vpux_hw_types.h"

#define VPUX_F32_NAN		0x7fc00000u	/* the canonical quiet NaN */
#define VPUX_F32_INF		0x7f800000u
#define VPUX_F32_SIGN		0x80000000u
#define VPUX_F32_ONE		0x3f800000u
#define VPUX_F16_NAN		0x7e00u
#define VPUX_F16_INF		0x7c00u
#define VPUX_F16_SIGN		0x8000u

static inline bool vpux_f32_is_nan(u32 a)
{
	return (a & 0x7fffffffu) > VPUX_F32_INF;
}

static inline bool vpux_f32_is_inf(u32 a)
{
	return (a & 0x7fffffffu) == VPUX_F32_INF;
}

static inline bool vpux_f32_is_zero(u32 a)
{
	return !(a & 0x7fffffffu);
}

/* @a, or the canonical NaN if @a is a NaN: what an engine stores */
static inline u32 vpux_f32_canon(u32 a)
{
	return vpux_f32_is_nan(a) ? VPUX_F32_NAN : a;
}

/* count of leading zero bits of a non-zero 64-bit value */
static inline u32 vpux_fp_clz64(u64 v)
{
	u32 hi = (u32)(v >> 32);

	return hi ? (u32)__builtin_clz(hi) :
		    32u + (u32)__builtin_clz((u32)v);
}

/* @v shifted right by @n, any bit shifted out ORed into bit 0 ("jam") */
static inline u64 vpux_fp_jam64(u64 v, u32 n)
{
	if (!n)
		return v;
	if (n >= 64)
		return v != 0;
	return v >> n | ((v & ((1ull << n) - 1)) != 0);
}

/*
 * Round and pack a finite FP32: the value is @sig * 2^(@exp - 157) with
 * the leading one of @sig at bit 30 (or below it for a subnormal or zero
 * result), seven rounding bits below the 24 that remain. @exp is the
 * biased exponent the result has if @sig is normal.
 */
static inline u32 vpux_f32_round_pack(u32 sign, s32 exp, u32 sig)
{
	u32 rbits, r;

	if (exp < 1) {			/* subnormal: scale to exponent 1 */
		sig = (u32)vpux_fp_jam64(sig, (u32)(1 - exp));
		exp = 1;
	}
	if (exp > 0xfe || (exp == 0xfe && sig + 0x40u >= 0x80000000u))
		return sign << 31 | VPUX_F32_INF;
	rbits = sig & 0x7fu;
	r = (sig + 0x40u) >> 7;
	if (rbits == 0x40u)		/* a tie: to even */
		r &= ~1u;
	/* the leading one (bit 23 of r) carries into the exponent field */
	return (sign << 31) + (r ? (u32)(exp - 1) << 23 : 0u) + r;
}

/*
 * Normalise the value @sig * 2^(@exp - 157) (any @sig) to the leading
 * one at bit 30, jamming what is shifted out, then round and pack.
 */
static inline u32 vpux_f32_norm_pack(u32 sign, s32 exp, u64 sig)
{
	s32 lead;

	if (!sig)
		return sign << 31;
	lead = 63 - (s32)vpux_fp_clz64(sig);
	if (lead > 30)
		sig = vpux_fp_jam64(sig, (u32)(lead - 30));
	else
		sig <<= 30 - lead;
	return vpux_f32_round_pack(sign, exp + lead - 30, (u32)sig);
}

/*
 * Unpack a finite FP32 as sig * 2^(exp - 150): sig holds the hidden bit
 * (bit 23) of a normal number; a subnormal has exp 1 and no hidden bit.
 */
static inline u32 vpux_f32_unpack(u32 a, s32 *exp)
{
	u32 e = a >> 23 & 0xffu, f = a & 0x7fffffu;

	*exp = e ? (s32)e : 1;
	return e ? f | 0x800000u : f;
}

/* FP32 a + b */
static inline u32 vpux_f32_add(u32 a, u32 b)
{
	u32 sa = a >> 31, sb = b >> 31, sign;
	s32 ea, eb, e;
	u64 ma, mb, m;

	if (vpux_f32_is_nan(a) || vpux_f32_is_nan(b))
		return VPUX_F32_NAN;
	if (vpux_f32_is_inf(a))
		return vpux_f32_is_inf(b) && sa != sb ? VPUX_F32_NAN : a;
	if (vpux_f32_is_inf(b))
		return b;
	if (vpux_f32_is_zero(a) && vpux_f32_is_zero(b))
		return (sa & sb) << 31;	/* -0 only if both are -0 */
	/* 32 guard bits below each significand: value = m * 2^(e - 182) */
	ma = (u64)vpux_f32_unpack(a, &ea) << 32;
	mb = (u64)vpux_f32_unpack(b, &eb) << 32;
	if (ea >= eb) {
		mb = vpux_fp_jam64(mb, (u32)(ea - eb));
		e = ea;
	} else {
		ma = vpux_fp_jam64(ma, (u32)(eb - ea));
		e = eb;
	}
	if (sa == sb) {
		m = ma + mb;
		sign = sa;
	} else if (ma >= mb) {
		m = ma - mb;
		sign = sa;
	} else {
		m = mb - ma;
		sign = sb;
	}
	if (!m)
		return 0;		/* exact cancellation is +0 */
	return vpux_f32_norm_pack(sign, e - 25, m);
}

/* FP32 a - b */
static inline u32 vpux_f32_sub(u32 a, u32 b)
{
	return vpux_f32_add(a, b ^ VPUX_F32_SIGN);
}

/* FP32 a * b */
static inline u32 vpux_f32_mul(u32 a, u32 b)
{
	u32 sign = (a ^ b) >> 31;
	s32 ea, eb;
	u64 m;

	if (vpux_f32_is_nan(a) || vpux_f32_is_nan(b))
		return VPUX_F32_NAN;
	if (vpux_f32_is_inf(a) || vpux_f32_is_inf(b)) {
		if (vpux_f32_is_zero(a) || vpux_f32_is_zero(b))
			return VPUX_F32_NAN;
		return sign << 31 | VPUX_F32_INF;
	}
	if (vpux_f32_is_zero(a) || vpux_f32_is_zero(b))
		return sign << 31;
	m = (u64)vpux_f32_unpack(a, &ea) * vpux_f32_unpack(b, &eb);
	/* m * 2^(ea + eb - 300) */
	return vpux_f32_norm_pack(sign, ea + eb - 143, m);
}

/* a finite non-zero FP32's significand with its leading one at bit 23 */
static inline u32 vpux_f32_unpack_norm(u32 a, s32 *exp)
{
	u32 m = vpux_f32_unpack(a, exp);

	while (!(m & 0x800000u)) {
		m <<= 1;
		(*exp)--;
	}
	return m;
}

/* FP32 a / b: shift-and-subtract division, no divide instruction */
static inline u32 vpux_f32_div(u32 a, u32 b)
{
	u32 sign = (a ^ b) >> 31, mb;
	s32 ea, eb, i;
	u64 num, q = 0, r = 0;

	if (vpux_f32_is_nan(a) || vpux_f32_is_nan(b))
		return VPUX_F32_NAN;
	if (vpux_f32_is_inf(a))
		return vpux_f32_is_inf(b) ? VPUX_F32_NAN :
					    sign << 31 | VPUX_F32_INF;
	if (vpux_f32_is_inf(b))
		return sign << 31;
	if (vpux_f32_is_zero(b))
		return vpux_f32_is_zero(a) ? VPUX_F32_NAN :
					     sign << 31 | VPUX_F32_INF;
	if (vpux_f32_is_zero(a))
		return sign << 31;
	num = (u64)vpux_f32_unpack_norm(a, &ea) << 31;
	mb = vpux_f32_unpack_norm(b, &eb);
	/* num < 2^55: 55 quotient bits, the remainder stays below 2^25 */
	for (i = 54; i >= 0; i--) {
		r = r << 1 | (num >> i & 1u);
		if (r >= mb) {
			r -= mb;
			q |= 1ull << i;
		}
	}
	/* q * 2^(ea - eb - 31); the remainder is the sticky bit */
	return vpux_f32_norm_pack(sign, ea - eb + 126, q | (r != 0));
}

/* FP32 sqrt(a): bit-by-bit integer square root */
static inline u32 vpux_f32_sqrt(u32 a)
{
	u64 op, res = 0, one = 1ull << 62;
	s32 e;

	if (vpux_f32_is_nan(a))
		return VPUX_F32_NAN;
	if (vpux_f32_is_zero(a))
		return a;			/* sqrt(-0) = -0 */
	if (a >> 31)
		return VPUX_F32_NAN;
	if (vpux_f32_is_inf(a))
		return a;
	/* a = m * 2^(e - 150), m < 2^24; make e - 150 even */
	op = vpux_f32_unpack_norm(a, &e);
	if ((e - 150) & 1) {
		op <<= 1;
		e--;
	}
	op <<= 32;			/* < 2^57: the root has 28 or 29 bits */
	while (one > op)
		one >>= 2;
	while (one) {
		if (op >= res + one) {
			op -= res + one;
			res = (res >> 1) + one;
		} else {
			res >>= 1;
		}
		one >>= 2;
	}
	/*
	 * res * 2^((e - 182) / 2). The remainder is the sticky bit, jammed
	 * below all of the root's bits: normalising shifts the root left.
	 */
	return vpux_f32_norm_pack(0, (e - 182) / 2 + 149,
				  res << 8 | (op != 0));
}

/* FP16 -> FP32: exact (a NaN becomes the canonical NaN) */
static inline u32 vpux_f16_to_f32(u16 h)
{
	u32 sign = (u32)(h >> 15) << 31, e = h >> 10 & 0x1fu, m = h & 0x3ffu;

	if (e == 0x1f)
		return m ? VPUX_F32_NAN : sign | VPUX_F32_INF;
	if (!e) {
		s32 exp = 113;		/* m * 2^-24 = m * 2^(exp - 137) */

		if (!m)
			return sign;
		while (!(m & 0x400u)) {
			m <<= 1;
			exp--;
		}
		return sign | (u32)exp << 23 | (m & 0x3ffu) << 13;
	}
	return sign | (e + 112) << 23 | m << 13;
}

/* FP32 -> FP16, round to nearest even; overflow is Inf, NaN canonical */
static inline u16 vpux_f32_to_f16(u32 a)
{
	u32 sign = a >> 31 << 15, m, q, rem, half, shift, r;
	s32 e;

	if (vpux_f32_is_nan(a))
		return VPUX_F16_NAN;
	if (vpux_f32_is_inf(a))
		return (u16)(sign | VPUX_F16_INF);
	m = vpux_f32_unpack(a, &e);	/* m * 2^(e - 150) */
	if (e - 112 >= 31)
		return (u16)(sign | VPUX_F16_INF);
	/* FP16 lsb: 2^(e - 137) when normal, 2^-24 when subnormal */
	shift = e - 112 >= 1 ? 13u : (u32)(126 - e);
	if (shift >= 25)
		return (u16)sign;	/* below half the smallest subnormal */
	q = m >> shift;
	rem = m & ((1u << shift) - 1);
	half = 1u << (shift - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	/* a normal q carries its hidden bit (bit 10) into the exponent */
	r = e - 112 >= 1 ? ((u32)(e - 113) << 10) + q : q;
	if (r >= VPUX_F16_INF)
		r = VPUX_F16_INF;
	return (u16)(sign | r);
}

/* total order key of a non-NaN FP32: -0 below +0 */
static inline u32 vpux_f32_key(u32 a)
{
	return a >> 31 ? ~a : a | VPUX_F32_SIGN;
}

/* IEEE a < b (false if either is NaN; -0 == +0) */
static inline bool vpux_f32_lt(u32 a, u32 b)
{
	if (vpux_f32_is_nan(a) || vpux_f32_is_nan(b))
		return false;
	if (vpux_f32_is_zero(a) && vpux_f32_is_zero(b))
		return false;
	return vpux_f32_key(a) < vpux_f32_key(b);
}

/*
 * The larger of @a and @b, NaN if either is NaN; -0 counts below +0, so
 * the result does not depend on the order of the operands.
 */
static inline u32 vpux_f32_max(u32 a, u32 b)
{
	if (vpux_f32_is_nan(a) || vpux_f32_is_nan(b))
		return VPUX_F32_NAN;
	return vpux_f32_key(a) >= vpux_f32_key(b) ? a : b;
}

/* the smaller of @a and @b, NaN if either is NaN; -0 below +0 */
static inline u32 vpux_f32_min(u32 a, u32 b)
{
	if (vpux_f32_is_nan(a) || vpux_f32_is_nan(b))
		return VPUX_F32_NAN;
	return vpux_f32_key(a) <= vpux_f32_key(b) ? a : b;
}

/* s32 -> FP32, rounded to nearest even */
static inline u32 vpux_f32_from_s32(s32 v)
{
	u32 sign = v < 0, mag = sign ? 0u - (u32)v : (u32)v;

	return vpux_f32_norm_pack(sign, 157, mag);
}

/*
 * FP32 -> s32, rounded to nearest even, saturated; NaN gives 0. The
 * conversion every quantising kernel uses.
 */
static inline s32 vpux_f32_to_s32(u32 a)
{
	u32 sign = a >> 31, m, q, rem, half, shift;
	s32 e;

	if (vpux_f32_is_nan(a))
		return 0;
	if ((a & 0x7fffffffu) >= 0x4f000000u)	/* |a| >= 2^31 */
		return sign ? (s32)0x80000000u : 0x7fffffff;
	m = vpux_f32_unpack(a, &e);		/* m * 2^(e - 150) */
	if (e >= 150)
		q = m << (e - 150);		/* e < 158: fits */
	else {
		shift = (u32)(150 - e);
		if (shift > 25)
			return 0;
		q = m >> shift;
		rem = m & ((1u << shift) - 1);
		half = 1u << (shift - 1);
		if (rem > half || (rem == half && (q & 1)))
			q++;
	}
	return sign ? -(s32)q : (s32)q;
}

#endif /* VPUX_FLOAT_H */
