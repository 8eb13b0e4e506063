// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * CONVERT (struct vpux_shave_convert_args): F16/F32 conversion,
 * quantize, dequantize.
 * The built-in kernel's definition, ref/shave_ref_f.c ref_eltwise(), compiled for
 * the SHAVE core (vk_ref.h); argument errors are status VPUX_KERNEL_EARGS.
 */
#define VK_REF_F
#include "vk_ref.h"

VPUX_KERNEL_ENTRY int vpux_kernel(u32 args_addr, u32 args_size)
{
	return VK_REF_RUN_F(VPUX_SHAVE_KERNEL_CONVERT, ref_eltwise, args_addr,
			  args_size);
}
