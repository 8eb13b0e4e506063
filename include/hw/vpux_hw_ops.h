/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What a DPU or SHAVE engine computes, as part of the hardware's
 * definition: the operands of an op once the engine has fetched them, the
 * requantisation every op ends with, and the plain CPU reference kernels
 * (ref/) that state each op one element at a time,
 * Documentation/compute-ops.rst in code.
 *
 * Any implementation of the engines (the NPU model's optimised kernels
 * among them) takes the same operands and must agree with
 * vpux_ref_dpu_run()/vpux_ref_shave_run() bit for bit; user space runs the
 * references to check a device's results.
 *
 * Integer arithmetic only (the kernel has no FPU); no libc beyond
 * vpux_hw_types.h; builds in the kernel, in user space and freestanding.
 * Functions return 0 or a negative VPUX_ENG_ERR_* code.
 */
#ifndef VPUX_HW_OPS_H
#define VPUX_HW_OPS_H

#include "vpux_hw_types.h"
#include "vpux_regs.h"
#include "vpux_dpu_rules.h"

/* negative int error code for VPUX_ENG_ERR_x: VPUX_ERR(DESC) */
#define VPUX_ERR(x)			(-(int)VPUX_ENG_ERR_##x)

/**
 * struct vpux_dpu_operands - host copies of a DPU op's operands
 * @in: activations, @ext.in bytes
 * @in2: weights or second input, or NULL
 * @bias: int32 bias (FP16 ops: FP32 bit patterns), or NULL
 * @quant: per-channel requant records (FP16 ops: struct
 *	vpux_hw_dpu_fchan records, in the same memory), or NULL
 * @out: output buffer, @ext.out bytes
 * @yield: optional, called between output rows and within long rows (how
 *	often is the implementation's); returns true if the op must stop,
 *	the kernel then returns VPUX_ERR(ABORTED) at once (the references
 *	ignore the result and run to the end)
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
/* The plain reference of a DPU op: 0 or VPUX_ERR(DESC). */
int vpux_ref_dpu_run(const struct vpux_hw_dpu_desc *d,
		     const struct vpux_dpu_operands *o);

/* Fixed-point requantisation shared by every op: see compute-ops.rst. */
s32 vpux_requant(s64 acc, const struct vpux_hw_requant *q);

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
 * The plain reference of software kernel @kernel_id with the opaque
 * argument buffer @args (already copied from device memory, @args_size
 * bytes). The kernel checks @args_size and every record before touching
 * memory.
 */
int vpux_ref_shave_run(u32 kernel_id, const void *args, u32 args_size,
		       const struct vpux_shave_mem *mem);

#endif /* VPUX_HW_OPS_H */
