// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The engines' integer floating point (include/hw/vpux_float.h) against
 * the host CPU's IEEE unit: every FP16 value both ways, and tens of
 * millions of random FP32 operands weighted towards the edges (zeros,
 * subnormals, Inf and NaN, huge and tiny exponents, FP16-exact values)
 * for add, sub, mul, div, sqrt, the conversions and the comparisons.
 * Bit for bit; a NaN only has to be a NaN on the CPU's side (x86 keeps
 * payloads, the engines canonicalise) and must be the canonical NaN on
 * ours. Needs an x86-64 host with F16C for the FP16 conversions, which
 * it checks and otherwise skips.
 */
#include <math.h>
#include <cpuid.h>
#include <immintrin.h>

#include "vpux_tap.h"
#include "ops_test.h"

static float bf(u32 u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static u32 fb(float f)
{
	u32 u;

	memcpy(&u, &f, 4);
	return u;
}

/* soft result @s equals CPU result @h: NaN is the canonical NaN */
static bool same(u32 s, u32 h)
{
	if (vpux_f32_is_nan(h))
		return s == VPUX_F32_NAN;
	return s == h;
}

/* a random FP32 bit pattern, one in two from an edge class */
static u32 rand_f32(void)
{
	u32 r = ot_rand();

	switch (ot_rand() % 10) {
	case 0:
		return r & 0x807fffffu;			/* subnormal or zero */
	case 1:
		return (r & 0x80ffffffu) | 0x7f000000u;	/* huge, Inf, NaN */
	case 2:
		return (r & 0x8fffffffu) | 0x30000000u;	/* near 2^-31 */
	case 3:
		return vpux_f16_to_f32((u16)r);		/* an FP16 value */
	case 4:
		return (r & 0x807f0000u) | 0x00800000u;	/* smallest normals */
	default:
		return r;
	}
}

static bool have_f16c(void)
{
	unsigned int a, b, c, d;

	return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C);
}

__attribute__((target("f16c")))
static u32 hw_h2f(u16 h)
{
	return fb(_cvtsh_ss(h));
}

__attribute__((target("f16c")))
static u16 hw_f2h(u32 f)
{
	return (u16)_cvtss_sh(bf(f), _MM_FROUND_TO_NEAREST_INT);
}

static void test_f16(void)
{
	unsigned int bad_h2f = 0, bad_rt = 0, bad_f2h = 0, i;
	u32 h;

	if (!have_f16c()) {
		tap_skip("FP16 conversions: the CPU has no F16C");
		return;
	}
	for (h = 0; h < 0x10000; h++) {
		u32 f = vpux_f16_to_f32((u16)h);
		bool nan = (h & 0x7fffu) > 0x7c00u;

		bad_h2f += !same(f, hw_h2f((u16)h));
		bad_rt += nan ? vpux_f32_to_f16(f) != VPUX_F16_NAN :
				vpux_f32_to_f16(f) != h;
	}
	tap_check(!bad_h2f, "FP16 -> FP32: all 65536 values exact (%u differ)",
		  bad_h2f);
	tap_check(!bad_rt, "FP16 -> FP32 -> FP16: identity, NaN canonical (%u differ)",
		  bad_rt);
	ot_seed(16);
	for (i = 0; i < 4000000; i++) {
		u32 f = rand_f32();
		u16 s = vpux_f32_to_f16(f), c = hw_f2h(f);

		if ((c & 0x7fffu) > 0x7c00u ? s != VPUX_F16_NAN : s != c)
			bad_f2h++;
	}
	tap_check(!bad_f2h, "FP32 -> FP16: 4M random values rounded as F16C does (%u differ)",
		  bad_f2h);
}

static void test_arith(void)
{
	unsigned int bad[8] = { 0 }, i;

	ot_seed(32);
	for (i = 0; i < 8000000; i++) {
		u32 a = rand_f32(), b = rand_f32();
		s32 iv = (s32)ot_rand();

		bad[0] += !same(vpux_f32_add(a, b), fb(bf(a) + bf(b)));
		bad[1] += !same(vpux_f32_sub(a, b), fb(bf(a) - bf(b)));
		bad[2] += !same(vpux_f32_mul(a, b), fb(bf(a) * bf(b)));
		if (i % 4 == 0) {
			bad[3] += !same(vpux_f32_div(a, b), fb(bf(a) / bf(b)));
			bad[4] += !same(vpux_f32_sqrt(a), fb(sqrtf(bf(a))));
		}
		bad[5] += vpux_f32_from_s32(iv) != fb((float)iv);
		if (!isnan(bf(a)) && fabsf(bf(a)) < 2147483520.0f)
			bad[6] += vpux_f32_to_s32(a) != (s32)nearbyintf(bf(a));
		if (!isnan(bf(a)) && !isnan(bf(b)))
			bad[7] += vpux_f32_lt(a, b) != (bf(a) < bf(b));
	}
	tap_check(!bad[0], "add: 8M random pairs bit-exact (%u differ)", bad[0]);
	tap_check(!bad[1], "sub: 8M random pairs bit-exact (%u differ)", bad[1]);
	tap_check(!bad[2], "mul: 8M random pairs bit-exact (%u differ)", bad[2]);
	tap_check(!bad[3], "div: 2M random pairs bit-exact (%u differ)", bad[3]);
	tap_check(!bad[4], "sqrt: 2M random values bit-exact (%u differ)", bad[4]);
	tap_check(!bad[5], "s32 -> FP32: 8M values rounded as the CPU does (%u differ)",
		  bad[5]);
	tap_check(!bad[6], "FP32 -> s32: round to nearest even (%u differ)", bad[6]);
	tap_check(!bad[7], "a < b: as the CPU compares (%u differ)", bad[7]);
}

/* the special cases the definition names, spelled out */
static void test_specials(void)
{
	const u32 pinf = VPUX_F32_INF, ninf = VPUX_F32_INF | VPUX_F32_SIGN;
	const u32 nz = VPUX_F32_SIGN, one = VPUX_F32_ONE;

	tap_check(vpux_f32_add(pinf, ninf) == VPUX_F32_NAN &&
		  vpux_f32_mul(pinf, 0) == VPUX_F32_NAN &&
		  vpux_f32_div(0, 0) == VPUX_F32_NAN &&
		  vpux_f32_sqrt(one | VPUX_F32_SIGN) == VPUX_F32_NAN,
		  "Inf - Inf, 0 * Inf, 0 / 0, sqrt(-1) are the canonical NaN");
	tap_check(vpux_f32_add(nz, nz) == nz && vpux_f32_add(nz, 0) == 0 &&
		  vpux_f32_sub(one, one) == 0 && vpux_f32_sqrt(nz) == nz,
		  "signed zeros: -0 + -0 = -0, -0 + +0 = +0, 1 - 1 = +0, sqrt(-0) = -0");
	tap_check(vpux_f32_add(0x7f7fffffu, 0x73800000u) == pinf &&
		  vpux_f32_to_f16(0x477ff000u) == VPUX_F16_INF &&
		  vpux_f32_to_f16(0x477fefffu) == 0x7bffu,
		  "overflow: FP32 max + ulp rounds to Inf; FP16 65520 is Inf, 65519.99 is 65504");
	tap_check(vpux_f32_to_f16(0x33000000u) == 0 &&
		  vpux_f32_to_f16(0x33000001u) == 1 &&
		  vpux_f32_to_f16(0x33c00000u) == 2,
		  "FP16 subnormals: 2^-25 ties to 0, just above it gives 2^-24, 1.5 * 2^-24 ties to 2 * 2^-24");
	tap_check(vpux_f32_max(nz, 0) == 0 && vpux_f32_max(0, nz) == 0 &&
		  vpux_f32_min(0, nz) == nz &&
		  vpux_f32_max(one, VPUX_F32_NAN) == VPUX_F32_NAN,
		  "max/min: -0 below +0 in either order, NaN wins");
	tap_check(vpux_f32_to_s32(0x3f000000u) == 0 &&
		  vpux_f32_to_s32(0x3fc00000u) == 2 &&
		  vpux_f32_to_s32(VPUX_F32_NAN) == 0 &&
		  vpux_f32_to_s32(pinf) == 0x7fffffff &&
		  vpux_f32_to_s32(ninf) == (s32)0x80000000u,
		  "to s32: 0.5 -> 0, 1.5 -> 2, NaN -> 0, +-Inf saturate");
}

int main(void)
{
	test_specials();
	test_f16();
	test_arith();
	return tap_finish();
}
