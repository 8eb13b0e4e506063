/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Loadable records -> hardware descriptors, and the ops' definition. */
#ifndef VPUX_LF_HW_H
#define VPUX_LF_HW_H

#include "lf.h"
#include "vpux_hw_ops.h"

void lf_dpu_to_hw(const struct vpux_lf_dpu *s, struct vpux_hw_dpu_desc *d);

#endif /* VPUX_LF_HW_H */
