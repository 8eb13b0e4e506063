// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Optimised DPU kernels of the NPU model (placeholder until the kernels
 * land: validates and reports the descriptor invalid).
 */
#include "vpux_ops_internal.h"

/**
 * vpux_dpu_run() - execute a DPU descriptor on host copies of its operands
 * @d: descriptor
 * @o: operands sized by vpux_dpu_extents()
 *
 * Return: 0 or a negative VPUX_ENG_ERR_* code.
 */
int vpux_dpu_run(const struct vpux_hw_dpu_desc *d,
		 const struct vpux_dpu_operands *o)
{
	struct vpux_dpu_extents e;
	int ret;

	ret = vpux_dpu_extents(d, &e);
	if (ret)
		return ret;
	ret = vpux_dpu_check_quant(d, o->quant);
	if (ret)
		return ret;
	return -VPUX_ENG_ERR_DESC;
}
