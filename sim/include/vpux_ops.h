/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Compute kernels of the NPU model: what its DPU and SHAVE engines do to
 * data once an engine has fetched its operands through the MMU.
 *
 * vpux_dpu_run()/vpux_shave_run() are the model's optimised kernels
 * (sim/ops/). They take the operands of vpux_hw_ops.h, the hardware's
 * definition of the ops, and agree bit for bit with its plain references
 * (vpux_ref_dpu_run()/vpux_ref_shave_run(), ref/). On top of them the
 * model has its cycle model and its cancellation granularity.
 *
 * Integer arithmetic only (the kernel has no FPU); no libc beyond
 * vpux_sim_compat.h; builds in the kernel and in user space.
 * Functions return 0 or a negative VPUX_ENG_ERR_* code.
 */
#ifndef VPUX_OPS_H
#define VPUX_OPS_H

#include "vpux_sim_compat.h"
#include "vpux_hw_ops.h"

/* Estimated engine cycles of @d (cycle model, documented). */
u64 vpux_dpu_cycles(const struct vpux_hw_dpu_desc *d);
/* @o->yield: see VPUX_DPU_YIELD_WORK */
int vpux_dpu_run(const struct vpux_hw_dpu_desc *d,
		 const struct vpux_dpu_operands *o);

#ifndef __KERNEL__
/*
 * User space: which code vpux_dpu_run() uses. AUTO (the default) picks the
 * best the CPU supports, once, unless the environment variable
 * VPUX_DPU_SIMD names a path ("generic", "avx2", "avx512vnni"); GENERIC
 * forces the portable code the kernel build runs (tests and benchmarks
 * compare them); AVX2 asks for the x86-64 AVX2 kernels (dense and
 * depthwise CONV, MATMUL; FP16 CONV and MATMUL with FMA and F16C);
 * AVX512VNNI for the AVX-512 VNNI kernels of the same ops (what they
 * decline runs on AVX2) and the AVX-512F kernels of FP16. A path is
 * granted only where the build has it and the CPU supports it, else the
 * next one down (AVX512VNNI, AVX2, GENERIC). Returns the path now in use
 * (never AUTO). Process-wide; not for use while ops run.
 */
enum vpux_dpu_path {
	VPUX_DPU_PATH_AUTO = 0,
	VPUX_DPU_PATH_GENERIC = 1,
	VPUX_DPU_PATH_AVX2 = 2,
	VPUX_DPU_PATH_AVX512VNNI = 3,
};
int vpux_dpu_set_path(int path);
#endif

/*
 * Cancellation granularity of the DPU kernels: they call @yield after
 * every output row and, within a row, as soon as this many operations
 * (MACs, or element operations for pooling and element-wise ops) were
 * done since the last call. They check between pixels, so on top of it
 * comes at most one pixel's block of work: 64 output channels x
 * VPUX_DPU_MAX_K = 2^21 MACs (CONV/MATMUL), 32 channels x VPUX_DPU_MAX_K
 * (depthwise, pooling), one element (ADD/MUL). So at most 3 * 2^20
 * operations run between two calls.
 */
#define VPUX_DPU_YIELD_WORK		(1u << 20)

/* Cycle model constants (Documentation/compute-ops.rst). */
#define VPUX_DPU_CYCLES_SETUP		64u	/* descriptor fetch, pipeline fill */
#define VPUX_DPU_MACS_PER_CYCLE_SHIFT	8	/* 256 int8 MACs per cycle */
#define VPUX_DPU_ELEMS_PER_CYCLE_SHIFT	5	/* 32 element ops per cycle */
#define VPUX_DPU_BYTES_PER_CYCLE_SHIFT	6	/* 64 bytes of CMX per cycle */
/* FP16 ops (VPUX_DPU_F_FP16): half the int8 rates */
#define VPUX_DPU_F16_MACS_PER_CYCLE_SHIFT	7	/* 128 FP16 MACs per cycle */
#define VPUX_DPU_F16_ELEMS_PER_CYCLE_SHIFT	4	/* 16 element ops per cycle */

/*
 * Run software kernel @kernel_id with the opaque argument buffer @args
 * (already copied from device memory, @args_size bytes). The kernel checks
 * @args_size and every record before touching memory. On success *cycles
 * holds the kernel's estimated cycles.
 */
int vpux_shave_run(u32 kernel_id, const void *args, u32 args_size,
		   const struct vpux_shave_mem *mem, u64 *cycles);

#endif /* VPUX_OPS_H */
