// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SIGMOID (struct vpux_shave_lut_args): U8/I8, each value from
 * vpux_fx_sigmoid_q16() (the built-in kernel tabulates the same values).
 * The built-in kernel's definition, ref/shave_ref.c ref_eltwise(), compiled for
 * the SHAVE core (vk_ref.h); argument errors are status VPUX_KERNEL_EARGS.
 */
#define VK_REF_INT
#include "vk_ref.h"

VPUX_KERNEL_ENTRY int vpux_kernel(u32 args_addr, u32 args_size)
{
	return VK_REF_RUN_INT(VPUX_SHAVE_KERNEL_SIGMOID, ref_eltwise, args_addr,
			  args_size);
}
