// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * A custom SHAVE kernel, the worked example of the kernel SDK
 * (Documentation/shave-kernels.rst, "Custom kernels"):
 *
 *	y = x * scale + shift		(then max(y, 0) when relu is 1)
 *
 * element by element on an F16 or F32 tensor of any rank, in FP32 with
 * two roundings (the SDK builds with -ffp-contract=off), stored rounded
 * to nearest even. Build it with the SDK's wrapper:
 *
 *	vpux-kernel-cc -o scale_shift.elf scale_shift.c
 *
 * and use it from an ONNX node of domain com.vpux, op type scale_shift,
 * attributes scale (float), shift (float), relu (int):
 *
 *	vpux-onnx compile model.onnx --kernels DIR -o model.vpuxl
 */
#include "vpux_kernel.h"

struct scale_shift_params {
	float scale;
	float shift;
	s32 relu;
};

/* one input, one output, F16 or F32; the attributes of the ONNX node */
VPUX_KERNEL_DECLARE(struct scale_shift_params, 1, 1,
		    VPUX_KT_F16 | VPUX_KT_F32, VPUX_KT_F16 | VPUX_KT_F32,
		    VPUX_KPARAM(struct scale_shift_params, scale),
		    VPUX_KPARAM(struct scale_shift_params, shift),
		    VPUX_KPARAM(struct scale_shift_params, relu));

VPUX_KERNEL_ENTRY int vpux_kernel(u32 args_addr, u32 args_size)
{
	const struct vpux_memref *in = (const struct vpux_memref *)args_addr;
	const struct vpux_memref *out = in + 1;
	const volatile struct scale_shift_params *p =
		VPUX_KERNEL_PARAMS(struct scale_shift_params, args_addr, 2);
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 }, i;
	float scale = p->scale, shift = p->shift;
	s32 relu = p->relu;

	if (args_size < 2 * sizeof(*in) + sizeof(*p) ||
	    !vk_memref_ok(in) || !vk_memref_ok(out) || in->rank != out->rank)
		return VPUX_KERNEL_EARGS;
	for (i = 0; i < in->rank; i++)
		if (in->dims[i] != out->dims[i])
			return VPUX_KERNEL_EARGS;
	do {
		u32 io = 0, oo = 0;
		float y;

		for (i = 0; i < in->rank; i++) {
			io += idx[i] * (u32)(in->strides[i] >> 3);
			oo += idx[i] * (u32)(out->strides[i] >> 3);
		}
		y = vk_float(vk_load_f(in, io)) * scale + shift;
		if (relu && y < 0.0f)
			y = 0.0f;
		vk_store_f(out, oo, vk_bits(y));
	} while (vk_next(idx, in->dims, in->rank, VPUX_MEMREF_MAX_RANK));
	return VPUX_KERNEL_OK;
}
