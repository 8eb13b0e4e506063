// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * A test kernel of test_kernels.c: an array parameter and an unsigned
 * one. y = x * w[i] + b[0..1 by pick] where i is the index along axis 1
 * (its size must be 4): w takes an ONNX FLOATS attribute of 4 values,
 * pick (u32) an INT >= 0 that selects b or -b.
 */
#include "vpux_kernel.h"

struct chan_affine_params {
	float w[4];
	float b;
	u32 pick;
};

VPUX_KERNEL_DECLARE(struct chan_affine_params, 1, 1, VPUX_KT_F16,
		    VPUX_KT_F16,
		    VPUX_KPARAM(struct chan_affine_params, w),
		    VPUX_KPARAM(struct chan_affine_params, b),
		    VPUX_KPARAM(struct chan_affine_params, pick));

VPUX_KERNEL_ENTRY int vpux_kernel(u32 args_addr, u32 args_size)
{
	const struct vpux_memref *in = (const struct vpux_memref *)args_addr;
	const struct vpux_memref *out = in + 1;
	const volatile struct chan_affine_params *p =
		VPUX_KERNEL_PARAMS(struct chan_affine_params, args_addr, 2);
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 }, i;
	float b = p->pick ? -p->b : p->b;

	if (args_size < 2 * sizeof(*in) + sizeof(*p) ||
	    !vk_memref_ok(in) || !vk_memref_ok(out) || in->rank < 2 ||
	    in->rank != out->rank || in->dims[1] != 4)
		return VPUX_KERNEL_EARGS;
	do {
		u32 io = 0, oo = 0;

		for (i = 0; i < in->rank; i++) {
			io += idx[i] * (u32)(in->strides[i] >> 3);
			oo += idx[i] * (u32)(out->strides[i] >> 3);
		}
		vk_store_f(out, oo, vk_bits(vk_float(vk_load_f(in, io)) *
					    p->w[idx[1]] + b));
	} while (vk_next(idx, in->dims, in->rank, VPUX_MEMREF_MAX_RANK));
	return VPUX_KERNEL_OK;
}
