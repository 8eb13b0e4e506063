// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Small helpers of the engine core: no libc, so the few primitives it
 * needs are here, written for a 32-bit target without libgcc.
 */
#include "dla_priv.h"

const char *const dla_kind_name[DLA_OP_KINDS] = {
	[DLA_OP_DMA] = "dma",
	[DLA_OP_DPU] = "dpu",
	[DLA_OP_SHAVE] = "shave",
};

void dla_zero(void *p, dla_u32 len)
{
	dla_memset(p, 0, len);
}

dla_s32 dla_read_dma_address(void *driver_context, void *task_data,
			     dla_s16 index, struct dla_address *dst)
{
	return dla_get_dma_address(driver_context, task_data, index, dst,
				   DESTINATION_DMA);
}

dla_s32 dla_read_cpu_address(void *driver_context, void *task_data,
			     dla_s16 index, struct dla_address *dst)
{
	return dla_get_dma_address(driver_context, task_data, index, dst,
				   DESTINATION_PROCESSOR);
}
