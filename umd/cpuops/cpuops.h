/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * libvpux-cpuops internals: the functions are kept in per-family tables
 * that lookup() (library.c) searches in order. Each table ends with an
 * entry whose name is NULL.
 */
#ifndef VPUX_CPUOPS_H
#define VPUX_CPUOPS_H

#include <stdint.h>

#include "vpux_cpu.h"

/**
 * struct cpuops_entry - one function of the library
 * @name: the name recipes use
 * @num_args: the number of arguments it takes
 * @fn: the function
 */
struct cpuops_entry {
	const char *name;
	uint32_t num_args;
	vpux_cpu_fn fn;
};

/* format conversions: quantize/dequantize, layout changes (convert.c) */
extern const struct cpuops_entry cpuops_convert[];
/* float graph operators for partitioned ONNX models (float.c) */
extern const struct cpuops_entry cpuops_float[];

#endif /* VPUX_CPUOPS_H */
