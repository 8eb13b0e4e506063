// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The model's cycle model of the compute ops (Documentation/compute-ops.rst):
 * what a DPU descriptor or a prepared SHAVE job costs on its engine. Not
 * part of the ops' definition (ref/), only of this model of the engines.
 */
#include "vpux_ops_internal.h"

/**
 * vpux_dpu_cycles() - estimated engine cycles of a DPU descriptor
 * @d: descriptor
 *
 * VPUX_DPU_CYCLES_SETUP plus the larger of the compute time and the CMX
 * transfer time: CONV/MATMUL retire 256 MACs per cycle, ADD/MUL and pooling
 * 32 element operations per cycle, and every operand byte moves at 64 bytes
 * per cycle. FP16 ops (VPUX_DPU_F_FP16) run at half those rates, 128 MACs
 * and 16 element operations (ADD/SUB/MUL, pooling) per cycle: an FP16
 * multiplier is about twice an int8 one, and the operands are twice as
 * many bytes (which the transfer time counts through the extents). An
 * invalid descriptor costs the setup cycles only.
 *
 * Return: cycles.
 */
u64 vpux_dpu_cycles(const struct vpux_hw_dpu_desc *d)
{
	struct vpux_dpu_extents e;
	u64 compute, bytes;
	u32 sh;

	if (vpux_dpu_extents(d, &e))
		return VPUX_DPU_CYCLES_SETUP;
	if (d->op == VPUX_DPU_OP_CONV || d->op == VPUX_DPU_OP_MATMUL)
		sh = d->flags & VPUX_DPU_F_FP16 ?
		     VPUX_DPU_F16_MACS_PER_CYCLE_SHIFT :
		     VPUX_DPU_MACS_PER_CYCLE_SHIFT;
	else
		sh = d->flags & VPUX_DPU_F_FP16 ?
		     VPUX_DPU_F16_ELEMS_PER_CYCLE_SHIFT :
		     VPUX_DPU_ELEMS_PER_CYCLE_SHIFT;
	compute = (e.macs + (1u << sh) - 1) >> sh;
	bytes = e.in + e.in2 + e.bias + e.quant + e.out;
	bytes = (bytes + (1u << VPUX_DPU_BYTES_PER_CYCLE_SHIFT) - 1) >>
		VPUX_DPU_BYTES_PER_CYCLE_SHIFT;
	return VPUX_DPU_CYCLES_SETUP + (compute > bytes ? compute : bytes);
}

/**
 * vpux_shave_job_cycles() - estimated SHAVE cycles of a prepared job
 * @job: prepared job
 *
 * VPUX_SHAVE_CYCLES_LAUNCH plus: clamp 16 elements per cycle, quantize 8,
 * permute 4, sigmoid/tanh the table build plus 8 per cycle, softmax three
 * passes at 8 per cycle plus VPUX_SHAVE_CYCLES_LINE per line.
 *
 * Return: cycles.
 */
u64 vpux_shave_job_cycles(const struct vpux_shave_job *job)
{
	u64 n = job->elems, c;

	switch (job->kernel_id) {
	case VPUX_SHAVE_KERNEL_CLAMP:
		c = (n + 15) >> 4;
		break;
	case VPUX_SHAVE_KERNEL_QUANTIZE:
		c = (n + 7) >> 3;
		break;
	case VPUX_SHAVE_KERNEL_PERMUTE:
		c = (n + 3) >> 2;
		break;
	case VPUX_SHAVE_KERNEL_SOFTMAX: {
		u32 l = job->in.dims[job->a.softmax.axis];
		u64 lines = 0;

		/* lines = n / l without a 64-bit division */
		lines = vpux_fx_div_u64(n, l);
		c = ((3 * n + 7) >> 3) + lines * VPUX_SHAVE_CYCLES_LINE;
		break;
	}
	default:
		c = VPUX_SHAVE_CYCLES_LUT_BUILD + ((n + 7) >> 3);
		break;
	}
	return VPUX_SHAVE_CYCLES_LAUNCH + c;
}

/**
 * vpux_shave_fjob_cycles() - estimated SHAVE cycles of an FP16/FP32 job
 * @job: prepared job
 *
 * VPUX_SHAVE_CYCLES_LAUNCH plus, for n output elements (N input elements
 * for the reductions): CONVERT ceil(n/8); UNARY ceil(n/8), or ceil(n/2)
 * for the functions built on exp/log/erf/pow (VPUX_SHAVE_UN_EXP ..
 * GELU_TANH, SILU); BINARY ceil(n/8), POW ceil(n/2); SOFTMAX_F and
 * LOG_SOFTMAX_F ceil(3n/2) (an exp per element twice) plus
 * VPUX_SHAVE_CYCLES_LINE per line; LAYERNORM ceil(3n/8) plus
 * VPUX_SHAVE_CYCLES_LINE per group; REDUCE ceil(N/8); RESIZE nearest,
 * GATHER, PAD ceil(n/4) (gathers); RESIZE linear ceil(n/2).
 *
 * Return: cycles.
 */
u64 vpux_shave_fjob_cycles(const struct vpux_shave_fjob *job)
{
	u64 n = job->elems, c, lines;
	u32 f;

	switch (job->kernel_id) {
	case VPUX_SHAVE_KERNEL_UNARY:
		f = job->a.unary.func;
		c = f <= VPUX_SHAVE_UN_GELU_TANH || f == VPUX_SHAVE_UN_SILU ?
		    (n + 1) >> 1 : (n + 7) >> 3;
		break;
	case VPUX_SHAVE_KERNEL_BINARY:
		c = job->a.binary.func == VPUX_SHAVE_BIN_POW ? (n + 1) >> 1 :
		    (n + 7) >> 3;
		break;
	case VPUX_SHAVE_KERNEL_SOFTMAX_F:
	case VPUX_SHAVE_KERNEL_LOG_SOFTMAX_F:
		lines = vpux_fx_div_u64(n, job->t[0].dims[job->a.softmax.axis]);
		c = ((3 * n + 1) >> 1) + lines * VPUX_SHAVE_CYCLES_LINE;
		break;
	case VPUX_SHAVE_KERNEL_LAYERNORM: {
		u64 g = 1;
		u32 i;

		for (i = job->a.ln.axis; i < job->t[0].rank; i++)
			g *= job->t[0].dims[i];
		lines = vpux_fx_div_u64(n, g);
		c = ((3 * n + 7) >> 3) + lines * VPUX_SHAVE_CYCLES_LINE;
		break;
	}
	case VPUX_SHAVE_KERNEL_RESIZE:
		c = job->a.resize.mode == VPUX_SHAVE_RESIZE_LINEAR ?
		    (n + 1) >> 1 : (n + 3) >> 2;
		break;
	case VPUX_SHAVE_KERNEL_GATHER:
	case VPUX_SHAVE_KERNEL_PAD:
		c = (n + 3) >> 2;
		break;
	case VPUX_SHAVE_KERNEL_REDUCE: {
		u64 in = 1;
		u32 i;

		for (i = 0; i < job->t[0].rank; i++)
			in *= job->t[0].dims[i];
		c = (in + 7) >> 3;
		break;
	}
	default:
		c = (n + 7) >> 3;
		break;
	}
	return VPUX_SHAVE_CYCLES_LAUNCH + c;
}
