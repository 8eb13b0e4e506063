/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The float operators of libvpux-cpuops (float_*.c), listed in
 * cpuops_float[] (float.c) and documented in Documentation/cpuops.rst.
 */
#ifndef VPUX_CPUOPS_FLOAT_OPS_H
#define VPUX_CPUOPS_FLOAT_OPS_H

#include "vpux_cpu.h"

/* float_elt.c */
int cpuops_relu(const struct vpux_cpu_call *c);
int cpuops_add(const struct vpux_cpu_call *c);
int cpuops_softmax(const struct vpux_cpu_call *c);
int cpuops_concat2(const struct vpux_cpu_call *c);
int cpuops_concat3(const struct vpux_cpu_call *c);
int cpuops_concat4(const struct vpux_cpu_call *c);
int cpuops_concat5(const struct vpux_cpu_call *c);
int cpuops_concat6(const struct vpux_cpu_call *c);
int cpuops_concat7(const struct vpux_cpu_call *c);
int cpuops_concat8(const struct vpux_cpu_call *c);
/* float_nn.c */
int cpuops_conv(const struct vpux_cpu_call *c);
int cpuops_conv_nobias(const struct vpux_cpu_call *c);
int cpuops_matmul(const struct vpux_cpu_call *c);
int cpuops_gemm(const struct vpux_cpu_call *c);
int cpuops_gemm_noc(const struct vpux_cpu_call *c);
/* float_resize.c */
int cpuops_resize(const struct vpux_cpu_call *c);
/* float_const.c */
int cpuops_fill(const struct vpux_cpu_call *c);

#endif /* VPUX_CPUOPS_FLOAT_OPS_H */
