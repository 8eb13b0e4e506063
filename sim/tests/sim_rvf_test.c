// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The SHAVE cores' F extension arithmetic (sim/vpux_rv_fp.c) against its
 * definitions: the host's IEEE single precision in every rounding mode the
 * host has (values and exception flags), vpux_float.h in round to nearest
 * even, and the RISC-V rules the host does not share (canonical NaN,
 * saturating conversions, minimumNumber/maximumNumber, RMM).
 */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "vpux_rv.h"
#include "vpux_float.h"
#include "vpux_tap.h"
#include "sim_test.h"

static const int host_rm[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
				 FE_UPWARD };

static float fl(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return isnan(f) ? VPUX_F32_NAN : u;
}

static uint32_t host_flags(void)
{
	int e = fetestexcept(FE_ALL_EXCEPT);

	return (e & FE_INEXACT ? VPUX_RV_FFLAG_NX : 0) |
	       (e & FE_UNDERFLOW ? VPUX_RV_FFLAG_UF : 0) |
	       (e & FE_OVERFLOW ? VPUX_RV_FFLAG_OF : 0) |
	       (e & FE_DIVBYZERO ? VPUX_RV_FFLAG_DZ : 0) |
	       (e & FE_INVALID ? VPUX_RV_FFLAG_NV : 0);
}

/* operands that reach every path: specials, subnormals, close exponents */
static uint32_t operand(uint32_t near)
{
	static const uint32_t sp[] = {
		0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
		0x7fa00000u, 0xffc00001u, 0x00000001u, 0x807fffffu,
		0x00800000u, 0x7f7fffffu, 0xff7fffffu, 0x3f800000u,
		0xbf800000u, 0x4f000000u, 0xcf000000u, 0x4f800000u,
		0x3effffffu, 0x3f000000u, 0x3fc00000u, 0x40200000u,
	};
	uint32_t r = t_rand();

	switch (t_rand() % 6) {
	case 0:
		return sp[t_rand() % (sizeof(sp) / 4)];
	case 1:		/* subnormal or tiny */
		return (r & 0x80ffffffu) & ~0x7f000000u;
	case 2:		/* near the other operand */
		return (near & 0xff800000u) | (r & 0x7fffffu);
	case 3:		/* integers and halves */
		return bits((float)(int32_t)(r % 2001 - 1000) / 2);
	default:
		return r;
	}
}

#define N 200000

static void test_host(void)
{
	uint32_t bad[8] = { 0 }, i, op;
	static const char *const name[8] = {
		"add", "sub", "mul", "div", "sqrt", "fma", "cvt.s.w/wu",
		"cvt.w/wu.s",
	};

	for (i = 0; i < N; i++) {
		uint32_t a = operand(0), b = operand(a), c = operand(a);
		uint32_t m = i & 3, rm = m, want, got, wf, gf = 0;
		volatile float x = fl(a), y = fl(b), z = fl(c), r;

		op = (i >> 2) % 8;
		fesetround(host_rm[m]);
		feclearexcept(FE_ALL_EXCEPT);
		switch (op) {
		case 0:
			r = x + y;
			want = bits(r);
			got = vpux_rvf_add(a, b, rm, &gf);
			break;
		case 1:
			r = x - y;
			want = bits(r);
			got = vpux_rvf_sub(a, b, rm, &gf);
			break;
		case 2:
			r = x * y;
			want = bits(r);
			got = vpux_rvf_mul(a, b, rm, &gf);
			break;
		case 3:
			r = x / y;
			want = bits(r);
			got = vpux_rvf_div(a, b, rm, &gf);
			break;
		case 4:
			r = sqrtf(x);
			want = bits(r);
			got = vpux_rvf_sqrt(a, rm, &gf);
			break;
		case 5:
			/* RISC-V: inf * 0 + qNaN is invalid; the host: not */
			if (((a & 0x7fffffffu) == 0x7f800000u && !(b << 1)) ||
			    ((b & 0x7fffffffu) == 0x7f800000u && !(a << 1)))
				c = 0x3f800000u;
			z = fl(c);
			r = fmaf(x, y, z);
			want = bits(r);
			got = vpux_rvf_fma(a, b, c, rm, &gf);
			break;
		case 6: {
			volatile int32_t s = (int32_t)t_rand() >> (t_rand() % 32);
			volatile uint32_t u = t_rand() >> (t_rand() % 32);

			if (i & 4) {
				r = (float)s;
				got = vpux_rvf_from_int((uint32_t)s, true, rm, &gf);
			} else {
				r = (float)u;
				got = vpux_rvf_from_int(u, false, rm, &gf);
			}
			want = bits(r);
			break;
		}
		default: {
			volatile long long v = llrintf(x);
			bool sg = i & 4;

			wf = host_flags();
			if (isnan(x) || isinf(x) || (sg ? v != (int32_t)v :
			    v != (uint32_t)v)) {
				fesetround(FE_TONEAREST);
				continue;	/* RISC-V saturates: below */
			}
			want = (uint32_t)v;
			got = vpux_rvf_to_int(a, sg, rm, &gf);
			fesetround(FE_TONEAREST);
			if (got != want || gf != wf)
				bad[op]++;
			continue;
		}
		}
		wf = host_flags();
		fesetround(FE_TONEAREST);
		if (got != want || gf != wf) {
			if (!bad[op])
				tap_diag("%s rm %u: %08x %08x %08x: got %08x/%x want %08x/%x",
					 name[op], rm, a, b, c, got, gf, want, wf);
			bad[op]++;
		}
	}
	for (op = 0; op < 8; op++)
		tap_check(!bad[op], "F %s equals the host's IEEE result and flags in 4 rounding modes (%u bad)",
			  name[op], bad[op]);
}

static void test_vpux_float(void)
{
	uint32_t i, bad = 0;

	for (i = 0; i < N; i++) {
		uint32_t a = operand(0), b = operand(a), f = 0;

		bad += vpux_rvf_add(a, b, 0, &f) != vpux_f32_add(a, b);
		bad += vpux_rvf_sub(a, b, 0, &f) != vpux_f32_sub(a, b);
		bad += vpux_rvf_mul(a, b, 0, &f) != vpux_f32_mul(a, b);
		bad += vpux_rvf_div(a, b, 0, &f) != vpux_f32_div(a, b);
		bad += vpux_rvf_sqrt(a, 0, &f) != vpux_f32_sqrt(a);
		bad += vpux_rvf_from_int(a, true, 0, &f) !=
		       vpux_f32_from_s32((int32_t)a);
	}
	tap_check(!bad, "F in RNE gives vpux_float.h's bits (%u differ)", bad);
}

static void test_riscv_rules(void)
{
	uint32_t f = 0;

	tap_check(vpux_rvf_to_int(0x7fc00000u, true, 0, &f) == 0x7fffffffu &&
		  f == VPUX_RV_FFLAG_NV, "fcvt.w.s NaN: 2^31-1, NV");
	f = 0;
	tap_check(vpux_rvf_to_int(0xff800000u, true, 0, &f) == 0x80000000u &&
		  vpux_rvf_to_int(0x4f000000u, true, 0, &f) == 0x7fffffffu &&
		  vpux_rvf_to_int(0x7fc00000u, false, 0, &f) == ~0u &&
		  vpux_rvf_to_int(0xbf800000u, false, 0, &f) == 0 &&
		  vpux_rvf_to_int(0x4f800000u, false, 0, &f) == ~0u,
		  "fcvt saturates: -inf, 2^31, NaN/wu, -1/wu, 2^32/wu");
	f = 0;
	tap_check(vpux_rvf_to_int(0xbe800000u, false, VPUX_RV_RM_RNE, &f) == 0 &&
		  f == VPUX_RV_FFLAG_NX, "fcvt.wu.s -0.25: 0, NX only");
	f = 0;
	tap_check(vpux_rvf_minmax(0x7fc00000u, 0x3f800000u, true, &f) ==
		  0x3f800000u && !f &&
		  vpux_rvf_minmax(0x7f800001u, 0x3f800000u, false, &f) ==
		  0x3f800000u && f == VPUX_RV_FFLAG_NV &&
		  vpux_rvf_minmax(0x7fc00000u, 0xffc00000u, true, &f) ==
		  VPUX_F32_NAN,
		  "fmin/fmax: a NaN gives the other operand (NV for sNaN), two NaNs canonical");
	f = 0;
	tap_check(vpux_rvf_minmax(0x80000000u, 0, false, &f) == 0x80000000u &&
		  vpux_rvf_minmax(0, 0x80000000u, true, &f) == 0,
		  "fmin(-0, +0) = -0, fmax(+0, -0) = +0");
	f = 0;
	tap_check(vpux_rvf_cmp(0x7fc00000u, 0, 2, &f) == 0 && !f &&
		  vpux_rvf_cmp(0x7fc00000u, 0, 1, &f) == 0 &&
		  f == VPUX_RV_FFLAG_NV,
		  "feq quiet NaN: no flag; flt NaN: NV");
	f = 0;
	tap_check(vpux_rvf_fma(0x7f800000u, 0, 0x7fc00000u, 0, &f) ==
		  VPUX_F32_NAN && f == VPUX_RV_FFLAG_NV,
		  "fmadd inf * 0 + qNaN: NV");
	f = 0;
	/* 1 + 1.5 ulp and 1 + 0.5 ulp are ties; RMM rounds away */
	tap_check(vpux_rvf_add(0x3f800000u, 0x34400000u, VPUX_RV_RM_RMM, &f) ==
		  0x3f800002u && vpux_rvf_add(0x3f800000u, 0x33800000u,
					       VPUX_RV_RM_RMM, &f) ==
		  0x3f800001u && vpux_rvf_add(0x3f800000u, 0x33800000u,
					       VPUX_RV_RM_RNE, &f) ==
		  0x3f800000u, "RMM rounds ties away from zero, RNE to even");
	tap_check(vpux_rvf_class(0xff800000u) == 1 &&
		  vpux_rvf_class(0x80000001u) == 4 &&
		  vpux_rvf_class(0x80000000u) == 8 &&
		  vpux_rvf_class(0) == 16 && vpux_rvf_class(1) == 32 &&
		  vpux_rvf_class(0x3f800000u) == 64 &&
		  vpux_rvf_class(0x7f800000u) == 128 &&
		  vpux_rvf_class(0x7f800001u) == 256 &&
		  vpux_rvf_class(0x7fc00000u) == 512 &&
		  vpux_rvf_class(0xbf800000u) == 2,
		  "fclass: the ten classes");
	/* fused: (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly */
	f = 0;
	tap_check(vpux_rvf_fma(0x3f800001u, 0x3f7ffffeu, 0xbf800000u, 0, &f) ==
		  0xa8800000u && !f, "fmadd is fused: one rounding (exact -2^-46)");
}

int main(void)
{
	t_seed(0x5eed);
	test_host();
	test_vpux_float();
	test_riscv_rules();
	return tap_finish();
}
