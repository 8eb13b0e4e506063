// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * BINARY as an ELF kernel: struct vpux_shave_binary_args, the built-in
 * kernel's definition (ref/shave_ref_f.c, ref_eltwise(); numpy
 * broadcasting aligned at the innermost dim). ADD, SUB, MUL, DIV on the
 * F extension; MAX and MIN NaN-propagating with -0 below +0 as
 * vpux_f32_max/min; POW is vpux_fm_pow(), the definition's own sequence
 * of soft-float operations (ref/shave_fmath.c compiled for the core).
 */
#include "vpux_kernel.h"
#include "ref/shave_fmath.c"

/* byte strides of @m over the output's dims; 0 where broadcast */
static bool bstrides(const struct vpux_memref *m,
		     const struct vpux_memref *out, u32 *st)
{
	u32 d, lead = out->rank - m->rank;

	if (m->rank > out->rank)
		return false;
	for (d = 0; d < out->rank; d++) {
		u32 md = d - lead;

		st[d] = 0;
		if (d < lead)
			continue;
		if (m->dims[md] != out->dims[d] && m->dims[md] != 1)
			return false;
		if (m->dims[md] != 1)
			st[d] = (u32)(m->strides[md] >> 3);
	}
	return true;
}

VPUX_KERNEL_ENTRY int vpux_kernel(u32 args_addr, u32 args_size)
{
	const struct vpux_shave_binary_args *a = (const void *)args_addr;
	const struct vpux_memref *out = &a->out;
	u32 idx[VPUX_MEMREF_MAX_RANK] = { 0 };
	u32 sa[VPUX_MEMREF_MAX_RANK], sb[VPUX_MEMREF_MAX_RANK];
	u32 so[VPUX_MEMREF_MAX_RANK], d;

	if (args_size != sizeof(*a) || a->reserved ||
	    a->func >= VPUX_SHAVE_BIN_COUNT ||
	    !vk_memref_ok(&a->in) || !vk_memref_ok(&a->in2) ||
	    !vk_memref_ok(out) || !bstrides(&a->in, out, sa) ||
	    !bstrides(&a->in2, out, sb))
		return VPUX_KERNEL_EARGS;
	for (d = 0; d < out->rank; d++)
		so[d] = (u32)(out->strides[d] >> 3);
	do {
		u32 oa = 0, ob = 0, oo = 0, x, y, r;

		for (d = 0; d < out->rank; d++) {
			oa += idx[d] * sa[d];
			ob += idx[d] * sb[d];
			oo += idx[d] * so[d];
		}
		x = vk_load_f(&a->in, oa);
		y = vk_load_f(&a->in2, ob);
		switch (a->func) {
		case VPUX_SHAVE_BIN_ADD:
			r = vk_bits(vk_float(x) + vk_float(y));
			break;
		case VPUX_SHAVE_BIN_SUB:
			r = vk_bits(vk_float(x) - vk_float(y));
			break;
		case VPUX_SHAVE_BIN_MUL:
			r = vk_bits(vk_float(x) * vk_float(y));
			break;
		case VPUX_SHAVE_BIN_DIV:
			r = vk_bits(vk_float(x) / vk_float(y));
			break;
		case VPUX_SHAVE_BIN_POW:
			r = vpux_fm_pow(x, y);
			break;
		case VPUX_SHAVE_BIN_MAX:
			r = vpux_f32_max(x, y);
			break;
		default:
			r = vpux_f32_min(x, y);
			break;
		}
		vk_store_f(out, oo, r);
	} while (vk_next(idx, out->dims, out->rank, ~0u));
	return VPUX_KERNEL_OK;
}
