/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Compute kernels of the NPU model: what a DPU or SHAVE engine does to
 * data once the engine has fetched its operands through the MMU.
 *
 * Two implementations share these signatures:
 *  - vpux_dpu_run()/vpux_shave_run(): the model's optimised kernels
 *    (sim/ops/), what the engines execute;
 *  - vpux_ref_dpu_run()/vpux_ref_shave_run(): plain loops (sim/ref/), the
 *    CPU reference tests and the UMD compare with, bit for bit.
 *
 * Integer arithmetic only (the kernel has no FPU); no libc beyond
 * vpux_sim_compat.h; builds in the kernel and in user space.
 * Functions return 0 or a negative VPUX_ENG_ERR_* code.
 */
#ifndef VPUX_OPS_H
#define VPUX_OPS_H

#include "vpux_sim_compat.h"
#include "vpux_regs.h"
#include "vpux_dpu_rules.h"

/**
 * struct vpux_dpu_operands - host copies of a DPU op's operands
 * @in: activations, @ext.in bytes
 * @in2: weights or second input, or NULL
 * @bias: int32 bias, or NULL
 * @quant: per-channel requant records, or NULL
 * @out: output buffer, @ext.out bytes
 * @yield: optional, called between output rows and within long rows
 *	(see VPUX_DPU_YIELD_WORK); returns true if the op must stop, the
 *	kernel then returns VPUX_ERR(ABORTED) at once
 * @yield_arg: argument of @yield
 */
struct vpux_dpu_operands {
	const void *in;
	const void *in2;
	const s32 *bias;
	const struct vpux_hw_requant *quant;
	void *out;
	bool (*yield)(void *arg);
	void *yield_arg;
};

/*
 * The DPU engine's check of @d (vpux_dpu_check(), vpux_dpu_rules.h): 0 and
 * the operand sizes, or VPUX_ERR(DESC) with @ext zeroed.
 */
int vpux_dpu_extents(const struct vpux_hw_dpu_desc *d,
		     struct vpux_dpu_extents *ext);
/* Estimated engine cycles of @d (cycle model, documented). */
u64 vpux_dpu_cycles(const struct vpux_hw_dpu_desc *d);
int vpux_dpu_run(const struct vpux_hw_dpu_desc *d,
		 const struct vpux_dpu_operands *o);
int vpux_ref_dpu_run(const struct vpux_hw_dpu_desc *d,
		     const struct vpux_dpu_operands *o);

/* negative int error code for VPUX_ENG_ERR_x: VPUX_ERR(DESC) */
#define VPUX_ERR(x)			(-(int)VPUX_ENG_ERR_##x)

/* Fixed-point requantisation shared by every op: see compute-ops.rst. */
s32 vpux_requant(s64 acc, const struct vpux_hw_requant *q);

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

/**
 * struct vpux_shave_mem - a SHAVE kernel's view of memory
 * @ctx: engine context passed back to the callbacks
 * @read: read @len bytes at window address @waddr (see VPUX_WADDR); 0 or
 *	-VPUX_ENG_ERR_MMU / -VPUX_ENG_ERR_ARGS when outside a window
 * @write: write @len bytes at window address @waddr
 * @alloc: scratch memory for the kernel, NULL on failure
 * @free: release scratch memory
 * @yield: optional, called between chunks of long kernels (at most
 *	1024 elements or 64 KiB of staged input apart); returns true if the
 *	op must stop, the kernel then returns VPUX_ERR(ABORTED) at once
 */
struct vpux_shave_mem {
	void *ctx;
	int (*read)(void *ctx, u32 waddr, void *dst, u32 len);
	int (*write)(void *ctx, u32 waddr, const void *src, u32 len);
	void *(*alloc)(void *ctx, size_t size);
	void (*free)(void *ctx, void *ptr);
	bool (*yield)(void *ctx);
};

/*
 * Run software kernel @kernel_id with the opaque argument buffer @args
 * (already copied from device memory, @args_size bytes). The kernel checks
 * @args_size and every record before touching memory. On success *cycles
 * holds the kernel's estimated cycles.
 */
int vpux_shave_run(u32 kernel_id, const void *args, u32 args_size,
		   const struct vpux_shave_mem *mem, u64 *cycles);
int vpux_ref_shave_run(u32 kernel_id, const void *args, u32 args_size,
		       const struct vpux_shave_mem *mem);

#endif /* VPUX_OPS_H */
