// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SHAVE software kernels of the NPU model (placeholder: no kernels yet).
 */
#include "vpux_ops_internal.h"

/**
 * vpux_shave_run() - run a built-in software kernel
 * @kernel_id: VPUX_SHAVE_KERNEL_*
 * @args: argument buffer, @args_size bytes
 * @args_size: size of @args
 * @mem: memory callbacks of the engine
 * @cycles: estimated cycles on success
 *
 * Return: 0 or a negative VPUX_ENG_ERR_* code.
 */
int vpux_shave_run(u32 kernel_id, const void *args, u32 args_size,
		   const struct vpux_shave_mem *mem, u64 *cycles)
{
	(void)kernel_id;
	(void)args;
	(void)args_size;
	(void)mem;
	*cycles = 0;
	return -VPUX_ENG_ERR_KERNEL;
}
