/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Helpers of the model's optimised kernels (sim/ops/): what they share
 * with the references is in vpux_hw_ops_internal.h; this adds the model's
 * own (compiler attributes, the SHAVE cycle model).
 */
#ifndef VPUX_OPS_INTERNAL_H
#define VPUX_OPS_INTERNAL_H

#include "vpux_ops.h"
#include "vpux_hw_ops_internal.h"

#ifndef noinline
#define noinline	__attribute__((__noinline__))
#endif

#ifndef fallthrough
#define fallthrough	__attribute__((__fallthrough__))
#endif

/*
 * Marks a function whose u32 arithmetic wraps on purpose (exact modulo
 * 2^32): keeps clang's opt-in unsigned-overflow checker quiet there.
 */
#if defined(__clang__)
#define VPUX_WRAPS	__attribute__((no_sanitize("unsigned-integer-overflow")))
#else
#define VPUX_WRAPS
#endif

/*
 * User-space x86-64 builds add SIMD DPU kernels (dpu_simd.c), chosen at
 * run time; the kernel and freestanding builds run the generic code only.
 */
#if !defined(__KERNEL__) && !defined(VPUX_DPU_SCALAR) && \
	defined(__STDC_HOSTED__) && __STDC_HOSTED__ && defined(__x86_64__) && \
	defined(__GNUC__)
#define VPUX_DPU_SIMD	1
/* true if the SIMD path ran @d (result in *@ret); false: run it generic */
bool vpux_dpu_simd_run(const struct vpux_hw_dpu_desc *d,
		       const struct vpux_dpu_operands *o, int *ret);
/* the path in use (vpux_dpu_set_path(), AUTO resolved on first use) */
int vpux_dpu_simd_path(void);
/* likewise for FP16 descriptors (dpu_f16_simd.c) */
bool vpux_dpu_f16_simd_run(const struct vpux_hw_dpu_desc *d,
			   const struct vpux_dpu_operands *o, int *ret);
#endif

/*
 * FP16 DPU ops (dpu_f16.c): a valid descriptor with checked operands;
 * 0 or VPUX_ERR(ABORTED).
 */
int vpux_dpu_f16_run(const struct vpux_hw_dpu_desc *d,
		     const struct vpux_dpu_operands *o);

/* estimated cycles of a prepared job */
u64 vpux_shave_job_cycles(const struct vpux_shave_job *job);
u64 vpux_shave_fjob_cycles(const struct vpux_shave_fjob *job);

/* FP16/FP32 kernels (shave_f.c): as vpux_shave_run() */
int vpux_shave_f_run(u32 kernel_id, const void *args, u32 args_size,
		     const struct vpux_shave_mem *mem, u64 *cycles);

/* a SHAVE kernel's memory error: negative codes as they are, else MMU */
static inline int vpux_shave_mem_err(int ret)
{
	return ret < 0 ? ret : VPUX_ERR(MMU);
}

/* 0, or VPUX_ERR(ABORTED) if the SHAVE op must stop */
static inline int vpux_shave_yield(const struct vpux_shave_mem *m)
{
	if (m->yield && m->yield(m->ctx))
		return VPUX_ERR(ABORTED);
	return 0;
}

/* write @n packed elements of @es bytes from @src to @addr, @stride apart */
static inline int vpux_shave_scatter(const struct vpux_shave_mem *m, u32 addr,
				     u64 stride, u32 n, u32 es, const u8 *src)
{
	u32 i;
	int ret;

	if (stride == es || n == 1) {
		ret = m->write(m->ctx, addr, src, n * es);
		return ret ? vpux_shave_mem_err(ret) : 0;
	}
	for (i = 0; i < n; i++) {
		ret = m->write(m->ctx, addr + (u32)(i * stride), src + i * es, es);
		if (ret)
			return vpux_shave_mem_err(ret);
	}
	return 0;
}

#endif /* VPUX_OPS_INTERNAL_H */
