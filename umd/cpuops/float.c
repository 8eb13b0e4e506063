// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Float graph operators for the parts of a partitioned ONNX model the
 * NPU cannot run (compiler/partition.c, Documentation/cpuops.rst). The
 * operators live in float_*.c; their arguments are checked with
 * float_args.h.
 */
#include <stddef.h>

#include "cpuops.h"
#include "float_ops.h"

const struct cpuops_entry cpuops_float[] = {
	{ "relu", 3, cpuops_relu },
	{ "add", 6, cpuops_add },
	{ "softmax", 4, cpuops_softmax },
	{ "concat2", 6, cpuops_concat2 },
	{ "concat3", 7, cpuops_concat3 },
	{ "concat4", 8, cpuops_concat4 },
	{ "concat5", 9, cpuops_concat5 },
	{ "concat6", 10, cpuops_concat6 },
	{ "concat7", 11, cpuops_concat7 },
	{ "concat8", 12, cpuops_concat8 },
	{ "conv", 10, cpuops_conv },
	{ "conv_nobias", 9, cpuops_conv_nobias },
	{ "matmul", 5, cpuops_matmul },
	{ "gemm", 11, cpuops_gemm },
	{ "gemm_noc", 8, cpuops_gemm_noc },
	{ "resize", 8, cpuops_resize },
	{ "fill", 2, cpuops_fill },
	{ NULL, 0, NULL },
};
