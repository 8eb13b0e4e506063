// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * FP16 DPU ops of the NPU model (VPUX_DPU_F_FP16).
 */
#include "vpux_ops_internal.h"

int vpux_dpu_f16_run(const struct vpux_hw_dpu_desc *d,
		     const struct vpux_dpu_operands *o)
{
	vpux_ref_dpu_run_f16(d, o);
	return 0;
}
