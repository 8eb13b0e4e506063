/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The arithmetic of the model's generic FP16 DPU kernels (dpu_f16.c): the
 * two operations an FP16 dot product is made of, faster than the general
 * functions of include/hw/vpux_float.h and with the same results bit for
 * bit (test_dpu_f16 compares them on millions of operand pairs).
 *
 *  - f16x_prod(): the product of two FP16 values as FP32. It is always
 *    exact (11 x 11 significand bits fit FP32's 24; FP16's range squared,
 *    2^-48 .. 2^32, lies inside FP32's normal range), so it needs no
 *    rounding at all, only a shift of the integer product into place:
 *    what vpux_f32_mul(vpux_f16_to_f32(a), vpux_f16_to_f32(b)) returns.
 *  - f32x_add(): FP32 a + b, round to nearest even, in 32-bit integers
 *    (vpux_f32_add() aligns in 64 bits): Berkeley SoftFloat's addMags /
 *    subMags with 6 or 7 guard bits and a sticky bit. An IEEE sum is one
 *    value, so both give the same bits; Inf and NaN operands go to
 *    vpux_f32_add() itself (canonical NaN).
 *
 * Integer only, 32-bit operations, no 64-bit division: kernel, -m32 and
 * freestanding builds.
 */
#ifndef DPU_F16_ARITH_H
#define DPU_F16_ARITH_H

#include "vpux_hw_ops_internal.h"

/* raw FP16 bits of element @i of @p (little endian, any alignment) */
static inline u32 f16x_ld(const void *p, size_t i)
{
	const u8 *b = (const u8 *)p + 2 * i;

	return (u32)b[0] | (u32)b[1] << 8;
}

/* @a >> @dist, the bits shifted out ORed into bit 0 */
static inline u32 f32x_jam(u32 a, u32 dist)
{
	if (dist < 31)
		return a >> dist | ((a << (-dist & 31)) != 0);
	return a != 0;
}

/* the value @sig * 2^(@exp - 157) (leading one at bit 30 or below) */
static inline u32 f32x_round_pack(u32 sign, s32 exp, u32 sig)
{
	u32 rbits = sig & 0x7f;

	if ((u32)exp >= 0xfd) {
		if (exp < 0) {		/* subnormal */
			sig = f32x_jam(sig, (u32)-exp);
			exp = 0;
			rbits = sig & 0x7f;
		} else if (exp > 0xfd || sig + 0x40 >= 0x80000000u) {
			return sign << 31 | VPUX_F32_INF;
		}
	}
	sig = (sig + 0x40) >> 7;
	if (rbits == 0x40)		/* a tie: to even */
		sig &= ~1u;
	if (!sig)
		exp = 0;
	/* the leading one of sig carries into the exponent field */
	return (sign << 31) + ((u32)exp << 23) + sig;
}

static inline u32 f32x_norm_round_pack(u32 sign, s32 exp, u32 sig)
{
	s32 shift = __builtin_clz(sig) - 1;

	exp -= shift;
	if (shift >= 7 && (u32)exp < 0xfd)
		return (sign << 31) + ((u32)exp << 23) +
		       (sig << (shift - 7));
	return f32x_round_pack(sign, exp, sig << shift);
}

/* |a| + |b| with the sign of @a; neither Inf nor NaN */
static inline u32 f32x_add_mags(u32 a, u32 b)
{
	s32 ea = (s32)(a >> 23 & 0xff), eb = (s32)(b >> 23 & 0xff);
	u32 sa = a & 0x7fffff, sb = b & 0x7fffff, sign = a >> 31, sig;
	s32 diff = ea - eb, exp;

	if (!diff) {
		if (!ea)		/* both subnormal: exact */
			return a + sb;
		exp = ea;
		sig = 0x01000000 + sa + sb;
		if (!(sig & 1) && exp < 0xfe)
			return (sign << 31) + ((u32)exp << 23) + (sig >> 1);
		sig <<= 6;
	} else {
		sa <<= 6;
		sb <<= 6;
		if (diff < 0) {
			exp = eb;
			sa += ea ? 0x20000000 : sa;
			sa = f32x_jam(sa, (u32)-diff);
		} else {
			exp = ea;
			sb += eb ? 0x20000000 : sb;
			sb = f32x_jam(sb, (u32)diff);
		}
		sig = 0x20000000 + sa + sb;
		if (sig < 0x40000000) {
			exp--;
			sig <<= 1;
		}
	}
	return f32x_round_pack(sign, exp, sig);
}

/* |a| - |b| with the sign of @a (flipped if |b| > |a|); finite */
static inline u32 f32x_sub_mags(u32 a, u32 b)
{
	s32 ea = (s32)(a >> 23 & 0xff), eb = (s32)(b >> 23 & 0xff);
	u32 sa = a & 0x7fffff, sb = b & 0x7fffff, sign = a >> 31, x, y;
	s32 diff = ea - eb, exp, shift;

	if (!diff) {
		s32 d = (s32)sa - (s32)sb;

		if (!d)
			return 0;	/* exact cancellation is +0 */
		if (ea)
			ea--;
		if (d < 0) {
			sign ^= 1;
			d = -d;
		}
		shift = __builtin_clz((u32)d) - 8;
		exp = ea - shift;
		if (exp < 0) {
			shift = ea;
			exp = 0;
		}
		return (sign << 31) + ((u32)exp << 23) + ((u32)d << shift);
	}
	sa <<= 7;
	sb <<= 7;
	if (diff < 0) {
		sign ^= 1;
		exp = eb - 1;
		x = sb | 0x40000000;
		y = sa + (ea ? 0x40000000 : sa);
		diff = -diff;
	} else {
		exp = ea - 1;
		x = sa | 0x40000000;
		y = sb + (eb ? 0x40000000 : sb);
	}
	return f32x_norm_round_pack(sign, exp, x - f32x_jam(y, (u32)diff));
}

/* FP32 a + b: vpux_f32_add() */
static inline u32 f32x_add(u32 a, u32 b)
{
	if ((a & VPUX_F32_INF) == VPUX_F32_INF ||
	    (b & VPUX_F32_INF) == VPUX_F32_INF)
		return vpux_f32_add(a, b);
	if ((a ^ b) >> 31)
		return f32x_sub_mags(a, b);
	return f32x_add_mags(a, b);
}

/*
 * FP16 a * b as FP32, exact: vpux_f32_mul(vpux_f16_to_f32(a),
 * vpux_f16_to_f32(b)). A significand A (with its hidden bit, or a
 * subnormal's bits with exponent 1) is A * 2^(e - 25); the product
 * A * B < 2^22 is shifted to its leading one at bit 23. No branch on
 * finite operands, zeros included (activations after a ReLU are zero at
 * random).
 */
static inline u32 f16x_prod(u32 a, u32 b)
{
	u32 sign = ((a ^ b) & VPUX_F16_SIGN) << 16;
	u32 ea = a >> 10 & 0x1f, eb = b >> 10 & 0x1f, ma, mb, p, shift, r;

	if (ea == 0x1f || eb == 0x1f)
		return vpux_f32_mul(vpux_f16_to_f32((u16)a),
				    vpux_f16_to_f32((u16)b));
	/* a subnormal has exponent 1 and no hidden bit */
	ma = (a & 0x3ff) | (ea ? 0x400u : 0);
	mb = (b & 0x3ff) | (eb ? 0x400u : 0);
	ea += !ea;
	eb += !eb;
	p = ma * mb;
	/* leading one of p to bit 23: exponent field ea + eb + 100 - shift */
	shift = (u32)__builtin_clz(p | 1) - 8;
	r = ((ea + eb + 100 - shift) << 23) + ((p << shift) & 0x7fffff);
	return sign | (p ? r : 0);
}

/* acc + a * b for FP16 a, b: one rounding, the add's */
static inline u32 f16x_mac(u32 acc, u32 a, u32 b)
{
	return f32x_add(acc, f16x_prod(a, b));
}

#endif /* DPU_F16_ARITH_H */
