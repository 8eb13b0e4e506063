// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The compiler's FP32 -> FP16 conversion of float constants
 * (umd/hostconv.c's hc_f32_to_f16_n(), F16C where the CPU has it: the
 * one array conversion of libvpux, the compiler and the tools) gives the bits of the
 * definition, include/hw/vpux_float.h's vpux_f32_to_f16(), for every
 * class of value: ties, subnormals, overflow, infinities, NaNs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hostconv.h"
#include "lower_int.h"
#include "vpux_float.h"
#include "vpux_tap.h"

#define N (1u << 20)

int main(void)
{
	static const uint32_t edge[] = {
		0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
		0xffc00001, 0x7f800001, 0x477fe000, 0x477fefff, 0x477ff000,
		0x33000000, 0x33000001, 0x387fc000, 0x38800000, 0x3f801000,
		0x3f803000, 0x3f802fff, 0x33800000, 0xb3800001, 0x00000001,
	};
	float *src = malloc(sizeof(float) * N);
	uint16_t *dst = malloc(2 * N);
	uint32_t x = 12345, i, bad = 0, first = 0;

	if (!src || !dst)
		return 1;
	for (i = 0; i < N; i++) {
		uint32_t b;

		x = x * 1664525u + 1013904223u;
		/* around the FP16 range: exponents 100..150, any mantissa */
		b = i < sizeof(edge) / sizeof(edge[0]) ? edge[i] :
		    (x & 0x807fffffu) | ((100u + (x >> 8) % 51u) << 23);
		memcpy(&src[i], &b, 4);
	}
	hc_f32_to_f16_n(dst, src, N);
	for (i = 0; i < N; i++) {
		uint32_t b;

		memcpy(&b, &src[i], 4);
		if (dst[i] != vpux_f32_to_f16(b) && !bad++)
			first = i;
	}
	tap_check(!bad, "%u values: the definition's bits (%u differ, first 0x%08x)",
		  N, bad, bad ? (unsigned int)((const uint32_t *)src)[first] : 0);
	/* a tail shorter than one vector goes the same way */
	hc_f32_to_f16_n(dst, src, 5);
	for (i = 0, bad = 0; i < 5; i++)
		bad += dst[i] != vpux_f32_to_f16(((const uint32_t *)src)[i]);
	tap_check(!bad, "a 5-value tail: the definition's bits");
	free(src);
	free(dst);
	return tap_finish();
}
