// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux NPU model: DPU and SHAVE engines. Placeholder until the compute
 * kernels (sim/ops/) are in the tree: every op is refused as a bad
 * descriptor, which a driver handles like any other engine error.
 */

#include "vpux_sim_priv.h"

void vpux_sim_dpu_exec(struct vpux_sim_op *op)
{
	op->err = VPUX_ENG_ERR_DESC;
	op->cycles = VPUX_SIM_ERR_CYCLES;
}

void vpux_sim_shave_exec(struct vpux_sim_op *op)
{
	op->err = VPUX_ENG_ERR_KERNEL;
	op->cycles = VPUX_SIM_ERR_CYCLES;
}
