// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Float graph operators for the parts of a partitioned ONNX model the
 * NPU cannot run (compiler/, Documentation/run-recipes.rst).
 */
#include <stddef.h>

#include "cpuops.h"

const struct cpuops_entry cpuops_float[] = {
	{ NULL, 0, NULL },
};
