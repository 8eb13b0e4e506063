/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * e^x on the F extension: vpux_fm_exp() (ref/shave_fmath.c) step for
 * step, each soft-float operation there one F instruction here (built
 * with -ffp-contract=off so that none is fused), hence the same bits.
 */
#ifndef VK_EXP_H
#define VK_EXP_H

#include "vpux_kernel.h"

#define F_LOG2E		0x3fb8aa3bu
#define F_LN2_HI	0x3f318000u
#define F_LN2_LO	0xb95e8083u
#define F_EXP_HI	0x42b17218u
#define F_EXP_LO	0xc2d00000u

static const u32 vk_exp_p[6] = {
	0x39506967, 0x3ab743ce, 0x3c088908, 0x3d2aa9c1, 0x3e2aaaaa, 0x3f000000,
};

static inline float vk_pow2(s32 n)
{
	return vk_float((u32)(n + 127) << 23);
}

static inline float vk_exp(float x)
{
	u32 xb = vk_bits(x), i;
	float kf, r, z, p;
	s32 k;

	if ((xb & 0x7fffffffu) > VPUX_F32_INF)
		return vk_float(VPUX_F32_NAN);
	if (!(xb >> 31) && xb >= F_EXP_HI)
		return vk_float(VPUX_F32_INF);
	if (xb >> 31 && xb > F_EXP_LO)
		return 0.0f;
	k = vk_rne_s32(x * vk_float(F_LOG2E));
	kf = (float)k;
	r = x - kf * vk_float(F_LN2_HI);
	r = r - kf * vk_float(F_LN2_LO);
	z = r * r;
	p = vk_float(vk_exp_p[0]);
	for (i = 1; i < 6; i++)
		p = p * r + vk_float(vk_exp_p[i]);
	p = (p * z + r) + 1.0f;
	if (k > 127) {
		p = p * vk_pow2(127);
		k -= 127;
	}
	if (k < -126) {
		p = p * vk_pow2(k + 64);
		k = -64;
	}
	return p * vk_pow2(k);
}

#endif /* VK_EXP_H */
