// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SOFTMAX_F as an ELF kernel: struct vpux_shave_fsoftmax_args, the
 * built-in kernel's definition (ref/shave_ref_f.c, ref_softmax()): per
 * line along axis, m = max over the line (NaN if any), s = +0,
 * s = s + exp(x_k - m), y_k = exp(x_k - m) / s.
 */
#include "vk_exp.h"

static u32 elem_off(const u32 *idx, const struct vpux_memref *m)
{
	u32 off = 0, d;

	for (d = 0; d < m->rank; d++)
		off += idx[d] * (u32)(m->strides[d] >> 3);
	return off;
}

VPUX_KERNEL_ENTRY int vpux_kernel(u32 args_addr, u32 args_size)
{
	const struct vpux_shave_fsoftmax_args *a = (const void *)args_addr;
	const struct vpux_memref *in = &a->in, *out = &a->out;
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 };
	u32 ax = a->axis, n, k, d, si, so;

	if (args_size != sizeof(*a) || a->reserved || !vk_memref_ok(in) ||
	    !vk_memref_ok(out) || in->rank != out->rank || ax >= in->rank)
		return VPUX_KERNEL_EARGS;
	for (d = 0; d < in->rank; d++)
		if (in->dims[d] != out->dims[d])
			return VPUX_KERNEL_EARGS;
	n = in->dims[ax];
	si = (u32)(in->strides[ax] >> 3);
	so = (u32)(out->strides[ax] >> 3);
	do {
		u32 io = elem_off(idx, in), oo = elem_off(idx, out), m;
		float s = 0.0f, mf;

		m = vk_load_f(in, io);
		for (k = 1; k < n; k++)
			m = vpux_f32_max(m, vk_load_f(in, io + k * si));
		mf = vk_float(m);
		for (k = 0; k < n; k++)
			s = s + vk_exp(vk_float(vk_load_f(in, io + k * si)) - mf);
		for (k = 0; k < n; k++) {
			float x = vk_float(vk_load_f(in, io + k * si));

			vk_store_f(out, oo + k * so, vk_bits(vk_exp(x - mf) / s));
		}
	} while (vk_next(idx, in->dims, in->rank, ax));
	return VPUX_KERNEL_OK;
}
